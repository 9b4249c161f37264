// Affine forms: absolute value, square root, the domain's max and min, hull,
// intersection, functions of a form, clips, and the queries and comparisons
// on ranges (see affine.hpp for the semantics).
#include "affine_engine.hpp"

#include <ostream>

#include <symerr/domains/mpfr_support.hpp>

namespace symerr {

using namespace affine_engine;

Affine abs(const Affine& a_in) {
  const Affine a = affine_detail::localize(a_in);
  Engine e = engine();
  const Header x = e.at(a);
  if (x.lo >= 0) return a;
  if (x.hi <= 0) return -a;
  UpwardScope scope;
  return e.memoised(Op::Abs, a.index(), 0, 0, [&] {
    if (unbounded(x)) return from_interval(e, abs(range(x)));
    return e.absolute(x);
  });
}

Affine sqrt(const Affine& a_in) {
  const Affine a = affine_detail::localize(a_in);
  Engine e = engine();
  const Header x = e.at(a);
  if (x.hi <= 0) return Affine();
  UpwardScope scope;
  return e.memoised(Op::Sqrt, a.index(), 0, 0, [&] {
    if (unbounded(x)) return from_interval(e, sqrt(range(x)));
    return e.square_root(x);
  });
}

Affine domain_extremum(const Affine& a_in, const Affine& b_in, bool upper) {
  const Affine a = affine_detail::localize(a_in);
  const Affine b = affine_detail::localize(b_in);
  Engine e = engine();
  const Header x = e.at(a), y = e.at(b);
  if (a.index() == b.index()) return a;
  // decided: one operand is the extremum
  if (upper ? x.lo >= y.hi : x.hi <= y.lo) return a;
  if (upper ? y.lo >= x.hi : y.hi <= x.lo) return b;
  const double lo = upper ? std::max(x.lo, y.lo) : std::min(x.lo, y.lo);
  const double hi = upper ? std::max(x.hi, y.hi) : std::min(x.hi, y.hi);
  UpwardScope scope;
  const std::uint32_t lo_i = std::min(a.index(), b.index()), hi_i = std::max(a.index(), b.index());
  return e.memoised(upper ? Op::Max : Op::Min, lo_i, hi_i, 0, [&] {
    const std::uint32_t m = e.interval_form(lo, hi, Kind::Fresh);
    if (a.index() != 0 && b.index() != 0 && m > hi_i && std::isfinite(lo) && std::isfinite(hi)) {
      auto leaves = [&](std::uint32_t i) {
        const auto it = e.c_.extrema.find(i);
        return it != e.c_.extrema.end() && it->second.upper == upper ? it->second.leaves : 1u;
      };
      const std::uint32_t n = leaves(a.index()) + leaves(b.index());
      if (n <= kSumLeaves) e.c_.extrema.emplace(m, AffineContext::Impl::ExtremumNode{a.index(), b.index(), n, upper});
    }
    return m;
  });
}

Affine hull(const Affine& a_in, const Affine& b_in) {
  const Affine a = affine_detail::localize(a_in);
  const Affine b = affine_detail::localize(b_in);
  Engine e = engine();
  const Header x = e.at(a), y = e.at(b);
  if (a.index() == b.index()) return a;
  const double lo = std::min(x.lo, y.lo), hi = std::max(x.hi, y.hi);
  if (x.lo == lo && x.hi == hi && x.len == 0 && y.len == 0 && x.kind == Kind::Bounded) return a;
  UpwardScope scope;
  return e.handle(e.interval_form(lo, hi, Kind::Fresh));
}

namespace {
// Which form intersect() keeps: a correlated one over a fresh or interval-only
// one, then the smaller radius (ties: the first).
bool keep_first(const Header& x, const Header& y) {
  const auto rank = [](const Header& h) { return h.kind == Kind::Unbounded ? 2 : h.kind == Kind::Fresh ? 1 : 0; };
  if (rank(x) != rank(y)) return rank(x) < rank(y);
  return x.radius <= y.radius;
}
}  // namespace

std::optional<Affine> intersect(const Affine& a_in, const Affine& b_in) {
  const Affine a = affine_detail::localize(a_in);
  const Affine b = affine_detail::localize(b_in);
  Engine e = engine();
  const Header x = e.at(a), y = e.at(b);
  if (x.hi < y.lo || y.hi < x.lo) return std::nullopt;
  if (a.index() == b.index()) return a;
  const bool first = keep_first(x, y);
  const Affine& kept = first ? a : b;
  const Header& k = first ? x : y;
  const double lo = std::max(x.lo, y.lo), hi = std::min(x.hi, y.hi);
  UpwardScope scope;
  const Affine r = k.lo == lo && k.hi == hi
                       ? kept
                       : e.memoised(Op::Intersect, a.index(), b.index(), 0, [&] { return e.restrict(kept.index(), lo, hi); });
  // one quantity: a maximum met with fp − err (reduce()) is still the maximum
  same_quantity(e.c_, a.index(), r.index());
  same_quantity(e.c_, b.index(), r.index());
  return r;
}

Affine function_of(const Affine& of_in, std::uint64_t tag, const Affine& bound_in) {
  const Affine of = affine_detail::localize(of_in);
  const Affine bound = affine_detail::localize(bound_in);
  Engine e = engine();
  const Header& bd = e.at(bound);
  if (bd.lo == bd.hi) return bound;
  return function_of(of, tag, bd.lo, bd.hi);
}

Affine function_of(const Affine& of_in, std::uint64_t tag, double lo, double hi) {
  const Affine of = affine_detail::localize(of_in);
  if (!(lo <= hi)) detail::throw_bad_interval(lo, hi, "function_of");
  if (lo == hi) return Affine::point(lo);
  Engine e = engine();
  e.at(of);
  UpwardScope scope;
  // a hit is the same symbol only with the same range: a bound may depend on more than the tag names
  return e.memoised(
      Op::FunctionOf, of.index(), 0, tag,
      [&] { return e.interval_form(lo, hi, std::isfinite(lo) && std::isfinite(hi) ? Kind::Bounded : Kind::Unbounded); },
      [&](std::uint32_t r) { return e.at(e.handle(r)).lo == lo && e.at(e.handle(r)).hi == hi; });
}

Affine clip(const Affine& a_in, double lo, double hi) {
  const Affine a = affine_detail::localize(a_in);
  if (!(lo <= hi)) detail::throw_bad_interval(lo, hi, "clip");
  if (a.index() == 0) return a;
  Engine e = engine();
  const Header& x = e.at(a);
  if (lo <= x.lo && x.hi <= hi) return a;
  if (hi < x.lo || x.hi < lo) return a;  // disjoint: no execution reaches here (as restrict)
  // Memoised on (a, the clipped range), so the same clip of the same value is
  // the same handle (operations on it are then memoised too: f(x) − f(x) = 0
  // after a clip). The key holds a hash of the range; a hit is confirmed.
  const double nlo = std::max(lo, x.lo), nhi = std::min(hi, x.hi);
  const std::uint64_t tag = affine_detail::KeyHash::mix(std::bit_cast<std::uint64_t>(nlo)) ^
                            std::bit_cast<std::uint64_t>(nhi);
  const std::uint32_t index = a.index();
  return e.memoised(
      Op::Restrict, index, 0, tag, [&] { return e.restrict(index, lo, hi); },
      [&](std::uint32_t r) {
        const Header& h = e.at(e.handle(r));
        return h.lo == nlo && h.hi == nhi;
      });
}

Affine affine_detail::clip_new(const Affine& a_in, double lo, double hi, std::size_t first_new) {
  const Affine a = affine_detail::localize(a_in);
  if (!(lo <= hi)) detail::throw_bad_interval(lo, hi, "clip");
  if (a.index() == 0 || a.index() < first_new) return clip(a, lo, hi);
  Engine e = engine();
  e.at(a);
  Header& x = e.c_.forms[a.index()];
  if (lo <= x.lo && x.hi <= hi) return a;
  if (hi < x.lo || x.hi < lo) return a;  // disjoint: no execution reaches here (as restrict)
  const double nlo = std::max(lo, x.lo), nhi = std::min(hi, x.hi);
  if (nlo == nhi) return clip(a, lo, hi);
  x.lo = nlo;
  x.hi = nhi;
  return a;
}

// ---- queries ---------------------------------------------------------------

namespace {
// The smallest and the largest symbol of a form with terms (sorted: the first
// of its root's segment, the last of its own).
std::pair<std::uint32_t, std::uint32_t> symbol_span(AffineContext::Impl& c, const Header& h) {
  const Header* root = &h;
  while (root->parent != 0) root = &c.forms[root->parent];
  return {c.terms.symbols(root->offset)[0], c.terms.symbols(h.offset)[h.own - 1]};
}
}  // namespace

bool share_symbols(const Affine& a_in, const Affine& b_in) {
  const Affine a = affine_detail::localize(a_in);
  const Affine b = affine_detail::localize(b_in);
  if (a.index() == 0 || b.index() == 0) return false;
  Engine e = engine();
  const Header &x = e.at(a), &y = e.at(b);
  if (x.len == 0 || y.len == 0) return false;
  if (x.own != 0 && y.own != 0) {
    const auto sx = symbol_span(e.c_, x), sy = symbol_span(e.c_, y);
    if (sx.second < sy.first || sy.second < sx.first) return false;  // disjoint symbol ranges
  }
  const Engine::View va = e.view(x, 0), vb = e.view(y, 1);
  for (std::uint32_t i = 0, j = 0; i < va.len && j < vb.len;) {
    if (va.sym[i] == vb.sym[j]) return true;
    if (va.sym[i] < vb.sym[j]) ++i; else ++j;
  }
  return false;
}

namespace {
int compare(double d, const mpq_class& q) {
  if (std::isinf(d)) return d > 0 ? 1 : -1;
  return cmp(mpq_class(d), q);
}
struct Range {
  double lo, hi;
};
Range range_of(const Affine& a) {
  if (a.index() == 0) return {0.0, 0.0};
  if (is_constant_handle(a)) return {constant_range(a).first, constant_range(a).second};
  const Header& h = engine().at(a);
  return {h.lo, h.hi};
}
}  // namespace

bool contains(const Affine& a, double v) {
  const Range r = range_of(a);
  return r.lo <= v && v <= r.hi;
}
bool contains(const Affine& a, const mpq_class& q) {
  const Range r = range_of(a);
  return compare(r.lo, q) <= 0 && compare(r.hi, q) >= 0;
}
bool subset(const Affine& a, const Affine& b) {
  const Range x = range_of(a), y = range_of(b);
  return y.lo <= x.lo && x.hi <= y.hi;
}
double width(const Affine& a) {
  const Range r = range_of(a);
  if (!std::isfinite(r.lo) || !std::isfinite(r.hi)) return kInf;
  UpwardScope scope;
  R rr;
  return rr.sub_up(r.hi, r.lo);
}
double mag(const Affine& a) {
  const Range r = range_of(a);
  return std::max(std::fabs(r.lo), std::fabs(r.hi));
}
double mig(const Affine& a) {
  const Range r = range_of(a);
  if (r.lo <= 0 && 0 <= r.hi) return 0.0;
  return std::min(std::fabs(r.lo), std::fabs(r.hi));
}
bool is_bounded(const Affine& a) {
  const Range r = range_of(a);
  return std::isfinite(r.lo) && std::isfinite(r.hi);
}
bool is_point(const Affine& a) {
  const Range r = range_of(a);
  return r.lo == r.hi && std::isfinite(r.lo);
}
double form_radius(const Affine& a) {
  if (a.index() == 0) return 0.0;
  if (is_constant_handle(a)) return a.index() == kWholeConstant ? kInf : 0.0;
  return engine().at(a).radius;
}

namespace {
// The range of a − b, when both are bounded forms sharing a symbol; else nullopt.
std::optional<Range> correlated_difference(const Affine& a_in, const Affine& b_in) {
  const Affine a = affine_detail::localize(a_in);
  const Affine b = affine_detail::localize(b_in);
  if (a.index() == 0 || b.index() == 0) return std::nullopt;
  Engine e = engine();
  const Header x = e.at(a), y = e.at(b);
  if (x.len == 0 || y.len == 0 || unbounded(x) || unbounded(y)) return std::nullopt;
  return range_of(a - b);
}
}  // namespace

Tri cmp_lt(const Affine& a, const Affine& b) {
  const Range x = range_of(a), y = range_of(b);
  if (x.hi < y.lo) return Tri::True;
  if (x.lo >= y.hi) return Tri::False;
  if (const auto d = correlated_difference(a, b)) {
    if (d->hi < 0) return Tri::True;
    if (d->lo >= 0) return Tri::False;
  }
  return Tri::Unknown;
}
Tri cmp_le(const Affine& a, const Affine& b) {
  const Range x = range_of(a), y = range_of(b);
  if (x.hi <= y.lo) return Tri::True;
  if (x.lo > y.hi) return Tri::False;
  if (const auto d = correlated_difference(a, b)) {
    if (d->hi <= 0) return Tri::True;
    if (d->lo > 0) return Tri::False;
  }
  return Tri::Unknown;
}
Tri cmp_eq(const Affine& a, const Affine& b) {
  const Range x = range_of(a), y = range_of(b);
  if (x.hi < y.lo || y.hi < x.lo) return Tri::False;
  if (x.lo == x.hi && y.lo == y.hi && std::isfinite(x.lo)) return Tri::True;
  if (a.index() == b.index() && a.context_id() == b.context_id() && std::isfinite(x.lo) && std::isfinite(x.hi))
    return Tri::True;
  if (const auto d = correlated_difference(a, b)) {
    if (d->lo == 0 && d->hi == 0) return Tri::True;
    if (d->lo > 0 || d->hi < 0) return Tri::False;
  }
  return Tri::Unknown;
}

std::string to_string(const Affine& a) {
  const Range r = range_of(a);
  std::string s = detail::format_interval(r.lo, r.hi);
  if (a.index() != 0 && !is_constant_handle(a)) s += " (" + std::to_string(engine().at(a).len) + " symbols)";
  return s;
}
std::ostream& operator<<(std::ostream& os, const Affine& a) { return os << to_string(a); }

// ---- self-test ---------------------------------------------------------------

}  // namespace symerr
