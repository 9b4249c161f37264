// Whole-model analysis (docs/models.md): soundness of every tensor's
// enclosure against the exact runner on >= 10^3 concrete executions, with the
// halved-bound twin; the three ε verdicts with a reloaded witness.
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>

#include <symerr/onnx/model.hpp>
#include <symerr/onnx/tensor_proto.hpp>

#include "model_builder.hpp"
#include "test_scale.hpp"

using namespace symerr;
namespace so = symerr::onnx;
namespace so = symerr::onnx;

namespace {

so::Graph graph_of(const test::ModelBuilder& b, const std::string& name) { return so::parse_graph(b.bytes(), name); }

const so::TensorSummary& tensor(const so::ModelResult& r, const std::string& name) {
  for (const auto& t : r.tensors)
    if (t.name == name) return t;
  FAIL("no tensor " << name);
  return r.tensors.front();
}

void check_sound(const so::Graph& g, so::ModelOptions opt) {
  opt.samples = test::scaled(1000, 50);
  const so::ModelResult r = so::analyse_model(g, opt);
  INFO(g.source << ", input error " << opt.input_error);
  CHECK(r.samples_run == opt.samples);
  CHECK(r.elements_checked > r.samples_run * (r.tensors.size() - 1));
  for (const auto& f : r.containment_failures) UNSCOPED_INFO(f);
  CHECK(r.containment_failures.empty());
  for (const auto& t : r.tensors) {
    CHECK(std::isfinite(t.max_abs_err));
    CHECK(t.observed <= t.max_abs_err);
  }
  // twin: the same executions against the halved enclosures are caught
  opt.enclosure_scale = 0.5;
  opt.samples = test::scaled(200, 50);
  CHECK_FALSE(so::analyse_model(g, opt).containment_failures.empty());
}

}  // namespace

TEST_CASE("model: MLP with Relu, every tensor inside its enclosure on 10^3 executions", "[onnx][model]") {
  const so::Graph g = graph_of(test::mlp(16, 12, 8, 4), "mlp");
  CHECK(g.nodes.size() == 5);
  CHECK(g.shapes.at("r2") == Shape{1, 8});
  so::ModelOptions opt;
  opt.default_box = {-1.0, 1.0};
  check_sound(g, opt);
  opt.input_error = std::ldexp(1.0, -20);
  check_sound(g, opt);
}

TEST_CASE("model: LeNet-like conv net, every tensor inside its enclosure on 10^3 executions", "[onnx][model]") {
  const so::Graph g = graph_of(test::lenet_small(), "lenet_small");
  CHECK(g.shapes.at("a1") == Shape{1, 2, 4, 4});
  CHECK(g.shapes.at("f") == Shape{1, 3});
  so::ModelOptions opt;
  check_sound(g, opt);
  opt.input_error = std::ldexp(1.0, -20);
  check_sound(g, opt);
}

TEST_CASE("model: per-input-point mode is sound and tighter than the box", "[onnx][model]") {
  const so::Graph g = graph_of(test::mlp(16, 12, 8, 4), "mlp");
  so::ModelOptions opt;
  opt.default_box = {-1.0, 1.0};
  opt.samples = test::scaled(300, 30);
  opt.input_error = std::ldexp(1.0, -20);
  const double box_bound = tensor(so::analyse_model(g, opt), "y").max_abs_err;
  std::vector<float> p(16);
  for (std::size_t k = 0; k < p.size(); ++k) p[k] = static_cast<float>(k) / 16.0f - 0.5f;
  opt.points.emplace("x", Tensor<float>(Shape{1, 16}, p));
  const so::ModelResult r = so::analyse_model(g, opt);
  CHECK(r.mode == "point");
  CHECK(r.containment_failures.empty());
  CHECK(tensor(r, "y").max_abs_err < box_bound);
  CHECK(tensor(r, "y").observed > 0);
}

TEST_CASE("model: proven, violated (witness reloaded and replayed) and inconclusive verdicts", "[onnx][model]") {
  const so::Graph g = graph_of(test::mlp(16, 12, 8, 4), "mlp");
  so::ModelOptions opt;
  opt.default_box = {-1.0, 1.0};
  opt.samples = test::scaled(300, 50);
  opt.witness_dir = std::filesystem::path(SYMERR_BINARY_DIR) / "tests" / "model_witness";
  std::filesystem::remove_all(opt.witness_dir);

  opt.epsilon = 1e-3;
  so::ModelResult r = so::analyse_model(g, opt);
  REQUIRE(r.verdicts.size() == 1);
  CHECK(r.verdicts[0].verdict == "proven");
  const double bound = r.verdicts[0].bound, observed = r.verdicts[0].observed;
  REQUIRE(observed > 0);
  REQUIRE(observed < bound);

  opt.epsilon = (observed + bound) / 2;
  r = so::analyse_model(g, opt);
  CHECK(r.verdicts[0].verdict == "inconclusive");
  CHECK(r.verdicts[0].witness.empty());

  opt.epsilon = observed / 2;
  r = so::analyse_model(g, opt);
  REQUIRE(r.verdicts[0].verdict == "violated");
  REQUIRE(r.verdicts[0].witness.size() == 2);  // the computed (FLOAT) and real (DOUBLE) input
  const AnyTensor computed = so::load_tensor(opt.witness_dir / "witness_y_x.pb");
  const AnyTensor real = so::load_tensor(opt.witness_dir / "witness_y_x_real.pb");
  const auto replay = so::replay_error(g, {{"x", std::get<Tensor<float>>(computed)}},
                                         {{"x", std::get<Tensor<double>>(real)}});
  CHECK(replay.at("y") > *opt.epsilon);
  CHECK(replay.at("y") == observed);
}

TEST_CASE("model: the JSON and Markdown reports", "[onnx][model]") {
  const so::Graph g = graph_of(test::lenet_small(), "lenet_small");
  so::ModelOptions opt;
  opt.samples = 20;
  opt.epsilon = 1.0;
  const so::ModelResult r = so::analyse_model(g, opt);
  const std::string md = so::model_markdown(g, opt, r), js = so::model_json(g, opt, r);
  CHECK(md.find("| p | p_node | Softmax | [1,4]") != std::string::npos);
  CHECK(md.find("## Verdicts") != std::string::npos);
  CHECK(js.find("\"verdict\": \"proven\"") != std::string::npos);
}
