// The verdicts of a report recomputed from its evidence (integrity.hpp).
#include "integrity.hpp"

namespace symerr::detail {

using verify::CheckResult;
using verify::Verdict;

namespace {

// The verdict a concrete check's evidence gives, as the check computes it.
Verdict concrete_verdict(const CheckResult& c) {
  if (c.fault) return c.fault->kind == "timeout" ? Verdict::TimedOut : Verdict::Crashed;
  if (c.evidence.failures > 0) return Verdict::Violated;
  if (c.exhaustive && c.shard.complete()) return Verdict::Proven;
  return Verdict::PassedOnSamples;
}

}  // namespace

std::optional<std::string> verdict_inconsistency(const CheckResult& c) {
  const bool good = c.verdict == Verdict::Proven || c.verdict == Verdict::PassedOnSamples;
  const std::string says = std::string("verdict \"") + to_string(c.verdict) + "\" ";
  if (good && c.evidence.failures > 0)
    return says + "with " + std::to_string(c.evidence.failures) + " failures in its evidence";
  if (good && c.fault) return says + "with a kernel fault (" + c.fault->kind + ") in its evidence";
  if (c.kind != "concrete") return std::nullopt;
  const Verdict v = concrete_verdict(c);
  if (c.verdict == Verdict::Inconclusive && !c.fault && c.evidence.failures == 0) return std::nullopt;
  if (c.verdict != v)
    return says + "where its evidence gives \"" + to_string(v) + "\" (" + std::to_string(c.evidence.failures) +
           " failures, " + (c.fault ? "a fault" : "no fault") + ", " + (c.exhaustive ? "exhaustive" : "sampled") + ")";
  if (good && c.evidence.inputs_checked == 0) return says + "on 0 inputs";
  return std::nullopt;
}

}  // namespace symerr::detail
