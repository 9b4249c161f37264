// The broadcast driver: the only place that loops over tensor indexes for the
// element-wise binary operators. An operator supplies a scalar rule; the
// driver applies the shape rule (<symerr/broadcast.hpp>), walks the output in
// row-major order with stride-0 stretched axes, and calls the rule once per
// output element.
#pragma once

#include <cstddef>
#include <concepts>
#include <cstdio>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <symerr/broadcast.hpp>
#include <symerr/element_type.hpp>
#include <symerr/tensor.hpp>

namespace symerr {

/// Options of Add / Sub / Mul: only the shape rule (Div has DivOptions).
struct ElementwiseOptions {
  /// How the operands' shapes combine.
  BroadcastRule shape_rule = Sonnx{};
};

/// Calls f(out_flat, a_flat, b_flat) for every output element, in row-major
/// output order (out_flat = 0, 1, 2, ...). Rank 0 gives one call, a zero
/// dimension none.
template <class F>
void for_each_broadcast(const BroadcastPlan& p, F&& f) {
  const std::size_t n = element_count(p.out, "broadcast output");
  if (n == 0) return;
  const std::size_t r = p.out.size();
  if (r == 0) {
    f(std::size_t{0}, std::size_t{0}, std::size_t{0});
    return;
  }
  const std::size_t inner = p.out[r - 1], sa = p.stride_a[r - 1], sb = p.stride_b[r - 1];
  Index idx(r, 0);
  std::size_t ia = 0, ib = 0;
  for (std::size_t out = 0; out < n; out += inner) {
    for (std::size_t k = 0; k < inner; ++k) f(out + k, ia + k * sa, ib + k * sb);
    for (std::size_t ax = r - 1; ax-- > 0;) {  // carry into the outer axes
      if (++idx[ax] < p.out[ax]) {
        ia += p.stride_a[ax];
        ib += p.stride_b[ax];
        break;
      }
      idx[ax] = 0;
      ia -= (p.out[ax] - 1) * p.stride_a[ax];
      ib -= (p.out[ax] - 1) * p.stride_b[ax];
    }
  }
}

namespace detail {
template <bool Indexed, class F, class A, class B>
struct RuleResult {
  using type = std::invoke_result_t<F&, const A&, const B&, std::size_t>;
};
template <class F, class A, class B>
struct RuleResult<false, F, A, B> {
  using type = std::invoke_result_t<F&, const A&, const B&>;
};
}  // namespace detail

/// The element-wise result of `scalar_rule` under `rule`. scalar_rule is called as
/// rule(a_elem, b_elem) or, if it accepts it, rule(a_elem, b_elem, out_flat).
template <class A, class B, class F>
auto elementwise(const Tensor<A>& a, const Tensor<B>& b, const BroadcastRule& rule,
                 F&& scalar_rule, const OpConstraints& op = {}) {
  constexpr bool indexed = std::invocable<F&, const A&, const B&, std::size_t>;
  using R = std::remove_cvref_t<typename detail::RuleResult<indexed, F, A, B>::type>;
  const BroadcastPlan plan = broadcast_plan(a.shape(), b.shape(), rule, op);
  std::vector<R> out;
  out.reserve(element_count(plan.out));
  for_each_broadcast(plan, [&](std::size_t o, std::size_t i, std::size_t j) {
    if constexpr (indexed) out.push_back(scalar_rule(a[i], b[j], o));
    else out.push_back(scalar_rule(a[i], b[j]));
  });
  return Tensor<R>(plan.out, std::move(out));
}

/// A short rendering of an element for error messages (empty for class types).
template <class T>
std::string describe_element(const T& x) {
  if constexpr (SmallInteger<T>) {
    return std::to_string(x.value());
  } else if constexpr (IntegerElement<T>) {
    if constexpr (std::is_unsigned_v<T>) return std::to_string(static_cast<unsigned long long>(x));
    else return std::to_string(static_cast<long long>(x));
  } else if constexpr (FloatElement<T>) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.17g", static_cast<double>(x));
    return buf;
  } else {
    return {};
  }
}

}  // namespace symerr
