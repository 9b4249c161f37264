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
  std::string output;  // report directory; empty: ./report
  std::optional<std::uint64_t> seed;
  unsigned jobs = 0;  // 0: hardware threads
  bool strict = false;
  bool quiet = false;
};

int run_command(const Common& c, const std::string& campaign_file, bool exhaustive,
                const std::string& command_line);
int audit_command(const Common& c, const std::string& command_line);
int report_command(const Common& c, const std::string& json_file);

// unary kernels and the unary SONNX bounds (unary_command.cpp)
struct UnaryArgs {
  std::string library, symbol, op = "Exp", type = "FP32", strategy = "all", bound = "cr";
  std::uint64_t samples = 100000, seed = 1;
  unsigned threads = 2;
};
int unary_command(const UnaryArgs& a);
void write_unary_audit(const std::string& dir);  // table on stdout and <dir>/unary_audit.md

}  // namespace symerr::cli
