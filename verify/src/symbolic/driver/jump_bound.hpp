// The driver's explorer, the ideal program's jump between two control flows:
// for an unstable pair (real run r, computed run c) whose output k is made by
// the same operations on both runs except at leaves where r reads quantity
// a_p and c reads quantity b_p (a running maximum written with `if`: r keeps
// one input, c another), a range of real_c(x) − real_r(x) over the pair's
// executions. Then err = fp_c − real_r = err_c + (real_c − real_r).
//
// The two results are one function F of the shared leaves and of the leaves
// that differ, at τ = 1 (r's leaves) and τ = 0 (c's), leaf_p(τ) = b_p + τ·δ_p
// with δ_p = a_p − b_p (real values). Forward differentiation over interval
// enclosures gives dF/dτ ∈ Σ_p A_p·δ_p (mean value theorem), and, where F's
// value keeps its sign, d log|F|/dτ ∈ Σ_p R_p·δ_p. The logarithmic form sees
// what the absolute one loses: exp(x_i − m) / Σ_j exp(x_j − m) has R = −1 in
// every numerator and, as a convex combination of them, in the sum, so
// R = 0 for the quotient: the jump is exactly 0 whatever δ (softmax does not
// depend on the maximum it subtracts), where the absolute form is ~10^3·δ.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <utility>
#include <vector>

#include <symerr/domains/interval.hpp>
#include <symerr/symbolic/quantity_recipe.hpp>

namespace symerr::verify::driver_impl {

// What jump_bound needs to know of the group's quantities.
struct JumpLeaves {
  // the number of the quantity a tag stands for (this exploration), or nullopt
  std::function<std::optional<std::size_t>(std::int32_t)> quantity_of;
  // whether quantity q is one of both runs (an input, or numbered before the divergence)
  std::function<bool(std::size_t)> shared;
  // the real range of a shared quantity q if known (an input, a named value)
  std::function<std::optional<Interval>(std::size_t)> range;
  // a range of real(a) − real(b) over the pair's executions (a, b shared)
  std::function<std::optional<Interval>(std::size_t, std::size_t)> delta;
};

// Ranges of real_c − real_r of the outputs tagged (a, b) (a on run r, whose
// recipes are r_table, b on run c: c_table), one walk for all of them (they
// share their subexpressions: a softmax's sum); nullopt for one: not made
// alike, or a leaf or operation without a range. Tables sorted by number.
std::vector<std::optional<Interval>> jump_bound(const std::vector<symerr::detail::QuantityRecipe>& r_table,
                                                const std::vector<symerr::detail::QuantityRecipe>& c_table,
                                                const std::vector<std::pair<std::int32_t, std::int32_t>>& outputs,
                                                const JumpLeaves& leaves);

}  // namespace symerr::verify::driver_impl
