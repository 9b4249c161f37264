// Generic kernels written for float, compiled unchanged for float, double,
// mpq_class (the exact oracle) and SymbolicError: nothing here knows symerr.
#pragma once

#include <algorithm>
#include <cstddef>

namespace kernels {

template <class T>
T dot(const T* a, const T* b, std::size_t n) {
  T acc = 0;
  for (std::size_t i = 0; i < n; ++i) acc += a[i] * b[i];
  return acc;
}

// exp(x) ~ 1 + x + x^2/2 + x^3/6 + x^4/24, Horner with double coefficients.
template <class T>
T horner(T x) {
  static const double c[] = {1.0, 1.0, 0.5, 1.0 / 6, 1.0 / 24};
  T acc = T(c[4]);
  for (int i = 3; i >= 0; --i) acc = acc * x + T(c[i]);
  return acc;
}

// The same polynomial with coefficients that are values of every format.
template <class T>
T horner_dyadic(T x) {
  static const double c[] = {1.0, 1.0, 0.5, 0.125, 0.0625};
  T acc = T(c[4]);
  for (int i = 3; i >= 0; --i) acc = acc * x + T(c[i]);
  return acc;
}

template <class T>
T relu(T x) {
  return x < 0 ? T(0) : x;
}

template <class T>
T lerp(T a, T b, T t) {
  return a + t * (b - a);
}

template <class T>
T clip(T x, T lo, T hi) {
  using std::max;
  using std::min;
  return min(max(x, lo), hi);
}

// A nested data-dependent 3-way piecewise function.
template <class T>
T piecewise3(T x) {
  if (x < -0.5) return x * x;
  if (x < 0.25) return 2.0 * x + 1;
  return T(1.5) - x;
}

}  // namespace kernels
