#include <symerr/verify/symbolic_campaign.hpp>

namespace symerr::verify {

std::vector<CheckResult> run_default_symbolic_checks(const Progress&) { return {}; }
std::vector<CheckResult> run_seed_audit(const Progress&) { return {}; }

}  // namespace symerr::verify
