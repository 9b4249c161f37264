// RationalInterval: exactness, infinite endpoints, the sqrt enclosure,
// outward conversions to double.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include <symerr/domains/rational_interval.hpp>

using namespace symerr;

namespace {
constexpr double inf = std::numeric_limits<double>::infinity();
constexpr double max_d = std::numeric_limits<double>::max();

bool is_exactly(const RationalInterval& a, const mpq_class& lo, const mpq_class& hi) {
  return a.lower_exact().is_finite() && a.upper_exact().is_finite() && a.lower_exact().value == lo &&
         a.upper_exact().value == hi;
}
mpq_class pow2(long e) {
  mpq_class q(1);
  if (e >= 0) mpq_mul_2exp(q.get_mpq_t(), q.get_mpq_t(), static_cast<mp_bitcnt_t>(e));
  else mpq_div_2exp(q.get_mpq_t(), q.get_mpq_t(), static_cast<mp_bitcnt_t>(-e));
  return q;
}
}  // namespace

TEST_CASE("RationalInterval: + - * / are exact", "[domains][rational]") {
  const RationalInterval a = RationalInterval::point(0.1), b = RationalInterval::point(0.2);
  CHECK(is_exactly(a + b, mpq_class(0.1) + mpq_class(0.2), mpq_class(0.1) + mpq_class(0.2)));
  const RationalInterval third = RationalInterval::from_rational(1) / RationalInterval::from_rational(3);
  CHECK(is_exactly(third, mpq_class(1, 3), mpq_class(1, 3)));
  CHECK(is_point(third));
  const RationalInterval x = RationalInterval::between(mpq_class(-1, 3), mpq_class(2, 7));
  const RationalInterval y = RationalInterval::between(mpq_class(-5, 11), mpq_class(3, 13));
  CHECK(is_exactly(x * y, std::min(mpq_class(-1, 3) * mpq_class(3, 13), mpq_class(2, 7) * mpq_class(-5, 11)),
                   std::max(mpq_class(-1, 3) * mpq_class(-5, 11), mpq_class(2, 7) * mpq_class(3, 13))));
  CHECK(is_exactly(x - y, mpq_class(-1, 3) - mpq_class(3, 13), mpq_class(2, 7) + mpq_class(5, 11)));
  CHECK(is_exactly(-x, mpq_class(-2, 7), mpq_class(1, 3)));
  CHECK(is_exactly(abs(x), 0, mpq_class(1, 3)));
}

TEST_CASE("RationalInterval: infinite endpoints are flags, 0 * inf = 0", "[domains][rational]") {
  const RationalInterval w = RationalInterval::whole();
  CHECK(w.lower() == -inf);
  CHECK(w.upper() == inf);
  CHECK_FALSE(w.lower_exact().is_finite());
  CHECK(w.lower_exact().infinity == -1);
  const RationalInterval h = RationalInterval::between(1.0, inf);
  CHECK(h.upper_exact().infinity == 1);
  CHECK(is_exactly(RationalInterval::point(0.0) * w, 0, 0));
  const RationalInterval p = RationalInterval::point(inf);
  const RationalInterval q = RationalInterval::between(-1.0, 0.0) * p;
  CHECK(q.lower() == -inf);
  CHECK(q.upper_exact().is_finite());
  CHECK(q.upper_exact().value == 0);
  CHECK((p - p).lower() == -inf);
  CHECK((p - p).upper() == inf);
  CHECK((p / p).lower() == -inf);
  CHECK(is_exactly(RationalInterval::point(1.0) / h, 0, 1));
  CHECK((RationalInterval::point(1.0) / RationalInterval::between(-1.0, 1.0)).lower() == -inf);
  CHECK(width(h) == inf);
  CHECK(mag(h) == inf);
  CHECK(mig(h) == 1.0);
  CHECK(contains(h, inf));
  CHECK_FALSE(contains(h, 0.5));
  CHECK(cmp_gt(h, RationalInterval::between(-inf, 0.5)) == Tri::True);
}

TEST_CASE("RationalInterval: sqrt is exact on squares, else 2^(1-bits) relative", "[domains][rational]") {
  CHECK(is_exactly(sqrt(RationalInterval::between(mpq_class(4, 9), mpq_class(9, 4))), mpq_class(2, 3),
                   mpq_class(3, 2)));
  CHECK(is_exactly(sqrt(RationalInterval::between(-1.0, 4.0)), 0, 2));
  CHECK(is_exactly(sqrt(RationalInterval::between(-2.0, -1.0)), 0, 0));
  const RationalInterval half_line = sqrt(RationalInterval::between(4.0, inf));
  CHECK(half_line.lower_exact().value == 2);
  CHECK(half_line.upper() == inf);
  for (long bits : {24L, 256L, 1000L}) {
    const RationalInterval r = sqrt(RationalInterval::from_rational(2), bits);
    const mpq_class& lo = r.lower_exact().value;
    const mpq_class& hi = r.upper_exact().value;
    CAPTURE(bits);
    CHECK(lo * lo < 2);
    CHECK(hi * hi > 2);
    CHECK(hi - lo <= 2 * pow2(1 - bits));  // two ulps of 2^(1-bits) around sqrt(2) < 2
  }
  CHECK_THROWS_AS(sqrt(RationalInterval::point(2.0), 0), std::invalid_argument);
}

TEST_CASE("RationalInterval: doubles rounded outward", "[domains][rational]") {
  const RationalInterval third = RationalInterval::from_rational(mpq_class(1, 3));
  CHECK(third.lower() < third.upper());
  CHECK(third.upper() == std::nextafter(third.lower(), inf));
  CHECK(RationalInterval::from_rational(mpq_class(1, 2)).lower() == 0.5);
  const RationalInterval tiny = RationalInterval::from_rational(pow2(-2000));
  CHECK(tiny.lower() == 0.0);
  CHECK(tiny.upper() == 0x1p-1074);
  const RationalInterval neg_tiny = -tiny;
  CHECK(neg_tiny.lower() == -0x1p-1074);
  CHECK(neg_tiny.upper() == 0.0);
  const RationalInterval big = RationalInterval::from_rational(pow2(2000));
  CHECK(big.lower() == max_d);
  CHECK(big.upper() == inf);
  CHECK(width(RationalInterval::between(mpq_class(0), mpq_class(1, 3))) == std::nextafter(1.0 / 3.0, inf));
  CHECK(mig(RationalInterval::between(mpq_class(1, 3), mpq_class(1))) == 1.0 / 3.0);
  CHECK(to_string(third) == "[0.33333333333333333, 0.33333333333333334]");
}

TEST_CASE("RationalInterval: preconditions and comparisons", "[domains][rational]") {
  CHECK_THROWS_AS(RationalInterval::between(2.0, 1.0), std::invalid_argument);
  CHECK_THROWS_WITH(RationalInterval::point(std::nan("")), Catch::Contains("NaN"));
  CHECK_THROWS_AS(RationalInterval::between(ExtendedRational::infinite(1), ExtendedRational::finite(0)),
                  std::invalid_argument);
  CHECK(compare(ExtendedRational::infinite(-1), ExtendedRational::finite(mpq_class(-1) * pow2(5000))) < 0);
  CHECK(compare(ExtendedRational::infinite(1), ExtendedRational::infinite(1)) == 0);
  const RationalInterval a = RationalInterval::between(mpq_class(1, 3), mpq_class(1, 2));
  const RationalInterval b = RationalInterval::between(mpq_class(1, 2), mpq_class(2, 3));
  CHECK(cmp_le(a, b) == Tri::True);
  CHECK(cmp_lt(a, b) == Tri::Unknown);
  CHECK(cmp_eq(RationalInterval::from_rational(mpq_class(1, 3)), RationalInterval::from_rational(mpq_class(2, 6))) ==
        Tri::True);
  CHECK(cmp_ne(a, RationalInterval::point(1.0)) == Tri::True);
  const auto i = intersect(a, b);
  REQUIRE(i);
  CHECK(is_exactly(*i, mpq_class(1, 2), mpq_class(1, 2)));
  CHECK(subset(*i, a));
  CHECK(contains(a, mpq_class(2, 5)));
}
