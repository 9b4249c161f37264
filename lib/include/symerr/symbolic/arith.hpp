// Arithmetic on SymbolicDomainError. For z = x ∘ y in format F and mode ρ:
//   real_z = real_x ∘ real_y,   t = fp_x ∘ fp_y,   fp_z = round_F,ρ(t),
//   err_z = fp_z − real_z by the exact identities on the operands' errors e
//     add: e_x + e_y      sub: e_x − e_y
//     mul: real_x·e_y + e_x·fp_y  (= real_y·e_x + e_y·fp_x)
//     div: (e_x − real_z·e_y) / fp_y  (= (e_x·real_y − real_x·e_y) / (real_y·fp_y))
//   plus the rounding round(t) − t (detail::introduced_float / wrap_integers).
//
// Whole-kernel split: with pr = real + propagated the real computation on the
// actual (erroneous) inputs, every value carries
//   propagated = pr − real   (K_real(x + e) − K_real(x)),
//   introduced = fp − pr     (K_fp(x + e) − K_real(x + e)),
// over the whole computation that produced it (input(): propagated = the
// input error, introduced = 0; literal(): introduced = its rounding). They
// follow the identities of err with err → propagated and fp → pr:
//     propagated_z: add p_x + p_y; mul real_x·p_y + p_x·pr_y;
//                   div (p_x − real_z·p_y) / pr_y
//     introduced_z = (t − pr_z) + (round(t) − t), t − pr_z by the same
//                   identities on the introduced parts with pr as the exact
//                   base: add i_x + i_y; mul pr_x·i_y + i_x·fp_y;
//                   div (i_x − pr_z·i_y) / fp_y
// and err ⊆ propagated + introduced is intersected in. For operands fresh
// from input() (introduced = 0) they are the last operation's split.
// Every identity is exact, so intersecting several of them (and the direct
// differences) is sound and only tightens.
//
// Operand formats: two machine formats must agree (mixed precision goes
// through convert()). A real-format operand (std::monostate, e.g.
// constant(0.1)) combined with a machine format F is first converted into F
// — rounded in the other operand's mode as literal() rounds its value (into an
// integer format: to nearest, ties to even, then wrapped) — and its rounding
// error becomes that operand's introduced error; the operation then runs on
// two values of F. Exactly representable constants (0, 1, 0.5, 2) stay exact.
//
// Floating-point environment: arithmetic() sets round-to-nearest, no FTZ/DAZ
// and masked traps for its duration (FpEnvironmentGuard; the Interval path
// clears FTZ/DAZ in the same MXCSR write that sets its upward scope).
#pragma once

#include <symerr/symbolic/detail.hpp>

namespace symerr {

enum class ArithOp { Add, Sub, Mul, Div };

class Interval;  // <symerr/domains/interval.hpp>

namespace detail {
// arithmetic() over Interval with the whole operation in one upward-rounding
// scope instead of one mode save/set/restore per interval operation. Declared
// here for every D; defined (explicitly instantiated for Interval only) in
// domains/src/interval_batch.cpp, compiled with -frounding-math. Results are
// identical to the generic path.
template <RealDomain D>
SymbolicDomainError<D> arithmetic_one_scope(ArithOp op, const SymbolicDomainError<D>& x,
                                            const SymbolicDomainError<D>& y,
                                            std::optional<IntegerDivision> int_division);
}  // namespace detail

namespace detail {

// The origin (lane) of a result: see SymbolicDomainError::origin.
constexpr std::int32_t merge_origin(std::int32_t a, std::int32_t b) noexcept {
  if (a == -1) return b;
  if (b == -1 || a == b) return a;
  return -2;
}

inline const char* op_name(ArithOp op) {
  switch (op) {
    case ArithOp::Add: return "Add";
    case ArithOp::Sub: return "Sub";
    case ArithOp::Mul: return "Mul";
    case ArithOp::Div: return "Div";
  }
  return "?";
}

// The format of a result: a real (exact) operand adopts the other's format;
// two machine formats must agree (mixed precision goes through convert()).
inline Format result_format(const Format& a, const Format& b, ArithOp op) {
  if (std::holds_alternative<std::monostate>(a)) return b;
  if (std::holds_alternative<std::monostate>(b)) return a;
  if (a != b)
    throw std::invalid_argument(std::string(op_name(op)) + ": operands have different formats " +
                                format_name(a) + " and " + format_name(b) +
                                " (convert one explicitly)");
  return a;
}

// IEEE 754 results of the special operand categories (those not produced by
// the finite × finite path): NaN, ±inf, and zeros (finite / inf).
inline CategorySet special_results(ArithOp op, CategorySet cx, CategorySet cy) {
  CategorySet r = 0;
  if ((cx | cy) & kNaN) r |= kNaN;
  auto has = [](CategorySet c, CategorySet m) { return (c & m) != 0; };
  const bool x_inf = has(cx, kAnyInf), y_inf = has(cy, kAnyInf);
  if (op == ArithOp::Sub) {  // x − y = x + (−y)
    CategorySet ny = cy & kNaN;
    if (cy & kPosInf) ny |= kNegInf;
    if (cy & kNegInf) ny |= kPosInf;
    if (cy & kPosFinite) ny |= kNegFinite;
    if (cy & kNegFinite) ny |= kPosFinite;
    if (cy & kPosZero) ny |= kNegZero;
    if (cy & kNegZero) ny |= kPosZero;
    return special_results(ArithOp::Add, cx, ny);
  }
  switch (op) {
    case ArithOp::Add:
      if ((has(cx, kPosInf) && has(cy, kNegInf)) || (has(cx, kNegInf) && has(cy, kPosInf))) r |= kNaN;
      if ((has(cx, kPosInf) && has(cy, kFinite | kPosInf)) || (has(cy, kPosInf) && has(cx, kFinite | kPosInf)))
        r |= kPosInf;
      if ((has(cx, kNegInf) && has(cy, kFinite | kNegInf)) || (has(cy, kNegInf) && has(cx, kFinite | kNegInf)))
        r |= kNegInf;
      break;
    case ArithOp::Mul:
    case ArithOp::Div: {
      const bool div = op == ArithOp::Div;
      if ((x_inf && has(cy, kAnyZero)) || (y_inf && has(cx, kAnyZero) && !div)) r |= kNaN;
      if (div && x_inf && y_inf) r |= kNaN;
      if (div && has(cx, kAnyZero) && has(cy, kAnyZero)) r |= kNaN;
      // infinite results: sign = xor of the operand signs
      auto inf_from = [&](CategorySet a, CategorySet b) {
        if (has(a, kPosInf) && has(b, kPositive)) r |= kPosInf;
        if (has(a, kPosInf) && has(b, kNegative)) r |= kNegInf;
        if (has(a, kNegInf) && has(b, kPositive)) r |= kNegInf;
        if (has(a, kNegInf) && has(b, kNegative)) r |= kPosInf;
      };
      if (!div) {
        inf_from(cx, cy & ~kAnyZero & ~kNaN);
        inf_from(cy, cx & ~kAnyZero & ~kNaN);
      } else {
        inf_from(cx, cy & (kFinite) & ~kNaN);  // inf / finite (zero included)
        // nonzero finite / ±0 = ±inf
        const CategorySet xn = cx & kNonZeroFinite;
        if (has(xn, kPosFinite) && has(cy, kPosZero)) r |= kPosInf;
        if (has(xn, kPosFinite) && has(cy, kNegZero)) r |= kNegInf;
        if (has(xn, kNegFinite) && has(cy, kPosZero)) r |= kNegInf;
        if (has(xn, kNegFinite) && has(cy, kNegZero)) r |= kPosInf;
        // finite / inf = ±0
        if (has(cx, kFinite) && y_inf) {
          if ((has(cx, kPositive & kFinite) && has(cy, kPosInf)) || (has(cx, kNegative & kFinite) && has(cy, kNegInf)))
            r |= kPosZero;
          if ((has(cx, kPositive & kFinite) && has(cy, kNegInf)) || (has(cx, kNegative & kFinite) && has(cy, kPosInf)))
            r |= kNegZero;
        }
      }
      break;
    }
    default: break;
  }
  return r;
}

// The nonzero part of a divisor enclosure, excluding (−gap, gap): nonzero
// values of a float format are at least min subnormal in magnitude, nonzero
// integers at least 1; reals have no gap. nullopt if the divisor is only 0.
template <RealDomain D>
std::optional<D> nonzero_part(const D& y, double gap) {
  const bool neg = y.lower() < 0, pos = y.upper() > 0;
  if (!neg && !pos) return std::nullopt;
  if (!contains(y, 0.0)) return y;
  if (gap <= 0) return y;  // the domain's division returns whole() for it
  std::optional<D> r;
  if (neg && y.lower() <= -gap) r = D::between(y.lower(), -gap);
  if (pos && y.upper() >= gap) {
    const D p = D::between(gap, y.upper());
    r = r ? hull(*r, p) : p;
  }
  return r;
}

template <RealDomain D>
D apply(ArithOp op, const D& a, const D& b) {
  switch (op) {
    case ArithOp::Add: return a + b;
    case ArithOp::Sub: return a - b;
    case ArithOp::Mul: return a * b;
    case ArithOp::Div: return a / b;
  }
  return D::whole();
}

// Quotient of enclosures whose divisor straddles the gap: the hull of the two
// one-signed quotients, so the result stays bounded.
template <RealDomain D>
D divide_split(const D& x, const D& y, double gap) {
  if (!contains(y, 0.0) || gap <= 0) return x / y;
  D r = D::point(0);
  bool any = false;
  if (y.lower() <= -gap) { r = x / D::between(y.lower(), -gap); any = true; }
  if (y.upper() >= gap) {
    const D q = x / D::between(gap, y.upper());
    r = any ? hull(r, q) : q;
    any = true;
  }
  return any ? r : D::whole();
}

template <RealDomain D>
D integer_quotient(const D& t, IntegerDivision mode) {
  // floor and trunc are monotone, so Q ⊆ [q(inf T), q(sup T)].
  auto q = [&](double v) { return mode == IntegerDivision::Floor ? std::floor(v) : std::trunc(v); };
  return D::between(q(t.lower()), q(t.upper()));
}

template <RealDomain D>
D quotient_rounding_error(const D& t, IntegerDivision mode, const D& divisor) {
  // q − t ∈ (−1, 0] for floor; for truncation its sign is opposite to t's.
  // With integer a, b: t − floor(t) = (a mod b)/|b| is a multiple of 1/|b|,
  // so |q − t| <= 1 − 1/|b| <= 1 − 1/B for B >= max |b| (upper end rounded up).
  const double m = (D::point(1) - D::point(1) / D::point(std::max(1.0, mag(divisor)))).upper();
  if (mode == IntegerDivision::Floor || t.lower() >= 0) return D::between(-m, 0);
  if (t.upper() <= 0) return D::between(0, m);
  return D::between(-m, m);
}

}  // namespace detail

namespace detail {

// pr: the real computation on the actual inputs, pr = real + propagated =
// fp − introduced (the whole-kernel split; see the header comment).
template <RealDomain D>
D actual_real(const SymbolicDomainError<D>& x) {
  return meet(x.real + x.propagated, x.fp - x.introduced);
}

// a = {0} exactly (lower() and upper() are outward doubles: a tiny rational
// point has lower() == 0 but upper() > 0).
template <RealDomain D>
bool is_zero_point(const D& a) {
  return a.lower() == 0 && a.upper() == 0;
}

// The whole-kernel split of z = x ∘ y before the rounding of t = fp_x ∘ fp_y:
// propagated_z = pr_z − real_z and t − pr_z, each by its exact identities
// (intersected with the direct differences).
template <RealDomain D>
struct SplitParts {
  D propagated;
  D unrounded_introduced;  // t − pr_z
};

template <RealDomain D>
SplitParts<D> split_parts(ArithOp op, const SymbolicDomainError<D>& x, const SymbolicDomainError<D>& y,
                          const D& real_z, const D& t, const D& y_fp_nonzero) {
  const D prx = actual_real(x), pry = actual_real(y);
  const D &px = x.propagated, &py = y.propagated, &ix = x.introduced, &iy = y.introduced;
  const D pr_z = apply(op, prx, pry);  // Div: whole() if pr_y may be 0
  D prop = pr_z - real_z, intro = t - pr_z;
  switch (op) {
    case ArithOp::Add: prop = meet(prop, px + py); intro = meet(intro, ix + iy); break;
    case ArithOp::Sub: prop = meet(prop, px - py); intro = meet(intro, ix - iy); break;
    case ArithOp::Mul:
      prop = meet(prop, x.real * py + px * pry);
      prop = meet(prop, y.real * px + py * prx);
      intro = meet(intro, prx * iy + ix * y.fp);
      intro = meet(intro, pry * ix + iy * x.fp);
      break;
    case ArithOp::Div:
      if (!contains(pry, 0.0)) {
        if (certainly(cmp_ne(y.real, D::point(0)))) {
          prop = meet(prop, (px - real_z * py) / pry);
          if constexpr (requires { requires D::keeps_correlations; })  // as in propagated_total_error
            prop = meet(prop, px / pry - (real_z / pry) * py);
        }
        if (!contains(y_fp_nonzero, 0.0)) {
          intro = meet(intro, (ix - pr_z * iy) / y_fp_nonzero);
          if constexpr (requires { requires D::keeps_correlations; })
            intro = meet(intro, ix / y_fp_nonzero - (pr_z / y_fp_nonzero) * iy);
        }
      }
      break;
  }
  return {prop, intro};
}

// err_z − (round(t) − t) = fp_x ∘ fp_y − real_x ∘ real_y by the exact
// identities on err (the operands' total errors).
template <RealDomain D>
D propagated_total_error(ArithOp op, const SymbolicDomainError<D>& x, const SymbolicDomainError<D>& y,
                         const D& real_z, const D& t, const D& y_fp_nonzero) {
  D prop = t - real_z;
  switch (op) {
    case ArithOp::Add: prop = meet(prop, x.err + y.err); break;
    case ArithOp::Sub: prop = meet(prop, x.err - y.err); break;
    case ArithOp::Mul:
      prop = meet(prop, x.real * y.err + x.err * y.fp);
      prop = meet(prop, y.real * x.err + y.err * x.fp);
      break;
    case ArithOp::Div:
      // Only the form (e_x − real_z·e_y) / fp_y is evaluated: it is the
      // other form with real_y cancelled (real_z = real_x / real_y), so in
      // interval arithmetic it is never wider than (e_x·real_y −
      // real_x·e_y) / (real_y·fp_y), whose intersection did not tighten a
      // single one of 2·10^6 random boxes (signs, widths and error sizes
      // over 12 decades) and cost a third of the division.
      if (certainly(cmp_ne(y.real, D::point(0))) && !contains(y_fp_nonzero, 0.0)) {
        prop = meet(prop, (x.err - real_z * y.err) / y_fp_nonzero);
        // A domain keeping correlations (Affine) also evaluates the same
        // identity with real_z / fp_y formed first: their correlation
        // survives (in interval arithmetic this order is never tighter).
        if constexpr (requires { requires D::keeps_correlations; })
          prop = meet(prop, x.err / y_fp_nonzero - (real_z / y_fp_nonzero) * y.err);
      }
      break;
  }
  return prop;
}

// round(t) in a float format, t enclosing fp_x ∘ fp_y of two values of F:
// sets fp, the finite / overflow flags and returns round(t) − t.
template <RealDomain D>
D round_float_result(ArithOp op, const SymbolicDomainError<D>& x, const SymbolicDomainError<D>& y,
                     D& t, const FloatFormat& F, SymbolicDomainError<D>& z) {
  SpecialStates& s = z.specials;
  if (is_point(x.fp) && is_point(y.fp)) {
    // Point operands: the machine result is computed exactly (GMP), so fp is
    // the rounded point and the introduced error is exact.
    const mpq_class qx = exact_value(x.fp.lower()), qy = exact_value(y.fp.lower());
    mpq_class tq;
    switch (op) {
      case ArithOp::Add: tq = qx + qy; break;
      case ArithOp::Sub: tq = qx - qy; break;
      case ArithOp::Mul: tq = qx * qy; break;
      case ArithOp::Div: tq = qx / qy; break;  // y_nonzero exists: qy != 0
    }
    const Rounded r = round_to(tq, F, z.mode);
    s.may_overflow = r.overflow;
    t = D::from_rational(tq);
    if (std::isnan(r.value)) {
      s.may_be_nan = true;
      z.fp = D::whole();
      return D::whole();
    }
    if (std::isinf(r.value)) {
      (r.value > 0 ? s.may_be_pos_inf : s.may_be_neg_inf) = true;
      z.fp = D::whole();
      return D::whole();
    }
    s.may_be_finite = true;
    z.fp = D::point(r.value);
    return D::from_rational(exact_value(r.value) - tq);
  }
  const auto r = round_enclosure(t, F, z.mode);
  s.may_be_finite = r.may_be_finite;
  s.may_be_pos_inf = s.may_be_pos_inf || r.may_be_pos_inf;
  s.may_be_neg_inf = s.may_be_neg_inf || r.may_be_neg_inf;
  s.may_be_nan = s.may_be_nan || r.may_be_nan;
  s.may_overflow = r.may_overflow;
  z.fp = r.fp;
  bool exact = false;
  if (op == ArithOp::Add || op == ArithOp::Sub) exact = sum_is_exact(x.fp, y.fp, t, F);
  if (op == ArithOp::Mul)
    exact = ((power_of_two_point(x.fp) || power_of_two_point(y.fp)) && scaling_is_exact(t, F)) ||
            upscaling_is_exact(x.fp, y.fp, t, F);
  if (op == ArithOp::Div) exact = power_of_two_point(y.fp) && scaling_is_exact(t, F);
  if (exact) {
    z.fp = meet(z.fp, t);
    return D::point(0);
  }
  D rounding = introduced_float(t, z.fp, F, z.mode);
  // Nearest rounding is at least as close as any value of F: x and y are
  // values of F at distance |y| and |x| from x ± y, so |δ| <= min(|x|, |y|).
  if (z.mode == RoundingMode::NearestEven && (op == ArithOp::Add || op == ArithOp::Sub))
    rounding = meet(rounding, symmetric<D>(std::min(mag(x.fp), mag(y.fp))));
  return rounding;
}

// The integer result q (quotient, then wrap) of t = fp_x ∘ fp_y: sets fp and
// returns q − t. 64-bit values are exact: point operands through GMP, and the
// wrap's shift k·2^n in GMP (never a double bound).
template <RealDomain D>
D integer_result(ArithOp op, const SymbolicDomainError<D>& x, const SymbolicDomainError<D>& y, D& t,
                 const IntFormat& I, IntegerDivision int_division, SymbolicDomainError<D>& z) {
  z.specials.may_be_finite = true;
  if (is_point(x.fp) && is_point(y.fp) && x.fp.lower() == x.fp.upper() && y.fp.lower() == y.fp.upper()) {
    const mpz_class a(x.fp.lower()), b(y.fp.lower());  // integer-valued doubles: exact
    mpq_class tq;
    mpz_class q;
    switch (op) {
      case ArithOp::Add: q = a + b; tq = q; break;
      case ArithOp::Sub: q = a - b; tq = q; break;
      case ArithOp::Mul: q = a * b; tq = q; break;
      case ArithOp::Div:  // b != 0: the divisor's nonzero part exists
        tq = mpq_class(a, b);
        tq.canonicalize();
        if (int_division == IntegerDivision::Floor) mpz_fdiv_q(q.get_mpz_t(), a.get_mpz_t(), b.get_mpz_t());
        else mpz_tdiv_q(q.get_mpz_t(), a.get_mpz_t(), b.get_mpz_t());
        break;
    }
    const mpz_class w = wrap_exact(q, I);
    t = D::from_rational(tq);
    z.fp = D::from_rational(mpq_class(w));
    return D::from_rational(mpq_class(w) - tq);
  }
  D q = t;
  D intro = D::point(0);
  if (op == ArithOp::Div) {
    q = integer_quotient(t, int_division);
    intro = meet(q - t, quotient_rounding_error(t, int_division, y.fp));
  }
  const auto w = wrap_integers(q, I);
  z.fp = w.fp;
  return intro + w.introduced;
}

// IEEE 754 §6.3 signs of a zero result of z = x ∘ y in a float format.
template <RealDomain D>
void zero_signs(ArithOp op, CategorySet cx, CategorySet cy, CategorySet special, const D& t,
                const FloatFormat& F, SymbolicDomainError<D>& z) {
  SpecialStates& s = z.specials;
  if (op == ArithOp::Mul || op == ArithOp::Div) {
    const bool xn = cx & kNegative, xp = cx & kPositive, yn = cy & kNegative, yp = cy & kPositive;
    s.may_be_pos_zero = (xp && yp) || (xn && yn);
    s.may_be_neg_zero = (xp && yn) || (xn && yp);
    if (special & kPosZero) s.may_be_pos_zero = true;
    if (special & kNegZero) s.may_be_neg_zero = true;
    return;
  }
  // With subnormals, Add/Sub results below the normal range are exact, so a
  // zero result is an exact cancellation of nonzero values — +0, −0 in
  // roundTowardNegative — or a sum of zeros: (+0) + (+0) = +0,
  // (−0) + (−0) = −0, mixed zeros as a cancellation. Without subnormals a
  // nonzero t below 2^emin may also round to the zero of its own sign.
  const CategorySet ny = op == ArithOp::Sub ? ((cy & kPosZero) ? kNegZero : 0) | ((cy & kNegZero) ? kPosZero : 0)
                                            : (cy & kAnyZero);
  const bool down = z.mode == RoundingMode::Downward;
  const bool cancel = (cx & kNonZeroFinite) && (cy & kNonZeroFinite);
  const bool mixed = ((cx & kPosZero) && (ny & kNegZero)) || ((cx & kNegZero) && (ny & kPosZero));
  s.may_be_pos_zero = ((cancel || mixed) && !down) || ((cx & kPosZero) && (ny & kPosZero));
  s.may_be_neg_zero = ((cancel || mixed) && down) || ((cx & kNegZero) && (ny & kNegZero));
  if (!F.subnormals && t.upper() > 0) s.may_be_pos_zero = true;
  if (!F.subnormals && t.lower() < 0) s.may_be_neg_zero = true;
}

// Formats without infinities: an IEEE infinite result becomes NaN or ±max.
template <RealDomain D>
void replace_infinities(const FloatFormat& F, SymbolicDomainError<D>& z) {
  SpecialStates& s = z.specials;
  if (F.has_infinities() || !(s.may_be_pos_inf || s.may_be_neg_inf)) return;
  if (F.overflow == Overflow::NaN) {
    s.may_be_nan = true;
  } else {
    const double max = max_finite(F);
    D sat = D::between(s.may_be_neg_inf ? -max : max, s.may_be_pos_inf ? max : -max);
    z.fp = s.may_be_finite ? hull(z.fp, sat) : sat;
    s.may_be_finite = true;
    z.err = z.propagated = z.introduced = D::whole();
  }
  s.may_be_pos_inf = s.may_be_neg_inf = false;
}

// err, propagated and introduced of z = x ∘ y from t = fp_x ∘ fp_y and its
// rounding round(t) − t.
template <RealDomain D>
void set_error_split(ArithOp op, const SymbolicDomainError<D>& x, const SymbolicDomainError<D>& y, const D& t,
                     const D& y_fp_nonzero, const D& rounding, SymbolicDomainError<D>& z) {
  const D total = propagated_total_error(op, x, y, z.real, t, y_fp_nonzero);
  if (is_zero_point(x.introduced) && is_zero_point(y.introduced)) {
    // Operands with introduced = {0} have pr = fp in every execution, so
    // pr_z = t: propagated = t − real_z (`total`), introduced = the rounding.
    z.propagated = total;
    z.introduced = rounding;
    z.err = total + rounding;
    return;
  }
  const SplitParts<D> parts = split_parts(op, x, y, z.real, t, y_fp_nonzero);
  z.propagated = parts.propagated;
  z.introduced = parts.unrounded_introduced + rounding;
  z.err = meet(total + rounding, z.propagated + z.introduced);
}

// The result's format, mode and division semantics (checked), and the real
// value with its definedness flags.
template <RealDomain D>
std::optional<IntegerDivision> set_format_and_real(ArithOp op, const SymbolicDomainError<D>& x,
                                                   const SymbolicDomainError<D>& y,
                                                   std::optional<IntegerDivision> int_division,
                                                   SymbolicDomainError<D>& z) {
  z.format = result_format(x.format, y.format, op);
  if (!x.is_real() && !y.is_real() && x.mode != y.mode)
    throw std::invalid_argument(std::string(op_name(op)) + ": operands have different rounding modes " +
                                to_string(x.mode) + " and " + to_string(y.mode));
  z.mode = x.is_real() ? y.mode : x.mode;
  z.int_division = x.int_division ? x.int_division : y.int_division;
  if (std::holds_alternative<IntFormat>(z.format) && op == ArithOp::Div) {
    if (!int_division) int_division = z.int_division;
    if (!int_division)
      throw std::logic_error("Div on " + format_name(z.format) +
                             ": integer division semantics not chosen (use divide(a, b, "
                             "IntegerDivision::Floor|Truncate) or with_int_division())");
  }
  SpecialStates& s = z.specials;
  s = SpecialStates{};
  s.may_be_finite = false;
  s.may_be_pos_zero = false;
  s.may_be_defined = x.specials.may_be_defined && y.specials.may_be_defined;
  s.may_be_undefined = x.specials.may_be_undefined || y.specials.may_be_undefined;
  if (op == ArithOp::Div) {
    if (cmp_eq(y.real, D::point(0)) == Tri::True) s.may_be_defined = false;
    if (contains(y.real, 0.0)) s.may_be_undefined = true;
  }
  z.real = apply(op, x.real, y.real);
  return int_division;
}

template <RealDomain D>
SymbolicDomainError<D> arithmetic_same_format(ArithOp op, const SymbolicDomainError<D>& x,
                                              const SymbolicDomainError<D>& y,
                                              std::optional<IntegerDivision> int_division);

// z = x ∘ y: a real-format operand combined with a machine-format one is
// first converted into that format (rounded in the other operand's mode,
// like literal(); its rounding error becomes its introduced error).
template <RealDomain D>
SymbolicDomainError<D> arithmetic_impl(ArithOp op, const SymbolicDomainError<D>& x,
                                       const SymbolicDomainError<D>& y,
                                       std::optional<IntegerDivision> int_division) {
  if (x.is_real() && !y.is_real()) return arithmetic_same_format(op, convert(x, y.format, y.mode), y, int_division);
  if (y.is_real() && !x.is_real()) return arithmetic_same_format(op, x, convert(y, x.format, x.mode), int_division);
  return arithmetic_same_format(op, x, y, int_division);
}

template <RealDomain D>
SymbolicDomainError<D> arithmetic_same_format(ArithOp op, const SymbolicDomainError<D>& x,
                                              const SymbolicDomainError<D>& y,
                                              std::optional<IntegerDivision> int_division) {
  SymbolicDomainError<D> z;
  int_division = set_format_and_real(op, x, y, int_division, z);
  const FloatFormat* F = std::get_if<FloatFormat>(&z.format);
  const IntFormat* I = std::get_if<IntFormat>(&z.format);
  SpecialStates& s = z.specials;

  // ---- special categories of the computed value
  const CategorySet cx = x.categories(), cy = y.categories();
  const CategorySet special = special_results(op, cx, cy);
  s.may_be_nan = (special & kNaN) != 0;
  s.may_be_pos_inf = (special & kPosInf) != 0;
  s.may_be_neg_inf = (special & kNegInf) != 0;

  // ---- the finite path: t = fp_x ∘ fp_y for finite operands
  const double gap = F ? min_subnormal(*F) : (I ? 1.0 : 0.0);
  std::optional<D> y_nonzero = y.fp;
  if (op == ArithOp::Div) y_nonzero = nonzero_part(y.fp, gap);
  const bool finite_path = x.specials.may_be_finite && y.specials.may_be_finite && y_nonzero.has_value();
  if (I && op == ArithOp::Div && y.specials.may_be_finite && contains(y.fp, 0.0))
    s.may_be_undefined = true;  // integer x / 0: undefined in the computed semantics too

  D t = D::whole();
  if (finite_path) {
    t = op == ArithOp::Div ? divide_split(x.fp, *y_nonzero, gap) : apply(op, x.fp, y.fp);
    D rounding = D::point(0);  // round(t) − t
    if (F) {
      rounding = round_float_result(op, x, y, t, *F, z);
    } else if (I) {
      rounding = integer_result(op, x, y, t, *I, *int_division, z);
    } else {
      s.may_be_finite = true;
      z.fp = t;
    }
    set_error_split(op, x, y, t, *y_nonzero, rounding, z);
  } else {
    z.fp = z.err = z.propagated = z.introduced = D::whole();
  }

  // finite / ±inf = ±0: a finite result from a non-finite operand, whose error
  // against the real value is unbounded.
  if (special & kAnyZero) {
    z.fp = s.may_be_finite ? hull(z.fp, D::point(0)) : D::point(0);
    s.may_be_finite = true;
    z.err = z.propagated = z.introduced = D::whole();
  }
  if (F) replace_infinities(*F, z);

  // ---- signs of a zero result
  if (s.may_be_finite && contains(z.fp, 0.0)) {
    if (F) zero_signs(op, cx, cy, special, t, *F, z);
    else s.may_be_pos_zero = true;
  }

  z.rel_err = D::whole();
  z.reduce();
  z.origin = detail::merge_origin(x.origin, y.origin);
  return z;
}

}  // namespace detail

// ---- domain fast paths (hook for work/iaff; work/i10l provides the same trait)
// A domain with its own implementation of arithmetic() specialises this with
// enabled = true and a static apply(op, x, y, int_division) (Affine:
// <symerr/domains/affine.hpp>).
template <class D>
struct FastArithmetic {
  static constexpr bool enabled = false;
};
// ---- end of the fast-path hook

// z = x ∘ y. `int_division` is required for an integer Div. Holds the
// library's floating-point environment (FpEnvironmentGuard) for its duration.
template <RealDomain D>
SymbolicDomainError<D> arithmetic(ArithOp op, const SymbolicDomainError<D>& x,
                                  const SymbolicDomainError<D>& y,
                                  std::optional<IntegerDivision> int_division = std::nullopt) {
  if constexpr (FastArithmetic<D>::enabled) return FastArithmetic<D>::apply(op, x, y, int_division);  // hook
  SymbolicDomainError<D> z;
  if constexpr (std::is_same_v<D, Interval>) {
    z = detail::arithmetic_one_scope(op, x, y, int_division);
  } else {
    [[maybe_unused]] const detail::FpGuardFor<D> guard;
    z = detail::arithmetic_impl(op, x, y, int_division);
  }
  z.origin = detail::merge_origin(x.origin, y.origin);
  return z;
}

template <RealDomain D>
SymbolicDomainError<D> operator+(const SymbolicDomainError<D>& x, const SymbolicDomainError<D>& y) {
  return arithmetic(ArithOp::Add, x, y);
}
template <RealDomain D>
SymbolicDomainError<D> operator-(const SymbolicDomainError<D>& x, const SymbolicDomainError<D>& y) {
  return arithmetic(ArithOp::Sub, x, y);
}
template <RealDomain D>
SymbolicDomainError<D> operator*(const SymbolicDomainError<D>& x, const SymbolicDomainError<D>& y) {
  return arithmetic(ArithOp::Mul, x, y);
}
template <RealDomain D>
SymbolicDomainError<D> operator/(const SymbolicDomainError<D>& x, const SymbolicDomainError<D>& y) {
  return arithmetic(ArithOp::Div, x, y);
}
// The ADL extension point of the generic Div operator (<symerr/ops/div.hpp>).
template <RealDomain D>
SymbolicDomainError<D> divide(const SymbolicDomainError<D>& x, const SymbolicDomainError<D>& y,
                              IntegerDivision mode) {
  return arithmetic(ArithOp::Div, x, y, mode);
}

}  // namespace symerr

#include <symerr/symbolic/unary.hpp>
