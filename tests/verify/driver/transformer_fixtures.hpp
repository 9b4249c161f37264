// The issue-43 fixture rows: each kernel of transformer_kernels.hpp as a
// Fixture (float/double and exact executions) with its driver kernel on a
// domain D.
#pragma once

#include <string>
#include <utility>

#include "transformer_oracle.hpp"

namespace symerr::test::transformer {

template <class D>
struct Row {
  Fixture fixture;
  std::function<void(std::span<SymbolicDomainError<D>>, std::span<SymbolicDomainError<D>>)> kernel;
};

template <class D, class Body>
Row<D> make_row(Fixture f, Body body) {
  f.f32 = [body](const float* x, float* y) { body(x, y); };
  f.f64 = [body](const double* x, double* y) { body(x, y); };
  f.exact = [body](const Real* x, Real* y) { body(x, y); };
  Row<D> r{std::move(f), {}};
  r.kernel = c_kernel<D>(r.fixture.fp64, body);
  return r;
}

inline Fixture box(std::string name, int n_in, int n_out, bool fp64, double e) {
  Fixture f;
  f.name = std::move(name);
  f.n_in = n_in;
  f.n_out = n_out;
  f.fp64 = fp64;
  f.lo.assign(n_in, -1);
  f.hi.assign(n_in, 1);
  f.e.assign(n_in, e);
  return f;
}

inline const char* start_name(MaxStart s) {
  return s == MaxStart::Minus10000 ? "-10000.0f" : s == MaxStart::MinusInfinity ? "-INFINITY" : "-FLT_MAX";
}
inline const char* spelling_name(MaxSpelling s) {
  return s == MaxSpelling::If ? "if" : s == MaxSpelling::Ternary ? "ternary" : "MAX";
}

template <class D>
Row<D> softmax_row(int n, bool fp64, double e, MaxStart st, MaxSpelling sp) {
  Fixture f = box(std::string("softmax ") + spelling_name(sp) + " from " + start_name(st) + ", n = " +
                      std::to_string(n),
                  n, n, fp64, e);
  for (int i = 0; i < n && i < 4; ++i) f.near.push_back(i);
  return make_row<D>(std::move(f), [n, st, sp](const auto* x, auto* y) { softmax(x, y, n, st, sp); });
}

template <class D>
Row<D> rms_row(int n, bool fp64, bool double_sum, double e) {
  Fixture f = box(std::string("RMS norm, ") + (double_sum ? "double" : "float") + " sum, n = " + std::to_string(n), n,
                  n, fp64, e);
  for (int i = 0; i < n; ++i) f.near.push_back(i);
  return make_row<D>(std::move(f), [n, double_sum](const auto* x, auto* y) {
    using F = std::remove_cv_t<std::remove_pointer_t<decltype(x)>>;
    using A = decltype(F() * 1.0);  // C's double for float, double itself
    if (double_sum) rms_norm<F, A>(x, y, n);
    else rms_norm<F, F>(x, y, n);
  });
}

// inputs: x (n), then the weights w and b (n each, exact points 0.5 + i/(4n), i/(8n) − 1/16)
template <class D>
Row<D> layer_norm_row(int n, bool fp64, bool welford, double e) {
  Fixture f = box(std::string("layer norm ") + (welford ? "Welford" : "two-pass") + ", C = " + std::to_string(n),
                  3 * n, n, fp64, e);
  for (int i = 0; i < n; ++i) {
    const double w = 0.5 + double(i) / (4 * n), b = double(i) / (8 * n) - 0.0625;
    f.lo[n + i] = f.hi[n + i] = fp64 ? w : double(float(w));
    f.lo[2 * n + i] = f.hi[2 * n + i] = fp64 ? b : double(float(b));
    f.e[n + i] = f.e[2 * n + i] = 0;
    f.near.push_back(i);
  }
  return make_row<D>(std::move(f), [n, welford](const auto* x, auto* y) {
    if (welford) layer_norm_welford(x, x + n, x + 2 * n, y, n);
    else layer_norm(x, x + n, x + 2 * n, y, n);
  });
}

// inputs: q (d), k (T × d), v (T × d); outputs d
template <class D>
Row<D> attention_row(int T, int d, bool fp64, double e) {
  Fixture f = box("attention T = " + std::to_string(T) + ", d = " + std::to_string(d), d + 2 * T * d, d, fp64, e);
  for (int i = d; i < d + 2 * d; ++i) f.near.push_back(i);  // k_0 and k_1 near-equal: equal scores
  return make_row<D>(std::move(f), [T, d](const auto* x, auto* y) { attention(x, x + d, x + d + T * d, y, T, d); });
}

}  // namespace symerr::test::transformer
