// log(x), log1p(x), log2(x) and log10(x) on SymbolicDomainError.
//
// Propagated error, exact identity (e = f − r, r > 0 and f > 0, resp. > −1):
//   log(f) − log(r) = log1p(e / r),   log1p(f) − log1p(r) = log1p(e / (1 + r)),
//   log2(f) − log2(r) = log1p(e / r) / ln 2,   log10: / ln 10,
// where e / r, the operand's relative error, is met with the relative error
// it carries (relative.hpp): log(Σ exp(x_i)) has the absolute error
// log1p(rel) of a sum of positive terms, whatever the sum's range.
// Introduced error: impl(t) − log(t) under the accuracy model.
// IEEE 754 / C Annex F: log(±0) = −inf (pole), log(x < 0) = NaN, log(1) = +0
// (the same for log2 and log10),
// log(+inf) = +inf, log(−inf) = NaN; log1p(−1) = −inf, log1p(x < −1) = NaN,
// log1p(±0) = ±0. The real logarithm of r <= 0 (resp. r <= −1) is undefined.
#pragma once

#include <symerr/symbolic/elementary/common.hpp>

namespace symerr {
namespace elementary {

// Parts of log(a + x) (a = 0: log, a = 1: log1p); the pole is at x = −a.
template <RealDomain D>
UnaryParts<D> log_parts(const SymbolicDomainError<D>& x, ElementaryFunction fn, IncreasingFn f, double a) {
  UnaryParts<D> p;
  p.fn = fn;
  const double pole = -a;
  const D& R = x.real;
  const D& FP = x.fp;
  p.has_real = R.upper() > pole;
  p.undefined_real = R.lower() <= pole;
  if (p.has_real)
    p.real = D::between(R.lower() <= pole ? -INFINITY : f(R.lower(), Dir::Down), f(R.upper(), Dir::Up));
  if (x.specials.may_be_finite) {
    p.nan_from_finite = FP.lower() < pole;
    p.neg_inf_from_finite = contains(FP, pole);
    p.has_inputs = FP.upper() > pole;
    if (p.has_inputs) {
      double lo = FP.lower();
      if (lo <= pole) {  // the smallest computed value above the pole
        const FloatFormat* F = std::get_if<FloatFormat>(&x.format);
        lo = F ? next_up(pole, *F) : pole;
      }
      p.inputs = D::between(lo, FP.upper());
      p.image = D::between(lo <= pole ? -INFINITY : f(lo, Dir::Down), f(FP.upper(), Dir::Up));
    }
  }
  if (p.has_real && R.lower() > pole) {
    // log: e / r is the operand's relative error, met with the one it carries
    p.propagated = log1p_image(a == 0 ? relative_of(x) : x.err / (R + D::point(a)));
  }
  p.at_pos_inf = INFINITY;
  p.at_neg_inf = NAN;
  return p;
}

// log_b(x) = log(x) / ln b (b = 2, 10): log's parts with f = log_b and the
// propagated identity divided by ln b (an outward enclosure of it).
template <RealDomain D>
SymbolicDomainError<D> log_base(const SymbolicDomainError<D>& x, OpId fn, const Shape& shape, double base,
                                const AccuracyModel& model) {
  [[maybe_unused]] const detail::FpGuardFor<D> fp_guard;  // the library's FP environment (fp_environment.hpp)
  auto p = log_parts(x, fn, fn == OpId::Log2 ? directed_d<OpId::Log2> : directed_d<OpId::Log10>, 0.0);
  if (p.has_real && x.real.lower() > 0) {
    const D ln_b = D::between(log_d(base, Dir::Down), log_d(base, Dir::Up));
    p.propagated = log1p_image(relative_of(x)) / ln_b;
  }
  p.shape = &shape;
  return finish(x, p, model);
}

}  // namespace elementary

/// The base-2 logarithm of a symbolic value: the propagated error by the exact identity
/// of this header's opening comment, the introduced error impl(t) − f(t)
/// bounded by `model` (default: the thread's current_accuracy_model()); IEEE 754
/// special values as C Annex F gives them (NaN, ±inf as flags).
/// @throws std::invalid_argument when `model` has no entry for the function and format.
template <RealDomain D>
SymbolicDomainError<D> log2(const SymbolicDomainError<D>& x, const AccuracyModel& model = current_accuracy_model()) {
  [[maybe_unused]] const detail::FpGuardFor<D> fp_guard;  // the library's FP environment (fp_environment.hpp)
  return elementary::split_whole(x, elementary::log_base(x, OpId::Log2, elementary::log2_shape, 2.0, model),
                                 [&](const SymbolicDomainError<D>& v) { return log2(v, model); });
}

/// The base-10 logarithm of a symbolic value: the propagated error by the exact identity
/// of this header's opening comment, the introduced error impl(t) − f(t)
/// bounded by `model` (default: the thread's current_accuracy_model()); IEEE 754
/// special values as C Annex F gives them (NaN, ±inf as flags).
/// @throws std::invalid_argument when `model` has no entry for the function and format.
template <RealDomain D>
SymbolicDomainError<D> log10(const SymbolicDomainError<D>& x, const AccuracyModel& model = current_accuracy_model()) {
  [[maybe_unused]] const detail::FpGuardFor<D> fp_guard;  // the library's FP environment (fp_environment.hpp)
  return elementary::split_whole(x, elementary::log_base(x, OpId::Log10, elementary::log10_shape, 10.0, model),
                                 [&](const SymbolicDomainError<D>& v) { return log10(v, model); });
}

/// The natural logarithm (log(±0) = −inf, negative arguments NaN / undefined) of a symbolic value: the propagated error by the exact identity
/// of this header's opening comment, the introduced error impl(t) − f(t)
/// bounded by `model` (default: the thread's current_accuracy_model()); IEEE 754
/// special values as C Annex F gives them (NaN, ±inf as flags).
/// @throws std::invalid_argument when `model` has no entry for the function and format.
template <RealDomain D>
SymbolicDomainError<D> log(const SymbolicDomainError<D>& x, const AccuracyModel& model = current_accuracy_model()) {
  [[maybe_unused]] const detail::FpGuardFor<D> fp_guard;  // the library's FP environment (fp_environment.hpp)
  auto p = elementary::log_parts(x, ElementaryFunction::Log, elementary::log_d, 0.0);
  p.shape = &elementary::log_shape;
  return elementary::split_whole(x, elementary::finish(x, p, model),
                                 [&](const SymbolicDomainError<D>& v) { return log(v, model); });
}

/// log(1 + x) of a symbolic value: the propagated error by the exact identity
/// of this header's opening comment, the introduced error impl(t) − f(t)
/// bounded by `model` (default: the thread's current_accuracy_model()); IEEE 754
/// special values as C Annex F gives them (NaN, ±inf as flags).
/// @throws std::invalid_argument when `model` has no entry for the function and format.
template <RealDomain D>
SymbolicDomainError<D> log1p(const SymbolicDomainError<D>& x, const AccuracyModel& model = current_accuracy_model()) {
  [[maybe_unused]] const detail::FpGuardFor<D> fp_guard;  // the library's FP environment (fp_environment.hpp)
  auto p = elementary::log_parts(x, ElementaryFunction::Log1p, elementary::log1p_d, 1.0);
  p.odd_zero = true;
  p.shape = &elementary::log1p_shape;
  return elementary::split_whole(x, elementary::finish(x, p, model),
                                 [&](const SymbolicDomainError<D>& v) { return log1p(v, model); });
}

}  // namespace symerr
