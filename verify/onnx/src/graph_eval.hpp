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
  throw InputError("operator " + op + " has no evaluator");
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
      Tensor<T> out = detail::run_op(g, n, values);
      if (visit) visit(k, n.outputs[0], out);
      values.insert_or_assign(n.outputs[0], std::move(out));
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
