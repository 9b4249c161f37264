// symerr model: loads an ONNX model, analyses every tensor (enclosures, then
// concrete executions against the exact runner), decides ε per output and
// writes model_report.json and model_report.md into the report directory.
#include "model_command.hpp"

#include <cstdio>
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

int model_command(const ModelArgs& a) {
  const onnx::Graph g = onnx::load_graph(a.model);
  onnx::ModelOptions opt;
  for (const auto& b : a.boxes) parse_box(b, opt);
  for (const auto& p : a.points) parse_point(p, opt);
  opt.input_error = a.input_error;
  opt.domain = a.domain;
  opt.affine_max_terms = a.affine_terms;
  if (!a.epsilon.empty()) opt.epsilon = number(a.epsilon, "--epsilon");
  opt.samples = a.samples;
  opt.seed = a.seed;
  opt.witness_dir = a.output;
  if (!a.quiet) opt.progress = [](const std::string& m) { std::fprintf(stderr, "symerr model: %s\n", m.c_str()); };
  const onnx::ModelResult r = onnx::analyse_model(g, opt);
  std::filesystem::create_directories(a.output);
  write(std::filesystem::path(a.output) / "model_report.json", onnx::model_json(g, opt, r));
  const std::string md = onnx::model_markdown(g, opt, r);
  write(std::filesystem::path(a.output) / "model_report.md", md);
  std::cout << md;
  bool violated = !r.containment_failures.empty(), inconclusive = false;
  for (const auto& v : r.verdicts) {
    violated = violated || v.verdict == "violated";
    inconclusive = inconclusive || v.verdict == "inconclusive";
  }
  if (violated) return 1;
  return a.strict && inconclusive ? 4 : 0;
}

}  // namespace symerr::cli
