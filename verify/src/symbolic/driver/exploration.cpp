// The driver's exploration of one box: the branch hook that answers the
// kernel's undecided comparisons (each lane's path scripted, new outcomes
// forking new paths, unstable outcomes opening groups), and the loop of
// runs (see <symerr/verify/symbolic/driver.hpp> for the model).
//
// The explorer is built in layers, one header each, every layer a base of
// the next: ExplorerBase (quantities.hpp: the exploration's state, the
// quantities as linear functions), PairBounds (unstable_pairs.hpp: the
// unstable groups' enclosures), LaneBook (lanes.hpp: the lanes' paths and
// what a run records), PathConditions (path_conditions.hpp: tightening and
// the recorded conditions), and Explorer below (the branch hook).
#include <algorithm>
#include <stdexcept>
#include <string>

#include "parts.hpp"
#include "path_conditions.hpp"

namespace symerr::verify::driver_impl {

namespace {

template <class D>
class Explorer final : public BranchHook, public detail::BufferAdopter, public PathConditions<D> {
  using Base = PathConditions<D>;
  using typename Base::S;
  using typename Base::Lane;
  using typename Base::Group;
  using Base::opt_;
  using Base::single_;
  using Base::report_;
  using Base::lanes_;
  using Base::violated_;
  using Base::in_;
  using Base::out_;
  using Base::adopted_;
  using Base::recipes_;
  using Base::inputs_;
  using Base::input_err_lo_;
  using Base::input_err_hi_;
  using Base::generation_;
  using Base::deadline_;
  using Base::quantity_of;
  using Base::input_of;
  using Base::input_lin;
  using Base::range_lin;
  using Base::value_lin;
  using Base::quantity_lin;
  using Base::condition_lin;
  using Base::shared_quantity;
  using Base::owned;
  using Base::unchanged;
  using Base::target_of;
  using Base::refine;
  using Base::outcome_sign;
  using Base::record;
  using Base::side_conditions;
  using Base::name_operands;
  using Base::outcome_feasible;
  using Base::connected;

 public:
  using Base::out_of_time;
  using Base::Base;

  bool decide(const Truth& t) override {
    if (out_of_time()) throw OutOfTime{};  // abandons the run (see Deadline)
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
    S* targets[2] = {nullptr, nullptr};
    if (info) targets[0] = target_of(*info, 0), targets[1] = target_of(*info, 1);  // once, for all uses
    name_operands(L, info, targets);
    if (k >= it.script.size()) extend(L, it, t, targets);
    const Step step = it.script[k];
    const bool both = it.role == Role::Joint || k <= it.diverge;
    record(L, info, targets, step, both || it.role == Role::Real, both || it.role == Role::Computed);
    if (!refine(info, targets, step, both || it.role == Role::Real, both || it.role == Role::Computed))
      L.infeasible = true;
    report_.max_path_branches = std::max(report_.max_path_branches, k + 1);
    return it.role == Role::Computed ? step.computed : step.ideal;
  }

 private:

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

  // A new unstable group diverging at step k of `base`: its real and computed
  // paths become pending; with `runs_now`, base itself continues as the real
  // path.
  void open_group(Lane& L, Item& base, std::size_t k, bool runs_now) {
    ++report_.unstable_branches;
    base.group = L.groups.size();
    L.groups.emplace_back();
    L.groups.back().shared = symerr::detail::quantity_numbering().next;
    base.diverge = k;
    for (Role role : {Role::Computed, Role::Real}) {
      if (runs_now && role == Role::Real) continue;
      Item c = base;
      c.role = role;
      L.pending.push_back(std::move(c));
    }
    base.role = Role::Real;
  }

  // A comparison met for the first time on this path: the path follows the
  // first possible outcome; the others become pending paths.
  void extend(Lane& L, Item& it, const Truth& t, S* const (&targets)[2]) {
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
      std::erase_if(options, [&](Step o) { return !outcome_feasible(L, t.info(), targets, o, true, true); });
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
        open_group(L, alt, k, false);
      }
      it.script.push_back(options[0]);
      if (options[0].ideal != options[0].computed) open_group(L, it, k, true);  // this run: the real path
      return;
    }
    // After the divergence only one side's outcome matters.
    const bool real = it.role == Role::Real;
    bool v[2];
    int n = 0;
    for (int a = 0; a < (real ? ni : nc); ++a) {
      const bool o = real ? iv[a] : cv[a];
      if (outcome_feasible(L, t.info(), targets, {o, o}, real, !real)) v[n++] = o;
    }
    if (n == 0) {  // no outcome is feasible: no execution reaches this comparison
      L.infeasible = true;
      it.script.push_back({real ? iv[0] : cv[0], real ? iv[0] : cv[0]});
      return;
    }
    if (n == 2) {
      Item alt = it;
      alt.script.push_back({v[1], v[1]});
      L.pending.push_back(std::move(alt));
    }
    it.script.push_back({v[0], v[0]});
  }

  void adopt(const detail::AdoptedBuffer& b) override {
    if (b.domain == detail::domain_tag<D>() && b.count > 0) adopted_.push_back(b);
  }
  void release(std::uintptr_t begin) noexcept override {
    for (std::size_t i = adopted_.size(); i-- > 0;)
      if (adopted_[i].begin == begin) {
        adopted_.erase(adopted_.begin() + static_cast<std::ptrdiff_t>(i));
        return;
      }
  }
};

// One exploration of the paths of the kernel on `inputs` (one box), within
// `max_runs` runs and the deadline.
template <class D>
BasicDriverResult<D> explore(const BasicKernelFn<D>& kernel, std::span<const SymbolicDomainError<D>> inputs,
                             std::size_t n_outputs, const DriverOptions& options, bool use_lanes,
                             std::size_t max_runs, const Deadline& deadline) {
  using S = SymbolicDomainError<D>;
  BasicDriverResult<D> res;
  DriverReport& rep = res.report;
  Explorer<D> ex(options, n_outputs, use_lanes, rep, inputs, deadline);
  std::vector<S> in(inputs.begin(), inputs.end());
  std::vector<S> out(n_outputs), shape;
  S unwritten;
  unwritten.source = kUnwritten;
  BranchHookScope scope(&ex);
  // the numbering of the caller's run, if any, is restored on the way out
  struct RestoreNumbering {
    symerr::detail::QuantityNumbering saved = symerr::detail::quantity_numbering();
    ~RestoreNumbering() { symerr::detail::quantity_numbering() = saved; }
  } restore_numbering;
  while (true) {
    if ((rep.runs == max_runs || ex.out_of_time()) && ex.lanes_pending()) {
      rep.budget_exhausted = true;
      rep.runs_exhausted = rep.runs == max_runs;
      break;
    }
    if (!ex.start_run()) break;
    ++rep.runs;
    std::copy(inputs.begin(), inputs.end(), in.begin());
    for (std::size_t i = 0; i < in.size(); ++i) {
      in[i].origin = use_lanes ? options.input_lanes[i] : 0;
      in[i].source = ex.tag(i);
    }
    std::fill(out.begin(), out.end(), unwritten);
    ex.set_buffers(in, out);
    // the run's results are numbered after the inputs (Named)
    symerr::detail::quantity_numbering() = {ex.generation(), static_cast<std::uint32_t>(std::min(in.size(), kTaggedInputs)),
                                            ex.recipe_table()};
    try {
      kernel(in, out);
    } catch (const OutOfTime&) {
      ex.abandon_run();
      rep.budget_exhausted = true;
      break;
    }
    // an output that depends on another lane's inputs by data (its value's
    // lane): the statement is false (a dependence by control flow alone, a
    // branch on another lane's input, cannot be seen: the caller's statement)
    if (use_lanes)
      for (std::size_t j = 0; j < out.size(); ++j)
        if (out[j].origin != -1 && out[j].origin != options.output_lanes[j]) {
          rep.lanes_violated = true;
          return res;
        }
    if (ex.violated()) {
      rep.lanes_violated = true;
      return res;
    }
    // (a loop bound one short, a branch that forgets its output: without this
    // the driver's initial 0 came back certified exact)
    if (const std::optional<std::size_t> j = ex.unwritten_output(out))
      throw std::invalid_argument("run_kernel: output " + std::to_string(*j) + " of " +
                                  std::to_string(out.size()) + " was never written by the kernel (on the path of run " +
                                  std::to_string(rep.runs) + "); the kernel must assign every output element");
    ex.finish_run(out);
    if (shape.empty()) shape = out;
  }
  if (ex.lanes_pending()) rep.budget_exhausted = true;
  res.outputs = ex.results(shape.empty() ? std::span<const S>(out) : std::span<const S>(shape));
  return res;
}


}  // namespace

// One box: with the caller's lanes, and again with one lane if they did not hold.
template <class D>
BasicDriverResult<D> explore_box(const BasicKernelFn<D>& kernel, std::span<const SymbolicDomainError<D>> inputs,
                                 std::size_t n_outputs, const DriverOptions& options, std::size_t max_runs,
                                 const Deadline& deadline) {
  const bool use_lanes = !options.input_lanes.empty();
  BasicDriverResult<D> r = explore(kernel, inputs, n_outputs, options, use_lanes, max_runs, deadline);
  if (use_lanes && r.report.lanes_violated) {
    const DriverReport first = r.report;
    r = explore(kernel, inputs, n_outputs, options, false, max_runs > first.runs ? max_runs - first.runs : 1, deadline);
    r.report.lanes_violated = true;
    r.report.runs += first.runs;
    r.report.time_exhausted = r.report.time_exhausted || first.time_exhausted;
    r.report.branches_exhausted = r.report.branches_exhausted || first.branches_exhausted;
  }
  return r;
}

void accumulate(DriverReport& t, const DriverReport& r) {
  t.runs += r.runs, t.paths += r.paths, t.infeasible_paths += r.infeasible_paths;
  t.undecided_branches += r.undecided_branches, t.unstable_branches += r.unstable_branches;
  t.refined_operands += r.refined_operands, t.lanes = r.lanes;
  t.relational_pairs += r.relational_pairs;
  t.max_path_branches = std::max(t.max_path_branches, r.max_path_branches);
  t.lanes_violated = t.lanes_violated || r.lanes_violated;
  t.time_exhausted = t.time_exhausted || r.time_exhausted;
  t.runs_exhausted = t.runs_exhausted || r.runs_exhausted;
  t.branches_exhausted = t.branches_exhausted || r.branches_exhausted;
}

#define SYMERR_DRIVER_EXPLORE_BOX(D)                                                                          \
  template BasicDriverResult<D> explore_box<D>(const BasicKernelFn<D>&, std::span<const SymbolicDomainError<D>>, \
                                               std::size_t, const DriverOptions&, std::size_t, const Deadline&);
SYMERR_DRIVER_FOR_EACH_DOMAIN(SYMERR_DRIVER_EXPLORE_BOX)

}  // namespace symerr::verify::driver_impl
