// The accuracy model of elementary functions: how far the implementation's
// result may be from the exact value f(t) of its (machine) argument t.
//
// An elementary function on SymbolicDomainError splits its error into the
// propagated part f(fp_in) − f(real_in) (exact identities, independent of the
// implementation) and the introduced part impl(t) − f(t), which only a
// declared model can bound. The model is explicit: a scoped object
// (ScopedAccuracyModel) or a parameter of each function. Without either, the
// default is the glibc table below — never "correctly rounded" by omission —
// and its name is part of every result (accuracy_model_name()).
//
// Models:
//  * correctly_rounded(): impl(t) = round(f(t)) in the value's rounding mode;
//  * ulps(k): |impl(t) − f(t)| <= k · ulp(f(t)) in the value's format
//    (k >= 0.5; ulp the spacing of the format at f(t): as symerr::ulp, the
//    subnormal spacing below the normal range, except in a format without
//    subnormals, where it is the gap 2^emin below the normal range, so that a
//    result next to it may be ±0 or ±2^emin), in every
//    rounding mode; a result of the other sign than f(t) is allowed when
//    k·ulp(f(t)) > |f(t)| (formats of 2 or 3 bits);
//  * glibc_x86_64(): per function, format and rounding mode (each of the
//    four), the maximal errors of glibc 2.36's libm on x86-64: glibc's
//    sysdeps/x86_64/fpu/libm-test-ulps, raised where `symerr libm` measured
//    Debian 12's libm above it (docs/accuracy-models.md). Measured maxima,
//    not proven bounds; a test checks them against the installed libm.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include <symerr/format.hpp>
#include <symerr/operators.hpp>

namespace symerr {

/// The functions a model has entries for are operators of the table
/// (<symerr/operators.hpp>): Exp, Expm1, Log, Log1p, Tanh, Sigmoid, Pow, Erf, Sqrt, ...
using ElementaryFunction = OpId;

/// The C / libm name ("exp"): the operator table's function_name.
std::string_view elementary_name(ElementaryFunction f) noexcept;

/// One entry of a model: the bound in ulps of the exact result, or correct rounding.
struct UlpBound {
  /// Whether the function is correctly rounded (then `ulps` is unused).
  bool correctly_rounded = false;
  double ulps = 0;          ///< meaningful when !correctly_rounded (>= 0.5)
  std::string source;       ///< where the number comes from
  /// The ulp is that of the largest |f(t)|·(1 + widen): a result computed in a
  /// wider format and rounded into this one (the glibc model's FP16, BF16) may
  /// have crossed into the next binade first (expf(-0x1.ff5772p-54) upward is
  /// 1 + 2^-23, which rounds upward to 1 + 2^-7 in BF16: 2 ulps of f(t) < 1).
  double widen = 0;
};

/// The accuracy model of elementary functions: how far the implementation's
/// result may be from the exact value f(t) of its machine argument t. It bounds
/// the introduced part of an elementary function's error; without a
/// ScopedAccuracyModel the default is glibc_x86_64() (never "correctly rounded"
/// by omission), and its name is part of every result.
class AccuracyModel {
 public:
  /// impl(t) = round(f(t)) in the value's rounding mode.
  static AccuracyModel correctly_rounded();
  /// |impl(t) − f(t)| <= k · ulp(f(t)) in the value's format, in every rounding
  /// mode; throws std::invalid_argument unless 0.5 <= k < 2^20.
  static AccuracyModel ulps(double k);  // throws std::invalid_argument unless 0.5 <= k < 2^20
  /// glibc 2.36 (Debian 12) libm on x86-64; FP16/BF16 as the FP32 function
  /// followed by a rounding to the narrow format (bound ½ + k32 · 2^(p−24)).
  /// Sigmoid has no libm function: the table has no entry for it and asking
  /// for one throws (set ulps(k) or correctly_rounded() explicitly).
  static AccuracyModel glibc_x86_64();

  /// The model's name, as results report it.
  const std::string& name() const noexcept { return name_; }
  ///@{
  /// Two models with equal keys give every bound alike (a branch driver's
  /// recipes: detail::QuantityRecipe).
  std::uint64_t kind_key() const noexcept { return static_cast<std::uint64_t>(kind_); }
  double ulps_key() const noexcept { return ulps_; }
  ///@}
  /// The bound for f in format F under rounding mode `mode`; throws
  /// std::invalid_argument naming the model, function and format when the
  /// model has no entry. Sqrt is correctly rounded in every model (IEEE 754).
  UlpBound bound(ElementaryFunction f, const FloatFormat& F, RoundingMode mode) const;

 private:
  enum class Kind { CorrectlyRounded, Ulps, Glibc };
  AccuracyModel(Kind k, double ulps, std::string name) : kind_(k), ulps_(ulps), name_(std::move(name)) {}
  Kind kind_;
  double ulps_;
  std::string name_;
};

/// The model in force on this thread: the innermost ScopedAccuracyModel, else
/// AccuracyModel::glibc_x86_64().
const AccuracyModel& current_accuracy_model();
/// The name of current_accuracy_model().
inline const std::string& accuracy_model_name() { return current_accuracy_model().name(); }

/// Sets the model of this thread for its lifetime (nests; not copyable).
class ScopedAccuracyModel {
 public:
  /// Makes `m` this thread's model until the scope ends (then the previous one is restored).
  explicit ScopedAccuracyModel(AccuracyModel m);
  ~ScopedAccuracyModel();
  ScopedAccuracyModel(const ScopedAccuracyModel&) = delete;
  ScopedAccuracyModel& operator=(const ScopedAccuracyModel&) = delete;

 private:
  AccuracyModel model_;
  const AccuracyModel* previous_;
};

}  // namespace symerr
