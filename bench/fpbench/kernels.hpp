// FPBench standard benchmarks as generic kernels: each is a template over the
// number type T (double for a machine execution, SymbolicDomainError<D> for an
// analysis) and a literal maker `lit` (a decimal constant as T: the double
// nearest to it, or SymbolicDomainError::literal). The operation order is the
// FPBench source's (https://fpbench.org/benchmarks.html).
#pragma once

#include <cstddef>
#include <vector>

namespace symerr::bench::fpbench {

// doppler1: u in [-100, 100], v in [20, 20000], T in [-30, 50].
template <class T, class Lit>
T doppler1(const std::vector<T>& in, Lit lit) {
  const T& u = in[0];
  const T& v = in[1];
  const T& t = in[2];
  const T t1 = lit("331.4") + lit("0.6") * t;
  return (-t1 * v) / ((t1 + u) * (t1 + u));
}

// turbine1: v in [-4.5, -0.3], w in [0.4, 0.9], r in [3.8, 7.8].
template <class T, class Lit>
T turbine1(const std::vector<T>& in, Lit lit) {
  const T& v = in[0];
  const T& w = in[1];
  const T& r = in[2];
  return ((lit("3") + lit("2") / (r * r)) -
          ((lit("0.125") * (lit("3") - lit("2") * v)) * (((w * w) * r) * r)) / (lit("1") - v)) -
         lit("4.5");
}

// jet: x1 in [-5, 5], x2 in [-20, 5]. FPBench's t* = 3·x1·x1 − 2·x2 − x1 in the last term.
template <class T, class Lit>
T jet(const std::vector<T>& in, Lit lit) {
  const T& x1 = in[0];
  const T& x2 = in[1];
  const T t = ((lit("3") * x1) * x1 + lit("2") * x2) - x1;
  const T t_star = ((lit("3") * x1) * x1 - lit("2") * x2) - x1;
  const T d = x1 * x1 + lit("1");
  const T s = t / d;
  const T s_star = t_star / d;
  return x1 + (((((((lit("2") * x1) * s) * (s - lit("3")) + (x1 * x1) * (lit("4") * s - lit("6"))) * d +
                  ((lit("3") * x1) * x1) * s) +
                 (x1 * x1) * x1) +
                x1) +
               lit("3") * s_star);
}

// carbonGas: V in [0.1, 0.5]; p, a, b, t, k, n constants.
template <class T, class Lit>
T carbon_gas(const std::vector<T>& in, Lit lit) {
  const T& v = in[0];
  const T p = lit("3.5e7"), a = lit("0.401"), b = lit("42.7e-6"), t = lit("300"), k = lit("1.3806503e-23"),
          n = lit("1000");
  return (p + (a * (n / v)) * (n / v)) * (v - n * b) - (k * n) * t;
}

// rigidBody1: x1, x2, x3 in [-15, 15].
template <class T, class Lit>
T rigid_body1(const std::vector<T>& in, Lit lit) {
  const T& x1 = in[0];
  const T& x2 = in[1];
  const T& x3 = in[2];
  return (((-x1) * x2 - (lit("2") * x2) * x3) - x1) - x3;
}

// Reduction_1024 (pairwise tree sum of 1024 inputs, 10 levels).
template <class T, class Lit>
T reduction(const std::vector<T>& in, Lit) {
  std::vector<T> level = in;
  while (level.size() > 1) {
    std::vector<T> next;
    for (std::size_t i = 0; i + 1 < level.size(); i += 2) next.push_back(level[i] + level[i + 1]);
    level = std::move(next);
  }
  return level[0];
}

}  // namespace symerr::bench::fpbench
