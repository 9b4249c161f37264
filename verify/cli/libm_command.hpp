// symerr libm: the installed libm measured against MPFR and checked against
// the glibc accuracy model's table (<symerr/verify/libm/libm_accuracy.hpp>).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

namespace CLI {
class App;
}

namespace symerr::cli {

struct LibmArgs {
  long samples = 100000;       // sampled inputs per function, format and mode
  std::uint64_t seed = 1;
  std::string functions;       // comma-separated libm names; empty: every function of the table
  std::string json;            // write the measurements as JSON to this file
};

// The subcommand registered on an app, and the arguments its options fill.
struct LibmCommand {
  CLI::App* app;
  std::shared_ptr<LibmArgs> args;
};
LibmCommand add_libm_command(CLI::App& app);
// Exit status: 0 every entry of the table holds, 1 some entry is below the
// measured maximum, 2 usage error.
int libm_command(const LibmArgs& a);

}  // namespace symerr::cli
