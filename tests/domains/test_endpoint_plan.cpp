// The sign-class table of endpoint_plan.hpp against brute force: the plan's
// corners must give exactly the min and max of x op y over all four corners.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <random>

#include <symerr/domains/endpoint_plan.hpp>

using namespace symerr::detail;

namespace {

struct Box {
  long lo, hi;
};

int sgn(long v) { return (v > 0) - (v < 0); }

// Exact products/quotients of small integers as rationals n/d (d > 0), compared by cross-multiplication.
struct Frac {
  long n, d;
};
bool less(Frac a, Frac b) { return a.n * b.d < b.n * a.d; }
bool equal(Frac a, Frac b) { return a.n * b.d == b.n * a.d; }

Frac corner(Box x, Box y, Corner c, bool divide) {
  const long a = c.x_upper ? x.hi : x.lo, b = c.y_upper ? y.hi : y.lo;
  if (!divide) return {a * b, 1};
  return b < 0 ? Frac{-a, -b} : Frac{a, b};
}

Frac extremum(Box x, Box y, const Extremum& e, bool divide, bool is_min) {
  Frac r = corner(x, y, e.first, divide);
  if (e.two) {
    const Frac t = corner(x, y, e.second, divide);
    if (is_min ? less(t, r) : less(r, t)) r = t;
  }
  return r;
}

}  // namespace

TEST_CASE("endpoint plan: mul and div corners are the exact extremes", "[domains][plan]") {
  std::mt19937 rng(7);
  std::uniform_int_distribution<long> d(-6, 6);
  long checked_div = 0;
  for (int t = 0; t < 20000; ++t) {
    Box x{d(rng), d(rng)}, y{d(rng), d(rng)};
    if (x.lo > x.hi) std::swap(x.lo, x.hi);
    if (y.lo > y.hi) std::swap(y.lo, y.hi);
    const SignClass cx = sign_class(sgn(x.lo), sgn(x.hi)), cy = sign_class(sgn(y.lo), sgn(y.hi));
    CAPTURE(x.lo, x.hi, y.lo, y.hi);
    for (bool divide : {false, true}) {
      if (divide && y.lo <= 0 && 0 <= y.hi) continue;
      checked_div += divide;
      std::array<Frac, 4> all;
      int i = 0;
      for (bool xu : {false, true})
        for (bool yu : {false, true}) all[i++] = corner(x, y, Corner{xu, yu}, divide);
      const Frac lo = *std::min_element(all.begin(), all.end(), less);
      const Frac hi = *std::max_element(all.begin(), all.end(), less);
      const EndpointPlan p = divide ? div_plan(cx, cy) : mul_plan(cx, cy);
      CHECK(equal(extremum(x, y, p.lower, divide, true), lo));
      CHECK(equal(extremum(x, y, p.upper, divide, false), hi));
    }
  }
  CHECK(checked_div > 5000);
}

TEST_CASE("endpoint plan: sign classes", "[domains][plan]") {
  CHECK(sign_class(0, 0) == SignClass::Nonneg);
  CHECK(sign_class(0, 1) == SignClass::Nonneg);
  CHECK(sign_class(-1, 0) == SignClass::Nonpos);
  CHECK(sign_class(-1, -1) == SignClass::Nonpos);
  CHECK(sign_class(-1, 1) == SignClass::Mixed);
  // Only Mixed * Mixed needs two candidates per endpoint.
  CHECK(mul_plan(SignClass::Mixed, SignClass::Mixed).lower.two);
  CHECK_FALSE(mul_plan(SignClass::Mixed, SignClass::Nonneg).lower.two);
}
