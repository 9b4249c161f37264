// The subcommands of the symerr tool. Each returns the process exit status
// (README "Exit status"): 0 nothing failed; 1 an implementation violates its
// bound, crashed or timed out; 3 no implementation failure but a
// specification statement was refuted; 2 usage or input error (and, with
// --strict, an inconclusive check).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace symerr::cli {

struct Common {
  std::string output;  // report directory; empty: <repository>/report
  std::optional<std::uint64_t> seed;
  unsigned jobs = 0;  // 0: hardware threads
  bool strict = false;
  bool quiet = false;
};

int run_command(const Common& c, const std::string& campaign_file, bool exhaustive,
                const std::string& command_line);
int audit_command(const Common& c, const std::string& command_line);
int report_command(const Common& c, const std::string& json_file);

}  // namespace symerr::cli
