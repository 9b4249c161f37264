// The accuracy models of <symerr/symbolic/accuracy.hpp>.
#include <symerr/symbolic/accuracy.hpp>

#include <cmath>
#include <cstdio>

namespace symerr {

std::string_view elementary_name(ElementaryFunction f) noexcept {
  return static_cast<std::size_t>(f) < operator_table().size() ? operator_info(f).function_name : "?";
}

namespace {

// glibc 2.36 (Debian 12) on x86-64, per function, format and rounding mode.
// Each entry is the larger of glibc's sysdeps/x86_64/fpu/libm-test-ulps (the
// 2.36-era file, GitHub XUANTIE-RV/glibc commit 5d4f91e4; the file has one
// directed entry for the three directed modes) and the maximum `symerr libm`
// measured against MPFR (60,000 sampled inputs per entry and the hard cases of
// verify/src/libm; docs/accuracy-models.md), plus 1/16 ulp of margin, rounded
// up to an integer. tests/libm checks every entry against the installed libm.
// Newer glibc (2.41+, CORE-MATH) makes erff, expm1f and log1pf correctly
// rounded; the 2.36 numbers are kept because Debian 12 ships glibc 2.36.
struct GlibcEntry {
  ElementaryFunction f;
  int fp64[4], fp32[4];  // per RoundingMode: to nearest, toward zero, upward, downward
};
constexpr GlibcEntry kGlibc[] = {
    {ElementaryFunction::Exp, {1, 2, 2, 2}, {1, 2, 3, 2}},
    {ElementaryFunction::Expm1, {1, 3, 2, 3}, {1, 3, 2, 3}},
    {ElementaryFunction::Log, {1, 2, 2, 2}, {1, 2, 2, 2}},
    {ElementaryFunction::Log1p, {1, 2, 2, 2}, {1, 2, 2, 2}},
    {ElementaryFunction::Tanh, {3, 3, 3, 3}, {3, 4, 3, 3}},
    {ElementaryFunction::Pow, {1, 2, 2, 2}, {1, 2, 2, 2}},
    {ElementaryFunction::Erf, {2, 2, 2, 2}, {1, 2, 2, 2}},
    {ElementaryFunction::Exp2, {1, 2, 2, 2}, {1, 2, 3, 2}},
    {ElementaryFunction::Log2, {2, 3, 3, 3}, {1, 3, 3, 3}},
    {ElementaryFunction::Log10, {2, 3, 3, 3}, {3, 3, 4, 4}},
    {ElementaryFunction::Sin, {1, 1, 1, 1}, {1, 2, 2, 2}},
    {ElementaryFunction::Cos, {1, 1, 1, 1}, {1, 2, 2, 2}},
    {ElementaryFunction::Tan, {1, 1, 1, 1}, {2, 3, 3, 3}},
    {ElementaryFunction::Atan, {1, 1, 1, 1}, {1, 2, 2, 2}},
    {ElementaryFunction::Asin, {1, 2, 2, 2}, {1, 2, 2, 2}},
    {ElementaryFunction::Acos, {1, 2, 2, 2}, {1, 2, 2, 2}},
    {ElementaryFunction::Sinh, {2, 4, 4, 3}, {2, 4, 4, 4}},
    {ElementaryFunction::Cosh, {2, 3, 4, 4}, {2, 4, 4, 4}},
    {ElementaryFunction::Asinh, {2, 3, 3, 3}, {2, 3, 3, 3}},
    {ElementaryFunction::Acosh, {2, 3, 3, 3}, {3, 4, 4, 4}},
    {ElementaryFunction::Atanh, {2, 3, 3, 3}, {2, 3, 3, 3}},
    {ElementaryFunction::Cbrt, {4, 5, 5, 5}, {1, 2, 2, 2}},
    {ElementaryFunction::Hypot, {1, 2, 2, 2}, {1, 2, 2, 2}},
    {ElementaryFunction::Atan2, {1, 1, 1, 1}, {2, 3, 3, 4}},
    {ElementaryFunction::Erfc, {5, 6, 6, 6}, {3, 8, 8, 8}},
};
constexpr const char* kGlibcSource =
    "glibc 2.36 x86-64: libm-test-ulps (XUANTIE-RV/glibc@5d4f91e4) raised to symerr libm's measurement, per mode";

thread_local const AccuracyModel* g_current = nullptr;

}  // namespace

AccuracyModel AccuracyModel::correctly_rounded() { return {Kind::CorrectlyRounded, 0.5, "correctly-rounded"}; }

AccuracyModel AccuracyModel::ulps(double k) {
  if (!(k >= 0.5 && k < 1048576.0))
    throw std::invalid_argument("AccuracyModel::ulps: k must be in [0.5, 2^20), got " + std::to_string(k));
  char buf[64];
  std::snprintf(buf, sizeof buf, "%g-ulp", k);
  return {Kind::Ulps, k, buf};
}

AccuracyModel AccuracyModel::glibc_x86_64() { return {Kind::Glibc, 0, "glibc-2.36-x86_64"}; }

UlpBound AccuracyModel::bound(ElementaryFunction f, const FloatFormat& F, RoundingMode mode) const {
  if (f == ElementaryFunction::Sqrt || kind_ == Kind::CorrectlyRounded)
    return {true, 0.5, f == ElementaryFunction::Sqrt ? "IEEE 754 (sqrt is correctly rounded)" : name_};
  if (kind_ == Kind::Ulps) return {false, ulps_, name_};
  const bool directed = mode != RoundingMode::NearestEven;
  for (const GlibcEntry& e : kGlibc) {
    if (e.f != f) continue;
    const auto m = static_cast<std::size_t>(mode);
    const int k64 = e.fp64[m], k32 = e.fp32[m];
    if (F == FP64) return {false, static_cast<double>(k64), kGlibcSource};
    if (F == FP32) return {false, static_cast<double>(k32), kGlibcSource};
    if (F.precision < 24 && F.emin >= FP32.emin && F.emax <= FP32.emax) {
      // the FP32 function, then one rounding into F: |y − f| <= ½ ulp_F + k32 ulp_32,
      // and ulp_32 <= 2^(p−24) ulp_F on F's range (directed modes: 1 ulp_F).
      // The rounding's ulp is that of the FP32 result, |y32| <= |f|·(1 + k32·2^-23)
      // (normal range; below it the spacing does not change): UlpBound::widen.
      const double k = (directed ? 1.0 : 0.5) + k32 * std::ldexp(1.0, F.precision - 24);
      return {false, k, std::string(kGlibcSource) + ", FP32 function rounded to " + std::string(F.name),
              k32 * 0x1p-23};
    }
    break;
  }
  throw std::invalid_argument("accuracy model " + name_ + " has no entry for " +
                              std::string(elementary_name(f)) + " in " + std::string(F.name) +
                              ": set one explicitly (ScopedAccuracyModel with AccuracyModel::ulps(k) "
                              "or AccuracyModel::correctly_rounded())");
}

const AccuracyModel& current_accuracy_model() {
  static const AccuracyModel glibc = AccuracyModel::glibc_x86_64();
  return g_current ? *g_current : glibc;
}

ScopedAccuracyModel::ScopedAccuracyModel(AccuracyModel m) : model_(std::move(m)), previous_(g_current) {
  g_current = &model_;
}
ScopedAccuracyModel::~ScopedAccuracyModel() { g_current = previous_; }

}  // namespace symerr
