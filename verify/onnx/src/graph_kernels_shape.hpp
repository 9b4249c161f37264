// Layout operators with constant integer operands, written once over the
// element type: they copy elements and round nothing (Pad's constant is an
// FP32 value, Where picks by a constant condition).
//   Squeeze / Unsqueeze (axes), Slice (starts, ends, axes, steps, clamped as
//   ONNX says, negative steps included), Gather (constant indices, negative
//   ones from the end), Pad (constant mode; negative pads crop), Where.
#pragma once

#include "graph_kernels.hpp"

namespace symerr::onnx::kernels {

template <class T>
Tensor<T> squeeze(const Tensor<T>& x, const std::vector<std::int64_t>& axes) {
  const std::vector<bool> drop = [&] {
    std::vector<bool> d(x.rank(), false);
    for (std::size_t k = 0; k < x.rank(); ++k) d[k] = axes.empty() && x.shape()[k] == 1;
    for (const auto a : axes) {
      const std::size_t k = axis_of(a, x.rank(), "axes");
      if (x.shape()[k] != 1)
        shape_fail("cannot squeeze axis " + std::to_string(a) + " of " + to_string(x.shape()) + " (not 1)");
      d[k] = true;
    }
    return d;
  }();
  Shape s;
  for (std::size_t k = 0; k < x.rank(); ++k)
    if (!drop[k]) s.push_back(x.shape()[k]);
  return reshaped(x, std::move(s));
}

template <class T>
Tensor<T> unsqueeze(const Tensor<T>& x, const std::vector<std::int64_t>& axes) {
  if (axes.empty()) shape_fail("Unsqueeze needs at least one axis");
  const std::size_t r = x.rank() + axes.size();
  std::vector<bool> added(r, false);
  for (const auto a : axes) {
    const std::size_t k = axis_of(a, r, "axes");
    if (added[k]) shape_fail("axis " + std::to_string(a) + " is listed twice in 'axes'");
    added[k] = true;
  }
  Shape s;
  std::size_t from = 0;
  for (std::size_t k = 0; k < r; ++k) s.push_back(added[k] ? 1 : x.shape()[from++]);
  return reshaped(x, std::move(s));
}

// Copies the elements of x at in-index start[d] + i·step[d] for every
// out-index i (the strided box of Slice).
template <class T>
Tensor<T> strided(const Tensor<T>& x, const Shape& out, const std::vector<std::int64_t>& start,
                  const std::vector<std::int64_t>& step) {
  const auto st = strides_of(x.shape());
  std::vector<T> v;
  v.reserve(element_count(out));
  std::vector<std::size_t> idx(out.size(), 0);
  for (std::size_t k = 0; k < element_count(out); ++k) {
    std::int64_t f = 0;
    for (std::size_t d = 0; d < out.size(); ++d)
      f += (start[d] + static_cast<std::int64_t>(idx[d]) * step[d]) * static_cast<std::int64_t>(st[d]);
    v.push_back(x[static_cast<std::size_t>(f)]);
    for (std::size_t d = out.size(); d-- > 0;) {
      if (++idx[d] < out[d]) break;
      idx[d] = 0;
    }
  }
  return Tensor<T>(out, std::move(v));
}

template <class T>
Tensor<T> slice(const Tensor<T>& x, const std::vector<std::int64_t>& starts, const std::vector<std::int64_t>& ends,
                std::vector<std::int64_t> axes, std::vector<std::int64_t> steps) {
  if (axes.empty())
    for (std::size_t k = 0; k < starts.size(); ++k) axes.push_back(static_cast<std::int64_t>(k));
  if (steps.empty()) steps.assign(starts.size(), 1);
  if (ends.size() != starts.size() || axes.size() != starts.size() || steps.size() != starts.size())
    shape_fail("Slice: starts, ends, axes and steps differ in length");
  const std::size_t r = x.rank();
  std::vector<std::int64_t> start(r, 0), step(r, 1);
  Shape out = x.shape();
  std::vector<bool> seen(r, false);
  for (std::size_t k = 0; k < starts.size(); ++k) {
    const std::size_t d = axis_of(axes[k], r, "axes");
    if (seen[d]) shape_fail("Slice: axis " + std::to_string(axes[k]) + " is listed twice");
    seen[d] = true;
    const auto dim = static_cast<std::int64_t>(x.shape()[d]);
    const std::int64_t p = steps[k];
    if (p == 0) shape_fail("Slice: a step is 0");
    std::int64_t s = starts[k] < 0 ? starts[k] + dim : starts[k];
    std::int64_t e = ends[k] < 0 ? ends[k] + dim : ends[k];
    if (p > 0) s = std::clamp<std::int64_t>(s, 0, dim), e = std::clamp<std::int64_t>(e, 0, dim);
    else s = std::clamp<std::int64_t>(s, 0, dim - 1), e = std::clamp<std::int64_t>(e, -1, dim - 1);
    const std::int64_t len = p > 0 ? (e - s + p - 1) / p : (s - e + (-p) - 1) / (-p);
    start[d] = s, step[d] = p;
    out[d] = static_cast<std::size_t>(std::max<std::int64_t>(0, len));
  }
  return strided(x, out, start, step);
}

template <class T>
Tensor<T> gather(const Tensor<T>& x, const std::vector<std::int64_t>& indices, const Shape& ishape, std::int64_t axis) {
  const std::size_t ax = axis_of(axis, x.rank(), "axis");
  const auto dim = static_cast<std::int64_t>(x.shape()[ax]);
  Shape out(x.shape().begin(), x.shape().begin() + static_cast<std::ptrdiff_t>(ax));
  out.insert(out.end(), ishape.begin(), ishape.end());
  out.insert(out.end(), x.shape().begin() + static_cast<std::ptrdiff_t>(ax) + 1, x.shape().end());
  std::size_t outer = 1, inner = 1;
  for (std::size_t d = 0; d < ax; ++d) outer *= x.shape()[d];
  for (std::size_t d = ax + 1; d < x.rank(); ++d) inner *= x.shape()[d];
  std::vector<T> v;
  v.reserve(element_count(out));
  for (std::size_t o = 0; o < outer; ++o)
    for (const auto i : indices) {
      if (i < -dim || i >= dim)
        shape_fail("Gather: index " + std::to_string(i) + " is out of range for axis size " + std::to_string(dim));
      const auto j = static_cast<std::size_t>(i < 0 ? i + dim : i);
      for (std::size_t k = 0; k < inner; ++k) v.push_back(x[(o * x.shape()[ax] + j) * inner + k]);
    }
  return Tensor<T>(out, std::move(v));
}

// pads: (begin of every listed axis, then end of every listed axis); axes
// empty: every axis.
template <class T>
Tensor<T> pad(const Tensor<T>& x, const std::vector<std::int64_t>& pads, std::vector<std::int64_t> axes, const T& value) {
  const std::size_t r = x.rank();
  if (axes.empty())
    for (std::size_t d = 0; d < r; ++d) axes.push_back(static_cast<std::int64_t>(d));
  if (pads.size() != 2 * axes.size())
    shape_fail("Pad: 'pads' has " + std::to_string(pads.size()) + " entries, expected " + std::to_string(2 * axes.size()));
  std::vector<std::int64_t> begin(r, 0);
  Shape out = x.shape();
  for (std::size_t k = 0; k < axes.size(); ++k) {
    const std::size_t d = axis_of(axes[k], r, "axes");
    const std::int64_t n = static_cast<std::int64_t>(x.shape()[d]) + pads[k] + pads[k + axes.size()];
    if (n < 0) shape_fail("Pad: the pads crop axis " + std::to_string(d) + " below 0");
    begin[d] = pads[k];
    out[d] = static_cast<std::size_t>(n);
  }
  const auto st = strides_of(x.shape());
  std::vector<T> v;
  v.reserve(element_count(out));
  std::vector<std::size_t> idx(r, 0);
  for (std::size_t k = 0; k < element_count(out); ++k) {
    std::size_t f = 0;
    bool inside = true;
    for (std::size_t d = 0; d < r && inside; ++d) {
      const std::int64_t i = static_cast<std::int64_t>(idx[d]) - begin[d];
      inside = i >= 0 && i < static_cast<std::int64_t>(x.shape()[d]);
      f += inside ? static_cast<std::size_t>(i) * st[d] : 0;
    }
    v.push_back(inside ? x[f] : value);
    for (std::size_t d = r; d-- > 0;) {
      if (++idx[d] < out[d]) break;
      idx[d] = 0;
    }
  }
  return Tensor<T>(out, std::move(v));
}

template <class T>
Tensor<T> where(const std::vector<std::int64_t>& cond, const Shape& cshape, const Tensor<T>& a, const Tensor<T>& b) {
  const Shape out = broadcast_shape(cshape, broadcast_shape(a.shape(), b.shape()));
  const auto mc = broadcast_map(cshape, out), ma = broadcast_map(a.shape(), out), mb = broadcast_map(b.shape(), out);
  std::vector<T> v;
  v.reserve(mc.size());
  for (std::size_t k = 0; k < mc.size(); ++k) v.push_back(cond[mc[k]] != 0 ? a[ma[k]] : b[mb[k]]);
  return Tensor<T>(out, std::move(v));
}

}  // namespace symerr::onnx::kernels
