// The driver's subdivision, common part: sub-boxes (Range), their leaves,
// scores and the stall rule's relative test, the meet of a half with its
// parent, and the Subdivider that explores one box (in its own Affine
// context where the domain needs one).
#pragma once

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <type_traits>

#include <symerr/domains/affine.hpp>

#include "parts.hpp"

namespace symerr::verify::driver_impl {

// Affine values are handles into a context: a box explored in its own context
// keeps its outputs as intervals (SymbolicDomainError<Interval>); the other
// domains keep their own values.
template <class D>
constexpr bool context_bound = std::is_same_v<D, Affine>;
template <class D>
using Stored = std::conditional_t<context_bound<D>, SymbolicDomainError<Interval>, SymbolicDomainError<D>>;

template <class To, class From>
SymbolicDomainError<To> convert_fields(const SymbolicDomainError<From>& x) {
  auto field = [](const From& f) {
    if (!is_bounded(f)) return To::whole();
    return To::between(f.lower(), f.upper());
  };
  SymbolicDomainError<To> z;
  z.real = field(x.real), z.fp = field(x.fp), z.err = field(x.err), z.rel_err = field(x.rel_err);
  z.propagated = field(x.propagated), z.introduced = field(x.introduced);
  z.format = x.format, z.mode = x.mode, z.int_division = x.int_division, z.specials = x.specials;
  z.mixed = x.mixed;
  z.origin = x.origin;
  return z;
}

struct Range {
  double lo, hi;
};

// The score of a box: the largest sup|err| over its outputs (+inf when one may
// be special).
template <class V>
double score_of(const std::vector<V>& outputs) {
  double s = 0;
  for (const V& v : outputs) s = std::max(s, symerr::detail::maybe_special(v) ? INFINITY : mag(v.err));
  return s;
}

// The box's score is set by an output whose err is at least half the
// product of its rel_err and real ranges: a bound of the relative kind
// (relative.hpp: rel_err · real itself, or the quotient identity
// e_x / fp_y − real_z · r_y / (1 + r_y), a little below it), which moves
// with the box's largest |real| only, so it stays under most splits until
// the absolute one, which shrinks with the box, falls below it — a split
// there is no stall (softmax: the relative bound of a corner box stays
// while its absolute bound converges). The same for the mixed bound
// rel · |real| + abs (mixed_error.hpp) of an output whose real range holds 0
// (a normalisation x / √(Σx²/n + ε)).
template <class V>
bool relative_limited(const std::vector<V>& outputs, double score) {
  for (const V& v : outputs) {
    if (symerr::detail::maybe_special(v) || !(mag(v.err) >= score) || !is_bounded(v.real)) continue;
    if (is_bounded(v.rel_err) && mag(v.err) >= 0.5 * (mag(v.rel_err) * mag(v.real))) return true;
    // (a pair of the relative kind only: rel·max|real| at least abs — every
    // value has the pair (0, max|err|) from its own err, which would make
    // every box count and the stall rule never stop a subdivision)
    if (v.mixed.known() && v.mixed.rel > 0 && v.mixed.rel * mag(v.real) >= v.mixed.abs &&
        mag(v.err) >= 0.5 * symerr::detail::mixed_error_bound<typename V::domain_type>(v.mixed, mag(v.real)))
      return true;
  }
  return false;
}

// child ∩ parent, field by field (real, fp, err, rel_err, propagated,
// introduced; the special-state flags by "and"): sound for a child box inside
// the parent box, since every execution of the child is one of the parent's
// and both results enclose it. So a split never widens a bound (a half whose
// own exploration is looser, e.g. a relation the smaller box no longer
// decides, keeps the parent's). A field whose two enclosures are disjoint
// means that no execution lies in the child (e.g. Affine inputs that are one
// quantity, on a box where their ranges differ) if the child's executions are
// all finite and defined: false, and the caller drops the child. Flags that
// would admit no execution keep the child's.
template <class V>
bool narrow_to_parent(std::vector<V>& child, const std::vector<V>& parent) {
  bool some = true;
  for (std::size_t j = 0; j < child.size() && j < parent.size(); ++j) {
    V& c = child[j];
    const V& p = parent[j];
    // the fields describe the finite, defined executions: disjoint ones rule
    // out the child only where it has no other kind (else it is kept as is)
    const bool plain = !symerr::detail::maybe_special(c);
    auto meet = [&some, plain](auto& a, const auto& b) {
      if (auto m = intersect(a, b)) a = *m;
      else if (plain) some = false;
    };
    meet(c.real, p.real), meet(c.fp, p.fp), meet(c.err, p.err), meet(c.rel_err, p.rel_err);
    meet(c.propagated, p.propagated), meet(c.introduced, p.introduced);
    SpecialStates s = c.specials;
    const SpecialStates& q = p.specials;
    s.may_be_finite = s.may_be_finite && q.may_be_finite;
    s.may_be_pos_inf = s.may_be_pos_inf && q.may_be_pos_inf;
    s.may_be_neg_inf = s.may_be_neg_inf && q.may_be_neg_inf;
    s.may_be_nan = s.may_be_nan && q.may_be_nan;
    s.may_be_pos_zero = s.may_be_pos_zero && q.may_be_pos_zero;
    s.may_be_neg_zero = s.may_be_neg_zero && q.may_be_neg_zero;
    s.may_be_defined = s.may_be_defined && q.may_be_defined;
    s.may_be_undefined = s.may_be_undefined && q.may_be_undefined;
    s.may_overflow = s.may_overflow && q.may_overflow;
    const bool some_value = s.may_be_finite || s.may_be_pos_inf || s.may_be_neg_inf || s.may_be_nan;
    if (some_value && (s.may_be_defined || s.may_be_undefined)) c.specials = s;
  }
  return some;
}

template <class D>
struct Leaf {
  std::vector<Range> box;
  std::vector<Stored<D>> outputs;
  double score = 0;
  bool budget_exhausted = false;
  unsigned stalls = 0;  // consecutive splits (up to this box) that did not lower the score
};

template <class D>
class Subdivider {
  using S = SymbolicDomainError<D>;

 public:
  Subdivider(const BasicKernelFn<D>& k, std::span<const S> inputs, std::size_t n_out, const DriverOptions& o,
             DriverReport& rep, const Deadline& deadline)
      : kernel_(k), inputs_(inputs), n_out_(n_out), opt_(o), rep_(rep), deadline_(deadline) {
    for (const S& x : inputs) {
      root_.push_back({x.real.lower(), x.real.upper()});
      if ((context_bound<D> || o.input_error) && symerr::detail::maybe_special(x))
        throw std::invalid_argument("run_kernel: subdivision in the Affine domain or with an input error model "
                                    "needs inputs that cannot be NaN, infinite or undefined");
      base_.push_back(convert_fields<Interval>(x));
    }
  }

  const std::vector<Range>& root() const { return root_; }
  DriverReport& report() { return rep_; }

  // Explores one box; nullopt when no execution lies in it (some input's
  // sub-range has no value of its format).
  std::optional<Leaf<D>> explore(const std::vector<Range>& box) {
    const std::size_t left = opt_.max_runs > rep_.runs ? opt_.max_runs - rep_.runs : 0;
    if (left == 0) rep_.runs_exhausted = true;
    if (left == 0 || out_of_time()) return Leaf<D>{box, {}, INFINITY, true, 0};
    ++rep_.box_explorations;
    std::optional<Leaf<D>> leaf;
    if constexpr (context_bound<D>) {
      AffineContext ctx;
      AffineScope scope(ctx);
      std::vector<S> in;
      if (!rebuild(box, in)) return std::nullopt;
      leaf = finish(box, explore_box<D>(kernel_, in, n_out_, opt_, left, deadline_));
    } else {
      std::vector<S> in(inputs_.begin(), inputs_.end());
      if (opt_.input_error) {
        if (!rebuild(box, in)) return std::nullopt;
      } else {
        for (std::size_t i = 0; i < box.size(); ++i) {
          if (box[i].lo == root_[i].lo && box[i].hi == root_[i].hi) continue;
          in[i].real = D::between(box[i].lo, box[i].hi);
          in[i].reduce();
        }
      }
      leaf = finish(box, explore_box<D>(kernel_, in, n_out_, opt_, left, deadline_));
    }
    return leaf;
  }

  // The whole box. In the Affine domain without an input error model it runs
  // on the caller's inputs in the caller's context, so that correlations
  // between them (the same value passed twice, inputs computed from shared
  // symbols) hold there; every split is then met with it
  // (narrow_to_parent). Other boxes re-create their inputs (explore).
  std::optional<Leaf<D>> explore_root() {
    if constexpr (context_bound<D>) {
      if (!opt_.input_error && AffineContext::current_or_null()) {
        const std::size_t left = opt_.max_runs > rep_.runs ? opt_.max_runs - rep_.runs : 0;
        if (left == 0) rep_.runs_exhausted = true;
        if (left == 0 || out_of_time()) return Leaf<D>{root_, {}, INFINITY, true, 0};
        ++rep_.box_explorations;
        return finish(root_, explore_box<D>(kernel_, inputs_, n_out_, opt_, left, deadline_));
      }
    }
    return explore(root_);
  }

  // The inputs of `box` as fresh inputs (in the current context): real range
  // of the box, the input error of the model or of the original input.
  // False when some input has no value of its format there (vacuous box).
  bool rebuild(const std::vector<Range>& box, std::vector<S>& in) {
    in.clear();
    for (std::size_t i = 0; i < box.size(); ++i) {
      const SymbolicDomainError<Interval>& b = base_[i];
      std::pair<double, double> e{b.err.lower(), b.err.upper()};
      if (opt_.input_error) e = opt_.input_error(i, box[i].lo, box[i].hi);
      try {
        in.push_back(S::input(box[i].lo, box[i].hi, e.first, e.second, b.format, b.mode));
      } catch (const std::invalid_argument&) {
        ++rep_.vacuous_boxes;
        return false;
      }
      in.back().int_division = b.int_division;
    }
    return true;
  }

  // Whether the executions of `child` (a sub-box of `parent`) are executions
  // of `parent`: always, except under an input error model whose error range
  // on the child is not inside its range on the parent.
  bool nested(const std::vector<Range>& child, const std::vector<Range>& parent) const {
    if (!opt_.input_error) return true;
    for (std::size_t i = 0; i < child.size(); ++i) {
      const auto c = opt_.input_error(i, child[i].lo, child[i].hi), p = opt_.input_error(i, parent[i].lo, parent[i].hi);
      if (c.first < p.first || c.second > p.second) return false;
    }
    return true;
  }

  // Whether input i has a value of its format with real value in r (the
  // check explore() makes when it builds fresh inputs; else always).
  bool has_values(std::size_t i, const Range& r) const {
    if (!(context_bound<D> || opt_.input_error)) return true;
    const SymbolicDomainError<Interval>& b = base_[i];
    std::pair<double, double> e{b.err.lower(), b.err.upper()};
    if (opt_.input_error) e = opt_.input_error(i, r.lo, r.hi);
    try {
      (void)SymbolicDomainError<Interval>::input(r.lo, r.hi, e.first, e.second, b.format, b.mode);
    } catch (const std::invalid_argument&) {
      return false;
    }
    return true;
  }

  // The dimensions worth trying on `box`: bounded, splittable, the widest
  // relative to the root box first.
  const DriverOptions& options() const { return opt_; }
  // The call's time budget has run out (the report says so).
  bool out_of_time() {
    if (deadline_.passed()) rep_.time_exhausted = true;
    return rep_.time_exhausted;
  }

  std::vector<std::size_t> candidates(const std::vector<Range>& box) const {
    std::vector<std::pair<double, std::size_t>> c;
    for (std::size_t i = 0; i < box.size(); ++i) {
      const double lo = box[i].lo, hi = box[i].hi, mid = lo / 2 + hi / 2;
      if (!(std::isfinite(lo) && std::isfinite(hi) && lo < mid && mid < hi)) continue;
      c.push_back({(hi - lo) / (root_[i].hi - root_[i].lo), i});
    }
    std::stable_sort(c.begin(), c.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    std::vector<std::size_t> r;
    for (std::size_t k = 0; k < c.size() && k < std::max<std::size_t>(opt_.split_candidates, 1); ++k)
      r.push_back(c[k].second);
    return r;
  }

 private:
  Leaf<D> finish(const std::vector<Range>& box, const BasicDriverResult<D>& r) {
    accumulate(rep_, r.report);
    Leaf<D> leaf{box, {}, 0, r.report.budget_exhausted, 0};
    if constexpr (context_bound<D>) {
      for (const S& v : r.outputs) leaf.outputs.push_back(convert_fields<Interval>(v));
    } else {
      leaf.outputs = r.outputs;
    }
    leaf.score = score_of(leaf.outputs);
    return leaf;
  }

  const BasicKernelFn<D>& kernel_;
  std::span<const S> inputs_;
  std::size_t n_out_;
  const DriverOptions& opt_;
  DriverReport& rep_;
  std::vector<Range> root_;
  std::vector<SymbolicDomainError<Interval>> base_;  // the inputs as intervals (valid in any context)
  const Deadline deadline_;
};

}  // namespace symerr::verify::driver_impl
