/* Unary kernels for the concrete checks of tests/unary and bench/: glibc's
 * libm functions wrapped as  void f(const T* x, T* y, size_t n),  and a zoo of
 * broken implementations, each with its known defect. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define WRAP(name, T, fn)                                   \
  void name(const T* x, T* y, size_t n) {                   \
    for (size_t i = 0; i < n; ++i) y[i] = fn(x[i]);         \
  }

WRAP(glibc_expf, float, expf)
WRAP(glibc_logf, float, logf)
WRAP(glibc_tanhf, float, tanhf)
WRAP(glibc_erff, float, erff)
WRAP(glibc_sqrtf, float, sqrtf)
WRAP(glibc_exp, double, exp)
WRAP(glibc_log, double, log)

static float sigmoid_ref(float v) { return v >= 0 ? 1.0f / (1.0f + expf(-v)) : expf(v) / (1.0f + expf(v)); }
WRAP(sigmoid_split, float, sigmoid_ref) /* the SONNX "Note Algorithm" split */

/* FP16 through float: decode, expf, round to FP16 (two roundings). */
void glibc_expf_fp16(const uint16_t* x, uint16_t* y, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    _Float16 h;
    memcpy(&h, &x[i], 2);
    _Float16 r = (_Float16)expf((float)h);
    memcpy(&y[i], &r, 2);
  }
}

/* ---- the broken zoo ---- */

/* exp as exp2(x·log2 e) in float: the rounding of x·log2e is amplified by |x|. */
static float exp_via_exp2(float v) { return exp2f(v * 1.44269504088896341f); }
WRAP(zoo_expf_exp2, float, exp_via_exp2)

/* tanh as (e^{2x} − 1)/(e^{2x} + 1) without the split: inf/inf = NaN for x > ~44. */
static float tanh_naive(float v) {
  const float e = expf(2.0f * v);
  return (e - 1.0f) / (e + 1.0f);
}
WRAP(zoo_tanhf_naive, float, tanh_naive)

/* sigmoid as x / (x + x·e^{−x}) (a "division-free" rewrite): NaN at x = −inf. */
static float sigmoid_nan(float v) { return v == 0 ? 0.5f : (v > 20 ? 1.0f : v / (v + v * expf(-v))); }
WRAP(zoo_sigmoidf_nan, float, sigmoid_nan)

/* log that returns 0 for a negative input (instead of NaN). */
static float log_zero(float v) { return v < 0 ? 0.0f : logf(v); }
WRAP(zoo_logf_zero, float, log_zero)
