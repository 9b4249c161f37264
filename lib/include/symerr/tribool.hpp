// Three-valued answers for comparisons of enclosures (docs/design.md §1 "Comparisons").
#pragma once

#include <cstdint>
#include <vector>

namespace symerr {

/// The answer to "does the property hold for every element of the enclosed set?"
///   True    — it holds for every element (certainly),
///   False   — it holds for none (certainly not),
///   Unknown — it holds for some and not for others, or the domain cannot tell.
enum class Tri : unsigned char { False = 0, True = 1, Unknown = 2 };

/// Tri::True or Tri::False as `b`.
constexpr Tri tri(bool b) noexcept { return b ? Tri::True : Tri::False; }
///@{
/// Tests of a Tri: certainly() is True, certainly_not() is False, possibly() is
/// not False, possibly_not() is not True, unknown() is Unknown.
constexpr bool certainly(Tri t) noexcept { return t == Tri::True; }
constexpr bool certainly_not(Tri t) noexcept { return t == Tri::False; }
constexpr bool possibly(Tri t) noexcept { return t != Tri::False; }
constexpr bool possibly_not(Tri t) noexcept { return t != Tri::True; }
constexpr bool unknown(Tri t) noexcept { return t == Tri::Unknown; }
///@}

///@{
/// Kleene's three-valued logic: negation, conjunction and disjunction.
constexpr Tri operator!(Tri a) noexcept {
  return a == Tri::Unknown ? Tri::Unknown : tri(a == Tri::False);
}
constexpr Tri operator&&(Tri a, Tri b) noexcept {
  if (a == Tri::False || b == Tri::False) return Tri::False;
  if (a == Tri::True && b == Tri::True) return Tri::True;
  return Tri::Unknown;
}
constexpr Tri operator||(Tri a, Tri b) noexcept {
  if (a == Tri::True || b == Tri::True) return Tri::True;
  if (a == Tri::False && b == Tri::False) return Tri::False;
  return Tri::Unknown;
}
///@}

/// The answer's name: "certainly", "certainly-not" or "unknown".
constexpr const char* to_string(Tri t) noexcept {
  switch (t) {
    case Tri::False: return "certainly-not";
    case Tri::True: return "certainly";
    default: return "unknown";
  }
}

}  // namespace symerr

#include <stdexcept>
#include <string>

namespace symerr {

/// Thrown when a program branches (converts a comparison to bool) on an answer
/// that is not certain for the whole enclosed set, outside a branch driver
/// (symerr::verify::run_kernel handles such branches itself). The message names
/// both operands' real and computed enclosures and, when known, the input
/// element (lane) the compared values depend on.
class UndecidedBranch : public std::runtime_error {
 public:
  /// An exception with the message `what`.
  explicit UndecidedBranch(const std::string& what) : std::runtime_error(what) {}
};

/// The relation a Truth answers, for refinement by a branch driver.
enum class Relation : unsigned char { Other, Lt, Le, Gt, Ge, Eq, Ne };

/// The relation that holds when `r` does not (a < b fails: a >= b).
constexpr Relation negated(Relation r) noexcept {
  switch (r) {
    case Relation::Lt: return Relation::Ge;
    case Relation::Le: return Relation::Gt;
    case Relation::Gt: return Relation::Le;
    case Relation::Ge: return Relation::Lt;
    case Relation::Eq: return Relation::Ne;
    case Relation::Ne: return Relation::Eq;
    default: return Relation::Other;
  }
}

class Truth;

/// A branch driver's hook: while installed (BranchHookScope, per thread), an
/// undecided Truth converted to bool asks the hook for the outcome instead of
/// throwing UndecidedBranch. The hook returns the branch the program follows.
class BranchHook {
 public:
  /// The branch the program follows for the undecided comparison `t`.
  virtual bool decide(const Truth& t) = 0;

 protected:
  ~BranchHook() = default;
};

namespace detail {
inline BranchHook*& branch_hook() noexcept {
  static thread_local BranchHook* hook = nullptr;
  return hook;
}
// The serial number of the last undecided comparison made on this thread: a
// driver tightens operands outside its own buffers only for the latest one
// (a comparison converted to bool in the expression that made it).
inline unsigned long& comparison_serial() noexcept {
  static thread_local unsigned long serial = 0;
  return serial;
}

// A branch driver's numbering of the quantities of its current run on this
// thread (SymbolicDomainError::source: generation << 16 | number): while
// `generation` is set (>= 1), the result of an operation with an operand
// tagged by that generation is a new quantity and takes the next number, so
// that runs which execute the same operations in the same order (two paths
// of one program up to their divergence) number the same quantities alike.
// Outside a driver run, or once the 16-bit numbers are used up, results
// have no tag (-1), as before.
struct QuantityRecipe;  // <symerr/symbolic/quantity_recipe.hpp>
struct QuantityNumbering {
  std::int32_t generation = 0;
  std::uint32_t next = 0;
  // where the driver keeps how each numbered quantity was made (null: nowhere)
  std::vector<QuantityRecipe>* recipes = nullptr;
};
inline QuantityNumbering& quantity_numbering() noexcept {
  static thread_local QuantityNumbering n;
  return n;
}
// The tag of a new result of operands tagged a (and b), or -1.
inline std::int32_t derived_source(std::int32_t a, std::int32_t b = -1) noexcept {
  if (a < 0x10000 && b < 0x10000) return -1;  // neither operand is tagged: the common case
  QuantityNumbering& n = quantity_numbering();
  if (n.generation <= 0 || ((a >> 16) != n.generation && (b >> 16) != n.generation) || n.next >= 0xFFFFu)
    return -1;
  return static_cast<std::int32_t>((static_cast<std::uint32_t>(n.generation) << 16) | n.next++);
}
}  // namespace detail

/// Installs `hook` for the current thread for the scope's lifetime.
class BranchHookScope {
 public:
  /// Installs `hook` (null: none) until the scope ends, then restores the previous one.
  explicit BranchHookScope(BranchHook* hook) noexcept : previous_(detail::branch_hook()) {
    detail::branch_hook() = hook;
  }
  ~BranchHookScope() { detail::branch_hook() = previous_; }
  BranchHookScope(const BranchHookScope&) = delete;
  BranchHookScope& operator=(const BranchHookScope&) = delete;

 private:
  BranchHook* previous_;
};

// What a comparison of two symbolic values knows beyond its Tri: the answers
// for the ideal (real) and the computed values separately, the operands'
// enclosures (copied, for messages), the lane (input element) both operands
// depend on (-1 none, -2 several), and a way to tighten an operand to a chosen
// outcome. `lhs`/`rhs` point at the operands and are only valid while they
// live: a driver refines only objects whose storage it owns; `refine` reads
// the other operand's bounds from the copies here, never through the pointer,
// and returns false when no execution satisfies the outcome (with the strict
// relations that closed enclosures cannot express).
struct ComparisonInfo;
/// A driver's function tightening the operand `target` of a comparison to a
/// chosen outcome (see ComparisonInfo); false when no execution satisfies it.
using RefineFn = bool (*)(void* target, const ComparisonInfo& info, bool target_is_lhs,
                          bool ideal_outcome, bool computed_outcome, bool refine_ideal,
                          bool refine_computed);
/// What a comparison of two symbolic values knows beyond its Tri: the answers
/// for the ideal (real) and the computed values separately, the operands'
/// enclosures (copied, for messages), the lane (input element) both operands
/// depend on (-1 none, -2 several), and a way to tighten an operand to a chosen
/// outcome. `lhs`/`rhs` point at the operands and are only valid while they
/// live: a driver refines only objects whose storage it owns; `refine` reads
/// the other operand's bounds from the copies here, never through the pointer,
/// and returns false when no execution satisfies the outcome (with the strict
/// relations that closed enclosures cannot express).
struct ComparisonInfo {
  /// The answer for the ideal (real) values.
  Tri ideal = Tri::Unknown;
  /// The answer for the computed values.
  Tri computed = Tri::Unknown;
  /// The relation compared.
  Relation relation = Relation::Other;
  /// The input element both operands depend on (-1 none, -2 several).
  int lane = -1;
  ///@{
  /// The operands (valid only while they live).
  const void* lhs = nullptr;
  const void* rhs = nullptr;
  ///@}
  /// Tightens an operand to a chosen outcome (null: not refinable).
  RefineFn refine = nullptr;
  double real[2][2] = {{0, 0}, {0, 0}};  ///< [operand][lower, upper]
  /// The computed-value enclosures, [operand][lower, upper].
  double fp[2][2] = {{0, 0}, {0, 0}};
  double err[2][2] = {{0, 0}, {0, 0}};  ///< [operand][lower, upper] of fp − real
  unsigned long serial = 0;             ///< detail::comparison_serial() when made
  ///@{
  /// The operands as modifiable objects: set only when the operand was a
  /// non-const lvalue (the comparison operators' overloads in
  /// <symerr/symbolic/compare_targets.hpp>), so a driver that tightens through
  /// them never modifies a const object.
  void* lhs_target = nullptr;
  void* rhs_target = nullptr;
  ///@}
  /// The operands' input tags (SymbolicDomainError::source) when compared: a
  /// driver relates the outcome to the inputs also when an operand is a const
  /// object it may not tighten (`(a < b) ? b : a` in std::max).
  std::int32_t source[2] = {-1, -1};
  /// In a domain of handles (Affine: forms in a context that outlives the
  /// comparison), the operands' real and fp handles as compared, [operand][0:
  /// real, 1: fp]: a driver relates the outcome to the forms also when an
  /// operand is a temporary (`(int)(x * 4)`, `a + b > 0`), which it cannot
  /// read through lhs/rhs once the full expression has ended.
  std::uint64_t forms[2][2] = {{0, 0}, {0, 0}};
  /// Whether `forms` is set.
  bool has_forms = false;
  /// Flipped by operator! on the Truth: the outcome a driver reports is that
  /// of the negation (a classification, isnan(x), reads its class through it).
  bool negated = false;
};

/// The message of an UndecidedBranch for the comparison `relation` (with its
/// operands' enclosures and lane when `info` is given).
std::string describe_undecided(const char* relation, const ComparisonInfo* info);

// The result of comparing enclosures: a Tri that a program can still use in an
// `if`. Conversion to bool decides it: on Unknown it asks the installed
// BranchHook, or throws UndecidedBranch, so control flow never silently
// follows an unproven branch. The conversion is implicit, as a comparison's
// result is in C and C++: `bool pos = x > 0;`, `int c = a < b;`, a
// predicate returning `a < b` (std::max({...}), std::sort) compile; the
// outcome is decided where the conversion happens, as in the program.
/// The result of comparing enclosures: a Tri that a program can still use in an
/// `if`. Conversion to bool decides it: on Unknown it asks the installed
/// BranchHook, or throws UndecidedBranch, so control flow never silently
/// follows an unproven branch. The conversion is implicit, as a comparison's
/// result is in C and C++: `bool pos = x > 0;`, `int c = a < b;`, a
/// predicate returning `a < b` (std::max({...}), std::sort) compile; the
/// outcome is decided where the conversion happens, as in the program.
class Truth {
 public:
  /// An answer without operand information.
  constexpr Truth(Tri t, const char* relation = "comparison") noexcept : t_(t), rel_(relation) {}
  /// An answer with the comparison's operand information.
  Truth(Tri t, const char* relation, const ComparisonInfo& info) noexcept
      : t_(t), rel_(relation), info_(info), has_info_(true) {}
  /// The three-valued answer.
  constexpr Tri tri() const noexcept { return t_; }
  ///@{
  /// The ideal and computed answers (both = tri() when no operand info).
  constexpr Tri ideal() const noexcept { return has_info_ ? info_.ideal : t_; }
  constexpr Tri computed() const noexcept { return has_info_ ? info_.computed : t_; }
  /// The operand information, or null.
  ///@}
  const ComparisonInfo* info() const noexcept { return has_info_ ? &info_ : nullptr; }
  /// The relation's name ("<", ..., or "comparison").
  const char* relation() const noexcept { return rel_; }
  /// This Truth with its operands exposed as modifiable (see ComparisonInfo):
  /// each pointer is kept only if it is the operand the comparison recorded.
  Truth with_targets(void* lhs, void* rhs) const noexcept {
    Truth r = *this;
    if (r.has_info_) {
      if (lhs && r.info_.lhs == lhs) r.info_.lhs_target = lhs;
      if (rhs && r.info_.rhs == rhs) r.info_.rhs_target = rhs;
    }
    return r;
  }
  /// The answer as a branch: True → true, False → false; Unknown → the installed
  /// BranchHook's decision, or throws UndecidedBranch (naming the operands).
  operator bool() const {  // NOLINT(google-explicit-constructor): C's comparison result
    if (t_ == Tri::Unknown) {
      if (BranchHook* h = detail::branch_hook()) return h->decide(*this);
      throw UndecidedBranch(describe_undecided(rel_, info()));
    }
    return t_ == Tri::True;
  }
  /// Negation (the ideal and computed answers and the relation negated too).
  friend constexpr Truth operator!(Truth a) noexcept {
    Truth r(!a.t_, a.rel_);
    if (a.has_info_) {
      r.info_ = a.info_;
      r.has_info_ = true;
      r.info_.ideal = !a.info_.ideal;
      r.info_.computed = !a.info_.computed;
      r.info_.relation = negated(a.info_.relation);
      r.info_.negated = !a.info_.negated;
    }
    return r;
  }
  /// With one side decided the result is the other side, operand information
  /// included (a driver can still tighten its operands); two undecided sides
  /// give a Truth without it (the driver forks without tightening).
  friend constexpr Truth operator&&(Truth a, Truth b) noexcept {
    if (a.t_ == Tri::True) return b;
    if (b.t_ == Tri::True) return a;
    return Truth(a.t_ && b.t_, a.rel_);
  }
  /// Disjunction (Kleene), keeping one side's operand information when the other is False.
  friend constexpr Truth operator||(Truth a, Truth b) noexcept {
    if (a.t_ == Tri::False) return b;
    if (b.t_ == Tri::False) return a;
    return Truth(a.t_ || b.t_, a.rel_);
  }

 private:
  Tri t_;
  const char* rel_;
  ComparisonInfo info_{};
  bool has_info_ = false;
};

///@{
/// The Tri tests (certainly(Tri), ...) applied to a Truth's answer; they never throw.
constexpr bool certainly(Truth t) noexcept { return certainly(t.tri()); }
constexpr bool certainly_not(Truth t) noexcept { return certainly_not(t.tri()); }
constexpr bool possibly(Truth t) noexcept { return possibly(t.tri()); }
constexpr bool possibly_not(Truth t) noexcept { return possibly_not(t.tri()); }
///@}

}  // namespace symerr
