/* Y = A B for n x n matrices, row-major, the sum over k sequential (ONNX
   reference style), in float. */

void matmul(const float* a, const float* b, float* y, int n) {
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      float s = 0;
      for (int k = 0; k < n; ++k) s += a[i * n + k] * b[k * n + j];
      y[i * n + j] = s;
    }
}
