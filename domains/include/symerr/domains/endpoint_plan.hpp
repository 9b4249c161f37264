// Which endpoint products (quotients) bound x * y (x / y) for closed intervals
// x = [xl, xu], y = [yl, yu], chosen by the sign classes of x and y.
// Source: the classical case table of interval multiplication and division
// (R. E. Moore, "Interval Analysis", 1966, ch. 2; the same table as
// Boost.Interval arith.hpp and detail/division.hpp).
//
// The table is pure logic, shared by the MPFR and rational domains, and tested
// against brute force over all four corners (tests/domains/test_endpoint_plan.cpp).
#pragma once

#include <symerr/config.hpp>

namespace symerr::detail {

// Nonneg: xl >= 0 (includes [0, 0]); Nonpos: xu <= 0 < -xl; Mixed: xl < 0 < xu.
enum class SignClass : unsigned char { Nonneg, Nonpos, Mixed };

// Signs (-1, 0, +1) of the two endpoints of a (non-empty) interval.
constexpr SignClass sign_class(int sign_lower, int sign_upper) noexcept {
  if (sign_lower >= 0) return SignClass::Nonneg;
  if (sign_upper <= 0) return SignClass::Nonpos;
  return SignClass::Mixed;
}

// One endpoint pair (x_upper = false selects xl, true selects xu; same for y).
struct Corner {
  bool x_upper;
  bool y_upper;
};

// An extremum is one corner value, or the min/max of two (only for Mixed * Mixed).
struct Extremum {
  Corner first;
  Corner second;
  bool two;
};

struct EndpointPlan {
  Extremum lower;  // the result's lower endpoint: min over the candidates, rounded down
  Extremum upper;  // the result's upper endpoint: max over the candidates, rounded up
};

namespace plan_detail {
constexpr Corner LL{false, false}, LU{false, true}, UL{true, false}, UU{true, true};
constexpr Extremum one(Corner c) noexcept { return {c, c, false}; }
}  // namespace plan_detail

// Corners of x * y. Endpoint products 0 * inf count as 0.
constexpr EndpointPlan mul_plan(SignClass x, SignClass y) noexcept {
  using namespace plan_detail;
  using S = SignClass;
  switch (x) {
    case S::Nonneg:
      if (y == S::Nonneg) return {one(LL), one(UU)};
      if (y == S::Nonpos) return {one(UL), one(LU)};
      return {one(UL), one(UU)};
    case S::Nonpos:
      if (y == S::Nonneg) return {one(LU), one(UL)};
      if (y == S::Nonpos) return {one(UU), one(LL)};
      return {one(LU), one(LL)};
    default:
      if (y == S::Nonneg) return {one(LU), one(UU)};
      if (y == S::Nonpos) return {one(UL), one(LL)};
      return {{LU, UL, true}, {LL, UU, true}};
  }
}

// Corners of x / y. Precondition: 0 is not in y, so y is Nonneg with yl > 0 or
// Nonpos; y == Mixed is a precondition violation (answered as Nonpos).
constexpr EndpointPlan div_plan(SignClass x, SignClass y) noexcept {
  using namespace plan_detail;
  using S = SignClass;
  const bool y_pos = y == S::Nonneg;
  switch (x) {
    case S::Nonneg: return y_pos ? EndpointPlan{one(LU), one(UL)} : EndpointPlan{one(UU), one(LL)};
    case S::Nonpos: return y_pos ? EndpointPlan{one(LL), one(UU)} : EndpointPlan{one(UL), one(LU)};
    default: return y_pos ? EndpointPlan{one(LL), one(UL)} : EndpointPlan{one(UU), one(LU)};
  }
}

}  // namespace symerr::detail
