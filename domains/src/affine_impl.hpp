// Private to domains/src (not installed): the storage of an AffineContext and
// the upward-rounding scope its operations run in. Compiled with -frounding-math.
#pragma once

#include <cfenv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#if defined(__x86_64__) && defined(__SSE2_MATH__)
#include <xmmintrin.h>
#endif


#include <symerr/domains/affine.hpp>

#include "interval_rounding.hpp"

namespace symerr::affine_detail {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Bounded: a form (center, terms) intersected with [lo, hi]; radius = Σ|coef|
// rounded up, and [lo, hi] ⊆ [center − radius, center + radius].
// Fresh: a Bounded form made of one new symbol by between()/hull() (an
// independent quantity: intersect() prefers any other form to it).
// Unbounded: no form, only the interval [lo, hi] (an infinite endpoint, or a
// form whose coefficients overflowed).
enum class Kind : std::uint8_t { Bounded, Fresh, Unbounded };

enum class Op : std::uint8_t {
  Add, Sub, Mul, Div, Inv, Neg, Abs, Sqrt, Intersect, FunctionOf, Point, Restrict
};

struct Header {
  double center;
  double lo, hi;
  double radius;
  std::uint32_t offset, len;
  Kind kind;
  std::uint8_t memo_count = 0;  // entries in the chain (at most kChainLength)
  std::uint32_t memo_head = 0;  // the memo entries of operations with this form first (0: none)
};

// Beyond this many operations with the same first operand, further entries go
// to the hash table (bounded chain walks for heavily used forms).
constexpr std::uint8_t kChainLength = 6;

// One memoised operation, chained from the header of its first operand: the
// chain is read where the operand's header already is, so a lookup that
// misses (a new operation) costs no cache miss when the chain is empty.
struct MemoEntry {
  std::uint64_t tag;
  std::uint32_t b;
  std::uint32_t result;
  std::uint32_t next;
  Op op;
};

struct Key {
  std::uint64_t tag;
  std::uint32_t a, b;
  Op op;
  bool operator==(const Key&) const = default;
};
struct KeyHash {
  static std::uint64_t mix(std::uint64_t z) noexcept {  // splitmix64's finaliser
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  std::size_t operator()(const Key& k) const noexcept {
    const std::uint64_t ab = (static_cast<std::uint64_t>(k.a) << 32) | k.b;
    return static_cast<std::size_t>(mix(mix(ab ^ (static_cast<std::uint64_t>(k.op) << 58)) ^ k.tag));
  }
};

// The memo table: open addressing with linear probing (power-of-two capacity,
// load <= 1/2); entries are never removed.
class MemoTable {
 public:
  MemoTable() : slots_(1024) {}
  const std::uint32_t* find(const Key& k) const noexcept {
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t i = KeyHash{}(k) & mask;; i = (i + 1) & mask) {
      const Slot& s = slots_[i];
      if (!s.used) return nullptr;
      if (s.key == k) return &s.value;
    }
  }
  void insert(const Key& k, std::uint32_t v) {
    if (2 * (size_ + 1) > slots_.size()) grow();
    place(k, v);
    ++size_;
  }
  std::size_t size() const noexcept { return size_; }

 private:
  struct Slot {
    Key key{};
    std::uint32_t value = 0;
    bool used = false;
  };
  void place(const Key& k, std::uint32_t v) {
    const std::size_t mask = slots_.size() - 1;
    std::size_t i = KeyHash{}(k) & mask;
    while (slots_[i].used) i = (i + 1) & mask;
    slots_[i] = {k, v, true};
  }
  void grow() {
    std::vector<Slot> old(slots_.size() * 2);
    old.swap(slots_);
    for (const Slot& s : old)
      if (s.used) place(s.key, s.value);
  }
  std::vector<Slot> slots_;
  std::size_t size_ = 0;
};

}  // namespace symerr::affine_detail

namespace symerr {

struct AffineContext::Impl {
  std::vector<affine_detail::Header> forms;
  std::vector<std::uint32_t> syms;
  std::vector<double> coefs;
  std::uint32_t next_symbol = 0;
  affine_detail::MemoTable memo;  // Point operations, and the overflow of full chains
  std::vector<affine_detail::MemoEntry> chains{affine_detail::MemoEntry{}};  // entry 0: end of chain
  // scratch of the form under construction
  std::vector<std::uint32_t> s_sym;
  std::vector<double> s_coef;
  std::vector<std::uint32_t> s_order;
};

namespace affine_detail {
namespace {

// Directed rounding for the whole operation: FE_UPWARD set on entry, the
// caller's mode restored on exit (also on exceptions). Operands of every
// rounded operation pass the value barrier opaque() and results
// force_rounding(), as in interval_batch.cpp, so no operation is scheduled
// outside the scope.
struct AffineControl {
  static double force_rounding(double r) noexcept { return opaque(r); }
#if defined(__x86_64__) && defined(__SSE2_MATH__)
  static void upward() noexcept { _mm_setcsr((_mm_getcsr() & ~0x6000u) | 0x4000u); }
  static void downward() noexcept { _mm_setcsr((_mm_getcsr() & ~0x6000u) | 0x2000u); }
#else
  static void upward() noexcept { std::fesetround(FE_UPWARD); }
  static void downward() noexcept { std::fesetround(FE_DOWNWARD); }
#endif
};
using R = UpwardOppArith<AffineControl>;

// On x86-64 only MXCSR.RC is switched (SSE2 arithmetic; nothing in a scope
// uses the x87 unit), as in interval_batch.cpp: fesetround costs ~100 ns here,
// the MXCSR switch ~15 ns. An Interval operation called inside a scope (only on
// the interval-only path, see from_interval in affine.cpp) restores the mode
// it read with fegetround, from the x87 control word: the scope's mode must be
// set again after it (AffineControl::upward()).
class UpwardScope {
 public:
#if defined(__x86_64__) && defined(__SSE2_MATH__)
  UpwardScope() noexcept : saved_(_mm_getcsr()) { AffineControl::upward(); }
  ~UpwardScope() { _mm_setcsr((_mm_getcsr() & ~0x6000u) | (saved_ & 0x6000u)); }
#else
  UpwardScope() noexcept : saved_(std::fegetround()) { std::fesetround(FE_UPWARD); }
  ~UpwardScope() { std::fesetround(saved_); }
#endif
  UpwardScope(const UpwardScope&) = delete;
  UpwardScope& operator=(const UpwardScope&) = delete;

 private:
#if defined(__x86_64__) && defined(__SSE2_MATH__)
  unsigned saved_;
#else
  int saved_;
#endif
};

}  // namespace
}  // namespace affine_detail
}  // namespace symerr
