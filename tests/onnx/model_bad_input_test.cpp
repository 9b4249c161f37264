// Whole-model loading: every defect is an InputError naming the file, the
// node (name, op type, opset), the attribute or the tensor; the CLI exits 2.
#include <catch2/catch.hpp>

#include <functional>

#include <symerr/onnx/graph.hpp>
#include <symerr/onnx/model.hpp>
#include <symerr/tensor_errors.hpp>

#include "model_builder.hpp"

using namespace symerr;
namespace so = symerr::onnx;
using Catch::Matchers::Contains;

namespace {

std::string load_error(const std::string& bytes) {
  try {
    so::parse_graph(bytes, "m.onnx");
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("model loading: unsupported operator, attribute, value, opset", "[onnx][model]") {
  test::ModelBuilder b;
  b.input("x", {1, 4});
  b.node("Cos", {"x"}, {"y"}, "my_cos");
  b.output("y", {1, 4});
  const std::string e = load_error(b.bytes());
  CHECK_THAT(e, Contains("m.onnx: node 'my_cos' (Cos, opset 13): operator Cos is not supported (supported: Gemm"));

  test::ModelBuilder c;
  c.input("x", {1, 1, 4, 4});
  auto& n = c.node("MaxPool", {"x"}, {"y"}, "pool");
  test::ModelBuilder::attr(n, "kernel_shape", std::vector<std::int64_t>{2, 2});
  test::ModelBuilder::attr(n, "storage_order", 1);
  c.output("y", {1, 1, 3, 3});
  CHECK_THAT(load_error(c.bytes()), Contains("node 'pool' (MaxPool, opset 13): attribute 'storage_order' = 1 is not supported"));

  test::ModelBuilder d;
  d.input("x", {1, 4});
  test::ModelBuilder::attr(d.node("Relu", {"x"}, {"y"}, "r"), "alpha", 1);
  d.output("y", {1, 4});
  CHECK_THAT(load_error(d.bytes()), Contains("node 'r' (Relu, opset 13): attribute 'alpha' is not supported (Relu supports: none)"));

  test::ModelBuilder old(12);
  old.input("x", {1, 4});
  old.node("Softmax", {"x"}, {"y"}, "s");
  old.output("y", {1, 4});
  CHECK_THAT(load_error(old.bytes()), Contains("node 's' (Softmax, opset 12): Softmax before opset 13"));
  CHECK_THAT(load_error(test::ModelBuilder(22).bytes()), Contains("opset 22 is not supported"));
}

TEST_CASE("model loading: dynamic dimension, element type, malformed file, shape mismatch", "[onnx][model]") {
  test::ModelBuilder b;
  b.input("x", {1, 4});
  b.node("Relu", {"x"}, {"y"});
  b.output("y", {1, 4});
  auto* dim = b.proto().mutable_graph()->mutable_input(0)->mutable_type()->mutable_tensor_type()->mutable_shape()->mutable_dim(0);
  dim->set_dim_param("batch");
  CHECK_THAT(load_error(b.bytes()), Contains("graph input 'x': dimension 0 is dynamic ('batch')"));

  test::ModelBuilder h;
  h.input("x", {1, 4}, 10);  // FLOAT16
  h.node("Relu", {"x"}, {"y"});
  h.output("y", {1, 4});
  CHECK_THAT(load_error(h.bytes()), Contains("graph input 'x' has element type FLOAT16"));

  const std::string good = test::mlp(4, 3, 3, 2).bytes();
  CHECK_THAT(load_error(good.substr(0, good.size() / 2)), Contains("m.onnx: not a valid ONNX model"));
  CHECK_THAT(load_error("garbage"), Contains("m.onnx:"));

  test::ModelBuilder s;  // Gemm K mismatch
  s.input("x", {1, 5});
  s.weights("W", {3, 4});
  test::ModelBuilder::attr(s.node("Gemm", {"x", "W"}, {"y"}, "fc"), "transB", 1);
  s.output("y", {1, 3});
  CHECK_THAT(load_error(s.bytes()), Contains("node 'fc' (Gemm, opset 13): Gemm: A [1,5] and B [3,4] disagree on K"));

  test::ModelBuilder o;  // declared output shape wrong
  o.input("x", {1, 4});
  o.node("Relu", {"x"}, {"y"});
  o.output("y", {1, 5});
  CHECK_THAT(load_error(o.bytes()), Contains("graph output 'y' is declared [1,5] but its node computes [1,4]"));

  test::ModelBuilder u;  // an input nobody defines
  u.input("x", {1, 4});
  u.node("Add", {"x", "nowhere"}, {"y"}, "add");
  u.output("y", {1, 4});
  CHECK_THAT(load_error(u.bytes()), Contains("node 'add' (Add, opset 13): input 'nowhere' is not a graph input"));
}

TEST_CASE("model analysis: a box or point for an input the graph does not have", "[onnx][model]") {
  const so::Graph g = so::parse_graph(test::mlp(4, 3, 3, 2).bytes(), "m.onnx");
  so::ModelOptions opt;
  opt.boxes["image"] = {0.0, 1.0};
  CHECK_THROWS_WITH(so::analyse_model(g, opt), Contains("the graph has no input named 'image' (its inputs: 'x')"));
  opt.boxes.clear();
  opt.points.emplace("x", Tensor<float>(Shape{1, 3}, 0.0f));
  CHECK_THROWS_WITH(so::analyse_model(g, opt), Contains("the point of input 'x' has shape [1,3], the graph input [1,4]"));
}

// The operators of issue 42's second batch: an unsupported attribute value or
// spelling names the node, its op type and opset, and the attribute.
TEST_CASE("model loading: the refused attribute values of the new operators", "[onnx][model]") {
  auto one = [](std::int64_t opset, const std::string& op, const std::vector<std::string>& in,
                const std::function<void(::onnx::NodeProto&)>& set, std::vector<std::string> out = {"y"}) {
    test::ModelBuilder b(opset);
    b.input("x", {2, 4});
    b.int64s("axes", {1});
    set(b.node(op, in, out, "n"));
    b.output("y", {2, 4});
    return load_error(b.bytes());
  };
  using N = ::onnx::NodeProto;
  CHECK_THAT(one(20, "Gelu", {"x"}, [](N& n) { test::ModelBuilder::attr(n, "approximate", std::string("fast")); }),
             Contains("node 'n' (Gelu, opset 20): attribute 'approximate' = 'fast' (supported: none, tanh)"));
  CHECK_THAT(one(17, "Gelu", {"x"}, [](N&) {}), Contains("node 'n' (Gelu, opset 17): Gelu is an operator from opset 20"));
  CHECK_THAT(one(13, "Cast", {"x"}, [](N& n) { test::ModelBuilder::attr(n, "to", std::int64_t{10}); }),
             Contains("node 'n' (Cast, opset 13): attribute 'to' = 10 (FLOAT16) is not supported: the runner is FP32"));
  CHECK_THAT(one(13, "Pad", {"x", "axes"}, [](N& n) { test::ModelBuilder::attr(n, "mode", std::string("reflect")); }),
             Contains("node 'n' (Pad, opset 13): attribute 'mode' = 'reflect' is not supported (supported: constant)"));
  CHECK_THAT(one(13, "ReduceSum", {"x"}, [](N& n) { test::ModelBuilder::attr(n, "axes", std::vector<std::int64_t>{1}); }),
             Contains("node 'n' (ReduceSum, opset 13): attribute 'axes' is an input of ReduceSum from opset 13"));
  CHECK_THAT(one(13, "ReduceMean", {"x"}, [](N& n) { test::ModelBuilder::attr(n, "keepdims", std::int64_t{2}); }),
             Contains("node 'n' (ReduceMean, opset 13): attribute 'keepdims' = 2 is not supported"));
  CHECK_THAT(one(17, "LayerNormalization", {"x", "x"}, [](N& n) { test::ModelBuilder::attr(n, "stash_type", std::int64_t{11}); }),
             Contains("node 'n' (LayerNormalization, opset 17): attribute 'stash_type' = 11 is not supported"));
  CHECK_THAT(one(13, "Dropout", {"x"}, [](N&) {}, {"y", "mask"}),
             Contains("node 'n' (Dropout, opset 13): the mask output of Dropout is not supported"));
  CHECK_THAT(one(13, "Clip", {"x"}, [](N& n) { test::ModelBuilder::attr_f(n, "min", 0.0f); }),
             Contains("node 'n' (Clip, opset 13): attribute 'min' is an input of Clip from opset 11"));
  // evaluation-time refusals (found by the shape pass, before any analysis)
  CHECK_THAT(one(13, "Pow", {"x", "x"}, [](N&) {}),
             Contains("node 'n' (Pow, opset 13): the exponent 'x' must be a FLOAT or INT64 initializer or Constant"));
  CHECK_THAT(one(13, "Squeeze", {"x", "x"}, [](N&) {}),
             Contains("node 'n' (Squeeze, opset 13): input 1 ('x', axes) must be an INT64 or BOOL initializer"));
  test::ModelBuilder t(13);
  t.input("x", {2, 4});
  t.bools("on", {}, {1});
  t.node("Dropout", {"x", "", "on"}, {"y"}, "d");
  t.output("y", {2, 4});
  CHECK_THAT(load_error(t.bytes()), Contains("node 'd' (Dropout, opset 13): training_mode is true"));
}
