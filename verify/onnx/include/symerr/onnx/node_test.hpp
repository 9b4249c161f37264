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

struct ValueInfo {
  std::string name;
  int elem_type = 0;             // TensorProto.DataType code
  std::optional<Shape> shape;    // when every dimension has a dim_value
};

struct NodeModel {
  std::filesystem::path file;
  std::string op_type;           // "Div", "Sub", ...
  std::string domain;            // "" (= ai.onnx)
  std::int64_t opset = 0;        // version of the node's domain
  std::vector<std::string> node_inputs, node_outputs;
  std::map<std::string, std::int64_t> int_attributes;  // e.g. broadcast, axis
  std::vector<std::string> other_attributes;           // names of non-integer attributes
  std::vector<ValueInfo> graph_inputs, graph_outputs;
};

struct DataSet {
  std::filesystem::path dir;
  std::vector<AnyTensor> inputs;   // in graph-input order
  std::vector<AnyTensor> outputs;  // in graph-output order
};

struct NodeTest {
  std::filesystem::path dir;
  NodeModel model;
  std::vector<DataSet> data_sets;
};

NodeModel load_node_model(const std::filesystem::path& model_onnx);
NodeTest load_node_test(const std::filesystem::path& dir);

// Evaluate the node on inputs given in graph-input order; outputs in graph-output order.
// Supports Div, Sub, Add, Mul of the default domain.
std::vector<AnyTensor> run_node(const NodeModel& m, const std::vector<AnyTensor>& inputs,
                                IntegerDivision integer_division = IntegerDivision::Truncate);

struct NodeTestOutcome {
  std::size_t data_sets = 0;
  std::size_t outputs_compared = 0;
  std::vector<std::string> mismatches;  // "test_data_set_0/output_0.pb: element 3 ... differs: ..."
  bool passed() const { return data_sets > 0 && mismatches.empty(); }
};

NodeTestOutcome run_node_test(const NodeTest& t,
                              IntegerDivision integer_division = IntegerDivision::Truncate);

}  // namespace symerr::onnx
