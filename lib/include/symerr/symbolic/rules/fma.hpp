// Fma: z = fma(x, y, w) = round(x·y + w) with ONE rounding (IEEE 754
// fusedMultiplyAdd, C99 fma/fmaf/fmal), in format F and mode ρ:
//   real_z = real_x·real_y + real_w,   t = fp_x·fp_y + fp_w,   fp_z = round(t).
//
// Error identity (exact; e = fp − real): the product's identity (mul.hpp),
// both forms evaluated and intersected, plus the addend's error:
//   err_z = real_x·e_y + e_x·fp_y + e_w + (round(t) − t)
//         = real_y·e_x + e_y·fp_x + e_w + (round(t) − t)
// the same on the split (pr = real + propagated):
//   propagated_z = real_x·p_y + p_x·pr_y + p_w,
//   introduced_z = pr_x·i_y + i_x·fp_y + i_w + (round(t) − t),
// each met with its direct difference (t − real_z, pr_z − real_z, t − pr_z).
//
// Operands: the machine formats must agree (and the modes); a real-format
// operand (a literal, `fma(a, b, 1.0)`) is rounded into F first, its rounding
// its introduced error, as for the binary operators. Integer formats are
// refused (C's fma is defined on floating types only).
//
// Special values: an operand that may be NaN, ±inf or undefined makes every
// special result possible (every flag set, every enclosure unbounded): sound,
// not tight (IEEE 754 §7.2's invalid cases, 0·inf + w and inf − inf, are not
// told apart). A zero result may have either sign (an exact zero is +0 in
// every mode but roundTowardNegative; a nonzero t below half the smallest
// subnormal rounds to the zero of its own sign). No exactness case is used
// (the rounding bound is the mode's, intersected with fp − t).
// This file completes SymbolicDomainError, and <symerr/symbolic.hpp> includes
// it after the class: included on its own, it includes symbolic.hpp, which
// includes it at its place (hence a guard, not #pragma once).
#include <symerr/symbolic.hpp>
#ifndef SYMERR_SYMBOLIC_RULES_FMA_HPP_INCLUDED
#define SYMERR_SYMBOLIC_RULES_FMA_HPP_INCLUDED

#include <initializer_list>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace symerr {

namespace detail {

template <class T>
inline constexpr bool is_symbolic_type = false;
template <RealDomain D>
inline constexpr bool is_symbolic_type<SymbolicDomainError<D>> = true;

// Every execution possible: the result of an operand that may be special.
template <RealDomain D>
SymbolicDomainError<D> fma_any(const Format& format, RoundingMode mode, bool defined, bool undefined) {
  SymbolicDomainError<D> z = SymbolicDomainError<D>::undef(format);
  z.mode = mode;
  z.specials.may_be_defined = defined;
  z.specials.may_be_undefined = undefined;
  z.specials.may_overflow = true;
  return z;
}

// The common machine format and mode of the operands of a floating-point
// function `op` (fma, fmod): the machine formats must agree, and the modes;
// integer formats are refused; a real-format operand (a literal) is rounded
// into the format first, its rounding its introduced error (as for + − × ÷).
template <RealDomain D>
struct MachineOperands {
  Format format{};
  RoundingMode mode = RoundingMode::NearestEven;
  std::vector<SymbolicDomainError<D>> values;  // the operands, in order, in the common format
};
template <RealDomain D>
MachineOperands<D> machine_operands(const char* op, std::initializer_list<const SymbolicDomainError<D>*> operands) {
  const SymbolicDomainError<D>* machine = nullptr;
  for (const SymbolicDomainError<D>* v : operands) {
    if (v->is_real()) continue;
    if (!machine) {
      machine = v;
      continue;
    }
    if (v->format != machine->format)
      throw std::invalid_argument(std::string(op) + ": operands have different formats " +
                                  format_name(machine->format) + " and " + format_name(v->format) +
                                  " (convert one explicitly)");
    if (v->mode != machine->mode)
      throw std::invalid_argument(std::string(op) + ": operands have different rounding modes " +
                                  to_string(machine->mode) + " and " + to_string(v->mode));
  }
  if (machine && machine->is_integer())
    throw std::invalid_argument(std::string(op) + ": " + format_name(machine->format) + " is an integer format (" +
                                op + " is defined on floating-point formats)");
  MachineOperands<D> m;
  m.format = machine ? machine->format : Format{};
  m.mode = machine ? machine->mode : RoundingMode::NearestEven;
  for (const SymbolicDomainError<D>* v : operands)
    m.values.push_back(machine && v->is_real() ? convert(*v, m.format, m.mode) : *v);
  return m;
}

// The rounding of t = x·y + w into z's format and mode: z.fp, z's special
// states and the rounding error (the machine result exactly for point
// operands); every execution (returned) when the result may be special.
template <RealDomain D>
std::optional<SymbolicDomainError<D>> fma_round(const SymbolicDomainError<D>& x, const SymbolicDomainError<D>& y,
                                                const SymbolicDomainError<D>& w, D& t, SymbolicDomainError<D>& z,
                                                D& rounding) {
  using S = SymbolicDomainError<D>;
  SpecialStates& s = z.specials;
  const FloatFormat* F = std::get_if<FloatFormat>(&z.format);
  if (F && is_point(x.fp) && is_point(y.fp) && is_point(w.fp)) {
    // the machine result exactly (GMP)
    const mpq_class tq = exact_value(x.fp.lower()) * exact_value(y.fp.lower()) + exact_value(w.fp.lower());
    const Rounded r = round_to(tq, *F, z.mode);
    s.may_overflow = r.overflow;
    if (!std::isfinite(r.value)) {
      S any = fma_any<D>(z.format, z.mode, true, false);
      any.specials.may_be_finite = false;
      any.specials.may_be_pos_zero = any.specials.may_be_neg_zero = false;
      any.specials.may_be_nan = std::isnan(r.value);
      any.specials.may_be_pos_inf = r.value > 0;
      any.specials.may_be_neg_inf = r.value < 0;
      any.specials.may_overflow = r.overflow;
      any.real = z.real;
      return any;
    }
    t = D::from_rational(tq);
    z.fp = D::point(r.value);
    rounding = D::from_rational(exact_value(r.value) - tq);
    s.may_be_pos_zero = r.value == 0 && !std::signbit(r.value);
    s.may_be_neg_zero = r.value == 0 && std::signbit(r.value);
  } else if (F) {
    const auto r = round_enclosure(t, *F, z.mode);
    s.may_be_finite = r.may_be_finite;
    s.may_be_pos_inf = r.may_be_pos_inf;
    s.may_be_neg_inf = r.may_be_neg_inf;
    s.may_be_nan = r.may_be_nan;
    s.may_overflow = r.may_overflow;
    if (!F->has_infinities() && (s.may_be_pos_inf || s.may_be_neg_inf)) {
      // Saturate / NaN formats: beyond max finite the error is unbounded
      if (F->overflow == Overflow::NaN) s.may_be_nan = true;
      s.may_be_pos_inf = s.may_be_neg_inf = false;
    }
    if (!s.may_be_finite || r.may_overflow) {
      S any = fma_any<D>(z.format, z.mode, true, false);
      any.real = z.real;
      any.specials = s;
      any.specials.may_be_finite = true;  // saturation gives ±max
      any.specials.may_be_pos_zero = any.specials.may_be_neg_zero = true;
      return any;
    }
    z.fp = r.fp;
    rounding = introduced_float(t, z.fp, *F, z.mode);
    s.may_be_pos_zero = s.may_be_neg_zero = contains(z.fp, 0.0);
  } else {
    z.fp = t;  // the real format: no rounding
    s.may_be_pos_zero = contains(z.fp, 0.0);
    s.may_be_neg_zero = false;
  }
  return std::nullopt;
}

}  // namespace detail

/// fma(x, y, w) = x·y + w with one rounding (C fma); the operands' formats must
/// agree (real-format operands adopt the machine format).
/// @throws std::invalid_argument on two different machine formats.
template <RealDomain D>
SymbolicDomainError<D> fma(const SymbolicDomainError<D>& x0, const SymbolicDomainError<D>& y0,
                           const SymbolicDomainError<D>& w0) {
  using S = SymbolicDomainError<D>;
  using detail::meet;
  [[maybe_unused]] const detail::FpGuardFor<D> guard;
  const detail::MachineOperands<D> m = detail::machine_operands<D>("Fma", {&x0, &y0, &w0});
  const Format& format = m.format;
  const RoundingMode mode = m.mode;
  const S &x = m.values[0], &y = m.values[1], &w = m.values[2];
  const std::int32_t origin = detail::merge_origin(detail::merge_origin(x.origin, y.origin), w.origin);

  if (!detail::plain_finite(x) || !detail::plain_finite(y) || !detail::plain_finite(w)) {
    S z = detail::fma_any<D>(format, mode, x.specials.may_be_defined && y.specials.may_be_defined &&
                                               w.specials.may_be_defined,
                             x.specials.may_be_undefined || y.specials.may_be_undefined ||
                                 w.specials.may_be_undefined);
    z.origin = origin;
    return z;
  }

  S z;
  z.format = format;
  z.mode = mode;
  z.specials = SpecialStates{};
  const D xy_real = x.real * y.real;
  z.real = xy_real + w.real;
  D t = x.fp * y.fp + w.fp;
  D rounding = D::point(0);
  if (auto special = detail::fma_round(x, y, w, t, z, rounding)) {
    special->origin = origin;
    return *special;
  }

  // the product's identity, both forms (no direct difference: met below)
  auto product = [&](const D& bx, const D& by, const D& bz, const D& ex, const D& ey, const D& vx, const D& vy) {
    return detail::MulRule::error(detail::ErrorTerms<D>{bx, by, bz, ex, ey, vx, vy}, D::whole());
  };
  const D total = meet(t - z.real, product(x.real, y.real, xy_real, x.err, y.err, x.fp, y.fp) + w.err);
  if (detail::is_zero_point(x.introduced) && detail::is_zero_point(y.introduced) &&
      detail::is_zero_point(w.introduced)) {
    z.propagated = total;  // pr = fp for every operand: pr_z = t
    z.introduced = rounding;
    z.err = total + rounding;
  } else {
    const D prx = detail::actual_real(x), pry = detail::actual_real(y), prw = detail::actual_real(w);
    const D pr_xy = prx * pry;
    const D pr_z = pr_xy + prw;
    z.propagated = meet(pr_z - z.real,
                        product(x.real, y.real, xy_real, x.propagated, y.propagated, prx, pry) + w.propagated);
    z.introduced =
        meet(t - pr_z, product(prx, pry, pr_xy, x.introduced, y.introduced, x.fp, y.fp) + w.introduced) + rounding;
    z.err = meet(total + rounding, z.propagated + z.introduced);
  }
  z.rel_err = D::whole();
  z.reduce();
  z.origin = origin;
  return z;
}

// Numbers next to symbolic values: exact real constants, rounded into the
// symbolic operands' format (as for + − × ÷).
namespace detail {
template <class T>
struct symbolic_of {};
template <RealDomain D>
struct symbolic_of<SymbolicDomainError<D>> {
  using type = SymbolicDomainError<D>;
};
template <class A, class B, class C>
using fma_symbolic_t = typename std::conditional_t<
    is_symbolic_type<A>, symbolic_of<A>, std::conditional_t<is_symbolic_type<B>, symbolic_of<B>, symbolic_of<C>>>::type;
template <class S, class A>
S as_symbolic(const A& a) {
  if constexpr (is_symbolic_type<A>) return a;
  else return S::exact_number(a);
}
}  // namespace detail

/// fma with numbers among the operands: each number becomes an exact constant
/// of the symbolic operands' type (as a literal next to a symbolic operand).
template <class A, class B, class C>
  requires((detail::is_symbolic_type<A> || detail::is_symbolic_type<B> || detail::is_symbolic_type<C>) &&
           !(detail::is_symbolic_type<A> && detail::is_symbolic_type<B> && detail::is_symbolic_type<C>) &&
           (detail::is_symbolic_type<A> || DropInNumber<A>) && (detail::is_symbolic_type<B> || DropInNumber<B>) &&
           (detail::is_symbolic_type<C> || DropInNumber<C>))
auto fma(const A& a, const B& b, const C& c) {
  using S = detail::fma_symbolic_t<A, B, C>;
  return fma(detail::as_symbolic<S>(a), detail::as_symbolic<S>(b), detail::as_symbolic<S>(c));
}

}  // namespace symerr

#endif  // SYMERR_SYMBOLIC_RULES_FMA_HPP_INCLUDED
