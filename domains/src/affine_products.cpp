// The operations of the Affine engine on forms: linear combinations, products
// (with the cross terms of the two forms), a·b + c·d, and the non-linear
// inverse, square root and absolute value (Chebyshev / min-range linearisations).
// Every Engine member runs inside the caller's UpwardScope.
#include "affine_engine.hpp"

namespace symerr {

using namespace affine_engine;


// alpha·a + beta·b + [shift_dn, shift_up] (b optional, beta exact ±1 or any
// double), clipped. Coefficients are computed as [down, up] pairs.
std::uint32_t Engine::linear(const Header& a, double alpha, const Header* b, double beta, double shift_dn,
                             double shift_up, double clip_lo, double clip_hi) {
  Builder out(c_);
  R r;
  const auto scaled = [&](double v, double s, double& dn, double& up) {
    if (s == 1) { dn = up = v; return; }
    if (s == -1) { dn = up = -v; return; }
    dn = r.mul_down(v, s);
    up = r.mul_up(v, s);
  };
  double dn, up, dn2, up2;
  scaled(a.center, alpha, dn, up);
  out.shift(dn, up);
  if (b) {
    scaled(b->center, beta, dn, up);
    out.shift(dn, up);
  }
  out.shift(shift_dn, shift_up);
  const View vb = b ? view(*b, 1) : View{};
  if (b && alpha == 1 && (beta == 1 || beta == -1) && extends_by(a, vb)) {  // a sum chain's step
    for (std::uint32_t j = 0; j < vb.len; ++j) out.push(vb.sym[j], beta * vb.coef[j], beta * vb.coef[j]);
    return finish_extension(out, a, clip_lo, clip_hi);
  }
  const View va = view(a, 0);
  const std::uint32_t *sa = va.sym, *sb = vb.sym;
  const double *ca = va.coef, *cb = vb.coef;
  std::uint32_t i = 0, j = 0, na = va.len, nb = vb.len;
  while (i < na || j < nb) {
    if (j >= nb || (i < na && sa[i] < sb[j])) {
      scaled(ca[i], alpha, dn, up);
      out.push(sa[i++], dn, up);
    } else if (i >= na || sb[j] < sa[i]) {
      scaled(cb[j], beta, dn, up);
      out.push(sb[j++], dn, up);
    } else {
      scaled(ca[i], alpha, dn, up);
      scaled(cb[j], beta, dn2, up2);
      out.push(sa[i], r.add_down(dn, dn2), r.add_up(up, up2));
      ++i, ++j;
    }
  }
  // a sum chain's c + p (p's symbols all newer) extends c: stored as such
  if (alpha == 1) return finish(out, clip_lo, clip_hi, Kind::Bounded, &a, va);
  return finish(out, clip_lo, clip_hi);
}

// Σ_{i<j} |ai·bj + aj·bi| over the union of the symbols (rounded up): the
// off-diagonal part of Q with its cancellations (O(n²): small forms only).
double Engine::cross_terms(const Header& a, const Header& b) {
  R r;
  auto& sym = c_.s_order;  // the union of the symbols, with both coefficients
  thread_local std::vector<double> ca, cb;
  sym.clear();
  ca.clear();
  cb.clear();
  const View view_a = view(a, 0), view_b = view(b, 1);
  const std::uint32_t *sa = view_a.sym, *sb = view_b.sym;
  const double *va = view_a.coef, *vb = view_b.coef;
  for (std::uint32_t i = 0, j = 0; i < a.len || j < b.len;) {
    if (j >= b.len || (i < a.len && sa[i] < sb[j])) { sym.push_back(sa[i]); ca.push_back(va[i++]); cb.push_back(0); }
    else if (i >= a.len || sb[j] < sa[i]) { sym.push_back(sb[j]); ca.push_back(0); cb.push_back(vb[j++]); }
    else { sym.push_back(sa[i]); ca.push_back(va[i++]); cb.push_back(vb[j++]); }
  }
  double total = 0;
  for (std::size_t i = 0; i < sym.size(); ++i)
    for (std::size_t j = i + 1; j < sym.size(); ++j) {
      const double up = r.add_up(r.mul_up(ca[i], cb[j]), r.mul_up(ca[j], cb[i]));
      const double dn = r.add_down(r.mul_down(ca[i], cb[j]), r.mul_down(ca[j], cb[i]));
      total = r.add_up(total, std::max(std::fabs(up), std::fabs(dn)));
    }
  return total;
}

// The per-symbol part of a product's range: li·e + di·e² over e ∈ [−1, 1] lies
// in [min(−|li| + di, −|li|/2), max(|li| + di, |li|/2)] (the vertex of the
// parabola, when inside, is at most |li|/2 from 0 on the side of the
// extremum), with |li| <= l_mag and di ∈ [d_dn, d_up].
struct SymbolRange {
  double lo = 0, hi = 0;
  void add(double l_mag, double d_dn, double d_up) {
    R r;
    hi = r.add_up(hi, std::max(r.add_up(l_mag, d_up), l_mag / 2));
    lo = r.add_down(lo, std::min(r.sub_down(d_dn, l_mag), -(l_mag / 2)));
  }
};

// Sums over the symbols of a·b: Σ of the diagonal ai·bi by sign (s_pos,
// s_neg), Σ|ai·bi| rounded down, and the joint range of the linear and
// diagonal part Σ (a0·bi + b0·ai)·εi + ai·bi·εi².
struct ProductSums {
  double s_pos = 0, s_neg = 0, diag_abs = 0;
  double linear_abs = 0;  // Σ|a0·bi + b0·ai| rounded up: the radius of the linear part
  SymbolRange joint;
};
ProductSums product_sums(const Header& a, const double* ca, const std::uint32_t* sa, const Header& b,
                         const double* cb, const std::uint32_t* sb) {
  R r;
  ProductSums out;
  const auto mag_of = [&](double v, double s) { return std::fabs(r.mul_up(std::fabs(v), std::fabs(s))); };
  for (std::uint32_t i = 0, j = 0; i < a.len || j < b.len;) {
    if (j >= b.len || (i < a.len && sa[i] < sb[j])) {
      const double m = mag_of(ca[i++], b.center);
      out.linear_abs = r.add_up(out.linear_abs, m);
      out.joint.add(m, 0, 0);
      continue;
    }
    if (i >= a.len || sb[j] < sa[i]) {
      const double m = mag_of(cb[j++], a.center);
      out.linear_abs = r.add_up(out.linear_abs, m);
      out.joint.add(m, 0, 0);
      continue;
    }
    const double p_up = r.mul_up(ca[i], cb[j]), p_dn = r.mul_down(ca[i], cb[j]);
    if (p_up > 0) out.s_pos = r.add_up(out.s_pos, p_up);
    if (p_dn < 0) out.s_neg = r.add_down(out.s_neg, p_dn);
    out.diag_abs = r.add_down(out.diag_abs, std::min(std::fabs(p_up), std::fabs(p_dn)));  // |ai·bi| rounded down
    out.joint.add(r.add_up(mag_of(ca[i], b.center), mag_of(cb[j], a.center)), p_dn, p_up);
    const double l_up = r.add_up(r.mul_up(ca[i], b.center), r.mul_up(cb[j], a.center));
    const double l_dn = r.add_down(r.mul_down(ca[i], b.center), r.mul_down(cb[j], a.center));
    out.linear_abs = r.add_up(out.linear_abs, std::max(std::fabs(l_up), std::fabs(l_dn)));
    ++i, ++j;
  }
  return out;
}

// a·b = a0·b0 + Σ(a0·bi + b0·ai)εi + Q, Q = Σi ai·bi·εi² + Σi≠j ai·bj·εi·εj
// ∈ [S−, S+] ± (ra·rb − Σ|ai·bi|), S± the sums of the positive / negative ai·bi.
// The range of a·b is also clipped by the joint range of the linear and
// diagonal parts (± the off-diagonal bound), which is tighter where a
// linear and a diagonal term of one symbol partly cancel.
std::uint32_t Engine::multiply(const Header& a, const Header& b, double clip_lo, double clip_hi) {
  if (a.len == 0) return linear(b, a.center, nullptr, 0, 0.0, 0.0, clip_lo, clip_hi);
  if (b.len == 0) return linear(a, b.center, nullptr, 0, 0.0, 0.0, clip_lo, clip_hi);
  const ProductParts p = product_parts(a, b, clip_lo, clip_hi);
  return linear(a, b.center, &b, a.center, p.q_dn, p.q_up, p.clip_lo, p.clip_hi);
}

// The parts of a·b beside its linear terms b0·a + a0·b (both a and b with
// terms): the shift [q_dn, q_up] that linear(a, b0, &b, a0, ...) adds (Q, less
// the a0·b0 counted twice by the two centers) and the clip [clip_lo, clip_hi]
// narrowed by the joint range.
Engine::ProductParts Engine::product_parts(const Header& a, const Header& b, double clip_lo, double clip_hi) {
  R r;
  const View va = view(a, 0), vb = view(b, 1);
  const ProductSums sums = product_sums(a, va.coef, va.sym, b, vb.coef, vb.sym);
  double off = std::max(0.0, r.sub_up(r.mul_up(a.radius, b.radius), sums.diag_abs));
  // (one term each, of two symbols: the off-diagonal part is their product, off already)
  const bool one_pair = a.len == 1 && b.len == 1 && a.parent == 0 && b.parent == 0 &&
                        c_.terms.symbols(a.offset)[0] != c_.terms.symbols(b.offset)[0];
  if (a.len <= 16 && b.len <= 16 && !one_pair) off = std::min(off, cross_terms(a, b));
  double q_dn = r.sub_down(sums.s_neg, off), q_up = r.add_up(sums.s_pos, off);
  // Q = (a − a0)·(b − b0) exactly, and a − a0 ∈ [lo − a0, hi − a0] (the
  // quantity lies in the form's interval): the interval product bounds Q too.
  const Clip q = clip_product({r.sub_down(a.lo, a.center), r.sub_up(a.hi, a.center)},
                              {r.sub_down(b.lo, b.center), r.sub_up(b.hi, b.center)}, false);
  if (std::max(q_dn, q.lo) <= std::min(q_up, q.hi)) {  // disjoint only if no execution reaches here
    q_dn = std::max(q_dn, q.lo);
    q_up = std::min(q_up, q.hi);
  }
  const double joint_hi = r.add_up(r.add_up(r.mul_up(a.center, b.center), sums.joint.hi), off);
  const double joint_lo = r.sub_down(r.add_down(r.mul_down(a.center, b.center), sums.joint.lo), off);
  if (std::max(clip_lo, joint_lo) <= std::min(clip_hi, joint_hi)) {
    clip_lo = std::max(clip_lo, joint_lo);
    clip_hi = std::min(clip_hi, joint_hi);
  }
  // and the range of the product's own form a0·b0 + Σ(a0·bi + b0·ai)εi + Q,
  // so that a sum of products clipped by these (multiply_add) is never wider
  // than the sum of the products' stored forms
  const double form_hi = r.add_up(r.add_up(r.mul_up(a.center, b.center), sums.linear_abs), q_up);
  const double form_lo = r.add_down(r.sub_down(r.mul_down(a.center, b.center), sums.linear_abs), q_dn);
  if (std::max(clip_lo, form_lo) <= std::min(clip_hi, form_hi)) {
    clip_lo = std::max(clip_lo, form_lo);
    clip_hi = std::min(clip_hi, form_hi);
  }
  // center a0·b0 enters through the shift, b0·a and a0·b through linear():
  // linear(a, b0, b, a0) counts a0·b0 twice, so subtract it once.
  q_dn = r.sub_down(q_dn, r.mul_up(a.center, b.center));
  q_up = r.sub_up(q_up, r.mul_down(a.center, b.center));
  return {q_dn, q_up, clip_lo, clip_hi};
}

// a·b + c·d (every operand with terms, bounded): the linear terms b0·a + a0·b
// + d0·c + c0·d merged over the four forms, the centers and both products'
// shifts into one remainder symbol; clipped by the sum of the products' clips.
std::uint32_t Engine::multiply_add(const Header& a, const Header& b, const Header& c, const Header& d) {
  R r;
  const Clip ab = clip_product(clip_of(a), clip_of(b), false), cd = clip_product(clip_of(c), clip_of(d), false);
  const ProductParts p1 = product_parts(a, b, ab.lo, ab.hi), p2 = product_parts(c, d, cd.lo, cd.hi);
  Builder out(c_);
  const auto scaled = [&](double v, double s, double& dn, double& up) {
    if (s == 1) { dn = up = v; return; }
    if (s == -1) { dn = up = -v; return; }
    dn = r.mul_down(v, s);
    up = r.mul_up(v, s);
  };
  const Header* f[4] = {&a, &b, &c, &d};
  const double scale[4] = {b.center, a.center, d.center, c.center};
  View v[4];
  double dn, up;
  for (int k = 0; k < 4; ++k) {
    scaled(f[k]->center, scale[k], dn, up);
    out.shift(dn, up);
    if (scale[k] != 0) v[k] = view(*f[k], k);  // a zero scale contributes no terms
  }
  out.shift(p1.q_dn, p1.q_up);
  out.shift(p2.q_dn, p2.q_up);
  std::uint32_t pos[4] = {};
  constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();
  for (;;) {
    std::uint32_t sym = kNone;
    for (int k = 0; k < 4; ++k)
      if (pos[k] < v[k].len) sym = std::min(sym, v[k].sym[pos[k]]);
    if (sym == kNone) break;
    double s_dn = 0, s_up = 0;
    for (int k = 0; k < 4; ++k) {
      if (pos[k] >= v[k].len || v[k].sym[pos[k]] != sym) continue;
      scaled(v[k].coef[pos[k]++], scale[k], dn, up);
      s_dn = r.add_down(s_dn, dn);
      s_up = r.add_up(s_up, up);
    }
    out.push(sym, s_dn, s_up);
  }
  const double lo = r.add_down(p1.clip_lo, p2.clip_lo), hi = r.add_up(p1.clip_hi, p2.clip_hi);
  return finish(out, lo, hi);
}

// 1/y on [l, u] (0 < l < u, or mirrored): 1/y = α·y + g(y), g(y) = 1/y − α·y
// with α ≈ −1/(l·u) < 0: g >= 2·sqrt(−α) (AM-GM), g <= max(g(l), g(u)) (convex).
std::uint32_t Engine::inverse(const Header& y) {
  R r;
  const bool neg = y.hi < 0;
  const double l = neg ? -y.hi : y.lo, u = neg ? -y.lo : y.hi;
  const double inv_lo = r.div_down(1.0, u), inv_hi = r.div_up(1.0, l);
  const double clip_lo = neg ? -inv_hi : inv_lo, clip_hi = neg ? -inv_lo : inv_hi;
  const double m = (1.0 / l) / u;  // −α, any positive double
  if (!(m > 0) || !std::isfinite(m) || y.len == 0)
    return interval_form(clip_lo, clip_hi, Kind::Fresh);
  const double g_min = 2 * r.sqrt_down(m);
  const double g_max = std::max(r.add_up(inv_hi, r.mul_up(m, l)), r.add_up(r.div_up(1.0, u), r.mul_up(m, u)));
  if (!std::isfinite(g_max)) return interval_form(clip_lo, clip_hi, Kind::Fresh);
  // y > 0: 1/y = −m·y + g;  y < 0: 1/y = −(1/(−y)) = −m·y − g.
  return neg ? linear(y, -m, nullptr, 0, -g_max, -g_min, clip_lo, clip_hi)
             : linear(y, -m, nullptr, 0, g_min, g_max, clip_lo, clip_hi);
}

// sqrt on [l, u] (0 <= l < u): sqrt(x) = α·x + g(x), α ≈ 1/(√l + √u) > 0,
// g concave: g <= 1/(4α) (its global maximum), g >= min(g(l), g(u)).
std::uint32_t Engine::square_root(const Header& a) {
  R r;
  const double l = std::max(a.lo, 0.0), u = a.hi;
  const double clip_lo = l > 0 ? r.sqrt_down(l) : 0.0, clip_hi = r.sqrt_up(u);
  const double alpha = 1.0 / (std::sqrt(l) + std::sqrt(u));
  if (a.len == 0 || !(alpha > 0) || !std::isfinite(alpha) || l == u)
    return interval_form(clip_lo, clip_hi, Kind::Fresh);
  const double g_max = r.div_up(0.25, alpha);
  const double g_min = std::min(r.sub_down(clip_lo, r.mul_up(alpha, l)), r.sub_down(r.sqrt_down(u), r.mul_up(alpha, u)));
  return linear(a, alpha, nullptr, 0, g_min, g_max, clip_lo, clip_hi);
}

// |x| on [l, u] with l < 0 < u: |x| = α·x + g(x), α ∈ [−1, 1], g >= 0 (|x| >= α·x),
// g convex: g <= max(−l·(1 + α), u·(1 − α)).
std::uint32_t Engine::absolute(const Header& a) {
  R r;
  const double l = a.lo, u = a.hi;
  const double clip_hi = std::max(-l, u);
  double alpha = (u + l) / (u - l);
  alpha = std::min(1.0, std::max(-1.0, alpha));
  if (!std::isfinite(alpha) || a.len == 0) return interval_form(0.0, clip_hi, Kind::Fresh);
  const double g_max = std::max(r.mul_up(-l, r.add_up(1.0, alpha)), r.mul_up(u, r.sub_up(1.0, alpha)));
  return linear(a, alpha, nullptr, 0, 0.0, g_max, 0.0, clip_hi);
}

}  // namespace symerr
