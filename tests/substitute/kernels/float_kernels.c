/* FP32 C reference kernels written for float (see float_kernels.h). */
#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "float_kernels.h"

void f32_layernorm(const float* x, float* y, int n, float eps) {
  float mean = 0.0f, var = 0.0f;
  for (int i = 0; i < n; ++i) mean += x[i];
  mean /= (float)n;
  for (int i = 0; i < n; ++i) {
    float d = x[i] - mean;
    var += d * d;
  }
  var = var / (float)n;
  float inv = 1.0f / sqrtf(var + eps);
  for (int i = 0; i < n; ++i) y[i] = (x[i] - mean) * inv;
}

void f32_softmax(const float* x, float* y, int n) {
  float m = -FLT_MAX;
  for (int i = 0; i < n; ++i) m = fmaxf(m, x[i]);
  float* t = (float*)malloc((size_t)n * sizeof(float));
  float s = 0.0f;
  for (int i = 0; i < n; ++i) {
    t[i] = expf(x[i] - m);
    s += t[i];
  }
  for (int i = 0; i < n; ++i) y[i] = t[i] / s;
  free(t);
}

void f32_gelu(const float* x, float* y, int n) {
  for (int i = 0; i < n; ++i) y[i] = 0.5f * x[i] * (1.0f + erff(x[i] * 0.70710677f));
}

void f32_mix(const float* x, float* y, int n) {
  for (int i = 0; i < n; ++i) {
    if (isnan(x[i]) || isinf(x[i])) {  /* special inputs pass through */
      y[i] = x[i];
      continue;
    }
    float a = fabsf(x[i]);
    float b = fminf(a, 0.5f);
    y[i] = tanhf(b) + logf(1.0f + a) + powf(a, 2.0f) + expm1f(b) + log1pf(a);
  }
}

void f32_scale(const float* x, float* y, int n, int d) {
  const float s = 1.0f / sqrtf((float)d);
  for (int i = 0; i < n; ++i) y[i] = x[i] * s;
}

void f32_rope(const float* x, float* y, int n, int pos) {
  for (int i = 0; i < n / 2; ++i) {
    const float theta = (float)pos * powf(10000.0f, -2.0f * (float)i / (float)n);
    const float c = cosf(theta), s = sinf(theta);
    y[2 * i] = x[2 * i] * c - x[2 * i + 1] * s;
    y[2 * i + 1] = x[2 * i] * s + x[2 * i + 1] * c;
  }
}
