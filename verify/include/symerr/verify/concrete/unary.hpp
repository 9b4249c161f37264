// Concrete checks of black-box unary kernels  void f(const T* x, T* y, size_t n)
// (ONNX Exp, Log, Tanh, Sigmoid, Sqrt, Erf, Abs, Neg) against an exact oracle:
// correct rounding (round to nearest even), or a bound of k ulps of the exact
// result (ulp as symerr::ulp: the binade's spacing, the subnormal spacing
// below the normal range). Special arguments (±0, ±inf, NaN, outside the
// domain, poles) must give the IEEE 754 / C Annex F result exactly (any NaN
// for NaN; a zero's sign counts).
//
// Strategies: special values, boundary values (the overflow / underflow /
// saturation thresholds and their neighbours, the points where the function
// changes regime), random (uniform over the bit patterns), exhaustive (every
// bit pattern: 2^16 for FP16/BF16, 2^32 for FP32; not FP64).
//
// The oracle (unary_oracle.cpp): MPFR with Ziv's strategy (directed
// evaluations at growing precision until both round to the same format
// value). For FP32 a fast path (unary_fast_oracle.hpp) encloses f(x) in
// binary64 ball arithmetic with a proven radius and decides from the
// enclosure when it rounds to one FP32 value; otherwise MPFR decides.
// UnaryOptions::mpfr_only switches the fast path off.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <symerr/verify/kernel/kernel.hpp>
#include <symerr/verify/report/verdict.hpp>

namespace symerr::verify {

/// The operators of unary kernels: every one-operand operator of lib's table
/// (<symerr/operators.hpp>). The oracle evaluates it with the table's exact
/// MPFR evaluator; the IEEE special values, the binary64 fast path and the
/// regime boundaries below know Exp, Log, Tanh, Sigmoid, Sqrt, Erf, Abs, Neg
/// and take MPFR's answers for any other operator.
bool unary_kernel_operator(OpId op) noexcept;
/// The unary operator named `name` (case-insensitive); throws
/// std::invalid_argument naming `name` and the operators available.
OpId parse_unary_operator(std::string_view name);

/// The C signature of a unary kernel on T.
template <class T>
using UnaryFn = void (*)(const T* x, T* y, std::size_t n);

/// A unary kernel under test, type-erased.
struct UnaryKernel {
  /// Its name in reports.
  std::string name;
  /// The operator it computes.
  OpId op = OpId::Exp;
  ElementType type = ElementType::FP32;  ///< FP16, BF16, FP32 or FP64
  std::function<void(const void* x, void* y, std::size_t n)> run;  ///< must be callable from several threads
  ///@{
  /// Set by harnessed(), as for binary kernels (kernel.hpp): what the calls did
  /// to the FP state, and the child processes the calls run in (null: in-process).
  std::shared_ptr<FpStateLog> fp_log;
  std::shared_ptr<Sandbox> sandbox;
  ///@}
};

/// The unary kernel under the harness (as harnessed() of kernel.hpp): every
/// call in the documented FP state, what it leaves changed logged; with
/// `isolation`, in the sandbox's child processes (time and memory limits,
/// guarded buffers, its own process group), else in-process with the caller's
/// FP state restored after each call. Idempotent.
UnaryKernel harnessed(UnaryKernel k, std::optional<SandboxOptions> isolation);
/// The same kernel as a binary Kernel whose b operand is ignored (fault
/// bisection and the FP environment text of concrete.hpp).
Kernel as_binary(const UnaryKernel& k);

/// The unary kernel `f` on C element type T, named `name`, computing `op` on
/// `type` (not yet harnessed). Throws std::invalid_argument when `type` is not a
/// float type stored as T.
template <class T>
UnaryKernel make_unary_kernel(std::string name, OpId op, ElementType type, UnaryFn<T> f) {
  if (!is_float(type) || !is_storage_of<T>(type))
    throw std::invalid_argument("make_unary_kernel(" + name + "): C element type does not store " + to_string(type));
  UnaryKernel k{std::move(name), op, type, {}, {}, {}};
  k.run = [f](const void* x, void* y, std::size_t n) { f(static_cast<const T*>(x), static_cast<T*>(y), n); };
  return k;
}

/// dlopen(path) + dlsym(symbol) of a unary kernel; throws KernelLoadError naming
/// the file and the symbol.
UnaryKernel load_unary_kernel(const std::string& path, const std::string& symbol, OpId op,
                              ElementType type, double load_seconds = 10);

// ---- the oracle ------------------------------------------------------------

/// IEEE 754 / Annex F result of op at a special argument x (±0, ±inf, NaN,
/// outside the domain, pole); nullopt for an ordinary argument.
std::optional<double> unary_special(OpId op, double x);

/// The correctly rounded (RNE) value of op(x) in F (±inf on overflow), and
/// |y − op(x)| / ulp(op(x)) for a finite y (+inf if y is infinite and op(x)
/// is not). x ordinary (not special). fast: allow the rigorous fast path (FP32);
/// an ulp error that the fast enclosure cannot place on one side of
/// `decide_near` (the bound being checked) is recomputed in MPFR.
struct UnaryTruth {
  /// The correctly rounded value of op(x) in F.
  double rounded = 0;
  double ulp_error = 0;   ///< of the y passed in
  /// Whether MPFR decided (the fast path could not).
  bool used_mpfr = false;
};
/// The truth for one argument and output (see UnaryTruth).
UnaryTruth unary_truth(OpId op, double x, double y, const FloatFormat& F, bool fast,
                       double decide_near = 0.5);

/// |y − op(x)| <= 2^−p·max(|op(x)|, 2^emin) (the SONNX introduction bound),
/// decided in MPFR (directed bounds at growing precision). x ordinary, y finite.
bool unary_within_unit_roundoff(OpId op, double x, double y, const FloatFormat& F);

// ---- the check ------------------------------------------------------------

/// The inputs of a unary check: special values, regime boundaries, random bit patterns, or every bit pattern.
enum class UnaryStrategy : unsigned char { Special, Boundary, Random, Exhaustive };
/// The strategy's name.
const char* to_string(UnaryStrategy s) noexcept;

/// The options of a unary check.
struct UnaryOptions {
  /// Which inputs.
  UnaryStrategy strategy = UnaryStrategy::Exhaustive;
  double ulp_bound = 0.5;      ///< 0.5: correct rounding is the bound; k: at most k ulps
  /// instead: the SONNX introduction bound |y − f(x)| <= u·max(|f(x)|, min normal),
  /// u = 2^−p (a correctly rounded result always meets it; others are decided in MPFR)
  bool sonnx_unit_roundoff = false;
  std::uint64_t samples = 100000;  ///< Random
  /// The seed of the random strategy.
  std::uint64_t seed = 1;
  unsigned threads = 2;        ///< Exhaustive
  bool mpfr_only = false;      ///< no fast path
  ///@{
  /// Exhaustive: the sub-range [first, first + count) of bit patterns (count 0: all).
  std::uint64_t first = 0, count = 0;  // Exhaustive: a sub-range of bit patterns (count 0: all)
  ///@}
  std::optional<SandboxOptions> isolation;  ///< run the kernel in child processes
  /// Exhaustive: called at every 1/64 of the sweep with a line "sweep 25.0%
  /// (N of M inputs), T s, about E s left" (the share is counted in inputs;
  /// the time left is the time so far scaled by the inputs left). Not called
  /// when empty; calls are serialized.
  std::function<void(std::string_view)> progress;
};

/// One failing (or worst) argument of a unary check.
struct UnaryWitness {
  std::uint64_t bits = 0;  ///< input storage bits
  ///@{
  /// The argument, the kernel's output, and the expected value (correctly rounded or the IEEE special value).
  double x = 0, y = 0, expected = 0;  // expected: correctly rounded or IEEE special value
  ///@}
  /// Its error in ulps of op(x).
  double ulp_error = 0;
  std::string what;        ///< "special value", "not correctly rounded", "exceeds the bound"
};

/// The result of a unary check: counts, the largest error and the witnesses.
struct UnaryResult {
  /// The kernel's name.
  std::string kernel;
  /// Its operator.
  OpId op{};
  /// Its element type.
  ElementType type{};
  /// The strategy run.
  UnaryStrategy strategy{};
  /// The bound in ulps (0.5: correct rounding).
  double ulp_bound = 0.5;
  /// Judged against the SONNX introduction bound instead.
  bool sonnx_unit_roundoff = false;
  /// Arguments run.
  std::uint64_t tested = 0;
  std::uint64_t incorrectly_rounded = 0;  ///< ordinary arguments whose result is not the RNE value
  std::uint64_t special_mismatches = 0;   ///< special arguments with a wrong IEEE result
  std::uint64_t over_bound = 0;           ///< ordinary arguments beyond ulp_bound (or special mismatches)
  std::uint64_t mpfr_calls = 0;           ///< oracle fallbacks
  /// The largest error in ulps.
  double max_ulp_error = 0;
  ///@{
  /// |y − f(x)| and |y − f(x)| / |f(x)| of the finite results of ordinary
  /// arguments, bounded from above from the ulp error (ulp at the correctly
  /// rounded value, at least the ulp at f(x))
  double max_abs_error = 0, max_rel_error = 0;
  ///@}
  /// per input class of x (Normal, Subnormal, Zero, Inf, NaN; Overflow: f(x)
  /// overflows): inputs run, inputs failed
  std::array<std::array<std::uint64_t, 2>, 7> classes{};
  /// The ulp errors of the ordinary arguments (special arguments are judged apart).
  UlpHistogram histogram;
  /// a call that did not return normally: the check stopped at its batch
  std::optional<KernelFault> fault;
  std::vector<std::uint64_t> fault_batch;  ///< the inputs (storage bits) of that call
  bool interrupted = false;  ///< stopped early by request_stop (concrete.hpp)
  std::vector<UnaryWitness> worst;  ///< the largest ulp errors (up to 5)
  std::vector<UnaryWitness> witnesses;  ///< first violations of the bound (up to 5)
  /// No special mismatch, no argument over the bound, no fault.
  bool passed() const noexcept { return special_mismatches == 0 && over_bound == 0 && !fault; }
  std::string summary() const;  ///< one paragraph, names the bound
};

/// Runs the unary check of k in-process with the strategy of `o`.
/// @throws std::invalid_argument when k's type is not a float type, o.ulp_bound < 0.5,
/// or an exhaustive sweep is asked of a 64-bit type.
UnaryResult check_unary_kernel(const UnaryKernel& k, const UnaryOptions& o);

}  // namespace symerr::verify
