// One SymbolicDomainError<Interval> arithmetic operation in a single upward
// rounding scope (compiled with -frounding-math, like interval.cpp).
//
// Interval's operations each save the caller's rounding mode, set FE_UPWARD and
// restore the mode: three mode calls per interval operation, about a dozen
// operations per SymbolicDomainError operation. Here the generic arithmetic()
// template is instantiated over ScopedInterval, a domain local to this
// translation unit whose operations are Interval's algorithms — the same
// text, interval_algorithms.hpp and endpoint_queries.hpp, instantiated with a
// rounding policy (interval_rounding.hpp) that assumes FE_UPWARD is already set.
// FastArithmetic<Interval>::apply() sets it once, runs the operation, and restores the
// caller's mode (also on exceptions).
//
// Results equal the per-operation Interval path's (the same algorithms):
// tests/core/test_symbolic_one_scope.cpp compares the two under every
// caller mode. The template code between the
// interval operations also runs in upward mode; all of its own floating-point
// operations on doubles are exact (comparisons, negations, fabs/fmin/fmax,
// floor/trunc, frexp/ldexp, scaling by powers of two, round_to's integer
// arithmetic, GMP, MPFR with explicit rounding), so their results do not depend
// on the mode (also the integer helpers: ceil/floor, v − floor(v) below 2^52,
// exact conversions to __int128 and mpz). The one inexact candidate,
// introduced_float's (u / 2) * 2 == u test at FP64's smallest subnormal,
// takes the same branch in both modes. round_to() holds its own
// FpEnvironmentGuard (round to nearest) and restores the scope's mode.
#include <cfenv>
#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>


#include <boost/numeric/interval/arith.hpp>
#include <boost/numeric/interval/utility.hpp>

#include <symerr/symbolic/map_enclosures.hpp>
#include <symerr/domains/interval.hpp>
#include <symerr/domains/mpfr_support.hpp>
#include <symerr/fp_environment.hpp>
#include <symerr/symbolic.hpp>

#include "interval_algorithms.hpp"
#include "interval_rounding.hpp"

namespace bn = boost::numeric;
namespace bil = boost::numeric::interval_lib;

namespace symerr {
namespace {

constexpr double inf = std::numeric_limits<double>::infinity();

// The mode is FE_UPWARD for the whole scope. A result passes the value
// barrier (a volatile asm, in a register) instead of Boost's volatile store
// and reload: the operation cannot be moved past it, and GCC does not move a
// volatile asm across the scope's closing mode change (itself volatile).
//
// On x86-64, where double arithmetic is SSE2 and nothing in the scope uses the
// x87 unit (no long double; libm's floor/trunc/frexp/ldexp/nextafter and GMP's
// conversions work on SSE registers or integers), only MXCSR's rounding-control
// field is switched, here and by UpwardScope below: fesetround also reloads the
// x87 control word, which costs more than the arithmetic it brackets.
struct ScopeControl : bil::rounding_control<double> {
  static double force_rounding(double r) noexcept { return opaque(r); }
#if defined(__x86_64__) && defined(__SSE2_MATH__)
  // sqrt_down's switch to FE_DOWNWARD and back (the only other mode changes).
  static void upward() noexcept { detail::set_mxcsr_rounding(detail::kMxcsrRoundUp); }
  static void downward() noexcept { detail::set_mxcsr_rounding(detail::kMxcsrRoundDown); }
#endif
};
using ScopeArith = UpwardOppArith<ScopeControl>;

// ScopedInterval's invariant (no NaN endpoint, lower <= upper) holds for every
// operand, so Boost's emptiness tests on operands are constant false here.
struct ScopeChecking : IntervalChecking {
  static constexpr bool is_empty(double, double) noexcept { return false; }
};

using ScopeBoost = bn::interval<double, bil::policies<ScopeArith, ScopeChecking>>;

[[gnu::noinline, gnu::cold]] void require_no_nan(double lo, double hi, const char* who) {
  if (std::isnan(lo) || std::isnan(hi))
    throw std::invalid_argument(std::string(who) + ": NaN endpoint (special states are flags, not NaN)");
  if (lo > hi) throw std::invalid_argument(std::string(who) + ": lower endpoint above upper endpoint");
}

// Interval's semantics (interval.hpp / interval.cpp), valid only while an
// UpwardScope is active.
class ScopedInterval {
 public:
  ScopedInterval() noexcept = default;
  static ScopedInterval point(double v) {
    if (std::isnan(v)) [[unlikely]] require_no_nan(v, v, "Interval::point");
    return {v, v};
  }
  static ScopedInterval between(double lo, double hi) {
    if (!(lo <= hi)) [[unlikely]] require_no_nan(lo, hi, "Interval::between");
    return {lo, hi};
  }
  static ScopedInterval from_rational(const mpq_class& q) {
    return {detail::to_double_down(q), detail::to_double_up(q)};
  }
  static ScopedInterval whole() noexcept { return {-inf, inf}; }
  static ScopedInterval make(double lo, double hi) noexcept { return {lo, hi}; }

  double lower() const noexcept { return lo_; }
  double upper() const noexcept { return hi_; }

 private:
  ScopedInterval(double lo, double hi) noexcept : lo_(lo), hi_(hi) {}
  double lo_ = 0.0, hi_ = 0.0;
};

using SI = ScopedInterval;
// Interval's algorithms (interval_algorithms.hpp) under the scope's policy.
using Algorithms = IntervalAlgorithms<SI, ScopeBoost, &SI::make>;

SI operator+(const SI& a, const SI& b) { return Algorithms::add(a, b); }
SI operator-(const SI& a, const SI& b) { return Algorithms::sub(a, b); }
[[gnu::always_inline]] inline SI operator*(const SI& a, const SI& b) { return Algorithms::mul(a, b); }
[[gnu::always_inline]] inline SI operator/(const SI& a, const SI& b) { return Algorithms::div(a, b); }
SI operator-(const SI& a) { return Algorithms::neg(a); }
[[maybe_unused]] SI abs(const SI& a) { return Algorithms::abs(a); }
[[maybe_unused]] SI sqrt(const SI& a) { return Algorithms::sqrt(a); }
SI hull(const SI& a, const SI& b) { return Algorithms::hull(a, b); }
std::optional<SI> intersect(const SI& a, const SI& b) { return Algorithms::intersect(a, b); }
[[maybe_unused]] double width(const SI& a) { return Algorithms::width(a); }
[[maybe_unused]] bool contains(const SI& a, const mpq_class& q) { return Algorithms::contains(a, q); }
SYMERR_ENDPOINT_QUERIES(ScopedInterval)

static_assert(RealDomain<ScopedInterval>);

}  // namespace
// The scope below sets the whole environment ScopedInterval needs (FE_UPWARD,
// no FTZ/DAZ, traps masked): the generic code holds no FpEnvironmentGuard of
// its own (which would reset the rounding to nearest).
template <>
inline constexpr bool detail::domain_owns_fp_environment<ScopedInterval> = true;
namespace {

// Sets FE_UPWARD for its lifetime and restores the caller's mode (on x86-64
// MXCSR only, see ScopeControl). The same write clears FTZ and DAZ and masks
// every exception (the library's environment, see <symerr/fp_environment.hpp>):
// the caller's control bits are restored at the end, flags raised meanwhile
// stay raised. Ordering: every rounding operation's operands and result pass
// a volatile asm, and GCC does not move volatile asm across the volatile
// ldmxcsr (nor across fesetround's call).
#if defined(__x86_64__) && defined(__SSE2_MATH__)
class UpwardScope {
 public:
  UpwardScope() noexcept = default;
  UpwardScope(const UpwardScope&) = delete;
  UpwardScope& operator=(const UpwardScope&) = delete;

 private:
  detail::MxcsrControlScope scope_{detail::kMxcsrLibrary | detail::kMxcsrRoundUp};
};
#else
class UpwardScope {
 public:
  UpwardScope() : saved_(std::fegetround()) { std::fesetround(FE_UPWARD); }
  ~UpwardScope() { std::fesetround(saved_); }
  UpwardScope(const UpwardScope&) = delete;
  UpwardScope& operator=(const UpwardScope&) = delete;

 private:
  int saved_;
};
#endif

// Interval's invariant (no NaN, lower <= upper) is ScopedInterval's, both ways.
ScopedInterval scoped(const Interval& a) noexcept { return ScopedInterval::make(a.lower(), a.upper()); }
Interval unscoped(const ScopedInterval& a) noexcept { return detail::IntervalAccess::make(a.lower(), a.upper()); }

// An operand of arithmetic(), every field carried over (rel_err is never
// read by arithmetic()).
SymbolicDomainError<ScopedInterval> operand(const SymbolicDomainError<Interval>& x) {
  return map_enclosures<ScopedInterval>(x, [](const Interval& a) { return scoped(a); });
}

SymbolicDomainError<Interval> result(const SymbolicDomainError<ScopedInterval>& z) {
  return map_enclosures<Interval>(z, [](const ScopedInterval& a) { return unscoped(a); });
}

}  // namespace

SymbolicDomainError<Interval> FastArithmetic<Interval>::apply(ArithOp op, const SymbolicDomainError<Interval>& x,
                                                             const SymbolicDomainError<Interval>& y,
                                                             std::optional<IntegerDivision> int_division) {
  const SymbolicDomainError<ScopedInterval> sx = operand(x);
  const SymbolicDomainError<ScopedInterval> sy = operand(y);
  const SymbolicDomainError<ScopedInterval> z = [&] {
    UpwardScope scope;
    return arithmetic(op, sx, sy, int_division);
  }();
  return result(z);
}

}  // namespace symerr
