// Div: C = A / B element-wise.
//
// Error identity (docs/design.md §1), for SymbolicDomainError elements:
//   err_C = (e_A·real_B − real_A·e_B) / (real_B·(real_B + e_B)) + (round(t) − t),
//   t = fp_A / fp_B; undefined when real_B = 0.
//
// Scalar semantics by element type:
//   integers  — floor or truncation of the exact quotient (DivOptions::integer_division),
//               reduced modulo 2^n (INT_MIN / −1 wraps to INT_MIN); a zero divisor is
//               undefined: Div() throws DomainError, div_checked() records it;
//   floats    — IEEE 754 division in the element's format (±inf, NaN, signed zero),
//               or, with FloatDivisionByZero::Undefined, the real semantics
//               (a zero divisor is undefined, as for integers);
//   class types — the ADL extension point  divide(a, b, IntegerDivision)  (e.g.
//               SymbolicDomainError, which carries its own undefined flag).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <symerr/ops/elementwise.hpp>
#include <symerr/ops/integer_arith.hpp>
#include <symerr/ops/semantics.hpp>

namespace symerr {

/// The options of Div: shape rule, integer quotient rounding, and the meaning of
/// a float division by zero. Named constructors give each specification's choices.
struct DivOptions {
  /// How the operands' shapes combine.
  BroadcastRule shape_rule = Sonnx{};
  IntegerDivision integer_division = IntegerDivision::Floor;  ///< SONNX Div (seed 000)
  /// IEEE division by zero (±inf, NaN), or undefined as in the real semantics.
  FloatDivisionByZero float_division_by_zero = FloatDivisionByZero::Ieee;

  /// SONNX: identical shapes and types; integer Div floors (seed 000) unless told otherwise.
  static DivOptions sonnx(IntegerDivision d = IntegerDivision::Floor) {
    return {Sonnx{}, d, FloatDivisionByZero::Ieee};
  }
  /// ONNX opset >= 7: multidirectional broadcasting. The ONNX page does not say how an
  /// integer quotient is rounded; the caller chooses (ONNX Runtime truncates).
  static DivOptions onnx(IntegerDivision d) { return {OnnxMultidirectional{}, d, FloatDivisionByZero::Ieee}; }
  /// ONNX opset 1 / 6: unidirectional broadcasting with the broadcast / axis attributes.
  static DivOptions onnx_legacy(OnnxLegacy l, IntegerDivision d) { return {l, d, FloatDivisionByZero::Ieee}; }
  /// OpenVINO Divide-1: pythondiv (default true) = floor division for integer types.
  static DivOptions openvino(AutoBroadcast ab = AutoBroadcast::Numpy, bool pythondiv = true) {
    return {OpenVino{ab}, pythondiv ? IntegerDivision::Floor : IntegerDivision::Truncate,
            FloatDivisionByZero::Ieee};
  }
};

/// Div's name and SONNX requirement IDs, for messages.
inline constexpr OpConstraints kDivInfo{"Div", "[R1]/[C1]", "[R2]/[C2]"};

/// The scalar rule; std::nullopt where the quotient is undefined.
template <class T>
std::optional<T> div_scalar(const T& a, const T& b, const DivOptions& o) {
  if constexpr (IntegerElement<T>) {
    return integer_divide(a, b, o.integer_division);
  } else if constexpr (FloatElement<T>) {
    if (o.float_division_by_zero == FloatDivisionByZero::Undefined && b == T(0)) return std::nullopt;
    return T(a / b);
  } else {
    return divide(a, b, o.integer_division);  // ADL extension point
  }
}

/// The result of div_checked(): the quotient tensor and where it is undefined.
template <class T>
struct DivResult {
  Tensor<T> value;                     ///< undefined elements hold T{}
  std::vector<std::size_t> undefined;  ///< their flat (row-major) indexes, ascending
  std::string first_undefined;         ///< "A = 7, B = 0" of the first one (empty if none)
};

/// Never throws on an undefined element: records it instead.
template <class T>
DivResult<T> div_checked(const Tensor<T>& A, const Tensor<T>& B, const DivOptions& o = {}) {
  DivResult<T> r;
  r.value = elementwise(
      A, B, o.shape_rule,
      [&](const T& a, const T& b, std::size_t out) -> T {
        if (std::optional<T> q = div_scalar(a, b, o)) return *q;
        if (r.undefined.empty())
          r.first_undefined = "A = " + describe_element(a) + ", B = " + describe_element(b);
        r.undefined.push_back(out);
        return T{};
      },
      kDivInfo);
  return r;
}

/// Throws DomainError naming the first undefined element (flat and multi-index).
template <class T>
Tensor<T> Div(const Tensor<T>& A, const Tensor<T>& B, const DivOptions& o = {}) {
  DivResult<T> r = div_checked(A, B, o);
  if (!r.undefined.empty()) {
    const std::size_t f = r.undefined.front();
    const bool sonnx = std::holds_alternative<Sonnx>(o.shape_rule);
    std::string what = IntegerElement<T> ? "integer division by zero is undefined"
                                         : "division by zero is undefined in the real semantics";
    if (sonnx) what += IntegerElement<T> ? " (SONNX Div [R3]/[C3])" : " (SONNX Div [C2])";
    throw DomainError("Div: " + what + " at output element " + std::to_string(f) +
                      ", multi-index " + to_string(multi_index(r.value.shape(), f)) + " (" +
                      r.first_undefined + "; " + std::to_string(r.undefined.size()) +
                      " undefined element(s) in all)");
  }
  return std::move(r.value);
}

}  // namespace symerr
