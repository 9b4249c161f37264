// Div / Sub / Add / Mul over every element type, the broadcast driver, the ADL
// extension point, and the AnyTensor dispatch.
#include <catch2/catch.hpp>

#include <symerr/ops/any.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>

using namespace symerr;

namespace {

bool bits_equal(float x, float y) {
  return std::isnan(x) ? std::isnan(y) : x == y && std::signbit(x) == std::signbit(y);
}

}  // namespace

TEST_CASE("Div float: IEEE division by zero gives signed infinities and NaN", "[ops]") {
  const float inf = std::numeric_limits<float>::infinity();
  Tensor<float> A{1.f, -1.f, 1.f, 0.f, -0.f, inf, 3.f, std::nanf("")};
  Tensor<float> B{0.f, 0.f, -0.f, 0.f, 5.f, inf, inf, 0.f};
  const Tensor<float> C = Div(A, B);  // not an error
  const float want[] = {inf, -inf, -inf, std::nanf(""), -0.f, std::nanf(""), 0.f, std::nanf("")};
  for (std::size_t k = 0; k < 8; ++k) CHECK(bits_equal(C[k], want[k]));

  // the same through Half and BFloat16
  const auto h = Div(tensor_cast<Half>(A), tensor_cast<Half>(B));
  const auto b = Div(tensor_cast<BFloat16>(A), tensor_cast<BFloat16>(B));
  for (std::size_t k = 0; k < 8; ++k) {
    CHECK(bits_equal(static_cast<float>(h[k]), want[k]));
    CHECK(bits_equal(static_cast<float>(b[k]), want[k]));
  }
}

TEST_CASE("Div float with the real semantics: a zero divisor is undefined", "[ops]") {
  DivOptions o;
  o.float_division_by_zero = FloatDivisionByZero::Undefined;
  Tensor<double> A{{6.1, 9.5}, {35.7, 1.0}};
  Tensor<double> B{{3.0, 3.3}, {5.1, -0.0}};
  try {
    Div(A, B, o);
    FAIL("no error");
  } catch (const DomainError& e) {
    CHECK(std::string(e.what()) ==
          "Div: division by zero is undefined in the real semantics (SONNX Div [C2]) at output "
          "element 3, multi-index [1,1] (A = 1, B = -0; 1 undefined element(s) in all)");
  }
  const DivResult<double> r = div_checked(A, B, o);
  CHECK(r.undefined == std::vector<std::size_t>{3});
  CHECK(r.value[0] == 6.1 / 3.0);
}

TEST_CASE("Div integer: floor and truncation, every integer type", "[ops]") {
  Tensor<int> A{{7, -7, 7, -7}, {6, -6, 0, 1}};
  Tensor<int> B{{2, 2, -2, -2}, {3, 3, -5, 7}};
  const Tensor<int> floor_want{{3, -4, -4, 3}, {2, -2, 0, 0}};
  const Tensor<int> trunc_want{{3, -3, -3, 3}, {2, -2, 0, 0}};
  CHECK(Div(A, B, DivOptions::sonnx(IntegerDivision::Floor)) == floor_want);
  CHECK(Div(A, B, DivOptions::sonnx(IntegerDivision::Truncate)) == trunc_want);
  CHECK(Div(A, B) == floor_want);  // default: the SONNX Div seed's floor
  CHECK(Div(tensor_cast<std::int8_t>(A), tensor_cast<std::int8_t>(B)) ==
        tensor_cast<std::int8_t>(floor_want));
  CHECK(Div(tensor_cast<std::int64_t>(A), tensor_cast<std::int64_t>(B),
            DivOptions::sonnx(IntegerDivision::Truncate)) == tensor_cast<std::int64_t>(trunc_want));
  CHECK(Div(tensor_cast<Int4>(A), tensor_cast<Int4>(B)) == tensor_cast<Int4>(floor_want));
  // unsigned: floor = truncation
  Tensor<std::uint16_t> U{65535, 7, 0};
  Tensor<std::uint16_t> V{2, 7, 9};
  CHECK(Div(U, V, DivOptions::sonnx(IntegerDivision::Floor)) == Tensor<std::uint16_t>{32767, 1, 0});
  CHECK(Div(tensor_cast<UInt4>(Tensor<int>{15, 9}), tensor_cast<UInt4>(Tensor<int>{4, 3})) ==
        tensor_cast<UInt4>(Tensor<int>{3, 3}));
}

TEST_CASE("Div integer: INT_MIN / -1 wraps, never traps", "[ops]") {
  Tensor<std::int8_t> A{-128, -128};
  Tensor<std::int8_t> B{-1, 1};
  CHECK(Div(A, B) == Tensor<std::int8_t>{-128, -128});
  const auto m = std::numeric_limits<std::int64_t>::min();
  CHECK(Div(Tensor<std::int64_t>{m}, Tensor<std::int64_t>{-1},
            DivOptions::sonnx(IntegerDivision::Truncate)) == Tensor<std::int64_t>{m});
  CHECK(Div(tensor_cast<Int4>(Tensor<int>{-8}), tensor_cast<Int4>(Tensor<int>{-1}))[0].value() == -8);
}

TEST_CASE("Div integer: a zero divisor is a DomainError naming the element, or recorded",
          "[ops][bad-input]") {
  Tensor<std::int32_t> A{{1, 2, 3}, {4, 5, 6}};
  Tensor<std::int32_t> B{{1, 1, 1}, {1, 0, 0}};
  try {
    Div(A, B);
    FAIL("no error");
  } catch (const DomainError& e) {
    CHECK(std::string(e.what()) ==
          "Div: integer division by zero is undefined (SONNX Div [R3]/[C3]) at output element 4, "
          "multi-index [1,1] (A = 5, B = 0; 2 undefined element(s) in all)");
  }
  const DivResult<std::int32_t> r = div_checked(A, B);
  CHECK(r.undefined == std::vector<std::size_t>{4, 5});
  CHECK(r.value == Tensor<std::int32_t>{{1, 2, 3}, {4, 0, 0}});
  // under broadcasting the index is the output's
  Tensor<std::uint8_t> X{{1, 2}, {3, 4}};
  Tensor<std::uint8_t> Y{1, 0};
  CHECK_THROWS_WITH(Div(X, Y, DivOptions::onnx(IntegerDivision::Truncate)),
                    Catch::Contains("integer division by zero is undefined at output element 1, "
                                    "multi-index [0,1]"));
  CHECK(div_checked(X, Y, DivOptions::onnx(IntegerDivision::Truncate)).undefined ==
        std::vector<std::size_t>{1, 3});
  // UINT4 / INT4 zero divisors too
  CHECK_THROWS_AS(Div(tensor_cast<UInt4>(Tensor<int>{3}), tensor_cast<UInt4>(Tensor<int>{16})),
                  DomainError);
}

TEST_CASE("Sub / Add / Mul integer: wrap-around modulo 2^n", "[ops]") {
  CHECK(Sub(Tensor<std::uint8_t>{6, 100, 0}, Tensor<std::uint8_t>{3, 200, 1}) ==
        Tensor<std::uint8_t>{3, 156, 255});
  CHECK(Sub(Tensor<std::int8_t>{-6, 10, 10, -128}, Tensor<std::int8_t>{-3, 100, -120, 1}) ==
        Tensor<std::int8_t>{-3, -90, -126, 127});
  CHECK(Add(Tensor<std::int8_t>{127, -128, 100}, Tensor<std::int8_t>{1, -1, 100}) ==
        Tensor<std::int8_t>{-128, 127, -56});
  CHECK(Mul(Tensor<std::int16_t>{300, -32768}, Tensor<std::int16_t>{300, -1}) ==
        Tensor<std::int16_t>{24464, -32768});
  CHECK(Mul(Tensor<std::uint16_t>{65535}, Tensor<std::uint16_t>{65535}) == Tensor<std::uint16_t>{1});
  const auto i64max = std::numeric_limits<std::int64_t>::max();
  CHECK(Add(Tensor<std::int64_t>{i64max}, Tensor<std::int64_t>{1}) ==
        Tensor<std::int64_t>{std::numeric_limits<std::int64_t>::min()});
  CHECK(Mul(Tensor<std::uint64_t>{1ull << 63}, Tensor<std::uint64_t>{2}) == Tensor<std::uint64_t>{0});
  CHECK(Add(tensor_cast<Int4>(Tensor<int>{7, -8}), tensor_cast<Int4>(Tensor<int>{1, -1})) ==
        tensor_cast<Int4>(Tensor<int>{-8, 7}));
  CHECK(Sub(tensor_cast<UInt4>(Tensor<int>{0}), tensor_cast<UInt4>(Tensor<int>{1}))[0].value() == 15);
  CHECK(Mul(tensor_cast<UInt4>(Tensor<int>{5}), tensor_cast<UInt4>(Tensor<int>{5}))[0].value() == 9);
}

TEST_CASE("Sub / Add / Mul float: IEEE special values, per format", "[ops]") {
  const float inf = std::numeric_limits<float>::infinity();
  Tensor<float> A{inf, inf, 0.f, -0.f, 3.f, 3e38f};
  Tensor<float> B{inf, -inf, 0.f, 0.f, 3.f, 3e38f};
  const auto s = Sub(A, B), a = Add(A, B), m = Mul(A, B);
  CHECK(std::isnan(s[0]));
  CHECK(s[1] == inf);
  CHECK(bits_equal(s[2], 0.f));
  CHECK(bits_equal(s[3], -0.f));
  CHECK(bits_equal(s[4], 0.f));  // x - x = +0 under RNE
  CHECK(std::isnan(a[1]));
  CHECK(bits_equal(a[3], 0.f));  // -0 + 0 = +0
  CHECK(a[5] == inf);            // overflow
  CHECK(m[1] == -inf);
  CHECK(bits_equal(m[3], -0.f));
  // Half: 2048 + 1 is a tie -> 2048 (even); BF16: 256 + 1 -> 256
  CHECK(static_cast<double>(Add(tensor_cast<Half>(Tensor<double>{2048}),
                                tensor_cast<Half>(Tensor<double>{1}))[0]) == 2048.0);
  CHECK(static_cast<double>(Add(tensor_cast<BFloat16>(Tensor<double>{256}),
                                tensor_cast<BFloat16>(Tensor<double>{1}))[0]) == 256.0);
  CHECK(static_cast<double>(Add(tensor_cast<BFloat16>(Tensor<double>{256}),
                                tensor_cast<BFloat16>(Tensor<double>{3}))[0]) == 260.0);
}

TEST_CASE("SONNX rule through the operators: shape error names the constraint", "[ops][bad-input]") {
  Tensor<float> A{{1, 2, 3}, {4, 5, 6}};
  Tensor<float> B{1, 2, 3};
  CHECK_THROWS_WITH(Div(A, B), "Div [R1]/[C1] shape consistency violated: A has shape [2,3], B has shape [3]");
  CHECK_THROWS_WITH(Sub(A, B), "Sub [C1] shape consistency violated: A has shape [2,3], B has shape [3]");
  CHECK_THROWS_AS(Add(A, B), ShapeError);
  CHECK_THROWS_AS(Mul(A, B), ShapeError);
  // the same pair is fine under ONNX broadcasting
  CHECK(Div(A, B, DivOptions::onnx(IntegerDivision::Truncate)) == Tensor<float>{{1, 1, 1}, {4, 2.5f, 2}});
}

TEST_CASE("zero-size dimensions and rank-0 scalars through the operators", "[ops]") {
  Tensor<float> Z(Shape{2, 0, 3}, 0.f);
  const auto r = Div(Z, Z);
  CHECK(r.shape() == Shape{2, 0, 3});
  CHECK(r.size() == 0);
  const auto rb = Add(Z, Tensor<float>(Shape{1, 3}, 1.f), {OnnxMultidirectional{}});
  CHECK(rb.shape() == Shape{2, 0, 3});
  CHECK_THROWS_AS(Add(Z, Tensor<float>(Shape{2, 1, 3}, 1.f)), ShapeError);
  const auto s = Sub(Tensor<int>::scalar(3), Tensor<int>::scalar(5));
  CHECK(s.rank() == 0);
  CHECK(s[0] == -2);
  const auto sb = Mul(Tensor<int>::scalar(3), Tensor<int>{{1, 2}}, {OnnxMultidirectional{}});
  CHECK(sb == Tensor<int>{{3, 6}});
}

namespace {

// Independent reference for numpy broadcasting: map each output multi-index to the
// inputs by right-alignment, with coordinate 0 on size-1 axes.
template <class T, class F>
Tensor<T> naive_numpy(const Tensor<T>& a, const Tensor<T>& b, const Shape& out, F f) {
  std::vector<T> v;
  for (const Index& i : indexes(out)) {
    Index ia(a.rank()), ib(b.rank());
    for (std::size_t k = 0; k < a.rank(); ++k)
      ia[k] = a.shape()[k] == 1 ? 0 : i[out.size() - a.rank() + k];
    for (std::size_t k = 0; k < b.rank(); ++k)
      ib[k] = b.shape()[k] == 1 ? 0 : i[out.size() - b.rank() + k];
    v.push_back(f(a[ia], b[ib]));
  }
  return Tensor<T>(out, std::move(v));
}

Shape random_shape(std::mt19937_64& rng, std::size_t rank) {
  Shape s(rank);
  for (auto& d : s) d = rng() % 4;  // 0..3: zero-size, 1 (stretched) and others
  return s;
}

}  // namespace

TEST_CASE("broadcast driver agrees with a naive multi-index reference", "[ops]") {
  std::mt19937_64 rng(21);
  int checked = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    const std::size_t r = rng() % 6;
    Shape out = random_shape(rng, r);
    // derive broadcast-compatible input shapes: drop leading axes, set some to 1
    auto derive = [&](const Shape& o) {
      Shape s(o.begin() + static_cast<std::ptrdiff_t>(rng() % (o.size() + 1)), o.end());
      for (auto& d : s)
        if (rng() % 3 == 0) d = 1;
      return s;
    };
    const Shape sa = derive(out), sb = derive(out);
    Shape expect;
    try {
      expect = broadcast_shape(sa, sb, OnnxMultidirectional{});
    } catch (const ShapeError&) {
      continue;
    }
    std::vector<int> va(element_count(sa)), vb(element_count(sb));
    for (auto& x : va) x = static_cast<int>(rng() % 1000) - 500;
    for (auto& x : vb) x = static_cast<int>(rng() % 1000) - 500;
    const Tensor<int> A(sa, va), B(sb, vb);
    const auto got = Sub(A, B, {OnnxMultidirectional{}});
    const auto want = naive_numpy(A, B, expect, [](int x, int y) { return x - y; });
    INFO("A " << to_string(sa) << " B " << to_string(sb));
    CHECK(got == want);
    ++checked;
  }
  CHECK(checked > 1000);
}

TEST_CASE("legacy opset 1/6 broadcasting through Div: B aligned at axis", "[ops]") {
  Tensor<double> A(Shape{2, 3, 4, 5}, 0.0);
  for (std::size_t k = 0; k < A.size(); ++k) A[k] = static_cast<double>(k + 1);
  Tensor<double> B(Shape{3, 4}, 0.0);
  for (std::size_t k = 0; k < B.size(); ++k) B[k] = static_cast<double>(k + 2);
  const auto C = Div(A, B, DivOptions::onnx_legacy({true, 1}, IntegerDivision::Truncate));
  CHECK(C.shape() == A.shape());
  for (const Index& i : A.indexes()) CHECK(C[i] == A[i] / B(i[1], i[2]));
  const auto C0 = Div(A, Tensor<double>{2.0, 4.0}, DivOptions::onnx_legacy({true, 0}, IntegerDivision::Truncate));
  for (const Index& i : A.indexes()) CHECK(C0[i] == A[i] / (i[0] == 0 ? 2.0 : 4.0));
  const auto Cs = Mul(A, Tensor<double>::scalar(2.0), {OnnxLegacy{true, {}}});
  for (std::size_t k = 0; k < A.size(); ++k) CHECK(Cs[k] == 2 * A[k]);
}

namespace mock {

// A class element type standing in for SymbolicDomainError: it records which
// extension point the operators used.
struct Sym {
  double v = 0;
  std::string how;
  static constexpr std::string_view type_name() { return "MockSym"; }
};
Sym divide(const Sym& a, const Sym& b, symerr::IntegerDivision mode) {
  return {a.v / b.v, std::string("divide/") + std::string(symerr::to_string(mode))};
}
Sym operator-(const Sym& a, const Sym& b) { return {a.v - b.v, "operator-"}; }
Sym operator+(const Sym& a, const Sym& b) { return {a.v + b.v, "operator+"}; }
Sym operator*(const Sym& a, const Sym& b) { return {a.v * b.v, "operator*"}; }

}  // namespace mock

TEST_CASE("class element types plug in through ADL divide(a, b, mode) and their operators",
          "[ops]") {
  using mock::Sym;
  Tensor<Sym> A{Sym{6, ""}, Sym{1, ""}};
  Tensor<Sym> B{Sym{3, ""}, Sym{0, ""}};
  const auto q = Div(A, B, DivOptions::sonnx(IntegerDivision::Truncate));
  CHECK(q[0].v == 2);
  CHECK(q[0].how == "divide/truncate");
  CHECK(std::isinf(q[1].v));  // the class type decides what a zero divisor means
  CHECK(Div(A, B)[0].how == "divide/floor");
  CHECK(Sub(A, B)[0].how == "operator-");
  CHECK(Add(A, B)[1].v == 1);
  CHECK(Mul(A, B)[0].how == "operator*");
  CHECK(element_type_name<Sym>() == "MockSym");
  // shapes are checked for class types too
  CHECK_THROWS_AS(Div(A, Tensor<Sym>{Sym{}}), ShapeError);
}

TEST_CASE("AnyTensor: dispatch on the element type, mixed types are a TypeError", "[ops][bad-input]") {
  const AnyTensor a = Tensor<float>{1.f, 2.f};
  const AnyTensor b = Tensor<float>{4.f, 8.f};
  const AnyTensor h = tensor_cast<Half>(Tensor<float>{4.f, 8.f});
  CHECK(std::get<Tensor<float>>(Div(a, b)) == Tensor<float>{0.25f, 0.25f});
  CHECK(element_type_name(h) == "FP16");
  try {
    Div(a, h);
    FAIL("no error");
  } catch (const TypeError& e) {
    CHECK(std::string(e.what()) == "Div [R2]/[C2] type consistency violated: A has type FP32, B has type FP16");
  }
  CHECK_THROWS_WITH(Sub(AnyTensor{Tensor<std::int8_t>{1}}, AnyTensor{Tensor<std::uint8_t>{1}},
                        {OnnxMultidirectional{}}),
                    "Sub (ONNX multidirectional broadcasting): type constraint T violated (A and B "
                    "must have the same element type): A has type INT8, B has type UINT8");
  CHECK_THROWS_AS(Add(AnyTensor{Tensor<Int4>{}}, AnyTensor{Tensor<UInt4>{}}), TypeError);
  CHECK_THROWS_AS(Mul(AnyTensor{Tensor<double>{}}, AnyTensor{Tensor<BFloat16>{}}), TypeError);
  std::string why;
  CHECK_FALSE(bitwise_equal(AnyTensor{Tensor<float>{0.f}}, AnyTensor{Tensor<float>{-0.f}}, &why));
  CHECK(why == "element 0 (multi-index [0]) differs: 0 vs -0");
  CHECK(bitwise_equal(AnyTensor{Tensor<float>{std::nanf("")}}, AnyTensor{Tensor<float>{-std::nanf("1")}}));
}

TEST_CASE("OpenVINO Divide-1: pythondiv chooses floor or truncation", "[ops]") {
  Tensor<std::int32_t> A{-7, 7, -8};
  Tensor<std::int32_t> B{2, -2, 3};
  CHECK(Div(A, B, DivOptions::openvino()) == Tensor<std::int32_t>{-4, -4, -3});  // default true
  CHECK(Div(A, B, DivOptions::openvino(AutoBroadcast::Numpy, false)) == Tensor<std::int32_t>{-3, -3, -2});
  // pythondiv does not affect floats
  CHECK(Div(Tensor<float>{-7}, Tensor<float>{2}, DivOptions::openvino()) == Tensor<float>{-3.5f});
}
