// Shapes and multi-indexes of row-major tensors.
//
// A shape is a list of dimensions; rank 0 (the empty list) is a scalar with
// one element, and a zero dimension gives a tensor with no elements. Ranks
// above kMaxRank and element counts that overflow std::size_t are rejected
// with a ShapeError that names the rank / the shape.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include <vector>

namespace symerr {

/// The largest tensor rank.
inline constexpr std::size_t kMaxRank = 32;

/// A tensor shape: one extent per axis (rank 0: a scalar).
using Shape = std::vector<std::size_t>;
/// A multi-index: one coordinate per axis, same representation as Shape.
using Index = std::vector<std::size_t>;

/// "[2,3]"; a scalar is "[]".
std::string to_string(const Shape& s);

/// Throws ShapeError("<what>: rank 33 exceeds the maximum rank 32") when rank > kMaxRank.
void check_rank(std::size_t rank, std::string_view what);

/// Number of elements of `s` (1 for rank 0). Throws ShapeError naming `what` and the
/// shape when the rank exceeds kMaxRank or the product overflows std::size_t.
std::size_t element_count(const Shape& s, std::string_view what = "shape");

/// Row-major flat position of `i` in a tensor of shape `s`; throws IndexError when
/// the index has the wrong rank or a coordinate is out of range.
std::size_t flat_index(const Shape& s, const Index& i);

/// The multi-index of flat position `flat` (precondition: flat < element_count(s)).
Index multi_index(const Shape& s, std::size_t flat);

/// Row-major element strides of a shape (the last axis has stride 1).
Shape row_major_strides(const Shape& s);

}  // namespace symerr
