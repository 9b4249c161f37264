// Interval: special values, the contract's corner cases, and the Boost.Interval
// behaviours it corrects (each "Boost:" check documents what raw Boost does).
#include <catch2/catch.hpp>

#include <cfenv>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>

#include <boost/numeric/interval.hpp>

#include <symerr/domains/interval.hpp>
#include <symerr/domains/sign.hpp>

using namespace symerr;

namespace {
constexpr double inf = std::numeric_limits<double>::infinity();
constexpr double nan_v = std::numeric_limits<double>::quiet_NaN();
constexpr double max_d = std::numeric_limits<double>::max();

bool same(const Interval& a, double lo, double hi) { return a.lower() == lo && a.upper() == hi; }
}  // namespace

TEST_CASE("Interval: the directed-rounding self-test passes and keeps the caller's mode", "[domains][interval]") {
  CHECK(directed_rounding_works());
  for (int mode : {FE_UPWARD, FE_DOWNWARD, FE_TOWARDZERO}) {
    std::fesetround(mode);
    const bool ok = directed_rounding_works();
    const int after = std::fegetround();
    std::fesetround(FE_TONEAREST);
    CHECK(ok);
    CHECK(after == mode);
  }
}

TEST_CASE("Interval: NaN is a precondition violation, never an endpoint", "[domains][interval]") {
  CHECK_THROWS_AS(Interval::point(nan_v), std::invalid_argument);
  CHECK_THROWS_WITH(Interval::between(nan_v, 1.0), Catch::Contains("NaN"));
  CHECK_THROWS_WITH(Interval::between(2.0, 1.0), Catch::Contains("above"));
  CHECK_THROWS_AS(Interval::from_boost(BoostInterval::empty()), std::invalid_argument);
  CHECK_NOTHROW(Interval::between(-inf, inf));
  CHECK_NOTHROW(Interval::point(inf));
}

TEST_CASE("Interval: the non-throwing checking policy (Boost's default throws)", "[domains][interval]") {
  // Boost: the default policies (checking_strict) throw when an operation would
  // create an empty interval, e.g. a reversed pair or sqrt of [-2, -1].
  using DefaultBoost = boost::numeric::interval<double>;
  CHECK_THROWS_AS(DefaultBoost(2.0, 1.0), std::runtime_error);
  CHECK_THROWS_AS(sqrt(DefaultBoost(-2.0, -1.0)), std::runtime_error);
  // ...yet stores a NaN point silently (checking_no_nan::is_nan is always false).
  CHECK(std::isnan(DefaultBoost(nan_v).lower()));
  // IntervalChecking: an empty result is the NaN pair, nothing throws...
  CHECK_NOTHROW(BoostInterval(2.0, 1.0));
  CHECK(std::isnan(sqrt(BoostInterval(-2.0, -1.0)).lower()));
  // ...and Interval answers those cases by the contract instead.
  CHECK(same(sqrt(Interval::between(-2.0, -1.0)), 0.0, 0.0));
}

TEST_CASE("Interval: endpoint products 0 * inf are 0 (Boost gives NaN)", "[domains][interval]") {
  const Interval pos_inf_point = Interval::point(inf);
  // Boost: the sign-case table multiplies the endpoints 0 and +inf.
  CHECK(std::isnan((BoostInterval(-1.0, 0.0) * pos_inf_point.boost()).upper()));
  CHECK(same(Interval::between(-1.0, 0.0) * pos_inf_point, -inf, 0.0));
  CHECK(same(Interval::between(0.0, 1.0) * pos_inf_point, 0.0, inf));
  CHECK(same(Interval::between(0.0, 1.0) * Interval::between(1.0, inf), 0.0, inf));
  CHECK(same(Interval::point(0.0) * Interval::whole(), 0.0, 0.0));
  CHECK(same(Interval::point(-0.0) * Interval::between(-inf, -1.0), 0.0, 0.0));
  CHECK(same(Interval::whole() * Interval::between(-1.0, 2.0), -inf, inf));
}

TEST_CASE("Interval: inf - inf and inf / inf from degenerate operands widen outward", "[domains][interval]") {
  const Interval p = Interval::point(inf), n = Interval::point(-inf);
  CHECK(same(p + n, -inf, inf));
  CHECK(same(p - p, -inf, inf));
  CHECK(same(p / p, -inf, inf));
  CHECK(same(p + Interval::point(1.0), inf, inf));
  CHECK(same(Interval::point(1.0) / p, 0.0, 0.0));
  CHECK(width(p) == inf);
  CHECK_FALSE(is_point(p));
  CHECK_FALSE(is_bounded(p));
}

TEST_CASE("Interval: division by an interval containing 0 is whole() (Boost gives half-lines)", "[domains][interval]") {
  const Interval x = Interval::between(1.0, 2.0);
  // Boost: [1, 2] / [0, 1] = [1, +inf], and [1, 2] / [0, 0] is empty.
  const BoostInterval q = x.boost() / BoostInterval(0.0, 1.0);
  CHECK(q.lower() == 1.0);
  CHECK(q.upper() == inf);
  for (const Interval& y : {Interval::between(0.0, 1.0), Interval::between(-1.0, 0.0), Interval::point(0.0),
                            Interval::between(-1.0, 1.0), Interval::whole()}) {
    CHECK(same(x / y, -inf, inf));
    CHECK(same(Interval::point(0.0) / y, -inf, inf));
  }
  CHECK(same(x / Interval::between(-inf, -1.0), -2.0, 0.0));
  CHECK(same(Interval::between(-inf, -1.0) / Interval::between(2.0, 4.0), -inf, -0.25));
}

TEST_CASE("Interval: sqrt, abs, neg, hull, intersect", "[domains][interval]") {
  CHECK(same(sqrt(Interval::between(-1.0, 4.0)), 0.0, 2.0));
  CHECK(same(sqrt(Interval::between(4.0, inf)), 2.0, inf));
  CHECK(same(sqrt(Interval::between(-inf, 0.0)), 0.0, 0.0));
  const Interval s2 = sqrt(Interval::point(2.0));
  CHECK(s2.lower() < s2.upper());
  CHECK(s2.upper() == std::nextafter(s2.lower(), inf));
  CHECK(same(abs(Interval::between(-3.0, 2.0)), 0.0, 3.0));
  CHECK(same(abs(Interval::between(-3.0, -2.0)), 2.0, 3.0));
  CHECK(same(-Interval::between(-inf, 2.0), -2.0, inf));
  CHECK(same(hull(Interval::point(1.0), Interval::between(3.0, inf)), 1.0, inf));
  const auto touching = intersect(Interval::between(1.0, 2.0), Interval::between(2.0, 3.0));
  REQUIRE(touching);
  CHECK(same(*touching, 2.0, 2.0));
  CHECK_FALSE(intersect(Interval::between(1.0, 2.0), Interval::between(2.5, 3.0)));
}

TEST_CASE("Interval: queries", "[domains][interval]") {
  const Interval a = Interval::between(-3.0, 2.0);
  CHECK(contains(a, 0.0));
  CHECK_FALSE(contains(a, nan_v));
  CHECK(contains(a, mpq_class(-3)));
  CHECK_FALSE(contains(a, mpq_class(-3) - mpq_class(1, mpz_class(1) << 200)));
  CHECK(contains(Interval::whole(), mpq_class(mpz_class(1) << 2000)));
  CHECK(contains(Interval::between(1.0, inf), inf));
  CHECK(subset(Interval::point(1.0), a));
  CHECK_FALSE(subset(a, Interval::point(1.0)));
  CHECK(width(a) == 5.0);
  CHECK(width(Interval::between(-max_d, max_d)) == inf);  // overflow rounds up
  CHECK(width(Interval::between(0.0, 0x1p-1074)) == 0x1p-1074);
  CHECK(mag(a) == 3.0);
  CHECK(mig(a) == 0.0);
  CHECK(mig(Interval::between(-5.0, -2.0)) == 2.0);
  CHECK(is_point(Interval::point(1.0)));
  CHECK_FALSE(is_bounded(Interval::between(0.0, inf)));
}

TEST_CASE("Interval: three-valued comparisons", "[domains][interval]") {
  const Interval a = Interval::between(1.0, 2.0), b = Interval::between(2.0, 3.0);
  CHECK(cmp_lt(a, b) == Tri::Unknown);
  CHECK(cmp_le(a, b) == Tri::True);
  CHECK(cmp_gt(a, b) == Tri::False);
  CHECK(cmp_ge(a, b) == Tri::Unknown);
  CHECK(cmp_eq(a, b) == Tri::Unknown);
  CHECK(cmp_eq(Interval::point(2.0), Interval::point(2.0)) == Tri::True);
  CHECK(cmp_ne(Interval::point(2.0), Interval::point(3.0)) == Tri::True);
  CHECK(cmp_lt(Interval::between(-inf, 0.0), Interval::between(0.5, inf)) == Tri::True);
  CHECK(sign_positive(a) == Tri::True);
  CHECK(sign_positive(Interval::between(0.0, 1.0)) == Tri::Unknown);
  CHECK(sign_nonnegative(Interval::between(0.0, 1.0)) == Tri::True);
  CHECK(sign_negative(a) == Tri::False);
  CHECK(sign_zero(Interval::point(-0.0)) == Tri::True);
}

TEST_CASE("Interval: rationals, printing, Boost interop", "[domains][interval]") {
  const Interval third = Interval::from_rational(mpq_class(1, 3));
  const Interval q = Interval::point(1.0) / Interval::point(3.0);
  CHECK(same(third, q.lower(), q.upper()));
  CHECK(third.upper() == std::nextafter(third.lower(), inf));
  CHECK(is_point(Interval::from_rational(mpq_class(1, 2))));
  CHECK(same(Interval::from_rational(mpq_class(mpz_class(1) << 2000)), max_d, inf));
  CHECK(same(Interval::from_rational(mpq_class(1, mpz_class(1) << 2000)), 0.0, 0x1p-1074));
  CHECK(to_string(q) == "[0.33333333333333331, 0.33333333333333338]");
  CHECK(to_string(Interval::whole()) == "[-inf, inf]");
  std::ostringstream os;
  os << Interval::point(0.1);
  CHECK(os.str() == "[0.1, 0.10000000000000001]");  // %g drops trailing zeros
  const Interval round_trip = Interval::from_boost(q.boost());
  CHECK(same(round_trip, q.lower(), q.upper()));
}
