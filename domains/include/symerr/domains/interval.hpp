// Interval: closed intervals of doubles, a RealDomain wrapping
// boost::numeric::interval<double, BoostIntervalPolicies>.
//
// Invariant: lower() <= upper(), neither is NaN; ±inf endpoints allowed
// ([+inf, +inf] and [-inf, -inf] are accepted and treated as limits).
// Every operation is defined out of line in domains/src/interval.cpp, compiled
// with -frounding-math, so that a caller compiled without it cannot break the
// directed rounding; the inline functions below only compare, never round.
#pragma once

#include <cmath>
#include <iosfwd>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>

#include <boost/numeric/interval/checking.hpp>
#include <boost/numeric/interval/hw_rounding.hpp>
#include <boost/numeric/interval/interval.hpp>
#include <boost/numeric/interval/policies.hpp>
#include <boost/numeric/interval/rounded_arith.hpp>
#include <gmpxx.h>

#include <symerr/config.hpp>
#include <symerr/domain/concept.hpp>
#include <symerr/domains/endpoint_queries.hpp>
#include <symerr/symbolic/fast_arithmetic.hpp>
#include <symerr/tribool.hpp>

namespace symerr {

/// Checking policy for Boost.Interval that never throws. Boost's default
/// checking_strict throws std::runtime_error when an operation would create an
/// empty interval (e.g. Boost's sqrt of [-2, -1], division by [0, 0]); an error
/// analysis must answer those cases, not abort. Here an empty result is the
/// pair of NaN endpoints and nothing throws. Interval never stores such a pair:
/// it answers those cases itself, before calling Boost.
struct IntervalChecking {
  ///@{
  /// Boost.Interval's checking interface: infinities, NaN, and the empty interval as a pair of NaN endpoints; nothing throws.
  static double pos_inf() noexcept { return std::numeric_limits<double>::infinity(); }
  static double neg_inf() noexcept { return -std::numeric_limits<double>::infinity(); }
  static double nan() noexcept { return std::numeric_limits<double>::quiet_NaN(); }
  static bool is_nan(double x) noexcept { return std::isnan(x); }
  static double empty_lower() noexcept { return nan(); }
  static double empty_upper() noexcept { return nan(); }
  static bool is_empty(double l, double u) noexcept { return !(l <= u); }
  ///@}
};

/// Rounding policy of the exposed Boost type: Boost's own choice for double.
/// save_state reads the caller's rounding mode on entry, init() then sets
/// FE_UPWARD unconditionally and the destructor restores the caller's mode, so
/// the result does not depend on the caller's mode and the mode is unchanged
/// after each operation. rounded_arith_opp rounds down as -((-x) op y) rounded
/// up: one mode switch per operation instead of two (rounded_arith_std).
/// rounded_transc_std is not used: it calls std::exp etc. in directed modes,
/// and glibc does not promise directed-rounding bounds for them.
/// Interval's own operations use a translation-unit-local copy of this policy
/// (see interval.cpp); code doing arithmetic on boost() directly must itself be
/// compiled with -frounding-math.
using IntervalRounding =
    boost::numeric::interval_lib::save_state<boost::numeric::interval_lib::rounded_arith_opp<double>>;
/// Boost.Interval policies of BoostInterval: IntervalRounding and IntervalChecking.
using BoostIntervalPolicies =
    boost::numeric::interval_lib::policies<IntervalRounding, IntervalChecking>;
/// The Boost.Interval type that Interval converts to and from (boost(), from_boost()).
using BoostInterval = boost::numeric::interval<double, BoostIntervalPolicies>;

namespace detail {
struct IntervalAccess;
// Throws std::invalid_argument naming `who` and the fault (NaN endpoint, or
// lower above upper).
[[noreturn, gnu::cold]] void throw_bad_interval(double lo, double hi, const char* who);
}  // namespace detail

/// Interval is trivially copyable and trivially destructible (two doubles; the
/// Boost type, whose assignment operators are user-provided, is built on demand
/// by boost()), so that SymbolicDomainError<Interval> is an implicit-lifetime
/// type usable in malloc'd buffers and memcpy.
class Interval {
 public:
  Interval() noexcept = default;

  /// {v}. Throws std::invalid_argument if v is NaN.
  static Interval point(double v) {
    if (std::isnan(v)) [[unlikely]] detail::throw_bad_interval(v, v, "Interval::point");
    return Interval(v, v);
  }
  /// [lo, hi]. Throws std::invalid_argument if lo or hi is NaN or lo > hi.
  static Interval between(double lo, double hi) {
    if (!(lo <= hi)) [[unlikely]] detail::throw_bad_interval(lo, hi, "Interval::between");
    return Interval(lo, hi);
  }
  /// The tightest double interval around q: [RD(q), RU(q)].
  static Interval from_rational(const mpq_class& q);
  /// The real line, [−inf, +inf].
  static Interval whole() noexcept {
    return Interval(-std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity());
  }
  /// Same preconditions as between(): Boost's empty (NaN) intervals are refused.
  static Interval from_boost(const BoostInterval& iv);

  ///@{
  /// The endpoints: lower() <= every enclosed value <= upper() (may be ±inf).
  double lower() const noexcept { return lo_; }
  double upper() const noexcept { return hi_; }
  ///@}
  /// The interval as a Boost.Interval (for code doing its own Boost arithmetic, compiled with -frounding-math).
  BoostInterval boost() const noexcept { return BoostInterval(lo_, hi_, true); }

 private:
  friend struct detail::IntervalAccess;
  Interval(double lo, double hi) noexcept : lo_(lo), hi_(hi) {}
  double lo_ = 0.0;
  double hi_ = 0.0;
};

static_assert(std::is_trivially_copyable_v<Interval> && std::is_trivially_destructible_v<Interval>);
static_assert(sizeof(Interval) == 2 * sizeof(double));

///@{
/// Interval arithmetic rounded outward, as the RealDomain contract states
/// (<symerr/domain/concept.hpp>): endpoint products 0 · inf are 0; a / b is
/// whole() when 0 ∈ b; sqrt(a) = {√x : x ∈ a, x >= 0}, [0, 0] if a <= 0.
Interval operator+(const Interval& a, const Interval& b);
Interval operator-(const Interval& a, const Interval& b);
Interval operator*(const Interval& a, const Interval& b);  // endpoint 0 * inf = 0
Interval operator/(const Interval& a, const Interval& b);  // whole() if 0 in b
Interval operator-(const Interval& a);
Interval abs(const Interval& a);
Interval sqrt(const Interval& a);  // {sqrt(x) : x in a, x >= 0}; [0, 0] if a <= 0
///@}
/// The smallest interval holding a ∪ b.
Interval hull(const Interval& a, const Interval& b);
/// a ∩ b, or std::nullopt when disjoint.
std::optional<Interval> intersect(const Interval& a, const Interval& b);

/// upper − lower rounded up; +inf if unbounded.
double width(const Interval& a);  // upper - lower rounded up; +inf if unbounded
/// Whether the rational q lies in a (exact).
bool contains(const Interval& a, const mpq_class& q);

// contains(a, v), subset, is_bounded, is_point, mag, mig, cmp_lt/le/gt/ge/eq/ne:
// the endpoint queries shared with the one-scope path (endpoint_queries.hpp).
///@{
/// The endpoint queries of the domain concept for Interval: contains(a, v), subset,
/// is_bounded, is_point, mag, mig, cmp_lt/le/gt/ge/eq/ne (<symerr/domains/endpoint_queries.hpp>).
SYMERR_ENDPOINT_QUERIES(Interval)
///@}

/// "[lo, hi]", 17 significant digits, lo rounded down and hi rounded up.
std::string to_string(const Interval& a);
/// Prints to_string(a).
std::ostream& operator<<(std::ostream& os, const Interval& a);

/// Run-time self-test (docs/design.md §6 rule 4): true iff the directed roundings used
/// by Interval really round down and up (1/3, 1 + 2^-60, sqrt 2, a product),
/// and the caller's rounding mode is unchanged afterwards.
bool directed_rounding_works();

static_assert(RealDomain<Interval>);

/// arithmetic() over Interval with the whole operation in one upward-rounding
/// scope instead of a mode save/set/restore per interval operation; defined in
/// domains/src/interval_batch.cpp (compiled with -frounding-math). Results are
/// those of the generic path (tests/core/test_symbolic_one_scope.cpp).
template <>
struct FastArithmetic<Interval> {
  /// Interval has a fast path.
  static constexpr bool enabled = true;
  /// arithmetic(op, x, y, int_division) with the whole operation in one upward-rounding scope; the results are those of the generic path.
  static SymbolicDomainError<Interval> apply(ArithOp op, const SymbolicDomainError<Interval>& x,
                                             const SymbolicDomainError<Interval>& y,
                                             std::optional<IntegerDivision> int_division);
};

}  // namespace symerr
