// ONNX backend node tests: a directory with model.onnx (one node) and
// test_data_set_N/{input_K.pb, output_K.pb}. load_node_test() reads and checks
// everything (InputError naming the file on any defect); run_node() evaluates
// the node with symerr's operators; run_node_test() compares bit-exactly.
//
// Shape semantics follow the model's opset: >= 7 multidirectional
// broadcasting, 1 and 6 the legacy broadcast/axis attributes. ONNX does not
// say how an integer quotient is rounded; the caller chooses (default
// truncation, as ONNX Runtime).
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <symerr/any_tensor.hpp>
#include <symerr/ops/semantics.hpp>

namespace symerr::onnx {

/// A graph input or output of a node model.
struct ValueInfo {
  /// Its name.
  std::string name;
  int elem_type = 0;             ///< TensorProto.DataType code
  std::optional<Shape> shape;    ///< when every dimension has a dim_value
};

/// The one node of an ONNX backend node test's model.onnx.
struct NodeModel {
  /// The model file.
  std::filesystem::path file;
  std::string op_type;           ///< "Div", "Sub", ...
  std::string domain;            ///< "" (= ai.onnx)
  std::int64_t opset = 0;        ///< version of the node's domain
  ///@{
  /// The node's input and output names.
  std::vector<std::string> node_inputs, node_outputs;
  ///@}
  std::map<std::string, std::int64_t> int_attributes;  ///< e.g. broadcast, axis
  std::vector<std::string> other_attributes;           ///< names of non-integer attributes
  ///@{
  /// The graph's inputs and outputs.
  std::vector<ValueInfo> graph_inputs, graph_outputs;
  ///@}
};

/// One test_data_set_N directory: input_K.pb and output_K.pb.
struct DataSet {
  /// The directory.
  std::filesystem::path dir;
  std::vector<AnyTensor> inputs;   ///< in graph-input order
  std::vector<AnyTensor> outputs;  ///< in graph-output order
};

/// An ONNX backend node test: the model and its data sets.
struct NodeTest {
  /// The test's directory.
  std::filesystem::path dir;
  /// Its model.
  NodeModel model;
  /// Its data sets, in order.
  std::vector<DataSet> data_sets;
};

/// Reads and checks model.onnx (one node).
/// @throws InputError naming the file on any defect.
NodeModel load_node_model(const std::filesystem::path& model_onnx);
/// Reads and checks a node test directory (model and every data set).
/// @throws InputError naming the file on any defect.
NodeTest load_node_test(const std::filesystem::path& dir);

/// Evaluate the node on inputs given in graph-input order; outputs in graph-output order.
/// Supports Div, Sub, Add, Mul of the default domain.
std::vector<AnyTensor> run_node(const NodeModel& m, const std::vector<AnyTensor>& inputs,
                                IntegerDivision integer_division = IntegerDivision::Truncate);

/// The comparison of a node test's outputs with symerr's.
struct NodeTestOutcome {
  /// Data sets run.
  std::size_t data_sets = 0;
  /// Output tensors compared.
  std::size_t outputs_compared = 0;
  std::vector<std::string> mismatches;  ///< "test_data_set_0/output_0.pb: element 3 ... differs: ..."
  /// Whether some data set ran and every output matched bit-exactly.
  bool passed() const { return data_sets > 0 && mismatches.empty(); }
};

/// Runs every data set of t through run_node() and compares the outputs bit-exactly (any NaN matches any NaN).
NodeTestOutcome run_node_test(const NodeTest& t,
                              IntegerDivision integer_division = IntegerDivision::Truncate);

}  // namespace symerr::onnx
