// The symbolic check (docs/design.md §3): run an operator on SymbolicDomainError over
// an input box and decide whether |error part| <= bound certainly holds; split
// undecided boxes (bisection of the widest input dimension) within a budget;
// look for a concrete counterexample (exact arithmetic) in every undecided box.
#pragma once

#include <cstdint>

#include <symerr/verify/bounds/bounds.hpp>
#include <symerr/verify/report/verdict.hpp>

namespace symerr::verify {

// One operand's symbolic input: real value in [lo, hi], error in [elo, ehi].
struct InputBox {
  double lo = 0, hi = 0, elo = 0, ehi = 0;
};

struct SymbolicCheckOptions {
  std::size_t max_cells = 2000;      // boxes examined before giving up (inconclusive)
  int samples_per_cell = 4;          // concrete executions tried in each undecided box
  std::size_t max_witnesses = 4;
  std::uint64_t seed = 1;
  IntegerDivision int_division = IntegerDivision::Floor;
};

// Check `bound` for `op` in `format` over a × b. The verdict is Proven when
// every box is decided, Violated with re-checked witnesses, or Inconclusive
// with the number of undecided boxes and one of them in the reason.
CheckResult symbolic_check(OpId op, const Format& format, const InputBox& a, const InputBox& b,
                           const SpecBound& bound, const SymbolicCheckOptions& options = {});

}  // namespace symerr::verify
