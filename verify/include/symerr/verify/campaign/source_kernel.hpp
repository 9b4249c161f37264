// Kernels given as source (docs/campaign-files.md "Kernels given as source"):
// a campaign entry names C sources, the entry function, its arguments and the
// statements to check; `symerr run` builds, from the one source,
//  * the substituted build (the kernel on symerr's SymbolicError: the
//    analysis, and the exact execution at a point: the real program's result
//    enclosed),
//  * the plain build, compiled as C with the entry's compiler and flags: the
//    item under test, whose outputs are the witnesses,
// links both into a checker program (cached by content hash) and runs it in a
// child process, which judges every statement at every output element
// (check_statement, statement_check.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include <symerr/domains/symbolic_interval.hpp>
#include <symerr/verify/report/verdict.hpp>
#include <symerr/verify/statement/statement.hpp>

namespace symerr::verify {

struct CampaignSpec;
struct RunOptions;

/// One argument of a source kernel's entry function, in the order of its
/// parameters.
struct SourceArgument {
  /// An input tensor (`const T*`), an output tensor (`T*`) or an integer scalar.
  enum class Role : unsigned char { Input, Output, Scalar };
  std::string name;                ///< the statements' name of the tensor (or the scalar's name)
  Role role = Role::Input;         ///< what the argument is
  std::vector<std::size_t> shape;  ///< tensor: its dimension sizes (row-major)
  ///@{
  /// Input tensor: every element's real value in [lo, hi], its error in [elo, ehi].
  double lo = 0, hi = 0, elo = 0, ehi = 0;
  ///@}
  std::string scalar_type = "int";  ///< scalar: its C type (int, long, unsigned, size_t)
  long long value = 0;              ///< scalar: its value
};

/// The analysis budget of a source kernel ("budget" of the entry), in work only.
struct SourceBudget {
  std::size_t boxes = 64;           ///< sub-boxes of each element's proof grid (and of the witnesses' aiming)
  std::size_t runs = 1u << 16;      ///< driver executions of one enclosure (DriverOptions::max_runs)
  std::size_t subdivision = 64;     ///< driver leaf boxes per element, over the grid (DriverOptions::max_boxes)
  std::size_t executions = 16384;   ///< compiled + exact executions of the witness search, per element
  std::size_t elements = 16;        ///< output elements checked per statement (evenly spaced, first and last)
  double time_limit_seconds = 3600; ///< wall-clock safety limit of the checker process (reported, never a budget)
};

/// A campaign entry with "form": "source".
struct SourceKernelSpec {
  std::string name;                  ///< default: the entry function
  std::string json_path;             ///< "/kernels/2", for errors
  std::vector<std::filesystem::path> sources;  ///< C sources (absolute)
  std::vector<std::filesystem::path> headers;  ///< files they include, hashed with them (absolute)
  std::string entry;                 ///< the entry function (C linkage in the plain build)
  std::string replace = "float";     ///< the C type replaced: "float" or "double"
  std::string format = "FP32";       ///< FP32 for float, FP64 for double
  std::string compiler = "cc";       ///< the C compiler of the plain build
  std::string flags = "-O2";         ///< the user's compile flags of the plain build
  std::vector<SourceArgument> arguments;  ///< the entry's parameters, in order
  SourceBudget budget;               ///< the analysis budget
  std::vector<Statement> statements; ///< the statements checked at every output element
  std::vector<std::string> requirements;  ///< added to every statement's requirement IDs
};

/// What a checker's kernel adapter does: the substituted build on flat
/// inputs (the input tensors concatenated in argument order) filling the flat
/// outputs, and the plain build on values of the format held in doubles.
struct SourceKernelAdapter {
  /// The substituted build: inputs -> outputs (both flat).
  std::function<void(std::span<const SymbolicError>, std::span<SymbolicError>)> symbolic;
  /// The plain build: inputs -> outputs (both flat).
  std::function<void(std::span<const double>, std::span<double>)> plain;
};

/// The main() of a generated checker program: `checker CAMPAIGN INDEX OUT
/// [PROGRESS]` judges the statements of source kernel INDEX of the campaign
/// file and writes the checks (a JSON array of CheckResult) to OUT, and one
/// line per element checked to PROGRESS (symerr run relays them). Returns 0,
/// or 2 with a message on stderr.
int source_checker_main(int argc, char** argv, const SourceKernelAdapter& adapter);

/// The checks of one source kernel, judged in this process (what a checker
/// program runs): one check per statement and output element checked.
/// `progress`, if given, receives a line before and after each element.
std::vector<CheckResult> check_source_kernel(const SourceKernelSpec& spec, const SourceKernelAdapter& adapter,
                                             const std::function<void(const std::string&)>& progress = {});

/// The checks of every source kernel of the campaign: built (or found in the
/// build cache), run in a child process each, their hypotheses (compile
/// flags, FMA in the object code, libm functions called, box, budget)
/// attached. Throws CampaignError when a compiler is missing or a build fails.
std::vector<CheckResult> run_source_checks(const CampaignSpec& spec, const RunOptions& options);

/// Parses a kernel object with "form": "source" at `path` of `file`;
/// `campaign_statements` are the campaign's statements a string of the
/// entry's "statements" names by id. Throws CampaignError.
SourceKernelSpec parse_source_kernel(const nlohmann::json& j, const std::string& path,
                                     const std::filesystem::path& file,
                                     const std::vector<Statement>& campaign_statements);

/// The generated C++ of a source kernel's checker program (exposed for tests).
std::string source_checker_program(const SourceKernelSpec& spec);
/// The entry's C prototype as the arguments declare it ("void gelu(const
/// float*, float*, size_t)"): symerr run compiles it after each source, so a
/// source whose entry has other parameter types is an error before anything runs.
std::string source_entry_prototype(const SourceKernelSpec& spec);

}  // namespace symerr::verify
