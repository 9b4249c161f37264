// Fmod: z = fmod(x, y) = x − n·y with n = trunc(x / y) (C99 fmod/fmodf/fmodl,
// IEEE 754 has no such operation; ONNX Mod with fmod = 1). Remainder (IEEE 754
// remainder, C remainder/remainderf/remainderl): the same with n = x / y
// rounded to nearest, ties to even, and |z| <= |y|/2; everything below holds
// for it with that n. The result is
// exact: every value fmod(f_x, f_y) of two values of a format is a value of
// that format (|z| < |y|, z between 0 and x), so the operation introduces
// nothing; what moves is the error, because n jumps where x / y crosses an
// integer.
//
// Enclosures, for each pair of operand ranges (X, Y) with Y ∌ 0:
//   n constant: trunc(inf X/Y) = trunc(sup X/Y) = n (trunc is monotone), and
//               fmod(X, Y) = X − n·Y exactly (a form in a correlated domain);
//   otherwise:  z between 0 and x, |z| < sup|Y|;
// both met with the other's bound. The error, exact when the ideal and the
// computed quotients have the same constant n:
//   err_z = e_x − n·e_y   (met with fmod(fp) − fmod(real));
// else fmod(fp) − fmod(real) (a box across a switch has the jump, about |y|);
// exactly 0 when both operands' errors are (fmod being exact).
// The split likewise: propagated fmod(pr) − fmod(real), introduced
// fmod(fp) − fmod(pr), each by its own n.
//
// Special values: fmod(x, ±0), fmod(±inf, y) and NaN operands give NaN, and
// fmod(x, ±inf) = x for finite x; an operand that may be special, or a
// divisor whose range holds 0, makes every special result possible (every
// flag set, every enclosure unbounded): sound, not tight. A zero result has
// the sign of x. Operands: as fma's (one machine format, literals rounded into
// it, integer formats refused).
#pragma once

#include <cmath>
#include <type_traits>

#include <symerr/symbolic/rules/fma.hpp>

namespace symerr {

namespace detail {

template <RealDomain D>
struct FmodImage {
  D value;
  bool constant = false;  // n = trunc(x / y) is one integer on the ranges
  double n = 0;
};

// The quotient's integer: trunc (fmod) or to nearest, ties to even (remainder).
inline double quotient_integer(double q, bool nearest) {
  if (!nearest || !std::isfinite(q)) return std::trunc(q);
  const double f = std::floor(q), d = q - f;  // exact
  return d > 0.5 || (d == 0.5 && std::fmod(f, 2.0) != 0) ? f + 1 : f;
}

// {fmod(x, y) : x ∈ X, y ∈ Y} (remainder: `nearest`), Y ∌ 0, both finite.
template <RealDomain D>
FmodImage<D> fmod_image(const D& X, const D& Y, bool nearest = false) {
  const double m = mag(Y), xl = X.lower(), xh = X.upper();
  // fmod: between 0 and x, |z| < |y|; remainder: |z| <= min(|x|, |y|/2), either sign
  const double half = m / 2 * 2 == m ? m / 2 : std::nextafter(m / 2, INFINITY), ax = mag(X);
  const D general = nearest ? D::between(-std::min(ax, half), std::min(ax, half))
                            : D::between(xl >= 0 ? 0.0 : std::max(xl, -m), xh <= 0 ? 0.0 : std::min(xh, m));
  const D q = X / Y;
  // both quotient integers are non-decreasing in q: one integer at both ends is one on the range
  const double nl = quotient_integer(q.lower(), nearest), nh = quotient_integer(q.upper(), nearest);
  if (nl != nh || !std::isfinite(nl)) return {general, false, 0};
  const double n = nl == 0 ? 0.0 : nl;  // trunc(−0.5) = −0
  return {meet(X - D::point(n) * Y, general), true, n};
}

// fmod(A_x, A_y) − fmod(B_x, B_y) given their images and the operands'
// differences d = A − B: d_x − n·d_y when both n are the same constant.
template <RealDomain D>
D fmod_difference(const FmodImage<D>& a, const FmodImage<D>& b, const D& dx, const D& dy) {
  // equal operands in every execution (d = 0): equal results, fmod being
  // exact in both programs (fmod(x, 3) of an input without error was [−6, 6]
  // from the two images)
  if (is_zero_point(dx) && is_zero_point(dy)) return D::point(0);
  const D direct = a.value - b.value;
  if (!a.constant || !b.constant || a.n != b.n) return direct;
  return meet(direct, dx - D::point(a.n) * dy);
}

}  // namespace detail

namespace detail {
// fmod (nearest = false) and IEEE remainder (nearest = true): z = x − n·y.
template <RealDomain D>
SymbolicDomainError<D> modulo(const SymbolicDomainError<D>& x0, const SymbolicDomainError<D>& y0, bool nearest) {
  using S = SymbolicDomainError<D>;
  using detail::meet;
  [[maybe_unused]] const detail::FpGuardFor<D> guard;
  const detail::MachineOperands<D> m = detail::machine_operands<D>(nearest ? "Remainder" : "Fmod", {&x0, &y0});
  const S &x = m.values[0], &y = m.values[1];
  const std::int32_t origin = detail::merge_origin(x.origin, y.origin);
  if (!detail::plain_finite(x) || !detail::plain_finite(y) || contains(y.fp, 0.0) || contains(y.real, 0.0)) {
    // fmod(x, 0) is NaN (the real quotient undefined); NaN and inf operands
    S z = detail::fma_any<D>(m.format, m.mode, x.specials.may_be_defined && y.specials.may_be_defined,
                             x.specials.may_be_undefined || y.specials.may_be_undefined || contains(y.real, 0.0));
    z.specials.may_overflow = false;
    z.origin = origin;
    return z;
  }
  S z;
  z.format = m.format;
  z.mode = m.mode;
  const detail::FmodImage<D> real = detail::fmod_image(x.real, y.real, nearest),
                            fp = detail::fmod_image(x.fp, y.fp, nearest);
  z.real = real.value;
  z.fp = fp.value;
  if (const auto* F = std::get_if<FloatFormat>(&m.format)) z.fp = detail::snap_to_format(z.fp, *F);
  const D total = detail::fmod_difference(fp, real, x.err, y.err);
  if (detail::is_zero_point(x.introduced) && detail::is_zero_point(y.introduced)) {
    z.propagated = total;  // pr = fp for both operands
    z.introduced = D::point(0);
    z.err = total;
  } else {
    const D prx = detail::actual_real(x), pry = detail::actual_real(y);
    if (contains(pry, 0.0)) {
      z.propagated = z.introduced = D::whole();
    } else {
      const detail::FmodImage<D> pr = detail::fmod_image(prx, pry, nearest);
      z.propagated = detail::fmod_difference(pr, real, x.propagated, y.propagated);
      z.introduced = detail::fmod_difference(fp, pr, x.introduced, y.introduced);
    }
    z.err = meet(total, z.propagated + z.introduced);
  }
  SpecialStates& s = z.specials;
  s = SpecialStates{};
  const bool zero = contains(z.fp, 0.0);
  s.may_be_pos_zero = zero && (x.fp.upper() > 0 || x.specials.may_be_pos_zero);
  s.may_be_neg_zero = zero && (x.fp.lower() < 0 || x.specials.may_be_neg_zero);
  z.rel_err = D::whole();
  z.reduce();
  z.origin = origin;
  return z;
}
}  // namespace detail

/// C fmod: x − trunc(x/y)·y, exact (it introduces no rounding); fmod(x, ±0),
/// fmod(±inf, y) and NaN operands give NaN, fmod(x, ±inf) = x for finite x.
template <RealDomain D>
SymbolicDomainError<D> fmod(const SymbolicDomainError<D>& x, const SymbolicDomainError<D>& y) {
  return detail::modulo(x, y, false);
}
/// IEEE 754 remainder (C remainder): x − n·y with n the integer nearest to
/// x / y, ties to even; exact, |z| <= |y|/2, a zero result with x's sign.
template <RealDomain D>
SymbolicDomainError<D> remainder(const SymbolicDomainError<D>& x, const SymbolicDomainError<D>& y) {
  return detail::modulo(x, y, true);
}

// A number next to a symbolic value: an exact real constant, rounded into
// the symbolic operand's format (fmod(x, 2.0), fmod(1.0, x), remainder(x, 2.0)).
namespace detail {
template <class A, class B>
concept SymbolicAndNumber = (is_symbolic_type<A> || is_symbolic_type<B>) &&
                            !(is_symbolic_type<A> && is_symbolic_type<B>) &&
                            (is_symbolic_type<A> || DropInNumber<A>) && (is_symbolic_type<B> || DropInNumber<B>);
template <class A, class B>
using SymbolicOf = std::conditional_t<is_symbolic_type<A>, A, B>;
}  // namespace detail
///@{
/// fmod() and remainder() with one number operand (an exact constant of the symbolic operand's type).
template <class A, class B>
  requires detail::SymbolicAndNumber<A, B>
auto fmod(const A& a, const B& b) {
  using S = detail::SymbolicOf<A, B>;
  return fmod(detail::as_symbolic<S>(a), detail::as_symbolic<S>(b));
}
template <class A, class B>
  requires detail::SymbolicAndNumber<A, B>
auto remainder(const A& a, const B& b) {
  using S = detail::SymbolicOf<A, B>;
  return remainder(detail::as_symbolic<S>(a), detail::as_symbolic<S>(b));
}
///@}

}  // namespace symerr
