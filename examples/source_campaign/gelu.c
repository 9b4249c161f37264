/* tanh GELU over a tensor, as ONNX reference / inference C code writes it. */
#include <math.h>
#include <stddef.h>

void gelu(const float* x, float* y, size_t n) {
  const float c = 0.7978845608f; /* sqrt(2 / pi) */
  for (size_t i = 0; i < n; ++i) {
    const float v = x[i];
    y[i] = 0.5f * v * (1.0f + tanhf(c * (v + 0.044715f * v * v * v)));
  }
}
