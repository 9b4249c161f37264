// The kernel zoo in-process: the C kernels of zoo_kernels.c (compiled here
// with C linkage) and an F16C variant of the correct FP16 division for the
// exhaustive sweep. The functions are inline: any test file may include this.
#pragma once

#include <cstddef>
#include <cstdint>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace zoo {
#define ZOO_API inline
extern "C" {
#include "zoo_kernels.c"
}
#undef ZOO_API

// Correct FP16 division through binary32 with the hardware conversions
// (vcvtph2ps / vcvtps2ph, round to nearest even) where the CPU has F16C.
#if defined(__x86_64__)
__attribute__((target("avx,f16c"))) inline void div_fp16_f16c_impl(const std::uint16_t* a,
                                                                    const std::uint16_t* b,
                                                                    std::uint16_t* y, std::size_t n) {
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m256 fa = _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(a + i)));
    const __m256 fb = _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(b + i)));
    const __m128i h = _mm256_cvtps_ph(_mm256_div_ps(fa, fb), _MM_FROUND_TO_NEAREST_INT);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(y + i), h);
  }
  if (i < n) zoo_div_fp16(a + i, b + i, y + i, n - i);
}
#endif

inline void div_fp16_fast(const std::uint16_t* a, const std::uint16_t* b, std::uint16_t* y,
                          std::size_t n) {
#if defined(__x86_64__)
  if (__builtin_cpu_supports("f16c") && __builtin_cpu_supports("avx")) {
    div_fp16_f16c_impl(a, b, y, n);
    return;
  }
#endif
  zoo_div_fp16(a, b, y, n);
}

}  // namespace zoo
