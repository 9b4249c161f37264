// MpfrInterval: resource handling (ASan checks leaks), precision rules,
// MPFR global state left untouched, special values.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <thread>
#include <utility>
#include <vector>

#include <symerr/domains/mpfr_interval.hpp>

using namespace symerr;

namespace {
constexpr double inf = std::numeric_limits<double>::infinity();

bool same(const MpfrInterval& a, double lo, double hi) {
  return mpfr_cmp_d(a.lower_mpfr(), lo) == 0 && mpfr_cmp_d(a.upper_mpfr(), hi) == 0;
}
}  // namespace

TEST_CASE("MpfrInterval: copy, move, self-assignment, containers", "[domains][mpfr]") {
  const MpfrInterval a = MpfrInterval::from_rational(mpq_class(1, 3), 200);
  MpfrInterval b = a;
  CHECK(b.precision() == 200);
  CHECK(mpfr_equal_p(a.lower_mpfr(), b.lower_mpfr()));
  b = MpfrInterval::point(5.0, 24);  // move-assign of another precision
  CHECK(b.precision() == 24);
  CHECK(a.precision() == 200);  // deep copy: a untouched
  CHECK(contains(a, mpq_class(1, 3)));
  MpfrInterval c = a;
  const MpfrInterval& alias = c;
  c = alias;  // self-assignment
  CHECK(mpfr_equal_p(c.upper_mpfr(), a.upper_mpfr()));
  MpfrInterval d = std::move(c);
  CHECK(d.precision() == 200);
  CHECK(same(c, 0.0, 0.0));  // moved-from: a valid [0, 0]
  c = d;                      // and usable
  CHECK(c.precision() == 200);
  std::vector<MpfrInterval> v;
  for (int i = 0; i < 100; ++i) v.push_back(MpfrInterval::point(i, 64 + i));
  v.erase(v.begin(), v.begin() + 50);
  v.resize(120);
  std::swap(v[0], v[1]);
  CHECK(same(v[0], 51.0, 51.0));
  CHECK(v[0].precision() == 64 + 51);
  CHECK(v.back().precision() == MpfrInterval::default_precision());
}

TEST_CASE("MpfrInterval: default precision per thread, scoped, validated", "[domains][mpfr]") {
  CHECK(MpfrInterval::default_precision() == MpfrInterval::initial_default_precision);
  {
    MpfrInterval::PrecisionScope scope(64);
    CHECK(MpfrInterval::point(1.0).precision() == 64);
    mpfr_prec_t other_thread = 0;
    std::thread t([&] { other_thread = MpfrInterval::point(1.0).precision(); });
    t.join();
    CHECK(other_thread == MpfrInterval::initial_default_precision);
  }
  CHECK(MpfrInterval::default_precision() == MpfrInterval::initial_default_precision);
  CHECK_THROWS_AS(MpfrInterval::set_default_precision(0), std::invalid_argument);
  CHECK_THROWS_AS(MpfrInterval::PrecisionScope(-5), std::invalid_argument);
  CHECK(MpfrInterval::default_precision() == MpfrInterval::initial_default_precision);
}

TEST_CASE("MpfrInterval: binary operations use the larger precision", "[domains][mpfr]") {
  const MpfrInterval a = MpfrInterval::point(1.0, 64), b = MpfrInterval::point(3.0, 200);
  CHECK((a / b).precision() == 200);
  CHECK((b - a).precision() == 200);
  CHECK(hull(a, b).precision() == 200);
  CHECK(intersect(a, hull(a, b))->precision() == 200);
  const MpfrInterval third = a / b;
  CHECK(contains(third, mpq_class(1, 3)));
  CHECK(mpfr_less_p(third.lower_mpfr(), third.upper_mpfr()));
  // Outward doubles: RD(1/3) and RU(1/3).
  CHECK(third.lower() < third.upper());
  CHECK(third.upper() == std::nextafter(third.lower(), inf));
  const MpfrInterval low = MpfrInterval::point(0.1, 8);  // 0.1 is not an 8-bit number
  CHECK(contains(low, 0.1));
  CHECK_FALSE(is_point(low));
}

TEST_CASE("MpfrInterval: MPFR exponent range and flags are the caller's before and after", "[domains][mpfr]") {
  const mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
  mpfr_set_emin(-100);  // a narrowed range, as format emulation sets
  mpfr_set_emax(100);
  mpfr_clear_flags();
  const MpfrInterval big = MpfrInterval::point(1e300, 53);
  const MpfrInterval sq = big * big;  // 1e600: outside the caller's range, inside MPFR's
  const MpfrInterval third = MpfrInterval::point(1.0, 53) / MpfrInterval::point(3.0, 53);
  const bool flags_clean = mpfr_flags_test(MPFR_FLAGS_ALL) == 0;
  const mpfr_exp_t emin_after = mpfr_get_emin(), emax_after = mpfr_get_emax();
  mpfr_set_emin(emin);
  mpfr_set_emax(emax);
  CHECK(flags_clean);
  CHECK(emin_after == -100);
  CHECK(emax_after == 100);
  CHECK(contains(sq, mpq_class(1e300) * mpq_class(1e300)));
  CHECK(sq.upper() == inf);
  CHECK(sq.lower() == std::numeric_limits<double>::max());
  CHECK(contains(third, mpq_class(1, 3)));
}

TEST_CASE("MpfrInterval: contract corner cases", "[domains][mpfr]") {
  const MpfrInterval p = MpfrInterval::point(inf, 53);
  CHECK(same(MpfrInterval::between(-1.0, 0.0, 53) * p, -inf, 0.0));  // 0 * inf = 0
  CHECK(same(MpfrInterval::point(0.0, 53) * MpfrInterval::whole(53), 0.0, 0.0));
  CHECK(same(p - p, -inf, inf));
  CHECK(same(p / p, -inf, inf));
  CHECK(same(MpfrInterval::point(1.0, 53) / MpfrInterval::between(0.0, 1.0, 53), -inf, inf));
  CHECK(same(MpfrInterval::point(0.0, 53) / MpfrInterval::point(0.0, 53), -inf, inf));
  const MpfrInterval r = sqrt(MpfrInterval::between(-4.0, -1.0, 77));
  CHECK(same(r, 0.0, 0.0));
  CHECK(r.precision() == 77);
  CHECK(same(sqrt(MpfrInterval::between(-1.0, 4.0, 53)), 0.0, 2.0));
  CHECK(same(abs(MpfrInterval::between(-3.0, 2.0, 53)), 0.0, 3.0));
  CHECK(same(-MpfrInterval::between(-inf, 2.0, 53), -2.0, inf));
  CHECK_FALSE(intersect(MpfrInterval::between(1.0, 2.0, 53), MpfrInterval::between(3.0, 4.0, 53)));
  CHECK_THROWS_AS(MpfrInterval::point(std::nan("")), std::invalid_argument);
  CHECK_THROWS_AS(MpfrInterval::between(2.0, 1.0), std::invalid_argument);
  CHECK(width(MpfrInterval::between(1.0, 3.0, 53)) == 2.0);
  CHECK(width(p) == inf);
  CHECK(mag(MpfrInterval::between(-5.0, 2.0, 53)) == 5.0);
  CHECK(mig(MpfrInterval::between(-5.0, -2.0, 53)) == 2.0);
  const MpfrInterval x = MpfrInterval::from_rational(mpq_class(1, 3), 300);
  CHECK(mag(x) == std::nextafter(1.0 / 3.0, inf));  // mag rounded up
  CHECK(mig(x) == 1.0 / 3.0);                      // mig rounded down
  CHECK(cmp_le(MpfrInterval::between(1.0, 2.0), MpfrInterval::between(2.0, 3.0)) == Tri::True);
  CHECK(cmp_eq(MpfrInterval::point(2.0, 24), MpfrInterval::point(2.0, 300)) == Tri::True);
  CHECK(to_string(MpfrInterval::point(1.0) / MpfrInterval::point(3.0)) ==
        "[0.33333333333333333, 0.33333333333333334]");
}
