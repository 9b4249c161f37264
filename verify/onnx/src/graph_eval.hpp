// The graph evaluator, over any element type of graph_kernels.hpp: nodes in
// order, each output handed to a visitor, and every intermediate tensor
// freed after its last consumer (unless keep_all), so that memory is the
// live tensors', not the whole graph's.
#pragma once

#include <functional>
#include <map>
#include <string>

#include <symerr/onnx/graph.hpp>
#include <symerr/shape.hpp>

#include "graph_kernels_conv.hpp"
#include "graph_kernels_more.hpp"
#include "graph_kernels_norm.hpp"
#include "graph_kernels_shape.hpp"

namespace symerr::onnx {

/// Computes Graph::shapes (a float run on zero inputs) and checks the graph
/// outputs' declared shapes. @throws InputError naming the node.
void infer_shapes(Graph& g);

/// Tensors by name.
template <class T>
using Values = std::map<std::string, Tensor<T>>;

/// Called after each node with its index and each of its output tensors.
template <class T>
using NodeVisitor = std::function<void(std::size_t node, const std::string& tensor, const Tensor<T>& value)>;

namespace detail {

template <class T>
const Tensor<T>& operand(const Graph& g, const GraphNode& n, std::size_t i, Values<T>& vals) {
  if (i >= n.inputs.size() || n.inputs[i].empty())
    throw InputError("input " + std::to_string(i) + " is missing (" + std::to_string(n.inputs.size()) + " given)");
  const std::string& name = n.inputs[i];
  if (auto it = vals.find(name); it != vals.end()) return it->second;
  if (auto w = g.initializers.find(name); w != g.initializers.end()) {
    std::vector<T> v;
    v.reserve(w->second.size());
    for (const float x : w->second.values()) v.push_back(kernels::ScalarOps<T>::constant(x));
    return vals.emplace(name, Tensor<T>(w->second.shape(), std::move(v))).first->second;
  }
  if (g.int_constants.count(name))
    throw InputError("input '" + name + "' is an INT64 tensor where a FLOAT tensor is expected");
  throw InputError("input '" + name + "' has no value");
}

inline void arity(const GraphNode& n, std::size_t lo, std::size_t hi) {
  if (n.inputs.size() < lo || n.inputs.size() > hi)
    throw InputError("has " + std::to_string(n.inputs.size()) + " inputs, expected " + std::to_string(lo) +
                     (hi > lo ? " to " + std::to_string(hi) : std::string()));
  if (n.outputs.size() != 1)
    throw InputError("has " + std::to_string(n.outputs.size()) + " outputs, expected 1");
}

// Input i as integers (an INT64 or BOOL initializer or Constant); nullptr when omitted.
inline const std::vector<std::int64_t>* int_input(const Graph& g, const GraphNode& n, std::size_t i, const char* what) {
  if (i >= n.inputs.size() || n.inputs[i].empty()) return nullptr;
  const auto it = g.int_constants.find(n.inputs[i]);
  if (it == g.int_constants.end())
    throw InputError("input " + std::to_string(i) + " ('" + n.inputs[i] + "', " + what +
                     ") must be an INT64 or BOOL initializer or Constant (computed ones are not supported)");
  return &it->second;
}

inline const std::vector<std::int64_t>& required_ints(const Graph& g, const GraphNode& n, std::size_t i,
                                                     const char* what) {
  const auto* v = int_input(g, n, i, what);
  if (!v) throw InputError(std::string("the ") + what + " input (" + std::to_string(i) + ") is missing");
  return *v;
}

// Outputs beyond the first must be omitted ("" names): load_graph refuses the others.
inline void arity_one_output(const GraphNode& n, std::size_t lo, std::size_t hi) {
  if (n.inputs.size() < lo || n.inputs.size() > hi)
    throw InputError("has " + std::to_string(n.inputs.size()) + " inputs, expected " + std::to_string(lo) +
                     (hi > lo ? " to " + std::to_string(hi) : std::string()));
  for (std::size_t k = 1; k < n.outputs.size(); ++k)
    if (!n.outputs[k].empty()) throw InputError("output " + std::to_string(k) + " is not supported");
}

// The exponent of Pow must be a FLOAT initializer or Constant: the enclosures
// take one exact exponent per element.
// An INT64 exponent is taken as its FP32 value (|y| <= 2^24: exact).
template <class T>
Tensor<T> run_pow(const Graph& g, const GraphNode& n, const std::function<const Tensor<T>&(std::size_t)>& in) {
  arity(n, 2, 2);
  const std::string& y = n.inputs[1];
  if (const auto it = g.int_constants.find(y); it != g.int_constants.end()) {
    std::vector<T> v;
    for (const auto e : it->second) {
      if (e > (1 << 24) || e < -(1 << 24)) throw InputError("the exponent " + std::to_string(e) + " is not an FP32 value");
      v.push_back(kernels::ScalarOps<T>::constant(static_cast<double>(e)));
    }
    return kernels::binary(in(0), Tensor<T>(g.int_shapes.at(y), std::move(v)), kernels::pow_of<T>);
  }
  if (!g.initializers.count(y))
    throw InputError("the exponent '" + y + "' must be a FLOAT or INT64 initializer or Constant "
                     "(a computed exponent is not supported)");
  return kernels::binary(in(0), in(1), kernels::pow_of<T>);
}

template <class T>
std::vector<const Tensor<T>*> all_inputs(const GraphNode& n, const std::function<const Tensor<T>&(std::size_t)>& in) {
  std::vector<const Tensor<T>*> parts;
  for (std::size_t i = 0; i < n.inputs.size(); ++i) parts.push_back(&in(i));
  return parts;
}

template <class T>
Tensor<T> run_reduce(const Graph& g, const GraphNode& n, const Tensor<T>& x) {
  arity_one_output(n, 1, 2);
  const auto* axes_in = int_input(g, n, 1, "axes");
  const auto axes = axes_in ? *axes_in : n.ints_attr("axes", {});
  if (axes.empty() && n.int_attr("noop_with_empty_axes", 0) != 0) return x;
  const auto kind = n.op_type == "ReduceSum"    ? kernels::Reduction::Sum
                    : n.op_type == "ReduceMean" ? kernels::Reduction::Mean
                                                : kernels::Reduction::Max;
  return kernels::reduce(x, axes, n.int_attr("keepdims", 1) != 0, kind);
}

template <class T>
Tensor<T> run_clip(const Graph& g, const GraphNode& n, const std::function<const Tensor<T>&(std::size_t)>& in) {
  arity_one_output(n, 1, 3);
  auto bound = [&](std::size_t i, const char* a) -> std::optional<T> {
    if (g.opset < 11)
      return n.attributes.count(a) ? std::optional<T>(kernels::ScalarOps<T>::constant(n.float_attr(a, 0)))
                                   : std::nullopt;
    if (i >= n.inputs.size() || n.inputs[i].empty()) return std::nullopt;
    const Tensor<T>& t = in(i);
    if (t.size() != 1) throw InputError(std::string("the ") + a + " input is not a scalar: " + to_string(t.shape()));
    return t[0];
  };
  return kernels::clip(in(0), bound(1, "min"), bound(2, "max"));
}

template <class T>
Tensor<T> run_slice(const Graph& g, const GraphNode& n, const Tensor<T>& x) {
  if (g.opset < 10)
    return arity(n, 1, 1), kernels::slice(x, n.ints_attr("starts", {}), n.ints_attr("ends", {}), n.ints_attr("axes", {}), {});
  arity(n, 3, 5);
  const auto* axes = int_input(g, n, 3, "axes");
  const auto* steps = int_input(g, n, 4, "steps");
  return kernels::slice(x, required_ints(g, n, 1, "starts"), required_ints(g, n, 2, "ends"),
                        axes ? *axes : std::vector<std::int64_t>{}, steps ? *steps : std::vector<std::int64_t>{});
}

template <class T>
Tensor<T> run_pad(const Graph& g, const GraphNode& n, const std::function<const Tensor<T>&(std::size_t)>& in) {
  if (g.opset < 11)
    return arity(n, 1, 1), kernels::pad(in(0), n.ints_attr("pads", {}), {},
                                        kernels::ScalarOps<T>::constant(n.float_attr("value", 0)));
  arity(n, 2, 4);
  const auto* axes = int_input(g, n, 3, "axes");
  const bool has_value = n.inputs.size() > 2 && !n.inputs[2].empty();
  if (has_value && in(2).size() != 1) throw InputError("the constant_value input is not a scalar");
  return kernels::pad(in(0), required_ints(g, n, 1, "pads"), axes ? *axes : std::vector<std::int64_t>{},
                      has_value ? in(2)[0] : kernels::ScalarOps<T>::constant(0));
}

template <class T>
Tensor<T> run_dropout(const Graph& g, const GraphNode& n, const Tensor<T>& x) {
  arity_one_output(n, 1, 3);
  if (const auto* t = int_input(g, n, 2, "training_mode"); t && !t->empty() && (*t)[0] != 0)
    throw InputError("training_mode is true: only inference is supported (Dropout is the identity)");
  return x;
}

template <class T>
Tensor<T> run_layout(const Graph& g, const GraphNode& n, const std::function<const Tensor<T>&(std::size_t)>& in) {
  const std::string& op = n.op_type;
  auto axes = [&](std::size_t i) {
    const auto* a = int_input(g, n, i, "axes");
    return a ? *a : n.ints_attr("axes", {});
  };
  if (op == "Squeeze") return arity(n, 1, 2), kernels::squeeze(in(0), axes(1));
  if (op == "Unsqueeze") return arity(n, 1, 2), kernels::unsqueeze(in(0), axes(1));
  if (op == "Slice") return run_slice(g, n, in(0));
  if (op == "Pad") return run_pad(g, n, in);
  if (op == "Cast") return arity(n, 1, 1), in(0);
  if (op == "Dropout") return run_dropout(g, n, in(0));
  if (op == "Gather") {
    arity(n, 2, 2);
    const auto& idx = required_ints(g, n, 1, "indices");
    return kernels::gather(in(0), idx, g.int_shapes.at(n.inputs[1]), n.int_attr("axis", 0));
  }
  if (op == "Where") {
    arity(n, 3, 3);
    const auto& c = required_ints(g, n, 0, "condition");
    return kernels::where(c, g.int_shapes.at(n.inputs[0]), in(1), in(2));
  }
  throw InputError("operator " + op + " has no evaluator");
}

template <class T>
Tensor<T> run_op_more(const Graph& g, const GraphNode& n, Values<T>& vals) {
  const std::string& op = n.op_type;
  const std::function<const Tensor<T>&(std::size_t)> in = [&](std::size_t i) -> const Tensor<T>& {
    return operand(g, n, i, vals);
  };
  auto optional = [&](std::size_t i) -> const Tensor<T>* {
    return i < n.inputs.size() && !n.inputs[i].empty() ? &in(i) : nullptr;
  };
  if (op == "LayerNormalization") return arity_one_output(n, 2, 3), kernels::layer_norm(n, in(0), in(1), optional(2)).y;
  if (op == "Gelu") return arity(n, 1, 1), kernels::gelu(n, in(0));
  if (op == "Erf") return arity(n, 1, 1), kernels::unary(in(0), kernels::erf_of<T>);
  if (op == "Pow") return run_pow(g, n, in);
  if (op == "Clip") return run_clip(g, n, in);
  if (op == "Min" || op == "Max") return arity(n, 1, 1u << 20), kernels::min_max(all_inputs(n, in), op == "Max");
  if (op == "ReduceSum" || op == "ReduceMean" || op == "ReduceMax") return run_reduce(g, n, in(0));
  return run_layout(g, n, in);
}

template <class T>
Tensor<T> run_binary(const GraphNode& n, const Tensor<T>& a, const Tensor<T>& b) {
  const std::string& op = n.op_type;
  if (op == "Add") return kernels::binary(a, b, [](const T& x, const T& y) { return x + y; });
  if (op == "Sub") return kernels::binary(a, b, [](const T& x, const T& y) { return x - y; });
  if (op == "Mul") return kernels::binary(a, b, [](const T& x, const T& y) { return x * y; });
  return kernels::binary(a, b, [](const T& x, const T& y) { return x / y; });
}

template <class T>
Tensor<T> run_op(const Graph& g, const GraphNode& n, Values<T>& vals) {
  const std::string& op = n.op_type;
  auto in = [&](std::size_t i) -> const Tensor<T>& { return operand(g, n, i, vals); };
  auto optional = [&](std::size_t i) -> const Tensor<T>* {
    return i < n.inputs.size() && !n.inputs[i].empty() ? &in(i) : nullptr;
  };
  if (op == "Add" || op == "Sub" || op == "Mul" || op == "Div") return arity(n, 2, 2), run_binary(n, in(0), in(1));
  if (op == "Gemm") return arity(n, 2, 3), kernels::gemm(n, in(0), in(1), optional(2));
  if (op == "MatMul") return arity(n, 2, 2), kernels::matmul(in(0), in(1));
  if (op == "Conv") return arity(n, 2, 3), kernels::conv(n, in(0), in(1), optional(2));
  if (op == "Relu") return arity(n, 1, 1), kernels::unary(in(0), kernels::relu<T>);
  if (op == "Tanh") return arity(n, 1, 1), kernels::unary(in(0), kernels::tanh_of<T>);
  if (op == "Sigmoid") return arity(n, 1, 1), kernels::unary(in(0), kernels::sigmoid<T>);
  if (op == "Softmax") return arity(n, 1, 1), kernels::softmax(n, in(0));
  if (op == "AveragePool" || op == "MaxPool") return arity(n, 1, 1), kernels::pool(n, in(0), op == "MaxPool");
  if (op == "Flatten") return arity(n, 1, 1), kernels::flatten(n, in(0));
  if (op == "Neg") return arity(n, 1, 1), kernels::unary(in(0), kernels::neg<T>);
  if (op == "Abs") return arity(n, 1, 1), kernels::unary(in(0), kernels::abs_of<T>);
  if (op == "Exp") return arity(n, 1, 1), kernels::unary(in(0), kernels::exp_of<T>);
  if (op == "Log") return arity(n, 1, 1), kernels::unary(in(0), kernels::log_of<T>);
  if (op == "Sqrt") return arity(n, 1, 1), kernels::unary(in(0), kernels::sqrt_of<T>);
  if (op == "LeakyRelu") return arity(n, 1, 1), kernels::leaky_relu(n, in(0));
  if (op == "GlobalAveragePool") return arity(n, 1, 1), kernels::global_average_pool(in(0));
  if (op == "Transpose") return arity(n, 1, 1), kernels::transpose(n, in(0));
  if (op == "BatchNormalization")
    return arity(n, 5, 5), kernels::batch_norm(n, in(0), in(1), in(2), in(3), in(4));
  if (op == "Concat") {
    arity(n, 1, 1u << 20);
    std::vector<const Tensor<T>*> parts;
    for (std::size_t i = 0; i < n.inputs.size(); ++i) parts.push_back(&in(i));
    return kernels::concat(n, parts);
  }
  if (op == "Identity") return arity(n, 1, 1), in(0);
  if (op == "Reshape") {
    arity(n, 2, 2);
    const auto s = g.int_constants.find(n.inputs[1]);
    if (s == g.int_constants.end())
      throw InputError("the shape input '" + n.inputs[1] + "' must be an INT64 initializer or Constant");
    return kernels::reshape(n, in(0), s->second);
  }
  return run_op_more(g, n, vals);
}

// Every output of the node, in the order of n.outputs ("" ones included, to be skipped).
template <class T>
std::vector<Tensor<T>> run_node(const Graph& g, const GraphNode& n, Values<T>& vals) {
  if (n.op_type == "LayerNormalization" && n.outputs.size() > 1) {
    if (n.inputs.size() < 2 || n.inputs.size() > 3 || n.outputs.size() > 3)
      throw InputError("has " + std::to_string(n.inputs.size()) + " inputs and " + std::to_string(n.outputs.size()) +
                       " outputs, expected 2 to 3 of each");
    const Tensor<T>* bias = n.inputs.size() > 2 && !n.inputs[2].empty() ? &operand(g, n, 2, vals) : nullptr;
    auto r = kernels::layer_norm(n, operand(g, n, 0, vals), operand(g, n, 1, vals), bias);
    std::vector<Tensor<T>> out;
    out.push_back(std::move(r.y));
    out.push_back(std::move(r.mean));
    if (n.outputs.size() > 2) out.push_back(std::move(r.inv_std));
    return out;
  }
  std::vector<Tensor<T>> out;
  out.push_back(run_op(g, n, vals));
  return out;
}

}  // namespace detail

/// Evaluates every node; `values` holds the graph inputs on entry and the
/// graph outputs (every tensor when keep_all) on return.
/// @throws InputError naming the graph's source and the node.
template <class T>
Values<T> evaluate(const Graph& g, Values<T> values, const NodeVisitor<T>& visit, bool keep_all) {
  std::map<std::string, std::size_t> last_use;
  for (std::size_t k = 0; k < g.nodes.size(); ++k)
    for (const auto& name : g.nodes[k].inputs) last_use[name] = k;
  auto is_output = [&](const std::string& name) {
    for (const auto& o : g.outputs)
      if (o.name == name) return true;
    return false;
  };
  for (std::size_t k = 0; k < g.nodes.size(); ++k) {
    const GraphNode& n = g.nodes[k];
    try {
      std::vector<Tensor<T>> outs = detail::run_node(g, n, values);
      for (std::size_t i = 0; i < outs.size(); ++i) {
        if (n.outputs[i].empty()) continue;
        if (visit) visit(k, n.outputs[i], outs[i]);
        values.insert_or_assign(n.outputs[i], std::move(outs[i]));
      }
    } catch (const InputError& e) {
      throw InputError(g.source + ": " + g.describe(n) + ": " + e.what());
    } catch (const ShapeError& e) {
      throw InputError(g.source + ": " + g.describe(n) + ": " + e.what());
    }
    if (keep_all) continue;
    for (const auto& name : n.inputs)
      if (last_use[name] == k && !is_output(name)) values.erase(name);
  }
  return values;
}

}  // namespace symerr::onnx
