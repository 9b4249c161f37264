// Elementwise functions, reductions and normalisation, written once over the
// element type (see graph_kernels.hpp for the evaluation order):
//   Erf = erf(x); Pow = pow(x, y) elementwise with broadcasting (the libm's
//     erff / powf for float, the accuracy model for the enclosures);
//   Gelu (approximate = none) = kernels::gelu of <symerr/kernels/gelu.hpp>:
//     (0.5·x)·(1 + erf(x / sqrt(2))), sqrt(2) computed (rounded) by the runner;
//   Gelu (approximate = tanh) = (0.5·x)·(1 + tanh(k·(x + c·((x·x)·x)))),
//     k = √(2/π) and c = 0.044715 rounded to FP32 in the runner, exact in the
//     ideal network (ScalarOps<T>::real_constant);
//   Clip = fmin(fmax(x, min), max) (min > max gives max, as ONNX says);
//   Min / Max = fmin / fmax folded from the first input, with broadcasting;
//   ReduceSum / ReduceMean / ReduceMax: per output element, the reduced
//     elements in increasing flat index order, sequentially from the first
//     (+, or fmax); ReduceMean then one division by the count;
//   LayerNormalization over the axes [axis, rank): mean = (Σ x)/n, d = x − mean,
//     var = (Σ d·d)/n, inv = 1 / sqrt(var + epsilon), y = (d·inv)·scale + B,
//     every Σ sequential in index order (the ONNX function's order).
#pragma once

#include <optional>

#include <symerr/kernels/gelu.hpp>

#include "graph_kernels.hpp"

namespace symerr::onnx::kernels {

template <class T>
T erf_of(const T& x) {
  using std::erf;
  return erf(x);
}
template <class T>
T pow_of(const T& x, const T& y) {
  using std::pow;
  return pow(x, y);
}

template <class T>
Tensor<T> gelu(const GraphNode& n, const Tensor<T>& x) {
  using std::tanh;
  const T half = ScalarOps<T>::constant(0.5), one = ScalarOps<T>::constant(1), two = ScalarOps<T>::constant(2);
  if (n.string_attr("approximate", "none") == "none")
    return unary(x, [&](const T& v) { return symerr::kernels::gelu(v, half, one, two); });
  const T k = ScalarOps<T>::real_constant(RealConstant::SqrtTwoOverPi);
  const T c = ScalarOps<T>::real_constant(RealConstant::GeluCubic);
  return unary(x, [&](const T& v) { return (half * v) * (one + tanh(k * (v + c * ((v * v) * v)))); });
}

template <class T>
Tensor<T> clip(const Tensor<T>& x, const std::optional<T>& lo, const std::optional<T>& hi) {
  using std::fmax;
  using std::fmin;
  return unary(x, [&](const T& v) {
    T r = v;
    if (lo) r = fmax(r, *lo);
    if (hi) r = fmin(r, *hi);
    return r;
  });
}

template <class T>
Tensor<T> min_max(const std::vector<const Tensor<T>*>& parts, bool is_max) {
  using std::fmax;
  using std::fmin;
  Tensor<T> r = *parts.front();
  for (std::size_t k = 1; k < parts.size(); ++k)
    r = binary(r, *parts[k], [&](const T& a, const T& b) { return is_max ? fmax(a, b) : fmin(a, b); });
  return r;
}

/// Which reduction.
enum class Reduction { Sum, Mean, Max };

// The reduced axes (sorted, distinct) of `axes` for rank r; every axis when
// `axes` is empty.
inline std::vector<bool> reduced_axes(const std::vector<std::int64_t>& axes, std::size_t r) {
  std::vector<bool> red(r, axes.empty());
  for (const auto a : axes) {
    const std::size_t d = axis_of(a, r, "axes");
    if (red[d]) shape_fail("axis " + std::to_string(a) + " is listed twice in 'axes'");
    red[d] = true;
  }
  return red;
}

template <class T>
Tensor<T> reduce(const Tensor<T>& x, const std::vector<std::int64_t>& axes, bool keepdims, Reduction kind) {
  using std::fmax;
  const std::vector<bool> red = reduced_axes(axes, x.rank());
  Shape kept(x.rank()), out;
  std::size_t count = 1;
  for (std::size_t d = 0; d < x.rank(); ++d) {
    kept[d] = red[d] ? 1 : x.shape()[d];
    if (red[d]) count *= x.shape()[d];
    if (!red[d] || keepdims) out.push_back(kept[d]);
  }
  if (count == 0) shape_fail("reduction over an empty axis of " + to_string(x.shape()));
  // kept-shape index of every input element (broadcast_map in reverse)
  const auto kst = strides_of(kept);
  std::vector<std::optional<T>> acc(element_count(kept));
  std::vector<std::size_t> idx(x.rank(), 0);
  for (std::size_t k = 0; k < x.size(); ++k) {
    std::size_t o = 0;
    for (std::size_t d = 0; d < x.rank(); ++d) o += (red[d] ? 0 : idx[d]) * kst[d];
    if (!acc[o]) acc[o] = x[k];
    else acc[o] = kind == Reduction::Max ? fmax(*acc[o], x[k]) : *acc[o] + x[k];
    for (std::size_t d = x.rank(); d-- > 0;) {
      if (++idx[d] < x.shape()[d]) break;
      idx[d] = 0;
    }
  }
  std::vector<T> v;
  v.reserve(acc.size());
  const T n = ScalarOps<T>::constant(static_cast<double>(count));
  for (auto& a : acc) v.push_back(kind == Reduction::Mean ? *a / n : std::move(*a));
  return Tensor<T>(out, std::move(v));
}

// `p` (Scale or B) broadcast unidirectionally to the normalised shape.
inline std::vector<std::size_t> to_normalised(const Shape& p, const Shape& norm, const char* what) {
  if (p.size() > norm.size() || broadcast_shape(p, norm) != norm)
    shape_fail(std::string("LayerNormalization: ") + what + " " + to_string(p) +
               " does not broadcast to the normalised shape " + to_string(norm));
  return broadcast_map(p, norm);
}

/// LayerNormalization's outputs: Y, Mean and InvStdDev (the last two of the
/// normalised axes reduced to 1).
template <class T>
struct LayerNormOutputs {
  Tensor<T> y;          ///< Y
  Tensor<T> mean;       ///< Mean
  Tensor<T> inv_std;    ///< InvStdDev
};

template <class T>
LayerNormOutputs<T> layer_norm(const GraphNode& n, const Tensor<T>& x, const Tensor<T>& scale, const Tensor<T>* bias) {
  using std::sqrt;
  const std::size_t ax = axis_of(n.int_attr("axis", -1), x.rank(), "axis");
  const Shape norm(x.shape().begin() + static_cast<std::ptrdiff_t>(ax), x.shape().end());
  const std::size_t len = element_count(norm);
  if (len == 0) shape_fail("LayerNormalization over an empty extent");
  const auto ms = to_normalised(scale.shape(), norm, "Scale");
  const auto mb = bias ? to_normalised(bias->shape(), norm, "B") : std::vector<std::size_t>{};
  const T eps = ScalarOps<T>::constant(n.float_attr("epsilon", 1e-5f));
  const T count = ScalarOps<T>::constant(static_cast<double>(len)), one = ScalarOps<T>::constant(1);
  std::vector<T> v, means, invs;
  v.reserve(x.size());
  for (std::size_t row = 0; row < x.size() / len; ++row) {
    const std::size_t base = row * len;
    T s = x[base];
    for (std::size_t k = 1; k < len; ++k) s = s + x[base + k];
    means.push_back(s / count);
    std::vector<T> d;
    d.reserve(len);
    for (std::size_t k = 0; k < len; ++k) d.push_back(x[base + k] - means.back());
    T q = d[0] * d[0];
    for (std::size_t k = 1; k < len; ++k) q = q + d[k] * d[k];
    invs.push_back(one / sqrt(q / count + eps));
    for (std::size_t k = 0; k < len; ++k) {
      T y = d[k] * invs.back() * scale[ms[k]];
      v.push_back(bias ? y + (*bias)[mb[k]] : std::move(y));
    }
  }
  Shape reduced = x.shape();
  for (std::size_t d = ax; d < reduced.size(); ++d) reduced[d] = 1;
  return {Tensor<T>(x.shape(), std::move(v)), Tensor<T>(reduced, std::move(means)), Tensor<T>(reduced, std::move(invs))};
}

}  // namespace symerr::onnx::kernels
