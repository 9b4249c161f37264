// The Affine engine, private to domains/src/affine*.cpp: the context-free
// constants, the form builder and the Engine that stores forms in the current
// context (see affine.hpp for the semantics, affine_impl.hpp for the storage).
// The Engine's members are defined in affine_forms.cpp (storing and
// restricting forms) and affine_products.cpp (the linear and non-linear
// operations on forms); the operations on Affine values use them in
// affine.cpp (arithmetic), affine_ranges.cpp (ranges, clips, comparisons) and
// affine_context.cpp (the context, its storage pool, construction).
#pragma once

#include <symerr/domains/affine.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <unordered_map>

#include <symerr/domains/interval.hpp>

#include "affine_impl.hpp"

namespace symerr {

using affine_detail::Header;
using affine_detail::Key;
using affine_detail::Kind;
using affine_detail::kInf;
using affine_detail::Op;
using affine_detail::R;
using affine_detail::UpwardScope;

namespace affine_engine {

// The context current on this thread (AffineScope).
inline thread_local AffineContext* tls_current = nullptr;

[[noreturn, gnu::cold]] inline void throw_no_context() {
  throw std::logic_error(
      "symerr::Affine: no AffineContext is current on this thread (create an AffineContext and an "
      "AffineScope before using Affine values other than the point 0)");
}
[[noreturn, gnu::cold]] inline void throw_foreign(std::uint32_t id, std::uint32_t current) {
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
inline ConstantTable& constant_table() {
  static ConstantTable table;
  return table;
}

inline bool is_constant_handle(const Affine& a) noexcept { return a.context_id() == kConstantContext; }

// The range of a context-free constant.
inline std::pair<double, double> constant_range(const Affine& a) {
  if (a.index() == kWholeConstant) return {-std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity()};
  const double v = constant_table().value(a.index());
  return {v, v};
}

// Products (divide = false) and quotients (0 not in y) of bounded ranges,
// outward (the caller's scope rounds upward): the hull of the four corners.
struct Clip {
  double lo, hi;
};
inline Clip clip_product(Clip x, Clip y, bool divide) {
  R r;
  const double c[4][2] = {{x.lo, y.lo}, {x.lo, y.hi}, {x.hi, y.lo}, {x.hi, y.hi}};
  Clip out{kInf, -kInf};
  for (const auto& p : c) {
    out.lo = std::min(out.lo, divide ? r.div_down(p[0], p[1]) : r.mul_down(p[0], p[1]));
    out.hi = std::max(out.hi, divide ? r.div_up(p[0], p[1]) : r.mul_up(p[0], p[1]));
  }
  return out;
}
inline Clip clip_of(const Header& h) { return {h.lo, h.hi}; }

// A form's terms as two arrays: in place when it has no parent, else
// gathered into scratch `slot` (0 or 1; valid until the next gather into it).
struct TermView {
  const std::uint32_t* sym = nullptr;
  const double* coef = nullptr;
  std::uint32_t len = 0;
};
inline TermView gather(AffineContext::Impl& c_, const Header& h, int slot) {
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

// The engine of the current context (throws without one).
inline Engine engine() {
  AffineContext* c = tls_current;
  if (!c) throw_no_context();
  return Engine(*c);
}

// The range of a form, as an Interval (used for the clips).
inline Interval range(const Header& h) { return Interval::between(h.lo, h.hi); }

inline bool unbounded(const Header& h) { return h.kind == Kind::Unbounded; }

// An operation with an interval-only operand: interval arithmetic on ranges
// (computed by the caller with Interval's operations, which may have reset the
// rounding mode: set upward again).
inline std::uint32_t from_interval(Engine& e, const Interval& r) {
  affine_detail::AffineControl::upward();
  return e.interval_form(r.lower(), r.upper(), Kind::Fresh);
}

// At most kSumLeaves leaves per recorded sum or extremum tree (beyond, the
// node is not recorded: a longer chain costs its lookups, and a softmax of 64
// is far inside).
constexpr std::uint32_t kSumLeaves = 64;

// `to` encloses the same quantity as `from` (affine_forms.cpp).
void same_quantity(AffineContext::Impl& c, std::uint32_t from, std::uint32_t to);

}  // namespace affine_engine
}  // namespace symerr
