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

#include <symerr/domains/mpfr_support.hpp>

#include "interval_algorithms.hpp"
#include "interval_rounding.hpp"

namespace bil = boost::numeric::interval_lib;

namespace symerr {
namespace {

using detail::IntervalAccess;
// Boost's C99 rounding control (fegetround/fesetround), renamed locally; its
// force_rounding is a volatile store and reload.
struct LocalControl : bil::rounding_control<double> {};

// rounded_arith_opp: init() sets FE_UPWARD for the whole operation.
struct LocalArith : UpwardOppArith<LocalControl> {
  void init() { upward(); }
};

using LocalRounding = bil::save_state<LocalArith>;
using LocalInterval = boost::numeric::interval<double, bil::policies<LocalRounding, IntervalChecking>>;

using Algorithms = IntervalAlgorithms<Interval, LocalInterval, &IntervalAccess::make>;

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

// The algorithms are interval_algorithms.hpp's, shared with the one-scope path.
Interval operator+(const Interval& a, const Interval& b) { return Algorithms::add(a, b); }
Interval operator-(const Interval& a, const Interval& b) { return Algorithms::sub(a, b); }
Interval operator*(const Interval& a, const Interval& b) { return Algorithms::mul(a, b); }
Interval operator/(const Interval& a, const Interval& b) { return Algorithms::div(a, b); }
Interval operator-(const Interval& a) { return Algorithms::neg(a); }
Interval abs(const Interval& a) { return Algorithms::abs(a); }
Interval sqrt(const Interval& a) { return Algorithms::sqrt(a); }
Interval hull(const Interval& a, const Interval& b) { return Algorithms::hull(a, b); }
std::optional<Interval> intersect(const Interval& a, const Interval& b) { return Algorithms::intersect(a, b); }
double width(const Interval& a) { return Algorithms::width(a); }
bool contains(const Interval& a, const mpq_class& q) { return Algorithms::contains(a, q); }

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
