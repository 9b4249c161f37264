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
#include "interval_batch.hpp"
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

  // One-sided operations (the mixed error bound, mixed_error.hpp): the bound
  // of the operation on points that it needs, in one rounding.
  static double add_up(double a, double b) noexcept { return ScopeArith().add_up(a, b); }
  static double mul_up(double a, double b) noexcept { return ScopeArith().mul_up(a, b); }
  static double div_up(double a, double b) noexcept { return ScopeArith().div_up(a, b); }
  static double sub_down(double a, double b) noexcept { return ScopeArith().sub_down(a, b); }

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

// An operand of arithmetic(), every field carried over (rel_err feeds the
// relative identities).
SymbolicDomainError<ScopedInterval> operand(const SymbolicDomainError<Interval>& x) {
  return map_enclosures<ScopedInterval>(x, [](const Interval& a) { return scoped(a); });
}

SymbolicDomainError<Interval> result(const SymbolicDomainError<ScopedInterval>& z) {
  return map_enclosures<Interval>(z, [](const ScopedInterval& a) { return unscoped(a); });
}

// ---- the hot path ---------------------------------------------------------
// Add, Sub and Mul of two values of one IEEE float format (infinities and
// subnormals) in round-to-nearest-even, each of whose computed values is
// certainly finite and real value certainly defined, not both points, and
// whose exact result t = fp_x ∘ fp_y stays within ±max finite: the case of
// nearly every operation of a numerical kernel. It runs the generic path's
// steps (arith.hpp: set_format_and_real, arithmetic_same_format,
// round_float_result, set_error_split; construct.hpp: reduce) with the same
// building blocks (round_enclosure, the rule's rounding_is_exact, error and
// nearest_rounding, introduced_float, snap_to_format) on the same intervals, so
// its result is the generic path's bit for bit
// (tests/core/test_symbolic_one_scope.cpp); what it drops is the work those
// preconditions make constant — the special-value table (no special operand),
// the format variant and the integer cases, the overflow and infinity cases —
// and the copies of whole values between the Interval and the scope's
// domain: each enclosure is converted where it is read, and the result is
// written once. Any other case returns false and takes the generic path.
bool finite_float_operand(const SymbolicDomainError<Interval>& x) noexcept {
  const SpecialStates& s = x.specials;
  return s.may_be_finite && s.may_be_defined && !s.may_be_undefined && !s.may_be_nan && !s.may_be_pos_inf &&
         !s.may_be_neg_inf && x.mode == RoundingMode::NearestEven;
}

// IEEE 754 §6.3 signs of a zero result in round-to-nearest with subnormals
// (the rules' zero_signs for that case): Add and Sub give −0 only from two
// zeros of the right signs (a cancellation gives +0), Mul the xor of the signs.
template <class Rule>
void nearest_zero_signs(CategorySet cx, CategorySet cy, SpecialStates& s) noexcept {
  if constexpr (std::is_same_v<Rule, detail::MulRule>) {
    const bool xn = cx & kNegative, xp = cx & kPositive, yn = cy & kNegative, yp = cy & kPositive;
    s.may_be_pos_zero = (xp && yp) || (xn && yn);
    s.may_be_neg_zero = (xp && yn) || (xn && yp);
  } else {
    // x − y adds the zeros of −y (sub.hpp)
    const CategorySet y_zeros = std::is_same_v<Rule, detail::AddRule>
                                    ? (cy & kAnyZero)
                                    : (((cy & kPosZero) ? kNegZero : 0) | ((cy & kNegZero) ? kPosZero : 0));
    const bool cancel = (cx & kNonZeroFinite) && (cy & kNonZeroFinite);
    const bool mixed = ((cx & kPosZero) && (y_zeros & kNegZero)) || ((cx & kNegZero) && (y_zeros & kPosZero));
    s.may_be_pos_zero = cancel || mixed || ((cx & kPosZero) && (y_zeros & kPosZero));
    s.may_be_neg_zero = (cx & kNegZero) && (y_zeros & kNegZero);
  }
}

// The scoped ranges of one operation's operands and result (hot_path).
struct Operands {
  SI xr, yr, real, fx, fy, t, rounding;
};

// set_error_split: err, propagated and introduced of x ∘ y by the rule's
// error identity (on the propagated parts when an operand has introduced error).
template <class Rule>
[[gnu::always_inline]] inline void error_split(const SymbolicDomainError<Interval>& x,
                                               const SymbolicDomainError<Interval>& y, const Operands& o, SI& err,
                                               SI& propagated, SI& introduced) {
  using detail::meet;
  const SI xe = scoped(x.err), ye = scoped(y.err);
  const SI total = Rule::error(detail::ErrorTerms<SI>{o.xr, o.yr, o.real, xe, ye, o.fx, o.fy}, o.t - o.real);
  const SI xi = scoped(x.introduced), yi = scoped(y.introduced);
  if (detail::is_zero_point(xi) && detail::is_zero_point(yi)) {
    propagated = total;
    introduced = o.rounding;
    err = total + o.rounding;
    return;
  }
  const SI xp = scoped(x.propagated), yp = scoped(y.propagated);
  const SI prx = meet(o.xr + xp, o.fx - xi), pry = meet(o.yr + yp, o.fy - yi);  // actual_real
  const SI pr_z = Rule::value(prx, pry);
  propagated = Rule::error(detail::ErrorTerms<SI>{o.xr, o.yr, o.real, xp, yp, prx, pry}, pr_z - o.real);
  introduced = Rule::error(detail::ErrorTerms<SI>{prx, pry, pr_z, xi, yi, o.fx, o.fy}, o.t - pr_z) + o.rounding;
  err = meet(total + o.rounding, propagated + introduced);
}

// out.format = F, field by field: GCC copies the 40-byte struct with
// `rep movs`, ~10% of an Add.
[[gnu::always_inline]] inline void copy_format(const FloatFormat& F, SymbolicDomainError<Interval>& out) {
  static_assert(sizeof(FloatFormat) == 40, "FloatFormat changed: copy its new field here");
  FloatFormat& g = out.format.emplace<FloatFormat>();
  g.name = F.name;
  g.precision = F.precision;
  g.emin = F.emin;
  g.emax = F.emax;
  g.subnormals = F.subnormals;
  g.overflow = F.overflow;
  g.reserved_top = F.reserved_top;
}

template <class Rule>
bool hot_path(const SymbolicDomainError<Interval>& x, const SymbolicDomainError<Interval>& y, const FloatFormat& F,
              SymbolicDomainError<Interval>& out) {
  using detail::meet;
  const SI fx = scoped(x.fp), fy = scoped(y.fp);
  if (is_point(fx) && is_point(fy)) return false;  // computed exactly in GMP by the generic path
  const SI t = Rule::value(fx, fy);
  const double max = detail::max_finite(F);
  if (!(t.lower() >= -max && t.upper() <= max)) return false;  // overflow possible
  const SI xr = scoped(x.real), yr = scoped(y.real);
  const SI real = Rule::value(xr, yr);

  // round_float_result: round_enclosure without overflow, then the rounding.
  SI fp = SI::between(detail::round_value(t.lower(), F, RoundingMode::NearestEven),
                      detail::round_value(t.upper(), F, RoundingMode::NearestEven));
  SI rounding = SI::point(0);
  if (Rule::rounding_is_exact(fx, fy, t, F)) {
    fp = meet(fp, t);
  } else {
    rounding = Rule::nearest_rounding(detail::introduced_float(t, fp, F, RoundingMode::NearestEven), fx, fy);
  }

  SI err, propagated, introduced;
  error_split<Rule>(x, y, Operands{xr, yr, real, fx, fy, t, rounding}, err, propagated, introduced);

  // rel_err by the rule's relative identity (arithmetic_same_format)
  SI rel = SI::whole();
  if (is_bounded(err)) {
    const SI rel_t = Rule::relative_of_operands(xr, fx, scoped(x.rel_err), yr, fy, scoped(y.rel_err));
    if (is_bounded(rel_t))
      rel = detail::compose_relative(rel_t, detail::relative_rounding(t, rounding, &F, RoundingMode::NearestEven));
  }

  SpecialStates s{};
  s.may_be_pos_zero = false;
  if (contains(fp, 0.0)) nearest_zero_signs<Rule>(x.categories(), y.categories(), s);

  // reduce(): finite, defined, no special value
  const bool rule_mixed = is_bounded(err);  // arithmetic_same_format's condition (the others hold here)
  SI r = real;
  err = meet(err, fp - r);
  fp = meet(fp, r + err);
  r = meet(r, fp - err);
  fp = detail::snap_to_format(fp, F);
  // the mixed relative/absolute pair (arithmetic_same_format, reduce(true))
  const MixedError rule = rule_mixed ? detail::mixed_of_operation<Rule::op>(xr, fx, x.mixed, yr, fy,
                                                                                scoped(y.rel_err), y.mixed,
                                                                                detail::mixed_rounding(&F, RoundingMode::NearestEven))
                                          : MixedError{};
  SI rel_err = SI::whole();
  const bool real_nonzero = certainly(cmp_ne(r, SI::point(0)));
  if (real_nonzero) {
    bool rel_unbounded = rel.lower() == -inf && rel.upper() == inf;
    if (const double rb = detail::mixed_relative_bound<SI>(rule, mig(r)); rb < mag(rel)) {
      rel = meet(rel, SI::between(-rb, rb));
      rel_unbounded = false;
    }
    rel_err = meet(rel, err / r);
    if (!rel_unbounded) err = meet(err, rel_err * r);
  } else if (const double eb = detail::mixed_error_bound<SI>(rule, mag(r)); eb < mag(err)) {
    err = meet(err, SI::between(-eb, eb));
  }
  out.mixed = detail::settle_mixed(rule, err.lower() == 0 && err.upper() == 0,
                                   real_nonzero && is_bounded(rel_err) ? mag(rel_err) : inf,
                                   is_bounded(err) ? mag(err) : inf);

  out.real = unscoped(r);
  out.fp = unscoped(fp);
  out.err = unscoped(err);
  out.rel_err = unscoped(rel_err);
  out.propagated = unscoped(propagated);
  out.introduced = unscoped(introduced);
  copy_format(F, out);
  out.mode = RoundingMode::NearestEven;
  out.int_division = x.int_division ? x.int_division : y.int_division;
  out.specials = s;
  out.origin = detail::merge_origin(x.origin, y.origin);
  out.source = -1;
  return true;
}

}  // namespace

SymbolicDomainError<Interval> FastArithmetic<Interval>::apply(ArithOp op, const SymbolicDomainError<Interval>& x,
                                                             const SymbolicDomainError<Interval>& y,
                                                             std::optional<IntegerDivision> int_division) {
  SymbolicDomainError<Interval> z;  // the one returned object (no copy of the result)
  if (op != ArithOp::Div && finite_float_operand(x) && finite_float_operand(y)) {
    const auto* F = std::get_if<FloatFormat>(&x.format);
    const auto* G = std::get_if<FloatFormat>(&y.format);
    if (F && G && *F == *G && F->has_infinities() && F->subnormals) {
      UpwardScope scope;
      const bool done = op == ArithOp::Add   ? hot_path<detail::AddRule>(x, y, *F, z)
                        : op == ArithOp::Sub ? hot_path<detail::SubRule>(x, y, *F, z)
                                             : hot_path<detail::MulRule>(x, y, *F, z);
      if (done) return z;
    }
  }
  const SymbolicDomainError<ScopedInterval> sx = operand(x);
  const SymbolicDomainError<ScopedInterval> sy = operand(y);
  const SymbolicDomainError<ScopedInterval> sz = [&] {
    UpwardScope scope;
    return arithmetic(op, sx, sy, int_division);
  }();
  z = result(sz);
  return z;
}

Interval detail::scoped_round_float_result(ArithOp op, const Interval& x_fp, const Interval& y_fp, Interval& t,
                                           const FloatFormat& F, SymbolicDomainError<Interval>& z) {
  SymbolicDomainError<ScopedInterval> sx, sy, sz;
  sx.fp = scoped(x_fp);
  sy.fp = scoped(y_fp);
  sz.mode = z.mode;
  sz.specials = z.specials;
  ScopedInterval st = scoped(t);
  const ScopedInterval bound = [&] {
    UpwardScope scope;
    return detail::with_rule(op, [&](auto rule) { return round_float_result<decltype(rule)>(sx, sy, st, F, sz); });
  }();
  t = unscoped(st);
  z.fp = unscoped(sz.fp);
  z.specials = sz.specials;
  return unscoped(bound);
}

}  // namespace symerr
