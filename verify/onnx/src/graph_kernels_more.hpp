// Elementwise functions, normalisation and layout operators, written once
// over the element type (see graph_kernels.hpp for the evaluation order):
//   LeakyRelu = fmax(x, 0) + alpha·fmin(x, 0) (equal in FP32 to x < 0 ? alpha·x : x);
//   BatchNormalization (inference) = ((x − mean) / sqrt(var + epsilon))·scale + B;
//   GlobalAveragePool = Σ over the spatial positions in index order, then / count.
#pragma once

#include "graph_kernels.hpp"

namespace symerr::onnx::kernels {

template <class T>
T neg(const T& x) { return -x; }
template <class T>
T abs_of(const T& x) {
  using std::fabs;
  return fabs(x);
}
template <class T>
T exp_of(const T& x) {
  using std::exp;
  return exp(x);
}
template <class T>
T log_of(const T& x) {
  using std::log;
  return log(x);
}
template <class T>
T sqrt_of(const T& x) {
  using std::sqrt;
  return sqrt(x);
}

template <class T>
Tensor<T> leaky_relu(const GraphNode& n, const Tensor<T>& x) {
  using std::fmax;
  using std::fmin;
  const T alpha = ScalarOps<T>::constant(n.float_attr("alpha", 0.01f));
  const T zero = ScalarOps<T>::constant(0);
  return unary(x, [&](const T& v) { return fmax(v, zero) + alpha * fmin(v, zero); });
}

template <class T>
Tensor<T> global_average_pool(const Tensor<T>& x) {
  if (x.rank() < 3) shape_fail("GlobalAveragePool needs (N, C, spatial...), got " + to_string(x.shape()));
  const std::size_t nc = x.shape()[0] * x.shape()[1], len = nc == 0 ? 0 : x.size() / nc;
  if (len == 0) shape_fail("GlobalAveragePool of an empty spatial extent");
  Shape out(x.rank(), 1);
  out[0] = x.shape()[0], out[1] = x.shape()[1];
  std::vector<T> v;
  v.reserve(nc);
  for (std::size_t p = 0; p < nc; ++p) {
    T s = x[p * len];
    for (std::size_t k = 1; k < len; ++k) s = s + x[p * len + k];
    v.push_back(s / ScalarOps<T>::constant(static_cast<double>(len)));
  }
  return Tensor<T>(out, std::move(v));
}

template <class T>
Tensor<T> batch_norm(const GraphNode& n, const Tensor<T>& x, const Tensor<T>& scale, const Tensor<T>& b,
                     const Tensor<T>& mean, const Tensor<T>& var) {
  using std::sqrt;
  if (x.rank() < 2) shape_fail("BatchNormalization needs (N, C, ...), got " + to_string(x.shape()));
  const std::size_t C = x.shape()[1];
  for (const Tensor<T>* p : {&scale, &b, &mean, &var})
    if (p->rank() != 1 || p->size() != C)
      shape_fail("BatchNormalization: scale, B, mean and var must be (" + std::to_string(C) + "), got " +
                 to_string(p->shape()));
  const T eps = ScalarOps<T>::constant(n.float_attr("epsilon", 1e-5f));
  const std::size_t inner = C == 0 || x.shape()[0] == 0 ? 0 : x.size() / (x.shape()[0] * C);
  std::vector<T> d;
  for (std::size_t c = 0; c < C; ++c) d.push_back(sqrt(var[c] + eps));
  std::vector<T> v;
  v.reserve(x.size());
  for (std::size_t k = 0; k < x.size(); ++k) {
    const std::size_t c = inner == 0 ? 0 : (k / inner) % C;
    v.push_back((x[k] - mean[c]) / d[c] * scale[c] + b[c]);
  }
  return Tensor<T>(x.shape(), std::move(v));
}

template <class T>
Tensor<T> transpose(const GraphNode& n, const Tensor<T>& x) {
  const std::size_t r = x.rank();
  std::vector<std::int64_t> dflt(r);
  for (std::size_t d = 0; d < r; ++d) dflt[d] = static_cast<std::int64_t>(r - 1 - d);
  const auto perm = n.ints_attr("perm", dflt);
  std::vector<bool> seen(r, false);
  if (perm.size() != r) shape_fail("attribute 'perm' has " + std::to_string(perm.size()) + " entries for rank " + std::to_string(r));
  for (auto p : perm) {
    if (p < 0 || static_cast<std::size_t>(p) >= r || seen[static_cast<std::size_t>(p)])
      shape_fail("attribute 'perm' is not a permutation of the axes");
    seen[static_cast<std::size_t>(p)] = true;
  }
  Shape out(r);
  for (std::size_t d = 0; d < r; ++d) out[d] = x.shape()[static_cast<std::size_t>(perm[d])];
  const auto in_st = strides_of(x.shape());
  std::vector<T> v;
  v.reserve(x.size());
  std::vector<std::size_t> idx(r, 0);
  for (std::size_t k = 0; k < x.size(); ++k) {
    std::size_t f = 0;
    for (std::size_t d = 0; d < r; ++d) f += idx[d] * in_st[static_cast<std::size_t>(perm[d])];
    v.push_back(x[f]);
    for (std::size_t d = r; d-- > 0;) {
      if (++idx[d] < out[d]) break;
      idx[d] = 0;
    }
  }
  return Tensor<T>(out, std::move(v));
}

template <class T>
Tensor<T> concat(const GraphNode& n, const std::vector<const Tensor<T>*>& parts) {
  const Tensor<T>& first = *parts.front();
  const std::size_t ax = axis_of(n.int_attr("axis", 0), first.rank(), "axis");
  Shape out = first.shape();
  out[ax] = 0;
  for (const Tensor<T>* p : parts) {
    if (p->rank() != first.rank()) shape_fail("Concat: ranks differ (" + to_string(p->shape()) + ")");
    for (std::size_t d = 0; d < first.rank(); ++d)
      if (d != ax && p->shape()[d] != first.shape()[d])
        shape_fail("Concat: " + to_string(p->shape()) + " and " + to_string(first.shape()) + " differ off the axis");
    out[ax] += p->shape()[ax];
  }
  std::size_t outer = 1;
  for (std::size_t d = 0; d < ax; ++d) outer *= out[d];
  std::vector<T> v;
  v.reserve(element_count(out));
  for (std::size_t o = 0; o < outer; ++o)
    for (const Tensor<T>* p : parts) {
      const std::size_t block = outer == 0 ? 0 : p->size() / outer;
      for (std::size_t k = 0; k < block; ++k) v.push_back((*p)[o * block + k]);
    }
  return Tensor<T>(out, std::move(v));
}

}  // namespace symerr::onnx::kernels
