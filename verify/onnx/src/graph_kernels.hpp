// The operators of a graph, written once over the element type T: float (the
// FP32 reference runner), Exact (MPFR, the exact runner) and SymbolicError
// (the enclosures) run the same operations in the same order, which is the
// runner's documented evaluation order (docs/models.md):
//   * every reduction is sequential in index order, starting from its first
//     term (no 0 + first term, no FMA): Gemm/MatMul over k, Conv over
//     (input channel, kernel row, kernel column) skipping padded positions,
//     AveragePool over (row, column) then one division by the count,
//     MaxPool by fmax in (row, column) order, Softmax's maximum, its sum of
//     exponentials, then one division per element;
//   * Gemm: s = Σ_k A·B; alpha·s only when alpha ≠ 1; then s + (beta·C) with
//     beta·C only when beta ≠ 1; Conv: Σ then + bias;
//   * Sigmoid = 1 / (1 + exp(−x)), Softmax = exp(x − max) / Σ exp(x − max),
//     Relu = fmax(x, 0); exp, tanh, erf and pow are the libm's (glibc expf /
//     tanhf / erff / powf for float, the accuracy model for SymbolicError);
//   * the normalisation, reductions and elementwise functions of the second
//     batch: graph_kernels_norm.hpp; the layout operators: graph_kernels_shape.hpp.
// Shape errors throw InputError; the evaluator adds the node's name.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <symerr/onnx/graph.hpp>
#include <symerr/tensor.hpp>
#include <symerr/tensor_errors.hpp>

namespace symerr::onnx::kernels {

/// The real constants that are not FP32 values (Gelu's tanh form).
enum class RealConstant {
  SqrtTwoOverPi,  ///< √(2/π)
  GeluCubic       ///< 0.044715
};
/// The nearest double of a RealConstant.
inline double nearest_double(RealConstant c) {
  return c == RealConstant::SqrtTwoOverPi ? 0.79788456080286535588 : 0.044715;
}

/// How a number becomes an element: ScalarOps<T>::constant(v), v a value of
/// FP32; real_constant(c): the runner's FP32 rounding of c in the computed
/// program, c itself in the ideal one.
template <class T>
struct ScalarOps {
  static T constant(double v) { return T(v); }
  static T real_constant(RealConstant c) { return T(nearest_double(c)); }
};
template <>
struct ScalarOps<float> {
  static float constant(double v) { return static_cast<float>(v); }
  static float real_constant(RealConstant c) { return static_cast<float>(nearest_double(c)); }
};

[[noreturn]] inline void shape_fail(const std::string& what) { throw InputError(what); }

inline std::size_t axis_of(std::int64_t axis, std::size_t rank, const char* name) {
  const auto r = static_cast<std::int64_t>(rank);
  if (axis < -r || axis >= r)
    shape_fail(std::string("attribute '") + name + "' = " + std::to_string(axis) + " is out of range for rank " +
               std::to_string(rank));
  return static_cast<std::size_t>(axis < 0 ? axis + r : axis);
}

inline std::vector<std::size_t> strides_of(const Shape& s) {
  std::vector<std::size_t> st(s.size(), 1);
  for (std::size_t d = s.size(); d-- > 1;) st[d - 1] = st[d] * s[d];
  return st;
}

// Multidirectional (numpy) broadcasting of two shapes.
inline Shape broadcast_shape(const Shape& a, const Shape& b) {
  const std::size_t r = std::max(a.size(), b.size());
  Shape out(r);
  for (std::size_t d = 0; d < r; ++d) {
    const std::size_t x = d + a.size() >= r ? a[d + a.size() - r] : 1;
    const std::size_t y = d + b.size() >= r ? b[d + b.size() - r] : 1;
    if (x != y && x != 1 && y != 1)
      shape_fail("shapes " + to_string(a) + " and " + to_string(b) + " cannot be broadcast (axis " +
                 std::to_string(d) + ": " + std::to_string(x) + " vs " + std::to_string(y) + ")");
    out[d] = x == 1 ? y : x;
  }
  return out;
}

// For every flat index of `out`, the flat index of `in` broadcast to it.
inline std::vector<std::size_t> broadcast_map(const Shape& in, const Shape& out) {
  const std::size_t n = element_count(out);
  std::vector<std::size_t> map(n, 0);
  const auto in_st = strides_of(in);
  const std::size_t off = out.size() - in.size();
  std::vector<std::size_t> idx(out.size(), 0);
  for (std::size_t k = 0; k < n; ++k) {
    std::size_t f = 0;
    for (std::size_t d = 0; d < in.size(); ++d) f += (in[d] == 1 ? 0 : idx[d + off]) * in_st[d];
    map[k] = f;
    for (std::size_t d = out.size(); d-- > 0;) {
      if (++idx[d] < out[d]) break;
      idx[d] = 0;
    }
  }
  return map;
}

template <class T, class F>
Tensor<T> binary(const Tensor<T>& a, const Tensor<T>& b, F f) {
  const Shape out = broadcast_shape(a.shape(), b.shape());
  const auto ma = broadcast_map(a.shape(), out), mb = broadcast_map(b.shape(), out);
  std::vector<T> v;
  v.reserve(ma.size());
  for (std::size_t k = 0; k < ma.size(); ++k) v.push_back(f(a[ma[k]], b[mb[k]]));
  return Tensor<T>(out, std::move(v));
}

template <class T, class F>
Tensor<T> unary(const Tensor<T>& x, F f) {
  std::vector<T> v;
  v.reserve(x.size());
  for (std::size_t k = 0; k < x.size(); ++k) v.push_back(f(x[k]));
  return Tensor<T>(x.shape(), std::move(v));
}

template <class T>
T relu(const T& x) {
  using std::fmax;
  return fmax(x, ScalarOps<T>::constant(0));
}
template <class T>
T tanh_of(const T& x) {
  using std::tanh;
  return tanh(x);
}
template <class T>
T sigmoid(const T& x) {
  using std::exp;
  const T one = ScalarOps<T>::constant(1);
  return one / (one + exp(-x));
}

// Σ_k a[ia + k·sa] · b[ib + k·sb], sequential from the first term.
template <class T>
T dot(const Tensor<T>& a, std::size_t ia, std::size_t sa, const Tensor<T>& b, std::size_t ib, std::size_t sb,
      std::size_t n) {
  if (n == 0) return ScalarOps<T>::constant(0);
  T s = a[ia] * b[ib];
  for (std::size_t k = 1; k < n; ++k) s = s + a[ia + k * sa] * b[ib + k * sb];
  return s;
}

template <class T>
Tensor<T> gemm(const GraphNode& n, const Tensor<T>& a, const Tensor<T>& b, const Tensor<T>* c) {
  if (a.rank() != 2 || b.rank() != 2)
    shape_fail("Gemm needs 2-D A and B, got " + to_string(a.shape()) + " and " + to_string(b.shape()));
  const bool ta = n.int_attr("transA", 0) != 0, tb = n.int_attr("transB", 0) != 0;
  const std::size_t M = ta ? a.shape()[1] : a.shape()[0], K = ta ? a.shape()[0] : a.shape()[1];
  const std::size_t Kb = tb ? b.shape()[1] : b.shape()[0], N = tb ? b.shape()[0] : b.shape()[1];
  if (K != Kb)
    shape_fail("Gemm: A " + to_string(a.shape()) + " and B " + to_string(b.shape()) +
               " disagree on K (transA " + std::to_string(ta) + ", transB " + std::to_string(tb) + ")");
  const double alpha = n.float_attr("alpha", 1.0f), beta = n.float_attr("beta", 1.0f);
  std::vector<std::size_t> cmap;
  if (c) {
    if (broadcast_shape(c->shape(), Shape{M, N}) != Shape{M, N})
      shape_fail("Gemm: C " + to_string(c->shape()) + " does not broadcast to " + to_string(Shape{M, N}));
    cmap = broadcast_map(c->shape(), Shape{M, N});
  }
  std::vector<T> v;
  v.reserve(M * N);
  for (std::size_t i = 0; i < M; ++i)
    for (std::size_t j = 0; j < N; ++j) {
      T s = dot(a, ta ? i : i * K, ta ? M : 1, b, tb ? j * K : j, tb ? 1 : N, K);
      if (alpha != 1) s = ScalarOps<T>::constant(alpha) * s;
      if (c) {
        const T& cv = (*c)[cmap[i * N + j]];
        s = s + (beta != 1 ? ScalarOps<T>::constant(beta) * cv : cv);
      }
      v.push_back(std::move(s));
    }
  return Tensor<T>(Shape{M, N}, std::move(v));
}

// MatMul: rank >= 2 on both sides with equal batch dimensions, or B 2-D.
template <class T>
Tensor<T> matmul(const Tensor<T>& a, const Tensor<T>& b) {
  const Shape& as = a.shape();
  const Shape& bs = b.shape();
  if (as.size() < 2 || bs.size() < 2 || (bs.size() != 2 && bs.size() != as.size()) ||
      (bs.size() == as.size() && !std::equal(as.begin(), as.end() - 2, bs.begin())))
    shape_fail("MatMul of " + to_string(as) + " and " + to_string(bs) +
               " is not supported (rank >= 2, B 2-D or with A's batch dimensions)");
  const std::size_t M = as[as.size() - 2], K = as.back(), N = bs.back();
  if (bs[bs.size() - 2] != K) shape_fail("MatMul: " + to_string(as) + " x " + to_string(bs) + ": K differs");
  const std::size_t batch = element_count(as) / std::max<std::size_t>(1, M * K);
  Shape out = as;
  out.back() = N;
  std::vector<T> v;
  v.reserve(batch * M * N);
  for (std::size_t p = 0; p < batch; ++p) {
    const std::size_t boff = bs.size() == 2 ? 0 : p * K * N;
    for (std::size_t i = 0; i < M; ++i)
      for (std::size_t j = 0; j < N; ++j) v.push_back(dot(a, p * M * K + i * K, 1, b, boff + j, N, K));
  }
  return Tensor<T>(out, std::move(v));
}

template <class T>
Tensor<T> softmax(const GraphNode& n, const Tensor<T>& x) {
  using std::exp;
  using std::fmax;
  const std::size_t ax = axis_of(n.int_attr("axis", -1), x.rank(), "axis");
  const std::size_t len = x.shape()[ax], inner = strides_of(x.shape())[ax];
  const std::size_t outer = len * inner == 0 ? 0 : x.size() / (len * inner);
  std::vector<T> v(x.values().begin(), x.values().end());
  std::vector<T> e(len);
  for (std::size_t o = 0; o < outer; ++o)
    for (std::size_t i = 0; i < inner; ++i) {
      const std::size_t base = o * len * inner + i;
      T m = x[base];
      for (std::size_t k = 1; k < len; ++k) m = fmax(m, x[base + k * inner]);
      for (std::size_t k = 0; k < len; ++k) e[k] = exp(x[base + k * inner] - m);
      T s = e[0];
      for (std::size_t k = 1; k < len; ++k) s = s + e[k];
      for (std::size_t k = 0; k < len; ++k) v[base + k * inner] = e[k] / s;
    }
  return Tensor<T>(x.shape(), std::move(v));
}

inline Tensor<float> shape_only(const Shape& s) { return Tensor<float>(s, 0.0f); }

template <class T>
Tensor<T> reshaped(const Tensor<T>& x, Shape s) {
  if (element_count(s) != x.size())
    shape_fail("cannot reshape " + to_string(x.shape()) + " to " + to_string(s));
  return Tensor<T>(std::move(s), std::vector<T>(x.values().begin(), x.values().end()));
}

template <class T>
Tensor<T> flatten(const GraphNode& n, const Tensor<T>& x) {
  const std::int64_t a = n.int_attr("axis", 1);
  const auto r = static_cast<std::int64_t>(x.rank());
  if (a < -r || a > r) shape_fail("attribute 'axis' = " + std::to_string(a) + " is out of range for rank " + std::to_string(r));
  const std::size_t ax = static_cast<std::size_t>(a < 0 ? a + r : a);
  std::size_t lead = 1;
  for (std::size_t d = 0; d < ax; ++d) lead *= x.shape()[d];
  return reshaped(x, Shape{lead, lead == 0 ? 0 : x.size() / lead});
}

template <class T>
Tensor<T> reshape(const GraphNode& n, const Tensor<T>& x, const std::vector<std::int64_t>& spec) {
  const bool allowzero = n.int_attr("allowzero", 0) != 0;
  Shape s;
  std::size_t known = 1;
  int infer = -1;
  for (std::size_t d = 0; d < spec.size(); ++d) {
    std::int64_t v = spec[d];
    if (v == 0 && !allowzero) {
      if (d >= x.rank()) shape_fail("shape entry " + std::to_string(d) + " is 0 (copy) beyond the input's rank");
      v = static_cast<std::int64_t>(x.shape()[d]);
    }
    if (v == -1) {
      if (infer >= 0) shape_fail("the shape has two -1 entries");
      infer = static_cast<int>(d);
      s.push_back(1);
      continue;
    }
    if (v < 0) shape_fail("shape entry " + std::to_string(v) + " is negative");
    s.push_back(static_cast<std::size_t>(v));
    known *= static_cast<std::size_t>(v);
  }
  if (infer >= 0) {
    if (known == 0 || x.size() % known != 0)
      shape_fail("cannot infer the -1 entry reshaping " + to_string(x.shape()) + " (" + std::to_string(x.size()) +
                 " elements)");
    s[static_cast<std::size_t>(infer)] = x.size() / known;
  }
  return reshaped(x, std::move(s));
}

}  // namespace symerr::onnx::kernels
