// Sqrt: z = √x, correctly rounded in x's format and mode (IEEE 754).
//
// Error identity (exact where f, r >= 0): err_z = e_x / (√fp_x + √real_x)
// + (round(√t) − √t); propagated √pr − √r = p / (√pr + √r), introduced
// √f − √pr = i / (√f + √pr) plus the rounding.
// Special values: √(±0) = ±0, √(+inf) = +inf, √(x < 0) = NaN; the real
// square root of r < 0 is undefined.
#pragma once

#include <symerr/symbolic/quantity_recipe.hpp>
#include <symerr/symbolic/elementary/enclosure.hpp>
#include <symerr/symbolic/elementary/linearise.hpp>
#include <symerr/symbolic.hpp>  // SymbolicDomainError and the driver's helpers (actual_real, FpGuardFor)

namespace symerr {

/// sqrt, correctly rounded in the format. Propagated: √pr − √r = p / (√pr + √r);
/// introduced: √f − √pr = i / (√f + √pr), plus the rounding.
/// @throws std::invalid_argument on an integer format.
template <RealDomain D>
SymbolicDomainError<D> sqrt(const SymbolicDomainError<D>& x) {
  if (x.is_integer()) throw std::invalid_argument("sqrt: not defined on integer format " + format_name(x.format));
  [[maybe_unused]] const detail::FpGuardFor<D> guard;
  using detail::meet;
  SymbolicDomainError<D> z = x;
  z.source = symerr::detail::number_result(z, symerr::detail::kRecipeSqrt, x);  // another quantity (SymbolicDomainError::source)
  SpecialStates& s = z.specials;
  s.may_be_undefined = x.specials.may_be_undefined || x.real.lower() < 0;
  s.may_be_defined = x.specials.may_be_defined && x.real.upper() >= 0;
  z.real = sqrt(x.real);
  s.may_be_nan = x.specials.may_be_nan || x.specials.may_be_neg_inf ||
                 (x.specials.may_be_finite && x.fp.lower() < 0);
  s.may_be_neg_inf = false;
  s.may_be_finite = x.specials.may_be_finite && x.fp.upper() >= 0;
  D rel = D::whole();
  if (s.may_be_finite) {
    const D t = sqrt(x.fp);
    const D spr = sqrt(detail::actual_real(x));
    D total = t - z.real, prop = spr - z.real, intro = t - spr;
    if (certainly(cmp_gt(t + z.real, D::point(0)))) total = meet(total, x.err / (t + z.real));
    if (certainly(cmp_gt(spr + z.real, D::point(0)))) prop = meet(prop, x.propagated / (spr + z.real));
    if (certainly(cmp_gt(t + spr, D::point(0)))) intro = meet(intro, x.introduced / (t + spr));
    // |√a − √b| ≤ √|a − b| for a, b ≥ 0 (√ is ½-Hölder): near 0, where the
    // quotients above divide by a range that reaches 0
    auto holder = [](const D& d, const D& e) {
      if (!is_bounded(e)) return d;
      const double h = sqrt(D::point(mag(e))).upper();
      return h < mag(d) ? meet(d, D::between(-h, h)) : d;
    };
    total = holder(total, x.err);
    prop = holder(prop, x.propagated);
    intro = holder(intro, x.introduced);
    D rounding = D::point(0);
    if (const FloatFormat* F = std::get_if<FloatFormat>(&x.format)) {
      const auto r = detail::round_enclosure(t, *F, x.mode);
      z.fp = r.fp;
      // one computed input: its correctly rounded root, decided in MPFR (the
      // outward double enclosure of √t may round to two values of FP64)
      double y;
      if (is_point(x.fp) && x.fp.lower() > 0 && !is_point(z.fp) &&
          elementary::correctly_rounded_value(OpId::Sqrt, x.fp.lower(), 0, *F, x.mode, y) && contains(z.fp, y))
        z.fp = D::point(y);
      rounding = detail::introduced_float(t, z.fp, *F, x.mode);
      if constexpr (elementary::Relational<D>) {  // the rounding named after the operand, fp = t + it
        rounding = elementary::named_rounding(x.fp, OpId::Sqrt, *F, x.mode, rounding);
        if (is_bounded(rounding) && is_bounded(z.fp)) z.fp = meet(t + rounding, D::between(z.fp.lower(), z.fp.upper()));
      }
    } else {
      z.fp = t;
    }
    z.propagated = prop;
    z.introduced = intro + rounding;
    z.err = meet(total + rounding, z.propagated + z.introduced);
    // √f/√r − 1 = √(1 + rel) − 1 = rel / (√(1 + rel) + 1), then the rounding (relative.hpp)
    if (is_bounded(x.rel_err) && x.rel_err.lower() > -1 && is_bounded(z.err))
      rel = detail::compose_relative(x.rel_err / (sqrt(D::point(1) + x.rel_err) + D::point(1)),
                                     detail::relative_rounding(t, rounding, std::get_if<FloatFormat>(&x.format), x.mode));
    // sqrt(−0) = −0, sqrt(+0) = +0
  } else {
    z.fp = z.err = z.propagated = z.introduced = D::whole();
  }
  z.rel_err = rel;
  // the mixed pair (mixed_error.hpp): with f = r(1 + α) + β, r, f ≥ 0,
  // |√f − √r| = |f − r|/(√f + √r) ≤ rel·√r + abs/(√f + √r) ≤ rel·√r + √abs
  // (if √f + √r < √abs, |√f − √r| ≤ √f + √r < √abs itself), then the rounding
  const bool rule_mixed = x.mixed.known() && detail::plain_operand(x.specials) && x.real.lower() >= 0 &&
                          x.fp.lower() >= 0 && s.may_be_finite && !s.may_be_nan && !std::holds_alternative<IntFormat>(x.format) &&
                          is_bounded(z.err);
  if (rule_mixed) {
    const double root_abs = x.mixed.abs == 0 ? 0.0 : sqrt(D::point(x.mixed.abs)).upper();
    z.mixed = detail::mixed_rounded<D>(x.mixed.rel, root_abs,
                                       detail::mixed_rounding(std::get_if<FloatFormat>(&x.format), x.mode));
  }
  z.reduce(rule_mixed);
  return z;
}

}  // namespace symerr
