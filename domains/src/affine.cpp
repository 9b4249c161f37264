// Affine forms: the arithmetic (see affine.hpp for the semantics). Every
// operation runs inside one UpwardScope: x + y etc. round up, and the lower
// roundings use the identities of UpwardOppArith (down(x + y) = −((−x) − y)
// rounded up). The engine is in affine_engine.hpp.
#include "affine_engine.hpp"

#include <symerr/symbolic/fast_format.hpp>

namespace symerr {

using namespace affine_engine;

// ---- arithmetic ------------------------------------------------------------

namespace {

// Sum trees (AffineContext::Impl::sums). A leaf's bounds are its range
// (exact); a node's are sums of its children's, rounded outward both ways.
// At most kSumLeaves leaves per tree (affine_engine.hpp).
using SumNode = AffineContext::Impl::SumNode;
SumNode sum_bounds(const AffineContext::Impl& c, std::uint32_t index, const Header& h) {
  if (const auto it = c.sums.find(index); it != c.sums.end()) return it->second;
  return {h.lo, h.lo, h.hi, h.hi, 0, 0, 1};
}
// s = a + b was stored as form `s` (newer than both): recorded when a and b
// have one sign and bounded ranges.
void record_sum(Engine& e, std::uint32_t s, std::uint32_t a, const Header& x, std::uint32_t b, const Header& y) {
  if (s <= std::max(a, b) || a == 0 || b == 0) return;
  const bool nonneg = x.lo >= 0 && y.lo >= 0, nonpos = x.hi <= 0 && y.hi <= 0;
  if (!(nonneg || nonpos) || !std::isfinite(x.lo) || !std::isfinite(x.hi) || !std::isfinite(y.lo) ||
      !std::isfinite(y.hi))
    return;
  const SumNode l = sum_bounds(e.c_, a, x), r = sum_bounds(e.c_, b, y);
  if (l.leaves + r.leaves > kSumLeaves) return;
  R o;
  e.c_.sums.emplace(s, SumNode{o.add_down(l.lo_dn, r.lo_dn), o.add_up(l.lo_up, r.lo_up), o.add_down(l.hi_dn, r.hi_dn),
                               o.add_up(l.hi_up, r.hi_up), a, b, l.leaves + r.leaves});
}
// If `a` is a subtree (an operand, at any depth) of the recorded sum `s`:
// the bounds of s − a, the sum of the other leaves ([Σ lo − Σ_a lo, Σ hi −
// Σ_a hi], rounded outward). The trees are small (kSumLeaves).
std::optional<std::pair<double, double>> sum_rest(Engine& e, std::uint32_t s, std::uint32_t a) {
  const auto it = e.c_.sums.find(s);
  if (it == e.c_.sums.end()) return std::nullopt;
  const SumNode node = it->second;
  for (const std::uint32_t child : {node.left, node.right}) {
    std::optional<SumNode> part;
    if (child == a) {
      part = sum_bounds(e.c_, a, e.c_.forms[a]);
    } else if (e.c_.sums.count(child)) {
      if (const auto rest = sum_rest(e, child, a)) {  // a inside child: s − a = (child − a) + other
        const SumNode other = sum_bounds(e.c_, child == node.left ? node.right : node.left,
                                         e.c_.forms[child == node.left ? node.right : node.left]);
        R o;
        return std::pair{o.add_down(rest->first, other.lo_dn), o.add_up(rest->second, other.hi_up)};
      }
    }
    if (part) {
      R o;
      return std::pair{o.sub_down(node.lo_dn, part->lo_up), o.sub_up(node.hi_up, part->hi_dn)};
    }
  }
  return std::nullopt;
}

// Whether `a` is an operand (at any depth) of the recorded extremum `m` of
// kind `upper` (extrema of one kind nest: max(max(x0, x1), x2)).
bool extremum_holds(const AffineContext::Impl& c, std::uint32_t m, std::uint32_t a, bool upper) {
  const auto it = c.extrema.find(m);
  if (it == c.extrema.end() || it->second.upper != upper) return false;
  for (const std::uint32_t child : {it->second.left, it->second.right})
    if (child == a || extremum_holds(c, child, a, upper)) return true;
  return false;
}

// The range of a − b narrowed by the recorded extrema: a − max(…, a, …) <= 0,
// max(…, b, …) − b >= 0, a − min(…, a, …) >= 0, min(…, b, …) − b <= 0.
void extremum_clip(const AffineContext::Impl& c, std::uint32_t a, std::uint32_t b, double& lo, double& hi) {
  if (c.extrema.empty()) return;
  if (extremum_holds(c, b, a, true) || extremum_holds(c, a, b, false)) hi = std::min(hi, 0.0);
  if (extremum_holds(c, a, b, true) || extremum_holds(c, b, a, false)) lo = std::max(lo, 0.0);
}

Affine add_sub(const Affine& a_in, const Affine& b_in, bool subtract) {
  const Affine a = affine_detail::localize(a_in);
  const Affine b = affine_detail::localize(b_in);
  Engine e = engine();
  const Header x = e.at(a), y = e.at(b);
  if (b.index() == 0) return a;
  if (subtract && a.index() == b.index() && !unbounded(x)) return Affine();  // (no symbol: no identity)
  UpwardScope scope;
  return e.memoised(subtract ? Op::Sub : Op::Add, a.index(), b.index(), 0, [&] {
    if (unbounded(x) || unbounded(y))
      return from_interval(e, subtract ? range(x) - range(y) : range(x) + range(y));
    R r;
    double lo = subtract ? r.sub_down(x.lo, y.hi) : r.add_down(x.lo, y.lo);
    double hi = subtract ? r.sub_up(x.hi, y.lo) : r.add_up(x.hi, y.hi);
    if (subtract) extremum_clip(e.c_, a.index(), b.index(), lo, hi);
    // (inside rounded_operation the store is fp = (a + b) + δ, not a sum)
    const bool rounded = e.c_.rounding_hook != nullptr;
    const std::uint32_t s = e.linear(x, 1.0, &y, subtract ? -1.0 : 1.0, 0.0, 0.0, lo, hi);
    if (!subtract && !rounded) record_sum(e, s, a.index(), x, b.index(), y);
    return s;
  });
}

// (a ± b) + c as one stored extension of a when b's and then c's symbols
// are all newer than a's (a sum chain's err + δ step); nullopt otherwise.
std::optional<std::uint32_t> extension3(Engine& e, const Header& x, const Header& y, bool subtract,
                                        const Header& z) {
  const Engine::View vy = e.view(y, 1), vz = e.view(z, 0);
  if (!e.extends_by(x, vy) || vz.len == 0 || vz.sym[0] <= vy.sym[vy.len - 1]) return std::nullopt;
  if (x.len + vy.len + vz.len + 1 > e.ctx_.options().max_terms) return std::nullopt;
  R r;
  const double s = subtract ? -1.0 : 1.0;
  Builder out(e.c_);
  out.shift(x.center, x.center);
  out.shift(s * y.center, s * y.center);
  out.shift(z.center, z.center);
  for (std::uint32_t j = 0; j < vy.len; ++j) out.push(vy.sym[j], s * vy.coef[j], s * vy.coef[j]);
  for (std::uint32_t j = 0; j < vz.len; ++j) out.push(vz.sym[j], vz.coef[j], vz.coef[j]);
  const double lo = r.add_down(subtract ? r.sub_down(x.lo, y.hi) : r.add_down(x.lo, y.lo), z.lo);
  const double hi = r.add_up(subtract ? r.sub_up(x.hi, y.lo) : r.add_up(x.hi, y.hi), z.hi);
  return e.finish_extension(out, x, lo, hi);
}

}  // namespace

Affine add3(const Affine& a_in, const Affine& b_in, bool subtract_b, const Affine& c_in) {
  const Affine a = affine_detail::localize(a_in);
  const Affine b = affine_detail::localize(b_in);
  const Affine c = affine_detail::localize(c_in);
  const auto two_steps = [&] { return (subtract_b ? a - b : a + b) + c; };
  if (a.index() == 0 || b.index() == 0 || c.index() == 0) return two_steps();
  Engine e = engine();
  const Header x = e.at(a), y = e.at(b), z = e.at(c);
  if (unbounded(x) || unbounded(y) || unbounded(z)) return two_steps();
  UpwardScope scope;
  const std::uint64_t tag = (static_cast<std::uint64_t>(c.index()) << 1) | (subtract_b ? 1u : 0u);
  return e.memoised(Op::Add3, a.index(), b.index(), tag, [&] {
    if (const auto r = extension3(e, x, y, subtract_b, z)) return *r;
    return two_steps().index();
  });
}

Affine multiply_add(const Affine& a_in, const Affine& b_in, const Affine& c_in, const Affine& d_in) {
  const Affine a = affine_detail::localize(a_in);
  const Affine b = affine_detail::localize(b_in);
  const Affine c = affine_detail::localize(c_in);
  const Affine d = affine_detail::localize(d_in);
  const auto two_products = [&] { return a * b + c * d; };
  if (a.index() == 0 || b.index() == 0 || c.index() == 0 || d.index() == 0) return two_products();
  Engine e = engine();
  const Header w = e.at(a), x = e.at(b), y = e.at(c), z = e.at(d);
  for (const Header* h : {&w, &x, &y, &z})
    if (unbounded(*h) || h->len == 0) return two_products();
  UpwardScope scope;
  const std::uint64_t tag = static_cast<std::uint64_t>(c.index()) << 32 | d.index();
  return e.memoised(Op::MulAdd, a.index(), b.index(), tag, [&] { return e.multiply_add(w, x, y, z); });
}

affine_detail::RoundedForms affine_detail::rounded_operation(Op op, const Affine& a, const Affine& b,
                                                             RoundingHook& hook) {
  AffineContext::Impl& c = AffineContext::current().impl();
  // t's operation must not be memoised (its store returns fp, not t)
  struct Restore {
    AffineContext::Impl& c;
    bool suspended;
    ~Restore() {
      c.rounding_hook = nullptr;
      c.form_memo_suspended = suspended;
    }
  } restore{c, c.form_memo_suspended};
  c.form_memo_suspended = true;
  hook.fused = false;
  hook.delta = 0;
  c.rounding_hook = &hook;
  const Affine r = op == Op::Mul ? a * b : op == Op::Sub ? a - b : a + b;
  c.rounding_hook = nullptr;
  if (!hook.fused) return {r, Affine(), Affine(), false};
  return {Affine(), r, AffineContext::current().handle(hook.delta), true};
}

Affine operator+(const Affine& a, const Affine& b) {
  if (a.index() == 0) return add_sub(b, a, false);
  return add_sub(a, b, false);
}
Affine operator-(const Affine& a, const Affine& b) {
  if (a.index() == 0) return -b;
  return add_sub(a, b, true);
}

Affine operator-(const Affine& a_in) {
  const Affine a = affine_detail::localize(a_in);
  if (a.index() == 0) return a;
  Engine e = engine();
  const Header x = e.at(a);
  UpwardScope scope;
  return e.memoised(Op::Neg, a.index(), 0, 0, [&] {
    if (unbounded(x)) return from_interval(e, -range(x));
    return e.linear(x, -1.0, nullptr, 0, 0.0, 0.0, -x.hi, -x.lo);
  });
}

Affine operator*(const Affine& a_in, const Affine& b_in) {
  const Affine a = affine_detail::localize(a_in);
  const Affine b = affine_detail::localize(b_in);
  Engine e = engine();
  const Header x = e.at(a), y = e.at(b);
  if (a.index() == 0 || b.index() == 0) return Affine();
  UpwardScope scope;
  const std::uint32_t lo_i = std::min(a.index(), b.index()), hi_i = std::max(a.index(), b.index());
  return e.memoised(Op::Mul, lo_i, hi_i, 0, [&] {
    if (unbounded(x) || unbounded(y)) return from_interval(e, range(x) * range(y));
    const Clip clip = clip_product(clip_of(x), clip_of(y), false);
    return e.multiply(x, y, clip.lo, clip.hi);
  });
}

// A part over its whole: for a/b with a and b of one sign (b ≠ 0) and
// d = b − a of that sign too (the correlated difference, a form), the
// quotient a/b = A/(A + D) (A = |a|, D = |d|) increases with A and decreases
// with D, so it lies in [A_lo/(A_lo + D_hi), A_hi/(A_hi + D_lo)] ⊆ [0, 1]:
// a softmax's exp(x_i − m)/Σ_j exp(x_j − m), whose sum holds its numerator,
// had the real range [0.0046, 12.4] for 4 inputs in [−1, 1] (the corners of
// the operands' ranges, e^2/(4·e^-2)); with D from the recorded sum
// (sum_rest) [0.0061, 0.95], and with the recorded maximum too (exp(x_i − m)
// in [e^-2, 1]) [0.043, 0.711], the exact range. Narrows `clip` (rounded
// outward; the caller's scope rounds upward).
namespace {
void part_of_whole(Engine& e, const Affine& a, const Affine& b, const Header& x, const Header& y, Clip& clip) {
  const bool positive = y.lo > 0;
  if (positive ? x.lo < 0 : x.hi > 0) return;
  double dlo = -kInf, dhi = kInf;
  // b a recorded sum holding a: the other leaves' bounds (record_sum)
  if (const auto rest = sum_rest(e, b.index(), a.index())) dlo = rest->first, dhi = rest->second;
  if (positive ? dlo < 0 : dhi > 0) {
    if (!share_symbols(a, b)) return;
    const Affine d = b - a;
    dlo = std::max(dlo, d.lower()), dhi = std::min(dhi, d.upper());
  }
  if (positive ? dlo < 0 : dhi > 0) return;
  R r;
  const double A_lo = positive ? x.lo : -x.hi, A_hi = positive ? x.hi : -x.lo;
  const double D_lo = positive ? dlo : -dhi, D_hi = positive ? dhi : -dlo;
  if (!std::isfinite(A_hi) || !std::isfinite(D_hi)) return;
  const double den_lo = r.add_up(A_lo, D_hi), den_hi = r.add_down(A_hi, D_lo);
  const double lo = den_lo > 0 ? r.div_down(A_lo, den_lo) : 0.0;
  const double hi = den_hi > 0 ? std::min(1.0, r.div_up(A_hi, den_hi)) : 1.0;
  if (lo > hi) return;  // (no quotient: leave the caller's range)
  clip.lo = std::max(clip.lo, lo);
  clip.hi = std::min(clip.hi, hi);
}
}  // namespace

Affine operator/(const Affine& a_in, const Affine& b_in) {
  const Affine a = affine_detail::localize(a_in);
  const Affine b = affine_detail::localize(b_in);
  Engine e = engine();
  const Header x = e.at(a), y = e.at(b);
  if (y.lo <= 0 && 0 <= y.hi) return Affine::whole();
  if (a.index() == 0) return Affine();
  UpwardScope scope;
  return e.memoised(Op::Div, a.index(), b.index(), 0, [&] {
    if (unbounded(x) || unbounded(y)) return from_interval(e, range(x) / range(y));
    Clip clip = clip_product(clip_of(x), clip_of(y), true);
    part_of_whole(e, a, b, x, y, clip);
    const double c = y.center;
    std::uint32_t inv;
    if (y.len == 0 && detail::is_power_of_two(c) && std::fabs(c) >= 0x1p-1022) {
      inv = e.constant(1.0 / c);  // exact: 2^-k with |k| <= 1023 (below 2^-1022, 1/c overflows)
    } else {
      const Affine iy = e.memoised(Op::Inv, b.index(), 0, 0, [&] { return e.inverse(y); });
      inv = iy.index();
    }
    const Header xc = x, yc = e.c_.forms[inv];
    if (unbounded(yc)) return e.interval_form(clip.lo, clip.hi, Kind::Fresh);  // 1/y overflows
    const std::uint32_t p = e.memoised(Op::Mul, std::min(a.index(), inv), std::max(a.index(), inv), 0, [&] {
      const Clip pc = clip_product(clip_of(xc), clip_of(yc), false);
      return e.multiply(xc, yc, pc.lo, pc.hi);
    }).index();
    return e.restrict(p, clip.lo, clip.hi);
  });
}

}  // namespace symerr
