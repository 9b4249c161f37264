// Small ONNX models built in C++ with libonnx-dev's protobuf classes, for the
// whole-model tests: a builder, and the test models (an MLP with Relu, a
// LeNet-like conv net with Tanh / AveragePool / MaxPool / Softmax).
// Weights are fixed pseudo-random FP32 values in [-0.5, 0.5].
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <onnx/onnx_pb.h>

namespace symerr::test {

class ModelBuilder {
 public:
  explicit ModelBuilder(std::int64_t opset = 13, std::uint64_t seed = 7) : rng_(seed) {
    model_.set_ir_version(8);
    auto* o = model_.add_opset_import();
    o->set_domain("");
    o->set_version(opset);
    model_.mutable_graph()->set_name("test");
  }

  void input(const std::string& name, const std::vector<std::int64_t>& shape, int elem = 1) {
    value(model_.mutable_graph()->add_input(), name, shape, elem);
  }
  void output(const std::string& name, const std::vector<std::int64_t>& shape) {
    value(model_.mutable_graph()->add_output(), name, shape, 1);
  }
  // A FLOAT initializer of pseudo-random weights in [-0.5, 0.5].
  void weights(const std::string& name, const std::vector<std::int64_t>& shape) {
    auto* t = model_.mutable_graph()->add_initializer();
    t->set_name(name);
    t->set_data_type(1);
    std::int64_t n = 1;
    for (auto d : shape) t->add_dims(d), n *= d;
    std::uniform_real_distribution<double> u(-0.5, 0.5);
    for (std::int64_t k = 0; k < n; ++k) t->add_float_data(static_cast<float>(u(rng_)));
  }
  // A FLOAT initializer of the given values.
  void floats(const std::string& name, const std::vector<std::int64_t>& shape, const std::vector<float>& values) {
    auto* t = model_.mutable_graph()->add_initializer();
    t->set_name(name);
    t->set_data_type(1);
    for (auto d : shape) t->add_dims(d);
    for (auto v : values) t->add_float_data(v);
  }
  // A BOOL initializer (int32_data 0 / 1).
  void bools(const std::string& name, const std::vector<std::int64_t>& shape, const std::vector<int>& values) {
    auto* t = model_.mutable_graph()->add_initializer();
    t->set_name(name);
    t->set_data_type(9);
    for (auto d : shape) t->add_dims(d);
    for (auto v : values) t->add_int32_data(v);
  }
  static void attr_f(::onnx::NodeProto& n, const std::string& a, float v) {
    auto* x = n.add_attribute();
    x->set_name(a);
    x->set_type(::onnx::AttributeProto::FLOAT);
    x->set_f(v);
  }
  void int64s(const std::string& name, const std::vector<std::int64_t>& values) {
    auto* t = model_.mutable_graph()->add_initializer();
    t->set_name(name);
    t->set_data_type(7);
    t->add_dims(static_cast<std::int64_t>(values.size()));
    for (auto v : values) t->add_int64_data(v);
  }
  ::onnx::NodeProto& node(const std::string& op, const std::vector<std::string>& in,
                          const std::vector<std::string>& out, const std::string& name = {}) {
    auto* n = model_.mutable_graph()->add_node();
    n->set_op_type(op);
    n->set_name(name.empty() ? out.at(0) + "_node" : name);
    for (const auto& s : in) n->add_input(s);
    for (const auto& s : out) n->add_output(s);
    return *n;
  }
  static void attr(::onnx::NodeProto& n, const std::string& a, std::int64_t v) {
    auto* x = n.add_attribute();
    x->set_name(a);
    x->set_type(::onnx::AttributeProto::INT);
    x->set_i(v);
  }
  static void attr(::onnx::NodeProto& n, const std::string& a, const std::vector<std::int64_t>& v) {
    auto* x = n.add_attribute();
    x->set_name(a);
    x->set_type(::onnx::AttributeProto::INTS);
    for (auto i : v) x->add_ints(i);
  }
  static void attr(::onnx::NodeProto& n, const std::string& a, const std::string& v) {
    auto* x = n.add_attribute();
    x->set_name(a);
    x->set_type(::onnx::AttributeProto::STRING);
    x->set_s(v);
  }
  ::onnx::ModelProto& proto() { return model_; }
  std::string bytes() const { return model_.SerializeAsString(); }

 private:
  static void value(::onnx::ValueInfoProto* v, const std::string& name, const std::vector<std::int64_t>& shape,
                    int elem) {
    v->set_name(name);
    auto* tt = v->mutable_type()->mutable_tensor_type();
    tt->set_elem_type(elem);
    auto* s = tt->mutable_shape();
    for (auto d : shape) s->add_dim()->set_dim_value(d);
  }
  ::onnx::ModelProto model_;
  std::mt19937_64 rng_;
};

// MLP in -> Gemm(in, h1) -> Relu -> Gemm(h1, h2) -> Relu -> Gemm(h2, out).
inline ModelBuilder mlp(std::int64_t in, std::int64_t h1, std::int64_t h2, std::int64_t out) {
  ModelBuilder b;
  b.input("x", {1, in});
  b.weights("W1", {h1, in}), b.weights("B1", {h1});
  b.weights("W2", {h2, h1}), b.weights("B2", {h2});
  b.weights("W3", {out, h2}), b.weights("B3", {out});
  ModelBuilder::attr(b.node("Gemm", {"x", "W1", "B1"}, {"g1"}), "transB", 1);
  b.node("Relu", {"g1"}, {"r1"});
  ModelBuilder::attr(b.node("Gemm", {"r1", "W2", "B2"}, {"g2"}), "transB", 1);
  b.node("Relu", {"g2"}, {"r2"});
  ModelBuilder::attr(b.node("Gemm", {"r2", "W3", "B3"}, {"y"}), "transB", 1);
  b.output("y", {1, out});
  return b;
}

// LeNet-like: 1x1x8x8 -> Conv 1->2 3x3 pad 1 -> Tanh -> AveragePool 2x2 -> Conv 2->3 3x3 ->
// Relu -> MaxPool 2x2 -> Flatten -> Gemm 3->4 -> Sigmoid (y) and Softmax (p).
inline ModelBuilder lenet_small() {
  ModelBuilder b;
  b.input("x", {1, 1, 8, 8});
  b.weights("C1", {2, 1, 3, 3}), b.weights("CB1", {2});
  b.weights("C2", {3, 2, 3, 3}), b.weights("CB2", {3});
  b.weights("F", {4, 3}), b.weights("FB", {4});
  b.int64s("shape", {1, -1});
  ModelBuilder::attr(b.node("Conv", {"x", "C1", "CB1"}, {"c1"}), "pads", std::vector<std::int64_t>{1, 1, 1, 1});
  b.node("Tanh", {"c1"}, {"t1"});
  auto& ap = b.node("AveragePool", {"t1"}, {"a1"});
  ModelBuilder::attr(ap, "kernel_shape", std::vector<std::int64_t>{2, 2});
  ModelBuilder::attr(ap, "strides", std::vector<std::int64_t>{2, 2});
  b.node("Conv", {"a1", "C2", "CB2"}, {"c2"});
  b.node("Relu", {"c2"}, {"r2"});
  auto& mp = b.node("MaxPool", {"r2"}, {"m2"});
  ModelBuilder::attr(mp, "kernel_shape", std::vector<std::int64_t>{2, 2});
  ModelBuilder::attr(mp, "strides", std::vector<std::int64_t>{2, 2});
  b.node("Reshape", {"m2", "shape"}, {"f"});
  ModelBuilder::attr(b.node("Gemm", {"f", "F", "FB"}, {"g"}), "transB", 1);
  b.node("Sigmoid", {"g"}, {"y"});
  b.node("Softmax", {"g"}, {"p"});
  b.output("y", {1, 4});
  b.output("p", {1, 4});
  return b;
}

// A small CNN with BatchNormalization and the other operators: 1x2x6x6 ->
// Conv 2->3 3x3 -> BatchNormalization (var = Exp(weights) > 0) -> LeakyRelu 0.1 ->
// GlobalAveragePool -> Flatten -> Concat(Abs, Neg) -> Transpose -> Exp -> Sqrt (y), Log (z).
inline ModelBuilder cnn_bn() {
  ModelBuilder b;
  b.input("x", {1, 2, 6, 6});
  b.weights("C", {3, 2, 3, 3}), b.weights("S", {3}), b.weights("B", {3}), b.weights("M", {3}), b.weights("V", {3});
  b.node("Conv", {"x", "C"}, {"c"});
  b.node("Exp", {"V"}, {"var"});
  b.node("BatchNormalization", {"c", "S", "B", "M", "var"}, {"bn"});
  auto& lr = b.node("LeakyRelu", {"bn"}, {"lr"});
  auto* a = lr.add_attribute();
  a->set_name("alpha");
  a->set_type(::onnx::AttributeProto::FLOAT);
  a->set_f(0.1f);
  b.node("GlobalAveragePool", {"lr"}, {"gp"});
  b.node("Flatten", {"gp"}, {"f"});
  b.node("Abs", {"f"}, {"ab"});
  b.node("Neg", {"f"}, {"ng"});
  ModelBuilder::attr(b.node("Concat", {"ab", "ng"}, {"cat"}), "axis", 1);
  b.node("Transpose", {"cat"}, {"tr"});
  b.node("Exp", {"tr"}, {"e"});
  b.node("Sqrt", {"e"}, {"y"});
  b.node("Log", {"e"}, {"z"});
  b.output("y", {6, 1});
  b.output("z", {6, 1});
  return b;
}

// LeNet-5 (the shape): 1x1x32x32 -> Conv 1->6 5x5 -> Tanh -> AveragePool 2x2 ->
// Conv 6->16 5x5 -> Tanh -> AveragePool 2x2 -> Flatten -> Gemm 400->120 -> Tanh ->
// Gemm 120->84 -> Tanh -> Gemm 84->10 (logits) -> Softmax (y).
inline ModelBuilder lenet5() {
  ModelBuilder b;
  b.input("x", {1, 1, 32, 32});
  b.weights("C1", {6, 1, 5, 5}), b.weights("CB1", {6});
  b.weights("C2", {16, 6, 5, 5}), b.weights("CB2", {16});
  b.weights("F1", {120, 400}), b.weights("FB1", {120});
  b.weights("F2", {84, 120}), b.weights("FB2", {84});
  b.weights("F3", {10, 84}), b.weights("FB3", {10});
  auto pool = [&](const std::string& in, const std::string& out) {
    auto& n = b.node("AveragePool", {in}, {out});
    ModelBuilder::attr(n, "kernel_shape", std::vector<std::int64_t>{2, 2});
    ModelBuilder::attr(n, "strides", std::vector<std::int64_t>{2, 2});
  };
  b.node("Conv", {"x", "C1", "CB1"}, {"c1"});
  b.node("Tanh", {"c1"}, {"t1"});
  pool("t1", "p1");
  b.node("Conv", {"p1", "C2", "CB2"}, {"c2"});
  b.node("Tanh", {"c2"}, {"t2"});
  pool("t2", "p2");
  b.node("Flatten", {"p2"}, {"f"});
  ModelBuilder::attr(b.node("Gemm", {"f", "F1", "FB1"}, {"g1"}), "transB", 1);
  b.node("Tanh", {"g1"}, {"h1"});
  ModelBuilder::attr(b.node("Gemm", {"h1", "F2", "FB2"}, {"g2"}), "transB", 1);
  b.node("Tanh", {"g2"}, {"h2"});
  ModelBuilder::attr(b.node("Gemm", {"h2", "F3", "FB3"}, {"logits"}), "transB", 1);
  b.node("Softmax", {"logits"}, {"y"});
  b.output("logits", {1, 10});
  b.output("y", {1, 10});
  return b;
}

// Two layers with LayerNormalization and Gelu (opset 20): x 1x16 -> Gemm 16->12 ->
// LayerNormalization (scale, bias) -> Gelu -> Gemm 12->4 (y).
inline ModelBuilder ln_gelu() {
  ModelBuilder b(20);
  b.input("x", {1, 16});
  b.weights("W1", {12, 16}), b.weights("B1", {12});
  b.weights("S", {12}), b.weights("LB", {12});
  b.weights("W2", {4, 12}), b.weights("B2", {4});
  ModelBuilder::attr(b.node("Gemm", {"x", "W1", "B1"}, {"g1"}), "transB", 1);
  b.node("LayerNormalization", {"g1", "S", "LB"}, {"ln"});
  b.node("Gelu", {"ln"}, {"ge"});
  ModelBuilder::attr(b.node("Gemm", {"ge", "W2", "B2"}, {"y"}), "transB", 1);
  b.output("y", {1, 4});
  return b;
}

}  // namespace symerr::test
