// Shape rules of element-wise binary operators, as explicit options, and the
// pure function that applies them: broadcast_plan() / broadcast_shape().
//
//  * Sonnx                 — identical shapes required (SONNX [R1]/[C1]);
//  * OnnxMultidirectional  — numpy broadcasting (ONNX opset >= 7): shapes are
//                            right-aligned, each axis pair equal or one of them 1;
//  * OnnxLegacy            — ONNX opset 1 and 6, B broadcast onto A:
//      broadcast = 0: shape(B) == shape(A);
//      broadcast = 1: B has one element and rank(B) <= rank(A), or shape(B) is the
//                     contiguous run of shape(A) starting at `axis` (suffix
//                     matching when axis is unset); no 1-dim expansion. The
//                     output has the shape of A. A negative axis is rejected
//                     (the opset 1/6 page gives it no meaning).
//  * OpenVino              — Divide-1 auto_broadcast: None (identical shapes) or
//                            Numpy (as OnnxMultidirectional).
// A stretched axis has stride 0 in the plan. Errors are ShapeError naming the
// operator, the rule and both shapes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include <symerr/shape.hpp>

namespace symerr {

/// Identical shapes required (SONNX [R1]/[C1]).
struct Sonnx {};
/// Numpy broadcasting (ONNX opset >= 7): shapes right-aligned, each axis pair equal or one of them 1.
struct OnnxMultidirectional {};
/// ONNX opset 1 and 6, B broadcast onto A: broadcast = 0 requires equal shapes;
/// broadcast = 1 allows B with one element and rank(B) <= rank(A), or shape(B)
/// the contiguous run of shape(A) starting at `axis` (suffix matching when
/// unset); no 1-dim expansion; the output has A's shape; a negative axis is rejected.
struct OnnxLegacy {
  /// The opset 1/6 `broadcast` attribute.
  bool broadcast = false;
  /// The opset 1/6 `axis` attribute (unset: suffix matching).
  std::optional<std::int64_t> axis;
};
/// OpenVINO's auto_broadcast attribute: None (identical shapes) or Numpy.
enum class AutoBroadcast { None, Numpy };
/// OpenVINO Divide-1 broadcasting.
struct OpenVino {
  /// None (identical shapes) or Numpy (as OnnxMultidirectional).
  AutoBroadcast auto_broadcast = AutoBroadcast::Numpy;
};

/// The shape rule of an element-wise binary operator.
using BroadcastRule = std::variant<Sonnx, OnnxMultidirectional, OnnxLegacy, OpenVino>;

/// e.g. "SONNX", "ONNX multidirectional", "ONNX opset 1/6 broadcast=1 axis=1",
/// "OpenVINO auto_broadcast=numpy".
std::string to_string(const BroadcastRule& rule);

/// How a tensor operator names itself and its requirement IDs in error messages
/// (renamed from OpInfo: that name is the operator table's, <symerr/operators.hpp>).
struct OpConstraints {
  /// The operator's name in messages.
  std::string_view name = "Elementwise";
  std::string_view shape_constraint = "[R1]/[C1]";  ///< SONNX shape consistency
  std::string_view type_constraint = "[R2]/[C2]";   ///< SONNX type consistency
};

/// Output shape plus, per output axis, the element strides of A and B
/// (0 on an axis that A or B does not have or stretches from 1).
struct BroadcastPlan {
  /// The output shape.
  Shape out;
  ///@{
  /// Per output axis, the element stride of A (stride_b: of B); 0 where stretched or absent.
  Shape stride_a;
  Shape stride_b;
  ///@}
};

/// The output shape and the operands' strides under `rule`; throws ShapeError
/// naming the operator, the rule and both shapes when the rule rejects them.
BroadcastPlan broadcast_plan(const Shape& a, const Shape& b, const BroadcastRule& rule,
                             const OpConstraints& op = {});

/// The output shape of broadcast_plan() (throws as it does).
inline Shape broadcast_shape(const Shape& a, const Shape& b, const BroadcastRule& rule,
                             const OpConstraints& op = {}) {
  return broadcast_plan(a, b, rule, op).out;
}

/// Throws TypeError unless the two element-type names are equal; the message
/// names the constraint of the rule (SONNX [R2]/[C2], ONNX/OpenVINO type T).
void check_same_element_type(std::string_view type_a, std::string_view type_b,
                             const BroadcastRule& rule, const OpConstraints& op = {});

}  // namespace symerr
