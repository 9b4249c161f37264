// Compile-time checks of the IEEE-754 assumptions symerr relies on
// (docs/soundness.md, "Hypotheses the build and the tool check"). Every symerr
// header includes this one, so a translation unit built with -ffast-math (or
// a platform without IEEE binary32/binary64) fails to compile instead of
// producing unsound bounds.
#pragma once

#include <cfloat>
#include <limits>

#if defined(__FAST_MATH__)
#error "symerr: -ffast-math (or -Ofast) breaks IEEE-754 semantics; error bounds would be unsound."
#endif
#if defined(__FINITE_MATH_ONLY__) && __FINITE_MATH_ONLY__
#error "symerr: -ffinite-math-only removes infinities and NaN, which symerr must reason about."
#endif

namespace symerr::detail {
static_assert(std::numeric_limits<double>::is_iec559, "double must be IEEE-754 binary64");
static_assert(std::numeric_limits<float>::is_iec559, "float must be IEEE-754 binary32");
static_assert(std::numeric_limits<double>::digits == 53 && std::numeric_limits<float>::digits == 24);
static_assert(std::numeric_limits<double>::has_denorm == std::denorm_present,
              "subnormal doubles are required");
static_assert(std::numeric_limits<double>::has_infinity &&
              std::numeric_limits<double>::has_quiet_NaN);
static_assert(std::numeric_limits<double>::radix == 2);
// Expressions of type double are evaluated in double (no x87 excess precision).
static_assert(FLT_EVAL_METHOD == 0 || FLT_EVAL_METHOD == 16,
              "double expressions must be evaluated in double precision (SSE2, not x87)");
}  // namespace symerr::detail
