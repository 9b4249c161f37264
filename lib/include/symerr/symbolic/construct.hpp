// Symbolic initialization, queries and the reduction step of SymbolicDomainError.
// This file completes SymbolicDomainError, and <symerr/symbolic.hpp> includes
// it after the class: included on its own, it includes symbolic.hpp, which
// includes it at its place (hence a guard, not #pragma once).
#include <symerr/symbolic.hpp>
#ifndef SYMERR_SYMBOLIC_CONSTRUCT_HPP_INCLUDED
#define SYMERR_SYMBOLIC_CONSTRUCT_HPP_INCLUDED

#include <symerr/symbolic/detail.hpp>
#include <symerr/symbolic/relative.hpp>

#include <charconv>

namespace symerr {

namespace detail {
// A double in a message: its shortest round-trip form (1e-09, 2.5e+300,
// 0.1), where std::to_string's fixed six decimals print 1e-9 as 0.000000
// and 1e300 as a 301-digit integer.
inline std::string number_text(double v) {
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

inline void require_range(double lo, double hi, const char* what) {
  if (std::isnan(lo) || std::isnan(hi))
    throw std::invalid_argument(std::string("SymbolicDomainError: ") + what + " range has a NaN endpoint");
  if (lo > hi)
    throw std::invalid_argument(std::string("SymbolicDomainError: ") + what + " range [" +
                                number_text(lo) + ", " + number_text(hi) + "] is empty");
  if (!std::isfinite(lo) || !std::isfinite(hi))
    throw std::invalid_argument(std::string("SymbolicDomainError: ") + what +
                                " range must be finite (use inf()/nan() for special values)");
}
}  // namespace detail

template <RealDomain D>
SymbolicDomainError<D> SymbolicDomainError<D>::input(double lo, double hi, double elo, double ehi,
                                                     const Format& format, RoundingMode mode) {
  [[maybe_unused]] const detail::FpGuardFor<D> guard;
  detail::require_range(lo, hi, "value");
  detail::require_range(elo, ehi, "error");
  SymbolicDomainError x;
  x.format = format;
  x.mode = mode;
  x.real = D::between(lo, hi);
  x.err = D::between(elo, ehi);
  const D sum = x.real + x.err;
  if (auto* F = std::get_if<FloatFormat>(&format)) {
    // From the exact sums: the domain's outward-rounded sum may admit one more
    // value (1 + 2^-54 rounds up to 1 + 2^-52 in binary64).
    const double flo = round_to(exact_value(lo) + exact_value(elo), *F, RoundingMode::Upward).value;
    const double fhi = round_to(exact_value(hi) + exact_value(ehi), *F, RoundingMode::Downward).value;
    if (!(flo <= fhi))
      throw std::invalid_argument("SymbolicDomainError::input: no value of " + std::string(F->name) +
                                  " lies in the value range [" + detail::number_text(lo) + ", " +
                                  detail::number_text(hi) + "] plus the error range [" + detail::number_text(elo) +
                                  ", " + detail::number_text(ehi) + "]");
    x.fp = detail::meet(sum, D::between(flo, fhi));  // = [flo, fhi] ⊆ sum; correlated: keeps real + err
  } else if (auto* I = std::get_if<IntFormat>(&format)) {
    const double ilo = std::max(std::ceil(sum.lower()), detail::int_min(*I));
    const double ihi = std::min(std::floor(sum.upper()), detail::int_max_up(*I));
    if (!(ilo <= ihi) || detail::compare_int(ilo, I->max_value()) > 0)
      throw std::invalid_argument("SymbolicDomainError::input: no value of " + std::string(I->name) +
                                  " lies in [" + detail::number_text(sum.lower()) + ", " +
                                  detail::number_text(sum.upper()) + "]");
    x.fp = detail::meet(sum, D::between(ilo, ihi));
  } else {
    x.fp = sum;
  }
  x.propagated = x.err;
  x.introduced = D::point(0);
  x.specials.may_be_pos_zero = contains(x.fp, 0.0);
  x.specials.may_be_neg_zero = contains(x.fp, 0.0) && x.fp.lower() < 0 && x.is_float();
  x.rel_err = D::whole();
  x.reduce();
  return x;
}

namespace detail {
// The enclosures of a literal or constant(): in a domain whose values belong
// to a context (Affine), handles valid in every context (D::portable_point),
// so that a kernel's static constant outlives the context that made it (the
// driver's subdivision makes one per box); elsewhere D::point / D::whole.
template <RealDomain D>
D literal_point(double v) {
  if constexpr (requires { D::portable_point(v); }) return D::portable_point(v);
  else return D::point(v);
}
template <RealDomain D>
D literal_whole() {
  if constexpr (requires { D::portable_whole(); }) return D::portable_whole();
  else return D::whole();
}
inline bool is_double(const mpq_class& q) {
  const double d = q.get_d();
  return std::isfinite(d) && mpq_class(d) == q;
}
// q as a literal enclosure: a portable point when q is a double, else from_rational.
template <RealDomain D>
D literal_rational(const mpq_class& q) {
  if (is_double(q)) return literal_point<D>(q.get_d());
  return D::from_rational(q);
}
}  // namespace detail

template <RealDomain D>
SymbolicDomainError<D> SymbolicDomainError<D>::constant(double v, const Format& format) {
  [[maybe_unused]] const detail::FpGuardFor<D> guard;
  if (!std::isfinite(v)) throw std::invalid_argument("SymbolicDomainError::constant: value must be finite");
  if (auto* F = std::get_if<FloatFormat>(&format); F && !is_representable(v, *F))
    throw std::invalid_argument("SymbolicDomainError::constant: " + detail::number_text(v) +
                                " is not a value of " + std::string(F->name) + " (use literal())");
  if (auto* I = std::get_if<IntFormat>(&format);
      I && (v != std::floor(v) || detail::compare_int(v, I->min_value()) < 0 ||
            detail::compare_int(v, I->max_value()) > 0))
    throw std::invalid_argument("SymbolicDomainError::constant: " + detail::number_text(v) +
                                " is not a value of " + std::string(I->name));
  SymbolicDomainError x;
  x.format = format;
  x.real = x.fp = detail::literal_point<D>(v);
  x.err = x.rel_err = x.propagated = x.introduced = D::point(0);
  x.specials.may_be_pos_zero = v == 0 && !std::signbit(v);
  x.specials.may_be_neg_zero = v == 0 && std::signbit(v);
  x.mixed = {0, 0};
  return x;
}

template <RealDomain D>
SymbolicDomainError<D> SymbolicDomainError<D>::literal(const mpq_class& q, const Format& format,
                                                       RoundingMode mode) {
  [[maybe_unused]] const detail::FpGuardFor<D> guard;
  SymbolicDomainError x;
  x.format = format;
  x.mode = mode;
  x.real = detail::literal_rational<D>(q);
  mpq_class f = q;
  if (auto* F = std::get_if<FloatFormat>(&format)) {
    const Rounded r = round_to(q, *F, mode);
    x.specials.may_overflow = r.overflow;
    if (!std::isfinite(r.value)) {
      x.specials.may_be_finite = false;
      x.specials.may_be_pos_zero = false;
      if (std::isnan(r.value)) x.specials.may_be_nan = true;
      else (r.value > 0 ? x.specials.may_be_pos_inf : x.specials.may_be_neg_inf) = true;
      x.fp = x.err = x.rel_err = x.introduced = detail::literal_whole<D>();
      x.propagated = D::point(0);
      return x;
    }
    f = exact_value(r.value);
    x.fp = detail::literal_point<D>(r.value);
    x.specials.may_be_pos_zero = r.value == 0 && !std::signbit(r.value);
    x.specials.may_be_neg_zero = r.value == 0 && std::signbit(r.value);
  } else if (auto* I = std::get_if<IntFormat>(&format)) {
    // round to the nearest integer, ties to even, then wrap (exactly, in GMP)
    f = mpq_class(detail::wrap_exact(detail::round_half_even(q), *I));
    x.fp = D::from_rational(f);
    x.specials.may_be_pos_zero = sgn(f) == 0;
  } else {
    x.fp = x.real;
    x.specials.may_be_pos_zero = sgn(f) == 0;
  }
  x.err = x.introduced = detail::literal_rational<D>(f - q);
  x.propagated = D::point(0);
  // (a non-dyadic relative error of a literal, e.g. of 0.1 in FP32, would be
  // a fresh symbol of the current context: a literal in a context-bound
  // domain gets the portable unknown instead; results recompute rel_err)
  if (sgn(q) == 0) x.rel_err = detail::literal_whole<D>();
  else if (const mpq_class rel = (f - q) / q; detail::is_double(rel)) x.rel_err = detail::literal_point<D>(rel.get_d());
  else if constexpr (requires { D::portable_whole(); }) x.rel_err = D::portable_whole();
  else x.rel_err = D::from_rational(rel);
  // the mixed pair, exactly: (|f − q|/|q|, 0) (mpq_get_d truncates: up() bounds it)
  if (f == q) x.mixed = {0, 0};
  else if (sgn(q) != 0) x.mixed = {detail::float_up(detail::up(mpq_class(abs(f - q) / abs(q)).get_d())), 0};
  else x.mixed = {0, detail::float_up(detail::up(mpq_class(abs(f - q)).get_d()))};
  return x;
}

template <RealDomain D>
SymbolicDomainError<D> SymbolicDomainError<D>::computed(double f, double elo, double ehi,
                                                        const Format& format) {
  [[maybe_unused]] const detail::FpGuardFor<D> guard;
  detail::require_range(elo, ehi, "error");
  SymbolicDomainError x = constant(f, format);
  x.err = x.propagated = D::between(elo, ehi);
  x.real = x.fp - x.err;
  x.rel_err = D::whole();
  x.reduce();
  return x;
}

template <RealDomain D>
SymbolicDomainError<D> SymbolicDomainError<D>::undef(const Format& format) {
  SymbolicDomainError x;
  x.format = format;
  // (unknown fields: portable in a context-bound domain, as a static INFINITY is)
  x.real = x.fp = x.err = x.rel_err = x.propagated = x.introduced = detail::literal_whole<D>();
  x.specials = SpecialStates{.may_be_finite = true, .may_be_pos_inf = true, .may_be_neg_inf = true,
                             .may_be_nan = true, .may_be_pos_zero = true, .may_be_neg_zero = true,
                             .may_be_defined = false, .may_be_undefined = true, .may_overflow = false};
  return x;
}

template <RealDomain D>
SymbolicDomainError<D> SymbolicDomainError<D>::nan(const Format& format) {
  SymbolicDomainError x = undef(format);
  x.specials = SpecialStates{.may_be_finite = false, .may_be_pos_inf = false, .may_be_neg_inf = false,
                             .may_be_nan = true, .may_be_pos_zero = false, .may_be_neg_zero = false,
                             .may_be_defined = false, .may_be_undefined = true, .may_overflow = false};
  return x;
}

template <RealDomain D>
SymbolicDomainError<D> SymbolicDomainError<D>::inf(int sign, const Format& format) {
  if (auto* F = std::get_if<FloatFormat>(&format); F && !F->has_infinities())
    throw std::invalid_argument("SymbolicDomainError::inf: " + std::string(F->name) + " has no infinities");
  SymbolicDomainError x = undef(format);
  x.specials = SpecialStates{.may_be_finite = false, .may_be_pos_inf = sign > 0, .may_be_neg_inf = sign < 0,
                             .may_be_nan = false, .may_be_pos_zero = false, .may_be_neg_zero = false,
                             .may_be_defined = false, .may_be_undefined = true, .may_overflow = false};
  return x;
}

template <RealDomain D>
CategorySet SymbolicDomainError<D>::categories() const noexcept {
  const SpecialStates& s = specials;
  CategorySet c = 0;
  if (s.may_be_nan) c |= kNaN;
  if (s.may_be_pos_inf) c |= kPosInf;
  if (s.may_be_neg_inf) c |= kNegInf;
  if (s.may_be_finite) {
    if (fp.lower() < 0) c |= kNegFinite;
    if (fp.upper() > 0) c |= kPosFinite;
    if (contains(fp, 0.0)) {
      if (s.may_be_pos_zero || !is_float()) c |= kPosZero;
      if (s.may_be_neg_zero && is_float()) c |= kNegZero;
      if (!(c & kAnyZero)) c |= kPosZero;
    }
  }
  return c;
}

template <RealDomain D>
void SymbolicDomainError<D>::reduce(bool rule_mixed) {
  [[maybe_unused]] const detail::FpGuardFor<D> guard;
  const SpecialStates& s = specials;
  const MixedError rule = rule_mixed ? mixed : MixedError{};
  mixed = MixedError{};
  if (!s.may_be_finite || !s.may_be_defined) return;  // no execution constrains the fields
  using detail::meet;
  err = meet(err, fp - real);
  if (!s.may_be_undefined) fp = meet(fp, real + err);
  if (!s.may_be_nan && !s.may_be_pos_inf && !s.may_be_neg_inf) real = meet(real, fp - err);
  if (auto* F = std::get_if<FloatFormat>(&format)) fp = detail::snap_to_format(fp, *F);
  if (auto* I = std::get_if<IntFormat>(&format)) fp = detail::snap_to_integers(fp, *I);
  const bool real_nonzero = certainly(cmp_ne(real, D::point(0)));
  if (real_nonzero) {
    // With rel_err unbounded on entry (an operation without a relative
    // identity), rel_err becomes err / real, and (err / real) · real ⊇ err:
    // the second intersection cannot tighten, so it is skipped. A bounded
    // rel_err on entry comes from the relative identities (relative.hpp). A
    // domain that keeps correlations keeps err's form and intersects its
    // range with that of rel_err · real.
    bool rel_unbounded = rel_err.lower() == -INFINITY && rel_err.upper() == INFINITY;
    // the operation's mixed relative/absolute bound (mixed_error.hpp):
    // |f − r|/|r| ≤ rel + abs / min|r|
    if (const double rb = detail::mixed_relative_bound<D>(rule, mig(real)); rb < mag(rel_err)) {
      rel_err = detail::clip_range(rel_err, -rb, rb);
      rel_unbounded = false;
    }
    if constexpr (requires { requires D::keeps_correlations; }) {
      if (!rel_unbounded && is_bounded(rel_err) && is_bounded(real)) {
        const auto [lo, hi] = detail::range_product(rel_err, real);
        err = detail::clip_range(err, lo, hi);
      }
      rel_err = meet(rel_err, err / real);
    } else {
      rel_err = meet(rel_err, err / real);
      if (!rel_unbounded) err = meet(err, rel_err * real);
    }
  } else {
    rel_err = D::whole();
    // |f − r| ≤ rel·max|r| + abs
    if (const double eb = detail::mixed_error_bound<D>(rule, mag(real)); eb < mag(err)) err = detail::clip_range(err, -eb, eb);
  }
  const bool err_zero = err.lower() == 0 && err.upper() == 0;
  mixed = detail::settle_mixed(rule, err_zero, real_nonzero && is_bounded(rel_err) ? mag(rel_err) : INFINITY,
                               is_bounded(err) ? mag(err) : INFINITY);
}

}  // namespace symerr

#endif  // SYMERR_SYMBOLIC_CONSTRUCT_HPP_INCLUDED
