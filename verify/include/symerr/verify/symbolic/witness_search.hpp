// The counterexample search of a kernel check (docs/verdicts.md "Witnesses
// from the compiled kernel"): the compiled kernel — the plain build, the item
// under test — run against an exact execution of the same program, at inputs
// chosen by the symbolic analysis.
//
// Budget, in work only (deterministic: the same arguments give the same
// points, whatever the machine's load):
//  1. aim: the input box is cut into a grid of at most `boxes` sub-boxes
//     (the same number of cuts along every input's real range); each
//     sub-box's enclosure is computed (one driver exploration each) and the
//     sub-boxes whose sup|err| exceeds the bound are ranked, largest first;
//  2. constructions (at most a quarter of `executions`), in each of the
//     `focus` best sub-boxes: its corners and
//     centre, and the aligned-rounding points — every power of two inside the
//     sub-box and the values of the format next to it (where a rounding's
//     spacing changes and the relative error of a rounding is largest);
//  3. draws: `draws` pseudo-random values of the format in those sub-boxes,
//     round-robin from the worst (seeded by `seed`);
//  4. local search: around each of the `best` points of largest observed
//     error, the `neighbours` values of the format on either side of each
//     input (the compiled kernel's error is not smooth: a neighbour one ulp
//     away can have another rounding pattern).
// Every point costs one execution of the compiled kernel and one exact
// execution; at most `executions` in all (phases 2–4 share it); the search
// stops at `max_witnesses` re-checked witnesses.
//
// A point is a violation when every real value in the exact execution's
// enclosure lies farther than the bound from the compiled kernel's output:
// decided in rationals (GMP) from the enclosure's endpoints. A violation is
// re-checked before it is reported: the compiled kernel is run again (the
// same output bit for bit) and the exact execution again, and the rational
// comparison repeated.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include <gmpxx.h>

#include <symerr/format.hpp>
#include <symerr/verify/report/verdict.hpp>

namespace symerr::verify {

/// One operand's symbolic input: real value in [lo, hi], error in [elo, ehi].
struct InputBox {
  ///@{
  /// The real value's range [lo, hi] and the error's range [elo, ehi].
  double lo = 0, hi = 0, elo = 0, ehi = 0;
  ///@}
};

/// The compiled kernel (the plain build, compiled with the user's flags) of
/// one output: its inputs are values of the check's format held in doubles;
/// it returns the output (a value of the format) as a double. It is called
/// with the FP environment in its default state (round to nearest, no FTZ, no
/// DAZ, no traps); the caller's state is restored afterwards.
using CompiledKernel = std::function<double(std::span<const double> inputs)>;

/// The exact execution at one point: the real inputs (real[i], a double) and
/// their errors (err[i]: the computed input is real[i] + err[i]); returns a
/// sound enclosure [lo, hi] of the program's ideal (real) output, or nullopt
/// when it has none (undefined, infinite). symbolic_check builds it from the
/// substituted kernel run at the point (the real part of its output).
using ExactExecution =
    std::function<std::optional<std::pair<double, double>>(std::span<const double> real, std::span<const double> err)>;

/// The bound at one point when it is not a constant (a statement's right-hand
/// side evaluated there, statement_check.hpp): the real and error inputs, the
/// enclosure of the real output, the compiled output; returns an upper bound
/// of the allowed |err| in rationals, or nullopt where the statement does not
/// apply (its condition is not certainly true there).
using PointBound = std::function<std::optional<mpq_class>(std::span<const double> real, std::span<const double> err,
                                                           const std::pair<double, double>& real_output,
                                                           double computed_output)>;

/// The sup of |err| of the substituted kernel's enclosure over a sub-box
/// (+inf when the output may be special).
using BoxErrorSup = std::function<double(std::span<const InputBox> box)>;

/// The work budget of the search (the phases above).
struct WitnessSearchOptions {
  std::size_t boxes = 64;          ///< sub-boxes of the aiming grid
  std::size_t focus = 4;           ///< best sub-boxes searched
  std::size_t draws = 8192;        ///< pseudo-random points in them
  std::size_t best = 8;            ///< points kept for the local search
  std::size_t neighbours = 64;     ///< format steps either side, per input
  std::size_t executions = 16384;  ///< compiled + exact executions in all
};

/// What the search found and the work it did.
struct WitnessSearchResult {
  std::vector<Witness> witnesses;  ///< re-checked violations (at most max_witnesses)
  std::uint64_t executions = 0;    ///< points run (compiled and exact)
  std::uint64_t undefined = 0;     ///< points without a finite real result or a finite output
  std::uint64_t failures = 0;      ///< points found beyond the bound (before the re-check)
  std::uint64_t inapplicable = 0;  ///< points where the statement does not apply (PointBound: nullopt)
  std::size_t boxes = 0;           ///< sub-boxes of the aiming grid explored
  std::size_t boxes_above = 0;     ///< of which with sup|err| above the bound
  double max_observed = 0;         ///< the largest observed |output − real| (its lower bound)
  double max_ratio = 0;            ///< the largest observed |output − real| / allowed
  std::optional<Witness> worst;    ///< the point where it was observed
};

/// The search described above, for |err| <= bound over `inputs` in `format`
/// (with `point_bound`: |err| <= point_bound at each point; `bound` then only
/// ranks the sub-boxes).
WitnessSearchResult search_witnesses(const CompiledKernel& compiled, const ExactExecution& exact,
                                     const BoxErrorSup& box_sup, std::span<const InputBox> inputs,
                                     const Format& format, double bound, const WitnessSearchOptions& options,
                                     std::size_t max_witnesses, std::uint64_t seed,
                                     const PointBound& point_bound = {});

}  // namespace symerr::verify
