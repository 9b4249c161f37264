// The bounds registry (docs/design.md §3): per operator × type, the error bounds the
// seed specifications state (verbatim, with their validity conditions), the
// bounds of the SONNX accuracy digest, and rigorous bounds of symerr's own.
// Users register their own bound as callables over the inputs and the result.
// Bounds on the propagated or introduced part of a whole tensor operator
// (KernelBound, below) have a registry of their own.
#pragma once

#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <gmpxx.h>

#include <symerr/domains/symbolic_interval.hpp>
#include <symerr/symbolic/map_enclosures.hpp>
#include <symerr/verify/kernel/kernel.hpp>

namespace symerr::verify {

/// One concrete execution, exactly: inputs a = ar + ae, b = br + be (ar, br the
/// ideal values, fa = ar + ae and fb = br + be values of the format), and the
/// outcome of the operation.
struct ExactPoint {
  /// The operator.
  OpId op{};
  /// The format of the machine values.
  Format format{};
  /// The integer quotient rounding (integer Div).
  IntegerDivision int_division = IntegerDivision::Floor;
  ///@{
  /// The operands: ideal values ar, br and input errors ae, be (exact).
  mpq_class ar, ae, br, be;
  ///@}
  ///@{
  /// The machine inputs fa = ar + ae, fb = br + be (values of the format).
  double fa = 0, fb = 0;
  ///@}
  bool real_defined = true;  ///< br != 0 for Div
  mpq_class cr;              ///< ideal result ar ∘ br
  bool computed_finite = false;  ///< the machine result is a finite value
  mpq_class t;               ///< exact result of the machine inputs fa ∘ fb
  double fc = 0;             ///< the computed result (may be ±inf / NaN; rounded for the real format)
  mpq_class fcq;             ///< the computed result exactly (when computed_finite)
  bool overflow = false;     ///< the machine result overflowed (float) or wrapped (int)
  /// The error of the computed result, fcq − cr.
  mpq_class err() const { return fcq - cr; }
  /// The propagated part, t − cr.
  mpq_class propagated() const { return t - cr; }
  /// The introduced part, fcq − t.
  mpq_class introduced() const { return fcq - t; }
};

/// Evaluate one execution; fa, fb must be values of the format.
ExactPoint evaluate_point(OpId op, const Format& format, IntegerDivision idiv, const mpq_class& ar,
                          double fa, const mpq_class& br, double fb);

/// ulp of an exact value in F (spacing of its binade; min subnormal below).
mpq_class exact_ulp(const mpq_class& x, const FloatFormat& F);

/// Which part of the error a bound speaks about: the total error, the propagated or the introduced part.
enum class ErrorPart : unsigned char { Total, Propagated, Introduced };
const char* to_string(ErrorPart p) noexcept;  ///< "err", "err_propag", "err_intro"

/// Which types a bound speaks about.
enum TypeClass : unsigned { kRealType = 1, kFloatType = 2, kIntType = 4 };

/// A registered error bound of one operator: its statement, validity condition,
/// and how to enclose or evaluate it (on a symbolic box and at one execution).
struct SpecBound {
  std::string id;        ///< stable, lower-case: "seed000.div.propagation", "symerr.div.float.introduction"
  OpId op{};             ///< the operator (lib's operator table)
  std::string name;      ///< short human name
  std::string formula;   ///< as the source states it
  std::string source;    ///< document and section
  std::vector<std::string> requirements;  ///< spec IDs covered, e.g. "[R1]", "[C3]"
  /// The TypeClass bits it applies to.
  unsigned types = kRealType | kFloatType | kIntType;
  /// The part of the error it bounds.
  ErrorPart part = ErrorPart::Total;
  bool from_spec = true;   ///< false: one of symerr's own rigorous bounds
  bool strict = false;     ///< the bound is "<", not "<="
  std::string validity;    ///< the stated validity condition, in words
  /// The validity condition on a symbolic input box (True: holds everywhere).
  std::function<Tri(const SymbolicError& a, const SymbolicError& b)> valid_on;
  /// ... and at a concrete execution.
  std::function<bool(const ExactPoint&)> valid_at;
  /// An enclosure of the bound's value over the box (its lower end is what a
  /// proof uses: |part| <= inf bound).
  std::function<Interval(const SymbolicError& a, const SymbolicError& b, const SymbolicError& c)> enclose;
  /// The bound's exact value at a concrete execution.
  std::function<mpq_class(const ExactPoint&)> exact;
  /// Optional, for introduction bounds that depend only on the exact result t
  /// of the machine inputs (and its rounding fc): an enclosure over t ∈ T, and
  /// the validity condition on T. The symbolic check then splits T at powers
  /// of two, where the enclosures of ulp(t) are exact per binade.
  std::function<Interval(const Interval& t, const Interval& fc, const FloatFormat& F)> enclose_t;
  /// The validity condition on T (used with enclose_t).
  std::function<Tri(const Interval& t, const FloatFormat& F)> valid_t;
};

/// The bounds are stated over Interval enclosures (SymbolicError). A check
/// over another domain D (MpfrInterval, RationalInterval, Affine) evaluates
/// them on the interval hull of its values: sound, since every enclosure of D
/// lies in its hull; D's correlations count in the values, not in the bound.
template <RealDomain D>
SymbolicError interval_hull(const SymbolicDomainError<D>& x) {
  if constexpr (std::is_same_v<D, Interval>) {
    return x;
  } else {
    return map_enclosures<Interval>(x, [](const D& d) { return Interval::between(d.lower(), d.upper()); });
  }
}

/// Every registered bound (seed bounds, digest bounds, symerr's own, user's), in
/// registration order. The pointers (also those of bounds_for and find_bound)
/// stay valid for the life of the program; all four functions are thread-safe.
std::vector<const SpecBound*> bound_registry();
/// Add a user bound: its id must be new, non-empty and lower-case without spaces,
/// and it needs `enclose` and `exact` (throws std::invalid_argument otherwise).
void register_bound(SpecBound b);
/// The bounds applicable to an operator and a format.
std::vector<const SpecBound*> bounds_for(OpId op, const Format& format);
/// The bound with this id, or null.
const SpecBound* find_bound(std::string_view id);

// ---- Bounds on a part of a whole tensor operator ---------------------------
// Specifications also bound the propagated and the introduced error of a
// whole operator (SONNX MatMul: propagated <= n(|A_err||B| + |B_err||A| +
// |A_err||B_err|)). Such formulas speak about magnitudes — |A| bounds every
// coefficient of A, |A_err| every error — so one function gives the bound
// over a symbolic box (the box's magnitudes; a proof is sup |part| <= bound,
// with the part enclosed by a kernel run: SymbolicDomainError::propagated /
// ::introduced) and at one execution (that execution's maxima).

/// The magnitudes of one operand tensor, exactly.
struct OperandMagnitudes {
  mpq_class value;   ///< |X|: max |X[i]| over the ideal values
  mpq_class error;   ///< |X_err|: max |X_err[i]|
  mpq_class actual;  ///< |X + X_err|: max over the values the machine reads
};
/// Over a symbolic box: the exact sups of the real, err and fp enclosures.
OperandMagnitudes magnitudes(std::span<const SymbolicError> x);
/// At one execution: ideal values and the values the machine reads (same size).
OperandMagnitudes magnitudes(std::span<const mpq_class> ideal, std::span<const mpq_class> actual);

/// The operands' magnitudes and the operator's shape, for a KernelBound.
struct KernelBoundArgs {
  std::vector<OperandMagnitudes> operands;  ///< in the operator's input order (MatMul: A, B)
  std::size_t reduction = 0;                ///< terms per output element (MatMul: the inner dimension n)
  /// The format of the elements.
  Format format{};
};

/// A bound on a part of every output element of a whole tensor operator, as a
/// function of the operands' magnitudes (SONNX MatMul).
struct KernelBound {
  std::string id;       ///< stable, lower-case, distinct from every SpecBound id
  std::string op;       ///< ONNX name ("MatMul")
  /// A short human name.
  std::string name;
  std::string formula;  ///< as the source states it
  /// Document and section.
  std::string source;
  ErrorPart part = ErrorPart::Total;  ///< the part of every output element it bounds
  /// The TypeClass bits it applies to.
  unsigned types = kRealType | kFloatType | kIntType;
  /// false: one of symerr's own rigorous bounds.
  bool from_spec = true;
  bool strict = false;  ///< "<" rather than "<="
  /// The stated validity condition, in words.
  std::string validity;
  /// The bound's exact value, the same for every output element.
  std::function<mpq_class(const KernelBoundArgs&)> value;
};

/// What a bound says about one output element: proven when the sup of the
/// enclosure of its part is within the bound over the box (True), refuted
/// only by an execution (holds_at false).
Tri kernel_bound_proven(const KernelBound& b, const KernelBoundArgs& box, const mpq_class& part_sup);
/// Whether the bound holds for one execution whose element part is `part`.
bool kernel_bound_holds_at(const KernelBound& b, const KernelBoundArgs& execution, const mpq_class& part);

/// The kernel-bound registry (built-in: the SONNX MatMul bounds), with the
/// same rules and guarantees as the SpecBound registry above.
std::vector<const KernelBound*> kernel_bound_registry();
void register_kernel_bound(KernelBound b);  ///< id rules as register_bound; needs `value`
/// The kernel bounds applicable to an operator (ONNX name) and a format.
std::vector<const KernelBound*> kernel_bounds_for(std::string_view op, const Format& format);
/// The kernel bound with this id, or null.
const KernelBound* find_kernel_bound(std::string_view id);

}  // namespace symerr::verify
