// The per-input mode over a set of points (docs/models.md): each point's
// bounds are those of a single-point run, the maximum over the set is
// reported with its point, the ε verdict holds over the set; bad point files
// are errors naming the file and the tensor.
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include <symerr/onnx/model.hpp>
#include <symerr/onnx/tensor_proto.hpp>
#include <symerr/tensor_errors.hpp>

using namespace symerr;
namespace so = symerr::onnx;
namespace fs = std::filesystem;
using Catch::Matchers::Contains;

namespace {

so::Graph small_mlp() { return so::load_graph(fs::path(SYMERR_TEST_DATA_DIR) / "models" / "mlp_16_12_8_4.onnx"); }

fs::path scratch(const std::string& name) {
  const fs::path d = fs::temp_directory_path() / ("symerr_point_set_" + name);
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

fs::path write_pb(const fs::path& p, const AnyTensor& t) {
  std::ofstream out(p, std::ios::binary);
  out << so::serialize_tensor(t, "x");
  REQUIRE(out);
  return p;
}

// Three points of [-1, 1]^16 of different magnitudes (the largest bound is not at point 0).
std::vector<fs::path> three_points(const fs::path& dir) {
  std::vector<fs::path> files;
  const double scale[3] = {0.25, 1.0, 0.5};
  for (int p = 0; p < 3; ++p) {
    std::vector<float> v(16);
    for (std::size_t k = 0; k < v.size(); ++k)
      v[k] = static_cast<float>(scale[p] * std::sin(1.0 + 0.7 * static_cast<double>(k) + p));
    files.push_back(write_pb(dir / ("p" + std::to_string(p) + ".pb"), Tensor<float>(Shape{1, 16}, std::move(v))));
  }
  return files;
}

const so::TensorSummary& tensor(const so::ModelResult& r, const std::string& name) {
  for (const auto& t : r.tensors)
    if (t.name == name) return t;
  FAIL("no tensor " << name);
  return r.tensors.front();
}

std::string point_set_error(const so::Graph& g, const std::map<std::string, std::vector<fs::path>>& files) {
  try {
    so::load_point_set(g, files);
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("model point set: per-point bounds are the single-point runs', the maximum is reported", "[onnx][model]") {
  const so::Graph g = small_mlp();
  const fs::path dir = scratch("three");
  const std::vector<fs::path> files = three_points(dir);
  const std::vector<so::InputPoint> points = so::load_point_set(g, {{"x", files}});
  REQUIRE(points.size() == 3);
  so::ModelOptions opt;
  opt.input_error = std::ldexp(1.0, -20);
  opt.samples = 50;
  opt.epsilon = 1.0;
  opt.witness_dir = dir / "report";
  const so::PointSetResult r = so::analyse_point_set(g, opt, points);
  REQUIRE(r.points.size() == 3);
  REQUIRE(r.outputs.size() == 1);

  double max_bound = -1;
  std::size_t at = 0;
  for (std::size_t k = 0; k < 3; ++k) {
    so::ModelOptions single = opt;
    single.points.emplace("x", std::get<Tensor<float>>(so::load_tensor(files[k])));
    const so::ModelResult s = so::analyse_model(g, single);
    INFO("point " << k);
    CHECK(r.points[k].mode == "point");
    REQUIRE(s.tensors.size() == r.points[k].tensors.size());
    for (std::size_t t = 0; t < s.tensors.size(); ++t) {
      CHECK(r.points[k].tensors[t].max_abs_err == s.tensors[t].max_abs_err);
      CHECK(r.points[k].tensors[t].observed == s.tensors[t].observed);
    }
    CHECK(r.points[k].containment_failures.empty());
    const double b = tensor(s, "y").max_abs_err;
    if (b > max_bound) max_bound = b, at = k;
  }
  CHECK(r.outputs[0].output == "y");
  CHECK(r.outputs[0].max_bound == max_bound);
  CHECK(r.outputs[0].at_point == at);
  CHECK(at != 0);  // the points differ enough for the maximum to move
  CHECK(tensor(r.points[0], "y").max_abs_err < max_bound);
  CHECK(r.outputs[0].verdict == "proven");

  const std::string md = so::point_set_markdown(g, opt, points, r);
  CHECK_THAT(md, Contains("## Over the point set"));
  CHECK_THAT(md, Contains("mode: point set, 3 points"));
  CHECK_THAT(md, Contains(files[2].string()));
  const auto js = nlohmann::json::parse(so::point_set_json(g, opt, points, r));
  CHECK(js["mode"] == "point-set");
  CHECK(js["point_half_width"] == 0.0);
  CHECK(js["outputs"][0]["max_bound"].get<double>() == max_bound);
  CHECK(js["outputs"][0]["at_point"].get<std::size_t>() == at);
  REQUIRE(js["points"].size() == 3);
  CHECK(js["points"][1]["files"]["x"] == files[1].string());
  CHECK(js["points"][1]["report"]["mode"] == "point");
}

TEST_CASE("model point set: the ε verdict over the set", "[onnx][model]") {
  const so::Graph g = small_mlp();
  const fs::path dir = scratch("verdict");
  const std::vector<so::InputPoint> points = so::load_point_set(g, {{"x", three_points(dir)}});
  so::ModelOptions opt;
  opt.input_error = std::ldexp(1.0, -20);
  opt.samples = 50;
  opt.witness_dir = dir / "report";
  opt.epsilon = 1.0;
  so::PointSetResult r = so::analyse_point_set(g, opt, points);
  const double lowest = tensor(r.points[0], "y").max_abs_err, highest = r.outputs[0].max_bound;
  REQUIRE(lowest < highest);

  // proven at one point, not at another: not proven over the set
  opt.epsilon = (lowest + highest) / 2;
  r = so::analyse_point_set(g, opt, points);
  CHECK(r.points[0].verdicts[0].verdict == "proven");
  CHECK(r.outputs[0].verdict != "proven");

  // below the largest observed error: violated, with the witness of that point saved under point_K
  double observed = 0;
  for (const auto& p : r.points) observed = std::max(observed, tensor(p, "y").observed);
  opt.epsilon = observed / 2;
  r = so::analyse_point_set(g, opt, points);
  REQUIRE(r.outputs[0].verdict == "violated");
  bool witness = false;
  for (std::size_t k = 0; k < 3; ++k)
    if (r.points[k].verdicts[0].verdict == "violated") {
      witness = fs::exists(dir / "report" / ("point_" + std::to_string(k)) / "witness_y_x.pb");
      CHECK(witness);
    }
  CHECK(witness);
}

TEST_CASE("model point set: bad point files name the file and the tensor", "[onnx][model]") {
  const so::Graph g = small_mlp();
  const fs::path dir = scratch("bad");
  const std::vector<fs::path> good = three_points(dir);
  const fs::path missing = dir / "missing.pb";
  CHECK_THAT(point_set_error(g, {{"x", {good[0], missing}}}), Contains(missing.string()));

  const fs::path dbl = write_pb(dir / "double.pb", Tensor<double>(Shape{1, 16}, 0.5));
  const std::string type = point_set_error(g, {{"x", {good[0], dbl}}});
  CHECK_THAT(type, Contains(dbl.string()));
  CHECK_THAT(type, Contains("input 'x' must be a FLOAT tensor, the file holds DOUBLE"));

  const fs::path wide = write_pb(dir / "wide.pb", Tensor<float>(Shape{1, 17}, 0.5f));
  const std::string shape = point_set_error(g, {{"x", {wide}}});
  CHECK_THAT(shape, Contains(wide.string()));
  CHECK_THAT(shape, Contains("input 'x' has shape [1,17], the graph input [1,16]"));

  const std::string name = point_set_error(g, {{"x", good}, {"image", good}});
  CHECK_THAT(name, Contains(good[0].string()));
  CHECK_THAT(name, Contains("no input named 'image'"));

  const fs::path garbage = dir / "garbage.pb";
  std::ofstream(garbage) << "not a tensor proto";
  CHECK_THAT(point_set_error(g, {{"x", {garbage}}}), Contains(garbage.string()));

  CHECK_THAT(point_set_error(g, {}), Contains("the point set is empty"));

  so::ModelOptions opt;
  opt.points.emplace("x", Tensor<float>(Shape{1, 16}, 0.5f));
  CHECK_THROWS_WITH(so::analyse_point_set(g, opt, so::load_point_set(g, {{"x", good}})),
                    Contains("input 'x' has both a fixed point and a point set"));
}

TEST_CASE("model point set: a box around each point, sound, its twin caught, wider than the point", "[onnx][model]") {
  const so::Graph g = small_mlp();
  const fs::path dir = scratch("halfwidth");
  const std::vector<so::InputPoint> points = so::load_point_set(g, {{"x", three_points(dir)}});
  so::ModelOptions opt;
  opt.input_error = std::ldexp(1.0, -20);
  opt.samples = 300;
  const so::PointSetResult at = so::analyse_point_set(g, opt, points);
  opt.point_half_width = 1e-3;
  const so::PointSetResult around = so::analyse_point_set(g, opt, points);
  for (std::size_t k = 0; k < 3; ++k) {
    INFO("point " << k);
    for (const auto& f : around.points[k].containment_failures) UNSCOPED_INFO(f);
    CHECK(around.points[k].containment_failures.empty());
    CHECK(around.points[k].elements_checked > 0);
    // the box around the point holds the point: its bound cannot be smaller
    CHECK(tensor(around.points[k], "y").max_abs_err >= tensor(at.points[k], "y").max_abs_err);
    const auto& x = tensor(around.points[k], "x");
    CHECK(x.real_hi - x.real_lo >= 2e-3);  // the input's range is the box, not the point
  }
  opt.enclosure_scale = 0.5;
  const so::PointSetResult twin = so::analyse_point_set(g, opt, points);
  std::size_t computed = 0;
  for (const auto& p : twin.points)
    for (const auto& [name, count] : p.failures_per_tensor) computed += name == "x" ? 0 : count;
  CHECK(computed > 0);
  opt.point_half_width = -1;
  CHECK_THROWS_WITH(so::analyse_point_set(g, opt, points), Contains("half-width"));
}
