// The driver's subdivision lane by lane. With lanes (the caller's statement
// that lane k's outputs depend only on lane k's inputs and on inputs of no
// lane), each lane keeps its own leaves over its own inputs, and one run
// evaluates a box of every lane side by side ("diagonal" boxes, as the
// zipped paths of the exploration): splitting every lane once costs two
// runs, not two per lane, and 16 elementwise lanes of 8 leaves each cost 8·2
// runs, not 8^16. Output j is the hull over its lane's leaves: every
// execution of lane k lies in one of them, whatever the other lanes' inputs.
// Each round halves, in every lane that has an open leaf, its worst leaf
// along its widest input (relative to the root; no trial splits), with the
// stall rule of subdivide().
#include <algorithm>
#include <cmath>

#include "parts.hpp"
#include "subdivision.hpp"

namespace symerr::verify::driver_impl {
namespace {

template <class D>
class LaneSubdivision {
  struct LaneLeaf {
    std::vector<Range> box;  // the whole box; only the lane's inputs are its own
    std::vector<Stored<D>> outputs;
    double score;
    unsigned stalls;
    bool open;
  };

 public:
  LaneSubdivision(Subdivider<D>& sub, std::size_t n_inputs, std::size_t n_out)
      : sub_(sub), opt_(sub.options()), rep_(sub.report()), root_(sub.root()), n_out_(n_out) {
    int n_lanes = 0;
    for (int l : opt_.output_lanes) n_lanes = std::max(n_lanes, l + 1);
    lane_in_.resize(static_cast<std::size_t>(n_lanes));
    lane_out_.resize(static_cast<std::size_t>(n_lanes));
    for (std::size_t i = 0; i < n_inputs; ++i)
      if (opt_.input_lanes[i] >= 0 && opt_.input_lanes[i] < n_lanes)
        lane_in_[static_cast<std::size_t>(opt_.input_lanes[i])].push_back(i);
    for (std::size_t j = 0; j < n_out; ++j) lane_out_[static_cast<std::size_t>(opt_.output_lanes[j])].push_back(j);
  }

  // nullopt: the lanes statement did not hold in some run.
  std::optional<BasicDriverResult<D>> run() {
    std::optional<Leaf<D>> first = sub_.explore_root();
    if (!first || rep_.lanes_violated) return std::nullopt;
    leaves_.assign(lane_in_.size(), {});
    for (std::size_t L = 0; L < leaves_.size(); ++L)
      leaves_[L].push_back({root_, first->outputs, lane_score(first->outputs, L), 0, !lane_in_[L].empty()});
    // the root's own exploration out of runs: its outputs are partial (unbounded where unexplored)
    const bool root_exhausted = first->budget_exhausted;
    bool exhausted = root_exhausted;
    while (!exhausted) {
      if (!choose()) break;
      if (sub_.out_of_time()) {
        rep_.subdivision_budget_exhausted = true;
        break;
      }
      make_halves();
      std::optional<Leaf<D>> run[2];
      for (int h = 0; h < 2; ++h) {
        run[h] = sub_.explore(boxes_[h]);
        if (rep_.lanes_violated || !run[h]) return std::nullopt;
        exhausted = exhausted || run[h]->budget_exhausted;
      }
      if (exhausted) break;  // keep the leaves as they were: a run without a bound decides nothing
      for (std::size_t L = 0; L < leaves_.size(); ++L)
        if (pick_[L]) split(L, run);
    }
    if (root_exhausted) rep_.budget_exhausted = true;
    else if (exhausted) rep_.subdivision_budget_exhausted = true;  // the leaves so far are complete
    return result();
  }

 private:
  double lane_score(const std::vector<Stored<D>>& out, std::size_t L) const { return score_of(mine(out, L)); }
  std::vector<Stored<D>> mine(const std::vector<Stored<D>>& out, std::size_t L) const {
    std::vector<Stored<D>> m;
    for (std::size_t j : lane_out_[L]) m.push_back(out[j]);
    return m;
  }

  // Each lane's worst open leaf (pick_) and its split dimension (dim_);
  // false when no lane splits.
  bool choose() {
    pick_.assign(leaves_.size(), std::nullopt);
    dim_.assign(leaves_.size(), std::nullopt);
    bool any = false;
    for (std::size_t L = 0; L < leaves_.size(); ++L) {
      if (leaves_[L].size() >= std::max<std::size_t>(opt_.max_boxes, 1)) continue;
      if (opt_.target_err > 0) {
        double worst = 0;
        for (const LaneLeaf& l : leaves_[L]) worst = std::max(worst, l.score);
        if (worst <= opt_.target_err) continue;
      }
      for (std::size_t k = 0; k < leaves_[L].size(); ++k)
        if (leaves_[L][k].open && leaves_[L][k].score > 0 &&
            (!pick_[L] || leaves_[L][k].score > leaves_[L][*pick_[L]].score))
          pick_[L] = k;
      if (!pick_[L]) continue;
      const std::vector<Range>& box = leaves_[L][*pick_[L]].box;
      double widest = 0;
      for (std::size_t i : lane_in_[L]) {
        const double lo = box[i].lo, hi = box[i].hi, mid = lo / 2 + hi / 2;
        if (!(std::isfinite(lo) && std::isfinite(hi) && lo < mid && mid < hi)) continue;
        const double w = (hi - lo) / (root_[i].hi - root_[i].lo);
        if (w > widest) widest = w, dim_[L] = i;
      }
      if (!dim_[L]) {
        leaves_[L][*pick_[L]].open = false;  // a point: final
        pick_[L].reset();
        continue;
      }
      any = true;
    }
    return any;
  }

  // The two halves of every splitting lane, side by side in two runs (a
  // half without a value of its format is dropped, the other one runs in
  // its place); lanes not splitting run their first leaf's box.
  void make_halves() {
    boxes_[0] = boxes_[1] = root_;
    has_[0].assign(leaves_.size(), false);
    has_[1].assign(leaves_.size(), false);
    for (std::size_t L = 0; L < leaves_.size(); ++L) {
      const std::vector<Range>& from = leaves_[L][pick_[L] ? *pick_[L] : 0].box;
      std::vector<Range> half[2] = {from, from};
      if (pick_[L]) {
        const std::size_t d = *dim_[L];
        const double mid = half[0][d].lo / 2 + half[0][d].hi / 2;
        half[0][d].hi = mid, half[1][d].lo = mid;
        for (int h = 0; h < 2; ++h) has_[h][L] = sub_.has_values(d, half[h][d]);
        if (!has_[0][L] && !has_[1][L]) has_[0][L] = has_[1][L] = true;  // cannot happen: the parent had values
        for (int h = 0; h < 2; ++h)
          if (!has_[h][L]) ++rep_.vacuous_boxes;
      }
      for (int h = 0; h < 2; ++h) {
        const std::vector<Range>& b = !pick_[L] || has_[h][L] ? half[h] : half[1 - h];
        for (std::size_t i : lane_in_[L]) boxes_[h][i] = b[i];
      }
    }
  }

  // Lane L's picked leaf replaced by its explored halves, each met with the
  // parent (a split never widens a bound), with the stall rule of subdivide().
  void split(std::size_t L, const std::optional<Leaf<D>> (&run)[2]) {
    const LaneLeaf parent = leaves_[L][*pick_[L]];
    leaves_[L].erase(leaves_[L].begin() + static_cast<std::ptrdiff_t>(*pick_[L]));
    std::vector<LaneLeaf> parts, unnarrowed;
    for (int h = 0; h < 2; ++h) {
      if (!has_[h][L]) continue;
      std::vector<Range> b = parent.box;
      for (std::size_t i : lane_in_[L]) b[i] = boxes_[h][i];
      std::vector<Stored<D>> out = run[h]->outputs;
      unnarrowed.push_back({b, out, lane_score(out, L), 0, true});
      if (sub_.nested(b, parent.box)) {  // the lane's outputs within the parent leaf's
        std::vector<Stored<D>> m = mine(out, L);
        if (!narrow_to_parent(m, mine(parent.outputs, L))) {  // no execution of the lane in this half
          ++rep_.vacuous_boxes;
          continue;
        }
        for (std::size_t k = 0; k < lane_out_[L].size(); ++k) out[lane_out_[L][k]] = m[k];
      }
      const double score = lane_score(out, L);
      parts.push_back({std::move(b), std::move(out), score, 0, true});
    }
    if (parts.empty()) parts = std::move(unnarrowed);  // cannot happen for sound results: keep both
    double split_score = 0;
    for (const LaneLeaf& p : parts) split_score = std::max(split_score, p.score);
    bool limited = false;  // as in subdivide()
    for (const LaneLeaf& p : parts)
      if (p.score >= split_score) limited = limited || relative_limited(mine(p.outputs, L), p.score);
    const unsigned stalls = split_score < parent.score * (1 - opt_.min_gain) || limited ? 0 : parent.stalls + 1;
    for (LaneLeaf& p : parts) {
      p.stalls = stalls;
      p.open = stalls <= opt_.max_stalls;
      leaves_[L].push_back(std::move(p));
    }
  }

  // Output j: the hull over its lane's leaves.
  BasicDriverResult<D> result() {
    for (const auto& ls : leaves_)
      for (const LaneLeaf& l : ls)
        if (l.open && l.score > 0 && ls.size() >= std::max<std::size_t>(opt_.max_boxes, 1))
          rep_.subdivision_budget_exhausted = rep_.boxes_exhausted = true;
    BasicDriverResult<D> res;
    res.outputs.resize(n_out_);
    std::size_t most = 1;
    for (std::size_t L = 0; L < leaves_.size(); ++L) {
      most = std::max(most, leaves_[L].size());
      for (std::size_t j : lane_out_[L]) {
        std::optional<Stored<D>> acc;
        for (const LaneLeaf& l : leaves_[L]) acc = join(acc, l.outputs[j]);
        if constexpr (context_bound<D>) res.outputs[j] = convert_fields<D>(*acc);
        else res.outputs[j] = *acc;
      }
    }
    rep_.input_boxes = most;
    rep_.lane_subdivision = true;
    res.report = rep_;
    return res;
  }

  Subdivider<D>& sub_;
  const DriverOptions& opt_;
  DriverReport& rep_;
  const std::vector<Range> root_;
  std::size_t n_out_;
  std::vector<std::vector<std::size_t>> lane_in_, lane_out_;  // each lane's inputs and outputs
  std::vector<std::vector<LaneLeaf>> leaves_;                 // each lane's leaves
  std::vector<std::optional<std::size_t>> pick_, dim_;        // this round's leaf and dimension, by lane
  std::vector<Range> boxes_[2];                               // this round's two boxes (every lane's half)
  std::vector<bool> has_[2];                                  // by lane: the half has values of its format
};

}  // namespace

template <class D>
std::optional<BasicDriverResult<D>> subdivide_lanes(const BasicKernelFn<D>& kernel,
                                                    std::span<const SymbolicDomainError<D>> inputs,
                                                    std::size_t n_out, const DriverOptions& opt,
                                                    const Deadline& deadline) {
  DriverReport rep;
  rep.box_explorations = 0;
  Subdivider<D> sub(kernel, inputs, n_out, opt, rep, deadline);
  return LaneSubdivision<D>(sub, inputs.size(), n_out).run();
}

#define SYMERR_DRIVER_SUBDIVIDE_LANES(D)                                                                       \
  template std::optional<BasicDriverResult<D>> subdivide_lanes<D>(                                             \
      const BasicKernelFn<D>&, std::span<const SymbolicDomainError<D>>, std::size_t, const DriverOptions&, \
      const Deadline&);
SYMERR_DRIVER_FOR_EACH_DOMAIN(SYMERR_DRIVER_SUBDIVIDE_LANES)

}  // namespace symerr::verify::driver_impl
