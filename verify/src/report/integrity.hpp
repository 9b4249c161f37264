// Private to symerr_verify: whether a report's verdicts follow from the
// evidence it holds (symerr report refuses a report where one does not).
#pragma once

#include <optional>
#include <string>

#include <symerr/verify/report/verdict.hpp>

namespace symerr::detail {

// Why c's verdict does not follow from its evidence; nullopt when it does.
// Concrete checks: a fault is crashed (timed_out for a timeout), else
// failures make it violated, else an exhaustive run over every shard is
// proven, else passed on samples (inconclusive: a harness error, no
// failures). Every kind: proven or passed on samples needs no failure and no
// fault.
std::optional<std::string> verdict_inconsistency(const verify::CheckResult& c);

}  // namespace symerr::detail
