// The symbolic check (docs/design.md §3), in two forms:
//  * an operator (Add, Sub, Mul, Div) against a registered SpecBound: the
//    operation runs on SymbolicDomainError over an input box through the
//    kernel driver, and the check decides whether |error part| <= bound
//    certainly holds; undecided boxes are split (bisection of the widest input
//    dimension) within a budget, and every undecided box is searched for a
//    concrete counterexample (exact arithmetic);
//  * any kernel (a callable on SymbolicError values, one output) against a
//    constant bound: the kernel runs through the driver's automatic
//    subdivision (branches analysed, the dimension to split chosen by its
//    contribution to sup|err|) until the bound is proven or the budget is
//    spent; the result carries the enclosure (the hull over the sub-boxes)
//    as well as the verdict.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>

#include <symerr/verify/bounds/bounds.hpp>
#include <symerr/verify/symbolic/driver.hpp>
#include <symerr/verify/symbolic/witness_search.hpp>
#include <symerr/verify/report/verdict.hpp>

namespace symerr::verify {

/// InputBox (one operand's real range and error range): witness_search.hpp.

/// The options of symbolic_check().
struct SymbolicCheckOptions {
  std::size_t max_cells = 2000;      ///< boxes examined before giving up (inconclusive)
  int samples_per_cell = 4;          ///< concrete executions tried in each undecided box
  /// The most witnesses kept.
  std::size_t max_witnesses = 4;
  /// The seed of the concrete executions.
  std::uint64_t seed = 1;
  /// Integer Div's quotient rounding.
  IntegerDivision int_division = IntegerDivision::Floor;
};

/// Check `bound` for `op` in `format` over a × b. The verdict is Proven when
/// every box is decided, Violated with re-checked witnesses, or Inconclusive
/// with the number of undecided boxes and one of them in the reason.
CheckResult symbolic_check(OpId op, const Format& format, const InputBox& a, const InputBox& b,
                           const SpecBound& bound, const SymbolicCheckOptions& options = {});

/// A kernel of one output: reads its symbolic inputs, returns the result. It
/// may branch on comparisons (the driver analyses them) and must be
/// deterministic.
/// BasicSymbolicKernel<D> in domain D; SymbolicKernel in the Interval domain.
template <RealDomain D>
using BasicSymbolicKernel = std::function<SymbolicDomainError<D>(std::span<const SymbolicDomainError<D>> inputs)>;
/// A symbolic kernel in the Interval domain.
using SymbolicKernel = BasicSymbolicKernel<Interval>;

/// The options of check_kernel_bound().
struct KernelCheckOptions {
  /// The driver's options (driver.hpp): its budgets, counted in work
  /// (max_runs, max_branches, max_boxes), and max_seconds, a wall-clock safety
  /// limit only, reported when it stops the analysis; lanes are not used (one
  /// output). The check sets target_err to the bound (for the total error).
  DriverOptions driver = [] {
    DriverOptions o;
    o.max_boxes = 2000;
    return o;
  }();
  /// The plain build of the same kernel (the item under test, compiled with
  /// the user's flags; see witness_search.hpp). Given, the counterexample
  /// search runs it against exact executions of the substituted kernel at
  /// points aimed by the analysis (`search`), for the total error: a
  /// violation is an output of the compiled kernel, re-checked. Every check,
  /// proven or not, then reports the largest observed error (a proven check:
  /// from the `search.draws` points only, capped at 256 executions).
  /// Not given: the search evaluates the substituted kernel at `samples`
  /// pseudo-random points (a violation of every execution the accuracy model
  /// allows at that point).
  CompiledKernel compiled;
  /// The work budget of the counterexample search (witness_search.hpp).
  WitnessSearchOptions search;
  int samples = 64;  ///< point executions searched for a counterexample when not proven (no `compiled`)
  std::size_t max_witnesses = 4;  ///< the most witnesses kept: the search stops at this many
  /// The seed of the point executions.
  std::uint64_t seed = 1;
};

/// The result of a kernel check: the report entry, the output's enclosure and the driver's report.
template <RealDomain D>
struct BasicKernelCheckResult {
  CheckResult check;                 ///< verdict, reason, evidence (boxes, enclosure sup)
  SymbolicDomainError<D> enclosure;  ///< the output's enclosure: hull over the leaf boxes
  DriverReport report;               ///< what the driver did
};
/// BasicKernelCheckResult in the Interval domain.
using KernelCheckResult = BasicKernelCheckResult<Interval>;

/// Check |part| <= bound for `kernel` with inputs of `format` in the given
/// boxes. Proven when the enclosure's sup |part| is at most the bound (and the
/// output cannot be special); Violated when the compiled kernel (options.compiled)
/// breaks the bound at a point, measured against the exact execution and
/// re-checked — or, without a compiled kernel, when a point execution's
/// enclosure has min |part| above the bound; otherwise Inconclusive, with the
/// three numbers in the evidence's metrics: "enclosure_sup" (proven), "bound"
/// (the statement) and "observed_max" (the largest error observed), and
/// "bound_over_observed". The check's id is
/// `symbolic/kernel/<name>/<format>/<part>/le<bound>/<box digest>`: the same
/// for the same check in every run, different for another bound or box.
/// Throws std::invalid_argument for a bound that is not >= 0 or an input box
/// with no value of the format.
KernelCheckResult symbolic_check(const SymbolicKernel& kernel, std::span<const InputBox> inputs,
                                 const Format& format, double bound, ErrorPart part = ErrorPart::Total,
                                 const KernelCheckOptions& options = {}, const std::string& name = "kernel");

/// The same check in any domain D (Interval, MpfrInterval, RationalInterval,
/// Affine): symbolic_check<Affine>(kernel, ...). The bound is decided on the
/// interval hull of D's enclosure. Affine: call it inside an AffineScope; the
/// inputs, the point executions and the returned enclosure live in that
/// context (the driver's sub-boxes use their own contexts, see driver.hpp).
template <RealDomain D>
BasicKernelCheckResult<D> symbolic_check(const BasicSymbolicKernel<D>& kernel, std::span<const InputBox> inputs,
                                      const Format& format, double bound, ErrorPart part = ErrorPart::Total,
                                      const KernelCheckOptions& options = {}, const std::string& name = "kernel");

}  // namespace symerr::verify
