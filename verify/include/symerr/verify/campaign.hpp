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
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <symerr/ops/semantics.hpp>
#include <symerr/verify/kernel.hpp>
#include <symerr/verify/symbolic_campaign.hpp>
#include <symerr/verify/verdict.hpp>

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
};

// The error range a concrete check asserts.
struct BoundSpec {
  enum class Kind : unsigned char { CorrectlyRounded, Ulp, UnitRoundoff, SonnxDivIntroduction };
  Kind kind = Kind::CorrectlyRounded;
  double ulp = 0.5;  // Kind::Ulp: |Y - exact| <= ulp * ulp(exact) in the format
};

struct CampaignSpec {
  std::string name = "default";
  std::filesystem::path file;  // empty for the default campaign
  std::uint64_t seed = 20240501;
  // symerr's generic kernels, one concrete check per operator x format.
  std::vector<Operator> operators;
  std::vector<ElementType> formats;
  std::vector<UserKernelSpec> kernels;
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
  bool symbolic = false;  // include run_default_symbolic_checks()
  bool audit = false;     // include run_seed_audit()
};

// symerr's own Div/Sub/Add/Mul for FP16, BF16, FP32, FP64, INT8, UINT8, INT32,
// correctly-rounded property, with the symbolic checks and the seed audit.
CampaignSpec default_campaign();

// Parse a campaign from JSON text; `file` names it in errors and anchors
// relative library paths. Throws CampaignError.
CampaignSpec parse_campaign(const std::string& text, const std::filesystem::path& file);
CampaignSpec load_campaign(const std::filesystem::path& file);

struct RunOptions {
  unsigned jobs = 1;           // concrete checks run in parallel
  bool exhaustive = false;     // add "exhaustive" to the strategies
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
Kernel builtin_kernel(Operator op, ElementType type, IntegerDivision d = IntegerDivision::Floor);

}  // namespace symerr::verify
