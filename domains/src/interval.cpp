// Interval arithmetic: Boost.Interval's algorithms under a rounding policy
// local to this translation unit (compiled with -frounding-math).
//
// Why local: Boost's operators and rounding members are inline templates. If
// they were instantiated here with the public BoostIntervalPolicies, a user
// translation unit compiled without -frounding-math could instantiate the same
// functions, and the linker keeps one copy of each (the ODR merge), possibly
// the user's. Instantiated with a type of internal linkage, they are this
// file's own and cannot be replaced.
#include <symerr/domains/interval.hpp>

#include <cfenv>
#include <ostream>
#include <stdexcept>

#include <boost/numeric/interval/arith.hpp>
#include <boost/numeric/interval/utility.hpp>

#include <symerr/domains/mpfr_support.hpp>

#include "interval_rounding.hpp"

namespace bn = boost::numeric;
namespace bil = boost::numeric::interval_lib;

namespace symerr {
namespace {

using detail::IntervalAccess;
constexpr double inf = std::numeric_limits<double>::infinity();

// Boost's C99 rounding control (fegetround/fesetround), renamed locally; its
// force_rounding is a volatile store and reload.
struct LocalControl : bil::rounding_control<double> {};

// rounded_arith_opp: init() sets FE_UPWARD for the whole operation.
struct LocalArith : UpwardOppArith<LocalControl> {
  void init() { upward(); }
};

using LocalRounding = bil::save_state<LocalArith>;
using LocalInterval = bn::interval<double, bil::policies<LocalRounding, IntervalChecking>>;

LocalInterval local(const Interval& a) noexcept { return LocalInterval(a.lower(), a.upper(), true); }

// NaN endpoints of + - / come from inf - inf or inf / inf, i.e. from a
// degenerate operand [+inf, +inf] or [-inf, -inf]: widen outward.
Interval outward(const LocalInterval& r) noexcept {
  const double lo = std::isnan(r.lower()) ? -inf : r.lower();
  const double hi = std::isnan(r.upper()) ? inf : r.upper();
  return IntervalAccess::make(lo, hi);
}

// Sign of d - q for a double d (possibly infinite, not NaN) and a rational q.
int compare(double d, const mpq_class& q) {
  if (std::isinf(d)) return d > 0 ? 1 : -1;
  return cmp(mpq_class(d), q);
}

}  // namespace

namespace detail {
void throw_bad_interval(double lo, double hi, const char* who) {
  if (std::isnan(lo) || std::isnan(hi))
    throw std::invalid_argument(std::string(who) + ": NaN endpoint (special states are flags, not NaN)");
  throw std::invalid_argument(std::string(who) + ": lower endpoint above upper endpoint");
}
}  // namespace detail

Interval Interval::from_rational(const mpq_class& q) {
  return Interval(detail::to_double_down(q), detail::to_double_up(q));
}

Interval Interval::from_boost(const BoostInterval& iv) {
  return between(iv.lower(), iv.upper());
}

Interval operator+(const Interval& a, const Interval& b) { return outward(local(a) + local(b)); }
Interval operator-(const Interval& a, const Interval& b) { return outward(local(a) - local(b)); }

Interval operator*(const Interval& a, const Interval& b) {
  // Boost's sign-case table multiplies endpoints only; a NaN endpoint is an
  // endpoint product 0 * inf (operand [+inf, +inf] or [-inf, -inf] against
  // an endpoint 0), which the interval convention takes as 0.
  const LocalInterval r = local(a) * local(b);
  return IntervalAccess::make(std::isnan(r.lower()) ? 0.0 : r.lower(),
                              std::isnan(r.upper()) ? 0.0 : r.upper());
}

Interval operator/(const Interval& a, const Interval& b) {
  if (contains(b, 0.0)) return Interval::whole();
  return outward(bil::detail::div_non_zero(local(a), local(b)));
}

Interval operator-(const Interval& a) { return IntervalAccess::make(-a.upper(), -a.lower()); }

Interval abs(const Interval& a) {
  if (a.lower() >= 0) return a;
  if (a.upper() <= 0) return -a;
  return IntervalAccess::make(0.0, std::fmax(-a.lower(), a.upper()));
}

Interval sqrt(const Interval& a) {
  if (a.upper() <= 0) return IntervalAccess::make(0.0, 0.0);
  LocalRounding rnd;
  const double lo = a.lower() > 0 ? rnd.sqrt_down(a.lower()) : 0.0;
  return IntervalAccess::make(lo, rnd.sqrt_up(a.upper()));
}

Interval hull(const Interval& a, const Interval& b) {
  return IntervalAccess::make(std::fmin(a.lower(), b.lower()), std::fmax(a.upper(), b.upper()));
}

std::optional<Interval> intersect(const Interval& a, const Interval& b) {
  const double lo = std::fmax(a.lower(), b.lower());
  const double hi = std::fmin(a.upper(), b.upper());
  if (lo > hi) return std::nullopt;
  return IntervalAccess::make(lo, hi);
}

double width(const Interval& a) {
  const double w = bn::width(local(a));
  return std::isnan(w) ? inf : w;  // [+inf, +inf]: unbounded
}

bool contains(const Interval& a, const mpq_class& q) {
  return compare(a.lower(), q) <= 0 && compare(a.upper(), q) >= 0;
}

std::string to_string(const Interval& a) { return detail::format_interval(a.lower(), a.upper()); }

std::ostream& operator<<(std::ostream& os, const Interval& a) { return os << to_string(a); }

bool directed_rounding_works() {
  const int caller_mode = std::fegetround();
  bool ok = true;
  {
    LocalRounding rnd;
    const double one = opaque(1.0), three = opaque(3.0), two = opaque(2.0);
    const double tiny = opaque(0x1p-60), near_one = opaque(1.0 + 0x1p-52);
    ok = ok && rnd.div_down(one, three) < rnd.div_up(one, three);
    ok = ok && rnd.add_down(one, tiny) == 1.0 && rnd.add_up(one, tiny) == 1.0 + 0x1p-52;
    ok = ok && rnd.sub_down(one, tiny) == 1.0 - 0x1p-53 && rnd.sub_up(one, tiny) == 1.0;
    ok = ok && rnd.mul_down(near_one, near_one) == 1.0 + 0x1p-51;
    ok = ok && rnd.mul_up(near_one, near_one) == 1.0 + 0x1p-51 + 0x1p-52;
    ok = ok && rnd.sqrt_down(two) < rnd.sqrt_up(two);
  }
  const Interval third = Interval::point(1.0) / Interval::point(3.0);
  ok = ok && third.lower() < third.upper();
  return ok && std::fegetround() == caller_mode;
}

}  // namespace symerr
