// analyse_model(): the symbolic run node by node (per-tensor summaries, the
// per-element enclosures kept for the checks), then the concrete executions
// (FP32 runner against the exact runner) checked against the enclosures, then
// the ε verdicts with re-checked, saved witnesses.
#include <symerr/onnx/model.hpp>

#include <symerr/onnx/tensor_proto.hpp>

#include <chrono>
#include <cmath>
#include <fstream>
#include <limits>
#include <random>
#include <sstream>

#include "model_runs.hpp"

namespace symerr::onnx {

namespace {

// Relative allowance for the exact runner's own rounding (2^-256 per
// division / exp / tanh, model_exact.hpp): a containment check passes within
// kOracleSlack·(|real| + 2^-126) beyond an enclosure's end.
const double kOracleSlack = std::ldexp(1.0, -200);

struct Encl {  // one element's enclosures
  double real_lo, real_hi, fp_lo, fp_hi, err_lo, err_hi;
  bool special;
};

using Enclosures = std::map<std::string, std::vector<Encl>>;


template <class D>
double mag_of(const D& i) {
  return std::max(std::fabs(i.lower()), std::fabs(i.upper()));
}

template <class D>
TensorSummary summarise(const std::string& name, const std::string& node, const std::string& op,
                        const Tensor<SymbolicDomainError<D>>& t, std::vector<Encl>* keep) {
  TensorSummary s{name, node, op, t.shape()};
  s.real_lo = s.fp_lo = std::numeric_limits<double>::infinity();
  s.real_hi = s.fp_hi = -std::numeric_limits<double>::infinity();
  if (keep) keep->reserve(t.size());
  for (std::size_t k = 0; k < t.size(); ++k) {
    const SymbolicDomainError<D>& x = t[k];
    const bool special = x.specials.may_be_nan || x.specials.may_be_pos_inf || x.specials.may_be_neg_inf ||
                         x.specials.may_be_undefined;
    s.may_be_special = s.may_be_special || special;
    s.real_lo = std::min(s.real_lo, x.real.lower()), s.real_hi = std::max(s.real_hi, x.real.upper());
    s.fp_lo = std::min(s.fp_lo, x.fp.lower()), s.fp_hi = std::max(s.fp_hi, x.fp.upper());
    const double e = mag_of(x.err);
    if (e > s.max_abs_err || k == 0) s.max_abs_err = e, s.max_abs_err_at = k;
    s.max_rel_err = std::max(s.max_rel_err, mag_of(x.rel_err));
    s.max_propagated = std::max(s.max_propagated, mag_of(x.propagated));
    s.max_introduced = std::max(s.max_introduced, mag_of(x.introduced));
    if (keep)
      keep->push_back({x.real.lower(), x.real.upper(), x.fp.lower(), x.fp.upper(), x.err.lower(), x.err.upper(),
                       special});
  }
  if (s.may_be_special) s.max_abs_err = std::numeric_limits<double>::infinity();
  return s;
}

const GraphValue& graph_input(const Graph& g, const std::string& name) {
  for (const auto& in : g.inputs)
    if (in.name == name) return in;
  std::string names;
  for (const auto& in : g.inputs) names += (names.empty() ? "'" : ", '") + in.name + "'";
  throw InputError(g.source + ": the graph has no input named '" + name + "' (its inputs: " + names + ")");
}

void check_options(const Graph& g, const ModelOptions& opt) {
  if (!(opt.input_error >= 0) || !std::isfinite(opt.input_error))
    throw InputError("the input error must be a finite number >= 0");
  if (opt.epsilon && !(*opt.epsilon >= 0)) throw InputError("epsilon must be >= 0");
  if (!(opt.point_half_width >= 0) || !std::isfinite(opt.point_half_width))
    throw InputError("the half-width of the box around a point must be a finite number >= 0");
  for (const auto& [name, box] : opt.boxes) {
    graph_input(g, name);
    if (!(box.first <= box.second) || !std::isfinite(box.first) || !std::isfinite(box.second))
      throw InputError("the box of input '" + name + "' is not a finite [lo, hi] with lo <= hi");
  }
  for (const auto& [name, p] : opt.points)
    if (graph_input(g, name).shape != p.shape())
      throw InputError("the point of input '" + name + "' has shape " + to_string(p.shape()) +
                       ", the graph input " + to_string(graph_input(g, name).shape));
}

std::pair<double, double> box_of(const ModelOptions& opt, const std::string& name) {
  const auto it = opt.boxes.find(name);
  return it == opt.boxes.end() ? opt.default_box : it->second;
}

// The real values element k of an input may take: its point (fixed), the
// box [p − h, p + h] around it, or the input's box.
struct ElementRange {
  bool fixed;
  double lo, hi;
};

ElementRange range_of(const ModelOptions& opt, const std::string& name, std::size_t k) {
  if (const auto p = opt.points.find(name); p != opt.points.end()) {
    const double x = p->second[k], h = opt.point_half_width;
    return {h == 0, x - h, x + h};
  }
  const auto [lo, hi] = box_of(opt, name);
  return {false, lo, hi};
}

template <class D>
Values<SymbolicDomainError<D>> symbolic_inputs(const Graph& g, const ModelOptions& opt) {
  using S = SymbolicDomainError<D>;
  Values<S> v;
  const double e = opt.input_error;
  for (const auto& in : g.inputs) {
    std::vector<S> xs;
    const std::size_t n = element_count(in.shape);
    xs.reserve(n);
    if (const auto p = opt.points.find(in.name); p != opt.points.end()) {
      for (std::size_t k = 0; k < n; ++k) {
        const ElementRange b = range_of(opt, in.name, k);
        xs.push_back(b.fixed ? S::computed(p->second[k], -e, e, FP32) : S::input(b.lo, b.hi, -e, e, FP32));
      }
    } else {
      const auto [lo, hi] = box_of(opt, in.name);
      for (std::size_t k = 0; k < n; ++k) xs.push_back(S::input(lo, hi, -e, e, FP32));
    }
    v.emplace(in.name, Tensor<S>(in.shape, std::move(xs)));
  }
  return v;
}

template <class D>
void symbolic_pass(const Graph& g, const ModelOptions& opt, ModelResult& r, Enclosures& encl) {
  using S = SymbolicDomainError<D>;
  Values<S> in = symbolic_inputs<D>(g, opt);
  for (const auto& [name, t] : in)
    r.tensors.push_back(summarise(name, "input", "", t, opt.check_every_tensor ? &encl[name] : nullptr));
  auto start = std::chrono::steady_clock::now();
  const NodeVisitor<S> visit = [&](std::size_t k, const std::string& name, const Tensor<S>& t) {
    const GraphNode& n = g.nodes[k];
    const bool keep = opt.check_every_tensor ||
                      std::any_of(g.outputs.begin(), g.outputs.end(), [&](const auto& o) { return o.name == name; });
    r.tensors.push_back(summarise(name, n.name, n.op_type, t, keep ? &encl[name] : nullptr));
    const auto now = std::chrono::steady_clock::now();
    r.tensors.back().node_seconds = std::chrono::duration<double>(now - start).count();
    start = now;
    if (opt.progress) {
      std::ostringstream m;
      m << "node " << (k + 1) << "/" << g.nodes.size() << " '" << n.name << "' " << n.op_type << ": "
        << t.size() << " elements, " << r.tensors.back().node_seconds << " s, max |err| "
        << r.tensors.back().max_abs_err;
      opt.progress(m.str());
    }
  };
  run_symbolic(g, std::move(in), visit, false);
}

// ---- concrete executions ---------------------------------------------------------

struct Sample {
  std::map<std::string, Tensor<float>> computed;
  std::map<std::string, Tensor<double>> real;
};

float float_in(double u, double lo, double hi) {
  float f = static_cast<float>(u);
  if (f < lo) f = std::nextafter(f, std::numeric_limits<float>::infinity());
  if (f > hi) f = std::nextafter(f, -std::numeric_limits<float>::infinity());
  return f;
}

// |f − r| <= e exactly, for doubles f and r.
bool within(double f, double r, double e) {
  const Exact d = Exact(f) - Exact(r);
  return mpfr_cmpabs(d.get(), Exact(e).get()) <= 0;
}

Sample draw(const Graph& g, const ModelOptions& opt, std::size_t s, std::mt19937_64& rng) {
  Sample out;
  const double e = opt.input_error;
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (const auto& in : g.inputs) {
    const std::size_t n = element_count(in.shape);
    std::vector<float> f(n);
    std::vector<double> r(n);
    const auto p = opt.points.find(in.name);
    for (std::size_t k = 0; k < n; ++k) {
      const auto [fixed, lo, hi] = range_of(opt, in.name, k);
      if (fixed) f[k] = p->second[k];
      else if (s % 4 == 1) f[k] = float_in(unit(rng) < 0.5 ? lo : hi, lo, hi);  // a corner of the box
      else f[k] = float_in(lo + (hi - lo) * unit(rng), lo, hi);
      const double cand = static_cast<double>(f[k]) - e * (2 * unit(rng) - 1);
      const bool in_box = fixed || (cand >= lo && cand <= hi);
      r[k] = in_box && within(f[k], cand, e) ? cand : f[k];
    }
    out.computed.emplace(in.name, Tensor<float>(in.shape, std::move(f)));
    out.real.emplace(in.name, Tensor<double>(in.shape, std::move(r)));
  }
  return out;
}

// The exact error f − r of one element, and whether it lies in its enclosures.
bool contained(float f, const Exact& r, const Encl& c, double scale, double& abs_err) {
  if (!std::isfinite(f)) {
    abs_err = std::numeric_limits<double>::infinity();
    return c.special;
  }
  const Exact err = Exact(f) - r;
  abs_err = std::fabs(err.to_double());
  const double rv = r.to_double(), slack = kOracleSlack * (std::fabs(rv) + std::ldexp(1.0, -126));
  const double elo = c.err_lo * scale - slack, ehi = c.err_hi * scale + slack;
  return f >= c.fp_lo && f <= c.fp_hi && rv >= c.real_lo - slack && rv <= c.real_hi + slack &&
         mpfr_cmp_d(err.get(), elo) >= 0 && mpfr_cmp_d(err.get(), ehi) <= 0;
}

Values<Exact> exact_inputs(const std::map<std::string, Tensor<double>>& real) {
  Values<Exact> v;
  for (const auto& [name, t] : real) {
    std::vector<Exact> xs(t.values().begin(), t.values().end());
    v.emplace(name, Tensor<Exact>(t.shape(), std::move(xs)));
  }
  return v;
}

// Directed executions: the sign of the gradient of each output element (the
// first kMaxDirected of each output) at the box's centre or the point, by
// forward differences of the binary64 run; the input errors (and in box mode
// the corner of the box) along that sign, and against it.
constexpr std::size_t kMaxDirected = 16;

using Gradient = std::map<std::string, std::vector<double>>;  // per graph input, per element

// The forward differences of every graph output element (the first
// kMaxDirected of each output) at `at`: one binary64 run per input element.
std::map<std::string, std::vector<Gradient>> gradients(const Graph& g, const Sample& at) {
  Values<double> base;
  for (const auto& [name, t] : at.computed)
    base.emplace(name, Tensor<double>(t.shape(), std::vector<double>(t.values().begin(), t.values().end())));
  const Values<double> y0 = run_double(g, base);
  std::map<std::string, std::vector<Gradient>> grad;
  for (const auto& o : g.outputs) grad[o.name].resize(std::min(kMaxDirected, y0.at(o.name).size()));
  for (auto& [name, t] : base)
    for (std::size_t k = 0; k < t.size(); ++k) {
      const double keep = t[k];
      t[k] = keep + std::ldexp(std::max(std::fabs(keep), 1.0), -12);
      const Values<double> y = run_double(g, base);
      t[k] = keep;
      for (auto& [out, rows] : grad)
        for (std::size_t e = 0; e < rows.size(); ++e) rows[e][name].push_back(y.at(out)[e] - y0.at(out)[e]);
    }
  return grad;
}

Sample directed(const ModelOptions& opt, const Sample& centre,
                const std::map<std::string, std::vector<double>>& grad, double sign) {
  Sample s = centre;
  const double e = opt.input_error;
  for (auto& [name, f] : s.computed) {
    Tensor<double>& r = s.real.at(name);
    for (std::size_t k = 0; k < f.size(); ++k) {
      const auto [point, lo, hi] = range_of(opt, name, k);
      const double d = sign * grad.at(name)[k] >= 0 ? 1.0 : -1.0;
      if (!point) f[k] = float_in(d > 0 ? hi : lo, lo, hi);
      const double cand = static_cast<double>(f[k]) - d * e;
      r[k] = (point || (cand >= lo && cand <= hi)) && within(f[k], cand, e) ? cand : f[k];
    }
  }
  return s;
}

Sample centre_of(const Graph& g, const ModelOptions& opt) {
  Sample c;
  for (const auto& in : g.inputs) {
    const auto p = opt.points.find(in.name);
    const auto [lo, hi] = box_of(opt, in.name);
    Tensor<float> f = p != opt.points.end() ? p->second
                                            : Tensor<float>(in.shape, float_in(lo + (hi - lo) / 2, lo, hi));
    c.real.emplace(in.name, Tensor<double>(in.shape, std::vector<double>(f.values().begin(), f.values().end())));
    c.computed.emplace(in.name, std::move(f));
  }
  return c;
}

struct Worst {  // per graph output, the sample of its largest observed error
  double error = -1;
  Sample sample;
};

void check_sample(const Graph& g, const ModelOptions& opt, const Sample& smp, const Enclosures& encl,
                  ModelResult& r, std::map<std::string, Worst>& worst) {
  const Values<float> f = run_float(g, Values<float>(smp.computed.begin(), smp.computed.end()), opt.check_every_tensor);
  const Values<Exact> x = run_exact(g, exact_inputs(smp.real), opt.check_every_tensor);
  for (TensorSummary& t : r.tensors) {
    const auto e = encl.find(t.name);
    const auto fv = f.find(t.name);
    const auto xv = x.find(t.name);
    if (e == encl.end() || fv == f.end() || xv == x.end()) continue;
    double tensor_max = 0;
    for (std::size_t k = 0; k < fv->second.size(); ++k) {
      double a = 0;
      const bool in = contained(fv->second[k], xv->second[k], e->second[k], opt.enclosure_scale, a);
      if (!in) ++r.failures_per_tensor[t.name];
      if (!in && r.containment_failures.size() < 20) {
        std::ostringstream m;
        m << "sample " << r.samples_run << ": tensor '" << t.name << "' element " << k << ": computed "
          << fv->second[k] << ", exact " << xv->second[k].to_double() << ", error " << a
          << " outside its enclosure [" << e->second[k].err_lo * opt.enclosure_scale << ", "
          << e->second[k].err_hi * opt.enclosure_scale << "]";
        r.containment_failures.push_back(m.str());
      }
      ++r.elements_checked;
      tensor_max = std::max(tensor_max, a);
    }
    t.observed = std::max(t.observed, tensor_max);
    if (worst.count(t.name) && tensor_max > worst[t.name].error) worst[t.name] = {tensor_max, smp};
  }
}

std::vector<std::filesystem::path> save_witness(const std::filesystem::path& dir, const std::string& output,
                                                const Sample& s) {
  std::vector<std::filesystem::path> files;
  if (dir.empty()) return files;
  std::filesystem::create_directories(dir);
  auto write = [&](const std::filesystem::path& p, const AnyTensor& t, const std::string& name) {
    std::ofstream out(p, std::ios::binary);
    out << serialize_tensor(t, name);
    if (!out) throw InputError(p.string() + ": cannot write the witness");
    files.push_back(p);
  };
  for (const auto& [name, t] : s.computed) write(dir / ("witness_" + output + "_" + name + ".pb"), t, name);
  for (const auto& [name, t] : s.real) write(dir / ("witness_" + output + "_" + name + "_real.pb"), t, name);
  return files;
}

void verdicts(const Graph& g, const ModelOptions& opt, ModelResult& r, const std::map<std::string, Worst>& worst) {
  if (!opt.epsilon) return;
  for (const auto& o : g.outputs) {
    const auto t = std::find_if(r.tensors.begin(), r.tensors.end(), [&](const auto& x) { return x.name == o.name; });
    OutputVerdict v{o.name, "inconclusive", t->max_abs_err, *opt.epsilon, t->observed, {}};
    if (t->max_abs_err <= *opt.epsilon) {
      v.verdict = "proven";
    } else if (const auto w = worst.find(o.name); w != worst.end() && w->second.error > *opt.epsilon) {
      // re-checked: replayed from the sample, and again from the saved files
      const double replay = replay_error(g, w->second.sample.computed, w->second.sample.real).at(o.name);
      if (replay > *opt.epsilon) {
        v.verdict = "violated";
        v.witness = save_witness(opt.witness_dir, o.name, w->second.sample);
      }
    }
    r.verdicts.push_back(std::move(v));
  }
}

}  // namespace

std::map<std::string, double> replay_error(const Graph& g, const std::map<std::string, Tensor<float>>& computed,
                                           const std::map<std::string, Tensor<double>>& real) {
  std::map<std::string, Tensor<double>> r = real;
  for (const auto& [name, t] : computed)
    if (!r.count(name)) r.emplace(name, Tensor<double>(t.shape(), std::vector<double>(t.values().begin(), t.values().end())));
  for (const auto& in : g.inputs)
    if (!computed.count(in.name) || computed.at(in.name).shape() != in.shape || r.at(in.name).shape() != in.shape)
      throw InputError(g.source + ": the replayed inputs do not give graph input '" + in.name + "' its shape " +
                       to_string(in.shape));
  const Values<float> f = run_float(g, Values<float>(computed.begin(), computed.end()), false);
  const Values<Exact> x = run_exact(g, exact_inputs(r), false);
  std::map<std::string, double> out;
  for (const auto& o : g.outputs) {
    double m = 0;
    const Tensor<float>& fo = f.at(o.name);
    for (std::size_t k = 0; k < fo.size(); ++k)
      m = std::max(m, std::isfinite(fo[k]) ? std::fabs((Exact(fo[k]) - x.at(o.name)[k]).to_double())
                                           : std::numeric_limits<double>::infinity());
    out[o.name] = m;
  }
  return out;
}

ModelResult analyse_model(const Graph& g, const ModelOptions& opt) {
  check_options(g, opt);
  ModelResult r;
  r.mode = opt.points.empty() ? "box" : "point";
  Enclosures encl;
  if (opt.domain == "affine") {
    AffineOptions ao;
    ao.max_terms = opt.affine_max_terms;
    AffineContext ctx(ao);
    AffineScope scope(ctx);
    symbolic_pass<Affine>(g, opt, r, encl);
  } else if (opt.domain == "interval") {
    symbolic_pass<Interval>(g, opt, r, encl);
  } else {
    throw InputError("domain '" + opt.domain + "' is not supported (interval, affine)");
  }
  std::map<std::string, Worst> worst;
  for (const auto& o : g.outputs) worst[o.name] = {};
  std::mt19937_64 rng(opt.seed);
  for (std::size_t s = 0; s < opt.samples; ++s) {
    check_sample(g, opt, draw(g, opt, s, rng), encl, r, worst);
    ++r.samples_run;
    if (opt.progress && (s + 1) % 100 == 0)
      opt.progress("concrete executions: " + std::to_string(s + 1) + "/" + std::to_string(opt.samples));
  }
  if (opt.directed) {
    const Sample c = centre_of(g, opt);
    for (const auto& [output, rows] : gradients(g, c))
      for (const Gradient& grad : rows)
        for (const double sign : {1.0, -1.0}) {
          check_sample(g, opt, directed(opt, c, grad, sign), encl, r, worst);
          ++r.samples_run, ++r.directed_run;
        }
  }
  verdicts(g, opt, r, worst);
  return r;
}

}  // namespace symerr::onnx
