// Shared machinery of the elementary functions on SymbolicDomainError:
// image enclosures over intervals, the rounding of f's exact image under the
// declared accuracy model (the introduced error), the IEEE 754 / C Annex F
// results at infinite inputs, and the assembly of the result.
//
// Every function builds a UnaryParts (what f does on the value's sets) and
// calls finish(). Soundness contract of the parts, for every execution with a
// finite computed input t ∈ inputs and a defined real input r:
//   f(r) ∈ real, f(t) ∈ image, f(t) − f(r) ∈ propagated.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include <symerr/symbolic.hpp>  // SymbolicDomainError
#include <symerr/symbolic/accuracy.hpp>
#include <symerr/symbolic/detail.hpp>
#include <symerr/symbolic/quantity_recipe.hpp>
#include <symerr/symbolic/elementary/enclosure.hpp>
#include <symerr/symbolic/elementary/linearise.hpp>

namespace symerr::elementary {

using IncreasingFn = double (*)(double, Dir);

// {f(x) : x ∈ a} for an increasing f.
template <RealDomain D>
D increasing_image(IncreasingFn f, const D& a) {
  return D::between(f(a.lower(), Dir::Down), f(a.upper(), Dir::Up));
}

// {cosh(x) : x ∈ a} (even, increasing in |x|).
template <RealDomain D>
D cosh_image(const D& a) {
  return D::between(cosh_d(mig(a), Dir::Down), cosh_d(mag(a), Dir::Up));
}

// {sinh(x) : x ∈ a} (increasing).
template <RealDomain D>
D sinh_image(const D& a) {
  return increasing_image<D>(sinh_d, a);
}

// {erf'(x) : x ∈ a} (even, decreasing in |x|).
template <RealDomain D>
D erf_slope_image(const D& a) {
  return D::between(erf_slope_d(mag(a), Dir::Down), erf_slope_d(mig(a), Dir::Up));
}

// {log1p(q) : q ∈ a, q > −1} (log1p's domain; q → −1 gives −inf).
template <RealDomain D>
D log1p_image(const D& a) {
  const double lo = a.lower() <= -1 ? -INFINITY : log1p_d(a.lower(), Dir::Down);
  const double hi = a.upper() <= -1 ? -INFINITY : log1p_d(a.upper(), Dir::Up);
  return D::between(lo, std::max(lo, hi));
}

// (f − r)/r of x for its executions, where x.real certainly excludes 0:
// err / real met with the relative error x carries (relative.hpp), which is
// tighter where x is a product, quotient or sum of one sign of values with
// relative errors (err / real of two independent ranges forgets that).
template <RealDomain D>
D relative_of(const SymbolicDomainError<D>& x) {
  const D q = x.err / x.real;
  return is_bounded(x.rel_err) ? detail::meet(q, x.rel_err) : q;
}

// g(f)/g(r) − 1 for g odd, increasing and concave on [0, inf) (tanh, erf,
// atan, asinh): with f = r(1 + q), q > −1 (real certainly excludes 0), it
// lies between 0 and q — g(λr) <= λ·g(r) for λ >= 1 and >= λ·g(r) for
// λ <= 1 (concavity and g(0) = 0), and g(λr) is on g(r)'s side by
// monotonicity: such a function never amplifies a relative error. Whole
// where the operand has no bounded relative error above −1.
template <RealDomain D>
D contracted_relative(const SymbolicDomainError<D>& x) {
  if (!(x.real.lower() > 0 || x.real.upper() < 0)) return D::whole();
  const D q = relative_of(x);
  if (!is_bounded(q) || !(q.lower() > -1)) return D::whole();
  return hull(D::point(0), q);
}

// {(1 + a)^c − 1 : a ∈ q} = expm1(c · log1p(q)), q > −1.
template <RealDomain D>
D relative_power_image(const D& q, const D& c) {
  return increasing_image<D>(expm1_d, log1p_image(q) * c);
}

template <RealDomain D>
struct UnaryParts {
  ElementaryFunction fn;
  bool has_inputs = false;  // some finite computed input has a finite f(t)
  D inputs = D::point(0);   // those inputs
  D image = D::point(0);    // f over them
  bool has_real = false;    // some defined real input gives a defined f(r)
  D real = D::point(0);
  D propagated = D::whole();
  // f(t)/f(r) − 1 for every execution (relative.hpp; exp: expm1(t − r)), or whole
  D rel_propagated = D::whole();
  // rel_propagated is a form of the operand's error (relative_form: exp),
  // kept as the result's rel_err form in relational domains
  bool relative_form = false;
  bool undefined_real = false;  // some real input is outside f's domain (or at a pole)
  bool nan_from_finite = false;     // some finite computed input gives NaN
  bool neg_inf_from_finite = false; // … −inf (pole: log(±0), log1p(−1))
  bool pos_inf_from_finite = false; // … +inf (pole of pow with c < 0)
  double at_pos_inf = NAN, at_neg_inf = NAN;  // IEEE f(+inf), f(−inf)
  // when set: f(±inf) is any value in [at_pos_inf, at_pos_inf_hi] (resp. −inf;
  // atan: π/2 under the accuracy model)
  double at_pos_inf_hi = NAN, at_neg_inf_hi = NAN;
  bool odd_zero = false;  // a zero result has the sign of t (else zeros are +0)
  double exponent = 0;    // pow's c (for the correctly rounded point result)
  const Shape* shape = nullptr;  // relational domains: f's shape for linearisations (linearise.hpp)
  std::optional<Shape> own_shape;  // … or one made for this operand (sin, cos, tan: trig_shape)
};

// Relational domains: the parts as forms correlated with the operand
// (linearise.hpp), each intersected with the range of the interval part (the
// form is kept: the interval parts may be forms of fresh symbols).
template <RealDomain D>
void relate(const SymbolicDomainError<D>& x, UnaryParts<D>& p) {
  if constexpr (Relational<D>) {
    auto within = [](const D& form, const D& part) {
      return is_bounded(part) ? detail::meet(form, D::between(part.lower(), part.upper())) : form;
    };
    if (!p.shape && !p.own_shape) return;
    const Shape& s = p.own_shape ? *p.own_shape : *p.shape;
    if (p.has_real && is_bounded(x.real))
      if (const auto l = linearise(s, x.real.lower(), x.real.upper()))
        p.real = within(linear_form(x.real, *l, symbol_tag(p.fn, 0, 0)), p.real);
    if (p.has_inputs && is_bounded(x.fp))
      if (const auto l = linearise(s, x.fp.lower(), x.fp.upper()))
        p.image = within(linear_form(x.fp, *l, symbol_tag(p.fn, 1, 0)), p.image);
    if (!p.has_real || !p.has_inputs || !is_bounded(x.real) || !is_bounded(x.fp) || !is_bounded(x.err)) return;
    const auto r = slope_range(s, std::min(x.real.lower(), x.fp.lower()), std::max(x.real.upper(), x.fp.upper()));
    const double e = mag(x.err);
    if (!r || !std::isfinite(e)) return;
    const double m = r->first / 2 + r->second / 2;
    const double rad = lin::up(std::max(lin::up(r->second - m), lin::up(m - r->first)) * e);
    if (!std::isfinite(rad)) return;
    // f(fp) − f(r) = m·e + (f'(ξ) − m)·e; the remainder depends on both operands
    const D rest = function_of(x.real, symbol_tag(p.fn, 2, x.fp.index()), -rad, rad);
    p.propagated = within(D::point(m) * x.err + rest, p.propagated);
  }
}

// Relational domains: g(e) for the operand's error e as a form of e (g's
// linearisation over e's range, the remainder a symbol named after e), met
// with `image` ({g(e)}: the interval part); else `image`. exp's relative
// propagated error expm1(e) so: exp(x_i − m) and exp(x_j − m) then share
// the symbols of m's error, and their relative errors' difference cancels
// it (a softmax's part over its whole, affine_symbolic.cpp), where the
// interval image is a fresh symbol each.
template <RealDomain D>
D relative_form(const D& e, const Shape& g, ElementaryFunction fn, const D& image) {
  if constexpr (Relational<D>) {
    if (!is_bounded(e) || !is_bounded(image) || is_point(e)) return image;
    const auto l = linearise(g, e.lower(), e.upper());
    if (!l) return image;
    const D form = linear_form(e, *l, symbol_tag(fn, 4, e.index()));
    return detail::meet(form, D::between(image.lower(), image.upper()));
  } else {
    (void)e, (void)g, (void)fn;
    return image;
  }
}

// Relational domains: the rounding impl(t) − f(t) as a symbol named after t
// (one value per input, function, format and mode), fp = image + it.
template <RealDomain D>
void relate_rounding(const SymbolicDomainError<D>& x, const UnaryParts<D>& p, const AccuracyModel& model,
                     SymbolicDomainError<D>& z) {
  if constexpr (Relational<D>) {
    const FloatFormat* F = std::get_if<FloatFormat>(&z.format);
    if (!p.shape || !F || !is_bounded(z.introduced) || !is_bounded(z.fp) || !is_bounded(x.fp)) return;
    const D delta = named_rounding(x.fp, p.fn, *F, z.mode, z.introduced, model.kind_key(), model.ulps_key());
    z.fp = detail::meet(p.image + delta, D::between(z.fp.lower(), z.fp.upper()));
    z.introduced = delta;
  } else {
    (void)x, (void)p, (void)model, (void)z;
  }
}

// Introduced error: impl(t) − f(t) for f(t) ∈ image, under `model`; sets
// z.fp, z.introduced and the overflow flags.
template <RealDomain D>
void round_image(SymbolicDomainError<D>& z, const D& image, ElementaryFunction fn, const AccuracyModel& model,
                 const D& inputs, double exponent) {
  SpecialStates& s = z.specials;
  const FloatFormat* F = std::get_if<FloatFormat>(&z.format);
  if (!F) {  // ideal real arithmetic: no rounding
    z.fp = image;
    z.introduced = D::point(0);
    s.may_be_finite = is_bounded(image) || image.lower() < INFINITY;
    return;
  }
  const UlpBound b = model.bound(fn, *F, z.mode);
  if (b.correctly_rounded) {
    const auto r = detail::round_enclosure(image, *F, z.mode);
    s.may_be_finite = r.may_be_finite;
    s.may_be_pos_inf = s.may_be_pos_inf || r.may_be_pos_inf;
    s.may_be_neg_inf = s.may_be_neg_inf || r.may_be_neg_inf;
    s.may_overflow = r.may_overflow;
    if (r.may_be_finite) {
      z.fp = r.fp;
      // one ordinary argument: its correctly rounded value, decided in MPFR
      double y;
      if (is_point(inputs) && inputs.lower() != 0 && !is_point(z.fp) &&
          correctly_rounded_value(fn, inputs.lower(), exponent, *F, z.mode, y) && contains(z.fp, y))
        z.fp = D::point(y);
      z.introduced = detail::introduced_float(image, z.fp, *F, z.mode);
    }
    return;
  }
  // |impl(t) − f(t)| <= k·ulp(f(t)) <= k·ulp(M) for every |f(t)| <= M.
  const double max = detail::max_finite(*F);
  double u = detail::ulp_of(std::min(b.widen > 0 ? mag(image) * (1 + b.widen) : mag(image), max), *F);
  // Without subnormals ulp is not monotone: below 2^emin it is the gap 2^emin
  // (symerr::ulp), so an f(t) there may come out as ±0 or ±2^emin. The bound
  // takes the gap within 2^-10 (relative) of it: the glibc model's narrow
  // formats round the FP32 result (within 8 ulp_32 <= 2^-20 |f(t)| of f(t)),
  // which may lie in the gap when f(t) does not.
  if (!F->subnormals && mig(image) < detail::min_normal(*F) * (1 + 0x1p-10)) u = std::max(u, detail::min_normal(*F));
  double slack = b.ulps * u;
  if (slack / u != b.ulps) slack = std::ceil(b.ulps) * u;  // k·u not exact (deep subnormal)
  // one rounding of a double operation is off by less than one ulp in any mode
  double lo = std::nextafter(image.lower() - slack, -INFINITY);
  double hi = std::nextafter(image.upper() + slack, INFINITY);
  // k·ulp(f(t)) <= max(k·2^(1−p)·|f(t)|, k·s) (s: the spacing below the normal
  // range, the gap 2^emin without subnormals), so at an end of one sign impl(t) is within that of the end itself:
  // exp over [−20, 20] keeps fp > 0 (the slack of its largest value,
  // k·ulp(e^20), would reach below 0)
  if (std::isfinite(slack) && is_bounded(image)) {
    const double k = std::ceil(b.ulps);
    const double rel = std::ldexp(k, 1 - F->precision), abs = k * detail::min_subnormal(*F);
    auto near = [&](double v, double dir) {  // v moved by max(rel·|v|, abs) towards dir, rounded outward
      const double m = std::max(std::fabs(v) * rel, abs);
      return std::nextafter(std::nextafter(v + dir * m, dir * INFINITY), dir * INFINITY);
    };
    // f − max(rel·f, abs) increases with f only for rel <= 1: in a format of
    // 2 bits, k > 2 ulps may reach across 0 from the far end of the image
    if (rel <= 1 && image.lower() > 0) lo = std::max(lo, near(image.lower(), -1));
    if (rel <= 1 && image.upper() < 0) hi = std::min(hi, near(image.upper(), 1));
  }
  s.may_overflow = hi > max || lo < -max;
  s.may_be_pos_inf = s.may_be_pos_inf || hi > max;
  s.may_be_neg_inf = s.may_be_neg_inf || lo < -max;
  // IEEE 754 §7.4: an overflow rounded toward zero (downward for a positive
  // result, upward for a negative one) is the largest finite value, not ±inf
  const bool toward_zero = z.mode == RoundingMode::TowardZero;
  const bool pos_to_max = hi > max && (toward_zero || z.mode == RoundingMode::Downward);
  const bool neg_to_max = lo < -max && (toward_zero || z.mode == RoundingMode::Upward);
  s.may_be_finite = (lo <= max && hi >= -max) || pos_to_max || neg_to_max;
  if (s.may_be_finite) {
    const double flo = std::min(std::max(lo, -max), max), fhi = std::max(std::min(hi, max), -max);
    z.fp = detail::snap_to_format(D::between(flo, fhi), *F);
    // a clamped overflow is further from f(t) than k ulps
    z.introduced = pos_to_max || neg_to_max ? z.fp - image : detail::meet(z.fp - image, detail::symmetric<D>(slack));
  }
}

// impl(t)/f(t) − 1 for f(t) ∈ image, given impl(t) − f(t) ∈ introduced: under
// a k-ulp model |impl(t) − f(t)| <= k·ulp(f(t)) <= k·2^(1−p)·|f(t)| for a normal
// f(t) (relative.hpp for a correctly rounded f).
template <RealDomain D>
D relative_image_rounding(const D& image, const D& introduced, ElementaryFunction fn, const AccuracyModel& model,
                          const FloatFormat* F, RoundingMode mode) {
  if (!F || detail::is_exact_zero(introduced)) return detail::relative_rounding(image, introduced, F, mode);
  const UlpBound b = model.bound(fn, *F, mode);
  if (b.correctly_rounded) return detail::relative_rounding(image, introduced, F, mode);
  // next to the gap of a format without subnormals the result may be ±0 (round_image)
  if (!F->subnormals && mig(image) < detail::min_normal(*F) * (1 + 0x1p-10))
    return detail::relative_rounding(image, introduced, F, INFINITY);
  // k·2^(1−p), k rounded up
  return detail::relative_rounding(image, introduced, F, std::ldexp(std::ceil(b.ulps * 1024) / 1024, 1 - F->precision));
}

// The result: flags, fields, the finite results at infinite inputs, reduce().
template <RealDomain D>
SymbolicDomainError<D> finish(const SymbolicDomainError<D>& x, const UnaryParts<D>& parts, const AccuracyModel& model) {
  UnaryParts<D> p = parts;
  relate(x, p);
  if (x.is_integer())
    throw std::invalid_argument(std::string(elementary_name(p.fn)) + ": not defined on integer format " +
                                format_name(x.format));
  SymbolicDomainError<D> z = x;
  // another quantity (SymbolicDomainError::source), made by fn (with its exponent) under `model`
  z.source = symerr::detail::number_result(z, symerr::detail::kRecipeElementary + static_cast<std::uint32_t>(p.fn), x,
                                           nullptr, symerr::detail::recipe_bits(p.exponent), model.kind_key(),
                                           symerr::detail::recipe_bits(model.ulps_key()));
  SpecialStates& s = z.specials;
  const SpecialStates& in = x.specials;
  s = SpecialStates{};
  s.may_be_finite = false;
  s.may_be_pos_zero = false;
  s.may_be_nan = in.may_be_nan || p.nan_from_finite;
  s.may_be_neg_inf = p.neg_inf_from_finite;
  s.may_be_pos_inf = p.pos_inf_from_finite;
  s.may_be_undefined = in.may_be_undefined || p.undefined_real;
  s.may_be_defined = in.may_be_defined && p.has_real;
  z.real = p.has_real ? p.real : D::whole();
  z.fp = z.err = z.propagated = z.introduced = D::whole();
  D rel = D::whole();
  if (in.may_be_finite && p.has_inputs) {
    const bool pos_inf = s.may_be_pos_inf, neg_inf = s.may_be_neg_inf;
    round_image(z, p.image, p.fn, model, p.inputs, p.exponent);
    s.may_be_pos_inf = s.may_be_pos_inf || pos_inf;
    s.may_be_neg_inf = s.may_be_neg_inf || neg_inf;
    if (s.may_be_finite) {
      relate_rounding(x, p, model, z);
      z.propagated = p.has_real ? detail::meet(p.propagated, p.image - z.real) : p.propagated;
      z.err = z.propagated + z.introduced;
      // (1 + f(t)/f(r) − 1)(1 + ρ) − 1; an infinite input's finite result
      // (exp(−inf) = 0) has no relative identity
      if (is_bounded(p.rel_propagated) && is_bounded(z.err) && !in.may_be_pos_inf && !in.may_be_neg_inf)
        rel = detail::compose_relative(
            p.rel_propagated,
            relative_image_rounding(p.image, z.introduced, p.fn, model, std::get_if<FloatFormat>(&z.format), z.mode));
    }
  }
  // IEEE f(±inf): a special result is a flag; a finite one c joins the sets
  // (then the real input is finite and err ∋ c − f(r)).
  auto infinite_input = [&](bool possible, double c, double c_hi) {
    if (!possible) return;
    if (std::isnan(c)) { s.may_be_nan = true; return; }
    if (std::isinf(c)) { (c > 0 ? s.may_be_pos_inf : s.may_be_neg_inf) = true; return; }
    const D cc = std::isnan(c_hi) ? D::point(c) : D::between(c, c_hi);
    const D e = p.has_real ? cc - z.real : D::whole();
    if (!s.may_be_finite) {
      z.fp = cc; z.err = z.propagated = e; z.introduced = D::point(0);
    } else {
      z.fp = hull(z.fp, cc); z.err = hull(z.err, e); z.propagated = hull(z.propagated, e);
      z.introduced = hull(z.introduced, D::point(0));
    }
    s.may_be_finite = true;
    if (c == 0) (std::signbit(c) ? s.may_be_neg_zero : s.may_be_pos_zero) = true;
  };
  infinite_input(in.may_be_pos_inf, p.at_pos_inf, p.at_pos_inf_hi);
  infinite_input(in.may_be_neg_inf, p.at_neg_inf, p.at_neg_inf_hi);
  if (s.may_be_finite && contains(z.fp, 0.0)) {
    const bool below = p.odd_zero && p.has_inputs && p.image.lower() <= 0;
    const bool above = !p.odd_zero || (p.has_inputs && p.image.upper() >= 0);
    s.may_be_neg_zero = s.may_be_neg_zero || below;
    s.may_be_pos_zero = s.may_be_pos_zero || above;
  }
  z.rel_err = rel;
  z.reduce();
  // relational domains: reduce() met rel with err / real, which keeps the
  // form of smaller radius; a relative form of the operand's error (exp's
  // relative_form) is kept, with the met range, so that the relative errors
  // of two results stay related through their operands' shared symbols
  if constexpr (Relational<D>) {
    if (p.relative_form && is_bounded(rel) && is_bounded(z.rel_err) && z.rel_err.index() != rel.index() &&
        !(rel.upper() < z.rel_err.lower() || z.rel_err.upper() < rel.lower()))
      z.rel_err = detail::clip_range(rel, std::max(rel.lower(), z.rel_err.lower()), std::min(rel.upper(), z.rel_err.upper()));
  }
  return z;
}

// Parts of an increasing f defined on the whole real line.
template <RealDomain D>
UnaryParts<D> whole_line_parts(const SymbolicDomainError<D>& x, ElementaryFunction fn, IncreasingFn f) {
  UnaryParts<D> p;
  p.fn = fn;
  p.has_inputs = true;
  p.inputs = x.fp;
  p.image = increasing_image<D>(f, x.fp);
  p.has_real = true;
  p.real = increasing_image<D>(f, x.real);
  return p;
}


// Parts of a monotone f whose domain is the interval [lo, hi] (asin, acos:
// [−1, 1]; acosh: [1, +inf)); decreasing when `increasing` is false (acos).
// A computed input outside gives NaN, a real input outside is undefined.
// With `poles` (atanh) the ends are poles instead: f(lo) = −inf, f(hi) = +inf
// for a computed input (flags), a real input there is undefined, and the
// finite inputs stop at the format's values next to them.
template <RealDomain D>
UnaryParts<D> interval_domain_parts(const SymbolicDomainError<D>& x, ElementaryFunction fn, IncreasingFn f, double lo,
                                    double hi, bool increasing, bool poles) {
  UnaryParts<D> p;
  p.fn = fn;
  // f over [a, b] ⊆ [lo, hi]; at a pole the value is the infinite limit
  auto image = [&](double a, double b) {
    if (!increasing) return D::between(f(b, Dir::Down), f(a, Dir::Up));
    return D::between(poles && a <= lo ? -INFINITY : f(a, Dir::Down), poles && b >= hi ? INFINITY : f(b, Dir::Up));
  };
  const D& R = x.real;
  p.has_real = poles ? R.upper() > lo && R.lower() < hi : R.upper() >= lo && R.lower() <= hi;
  p.undefined_real = poles ? R.lower() <= lo || R.upper() >= hi : R.lower() < lo || R.upper() > hi;
  if (p.has_real) p.real = image(std::max(R.lower(), lo), std::min(R.upper(), hi));
  if (!x.specials.may_be_finite) return p;
  const D& FP = x.fp;
  p.nan_from_finite = FP.lower() < lo || FP.upper() > hi;
  double a = std::max(FP.lower(), lo), b = std::min(FP.upper(), hi);
  if (poles) {
    p.neg_inf_from_finite = contains(FP, lo);
    p.pos_inf_from_finite = contains(FP, hi);
    const FloatFormat* F = std::get_if<FloatFormat>(&x.format);
    if (F && a <= lo) a = next_up(lo, *F);  // the computed values next to the poles
    if (F && b >= hi) b = next_down(hi, *F);
  }
  p.has_inputs = poles && !std::get_if<FloatFormat>(&x.format) ? a < b || (a == b && lo < a && a < hi) : a <= b;
  if (p.has_inputs) {
    p.inputs = D::between(a, b);
    p.image = image(a, b);
  }
  return p;
}

// {f'(ξ) : ξ ∈ a} for a slope that is even and monotone in |ξ| (decreasing:
// atan, asinh; else increasing: asin, atanh), from its directed values.
template <RealDomain D>
D even_slope_image(IncreasingFn slope, const D& a, bool decreasing_in_magnitude) {
  if (decreasing_in_magnitude) return D::between(slope(mag(a), Dir::Down), slope(mig(a), Dir::Up));
  return D::between(slope(mig(a), Dir::Down), slope(mag(a), Dir::Up));
}

// The whole-kernel split of z = f(x): propagated = f(pr) − f(r) and
// introduced = impl(f) − f(pr), where pr = real + propagated is the operand's
// value in the real computation on the actual inputs (see arith.hpp). finish()
// derives z's parts from err: propagated = f(fp) − f(r), introduced =
// impl(fp) − f(fp); they are the whole-kernel parts when the operand carries
// no introduced error (fp = pr). Otherwise f is run once more on two
// real-format (unrounded) operands: r → pr gives f(pr) − f(r), and pr → fp
// gives f(fp) − f(pr), which joins the rounding. A part whose run may meet an
// undefined or non-finite value is left unbounded (err stays as derived).
// The run r → pr is on real values only: pr is the real computation's value,
// finite wherever it is defined, even where the computed value overflowed to
// ±inf or is NaN (literal(70000) in FP16: fp = +inf, pr = 70000), so that
// run's operand has no special values — with x's flags it would take f(±inf)
// for f(pr) (pow(x, −1) had propagated = 0 − 70000^−1 where it is 0).
template <RealDomain D, class Fn>
SymbolicDomainError<D> split_whole(const SymbolicDomainError<D>& x, SymbolicDomainError<D> z, Fn&& f) {
  if (x.introduced.lower() == 0 && x.introduced.upper() == 0) return z;
  auto real_format = [&](const D& from, const D& to, const D& delta) {
    SymbolicDomainError<D> v = x;
    v.source = -1;
    v.format = Format{};
    v.real = from;
    v.fp = to;
    v.err = v.propagated = delta;
    v.introduced = D::point(0);
    v.rel_err = D::whole();
    v.mixed = {};  // another quantity
    return v;
  };
  auto usable = [](const SymbolicDomainError<D>& v) {
    const SpecialStates& s = v.specials;
    return s.may_be_finite && s.may_be_defined && !s.may_be_undefined && !s.may_be_nan && !s.may_be_pos_inf &&
           !s.may_be_neg_inf;
  };
  const D pr = detail::actual_real(x);
  SymbolicDomainError<D> on_reals = real_format(x.real, pr, x.propagated);
  SpecialStates& s = on_reals.specials;
  s.may_be_finite = true;
  s.may_be_pos_inf = s.may_be_neg_inf = s.may_be_nan = s.may_overflow = s.may_be_neg_zero = false;
  s.may_be_pos_zero = contains(pr, 0.0);
  const SymbolicDomainError<D> zp = f(on_reals);
  const SymbolicDomainError<D> zi = f(real_format(pr, x.fp, x.introduced));
  z.propagated = usable(zp) ? zp.err : D::whole();
  z.introduced = usable(zi) && is_bounded(z.introduced) ? zi.err + z.introduced : D::whole();
  return z;
}

}  // namespace symerr::elementary
