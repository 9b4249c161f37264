// Campaigns: what `symerr run` verifies. A campaign is read from a JSON file
// (format in README "Main job and reports") or is the default campaign; the
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
#include <symerr/verify/kernel/kernel.hpp>
#include <symerr/verify/statement/statement.hpp>
#include <symerr/verify/symbolic/symbolic_campaign.hpp>
#include <symerr/verify/concrete/unary.hpp>
#include <symerr/verify/report/verdict.hpp>

namespace symerr::verify {

// A malformed campaign file: what() is "FILE:LINE:COLUMN: reason" for syntax
// errors and "FILE: at /json/path: reason" for invalid content.
struct CampaignError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A user kernel: symbol `symbol` of shared library `library` (a relative path
// is taken relative to the campaign file's directory).
struct UserKernelSpec {
  std::string name;  // default: the symbol
  std::string library;
  std::string symbol;
  KernelSignature signature;
  std::vector<std::string> requirements;       // this kernel's requirement IDs
  std::map<std::string, std::string> build;    // "compiler", "flags", "version": reported as given
};

// The error range a concrete check asserts.
struct BoundSpec {
  enum class Kind : unsigned char { CorrectlyRounded, Ulp, UnitRoundoff, SonnxDivIntroduction };
  Kind kind = Kind::CorrectlyRounded;
  double ulp = 0.5;  // Kind::Ulp: |Y - exact| <= ulp * ulp(exact) in the format
};

// A unary kernel  void f(const T* x, T* y, size_t n)  ("form": "unary" in a
// campaign file; unary.hpp): a user kernel (library + symbol) or, with an empty
// library, symerr's reference kernel named by `symbol` ("symerr::Sqrt",
// "symerr::Abs", "symerr::Neg": the double result rounded once to the format).
struct UnaryKernelSpec {
  std::string name;  // default: the symbol
  std::string library;
  std::string symbol;
  OpId op = OpId::Exp;
  ElementType type = ElementType::FP32;
  // correctly rounded (0.5), k >= 0.5 ulps of f(x), or the SONNX introduction
  // bound |Y − f(X)| <= u·max(|f(X)|, min normal) (sonnx_unit_roundoff)
  double ulp_bound = 0.5;
  bool sonnx_unit_roundoff = false;
  std::vector<UnaryStrategy> strategies;  // empty: special, boundary, random
  std::uint64_t random_count = 100000;
  std::vector<std::string> requirements;
  std::map<std::string, std::string> build;
};

struct CampaignSpec {
  std::string name = "default";
  std::filesystem::path file;  // empty for the default campaign
  std::string text;            // the file's content (hashed and copied into the report)
  std::uint64_t seed = 20240501;
  // symerr's generic kernels, one concrete check per operator x format.
  std::vector<OpId> operators;
  std::vector<ElementType> formats;
  std::vector<UserKernelSpec> kernels;
  std::vector<UnaryKernelSpec> unary_kernels;  // run after the binary checks, in the same report
  IntegerDivision integer_division = IntegerDivision::Floor;  // SONNX Div (seed 000)
  std::string broadcast = "sonnx";  // reported only: the concrete checks pass identical shapes
  // Operands outside [min, max] in magnitude are dropped from the strategies'
  // inputs (NaN and infinities are kept when keep_special_values).
  std::optional<double> input_min, input_max;
  bool keep_special_values = true;
  BoundSpec bound;
  // "special_grid", "boundary", "random"; "exhaustive" = 16-bit float formats
  // on all pairs (and 8-bit integers always).
  std::vector<std::string> strategies{"special_grid", "boundary", "random"};
  std::size_t random_count = 100000;
  std::size_t boundary_count = 4000;
  std::vector<std::string> requirements;
  // User kernels run in child processes with this time limit per call
  // (symerr's own kernels run in-process).
  double time_limit_seconds = 10;
  bool isolate_user_kernels = true;
  // Integer Div inputs with divisor 0: not run (default) or run and counted
  // as undefined ("undefined_inputs": "run").
  bool run_undefined_inputs = false;
  bool symbolic = false;  // include run_default_symbolic_checks()
  bool audit = false;     // include run_seed_audit()
  // Accuracy statements (docs/statements.md), parsed and validated with the
  // campaign (errors name the file, /statements/i/... and the column); not
  // yet checked against a kernel by `symerr run`.
  std::vector<Statement> statements;
};

// symerr's own Div/Sub/Add/Mul for FP16, BF16, FP32, FP64, INT8, UINT8, INT32,
// correctly-rounded property, with the symbolic checks and the seed audit.
CampaignSpec default_campaign();

// Parse a campaign from JSON text; `file` names it in errors and anchors
// relative library paths. Throws CampaignError.
// Limits: nesting depth 64, duplicate keys are errors, numbers must be finite
// doubles, random_count <= kMaxRandomCount.
CampaignSpec parse_campaign(const std::string& text, const std::filesystem::path& file);
// Reads at most kMaxCampaignBytes (a larger file, or /dev/zero, is an error).
CampaignSpec load_campaign(const std::filesystem::path& file);
inline constexpr std::size_t kMaxCampaignBytes = 16u << 20;
inline constexpr std::uint64_t kMaxRandomCount = 100000000;  // 10^8 inputs per strategy

// The requirement IDs of the seeds that a check of symerr's own `op` kernel
// on `type` covers, section-qualified: "Div/float/[C3]", "Sub/int/[R1]".
std::vector<std::string> seed_requirements(OpId op, ElementType type);
// "[C3]" on a Div FP32 check -> "Div/float/[C3]"; IDs with a '/' are kept.
std::string qualified_requirement(const std::string& id, const std::string& op, const std::string& format);

struct RunOptions {
  unsigned jobs = 1;           // concrete checks run in parallel
  bool exhaustive = false;     // add "exhaustive" to the strategies
  std::string command_line;    // recorded in the result
  std::optional<std::uint64_t> seed;  // overrides the campaign's seed
  Progress progress;           // one line per started / finished step
};

// Runs every check of the campaign. Kernel loading errors throw
// KernelLoadError; a check that throws becomes an Inconclusive result naming
// the exception.
CampaignResult run_campaign(const CampaignSpec& spec, const RunOptions& options = {});

// The audit alone, as a campaign result.
CampaignResult run_audit(const RunOptions& options = {});

// The Kernel of symerr's generic operator `op` on `type` (lib/ops scalar rules).
Kernel builtin_kernel(OpId op, ElementType type, IntegerDivision d = IntegerDivision::Floor);

// symerr's reference unary kernel "symerr::Sqrt" | "symerr::Abs" | "symerr::Neg"
// on a float type (campaign_unary.cpp); nullopt for another name.
std::optional<UnaryKernel> builtin_unary_kernel(const std::string& symbol, ElementType type);

// The unary checks of a campaign as report entries (campaign_unary.cpp).
std::vector<CheckResult> run_unary_checks(const CampaignSpec& spec, const RunOptions& options);

}  // namespace symerr::verify
