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
// The one place that reads and writes MXCSR (x86-64 SSE control and status):
// the guard below, Interval's one-scope path (domains/src/interval_batch.cpp),
// the self-test (lib/src/format.cpp) and verify's unary workers use these.
namespace detail {
// MXCSR fields: exception flags 0-5, DAZ 6, exception masks 7-12, rounding
// control 13-14, FTZ 15.
inline constexpr unsigned kMxcsrFlags = 0x003Fu;
inline constexpr unsigned kMxcsrControl = 0xFFC0u;  // DAZ, masks, RC, FTZ
inline constexpr unsigned kMxcsrDaz = 0x0040u;
inline constexpr unsigned kMxcsrMasks = 0x1F80u;
inline constexpr unsigned kMxcsrRounding = 0x6000u;
inline constexpr unsigned kMxcsrRoundDown = 0x2000u;  // RC = 01b: toward -inf
inline constexpr unsigned kMxcsrRoundUp = 0x4000u;    // RC = 10b: toward +inf
inline constexpr unsigned kMxcsrFtz = 0x8000u;
// The library's control settings: all exceptions masked, RC = nearest, no FTZ/DAZ.
inline constexpr unsigned kMxcsrLibrary = kMxcsrMasks;

inline unsigned read_mxcsr() noexcept { return _mm_getcsr(); }
inline void write_mxcsr(unsigned value) noexcept { _mm_setcsr(value); }
// Sets the control fields (DAZ, masks, RC, FTZ) to `control`; raised flags stay raised.
inline void set_mxcsr_control(unsigned control) noexcept {
  _mm_setcsr((_mm_getcsr() & kMxcsrFlags) | (control & kMxcsrControl));
}
// Sets the rounding-control field only (kMxcsrRoundUp, kMxcsrRoundDown, 0 = nearest).
inline void set_mxcsr_rounding(unsigned rc) noexcept { _mm_setcsr((_mm_getcsr() & ~kMxcsrRounding) | rc); }

// Holds MXCSR's control fields at `control` for its lifetime (writing only
// when the caller's differ) and restores the caller's control fields; flags
// raised meanwhile stay raised (they are status, not control).
class MxcsrControlScope {
 public:
  explicit MxcsrControlScope(unsigned control) noexcept
      : saved_(_mm_getcsr() & kMxcsrControl), changed_(saved_ != control) {
    if (changed_) set_mxcsr_control(control);
  }
  ~MxcsrControlScope() {
    if (changed_) set_mxcsr_control(saved_);
  }
  MxcsrControlScope(const MxcsrControlScope&) = delete;
  MxcsrControlScope& operator=(const MxcsrControlScope&) = delete;

 private:
  unsigned saved_;
  bool changed_;
};
}  // namespace detail

/// Sets the environment symerr's double computations assume (round to nearest,
/// no FTZ/DAZ, every exception masked) for its lifetime when the caller's
/// differs, and restores the caller's control settings afterwards; exception
/// flags raised meanwhile stay raised. Not copyable.
class FpEnvironmentGuard {
 public:
  FpEnvironmentGuard() noexcept = default;
  FpEnvironmentGuard(const FpEnvironmentGuard&) = delete;
  FpEnvironmentGuard& operator=(const FpEnvironmentGuard&) = delete;

 private:
  detail::MxcsrControlScope scope_{detail::kMxcsrLibrary};
};
#else
// Portable fallback: the rounding direction only (FTZ/DAZ and trap controls
// have no standard interface).
/// Sets the environment symerr's double computations assume (round to nearest,
/// no FTZ/DAZ, every exception masked) for its lifetime when the caller's
/// differs, and restores the caller's control settings afterwards; exception
/// flags raised meanwhile stay raised. Not copyable.
/// This portable fallback (no x86-64 SSE2) sets the rounding direction only.
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

/// Run-time self-test: sets a hostile caller environment (round toward zero,
/// FTZ and DAZ where available), runs roundings that would go wrong under it
/// (round_to(2^1100, FP64) must overflow to +inf, a subnormal must survive),
/// checks that a guard sets the library's environment and that the caller's
/// is restored exactly, and returns true iff everything held.
bool fp_environment_guard_works();

}  // namespace symerr
