// symerr: run verification campaigns and write their reports.
//   symerr run [CAMPAIGN.json]   the default campaign, or a campaign file
//   symerr audit                 the spec audit of the seeds
//   symerr report FILE.json      re-render a stored report.json
//   symerr unary LIB SYMBOL --op Exp --type FP32 [--strategy …] [--bound cr|K]
//                                the concrete check of a unary kernel
//   symerr quant requantize|quantize [...]  quantization variants, exhaustively
//   symerr libm [--samples N]    the installed libm against MPFR and the
//                                glibc accuracy model's table
//   symerr model MODEL.onnx      whole-model analysis (docs/models.md)
// Exit status: 0 nothing failed, 1 an implementation violates its bound (or
// crashed / timed out), 3 only specification statements refuted, 2 usage or
// input error.
#include <cstdio>
#include <exception>
#include <string>

#include <CLI/CLI.hpp>

#include <symerr/domains/interval.hpp>
#include <symerr/fp_environment.hpp>
#include <symerr/verify/concrete/unary.hpp>
#include <symerr/version.hpp>

#include "commands.hpp"
#include "quant_command.hpp"
#include "libm_command.hpp"
#include "model_command.hpp"

namespace {

// A seed is an integer in [0, 2^64): "-1" would otherwise wrap to 2^64 - 1.
const CLI::Validator non_negative(
    [](std::string& s) {
      return s.find_first_not_of("0123456789") == std::string::npos && !s.empty()
                 ? std::string()
                 : "the seed must be a non-negative integer (0 to 2^64-1), got '" + s + "'";
    },
    "NONNEGATIVE");

void add_common(CLI::App& app, symerr::cli::Common& c) {
  app.add_option("-o,--output", c.output, "Report directory (default: ./report, in the current directory)");
  app.add_option("--seed", c.seed, "Seed of the random strategies (default: the campaign's)")->check(non_negative);
  app.add_option("-j,--jobs", c.jobs, "Checks run in parallel (default: hardware threads)");
  app.add_flag("--strict", c.strict, "Exit with 4 when a check is inconclusive (and nothing failed)");
  app.add_flag("-q,--quiet", c.quiet, "No progress on stderr");
}

// Start-up self-test: directed rounding takes effect, and the library's
// floating-point environment guard holds against a hostile caller state
// (round toward zero, FTZ/DAZ); the error is printed when it fails.
bool self_test_passes() {
  if (symerr::directed_rounding_works() && symerr::fp_environment_guard_works()) return true;
  std::fprintf(stderr, "symerr: error: start-up self-test failed: directed rounding or the floating-point "
                       "environment guard does not work on this machine/build; no result would be sound\n");
  return false;
}

}  // namespace

// The command line as typed (arguments with spaces quoted), for the report.
std::string command_line(int argc, char** argv) {
  std::string s;
  for (int i = 0; i < argc; ++i) {
    std::string a = argv[i];
    if (a.find_first_of(" \t'\"") != std::string::npos) a = "'" + a + "'";
    s += (i ? " " : "") + a;
  }
  return s;
}

int main(int argc, char** argv) {
  CLI::App app{"symerr: sound floating-point error analysis of ML operator kernels"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("symerr ") + symerr::version() + " (commit " +
                                        symerr::git_commit() + ")");
  symerr::cli::Common common;
  std::string campaign, report_file;
  bool exhaustive = false;

  CLI::App* run = app.add_subcommand("run", "Run a campaign (default: symerr's own kernels, "
                                            "symbolic checks and the seed audit) and write the reports");
  run->add_option("campaign", campaign, "Campaign file (JSON)")->check(CLI::ExistingFile);
  run->add_flag("--exhaustive", exhaustive, "Sweep all input pairs of the 16-bit formats");
  add_common(*run, common);

  CLI::App* audit = app.add_subcommand("audit", "Run the spec audit of the seed specifications");
  add_common(*audit, common);

  CLI::App* report = app.add_subcommand("report", "Re-render the reports of a stored report.json");
  report->add_option("file", report_file, "A report.json written by symerr")
      ->required()
      ->check(CLI::ExistingFile);
  add_common(*report, common);

  // unary kernels (issue 13)
  symerr::cli::UnaryArgs unary_args;
  CLI::App* unary = app.add_subcommand("unary", "Check a unary kernel void f(const T* x, T* y, size_t n) "
                                                "from a shared library");
  unary->add_option("library", unary_args.library, "Shared library")->required();
  unary->add_option("symbol", unary_args.symbol, "Kernel symbol")->required();
  unary->add_option("--op", unary_args.op, "The operator: " + symerr::verify::operator_names(symerr::verify::unary_kernel_operator));
  unary->add_option("--type", unary_args.type, "FP16, BF16, FP32 or FP64");
  unary->add_option("--strategy", unary_args.strategy, "special, boundary, random, exhaustive or all (default)");
  unary->add_option("--bound", unary_args.bound, "cr (correctly rounded, default) or a number of ulps");
  unary->add_option("--samples", unary_args.samples, "Random inputs");
  unary->add_option("--threads", unary_args.threads, "Threads of the exhaustive sweep");
  unary->add_option("--seed", unary_args.seed, "Seed of the random strategy")->check(non_negative);

  const symerr::cli::QuantCommand quant = symerr::cli::add_quant_command(app);
  const symerr::cli::LibmCommand libm = symerr::cli::add_libm_command(app);
  const symerr::cli::ModelCommand model = symerr::cli::add_model_command(app);
  // A first word that is no subcommand is named, with the subcommands (CLI11
  // alone would answer "A subcommand is required").
  if (argc > 1 && argv[1][0] != '-') {
    const std::string word = argv[1];
    std::string names;
    bool known = false;
    for (const CLI::App* s : app.get_subcommands([](CLI::App*) { return true; })) {
      known = known || s->get_name() == word;
      names += (names.empty() ? "" : ", ") + s->get_name();
    }
    if (!known) {
      std::fprintf(stderr, "symerr: error: unknown subcommand '%s' (the subcommands: %s; see symerr --help)\n",
                   word.c_str(), names.c_str());
      return 2;
    }
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);  // prints help/version (rc 0) or the error
    return rc == 0 ? 0 : 2;
  }
  if (!self_test_passes()) return 2;
  try {
    if (*run) return symerr::cli::run_command(common, campaign, exhaustive, command_line(argc, argv));
    if (*audit) return symerr::cli::audit_command(common, command_line(argc, argv));
    if (*unary) return symerr::cli::unary_command(unary_args);
    if (*quant.app) return symerr::cli::quant_command(*quant.args);
    if (*libm.app) return symerr::cli::libm_command(*libm.args);
    if (*model.app) return symerr::cli::model_command(*model.args);
    return symerr::cli::report_command(common, report_file);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "symerr: error: %s\n", e.what());
    return 2;
  }
}
