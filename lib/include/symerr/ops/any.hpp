// Div / Sub / Add / Mul on AnyTensor: dispatch on the element type. Inputs of
// different element types raise TypeError naming the rule's type constraint
// (SONNX [R2]/[C2], ONNX/OpenVINO type T) and both types.
#pragma once

#include <symerr/any_tensor.hpp>
#include <symerr/ops/add.hpp>
#include <symerr/ops/div.hpp>
#include <symerr/ops/mul.hpp>
#include <symerr/ops/sub.hpp>

namespace symerr {

///@{
/// The element-wise operators on tensors of any element type; both operands
/// must hold the same element type.
/// @throws TypeError on different element types, ShapeError on shapes the rule rejects,
/// DomainError (Div) on an undefined quotient.
AnyTensor Div(const AnyTensor& A, const AnyTensor& B, const DivOptions& o = {});
AnyTensor Sub(const AnyTensor& A, const AnyTensor& B, const ElementwiseOptions& o = {});
AnyTensor Add(const AnyTensor& A, const AnyTensor& B, const ElementwiseOptions& o = {});
AnyTensor Mul(const AnyTensor& A, const AnyTensor& B, const ElementwiseOptions& o = {});
///@}

}  // namespace symerr
