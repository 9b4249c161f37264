// The driver's subdivision of the whole input box (max_boxes > 1): the box
// with the largest score is bisected along the dimension whose trial split
// lowers it most, until the target, a budget, or the stall rule stops it.
#include <queue>

#include "parts.hpp"
#include "subdivision.hpp"

namespace symerr::verify::driver_impl {
namespace {

// The best bisection of `leaf`: both halves of each candidate dimension
// explored, the one whose larger score is smallest kept. nullopt: no split
// (no candidate dimension, or the run budget ran out during the trials).
template <class D>
std::optional<std::vector<Leaf<D>>> best_split(Subdivider<D>& sub, const Leaf<D>& leaf) {
  std::optional<std::vector<Leaf<D>>> best;
  double best_score = INFINITY;
  for (std::size_t d : sub.candidates(leaf.box)) {
    std::vector<Range> a = leaf.box, b = leaf.box;
    const double mid = a[d].lo / 2 + a[d].hi / 2;
    a[d].hi = mid;
    b[d].lo = mid;
    std::vector<Leaf<D>> halves, unnarrowed;
    bool complete = true;
    for (const auto& box : {a, b}) {
      if (auto l = sub.explore(box)) {
        complete = complete && !l->budget_exhausted;
        unnarrowed.push_back(*l);
        if (!l->budget_exhausted && sub.nested(box, leaf.box)) {
          if (!narrow_to_parent(l->outputs, leaf.outputs)) {  // no execution in this half
            ++sub.report().vacuous_boxes;
            continue;
          }
          l->score = score_of(l->outputs);
        }
        halves.push_back(std::move(*l));
      }
    }
    if (halves.empty()) halves = std::move(unnarrowed);  // cannot happen for sound results: keep both
    if (!complete) break;  // the run budget is spent: keep what was decided
    double s = 0;
    for (const Leaf<D>& h : halves) s = std::max(s, h.score);
    // the candidates come widest first: a narrower dimension must beat the
    // best so far by min_gain (an improvement below it is a tie, and ties
    // go to the widest). A score held by a relative bound (rel_err · real)
    // moves by tiny amounts when a narrow dimension is split, while the
    // absolute bound beneath it shrinks only with the wide ones.
    if (!best || s < best_score * (1 - sub.options().min_gain)) best = std::move(halves), best_score = s;
  }
  return best;
}

template <class D>
BasicDriverResult<D> hull_of_leaves(const std::vector<Leaf<D>>& leaves, std::size_t n_out, DriverReport rep) {
  BasicDriverResult<D> res;
  std::vector<std::optional<Stored<D>>> acc(n_out);
  bool missing = false;  // a leaf without outputs (never kept by the subdivision; unbounded if it were)
  for (const Leaf<D>& l : leaves) {
    rep.budget_exhausted = rep.budget_exhausted || l.budget_exhausted;
    missing = missing || l.outputs.size() < n_out;
    for (std::size_t j = 0; j < n_out && j < l.outputs.size(); ++j) acc[j] = join(acc[j], l.outputs[j]);
  }
  rep.input_boxes = leaves.size();
  for (std::size_t j = 0; j < n_out; ++j) {
    Stored<D> v = acc[j] ? *acc[j] : unbounded_like(Stored<D>{});
    if (missing) v = unbounded_like(v);
    if constexpr (context_bound<D>) res.outputs.push_back(convert_fields<D>(v));
    else res.outputs.push_back(v);
  }
  res.report = rep;
  return res;
}

}  // namespace

template <class D>
BasicDriverResult<D> subdivide(const BasicKernelFn<D>& kernel, std::span<const SymbolicDomainError<D>> inputs,
                               std::size_t n_out, const DriverOptions& opt, const Deadline& deadline) {
  DriverReport rep;
  rep.box_explorations = 0;
  Subdivider<D> sub(kernel, inputs, n_out, opt, rep, deadline);
  auto worse = [](const Leaf<D>& a, const Leaf<D>& b) { return a.score < b.score; };
  std::priority_queue<Leaf<D>, std::vector<Leaf<D>>, decltype(worse)> open(worse);
  std::vector<Leaf<D>> done;  // leaves that cannot be split
  if (auto root = sub.explore_root()) open.push(std::move(*root));
  while (!open.empty()) {
    if (opt.target_err > 0 && open.top().score <= opt.target_err) break;
    const bool boxes_left = open.size() + done.size() < std::max<std::size_t>(opt.max_boxes, 1);
    if (!boxes_left || sub.out_of_time() || rep.runs >= opt.max_runs) {
      rep.subdivision_budget_exhausted = open.top().score > 0;
      if (rep.subdivision_budget_exhausted) {  // name what stopped it (the first limit met, and any other one)
        rep.boxes_exhausted = !boxes_left;
        rep.runs_exhausted = rep.runs_exhausted || rep.runs >= opt.max_runs;
      }
      break;
    }
    Leaf<D> worst = open.top();
    open.pop();
    std::optional<std::vector<Leaf<D>>> parts = best_split(sub, worst);
    if (!parts) {  // the worst box is a point, or the run or time budget is spent: its bound is final
      rep.subdivision_budget_exhausted = rep.runs >= opt.max_runs || rep.time_exhausted;
      rep.runs_exhausted = rep.runs_exhausted || rep.runs >= opt.max_runs;
      done.push_back(std::move(worst));
      break;
    }
    // A split that does not lower the box's score by min_gain (relative) is a
    // stall (an unstable jump that no split removes, the rounding floor);
    // after max_stalls consecutive ones the halves are kept, not split again.
    // (a split whose worst half is limited by its relative bound is none).
    double split_score = 0;
    for (const Leaf<D>& p : *parts) split_score = std::max(split_score, p.score);
    bool limited = false;
    for (const Leaf<D>& p : *parts) limited = limited || (p.score >= split_score && relative_limited(p.outputs, p.score));
    const unsigned stalls = split_score < worst.score * (1 - opt.min_gain) || limited ? 0 : worst.stalls + 1;
    for (Leaf<D>& p : *parts) {
      p.stalls = stalls;
      if (stalls > opt.max_stalls) done.push_back(std::move(p));
      else open.push(std::move(p));
    }
  }
  while (!open.empty()) {
    done.push_back(open.top());
    open.pop();
  }
  return hull_of_leaves<D>(done, n_out, rep);
}

#define SYMERR_DRIVER_SUBDIVIDE(D)                                                                             \
  template BasicDriverResult<D> subdivide<D>(const BasicKernelFn<D>&, std::span<const SymbolicDomainError<D>>, \
                                             std::size_t, const DriverOptions&, const Deadline&);
SYMERR_DRIVER_FOR_EACH_DOMAIN(SYMERR_DRIVER_SUBDIVIDE)

}  // namespace symerr::verify::driver_impl
