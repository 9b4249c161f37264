/* Layer normalisation over one row (ONNX LayerNormalization, axis -1, no
   scale and bias), epsilon 1e-5 as the ONNX default. */
#include <math.h>
#include <stddef.h>

void layer_norm(const float* x, float* y, size_t n) {
  float mean = 0.0f;
  for (size_t i = 0; i < n; ++i) mean += x[i];
  mean = mean / (float)n;
  float var = 0.0f;
  for (size_t i = 0; i < n; ++i) {
    const float d = x[i] - mean;
    var += d * d;
  }
  var = var / (float)n;
  const float r = 1.0f / sqrtf(var + 1e-5f);
  for (size_t i = 0; i < n; ++i) y[i] = (x[i] - mean) * r;
}
