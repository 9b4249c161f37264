/* C reference kernels that mix float and double (see mixed_kernels.h). */
#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "mixed_kernels.h"

float mixed_dot(const float* a, const float* b, int n) {
  double acc = 0;
  for (int i = 0; i < n; ++i) acc += a[i] * b[i];
  return (float)acc;
}

float mixed_dot_promoted(const float* a, const float* b, int n) {
  double acc = 0;
  for (int i = 0; i < n; ++i) acc += (double)a[i] * b[i];
  return acc;
}

void mixed_scale(const float* x, float* y, int n) {
  for (int i = 0; i < n; ++i) y[i] = x[i] * 0.1;
}

float mixed_mean(const float* x, int n) {
  float s = 0;
  for (int i = 0; i < n; ++i) s += x[i];
  return s / n;
}

void mixed_layernorm(const float* x, float* y, int n) {
  double mean = 0, var = 0;
  for (int i = 0; i < n; ++i) mean += x[i];
  mean /= n;
  for (int i = 0; i < n; ++i) {
    const double d = x[i] - mean;
    var += d * d;
  }
  const float inv = 1.0 / sqrt(var / n + 1e-5);
  for (int i = 0; i < n; ++i) y[i] = (x[i] - mean) * inv;
}

void mixed_softmax(const float* x, float* y, int n) {
  float m = -FLT_MAX;
  for (int i = 0; i < n; ++i) m = fmaxf(m, x[i]);
  double* t = (double*)malloc((size_t)n * sizeof(double));
  double s = 0;
  for (int i = 0; i < n; ++i) {
    t[i] = exp(x[i] - m);
    s += t[i];
  }
  for (int i = 0; i < n; ++i) y[i] = t[i] / s;
  free(t);
}

void mixed_relu(const float* x, float* y, int n) {
  for (int i = 0; i < n; ++i) y[i] = x[i] < 0.0 ? 0.0f : x[i];
}

void mixed_relu_scaled(const float* x, float* y, int n) {
  for (int i = 0; i < n; ++i) y[i] = x[i] < 0.0 ? 0.0f : 2.0f * x[i];
}
