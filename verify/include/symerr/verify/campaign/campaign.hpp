// Campaigns: what `symerr run` verifies. A campaign is read from a JSON file
// (format in docs/campaign-files.md) or is the default campaign; the
// runner turns it into concrete checks (concrete.hpp) of symerr's own generic
// kernels and of user kernels loaded from shared libraries, plus the symbolic
// checks and the seed audit (symbolic_campaign.hpp), and returns the plain
// CampaignResult that the reports render.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <symerr/ops/semantics.hpp>
#include <symerr/verify/campaign/source_kernel.hpp>
#include <symerr/verify/kernel/kernel.hpp>
#include <symerr/verify/statement/statement.hpp>
#include <symerr/verify/symbolic/symbolic_campaign.hpp>
#include <symerr/verify/concrete/unary.hpp>
#include <symerr/verify/report/verdict.hpp>

namespace symerr::verify {

/// A malformed campaign file: what() is "FILE:LINE:COLUMN: reason" for syntax
/// errors and "FILE: at /json/path: reason" for invalid content.
struct CampaignError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// A user kernel: symbol `symbol` of shared library `library` (a relative path
/// is taken relative to the campaign file's directory).
struct UserKernelSpec {
  std::string name;  ///< default: the symbol
  /// The shared library (relative: to the campaign file's directory).
  std::string library;
  /// The kernel's symbol.
  std::string symbol;
  /// Its C signature (element types, form).
  KernelSignature signature;
  std::vector<std::string> requirements;       ///< this kernel's requirement IDs
  std::map<std::string, std::string> build;    ///< "compiler", "flags", "version": reported as given
};

/// The error range a concrete check asserts.
struct BoundSpec {
  /// Correct rounding, k ulps, the unit roundoff, or the SONNX Div introduction bound.
  enum class Kind : unsigned char { CorrectlyRounded, Ulp, UnitRoundoff, SonnxDivIntroduction };
  /// The kind of bound.
  Kind kind = Kind::CorrectlyRounded;
  double ulp = 0.5;  ///< Kind::Ulp: |Y - exact| <= ulp * ulp(exact) in the format
};

/// A unary kernel  void f(const T* x, T* y, size_t n)  ("form": "unary" in a
/// campaign file; unary.hpp): a user kernel (library + symbol) or, with an empty
/// library, symerr's reference kernel named by `symbol` ("symerr::Sqrt",
/// "symerr::Abs", "symerr::Neg": the double result rounded once to the format).
struct UnaryKernelSpec {
  std::string name;  ///< default: the symbol
  /// The shared library (empty: symerr's reference kernel named by `symbol`).
  std::string library;
  /// The kernel's symbol.
  std::string symbol;
  /// The operator it computes.
  OpId op = OpId::Exp;
  /// Its element type.
  ElementType type = ElementType::FP32;
  /// correctly rounded (0.5), k >= 0.5 ulps of f(x), or the SONNX introduction
  /// bound |Y − f(X)| <= u·max(|f(X)|, min normal) (sonnx_unit_roundoff)
  double ulp_bound = 0.5;
  /// Judge against the SONNX introduction bound instead of ulp_bound.
  bool sonnx_unit_roundoff = false;
  std::vector<UnaryStrategy> strategies;  ///< empty: special, boundary, random
  /// Inputs of the random strategy.
  std::uint64_t random_count = 100000;
  /// Requirement IDs it covers.
  std::vector<std::string> requirements;
  /// Build information, reported as given.
  std::map<std::string, std::string> build;
};

/// The smallest "time_limit_seconds" a campaign file may give: below it a
/// correct kernel's batch (and the child's start) can time out.
inline constexpr double kMinTimeLimitSeconds = 0.1;
inline constexpr std::uint64_t kDefaultMaxExecutions = 100000000000;  ///< 10^11: FP16+BF16 sweeps of 4 operators fit
/// The default campaign-wide budget of checks ("budget": {"max_checks"}).
inline constexpr std::uint64_t kDefaultMaxChecks = 1000;

/// A campaign: the checks `symerr run` makes and their limits, as read from a
/// campaign file (parse_campaign, load_campaign) or default_campaign().
struct CampaignSpec {
  /// The campaign's name.
  std::string name = "default";
  std::filesystem::path file;  ///< empty for the default campaign
  std::string text;            ///< the file's content (hashed and copied into the report)
  /// The seed of the random strategies.
  std::uint64_t seed = 20240501;
  /// symerr's generic kernels, one concrete check per operator x format.
  std::vector<OpId> operators;
  /// The formats of those checks.
  std::vector<ElementType> formats;
  /// User kernels from shared libraries.
  std::vector<UserKernelSpec> kernels;
  std::vector<std::string> kernel_paths;  ///< the JSON path of each of `kernels` ("/kernels/3"), for errors
  std::vector<UnaryKernelSpec> unary_kernels;  ///< run after the binary checks, in the same report
  IntegerDivision integer_division = IntegerDivision::Floor;  ///< SONNX Div (seed 000)
  std::string broadcast = "sonnx";  ///< reported only: the concrete checks pass identical shapes
  ///@{
  /// Operands outside [min, max] in magnitude are dropped from the strategies'
  /// inputs (NaN and infinities are kept when keep_special_values).
  std::optional<double> input_min, input_max;
  ///@}
  /// Keep NaN and infinities among the inputs whatever input_min / input_max say.
  bool keep_special_values = true;
  /// The error range the concrete checks assert.
  BoundSpec bound;
  /// "special_grid", "boundary", "random"; "exhaustive" = 16-bit float formats
  /// on all pairs (and 8-bit integers always).
  std::vector<std::string> strategies{"special_grid", "boundary", "random"};
  /// Inputs of the random strategy.
  std::size_t random_count = 100000;
  /// Inputs of the boundary strategy.
  std::size_t boundary_count = 4000;
  /// Requirement IDs the campaign covers.
  std::vector<std::string> requirements;
  /// User kernels run in child processes with this time limit per call
  /// (symerr's own kernels run in-process).
  double time_limit_seconds = 10;
  /// What a user kernel's child may map beyond its size at the fork
  /// ("memory_limit_mb"; sandbox.hpp); 0: no limit.
  std::uint64_t memory_limit_bytes = std::uint64_t{4} << 30;
  /// Run user kernels in sandboxed child processes ("isolation"; default true).
  bool isolate_user_kernels = true;
  ///@{
  /// Campaign-wide budgets ("budget"), checked before anything runs: kernel
  /// executions (inputs run, over every check and strategy, --exhaustive
  /// included) and checks.
  std::uint64_t max_executions = kDefaultMaxExecutions;
  std::uint64_t max_checks = kDefaultMaxChecks;
  ///@}
  /// Integer Div inputs with divisor 0: not run (default) or run and counted
  /// as undefined ("undefined_inputs": "run").
  bool run_undefined_inputs = false;
  bool symbolic = false;  ///< include run_default_symbolic_checks()
  bool audit = false;     ///< include run_seed_audit()
  /// Accuracy statements (docs/statements.md), parsed and validated with the
  /// campaign (errors name the file, /statements/i/... and the column);
  /// checked by the source kernels whose "statements" name them by id.
  std::vector<Statement> statements;
  /// Kernels given as source ("form": "source"; source_kernel.hpp), checked
  /// after the unary kernels.
  std::vector<SourceKernelSpec> source_kernels;
};

/// symerr's own Div/Sub/Add/Mul for FP16, BF16, FP32, FP64, INT8, UINT8, INT32,
/// correctly-rounded property, with the symbolic checks and the seed audit.
CampaignSpec default_campaign();

/// Parse a campaign from JSON text; `file` names it in errors and anchors
/// relative library paths. Throws CampaignError.
/// Limits: nesting depth 64, duplicate keys are errors, numbers must be finite
/// doubles, random_count <= kMaxRandomCount.
CampaignSpec parse_campaign(const std::string& text, const std::filesystem::path& file);
/// Reads at most kMaxCampaignBytes (a larger file, or /dev/zero, is an error).
CampaignSpec load_campaign(const std::filesystem::path& file);
/// The largest campaign file read (16 MiB).
inline constexpr std::size_t kMaxCampaignBytes = 16u << 20;
inline constexpr std::uint64_t kMaxRandomCount = 100000000;  ///< 10^8 inputs per strategy

/// The requirement IDs of the seeds that a check of symerr's own `op` kernel
/// on `type` covers, section-qualified: "Div/float/[C3]", "Sub/int/[R1]".
std::vector<std::string> seed_requirements(OpId op, ElementType type);
/// "[C3]" on a Div FP32 check -> "Div/float/[C3]"; IDs with a '/' are kept.
std::string qualified_requirement(const std::string& id, const std::string& op, const std::string& format);

/// How run_campaign() runs.
struct RunOptions {
  unsigned jobs = 1;           ///< concrete checks run in parallel
  bool exhaustive = false;     ///< add "exhaustive" to the strategies
  std::string command_line;    ///< recorded in the result
  std::optional<std::uint64_t> seed;  ///< overrides the campaign's seed
  Progress progress;           ///< one line per started / finished step
};

/// Runs every check of the campaign. Kernel loading errors throw
/// KernelLoadError; a check that throws becomes an Inconclusive result naming
/// the exception. A campaign over its budgets (estimate_executions, the number
/// of checks), or with a check that ran no input, throws CampaignError.
CampaignResult run_campaign(const CampaignSpec& spec, const RunOptions& options = {});
/// Kernel executions the campaign will make at most (every strategy's inputs;
/// sweeps at 2^32 pairs or 2^32 / 2^16 unary inputs).
std::uint64_t estimate_executions(const CampaignSpec& spec, const RunOptions& options);

/// The audit alone, as a campaign result.
CampaignResult run_audit(const RunOptions& options = {});

/// The Kernel of symerr's generic operator `op` on `type` (lib/ops scalar rules).
Kernel builtin_kernel(OpId op, ElementType type, IntegerDivision d = IntegerDivision::Floor);

/// symerr's reference unary kernel "symerr::Sqrt" | "symerr::Abs" | "symerr::Neg"
/// on a float type (campaign_unary.cpp); nullopt for another name.
std::optional<UnaryKernel> builtin_unary_kernel(const std::string& symbol, ElementType type);

/// The unary checks of a campaign as report entries (campaign_unary.cpp).
std::vector<CheckResult> run_unary_checks(const CampaignSpec& spec, const RunOptions& options);

}  // namespace symerr::verify
