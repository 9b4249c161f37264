/* Y = A B for n x n matrices, row-major, the sum over k sequential (ONNX
   reference style), in double. */

void matmul(const double* a, const double* b, double* y, int n) {
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      double s = 0;
      for (int k = 0; k < n; ++k) s += a[i * n + k] * b[k * n + j];
      y[i * n + j] = s;
    }
}
