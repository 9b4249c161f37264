// The concrete check of a black-box kernel (docs/design.md §3): run it on inputs from
// strategies, compare every output with the reference semantics (oracle.hpp),
// and return a CheckResult with evidence and the smallest failing inputs.
//
// Property checked, for floats:
//   CorrectRounding — output == the correctly rounded (RNE) result, bit for
//                     bit (any NaN matches any NaN; the sign of zero counts);
//   Bound           — |output − exact| <= bound(context) for finite exact
//                     results (decided exactly: GMP when the double
//                     computation is too close to call); results that are
//                     IEEE special values (NaN, ±inf, exact zeros, overflow)
//                     must match IEEE 754 when strict_special_values.
// For integers the property is always equality with the reference
// (wrap-around; floor or truncating division as chosen); inputs whose result
// is undefined (x/0) are run and counted but not judged.
//
// Verdict: Violated if any input fails; Proven if none does and the inputs
// were the whole input domain (exhaustive: 8-bit integers here, 16-bit
// formats via check_exhaustive); otherwise PassedOnSamples ("no violation in
// N inputs"); Crashed / TimedOut when a kernel call did not return normally.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <symerr/format.hpp>
#include <symerr/ops/semantics.hpp>
#include <symerr/verify/kernel/kernel.hpp>
#include <symerr/verify/oracle/oracle.hpp>
#include <symerr/verify/concrete/strategy.hpp>
#include <symerr/verify/report/verdict.hpp>

namespace symerr::verify {

/// What a bound sees for one input with a finite exact result.
struct BoundContext {
  /// The operator.
  OpId op;
  /// The check's format.
  const FloatFormat& format;
  ///@{
  /// The operands.
  double a, b;
  ///@}
  double exact;      ///< the exact result rounded to the nearest double
  double reference;  ///< the correctly rounded result in the format
  double output;     ///< the kernel's output
};
/// Returns the largest |output − exact| the bound allows at this input. Alone
/// (error_bound without an exact form) the double it returns IS the bound and
/// is compared with |output − exact| exactly; with an exact form it is only a
/// fast approximation: within 2^-49 relative plus 2^-1060 absolute of the exact
/// bound, or NaN when it cannot say (the judge then uses the exact form).
using BoundFn = std::function<double(const BoundContext&)>;
/// The bound in rational arithmetic at the exact result r: never rounded, so
/// that neither an underflowing product (2^-53 · 2^-1022 is 0 in double) nor
/// a rounding of r across a power of two (ulp(RN(r)) = 2 ulp(r)) moves it.
using ExactBoundFn = std::function<mpq_class(const BoundContext&, const mpq_class& r)>;

/// What a concrete check judges: correct rounding (bit-exact, IEEE 754 special
/// values), or an error bound.
struct Property {
  /// Correct rounding or a bound.
  enum class Kind : unsigned char { CorrectRounding, Bound };
  /// Which property.
  Kind kind = Kind::CorrectRounding;
  /// The bound's name, formula and source, for the report.
  BoundInfo info{"correctly rounded", "Y == RNE(A op B) (bit-exact; IEEE 754 special values)",
                 "IEEE 754-2019 §4.3, §6"};
  /// The bound (Kind::Bound).
  BoundFn bound;
  ExactBoundFn exact_bound;  ///< empty: `bound` is compared as it is
};

/// The correct-rounding property (RNE, bit-exact).
Property correct_rounding();
/// The property |output − exact| <= bound, described by `info` for the report;
/// `exact_bound`, when given, decides the cases the double `bound` cannot
/// (see BoundFn). Throws std::invalid_argument when `bound` is empty.
Property error_bound(BoundInfo info, BoundFn bound, ExactBoundFn exact_bound = {});
/// SONNX Div (float) Error Introduction, seed 000: |Y − A/B| <= ulp(Y), with
/// ulp taken at the real result as in the seed's unit-verification code.
Property sonnx_div_introduction_bound();
/// The standard model with gradual underflow: |Y − exact| <= u · max(|exact|, min normal),
/// decided exactly (for FP64 the bound of a subnormal result is 2^-1075).
Property unit_roundoff_bound();
/// |Y − exact| <= k · ulp(exact) (the campaign's "bound": {"ulp": k}), decided exactly.
Property ulp_multiple_bound(double k);

/// Which input strategies a concrete check runs.
struct StrategyOptions {
  /// Every special value crossed with every special value.
  bool special_grid = true;
  /// Results near the format's thresholds.
  bool boundary = true;
  /// Pairs of the boundary strategy.
  std::size_t boundary_count = 4000;
  /// Pairs of the random strategy.
  std::size_t random_count = 100000;
  /// Integer formats of at most 8 bits are run on all pairs (and can be Proven).
  bool exhaustive_small_integers = true;
};

/// The options of a concrete check.
struct CheckOptions {
  std::string id;  ///< default "concrete/<Op>/<type>/<kernel name>"
  /// The property judged.
  Property property = correct_rounding();
  IntegerDivision integer_division = IntegerDivision::Floor;  ///< SONNX Div (seed 000)
  std::vector<std::string> requirements;                      ///< "[R1]", "[C3]", ...
  /// The seed of the random strategies.
  std::uint64_t seed = 20240501;
  /// The strategies run.
  StrategyOptions strategies;
  std::optional<OracleKind> oracle;  ///< default_oracle(op, format)
  std::size_t max_witnesses = 5;     ///< smallest failing inputs, plus the smallest per failing class
  /// Special results (NaN, ±inf, signed zero, overflow) must match IEEE 754.
  bool strict_special_values = true;
  std::size_t batch = 4096;          ///< elements per kernel call
  /// Kernel calls in child processes with this per-call time limit (a crash,
  /// hang or exit() gives the verdict crashed / timed out with the smallest
  /// reproducing batch); nullopt: in-process. Either way the harness owns the
  /// FP environment of every call (sandbox.hpp).
  std::optional<SandboxOptions> isolation;
  /// Integer Div: also run the inputs with divisor 0 (undefined behaviour in C,
  /// "undefined" in SONNX); they are then counted as undefined, not judged.
  bool feed_undefined = false;
};

/// The check's FP-environment sentence and fault from the kernel's log.
void finish_fp_environment(CheckResult& r, const Kernel& k);

///@{
/// Interruption (SIGINT / SIGTERM in the CLI): request_stop is async-signal-
/// safe (a lock-free atomic); running checks stop after their batch in
/// progress and are inconclusive unless they already found a violation; checks
/// not started are not run. stop_requested() is the signal, 0 if none.
void request_stop(int signal) noexcept;
int stop_requested() noexcept;
///@}
/// The check interrupted after the inputs it judged: inconclusive ("interrupted
/// by SIGINT after N inputs ..."), unless a violation was found (kept).
void finish_interrupted(CheckResult& r);

/// Bisects the batch [A, B) of n elements (output buffer contents Y0) that
/// failed with `first` down to the smallest sub-batch that still fails, and
/// sets r's verdict (crashed / timed out), reason and fault. `value_of(i)`
/// gives the operands of element i for the report.
void record_fault(CheckResult& r, const Kernel& k, const KernelFault& first,
                  const unsigned char* A, const unsigned char* B, const unsigned char* Y0,
                  std::size_t n, const std::function<std::vector<Value>(std::size_t)>& value_of);

/// The default id and semantics fields of a check of kernel k.
CheckResult make_check_header(const Kernel& k, const CheckOptions& o);

/// Run k on the inputs the strategies give and judge every output.
CheckResult check_kernel(const Kernel& k, const CheckOptions& o = {});

/// Run k on the given inputs only (the check's `exhaustive` flag says whether
/// they are the whole domain). The value type must match the kernel's type.
CheckResult check_inputs(const Kernel& k, const std::vector<FloatInputs>& inputs,
                         const CheckOptions& o, bool exhaustive = false);
/// The same on integer inputs.
CheckResult check_inputs(const Kernel& k, const std::vector<IntInputs>& inputs,
                         const CheckOptions& o, bool exhaustive = false);

}  // namespace symerr::verify
