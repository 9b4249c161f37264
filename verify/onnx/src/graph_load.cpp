// ModelProto -> Graph, with every check done before any analysis. The model
// is read with Debian's libonnx-dev protobuf classes (onnx_pb.h), as the
// TensorProto loader already does: no hand-written protobuf reader.
#include <symerr/onnx/graph.hpp>

#include <symerr/onnx/tensor_proto.hpp>
#include <symerr/tensor_errors.hpp>

#include <onnx/onnx_pb.h>

#include <algorithm>
#include <climits>
#include <set>

#include "graph_eval.hpp"

namespace symerr::onnx {

namespace {

// Per operator, the attributes it accepts (everything else is an error).
const std::map<std::string, std::set<std::string>>& operator_attributes() {
  static const std::map<std::string, std::set<std::string>> table = {
      {"Gemm", {"alpha", "beta", "transA", "transB"}},
      {"MatMul", {}},
      {"Add", {}},
      {"Sub", {}},
      {"Mul", {}},
      {"Div", {}},
      {"Relu", {}},
      {"Tanh", {}},
      {"Sigmoid", {}},
      {"Softmax", {"axis"}},
      {"Conv", {"auto_pad", "dilations", "group", "kernel_shape", "pads", "strides"}},
      {"AveragePool", {"auto_pad", "ceil_mode", "count_include_pad", "kernel_shape", "pads", "strides"}},
      {"MaxPool", {"auto_pad", "ceil_mode", "dilations", "kernel_shape", "pads", "storage_order", "strides"}},
      {"Flatten", {"axis"}},
      {"Reshape", {"allowzero"}},
      {"Identity", {}},
      {"Constant", {"value"}},
      {"Neg", {}},
      {"Abs", {}},
      {"Exp", {}},
      {"Log", {}},
      {"Sqrt", {}},
      {"LeakyRelu", {"alpha"}},
      {"GlobalAveragePool", {}},
      {"Transpose", {"perm"}},
      {"BatchNormalization", {"epsilon", "momentum", "training_mode"}},
      {"Concat", {"axis"}},
      {"LayerNormalization", {"axis", "epsilon", "stash_type"}},
      {"Gelu", {"approximate"}},
      {"Erf", {}},
      {"Pow", {}},
      {"Clip", {"min", "max"}},
      {"Min", {}},
      {"Max", {}},
      {"ReduceSum", {"axes", "keepdims", "noop_with_empty_axes"}},
      {"ReduceMean", {"axes", "keepdims", "noop_with_empty_axes"}},
      {"ReduceMax", {"axes", "keepdims", "noop_with_empty_axes"}},
      {"Squeeze", {"axes"}},
      {"Unsqueeze", {"axes"}},
      {"Slice", {"starts", "ends", "axes"}},
      {"Gather", {"axis"}},
      {"Pad", {"mode", "pads", "value"}},
      {"Cast", {"to", "saturate"}},
      {"Where", {}},
      {"Dropout", {"ratio", "seed", "is_test"}},
  };
  return table;
}

std::string join(const std::set<std::string>& names) {
  std::string s;
  for (const auto& n : names) s += (s.empty() ? "" : ", ") + n;
  return s.empty() ? "none" : s;
}

[[noreturn]] void fail(const std::string& source, const std::string& what) {
  throw InputError(source + ": " + what);
}

Shape static_shape(const ::onnx::ValueInfoProto& v, const std::string& source, const char* role) {
  const std::string who = std::string(role) + " '" + v.name() + "'";
  if (!v.type().has_tensor_type()) fail(source, who + " is not a tensor");
  const auto& tt = v.type().tensor_type();
  if (tt.elem_type() != static_cast<int>(DataType::Float))
    fail(source, who + " has element type " + data_type_name(tt.elem_type()) +
                     " (supported: FLOAT; the analysis target format is FP32)");
  if (!tt.has_shape()) fail(source, who + " has no shape (symerr model needs static shapes)");
  Shape s;
  for (int k = 0; k < tt.shape().dim_size(); ++k) {
    const auto& d = tt.shape().dim(k);
    if (!d.has_dim_value() || d.dim_value() < 0)
      fail(source, who + ": dimension " + std::to_string(k) + " is dynamic" +
                       (d.has_dim_param() ? " ('" + d.dim_param() + "')" : std::string()) +
                       " (symerr model needs static shapes)");
    s.push_back(static_cast<std::size_t>(d.dim_value()));
  }
  return s;
}

GraphAttribute attribute(const ::onnx::AttributeProto& a, const std::string& where) {
  GraphAttribute r;
  using A = ::onnx::AttributeProto;
  switch (a.type()) {
    case A::INT: r.kind = GraphAttribute::Kind::Int, r.i = a.i(); break;
    case A::FLOAT: r.kind = GraphAttribute::Kind::Float, r.f = a.f(); break;
    case A::INTS:
      r.kind = GraphAttribute::Kind::Ints;
      r.ints.assign(a.ints().begin(), a.ints().end());
      break;
    case A::STRING: r.kind = GraphAttribute::Kind::String, r.s = a.s(); break;
    default:
      throw InputError(where + ": attribute '" + a.name() + "' has an unsupported type (code " +
                       std::to_string(static_cast<int>(a.type())) + ")");
  }
  return r;
}

// An INT64 or BOOL TensorProto as int_constants / int_shapes (BOOL as 0 / 1);
// false for any other element type.
bool int_constant(const ::onnx::TensorProto& t, const std::string& name, Graph& g, const std::string& where) {
  if (t.data_type() == static_cast<int>(DataType::Bool)) {
    Shape shape;
    for (const auto d : t.dims()) {
      if (d < 0) fail(where, "negative dimension");
      shape.push_back(static_cast<std::size_t>(d));
    }
    const std::size_t n = element_count(shape, where);
    std::vector<std::int64_t> v;
    if (t.has_raw_data())
      for (const char c : t.raw_data()) v.push_back(c != 0);
    else
      for (const auto i : t.int32_data()) v.push_back(i != 0);
    if (v.size() != n) fail(where, "BOOL tensor with " + std::to_string(v.size()) + " values for shape " + to_string(shape));
    g.int_constants[name] = std::move(v);
    g.int_shapes[name] = std::move(shape);
    return true;
  }
  if (t.data_type() != static_cast<int>(DataType::Int64)) return false;
  const AnyTensor a = parse_tensor(t.SerializeAsString(), where);
  const auto& i = std::get<Tensor<std::int64_t>>(a);
  g.int_constants[name] = std::vector<std::int64_t>(i.values().begin(), i.values().end());
  g.int_shapes[name] = i.shape();
  return true;
}

void fold_constant(const ::onnx::NodeProto& n, Graph& g, const std::string& where) {
  if (n.attribute_size() != 1 || n.attribute(0).name() != "value" || !n.attribute(0).has_t())
    fail(where, "a Constant needs exactly the attribute 'value' (a tensor); value_float, value_ints, "
                "sparse_value, ... are not supported");
  if (n.output_size() != 1) fail(where, "a Constant has exactly one output");
  if (int_constant(n.attribute(0).t(), n.output(0), g, where + ": attribute 'value'")) return;
  const AnyTensor t = parse_tensor(n.attribute(0).t().SerializeAsString(), where + ": attribute 'value'");
  if (const auto* f = std::get_if<Tensor<float>>(&t)) g.initializers[n.output(0)] = *f;
  else fail(where, "attribute 'value' has element type " + data_type_name(static_cast<int>(data_type_of(t))) +
                       " (supported: FLOAT, INT64 for shapes, axes, pads and indices, BOOL for conditions)");
}

void check_attribute_values(const GraphNode& n, const std::string& where) {
  auto one_of = [&](const std::string& a, std::int64_t v, std::initializer_list<std::int64_t> ok) {
    if (std::find(ok.begin(), ok.end(), v) == ok.end())
      fail(where, "attribute '" + a + "' = " + std::to_string(v) + " is not supported");
  };
  for (const char* a : {"transA", "transB", "ceil_mode", "count_include_pad", "allowzero"})
    if (n.attributes.count(a)) one_of(a, n.int_attr(a, 0), {0, 1});
  if (n.attributes.count("training_mode")) one_of("training_mode", n.int_attr("training_mode", 0), {0});
  if (n.op_type == "BatchNormalization" && n.outputs.size() != 1)
    fail(where, "BatchNormalization in inference only: one output (no running mean / var outputs)");
  if (n.attributes.count("storage_order")) one_of("storage_order", n.int_attr("storage_order", 0), {0});
  if (n.attributes.count("auto_pad")) {
    const std::string p = n.string_attr("auto_pad", "NOTSET");
    if (p != "NOTSET" && p != "SAME_UPPER" && p != "SAME_LOWER" && p != "VALID")
      fail(where, "attribute 'auto_pad' = '" + p + "' (supported: NOTSET, SAME_UPPER, SAME_LOWER, VALID)");
  }
  if ((n.op_type == "MaxPool") && n.outputs.size() != 1)
    fail(where, "the Indices output of MaxPool is not supported");
}

// The operators whose attributes became inputs at some opset (axes, pads,
// min / max, starts / ends): the spelling must match the model's opset.
void check_attribute_or_input(const GraphNode& n, std::int64_t opset, const std::string& where,
                              std::int64_t since, std::initializer_list<const char*> attrs, std::size_t max_old_inputs) {
  for (const char* a : attrs)
    if (opset >= since && n.attributes.count(a))
      fail(where, "attribute '" + std::string(a) + "' is an input of " + n.op_type + " from opset " +
                      std::to_string(since) + " (the model imports opset " + std::to_string(opset) + ")");
  if (opset < since && n.inputs.size() > max_old_inputs)
    fail(where, n.op_type + " before opset " + std::to_string(since) + " takes " + std::to_string(max_old_inputs) +
                    " input(s); its other operands are attributes");
}

bool has_extra_output(const GraphNode& n) {
  for (std::size_t k = 1; k < n.outputs.size(); ++k)
    if (!n.outputs[k].empty()) return true;
  return false;
}

void check_opset_spelling(const GraphNode& n, std::int64_t opset, const std::string& where) {
  const std::string& op = n.op_type;
  auto needs = [&](std::int64_t since) {
    if (opset < since)
      fail(where, op + " is an operator from opset " + std::to_string(since) + " (the model imports opset " +
                      std::to_string(opset) + ")");
  };
  auto flag = [&](const char* a) {
    if (n.attributes.count(a) && n.int_attr(a, 0) != 0 && n.int_attr(a, 0) != 1)
      fail(where, "attribute '" + std::string(a) + "' = " + std::to_string(n.int_attr(a, 0)) + " is not supported (0 or 1)");
  };
  if (op == "Gelu") {
    needs(20);
    const std::string a = n.string_attr("approximate", "none");
    if (a != "none" && a != "tanh") fail(where, "attribute 'approximate' = '" + a + "' (supported: none, tanh)");
  } else if (op == "LayerNormalization") {
    needs(17);
    if (n.int_attr("stash_type", 1) != 1)
      fail(where, "attribute 'stash_type' = " + std::to_string(n.int_attr("stash_type", 1)) +
                      " is not supported (1: FLOAT, the runner's format)");
  } else if (op == "Clip") {
    check_attribute_or_input(n, opset, where, 11, {"min", "max"}, 1);
  } else if (op == "ReduceSum" || op == "ReduceMean" || op == "ReduceMax") {
    const std::int64_t since = op == "ReduceSum" ? 13 : 18;
    check_attribute_or_input(n, opset, where, since, {"axes"}, 1);
    if (opset < since && n.attributes.count("noop_with_empty_axes"))
      fail(where, "attribute 'noop_with_empty_axes' exists from opset " + std::to_string(since));
    flag("keepdims"), flag("noop_with_empty_axes");
  } else if (op == "Squeeze" || op == "Unsqueeze") {
    check_attribute_or_input(n, opset, where, 13, {"axes"}, 1);
  } else if (op == "Slice") {
    check_attribute_or_input(n, opset, where, 10, {"starts", "ends", "axes"}, 1);
  } else if (op == "Pad") {
    check_attribute_or_input(n, opset, where, 11, {"pads", "value"}, 1);
    const std::string m = n.string_attr("mode", "constant");
    if (m != "constant") fail(where, "attribute 'mode' = '" + m + "' is not supported (supported: constant)");
  } else if (op == "Cast") {
    const std::int64_t to = n.int_attr("to", 0);
    if (to != static_cast<std::int64_t>(DataType::Float))
      fail(where, "attribute 'to' = " + std::to_string(to) + " (" + data_type_name(static_cast<int>(to)) +
                      ") is not supported: the runner is FP32, a Cast may only target FLOAT");
  } else if (op == "Dropout") {
    if (has_extra_output(n)) fail(where, "the mask output of Dropout is not supported (inference only)");
    if (n.attributes.count("is_test") && n.int_attr("is_test", 0) == 0)
      fail(where, "attribute 'is_test' = 0 (training) is not supported (inference only: Dropout is the identity)");
  }
}

GraphNode node(const ::onnx::NodeProto& p, std::size_t k, const Graph& g) {
  GraphNode n;
  if (p.name().empty()) {
    n.name = "#";
    n.name += std::to_string(k);
  } else {
    n.name = p.name();
  }
  n.op_type = p.op_type();
  n.inputs.assign(p.input().begin(), p.input().end());
  n.outputs.assign(p.output().begin(), p.output().end());
  const std::string where = g.source + ": " + g.describe(n);
  if (!p.domain().empty() && p.domain() != "ai.onnx")
    fail(where, "domain '" + p.domain() + "' is not supported (only the default ai.onnx domain)");
  const auto& table = operator_attributes();
  const auto op = table.find(n.op_type);
  if (op == table.end()) {
    std::string names;
    for (const auto& s : supported_operators()) names += (names.empty() ? "" : ", ") + s;
    fail(where, "operator " + n.op_type + " is not supported (supported: " + names + ")");
  }
  for (const auto& a : p.attribute()) {
    if (!op->second.count(a.name()))
      fail(where, "attribute '" + a.name() + "' is not supported (" + n.op_type +
                      " supports: " + join(op->second) + ")");
    if (n.op_type != "Constant") n.attributes[a.name()] = attribute(a, where);
  }
  if ((n.op_type == "Add" || n.op_type == "Sub" || n.op_type == "Mul" || n.op_type == "Div") && g.opset < 7)
    fail(where, n.op_type + " before opset 7 (legacy broadcasting) is not supported");
  if (n.op_type == "Softmax" && g.opset < 13)
    fail(where, "Softmax before opset 13 (the 2-D coercion semantics) is not supported");
  check_attribute_values(n, where);
  check_opset_spelling(n, g.opset, where);
  return n;
}

}  // namespace

const std::vector<std::string>& supported_operators() {
  static const std::vector<std::string> ops = {"Gemm", "MatMul", "Conv", "Add", "Sub", "Mul", "Div",
                                               "Relu", "Tanh", "Sigmoid", "Softmax", "AveragePool",
                                               "MaxPool", "Flatten", "Reshape", "Identity", "Constant",
                                               "Neg", "Abs", "Exp", "Log", "Sqrt", "LeakyRelu",
                                               "GlobalAveragePool", "Transpose", "BatchNormalization", "Concat",
                                               "LayerNormalization", "Gelu", "Erf", "Pow", "Clip", "Min", "Max",
                                               "ReduceSum", "ReduceMean", "ReduceMax", "Squeeze", "Unsqueeze",
                                               "Slice", "Gather", "Pad", "Cast", "Where", "Dropout"};
  return ops;
}

std::string Graph::describe(const GraphNode& n) const {
  return "node '" + n.name + "' (" + n.op_type + ", opset " + std::to_string(opset) + ")";
}

Graph parse_graph(std::string_view bytes, const std::string& source) {
  if (bytes.size() > static_cast<std::size_t>(INT_MAX)) fail(source, "larger than 2 GiB");
  ::onnx::ModelProto m;
  if (!m.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())))
    fail(source, "not a valid ONNX model (protobuf parsing failed: truncated or corrupt file)");
  if (!m.has_graph()) fail(source, "the model has no graph");
  Graph g;
  g.source = source;
  for (const auto& o : m.opset_import())
    if (o.domain().empty() || o.domain() == "ai.onnx") g.opset = o.version();
  if (g.opset < 1 || g.opset > 21)
    fail(source, "default-domain opset " + std::to_string(g.opset) + " is not supported (supported: 1 to 21)");
  const auto& gp = m.graph();
  for (const auto& t : gp.initializer()) {
    const std::string where = source + ": initializer '" + t.name() + "'";
    if (int_constant(t, t.name(), g, where)) continue;
    const AnyTensor a = parse_tensor(t.SerializeAsString(), where);
    if (const auto* f = std::get_if<Tensor<float>>(&a)) g.initializers[t.name()] = *f;
    else fail(where, "element type " + data_type_name(static_cast<int>(data_type_of(a))) +
                         " is not supported (FLOAT, INT64 for shapes, axes, pads and indices, BOOL for conditions)");
  }
  for (const auto& v : gp.input())
    if (!g.initializers.count(v.name()) && !g.int_constants.count(v.name()))
      g.inputs.push_back({v.name(), static_shape(v, source, "graph input")});
  for (const auto& v : gp.output()) g.outputs.push_back({v.name(), static_shape(v, source, "graph output")});
  if (g.outputs.empty()) fail(source, "the graph has no output");
  std::set<std::string> defined;
  for (const auto& v : g.inputs) defined.insert(v.name);
  for (const auto& [name, t] : g.initializers) defined.insert(name);
  for (const auto& [name, t] : g.int_constants) defined.insert(name);
  for (int k = 0; k < gp.node_size(); ++k) {
    GraphNode n = node(gp.node(k), static_cast<std::size_t>(k), g);
    const std::string where = source + ": " + g.describe(n);
    for (const auto& in : n.inputs)
      if (!in.empty() && !defined.count(in))
        fail(where, "input '" + in + "' is not a graph input, an initializer or an earlier node's output "
                    "(the nodes must be in topological order)");
    for (const auto& out : n.outputs) {
      if (defined.count(out)) fail(where, "output '" + out + "' is defined twice");
      defined.insert(out);
    }
    if (n.op_type == "Constant") fold_constant(gp.node(k), g, where);
    else g.nodes.push_back(std::move(n));
  }
  for (const auto& o : g.outputs)
    if (!defined.count(o.name)) fail(source, "graph output '" + o.name + "' is produced by no node");
  infer_shapes(g);
  return g;
}

Graph load_graph(const std::filesystem::path& model_onnx) {
  return parse_graph(read_file(model_onnx), model_onnx.string());
}

// ---- GraphNode accessors -------------------------------------------------------

std::int64_t GraphNode::int_attr(const std::string& a, std::int64_t fallback) const {
  const auto it = attributes.find(a);
  if (it == attributes.end()) return fallback;
  if (it->second.kind != GraphAttribute::Kind::Int)
    throw InputError("node '" + name + "' (" + op_type + "): attribute '" + a + "' must be an integer");
  return it->second.i;
}

float GraphNode::float_attr(const std::string& a, float fallback) const {
  const auto it = attributes.find(a);
  if (it == attributes.end()) return fallback;
  if (it->second.kind != GraphAttribute::Kind::Float)
    throw InputError("node '" + name + "' (" + op_type + "): attribute '" + a + "' must be a float");
  return it->second.f;
}

std::vector<std::int64_t> GraphNode::ints_attr(const std::string& a, std::vector<std::int64_t> fallback) const {
  const auto it = attributes.find(a);
  if (it == attributes.end()) return fallback;
  if (it->second.kind != GraphAttribute::Kind::Ints)
    throw InputError("node '" + name + "' (" + op_type + "): attribute '" + a + "' must be a list of integers");
  return it->second.ints;
}

std::string GraphNode::string_attr(const std::string& a, std::string fallback) const {
  const auto it = attributes.find(a);
  if (it == attributes.end()) return fallback;
  if (it->second.kind != GraphAttribute::Kind::String)
    throw InputError("node '" + name + "' (" + op_type + "): attribute '" + a + "' must be a string");
  return it->second.s;
}

}  // namespace symerr::onnx
