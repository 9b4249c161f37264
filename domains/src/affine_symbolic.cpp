// SymbolicDomainError<Affine> arithmetic: the fast path FastArithmetic<Affine>
// (see affine.hpp). For z = x ∘ y with both operands finite values of one
// float format F (and, for ÷, a divisor that is not 0):
//   1. the operation runs over the Interval domain on the operands' ranges:
//      every flag (special values, zero signs, definedness) and an interval
//      for every field, by the library's proven interval path;
//   2. the affine forms that carry correlations are built once each:
//        real_z = real_x ∘ real_y,  t = fp_x ∘ fp_y,
//        δ = round(t) − t, a fresh symbol bounded by detail::round_float_result
//            on the range of t,
//        E  = the exact identity of t − real_z on the operands' errors
//             (add e_x + e_y, sub e_x − e_y, mul real_x·e_y + e_x·fp_y as one
//              form (multiply_add), div e_x/fp_y − (real_z/fp_y)·e_y),
//        err = E + δ,  fp = t + δ,
//      where for +, − and × of uncorrelated operands fp is built in the store
//      of t (affine_detail::rounded_operation: t is not stored, δ gets its
//      own one-term form), and E before δ, so that err = E + δ extends E;
//      otherwise (÷, or × and ÷ of correlated operands, whose tighter
//      identities read t) t is stored and δ named by function_of(t);
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
#include "affine_symbolic_impl.hpp"

#include <utility>

namespace symerr {
namespace affine_symbolic {

// The Interval view of x: every field's range, the same metadata. Read from
// the current context's headers when every handle is of it (else through
// lower()/upper(), which throw on a foreign handle).
SI ranges_of(const SA& x) {
  AffineContext* ctx = AffineContext::current_or_null();
  bool own = ctx != nullptr;
  for (const Affine* f : {&x.real, &x.fp, &x.err, &x.rel_err, &x.propagated, &x.introduced})
    own = own && (f->context_id() == 0 || f->context_id() == ctx->id());
  if (!own) return map_enclosures<Interval>(x, [](const Affine& a) { return range(a); });
  const auto& forms = ctx->impl().forms;
  return map_enclosures<Interval>(x, [&](const Affine& a) {
    const affine_detail::Header& h = forms[a.index()];
    return Interval::between(h.lo, h.hi);
  });
}

bool in_scope(ArithOp op, const SA& x, const SA& y) {
  if (!std::holds_alternative<FloatFormat>(x.format) || x.format != y.format || x.mode != y.mode) return false;
  if (!plain(x.specials) || !plain(y.specials)) return false;
  return op != ArithOp::Div || (!contains(y.fp, 0.0) && !contains(y.real, 0.0));
}

// The exact identity of x_act ∘ y_act − x_real ∘ y_real on the differences
// e = act − real of the operands (act: fp for err, pr for propagated);
// z_real = x_real ∘ y_real (Div: y_act must exclude 0). The two products of
// × are one form (multiply_add).
Affine error_identity(ArithOp op, const Affine& x_real, const Affine& ex, const Affine& y_actual, const Affine& ey,
                      const Affine& z_real) {
  switch (op) {
    case ArithOp::Add: return ex + ey;
    case ArithOp::Sub: return ex - ey;
    case ArithOp::Mul: return multiply_add(x_real, ey, ex, y_actual);
    case ArithOp::Div: return ex / y_actual - (z_real / y_actual) * ey;
  }
  return Affine::whole();
}

// For correlated operands (forms sharing a symbol) of × and ÷ the other exact
// forms of t − real_z can be tighter as forms: their intersection (one form
// kept, intervals intersected; the Interval result already intersects them
// for independent operands).
Affine tighter_error(ArithOp op, const SA& x, const SA& y, bool correlated, const Affine& t, const Affine& z_real,
                     const Affine& E) {
  if ((op != ArithOp::Mul && op != ArithOp::Div) || !correlated) return E;
  const Affine direct = detail::meet(E, t - z_real);
  if (op == ArithOp::Mul) return detail::meet(direct, multiply_add(y.real, x.err, y.err, x.fp));
  return detail::meet(direct, (x.err - z_real * y.err) / y.fp);
}

// a clipped to i; in place if a is one of the forms this operation built
// (created at or after form `first_new`).
Affine clip_to(const Affine& a, const Interval& i, std::size_t first_new) {
  return affine_detail::clip_new(a, i.lower(), i.upper(), first_new);
}

// The bound of round(t) − t for t in [t_lo, t_hi] (detail::round_float_result,
// which also handles point operands and exact cases) and the range of the
// rounded result (fp_range); false if the rounding may leave the finite values.
struct RoundingBound {
  ArithOp op;
  const SI* xi;
  const SI* yi;
  const FloatFormat* F;
  RoundingMode mode;
  Interval fp_range;
  Interval bound;
  bool evaluate(double t_lo, double t_hi) {
    Interval ti = Interval::between(t_lo, t_hi);
    SI scratch;
    scratch.mode = mode;
    scratch.specials = SpecialStates{};
    scratch.specials.may_be_finite = false;
    // in one upward scope (an Interval operation each would save, set and
    // restore the mode: 5% of a 64x64 matmul)
    bound = detail::scoped_round_float_result(op, xi->fp, yi->fp, ti, *F, scratch);
    if (!plain(scratch.specials) || !is_bounded(bound)) return false;
    fp_range = scratch.fp;
    return true;
  }
  // affine_detail::RoundingHook::bound: fused only for a bound of positive width
  static bool hook(void* state, double t_lo, double t_hi, double& dlo, double& dhi) {
    RoundingBound& b = *static_cast<RoundingBound*>(state);
    if (!b.evaluate(t_lo, t_hi)) return false;
    dlo = b.bound.lower();
    dhi = b.bound.upper();
    return dlo < dhi;
  }
};

// round(t) − t named as a function of t (one symbol per (t, F, mode)):
// nullopt if the rounding may leave the finite values.
std::optional<Affine> rounding_symbol(RoundingBound& rb, const Affine& t, const FloatFormat& F, RoundingMode mode) {
  if (!rb.evaluate(t.lower(), t.upper())) return std::nullopt;
  if (rb.bound.lower() == 0 && rb.bound.upper() == 0) return Affine();
  return function_of(t, rounding_tag(F, mode), rb.bound.lower(), rb.bound.upper());
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

// Every field of z met with the Interval result zi (fp also with the range of
// the rounded result), and zi's metadata.
void clip_fields(const SI& zi, const Interval& fp_range, std::size_t first_new, SA& z) {
  z.real = clip_to(z.real, zi.real, first_new);
  z.err = clip_to(z.err, zi.err, first_new);
  // err ⊆ rel_err · real again over the form's real range where it is the
  // tighter one (zi used the operands' ranges: a part over its whole, see
  // operator/ of Affine, is at most 1 where the ranges' corners give 12)
  if (is_bounded(zi.rel_err) && is_bounded(zi.real) && !contains(zi.real, 0.0) &&
      (z.real.lower() > zi.real.lower() || z.real.upper() < zi.real.upper())) {
    const auto [lo, hi] = detail::range_product(zi.rel_err, Interval::between(z.real.lower(), z.real.upper()));
    if (lo <= hi && lo > -INFINITY && hi < INFINITY) z.err = affine_detail::clip_new(z.err, lo, hi, first_new);
  }
  const double fp_lo = std::max(zi.fp.lower(), fp_range.lower()), fp_hi = std::min(zi.fp.upper(), fp_range.upper());
  z.fp = fp_lo <= fp_hi ? affine_detail::clip_new(z.fp, fp_lo, fp_hi, first_new) : clip_to(z.fp, zi.fp, first_new);
  z.propagated = clip_to(z.propagated, zi.propagated, first_new);
  z.introduced = clip_to(z.introduced, zi.introduced, first_new);
  // as reduce(): err / real where real certainly excludes 0
  z.rel_err = contains(zi.real, 0.0) ? Affine::whole() : clip_to(z.err / z.real, zi.rel_err, first_new);
  z.format = zi.format;
  z.mode = zi.mode;
  z.int_division = zi.int_division;
  z.specials = zi.specials;
  z.mixed = zi.mixed;  // the same quantity's (from the operands' own pairs)
}

// The fast path proper (x, y in scope; called only from apply(), whose
// FpEnvironmentGuard is in force).
SA compute(ArithOp op, const SA& x, const SA& y, std::optional<IntegerDivision> int_division) {
  const SI xi = ranges_of(x), yi = ranges_of(y);
  const SI zi = arithmetic(op, xi, yi, int_division);
  if (!plain(zi.specials)) return generic(op, x, y, int_division);
  // One upward scope over the form operations below: each of them opens its
  // own scope, which then finds the mode set and writes no MXCSR (and
  // re-sets it if an Interval operation in between restored another mode).
  // Nothing below rounds outside a form operation or an Interval operation.
  const affine_detail::UpwardScope upward;
  const std::size_t first_new = AffineContext::current().form_count();
  const FloatFormat& F = std::get<FloatFormat>(x.format);
  SA z;
  z.real = detail::with_rule(op, [&](auto rule) { return decltype(rule)::value(x.real, y.real); });
  // t = fp_x ∘ fp_y and δ = round(t) − t; fp = t + δ. For +, − and × of
  // uncorrelated operands (t is then used by nothing else) t and the
  // rounding are built as one stored form (affine_detail::rounded_operation).
  const bool correlated = (op == ArithOp::Mul || op == ArithOp::Div) && share_symbols(x.fp, y.fp);
  const bool linear_op = op == ArithOp::Add || op == ArithOp::Sub;
  const bool fresh = detail::is_zero_point(x.introduced) && detail::is_zero_point(y.introduced);
  // E = t − real_z by the error identity, needed on its own only as the
  // propagated part of fresh operands (or for × and ÷). Built before δ when
  // it does not need t: δ's symbol is then newer than E's, and err = E + δ
  // is stored as an extension of E (one term) instead of a merge.
  const bool need_E = !(linear_op && !fresh);
  Affine E;
  if (need_E && !correlated) E = error_identity(op, x.real, x.err, y.fp, y.err, z.real);
  RoundingBound rb{op, &xi, &yi, &F, x.mode, zi.fp, Interval()};
  Affine t, delta;
  bool fused = false;
  if (op != ArithOp::Div && !correlated) {
    affine_detail::RoundingHook hook{&RoundingBound::hook, &rb};
    const affine_detail::Op form_op =
        op == ArithOp::Mul ? affine_detail::Op::Mul : op == ArithOp::Sub ? affine_detail::Op::Sub : affine_detail::Op::Add;
    const affine_detail::RoundedForms r = affine_detail::rounded_operation(form_op, x.fp, y.fp, hook);
    fused = r.fused;
    if (fused) {
      z.fp = r.fp;
      delta = r.delta;
    } else {
      t = r.t;
    }
  } else {
    t = detail::with_rule(op, [&](auto rule) { return decltype(rule)::value(x.fp, y.fp); });
  }
  if (!fused) {
    const std::optional<Affine> d = rounding_symbol(rb, t, F, x.mode);
    if (!d) return generic(op, x, y, int_division);
    delta = *d;
    z.fp = t + delta;
  }
  const Interval fp_range = rb.fp_range;
  if (need_E && correlated)
    E = tighter_error(op, x, y, correlated, t, z.real, error_identity(op, x.real, x.err, y.fp, y.err, z.real));
  z.err = linear_op && !fresh ? add3(x.err, y.err, op == ArithOp::Sub, delta) : E + delta;
  set_split(op, x, y, E, delta, z);
  clip_fields(zi, fp_range, first_new, z);
  z.origin = detail::merge_origin(x.origin, y.origin);
  // a part over its whole (see part_over_whole)
  if (op == ArithOp::Add) record_part_sum(x, y, xi, yi, rb.bound, F, z);
  if (op == ArithOp::Div && !fused && is_bounded(t))
    part_over_whole(x, y, Interval::between(t.lower(), t.upper()), rb.bound, F, z, first_new);
  return z;
}

}  // namespace affine_symbolic
}  // namespace symerr
