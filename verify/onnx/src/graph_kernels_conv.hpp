// Conv, AveragePool and MaxPool over 2-D images (N, C, H, W), written once
// over the element type (see graph_kernels.hpp for the evaluation order).
#pragma once

#include "graph_kernels.hpp"

namespace symerr::onnx::kernels {

/// The geometry of a 2-D sliding window: kernel, strides, dilations, pads
/// (begin, end) and the output size, per spatial axis.
struct Window {
  std::size_t k[2], s[2], d[2], pb[2], pe[2], out[2];
};

inline std::vector<std::int64_t> two(const GraphNode& n, const char* a, std::size_t count, std::int64_t fallback) {
  auto v = n.ints_attr(a, std::vector<std::int64_t>(count, fallback));
  if (v.size() != count)
    shape_fail(std::string("attribute '") + a + "' has " + std::to_string(v.size()) + " entries, expected " +
               std::to_string(count) + " (2-D windows only)");
  for (auto x : v)
    if (x < 0 || (x == 0 && std::string(a) != "pads"))
      shape_fail(std::string("attribute '") + a + "' has the invalid entry " + std::to_string(x));
  return v;
}

inline Window window(const GraphNode& n, const Shape& x, const std::vector<std::int64_t>& kernel) {
  if (x.size() != 4) shape_fail("input " + to_string(x) + " is not (N, C, H, W) (2-D windows only)");
  const auto st = two(n, "strides", 2, 1), dl = two(n, "dilations", 2, 1), pads = two(n, "pads", 4, 0);
  const std::string ap = n.string_attr("auto_pad", "NOTSET");
  const bool ceil_mode = n.int_attr("ceil_mode", 0) != 0;
  Window w{};
  for (std::size_t a = 0; a < 2; ++a) {
    const std::size_t in = x[2 + a];
    w.k[a] = static_cast<std::size_t>(kernel[a]);
    w.s[a] = static_cast<std::size_t>(st[a]);
    w.d[a] = static_cast<std::size_t>(dl[a]);
    const std::size_t eff = (w.k[a] - 1) * w.d[a] + 1;
    if (ap == "SAME_UPPER" || ap == "SAME_LOWER") {
      w.out[a] = (in + w.s[a] - 1) / w.s[a];
      const std::size_t need = (w.out[a] - 1) * w.s[a] + eff, total = need > in ? need - in : 0;
      w.pb[a] = ap == "SAME_UPPER" ? total / 2 : total - total / 2;
      w.pe[a] = total - w.pb[a];
      continue;
    }
    w.pb[a] = ap == "VALID" ? 0 : static_cast<std::size_t>(pads[a]);
    w.pe[a] = ap == "VALID" ? 0 : static_cast<std::size_t>(pads[a + 2]);
    const std::size_t span = in + w.pb[a] + w.pe[a];
    if (span < eff)
      shape_fail("the window (" + std::to_string(eff) + " with dilations) is larger than the padded input (" +
                 std::to_string(span) + ") on spatial axis " + std::to_string(a));
    w.out[a] = (span - eff + (ceil_mode ? w.s[a] - 1 : 0)) / w.s[a] + 1;
    if (ceil_mode && (w.out[a] - 1) * w.s[a] >= in + w.pb[a]) --w.out[a];
  }
  return w;
}

// The input row/column of output position o and kernel offset k on axis a, or -1 in the padding.
inline std::ptrdiff_t tap(const Window& w, std::size_t a, std::size_t o, std::size_t k, std::size_t in) {
  const auto p = static_cast<std::ptrdiff_t>(o * w.s[a] + k * w.d[a]) - static_cast<std::ptrdiff_t>(w.pb[a]);
  return p >= 0 && p < static_cast<std::ptrdiff_t>(in) ? p : -1;
}

template <class T>
Tensor<T> conv(const GraphNode& n, const Tensor<T>& x, const Tensor<T>& wt, const Tensor<T>* bias) {
  const Shape& xs = x.shape();
  const Shape& ws = wt.shape();
  if (xs.size() != 4 || ws.size() != 4)
    shape_fail("Conv of X " + to_string(xs) + " and W " + to_string(ws) + ": 2-D convolutions only");
  const auto group = static_cast<std::size_t>(n.int_attr("group", 1));
  const std::size_t C = xs[1], M = ws[0];
  if (group == 0 || C % group || M % group || ws[1] != C / group)
    shape_fail("Conv: X " + to_string(xs) + ", W " + to_string(ws) + " and group " + std::to_string(group) +
               " disagree (W must be (M, C/group, kH, kW))");
  if (bias && (bias->rank() != 1 || bias->size() != M))
    shape_fail("Conv: bias " + to_string(bias->shape()) + " is not (" + std::to_string(M) + ")");
  const auto ks = n.ints_attr("kernel_shape", {static_cast<std::int64_t>(ws[2]), static_cast<std::int64_t>(ws[3])});
  if (ks.size() != 2 || ks[0] != static_cast<std::int64_t>(ws[2]) || ks[1] != static_cast<std::int64_t>(ws[3]))
    shape_fail("Conv: kernel_shape disagrees with W " + to_string(ws));
  const Window w = window(n, xs, ks);
  const std::size_t H = xs[2], W = xs[3], cg = C / group, mg = M / group;
  std::vector<T> v;
  v.reserve(xs[0] * M * w.out[0] * w.out[1]);
  for (std::size_t b = 0; b < xs[0]; ++b)
    for (std::size_t m = 0; m < M; ++m)
      for (std::size_t oh = 0; oh < w.out[0]; ++oh)
        for (std::size_t ow = 0; ow < w.out[1]; ++ow) {
          T s = ScalarOps<T>::constant(0);
          bool have = false;
          for (std::size_t c = 0; c < cg; ++c)
            for (std::size_t kh = 0; kh < w.k[0]; ++kh) {
              const auto ih = tap(w, 0, oh, kh, H);
              if (ih < 0) continue;
              for (std::size_t kw = 0; kw < w.k[1]; ++kw) {
                const auto iw = tap(w, 1, ow, kw, W);
                if (iw < 0) continue;
                const std::size_t xc = (m / mg) * cg + c;
                const T t = x[((b * C + xc) * H + static_cast<std::size_t>(ih)) * W + static_cast<std::size_t>(iw)] *
                            wt[((m * cg + c) * w.k[0] + kh) * w.k[1] + kw];
                s = have ? s + t : t;
                have = true;
              }
            }
          if (bias) s = s + (*bias)[m];
          v.push_back(std::move(s));
        }
  return Tensor<T>(Shape{xs[0], M, w.out[0], w.out[1]}, std::move(v));
}

// AveragePool (max = false) and MaxPool (max = true).
template <class T>
Tensor<T> pool(const GraphNode& n, const Tensor<T>& x, bool max) {
  using std::fmax;
  const auto ks = n.ints_attr("kernel_shape", {});
  if (ks.size() != 2) shape_fail("attribute 'kernel_shape' must have 2 entries (2-D pooling only)");
  for (auto k : ks)
    if (k <= 0) shape_fail("attribute 'kernel_shape' has the invalid entry " + std::to_string(k));
  const Window w = window(n, x.shape(), ks);
  const bool include_pad = n.int_attr("count_include_pad", 0) != 0;
  const std::size_t N = x.shape()[0], C = x.shape()[1], H = x.shape()[2], W = x.shape()[3];
  std::vector<T> v;
  v.reserve(N * C * w.out[0] * w.out[1]);
  for (std::size_t p = 0; p < N * C; ++p)
    for (std::size_t oh = 0; oh < w.out[0]; ++oh)
      for (std::size_t ow = 0; ow < w.out[1]; ++ow) {
        T s = ScalarOps<T>::constant(0);
        std::size_t count = 0;
        for (std::size_t kh = 0; kh < w.k[0]; ++kh) {
          const auto ih = tap(w, 0, oh, kh, H);
          if (ih < 0) continue;
          for (std::size_t kw = 0; kw < w.k[1]; ++kw) {
            const auto iw = tap(w, 1, ow, kw, W);
            if (iw < 0) continue;
            const T& e = x[(p * H + static_cast<std::size_t>(ih)) * W + static_cast<std::size_t>(iw)];
            s = count == 0 ? e : (max ? fmax(s, e) : s + e);
            ++count;
          }
        }
        if (!max) {
          if (include_pad) {  // the window clipped to the padded input
            std::size_t span[2];
            const std::size_t o[2] = {oh, ow}, in[2] = {H, W};
            for (std::size_t a = 0; a < 2; ++a) {
              const std::size_t start = o[a] * w.s[a], end = std::min(start + w.k[a], in[a] + w.pb[a] + w.pe[a]);
              span[a] = end - start;
            }
            count = span[0] * span[1];
          }
          if (count == 0) shape_fail("a pooling window covers no input element");
          s = s / ScalarOps<T>::constant(static_cast<double>(count));
        }
        v.push_back(std::move(s));
      }
  return Tensor<T>(Shape{N, C, w.out[0], w.out[1]}, std::move(v));
}

}  // namespace symerr::onnx::kernels
