// The subcommands of the symerr tool. Each returns the process exit status:
// 0 all proven (inconclusive too unless strict), 1 a violation, 2 usage or
// input error.
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

int run_command(const Common& c, const std::string& campaign_file, bool exhaustive);
int audit_command(const Common& c);
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
