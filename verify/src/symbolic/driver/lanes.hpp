// The driver's explorer, lane layer: each lane's pending paths, the path
// each lane follows in a run (run r follows the r-th path of every lane),
// what a finished run records per lane (the joint hull, or a run of an
// unstable group), and the final enclosures.
#pragma once

#include "unstable_pairs.hpp"

namespace symerr::verify::driver_impl {

template <class D>
class LaneBook : public PairBounds<D> {
 protected:
  using Base = PairBounds<D>;
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
  using Base::group_result;

 public:
  using Base::out_of_time;
  LaneBook(const DriverOptions& o, std::size_t n_out, bool use_lanes, DriverReport& rep, std::span<const S> inputs,
           const Deadline& deadline)
      : Base(o, use_lanes, rep, inputs, deadline) {
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
    rep.lanes = n_lanes;
  }

  // The run in progress was abandoned (OutOfTime): its lanes' paths go back
  // to the pending ones, so that those lanes count as unexplored (unbounded
  // outputs, like the lanes the runs budget leaves).
  void abandon_run() {
    for (Lane& L : lanes_)
      if (L.current) {
        L.pending.push_back(std::move(*L.current));
        L.current.reset();
      }
  }

  // The first output of the run that would be recorded (a lane on a
  // feasible path) and still holds the driver's initial value (kUnwritten).
  std::optional<std::size_t> unwritten_output(std::span<const S> out) const {
    std::optional<std::size_t> first;
    for (const Lane& L : lanes_) {
      if (!L.current || L.infeasible) continue;
      for (std::size_t j : L.outputs)
        if (out[j].source == kUnwritten && (!first || j < *first)) first = j;
    }
    return first;
  }

  // Starts a run: every lane takes its next path. False when none is left.
  bool start_run() {
    adopted_.clear();  // a KernelBuffer kept past its run is not this run's
    recipes_.clear();
    bool any = false;
    for (Lane& L : lanes_) {
      L.current.reset();
      L.occurrence = 0;
      L.infeasible = false;
      L.conditions.clear();
      L.tag_conditions.clear();
      L.named.clear();
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
    std::shared_ptr<const std::vector<symerr::detail::QuantityRecipe>> table;  // the run's recipes, once
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
      if (it.role != Role::Joint) {
        Group& g = L.groups[it.group];
        typename Group::Run run{{}, L.conditions, L.named, {}};
        for (std::size_t j : L.outputs) run.outputs.push_back(out[j]);
        // the run's recipe table, moved once into a shared immutable table
        // (start_run clears recipes_ before the next run records into it)
        if (!table) table = std::make_shared<const std::vector<symerr::detail::QuantityRecipe>>(std::move(recipes_));
        run.recipes = table;
        (it.role == Role::Real ? g.real_runs : g.computed_runs).push_back(std::move(run));
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
    this->clear_jump_cache();
    for (Lane& L : lanes_) {
      const bool incomplete = !L.pending.empty() || L.overflow;
      if (L.overflow) report_.branches_exhausted = report_.budget_exhausted = true;  // a path cut: unbounded
      for (std::size_t k = 0; k < L.outputs.size(); ++k) {
        const std::size_t j = L.outputs[k];
        std::optional<S> acc = L.joint[k];
        for (const Group& g : L.groups)
          if (std::optional<S> z = group_result(g, k)) acc = join(acc, *z);
        if (incomplete || !acc) acc = unbounded_like(r[j]);
        // The real computation on the actual inputs (pr = real + propagated)
        // may decide a comparison unlike both the ideal and the computed
        // program, so after a driver-decided branch no whole-kernel split is
        // claimed; err, real and fp stay as joined.
        if (L.branched) acc->propagated = acc->introduced = D::whole();
        acc->source = -1;  // the driver's tags stay inside its runs
        r[j] = *acc;
      }
    }
    return r;
  }
};

}  // namespace symerr::verify::driver_impl
