/* ELU activation, written for float as a C library ships it. */
#include <math.h>

void elu(const float* x, float* y, int n) {
  for (int i = 0; i < n; ++i) y[i] = x[i] > 0.0f ? x[i] : expf(x[i]) - 1.0f;
}
