// Whole-model analysis (docs/models.md): soundness of every tensor's
// enclosure against the exact runner on >= 10^3 concrete executions, with the
// halved-bound twin; the three ε verdicts with a reloaded witness.
#include <catch2/catch.hpp>

#include <cfenv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

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

// A fixed point in the box, for the per-point mode.
Tensor<float> point_of(const Shape& s, double lo, double hi) {
  std::vector<float> v(element_count(s));
  for (std::size_t k = 0; k < v.size(); ++k) v[k] = static_cast<float>(lo + (hi - lo) * ((k * 37 % 101) / 100.0));
  return Tensor<float>(s, std::move(v));
}

// Every tensor of >= 10^3 executions inside its enclosure; the twin: in the
// per-point mode (where bounds are close to the truth) the halved enclosures
// of computed tensors (not only the inputs') are caught.
void check_sound(const so::Graph& g, so::ModelOptions opt) {
  opt.samples = test::scaled(1000, 50);
  const so::ModelResult r = so::analyse_model(g, opt);
  INFO(g.source << ", input error " << opt.input_error);
  CHECK(r.samples_run - r.directed_run == opt.samples);
  CHECK(r.elements_checked > r.samples_run * (r.tensors.size() - 1));
  for (const auto& f : r.containment_failures) UNSCOPED_INFO(f);
  CHECK(r.containment_failures.empty());
  for (const auto& t : r.tensors) {
    CHECK(std::isfinite(t.max_abs_err));
    CHECK(t.observed <= t.max_abs_err);
  }
  opt.points.emplace(g.inputs[0].name, point_of(g.inputs[0].shape, opt.default_box.first, opt.default_box.second));
  opt.input_error = std::ldexp(1.0, -20);
  opt.samples = test::scaled(200, 50);
  CHECK(so::analyse_model(g, opt).containment_failures.empty());
  opt.enclosure_scale = 0.5;
  const so::ModelResult twin = so::analyse_model(g, opt);
  std::size_t computed = 0;
  for (const auto& [name, count] : twin.failures_per_tensor) computed += name == g.inputs[0].name ? 0 : count;
  CHECK(computed > 0);
}

// check_sound at input error 0 and at 2^-20.
void check_sound_both_errors(const so::Graph& g, so::ModelOptions opt) {
  for (const double e : {0.0, std::ldexp(1.0, -20)}) {
    opt.input_error = e;
    check_sound(g, opt);
  }
}

}  // namespace

TEST_CASE("model: MLP with Relu, every tensor inside its enclosure on 10^3 executions", "[onnx][model]") {
  const so::Graph g = graph_of(test::mlp(16, 12, 8, 4), "mlp");
  CHECK(g.nodes.size() == 5);
  CHECK(g.shapes.at("r2") == Shape{1, 8});
  so::ModelOptions opt;
  opt.default_box = {-1.0, 1.0};
  check_sound_both_errors(g, opt);
}

TEST_CASE("model: LeNet-like conv net, every tensor inside its enclosure on 10^3 executions", "[onnx][model]") {
  const so::Graph g = graph_of(test::lenet_small(), "lenet_small");
  CHECK(g.shapes.at("a1") == Shape{1, 2, 4, 4});
  CHECK(g.shapes.at("f") == Shape{1, 3});
  so::ModelOptions opt;
  check_sound_both_errors(g, opt);
}

TEST_CASE("model: CNN with BatchNormalization and the other operators, inside its enclosures", "[onnx][model]") {
  const so::Graph g = graph_of(test::cnn_bn(), "cnn_bn");
  CHECK(g.shapes.at("gp") == Shape{1, 3, 1, 1});
  CHECK(g.shapes.at("tr") == Shape{6, 1});
  so::ModelOptions opt;
  opt.default_box = {-1.0, 1.0};
  check_sound_both_errors(g, opt);
}

TEST_CASE("model: two layers with LayerNormalization and Gelu, inside their enclosures", "[onnx][model]") {
  const so::Graph g = so::load_graph(std::filesystem::path(SYMERR_TEST_DATA_DIR) / "models" / "ln_gelu.onnx");
  CHECK(g.opset == 20);
  CHECK(g.shapes.at("ln") == Shape{1, 12});
  so::ModelOptions opt;
  opt.default_box = {-1.0, 1.0};
  check_sound_both_errors(g, opt);
  opt.domain = "affine";
  opt.input_error = std::ldexp(1.0, -20);
  check_sound(g, opt);
  if (std::getenv("SYMERR_PRINT_RATIOS"))  // the bound / observed figures of docs/models.md
    for (const char* domain : {"interval", "affine"})
      for (const bool point : {false, true}) {
        opt.domain = domain;
        opt.samples = 1000;
        if (point) opt.points.emplace("x", point_of(Shape{1, 16}, -1.0, 1.0));
        for (const auto& t : so::analyse_model(g, opt).tensors)
          std::printf("ln_gelu %s %s: %s bound %.3g observed %.3g ratio %.3g\n", domain, point ? "point" : "box",
                      t.name.c_str(), t.max_abs_err, t.observed, t.max_abs_err / t.observed);
        opt.points.clear();
      }
}

TEST_CASE("model: the Affine domain, inside its enclosures, exact at a point of the MLP", "[onnx][model]") {
  for (const char* name : {"mlp", "lenet_small", "cnn_bn"}) {
    const so::Graph g = graph_of(std::string(name) == "mlp" ? test::mlp(16, 12, 8, 4)
                                 : std::string(name) == "cnn_bn" ? test::cnn_bn() : test::lenet_small(), name);
    so::ModelOptions opt;
    opt.domain = "affine";
    opt.default_box = {-1.0, 1.0};
    opt.input_error = std::ldexp(1.0, -20);
    check_sound(g, opt);
  }
  // per point, the MLP's output bound is the error the directed execution reaches
  const so::Graph g = graph_of(test::mlp(16, 12, 8, 4), "mlp");
  so::ModelOptions opt;
  opt.domain = "affine";
  opt.input_error = std::ldexp(1.0, -20);
  opt.samples = 20;
  opt.points.emplace("x", point_of(Shape{1, 16}, -1.0, 1.0));
  const so::ModelResult affine = so::analyse_model(g, opt);
  const so::TensorSummary& y = tensor(affine, "y");
  CHECK(y.max_abs_err <= 1.01 * y.observed);
  opt.domain = "interval";
  const so::ModelResult interval = so::analyse_model(g, opt);
  CHECK(tensor(interval, "y").max_abs_err > 2 * y.observed);
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

// The checked-in models of tests/data/models are these builders' output:
// `SYMERR_WRITE_MODELS=1 test_onnx "[write-models]"` rewrites them; this test
// keeps them in step.
TEST_CASE("model: the checked-in test models are the builders' output", "[onnx][model]") {
  const std::filesystem::path dir = std::filesystem::path(SYMERR_TEST_DATA_DIR) / "models";
  CHECK(so::read_file(dir / "mlp_16_12_8_4.onnx") == test::mlp(16, 12, 8, 4).bytes());
  CHECK(so::read_file(dir / "mlp_784_128_64_10.onnx") == test::mlp(784, 128, 64, 10).bytes());
  CHECK(so::read_file(dir / "lenet_small.onnx") == test::lenet_small().bytes());
  CHECK(so::read_file(dir / "lenet5.onnx") == test::lenet5().bytes());
  CHECK(so::read_file(dir / "cnn_bn.onnx") == test::cnn_bn().bytes());
  CHECK(so::read_file(dir / "ln_gelu.onnx") == test::ln_gelu().bytes());
}

TEST_CASE("model: write the test models into tests/data/models", "[.][write-models]") {
  if (!std::getenv("SYMERR_WRITE_MODELS")) {
    SUCCEED("set SYMERR_WRITE_MODELS=1 to rewrite the models");
    return;
  }
  const std::filesystem::path dir = std::filesystem::path(SYMERR_TEST_DATA_DIR) / "models";
  std::filesystem::create_directories(dir);
  auto write = [&](const char* name, const test::ModelBuilder& b) {
    std::ofstream out(dir / name, std::ios::binary);
    out << b.bytes();
    REQUIRE(out);
  };
  write("mlp_16_12_8_4.onnx", test::mlp(16, 12, 8, 4));
  write("mlp_784_128_64_10.onnx", test::mlp(784, 128, 64, 10));
  write("lenet_small.onnx", test::lenet_small());
  write("lenet5.onnx", test::lenet5());
  write("cnn_bn.onnx", test::cnn_bn());
  write("ln_gelu.onnx", test::ln_gelu());
}

// The library owns its floating-point environment: the FP32 runner gives the
// same outputs under a caller's round-toward-zero.
TEST_CASE("model: the FP32 runner ignores the caller's rounding mode", "[onnx][model]") {
  const so::Graph g = graph_of(test::lenet_small(), "lenet_small");
  const std::map<std::string, Tensor<float>> in{{"x", point_of(Shape{1, 1, 8, 8}, 0.0, 1.0)}};
  const auto nearest = so::run_fp32(g, in);
  std::fesetround(FE_TOWARDZERO);
  const auto toward_zero = so::run_fp32(g, in);
  std::fesetround(FE_TONEAREST);
  for (const char* o : {"y", "p"})
    for (std::size_t k = 0; k < 4; ++k) CHECK(nearest.at(o)[k] == toward_zero.at(o)[k]);
}
