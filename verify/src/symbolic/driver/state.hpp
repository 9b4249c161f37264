// The branch driver's state: the paths of a lane, the recorded path
// conditions, the unstable groups, and the limits of one call (see
// <symerr/verify/symbolic/driver.hpp> for the model).
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <vector>

#include <symerr/verify/symbolic/driver.hpp>
#include <symerr/symbolic/quantity_recipe.hpp>

#include "linear_bound.hpp"

namespace symerr::verify::driver_impl {

// One undecided comparison's outcome on a path.
struct Step {
  bool ideal;
  bool computed;
};

enum class Role : unsigned char { Joint, Real, Computed };

// A path of one lane: the outcomes of its undecided comparisons in order of
// occurrence. Real/Computed items belong to the unstable group `group`, whose
// ideal and computed outcomes first differ at step `diverge`.
struct Item {
  std::vector<Step> script;
  Role role = Role::Joint;
  std::size_t group = 0;
  std::size_t diverge = 0;
};

// A comparison's outcome on a path, as recorded (cheap): h <= 0 on every
// execution of the path, h = a − b (or b − a when `flip`) of the compared
// operands' real values (or computed values when `computed`). Turned into a
// Lin only when a pair of paths needs it (Explorer::condition_lin).
struct Cond {
  Affine form{};                     // Affine domain: h itself, a form of the context
  std::int32_t input[2] = {-1, -1};  // interval domains: operand o is a copy of this input,
  double value[2] = {0, 0};          // or (input −1) the exact constant value[o]
  bool computed = false;
  bool flip = false;
  bool by_input = false;  // Affine domain: stated by input tags and constants (input, value), not by form
  bool operator==(const Cond& o) const {
    return same_handle(form, o.form) && input[0] == o.input[0] && input[1] == o.input[1] &&
           value[0] == o.value[0] && value[1] == o.value[1] && computed == o.computed && flip == o.flip &&
           by_input == o.by_input;
  }
};

// A computed quantity met in a comparison: its number (>= the number of
// inputs; see symerr::detail::quantity_numbering) and its real and err ranges
// at its first comparison on the run, which parametrise it as an input's do
// (input_lin). A result of an operation on tagged operands is numbered when
// it is made, in the order of the run's operations; an untagged compared
// object is numbered at the comparison. Runs that execute the same
// operations and outcomes up to a point number the quantities made before
// that point alike, and a quantity's range at its first comparison is the
// range it was made with (only a comparison tightens a value, and the first
// one records it before tightening): the real and the computed run of an
// unstable group share the quantities numbered before their divergence, and
// only those (Names::limit).
struct Named {
  std::uint32_t quantity;
  double real_lo, real_hi, err_lo, err_hi;
};
struct Names {
  const std::vector<Named>* table = nullptr;
  std::uint32_t limit = 0xFFFFFFFFu;  // quantities numbered from here on are not shared
};

template <class D>
struct GroupState {
  using S = SymbolicDomainError<D>;
  std::uint32_t shared = 0;  // the quantities numbered before the divergence: below this
  // per lane output: hull of the real-path / computed-path results
  std::vector<std::optional<S>> real_side;
  std::vector<std::optional<S>> computed_side;
  // Every run of each side with its path condition (see pair_err).
  struct Run {
    std::vector<S> outputs;       // per lane output
    std::vector<Cond> conditions;  // h with h(ε*) <= 0 on every execution of the path
    std::vector<Named> named;      // the computed values named on the path
    // how the run's quantities were made, by number (see same_quantity):
    // the run's recipe table, one immutable copy shared by every lane and
    // group of the run (a copy of its tail per lane made the driver
    // quadratic in the number of lanes: 70-80% of the time, memory ∝ N²)
    std::shared_ptr<const std::vector<symerr::detail::QuantityRecipe>> recipes;
  };
  std::vector<Run> real_runs, computed_runs;
};

template <class D>
struct LaneState {
  using S = SymbolicDomainError<D>;
  std::vector<Item> pending;
  std::optional<Item> current;
  std::size_t occurrence = 0;
  bool overflow = false;                 // a path had more than max_branches forks
  bool infeasible = false;               // the current path's condition holds for no execution
  std::vector<std::size_t> outputs;      // output indices of this lane
  std::vector<std::optional<S>> joint;   // per lane output: hull over joint paths
  bool branched = false;                 // the driver decided a comparison of this lane
  std::vector<Cond> conditions;          // the current run's path condition (see record)
  // Affine domain: the same outcomes stated by the operands' input tags
  // (Cond::by_input), for outcome_feasible only: a form may be replaced by
  // another one of the same quantity (a narrowed input's fp, met with a
  // narrower fresh range, takes that range's symbol), a tag never is.
  std::vector<Cond> tag_conditions;
  std::vector<Named> named;              // the current run's named computed values
  std::vector<GroupState<D>> groups;
};

template <class D>
SymbolicDomainError<D> join(const std::optional<SymbolicDomainError<D>>& acc, const SymbolicDomainError<D>& v) { return acc ? symerr::detail::join_values(*acc, v) : v; }

template <class D>
SymbolicDomainError<D> unbounded_like(const SymbolicDomainError<D>& v) {
  auto z = SymbolicDomainError<D>::undef(v.format);
  z.mode = v.mode;
  z.origin = v.origin;
  return z;
}

// An unstable pair: real from the real path, fp from the computed path.
template <class D>
SymbolicDomainError<D> combine_unstable(const SymbolicDomainError<D>& real_side,
                                        const SymbolicDomainError<D>& computed_side) {
  auto z = symerr::detail::join_values(real_side, computed_side);
  z.mixed = {};  // fp − real across two paths: neither side's pair holds
  z.real = real_side.real;
  z.fp = computed_side.fp;
  z.specials.may_be_defined = real_side.specials.may_be_defined;
  z.specials.may_be_undefined = real_side.specials.may_be_undefined;
  z.specials.may_be_finite = computed_side.specials.may_be_finite;
  z.specials.may_be_nan = computed_side.specials.may_be_nan;
  z.specials.may_be_pos_inf = computed_side.specials.may_be_pos_inf;
  z.specials.may_be_neg_inf = computed_side.specials.may_be_neg_inf;
  z.specials.may_be_pos_zero = computed_side.specials.may_be_pos_zero;
  z.specials.may_be_neg_zero = computed_side.specials.may_be_neg_zero;
  if (symerr::detail::maybe_special(real_side) || symerr::detail::maybe_special(computed_side)) {
    z.err = z.rel_err = z.propagated = z.introduced = D::whole();
    return z;
  }
  z.err = z.fp - z.real;
  // The real computation on the actual inputs may follow either path (or a
  // third one): no whole-kernel split is claimed for an unstable pair.
  z.propagated = z.introduced = D::whole();
  z.rel_err = D::whole();
  z.reduce();
  return z;
}

// The wall-time budget of a whole run_kernel call (DriverOptions::max_seconds;
// none when it is 0): every box exploration, each of its runs and the bounds
// of its unstable pairs check it, so that a kernel whose paths get long (a
// data-dependent loop) cannot hold the call past it. A kernel run is
// abandoned at its first undecided comparison after the deadline (OutOfTime,
// thrown through the kernel as UndecidedBranch is outside a driver): no
// answer to that comparison would be one the exploration could keep, and
// answering it anyway could run the kernel on (a loop `while (x < 2)`
// answered `true` runs until the kernel's own guard, or forever).
struct Deadline {
  std::optional<std::chrono::steady_clock::time_point> at;
  bool passed() const { return at && std::chrono::steady_clock::now() >= *at; }
};
struct OutOfTime {};

// The driver's initial value of every output element in a run: the exact 0
// (S{}, so that `out[i] += v` accumulates from 0, as always) with a source tag
// that nothing else carries — an operation's result has -1 or a run's tag
// (>= 2^16), an input copy its input's tag — and that every reader of tags
// takes for none (quantity_of: negative; derived_source, same_value: below
// 2^16). An output that still carries it after a run was never assigned by
// the kernel on that path (or assigned only a copy of such an element): its
// value would be the driver's 0, not the kernel's, and certified exact.
constexpr std::int32_t kUnwritten = std::numeric_limits<std::int32_t>::min();

// The driver's tags of its inputs (SymbolicDomainError::source): the
// exploration's generation (1 … 2^15 − 1, cycling) in the high half, the
// input's index (< 2^16; later inputs get none) in the low half, so that a
// value kept from another exploration is not taken for one of this one's.
inline std::int32_t next_generation() {
  static std::atomic<std::uint32_t> counter{0};
  return static_cast<std::int32_t>(counter.fetch_add(1, std::memory_order_relaxed) % 0x7FFFu + 1u);
}
constexpr std::size_t kTaggedInputs = std::size_t{1} << 16;
// The most pairs of quantities same_quantity compares for one output (its
// search stays bounded; past it, the output is not matched: the pair keeps
// its other bounds).
constexpr std::size_t kMaxRecipes = std::size_t{1} << 14;

}  // namespace symerr::verify::driver_impl
