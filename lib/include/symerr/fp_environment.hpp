// The floating-point environment symerr's own double computations assume, and
// the guard that establishes it whatever the caller's settings.
//
// Assumed environment: round to nearest (ldexp, conversions, and the few
// inexact double operations of the library), no flush-to-zero (FTZ) and no
// denormals-are-zero (DAZ) — with DAZ set, SSE comparisons read a subnormal
// endpoint as 0 — and every floating-point exception masked (no traps).
// FpEnvironmentGuard sets that environment for its lifetime when the caller's
// differs, and restores the caller's control settings afterwards; exception
// flags raised meanwhile stay raised (they are status, not control).
// Every public entry point of the symbolic arithmetic, construction and
// rounding code holds one, so results do not depend on the caller's state.
#pragma once

#include <cfenv>

#if defined(__x86_64__) && defined(__SSE2_MATH__)
#include <xmmintrin.h>
#endif

namespace symerr {

#if defined(__x86_64__) && defined(__SSE2_MATH__)
namespace detail {
// MXCSR fields: exception flags 0-5, DAZ 6, exception masks 7-12, rounding
// control 13-14, FTZ 15.
inline constexpr unsigned kMxcsrFlags = 0x003Fu;
inline constexpr unsigned kMxcsrControl = 0xFFC0u;  // DAZ, masks, RC, FTZ
inline constexpr unsigned kMxcsrDaz = 0x0040u;
inline constexpr unsigned kMxcsrMasks = 0x1F80u;
inline constexpr unsigned kMxcsrRounding = 0x6000u;
inline constexpr unsigned kMxcsrFtz = 0x8000u;
// The library's control settings: all exceptions masked, RC = nearest, no FTZ/DAZ.
inline constexpr unsigned kMxcsrLibrary = kMxcsrMasks;
}  // namespace detail

class FpEnvironmentGuard {
 public:
  FpEnvironmentGuard() noexcept : saved_(_mm_getcsr()) {
    if ((saved_ & detail::kMxcsrControl) != detail::kMxcsrLibrary)
      _mm_setcsr((saved_ & detail::kMxcsrFlags) | detail::kMxcsrLibrary);
  }
  ~FpEnvironmentGuard() {
    if ((saved_ & detail::kMxcsrControl) != detail::kMxcsrLibrary)
      _mm_setcsr((_mm_getcsr() & detail::kMxcsrFlags) | (saved_ & detail::kMxcsrControl));
  }
  FpEnvironmentGuard(const FpEnvironmentGuard&) = delete;
  FpEnvironmentGuard& operator=(const FpEnvironmentGuard&) = delete;

 private:
  unsigned saved_;
};
#else
// Portable fallback: the rounding direction only (FTZ/DAZ and trap controls
// have no standard interface).
class FpEnvironmentGuard {
 public:
  FpEnvironmentGuard() noexcept : saved_(std::fegetround()) {
    if (saved_ != FE_TONEAREST) std::fesetround(FE_TONEAREST);
  }
  ~FpEnvironmentGuard() {
    if (saved_ != FE_TONEAREST) std::fesetround(saved_);
  }
  FpEnvironmentGuard(const FpEnvironmentGuard&) = delete;
  FpEnvironmentGuard& operator=(const FpEnvironmentGuard&) = delete;

 private:
  int saved_;
};
#endif

// Run-time self-test: sets a hostile caller environment (round toward zero,
// FTZ and DAZ where available), runs roundings that would go wrong under it
// (round_to(2^1100, FP64) must overflow to +inf, a subnormal must survive),
// checks that a guard sets the library's environment and that the caller's
// is restored exactly, and returns true iff everything held.
bool fp_environment_guard_works();

}  // namespace symerr
