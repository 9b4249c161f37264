// LeNet-5 as one generic template, written as for float and compiled
// unchanged for float, SymbolicError, LeanFloat and a 256-bit MPFR number
// (the exact oracle): 1x32x32 -> Conv 1->6 5x5 -> tanh -> AvgPool 2x2 ->
// Conv 6->16 5x5 -> tanh -> AvgPool 2x2 -> Gemm 400->120 -> tanh ->
// Gemm 120->84 -> tanh -> Gemm 84->10 -> softmax (max subtracted, exp, sum,
// quotient) — the shape of tests/onnx/model_builder.hpp's lenet5(). The
// weights are decimal constants (their rounding into the format is each
// literal's error), deterministic.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

namespace kernels {

struct LenetWeights {
  std::vector<double> c1, b1, c2, b2, f1, g1, f2, g2, f3, g3;
};

// Decimal weights in [−s, s], s = scale / √fan_in (k/1000 for an integer k:
// most are not values of FP32).
inline LenetWeights lenet_weights(double scale) {
  std::uint64_t state = 0x9E3779B97F4A7C15ull;
  const auto fill = [&](std::size_t n, int fan_in) {
    std::vector<double> v(n);
    const double s = scale / std::sqrt(static_cast<double>(fan_in));
    for (double& w : v) {
      state = state * 6364136223846793005ull + 1442695040888963407ull;
      w = s * (static_cast<int>((state >> 33) % 2001) - 1000) / 1000.0;
    }
    return v;
  };
  return {fill(6 * 25, 25),     fill(6, 25),    fill(16 * 6 * 25, 150), fill(16, 150), fill(120 * 400, 400),
          fill(120, 400),       fill(84 * 120, 120), fill(84, 120),     fill(10 * 84, 84), fill(10, 84)};
}

namespace lenet_detail {
// y[o][i][j] = act(b[o] + Σ_c Σ_k w[o][c][k] x[c][i + ki][j + kj]), 5x5 valid
template <class T>
std::vector<T> conv_tanh(const std::vector<T>& x, int in_c, int size, const std::vector<double>& w,
                         const std::vector<double>& b, int out_c) {
  using std::tanh;
  const int out = size - 4;
  std::vector<T> y;
  y.reserve(static_cast<std::size_t>(out_c * out * out));
  for (int o = 0; o < out_c; ++o)
    for (int i = 0; i < out; ++i)
      for (int j = 0; j < out; ++j) {
        T acc = T(b[o]);
        for (int c = 0; c < in_c; ++c)
          for (int ki = 0; ki < 5; ++ki)
            for (int kj = 0; kj < 5; ++kj)
              acc += T(w[((o * in_c + c) * 5 + ki) * 5 + kj]) * x[(c * size + i + ki) * size + j + kj];
        y.push_back(tanh(acc));
      }
  return y;
}
template <class T>
std::vector<T> avgpool(const std::vector<T>& x, int channels, int size) {
  const int out = size / 2;
  std::vector<T> y;
  y.reserve(static_cast<std::size_t>(channels * out * out));
  for (int c = 0; c < channels; ++c)
    for (int i = 0; i < out; ++i)
      for (int j = 0; j < out; ++j) {
        const T* p = &x[(c * size + 2 * i) * size + 2 * j];
        y.push_back((p[0] + p[1] + p[size] + p[size + 1]) * T(0.25));
      }
  return y;
}
template <class T>
std::vector<T> gemm(const std::vector<T>& x, const std::vector<double>& w, const std::vector<double>& b, bool act) {
  using std::tanh;
  const std::size_t n = b.size(), m = x.size();
  std::vector<T> y;
  y.reserve(n);
  for (std::size_t o = 0; o < n; ++o) {
    T acc = T(b[o]);
    for (std::size_t i = 0; i < m; ++i) acc += T(w[o * m + i]) * x[i];
    y.push_back(act ? tanh(acc) : acc);
  }
  return y;
}
}  // namespace lenet_detail

// x: 32·32 inputs; y: 10 outputs.
template <class T>
void lenet5(const T* x, const LenetWeights& w, T* y) {
  using namespace lenet_detail;
  using std::exp;
  using std::fmax;
  std::vector<T> a(x, x + 32 * 32);
  a = avgpool(conv_tanh(a, 1, 32, w.c1, w.b1, 6), 6, 28);
  a = avgpool(conv_tanh(a, 6, 14, w.c2, w.b2, 16), 16, 10);
  a = gemm(gemm(gemm(a, w.f1, w.g1, true), w.f2, w.g2, true), w.f3, w.g3, false);
  T m = a[0];
  for (int i = 1; i < 10; ++i) m = fmax(m, a[i]);
  T s = T(0);
  for (int i = 0; i < 10; ++i) {
    y[i] = exp(a[i] - m);
    s += y[i];
  }
  for (int i = 0; i < 10; ++i) y[i] = y[i] / s;
}

}  // namespace kernels
