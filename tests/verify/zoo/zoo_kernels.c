/* The kernel zoo: small black-box kernels, some correct and some broken on
 * purpose, for the concrete check's tests. Written in the common subset of C
 * and C++: tests/verify includes it into the test program (extern "C"), and
 * test_concrete_dlopen.cpp compiles it with `cc -shared` and loads it by name.
 * FP16 and BF16 elements are their uint16_t bit patterns. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* zoo.hpp defines ZOO_API as `inline` so that several C++ test files can
 * include the kernels; the shared-library build leaves it empty. */
#ifndef ZOO_API
#define ZOO_API
#endif

static float zoo_f32(uint32_t bits) {
  float f;
  memcpy(&f, &bits, sizeof f);
  return f;
}
static uint32_t zoo_bits(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  return u;
}

/* binary16 -> binary32, exact. */
static float zoo_fp16_to_float(uint16_t h) {
  const uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
  const uint32_t exp = (uint32_t)(h >> 10) & 0x1Fu;
  const uint32_t man = (uint32_t)h & 0x3FFu;
  if (exp == 0x1Fu) return zoo_f32(sign | 0x7F800000u | (man << 13)); /* inf, NaN */
  if (exp == 0) { /* zero or subnormal: man * 2^-24, exact in float */
    const float m = (float)man * 5.9604644775390625e-08f;
    return sign ? -m : m;
  }
  return zoo_f32(sign | ((exp + 112u) << 23) | (man << 13));
}

/* binary32 -> binary16, round to nearest even (one rounding). */
static uint16_t zoo_float_to_fp16(float f) {
  const uint32_t x = zoo_bits(f);
  const uint16_t sign = (uint16_t)((x >> 16) & 0x8000u);
  const uint32_t a = x & 0x7FFFFFFFu;
  if (a >= 0x7F800000u) /* inf or NaN (quiet, top payload bits kept) */
    return (uint16_t)(sign | (a > 0x7F800000u ? 0x7E00u | ((a >> 13) & 0x3FFu) : 0x7C00u));
  if (a >= 0x477FF000u) return (uint16_t)(sign | 0x7C00u); /* >= 65520: overflow */
  if (a < 0x38800000u) { /* below 2^-14: subnormal result, quantum 2^-24 */
    if (a <= 0x33000000u) return sign; /* <= 2^-25: ties to even 0 */
    {
      const uint32_t e = a >> 23;
      const uint32_t m = (a & 0x7FFFFFu) | 0x800000u;
      const uint32_t s = 126u - e; /* m * 2^(e-126) quanta */
      uint32_t r = m >> s;
      const uint32_t rem = m & ((1u << s) - 1u), half = 1u << (s - 1u);
      if (rem > half || (rem == half && (r & 1u))) ++r;
      return (uint16_t)(sign | r);
    }
  }
  {
    uint32_t r = ((((a >> 23) - 112u) << 10) | ((a >> 13) & 0x3FFu));
    const uint32_t rem = a & 0x1FFFu;
    if (rem > 0x1000u || (rem == 0x1000u && (r & 1u))) ++r;
    return (uint16_t)(sign | r);
  }
}

/* ---- FP32 ---- */

/* Correct: IEEE binary32 division. */
ZOO_API void zoo_div_fp32(const float* a, const float* b, float* y, size_t n) {
  for (size_t i = 0; i < n; ++i) y[i] = a[i] / b[i];
}

/* Broken: a * (1/b) rounds twice. */
ZOO_API void zoo_div_fp32_reciprocal(const float* a, const float* b, float* y, size_t n) {
  for (size_t i = 0; i < n; ++i) y[i] = a[i] * (1.0f / b[i]);
}

/* Broken: x/0 returns +inf for every nonzero x, so -1/0 gives +inf. */
ZOO_API void zoo_div_fp32_unsigned_inf(const float* a, const float* b, float* y, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    if (b[i] == 0.0f && a[i] != 0.0f && a[i] == a[i])
      y[i] = zoo_f32(0x7F800000u);
    else
      y[i] = a[i] / b[i];
  }
}

/* ---- FP16 / BF16 (bit patterns) ---- */

/* Correct: through binary32 (24 >= 2*11+2: double rounding is innocuous), rounded once. */
ZOO_API void zoo_div_fp16(const uint16_t* a, const uint16_t* b, uint16_t* y, size_t n) {
  for (size_t i = 0; i < n; ++i)
    y[i] = zoo_float_to_fp16(zoo_fp16_to_float(a[i]) / zoo_fp16_to_float(b[i]));
}

/* Broken: subnormal results flushed to (signed) zero. */
ZOO_API void zoo_div_fp16_ftz(const uint16_t* a, const uint16_t* b, uint16_t* y, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    uint16_t r = zoo_float_to_fp16(zoo_fp16_to_float(a[i]) / zoo_fp16_to_float(b[i]));
    if ((r & 0x7C00u) == 0) r = (uint16_t)(r & 0x8000u);
    y[i] = r;
  }
}

/* Broken: binary32 quotient truncated to BF16 (round toward zero, not RNE). */
ZOO_API void zoo_div_bf16_truncate(const uint16_t* a, const uint16_t* b, uint16_t* y, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    const float q = zoo_f32((uint32_t)a[i] << 16) / zoo_f32((uint32_t)b[i] << 16);
    y[i] = (uint16_t)(zoo_bits(q) >> 16);
  }
}

/* Correct for BF16 with round to nearest even (NaN kept quiet). */
ZOO_API void zoo_div_bf16(const uint16_t* a, const uint16_t* b, uint16_t* y, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    const float q = zoo_f32((uint32_t)a[i] << 16) / zoo_f32((uint32_t)b[i] << 16);
    const uint32_t x = zoo_bits(q);
    if ((x & 0x7FFFFFFFu) > 0x7F800000u) {
      y[i] = (uint16_t)((x >> 16) | 0x0040u);
    } else {
      const uint32_t rounded = x + 0x7FFFu + ((x >> 16) & 1u);
      y[i] = (uint16_t)(rounded >> 16);
    }
  }
}

/* ---- integers ---- */

/* C division: truncation toward zero; x/0 gives 0 (undefined in the spec). */
ZOO_API void zoo_div_int8_trunc(const int8_t* a, const int8_t* b, int8_t* y, size_t n) {
  for (size_t i = 0; i < n; ++i) y[i] = b[i] == 0 ? (int8_t)0 : (int8_t)((int)a[i] / (int)b[i]);
}

/* Broken: saturates at -128/127 instead of wrapping. */
ZOO_API void zoo_sub_int8_saturate(const int8_t* a, const int8_t* b, int8_t* y, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    const int d = (int)a[i] - (int)b[i];
    y[i] = (int8_t)(d > 127 ? 127 : (d < -128 ? -128 : d));
  }
}

/* Correct: modulo 2^8. */
ZOO_API void zoo_sub_uint8_wrap(const uint8_t* a, const uint8_t* b, uint8_t* y, size_t n) {
  for (size_t i = 0; i < n; ++i) y[i] = (uint8_t)(a[i] - b[i]);
}

/* Tensor form: y = a / b over identical shapes. */
ZOO_API void zoo_div_fp32_tensor(const float* a, const int64_t* a_shape, size_t a_rank, const float* b,
                         const int64_t* b_shape, size_t b_rank, float* y) {
  size_t n = 1;
  (void)b_shape;
  (void)b_rank;
  for (size_t d = 0; d < a_rank; ++d) n *= (size_t)a_shape[d];
  for (size_t i = 0; i < n; ++i) y[i] = a[i] / b[i];
}
