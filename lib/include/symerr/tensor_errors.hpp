// Exceptions of the tensor layer: every message names the operator, the
// violated constraint (with the seed's requirement ID where there is one) and
// the offending shapes, types, indexes or file.
#pragma once

#include <stdexcept>
#include <string>

namespace symerr {

// Shapes that an operator or a shape rule does not accept
// (e.g. "Div [R1]/[C1] shape consistency violated: A has shape [2,3], B has shape [3]"),
// a rank above kMaxRank, an element count that overflows, a ragged initializer.
struct ShapeError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

// Element types that do not match (SONNX [R2]/[C2], ONNX type constraint T).
struct TypeError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

// An element outside the operator's domain of definition, e.g. an integer
// division by zero; the message names the flat and the multi-index.
struct DomainError : std::domain_error {
  using std::domain_error::domain_error;
};

// A flat or multi-index outside the tensor.
struct IndexError : std::out_of_range {
  using std::out_of_range::out_of_range;
};

// Unreadable or inconsistent external input (a .pb / .onnx file): the message
// names the file and what is wrong with it.
struct InputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace symerr
