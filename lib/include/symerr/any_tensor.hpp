// AnyTensor: a tensor whose element type is known only at run time (e.g. one
// read from an ONNX .pb file), over the element types of the format table.
// Operators on AnyTensor (<symerr/ops/any.hpp>) check that both inputs have the
// same element type and raise TypeError naming the constraint otherwise.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>

#include <symerr/scalar_types.hpp>
#include <symerr/tensor.hpp>

namespace symerr {

/// A tensor of any supported element type (float, double, Half, BFloat16, the
/// fixed-width integers, Int4, UInt4).
using AnyTensor =
    std::variant<Tensor<float>, Tensor<double>, Tensor<Half>, Tensor<BFloat16>,
                 Tensor<std::int8_t>, Tensor<std::int16_t>, Tensor<std::int32_t>,
                 Tensor<std::int64_t>, Tensor<std::uint8_t>, Tensor<std::uint16_t>,
                 Tensor<std::uint32_t>, Tensor<std::uint64_t>, Tensor<Int4>, Tensor<UInt4>>;

/// "FP32", "INT8", ... (the format-table name of the element type).
std::string_view element_type_name(const AnyTensor& t);
/// The shape of the tensor held.
const Shape& shape_of(const AnyTensor& t);

/// Bit-exact equality: same element type, same shape, and every element with the
/// same encoding, except that any two NaNs compare equal (IEEE leaves the payload
/// of a NaN result unspecified). On inequality `why` (if given) receives the first
/// difference: flat index, multi-index and both values.
bool bitwise_equal(const AnyTensor& a, const AnyTensor& b, std::string* why = nullptr);

}  // namespace symerr
