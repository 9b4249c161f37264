#include <symerr/ops/any.hpp>

#include <cmath>
#include <cstring>
#include <type_traits>

namespace symerr {

std::string_view element_type_name(const AnyTensor& t) {
  return std::visit(
      [](const auto& x) { return element_type_name<typename std::decay_t<decltype(x)>::value_type>(); },
      t);
}

const Shape& shape_of(const AnyTensor& t) {
  return std::visit([](const auto& x) -> const Shape& { return x.shape(); }, t);
}

namespace {

template <class T>
bool same_encoding(const T& x, const T& y) {
  if constexpr (SmallInteger<T>) {
    return x.bits() == y.bits();
  } else if constexpr (std::is_integral_v<T>) {
    return x == y;
  } else if constexpr (std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>) {
    const bool nx = std::isnan(static_cast<double>(x)), ny = std::isnan(static_cast<double>(y));
    return nx || ny ? nx && ny : x.bits() == y.bits();
  } else {
    if (std::isnan(x) || std::isnan(y)) return std::isnan(x) && std::isnan(y);
    return std::memcmp(&x, &y, sizeof(T)) == 0;
  }
}

template <class Op>
AnyTensor dispatch(const AnyTensor& A, const AnyTensor& B, const BroadcastRule& rule,
                   const OpConstraints& info, Op op) {
  return std::visit(
      [&](const auto& a, const auto& b) -> AnyTensor {
        using TA = std::decay_t<decltype(a)>;
        using TB = std::decay_t<decltype(b)>;
        if constexpr (std::is_same_v<TA, TB>) {
          return op(a, b);
        } else {
          check_same_element_type(element_type_name<typename TA::value_type>(),
                                  element_type_name<typename TB::value_type>(), rule, info);
          throw TypeError("unreachable: distinct element types with the same name");
        }
      },
      A, B);
}

}  // namespace

bool bitwise_equal(const AnyTensor& a, const AnyTensor& b, std::string* why) {
  auto fail = [&](std::string m) {
    if (why) *why = std::move(m);
    return false;
  };
  if (a.index() != b.index())
    return fail("element types differ: " + std::string(element_type_name(a)) + " vs " +
                std::string(element_type_name(b)));
  if (shape_of(a) != shape_of(b))
    return fail("shapes differ: " + to_string(shape_of(a)) + " vs " + to_string(shape_of(b)));
  return std::visit(
      [&](const auto& x) {
        using T = typename std::decay_t<decltype(x)>::value_type;
        const auto& y = std::get<std::decay_t<decltype(x)>>(b);
        for (std::size_t k = 0; k < x.size(); ++k)
          if (!same_encoding<T>(x[k], y[k]))
            return fail("element " + std::to_string(k) + " (multi-index " +
                        to_string(multi_index(x.shape(), k)) + ") differs: " +
                        describe_element(x[k]) + " vs " + describe_element(y[k]));
        return true;
      },
      a);
}

AnyTensor Div(const AnyTensor& A, const AnyTensor& B, const DivOptions& o) {
  return dispatch(A, B, o.shape_rule, kDivInfo, [&](const auto& a, const auto& b) { return Div(a, b, o); });
}
AnyTensor Sub(const AnyTensor& A, const AnyTensor& B, const ElementwiseOptions& o) {
  return dispatch(A, B, o.shape_rule, kSubInfo, [&](const auto& a, const auto& b) { return Sub(a, b, o); });
}
AnyTensor Add(const AnyTensor& A, const AnyTensor& B, const ElementwiseOptions& o) {
  return dispatch(A, B, o.shape_rule, kAddInfo, [&](const auto& a, const auto& b) { return Add(a, b, o); });
}
AnyTensor Mul(const AnyTensor& A, const AnyTensor& B, const ElementwiseOptions& o) {
  return dispatch(A, B, o.shape_rule, kMulInfo, [&](const auto& a, const auto& b) { return Mul(a, b, o); });
}

}  // namespace symerr
