// The symbolic half of the default campaign and the spec audit of the seeds:
// symerr's generic operators run on SymbolicDomainError against the seed
// specifications' bounds (docs/design.md §3).
#pragma once

#include <functional>
#include <string_view>
#include <vector>

#include <symerr/verify/report/verdict.hpp>

namespace symerr::verify {

using Progress = std::function<void(std::string_view)>;

// Symbolic checks of Div/Sub/Add/Mul for FP16, BF16, FP32, FP64, INT8, UINT8,
// INT32 against the seed bounds (propagation and introduction).
std::vector<CheckResult> run_default_symbolic_checks(const Progress& progress = {});

// The spec audit of the seeds: each stated bound searched for violations, the
// special-value rules checked against IEEE 754, the examples against the
// operator semantics.
std::vector<CheckResult> run_seed_audit(const Progress& progress = {});

}  // namespace symerr::verify
