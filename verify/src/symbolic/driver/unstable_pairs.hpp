// The driver's explorer, unstable-pair layer: the enclosure of an unstable
// group's outputs — real from the real paths, fp from the computed paths —
// and its err bounded pair by pair (real run, computed run): one quantity
// on both paths (the same recipe of operations), or the maximum of
// fp_c − real_r under both runs' path conditions (certified_max).
#pragma once

#include <map>
#include <unordered_set>

#include "jump_bound.hpp"
#include "quantities.hpp"

namespace symerr::verify::driver_impl {

template <class D>
class PairBounds : public ExplorerBase<D> {
 protected:
  using Base = ExplorerBase<D>;
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

 public:
  using Base::out_of_time;
  using Base::Base;

  // An unstable group's enclosure of lane output k: real from the real
  // paths, fp from the computed paths, err = fp − real, intersected with the
  // pairwise bound (pair_err). nullopt: a side without a feasible path (no
  // execution is unstable there).
  std::optional<S> group_result(const Group& g, std::size_t k) {
    auto has = [k](const std::vector<std::optional<S>>& side) { return side.size() > k && side[k].has_value(); };
    if (!has(g.real_side) || !has(g.computed_side)) return std::nullopt;
    S z = combine_unstable(*g.real_side[k], *g.computed_side[k]);
    if (symerr::detail::maybe_special(z)) return z;
    // Interval domains: a plain bound within the inputs' error ranges is kept
    // as it is (a copy-and-constant pair would at best narrow it inside them,
    // e.g. relu's [-e, 0]: the linear programs are not worth their cost there).
    if constexpr (!std::is_same_v<D, Affine>) {
      if (z.err.lower() >= input_err_lo_ && z.err.upper() <= input_err_hi_) {
        z.reduce();
        return z;
      }
    }
    // (out of time: the plain difference, which pair_err only narrows)
    if (const std::optional<std::pair<double, double>> p = out_of_time() ? std::nullopt : pair_err(g, k)) {
      if (p->first > p->second) return std::nullopt;  // certified: no execution is unstable here
      z.err = symerr::detail::meet(z.err, D::between(p->first, p->second));
    }
    z.reduce();
    return z;
  }

  // err of lane output k over the group's unstable executions, pair by pair.
  // An execution whose ideal control flow follows real run r and whose
  // computed control flow follows computed run c has err = fp_c − real_r, and
  // its symbol assignment ε* satisfies both runs' path conditions (the
  // comparisons taken, as linear functions of the compared operands: the real
  // operands on the real side, the computed ones on the computed side, both
  // before the divergence; see record). Each pair's err is bounded by the
  // maximum of fp_c − real_r over ε ∈ [-1, 1]^N under those conditions,
  // certified by weak duality (certified_max); the hull over pairs encloses
  // the err of every unstable execution of the group. This keeps the relation
  // between the compared values that the hull of each side loses (a running
  // maximum over locals, maxpool written with `if`). In the Affine domain the
  // quantities are the outputs' forms; in the interval domains an output
  // counts when it is a copy of an input (its real value and its error are
  // that input's symbols) or an exact constant. nullopt: no bound (a pair may
  // be special or unbounded, or an output is neither); lo > hi: no pair has an
  // execution (each pair's conditions certified contradictory).
  std::optional<std::pair<double, double>> pair_err(const Group& g, std::size_t k) const {
    const std::optional<std::pair<double, double>> plain = related_pair_err(g, k);
    if (plain && plain->first > plain->second) return plain;  // no execution at all
    const std::optional<std::pair<double, double>> jump =
        !opt_.jump_bounds || out_of_time() ? std::nullopt : jump_pair_err(g, k);
    if (!jump || !plain) return jump ? jump : plain;
    if (jump->first > jump->second) return jump;
    return std::pair{std::max(plain->first, jump->first), std::min(plain->second, jump->second)};
  }

  // pair_err by the same quantity on both runs and by the runs' conditions.
  std::optional<std::pair<double, double>> related_pair_err(const Group& g, std::size_t k) const {
    if (g.real_runs.empty() || g.computed_runs.empty()) return std::nullopt;
    // Output k made alike on every pair of paths (the same operations on the
    // same quantities, recipe for recipe: y = x1 * x2 after a branch on x0)
    // is one function of the inputs: an execution's err is that quantity's
    // error, which each side's enclosure holds on the executions of its path
    // (the real runs refine only real ranges after the divergence, the
    // computed runs only computed ones). Without this, such an output takes
    // the difference of the two paths' enclosures (x1 * x2 on [-1, 1]: 2,
    // against its own 2e-6).
    const std::optional<std::pair<double, double>> same = same_quantity_err(g, k);
    if (same && !std::is_same_v<D, Affine>) return same;
    const std::optional<std::pair<double, double>> rel = relational_pair_err(g, k);
    if (!same) return rel;
    if (!rel || rel->first > rel->second) return rel ? rel : same;  // (lo > hi: no execution at all)
    return std::pair{std::max(rel->first, same->first), std::min(rel->second, same->second)};
  }

  // The hull of output k's err over the group's runs, if output k is the
  // same quantity on every (real run, computed run) pair; else nullopt.
  std::optional<std::pair<double, double>> same_quantity_err(const Group& g, std::size_t k) const {
    for (const auto& r : g.real_runs)
      for (const auto& c : g.computed_runs)
        if (!same_quantity(g, r, r.outputs[k].source, c, c.outputs[k].source)) return std::nullopt;
    double lo = INFINITY, hi = -INFINITY;
    for (const auto* runs : {&g.real_runs, &g.computed_runs})
      for (const auto& run : *runs) {
        const S& v = run.outputs[k];
        if (symerr::detail::maybe_special(v)) return std::nullopt;
        lo = std::min(lo, v.err.lower());
        hi = std::max(hi, v.err.upper());
      }
    return std::pair{lo, hi};
  }

  // Whether tag a on run r and tag b on run c stand for one quantity: the
  // same input or quantity made before the divergence, or quantities made
  // after it by the same recipe from operands that are (recursively) one
  // quantity or the same constants.
  bool same_quantity(const Group& g, const typename Group::Run& r, std::int32_t a, const typename Group::Run& c,
                     std::int32_t b) const {
    std::vector<std::pair<std::uint32_t, std::uint32_t>> todo;
    std::unordered_set<std::uint64_t> seen;  // the pairs met (a DAG: each compared once)
    auto push = [&](std::int32_t x, std::int32_t y) {
      const std::optional<std::size_t> p = quantity_of(x), q = quantity_of(y);
      if (!p || !q) return false;
      const bool shared_p = *p < inputs_.size() || *p < g.shared, shared_q = *q < inputs_.size() || *q < g.shared;
      if (shared_p || shared_q) return *p == *q;
      const std::pair<std::uint32_t, std::uint32_t> pq{static_cast<std::uint32_t>(*p), static_cast<std::uint32_t>(*q)};
      if (seen.insert(std::uint64_t{pq.first} << 32 | pq.second).second) todo.push_back(pq);
      return true;
    };
    // (numbers are handed out in increasing order: the table is sorted)
    auto recipe = [](const typename Group::Run& run, std::uint32_t n) -> const symerr::detail::QuantityRecipe* {
      if (!run.recipes) return nullptr;
      const std::vector<symerr::detail::QuantityRecipe>& table = *run.recipes;
      const auto it = std::lower_bound(table.begin(), table.end(), n,
                                       [](const auto& x, std::uint32_t m) { return x.number < m; });
      return it != table.end() && it->number == n ? &*it : nullptr;
    };
    if (!push(a, b)) return false;
    while (!todo.empty()) {
      if (seen.size() > kMaxRecipes) return false;
      const auto [p, q] = todo.back();
      todo.pop_back();
      const symerr::detail::QuantityRecipe *x = recipe(r, p), *y = recipe(c, q);
      if (!x || !y || !symerr::detail::same_making(*x, *y)) return false;
      for (int i = 0; i < 2; ++i)
        if (x->operand[i] >= 0 && !push(x->operand[i], y->operand[i])) return false;
    }
    return true;
  }

  // err of lane output k pair by pair as err_c + (real_c − real_r): the
  // computed run's own error plus the ideal program's jump between the two
  // control flows (jump_bound.hpp), where output k is made alike on both runs
  // but for leaves that differ (a running maximum with `if`); nullopt: some
  // pair has no such bound; lo > hi: no pair has an execution. Computed for
  // every output of the group at once (one walk per pair), kept for the others.
  std::optional<std::pair<double, double>> jump_pair_err(const Group& g, std::size_t k) const {
    auto it = jump_cache_.find(&g);
    if (it == jump_cache_.end()) it = jump_cache_.emplace(&g, jump_group_err(g)).first;
    return k < it->second.size() ? it->second[k] : std::nullopt;
  }
  // Forgets the groups' jump bounds (results() starts with it: the groups are
  // then final, and a group's address is its key only until they change).
  void clear_jump_cache() { jump_cache_.clear(); }

  std::vector<std::optional<std::pair<double, double>>> jump_group_err(const Group& g) const {
    if (g.real_runs.empty() || g.computed_runs.empty()) return {};
    const std::size_t n = g.real_runs.front().outputs.size();
    std::vector<std::optional<Interval>> hull_err(n);
    std::vector<bool> failed(n, false);
    // (the conditions as Lins only when a leaves' difference is asked for)
    std::optional<std::vector<std::vector<Lin>>> real_h, computed_h;
    for (std::size_t ri = 0; ri < g.real_runs.size(); ++ri)
      for (std::size_t ci = 0; ci < g.computed_runs.size(); ++ci) {
        if (out_of_time()) return {};
        const auto& r = g.real_runs[ri];
        const auto& c = g.computed_runs[ci];
        if (!r.recipes || !c.recipes || r.outputs.size() != n || c.outputs.size() != n) return {};
        std::vector<std::pair<std::int32_t, std::int32_t>> tags;
        for (std::size_t k = 0; k < n; ++k) tags.emplace_back(r.outputs[k].source, c.outputs[k].source);
        std::vector<const Lin*> h;
        auto conditions = [&]() -> const std::vector<const Lin*>& {
          if (!real_h) real_h = run_conditions(g, g.real_runs), computed_h = run_conditions(g, g.computed_runs);
          if (h.empty())
            for (const auto* side : {&(*real_h)[ri], &(*computed_h)[ci]})
              for (const Lin& x : *side) h.push_back(&x);
          return h;
        };
        bool empty = false;
        const std::vector<std::optional<Interval>> j = jump_bound(*r.recipes, *c.recipes, tags,
                                                                  jump_leaves(g, r, conditions, empty));
        if (empty) continue;  // certified: no execution follows this pair
        for (std::size_t k = 0; k < n; ++k) {
          const S& a = r.outputs[k];
          const S& b = c.outputs[k];
          if (!j[k] || symerr::detail::maybe_special(a) || symerr::detail::maybe_special(b) || !is_bounded(b.err)) {
            failed[k] = true;
            continue;
          }
          const Interval e = Interval::between(b.err.lower(), b.err.upper()) + *j[k];
          hull_err[k] = hull_err[k] ? hull(*hull_err[k], e) : e;
        }
      }
    std::vector<std::optional<std::pair<double, double>>> out(n);
    for (std::size_t k = 0; k < n; ++k) {
      if (failed[k]) continue;
      out[k] = hull_err[k] ? std::pair{hull_err[k]->lower(), hull_err[k]->upper()}
                           : std::pair{double(INFINITY), -double(INFINITY)};
    }
    return out;
  }

  // The group's quantities as jump_bound reads them: shared ones are inputs
  // and quantities numbered before the divergence; ranges are the inputs'
  // real ranges and the named values' at their first comparison; the
  // difference of two leaves is bounded under the pair's conditions h (empty
  // set when they are certified contradictory).
  template <class Conditions>
  JumpLeaves jump_leaves(const Group& g, const typename Group::Run& r, Conditions& conditions, bool& empty) const {
    JumpLeaves l;
    l.quantity_of = [this](std::int32_t t) { return quantity_of(t); };
    l.shared = [this, &g](std::size_t q) { return q < inputs_.size() || q < g.shared; };
    l.range = [this, &r](std::size_t q) -> std::optional<Interval> {
      if (q < inputs_.size()) {
        const S& in = inputs_[q];
        if (symerr::detail::maybe_special(in) || !is_bounded(in.real)) return std::nullopt;
        return Interval::between(in.real.lower(), in.real.upper());
      }
      for (const Named& n : r.named)
        if (n.quantity == q) return Interval::between(n.real_lo, n.real_hi);
      return std::nullopt;
    };
    l.delta = [this, &g, &r, &conditions, &empty, range = l.range](std::size_t a, std::size_t b) -> std::optional<Interval> {
      const std::optional<Interval> ra = range(a), rb = range(b);
      if (!ra || !rb) return std::nullopt;
      const Interval plain = *ra - *rb;
      const Names names{&r.named, g.shared};
      std::optional<Lin> la = quantity_lin(a, false, names), lb = quantity_lin(b, false, names);
      if constexpr (std::is_same_v<D, Affine>) {
        if (a < inputs_.size()) la = lin_of(inputs_[a].real);
        if (b < inputs_.size()) lb = lin_of(inputs_[b].real);
      }
      const std::optional<Lin> d = la && lb ? difference(*la, *lb) : std::nullopt;
      if (!d) return plain;
      const std::vector<const Lin*>& h = conditions();
      const double hi = certified_max(*d, h, 1), lo = -certified_max(*d, h, -1);
      if (lo > hi) {
        empty = true;
        return std::nullopt;
      }
      const std::optional<Interval> m = intersect(plain, Interval::between(lo, hi));
      return m ? *m : plain;
    };
    return l;
  }

  // The pairwise bound by path conditions (see pair_err).
  std::optional<std::pair<double, double>> relational_pair_err(const Group& g, std::size_t k) const {
    if constexpr (!std::is_same_v<D, Affine>) {
      if (!worth_relating(g, k)) return std::nullopt;
    }
    const std::vector<std::vector<Lin>> real_h = run_conditions(g, g.real_runs),
                                        computed_h = run_conditions(g, g.computed_runs);
    double lo = INFINITY, hi = -INFINITY;
    for (std::size_t ri = 0; ri < g.real_runs.size(); ++ri)
      for (std::size_t ci = 0; ci < g.computed_runs.size(); ++ci) {
        // a group's pairs are (real runs) x (computed runs) linear programs:
        // a maxpool of 4x4 FP32 inputs without lanes spent minutes here
        if (out_of_time()) return std::nullopt;
        const std::optional<std::pair<double, double>> p = pair_bound(g, k, ri, ci, real_h[ri], computed_h[ci]);
        if (!p) return std::nullopt;
        lo = std::min(lo, p->first);
        hi = std::max(hi, p->second);
      }
    return std::pair{lo, hi};  // lo > hi: every pair's conditions are contradictory (no execution)
  }

  // Interval domains: whether the pairs' programs can narrow output k's err.
  // Every output must be a copy of an input or a constant (checked before
  // any condition is converted: softmax's exp(x − m) leaves at once). One
  // pair (both runs feasible) whose conditions name neither output's input
  // cannot narrow err below the plain difference (where(c, a, b): the
  // conditions are on c): no linear program then. (With more pairs, such a
  // pair may still be contradictory, which only the program shows.)
  bool worth_relating(const Group& g, std::size_t k) const {
    using Run = typename Group::Run;
    auto related = [this, k, &g](const std::vector<Run>& runs, bool computed) {
      return std::all_of(runs.begin(), runs.end(), [this, k, &g, computed](const Run& run) {
        return this->shared_quantity(run.outputs[k], g).has_value() ||
               this->value_lin(run.outputs[k], computed, Names{&run.named, g.shared}).has_value();
      });
    };
    if (!related(g.real_runs, false) || !related(g.computed_runs, true)) return false;
    if (g.real_runs.size() != 1 || g.computed_runs.size() != 1) return true;
    const auto& r = g.real_runs.front();
    const auto& c = g.computed_runs.front();
    const std::optional<std::size_t> p = quantity_of(r.outputs[k].source), q = quantity_of(c.outputs[k].source);
    if (p && q && *p == *q) return true;
    auto names = [&](const Cond& cond) {
      for (std::int32_t i : cond.input)
        if (i >= 0 && ((p && *p == static_cast<std::size_t>(i)) || (q && *q == static_cast<std::size_t>(i))))
          return true;
      return false;
    };
    return std::any_of(r.conditions.begin(), r.conditions.end(), names) ||
           std::any_of(c.conditions.begin(), c.conditions.end(), names);
  }

  // Each run's path conditions as Lins (a condition naming a computed value
  // named after the divergence is left out: in the other run that name may
  // stand for another quantity; leaving a condition out only widens the bound).
  std::vector<std::vector<Lin>> run_conditions(const Group& g, const std::vector<typename Group::Run>& runs) const {
    std::vector<std::vector<Lin>> out(runs.size());
    for (std::size_t i = 0; i < runs.size(); ++i)
      for (const Cond& cond : runs[i].conditions)
        if (std::optional<Lin> l = condition_lin(cond, Names{&runs[i].named, g.shared}))
          out[i].push_back(std::move(*l));
    return out;
  }

  // Output k's err on the executions following real run ri and computed run
  // ci, under both runs' conditions (real_h, computed_h); nullopt: no bound.
  std::optional<std::pair<double, double>> pair_bound(const Group& g, std::size_t k, std::size_t ri, std::size_t ci,
                                                      const std::vector<Lin>& real_h,
                                                      const std::vector<Lin>& computed_h) const {
    const S& a = g.real_runs[ri].outputs[k];
    const S& b = g.computed_runs[ci].outputs[k];
    if (symerr::detail::maybe_special(a) || symerr::detail::maybe_special(b)) return std::nullopt;
    if (!is_bounded(a.real) || !is_bounded(b.fp) || !is_bounded(a.fp) || !is_bounded(b.real) || !is_bounded(a.err) ||
        !is_bounded(b.err))
      return std::nullopt;
    std::vector<const Lin*> h;
    for (const auto* side : {&real_h, &computed_h})
      for (const Lin& x : *side)
        if (std::none_of(h.begin(), h.end(), [&x](const Lin* y) { return y->c0 == x.c0 && y->terms == x.terms; }))
          h.push_back(&x);
    double pair_lo = -INFINITY, pair_hi = INFINITY;
    auto bound = [&](const Lin& err) {
      pair_hi = std::min(pair_hi, certified_max(err, h, 1));
      pair_lo = std::max(pair_lo, -certified_max(err, h, -1));
    };
    if constexpr (std::is_same_v<D, Affine>) {
      // three forms of the same quantity fp_c − real_r: directly; the
      // computed run's error plus the ideal program's jump between the two
      // control flows (err_c + real_c − real_r: tight where the result is
      // continuous across the switch); the real run's error plus the
      // machine program's jump (err_r + fp_c − fp_r). Each bound is sound:
      // their intersection is kept.
      for (const Affine& err : {b.fp - a.real, b.err + (b.real - a.real), a.err + (b.fp - a.fp)}) {
        pair_hi = std::min(pair_hi, err.upper());
        pair_lo = std::max(pair_lo, err.lower());
        bound(lin_of(err));
      }
    } else {
      const std::optional<std::size_t> p = shared_quantity(a, g), q = shared_quantity(b, g);
      if (p && q && *p == *q) {  // one quantity on both sides: err = its error
        if (*p < inputs_.size()) {
          pair_lo = inputs_[*p].err.lower(), pair_hi = inputs_[*p].err.upper();
        } else {  // (each side's copy encloses it on executions of its path; both, their hull)
          pair_lo = std::min(a.err.lower(), b.err.lower()), pair_hi = std::max(a.err.upper(), b.err.upper());
        }
      } else {
        const std::optional<Lin> real_a = value_lin(a, false, Names{&g.real_runs[ri].named, g.shared}),
                                 fp_b = value_lin(b, true, Names{&g.computed_runs[ci].named, g.shared});
        if (!real_a || !fp_b) return std::nullopt;
        const std::optional<Lin> err = difference(*fp_b, *real_a);
        if (!err) return std::nullopt;
        bound(*err);
      }
      ++report_.relational_pairs;
    }
    return std::pair{pair_lo, pair_hi};
  }
 private:
  // jump_pair_err's results by group, for the outputs (see clear_jump_cache)
  mutable std::map<const Group*, std::vector<std::optional<std::pair<double, double>>>> jump_cache_;
};

}  // namespace symerr::verify::driver_impl
