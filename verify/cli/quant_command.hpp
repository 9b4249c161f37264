// symerr quant: the quantization checks' arguments and registration
// (quant_command.cpp).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include <CLI/CLI.hpp>

namespace symerr::cli {

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

// The subcommand registered on `app`, and the arguments it fills.
struct QuantCommand {
  CLI::App* app;
  std::shared_ptr<QuantArgs> args;
};
QuantCommand add_quant_command(CLI::App& app);
// Exit status: 0 proven (or no claim), 1 violated, 3 inconclusive, 2 bad input.
int quant_command(const QuantArgs& a);

}  // namespace symerr::cli
