// The kernel driver (see driver.hpp for the model and its soundness argument).
#include <symerr/verify/symbolic/driver.hpp>

#include <algorithm>
#include <optional>
#include <sstream>
#include <stdexcept>

namespace symerr::verify {
namespace {

using S = SymbolicError;

// One undecided comparison's outcome on a path.
struct Step {
  bool ideal;
  bool computed;
};

enum class Role : unsigned char { Joint, Real, Computed };

// A path of one lane: the outcomes of its undecided comparisons in order of
// occurrence. Real/Computed items belong to the unstable group `group`, whose
// ideal and computed outcomes first differ at step `diverge`.
struct Item {
  std::vector<Step> script;
  Role role = Role::Joint;
  std::size_t group = 0;
  std::size_t diverge = 0;
};

struct Group {
  std::vector<std::optional<S>> real_side;      // per lane output: hull of the real-path results
  std::vector<std::optional<S>> computed_side;  // per lane output: hull of the computed-path results
};

struct Lane {
  std::vector<Item> pending;
  std::optional<Item> current;
  std::size_t occurrence = 0;
  bool overflow = false;                 // a path had more than max_branches forks
  bool infeasible = false;               // the current path's condition holds for no execution
  std::vector<std::size_t> outputs;      // output indices of this lane
  std::vector<std::optional<S>> joint;   // per lane output: hull over joint paths
  bool branched = false;                 // the driver decided a comparison of this lane
  std::vector<Group> groups;
};

S join(const std::optional<S>& acc, const S& v) { return acc ? symerr::detail::join_values(*acc, v) : v; }

S unbounded_like(const S& v) {
  S z = S::undef(v.format);
  z.mode = v.mode;
  z.origin = v.origin;
  return z;
}

// An unstable pair: real from the real path, fp from the computed path.
S combine_unstable(const S& real_side, const S& computed_side) {
  S z = symerr::detail::join_values(real_side, computed_side);
  z.real = real_side.real;
  z.fp = computed_side.fp;
  z.specials.may_be_defined = real_side.specials.may_be_defined;
  z.specials.may_be_undefined = real_side.specials.may_be_undefined;
  z.specials.may_be_finite = computed_side.specials.may_be_finite;
  z.specials.may_be_nan = computed_side.specials.may_be_nan;
  z.specials.may_be_pos_inf = computed_side.specials.may_be_pos_inf;
  z.specials.may_be_neg_inf = computed_side.specials.may_be_neg_inf;
  z.specials.may_be_pos_zero = computed_side.specials.may_be_pos_zero;
  z.specials.may_be_neg_zero = computed_side.specials.may_be_neg_zero;
  if (symerr::detail::maybe_special(real_side) || symerr::detail::maybe_special(computed_side)) {
    z.err = z.rel_err = z.propagated = z.introduced = Interval::whole();
    return z;
  }
  z.err = z.fp - z.real;
  // The real computation on the actual inputs may follow either path (or a
  // third one): no whole-kernel split is claimed for an unstable pair.
  z.propagated = z.introduced = Interval::whole();
  z.rel_err = Interval::whole();
  z.reduce();
  return z;
}

class Explorer final : public BranchHook {
 public:
  Explorer(const DriverOptions& o, std::size_t n_in, std::size_t n_out, bool use_lanes, DriverReport& rep)
      : opt_(o), single_(!use_lanes), report_(rep) {
    std::size_t n_lanes = 1;
    if (use_lanes)
      for (int l : o.output_lanes) n_lanes = std::max<std::size_t>(n_lanes, static_cast<std::size_t>(l) + 1);
    for (int l : use_lanes ? o.input_lanes : std::vector<int>{})
      if (l >= 0) n_lanes = std::max<std::size_t>(n_lanes, static_cast<std::size_t>(l) + 1);
    lanes_.resize(n_lanes);
    for (std::size_t j = 0; j < n_out; ++j) lanes_[use_lanes ? o.output_lanes[j] : 0].outputs.push_back(j);
    for (Lane& L : lanes_) {
      L.pending.push_back(Item{});
      L.joint.resize(L.outputs.size());
    }
    (void)n_in;
    rep.lanes = n_lanes;
  }

  bool violated() const { return violated_; }

  // Starts a run: every lane takes its next path. False when none is left.
  bool start_run() {
    bool any = false;
    for (Lane& L : lanes_) {
      L.current.reset();
      L.occurrence = 0;
      L.infeasible = false;
      if (!L.pending.empty()) {
        L.current = std::move(L.pending.back());
        L.pending.pop_back();
        any = true;
      }
    }
    return any;
  }

  void set_buffers(std::span<S> in, std::span<S> out) {
    in_ = in;
    out_ = out;
  }

  // Records the run's outputs in the lanes' accumulators.
  void finish_run(std::span<const S> out) {
    for (Lane& L : lanes_) {
      if (!L.current) continue;
      if (L.infeasible) {  // no execution follows this path
        ++report_.infeasible_paths;
        L.current.reset();
        continue;
      }
      ++report_.paths;
      const Item& it = *L.current;
      if (it.role != Role::Joint && L.groups.size() <= it.group) L.groups.resize(it.group + 1);
      for (std::size_t k = 0; k < L.outputs.size(); ++k) {
        const S& v = out[L.outputs[k]];
        if (it.role == Role::Joint) {
          L.joint[k] = join(L.joint[k], v);
          continue;
        }
        Group& g = L.groups[it.group];
        auto& side = it.role == Role::Real ? g.real_side : g.computed_side;
        if (side.size() < L.outputs.size()) side.resize(L.outputs.size());
        side[k] = join(side[k], v);
      }
      L.current.reset();
    }
  }

  bool lanes_pending() const {
    return std::any_of(lanes_.begin(), lanes_.end(), [](const Lane& L) { return !L.pending.empty(); });
  }

  // The final enclosures; lanes left unexplored (budget) are unbounded.
  std::vector<S> results(std::span<const S> any_output) {
    std::vector<S> r(any_output.begin(), any_output.end());
    for (Lane& L : lanes_) {
      const bool incomplete = !L.pending.empty() || L.overflow;
      for (std::size_t k = 0; k < L.outputs.size(); ++k) {
        const std::size_t j = L.outputs[k];
        std::optional<S> acc = L.joint[k];
        for (const Group& g : L.groups) {
          // a side without a feasible path: no execution is unstable there
          if (g.real_side.size() <= k || g.computed_side.size() <= k || !g.real_side[k] || !g.computed_side[k])
            continue;
          acc = join(acc, combine_unstable(*g.real_side[k], *g.computed_side[k]));
        }
        if (incomplete || !acc) acc = unbounded_like(r[j]);
        // The real computation on the actual inputs (pr = real + propagated)
        // may decide a comparison unlike both the ideal and the computed
        // program, so after a driver-decided branch no whole-kernel split is
        // claimed; err, real and fp stay as joined.
        if (L.branched) acc->propagated = acc->introduced = Interval::whole();
        r[j] = *acc;
      }
    }
    return r;
  }

  bool decide(const Truth& t) override {
    const ComparisonInfo* info = t.info();
    int lane = 0;
    if (!single_) {
      lane = info ? info->lane : -1;
      if (lane < 0 || static_cast<std::size_t>(lane) >= lanes_.size()) {
        violated_ = true;
        return false;
      }
    }
    Lane& L = lanes_[static_cast<std::size_t>(lane)];
    if (!L.current) return t.computed() != Tri::False;  // an idle lane: its outputs are not recorded
    Item& it = *L.current;
    L.branched = true;
    const std::size_t k = L.occurrence++;
    if (k >= opt_.max_branches) {
      L.overflow = true;
      return false;
    }
    if (k >= it.script.size()) extend(L, it, t);
    const Step step = it.script[k];
    const bool both = it.role == Role::Joint || k <= it.diverge;
    if (!refine(info, step, both || it.role == Role::Real, both || it.role == Role::Computed))
      L.infeasible = true;
    report_.max_path_branches = std::max(report_.max_path_branches, k + 1);
    return it.role == Role::Computed ? step.computed : step.ideal;
  }

 private:
  static void outcomes(Tri t, bool (&out)[2], int& n) {
    n = 0;
    if (t != Tri::False) out[n++] = true;
    if (t != Tri::True) out[n++] = false;
  }

  // Whether the ideal and computed outcomes of `a R b` can differ (ideal
  // outcome `ideal`): the computed difference is the real one plus
  // E = err_a − err_b, so the two sides of the switch are at most |E| apart;
  // with E = {0} (e.g. exact operands) they never differ.
  static bool unstable_feasible(const ComparisonInfo* info, bool ideal) {
    if (!info || info->relation == Relation::Other) return true;
    const double elo = info->err[0][0] - info->err[1][1];  // rounding: only the sign and zero matter,
    const double ehi = info->err[0][1] - info->err[1][0];  // and a - b of doubles has the exact sign
    bool up = false;  // the computed difference lies above the real one's side
    switch (info->relation) {
      case Relation::Lt:
      case Relation::Le: up = ideal; break;   // real d < 0 (<= 0), computed d >= 0 (> 0): E > 0 somewhere
      case Relation::Gt:
      case Relation::Ge: up = !ideal; break;  // real d > 0, computed d <= 0: E < 0 somewhere
      case Relation::Eq:
      case Relation::Ne: return !(elo == 0 && ehi == 0);
      default: return true;
    }
    // the difference must cross the switch strictly in E's direction
    return up ? ehi > 0 : elo < 0;
  }

  // A comparison met for the first time on this path: the path follows the
  // first possible outcome; the others become pending paths.
  void extend(Lane& L, Item& it, const Truth& t) {
    ++report_.undecided_branches;
    bool iv[2], cv[2];
    int ni = 0, nc = 0;
    outcomes(t.ideal(), iv, ni);
    outcomes(t.computed(), cv, nc);
    if (it.role == Role::Joint) {
      std::vector<Step> options;
      for (int a = 0; a < ni; ++a)
        for (int b = 0; b < nc; ++b)
          if (iv[a] == cv[b]) options.push_back({iv[a], cv[b]});
      for (int a = 0; a < ni; ++a)
        for (int b = 0; b < nc; ++b)
          if (iv[a] != cv[b] && unstable_feasible(t.info(), iv[a])) options.push_back({iv[a], cv[b]});
      const std::size_t k = it.script.size();
      if (options.empty()) {  // no outcome is feasible: no execution reaches this comparison
        L.infeasible = true;
        it.script.push_back({iv[0], iv[0]});
        return;
      }
      for (std::size_t o = 1; o < options.size(); ++o) {
        Item alt;
        alt.script = it.script;
        alt.script.push_back(options[o]);
        if (options[o].ideal == options[o].computed) {
          L.pending.push_back(std::move(alt));
          continue;
        }
        ++report_.unstable_branches;
        alt.group = L.groups.size();
        L.groups.emplace_back();
        alt.diverge = k;
        alt.role = Role::Computed;
        L.pending.push_back(alt);
        alt.role = Role::Real;
        L.pending.push_back(std::move(alt));
      }
      it.script.push_back(options[0]);
      if (options[0].ideal != options[0].computed) {  // no joint outcome: this run is the real path
        ++report_.unstable_branches;
        it.group = L.groups.size();
        L.groups.emplace_back();
        it.diverge = k;
        it.role = Role::Real;
        Item c = it;
        c.role = Role::Computed;
        L.pending.push_back(std::move(c));
      }
      return;
    }
    // After the divergence only one side's outcome matters.
    const bool* v = it.role == Role::Real ? iv : cv;
    const int n = it.role == Role::Real ? ni : nc;
    if (n == 2) {
      Item alt = it;
      alt.script.push_back({v[1], v[1]});
      L.pending.push_back(std::move(alt));
    }
    it.script.push_back({v[0], v[0]});
  }

  bool owned(const void* p) const {
    auto within = [p](std::span<S> s) {
      const char* b = reinterpret_cast<const char*>(s.data());
      const char* c = static_cast<const char*>(p);
      return !s.empty() && c >= b && c < b + s.size_bytes() && (c - b) % sizeof(S) == 0;
    };
    return within(in_) || within(out_);
  }

  // An operand outside the driver's buffers is tightened only when the
  // comparison is the thread's latest and the operand still holds the
  // compared value (a Truth kept past the end of its operands'
  // full-expression would point at storage reused since).
  static bool unchanged(const void* p, const ComparisonInfo& info, int side) {
    const S& x = *static_cast<const S*>(p);
    return x.real.lower() == info.real[side][0] && x.real.upper() == info.real[side][1] &&
           x.fp.lower() == info.fp[side][0] && x.fp.upper() == info.fp[side][1];
  }

  // The path condition on the compared operands: those in the driver's
  // buffers, and those still holding the compared value.
  // Returns false when the outcome is infeasible (no execution takes it).
  bool refine(const ComparisonInfo* info, Step step, bool ideal_side, bool computed_side) {
    bool infeasible = false;
    if (!info || !info->refine) return true;
    const void* sides[2] = {info->lhs, info->rhs};
    for (int s = 0; s < 2; ++s) {
      if (!sides[s]) continue;
      if (!owned(sides[s]) && !(info->serial == symerr::detail::comparison_serial() && unchanged(sides[s], *info, s)))
        continue;
      // With lanes, an operand of no lane (a broadcast input, a constant) is
      // shared by every lane's path in this run: never tightened.
      if (!single_ && static_cast<const S*>(sides[s])->origin != info->lane) continue;
      if (s == 1 && sides[1] == sides[0]) continue;
      if (!info->refine(const_cast<void*>(sides[s]), *info, s == 0, step.ideal, step.computed, ideal_side,
                        computed_side))
        infeasible = true;
      ++report_.refined_operands;
    }
    return !infeasible;
  }

  const DriverOptions& opt_;
  bool single_;
  DriverReport& report_;
  std::vector<Lane> lanes_;
  bool violated_ = false;
  std::span<S> in_, out_;
};

DriverResult explore(const KernelFn& kernel, std::span<const S> inputs, std::size_t n_outputs,
                     const DriverOptions& options, bool use_lanes) {
  DriverResult res;
  DriverReport& rep = res.report;
  Explorer ex(options, inputs.size(), n_outputs, use_lanes, rep);
  std::vector<S> in(inputs.begin(), inputs.end());
  for (std::size_t i = 0; i < in.size(); ++i) in[i].origin = use_lanes ? options.input_lanes[i] : 0;
  std::vector<S> out(n_outputs), shape;
  BranchHookScope scope(&ex);
  while (true) {
    if (rep.runs == options.max_runs && ex.lanes_pending()) {
      rep.budget_exhausted = true;
      break;
    }
    if (!ex.start_run()) break;
    ++rep.runs;
    std::copy(inputs.begin(), inputs.end(), in.begin());
    for (std::size_t i = 0; i < in.size(); ++i) in[i].origin = use_lanes ? options.input_lanes[i] : 0;
    std::fill(out.begin(), out.end(), S{});
    ex.set_buffers(in, out);
    kernel(in, out);
    if (ex.violated()) {
      rep.lanes_violated = true;
      return res;
    }
    ex.finish_run(out);
    if (shape.empty()) shape = out;
  }
  if (ex.lanes_pending()) rep.budget_exhausted = true;
  res.outputs = ex.results(shape.empty() ? std::span<const S>(out) : std::span<const S>(shape));
  return res;
}

// Input-box bisection: every input of a lane (every input without lanes) has
// its real range cut into 2^bisections pieces, all combinations of a lane's
// pieces are explored, the lanes zipped (combination c of every lane in the
// same exploration); the outputs are the hulls over the explorations.
S piece_of(const S& x, unsigned bisections, std::size_t k) {
  if (bisections == 0 || !is_bounded(x.real) || is_point(x.real)) return x;
  const double n = std::ldexp(1.0, static_cast<int>(bisections));
  const double lo = x.real.lower(), hi = x.real.upper(), w = (hi - lo) / n;
  // consecutive pieces share their computed endpoint; the first starts at lo
  // and the last ends at hi, so the pieces cover [lo, hi]
  const double a = k == 0 ? lo : std::min(hi, lo + w * static_cast<double>(k));
  const double b = static_cast<double>(k + 1) >= n ? hi : std::min(hi, lo + w * static_cast<double>(k + 1));
  S p = x;
  p.real = Interval::between(std::min(a, b), b);
  p.reduce();
  return p;
}

DriverResult explore_pieces(const KernelFn& kernel, std::span<const S> inputs, std::size_t n_outputs,
                            const DriverOptions& options, bool use_lanes) {
  if (options.bisections == 0) return explore(kernel, inputs, n_outputs, options, use_lanes);
  // the inputs of each lane (lane -1: never cut)
  std::vector<std::vector<std::size_t>> lane_inputs;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const int l = use_lanes ? options.input_lanes[i] : 0;
    if (l < 0) continue;
    if (lane_inputs.size() <= static_cast<std::size_t>(l)) lane_inputs.resize(static_cast<std::size_t>(l) + 1);
    lane_inputs[static_cast<std::size_t>(l)].push_back(i);
  }
  const std::size_t per_input = std::size_t{1} << options.bisections;
  std::size_t combos = 1;
  for (const auto& li : lane_inputs) {
    std::size_t c = 1;
    for (std::size_t k = 0; k < li.size() && c <= options.max_runs; ++k) c *= per_input;
    combos = std::max(combos, c);
  }
  DriverResult total;
  total.report.input_boxes = 0;
  std::vector<std::optional<S>> acc(n_outputs);
  std::vector<S> in(inputs.begin(), inputs.end());
  for (std::size_t c = 0; c < combos; ++c) {
    if (total.report.runs >= options.max_runs) {
      total.report.budget_exhausted = true;
      break;
    }
    for (const auto& li : lane_inputs) {
      std::size_t digits = c;
      for (std::size_t i : li) {
        in[i] = piece_of(inputs[i], options.bisections, digits % per_input);
        digits /= per_input;
      }
    }
    DriverOptions o = options;
    o.max_runs = options.max_runs - total.report.runs;
    const DriverResult r = explore(kernel, in, n_outputs, o, use_lanes);
    DriverReport& t = total.report;
    t.runs += r.report.runs, t.paths += r.report.paths, t.infeasible_paths += r.report.infeasible_paths;
    t.undecided_branches += r.report.undecided_branches, t.unstable_branches += r.report.unstable_branches;
    t.refined_operands += r.report.refined_operands, t.lanes = r.report.lanes;
    t.max_path_branches = std::max(t.max_path_branches, r.report.max_path_branches);
    t.budget_exhausted = t.budget_exhausted || r.report.budget_exhausted;
    ++t.input_boxes;
    if (r.report.lanes_violated) {
      t.lanes_violated = true;
      return total;
    }
    for (std::size_t j = 0; j < n_outputs; ++j) acc[j] = join(acc[j], r.outputs[j]);
  }
  for (std::size_t j = 0; j < n_outputs; ++j) {
    const S shape = acc[j] ? *acc[j] : S{};
    total.outputs.push_back(total.report.budget_exhausted || !acc[j] ? unbounded_like(shape) : *acc[j]);
  }
  return total;
}

}  // namespace

DriverResult run_kernel(const KernelFn& kernel, std::span<const S> inputs, std::size_t n_outputs,
                        const DriverOptions& options) {
  const bool use_lanes = !options.input_lanes.empty() || !options.output_lanes.empty();
  if (use_lanes) {
    if (options.input_lanes.size() != inputs.size() || options.output_lanes.size() != n_outputs)
      throw std::invalid_argument("run_kernel: lanes given for " + std::to_string(options.input_lanes.size()) +
                                  " inputs and " + std::to_string(options.output_lanes.size()) +
                                  " outputs, but the kernel has " + std::to_string(inputs.size()) +
                                  " inputs and " + std::to_string(n_outputs) + " outputs");
    for (int l : options.output_lanes)
      if (l < 0) throw std::invalid_argument("run_kernel: every output element needs a lane (>= 0)");
  }
  if (options.max_runs == 0) throw std::invalid_argument("run_kernel: max_runs must be at least 1");
  if (options.bisections > 16) throw std::invalid_argument("run_kernel: at most 16 bisections per input");
  DriverResult r = explore_pieces(kernel, inputs, n_outputs, options, use_lanes);
  if (use_lanes && r.report.lanes_violated) {
    const DriverReport first = r.report;
    r = explore_pieces(kernel, inputs, n_outputs, options, false);
    r.report.lanes_violated = true;
    r.report.runs += first.runs;
  }
  return r;
}

void elementwise_lanes(DriverOptions& options, std::span<const std::size_t> input_sizes, std::size_t n_out) {
  options.input_lanes.clear();
  for (std::size_t size : input_sizes)
    for (std::size_t i = 0; i < size; ++i)
      options.input_lanes.push_back(size == n_out ? static_cast<int>(i) : -1);
  options.output_lanes.resize(n_out);
  for (std::size_t j = 0; j < n_out; ++j) options.output_lanes[j] = static_cast<int>(j);
}

std::string DriverReport::summary() const {
  std::ostringstream os;
  os << runs << " runs, " << paths << " paths (+" << infeasible_paths << " infeasible) over " << lanes << " lane(s), " << undecided_branches
     << " undecided branches (" << unstable_branches << " unstable), at most " << max_path_branches
     << " on one path, " << refined_operands << " operand refinements";
  if (input_boxes > 1) os << ", " << input_boxes << " input boxes (bisection)";
  if (budget_exhausted) os << "; BUDGET EXHAUSTED: unexplored lanes are unbounded";
  if (lanes_violated) os << "; the lanes statement did not hold: explored as one lane";
  return os.str();
}

}  // namespace symerr::verify
