// The FP32 reference runner, the exact runner and the shape pass.
#include "model_runs.hpp"

#include <symerr/fp_environment.hpp>
#include <symerr/onnx/model.hpp>

namespace symerr::onnx {

// The FP32 and binary64 runs own their floating-point environment (round to
// nearest, no FTZ/DAZ), whatever the caller's: the enclosures assume it.
Values<float> run_float(const Graph& g, Values<float> inputs, bool keep_all) {
  const FpEnvironmentGuard guard;
  return evaluate<float>(g, std::move(inputs), {}, keep_all);
}

Values<double> run_double(const Graph& g, Values<double> inputs) {
  const FpEnvironmentGuard guard;
  return evaluate<double>(g, std::move(inputs), {}, false);
}

Values<Exact> run_exact(const Graph& g, Values<Exact> inputs, bool keep_all) {
  return evaluate<Exact>(g, std::move(inputs), {}, keep_all);
}

namespace {

template <class In>
void check_inputs(const Graph& g, const std::map<std::string, Tensor<In>>& inputs) {
  for (const auto& in : g.inputs) {
    const auto it = inputs.find(in.name);
    if (it == inputs.end()) throw InputError(g.source + ": no value for graph input '" + in.name + "'");
    if (it->second.shape() != in.shape)
      throw InputError(g.source + ": graph input '" + in.name + "' is " + to_string(in.shape) + ", the value " +
                       to_string(it->second.shape()));
  }
}

// A graph output that is an initializer or a Constant (no node computes it).
template <class T>
void add_constant_outputs(const Graph& g, Values<T>& out) {
  for (const auto& o : g.outputs)
    if (!out.count(o.name) && g.initializers.count(o.name)) {
      const Tensor<float>& w = g.initializers.at(o.name);
      std::vector<T> v;
      for (const float x : w.values()) v.push_back(kernels::ScalarOps<T>::constant(x));
      out.emplace(o.name, Tensor<T>(w.shape(), std::move(v)));
    }
}

}  // namespace

std::map<std::string, Tensor<float>> run_fp32(const Graph& g, const std::map<std::string, Tensor<float>>& inputs) {
  check_inputs(g, inputs);
  Values<float> v = run_float(g, inputs, false);
  add_constant_outputs(g, v);
  std::map<std::string, Tensor<float>> out;
  for (const auto& o : g.outputs) out.emplace(o.name, v.at(o.name));
  return out;
}

std::map<std::string, Tensor<double>> run_exact_to_double(const Graph& g,
                                                          const std::map<std::string, Tensor<double>>& inputs) {
  check_inputs(g, inputs);
  Values<Exact> in;
  for (const auto& [name, t] : inputs)
    in.emplace(name, Tensor<Exact>(t.shape(), std::vector<Exact>(t.values().begin(), t.values().end())));
  Values<Exact> v = run_exact(g, std::move(in), false);
  add_constant_outputs(g, v);
  std::map<std::string, Tensor<double>> out;
  for (const auto& o : g.outputs) {
    const Tensor<Exact>& t = v.at(o.name);
    std::vector<double> d;
    for (std::size_t k = 0; k < t.size(); ++k) d.push_back(t[k].to_double());
    out.emplace(o.name, Tensor<double>(t.shape(), std::move(d)));
  }
  return out;
}

void infer_shapes(Graph& g) {
  Values<float> zeros;
  for (const auto& in : g.inputs) {
    element_count(in.shape, "graph input '" + in.name + "'");
    zeros.emplace(in.name, Tensor<float>(in.shape, 0.0f));
    g.shapes[in.name] = in.shape;
  }
  for (const auto& [name, t] : g.initializers) g.shapes[name] = t.shape();
  const NodeVisitor<float> record = [&](std::size_t, const std::string& name, const Tensor<float>& t) {
    g.shapes[name] = t.shape();
  };
  evaluate<float>(g, std::move(zeros), record, false);
  for (const auto& o : g.outputs)
    if (g.shapes.at(o.name) != o.shape)
      throw InputError(g.source + ": graph output '" + o.name + "' is declared " + to_string(o.shape) +
                       " but its node computes " + to_string(g.shapes.at(o.name)));
}

}  // namespace symerr::onnx
