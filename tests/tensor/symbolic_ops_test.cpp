// The generic operators on Tensor<SymbolicDomainError<Interval>>: the real class
// element type plugs in through divide(a, b, IntegerDivision) (ADL) and its
// operators, with the shape rules and the broadcast driver unchanged.
#include <catch2/catch.hpp>

#include <symerr/domains/symbolic_interval.hpp>
#include <symerr/ops/add.hpp>
#include <symerr/ops/div.hpp>
#include <symerr/ops/mul.hpp>
#include <symerr/ops/sub.hpp>

using namespace symerr;

namespace {

using S = SymbolicError;

bool is_point(const Interval& x, double v) { return x.lower() == v && x.upper() == v; }

Tensor<S> constants(const Shape& shape, const std::vector<double>& v, const Format& f) {
  std::vector<S> xs;
  for (double x : v) xs.push_back(S::constant(x, f));
  return Tensor<S>(shape, std::move(xs));
}

}  // namespace

TEST_CASE("Div on SymbolicDomainError tensors: FP32 quotients and IEEE specials", "[ops][symbolic]") {
  const auto A = constants({2, 2}, {6, 1, 0, -3}, FP32);
  const auto B = constants({2, 2}, {3, 0, 0, 4}, FP32);
  const auto C = Div(A, B);
  CHECK(is_point(C[0].fp, 2.0));
  CHECK(is_point(C[0].real, 2.0));
  CHECK(certainly(C(0, 1).is_inf()));
  CHECK(certainly(C(1, 0).is_nan()));
  CHECK(is_point(C(1, 1).fp, -0.75));
  CHECK_THROWS_AS(Div(A, constants({2}, {1, 2}, FP32)), ShapeError);  // SONNX [R1]/[C1]
}

TEST_CASE("Div on SymbolicDomainError tensors: integer quotients follow the chosen rounding",
          "[ops][symbolic]") {
  const auto A = constants({3}, {7, -7, 6}, INT32);
  const auto B = constants({3}, {2, 2, -4}, INT32);
  const auto F = Div(A, B, DivOptions::sonnx(IntegerDivision::Floor));
  const auto T = Div(A, B, DivOptions::sonnx(IntegerDivision::Truncate));
  CHECK(is_point(F[0].fp, 3.0));
  CHECK(is_point(F[1].fp, -4.0));
  CHECK(is_point(F[2].fp, -2.0));
  CHECK(is_point(T[0].fp, 3.0));
  CHECK(is_point(T[1].fp, -3.0));
  CHECK(is_point(T[2].fp, -1.0));
}

TEST_CASE("Sub / Add / Mul on SymbolicDomainError tensors, with broadcasting", "[ops][symbolic]") {
  const auto A = constants({2, 2}, {1, 2, 3, 4}, FP32);
  const auto b = constants({}, {0.5}, FP32);
  const ElementwiseOptions numpy{OnnxMultidirectional{}};
  const auto s = Sub(A, b, numpy), a = Add(A, b, numpy), m = Mul(A, b, numpy);
  REQUIRE(s.shape() == Shape{2, 2});
  for (std::size_t k = 0; k < 4; ++k) {
    const double x = static_cast<double>(k + 1);
    CHECK(is_point(s[k].fp, x - 0.5));
    CHECK(is_point(a[k].fp, x + 0.5));
    CHECK(is_point(m[k].fp, x * 0.5));
  }
  // INT8 wrap-around is the class type's business: 100 + 100 in INT8
  const auto w = Add(constants({1}, {100}, INT8), constants({1}, {100}, INT8));
  CHECK(is_point(w[0].fp, -56.0));
}
