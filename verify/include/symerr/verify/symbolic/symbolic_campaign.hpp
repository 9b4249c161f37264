// The symbolic half of the default campaign and the spec audit of the seeds:
// symerr's generic operators run on SymbolicDomainError against the seed
// specifications' bounds (docs/design.md §3).
#pragma once

#include <functional>
#include <string_view>
#include <vector>

#include <symerr/verify/report/verdict.hpp>
#include <symerr/verify/symbolic/symbolic_check.hpp>

namespace symerr::verify {

/// A progress callback: one line per started or finished step.
using Progress = std::function<void(std::string_view)>;

/// The symbolic check a campaign runs, type-erased over the abstract domain:
/// empty means symbolic_check (Interval); any check of the same signature over
/// another domain (its bounds evaluated through interval_hull) serves.
using SymbolicCheckFn = std::function<CheckResult(OpId, const Format&, const InputBox&, const InputBox&,
                                                  const SpecBound&, const SymbolicCheckOptions&)>;

/// Symbolic checks of Div/Sub/Add/Mul for FP16, BF16, FP32, FP64, INT8, UINT8,
/// INT32 against the seed bounds (propagation and introduction).
std::vector<CheckResult> run_default_symbolic_checks(const Progress& progress = {},
                                                     const SymbolicCheckFn& check = {});

/// The spec audit of the seeds: each stated bound searched for violations, the
/// special-value rules checked against IEEE 754, the examples against the
/// operator semantics.
std::vector<CheckResult> run_seed_audit(const Progress& progress = {}, const SymbolicCheckFn& check = {});

}  // namespace symerr::verify
