// Convert: z = convert(x, F2, mode), the value of x in another format.
//
// Error identity (exact): err_z = e_x + (round_F2(fp_x) − fp_x); the
// rounding joins the introduced part, the propagated part is unchanged.
// Exact when every value of x's format is a value of F2 (values_included).
// Special values: ±inf, NaN carried (into a format without infinities: NaN or
// ±max by its overflow rule); float → integer conversion is refused.
#pragma once

#include <symerr/symbolic/quantity_recipe.hpp>
#include <symerr/symbolic.hpp>  // SymbolicDomainError and the driver's helpers (actual_real, FpGuardFor)

namespace symerr {

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

/// Conversion to another format (mixed precision, or a real-format value into
/// a machine format): fp_z = round(fp_x), err_z = err_x + (round(f) − f); the
/// rounding joins the introduced part, the propagated part is unchanged.
/// @throws std::invalid_argument for a float to integer conversion.
template <RealDomain D>
SymbolicDomainError<D> convert(const SymbolicDomainError<D>& x, const Format& to,
                               RoundingMode mode = RoundingMode::NearestEven) {
  [[maybe_unused]] const detail::FpGuardFor<D> guard;
  SymbolicDomainError<D> z = x;
  z.format = to;
  z.mode = mode;
  z.source = symerr::detail::number_result(z, symerr::detail::kRecipeConvert, x);  // another quantity (SymbolicDomainError::source)
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
  // An integer or real-format value flagged infinite is an undefined result
  // (x / 0, whose table entry is ±inf; neither format has infinities):
  // converted, it is still undefined — not the exact infinity a float ±inf
  // flag alone would denote (comparisons would answer "certainly" on it)
  if (!x.is_float() && (x.specials.may_be_pos_inf || x.specials.may_be_neg_inf)) z.specials.may_be_nan = true;
  // (1 + rel)(1 + ρ) − 1 into a float format (relative.hpp); an integer
  // result may wrap
  const bool keep_rel = !std::get_if<IntFormat>(&to) && z.specials.may_be_finite && x.specials.may_be_finite &&
                        is_bounded(z.err) && is_bounded(x.rel_err);
  z.rel_err = keep_rel ? detail::compose_relative(x.rel_err, detail::relative_rounding(x.fp, rounding, F, mode))
                       : D::whole();
  z.reduce();
  return z;
}

}  // namespace symerr
