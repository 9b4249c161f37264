// Verdicts and their evidence: the plain data every check (concrete, symbolic,
// spec audit) produces and every report renders (docs/design.md §3, §4).
//
// These are data only. Rendering lives elsewhere; JSON conversion is in
// verdict_json.cpp (to_json/from_json, found by ADL from nlohmann::json).
// Non-finite doubles are written to JSON as the strings "inf", "-inf", "nan".
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include <symerr/config.hpp>

namespace symerr::verify {

// ---- verdict ----------------------------------------------------------------

/// Proven: the property holds on every input of the stated domain (all inputs
///   run, or a symbolic proof).
/// PassedOnSamples: no violation among the N inputs run, which do not cover
///   the domain (N and the coverage per class are in the evidence).
/// Violated: at least one witness input breaks it (re-checked exactly).
/// Inconclusive: a proof attempt that did not close, with the reason.
/// Crashed: the kernel died (signal, exit(), exception) on an input batch;
///   the smallest batch found that reproduces it is in CheckResult::fault.
/// TimedOut: a kernel call did not return within the time limit.
enum class Verdict : unsigned char { Proven, PassedOnSamples, Violated, Inconclusive, Crashed, TimedOut };
/// Every verdict, in declaration order.
inline constexpr Verdict kAllVerdicts[] = {Verdict::Proven,       Verdict::PassedOnSamples,
                                           Verdict::Violated,     Verdict::Inconclusive,
                                           Verdict::Crashed,      Verdict::TimedOut};

/// "proven" | "passed_on_samples" | "violated" | "inconclusive" | "crashed" | "timed_out"
const char* to_string(Verdict v) noexcept;
/// The verdict named `s` (to_string()'s spelling), or std::nullopt.
std::optional<Verdict> parse_verdict(std::string_view s) noexcept;
/// A failure of the item under test: violated, crashed, timed out.
constexpr bool is_failure(Verdict v) noexcept {
  return v == Verdict::Violated || v == Verdict::Crashed || v == Verdict::TimedOut;
}

/// Combination of the verdicts of parts of one domain, worst first: Violated,
/// Crashed, TimedOut, Inconclusive, PassedOnSamples; Proven only if every part is.
constexpr int severity(Verdict v) noexcept {
  switch (v) {
    case Verdict::Proven: return 0;
    case Verdict::PassedOnSamples: return 1;
    case Verdict::Inconclusive: return 2;
    case Verdict::TimedOut: return 3;
    case Verdict::Crashed: return 4;
    case Verdict::Violated: return 5;
  }
  return 5;
}
/// The worse of two verdicts (by severity()).
constexpr Verdict combine(Verdict a, Verdict b) noexcept { return severity(a) >= severity(b) ? a : b; }

/// What a check judges: an implementation against a bound, or a specification
/// statement (a bound, a rule, an example) against the mathematics.
enum class Subject : unsigned char { Implementation, Specification };
const char* to_string(Subject s) noexcept;  ///< "implementation" | "specification"
/// The subject named `s`, or std::nullopt.
std::optional<Subject> parse_subject(std::string_view s) noexcept;

///@{
/// Process exit status of a command that ran checks (docs/verdicts.md "Exit
/// statuses"): 1 an implementation check failed (violated, crashed, timed
/// out); else 3 a specification statement was refuted; else 0 — also when
/// checks are inconclusive: 0 means "nothing refuted", not "all proven" (the
/// headline counts what is not proven). With `strict`, 4 when a check is
/// inconclusive (and nothing failed). 2 is usage or input error only.
inline constexpr int kExitOk = 0, kExitImplementationFailure = 1, kExitInputError = 2,
                     kExitSpecificationRefuted = 3, kExitInconclusive = 4;
///@}
/// The status for one verdict of an implementation check: 1 for a failure, 4
/// for inconclusive when `strict`, else 0.
constexpr int exit_code(Verdict v, bool strict = false) noexcept {
  if (is_failure(v)) return kExitImplementationFailure;
  return v == Verdict::Inconclusive && strict ? kExitInconclusive : kExitOk;
}

// ---- input classes ----------------------------------------------------------

/// Classes an input (a tuple of operands) belongs to. One input can be in
/// several classes: the operand classes (Normal..NaN) are set for each operand,
/// Overflow when the exact result exceeds the format's range (for integers: the
/// exact result wraps around), NearZeroDivisor when a divisor is zero or
/// subnormal (for integers: zero, where the result is undefined).
enum class InputClass : unsigned char {
  Normal,
  Subnormal,
  Zero,
  Inf,
  NaN,
  Overflow,
  NearZeroDivisor,
};
/// The number of input classes.
inline constexpr std::size_t kInputClassCount = 7;
/// Every input class, in bit order.
inline constexpr std::array<InputClass, kInputClassCount> kInputClasses = {
    InputClass::Normal, InputClass::Subnormal, InputClass::Zero,           InputClass::Inf,
    InputClass::NaN,    InputClass::Overflow,  InputClass::NearZeroDivisor};

const char* to_string(InputClass c) noexcept;  ///< "normal", "subnormal", "zero", "inf", "nan",
                                               ///< "overflow", "near_zero_divisor"
/// The input class named `s`, or std::nullopt.
std::optional<InputClass> parse_input_class(std::string_view s) noexcept;

/// A set of input classes as a bit mask (bit i = kInputClasses[i]).
using ClassMask = std::uint8_t;
/// The mask of one class.
constexpr ClassMask mask_of(InputClass c) noexcept {
  return static_cast<ClassMask>(1u << static_cast<unsigned>(c));
}
/// Whether class c is in mask m.
constexpr bool has_class(ClassMask m, InputClass c) noexcept { return (m & mask_of(c)) != 0; }

/// Per input class: inputs run and inputs that broke the property.
struct ClassCount {
  std::uint64_t checked = 0;  ///< inputs of this class that were run
  std::uint64_t failed = 0;   ///< of which broke the property
};

// ---- witnesses --------------------------------------------------------------

/// One value as a check saw it: as a double (lossy only for 64-bit integers),
/// exactly (decimal for integers, exact decimal/rational or "inf"/"nan" for
/// floats), and as the storage bit pattern ("0x3c00"; empty when not meaningful).
struct Value {
  /// The value as a double (lossy only for 64-bit integers).
  double value = 0;
  /// Exactly: decimal for integers, exact decimal/rational or "inf"/"nan" for floats.
  std::string exact;
  /// The storage bit pattern ("0x3c00"; empty when not meaningful).
  std::string bits;
};

/// A failing (or, for Evidence::worst, the worst) input of a check.
struct Witness {
  std::vector<Value> inputs;   ///< operands in order (a, b)
  std::vector<Value> input_errors;  ///< their errors, for propagation bounds (empty otherwise)
  Value output;                ///< what the kernel produced
  Value reference;             ///< the reference result (correctly rounded / exact int)
  std::string exact_result;    ///< the ideal result ("undefined" for x/0 on integers)
  double abs_error = 0;        ///< |output - exact result|, +inf if not comparable
  double rel_error = 0;        ///< abs_error / |exact result|, +inf when exact result is 0
  double ulp_error = 0;        ///< abs_error / ulp(exact result) in the check's format
  std::optional<double> bound; ///< the bound's value at this input, for bound checks
  /// The input classes the witness belongs to.
  ClassMask classes = 0;
  std::string message;         ///< one human sentence: what went wrong
};

/// Total order used to keep "the smallest" witnesses: by the largest operand
/// magnitude, then operand magnitudes in order, then signs, then exact text.
bool smaller_witness(const Witness& a, const Witness& b) noexcept;

// ---- evidence ---------------------------------------------------------------

/// Histogram of |error| in ulp of the format, with fixed log-spaced buckets so
/// that histograms of different checks and shards line up:
///   bucket 0:            error exactly 0
///   bucket 1:            (0, 2^kMinExp)
///   bucket 2 + k:        [2^(kMinExp+k), 2^(kMinExp+k+1)),  k = 0 .. kMaxExp-kMinExp-1
///   bucket kBuckets - 2: [2^kMaxExp, +inf)
///   bucket kBuckets - 1: unbounded (infinite error or NaN where a number was due)
struct UlpHistogram {
  ///@{
  /// The bucket layout (see the struct's comment).
  static constexpr int kMinExp = -10;
  static constexpr int kMaxExp = 24;
  static constexpr std::size_t kBuckets = 2 + (kMaxExp - kMinExp) + 2;
  ///@}
  /// The count per bucket.
  std::array<std::uint64_t, kBuckets> counts{};

  /// The bucket of an error in ulps.
  static std::size_t bucket_of(double ulp_error) noexcept;
  /// [lower, upper) edges of bucket i (bucket 0 is [0, 0]; the last is [inf, inf]).
  static double lower_edge(std::size_t i) noexcept;
  /// The upper edge of bucket i (see lower_edge()).
  static double upper_edge(std::size_t i) noexcept;
  /// Counts one error.
  void add(double ulp_error) noexcept { ++counts[bucket_of(ulp_error)]; }
};

/// A point of the error-against-magnitude scatter plot.
struct ScatterPoint {
  std::vector<double> inputs;  ///< the operands
  double magnitude = 0;        ///< |exact result|
  double ulp_error = 0;        ///< |error| in ulp of the format
  std::uint64_t key = 0;       ///< deterministic sampling key (hash of the input bits)
};

/// Deterministic bounded sample (bottom-k by key), so that merging the samples
/// of shards gives the same sample as one run.
struct ScatterSample {
  /// The most points kept.
  std::size_t capacity = 512;
  std::vector<ScatterPoint> points;  ///< sorted by key, at most capacity
};

/// How the inputs with a special IEEE or specification result fared.
struct SpecialValueStats {
  std::uint64_t checked = 0;  ///< inputs whose IEEE/spec result is special (NaN, inf,
                              ///< signed zero, overflow, undefined)
  std::uint64_t matched = 0;  ///< of which the kernel returned the specified special value
  /// Whether the kernel returned the specified special value for every such input.
  bool all_matched() const noexcept { return matched == checked; }
};

/// The statistics of one check over the inputs it ran.
struct Evidence {
  /// Inputs run.
  std::uint64_t inputs_checked = 0;
  std::uint64_t failures = 0;   ///< inputs that broke the property
  /// Of the failures: inputs whose reference is a special value (NaN, ±inf,
  /// overflow, signed zero) where the kernel returned another value — the
  /// "wrong special value" class, counted apart from max_*_error.
  std::uint64_t wrong_special = 0;
  std::uint64_t undefined = 0;  ///< inputs with no defined result (integer x/0): run, reported, not judged
  std::array<ClassCount, kInputClassCount> classes{};  ///< indexed by InputClass
  /// Error statistics (max_*, histogram, scatter) cover the inputs with a finite
  /// exact result whose reference does not overflow; a non-finite output there
  /// is an infinite error. ulp = ulp of the exact result in the check's format
  /// (1 for integers); the relative error of a zero exact result is 0 or +inf.
  double max_abs_error = 0;
  /// The largest relative error (see the comment above max_abs_error).
  double max_rel_error = 0;
  /// The largest error in ulps of the exact result.
  double max_ulp_error = 0;
  std::optional<Witness> worst;  ///< input of max_ulp_error (whether or not it failed)
  /// Special-value results and how many the kernel matched.
  SpecialValueStats special;
  /// Errors in ulps, bucketed.
  UlpHistogram histogram;
  /// A deterministic sample for the error-against-magnitude plot.
  ScatterSample scatter;
  /// Kind-specific counters (e.g. "boxes_split" for symbolic checks).
  std::map<std::string, double> metrics;

  ///@{
  /// The counts of input class c.
  ClassCount& operator[](InputClass c) noexcept { return classes[static_cast<std::size_t>(c)]; }
  const ClassCount& operator[](InputClass c) const noexcept {
    return classes[static_cast<std::size_t>(c)];
  }
  ///@}
};

/// Evidence of the union of two disjoint input sets. Counts add, maxima take the
/// max, histograms add, scatter samples merge bottom-k, metrics add.
void merge(Evidence& into, const Evidence& from);

// ---- one check ----------------------------------------------------------------

/// The bound a check judges against.
struct BoundInfo {
  std::string name;     ///< e.g. "correctly rounded", "SONNX Div intro: ulp(Y)"
  std::string formula;  ///< e.g. "|Y - A/B| <= ulp(Y)"
  std::string source;   ///< e.g. "seed 000 Div float, Error Introduction"
};

/// Which shards of a check a result covers.
struct ShardInfo {
  std::uint32_t count = 1;                  ///< N of --shard i/N
  std::vector<std::uint32_t> indices{0};    ///< shards covered (after merging: several)
  /// Whether every shard is covered.
  bool complete() const noexcept { return indices.size() == count; }
};

/// A shared library the kernel's library loads (its resolved closure).
struct LinkedLibrary {
  std::string path;     ///< absolute path as the dynamic loader resolves it
  std::string sha256;   ///< of the file (hex); "" when it cannot be read
  std::string package;  ///< the Debian package owning the file, "name version"; "" when none
};

/// What identifies the item under test of a concrete check.
struct ItemIdentity {
  std::string library;  ///< absolute path of the shared library; "" for symerr's built-in kernels
  std::string sha256;   ///< of the library file (hex)
  std::string symbol;   ///< the kernel's symbol
  std::string form;     ///< "elementwise" | "tensor"
  std::string package;  ///< the Debian package owning the file, "name version"; "" when none
  std::map<std::string, std::string> build;  ///< user-supplied build information (campaign file)
  /// Every shared library the library loads, as the dynamic loader resolves
  /// them for it (ldd), the loader itself included; empty for built-in kernels.
  std::vector<LinkedLibrary> libraries;
};

/// A kernel call that did not return normally, and the smallest input batch
/// found (by bisection) that reproduces it.
struct FaultInfo {
  std::string kind;      ///< "signal" | "exit" | "exception" | "timeout" | "memory" (a guarded buffer written out of bounds)
  std::string message;  ///< what happened, one sentence
  std::uint64_t batch_size = 0;  ///< elements of the call that failed first
  std::uint64_t reproducer_size = 0;  ///< elements of the smallest reproducing batch found
  bool reproduced = false;  ///< the smallest batch was re-run and failed the same way
  std::vector<std::vector<Value>> reproducer;  ///< its inputs (at most 16 listed)
};

/// The result of one check: what was checked, how, the verdict and its evidence.
struct CheckResult {
  std::string id;              ///< stable identifier, e.g. "concrete/Div/FP16/correct_rounding"
  std::string kind;            ///< "concrete" | "symbolic" | "audit"
  /// An implementation check or a specification statement.
  Subject subject = Subject::Implementation;
  ItemIdentity item;           ///< concrete checks
  std::string kernel;          ///< name of the kernel under test ("" for audits)
  std::string operator_name;   ///< ONNX name: "Div", "Sub", ...
  std::string format;          ///< "FP16", "INT8", ...
  /// Semantic options named in the report: "rounding": "RNE",
  /// "integer_division": "floor" | "truncate", "shape": "sonnx", ...
  std::map<std::string, std::string> semantics;
  /// The bound judged against.
  BoundInfo bound;
  std::vector<std::string> requirements;  ///< spec IDs covered: "[R1]", "[C3]"
  std::vector<std::string> strategies;    ///< "special_grid", "random", "exhaustive", ...
  /// The seed of the random strategies.
  std::uint64_t seed = 0;
  /// The shards this result covers.
  ShardInfo shard;
  /// True when the inputs run are the whole input domain of the check within
  /// its shards, e.g. all 2^32 pairs of FP16 (or all pairs of shard i/N). A concrete check without a
  /// violation is Proven only then; sampled checks are Inconclusive
  /// ("no violation in N inputs").
  bool exhaustive = false;
  /// The verdict (docs/verdicts.md).
  Verdict verdict = Verdict::Inconclusive;
  /// The evidence behind it.
  Evidence evidence;
  std::vector<Witness> witnesses;  ///< a few smallest failing inputs (smaller_witness order)
  std::string reason;              ///< why, for Inconclusive (and a summary otherwise)
  std::optional<FaultInfo> fault;  ///< Crashed / TimedOut
  /// The FP environment the kernel ran in and what it changed (concrete checks).
  std::string fp_environment;
  /// Wall-clock time of the check (reported, never judged).
  double duration_seconds = 0;
};

/// Merge the result of another shard (or strategy run) of the same check into
/// `into`: evidence merged, witnesses re-selected (at most max_witnesses),
/// shards united, durations added; the verdict is Violated if either is or any
/// failure was counted, Proven if none and the merged shards are complete and
/// both parts exhaustive, else Inconclusive.
/// Throws std::invalid_argument if the checks differ in id or shard count.
void merge(CheckResult& into, const CheckResult& from, std::size_t max_witnesses = 8);

// ---- a campaign ---------------------------------------------------------------

/// The machine, build and floating-point state a campaign ran in.
struct Environment {
  /// symerr's version.
  std::string symerr_version;
  /// The commit symerr was built from.
  std::string git_commit;
  std::string compiler;        ///< e.g. "GCC 12.2.0"
  std::string flags;           ///< build flags known at compile time (optimisation, sanitizers, ISA)
  std::string cpu_model;       ///< /proc/cpuinfo "model name"
  std::vector<std::string> cpu_features;  ///< from CPUID: "sse4.2", "avx2", "fma", "f16c", "avx512fp16", ...
  /// std::thread::hardware_concurrency().
  unsigned hardware_threads = 0;
  std::string os;              ///< uname sysname + release + machine
  /// The FP state the harness sets before every kernel call ("RNE, FTZ off,
  /// DAZ off, traps off"); what each kernel changed is in its check.
  std::string kernel_fp_state;
  std::string rounding_mode;   ///< symerr's own state, observed at start-up: "RNE", ...
  bool flush_to_zero = false;      ///< FTZ observed: subnormal results flushed
  bool denormals_are_zero = false; ///< DAZ observed: subnormal operands read as 0
  /// The campaign's seed.
  std::uint64_t seed = 0;
  std::string date;            ///< ISO 8601 UTC, e.g. "2024-05-01T12:00:00Z"
  /// The environment variables known to select kernels' code paths, as set
  /// when the campaign ran (ONEDNN_*, DNNL_*, OPENBLAS_*, MKL_*, OMP_*,
  /// GOMP_*, KMP_*, XNNPACK_*, GLIBC_TUNABLES, LD_PRELOAD, LD_LIBRARY_PATH,
  /// and the names a campaign lists); kernels inherit them.
  std::map<std::string, std::string> code_path_variables;
};

/// The variables of the environment that select code paths
/// (Environment::code_path_variables), plus those named in `extra`.
std::map<std::string, std::string> code_path_variables(const std::vector<std::string>& extra = {});

/// Fill an Environment by observing the running process (environment.cpp).
Environment current_environment(std::uint64_t seed = 0);

/// The campaign file a result came from, and how symerr was invoked.
struct CampaignSource {
  std::string file;         ///< path as given ("" for the default campaign)
  std::string sha256;       ///< of the file's bytes
  std::string text;         ///< the file's content (a copy, for the dossier)
  /// How symerr was invoked.
  std::string command_line;
};

/// The result of a campaign: its checks and where they ran.
struct CampaignResult {
  /// The campaign's name.
  std::string name;
  /// Where it ran.
  Environment environment;
  /// Its checks' results.
  std::vector<CheckResult> checks;
  /// The campaign file it came from.
  CampaignSource source;

  /// combine() over all checks; Proven for an empty campaign.
  Verdict overall() const noexcept {
    Verdict v = Verdict::Proven;
    for (const auto& c : checks) v = combine(v, c.verdict);
    return v;
  }
  /// combine() over the checks of one subject.
  Verdict overall(Subject s) const noexcept {
    Verdict v = Verdict::Proven;
    for (const auto& c : checks)
      if (c.subject == s) v = combine(v, c.verdict);
    return v;
  }
};

/// The exit status for a result (kExit*): 1 if an implementation check failed,
/// else 3 if a specification check did, else 4 when `strict` and a check is
/// inconclusive, else 0. An empty result is an input error (2).
int exit_code(const CampaignResult& r, bool strict = false) noexcept;

// ---- JSON (verdict_json.cpp) ------------------------------------------------------

///@{
/// JSON conversion of the report types (nlohmann::json's ADL hooks; verdict_json.cpp):
/// from_json reads what to_json writes; non-finite doubles are the strings "inf", "-inf", "nan".
void to_json(nlohmann::json& j, Verdict v);
void from_json(const nlohmann::json& j, Verdict& v);
void to_json(nlohmann::json& j, InputClass c);
void from_json(const nlohmann::json& j, InputClass& c);
void to_json(nlohmann::json& j, const ClassCount& x);
void from_json(const nlohmann::json& j, ClassCount& x);
void to_json(nlohmann::json& j, const Value& x);
void from_json(const nlohmann::json& j, Value& x);
void to_json(nlohmann::json& j, const Witness& x);
void from_json(const nlohmann::json& j, Witness& x);
void to_json(nlohmann::json& j, const UlpHistogram& x);
void from_json(const nlohmann::json& j, UlpHistogram& x);
void to_json(nlohmann::json& j, const ScatterPoint& x);
void from_json(const nlohmann::json& j, ScatterPoint& x);
void to_json(nlohmann::json& j, const ScatterSample& x);
void from_json(const nlohmann::json& j, ScatterSample& x);
void to_json(nlohmann::json& j, const SpecialValueStats& x);
void from_json(const nlohmann::json& j, SpecialValueStats& x);
void to_json(nlohmann::json& j, const Evidence& x);
void from_json(const nlohmann::json& j, Evidence& x);
void to_json(nlohmann::json& j, const BoundInfo& x);
void from_json(const nlohmann::json& j, BoundInfo& x);
void to_json(nlohmann::json& j, const ShardInfo& x);
void from_json(const nlohmann::json& j, ShardInfo& x);
void to_json(nlohmann::json& j, const CheckResult& x);
void from_json(const nlohmann::json& j, CheckResult& x);
void to_json(nlohmann::json& j, const LinkedLibrary& x);
void from_json(const nlohmann::json& j, LinkedLibrary& x);
void to_json(nlohmann::json& j, const ItemIdentity& x);
void from_json(const nlohmann::json& j, ItemIdentity& x);
void to_json(nlohmann::json& j, const FaultInfo& x);
void from_json(const nlohmann::json& j, FaultInfo& x);
void to_json(nlohmann::json& j, const CampaignSource& x);
void from_json(const nlohmann::json& j, CampaignSource& x);
void to_json(nlohmann::json& j, const Environment& x);
void from_json(const nlohmann::json& j, Environment& x);
void to_json(nlohmann::json& j, const CampaignResult& x);
void from_json(const nlohmann::json& j, CampaignResult& x);
///@}

}  // namespace symerr::verify
