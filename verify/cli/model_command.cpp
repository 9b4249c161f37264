// symerr model: loads an ONNX model, analyses every tensor (enclosures, then
// concrete executions against the exact runner), decides ε per output and
// writes model_report.json and model_report.md into the report directory.
#include "model_command.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <fstream>
#include <iostream>

#include <CLI/CLI.hpp>

#include <symerr/onnx/model.hpp>
#include <symerr/onnx/tensor_proto.hpp>
#include <symerr/tensor_errors.hpp>

namespace symerr::cli {

namespace {

double number(const std::string& s, const std::string& what) {
  std::size_t used = 0;
  double v = 0;
  try {
    v = std::stod(s, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != s.size()) throw InputError(what + ": '" + s + "' is not a number");
  return v;
}

void parse_box(const std::string& spec, onnx::ModelOptions& opt) {
  const auto eq = spec.find('=');
  const std::string range = eq == std::string::npos ? spec : spec.substr(eq + 1);
  const auto comma = range.find(',');
  if (comma == std::string::npos) throw InputError("--box '" + spec + "': expected [NAME=]LO,HI");
  const std::pair<double, double> box{number(range.substr(0, comma), "--box " + spec),
                                      number(range.substr(comma + 1), "--box " + spec)};
  if (eq == std::string::npos) opt.default_box = box;
  else opt.boxes[spec.substr(0, eq)] = box;
}

void parse_point(const std::string& spec, onnx::ModelOptions& opt) {
  const auto eq = spec.find('=');
  if (eq == std::string::npos) throw InputError("--point '" + spec + "': expected NAME=FILE.pb");
  const AnyTensor t = onnx::load_tensor(spec.substr(eq + 1));
  const auto* f = std::get_if<Tensor<float>>(&t);
  if (!f) throw InputError(spec.substr(eq + 1) + ": the point must be a FLOAT tensor");
  opt.points[spec.substr(0, eq)] = *f;
}

// "NAME=A.pb,B.pb,...", repeatable and cumulative per input.
void parse_point_set(const std::string& spec, std::map<std::string, std::vector<std::filesystem::path>>& sets) {
  const auto eq = spec.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == spec.size())
    throw InputError("--point-set '" + spec + "': expected NAME=FILE.pb[,FILE.pb...]");
  auto& files = sets[spec.substr(0, eq)];
  std::size_t from = eq + 1;
  while (true) {
    const auto comma = spec.find(',', from);
    const std::string file = spec.substr(from, comma == std::string::npos ? std::string::npos : comma - from);
    if (file.empty()) throw InputError("--point-set '" + spec + "': an empty file name");
    files.emplace_back(file);
    if (comma == std::string::npos) break;
    from = comma + 1;
  }
}

void write(const std::filesystem::path& p, const std::string& text) {
  std::ofstream out(p);
  out << text;
  if (!out) throw InputError(p.string() + ": cannot write the report");
}

}  // namespace

ModelCommand add_model_command(CLI::App& app) {
  auto args = std::make_shared<ModelArgs>();
  ModelArgs& a = *args;
  CLI::App* c = app.add_subcommand("model", "Analyse a whole ONNX model in FP32: an enclosure of every tensor, "
                                            "concrete executions against an exact run, an epsilon verdict per output");
  c->add_option("model", a.model, "The .onnx file")->required();
  c->add_option("--box", a.boxes, "[NAME=]LO,HI: the real values of an input's elements (default 0,1)");
  c->add_option("--point", a.points, "NAME=FILE.pb: analyse at this FP32 input instead of a box");
  c->add_option("--point-set", a.point_sets,
                "NAME=A.pb,B.pb,...: analyse at each of these FP32 inputs (repeatable; point k takes the k-th "
                "file of every input named), the bounds per point and their maximum");
  c->add_option("--point-half-width", a.point_half_width,
                "H: around each point (--point, --point-set), the real values in [p - H, p + H] (default 0)");
  c->add_option("--input-error", a.input_error, "|computed - real| of every input element (default 0)");
  c->add_option("--domain", a.domain, "Enclosures: interval (default) or affine (correlations kept, slower)");
  c->add_option("--affine-terms", a.affine_terms, "Affine: the most noise symbols per form (default 48)");
  c->add_option("--epsilon", a.epsilon, "Absolute epsilon on every output element (a verdict per output)");
  c->add_option("--samples", a.samples, "Concrete executions (default 1000)");
  c->add_option("--seed", a.seed, "Seed of the sampled inputs");
  c->add_option("-o,--output", a.output, "Report directory (default ./report)");
  c->add_flag("--strict", a.strict, "Exit with 4 when a verdict is inconclusive (and nothing failed)");
  c->add_flag("-q,--quiet", a.quiet, "No progress on stderr");
  return {c, args};
}

// Exit status from the containment failures and the verdicts.
int exit_status(bool strict, bool failures, const std::vector<std::string>& verdicts) {
  const bool violated = failures || std::count(verdicts.begin(), verdicts.end(), "violated") > 0;
  const bool inconclusive = std::count(verdicts.begin(), verdicts.end(), "inconclusive") > 0;
  if (violated) return 1;
  return strict && inconclusive ? 4 : 0;
}

int model_command(const ModelArgs& a) {
  const onnx::Graph g = onnx::load_graph(a.model);
  onnx::ModelOptions opt;
  for (const auto& b : a.boxes) parse_box(b, opt);
  for (const auto& p : a.points) parse_point(p, opt);
  std::map<std::string, std::vector<std::filesystem::path>> sets;
  for (const auto& p : a.point_sets) parse_point_set(p, sets);
  opt.input_error = a.input_error;
  opt.point_half_width = a.point_half_width;
  opt.domain = a.domain;
  opt.affine_max_terms = a.affine_terms;
  if (!a.epsilon.empty()) opt.epsilon = number(a.epsilon, "--epsilon");
  opt.samples = a.samples;
  opt.seed = a.seed;
  opt.witness_dir = a.output;
  if (!a.quiet) opt.progress = [](const std::string& m) { std::fprintf(stderr, "symerr model: %s\n", m.c_str()); };
  const std::filesystem::path dir(a.output);
  std::vector<std::string> verdicts;
  bool failures = false;
  std::string md, json;
  if (!sets.empty()) {
    const std::vector<onnx::InputPoint> points = onnx::load_point_set(g, sets);
    const onnx::PointSetResult r = onnx::analyse_point_set(g, opt, points);
    json = onnx::point_set_json(g, opt, points, r), md = onnx::point_set_markdown(g, opt, points, r);
    for (const auto& o : r.outputs) verdicts.push_back(o.verdict);
    for (const auto& p : r.points) failures = failures || !p.containment_failures.empty();
  } else {
    const onnx::ModelResult r = onnx::analyse_model(g, opt);
    json = onnx::model_json(g, opt, r), md = onnx::model_markdown(g, opt, r);
    for (const auto& v : r.verdicts) verdicts.push_back(v.verdict);
    failures = !r.containment_failures.empty();
  }
  std::filesystem::create_directories(dir);
  write(dir / "model_report.json", json);
  write(dir / "model_report.md", md);
  std::cout << md;
  return exit_status(a.strict, failures, verdicts);
}

}  // namespace symerr::cli
