/* Two FP32 divisions in the form symerr's harness calls (elementwise):
   void f(const T* a, const T* b, T* y, size_t n) */
#include <stddef.h>

void div_ieee(const float* a, const float* b, float* y, size_t n) {
  for (size_t i = 0; i < n; ++i) y[i] = a[i] / b[i];
}

/* a times the reciprocal of b: two roundings instead of one */
void div_recip(const float* a, const float* b, float* y, size_t n) {
  for (size_t i = 0; i < n; ++i) y[i] = a[i] * (1.0f / b[i]);
}
