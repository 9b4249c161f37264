// SymbolicDomainError<Affine> arithmetic: the fast path FastArithmetic<Affine>
// (see affine.hpp). For z = x ∘ y with both operands finite values of one
// float format F (and, for ÷, a divisor that is not 0):
//   1. the operation runs over the Interval domain on the operands' ranges:
//      every flag (special values, zero signs, definedness) and an interval
//      for every field, by the library's proven interval path;
//   2. the affine forms that carry correlations are built once each:
//        real_z = real_x ∘ real_y,  t = fp_x ∘ fp_y,
//        δ = round(t) − t named by function_of(t) (one symbol per (t, F, mode),
//            bounded by detail::round_float_result on the range of t),
//        E  = the exact identity of t − real_z on the operands' errors
//             (add e_x + e_y, sub e_x − e_y, mul real_x·e_y + e_x·fp_y,
//              div e_x/fp_y − (real_z/fp_y)·e_y),
//        err = E + δ,  fp = t + δ,
//        propagated = E and introduced = δ when both operands have
//        introduced = {0}; otherwise propagated by the same identity on the
//        propagated parts (pr = real + propagated) and introduced =
//        (i_x ± i_y) + δ for add/sub, err − propagated for mul/div
//        (exact: f − r = (pr − r) + (f − pr));
//   3. every form is clipped to the interval result of step 1 (clip(): same
//      terms, narrower interval), so no field is wider than the Interval
//      domain's on the same ranges.
// Each form is sound by its identity (the affine operations are sound), and
// each interval by the Interval path; their intersection is sound.
#include <symerr/symbolic/map_enclosures.hpp>
#include <symerr/domains/affine.hpp>
#include <symerr/domains/interval.hpp>
#include <symerr/symbolic.hpp>

#include <utility>

#include "affine_impl.hpp"

namespace symerr {
namespace {

using SA = SymbolicDomainError<Affine>;
using SI = SymbolicDomainError<Interval>;

Interval range(const Affine& a) { return Interval::between(a.lower(), a.upper()); }

// The Interval view of x: every field's range, the same metadata.
SI ranges_of(const SA& x) { return map_enclosures<Interval>(x, [](const Affine& a) { return range(a); }); }

// Only finite, defined values: the executions the forms describe.
bool plain(const SpecialStates& s) {
  return s.may_be_finite && !s.may_be_nan && !s.may_be_pos_inf && !s.may_be_neg_inf && s.may_be_defined &&
         !s.may_be_undefined;
}

bool in_scope(ArithOp op, const SA& x, const SA& y) {
  if (!std::holds_alternative<FloatFormat>(x.format) || x.format != y.format || x.mode != y.mode) return false;
  if (!plain(x.specials) || !plain(y.specials)) return false;
  return op != ArithOp::Div || (!contains(y.fp, 0.0) && !contains(y.real, 0.0));
}

// The exact identity of x_act ∘ y_act − x_real ∘ y_real on the differences
// e = act − real of the operands (act: fp for err, pr for propagated);
// z_real = x_real ∘ y_real (Div: y_act must exclude 0).
Affine error_identity(ArithOp op, const Affine& x_real, const Affine& ex, const Affine& y_actual, const Affine& ey,
                      const Affine& z_real) {
  switch (op) {
    case ArithOp::Add: return ex + ey;
    case ArithOp::Sub: return ex - ey;
    case ArithOp::Mul: return x_real * ey + ex * y_actual;
    case ArithOp::Div: return ex / y_actual - (z_real / y_actual) * ey;
  }
  return Affine::whole();
}

// For correlated operands (forms sharing a symbol) of × and ÷ the other exact
// forms of t − real_z can be tighter as forms: their intersection (one form
// kept, intervals intersected; the Interval result already intersects them
// for independent operands).
Affine tighter_error(ArithOp op, const SA& x, const SA& y, const Affine& t, const Affine& z_real, const Affine& E) {
  if ((op != ArithOp::Mul && op != ArithOp::Div) || !share_symbols(x.fp, y.fp)) return E;
  const Affine direct = detail::meet(E, t - z_real);
  if (op == ArithOp::Mul) return detail::meet(direct, y.real * x.err + y.err * x.fp);
  return detail::meet(direct, (x.err - z_real * y.err) / y.fp);
}

Affine clip_to(const Affine& a, const Interval& i) { return clip(a, i.lower(), i.upper()); }

// round(t) − t for t in the form's range: its bound (detail::round_float_result,
// which also handles point operands and exact cases), named as a function of t.
// Returns nullopt if the rounding may leave the finite values.
std::optional<Affine> rounding_symbol(ArithOp op, const SI& xi, const SI& yi, const Affine& t, const FloatFormat& F,
                                      RoundingMode mode, Interval& fp_range) {
  Interval ti = range(t);
  SI scratch;
  scratch.mode = mode;
  scratch.specials = SpecialStates{};
  scratch.specials.may_be_finite = false;
  const Interval bound = detail::with_rule(
      op, [&](auto rule) { return detail::round_float_result<decltype(rule)>(xi, yi, ti, F, scratch); });
  if (!plain(scratch.specials) || !is_bounded(bound)) return std::nullopt;
  fp_range = scratch.fp;
  if (bound.lower() == 0 && bound.upper() == 0) return Affine();
  return function_of(t, rounding_tag(F, mode), bound.lower(), bound.upper());
}

// propagated and introduced of z (see the header comment, step 2).
void set_split(ArithOp op, const SA& x, const SA& y, const Affine& E, const Affine& delta, SA& z) {
  const bool fresh = detail::is_zero_point(x.introduced) && detail::is_zero_point(y.introduced);
  if (fresh) {
    z.propagated = E;
    z.introduced = delta;
    return;
  }
  // pr_y = real_y + propagated_y: the identity reads it only for × and ÷
  const Affine pry = op == ArithOp::Add || op == ArithOp::Sub ? Affine() : y.real + y.propagated;
  if (op == ArithOp::Div && contains(pry, 0.0)) {
    z.propagated = Affine::whole();
  } else {
    z.propagated = error_identity(op, x.real, x.propagated, pry, y.propagated, z.real);
  }
  // add, sub: t − pr_z = i_x ± i_y (the introduced parts' identity: in a sum
  // chain a cheap extension of i_x); mul, div: err − propagated.
  if (op == ArithOp::Add || op == ArithOp::Sub)
    z.introduced = add3(x.introduced, y.introduced, op == ArithOp::Sub, delta);
  else
    z.introduced = z.err - z.propagated;
}

SA generic(ArithOp op, const SA& x, const SA& y, std::optional<IntegerDivision> int_division) {
  [[maybe_unused]] const FpEnvironmentGuard guard;
  SA z = detail::arithmetic_impl(op, x, y, int_division);
  z.origin = detail::merge_origin(x.origin, y.origin);
  return z;
}

}  // namespace

SA FastArithmetic<Affine>::apply(ArithOp op, const SA& x, const SA& y, std::optional<IntegerDivision> int_division) {
  // first: the scope test compares subnormal endpoints (DAZ would read them as 0)
  [[maybe_unused]] const FpEnvironmentGuard guard;
  if (!in_scope(op, x, y)) return generic(op, x, y, int_division);
  const SI xi = ranges_of(x), yi = ranges_of(y);
  const SI zi = arithmetic(op, xi, yi, int_division);
  if (!plain(zi.specials)) return generic(op, x, y, int_division);
  // One upward scope over the form operations below: each of them opens its
  // own scope, which then finds the mode set and writes no MXCSR (and
  // re-sets it if an Interval operation in between restored another mode).
  // Nothing below rounds outside a form operation or an Interval operation.
  const affine_detail::UpwardScope upward;
  const FloatFormat& F = std::get<FloatFormat>(x.format);
  SA z;
  z.real = detail::with_rule(op, [&](auto rule) { return decltype(rule)::value(x.real, y.real); });
  const Affine t = detail::with_rule(op, [&](auto rule) { return decltype(rule)::value(x.fp, y.fp); });
  Interval fp_range = zi.fp;
  const std::optional<Affine> delta = rounding_symbol(op, xi, yi, t, F, x.mode, fp_range);
  if (!delta) return generic(op, x, y, int_division);
  const bool linear_op = op == ArithOp::Add || op == ArithOp::Sub;
  const bool fresh = detail::is_zero_point(x.introduced) && detail::is_zero_point(y.introduced);
  // E is needed on its own only as the propagated part of fresh operands
  const Affine E = linear_op && !fresh ? Affine()
                                       : tighter_error(op, x, y, t, z.real, error_identity(op, x.real, x.err, y.fp, y.err, z.real));
  z.err = linear_op && !fresh ? add3(x.err, y.err, op == ArithOp::Sub, *delta) : E + *delta;
  z.fp = t + *delta;
  set_split(op, x, y, E, *delta, z);
  z.real = clip_to(z.real, zi.real);
  z.err = clip_to(z.err, zi.err);
  const double fp_lo = std::max(zi.fp.lower(), fp_range.lower()), fp_hi = std::min(zi.fp.upper(), fp_range.upper());
  z.fp = fp_lo <= fp_hi ? clip(z.fp, fp_lo, fp_hi) : clip_to(z.fp, zi.fp);
  z.propagated = clip_to(z.propagated, zi.propagated);
  z.introduced = clip_to(z.introduced, zi.introduced);
  // as reduce(): err / real where real certainly excludes 0
  z.rel_err = contains(zi.real, 0.0) ? Affine::whole() : clip_to(z.err / z.real, zi.rel_err);
  z.format = zi.format;
  z.mode = zi.mode;
  z.int_division = zi.int_division;
  z.specials = zi.specials;
  z.origin = detail::merge_origin(x.origin, y.origin);
  return z;
}

}  // namespace symerr
