/* Softmax over the last axis with an `if` running maximum, as inference code
   writes it: y = exp(x - max) / sum exp(x - max). */
#include <math.h>
#include <stddef.h>

void softmax(const float* x, float* y, size_t n) {
  float m = x[0];
  for (size_t i = 1; i < n; ++i)
    if (x[i] > m) m = x[i];
  float s = 0.0f;
  for (size_t i = 0; i < n; ++i) {
    y[i] = expf(x[i] - m);
    s += y[i];
  }
  for (size_t i = 0; i < n; ++i) y[i] = y[i] / s;
}
