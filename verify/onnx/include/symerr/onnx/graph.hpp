// A whole ONNX model as a graph: its nodes in topological order, its FP32
// initializers (and the Constant nodes folded into them), its graph inputs and
// outputs with static shapes, and the static shape of every tensor.
//
// load_graph() checks everything before any analysis and throws InputError
// naming the file, the node (its name, or "#k" when unnamed), its op type and
// the opset, the attribute or the tensor: unsupported operators, attribute
// values, element types, dynamic dimensions, malformed files and shape
// mismatches. The supported operators and attributes: docs/models.md.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <symerr/shape.hpp>
#include <symerr/tensor.hpp>

namespace symerr::onnx {

/// One attribute of a node (only the kinds the supported operators use).
struct GraphAttribute {
  /// Which member holds the value.
  enum class Kind {
    Int,    ///< `i`
    Float,  ///< `f`
    Ints,   ///< `ints`
    String  ///< `s`
  };
  Kind kind = Kind::Int;            ///< which member holds the value
  std::int64_t i = 0;               ///< Kind::Int
  float f = 0;                      ///< Kind::Float
  std::vector<std::int64_t> ints;   ///< Kind::Ints
  std::string s;                    ///< Kind::String
};

/// One node of the graph.
struct GraphNode {
  /// The node's name ("" in the file: "#k", its position).
  std::string name;
  std::string op_type;  ///< "Gemm", "Conv", ...
  ///@{
  /// Its input and output tensor names ("" for an omitted optional input).
  std::vector<std::string> inputs, outputs;
  ///@}
  std::map<std::string, GraphAttribute> attributes;  ///< by attribute name

  /// An integer attribute, or `fallback` when absent.
  std::int64_t int_attr(const std::string& a, std::int64_t fallback) const;
  /// A float attribute, or `fallback` when absent.
  float float_attr(const std::string& a, float fallback) const;
  /// An integer-list attribute, or `fallback` when absent.
  std::vector<std::int64_t> ints_attr(const std::string& a, std::vector<std::int64_t> fallback) const;
  /// A string attribute, or `fallback` when absent.
  std::string string_attr(const std::string& a, std::string fallback) const;
};

/// A graph input or output: name and static shape (FLOAT elements).
struct GraphValue {
  /// Its name.
  std::string name;
  /// Its shape (every dimension static).
  Shape shape;
};

/// A loaded, checked graph.
struct Graph {
  /// The model file (or the source name given to parse_graph()).
  std::string source;
  std::int64_t opset = 0;                 ///< version of the default (ai.onnx) domain
  std::vector<GraphValue> inputs;         ///< graph inputs that are not initializers
  std::vector<GraphValue> outputs;        ///< graph outputs
  std::vector<GraphNode> nodes;           ///< topological order, Constant nodes removed
  std::map<std::string, Tensor<float>> initializers;           ///< FLOAT initializers and Constants
  /// INT64 initializers and Constants (shapes, axes, pads, indices) and BOOL
  /// ones as 0 / 1 (Where's condition, Dropout's training_mode), flat.
  std::map<std::string, std::vector<std::int64_t>> int_constants;
  std::map<std::string, Shape> int_shapes;  ///< the shape of each of int_constants
  std::map<std::string, Shape> shapes;    ///< the static shape of every FLOAT tensor

  /// "node 'conv1' (Conv, opset 13)" for error messages and reports.
  std::string describe(const GraphNode& n) const;
};

/// The operators load_graph() accepts, in the order docs/models.md lists them.
const std::vector<std::string>& supported_operators();

/// Parse and check a serialized ModelProto; `source` names it in messages.
/// @throws InputError on any defect (see the file comment).
Graph parse_graph(std::string_view bytes, const std::string& source);
/// Read, parse and check a .onnx file.
/// @throws InputError naming the file on any defect.
Graph load_graph(const std::filesystem::path& model_onnx);

}  // namespace symerr::onnx
