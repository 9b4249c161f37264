// SymbolicDomainError<Affine>'s fast path: a part over its whole (a / s
// with s a recorded sum of positive values holding a).
#include "affine_symbolic_impl.hpp"

#include <utility>

#include <algorithm>

namespace symerr {

namespace affine_symbolic {

// ---- a part over its whole ---------------------------------------------------
// For y = a / s where s = fl(…fl(b_1 + b_2)… + b_n) is a sum of certainly
// positive values (real and computed) and a is one of its addends: a
// softmax's exp(x_i − m) / Σ_j exp(x_j − m), a normalisation a_i / Σ a_j.
// With the real values A, B_j (S = Σ B_j), the computed ones Â = A(1 + α),
// B̂_j = B_j(1 + β_j) (α, β_j: the rel_err of a and of each addend), the
// computed sum ŝ = T(1 + σ) over T = Σ B̂_j, and the quotient's rounding ρ:
//   ŷ/y = (1 + α)(1 + ρ) / ((1 + Σ_j w_j β_j)(1 + σ)),   w_j = B_j / S,
// and, as Σ_j w_j = 1 (exactly),
//   (1 + α)/(1 + Σ_j w_j β_j) − 1 = Σ_j w_j (α − β_j) / D,  D = 1 + Σ_j w_j β_j,
// where the addends equal to a contribute 0 and the others have weights
// summing to at most 1 − y. So, for every execution,
//   err_y = y·((1 + ρ)/(1 + σ) − 1) + y·N/D·(1 + ρ)/(1 + σ),
//   y·N ∈ y(1 − y)·hull(0, α − β_j) ⊆ max y(1 − y)·hull(0, α − β_j),
//   D ∈ hull(1 + β_j),  1 + σ ∈ the hull of the leaves' 1 + σ, times the
//   rounding 1 + ρ_k of each addition on the way (exact: a convex
//   combination of positive terms),
// with α − β_j taken as forms: exp(x_i − m) and exp(x_j − m) share the
// symbols of m's error (elementary::relative_form), so the difference of
// their relative errors is that of x_i and x_j only, and y(1 − y) <= 1/4
// keeps the bound at the propagated error's true maximum y(1 − y)·2e
// (the interval identities gave y·(|α| + |rel ŝ|): 4e·y).
struct PartLeaf {
  Affine real, fp, rel, introduced;
};
// Whether leaf l is the value x (the same real and computed forms).
bool is_leaf(const PartLeaf& l, const SA& x) { return l.real.index() == x.real.index() && l.fp.index() == x.fp.index(); }
// f narrowed to f ∩ i (both enclose one quantity; f keeps its form).
void narrow(Affine& f, const Interval& i, std::size_t first_new) {
  if (!is_bounded(i)) return;
  const double lo = std::max(i.lower(), f.lower()), hi = std::min(i.upper(), f.upper());
  if (lo <= hi) f = affine_detail::clip_new(f, lo, hi, first_new);
}
struct PartNode {
  std::uint32_t left = 0, right = 0;  // children (node index + 1; 0: a leaf)
  PartLeaf leaf{};
  double sigma_lo = 1, sigma_hi = 1;  // 1 + σ: the computed sum over the sum of the computed leaves
  double rho = 0;                     // |ρ_k| <= rho: this addition's relative rounding
  std::uint32_t leaves = 1;
};
constexpr std::uint32_t kMaxPartLeaves = 256;

class PartSums {
 public:
  static std::uint64_t key(const SA& v) { return std::uint64_t{v.real.index()} << 32 | v.fp.index(); }
  const PartNode* find(const SA& v) const {
    const auto it = by_value_.find(key(v));
    return it == by_value_.end() ? nullptr : &nodes_[it->second];
  }
  // z = x + y, every real and computed value certainly positive; rho: the
  // addition's relative rounding.
  void record(const SA& x, const SA& y, const SA& z, const Interval& rho) {
    const std::uint32_t l = node_of(x), r = node_of(y);
    const PartNode& a = nodes_[l];
    const PartNode& b = nodes_[r];
    if (a.leaves + b.leaves > kMaxPartLeaves) return;
    const Interval s = hull(Interval::between(a.sigma_lo, a.sigma_hi), Interval::between(b.sigma_lo, b.sigma_hi)) *
                       (Interval::point(1) + rho);
    if (!is_bounded(s) || !(s.lower() > 0)) return;
    PartNode n;
    n.left = l + 1, n.right = r + 1;
    n.sigma_lo = s.lower(), n.sigma_hi = s.upper();
    n.rho = mag(rho);
    n.leaves = a.leaves + b.leaves;
    nodes_.push_back(n);
    by_value_[key(z)] = static_cast<std::uint32_t>(nodes_.size() - 1);
  }
  // z = x + 0 (exactly x): z stands for x's node (`sum = 0; sum += a[i]`
  // starts with 0 + a[0], a new value whose addend is still a[0]).
  void alias(const SA& x, const SA& z) { by_value_[key(z)] = node_of(x); }
  // The leaves of node n, left to right.
  void leaves(const PartNode& n, std::vector<PartLeaf>& out) const {
    if (n.left == 0) {
      out.push_back(n.leaf);
      return;
    }
    leaves(nodes_[n.left - 1], out);
    leaves(nodes_[n.right - 1], out);
  }
  // Σ_k ρ_k · max (a/S)(P_k/S) over the additions k of node n's tree (P_k:
  // the real sum of the leaves under k, S: of all; a: the numerator, one
  // leaf, `a_lo`, `a_hi` its real range; `rest_lo`: the sum of the lower
  // bounds of the leaves other than a), see part_over_whole. Returns the
  // subtree's sums of the other leaves' lower and upper bounds and whether
  // it holds a. NaN total when a bound is not finite.
  struct Subtree {
    Interval lo_sum, hi_sum;
    bool holds_a;
  };
  Subtree weigh(const PartNode& n, const SA& a, double a_lo, double a_hi, const Interval& rest_lo,
                double& total) const {
    if (n.left == 0) {
      if (is_leaf(n.leaf, a)) return {Interval::point(0), Interval::point(0), true};
      return {Interval::point(n.leaf.real.lower()), Interval::point(n.leaf.real.upper()), false};
    }
    const Subtree l = weigh(nodes_[n.left - 1], a, a_lo, a_hi, rest_lo, total);
    const Subtree r = weigh(nodes_[n.right - 1], a, a_lo, a_hi, rest_lo, total);
    const Subtree t{l.lo_sum + r.lo_sum, l.hi_sum + r.hi_sum, l.holds_a || r.holds_a};
    // the other leaves: Q under k, outside k at least rest_lo − Q_lo
    const double q_lo = t.lo_sum.lower(), q_hi = t.hi_sum.upper();
    const double out_lo = std::max(0.0, (rest_lo - t.lo_sum).lower());
    const auto peak = [](double at, double lo, double hi) { return std::min(std::max(at, lo), hi); };
    double f;
    if (t.holds_a) {
      // A·P/(P + R)², P = A + Q: increasing in A, decreasing in R, and in P
      // largest at P = R
      const double p_lo = (Interval::point(a_hi) + Interval::point(q_lo)).lower();
      const double p_hi = (Interval::point(a_hi) + Interval::point(q_hi)).upper();
      const Interval p = Interval::point(peak(out_lo, p_lo, p_hi));
      const Interval den = p + Interval::point(out_lo);
      f = (Interval::point(a_hi) * p / (den * den)).upper();
    } else {
      // A·P/(P + A + R')² <= A_hi·P/(P + A_lo + R')², largest at P = A_lo + R'
      const double r = (Interval::point(a_lo) + Interval::point(out_lo)).lower();
      const Interval p = Interval::point(peak(r, q_lo, q_hi));
      const Interval den = p + Interval::point(r);
      f = (Interval::point(a_hi) * p / (den * den)).upper();
    }
    total = (Interval::point(total) + Interval::point(n.rho) * Interval::point(f)).upper();
    return t;
  }

 private:
  std::uint32_t node_of(const SA& v) {
    if (const auto it = by_value_.find(key(v)); it != by_value_.end()) return it->second;
    PartNode n;
    n.leaf = {v.real, v.fp, v.rel_err, v.introduced};
    nodes_.push_back(n);
    return static_cast<std::uint32_t>(nodes_.size() - 1);
  }
  std::vector<PartNode> nodes_;
  std::unordered_map<std::uint64_t, std::uint32_t> by_value_;
};

PartSums& part_sums(AffineContext& ctx) {
  std::shared_ptr<void>& m = ctx.impl().part_sums;
  if (!m) m = std::make_shared<PartSums>();
  return *static_cast<PartSums*>(m.get());
}

bool certainly_positive(const SA& v) { return v.real.lower() > 0 && v.fp.lower() > 0; }

bool exact_zero(const SA& v) {
  return v.real.lower() == 0 && v.real.upper() == 0 && v.fp.lower() == 0 && v.fp.upper() == 0;
}

// After z = x + y of two positive values: z's record (its leaves, 1 + σ).
// (The operands' ranges xi, yi are at hand: most additions end at their
// first test.)
void record_part_sum(const SA& x, const SA& y, const SI& xi, const SI& yi, const Interval& rounding,
                     const FloatFormat& F, const SA& z) {
  if (!(xi.real.lower() > 0 && xi.fp.lower() > 0 && yi.real.lower() > 0 && yi.fp.lower() > 0)) return;
  if (!is_bounded(xi.rel_err) || !is_bounded(yi.rel_err) || !certainly_positive(z)) return;
  const Interval t = xi.fp + yi.fp;  // the exact sum of the computed operands
  const Interval rho = detail::relative_rounding<Interval>(t, rounding, &F, z.mode);
  if (!is_bounded(rho)) return;
  part_sums(AffineContext::current()).record(x, y, z, rho);
}

// 0 + a of a positive value a of this context (a literal 0 of any format:
// `double sum = 0; sum += a[0];` in C) is a in both programs: its record is
// a's leaf.
void alias_zero_sum(const SA& x, const SA& y, const SA& z) {
  AffineContext* ctx = AffineContext::current_or_null();
  if (!ctx) return;
  const std::uint32_t id = ctx->id();
  for (int k = 0; k < 2; ++k) {
    const SA& zero = k == 0 ? x : y;
    const SA& a = k == 0 ? y : x;
    if (!exact_zero(zero) || !certainly_positive(a) || !is_bounded(a.rel_err)) continue;
    for (const Affine* f : {&a.real, &a.fp, &a.rel_err, &z.real, &z.fp})
      if (f->context_id() != id) return;
    if (z.real.lower() == a.real.lower() && z.real.upper() == a.real.upper() && z.fp.lower() == a.fp.lower() &&
        z.fp.upper() == a.fp.upper() && z.format == a.format)
      part_sums(*ctx).alias(a, z);
    return;
  }
}

// How many leaves are x.
std::size_t leaf_count(const std::vector<PartLeaf>& leaves, const SA& x) {
  return static_cast<std::size_t>(
      std::count_if(leaves.begin(), leaves.end(), [&](const PartLeaf& l) { return is_leaf(l, x); }));
}

// max{v(1 − v) : v ∈ [lo, hi]} rounded up (v(1 − v) is concave, largest at 1/2).
double max_part_product(double lo, double hi) {
  if (lo <= 0.5 && 0.5 <= hi) return 0.25;
  const double v = hi < 0.5 ? hi : lo;
  return (Interval::point(v) * (Interval::point(1) - Interval::point(v))).upper();
}

// The whole-kernel split of y = a / s (a part over its whole, see above),
// with pr = real + propagated the real program on the actual inputs:
// * propagated = pr_y − y: the same identity without roundings (ρ = σ = 0),
//   with α' = pr_a/A − 1 = α − ι_a (ι = introduced/real), so
//   propagated ∈ max y(1 − y)·hull(0, α' − β'_j)/D', α' − β'_j taken as the
//   forms α − β_j (`c`: their hull) widened by the intervals ι_a − ι_j;
// * introduced = f_y − pr_y: the identity on the pr values (weights
//   pr_j/Σ pr, ratios f/pr − 1 = introduced/pr as intervals),
//   introduced ∈ pr_y((1 + ρ)/(1 + σ) − 1) + max pr_y(1 − pr_y)·hull(0, ι̂_a − ι̂_j)/D̂·(1 + ρ)/(1 + σ).
// Each is met with the field's own enclosure. (A softmax of 4 with e = 1e-12:
// propagated ±1.4e-11 → ±5.0e-13, introduced ±1.0e-14 → a few 1e-15.)
void split_part_over_whole(const SA& x, const std::vector<PartLeaf>& leaves, const PartNode& node, const Interval& c,
                           const Interval& rho, const Interval& g, SA& z, std::size_t first_new) {
  if (!is_bounded(x.introduced) || !is_bounded(z.propagated) || !is_bounded(z.introduced)) return;
  const Interval one = Interval::point(1);
  // ι = introduced/real and ι̂ = introduced/pr of a leaf (pr = fp − introduced ∩ real + propagated: here
  // fp − introduced, the leaf's propagated not being kept)
  Interval ia = range(x.introduced) / range(x.real);
  const Interval pra = range(x.fp) - range(x.introduced);
  if (!(pra.lower() > 0) || !is_bounded(ia)) return;
  Interval hat_a = range(x.introduced) / pra;
  Interval spread = Interval::point(0), hat_c = Interval::point(0);
  Interval d_pr = one + (range(x.rel_err) - ia), d_hat = one + hat_a;
  for (const PartLeaf& l : leaves) {
    if (!is_bounded(l.introduced)) return;
    const Interval ij = range(l.introduced) / range(l.real);
    const Interval prj = range(l.fp) - range(l.introduced);
    if (!(prj.lower() > 0) || !is_bounded(ij)) return;
    const Interval hat_j = range(l.introduced) / prj;
    d_pr = hull(d_pr, one + (range(l.rel) - ij));
    d_hat = hull(d_hat, one + hat_j);
    if (is_leaf(l, x)) continue;
    spread = hull(spread, ia - ij);
    hat_c = hull(hat_c, hat_a - hat_j);
  }
  if (!(d_pr.lower() > 0) || !(d_hat.lower() > 0)) return;
  // propagated: c (the forms' α − β_j, with 0) widened by ι_a − ι_j
  const Interval c_pr = hull(Interval::point(0), c - spread);
  narrow(z.propagated, g * c_pr / d_pr, first_new);
  // introduced, on pr_y ⊆ [0, 1] (a part over its whole of positive pr values)
  const Interval y_pr = range(z.real) + range(z.propagated);
  const double ylo = std::max(0.0, y_pr.lower()), yhi = std::min(1.0, y_pr.upper());
  if (!(ylo <= yhi)) return;
  const Interval factor = (one + rho) / Interval::between(node.sigma_lo, node.sigma_hi);
  const Interval g_pr = Interval::point(max_part_product(ylo, yhi));
  narrow(z.introduced, Interval::between(ylo, yhi) * (factor - one) + g_pr * hat_c / d_hat * factor, first_new);
}

// After z = x / y: err and rel_err of z narrowed by the part-over-whole
// identity above when y is a recorded positive sum holding x.
void part_over_whole(const SA& x, const SA& y, const Interval& t, const Interval& rounding, const FloatFormat& F,
                     SA& z, std::size_t first_new) {
  if (!certainly_positive(x) || !certainly_positive(z) || !is_bounded(x.rel_err)) return;
  AffineContext* ctx = AffineContext::current_or_null();
  if (!ctx || !ctx->impl().part_sums) return;
  const PartSums& sums = part_sums(*ctx);
  const PartNode* node = sums.find(y);
  if (!node) return;
  std::vector<PartLeaf> leaves;
  leaves.reserve(node->leaves);
  sums.leaves(*node, leaves);
  bool holds_x = false;
  Interval c = Interval::point(0), d = Interval::point(1) + range(x.rel_err);
  for (const PartLeaf& l : leaves) {
    if (!is_bounded(l.rel)) return;
    d = hull(d, Interval::point(1) + range(l.rel));
    if (is_leaf(l, x)) {
      holds_x = true;
      continue;
    }
    const Affine diff = x.rel_err - l.rel;  // α − β_j as forms: shared symbols cancel
    c = hull(c, range(diff));
  }
  if (!holds_x || !(d.lower() > 0) || !is_bounded(c)) return;
  const Interval rho = detail::relative_rounding<Interval>(t, rounding, &F, z.mode);
  if (!is_bounded(rho)) return;
  const Interval y_range = Interval::between(std::max(0.0, z.real.lower()), std::min(1.0, z.real.upper()));
  if (y_range.lower() > y_range.upper()) return;
  const Interval one = Interval::point(1);
  const Interval sigma = Interval::between(node->sigma_lo, node->sigma_hi);  // 1 + σ
  const Interval factor = (one + rho) / sigma;                               // (1 + ρ)/(1 + σ)
  const Interval g = Interval::point(max_part_product(y_range.lower(), y_range.upper()));
  // y((1 + ρ)/(1 + σ) − 1) = (yρ − yσ)/(1 + σ), where ŝ − T = Σ_k δ_k exactly
  // (each addition is exact plus its rounding δ_k, |δ_k| <= ρ_k·t_k, t_k its
  // exact operand sum), so |yσ| <= Σ_k ρ_k·y·t_k/T and t_k/T <= (P_k/S)·F,
  // F = max(1 + β)·max(1 + σ)/min(1 + β): the weight of the partial sums
  // that the numerator's share y allows (15 ulps · 0.33 for a softmax of
  // 16 where the partial sums' roundings all weigh one whole sum)
  Interval first = y_range * (factor - one);
  if (leaf_count(leaves, x) == 1) {
    Interval rest_lo = Interval::point(0);
    for (const PartLeaf& l : leaves)
      if (!is_leaf(l, x)) rest_lo = rest_lo + Interval::point(l.real.lower());
    double weight = 0;
    sums.weigh(*node, x, x.real.lower(), x.real.upper(), rest_lo, weight);
    const Interval spread = Interval::point(d.upper()) * Interval::point(node->sigma_hi) / Interval::point(d.lower());
    const double b = (Interval::point(weight) * spread).upper();
    if (std::isfinite(b)) {
      const Interval alt = (y_range * rho + Interval::between(-b, b)) / sigma;
      if (const auto m = intersect(first, alt)) first = *m;
    }
  }
  narrow(z.err, first + g * c / d * factor, first_new);
  // rel: (1 + N/D)(1 + ρ)/(1 + σ) − 1 with N ∈ (1 − y)·hull(0, α − β_j)
  narrow(z.rel_err, (one + (one - Interval::point(y_range.lower())) * c / d) * factor - one, first_new);
  split_part_over_whole(x, leaves, *node, c, rho, g, z, first_new);
}

}  // namespace affine_symbolic

}  // namespace symerr
