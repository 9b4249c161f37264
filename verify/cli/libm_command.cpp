// symerr libm: measures the installed libm (every function of the glibc
// model's table, FP32 and FP64, the four rounding modes) against MPFR, prints
// the measured maxima next to the model's entries (Markdown) and exits with 1
// when an entry is below what was measured.
#include "libm_command.hpp"

#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <vector>

#include <CLI/CLI.hpp>

#include <symerr/verify/libm/libm_accuracy.hpp>

namespace symerr::cli {

LibmCommand add_libm_command(CLI::App& app) {
  auto args = std::make_shared<LibmArgs>();
  LibmArgs& a = *args;
  CLI::App* c = app.add_subcommand("libm", "Measure the installed libm against MPFR (FP32, FP64, every rounding "
                                           "mode) and check the glibc accuracy model's table");
  c->add_option("--samples", a.samples, "Sampled inputs per function, format and mode (default 100000)");
  c->add_option("--seed", a.seed, "Seed of the samples");
  c->add_option("--functions", a.functions, "Comma-separated libm names (default: every function of the table)");
  c->add_option("--json", a.json, "Also write the measurements (with a proposed entry each) as JSON");
  return {c, args};
}

int libm_command(const LibmArgs& a) {
  std::vector<OpId> fs;
  std::istringstream names(a.functions);
  for (std::string name; std::getline(names, name, ',');) {
    bool found = false;
    for (const OpId f : verify::libm_functions())
      if (operator_info(f).function_name == name) fs.push_back(f), found = true;
    if (!found) {
      std::fprintf(stderr, "symerr: libm: '%s' is not a function of the table\n", name.c_str());
      return 2;
    }
  }
  if (fs.empty()) fs.assign(verify::libm_functions().begin(), verify::libm_functions().end());
  if (a.samples < 0) {
    std::fprintf(stderr, "symerr: libm: --samples must be >= 0\n");
    return 2;
  }
  const verify::LibmTable table = verify::glibc_model_table();
  const verify::LibmTableCheck c = verify::check_libm_table(table, a.samples, a.seed, fs);
  std::cout << "libm measured against MPFR (256 bits): " << a.samples
            << " sampled inputs per function, format and mode, plus the shipped hard cases; "
               "table: the glibc-2.36-x86_64 accuracy model\n\n"
            << verify::libm_markdown(c, table);
  if (!a.json.empty()) {
    std::ofstream out(a.json);
    out << verify::libm_json(c, table);
    if (!out) {
      std::fprintf(stderr, "symerr: libm: cannot write '%s'\n", a.json.c_str());
      return 2;
    }
  }
  std::cout << "\n" << c.too_tight.size() << " of " << c.measures.size() << " entries below the measured maximum\n";
  return c.too_tight.empty() ? 0 : 1;
}

}  // namespace symerr::cli
