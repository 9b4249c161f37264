/* FP32 C reference kernels written for `float` with the C99 float math
 * functions (sqrtf, expf, fmaxf, erff, ...): test fixtures for substituting
 * `float`. Plain C99: nothing here knows symerr. */
#ifndef FLOAT_KERNELS_H
#define FLOAT_KERNELS_H

/* y = (x - mean) / sqrtf(var + eps), var the population variance */
void f32_layernorm(const float* x, float* y, int n, float eps);
/* running maximum from -FLT_MAX with fmaxf, expf, sum, divide (malloc'd scratch) */
void f32_softmax(const float* x, float* y, int n);
/* y = 0.5 x (1 + erff(x / sqrt 2)) */
void f32_gelu(const float* x, float* y, int n);
/* y = tanhf(b) + logf(1 + a) + powf(a, 2) + expm1f(b) + log1pf(a), a = |x|, b = fminf(a, 0.5);
 * NaN and inf (isnan, isinf) pass through */
void f32_mix(const float* x, float* y, int n);

/* rotary position embedding (RoPE) of the pairs (x[2i], x[2i+1]) at position pos:
 * theta_i = pos * 10000^(-2i/n) computed in the kernel (powf, then cosf, sinf) */
void f32_rope(const float* x, float* y, int n, int pos);
/* y = x / sqrt(d) computed as C computes it: s = 1.0f / sqrtf((float)d), y = x * s (attention's scale) */
void f32_scale(const float* x, float* y, int n, int d);

#endif
