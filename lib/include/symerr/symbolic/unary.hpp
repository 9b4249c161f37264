// Unary operations, format conversion and comparisons of SymbolicDomainError.
#pragma once

#include <symerr/symbolic/detail.hpp>

namespace symerr {

// −x is exact: every field and category is mirrored (integers: −INT_MIN
// wraps, and the wrap makes the operand's rel_err stale: recomputed).
template <RealDomain D>
SymbolicDomainError<D> operator-(const SymbolicDomainError<D>& x) {
  [[maybe_unused]] const detail::FpGuardFor<D> guard;
  SymbolicDomainError<D> z = x;
  z.real = -x.real;
  z.fp = -x.fp;
  z.err = -x.err;
  z.propagated = -x.propagated;
  z.introduced = -x.introduced;
  std::swap(z.specials.may_be_pos_inf, z.specials.may_be_neg_inf);
  if (x.is_float()) std::swap(z.specials.may_be_pos_zero, z.specials.may_be_neg_zero);
  if (const IntFormat* I = std::get_if<IntFormat>(&x.format)) {
    const auto w = detail::wrap_integers(z.fp, *I);
    z.fp = w.fp;
    z.introduced = z.introduced + w.introduced;
    z.err = z.err + w.introduced;
    z.rel_err = D::whole();
    z.specials.may_be_pos_zero = contains(z.fp, 0.0);
    z.specials.may_be_neg_zero = false;
  }
  z.reduce();
  return z;
}

namespace detail {
// An enclosure of |a| − |b| given one of a − b (the reverse triangle
// inequality ||a| − |b|| <= |a − b|, and the exact cases of known signs).
template <RealDomain D>
D abs_difference(const D& a, const D& b, const D& a_minus_b) {
  if (certainly(cmp_ge(a, D::point(0))) && certainly(cmp_ge(b, D::point(0)))) return a_minus_b;
  if (certainly(cmp_le(a, D::point(0))) && certainly(cmp_le(b, D::point(0)))) return -a_minus_b;
  return meet(abs(a) - abs(b), symmetric<D>(mag(a_minus_b)));
}
}  // namespace detail

// |x| is exact on the computed side; its error is |f| − |r|, and
// ||f| − |r|| <= |f − r| (reverse triangle inequality); likewise the split:
// propagated |pr| − |r|, introduced |f| − |pr|.
template <RealDomain D>
SymbolicDomainError<D> abs(const SymbolicDomainError<D>& x) {
  [[maybe_unused]] const detail::FpGuardFor<D> guard;
  SymbolicDomainError<D> z = x;
  z.real = abs(x.real);
  z.fp = abs(x.fp);
  const D pr = detail::actual_real(x);
  z.err = detail::abs_difference(x.fp, x.real, x.err);
  z.propagated = detail::abs_difference(pr, x.real, x.propagated);
  z.introduced = detail::abs_difference(x.fp, pr, x.introduced);
  z.specials.may_be_pos_inf = x.specials.may_be_pos_inf || x.specials.may_be_neg_inf;
  z.specials.may_be_neg_inf = false;
  z.specials.may_be_pos_zero = x.specials.may_be_pos_zero || x.specials.may_be_neg_zero || !x.is_float();
  z.specials.may_be_neg_zero = false;
  if (const IntFormat* I = std::get_if<IntFormat>(&x.format)) {  // |INT_MIN| wraps
    const auto w = detail::wrap_integers(z.fp, *I);
    z.fp = w.fp;
    z.introduced = z.introduced + w.introduced;
    z.err = z.err + w.introduced;
    z.specials.may_be_pos_zero = contains(z.fp, 0.0);
  }
  z.err = detail::meet(z.err, z.propagated + z.introduced);
  z.rel_err = D::whole();
  z.reduce();
  return z;
}

// sqrt, correctly rounded in the format. Propagated: √pr − √r = p / (√pr + √r);
// introduced: √f − √pr = i / (√f + √pr), plus the rounding.
template <RealDomain D>
SymbolicDomainError<D> sqrt(const SymbolicDomainError<D>& x) {
  if (x.is_integer()) throw std::invalid_argument("sqrt: not defined on integer format " + format_name(x.format));
  [[maybe_unused]] const detail::FpGuardFor<D> guard;
  using detail::meet;
  SymbolicDomainError<D> z = x;
  SpecialStates& s = z.specials;
  s.may_be_undefined = x.specials.may_be_undefined || x.real.lower() < 0;
  s.may_be_defined = x.specials.may_be_defined && x.real.upper() >= 0;
  z.real = sqrt(x.real);
  s.may_be_nan = x.specials.may_be_nan || x.specials.may_be_neg_inf ||
                 (x.specials.may_be_finite && x.fp.lower() < 0);
  s.may_be_neg_inf = false;
  s.may_be_finite = x.specials.may_be_finite && x.fp.upper() >= 0;
  if (s.may_be_finite) {
    const D t = sqrt(x.fp);
    const D spr = sqrt(detail::actual_real(x));
    D total = t - z.real, prop = spr - z.real, intro = t - spr;
    if (certainly(cmp_gt(t + z.real, D::point(0)))) total = meet(total, x.err / (t + z.real));
    if (certainly(cmp_gt(spr + z.real, D::point(0)))) prop = meet(prop, x.propagated / (spr + z.real));
    if (certainly(cmp_gt(t + spr, D::point(0)))) intro = meet(intro, x.introduced / (t + spr));
    D rounding = D::point(0);
    if (const FloatFormat* F = std::get_if<FloatFormat>(&x.format)) {
      const auto r = detail::round_enclosure(t, *F, x.mode);
      z.fp = r.fp;
      rounding = detail::introduced_float(t, z.fp, *F, x.mode);
    } else {
      z.fp = t;
    }
    z.propagated = prop;
    z.introduced = intro + rounding;
    z.err = meet(total + rounding, z.propagated + z.introduced);
    // sqrt(−0) = −0, sqrt(+0) = +0
  } else {
    z.fp = z.err = z.propagated = z.introduced = D::whole();
  }
  z.rel_err = D::whole();
  z.reduce();
  return z;
}

namespace detail {
// Round to the nearest integer, ties to even, of a double (exact: the
// fraction v − floor(v) of a double below 2^52 is a double).
inline double round_half_even(double v) {
  if (!(std::fabs(v) < 0x1p52)) return v;
  double n = std::floor(v);
  const double frac = v - n;
  if (frac > 0.5 || (frac == 0.5 && std::fmod(n, 2.0) != 0)) n += 1;
  return n;
}

// Every value of `from` is a value of `to` (the conversion is exact).
inline bool values_included(const Format& from, const FloatFormat& to) {
  if (const FloatFormat* F = std::get_if<FloatFormat>(&from))
    return F->precision <= to.precision && F->emin >= to.emin && F->emax <= to.emax &&
           (to.subnormals || !F->subnormals);
  if (const IntFormat* I = std::get_if<IntFormat>(&from))  // integers up to 2^p are values of `to`
    return I->bits - (I->is_signed ? 1 : 0) <= std::min(to.precision, to.emax);
  return false;
}

// fp of a value converted into the float format F (sets z.fp and the flags)
// and the rounding round(f) − f.
template <RealDomain D>
D convert_to_float(const SymbolicDomainError<D>& x, const FloatFormat& F, RoundingMode mode,
                   SymbolicDomainError<D>& z) {
  SpecialStates& s = z.specials;
  if (!x.specials.may_be_finite) return D::whole();
  const auto r = round_enclosure(x.fp, F, mode);
  z.fp = r.fp;
  s.may_be_finite = r.may_be_finite;
  s.may_be_pos_inf = s.may_be_pos_inf || r.may_be_pos_inf;
  s.may_be_neg_inf = s.may_be_neg_inf || r.may_be_neg_inf;
  s.may_be_nan = s.may_be_nan || r.may_be_nan;
  s.may_overflow = r.may_overflow;
  // A zero result keeps the sign of a zero operand, and a nonzero operand
  // rounded to zero gives the zero of its own sign (integers and reals: +0).
  const CategorySet c = x.categories();
  const double smallest = smallest_nonzero(x.format);
  s.may_be_pos_zero = (c & kPosZero) || side_may_round_to_zero(x.fp, false, smallest, F, mode);
  s.may_be_neg_zero = (c & kNegZero) || side_may_round_to_zero(x.fp, true, smallest, F, mode);
  if (is_point(x.fp) && x.fp.lower() == x.fp.upper() && r.may_be_finite && is_point(z.fp))
    return D::from_rational(exact_value(z.fp.lower()) - exact_value(x.fp.lower()));
  if (values_included(x.format, F)) return D::point(0);
  return introduced_float(x.fp, z.fp, F, mode);
}

// fp of a real or integer value converted into the integer format I: reals
// rounded to nearest, ties to even, then wrapped; returns q − f.
template <RealDomain D>
D convert_to_integer(const SymbolicDomainError<D>& x, const IntFormat& I, SymbolicDomainError<D>& z) {
  if (x.is_float())
    throw std::invalid_argument("convert: float to integer conversion is not supported (" +
                                format_name(x.format) + " -> " + format_name(I) + ")");
  if (!x.specials.may_be_finite) return D::whole();
  D q = x.fp, rounding = D::point(0);
  if (x.is_real()) {
    if (!is_bounded(x.fp)) {
      q = D::whole();
      rounding = symmetric<D>(0.5);
    } else {
      q = D::between(round_half_even(x.fp.lower()), round_half_even(x.fp.upper()));
      rounding = meet(q - x.fp, symmetric<D>(0.5));
    }
  }
  const auto w = wrap_integers(q, I);
  z.fp = w.fp;
  z.specials.may_be_pos_zero = contains(z.fp, 0.0);
  z.specials.may_be_neg_zero = false;
  return rounding + w.introduced;
}
}  // namespace detail

// Conversion to another format (mixed precision, or a real-format value into
// a machine format): fp_z = round(fp_x), err_z = err_x + (round(f) − f); the
// rounding joins the introduced part, the propagated part is unchanged.
template <RealDomain D>
SymbolicDomainError<D> convert(const SymbolicDomainError<D>& x, const Format& to,
                               RoundingMode mode = RoundingMode::NearestEven) {
  [[maybe_unused]] const detail::FpGuardFor<D> guard;
  SymbolicDomainError<D> z = x;
  z.format = to;
  z.mode = mode;
  D rounding = D::point(0);
  const FloatFormat* F = std::get_if<FloatFormat>(&to);
  if (F) rounding = detail::convert_to_float(x, *F, mode, z);
  else if (const IntFormat* I = std::get_if<IntFormat>(&to)) rounding = detail::convert_to_integer(x, *I, z);
  if (z.specials.may_be_finite && x.specials.may_be_finite) {
    z.propagated = x.propagated;
    z.introduced = x.introduced + rounding;
    z.err = detail::meet(x.err + rounding, z.propagated + z.introduced);
  } else {
    z.err = z.propagated = z.introduced = D::whole();
  }
  if (F) detail::replace_infinities(*F, z);
  z.rel_err = D::whole();
  z.reduce();
  return z;
}

// An enclosure of ulp(v) in F for v ∈ a (ulp is monotone in |v|).
template <RealDomain D>
D ulp(const D& a, const FloatFormat& F) {
  const double hi = std::min(mag(a), F.max_finite());
  return D::between(ulp(mig(a), F), ulp(hi, F));
}

// Comparisons of two values compare the computed values (what the program's
// branch does) and the real values (what the ideal program does): the answer
// is certain only when both agree on the whole enclosed set; otherwise a
// branch on it is undecided or unstable (docs/design.md §1).
namespace detail {
// Tightens `target` (an operand of `target rel other`, or of `other rel
// target`) to the executions in which the relation's ideal / computed outcome
// is the one given (a branch driver's path condition; see ComparisonInfo).
template <RealDomain D>
bool refine_operand(void* target, const ComparisonInfo& info, bool target_is_lhs, bool ideal_outcome,
                    bool computed_outcome, bool refine_ideal, bool refine_computed);

template <RealDomain D>
Truth compare(const SymbolicDomainError<D>& a, const SymbolicDomainError<D>& b,
              Tri (*cmp)(const D&, const D&), const char* what, Relation rel = Relation::Other) {
  [[maybe_unused]] const FpGuardFor<D> guard;
  // A value that may be non-finite, or whose real (or, for integers, computed)
  // value may be undefined, has no certain answer.
  const bool special = a.specials.may_be_undefined || b.specials.may_be_undefined ||
                       a.specials.may_be_nan || b.specials.may_be_nan || !a.specials.may_be_finite ||
                       !b.specials.may_be_finite || a.specials.may_be_pos_inf || a.specials.may_be_neg_inf ||
                       b.specials.may_be_pos_inf || b.specials.may_be_neg_inf;
  const Tri computed = special ? Tri::Unknown : cmp(a.fp, b.fp);
  const Tri ideal = special ? Tri::Unknown : cmp(a.real, b.real);
  // Certain only if the real computation on the actual inputs (pr = real +
  // propagated) decides it the same way too: the whole-kernel split of what
  // follows the branch assumes all three programs took it.
  const Tri actual = special || computed != ideal ? Tri::Unknown : cmp(actual_real(a), actual_real(b));
  const Tri t = computed == ideal && actual == ideal ? computed : Tri::Unknown;
  if (t != Tri::Unknown) return {t, what};
  ComparisonInfo info;
  info.ideal = ideal;
  info.computed = computed;
  info.relation = special ? Relation::Other : rel;
  info.lane = merge_origin(a.origin, b.origin);
  // Points cannot be tightened, and are often temporaries (literals) that are
  // gone by the time the Truth is converted: not exposed.
  info.lhs = is_point(a.real) && is_point(a.fp) ? nullptr : &a;
  info.rhs = is_point(b.real) && is_point(b.fp) ? nullptr : &b;
  info.refine = &refine_operand<D>;
  info.serial = ++detail::comparison_serial();
  info.real[0][0] = a.real.lower(), info.real[0][1] = a.real.upper();
  info.real[1][0] = b.real.lower(), info.real[1][1] = b.real.upper();
  info.fp[0][0] = a.fp.lower(), info.fp[0][1] = a.fp.upper();
  info.fp[1][0] = b.fp.lower(), info.fp[1][1] = b.fp.upper();
  info.err[0][0] = a.err.lower(), info.err[0][1] = a.err.upper();
  info.err[1][0] = b.err.lower(), info.err[1][1] = b.err.upper();
  return {Tri::Unknown, what, info};
}
}  // namespace detail

#define SYMERR_SDE_CMP(op, fn, rel)                                                                      \
  template <RealDomain D>                                                                                \
  Truth operator op(const SymbolicDomainError<D>& a, const SymbolicDomainError<D>& b) {                  \
    return detail::compare<D>(a, b, [](const D& p, const D& q) { return fn(p, q); }, "a " #op " b",      \
                              Relation::rel);                                                            \
  }                                                                                                      \
  template <RealDomain D>                                                                                \
  Truth operator op(const SymbolicDomainError<D>& a, double b) {                                         \
    return a op SymbolicDomainError<D>::constant(b);                                                     \
  }
SYMERR_SDE_CMP(<, cmp_lt, Lt)
SYMERR_SDE_CMP(<=, cmp_le, Le)
SYMERR_SDE_CMP(>, cmp_gt, Gt)
SYMERR_SDE_CMP(>=, cmp_ge, Ge)
SYMERR_SDE_CMP(==, cmp_eq, Eq)
SYMERR_SDE_CMP(!=, cmp_ne, Ne)
#undef SYMERR_SDE_CMP

template <RealDomain D>
std::ostream& operator<<(std::ostream& os, const SymbolicDomainError<D>& x) {
  const SpecialStates& s = x.specials;
  os << "{" << format_name(x.format) << " real " << x.real << " fp " << x.fp << " err " << x.err
     << " rel_err " << x.rel_err;
  if (s.may_be_nan) os << " may-NaN";
  if (s.may_be_pos_inf) os << " may+inf";
  if (s.may_be_neg_inf) os << " may-inf";
  if (!s.may_be_finite) os << " never-finite";
  if (s.may_be_undefined) os << (s.may_be_defined ? " may-undef" : " undef");
  return os << "}";
}

}  // namespace symerr
