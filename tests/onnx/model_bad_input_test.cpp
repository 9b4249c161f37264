// Whole-model loading: every defect is an InputError naming the file, the
// node (name, op type, opset), the attribute or the tensor; the CLI exits 2.
#include <catch2/catch.hpp>

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
