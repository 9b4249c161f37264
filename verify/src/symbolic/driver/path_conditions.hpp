// The driver's explorer, path-condition layer: the modifiable objects
// behind a comparison's operands (tightened to the outcome taken), the
// linear conditions each outcome puts on a path, the computed values named
// at their first comparison, and whether an outcome contradicts its path.
#pragma once

#include <functional>

#include "lanes.hpp"

namespace symerr::verify::driver_impl {

template <class D>
class PathConditions : public LaneBook<D> {
 protected:
  using Base = LaneBook<D>;
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

 protected:
  // The element of the driver's own buffers at address p, or null (std::less
  // orders unrelated pointers; inside a buffer p is an element's address);
  // then the adopted buffers (KernelBuffer), compared as addresses.
  S* owned(const void* p) const {
    const S* q = static_cast<const S*>(p);
    const std::less<const S*> before;
    for (std::span<S> buf : {in_, out_})
      if (!buf.empty() && !before(q, buf.data()) && before(q, buf.data() + buf.size()))
        return &buf[static_cast<std::size_t>(q - buf.data())];
    const auto a = reinterpret_cast<std::uintptr_t>(p);
    for (const detail::AdoptedBuffer& b : adopted_)
      if (a >= b.begin && a < b.begin + b.count * b.stride && (a - b.begin) % b.stride == 0)
        return static_cast<S*>(b.at(b.begin, (a - b.begin) / b.stride));
    return nullptr;
  }

  // Whether x still holds the compared value of operand `side`.
  static bool unchanged(const S& x, const ComparisonInfo& info, int side) {
    return x.real.lower() == info.real[side][0] && x.real.upper() == info.real[side][1] &&
           x.fp.lower() == info.fp[side][0] && x.fp.upper() == info.fp[side][1];
  }

  // The modifiable object behind operand `side`, or null: an element of the
  // driver's buffers, or an operand that was a non-const lvalue (exposed by
  // the comparison as a target), provided the comparison is the thread's
  // latest and the operand still holds the compared value (a Truth kept past
  // its operands' full-expression would point at storage reused since).
  // Never a const object: nothing is cast away.
  S* target_of(const ComparisonInfo& info, int side) const {
    const void* p = side == 0 ? info.lhs : info.rhs;
    if (!p) return nullptr;
    if (S* o = owned(p)) return o;
    void* t = side == 0 ? info.lhs_target : info.rhs_target;
    if (!t || info.serial != symerr::detail::comparison_serial()) return nullptr;
    S* x = static_cast<S*>(t);
    return unchanged(*x, info, side) ? x : nullptr;
  }

  // The path condition on the compared operands that can be tightened.
  // Returns false when the outcome is infeasible (no execution takes it).
  bool refine(const ComparisonInfo* info, S* const (&targets)[2], Step step, bool ideal_side, bool computed_side) {
    bool infeasible = false;
    if (!info || !info->refine) return true;
    for (int s = 0; s < 2; ++s) {
      S* x = targets[s];
      if (!x || (s == 1 && x == targets[0])) continue;
      // With lanes, an operand of no lane (a broadcast input, a constant) is
      // shared by every lane's path in this run: never tightened.
      if (!single_ && x->origin != info->lane) continue;
      if (!info->refine(x, *info, s == 0, step.ideal, step.computed, ideal_side, computed_side)) infeasible = true;
      ++report_.refined_operands;
    }
    return !infeasible;
  }

  // The sign of a − b on the executions where `a R b` has the given outcome:
  // 1 (>= 0), -1 (<= 0), 2 (= 0), 0 (unknown).
  static int outcome_sign(Relation r, bool outcome) {
    switch (outcome ? r : negated(r)) {
      case Relation::Lt:
      case Relation::Le: return -1;
      case Relation::Gt:
      case Relation::Ge: return 1;
      case Relation::Eq: return 2;
      default: return 0;
    }
  }

  // Appends the comparison's outcome to the lane's path condition, as linear
  // functions h <= 0 of the difference a − b of the compared operands (the
  // real ones for the ideal outcome, the computed ones for the computed
  // outcome): their forms in the Affine domain, their inputs' symbols in the
  // interval domains (value_lin). Operands are the checked addresses found
  // once per comparison and also used for tightening (read before it;
  // tightening keeps the forms and the tags anyway); an operand without one
  // (a const object: std::max's `a < b`) counts by the input tag the
  // comparison copied (interval domains), or when it is a constant (a point
  // range). Operands that may be
  // special are skipped (a comparison with NaN is false whatever the forms).
  void record(Lane& L, const ComparisonInfo* info, S* const (&ops)[2], Step step, bool ideal_side,
              bool computed_side) {
    for (int side = 0; side < 2; ++side) {  // 0: real / ideal outcome, 1: fp / computed outcome
      if (side == 0 ? !ideal_side : !computed_side) continue;
      for (const SideCondition& c : side_conditions(info, ops, side, side == 0 ? step.ideal : step.computed)) {
        std::vector<Cond>& list = c.cond.by_input ? L.tag_conditions : L.conditions;
        if (std::find(list.begin(), list.end(), c.cond) == list.end()) list.push_back(c.cond);
      }
    }
  }

  // The conditions h <= 0 that outcome `outcome` of the comparison puts on
  // one side (0: the ideal outcome, on the real values; 1: the computed one,
  // on the fp values); `strict` where the outcome also excludes h = 0
  // (a < b true, a <= b false). Empty where the outcome says nothing linear.
  struct SideCondition {
    Cond cond;
    bool strict = false;
  };
  std::vector<SideCondition> side_conditions(const ComparisonInfo* info, S* const (&ops)[2], int side,
                                             bool outcome) const {
    std::vector<SideCondition> out;
    if (!info || info->relation == Relation::Other) return out;
    for (const S* x : ops)
      if (x && symerr::detail::maybe_special(*x)) return out;
    const int sign = outcome_sign(info->relation, outcome);
    if (sign == 0) return out;
    const Relation taken = outcome ? info->relation : negated(info->relation);
    const bool strict = taken == Relation::Lt || taken == Relation::Gt;
    auto push = [&out, sign, strict](Cond cond) {
      if (sign != 1) out.push_back({cond, strict});  // a − b <= 0 (< 0)
      if (sign != -1) {                                // a − b >= 0 (> 0)
        cond.flip = true;
        out.push_back({cond, strict});
      }
    };
    Cond cond;
    cond.computed = side == 1;
    if constexpr (std::is_same_v<D, Affine>) {
      std::optional<Affine> v[2];
      for (int o = 0; o < 2; ++o) {
        const double* r = side == 0 ? info->real[o] : info->fp[o];
        if (ops[o]) v[o] = side == 0 ? ops[o]->real : ops[o]->fp;
        else if (info->has_forms) v[o] = std::bit_cast<Affine>(info->forms[o][side]);  // a temporary's form
        else if (r[0] == r[1] && std::isfinite(r[0])) v[o] = Affine::point(r[0]);
      }
      if (v[0] && v[1]) {
        Cond f = cond;
        f.form = *v[0] - *v[1];
        push(f);
      }
      cond.by_input = true;  // and by the operands' input tags, where both have one (or are constants)
    }
    for (int o = 0; o < 2; ++o) {
      const double* r = side == 0 ? info->real[o] : info->fp[o];
      if (const std::optional<std::size_t> i = quantity_of(ops[o] ? ops[o]->source : info->source[o]))
        cond.input[o] = static_cast<std::int32_t>(*i);
      else if (r[0] == r[1] && std::isfinite(r[0]))
        cond.value[o] = r[0];
      else
        return out;
    }
    if (cond.input[0] >= 0 || cond.input[1] >= 0 || !std::is_same_v<D, Affine>) push(cond);
    return out;
  }

  // Records the compared quantities met for the first time on the run (see
  // Named), and numbers the compared modifiable objects that hold an untagged
  // computed value, so that this and later comparisons of the value — and,
  // in the interval domains, outputs that are copies of it — are related by
  // the path conditions and the unstable-pair bound as copies of inputs are:
  // std::sort of computed values (`v[i] = x[i] * s`) ran contradictory paths
  // (see outcome_feasible), in the Affine domain too on sub-boxes, where a
  // tightened value's form can be replaced (its tag conditions then still
  // relate it), and a running maximum of computed values had err = the whole
  // range in the interval domains.
  void name_operands(Lane& L, const ComparisonInfo* info, S* const (&targets)[2]) {
    if (!info) return;
    for (int o = 0; o < 2; ++o) {
      S* x = targets[o];
      std::optional<std::size_t> q = quantity_of(x ? x->source : info->source[o]);
      if (q && *q < inputs_.size()) continue;  // an input
      if (q && std::any_of(L.named.begin(), L.named.end(), [&q](const Named& n) { return n.quantity == *q; }))
        continue;  // recorded
      double rl = info->real[o][0], rh = info->real[o][1], el = info->err[o][0], eh = info->err[o][1];
      if (x) {
        if (symerr::detail::maybe_special(*x) || !is_bounded(x->real) || !is_bounded(x->err)) continue;
        rl = x->real.lower(), rh = x->real.upper(), el = x->err.lower(), eh = x->err.upper();
      } else if (!std::isfinite(rl) || !std::isfinite(rh) || !std::isfinite(el) || !std::isfinite(eh)) {
        continue;
      }
      if (!q) {  // an untagged object: numbered now
        if (!x) continue;
        symerr::detail::QuantityNumbering& n = symerr::detail::quantity_numbering();
        if (n.generation != generation_ || n.next >= 0xFFFFu) continue;
        q = n.next++;
        x->source = static_cast<std::int32_t>((static_cast<std::uint32_t>(generation_) << 16) |
                                              static_cast<std::uint32_t>(*q));
        symerr::detail::QuantityRecipe unknown;  // (of unknown making: matched by its number only)
        unknown.number = static_cast<std::uint32_t>(*q);
        recipes_.push_back(unknown);
      }
      L.named.push_back({static_cast<std::uint32_t>(*q), rl, rh, el, eh});
    }
  }

  // Whether the outcome `step` of a comparison met for the first time on the
  // current path can still hold, given the path's condition so far: false
  // when the conditions it adds contradict the recorded ones (certified
  // exactly: certified_max, the strict outcomes included: a < b after a >= b
  // on the same operands). A path that contradicts itself has no execution,
  // and running the kernel along it could make it misbehave: std::sort's
  // unguarded insertion trusts that `val < *first` stays false once it was,
  // and walked off the front of its buffer when the driver answered the two
  // comparisons independently (heap corruption). Only conditions sharing a
  // symbol, transitively, with the new ones take part.
  bool outcome_feasible(const Lane& L, const ComparisonInfo* info, S* const (&ops)[2], Step step, bool ideal_side,
                        bool computed_side) const {
    if (L.conditions.empty() && L.tag_conditions.empty()) return true;
    struct Fresh {
      Lin h;
      bool strict, computed;
    };
    std::vector<Fresh> fresh;  // the new conditions
    for (int side = 0; side < 2; ++side) {
      if (side == 0 ? !ideal_side : !computed_side) continue;
      for (const SideCondition& c : side_conditions(info, ops, side, side == 0 ? step.ideal : step.computed))
        if (std::optional<Lin> l = condition_lin(c.cond, Names{&L.named}))
          fresh.push_back({std::move(*l), c.strict, c.cond.computed});
    }
    if (fresh.empty()) return true;
    std::vector<std::pair<Lin, bool>> pool;  // with the side (computed) it states
    for (const std::vector<Cond>* list : {&L.conditions, &L.tag_conditions})
      for (const Cond& c : *list)
        if (std::optional<Lin> l = condition_lin(c, Names{&L.named}))
          if (std::none_of(pool.begin(), pool.end(), [&l](const auto& y) {
                return y.first.c0 == l->c0 && y.first.terms == l->terms;
              }))
            pool.emplace_back(std::move(*l), c.computed);
    for (std::size_t k = 0; k < fresh.size(); ++k) {
      // h_k <= 0 (< 0) has no execution iff max(−h_k) under the others is < 0 (<= 0)
      Lin neg = fresh[k].h;
      neg.c0 = -neg.c0;
      for (auto& t : neg.terms) t.second = -t.second;
      // First with the conditions on the same side only, then with all: a
      // subset of the conditions bounds the maximum from above as well, and
      // the simplex search in double can miss a contradiction among the real
      // conditions when computed ones take part (their error terms, 1e-16
      // for a rounded FP64 product, are below its rounding threshold: the
      // insertion sort of x[i] · 1.5 in FP64 ran 19 contradictory paths).
      for (bool same_side : {true, false}) {
        std::vector<const Lin*> others;
        for (std::size_t j = 0; j < fresh.size(); ++j)
          if (j != k && (!same_side || fresh[j].computed == fresh[k].computed)) others.push_back(&fresh[j].h);
        for (const auto& [y, computed] : pool)
          if (!same_side || computed == fresh[k].computed) others.push_back(&y);
        const std::vector<const Lin*> h = connected(fresh[k].h, others);
        if (h.empty()) continue;
        const double m = certified_max(neg, h, 1, false);
        if (fresh[k].strict ? m <= 0 : m < 0) return false;
      }
    }
    return true;
  }

  // The conditions of `pool` linked to `seed` by shared symbols, transitively.
  static std::vector<const Lin*> connected(const Lin& seed, const std::vector<const Lin*>& pool) {
    std::vector<std::uint32_t> symbols;
    for (const auto& t : seed.terms) symbols.push_back(t.first);
    std::vector<const Lin*> out;
    std::vector<bool> taken(pool.size(), false);
    for (bool grew = true; grew;) {
      grew = false;
      for (std::size_t j = 0; j < pool.size(); ++j) {
        if (taken[j]) continue;
        const bool linked = std::any_of(pool[j]->terms.begin(), pool[j]->terms.end(), [&symbols](const auto& t) {
          return std::find(symbols.begin(), symbols.end(), t.first) != symbols.end();
        });
        if (!linked) continue;
        taken[j] = grew = true;
        out.push_back(pool[j]);
        for (const auto& t : pool[j]->terms)
          if (std::find(symbols.begin(), symbols.end(), t.first) == symbols.end()) symbols.push_back(t.first);
      }
    }
    return out;
  }
};

}  // namespace symerr::verify::driver_impl
