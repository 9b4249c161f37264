// The whole-model report: JSON (machine-readable) and Markdown (for people).
#include <symerr/onnx/model.hpp>
#include <symerr/symbolic/accuracy.hpp>

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <set>
#include <sstream>

namespace symerr::onnx {

namespace {

// JSON has no infinity: unbounded numbers are the string "inf".
nlohmann::json number(double v) {
  if (std::isfinite(v)) return v;
  return std::isnan(v) ? "nan" : (v > 0 ? "inf" : "-inf");
}

std::string text(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

std::string ratio(double bound, double observed) {
  if (!std::isfinite(bound)) return "unbounded";
  if (observed <= 0) return bound == 0 ? "exact" : "-";
  return text(bound / observed);
}

// The libm functions the graph's operators call, with their bounds in the
// thread's accuracy model (the model is the one place that states them).
std::string elementary_functions(const Graph& g) {
  std::set<ElementaryFunction> used;
  for (const auto& n : g.nodes) {
    const std::string& op = n.op_type;
    if (op == "Exp" || op == "Softmax" || op == "Sigmoid") used.insert(ElementaryFunction::Exp);
    if (op == "Tanh" || (op == "Gelu" && n.string_attr("approximate", "none") == "tanh"))
      used.insert(ElementaryFunction::Tanh);
    if (op == "Erf" || (op == "Gelu" && n.string_attr("approximate", "none") == "none"))
      used.insert(ElementaryFunction::Erf);
    if (op == "Log") used.insert(ElementaryFunction::Log);
    if (op == "Pow") used.insert(ElementaryFunction::Pow);
  }
  const AccuracyModel& m = current_accuracy_model();
  std::string s = "the thread's accuracy model (" + m.name() + ")";
  std::string list;
  for (const ElementaryFunction f : used) {
    const UlpBound b = m.bound(f, FP32, RoundingMode::NearestEven);
    char ulps[32];
    std::snprintf(ulps, sizeof ulps, "%g", b.ulps);
    list += (list.empty() ? ": " : ", ") + std::string(elementary_name(f)) + "f " +
            (b.correctly_rounded ? std::string("correctly rounded")
                                         : "<= " + std::string(ulps) + (b.ulps == 1 ? " ulp" : " ulps"));
  }
  return s + (list.empty() ? ": none used" : list);
}

std::string hypotheses(const Graph& g, const ModelOptions& opt, const ModelResult& r) {
  std::ostringstream s;
  s << "- model: `" << g.source << "` (opset " << g.opset << ", " << g.nodes.size() << " nodes)\n"
    << "- format: FP32 everywhere, round to nearest even; evaluation order: symerr's reference runner "
       "(sequential reductions in index order, docs/models.md)\n"
    << "- elementary functions: " << elementary_functions(g) << "\n"
    << "- enclosures: " << (opt.domain == "affine" ? "SymbolicDomainError<Affine>, at most " +
                                                       std::to_string(opt.affine_max_terms) + " symbols per form"
                                                 : std::string("SymbolicError (intervals)"))
    << "\n- mode: " << r.mode << "; input error: |computed - real| <= " << opt.input_error << " per element\n";
  for (const auto& in : g.inputs) {
    if (opt.points.count(in.name)) {
      s << "- input `" << in.name << "` " << to_string(in.shape) << ": a given point";
      if (opt.point_half_width > 0) s << ", real values within " << opt.point_half_width << " of it per element";
      s << "\n";
      continue;
    }
    const auto it = opt.boxes.find(in.name);
    const auto box = it == opt.boxes.end() ? opt.default_box : it->second;
    s << "- input `" << in.name << "` " << to_string(in.shape) << ": real values in [" << box.first << ", "
      << box.second << "]\n";
  }
  s << "- concrete executions: " << r.samples_run << " (FP32 runner against the exact runner, MPFR 256 bits), "
    << r.elements_checked << " element checks, " << r.containment_failures.size() << " outside their enclosure\n";
  return s.str();
}

}  // namespace

std::string model_json(const Graph& g, const ModelOptions& opt, const ModelResult& r) {
  nlohmann::json j;
  j["model"] = g.source;
  j["opset"] = g.opset;
  j["format"] = "FP32";
  j["mode"] = r.mode;
  j["domain"] = opt.domain;
  j["input_error"] = opt.input_error;
  j["point_half_width"] = opt.point_half_width;
  j["samples"] = r.samples_run;
  j["elements_checked"] = r.elements_checked;
  j["containment_failures"] = r.containment_failures;
  j["tensors"] = nlohmann::json::array();
  for (const auto& t : r.tensors) {
    nlohmann::json x;
    x["name"] = t.name, x["node"] = t.node, x["op"] = t.op_type;
    x["shape"] = t.shape;
    x["real"] = {number(t.real_lo), number(t.real_hi)};
    x["fp"] = {number(t.fp_lo), number(t.fp_hi)};
    x["max_abs_err"] = number(t.max_abs_err);
    x["max_abs_err_at"] = t.max_abs_err_at;
    x["max_rel_err"] = number(t.max_rel_err);
    x["max_propagated"] = number(t.max_propagated);
    x["max_introduced"] = number(t.max_introduced);
    x["may_be_special"] = t.may_be_special;
    x["observed_max_abs_err"] = t.observed;
    j["tensors"].push_back(std::move(x));
  }
  j["verdicts"] = nlohmann::json::array();
  for (const auto& v : r.verdicts) {
    nlohmann::json w;
    w["output"] = v.output, w["verdict"] = v.verdict;
    w["bound"] = number(v.bound), w["epsilon"] = v.epsilon, w["observed"] = v.observed;
    w["witness"] = nlohmann::json::array();
    for (const auto& p : v.witness) w["witness"].push_back(p.string());
    j["verdicts"].push_back(std::move(w));
  }
  return j.dump(2) + "\n";
}

std::string model_markdown(const Graph& g, const ModelOptions& opt, const ModelResult& r) {
  std::ostringstream s;
  s << "# symerr model report\n\n## Hypotheses\n\n" << hypotheses(g, opt, r) << "\n";
  if (!r.verdicts.empty()) {
    s << "## Verdicts\n\n| output | verdict | bound | epsilon | largest observed |\n|---|---|---|---|---|\n";
    for (const auto& v : r.verdicts)
      s << "| " << v.output << " | " << v.verdict << " | " << text(v.bound) << " | " << text(v.epsilon) << " | "
        << text(v.observed) << " |\n";
    s << "\n";
  }
  s << "## Tensors\n\n| tensor | node | op | shape | fp range | bound max abs err | at | introduced | "
       "observed | bound / observed |\n|---|---|---|---|---|---|---|---|---|---|\n";
  for (const auto& t : r.tensors)
    s << "| " << t.name << " | " << t.node << " | " << t.op_type << " | " << to_string(t.shape) << " | ["
      << text(t.fp_lo) << ", " << text(t.fp_hi) << "] | " << text(t.max_abs_err) << " | " << t.max_abs_err_at
      << " | " << text(t.max_introduced) << " | " << text(t.observed) << " | " << ratio(t.max_abs_err, t.observed)
      << " |\n";
  if (!r.containment_failures.empty()) {
    s << "\n## Soundness failures (report a bug)\n\n";
    for (const auto& f : r.containment_failures) s << "- " << f << "\n";
  }
  return s.str();
}

namespace {

// The hypotheses of a point set: those of one point, with the set's mode and
// the executions of every point.
std::string set_hypotheses(const Graph& g, const ModelOptions& opt, const std::vector<InputPoint>& points,
                           const PointSetResult& r) {
  ModelOptions o = opt;
  ModelResult sum;
  sum.mode = "point set, " + std::to_string(points.size()) + " points (the bounds per point and their maximum)";
  for (const auto& [name, t] : points.front().inputs) o.points.insert_or_assign(name, t);
  for (const auto& p : r.points) {
    sum.samples_run += p.samples_run, sum.elements_checked += p.elements_checked;
    sum.containment_failures.insert(sum.containment_failures.end(), p.containment_failures.begin(),
                                    p.containment_failures.end());
  }
  return hypotheses(g, o, sum);
}

std::string files_of(const InputPoint& p) {
  std::string s;
  for (const auto& [name, file] : p.files) s += (s.empty() ? "" : ", ") + name + "=" + file;
  return s;
}

}  // namespace

std::string point_set_json(const Graph& g, const ModelOptions& opt, const std::vector<InputPoint>& points,
                           const PointSetResult& r) {
  nlohmann::json j;
  j["model"] = g.source, j["opset"] = g.opset, j["format"] = "FP32", j["mode"] = "point-set";
  j["domain"] = opt.domain, j["input_error"] = opt.input_error, j["point_half_width"] = opt.point_half_width;
  if (opt.epsilon) j["epsilon"] = *opt.epsilon;
  j["outputs"] = nlohmann::json::array();
  for (const auto& o : r.outputs) {
    nlohmann::json x;
    x["output"] = o.output, x["max_bound"] = number(o.max_bound), x["at_point"] = o.at_point;
    x["observed"] = o.observed;
    if (!o.verdict.empty()) x["verdict"] = o.verdict;
    j["outputs"].push_back(std::move(x));
  }
  j["points"] = nlohmann::json::array();
  for (std::size_t k = 0; k < r.points.size(); ++k) {
    ModelOptions o = opt;
    for (const auto& [name, t] : points[k].inputs) o.points.insert_or_assign(name, t);
    nlohmann::json p;
    p["index"] = k, p["files"] = points[k].files;
    p["report"] = nlohmann::json::parse(model_json(g, o, r.points[k]));
    j["points"].push_back(std::move(p));
  }
  return j.dump(2) + "\n";
}

std::string point_set_markdown(const Graph& g, const ModelOptions& opt, const std::vector<InputPoint>& points,
                               const PointSetResult& r) {
  std::ostringstream s;
  s << "# symerr model report\n\n## Hypotheses\n\n" << set_hypotheses(g, opt, points, r) << "\n"
    << "## Over the point set\n\n| output | verdict | max bound | at point | epsilon | largest observed |\n"
       "|---|---|---|---|---|---|\n";
  for (const auto& o : r.outputs)
    s << "| " << o.output << " | " << (o.verdict.empty() ? "-" : o.verdict) << " | " << text(o.max_bound) << " | "
      << o.at_point << " | " << (opt.epsilon ? text(*opt.epsilon) : "-") << " | " << text(o.observed) << " |\n";
  s << "\n## Per point\n\n| point | files |";
  for (const auto& o : r.outputs) s << " " << o.output << " bound | " << o.output << " observed |";
  s << " verdicts |\n|---|---|";
  for (std::size_t k = 0; k < r.outputs.size(); ++k) s << "---|---|";
  s << "---|\n";
  for (std::size_t k = 0; k < r.points.size(); ++k) {
    s << "| " << k << " | " << files_of(points[k]) << " |";
    std::string verdicts;
    for (const auto& o : r.outputs)
      for (const auto& t : r.points[k].tensors)
        if (t.name == o.output) s << " " << text(t.max_abs_err) << " | " << text(t.observed) << " |";
    for (const auto& v : r.points[k].verdicts) verdicts += (verdicts.empty() ? "" : ", ") + v.output + " " + v.verdict;
    s << " " << (verdicts.empty() ? "-" : verdicts) << " |\n";
  }
  for (std::size_t k = 0; k < r.points.size(); ++k)
    if (!r.points[k].containment_failures.empty()) {
      s << "\n## Soundness failures at point " << k << " (report a bug)\n\n";
      for (const auto& f : r.points[k].containment_failures) s << "- " << f << "\n";
    }
  return s.str();
}

}  // namespace symerr::onnx
