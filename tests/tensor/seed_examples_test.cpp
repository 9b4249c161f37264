// Every example of the five seed documents (SYMERR_SHARED_DIR/seeds), run
// through the operators. Each transcription is tied to its source by cite(),
// which requires the quoted text to occur in the seed file.
//
// Where an example disagrees with the operator's own stated semantics the test
// asserts the disagreement (it fails if the operator is bent to match the
// example) and reports it with WARN("SEED FINDING ..."). The findings are
// listed in tests/tensor/SEED_FINDINGS.md.
#include <catch2/catch.hpp>

#include <symerr/format.hpp>
#include <symerr/ops/any.hpp>

#include <cmath>
#include <fstream>
#include <limits>
#include <random>
#include <sstream>
#include <string>

using namespace symerr;

namespace {

std::string collapse_spaces(const std::string& s) {
  std::string r;
  bool space = false;
  for (char c : s) {
    if (c == ' ' || c == '\n' || c == '\t' || c == '\r') {
      space = true;
      continue;
    }
    if (space && !r.empty()) r += ' ';
    space = false;
    r += c;
  }
  return r;
}

// The quoted text must occur in the seed (whitespace runs compared as one space).
void cite(const std::string& file, const std::string& quote) {
  const std::string path = std::string(SYMERR_SHARED_DIR) + "/seeds/" + file;
  std::ifstream in(path);
  REQUIRE(in.good());
  std::stringstream ss;
  ss << in.rdbuf();
  INFO("seed " << file << " must contain: " << quote);
  REQUIRE(collapse_spaces(ss.str()).find(collapse_spaces(quote)) != std::string::npos);
}

void finding(const std::string& where, const std::string& what) {
  WARN("SEED FINDING " << where << ": " << what);
}

// A decimal value stated to 4 decimals: |computed - stated| <= 0.5e-4, plus the
// rounding of the stated decimal itself into the computing format (`slack`).
template <class T>
void check_decimals(const Tensor<T>& got, const Tensor<double>& stated, double slack,
                    const std::string& where) {
  REQUIRE(got.shape() == stated.shape());
  for (std::size_t k = 0; k < got.size(); ++k) {
    const double g = static_cast<double>(got[k]), s = stated[k];
    INFO(where << " element " << k << ": computed " << g << ", stated " << s);
    if (std::isnan(s)) CHECK(std::isnan(g));
    else if (std::isinf(s)) CHECK(g == s);
    else CHECK(std::fabs(g - s) <= 0.5e-4 + slack * std::fabs(s));
  }
}

DivOptions real_semantics() {
  DivOptions o = DivOptions::sonnx();
  o.float_division_by_zero = FloatDivisionByZero::Undefined;
  return o;
}

template <class T>
bool encodings_equal(const Tensor<T>& a, const Tensor<T>& b) {
  return bitwise_equal(AnyTensor{a}, AnyTensor{b});
}

// An integer example in every integer type wide enough for its values, with
// floor and with truncation.
template <class T>
void int_div_example(const Tensor<int>& A, const Tensor<int>& B, const Tensor<int>& Y,
                     const std::string& where) {
  for (IntegerDivision d : {IntegerDivision::Floor, IntegerDivision::Truncate}) {
    INFO(where << " as " << element_type_name<T>() << " with " << to_string(d));
    CHECK(Div(tensor_cast<T>(A), tensor_cast<T>(B), DivOptions::sonnx(d)) == tensor_cast<T>(Y));
  }
}

template <class... T>
void int_div_example_all(const Tensor<int>& A, const Tensor<int>& B, const Tensor<int>& Y,
                         const std::string& where) {
  (int_div_example<T>(A, B, Y, where), ...);
}

// A float example in FP16, BF16, FP32 and FP64: each result must be the
// correctly rounded quotient (round_to of the exact rational, format library),
// and within 4 decimals (+ half an ulp of the format) of the stated value.
template <class T>
void float_div_example(const Tensor<double>& A, const Tensor<double>& B,
                       const Tensor<double>& stated, const std::string& where) {
  constexpr FloatFormat F = float_format_of<T>();
  const Tensor<T> a = tensor_cast<T>(A), b = tensor_cast<T>(B);
  for (std::size_t k = 0; k < A.size(); ++k) REQUIRE(static_cast<double>(a[k]) == A[k]);  // exact inputs
  const Tensor<T> y = Div(a, b, DivOptions::sonnx());
  for (std::size_t k = 0; k < y.size(); ++k) {
    const double g = static_cast<double>(y[k]);
    INFO(where << " in " << F.name << " element " << k);
    if (B[k] == 0) {
      if (A[k] == 0) CHECK(std::isnan(g));
      else CHECK(g == std::copysign(INFINITY, A[k]));
      continue;
    }
    const mpq_class q = exact_value(A[k]) / exact_value(B[k]);
    CHECK(g == round_to(q, F, RoundingMode::NearestEven).value);
    CHECK(std::fabs(g - stated[k]) <= 0.5e-4 + ulp(stated[k], F) / 2);
  }
}

}  // namespace

// ---------------------------------------------------------------------------
// 000: SONNX Div, newer format
// ---------------------------------------------------------------------------

TEST_CASE("seed 000 SONNX Div (new): real example 1", "[seed]") {
  const std::string f = "000_acf4091c44808315.txt";
  cite(f, R"(A = \begin{bmatrix} 6.1 & 9.5 & 35.7 \end{bmatrix} \in \mathbb{R}^{1 \times 3})");
  cite(f, R"(B = \begin{bmatrix} 3.0 & 3.3 & 5.1 \end{bmatrix} \in \mathbb{R}^{1 \times 3})");
  cite(f, R"(Y = \frac{A}{B} = \begin{bmatrix} 2.0333 & 2.8788 & 7.0 \end{bmatrix})");
  // real semantics, computed in FP64: its error (< 1e-15) is far below the 4 decimals
  const auto Y = Div(Tensor<double>{{6.1, 9.5, 35.7}}, Tensor<double>{{3.0, 3.3, 5.1}}, real_semantics());
  check_decimals(Y, Tensor<double>{{2.0333, 2.8788, 7.0}}, 1e-15, "000 real ex1");
}

TEST_CASE("seed 000 SONNX Div (new): real example 2", "[seed]") {
  const std::string f = "000_acf4091c44808315.txt";
  cite(f, R"(A = \begin{bmatrix} 3.7 & 4.4 \\ 16.2 & 0.5 \\ 25.3 & 24.8 \end{bmatrix})");
  cite(f, R"(B = \begin{bmatrix} 3.0 & 2.2 \\ 4.1 & 1.0 \\ 5.2 & 4.0 \end{bmatrix})");
  cite(f, R"(1.2333 & 2.0 \\ 3.9512 & 0.5 \\ 4.8654 & 6.2)");
  const auto Y = Div(Tensor<double>{{3.7, 4.4}, {16.2, 0.5}, {25.3, 24.8}},
                     Tensor<double>{{3.0, 2.2}, {4.1, 1.0}, {5.2, 4.0}}, real_semantics());
  check_decimals(Y, Tensor<double>{{1.2333, 2.0}, {3.9512, 0.5}, {4.8654, 6.2}}, 1e-15, "000 real ex2");
}

TEST_CASE("seed 000 SONNX Div (new): float example 1 (division by zero -> inf)", "[seed]") {
  const std::string f = "000_acf4091c44808315.txt";
  cite(f, R"(A = \begin{bmatrix} 3.0 & 4.5 \\ 16.0 & 1.0 \\ 25.5 & 24.25 \end{bmatrix})");
  cite(f, R"(B = \begin{bmatrix} 3.0 & 2.0 \\ 4.0 & 0.0 \\ 5.0 & 4.0 \end{bmatrix})");
  cite(f, R"(Y = \begin{bmatrix} 1.0 & 2.25 \\ 4.0 & \infty \\ 5.1 & 6.0625 \end{bmatrix})");
  cite(f, "dtype=np.float32");
  const Tensor<double> A{{3.0, 4.5}, {16.0, 1.0}, {25.5, 24.25}};
  const Tensor<double> B{{3.0, 2.0}, {4.0, 0.0}, {5.0, 4.0}};
  const Tensor<double> Y{{1.0, 2.25}, {4.0, INFINITY}, {5.1, 6.0625}};
  // FP32, the type of the document's numpy snippet
  check_decimals(Div(tensor_cast<float>(A), tensor_cast<float>(B)), Y, 0x1p-24, "000 float ex1 FP32");
  float_div_example<float>(A, B, Y, "000 float ex1");
  float_div_example<double>(A, B, Y, "000 float ex1");
  float_div_example<Half>(A, B, Y, "000 float ex1");
  float_div_example<BFloat16>(A, B, Y, "000 float ex1");
  // In the real semantics the same division by zero is undefined, not inf.
  CHECK_THROWS_AS(Div(A, B, real_semantics()), DomainError);
}

TEST_CASE("seed 000 SONNX Div (new): float example 2 (0/0 -> NaN)", "[seed]") {
  const std::string f = "000_acf4091c44808315.txt";
  cite(f, R"(A = \begin{bmatrix} 3.25 & 4.5 \\ 16.0 & 0.0 \\ 25.5 & 24.25 \end{bmatrix})");
  cite(f, R"(Y = \begin{bmatrix} 1.0833 & 2.25 \\ 4.0 & \text{NaN} \\ 5.1 & 6.0625 \end{bmatrix})");
  const Tensor<double> A{{3.25, 4.5}, {16.0, 0.0}, {25.5, 24.25}};
  const Tensor<double> B{{3.0, 2.0}, {4.0, 0.0}, {5.0, 4.0}};
  const Tensor<double> Y{{1.0833, 2.25}, {4.0, NAN}, {5.1, 6.0625}};
  check_decimals(Div(tensor_cast<float>(A), tensor_cast<float>(B)), Y, 0x1p-24, "000 float ex2 FP32");
  float_div_example<float>(A, B, Y, "000 float ex2");
  float_div_example<double>(A, B, Y, "000 float ex2");
  float_div_example<Half>(A, B, Y, "000 float ex2");
  float_div_example<BFloat16>(A, B, Y, "000 float ex2");
}

TEST_CASE("seed 000 SONNX Div (new): the inf case is signed under IEEE", "[seed]") {
  // The informal float spec says "inf if A[i] != 0 and B[i] = 0"; IEEE 754 (which
  // the same section invokes) gives -inf for a negative dividend or a -0 divisor,
  // and NaN for a NaN dividend. The operator follows IEEE.
  cite("000_acf4091c44808315.txt", R"(\text{inf} & \text{if } A[i] \neq 0 \text{ and } B[i]=0)");
  const auto Y = Div(Tensor<float>{-1.f, 1.f, NAN}, Tensor<float>{0.f, -0.f, 0.f});
  CHECK(Y[0] == -INFINITY);
  CHECK(Y[1] == -INFINITY);
  CHECK(std::isnan(Y[2]));
  finding("000 SONNX Div float informal spec",
          "says inf when A != 0 and B = 0; IEEE gives -inf for A < 0 (or B = -0) and NaN for A = NaN");
}

TEST_CASE("seed 000 SONNX Div (new): integer examples, floor and truncation", "[seed]") {
  const std::string f = "000_acf4091c44808315.txt";
  cite(f, R"(A = \begin{bmatrix} 6 & 9 & 35 \end{bmatrix} \quad B = \begin{bmatrix} 3 & 3 & 5 \end{bmatrix})");
  cite(f, R"(Y = \begin{bmatrix} 2 & 3 & 7 \end{bmatrix})");
  cite(f, R"(A = \begin{bmatrix} 10 & 10 \\ 21 & 1 \\ 30 & 9 \end{bmatrix})");
  cite(f, R"(B = \begin{bmatrix} 3 & 2 \\ 4 & 1 \\ 5 & 4 \end{bmatrix})");
  cite(f, R"(Y = \begin{bmatrix} 3 & 5 \\ 5 & 1 \\ 6 & 2 \end{bmatrix})");
  // All operands are positive, so floor and truncation agree; every value is right
  // (10/3 = 3.33 -> 3, 21/4 = 5.25 -> 5, 9/4 = 2.25 -> 2). INT4/UINT4 cannot hold them.
  int_div_example_all<std::int8_t, std::int16_t, std::int32_t, std::int64_t, std::uint8_t,
                      std::uint16_t, std::uint32_t, std::uint64_t>(
      Tensor<int>{{6, 9, 35}}, Tensor<int>{{3, 3, 5}}, Tensor<int>{{2, 3, 7}}, "000 int ex1");
  int_div_example_all<std::int8_t, std::int16_t, std::int32_t, std::int64_t, std::uint8_t,
                      std::uint16_t, std::uint32_t, std::uint64_t>(
      Tensor<int>{{10, 10}, {21, 1}, {30, 9}}, Tensor<int>{{3, 2}, {4, 1}, {5, 4}},
      Tensor<int>{{3, 5}, {5, 1}, {6, 2}}, "000 int ex2");
  finding("000 SONNX Div int examples",
          "all operands positive: the examples cannot tell floor from truncation "
          "(no negative operand), although the section specifies floor");
}

TEST_CASE("seed 000 SONNX Div (new): the Why3 texts disagree with the informal semantics", "[seed]") {
  const std::string f = "000_acf4091c44808315.txt";
  // Real section: informal spec and [C2] say a zero divisor is undefined; the Why3
  // module DivReal returns infinity / nan instead. The operator's real semantics
  // (FloatDivisionByZero::Undefined) report the element as undefined.
  cite(f, R"(\text{undefined} & \text{otherwise})");
  cite(f, "module DivReal");
  cite(f, "else if a.value[i] <> 0.0 && b.value[i] = 0.0 then result.value[i] = infinity");
  const DivResult<double> r = div_checked(Tensor<double>{1.0, 0.0}, Tensor<double>{0.0, 0.0}, real_semantics());
  CHECK(r.undefined == std::vector<std::size_t>{0, 1});
  finding("000 SONNX Div real section",
          "the informal spec and [C2] make B = 0 undefined; the Why3 module DivReal returns "
          "infinity (A != 0) or nan (A = 0)");
  // Int section: the informal spec says floor; the Why3 module uses int.Int's '/', which
  // Why3 does not define (int.EuclideanDivision's div rounds 7 / -2 to -3, floor gives -4).
  cite(f, "ensures { forall i. result.value[i] = a.value[i] / b.value[i] }");
  CHECK(Div(Tensor<int>{7}, Tensor<int>{-2}, DivOptions::sonnx(IntegerDivision::Floor))[0] == -4);
  finding("000 SONNX Div int section",
          "informal spec: floor; Why3 DivInt: a / b with only int.Int imported (no division "
          "there; Why3's Euclidean div gives 7 / -2 = -3, floor gives -4, truncation -3)");
}

// ---------------------------------------------------------------------------
// 001: SONNX Div, older format
// ---------------------------------------------------------------------------

TEST_CASE("seed 001 SONNX Div (old): real examples", "[seed]") {
  const std::string f = "001_16275cc1406d3c06.txt";
  cite(f, R"(A = \begin{bmatrix} 6 & 9 & 35 \end{bmatrix})");
  cite(f, R"(C = \begin{bmatrix} 2 & 3 & 7 \end{bmatrix})");
  cite(f, R"(A = \begin{bmatrix} 3 & 4 \\ 16 & 0 \\ 25 & 24 \end{bmatrix})");
  cite(f, R"(B = \begin{bmatrix} 3 & 2 \\ 4 & 1 \\ 5 & 4 \end{bmatrix})");
  cite(f, R"(C = \begin{bmatrix} 1 & 2 \\ 4 & 0 \\ 5 & 6 \end{bmatrix})");
  CHECK(Div(Tensor<double>{{6, 9, 35}}, Tensor<double>{{3, 3, 5}}, real_semantics()) ==
        Tensor<double>{{2, 3, 7}});
  CHECK(Div(Tensor<double>{{3, 4}, {16, 0}, {25, 24}}, Tensor<double>{{3, 2}, {4, 1}, {5, 4}},
            real_semantics()) == Tensor<double>{{1, 2}, {4, 0}, {5, 6}});
}

TEST_CASE("seed 001 SONNX Div (old): float examples in FP16, BF16, FP32, FP64", "[seed]") {
  const std::string f = "001_16275cc1406d3c06.txt";
  cite(f, R"(A = \begin{bmatrix} 3 & 4 \\ 16 & 1 \\ 25 & 24 \end{bmatrix})");
  cite(f, R"(B = \begin{bmatrix} 3 & 2 \\ 4 & 0 \\ 5 & 4 \end{bmatrix})");
  cite(f, R"(C = \begin{bmatrix} 1 & 2 \\ 4 & \text{inf} \\ 5 & 6 \end{bmatrix})");
  cite(f, R"(C = \begin{bmatrix} 1 & 2 \\ 4 & \text{nan} \\ 5 & 6 \end{bmatrix})");
  const Tensor<double> A1{{3, 4}, {16, 1}, {25, 24}}, A2{{3, 4}, {16, 0}, {25, 24}};
  const Tensor<double> B{{3, 2}, {4, 0}, {5, 4}};
  const Tensor<double> C1{{1, 2}, {4, INFINITY}, {5, 6}}, C2{{1, 2}, {4, NAN}, {5, 6}};
  // every stated value is exact: compare encodings
  CHECK(encodings_equal(Div(tensor_cast<float>(A1), tensor_cast<float>(B)), tensor_cast<float>(C1)));
  CHECK(encodings_equal(Div(tensor_cast<float>(A2), tensor_cast<float>(B)), tensor_cast<float>(C2)));
  CHECK(encodings_equal(Div(A1, B), C1));
  CHECK(encodings_equal(Div(A2, B), C2));
  CHECK(encodings_equal(Div(tensor_cast<Half>(A1), tensor_cast<Half>(B)), tensor_cast<Half>(C1)));
  CHECK(encodings_equal(Div(tensor_cast<Half>(A2), tensor_cast<Half>(B)), tensor_cast<Half>(C2)));
  CHECK(encodings_equal(Div(tensor_cast<BFloat16>(A1), tensor_cast<BFloat16>(B)), tensor_cast<BFloat16>(C1)));
  CHECK(encodings_equal(Div(tensor_cast<BFloat16>(A2), tensor_cast<BFloat16>(B)), tensor_cast<BFloat16>(C2)));
}

// ---------------------------------------------------------------------------
// 002: ONNX Div, all versions
// ---------------------------------------------------------------------------

TEST_CASE("seed 002 ONNX Div: test_div_example and the generated cases", "[seed]") {
  const std::string f = "002_ad18d28f589c4615.txt";
  cite(f, "x = np.array([3, 4]).astype(np.float32)");
  cite(f, "y = np.array([1, 2]).astype(np.float32)");
  cite(f, "z = x / y # expected output [3., 2.]");
  const auto o = DivOptions::onnx(IntegerDivision::Truncate);
  CHECK(Div(Tensor<float>{3, 4}, Tensor<float>{1, 2}, o) == Tensor<float>{3, 2});
  // test_div_bcast: (3,4,5) / (5,) under multidirectional broadcasting
  cite(f, "y = np.random.rand(5).astype(np.float32) + 1.0");
  CHECK(broadcast_shape({3, 4, 5}, {5}, OnnxMultidirectional{}) == Shape{3, 4, 5});
  // test_div_uint8: x // y with y in [1, 24]: floor = truncation for unsigned operands
  cite(f, "y = np.random.randint(24, size=(3, 4, 5), dtype=np.uint8) + 1");
  cite(f, "z = x // y");
  for (int x = 0; x < 24; ++x)
    for (int y = 1; y <= 24; ++y) {
      const auto a = Tensor<std::uint8_t>{static_cast<std::uint8_t>(x)};
      const auto b = Tensor<std::uint8_t>{static_cast<std::uint8_t>(y)};
      CHECK(Div(a, b, DivOptions::onnx(IntegerDivision::Floor)) ==
            Div(a, b, DivOptions::onnx(IntegerDivision::Truncate)));
    }
  finding("002 ONNX Div (all versions)",
          "the page never says how an integer quotient is rounded; the only integer example "
          "(test_div_uint8, numpy //) is unsigned, where floor and truncation agree");
}

TEST_CASE("seed 002 ONNX Div-1/6: the supported legacy shape pairs, with values", "[seed]") {
  const std::string f = "002_ad18d28f589c4615.txt";
  cite(f, "shape(A) = (2, 3, 4, 5), shape(B) = (,), i.e. B is a scalar tensor");
  cite(f, "shape(A) = (2, 3, 4, 5), shape(B) = (1, 1), i.e. B is an 1-element tensor");
  cite(f, "shape(A) = (2, 3, 4, 5), shape(B) = (5,)");
  cite(f, "shape(A) = (2, 3, 4, 5), shape(B) = (4, 5)");
  cite(f, "shape(A) = (2, 3, 4, 5), shape(B) = (3, 4), with axis=1");
  cite(f, "shape(A) = (2, 3, 4, 5), shape(B) = (2), with axis=0");
  cite(f, "1-dim expansion doesn't work yet.");
  Tensor<double> A(Shape{2, 3, 4, 5}, 0.0);
  for (std::size_t k = 0; k < A.size(); ++k) A[k] = static_cast<double>(k) - 60.0;
  struct Case {
    Shape b;
    std::optional<std::int64_t> axis;
    std::size_t first_axis;  // of A that B's first axis maps to
  };
  const Case cases[] = {{{}, {}, 4}, {{1, 1}, {}, 4}, {{5}, {}, 3}, {{4, 5}, {}, 2}, {{3, 4}, 1, 1}, {{2}, 0, 0}};
  for (const Case& c : cases) {
    Tensor<double> B(c.b, 0.0);
    for (std::size_t k = 0; k < B.size(); ++k) B[k] = static_cast<double>(k) + 1.5;
    INFO("B " << to_string(c.b));
    const auto C = Div(A, B, DivOptions::onnx_legacy({true, c.axis}, IntegerDivision::Truncate));
    REQUIRE(C.shape() == A.shape());
    for (const Index& i : A.indexes()) {
      Index ib;
      if (B.size() > 1)
        for (std::size_t k = 0; k < B.rank(); ++k) ib.push_back(i[c.first_axis + k]);
      else ib.assign(B.rank(), 0);
      CHECK(C[i] == A[i] / B[ib]);
    }
  }
  // "1-dim expansion doesn't work yet": (1, 5) onto (2, 3, 4, 5) is rejected
  CHECK_THROWS_AS(Div(A, Tensor<double>(Shape{1, 5}, 1.0), DivOptions::onnx_legacy({true, {}}, IntegerDivision::Truncate)),
                  ShapeError);
  // broadcast = 0: "If broadcasting is disabled it should be of the same size."
  cite(f, "If broadcasting is disabled it should be of the same size.");
  CHECK_THROWS_AS(Div(A, Tensor<double>{1.0, 2.0, 3.0, 4.0, 5.0},
                      DivOptions::onnx_legacy({false, {}}, IntegerDivision::Truncate)),
                  ShapeError);
}

// ---------------------------------------------------------------------------
// 003: SONNX Sub
// ---------------------------------------------------------------------------

TEST_CASE("seed 003 SONNX Sub: real example 1 (label says A + B)", "[seed]") {
  const std::string f = "003_f8a8aa56144c1e97.txt";
  cite(f, R"(A = \begin{bmatrix} 6.1 & 9.5 & 35.7 \end{bmatrix})");
  cite(f, R"(B = \begin{bmatrix} 2 & 3 & 4 \end{bmatrix})");
  cite(f, R"(Y = A + B = \begin{bmatrix} 4.1 & 6.5 & 31.7 \end{bmatrix})");
  const Tensor<double> A{6.1, 9.5, 35.7}, B{2, 3, 4}, stated{4.1, 6.5, 31.7};
  check_decimals(Sub(A, B), stated, 1e-15, "003 real ex1");
  // the values are A - B; A + B would be 8.1, 12.5, 39.7
  const auto sum = Add(A, B);
  for (std::size_t k = 0; k < 3; ++k) CHECK(std::fabs(sum[k] - stated[k]) > 1);
  finding("003 SONNX Sub real example 1",
          "states 'Y = A + B = [4.1, 6.5, 31.7]'; the values are A - B (A + B = [8.1, 12.5, 39.7])");
}

TEST_CASE("seed 003 SONNX Sub: float example 1 (label says A + B)", "[seed]") {
  const std::string f = "003_f8a8aa56144c1e97.txt";
  cite(f, R"(A = \begin{bmatrix} 3.0 & 4.5 \\ 16.0 & 1.0 \\ 25.5 & 24.25 \end{bmatrix})");
  cite(f, R"(B = \begin{bmatrix} 3.0 & 2.0 \\ 4.0 & 0.0 \\ 5.0 & 4.0 \end{bmatrix})");
  cite(f, R"(Y = A + B = \begin{bmatrix} 0.0 & 2.5 \\ 12.0 & 1.0 \\ 20.5 & 20.25 \end{bmatrix})");
  const Tensor<double> A{{3.0, 4.5}, {16.0, 1.0}, {25.5, 24.25}};
  const Tensor<double> B{{3.0, 2.0}, {4.0, 0.0}, {5.0, 4.0}};
  const Tensor<double> Y{{0.0, 2.5}, {12.0, 1.0}, {20.5, 20.25}};
  // exact in every listed float type (FP16, FP32, FP64), and in BF16 too
  CHECK(encodings_equal(Sub(tensor_cast<float>(A), tensor_cast<float>(B)), tensor_cast<float>(Y)));
  CHECK(encodings_equal(Sub(A, B), Y));
  CHECK(encodings_equal(Sub(tensor_cast<Half>(A), tensor_cast<Half>(B)), tensor_cast<Half>(Y)));
  CHECK(encodings_equal(Sub(tensor_cast<BFloat16>(A), tensor_cast<BFloat16>(B)), tensor_cast<BFloat16>(Y)));
  CHECK_FALSE(Add(tensor_cast<float>(A), tensor_cast<float>(B)) == tensor_cast<float>(Y));
  finding("003 SONNX Sub float example 1",
          "states 'Y = A + B = [[0, 2.5], [12, 1], [20.5, 20.25]]'; the values are A - B "
          "(A + B = [[6, 6.5], [20, 1], [30.5, 28.25]])");
}

TEST_CASE("seed 003 SONNX Sub: UINT8 example, wrap-around", "[seed]") {
  const std::string f = "003_f8a8aa56144c1e97.txt";
  cite(f, "### Example 1 (1D UINT8 tensors)");
  cite(f, R"(A = \begin{bmatrix} 6 & 100 \end{bmatrix} \quad B = \begin{bmatrix} 3 & 200 \end{bmatrix})");
  cite(f, R"(Y = \begin{bmatrix} 3 & 44 \end{bmatrix})");
  const auto Y = Sub(Tensor<std::uint8_t>{6, 100}, Tensor<std::uint8_t>{3, 200});
  CHECK(Y[0] == 3);
  CHECK(Y[1] == 156);  // 100 - 200 = -100 = 156 (mod 256)
  CHECK(Y[1] != 44);   // the example's value: (100 + 200) mod 256, i.e. an addition
  CHECK(Add(Tensor<std::uint8_t>{100}, Tensor<std::uint8_t>{200})[0] == 44);
  finding("003 SONNX Sub UINT8 example",
          "Y[1] = 100 - 200 is stated as 44; wrap-around gives 156 (44 = (100 + 200) mod 256)");
}

TEST_CASE("seed 003 SONNX Sub: INT8 example, wrap-around", "[seed]") {
  const std::string f = "003_f8a8aa56144c1e97.txt";
  cite(f, "### Example 1 (1D INT8 tensors)");
  cite(f, R"(A = \begin{bmatrix} -6 & 10 & 10 \end{bmatrix} \quad B = \begin{bmatrix} -3 & 100 & -120 \end{bmatrix})");
  cite(f, R"(Y = \begin{bmatrix} -9 & -90 & -126 \end{bmatrix})");
  const auto Y = Sub(Tensor<std::int8_t>{-6, 10, 10}, Tensor<std::int8_t>{-3, 100, -120});
  CHECK(Y[0] == -3);    // -6 - (-3)
  CHECK(Y[0] != -9);    // the example's value: -6 + (-3)
  CHECK(Y[1] == -90);   // agrees
  CHECK(Y[2] == -126);  // 10 - (-120) = 130 wraps to -126: agrees
  finding("003 SONNX Sub INT8 example",
          "Y[0] = -6 - (-3) is stated as -9; the semantics give -3 (-9 = -6 + (-3)); "
          "Y[1] = -90 and Y[2] = -126 (130 wrapped) are right");
}

TEST_CASE("seed 003 SONNX Sub: the unsigned wrap formula misses A - B < 0", "[seed]") {
  // "A[i] - B[i] - k.2^n if A[i] - B[i] > 2^n - 1, A[i] - B[i] otherwise, with k in N such
  // that 0 <= A[i] - B[i] - k.2^n < 2^n": for A < B no k in N exists and the 'otherwise'
  // branch yields a negative UINT value. The operator wraps modulo 2^n (k = -1).
  cite("003_f8a8aa56144c1e97.txt", R"(with $k \in N$ such that $0 \le A[i] - B[i]- k.2^{n} < 2^n$)");
  CHECK(Sub(Tensor<std::uint32_t>{1}, Tensor<std::uint32_t>{2})[0] == 4294967295u);
  finding("003 SONNX Sub UINTn formula",
          "only handles A - B > 2^n - 1 (impossible for a subtraction); A - B < 0 has no k in N; "
          "the signed formula's bounds are placeholders ('xxx')");
}

// ---------------------------------------------------------------------------
// 004: OpenVINO Divide-1
// ---------------------------------------------------------------------------

TEST_CASE("seed 004 OpenVINO Divide-1: example 1 (auto_broadcast none, pythondiv)", "[seed]") {
  const std::string f = "004_bbaf275f30f57a7f.txt";
  cite(f, R"(<data auto_broadcast="none" m_pythondiv="true"/>)");
  std::mt19937_64 rng(4);
  std::vector<std::int32_t> va(256 * 56), vb(256 * 56);
  for (auto& x : va) x = static_cast<std::int32_t>(rng() % 2001) - 1000;
  for (auto& x : vb) {
    do x = static_cast<std::int32_t>(rng() % 41) - 20;
    while (x == 0);
  }
  const Tensor<std::int32_t> A({256, 56}, va), B({256, 56}, vb);
  const auto C = Div(A, B, DivOptions::openvino(AutoBroadcast::None, true));
  REQUIRE(C.shape() == Shape{256, 56});
  for (std::size_t k = 0; k < C.size(); ++k)
    CHECK(C[k] == static_cast<std::int32_t>(std::floor(static_cast<double>(va[k]) / vb[k])));
  // floats: pythondiv has no effect
  const auto F = Div(tensor_cast<float>(A), tensor_cast<float>(B), DivOptions::openvino(AutoBroadcast::None, true));
  for (std::size_t k = 0; k < F.size(); ++k) CHECK(F[k] == static_cast<float>(va[k]) / static_cast<float>(vb[k]));
}

TEST_CASE("seed 004 OpenVINO Divide-1: example 2, [8,1,6,1] / [7,1,5] -> [8,7,6,5]", "[seed]") {
  const std::string f = "004_bbaf275f30f57a7f.txt";
  cite(f, R"(<data auto_broadcast="numpy" m_pythondiv="false"/>)");
  cite(f, "<dim>8</dim> <dim>7</dim> <dim>6</dim> <dim>5</dim>");
  std::vector<std::int32_t> va(8 * 6), vb(7 * 5);
  for (std::size_t k = 0; k < va.size(); ++k) va[k] = static_cast<std::int32_t>(k) * 7 - 150;
  for (std::size_t k = 0; k < vb.size(); ++k) vb[k] = static_cast<std::int32_t>(k % 9) - 4 + (k % 9 >= 4);
  const Tensor<std::int32_t> A({8, 1, 6, 1}, va), B({7, 1, 5}, vb);
  const auto C = Div(A, B, DivOptions::openvino(AutoBroadcast::Numpy, false));  // truncation
  REQUIRE(C.shape() == Shape{8, 7, 6, 5});
  for (const Index& i : C.indexes()) {
    const std::int32_t a = A(i[0], 0, i[2], 0), b = B(i[1], 0, i[3]);
    CHECK(C[i] == a / b);  // C++ '/' truncates
  }
  const auto Cf = Div(A, B, DivOptions::openvino(AutoBroadcast::Numpy, true));  // floor
  for (const Index& i : Cf.indexes()) {
    const std::int32_t a = A(i[0], 0, i[2], 0), b = B(i[1], 0, i[3]);
    CHECK(Cf[i] == static_cast<std::int32_t>(std::floor(static_cast<double>(a) / b)));
  }
  // auto_broadcast = none rejects the same pair
  CHECK_THROWS_WITH(Div(A, B, DivOptions::openvino(AutoBroadcast::None)),
                    "Div (OpenVINO auto_broadcast=none): shapes must be identical: A has shape "
                    "[8,1,6,1], B has shape [7,1,5]");
}

TEST_CASE("seed 004 OpenVINO Divide-1: attribute names", "[seed]") {
  const std::string f = "004_bbaf275f30f57a7f.txt";
  cite(f, "pythondiv");
  cite(f, "m_pythondiv=");
  cite(f, "auto_broacast attribute");
  finding("004 OpenVINO Divide-1",
          "the attribute is documented as 'pythondiv' but both XML examples spell it "
          "'m_pythondiv'; 'auto_broacast' typo; auto_broadcast's 'Range of values' is empty "
          "(symerr implements none and numpy); division by zero is 'undefined' for every type, "
          "also floats, where symerr follows IEEE unless FloatDivisionByZero::Undefined is chosen");
}
