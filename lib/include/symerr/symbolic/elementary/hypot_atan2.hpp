// hypot(x, y) and atan2(y, x) on SymbolicDomainError (C hypot, hypotf,
// atan2, atan2f; atan2 takes its operands in C's order: y first).
//
// Both are functions of the point (x, y). With e = f − r per coordinate and ξ
// on the segment from the real point r to the computed point f (so ξ in the
// box H = hull(real, fp) of each coordinate):
//   hypot: hypot(f) − hypot(r) = (ξx·ex + ξy·ey) / |ξ|   (0 ∉ H; mean value),
//          and always |hypot(f) − hypot(r)| <= hypot(ex, ey) (triangle
//          inequality, also across the origin);
//   atan2: atan2(f) − atan2(r) = (ξx·ey − ξy·ex) / |ξ|², and |·| <= |e| / min |ξ|
//          over H (Cauchy–Schwarz), when atan2 is
//          continuous on H: 0 ∉ H and H does not meet the branch cut
//          {y = 0, x < 0} (H in the closed upper half-plane counts as
//          continuous when no computed y is −0: atan2(+0, x < 0) = π, the real
//          value's); else the difference of the enclosures, which holds the
//          jump of 2π across the cut.
// Both are met with image(fp) − image(real).
// Images over a box: hypot from the nearest and farthest points (mig, mag of
// each coordinate); atan2 from the four corners when the box holds neither
// the origin nor a piece of the cut (the angles of a convex set seen from
// outside it are extreme at its vertices), else [−π, π].
// The real value: reals have no signed zero (atan2(0, x < 0) = π); the real
// atan2(0, 0) is undefined (flagged).
// Introduced error: impl(t) − f(t) under the accuracy model (glibc 2.36:
// hypot 1 ulp; atan2 1 ulp, float directed 2).
// Special values (C Annex F: hypot(±inf, NaN) = +inf, atan2(±inf, −inf) =
// ±3π/4, …): an operand that may be infinite, NaN or undefined makes every
// special result possible (every flag set, every enclosure unbounded), as for
// fma and fmod: sound, not tight. hypot overflows to +inf; a zero result of
// atan2 has the sign of y (atan2(±0, x >= +0) = ±0 and underflow), of hypot
// is +0. Operands: as fma's (one machine format, a literal rounded into it,
// integer formats refused). Not linearised in the Affine domain (the parts
// are intervals there, hypot(x, y) − hypot(x, y) is not 0).
#pragma once

#include <cmath>

#include <symerr/symbolic/elementary/common.hpp>
#include <symerr/symbolic/rules/fma.hpp>

namespace symerr {
namespace elementary {

// A point set for a binary function: its box and what a zero y may be (atan2
// tells +0 from −0; a real zero is +0).
template <RealDomain D>
struct PointBox {
  const D& x;
  const D& y;
  bool y_pos_zero;  // a zero y is +0 (may be)
  bool y_neg_zero;  // … −0
  bool has_origin() const { return contains(x, 0.0) && contains(y, 0.0); }
};

// H = hull of two boxes, and whether the segment between a point of each lies
// away from the origin.
template <RealDomain D>
struct SegmentHull {
  D x, y;
  bool away_from_origin;
  SegmentHull(const PointBox<D>& a, const PointBox<D>& b)
      : x(hull(a.x, b.x)), y(hull(a.y, b.y)), away_from_origin(!(contains(x, 0.0) && contains(y, 0.0))) {}
};

// [lo, hi] ⊇ {ξx² + ξy² : ξ ∈ H}, H away from the origin (lo > 0).
template <RealDomain D>
D squared_norm(const SegmentHull<D>& h) {
  const double lx = mig(h.x), ly = mig(h.y), ux = mag(h.x), uy = mag(h.y);
  return D::between(lin::pos(lin::dn(lin::dn(lx * lx) + lin::dn(ly * ly))), lin::up(lin::up(ux * ux) + lin::up(uy * uy)));
}

struct HypotRule {
  static constexpr OpId op = OpId::Hypot;
  static constexpr const char* name = "Hypot";
  template <RealDomain D>
  static D image(const PointBox<D>& p) {
    return D::between(directed(op, mig(p.x), mig(p.y), Dir::Down), directed(op, mag(p.x), mag(p.y), Dir::Up));
  }
  // ⊇ hypot(a) − hypot(b) for a ∈ A, b ∈ B with a − b ∈ (dx, dy)
  template <RealDomain D>
  static D difference(const PointBox<D>& a, const PointBox<D>& b, const D& dx, const D& dy) {
    if (!is_bounded(dx) || !is_bounded(dy)) return D::whole();
    const D lipschitz = detail::symmetric<D>(directed(op, mag(dx), mag(dy), Dir::Up));
    const SegmentHull<D> h(a, b);
    if (!h.away_from_origin) return lipschitz;
    const D norm = D::between(directed(op, mig(h.x), mig(h.y), Dir::Down), directed(op, mag(h.x), mag(h.y), Dir::Up));
    return detail::meet(lipschitz, (h.x * dx + h.y * dy) / norm);
  }
  static constexpr bool undefined_at_origin = false;
};

struct Atan2Rule {
  static constexpr OpId op = OpId::Atan2;
  static constexpr const char* name = "Atan2";
  // the box touches the cut {y = 0, x < 0} (its points there may be ±π)
  template <RealDomain D>
  static bool touches_cut(const D& x, const D& y) {
    return x.lower() < 0 && contains(y, 0.0);
  }
  template <RealDomain D>
  static D image(const PointBox<D>& p) {
    const double pi_up = directed(OpId::Atan2, 0.0, -1.0, Dir::Up);
    const D whole_turn = D::between(-pi_up, pi_up);
    if (p.has_origin()) return whole_turn;
    if (touches_cut(p.x, p.y)) {
      // the closed upper (lower) half-plane with zeros of one sign only: continuous
      const bool upper = p.y.lower() >= 0 && !p.y_neg_zero, lower = p.y.upper() <= 0 && !p.y_pos_zero;
      if (!upper && !lower) return whole_turn;
    }
    const double zero = p.y_neg_zero && !p.y_pos_zero ? -0.0 : 0.0;
    auto at = [&](double y) { return y == 0 ? zero : y; };
    double lo = INFINITY, hi = -INFINITY;
    for (const double x : {p.x.lower(), p.x.upper()})
      for (const double y : {at(p.y.lower()), at(p.y.upper())}) {
        lo = std::min(lo, directed(op, y, x, Dir::Down));
        hi = std::max(hi, directed(op, y, x, Dir::Up));
      }
    return D::between(lo, hi);
  }
  template <RealDomain D>
  static D difference(const PointBox<D>& a, const PointBox<D>& b, const D& dx, const D& dy) {
    if (!is_bounded(dx) || !is_bounded(dy)) return D::whole();
    const SegmentHull<D> h(a, b);
    if (!h.away_from_origin) return D::whole();
    if (touches_cut(h.x, h.y)) {
      // continuous on the closed upper half-plane when no zero y is −0 (reals
      // are +0); on the closed lower one when no zero y is +0 (every real y < 0)
      const bool upper = h.y.lower() >= 0 && !a.y_neg_zero && !b.y_neg_zero;
      const bool lower = h.y.upper() <= 0 && !a.y_pos_zero && !b.y_pos_zero;
      if (!upper && !lower) return D::whole();
    }
    // Cauchy–Schwarz: |ξx·ey − ξy·ex| <= |ξ|·|e|, so |Δ| <= |e| / min |ξ| (the
    // quotient's interval form loses the link between numerator and norm)
    const double min_norm = directed(OpId::Hypot, mig(h.x), mig(h.y), Dir::Down);
    const D slope = (h.x * dy - h.y * dx) / squared_norm(h);
    if (!(min_norm > 0)) return slope;
    return detail::meet(slope, detail::symmetric<D>(lin::up(directed(OpId::Hypot, mag(dx), mag(dy), Dir::Up) / min_norm)));
  }
  static constexpr bool undefined_at_origin = true;
};

// The operands' boxes as the rule sees them: the computed values (their zero
// signs from the flags), the real ones and pr (reals: a zero is +0).
template <RealDomain D>
PointBox<D> computed_box(const SymbolicDomainError<D>& x, const SymbolicDomainError<D>& y) {
  const bool zero = contains(y.fp, 0.0);
  return {x.fp, y.fp, zero && y.specials.may_be_pos_zero, zero && y.specials.may_be_neg_zero};
}
template <RealDomain D>
PointBox<D> real_box(const D& x, const D& y) {
  return {x, y, contains(y, 0.0), false};
}

// z = f(x, y) for a rule of this header (operands in the point's order x, y).
template <class Rule, RealDomain D>
SymbolicDomainError<D> binary_elementary(const SymbolicDomainError<D>& x0, const SymbolicDomainError<D>& y0,
                                         const AccuracyModel& model) {
  using S = SymbolicDomainError<D>;
  using detail::meet;
  [[maybe_unused]] const detail::FpGuardFor<D> guard;
  const detail::MachineOperands<D> m = detail::machine_operands<D>(Rule::name, {&x0, &y0});
  const S &x = m.values[0], &y = m.values[1];
  const std::int32_t origin = detail::merge_origin(x.origin, y.origin);
  const bool defined = x.specials.may_be_defined && y.specials.may_be_defined;
  if (!detail::plain_finite(x) || !detail::plain_finite(y)) {
    S z = detail::fma_any<D>(m.format, m.mode, defined, x.specials.may_be_undefined || y.specials.may_be_undefined);
    z.origin = origin;
    return z;
  }
  S z;
  z.format = m.format;
  z.mode = m.mode;
  SpecialStates& s = z.specials;
  s = SpecialStates{};
  s.may_be_finite = false;
  s.may_be_pos_zero = false;
  const PointBox<D> real = real_box(x.real, y.real);
  const PointBox<D> fp = computed_box(x, y);
  // the real value: undefined at the origin (atan2), defined elsewhere
  const bool real_origin = Rule::undefined_at_origin && real.has_origin();
  const bool only_origin = real_origin && is_point(x.real) && is_point(y.real);
  s.may_be_undefined = real_origin;
  s.may_be_defined = defined && !only_origin;
  z.real = only_origin ? D::whole() : Rule::image(real);
  const D image = Rule::image(fp);
  // the correctly rounded value of one point (round_image's point case)
  const bool point = is_point(x.fp) && is_point(y.fp);
  const double first = Rule::op == OpId::Atan2 ? y.fp.lower() : x.fp.lower();
  const double second = Rule::op == OpId::Atan2 ? x.fp.lower() : y.fp.lower();
  round_image(z, image, Rule::op, model, point ? D::point(first) : D::whole(), second);
  z.err = z.propagated = D::whole();
  if (s.may_be_finite) {
    const D rounding = z.introduced;
    const D direct = only_origin ? D::whole() : image - z.real;
    const D total = meet(direct, Rule::difference(fp, real, x.err, y.err));
    if (detail::is_zero_point(x.introduced) && detail::is_zero_point(y.introduced)) {
      z.propagated = total;  // pr = fp for both operands
      z.err = total + rounding;
    } else {
      const D prx = detail::actual_real(x), pry = detail::actual_real(y);
      const PointBox<D> pr = real_box(prx, pry);
      const bool pr_origin = Rule::undefined_at_origin && pr.has_origin();
      const D pr_image = Rule::image(pr);
      z.propagated = pr_origin || only_origin ? D::whole()
                                              : meet(pr_image - z.real, Rule::difference(pr, real, x.propagated, y.propagated));
      z.introduced = (pr_origin ? D::whole() : meet(image - pr_image, Rule::difference(fp, pr, x.introduced, y.introduced))) +
                     rounding;
      z.err = meet(total + rounding, z.propagated + z.introduced);
    }
    if (contains(z.fp, 0.0)) {
      if (Rule::op == OpId::Hypot) {
        s.may_be_pos_zero = true;
      } else {  // the sign of y
        s.may_be_pos_zero = y.fp.upper() > 0 || fp.y_pos_zero;
        s.may_be_neg_zero = y.fp.lower() < 0 || fp.y_neg_zero;
      }
    }
  }
  z.rel_err = D::whole();
  z.reduce();
  z.origin = origin;
  z.source = symerr::detail::number_result(z, symerr::detail::kRecipeElementary + static_cast<std::uint32_t>(Rule::op), x,
                                           &y, 0, model.kind_key(), symerr::detail::recipe_bits(model.ulps_key()));
  return z;
}

}  // namespace elementary

/// √(x² + y²) without intermediate overflow (C hypot): the propagated error by
/// the mean value form met with hypot(fp) − hypot(real), the introduced error
/// bounded by `model`; an operand that may be infinite, NaN or undefined makes
/// every special result possible.
/// @throws std::invalid_argument when `model` has no entry for the function and format.
template <RealDomain D>
SymbolicDomainError<D> hypot(const SymbolicDomainError<D>& x, const SymbolicDomainError<D>& y,
                             const AccuracyModel& model = current_accuracy_model()) {
  return elementary::binary_elementary<elementary::HypotRule>(x, y, model);
}

/// The angle of the point (x, y), operands in C's order (y first): the
/// propagated error by the mean value form where atan2 is continuous on the
/// operands' hull (off the origin and the branch cut), else the difference of
/// the enclosures; the introduced error bounded by `model`; the real
/// atan2(0, 0) is undefined (flagged).
/// @throws std::invalid_argument when `model` has no entry for the function and format.
template <RealDomain D>
SymbolicDomainError<D> atan2(const SymbolicDomainError<D>& y, const SymbolicDomainError<D>& x,
                             const AccuracyModel& model = current_accuracy_model()) {
  return elementary::binary_elementary<elementary::Atan2Rule>(x, y, model);
}

// A number next to a symbolic value: an exact real constant, rounded into
// the symbolic operand's format (hypot(x, 1.0), atan2(1.0, x)).
#define SYMERR_BINARY_ELEMENTARY_MIXED(name)                                                                   \
  template <class A, class B>                                                                                  \
    requires((detail::is_symbolic_type<A> || detail::is_symbolic_type<B>) &&                                   \
             !(detail::is_symbolic_type<A> && detail::is_symbolic_type<B>) &&                                  \
             (detail::is_symbolic_type<A> || DropInNumber<A>) && (detail::is_symbolic_type<B> || DropInNumber<B>)) \
  auto name(const A& a, const B& b) {                                                                          \
    using S = std::conditional_t<detail::is_symbolic_type<A>, A, B>;                                           \
    return name(detail::as_symbolic<S>(a), detail::as_symbolic<S>(b));                                         \
  }
///@{
/// hypot and atan2 with one number operand: an exact real constant, rounded into the
/// symbolic operand's format (hypot(x, 1.0), atan2(1.0, x)).
SYMERR_BINARY_ELEMENTARY_MIXED(hypot)
SYMERR_BINARY_ELEMENTARY_MIXED(atan2)
///@}
#undef SYMERR_BINARY_ELEMENTARY_MIXED

}  // namespace symerr
