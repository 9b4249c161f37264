/* A C kernel as a user has it: y[i] = relu(alpha * x[i] + beta), malloc'd output. */
#include <stdlib.h>

double* scale_relu(const double* x, int n, double alpha, double beta) {
  double* y = malloc((size_t)n * sizeof(double));
  for (int i = 0; i < n; ++i) {
    double v = alpha * x[i] + beta;
    y[i] = v < 0 ? 0 : v;
  }
  return y;
}

void release(double* p) { free(p); }
