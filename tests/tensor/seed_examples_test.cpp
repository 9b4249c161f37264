// Every example of the five seed documents, run through the operators. The
// operands, stated results and the statements the findings are about are test
// data (tests/data/seeds/examples.json, each entry naming its document and
// section); the test reads them from there, so a wrong transcription is fixed
// in one place.
//
// Where an example disagrees with the operator's own stated semantics the test
// asserts the disagreement (it fails if the operator is bent to match the
// example) and reports it with WARN("SEED FINDING ..."). The findings are
// listed in tests/tensor/SEED_FINDINGS.md.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <symerr/format.hpp>
#include <symerr/ops/any.hpp>

#include <cmath>
#include <fstream>
#include <limits>
#include <random>
#include <string>

using namespace symerr;
using nlohmann::json;

namespace {

const json& seed_data() {
  static const json data = [] {
    std::ifstream in(SYMERR_TEST_DATA_DIR "/seeds/examples.json");
    if (!in) throw std::runtime_error("cannot open tests/data/seeds/examples.json");
    return json::parse(in);
  }();
  return data;
}

// The entry `id` of `kind` ("examples" or "statements"); it must name a known
// document and a section.
const json& entry(const char* kind, const std::string& id) {
  const json& all = seed_data().at(kind);
  INFO("tests/data/seeds/examples.json: " << kind << " " << id);
  REQUIRE(all.contains(id));
  const json& e = all.at(id);
  REQUIRE(seed_data().at("documents").contains(e.at("document").get<std::string>()));
  REQUIRE_FALSE(e.at("section").get<std::string>().empty());
  return e;
}
const json& example(const std::string& id) { return entry("examples", id); }
const json& statement(const std::string& id) {
  const json& e = entry("statements", id);
  REQUIRE_FALSE(e.at("text").get<std::string>().empty());
  return e;
}

double number(const json& v) {
  if (v.is_number()) return v.get<double>();
  const std::string s = v.get<std::string>();
  if (s == "inf") return INFINITY;
  if (s == "-inf") return -INFINITY;
  if (s == "nan") return NAN;
  throw std::runtime_error("not a number in the seed data: " + s);
}

Shape shape_of(const json& v) {
  Shape s;
  for (const json& d : v) s.push_back(d.get<std::size_t>());
  return s;
}

// A nested JSON array (a scalar, a vector, rows of a matrix, ...) as a tensor.
Tensor<double> tensor_of(const json& v) {
  Shape shape;
  for (const json* level = &v; level->is_array(); level = &level->at(0)) shape.push_back(level->size());
  std::vector<double> values;
  const auto flatten = [&](const auto& self, const json& x) -> void {
    if (!x.is_array()) return values.push_back(number(x));
    for (const json& y : x) self(self, y);
  };
  flatten(flatten, v);
  return Tensor<double>(shape, values);
}
Tensor<double> operand(const json& e, const char* key) { return tensor_of(e.at(key)); }

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
  const json& e = example("000.real.ex1");
  // real semantics, computed in FP64: its error (< 1e-15) is far below the 4 decimals
  const auto Y = Div(operand(e, "A"), operand(e, "B"), real_semantics());
  check_decimals(Y, operand(e, "stated"), 1e-15, "000 real ex1");
}

TEST_CASE("seed 000 SONNX Div (new): real example 2", "[seed]") {
  const json& e = example("000.real.ex2");
  const auto Y = Div(operand(e, "A"), operand(e, "B"), real_semantics());
  check_decimals(Y, operand(e, "stated"), 1e-15, "000 real ex2");
}

TEST_CASE("seed 000 SONNX Div (new): float example 1 (division by zero -> inf)", "[seed]") {
  const json& e = example("000.float.ex1");
  const Tensor<double> A = operand(e, "A"), B = operand(e, "B"), Y = operand(e, "stated");
  REQUIRE(std::isinf(Y[3]));
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
  const json& e = example("000.float.ex2");
  const Tensor<double> A = operand(e, "A"), B = operand(e, "B"), Y = operand(e, "stated");
  REQUIRE(std::isnan(Y[3]));
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
  statement("000.float.inf_case");
  const auto Y = Div(Tensor<float>{-1.f, 1.f, NAN}, Tensor<float>{0.f, -0.f, 0.f});
  CHECK(Y[0] == -INFINITY);
  CHECK(Y[1] == -INFINITY);
  CHECK(std::isnan(Y[2]));
  finding("000 SONNX Div float informal spec",
          "says inf when A != 0 and B = 0; IEEE gives -inf for A < 0 (or B = -0) and NaN for A = NaN");
}

TEST_CASE("seed 000 SONNX Div (new): integer examples, floor and truncation", "[seed]") {
  statement("000.int.floor");
  // All operands are positive, so floor and truncation agree; every value is right
  // (10/3 = 3.33 -> 3, 21/4 = 5.25 -> 5, 9/4 = 2.25 -> 2). INT4/UINT4 cannot hold them.
  for (const char* id : {"000.int.ex1", "000.int.ex2"}) {
    const json& e = example(id);
    int_div_example_all<std::int8_t, std::int16_t, std::int32_t, std::int64_t, std::uint8_t,
                        std::uint16_t, std::uint32_t, std::uint64_t>(
        tensor_cast<int>(operand(e, "A")), tensor_cast<int>(operand(e, "B")),
        tensor_cast<int>(operand(e, "stated")), id);
  }
  finding("000 SONNX Div int examples",
          "all operands positive: the examples cannot tell floor from truncation "
          "(no negative operand), although the section specifies floor");
}

TEST_CASE("seed 000 SONNX Div (new): the Why3 texts disagree with the informal semantics", "[seed]") {
  // Real section: informal spec and [C2] say a zero divisor is undefined; the Why3
  // module DivReal returns infinity / nan instead. The operator's real semantics
  // (FloatDivisionByZero::Undefined) report the element as undefined.
  statement("000.real.undefined");
  statement("000.real.why3");
  const DivResult<double> r = div_checked(Tensor<double>{1.0, 0.0}, Tensor<double>{0.0, 0.0}, real_semantics());
  CHECK(r.undefined == std::vector<std::size_t>{0, 1});
  finding("000 SONNX Div real section",
          "the informal spec and [C2] make B = 0 undefined; the Why3 module DivReal returns "
          "infinity (A != 0) or nan (A = 0)");
  // Int section: the informal spec says floor; the Why3 module uses int.Int's '/', which
  // Why3 does not define (int.EuclideanDivision's div rounds 7 / -2 to -3, floor gives -4).
  statement("000.int.why3");
  CHECK(Div(Tensor<int>{7}, Tensor<int>{-2}, DivOptions::sonnx(IntegerDivision::Floor))[0] == -4);
  finding("000 SONNX Div int section",
          "informal spec: floor; Why3 DivInt: a / b with only int.Int imported (no division "
          "there; Why3's Euclidean div gives 7 / -2 = -3, floor gives -4, truncation -3)");
}

// ---------------------------------------------------------------------------
// 001: SONNX Div, older format
// ---------------------------------------------------------------------------

TEST_CASE("seed 001 SONNX Div (old): real examples", "[seed]") {
  for (const char* id : {"001.real.ex1", "001.real.ex2"}) {
    const json& e = example(id);
    INFO(id);
    CHECK(Div(operand(e, "A"), operand(e, "B"), real_semantics()) == operand(e, "stated"));
  }
}

TEST_CASE("seed 001 SONNX Div (old): float examples in FP16, BF16, FP32, FP64", "[seed]") {
  const json &e1 = example("001.float.ex1"), &e2 = example("001.float.ex2");
  const Tensor<double> A1 = operand(e1, "A"), A2 = operand(e2, "A");
  const Tensor<double> B = operand(e1, "B");
  REQUIRE(operand(e2, "B") == B);
  const Tensor<double> C1 = operand(e1, "stated"), C2 = operand(e2, "stated");
  REQUIRE((std::isinf(C1[3]) && std::isnan(C2[3])));
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
  const json& e = example("002.test_div_example");
  const auto o = DivOptions::onnx(IntegerDivision::Truncate);
  CHECK(Div(tensor_cast<float>(operand(e, "A")), tensor_cast<float>(operand(e, "B")), o) ==
        tensor_cast<float>(operand(e, "stated")));
  // test_div_bcast: (3,4,5) / (5,) under multidirectional broadcasting
  const json& bcast = statement("002.bcast");
  CHECK(broadcast_shape(shape_of(bcast.at("A_shape")), shape_of(bcast.at("B_shape")), OnnxMultidirectional{}) ==
        shape_of(bcast.at("result_shape")));
  // test_div_uint8: x // y with y in [1, 24]: floor = truncation for unsigned operands
  const json& u8 = statement("002.uint8");
  for (int x = 0; x < u8.at("x_max").get<int>(); ++x)
    for (int y = u8.at("y_min").get<int>(); y <= u8.at("y_max").get<int>(); ++y) {
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
  const json& st = statement("002.legacy_shapes");
  Tensor<double> A(shape_of(st.at("A_shape")), 0.0);
  for (std::size_t k = 0; k < A.size(); ++k) A[k] = static_cast<double>(k) - 60.0;
  REQUIRE(st.at("cases").size() == 6);
  for (const json& c : st.at("cases")) {
    Tensor<double> B(shape_of(c.at("B_shape")), 0.0);
    for (std::size_t k = 0; k < B.size(); ++k) B[k] = static_cast<double>(k) + 1.5;
    const std::optional<std::int64_t> axis =
        c.contains("axis") ? std::optional<std::int64_t>(c.at("axis").get<std::int64_t>()) : std::nullopt;
    const auto first_axis = c.at("first_axis").get<std::size_t>();  // of A that B's first axis maps to
    INFO("B " << to_string(B.shape()));
    const auto C = Div(A, B, DivOptions::onnx_legacy({true, axis}, IntegerDivision::Truncate));
    REQUIRE(C.shape() == A.shape());
    for (const Index& i : A.indexes()) {
      Index ib;
      if (B.size() > 1)
        for (std::size_t k = 0; k < B.rank(); ++k) ib.push_back(i[first_axis + k]);
      else ib.assign(B.rank(), 0);
      CHECK(C[i] == A[i] / B[ib]);
    }
  }
  // "1-dim expansion doesn't work yet": (1, 5) onto (2, 3, 4, 5) is rejected
  CHECK_THROWS_AS(Div(A, Tensor<double>(shape_of(st.at("rejected_B_shape")), 1.0),
                      DivOptions::onnx_legacy({true, {}}, IntegerDivision::Truncate)),
                  ShapeError);
  // broadcast = 0: "If broadcasting is disabled it should be of the same size."
  CHECK_THROWS_AS(Div(A, Tensor<double>{1.0, 2.0, 3.0, 4.0, 5.0},
                      DivOptions::onnx_legacy({false, {}}, IntegerDivision::Truncate)),
                  ShapeError);
}

// ---------------------------------------------------------------------------
// 003: SONNX Sub
// ---------------------------------------------------------------------------

TEST_CASE("seed 003 SONNX Sub: real example 1 (label says A + B)", "[seed]") {
  const json& e = example("003.real.ex1");
  REQUIRE(e.at("label") == "Y = A + B");
  const Tensor<double> A = operand(e, "A"), B = operand(e, "B"), stated = operand(e, "stated");
  check_decimals(Sub(A, B), stated, 1e-15, "003 real ex1");
  // the values are A - B; A + B would be 8.1, 12.5, 39.7
  const auto sum = Add(A, B);
  for (std::size_t k = 0; k < 3; ++k) CHECK(std::fabs(sum[k] - stated[k]) > 1);
  finding("003 SONNX Sub real example 1",
          "states 'Y = A + B = [4.1, 6.5, 31.7]'; the values are A - B (A + B = [8.1, 12.5, 39.7])");
}

TEST_CASE("seed 003 SONNX Sub: float example 1 (label says A + B)", "[seed]") {
  const json& e = example("003.float.ex1");
  REQUIRE(e.at("label") == "Y = A + B");
  const Tensor<double> A = operand(e, "A"), B = operand(e, "B"), Y = operand(e, "stated");
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
  const json& e = example("003.uint8.ex1");
  const auto A = tensor_cast<std::uint8_t>(operand(e, "A")), B = tensor_cast<std::uint8_t>(operand(e, "B"));
  const Tensor<double> stated = operand(e, "stated");
  REQUIRE(A == Tensor<std::uint8_t>{6, 100});  // Y[1] below is 100 - 200
  REQUIRE(B == Tensor<std::uint8_t>{3, 200});
  const auto Y = Sub(A, B);
  CHECK(Y[0] == stated[0]);
  CHECK(Y[1] == 156);         // 100 - 200 = -100 = 156 (mod 256)
  CHECK(Y[1] != stated[1]);   // the example's value 44: (100 + 200) mod 256, i.e. an addition
  CHECK(Add(A, B)[1] == stated[1]);
  finding("003 SONNX Sub UINT8 example",
          "Y[1] = 100 - 200 is stated as 44; wrap-around gives 156 (44 = (100 + 200) mod 256)");
}

TEST_CASE("seed 003 SONNX Sub: INT8 example, wrap-around", "[seed]") {
  const json& e = example("003.int8.ex1");
  const auto A = tensor_cast<std::int8_t>(operand(e, "A")), B = tensor_cast<std::int8_t>(operand(e, "B"));
  const Tensor<double> stated = operand(e, "stated");
  REQUIRE(A == Tensor<std::int8_t>{-6, 10, 10});
  REQUIRE(B == Tensor<std::int8_t>{-3, 100, -120});
  const auto Y = Sub(A, B);
  CHECK(Y[0] == -3);            // -6 - (-3)
  CHECK(Y[0] != stated[0]);     // the example's value -9: -6 + (-3)
  CHECK(Add(A, B)[0] == stated[0]);
  CHECK(Y[1] == stated[1]);     // -90: agrees
  CHECK(Y[2] == stated[2]);     // 10 - (-120) = 130 wraps to -126: agrees
  finding("003 SONNX Sub INT8 example",
          "Y[0] = -6 - (-3) is stated as -9; the semantics give -3 (-9 = -6 + (-3)); "
          "Y[1] = -90 and Y[2] = -126 (130 wrapped) are right");
}

TEST_CASE("seed 003 SONNX Sub: the unsigned wrap formula misses A - B < 0", "[seed]") {
  // "A[i] - B[i] - k.2^n if A[i] - B[i] > 2^n - 1, A[i] - B[i] otherwise, with k in N such
  // that 0 <= A[i] - B[i] - k.2^n < 2^n": for A < B no k in N exists and the 'otherwise'
  // branch yields a negative UINT value. The operator wraps modulo 2^n (k = -1).
  statement("003.uint_formula");
  CHECK(Sub(Tensor<std::uint32_t>{1}, Tensor<std::uint32_t>{2})[0] == 4294967295u);
  finding("003 SONNX Sub UINTn formula",
          "only handles A - B > 2^n - 1 (impossible for a subtraction); A - B < 0 has no k in N; "
          "the signed formula's bounds are placeholders ('xxx')");
}

// ---------------------------------------------------------------------------
// 004: OpenVINO Divide-1
// ---------------------------------------------------------------------------

TEST_CASE("seed 004 OpenVINO Divide-1: example 1 (auto_broadcast none, pythondiv)", "[seed]") {
  const json& st = statement("004.ex1");
  REQUIRE(st.at("auto_broadcast") == "none");
  REQUIRE(st.at("pythondiv") == true);
  const Shape shape = shape_of(st.at("shape"));
  std::mt19937_64 rng(4);
  std::vector<std::int32_t> va(shape[0] * shape[1]), vb(shape[0] * shape[1]);
  for (auto& x : va) x = static_cast<std::int32_t>(rng() % 2001) - 1000;
  for (auto& x : vb) {
    do x = static_cast<std::int32_t>(rng() % 41) - 20;
    while (x == 0);
  }
  const Tensor<std::int32_t> A(shape, va), B(shape, vb);
  const auto C = Div(A, B, DivOptions::openvino(AutoBroadcast::None, true));
  REQUIRE(C.shape() == shape);
  for (std::size_t k = 0; k < C.size(); ++k)
    CHECK(C[k] == static_cast<std::int32_t>(std::floor(static_cast<double>(va[k]) / vb[k])));
  // floats: pythondiv has no effect
  const auto F = Div(tensor_cast<float>(A), tensor_cast<float>(B), DivOptions::openvino(AutoBroadcast::None, true));
  for (std::size_t k = 0; k < F.size(); ++k) CHECK(F[k] == static_cast<float>(va[k]) / static_cast<float>(vb[k]));
}

TEST_CASE("seed 004 OpenVINO Divide-1: example 2, [8,1,6,1] / [7,1,5] -> [8,7,6,5]", "[seed]") {
  const json& st = statement("004.ex2");
  REQUIRE(st.at("auto_broadcast") == "numpy");
  REQUIRE(st.at("pythondiv") == false);
  const Shape sa = shape_of(st.at("A_shape")), sb = shape_of(st.at("B_shape"));
  REQUIRE((sa == Shape{8, 1, 6, 1} && sb == Shape{7, 1, 5}));  // the index arithmetic below
  std::vector<std::int32_t> va(8 * 6), vb(7 * 5);
  for (std::size_t k = 0; k < va.size(); ++k) va[k] = static_cast<std::int32_t>(k) * 7 - 150;
  for (std::size_t k = 0; k < vb.size(); ++k) vb[k] = static_cast<std::int32_t>(k % 9) - 4 + (k % 9 >= 4);
  const Tensor<std::int32_t> A(sa, va), B(sb, vb);
  const auto C = Div(A, B, DivOptions::openvino(AutoBroadcast::Numpy, false));  // truncation
  REQUIRE(C.shape() == shape_of(st.at("result_shape")));
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
  statement("004.attributes");
  finding("004 OpenVINO Divide-1",
          "the attribute is documented as 'pythondiv' but both XML examples spell it "
          "'m_pythondiv'; 'auto_broacast' typo; auto_broadcast's 'Range of values' is empty "
          "(symerr implements none and numpy); division by zero is 'undefined' for every type, "
          "also floats, where symerr follows IEEE unless FloatDivisionByZero::Undefined is chosen");
}
