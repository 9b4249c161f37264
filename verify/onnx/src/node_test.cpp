#include <symerr/onnx/node_test.hpp>

#include <symerr/onnx/tensor_proto.hpp>
#include <symerr/operators.hpp>
#include <symerr/ops/any.hpp>
#include <symerr/tensor_errors.hpp>

#include <onnx/onnx_pb.h>

#include <algorithm>
#include <climits>

namespace symerr::onnx {

namespace {

[[noreturn]] void fail(const std::filesystem::path& file, const std::string& what) {
  throw InputError(file.string() + ": " + what);
}

ValueInfo value_info(const ::onnx::ValueInfoProto& v, const std::filesystem::path& file) {
  ValueInfo info;
  info.name = v.name();
  if (!v.type().has_tensor_type()) fail(file, "graph value '" + v.name() + "' is not a tensor");
  const auto& tt = v.type().tensor_type();
  info.elem_type = tt.elem_type();
  if (tt.has_shape()) {
    Shape s;
    bool known = true;
    for (const auto& d : tt.shape().dim()) {
      if (!d.has_dim_value() || d.dim_value() < 0) known = false;
      else s.push_back(static_cast<std::size_t>(d.dim_value()));
    }
    if (known) info.shape = std::move(s);
  }
  return info;
}

// input_0.pb, input_1.pb, ... (contiguous from 0).
std::vector<std::filesystem::path> numbered(const std::filesystem::path& dir, const std::string& stem) {
  std::vector<std::filesystem::path> files;
  for (int k = 0;; ++k) {
    auto p = dir / (stem + "_" + std::to_string(k) + ".pb");
    if (!std::filesystem::exists(p)) break;
    files.push_back(std::move(p));
  }
  return files;
}

void check_declared(const AnyTensor& t, const ValueInfo& v, const std::filesystem::path& file) {
  const int dt = static_cast<int>(data_type_of(t));
  if (dt != v.elem_type)
    fail(file, "element type " + data_type_name(dt) + " does not match the model's declared type " +
                   data_type_name(v.elem_type) + " for '" + v.name + "'");
  if (v.shape && *v.shape != shape_of(t))
    fail(file, "shape " + to_string(shape_of(t)) + " does not match the model's declared shape " +
                   to_string(*v.shape) + " for '" + v.name + "'");
}

std::vector<AnyTensor> load_all(const std::vector<std::filesystem::path>& files,
                                const std::vector<ValueInfo>& declared,
                                const std::filesystem::path& dir, const char* what) {
  if (files.size() != declared.size())
    fail(dir, "has " + std::to_string(files.size()) + " " + what + "_*.pb files but the model has " +
                  std::to_string(declared.size()) + " graph " + what + "s");
  std::vector<AnyTensor> r;
  for (std::size_t k = 0; k < files.size(); ++k) {
    r.push_back(load_tensor(files[k]));
    check_declared(r.back(), declared[k], files[k]);
  }
  return r;
}

}  // namespace

NodeModel load_node_model(const std::filesystem::path& model_onnx) {
  const std::string bytes = read_file(model_onnx);
  if (bytes.size() > static_cast<std::size_t>(INT_MAX)) fail(model_onnx, "larger than 2 GiB");
  ::onnx::ModelProto mp;
  if (!mp.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())))
    fail(model_onnx, "not a valid ONNX model (protobuf parsing failed: truncated or corrupt file)");
  if (!mp.has_graph()) fail(model_onnx, "the model has no graph");
  const auto& g = mp.graph();
  if (g.node_size() != 1)
    fail(model_onnx, "a node test has exactly one node; this graph has " + std::to_string(g.node_size()));
  const auto& node = g.node(0);
  NodeModel m;
  m.file = model_onnx;
  m.op_type = node.op_type();
  m.domain = node.domain() == "ai.onnx" ? "" : node.domain();
  bool found = false;
  for (const auto& os : mp.opset_import()) {
    const std::string d = os.domain() == "ai.onnx" ? "" : os.domain();
    if (d == m.domain) {
      m.opset = os.version();
      found = true;
    }
  }
  if (!found) fail(model_onnx, "no opset_import for the node's domain '" + m.domain + "'");
  m.node_inputs.assign(node.input().begin(), node.input().end());
  m.node_outputs.assign(node.output().begin(), node.output().end());
  for (const auto& a : node.attribute()) {
    if (a.type() == ::onnx::AttributeProto::INT) m.int_attributes[a.name()] = a.i();
    else m.other_attributes.push_back(a.name());
  }
  for (const auto& v : g.input()) {
    const bool initializer = std::any_of(g.initializer().begin(), g.initializer().end(),
                                         [&](const auto& i) { return i.name() == v.name(); });
    if (!initializer) m.graph_inputs.push_back(value_info(v, model_onnx));
  }
  for (const auto& v : g.output()) m.graph_outputs.push_back(value_info(v, model_onnx));
  return m;
}

NodeTest load_node_test(const std::filesystem::path& dir) {
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec))
    throw InputError(dir.string() + ": node test directory does not exist");
  NodeTest t;
  t.dir = dir;
  t.model = load_node_model(dir / "model.onnx");
  std::vector<std::filesystem::path> sets;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    if (e.is_directory() && e.path().filename().string().rfind("test_data_set_", 0) == 0)
      sets.push_back(e.path());
  std::sort(sets.begin(), sets.end());
  if (sets.empty()) throw InputError(dir.string() + ": no test_data_set_* directory");
  for (const auto& s : sets) {
    DataSet ds;
    ds.dir = s;
    ds.inputs = load_all(numbered(s, "input"), t.model.graph_inputs, s, "input");
    ds.outputs = load_all(numbered(s, "output"), t.model.graph_outputs, s, "output");
    t.data_sets.push_back(std::move(ds));
  }
  return t;
}

std::vector<AnyTensor> run_node(const NodeModel& m, const std::vector<AnyTensor>& inputs,
                                IntegerDivision integer_division) {
  if (!m.domain.empty()) throw InputError(m.file.string() + ": unsupported domain '" + m.domain + "'");
  // the operator table's entry (ONNX names are case-sensitive); the switch
  // below runs those that have a tensor operator (<symerr/ops/any.hpp>)
  const OpInfo* op = find_operator(m.op_type);
  if (!op || op->name != m.op_type) throw InputError(m.file.string() + ": unknown operator '" + m.op_type + "'");
  if (m.node_inputs.size() != op->arity || m.node_outputs.size() != 1)
    throw InputError(m.file.string() + ": " + m.op_type + " takes " + std::to_string(op->arity) +
                     " inputs and 1 output");
  if (m.graph_outputs.size() != m.node_outputs.size())
    throw InputError(m.file.string() + ": the graph has " + std::to_string(m.graph_outputs.size()) +
                     " outputs but its node produces " + std::to_string(m.node_outputs.size()));
  if (inputs.size() != m.graph_inputs.size())
    throw InputError(m.file.string() + ": " + std::to_string(inputs.size()) + " inputs given, the graph has " +
                     std::to_string(m.graph_inputs.size()));
  auto by_name = [&](const std::string& name) -> const AnyTensor& {
    for (std::size_t k = 0; k < m.graph_inputs.size(); ++k)
      if (m.graph_inputs[k].name == name) return inputs[k];
    throw InputError(m.file.string() + ": node input '" + name + "' is not a graph input");
  };
  BroadcastRule rule = OnnxMultidirectional{};
  if (m.opset < 7) {
    OnnxLegacy l;
    if (auto it = m.int_attributes.find("broadcast"); it != m.int_attributes.end()) l.broadcast = it->second != 0;
    if (auto it = m.int_attributes.find("axis"); it != m.int_attributes.end()) l.axis = it->second;
    rule = l;
  }
  const AnyTensor& a = by_name(m.node_inputs[0]);
  const AnyTensor& b = by_name(m.node_inputs[1]);
  const ElementwiseOptions o{rule};
  switch (op->id) {
    case OpId::Div: return {Div(a, b, DivOptions{rule, integer_division, FloatDivisionByZero::Ieee})};
    case OpId::Sub: return {Sub(a, b, o)};
    case OpId::Add: return {Add(a, b, o)};
    case OpId::Mul: return {Mul(a, b, o)};
    default: throw InputError(m.file.string() + ": unsupported operator '" + m.op_type + "' (no tensor operator)");
  }
}

NodeTestOutcome run_node_test(const NodeTest& t, IntegerDivision integer_division) {
  NodeTestOutcome r;
  for (const DataSet& ds : t.data_sets) {
    ++r.data_sets;
    const std::vector<AnyTensor> got = run_node(t.model, ds.inputs, integer_division);
    if (got.size() != ds.outputs.size())
      throw InputError(ds.dir.string() + ": " + std::to_string(ds.outputs.size()) +
                       " expected outputs, the node produces " + std::to_string(got.size()));
    for (std::size_t k = 0; k < ds.outputs.size(); ++k) {
      ++r.outputs_compared;
      std::string why;
      if (!bitwise_equal(got.at(k), ds.outputs[k], &why))
        r.mismatches.push_back((ds.dir.filename() / ("output_" + std::to_string(k) + ".pb")).string() +
                               ": " + why);
    }
  }
  return r;
}

}  // namespace symerr::onnx
