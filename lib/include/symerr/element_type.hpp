// Element-type traits of the tensor layer: which types are integers (wrapping,
// explicit division rounding), which are IEEE binary floats, and their names
// and formats from the format table (<symerr/format.hpp>).
// Any other type (e.g. SymbolicDomainError) is a "class element": operators
// reach it through its own operators and the ADL extension points.
#pragma once

#include <concepts>
#include <cstdint>
#include <string_view>
#include <type_traits>

#include <symerr/bfloat16.hpp>
#include <symerr/format.hpp>
#include <symerr/half.hpp>
#include <symerr/int4.hpp>

namespace symerr {

/// Int4 or UInt4.
template <class T>
concept SmallInteger = std::same_as<T, Int4> || std::same_as<T, UInt4>;

/// A built-in integer type of at most 64 bits, bool excluded.
template <class T>
concept BuiltinInteger = std::integral<T> && !std::same_as<std::remove_cv_t<T>, bool> &&
                         sizeof(T) <= 8;

/// Integer element: Add/Sub/Mul wrap modulo 2^bits, Div rounds explicitly.
template <class T>
concept IntegerElement = BuiltinInteger<T> || SmallInteger<T>;

/// IEEE binary floating-point element: operations follow IEEE 754 (RNE).
template <class T>
concept FloatElement = std::same_as<T, float> || std::same_as<T, double> ||
                       std::same_as<T, Half> || std::same_as<T, BFloat16> ||
                       std::same_as<T, _Float16>;

/// An integer or floating-point element type.
template <class T>
concept ArithmeticElement = IntegerElement<T> || FloatElement<T>;

/// The format-table entry of an integer element type.
template <IntegerElement T>
constexpr IntFormat int_format_of() noexcept {
  if constexpr (std::same_as<T, Int4>) return INT4;
  else if constexpr (std::same_as<T, UInt4>) return UINT4;
  else if constexpr (std::is_signed_v<T>) {
    if constexpr (sizeof(T) == 1) return INT8;
    else if constexpr (sizeof(T) == 2) return INT16;
    else if constexpr (sizeof(T) == 4) return INT32;
    else return INT64;
  } else {
    if constexpr (sizeof(T) == 1) return UINT8;
    else if constexpr (sizeof(T) == 2) return UINT16;
    else if constexpr (sizeof(T) == 4) return UINT32;
    else return UINT64;
  }
}

/// The format-table entry of a float element type.
template <FloatElement T>
constexpr FloatFormat float_format_of() noexcept {
  if constexpr (std::same_as<T, float>) return FP32;
  else if constexpr (std::same_as<T, double>) return FP64;
  else if constexpr (std::same_as<T, BFloat16>) return BF16;
  else return FP16;  // Half, _Float16
}

/// "FP32", "INT8", "UINT4", ...; a class type names itself with a static
/// type_name() if it has one, otherwise "class type".
template <class T>
constexpr std::string_view element_type_name() noexcept {
  if constexpr (IntegerElement<T>) return int_format_of<T>().name;
  else if constexpr (FloatElement<T>) return float_format_of<T>().name;
  else if constexpr (requires { { T::type_name() } -> std::convertible_to<std::string_view>; })
    return T::type_name();
  else return "class type";
}

}  // namespace symerr
