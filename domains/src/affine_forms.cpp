// Affine forms: storing them (condensation, outward rounding of the center
// and radius, extensions of an operand's terms), intervals and constants as
// forms, and a form restricted to a range. Every Engine member runs inside the
// caller's UpwardScope.
#include "affine_engine.hpp"

namespace symerr {

using namespace affine_engine;

// Beyond max_terms symbols, keeps the largest max_terms/2 coefficients (one
// slot stays for the error symbol); the others' magnitudes go into err.
// Condensing to half leaves room for the next operations of a sum chain to
// extend the form (stored as an extension of their operand, see Header)
// instead of condensing again soon: a condensation rewrites the kept terms,
// so in a sum chain that grows by g terms per step it costs about
// g · keep / (max_terms − keep) stored terms per step (condensing to three
// quarters stores 3× as many: a 64×64 matmul stores 7.3 M terms with half,
// 11.0 M with three quarters, 12% of its time; the same FPBench and kernel
// bounds either way).
void Engine::condense(Builder& b) {
  const std::size_t max_terms = ctx_.options().max_terms;
  const std::size_t n = c_.s_sym.size();
  if (n + (b.err > 0 ? 1 : 0) <= max_terms) return;
  const std::size_t keep = std::max<std::size_t>(1, max_terms / 2);
  auto& order = c_.s_order;
  order.resize(n);
  for (std::uint32_t i = 0; i < n; ++i) order[i] = i;
  const auto larger = [&](std::uint32_t x, std::uint32_t y) {
    const double ax = std::fabs(c_.s_coef[x]), ay = std::fabs(c_.s_coef[y]);
    return ax != ay ? ax > ay : x < y;
  };
  std::nth_element(order.begin(), order.begin() + static_cast<long>(keep), order.end(), larger);
  R r;
  for (std::size_t i = keep; i < n; ++i) b.err = r.add_up(b.err, std::fabs(c_.s_coef[order[i]]));
  std::sort(order.begin(), order.begin() + static_cast<long>(keep));  // symbol order
  for (std::size_t i = 0; i < keep; ++i) {
    c_.s_sym[i] = c_.s_sym[order[i]];
    c_.s_coef[i] = c_.s_coef[order[i]];
  }
  c_.s_sym.resize(keep);
  c_.s_coef.resize(keep);
}

// Stores the built form: the error symbol appended, the range computed and
// intersected with [clip_lo, clip_hi]; a point range becomes a constant.
std::uint32_t Engine::finish(Builder& b, double clip_lo, double clip_hi, Kind kind, const Header* extends,
                             View extends_view) {
  condense(b);
  R r;
  if (b.err > 0) {
    c_.s_sym.push_back(c_.next_symbol++);
    c_.s_coef.push_back(b.err);
  }
  double radius = 0;
  for (double v : c_.s_coef) radius = r.add_up(radius, std::fabs(v));
  const auto n = static_cast<std::uint32_t>(c_.s_sym.size());
  const bool shares_prefix =
      extends && extends->self != 0 && extends->kind != Kind::Unbounded && extends->len > 0 && extends->len < n &&
      extends->depth < affine_detail::kMaxDepth &&
      std::equal(extends_view.sym, extends_view.sym + extends->len, c_.s_sym.begin()) &&
      std::equal(extends_view.coef, extends_view.coef + extends->len, c_.s_coef.begin(),
                 [](double x, double y) { return std::bit_cast<std::uint64_t>(x) == std::bit_cast<std::uint64_t>(y); });
  return store(b.center, radius, clip_lo, clip_hi, kind, shares_prefix ? extends : nullptr, false);
}

// Stores the form (b.center, scratch terms) of the given radius, clipped; with
// a parent, the scratch holds the parent's terms followed by the own ones
// (finish) or only the own ones (finish_extension, own_only).
std::uint32_t Engine::store(double center, double radius, double clip_lo, double clip_hi, Kind kind,
                            const Header* parent, bool own_only) {
  R r;
  affine_detail::RoundingHook* hook = c_.rounding_hook;
  c_.rounding_hook = nullptr;  // the first store of a rounded_operation is its t
  if (!std::isfinite(radius) || !std::isfinite(center)) return interval_form(clip_lo, clip_hi, Kind::Unbounded);
  double lo = r.sub_down(center, radius), hi = r.add_up(center, radius);
  if (clip_lo <= hi && lo <= clip_hi) {  // disjoint only if no execution reaches here
    lo = std::max(lo, clip_lo);
    hi = std::min(hi, clip_hi);
  }
  if (lo == hi) return constant(lo);
  if (hook)
    if (const auto fp = store_rounded(center, radius, lo, hi, parent, own_only, *hook)) return *fp;
  const auto n = static_cast<std::uint32_t>(c_.s_sym.size());
  const std::uint32_t skip = parent && !own_only ? parent->len : 0;  // terms kept by the parent
  Header h{center, lo, hi, radius, 0, parent && own_only ? parent->len + n : n, kind};
  if (parent) {
    h.parent = parent->self;
    h.depth = static_cast<std::uint8_t>(parent->depth + 1);
  }
  h.own = n - skip;
  h.offset = c_.terms.append(c_.s_sym.data() + skip, c_.s_coef.data() + skip, h.own);
  return push_header(h);
}

// fp = t + δ for the form t in scratch (center, radius, range [lo, hi],
// parent as in store), δ ∈ hook.bound([lo, hi]) a fresh symbol: the same
// form as storing t and then t + δ (δ's center shifts t's, the rounding of
// that shift is one more symbol), and δ's own form. nullopt (nothing
// changed) when the hook declines or fp would exceed max_terms.
std::optional<std::uint32_t> Engine::store_rounded(double center, double radius, double lo, double hi,
                                                   const Header* parent, bool own_only,
                                                   affine_detail::RoundingHook& hook) {
  const std::size_t n = c_.s_sym.size();
  if (n + (parent && own_only ? parent->len : 0) + 2 > ctx_.options().max_terms) return std::nullopt;
  double dlo = 0, dhi = 0;
  const bool bounded = hook.bound(hook.state, lo, hi, dlo, dhi);
  affine_detail::AffineControl::upward();  // the bound ran Interval operations
  if (!bounded || !(dlo < dhi) || !std::isfinite(dlo) || !std::isfinite(dhi)) return std::nullopt;
  R r;
  double dc = dlo / 2 + dhi / 2;  // δ = dc + dr·ε
  if (!(dlo <= dc && dc <= dhi)) dc = dhi;
  const double dr = std::max(r.sub_up(dc, dlo), r.sub_up(dhi, dc));
  const double c_lo = r.add_down(center, dc), c_hi = r.add_up(center, dc);
  double fc = c_hi, shift_err = 0;
  if (c_lo != c_hi) {
    fc = c_lo / 2 + c_hi / 2;
    if (!(c_lo <= fc && fc <= c_hi)) fc = c_hi;
    shift_err = std::max(r.sub_up(c_hi, fc), r.sub_up(fc, c_lo));
  }
  const double fr = r.add_up(r.add_up(radius, dr), shift_err);
  double flo = r.sub_down(fc, fr), fhi = r.add_up(fc, fr);
  const double clo = r.add_down(lo, dlo), chi = r.add_up(hi, dhi);
  if (clo <= fhi && flo <= chi) {
    flo = std::max(flo, clo);
    fhi = std::min(fhi, chi);
  }
  if (!std::isfinite(fr) || !std::isfinite(fc) || !(flo < fhi)) return std::nullopt;
  const std::uint32_t s = c_.next_symbol++;
  c_.s_sym.push_back(s);
  c_.s_coef.push_back(dr);
  if (shift_err > 0) {
    c_.s_sym.push_back(c_.next_symbol++);
    c_.s_coef.push_back(shift_err);
  }
  const auto total = static_cast<std::uint32_t>(c_.s_sym.size());
  const std::uint32_t skip = parent && !own_only ? parent->len : 0;
  Header h{fc, flo, fhi, fr, 0, parent && own_only ? parent->len + total : total, Kind::Bounded};
  if (parent) {
    h.parent = parent->self;
    h.depth = static_cast<std::uint8_t>(parent->depth + 1);
  }
  h.own = total - skip;
  h.offset = c_.terms.append(c_.s_sym.data() + skip, c_.s_coef.data() + skip, h.own);
  const std::uint32_t fp = push_header(h);
  Header d{dc, std::max(dlo, r.sub_down(dc, dr)), std::min(dhi, r.add_up(dc, dr)), dr, 0, 1, Kind::Bounded};
  d.own = 1;
  d.offset = c_.terms.append(&s, &dr, 1);
  hook.delta = push_header(d);
  hook.fused = true;
  return fp;
}

// The form `a` extended by the terms in scratch (all newer than a's symbols)
// and the builder's rounding error; a's terms are not read (its radius is).
std::uint32_t Engine::finish_extension(Builder& b, const Header& a, double clip_lo, double clip_hi) {
  R r;
  if (b.err > 0) {
    c_.s_sym.push_back(c_.next_symbol++);
    c_.s_coef.push_back(b.err);
  }
  double radius = a.radius;
  for (double v : c_.s_coef) radius = r.add_up(radius, std::fabs(v));
  return store(b.center, radius, clip_lo, clip_hi, Kind::Bounded, &a, true);
}

// Whether a + (±1)·b is a's terms followed by b's: b's symbols all newer
// than a's, no condensation due, and a's parent chain not at its bound.
bool Engine::extends_by(const Header& a, const View& b) const {
  if (a.self == 0 || a.len == 0 || b.len == 0 || a.own == 0 || a.kind == Kind::Unbounded) return false;
  if (a.depth >= affine_detail::kMaxDepth || a.len + b.len + 1 > ctx_.options().max_terms) return false;
  return b.sym[0] > c_.terms.symbols(a.offset)[a.own - 1];
}

std::uint32_t Engine::constant(double v) {
  if (v == 0) return 0;
  return push_header({v, v, v, 0.0, 0, 0, std::isfinite(v) ? Kind::Bounded : Kind::Unbounded});
}

// [lo, hi] as a form: a fresh symbol when bounded, an interval otherwise.
std::uint32_t Engine::interval_form(double lo, double hi, Kind kind) {
  if (lo == hi) return constant(lo);
  if (!std::isfinite(lo) || !std::isfinite(hi) || kind == Kind::Unbounded)
    return push_header({0.0, lo, hi, kInf, 0, 0, Kind::Unbounded});
  Builder b(c_);
  R r;
  b.center = lo / 2 + hi / 2;  // any value: the radius below covers [lo, hi]
  const double radius = std::max(r.sub_up(b.center, lo), r.sub_up(hi, b.center));
  b.push(c_.next_symbol++, radius, radius);
  return finish(b, lo, hi, kind);
}

// `to` encloses the same quantity as `from` (an intersection of two
// enclosures of it, a narrowed copy): the same recorded sum and extremum
// (affine.cpp: record_sum, domain_extremum). Not onto a point (a constant's
// handle is shared by every quantity of that value), nor onto a form older
// than the node's operands (the trees' walks descend to older forms only).
void affine_engine::same_quantity(AffineContext::Impl& c, std::uint32_t from, std::uint32_t to) {
  if ((c.sums.empty() && c.extrema.empty()) || from == to || to == 0 || from == 0) return;
  if (c.forms[to].lo == c.forms[to].hi) return;
  if (const auto it = c.sums.find(from); it != c.sums.end() && to > std::max(it->second.left, it->second.right)) {
    const AffineContext::Impl::SumNode n = it->second;
    c.sums.emplace(to, n);
  }
  if (const auto it = c.extrema.find(from);
      it != c.extrema.end() && to > std::max(it->second.left, it->second.right)) {
    const AffineContext::Impl::ExtremumNode n = it->second;
    c.extrema.emplace(to, n);
  }
}

std::uint32_t Engine::restrict(std::uint32_t h, double lo, double hi) {
  Header x = c_.forms[h];
  x.memo_head = 0;  // the new form's own memo chain
  x.memo_count = 0;
  x.operation = 0;
  x.operation_tag = 0;
  if (lo <= x.lo && x.hi <= hi) return h;
  if (hi < x.lo || x.hi < lo) return h;  // disjoint: no execution reaches here
  x.lo = std::max(lo, x.lo);
  x.hi = std::min(hi, x.hi);
  if (x.lo == x.hi) return constant(x.lo);
  const std::uint32_t r = push_header(x);
  same_quantity(c_, h, r);
  return r;
}

}  // namespace symerr
