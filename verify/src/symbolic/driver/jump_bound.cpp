// The ideal program's jump between two control flows (jump_bound.hpp):
// the two outputs' recipes walked side by side into one expression DAG of
// shared leaves, leaves that differ and operations, then evaluated bottom-up
// over intervals with its derivatives along the segment between the two
// runs' leaves.
#include "jump_bound.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

#include <mpfr.h>

#include <symerr/operators.hpp>
#include <symerr/symbolic/fast_arithmetic.hpp>

namespace symerr::verify::driver_impl {
namespace {

using symerr::detail::QuantityRecipe;
using Vec = std::vector<Interval>;

// f(x) over [lo, hi] for an increasing f of MPFR (exp, expm1), rounded outward.
Interval increasing(const Interval& x, int (*f)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t)) {
  mpfr_t t;
  mpfr_init2(t, 64);
  mpfr_set_d(t, x.lower(), MPFR_RNDD);
  f(t, t, MPFR_RNDD);
  const double lo = mpfr_get_d(t, MPFR_RNDD);
  mpfr_set_d(t, x.upper(), MPFR_RNDU);
  f(t, t, MPFR_RNDU);
  const double hi = mpfr_get_d(t, MPFR_RNDU);
  mpfr_clear(t);
  return Interval::between(lo, hi);
}

bool positive(const Interval& v) { return v.lower() > 0; }
bool negative(const Interval& v) { return v.upper() < 0; }
bool zero(const Interval& v) { return v.lower() == 0 && v.upper() == 0; }

// One node of the walked DAG, with its value and derivatives: A[p] of F, R[p]
// of log|F| (when F keeps its sign), per unit of δ_p.
struct Node {
  enum Kind { Const, Leaf, Differ, Op } kind = Const;
  Interval v = Interval::point(0);
  std::size_t pair = 0;
  std::uint32_t op = 0;
  std::size_t child[2] = {0, 0};
  Vec A;
  std::optional<Vec> R;
};
Node make(Node::Kind kind, const Interval& v = Interval::point(0)) {
  Node n;
  n.kind = kind;
  n.v = v;
  return n;
}

constexpr std::size_t kMaxNodes = std::size_t{1} << 14;

class Walk {
 public:
  Walk(const std::vector<QuantityRecipe>& r, const std::vector<QuantityRecipe>& c, const JumpLeaves& l)
      : r_(r), c_(c), l_(l) {}

  std::optional<std::size_t> build(std::int32_t x, std::int32_t y) {
    const std::optional<std::size_t> p = l_.quantity_of(x), q = l_.quantity_of(y);
    if (!p || !q || nodes_.size() > kMaxNodes) return std::nullopt;
    const auto key = std::pair{*p, *q};
    if (const auto it = memo_.find(key); it != memo_.end()) return it->second;
    std::optional<std::size_t> made;
    const bool sp = l_.shared(*p), sq = l_.shared(*q);
    if (sp != sq) return std::nullopt;
    if (sp && *p == *q) {
      if (const std::optional<Interval> v = l_.range(*p)) {
        made = push(make(Node::Leaf, *v));
      } else if (const QuantityRecipe* rec = find(r_, *p)) {
        made = op_node(*rec, *rec);
      }
    } else if (sp) {
      const std::optional<Interval> u = l_.range(*p), w = l_.range(*q);
      if (!u || !w) return std::nullopt;
      Node n = make(Node::Differ, hull(*u, *w));
      const auto [it, fresh] = pairs_.try_emplace(key, pair_leaves_.size());
      if (fresh) pair_leaves_.push_back(key);
      n.pair = it->second;
      made = push(std::move(n));
    } else {
      const QuantityRecipe *a = find(r_, *p), *b = find(c_, *q);
      if (a && b && symerr::detail::same_making(*a, *b)) made = op_node(*a, *b);
    }
    if (made) memo_.emplace(key, *made);
    return made;
  }

  std::vector<Node> nodes_;
  std::vector<std::pair<std::size_t, std::size_t>> pair_leaves_;  // (a_p, b_p)

 private:
  static const QuantityRecipe* find(const std::vector<QuantityRecipe>& t, std::size_t n) {
    const auto it = std::lower_bound(t.begin(), t.end(), n, [](const QuantityRecipe& x, std::size_t m) {
      return x.number < m;
    });
    return it != t.end() && it->number == n ? &*it : nullptr;
  }
  std::size_t push(Node n) {
    nodes_.push_back(std::move(n));
    return nodes_.size() - 1;
  }
  std::optional<std::size_t> op_node(const QuantityRecipe& a, const QuantityRecipe& b) {
    Node n = make(Node::Op);
    n.op = a.op;
    for (int i = 0; i < 2; ++i) {
      if (a.operand[i] < 0) {
        n.child[i] = push(make(Node::Const, Interval::point(a.constant[i])));
      } else {
        const std::optional<std::size_t> c = build(a.operand[i], b.operand[i]);
        if (!c) return std::nullopt;
        n.child[i] = *c;
      }
    }
    return push(std::move(n));
  }

  const std::vector<QuantityRecipe>& r_;
  const std::vector<QuantityRecipe>& c_;
  const JumpLeaves& l_;
  std::map<std::pair<std::size_t, std::size_t>, std::size_t> memo_;
  std::map<std::pair<std::size_t, std::size_t>, std::size_t> pairs_;
};

Vec scaled(const Vec& x, const Interval& s) {
  Vec z(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) z[i] = x[i] * s;
  return z;
}
Vec combined(const Vec& x, const Vec& y, Interval (*f)(const Interval&, const Interval&)) {
  Vec z(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) z[i] = f(x[i], y[i]);
  return z;
}
Interval plus(const Interval& a, const Interval& b) { return a + b; }
Interval minus(const Interval& a, const Interval& b) { return a - b; }
Interval hull2(const Interval& a, const Interval& b) { return hull(a, b); }
Vec divided(const Vec& x, const Interval& s) {
  Vec z(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) z[i] = x[i] / s;
  return z;
}

// R of a sum of a and b (b negated for a difference): a convex combination
// of the terms' R when both keep one sign, the other's when one is exactly 0.
std::optional<Vec> sum_log_derivative(const Node& a, const Node& b, bool subtract) {
  if (zero(a.v) && !subtract) return b.R;
  if (zero(b.v)) return a.R;
  if (!a.R || !b.R) return std::nullopt;
  const bool same = subtract ? (positive(a.v) && negative(b.v)) || (negative(a.v) && positive(b.v))
                             : (positive(a.v) && positive(b.v)) || (negative(a.v) && negative(b.v));
  if (!same) return std::nullopt;
  return combined(*a.R, *b.R, hull2);
}

// Value and derivatives of an operation node from its children's; false:
// an operation this walk does not know.
bool evaluate_op(Node& n, const Node& a, const Node& b) {
  using symerr::detail::kRecipeArith;
  const std::uint32_t exp_op = symerr::detail::kRecipeElementary + static_cast<std::uint32_t>(OpId::Exp);
  if (n.op == kRecipeArith + static_cast<std::uint32_t>(ArithOp::Add) ||
      n.op == kRecipeArith + static_cast<std::uint32_t>(ArithOp::Sub)) {
    const bool sub = n.op == kRecipeArith + static_cast<std::uint32_t>(ArithOp::Sub);
    n.v = sub ? a.v - b.v : a.v + b.v;
    n.A = combined(a.A, b.A, sub ? minus : plus);
    n.R = sum_log_derivative(a, b, sub);
  } else if (n.op == kRecipeArith + static_cast<std::uint32_t>(ArithOp::Mul)) {
    n.v = a.v * b.v;
    n.A = combined(scaled(a.A, b.v), scaled(b.A, a.v), plus);
    if (a.R && b.R) n.R = combined(*a.R, *b.R, plus);
  } else if (n.op == kRecipeArith + static_cast<std::uint32_t>(ArithOp::Div)) {
    n.v = a.v / b.v;
    n.A = divided(combined(a.A, scaled(b.A, n.v), minus), b.v);
    if (a.R && b.R) n.R = combined(*a.R, *b.R, minus);
  } else if (n.op == symerr::detail::kRecipeNeg) {
    n.v = -a.v;
    n.A = scaled(a.A, Interval::point(-1));
    n.R = a.R;
  } else if (n.op == symerr::detail::kRecipeConvert) {  // the ideal program does not round
    n.v = a.v;
    n.A = a.A;
    n.R = a.R;
  } else if (n.op == symerr::detail::kRecipeSqrt) {
    if (!positive(a.v)) return false;
    n.v = sqrt(a.v);
    n.A = divided(a.A, n.v * Interval::point(2));
    if (a.R) n.R = scaled(*a.R, Interval::point(0.5));
  } else if (n.op == exp_op) {
    n.v = increasing(a.v, mpfr_exp);
    n.A = scaled(a.A, n.v);
    n.R = a.A;  // d log exp(a) = da
  } else {
    return false;
  }
  return true;
}

// Each derivative form narrowed by the other: A = F·R, R = A / F.
void reconcile(Node& n) {
  if (n.R)
    for (std::size_t p = 0; p < n.A.size(); ++p)
      if (const std::optional<Interval> m = intersect(n.A[p], (*n.R)[p] * n.v)) n.A[p] = *m;
  if (positive(n.v) || negative(n.v)) {
    const Vec r = divided(n.A, n.v);
    if (!n.R) {
      n.R = r;
    } else {
      for (std::size_t p = 0; p < r.size(); ++p)
        if (const std::optional<Interval> m = intersect((*n.R)[p], r[p])) (*n.R)[p] = *m;
    }
  }
}

// The jump F(0) − F(1) of a root: 0 when F does not depend on any leaf that
// differs, or when its log-derivative is exactly 0 along all of them (the
// leaves' differences then unasked); else −Σ_p A_p·δ_p met with
// F(1)·(exp(−Σ_p R_p·δ_p) − 1). The differences δ_p are asked once.
std::optional<Interval> jump_of(const Node& f, const std::vector<std::pair<std::size_t, std::size_t>>& pairs,
                                const JumpLeaves& leaves, std::vector<std::optional<Interval>>& delta,
                                std::vector<bool>& asked) {
  if (std::all_of(f.A.begin(), f.A.end(), zero)) return Interval::point(0);
  if (f.R && std::all_of(f.R->begin(), f.R->end(), zero)) return Interval::point(0);
  Interval by_a = Interval::point(0), log_change = Interval::point(0);
  for (std::size_t p = 0; p < pairs.size(); ++p) {
    if (zero(f.A[p]) && (!f.R || zero((*f.R)[p]))) continue;
    if (!asked[p]) delta[p] = leaves.delta(pairs[p].first, pairs[p].second), asked[p] = true;
    if (!delta[p]) return std::nullopt;
    by_a = by_a - f.A[p] * *delta[p];
    if (f.R) log_change = log_change + (*f.R)[p] * *delta[p];
  }
  if (!f.R) return by_a;
  const Interval by_r = f.v * increasing(-log_change, mpfr_expm1);
  const std::optional<Interval> both = intersect(by_a, by_r);
  return both ? *both : by_r;
}

}  // namespace

std::vector<std::optional<Interval>> jump_bound(const std::vector<QuantityRecipe>& r_table,
                                                const std::vector<QuantityRecipe>& c_table,
                                                const std::vector<std::pair<std::int32_t, std::int32_t>>& outputs,
                                                const JumpLeaves& leaves) {
  Walk w(r_table, c_table, leaves);
  std::vector<std::optional<std::size_t>> roots;
  for (const auto& [a, b] : outputs) roots.push_back(w.build(a, b));
  const std::size_t np = w.pair_leaves_.size();
  std::vector<bool> known(w.nodes_.size(), true);  // false: an operation without a rule, or made of one
  for (std::size_t i = 0; i < w.nodes_.size(); ++i) {
    Node& n = w.nodes_[i];
    n.A.assign(np, Interval::point(0));
    if (n.kind == Node::Const || n.kind == Node::Leaf) {
      if (!zero(n.v)) n.R = n.A;
    } else if (n.kind == Node::Differ) {
      n.A[n.pair] = Interval::point(1);
    } else if (!known[n.child[0]] || !known[n.child[1]] ||
               !evaluate_op(n, w.nodes_[n.child[0]], w.nodes_[n.child[1]])) {
      known[i] = false;
      continue;
    }
    if (n.kind == Node::Op || n.kind == Node::Differ) reconcile(n);
  }
  std::vector<std::optional<Interval>> delta(np);
  std::vector<bool> asked(np, false);
  std::vector<std::optional<Interval>> out;
  for (const std::optional<std::size_t>& root : roots) {
    out.push_back(root && known[*root] ? jump_of(w.nodes_[*root], w.pair_leaves_, leaves, delta, asked)
                                       : std::nullopt);
  }
  return out;
}

}  // namespace symerr::verify::driver_impl
