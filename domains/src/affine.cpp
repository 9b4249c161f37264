// Affine forms: construction, the linear and non-linear operations, and the
// context machinery (see affine.hpp for the semantics). Every operation runs
// inside one UpwardScope: x + y etc. round up, and the lower roundings use the
// identities of UpwardOppArith (down(x + y) = −((−x) − y) rounded up).
#include <symerr/domains/affine.hpp>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <ostream>
#include <stdexcept>
#include <string>
#include <unordered_map>

#include <symerr/domains/interval.hpp>
#include <symerr/domains/mpfr_support.hpp>
#include <symerr/symbolic/fast_format.hpp>

#include "affine_impl.hpp"

// Under AddressSanitizer a pooled block is poisoned while it waits in the
// pool: a read of a destroyed context's storage is reported as it would be
// if the block had been freed.
#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#define SYMERR_POOL_POISON(p, n) ASAN_POISON_MEMORY_REGION(p, n)
#define SYMERR_POOL_UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION(p, n)
#else
#define SYMERR_POOL_POISON(p, n) ((void)(p), (void)(n))
#define SYMERR_POOL_UNPOISON(p, n) ((void)(p), (void)(n))
#endif

namespace symerr {

using affine_detail::Header;
using affine_detail::Key;
using affine_detail::Kind;
using affine_detail::kInf;
using affine_detail::Op;
using affine_detail::R;
using affine_detail::UpwardScope;

namespace {

thread_local AffineContext* tls_current = nullptr;
thread_local bool tls_in_self_test = false;
std::atomic<std::uint32_t> next_context_id{0};

[[noreturn, gnu::cold]] void throw_no_context() {
  throw std::logic_error(
      "symerr::Affine: no AffineContext is current on this thread (create an AffineContext and an "
      "AffineScope before using Affine values other than the point 0)");
}
[[noreturn, gnu::cold]] void throw_foreign(std::uint32_t id, std::uint32_t current) {
  throw std::logic_error("symerr::Affine: a value of AffineContext #" + std::to_string(id) +
                         " used while AffineContext #" + std::to_string(current) +
                         " is current (handles are valid only in the live context that created them)");
}

// ---- context-free constants ----
// Affine::point(v) and Affine::whole() called with no current context (the
// static initialisation of a C kernel's file-scope `static const double
// k[] = {...}` substituted on the Affine domain, before any context exists)
// give a handle of the pseudo-context kConstantContext: index 1 is whole(),
// a larger index the value of entry index in this process-wide table
// (append-only, one entry per distinct value). Every operation first maps
// such a handle into the current context (localize): point(v) there — the
// same handle for the same value, so x·c − x·c is still 0 — or a fresh
// whole(). A handle of it that reaches a context's storage unmapped is
// refused by Engine::at as foreign (loudly, never read).
using affine_detail::kConstantContext;
constexpr std::uint32_t kWholeConstant = 1;

class ConstantTable {
 public:
  std::uint32_t add(double v) {
    const std::lock_guard<std::mutex> lock(mutex_);
    const auto key = std::bit_cast<std::uint64_t>(v);
    if (const auto it = index_.find(key); it != index_.end()) return it->second;
    if (size_ >= kChunks * kChunk)
      throw std::logic_error("symerr::Affine: more than 2^20 distinct constants created without an AffineContext");
    if (size_ % kChunk == 0) chunks_[size_ / kChunk] = std::make_unique<double[]>(kChunk);
    chunks_[size_ / kChunk][size_ % kChunk] = v;
    ++size_;
    index_.emplace(key, size_ + 1);
    return size_ + 1;
  }
  // index >= 2, returned by add (happens-before: the handle was published after)
  double value(std::uint32_t index) const {
    const std::uint32_t i = index - 2;
    return chunks_[i / kChunk][i % kChunk];
  }

 private:
  static constexpr std::uint32_t kChunk = 4096, kChunks = 256;
  std::mutex mutex_;
  std::unique_ptr<double[]> chunks_[kChunks];
  std::uint32_t size_ = 0;
  std::unordered_map<std::uint64_t, std::uint32_t> index_;
};
ConstantTable& constant_table() {
  static ConstantTable table;
  return table;
}

bool is_constant_handle(const Affine& a) noexcept { return a.context_id() == kConstantContext; }

// The range of a context-free constant.
std::pair<double, double> constant_range(const Affine& a) {
  if (a.index() == kWholeConstant) return {-std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity()};
  const double v = constant_table().value(a.index());
  return {v, v};
}

// Products (divide = false) and quotients (0 not in y) of bounded ranges,
// outward (the caller's scope rounds upward): the hull of the four corners.
struct Clip {
  double lo, hi;
};
Clip clip_product(Clip x, Clip y, bool divide) {
  R r;
  const double c[4][2] = {{x.lo, y.lo}, {x.lo, y.hi}, {x.hi, y.lo}, {x.hi, y.hi}};
  Clip out{kInf, -kInf};
  for (const auto& p : c) {
    out.lo = std::min(out.lo, divide ? r.div_down(p[0], p[1]) : r.mul_down(p[0], p[1]));
    out.hi = std::max(out.hi, divide ? r.div_up(p[0], p[1]) : r.mul_up(p[0], p[1]));
  }
  return out;
}
Clip clip_of(const Header& h) { return {h.lo, h.hi}; }

// A form's terms as two arrays: in place when it has no parent, else
// gathered into scratch `slot` (0 or 1; valid until the next gather into it).
struct TermView {
  const std::uint32_t* sym = nullptr;
  const double* coef = nullptr;
  std::uint32_t len = 0;
};
TermView gather(AffineContext::Impl& c_, const Header& h, int slot) {
  if (h.len == 0) return {};
  if (h.parent == 0) return {c_.terms.symbols(h.offset), c_.terms.coefficients(h.offset), h.len};
  auto& sym = c_.g_sym[slot];
  auto& coef = c_.g_coef[slot];
  // forms are immutable: the slot still holds h's terms if it was the last form gathered there
  if (c_.g_form[slot] == h.self && h.self != 0) return {sym.data(), coef.data(), h.len};
  const Header* chain[affine_detail::kMaxDepth + 1];
  int n = 0;
  for (const Header* f = &h;; f = &c_.forms[f->parent]) {
    chain[n++] = f;
    if (f->parent == 0) break;
  }
  c_.g_form[slot] = 0;
  sym.clear();
  coef.clear();
  for (int k = n - 1; k >= 0; --k) {
    const Header& f = *chain[k];
    const std::uint32_t* fs = c_.terms.symbols(f.offset);
    const double* fc = c_.terms.coefficients(f.offset);
    sym.insert(sym.end(), fs, fs + f.own);
    coef.insert(coef.end(), fc, fc + f.own);
  }
  c_.g_form[slot] = h.self;
  return {sym.data(), coef.data(), h.len};
}

// The form builder: terms (sorted by symbol), the chosen center, and the
// total rounding error `err` (>= 0) of everything chosen so far.
struct Builder {
  AffineContext::Impl& c;
  double center = 0;
  double err = 0;
  explicit Builder(AffineContext::Impl& ctx) : c(ctx) {
    c.s_sym.clear();
    c.s_coef.clear();
  }
  // Appends the coefficient known to lie in [dn, up] (dn <= up).
  void push(std::uint32_t s, double dn, double up) {
    R r;
    if (up != dn) err = r.add_up(err, r.sub_up(up, dn));
    if (up == 0 && dn == 0) return;
    c.s_sym.push_back(s);
    c.s_coef.push_back(up);
  }
  // Adds [dn, up] to the center: the new center is a midpoint of the sum's
  // enclosure [lo, hi], and err grows by its distance to the farther end.
  void shift(double dn, double up) {
    R r;
    const double lo = r.add_down(center, dn), hi = r.add_up(center, up);
    if (hi == lo) {
      center = hi;
      return;
    }
    double mid = lo / 2 + hi / 2;  // any double in [lo, hi]
    if (!(lo <= mid && mid <= hi)) mid = hi;
    center = mid;
    err = r.add_up(err, std::max(r.sub_up(hi, mid), r.sub_up(mid, lo)));
  }
};

class Engine {
 public:
  explicit Engine(AffineContext& ctx) : ctx_(ctx), c_(ctx.impl()) {}

  const Header& at(const Affine& a) const {
    if (a.context_id() != 0 && a.context_id() != ctx_.id()) throw_foreign(a.context_id(), ctx_.id());
    return c_.forms[a.index()];
  }
  Affine handle(std::uint32_t index) const { return ctx_.handle(index); }

  // `valid` (optional) confirms a hit whose key is a hash (clip): a hit it
  // rejects is computed afresh and not recorded.
  template <class F, class V = bool (*)(std::uint32_t)>
  Affine memoised(Op op, std::uint32_t a, std::uint32_t b, std::uint64_t tag, F&& compute,
                  V&& valid = [](std::uint32_t) { return true; }) {
    if (!ctx_.options().memoise || c_.form_memo_suspended) return handle(compute());
    if (a == 0) {
      const Key k{tag, a, b, op};
      if (const std::uint32_t* hit = c_.memo.find(k)) return handle(valid(*hit) ? *hit : compute());
      const std::uint32_t r = compute();
      c_.memo.insert(k, r);
      return handle(r);
    }
    for (std::uint32_t i = c_.forms[a].memo_head; i != 0; i = c_.chains[i].next) {
      const affine_detail::MemoEntry& m = c_.chains[i];
      if (m.op == op && m.b == b && m.tag == tag) return handle(valid(m.result) ? m.result : compute());
    }
    const bool full = c_.forms[a].memo_count >= affine_detail::kChainLength;
    if (full)
      if (const std::uint32_t* hit = c_.memo.find(Key{tag, a, b, op})) return handle(valid(*hit) ? *hit : compute());
    const std::uint32_t r = compute();  // may grow c_.forms: index again below
    if (full) {
      c_.memo.insert(Key{tag, a, b, op}, r);
    } else {
      c_.chains.push_back({tag, b, r, c_.forms[a].memo_head, op});
      c_.forms[a].memo_head = static_cast<std::uint32_t>(c_.chains.size() - 1);
      ++c_.forms[a].memo_count;
    }
    return handle(r);
  }

  using View = TermView;
  View view(const Header& h, int slot) { return gather(c_, h, slot); }
  std::uint32_t finish(Builder& b, double clip_lo, double clip_hi, Kind kind = Kind::Bounded,
                       const Header* extends = nullptr, View extends_view = {});
  std::uint32_t finish_extension(Builder& b, const Header& a, double clip_lo, double clip_hi);
  std::uint32_t store(double center, double radius, double clip_lo, double clip_hi, Kind kind,
                      const Header* parent, bool own_only);
  bool extends_by(const Header& a, const View& b) const;
  std::uint32_t interval_form(double lo, double hi, Kind kind);
  std::uint32_t constant(double v);
  std::uint32_t restrict(std::uint32_t h, double lo, double hi);
  std::uint32_t linear(const Header& a, double alpha, const Header* b, double beta, double shift_dn,
                       double shift_up, double clip_lo, double clip_hi);
  std::uint32_t multiply(const Header& a, const Header& b, double clip_lo, double clip_hi);
  struct ProductParts {
    double q_dn, q_up, clip_lo, clip_hi;
  };
  ProductParts product_parts(const Header& a, const Header& b, double clip_lo, double clip_hi);
  std::uint32_t multiply_add(const Header& a, const Header& b, const Header& c, const Header& d);
  double cross_terms(const Header& a, const Header& b);
  std::uint32_t inverse(const Header& b);
  std::uint32_t square_root(const Header& a);
  std::uint32_t absolute(const Header& a);

  AffineContext& ctx_;
  AffineContext::Impl& c_;

 private:
  void condense(Builder& b);
  std::optional<std::uint32_t> store_rounded(double center, double radius, double lo, double hi,
                                             const Header* parent, bool own_only,
                                             affine_detail::RoundingHook& hook);
  std::uint32_t push_header(Header h) {
    h.self = static_cast<std::uint32_t>(c_.forms.size());
    c_.forms.push_back(h);
    return h.self;
  }
};

// Beyond max_terms symbols, keeps the largest max_terms/2 coefficients (one
// slot stays for the error symbol); the others' magnitudes go into err.
// Condensing to half leaves room for the next operations of a sum chain to
// extend the form (stored as an extension of their operand, see Header)
// instead of condensing again soon: a condensation rewrites the kept terms,
// so in a sum chain that grows by g terms per step it costs about
// g · keep / (max_terms − keep) stored terms per step (to three quarters it
// was 3× as many: 64×64 matmul 11.0 M stored terms, now 7.3 M, 12% of its
// time; the FPBench and kernel bounds of the README are unchanged).
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
void same_quantity(AffineContext::Impl& c, std::uint32_t from, std::uint32_t to) {
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

Engine engine() {
  AffineContext* c = tls_current;
  if (!c) throw_no_context();
  return Engine(*c);
}

// ---- interval arithmetic on ranges (used for the clips) ----

Interval range(const Header& h) { return Interval::between(h.lo, h.hi); }

// ---- the storage pool (affine_impl.hpp) ------------------------------------

struct StoragePool {
  std::mutex m;
  std::unordered_map<std::size_t, std::vector<void*>> free;  // by block size
  std::size_t bytes = 0;                                      // held in `free`
};
// Never destroyed: a context with static storage duration may end after it.
StoragePool& storage_pool() {
  static StoragePool* p = new StoragePool;
  return *p;
}
constexpr std::align_val_t kBlockAlign{64};
}  // namespace

void* affine_detail::pool_take(std::size_t bytes, bool& reused) {
  StoragePool& pool = storage_pool();
  {
    const std::lock_guard<std::mutex> lock(pool.m);
    const auto it = pool.free.find(bytes);
    if (it != pool.free.end() && !it->second.empty()) {
      void* p = it->second.back();
      it->second.pop_back();
      pool.bytes -= bytes;
      reused = true;
      SYMERR_POOL_UNPOISON(p, bytes);
      return p;
    }
  }
  reused = false;
  return ::operator new(bytes, kBlockAlign);
}

void affine_detail::pool_give(void* p, std::size_t bytes) noexcept {
  StoragePool& pool = storage_pool();
  try {
    const std::lock_guard<std::mutex> lock(pool.m);
    if (pool.bytes + bytes <= kPoolLimit) {
      pool.free[bytes].push_back(p);
      pool.bytes += bytes;
      SYMERR_POOL_POISON(p, bytes);
      return;
    }
  } catch (...) {  // no memory for the list: the block is freed instead
  }
  ::operator delete(p, kBlockAlign);
}

void AffineContext::release_pooled_storage() noexcept {
  StoragePool& pool = storage_pool();
  const std::lock_guard<std::mutex> lock(pool.m);
  for (auto& [bytes, blocks] : pool.free)
    for (void* p : blocks) {
      SYMERR_POOL_UNPOISON(p, bytes);
      ::operator delete(p, kBlockAlign);
    }
  pool.free.clear();
  pool.bytes = 0;
}

std::size_t AffineContext::pooled_storage_bytes() noexcept {
  StoragePool& pool = storage_pool();
  const std::lock_guard<std::mutex> lock(pool.m);
  return pool.bytes;
}

// ---- context ---------------------------------------------------------------

AffineContext::AffineContext(AffineOptions options)
    : impl_(std::make_unique<Impl>()), options_(options), id_(++next_context_id) {
  if (id_ == affine_detail::kConstantContext)
    throw std::runtime_error("AffineContext: context ids exhausted (2^32 - 1 contexts in this process)");
  if (options_.max_terms < 2) throw std::invalid_argument("AffineContext: max_terms must be at least 2");
  if (options_.max_terms >= affine_detail::TermStore::kBlock)
    throw std::invalid_argument("AffineContext: max_terms must be below 65536");
  // The self-test builds its own context: skip the check while it runs.
  static std::once_flag checked;
  static bool ok = false;
  if (!tls_in_self_test) {
    std::call_once(checked, [] {
      tls_in_self_test = true;
      ok = affine_self_test();
      tls_in_self_test = false;
    });
    if (!ok) throw std::runtime_error("AffineContext: the directed-rounding self-test failed on this machine");
  }
  impl_->forms.push_back({0.0, 0.0, 0.0, 0.0, 0, 0, Kind::Bounded});  // form 0: the point 0
}

AffineContext::~AffineContext() {
  if (tls_current == this) tls_current = nullptr;
}

AffineContext& AffineContext::current() {
  if (!tls_current) throw_no_context();
  return *tls_current;
}
AffineContext* AffineContext::current_or_null() noexcept { return tls_current; }

std::size_t AffineContext::symbol_count() const noexcept { return impl_->next_symbol; }
std::size_t AffineContext::form_count() const noexcept { return impl_->forms.size(); }
std::size_t AffineContext::term_count() const noexcept { return impl_->terms.stored(); }

double AffineContext::center(const Affine& a) const {
  if (is_constant_handle(a)) return constant_range(a).first / 2 + constant_range(a).second / 2;
  if (a.context_id() != 0 && a.context_id() != id_) throw_foreign(a.context_id(), id_);
  return impl_->forms[a.index()].center;
}

std::vector<AffineTerm> AffineContext::terms(const Affine& a) const {
  if (is_constant_handle(a)) return {};  // a constant, or the unknown: no symbol
  if (a.context_id() != 0 && a.context_id() != id_) throw_foreign(a.context_id(), id_);
  const Header& h = impl_->forms[a.index()];
  const TermView v = gather(*impl_, h, 0);
  std::vector<AffineTerm> t;
  for (std::uint32_t i = 0; i < v.len; ++i) t.push_back({v.sym[i], v.coef[i]});
  return t;
}

AffineScope::AffineScope(AffineContext& ctx) noexcept : previous_(tls_current) { tls_current = &ctx; }
AffineScope::~AffineScope() { tls_current = previous_; }

// ---- construction ----------------------------------------------------------

Affine Affine::nonzero_point(double v) {
  if (std::isnan(v)) detail::throw_bad_interval(v, v, "Affine::point");
  if (v == 0) return Affine();
  if (!tls_current) return portable_point(v);  // context-free constant
  Engine e = engine();
  UpwardScope scope;
  return e.memoised(Op::Point, 0, 0, std::bit_cast<std::uint64_t>(v), [&] { return e.constant(v); });
}

Affine Affine::between(double lo, double hi) {
  if (!(lo <= hi)) detail::throw_bad_interval(lo, hi, "Affine::between");
  if (lo == hi) return point(lo);
  Engine e = engine();
  UpwardScope scope;
  return e.handle(e.interval_form(lo, hi, Kind::Fresh));
}

Affine Affine::from_rational(const mpq_class& q) {
  const double lo = detail::to_double_down(q), hi = detail::to_double_up(q);
  return between(lo, hi);
}

// A fresh form each time: handles name quantities, and two unknown quantities
// are not the same (whole() − whole() is not 0).
// Without a context: the context-free unknown, a fresh whole() in the
// context where it is used (localize).
Affine Affine::whole() {
  if (!tls_current) return portable_whole();
  return between(-kInf, kInf);
}

Affine Affine::portable_point(double v) {
  if (std::isnan(v)) detail::throw_bad_interval(v, v, "Affine::portable_point");
  if (v == 0) return Affine();
  return Affine(constant_table().add(v), kConstantContext);
}

Affine Affine::portable_whole() { return Affine(kWholeConstant, kConstantContext); }

Affine affine_detail::localize(const Affine& a) {
  if (!is_constant_handle(a) || !tls_current) return a;
  if (a.index() == kWholeConstant) return Affine::whole();
  return Affine::point(constant_table().value(a.index()));
}

double Affine::lower() const {
  if (index_ == 0) return 0.0;
  if (is_constant_handle(*this)) return constant_range(*this).first;
  return engine().at(*this).lo;
}
double Affine::upper() const {
  if (index_ == 0) return 0.0;
  if (is_constant_handle(*this)) return constant_range(*this).second;
  return engine().at(*this).hi;
}

// ---- arithmetic ------------------------------------------------------------

namespace {

bool unbounded(const Header& h) { return h.kind == Kind::Unbounded; }

// An operation with an interval-only operand: interval arithmetic on ranges
// (computed by the caller with Interval's operations, which may have reset the
// rounding mode: set upward again).
std::uint32_t from_interval(Engine& e, const Interval& r) {
  affine_detail::AffineControl::upward();
  return e.interval_form(r.lower(), r.upper(), Kind::Fresh);
}

// Sum trees (AffineContext::Impl::sums). A leaf's bounds are its range
// (exact); a node's are sums of its children's, rounded outward both ways.
// At most kSumLeaves leaves per tree (beyond, the sum is not recorded: a
// longer chain costs its lookups, and a softmax of 64 is far inside).
constexpr std::uint32_t kSumLeaves = 64;
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

bool affine_self_test() {
  const int caller_mode = std::fegetround();
  bool ok = true;
  {
    UpwardScope scope;
    R r;
    const double one = opaque(1.0), three = opaque(3.0), tiny = opaque(0x1p-60);
    ok = ok && r.div_down(one, three) < r.div_up(one, three);
    ok = ok && r.add_down(one, tiny) == 1.0 && r.add_up(one, tiny) == 1.0 + 0x1p-52;
    ok = ok && r.sub_down(one, tiny) == 1.0 - 0x1p-53 && r.sub_up(one, tiny) == 1.0;
    ok = ok && r.sqrt_down(opaque(2.0)) < r.sqrt_up(opaque(2.0));
  }
  AffineContext ctx;
  AffineScope scope(ctx);
  const Affine x = Affine::between(1, 2), t = Affine::point(0.1);
  ok = ok && is_point(x - x) && (x - x).lower() == 0;
  ok = ok && is_point(x * x - x * x) && (x * x - x * x).lower() == 0;
  const Affine p = t * t;  // 0.1² as doubles: must enclose the exact product
  const mpq_class q = mpq_class(0.1) * mpq_class(0.1);
  ok = ok && contains(p, q) && !is_point(p);
  ok = ok && contains(x / (x + Affine::point(1)), mpq_class(1, 2)) && contains(sqrt(x), mpq_class(1));
  return ok && std::fegetround() == caller_mode;
}

}  // namespace symerr
