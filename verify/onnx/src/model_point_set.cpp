// The per-input mode over a set of points (docs/models.md): load the points'
// .pb files with every defect named by file and tensor, analyse each point as
// analyse_model() does, and take per output the maximum bound and the ε
// verdict over the set.
#include <symerr/onnx/model.hpp>

#include <symerr/onnx/tensor_proto.hpp>

#include <algorithm>
#include <cmath>

namespace symerr::onnx {

namespace {

const GraphValue* find_input(const Graph& g, const std::string& name) {
  for (const auto& in : g.inputs)
    if (in.name == name) return &in;
  return nullptr;
}

Tensor<float> load_point(const Graph& g, const std::string& name, const std::filesystem::path& file) {
  const GraphValue* in = find_input(g, name);
  if (!in) {
    std::string names;
    for (const auto& i : g.inputs) names += (names.empty() ? "'" : ", '") + i.name + "'";
    throw InputError(file.string() + ": given for input '" + name + "', but " + g.source +
                     " has no input named '" + name + "' (its inputs: " + names + ")");
  }
  const AnyTensor t = load_tensor(file);  // names the file on any read or parse defect
  const auto* f = std::get_if<Tensor<float>>(&t);
  if (!f)
    throw InputError(file.string() + ": the point of input '" + name + "' must be a FLOAT tensor, the file holds " +
                     data_type_name(static_cast<int>(data_type_of(t))));
  if (f->shape() != in->shape)
    throw InputError(file.string() + ": the point of input '" + name + "' has shape " + to_string(f->shape()) +
                     ", the graph input " + to_string(in->shape));
  return *f;
}

}  // namespace

std::vector<InputPoint> load_point_set(const Graph& g,
                                       const std::map<std::string, std::vector<std::filesystem::path>>& files) {
  if (files.empty()) throw InputError("the point set is empty");
  const std::size_t n = files.begin()->second.size();
  for (const auto& [name, list] : files)
    if (list.size() != n || list.empty())
      throw InputError("the point set gives input '" + files.begin()->first + "' " + std::to_string(n) +
                       " files and input '" + name + "' " + std::to_string(list.size()) +
                       " (every input needs one file per point, at least one)");
  std::vector<InputPoint> points(n);
  for (const auto& [name, list] : files)
    for (std::size_t k = 0; k < n; ++k) {
      points[k].inputs.emplace(name, load_point(g, name, list[k]));
      points[k].files.emplace(name, list[k].string());
    }
  return points;
}

PointSetResult analyse_point_set(const Graph& g, const ModelOptions& opt, const std::vector<InputPoint>& points) {
  if (points.empty()) throw InputError("the point set is empty");
  PointSetResult r;
  for (const auto& o : g.outputs) r.outputs.push_back({o.name, 0, 0, 0, opt.epsilon ? "proven" : ""});
  for (std::size_t k = 0; k < points.size(); ++k) {
    ModelOptions o = opt;
    for (const auto& [name, t] : points[k].inputs) {
      if (opt.points.count(name))
        throw InputError("input '" + name + "' has both a fixed point and a point set");
      o.points.insert_or_assign(name, t);
    }
    if (!opt.witness_dir.empty()) o.witness_dir = opt.witness_dir / ("point_" + std::to_string(k));
    if (opt.progress)
      o.progress = [&opt, k, n = points.size()](const std::string& m) {
        opt.progress("point " + std::to_string(k + 1) + "/" + std::to_string(n) + ": " + m);
      };
    r.points.push_back(analyse_model(g, o));
    const ModelResult& p = r.points.back();
    for (PointSetOutput& out : r.outputs) {
      const auto t = std::find_if(p.tensors.begin(), p.tensors.end(), [&](const auto& x) { return x.name == out.output; });
      if (k == 0 || t->max_abs_err > out.max_bound || (std::isnan(t->max_abs_err) && !std::isnan(out.max_bound)))
        out.max_bound = t->max_abs_err, out.at_point = k;
      out.observed = std::max(out.observed, t->observed);
      for (const auto& v : p.verdicts)
        if (v.output == out.output && out.verdict != "violated" && v.verdict != "proven") out.verdict = v.verdict;
    }
  }
  return r;
}

}  // namespace symerr::onnx
