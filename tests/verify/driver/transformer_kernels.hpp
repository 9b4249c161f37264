// Transformer kernels as inference code bases write them (issue 43), in C's
// spellings: a softmax whose running maximum is an `if`, a ternary or a MAX
// macro from -10000.0f, -INFINITY or -FLT_MAX; RMS norm with a float or a
// double sum and `1.0f / sqrtf(ss / n + eps)`; layer norm two-pass and
// Welford with scale and shift; one-head attention scaled by `1/sqrtf(d)`.
// Templates on the float type F and the double type Dbl, so that one source
// is the C kernel on float/double (the executions the bounds are checked
// against) and, with F = CNumber<D, CType::Float> (<symerr/c_types.hpp>), the
// kernel C_TYPES substitution makes (float operations in FP32, `double` sums
// in FP64, expf/sqrtf the float functions), run through the driver.
#pragma once

#include <cfloat>
#include <cmath>
#include <math.h>
#include <type_traits>

#include <symerr/c_types.hpp>

namespace symerr::test::transformer {

enum class MaxStart { Minus10000, MinusInfinity, MinusFltMax };
enum class MaxSpelling { If, Ternary, Macro };

template <class T>
inline constexpr bool kFp64 = std::is_same_v<T, double>;
template <RealDomain D, CType K>
inline constexpr bool kFp64<CNumber<D, K>> = K == CType::Double;

// C's expf / sqrtf on float, exp / sqrt on double.
template <class T>
T c_exp(const T& x) {
  if constexpr (std::is_same_v<T, float>) return ::expf(x);
  else if constexpr (std::is_same_v<T, double>) return ::exp(x);
  else if constexpr (kFp64<T>) return exp(x);
  else return expf(x);
}
template <class T>
T c_sqrt(const T& x) {
  if constexpr (std::is_same_v<T, float>) return ::sqrtf(x);
  else if constexpr (std::is_same_v<T, double>) return ::sqrt(x);
  else if constexpr (kFp64<T>) return sqrt(x);
  else return sqrtf(x);
}

#define SYMERR_TEST_MAX(a, b) ((a) > (b) ? (a) : (b))

// float m = -10000.0f; for (...) if (x[i] > m) m = x[i]; (or the ternary, or MAX)
template <class F>
F running_max(const F* x, int n, MaxStart start, MaxSpelling spelling) {
  F m = start == MaxStart::Minus10000 ? F(-10000.0f) : start == MaxStart::MinusInfinity ? F(-INFINITY) : F(-FLT_MAX);
  for (int i = 0; i < n; ++i) {
    if (spelling == MaxSpelling::If) {
      if (x[i] > m) m = x[i];
    } else if (spelling == MaxSpelling::Ternary) {
      m = x[i] > m ? x[i] : m;
    } else {
      m = SYMERR_TEST_MAX(m, x[i]);
    }
  }
  return m;
}

// y_i = expf(x_i − m) / Σ_j expf(x_j − m)
template <class F>
void softmax(const F* x, F* y, int n, MaxStart start, MaxSpelling spelling) {
  const F m = running_max(x, n, start, spelling);
  F s = F(0.0f);
  for (int i = 0; i < n; ++i) {
    y[i] = c_exp(F(x[i] - m));
    s += y[i];
  }
  for (int i = 0; i < n; ++i) y[i] /= s;
}

// y_i = x_i * (1.0f / sqrtf(Σ x² / n + 1e-5f)), the sum in A (float or double)
template <class F, class A>
void rms_norm(const F* x, F* y, int n) {
  A ss = A(0.0f);
  for (int i = 0; i < n; ++i) ss += A(x[i]) * A(x[i]);
  const F scale = F(1.0f) / c_sqrt(F(F(ss / A(n)) + F(1e-5f)));
  for (int i = 0; i < n; ++i) y[i] = x[i] * scale;
}

// two-pass layer norm: mean, variance of the deviations, (x − mean) * rstd * w + b
template <class F>
void layer_norm(const F* x, const F* w, const F* b, F* y, int n) {
  F mean = F(0.0f);
  for (int i = 0; i < n; ++i) mean += x[i];
  mean /= F(float(n));
  F var = F(0.0f);
  for (int i = 0; i < n; ++i) {
    const F d = x[i] - mean;
    var += d * d;
  }
  var /= F(float(n));
  const F rstd = F(1.0f) / c_sqrt(F(var + F(1e-5f)));
  for (int i = 0; i < n; ++i) y[i] = (x[i] - mean) * rstd * w[i] + b[i];
}

// Welford layer norm: running mean and M2
template <class F>
void layer_norm_welford(const F* x, const F* w, const F* b, F* y, int n) {
  F mean = F(0.0f), m2 = F(0.0f);
  for (int i = 0; i < n; ++i) {
    const F delta = x[i] - mean;
    mean += delta / F(float(i + 1));
    m2 += delta * (x[i] - mean);
  }
  const F rstd = F(1.0f) / c_sqrt(F(m2 / F(float(n)) + F(1e-5f)));
  for (int i = 0; i < n; ++i) y[i] = (x[i] - mean) * rstd * w[i] + b[i];
}

// one head: scores s_t = (q · k_t) * (1.0f / sqrtf(d)), softmax with an `if`
// maximum from -10000.0f, out = Σ_t p_t v_t. q: d, k and v: T × d, out: d.
template <class F>
void attention(const F* q, const F* k, const F* v, F* out, int T, int d) {
  F scores[8];
  const F scale = F(1.0f) / c_sqrt(F(float(d)));
  for (int t = 0; t < T; ++t) {
    F dot = F(0.0f);
    for (int j = 0; j < d; ++j) dot += q[j] * k[t * d + j];
    scores[t] = dot * scale;
  }
  softmax(scores, scores, T, MaxStart::Minus10000, MaxSpelling::If);
  for (int j = 0; j < d; ++j) {
    F acc = F(0.0f);
    for (int t = 0; t < T; ++t) acc += scores[t] * v[t * d + j];
    out[j] = acc;
  }
}

}  // namespace symerr::test::transformer
