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

// quantization checks (quant_command.cpp): exhaustive sweeps with a verdict on a claim
struct QuantArgs {
  std::string kind;                    // "requantize" or "quantize"
  std::string variant = "all";         // a variant's name or "all"
  std::string claim;                   // "", "equal" (to the ideal rule) or a number of LSB
  std::int32_t multiplier = 1 << 30;   // requantize: Q31 multiplier
  int shift = 0;                       // requantize: right shift
  std::string input = "fp16", type = "int8";  // quantize: input format, output type
  float scale = 1.0f;                  // quantize: y_scale
  std::int64_t zero_point = 0;         // quantize: y_zero_point
  std::optional<std::int64_t> first, last;  // a sub-range (accumulators or encodings)
  unsigned threads = 2;
};
int quant_command(const QuantArgs& a);

}  // namespace symerr::cli
