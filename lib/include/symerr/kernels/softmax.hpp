// Softmax of a vector as a generic kernel: runs on float/double and on
// SymbolicDomainError alike (max, exp, + and / found by unqualified lookup).
// Algorithm (the usual stable one): m = running max, y_i = exp(x_i − m),
// s = y_0 + y_1 + … (left to right), y_i = y_i / s.
// The ideal (real) program computes the same formula exactly, which equals
// softmax(x): m cancels.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>

namespace symerr::kernels {

/// Softmax of x[0..n) into y[0..n), the stable algorithm: m = running max,
/// y_i = exp(x_i − m), s = y_0 + … + y_(n−1) left to right, y_i = y_i / s.
/// Runs on float, double and SymbolicDomainError alike; n = 0 does nothing.
template <class T>
void softmax(const T* x, T* y, std::size_t n) {
  using std::exp;
  using std::max;
  if (n == 0) return;
  T m = x[0];
  for (std::size_t i = 1; i < n; ++i) m = max(m, x[i]);
  for (std::size_t i = 0; i < n; ++i) y[i] = exp(x[i] - m);
  T s = y[0];
  for (std::size_t i = 1; i < n; ++i) s = s + y[i];
  for (std::size_t i = 0; i < n; ++i) y[i] = y[i] / s;
}

/// The same with the running maximum written as C reference kernels write it,
/// `if (v > m) m = v;`: on symbolic inputs an undecided comparison needs the
/// kernel driver (verify::run_kernel), which explores the orderings.
template <class T>
void softmax_if(const T* x, T* y, std::size_t n) {
  using std::exp;
  if (n == 0) return;
  T m = x[0];
  for (std::size_t i = 1; i < n; ++i) {
    T v = x[i];
    if (v > m) m = v;
  }
  for (std::size_t i = 0; i < n; ++i) y[i] = exp(x[i] - m);
  T s = y[0];
  for (std::size_t i = 1; i < n; ++i) s = s + y[i];
  for (std::size_t i = 0; i < n; ++i) y[i] = y[i] / s;
}

}  // namespace symerr::kernels
