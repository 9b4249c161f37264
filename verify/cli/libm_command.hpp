// symerr libm: the installed libm measured against MPFR and checked against
// the glibc accuracy model's table (<symerr/verify/libm/libm_accuracy.hpp>).
#pragma once

#include <cstdint>
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

// Registers the subcommand on `app` (options bound to `a`).
CLI::App* add_libm_command(CLI::App& app, LibmArgs& a);
// Exit status: 0 every entry of the table holds, 1 some entry is below the
// measured maximum, 2 usage error.
int libm_command(const LibmArgs& a);

}  // namespace symerr::cli
