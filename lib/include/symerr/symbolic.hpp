// SymbolicDomainError<D>: a number as the ideal real computation sees it and as
// the machine computes it (docs/design.md §1). Four enclosures over a domain D —
// real ⊇ {r}, fp ⊇ {f finite}, err ⊇ {f − r}, rel_err ⊇ {(f − r)/r} — the
// storage format and rounding mode of f, and explicit special-state flags.
//
// Invariant (kept by reduce() after every operation), for every execution
// whose computed value f is finite and whose real value r is defined:
//   r ∈ real, f ∈ fp, f − r ∈ err, and (f − r)/r ∈ rel_err when r ≠ 0,
//   and |f − r| ≤ mixed.rel·|r| + mixed.abs (when mixed is known).
// Executions where f is ±inf or NaN, or r is undefined, are described by the
// flags only. The propagated and introduced parts of the error over the
// whole computation are kept separately (specifications bound them
// separately): with pr the real computation on the actual inputs,
// propagated ⊇ {pr − r}, introduced ⊇ {f − pr} (symbolic/arith.hpp).
#pragma once

#include <cmath>
#include <cstdint>
#include <type_traits>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <variant>

#include <symerr/domain/concept.hpp>
#include <symerr/domain/mixed_ops.hpp>
#include <symerr/format.hpp>
#include <symerr/ops/semantics.hpp>
#include <symerr/symbolic/mixed_error.hpp>
#include <symerr/symbolic/printf_guard.hpp>
#include <symerr/symbolic/specials.hpp>
#include <symerr/tribool.hpp>

namespace symerr {

/// A number as the ideal real computation sees it and as the machine computes it
/// (docs/design.md §1): four enclosures over the domain `D` (real ⊇ {r},
/// fp ⊇ {f finite}, err ⊇ {f − r}, rel_err ⊇ {(f − r)/r}), the storage format
/// and rounding mode of f, and the special-state flags.
///
/// Invariant (restored by reduce() after every operation): for every execution
/// whose f is finite and whose r is defined, r ∈ real, f ∈ fp, f − r ∈ err,
/// (f − r)/r ∈ rel_err when r ≠ 0, and |f − r| ≤ mixed.rel·|r| + mixed.abs.
/// NaN, ±inf and undefined executions are described by `specials` only.
/// The arithmetic is free functions (<symerr/symbolic/arith.hpp>).
/// @tparam D the enclosure domain (a RealDomain: Interval, Affine, ...)
template <RealDomain D>
class SymbolicDomainError {
 public:
  /// The enclosure domain.
  using domain_type = D;

  /// Encloses the real (ideal) value r of every execution.
  D real = D::point(0);
  /// Encloses the finite computed values f.
  D fp = D::point(0);
  /// Encloses the absolute error f − r.
  D err = D::point(0);
  /// Encloses the relative error (f − r)/r where r ≠ 0.
  D rel_err = D::point(0);
  /// The whole computation's error split: err ⊆ propagated + introduced.
  D propagated = D::point(0);
  /// The introduced part of the error (f − pr, pr the real computation on the actual inputs).
  D introduced = D::point(0);

  /// Storage format of f; std::monostate = ideal real arithmetic (no rounding).
  Format format{};  // std::monostate = ideal real arithmetic (no rounding)
  /// Rounding mode of the operations producing this value.
  RoundingMode mode = RoundingMode::NearestEven;
  /// Quotient semantics for integer formats; unset = the caller must choose
  /// (operator/ on integers throws; divide(a, b, mode) always works).
  std::optional<IntegerDivision> int_division{};
  /// Which IEEE special states (NaN, ±inf, undefined real) the value may take.
  SpecialStates specials{};
  /// |f − r| ≤ mixed.rel·|r| + mixed.abs for the same executions as err: a
  /// relative error with the absolute error of underflows, which carries a
  /// relative error through values that may be 0 (Σ x², then Σ x²/n + ε; see
  /// <symerr/symbolic/mixed_error.hpp>). Set by every reduce(); unknown by
  /// default.
  MixedError mixed{};
  /// Which input the value depends on, for branch drivers (run_kernel): -1 none
  /// (a constant), k >= 0 only inputs of lane k, -2 inputs of several lanes.
  /// Inputs get it from the driver; arithmetic merges it; it never affects a
  /// value or an enclosure.
  std::int32_t origin = -1;
  /// Which input of a branch driver's run this value is a copy of, for the
  /// driver's relational bound on unstable pairs (run_kernel; driver.hpp): -1
  /// none. Only the driver sets it, on its own input buffer, with its run's
  /// generation (detail::source_tag); a copy keeps it (one quantity), and so does
  /// the driver's tightening of a compared operand (the same quantity under the
  /// path condition); every operation's result has none, and the driver's
  /// outputs are returned without it. It never affects a value or an enclosure,
  /// and it fills padding: the size stays 176 bytes. The driver also marks the
  /// initial value of every output with a reserved negative tag (kUnwritten,
  /// verify/src/symbolic/driver/state.hpp) to find outputs a kernel never writes.
  std::int32_t source = -1;

  SymbolicDomainError() = default;

  // ---- drop-in construction (<symerr/symbolic/dropin.hpp>) ---------------
  /// `T x = 0;`, `T(0.5)`, `static_cast<T>(n)`: a REAL-format exact constant of
  /// the number's value (a double's value as the compiler gave it; an integer's
  /// exact value). Combined with a machine-format operand of format F it is
  /// rounded into F in the operation's mode, the rounding accounted as that
  /// operand's introduced error (values of F, e.g. 0, 1, 0.5, stay exact).
  /// NaN and ±inf give nan() / inf().
  /// Under a ScopedLiteralFormat(F) (this thread) the number is instead a value
  /// of F: rounded into F, its rounding its introduced error — the C semantics
  /// of a kernel written for F, where `(float)d` and `1.0f / sqrtf((float)d)`
  /// are float operations (see ScopedLiteralFormat in dropin.hpp).
  template <class A>
    requires(std::is_arithmetic_v<A> && !std::is_same_v<A, bool>)
  SymbolicDomainError(A v) : SymbolicDomainError(from_number(v)) {}  // NOLINT: implicit by design
  /// The number `v` as a value (see the implicit constructor): a real-format
  /// exact constant, or a value of the literal format under ScopedLiteralFormat.
  template <class A>
    requires(std::is_arithmetic_v<A> && !std::is_same_v<A, bool>)
  static SymbolicDomainError from_number(A v);
  /// The number as an exact real-format constant, whatever the literal format:
  /// a literal next to a symbolic operand (x + 0.1, x < 0.1, fmax(x, 0)),
  /// which adopts that operand's format (or is compared exactly).
  template <class A>
    requires(std::is_arithmetic_v<A> && !std::is_same_v<A, bool>)
  static SymbolicDomainError exact_number(A v);

  /// C's conversion to an integer type, `(int)x`, `static_cast<long>(x)`
  /// (<symerr/symbolic/dropin.hpp>): the computed value truncated toward zero
  /// in the computed program, the real value in the ideal one. One integer
  /// when every execution gives the same; otherwise a bisection by
  /// comparisons of x with the switch points (x ≥ n + 1 ?), undecided ones
  /// forking under the branch driver (an UndecidedBranch outside it).
  /// std::domain_error when C's conversion may be undefined (NaN, infinity,
  /// out of the type's range) or the value spans more than 4096 integers.
  template <class I>
    requires(std::is_integral_v<I> && !std::is_same_v<I, bool>)
  explicit operator I() const;

  /// No conversion to float or double: a symbolic value is every execution's
  /// value at once, not one number. A cast `(double)x` fails to compile with
  /// this message (g++ alone would say "invalid cast from type 'const
  /// symerr::SymbolicError' to type 'double'", which does not say what to do).
  template <class F>
    requires std::is_floating_point_v<F>
  explicit operator F() const {
    static_assert(sizeof(F) == 0,
                  "symerr: a symbolic value cannot be converted to float or double (it stands for every "
                  "execution's value). In a C kernel that mixes float and double (a double accumulator, "
                  "(double)x, (float)sqrt(...)), substitute with C_TYPES instead of REPLACE "
                  "(symerr_add_substituted_kernel(... C_TYPES ...)); in C++, convert(x, FP64) changes the format, "
                  "and x.real / x.fp / x.err are the enclosures");
    return F{};
  }

  // ---- symbolic initialization ----------------------------------------

  /// An input: real value in [lo, hi], error f − r in [elo, ehi], and f a
  /// (finite) value of `format`. fp is the set of format values in
  /// [lo + elo, hi + ehi]. Throws std::invalid_argument on empty or NaN ranges
  /// or when no value of the format lies in the range.
  static SymbolicDomainError input(double lo, double hi, double elo, double ehi, const Format& format,
                                   RoundingMode mode = RoundingMode::NearestEven);
  /// input() with no error: f − r = 0.
  static SymbolicDomainError input(double lo, double hi, const Format& format) {
    return input(lo, hi, 0.0, 0.0, format);
  }
  /// An exact constant x: real = fp = {x}, err = {0}; x must be a value of the format.
  static SymbolicDomainError constant(double x, const Format& format = Format{});
  /// A literal q rounded into the format: real = {q}, fp = {round(q)}, err = {round(q) − q}.
  static SymbolicDomainError literal(const mpq_class& q, const Format& format,
                                     RoundingMode mode = RoundingMode::NearestEven);
  /// A concrete computed value f whose error is known to lie in [elo, ehi].
  static SymbolicDomainError computed(double f, double elo, double ehi, const Format& format);
  /// Special values: real undefined (and computed value arbitrary / NaN / ±inf).
  static SymbolicDomainError undef(const Format& format = Format{});
  /// A NaN: real undefined, computed value NaN.
  static SymbolicDomainError nan(const Format& format = Format{});
  /// An infinity of the given sign: real undefined, computed value ±inf.
  static SymbolicDomainError inf(int sign = +1, const Format& format = Format{});

  // ---- queries ------------------------------------------------------------

  ///@{
  /// Whether the format is a floating-point one (is_integer(): an integer one;
  /// is_real(): ideal real arithmetic).
  bool is_float() const noexcept { return std::holds_alternative<FloatFormat>(format); }
  bool is_integer() const noexcept { return std::holds_alternative<IntFormat>(format); }
  bool is_real() const noexcept { return std::holds_alternative<std::monostate>(format); }
  ///@}

  ///@{
  /// Whether the computed value is NaN (is_inf(), is_finite(): infinite, finite;
  /// is_undef(): whether the real value is undefined): True, False, or Unknown
  /// when the enclosure admits both.
  Truth is_nan() const noexcept {
    const auto& s = specials;
    if (!s.may_be_nan) return {Tri::False, "is_nan"};
    return {(s.may_be_finite || s.may_be_pos_inf || s.may_be_neg_inf) ? Tri::Unknown : Tri::True,
            "is_nan"};
  }
  Truth is_inf() const noexcept {
    const auto& s = specials;
    const bool inf = s.may_be_pos_inf || s.may_be_neg_inf;
    if (!inf) return {Tri::False, "is_inf"};
    return {(s.may_be_finite || s.may_be_nan) ? Tri::Unknown : Tri::True, "is_inf"};
  }
  Truth is_finite() const noexcept {
    const auto& s = specials;
    if (!s.may_be_finite) return {Tri::False, "is_finite"};
    return {(s.may_be_nan || s.may_be_pos_inf || s.may_be_neg_inf) ? Tri::Unknown : Tri::True,
            "is_finite"};
  }
  Truth is_undef() const noexcept {
    const auto& s = specials;
    if (!s.may_be_undefined) return {Tri::False, "is_undef"};
    return {s.may_be_defined ? Tri::Unknown : Tri::True, "is_undef"};
  }
  ///@}
  /// This value with integer-division semantics chosen (for operator/).
  SymbolicDomainError with_int_division(IntegerDivision d) const {
    SymbolicDomainError c = *this;
    c.int_division = d;
    return c;
  }

  /// The IEEE categories the computed value may take.
  CategorySet categories() const noexcept;

  /// Restore the mutual consistency of the four fields (docs/design.md §1):
  /// fp ⊆ real + err, err ⊆ fp − real, real ⊆ fp − err, rel_err ⊆ err / real,
  /// err ⊆ rel_err · real — each applied only where its validity condition holds.
  /// rule_mixed: `mixed` holds the operation's own mixed pair (the identities
  /// of mixed_error.hpp), which reduce() uses; otherwise reduce() sets it from
  /// the reduced fields alone.
  void reduce(bool rule_mixed = false);
};

/// printf("%f", x) and its family refuse a symbolic value (and the types
/// derived from it): a compile error, <symerr/symbolic/printf_guard.hpp>.
template <RealDomain D>
void varargs_refused(const SymbolicDomainError<D>*);

}  // namespace symerr

#include <symerr/symbolic/construct.hpp>
#include <symerr/symbolic/arith.hpp>
#include <symerr/symbolic/dropin.hpp>
#include <symerr/symbolic/rules/fma.hpp>  // fma(x, y, w): needs the drop-in numbers
#include <symerr/symbolic/rules/fmod.hpp>  // fmod(x, y)
#include <symerr/symbolic/compare_targets.hpp>
#include <symerr/symbolic/sign_functions.hpp>  // signbit, copysign, fdim, isnormal, fpclassify
#include <symerr/symbolic/numeric_limits.hpp>  // std::numeric_limits<SymbolicDomainError<D>>
