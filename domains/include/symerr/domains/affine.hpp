// Affine: a RealDomain of affine forms x0 + Σ xi·εi over noise symbols
// εi ∈ [-1, 1], each intersected with an interval (the reduced product of
// affine and interval arithmetic), so that quantities computed from shared
// inputs keep their correlation: x − x is exactly 0 and x·x − x·x is exactly 0.
//
// Value and context. An Affine is a trivially copyable 8-byte handle (a form
// index and the id of the AffineContext that owns the form), so it survives
// memcpy into malloc'd buffers. Forms are immutable and owned by the context:
//   AffineContext ctx;            // owns the forms and the symbol counter
//   AffineScope scope(ctx);       // makes ctx current on this thread
//   Affine x = Affine::between(1, 2);   ... x - x == point 0
// Rules:
// * every operation except those on the default value (the point 0, valid
//   everywhere, also without a context) needs a current context on the
//   calling thread, or throws std::logic_error naming the problem;
// * portable_point(v) / portable_whole() (SymbolicDomainError's literals and
//   constants use them), and point(v) / whole() with no current context, give
//   context-free handles that every operation maps into the current context
//   (point(v) there, a fresh whole()): a kernel's static constant table works
//   in every context;
// * a handle is valid only in the context that created it, while it lives;
//   using it in another context (or after its context died) throws
//   std::logic_error;
// * a context is used by one thread at a time (it is not synchronised): an
//   AffineScope on a context that a scope of another thread holds throws
//   std::logic_error naming both threads; scopes nest (the innermost is
//   current) and must be destroyed in reverse order.
//
// Semantics (functional, stronger than the set semantics of concept.hpp): in
// every execution there is one assignment ε* ∈ [-1, 1]^N of all the context's
// symbols at which every form evaluates to the exact quantity it encloses, and
// that quantity also lies in the form's interval. Hence the set
// {form(ε)} ∩ interval encloses the quantity (the RealDomain contract), and
// forms sharing symbols may be combined linearly without loss.
// * between()/whole()/from_rational()/hull() create a fresh symbol (an
//   independent quantity);
// * +, −, negation and scaling by a point are linear: coefficients are added
//   in upward rounding and the sum of the coefficient rounding errors becomes
//   one fresh symbol;
// * ×: the quadratic part Q = (a − a0)(b − b0) is bounded by its diagonal
//   (εi² ∈ [0, 1]) and off-diagonal sums and by the product of the operands'
//   ranges minus their centers; the product's range is also bounded by the
//   per-symbol joint range of its linear and diagonal parts; ÷ is x · (1/y) with 1/y by its Chebyshev
//   (min-max) linearisation on the range of y; sqrt by its Chebyshev
//   linearisation; abs by the chord/tangent pair; each remainder is one fresh
//   symbol;
// * determinism: every operation is memoised on (operation, operand handles),
//   so the same operation on the same handles returns the same handle and its
//   fresh symbols are shared (a deterministic machine computes the same
//   value): (x*x) - (x*x) is exactly 0;
// * condensation: a form keeps at most AffineOptions::max_terms symbols; when
//   an operation yields more, the largest max_terms/2 are kept and the
//   magnitudes of the others are summed (rounded up) into one fresh symbol,
//   so every operation costs O(max_terms) (condensing to half leaves room
//   for the next steps of a sum chain);
// * storage: a form whose terms are another form's followed by newer symbols
//   (c + p in a sum chain) stores only the extension, so a chain of n
//   additions stores O(n) terms, not O(n · max_terms);
// * intersect(a, b) keeps one form (the correlated one: a form from an
//   operation is preferred to a fresh between(); among two correlated forms the
//   one of smaller radius) and intersects the intervals;
// * comparisons first compare the ranges, then, if undecided, the range of
//   a − b (the correlated difference);
// * clip(a, lo, hi) is memoised on (a, the clipped range), so clipping the
//   same value twice gives the same handle;
// * the elementary functions of SymbolicDomainError<Affine> (exp, expm1,
//   exp2, log, log1p, tanh, sigmoid, erf, and sqrt's rounding) are linearised in
//   their operand with remainders named by function_of
//   (<symerr/symbolic/elementary/linearise.hpp>): exp(x) − exp(x) is exactly 0.
// Every floating-point computation runs in one upward-rounding scope per
// operation (domains/src/affine.cpp, compiled with -frounding-math), set and
// restored by the library: the caller's rounding mode does not matter.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <gmpxx.h>

#include <symerr/domains/concept.hpp>
#include <symerr/format.hpp>
#include <symerr/tribool.hpp>

namespace symerr {

class AffineContext;

/// A RealDomain of affine forms x0 + Σ xi·εi over noise symbols εi ∈ [−1, 1],
/// each intersected with an interval, so that quantities computed from shared
/// inputs keep their correlation (x − x is exactly 0). A trivially copyable
/// 8-byte handle into the AffineContext that owns the form; every operation
/// except those on the point 0 needs a current context (AffineScope) on the
/// calling thread, or throws std::logic_error (see this header's opening comment).
class Affine {
 public:
  /// Read by SymbolicDomainError (arith.hpp): evaluate identities in the order
  /// that keeps correlated factors together.
  static constexpr bool keeps_correlations = true;

  // The point 0 (valid in every context and without one).
  Affine() noexcept = default;

  /// {v}. Throws std::invalid_argument if v is NaN. ±inf give the degenerate
  /// [v, v] of the interval convention.
  /// (0 inline: every SymbolicDomainError<Affine> is constructed with six)
  static Affine point(double v) { return v == 0 ? Affine() : nonzero_point(v); }
  /// [lo, hi] as a fresh symbol. Throws std::invalid_argument on NaN or lo > hi.
  static Affine between(double lo, double hi);
  /// The tightest double interval around q, as a fresh symbol.
  static Affine from_rational(const mpq_class& q);
  /// The real line (a fresh unbounded form; context-free without a current context).
  static Affine whole();
  ///@{
  /// {v} and the unknown as context-free handles, valid in every context (each
  /// operation maps them into the current one): SymbolicDomainError's literals
  /// and constants use them, so that a kernel's static constant survives the
  /// contexts of the driver's subdivision. point()/whole() give the same with
  /// no current context.
  static Affine portable_point(double v);
  static Affine portable_whole();
  ///@}
  /// point(v) for v != 0 (or NaN).
  static Affine nonzero_point(double v);  // point(v) for v != 0 (or NaN)

  ///@{
  /// The bounds of the form's range met with its interval (upper(): the upper bound).
  double lower() const;
  double upper() const;
  ///@}

  /// The form's index in its context (0: the point 0).
  std::uint32_t index() const noexcept { return index_; }
  /// The id of the owning context (0: context-free).
  std::uint32_t context_id() const noexcept { return context_; }
  /// Whether a and b are the same handle (the same form, hence the same quantity).
  friend bool same_handle(const Affine& a, const Affine& b) noexcept {
    return a.index_ == b.index_ && a.context_ == b.context_;
  }

 private:
  friend class AffineContext;
  Affine(std::uint32_t index, std::uint32_t context) noexcept : index_(index), context_(context) {}
  std::uint32_t index_ = 0;
  std::uint32_t context_ = 0;  // 0: the point 0, context-free
};

static_assert(std::is_trivially_copyable_v<Affine> && sizeof(Affine) == 8);

/// The options of an AffineContext.
struct AffineOptions {
  /// Condensation threshold: the most symbols one form keeps (2 to 65535).
  std::size_t max_terms = 48;
  /// Memoisation of operations (off: every operation creates new symbols; only
  /// for measuring its effect).
  bool memoise = true;
};

/// One symbol of a form: coefficient · ε_symbol.
struct AffineTerm {
  /// The noise symbol's number.
  std::uint32_t symbol;
  /// Its coefficient.
  double coefficient;
};

/// The owner of forms and symbols. Not copyable, not movable (handles point
/// into it). Construction runs the start-up self-test once per process (throws
/// std::runtime_error if directed rounding does not work).
class AffineContext {
 public:
  /// A context with `options`; runs the start-up self-test once per process.
  /// @throws std::runtime_error when directed rounding does not work.
  explicit AffineContext(AffineOptions options = {});
  ~AffineContext();
  AffineContext(const AffineContext&) = delete;
  AffineContext& operator=(const AffineContext&) = delete;

  /// The context current on this thread; throws std::logic_error if none.
  static AffineContext& current();
  /// The context current on this thread, or null.
  static AffineContext* current_or_null() noexcept;

  /// This context's id (handles carry it).
  std::uint32_t id() const noexcept { return id_; }
  /// The options it was made with.
  const AffineOptions& options() const noexcept { return options_; }
  std::size_t symbol_count() const noexcept;  ///< symbols created so far
  /// The number of forms stored.
  std::size_t form_count() const noexcept;
  std::size_t term_count() const noexcept;    ///< stored terms (memory ~ 12 bytes each)

  ///@{
  /// The storage of a destroyed context (its form headers, terms and memo
  /// blocks, mapped and written once) is kept for the next contexts in a
  /// process-wide, thread-safe pool of at most 1 GiB, so that a context reusing
  /// it pays no page faults (the driver makes one context per box). These
  /// report the pool's size and return its memory to the system.
  static std::size_t pooled_storage_bytes() noexcept;
  static void release_pooled_storage() noexcept;
  ///@}

  ///@{
  /// Inspection: the center and the terms of a form (for tests and reports).
  double center(const Affine& a) const;
  std::vector<AffineTerm> terms(const Affine& a) const;
  ///@}

  /// The handle of form `index` of this context (implementation use).
  Affine handle(std::uint32_t index) const noexcept { return index == 0 ? Affine() : Affine(index, id_); }

  struct Impl;
  /// The implementation (for domains/src only).
  Impl& impl() noexcept { return *impl_; }

 private:
  friend class AffineScope;
  std::unique_ptr<Impl> impl_;
  AffineOptions options_;
  std::uint32_t id_;
};

/// Makes a context current on this thread for its lifetime (nestable). A
/// context is held by one thread at a time: while a scope of one thread holds
/// it, a scope on it from another thread throws std::logic_error naming both
/// threads (the context is not synchronised; sequential use by several
/// threads, one scope after another, is fine).
class AffineScope {
 public:
  /// Makes `ctx` current until the scope ends (the previous one is then restored).
  /// @throws std::logic_error when a scope of another thread holds `ctx`.
  explicit AffineScope(AffineContext& ctx);
  ~AffineScope();
  AffineScope(const AffineScope&) = delete;
  AffineScope& operator=(const AffineScope&) = delete;

 private:
  AffineContext* previous_;
  AffineContext* held_;
};

///@{
/// Affine arithmetic: the RealDomain contract (<symerr/domain/concept.hpp>)
/// with correlations kept; a / b is whole() if 0 ∈ b; sqrt(a) = {√x : x >= 0},
/// point 0 if a <= 0. Each needs a current context (else std::logic_error).
Affine operator+(const Affine& a, const Affine& b);
Affine operator-(const Affine& a, const Affine& b);
Affine operator*(const Affine& a, const Affine& b);
Affine operator/(const Affine& a, const Affine& b);  // whole() if 0 in b
Affine operator-(const Affine& a);
Affine abs(const Affine& a);
Affine sqrt(const Affine& a);  // {sqrt(x) : x >= 0}; point 0 if a <= 0
///@}
/// The smallest enclosure of a ∪ b (a fresh symbol).
Affine hull(const Affine& a, const Affine& b);
/// max(a, b) (upper) or min(a, b) of the two quantities (the hook of
/// SymbolicDomainError's max/min/fmax/fmin/clamp): an operand where the
/// ranges decide it, else a fresh symbol enclosed by [max(lo), max(hi)] (resp.
/// min) that the context records as their extremum, so that a − max(…, a, …)
/// <= 0, max(…, b, …) − b >= 0 (and the mirrored facts of min) narrow the
/// ranges of later differences: a running maximum m = max(m, x_i) keeps
/// x_i − m in [−2, 0] for inputs in [−1, 1], not [−2, 2]. Memoised.
Affine domain_extremum(const Affine& a, const Affine& b, bool upper);
/// (a ± b) + c (subtract_b: a − b + c): the same quantity as the two operations,
/// in one form when b's and c's symbols are newer than a's (a sum chain's
/// step), else computed as the two operations.
Affine add3(const Affine& a, const Affine& b, bool subtract_b, const Affine& c);
/// a ∩ b (the form clipped to the common range), or std::nullopt if disjoint.
std::optional<Affine> intersect(const Affine& a, const Affine& b);
/// a·b + c·d in one form: the linear terms of both products merged and their
/// two quadratic remainders in one fresh symbol (the remainders are held by no
/// other form, so naming their sum loses nothing), the range also clipped by
/// the sum of the products' ranges; two stores fewer than a * b + c * d.
/// Computed as a * b + c * d when an operand is 0, a point or unbounded.
Affine multiply_add(const Affine& a, const Affine& b, const Affine& c, const Affine& d);

/// A form for a quantity known to be a deterministic function of the quantity
/// of `of` (same handle ⇒ same quantity), tagged by `tag`, enclosed by `bound`:
/// the first call for (of, tag) creates a fresh symbol scaled to bound's range,
/// later calls return the same handle. Used to name rounding errors round(t) − t
/// (<symerr/domains/affine_symbolic.hpp>).
Affine function_of(const Affine& of, std::uint64_t tag, const Affine& bound);

/// The same with the bound given as [lo, hi] (lo <= hi; no form is built for it).
Affine function_of(const Affine& of, std::uint64_t tag, double lo, double hi);

/// The form of `a` with its interval intersected with [lo, hi] (a superset of
/// a's quantity): the same terms, so correlations are kept; the same handle
/// when [lo, hi] does not tighten (or is disjoint: no execution reaches here).
Affine clip(const Affine& a, double lo, double hi);

/// The tag naming the rounding into (F, mode) for function_of.
inline std::uint64_t rounding_tag(const FloatFormat& F, RoundingMode mode) {
  const auto u = [](long v) { return static_cast<std::uint64_t>(v); };
  return (u(F.precision) << 48) ^ (u(F.emin + 60000) << 30) ^ (u(F.emax + 60000) << 12) ^ (u(F.subnormals) << 8) ^
         u(static_cast<long>(mode));
}

/// The customisation point of SymbolicDomainError (detail::introduced_float):
/// the rounding error round(t) − t of the exact result t into F under `mode`
/// is a function of t, so it is named by one symbol per (t, F, mode), and
/// identical operations on identical operands share it.
inline Affine name_rounding_error(const Affine& t, const FloatFormat& F, RoundingMode mode,
                                  const Affine& bound) {
  return function_of(t, rounding_tag(F, mode), bound);
}

///@{
/// The endpoint queries of the domain concept (<symerr/domain/concept.hpp>) on
/// the form's range: v ∈ a, q ∈ a, a ⊆ b, width (rounded up), sup |x|, inf |x|,
/// a finite point, both ends finite.
bool contains(const Affine& a, double v);
bool contains(const Affine& a, const mpq_class& q);
bool subset(const Affine& a, const Affine& b);
double width(const Affine& a);
double mag(const Affine& a);
double mig(const Affine& a);
bool is_point(const Affine& a);
bool is_bounded(const Affine& a);
///@}
/// Whether the forms of a and b have a noise symbol in common (correlated).
bool share_symbols(const Affine& a, const Affine& b);
/// The radius Σ|xi| of the form alone (before the interval intersection).
double form_radius(const Affine& a);

///@{
/// Comparisons as Tri: True if the relation holds for every pair of values, False if
/// for none; a difference of correlated forms decides more than their ranges.
Tri cmp_lt(const Affine& a, const Affine& b);
Tri cmp_le(const Affine& a, const Affine& b);
inline Tri cmp_gt(const Affine& a, const Affine& b) { return cmp_lt(b, a); }
inline Tri cmp_ge(const Affine& a, const Affine& b) { return cmp_le(b, a); }
Tri cmp_eq(const Affine& a, const Affine& b);
inline Tri cmp_ne(const Affine& a, const Affine& b) { return !cmp_eq(a, b); }
///@}

/// "[lo, hi]" (17 significant digits, outward) and the number of symbols.
std::string to_string(const Affine& a);
/// Prints to_string(a).
std::ostream& operator<<(std::ostream& os, const Affine& a);

/// The start-up self-test: directed rounding works in the affine scope, the
/// caller's mode is unchanged, x − x = 0, and a product encloses its exact value.
bool affine_self_test();

static_assert(RealDomain<Affine>);

// ---- the SymbolicDomainError fast path (domains/src/affine_symbolic.cpp) ----
// Declared here (the primary template, enabled = false, is in
// <symerr/symbolic/arith.hpp>) so that every use of SymbolicDomainError<Affine>
// sees it. arithmetic() on SymbolicDomainError<Affine> calls apply(), which
// runs the operation once over the Interval domain on the operands' ranges
// (every flag and an interval for every field) and builds only the affine
// forms that carry correlations — real, t = fp_x ∘ fp_y, the rounding symbol,
// err, fp = t + rounding (one store with t where nothing else reads t),
// propagated, introduced = err − propagated — each intersected with the
// interval result, so never wider than it (domains/src/affine_symbolic.cpp). Operands
// outside its scope (non-float formats, possible specials, a divisor that
// may be 0) take the generic path.
enum class ArithOp;
enum class IntegerDivision : unsigned char;
template <RealDomain D>
class SymbolicDomainError;
template <class D>
struct FastArithmetic;
/// Affine's fast path of arithmetic() (domains/src/affine_symbolic.cpp): the operation runs
/// once over Interval on the operands' ranges, and only the affine forms that carry
/// correlations are built; operands outside its scope take the generic path.
template <>
struct FastArithmetic<Affine> {
  /// Affine has a fast path.
  static constexpr bool enabled = true;
  /// arithmetic(op, x, y, int_division) by the fast path.
  static SymbolicDomainError<Affine> apply(ArithOp op, const SymbolicDomainError<Affine>& x,
                                           const SymbolicDomainError<Affine>& y,
                                           std::optional<IntegerDivision> int_division);
};

}  // namespace symerr
