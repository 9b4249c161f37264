// ldexp(x, n) = x·2^n on SymbolicDomainError (C ldexp, ldexpf, scalbn,
// scalbnf, scalbln; IEEE 754 scaleB): exact unless the result overflows or
// falls below the normal range, where it is rounded once, in the value's
// rounding mode (a correctly rounded operation, whatever the accuracy model).
//
// Propagated error, exact: ldexp(f, n) − ldexp(r, n) = 2^n·e. The real value
// is real·2^n (in the Affine domain a form of the operand: ldexp(x, 1) − 2x
// is 0). IEEE 754: ldexp(±0, n) = ±0, ldexp(±inf, n) = ±inf, NaN stays NaN;
// an underflow to zero keeps the sign.
#pragma once

#include <algorithm>

#include <symerr/symbolic/elementary/common.hpp>

namespace symerr {
namespace elementary {

// a·2^n in a domain, as products by powers of two that are doubles (|n| is
// clamped to 2200: beyond, every nonzero value of every format leaves the
// range the same way).
template <RealDomain D>
D scaled(const D& a, int n) {
  int m = std::clamp(n, -2200, 2200);
  D r = a;
  while (m != 0) {
    const int k = std::clamp(m, -1000, 1000);
    r = r * D::point(std::ldexp(1.0, k));
    m -= k;
  }
  return r;
}

}  // namespace elementary

/// x · 2^n, exact unless the result leaves the normal range (then rounded into
/// the subnormals or overflowing).
template <RealDomain D>
SymbolicDomainError<D> ldexp(const SymbolicDomainError<D>& x, int n) {
  [[maybe_unused]] const detail::FpGuardFor<D> fp_guard;  // the library's FP environment (fp_environment.hpp)
  namespace el = elementary;
  if (x.is_integer()) throw std::invalid_argument("ldexp: not defined on integer format " + format_name(x.format));
  el::UnaryParts<D> p;
  p.fn = OpId::Mul;  // the point case: the correctly rounded product t · 2^n, decided in MPFR
  p.has_inputs = true;
  const double power = std::ldexp(1.0, n);
  // a point input's value is decided only when 2^n is a double (else its enclosure stays)
  p.inputs = power > 0 && std::isfinite(power) ? x.fp : D::whole();
  p.exponent = power;
  p.image = el::scaled(x.fp, n);
  p.has_real = true;
  p.real = el::scaled(x.real, n);
  p.propagated = el::scaled(x.err, n);
  p.at_pos_inf = INFINITY;
  p.at_neg_inf = -INFINITY;
  p.odd_zero = true;
  const AccuracyModel exact = AccuracyModel::correctly_rounded();
  SymbolicDomainError<D> z = el::finish(x, p, exact);
  // t·2^n of a value t of F is a value of F (no rounding) unless it leaves the
  // range: above it, overflow (left to finish); below the normal range, one
  // rounding to the subnormal spacing (< min_subnormal in every mode)
  const FloatFormat* F = std::get_if<FloatFormat>(&z.format);
  if (F && z.specials.may_be_finite && is_bounded(p.image) && mag(p.image) <= F->max_finite()) {
    const bool normal = n >= 0 || mig(p.image) >= F->min_normal();
    z.introduced = detail::meet(z.introduced, normal ? D::point(0) : detail::symmetric<D>(F->min_subnormal()));
    z.err = detail::meet(z.err, z.propagated + z.introduced);
    if (normal) z.fp = detail::meet(z.fp, p.image);
    z.reduce();
  }
  return el::split_whole(x, z, [&](const SymbolicDomainError<D>& v) { return ldexp(v, n); });
}

/// scalbn(x, n) is ldexp(x, n).
template <RealDomain D>
SymbolicDomainError<D> scalbn(const SymbolicDomainError<D>& x, int n) {
  return ldexp(x, n);
}
/// scalbln(x, n) is ldexp(x, n) (n clamped to ±100000, which already over- or underflows every format).
template <RealDomain D>
SymbolicDomainError<D> scalbln(const SymbolicDomainError<D>& x, long n) {
  return ldexp(x, static_cast<int>(std::clamp<long>(n, -100000, 100000)));
}

}  // namespace symerr
