/* ReLU over a tensor (ONNX reference style), and a planted wrong one that
   rounds every output through 1024 (y + 1024 - 1024: the low bits are lost). */
#include <stddef.h>

void relu(const float* x, float* y, size_t n) {
  for (size_t i = 0; i < n; ++i) y[i] = x[i] > 0.0f ? x[i] : 0.0f;
}

void relu_wrong(const float* x, float* y, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    const float r = x[i] > 0.0f ? x[i] : 0.0f;
    y[i] = (r + 1024.0f) - 1024.0f;
  }
}
