// Unary operations, format conversion and comparisons of SymbolicDomainError.
#pragma once

#include <symerr/symbolic/detail.hpp>

namespace symerr {

// −x is exact: every field and category is mirrored.
template <RealDomain D>
SymbolicDomainError<D> operator-(const SymbolicDomainError<D>& x) {
  SymbolicDomainError<D> z = x;
  z.real = -x.real;
  z.fp = -x.fp;
  z.err = -x.err;
  z.propagated = -x.err;
  z.introduced = D::point(0);
  std::swap(z.specials.may_be_pos_inf, z.specials.may_be_neg_inf);
  if (x.is_float()) std::swap(z.specials.may_be_pos_zero, z.specials.may_be_neg_zero);
  if (const IntFormat* I = std::get_if<IntFormat>(&x.format)) {  // −INT_MIN wraps
    const auto w = detail::wrap_integers(z.fp, *I);
    z.fp = w.fp;
    z.introduced = w.introduced;
    z.err = z.propagated + z.introduced;
  }
  z.reduce();
  return z;
}

// |x| is exact on the computed side; its error is |f| − |r|, and
// ||f| − |r|| <= |f − r| (reverse triangle inequality).
template <RealDomain D>
SymbolicDomainError<D> abs(const SymbolicDomainError<D>& x) {
  SymbolicDomainError<D> z = x;
  z.real = abs(x.real);
  z.fp = abs(x.fp);
  const double m = mag(x.err);
  D e = detail::meet(z.fp - z.real, detail::symmetric<D>(m));
  if (certainly(cmp_ge(x.real, D::point(0))) && certainly(cmp_ge(x.fp, D::point(0)))) e = x.err;
  if (certainly(cmp_le(x.real, D::point(0))) && certainly(cmp_le(x.fp, D::point(0)))) e = -x.err;
  z.err = z.propagated = e;
  z.introduced = D::point(0);
  z.specials.may_be_pos_inf = x.specials.may_be_pos_inf || x.specials.may_be_neg_inf;
  z.specials.may_be_neg_inf = false;
  z.specials.may_be_pos_zero = x.specials.may_be_pos_zero || x.specials.may_be_neg_zero || !x.is_float();
  z.specials.may_be_neg_zero = false;
  if (const IntFormat* I = std::get_if<IntFormat>(&x.format)) {  // |INT_MIN| wraps
    const auto w = detail::wrap_integers(z.fp, *I);
    z.fp = w.fp;
    z.introduced = w.introduced;
    z.err = z.propagated + z.introduced;
  }
  z.rel_err = D::whole();
  z.reduce();
  return z;
}

// sqrt, correctly rounded in the format. Propagated: √f − √r = e / (√f + √r).
template <RealDomain D>
SymbolicDomainError<D> sqrt(const SymbolicDomainError<D>& x) {
  if (x.is_integer()) throw std::invalid_argument("sqrt: not defined on integer format " + format_name(x.format));
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
    D prop = t - z.real;
    const D denom = t + z.real;
    if (certainly(cmp_gt(denom, D::point(0)))) prop = meet(prop, x.err / denom);
    z.propagated = prop;
    if (const FloatFormat* F = std::get_if<FloatFormat>(&x.format)) {
      const auto r = detail::round_enclosure(t, *F, x.mode);
      z.fp = r.fp;
      z.introduced = detail::introduced_float(t, z.fp, *F, x.mode);
    } else {
      z.fp = t;
      z.introduced = D::point(0);
    }
    z.err = z.propagated + z.introduced;
    // sqrt(−0) = −0, sqrt(+0) = +0
  } else {
    z.fp = z.err = z.propagated = z.introduced = D::whole();
  }
  z.rel_err = D::whole();
  z.reduce();
  return z;
}

// Conversion to another format (mixed precision): fp_z = round(fp_x),
// err_z = err_x + (round(t) − t).
template <RealDomain D>
SymbolicDomainError<D> convert(const SymbolicDomainError<D>& x, const Format& to,
                               RoundingMode mode = RoundingMode::NearestEven) {
  SymbolicDomainError<D> z = x;
  z.format = to;
  z.mode = mode;
  z.propagated = x.err;
  if (const FloatFormat* F = std::get_if<FloatFormat>(&to)) {
    if (x.specials.may_be_finite) {
      const auto r = detail::round_enclosure(x.fp, *F, mode);
      z.fp = r.fp;
      z.specials.may_be_finite = r.may_be_finite;
      z.specials.may_be_pos_inf = z.specials.may_be_pos_inf || r.may_be_pos_inf;
      z.specials.may_be_neg_inf = z.specials.may_be_neg_inf || r.may_be_neg_inf;
      z.specials.may_overflow = r.may_overflow;
      z.introduced = detail::introduced_float(x.fp, z.fp, *F, mode);
    }
  } else if (const IntFormat* I = std::get_if<IntFormat>(&to)) {
    if (!x.is_integer())
      throw std::invalid_argument("convert: float to integer conversion is not supported (" +
                                  format_name(x.format) + " -> " + format_name(to) + ")");
    const auto w = detail::wrap_integers(x.fp, *I);
    z.fp = w.fp;
    z.introduced = w.introduced;
  } else {
    z.introduced = D::point(0);
  }
  z.err = z.propagated + z.introduced;
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
// branch on it is undecided or unstable (DESIGN §1).
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
  const bool special = a.specials.may_be_nan || b.specials.may_be_nan || !a.specials.may_be_finite ||
                       !b.specials.may_be_finite || a.specials.may_be_pos_inf || a.specials.may_be_neg_inf ||
                       b.specials.may_be_pos_inf || b.specials.may_be_neg_inf;
  const Tri computed = special ? Tri::Unknown : cmp(a.fp, b.fp);
  const Tri ideal = special ? Tri::Unknown : cmp(a.real, b.real);
  const Tri t = computed == ideal ? computed : Tri::Unknown;
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
