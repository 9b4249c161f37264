// Private to domains/src (not installed): the storage of an AffineContext and
// the upward-rounding scope its operations run in. Compiled with -frounding-math.
#pragma once

#include <cfenv>
#include <cmath>
#include <cstdint>
#include <algorithm>
#include <atomic>
#include <limits>
#include <memory>
#include <new>
#include <thread>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

#if defined(__linux__)
#include <sys/mman.h>
#endif

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
  Add, Sub, Mul, Div, Inv, Neg, Abs, Sqrt, Intersect, FunctionOf, Point, Restrict, Add3, MulAdd, Max, Min
};

// A form's terms, sorted by symbol, are its parent's terms (none if parent
// is 0) followed by its own segment terms[offset, offset + own): a form that
// extends another by newer symbols (c + p in a sum chain) stores only the
// extension. len is the total number of terms; depth the parent chain's
// length (bounded by kMaxDepth).
struct Header {
  double center;
  double lo, hi;
  double radius;
  std::uint32_t offset, len;
  Kind kind;
  std::uint8_t memo_count = 0;  // entries in the chain (at most kChainLength)
  std::uint8_t depth = 0;
  std::uint8_t operation_tag = 0;  // 8 bits of `operation`'s key hash (a filter)
  std::uint32_t memo_head = 0;  // the memo entries of operations with this form first (0: none)
  std::uint32_t parent = 0;
  std::uint32_t own = 0;
  std::uint32_t self = 0;  // this form's index (set by push_header)
  // One SymbolicDomainError<Affine> operation with this form among its
  // operands' fields (affine_symbolic.cpp; entry + 1, 0: none).
  std::uint32_t operation = 0;
};
static_assert(sizeof(Header) == 64, "one form header per cache line");
constexpr std::uint8_t kMaxDepth = 32;

// Maps the pages of a new chunk of a growing store in one call
// (madvise(MADV_POPULATE_WRITE), Linux 5.14+; elsewhere, or if refused, a
// no-op): the store writes every byte of it soon, and one call costs less
// than a page fault per 4 KiB (a 64x64 matmul touches ~0.4 GB: 4% of its
// time). Blocks taken from the pool (below) are mapped already.
inline void prefault(void* p, std::size_t n) noexcept {
#if defined(__linux__)
  constexpr int kPopulateWrite = 23;  // MADV_POPULATE_WRITE (older headers lack the name)
  const auto first = (reinterpret_cast<std::uintptr_t>(p) + 4095) & ~std::uintptr_t{4095};
  const auto last = (reinterpret_cast<std::uintptr_t>(p) + n) & ~std::uintptr_t{4095};
  if (last > first) ::madvise(reinterpret_cast<void*>(first), last - first, kPopulateWrite);
#else
  (void)p;
  (void)n;
#endif
}

// Memory a finished context leaves for the next ones: a process-wide pool of
// the storage blocks of contexts (cache-line aligned, a few fixed sizes).
// A block taken from it is mapped and written already, so a context that
// reuses it pays no page fault and no prefault: the kernel driver makes one
// context per box, and the page population of fresh memory was ~10% of a
// 64x64 matmul. Thread-safe; blocks beyond kPoolLimit bytes are freed (the
// memory a context of that size needs stays with the process, as glibc's
// own free lists would keep smaller blocks); AffineContext::
// release_pooled_storage() frees them all.
constexpr std::size_t kPoolLimit = std::size_t{1} << 30;
void* pool_take(std::size_t bytes, bool& reused);
void pool_give(void* p, std::size_t bytes) noexcept;

// A block of pool_take, returned to the pool on destruction.
template <class T>
class PooledBlock {
 public:
  PooledBlock() = default;
  // populate: map fresh memory at once (not for a store's first block, so
  // a small context maps no page it does not use)
  PooledBlock(std::size_t n, bool populate) : bytes_(n * sizeof(T)) {
    bool reused = false;
    p_ = static_cast<T*>(pool_take(bytes_, reused));
    if (!reused && populate) prefault(p_, bytes_);
  }
  PooledBlock(PooledBlock&& o) noexcept : p_(std::exchange(o.p_, nullptr)), bytes_(o.bytes_) {}
  PooledBlock& operator=(PooledBlock&& o) noexcept {
    if (this != &o) {
      reset();
      p_ = std::exchange(o.p_, nullptr);
      bytes_ = o.bytes_;
    }
    return *this;
  }
  ~PooledBlock() { reset(); }
  T* get() const noexcept { return p_; }

 private:
  void reset() noexcept {
    if (p_) pool_give(p_, bytes_);
    p_ = nullptr;
  }
  T* p_ = nullptr;
  std::size_t bytes_ = 0;
};

// Storage that never moves its elements (no reallocation copies): chunks of
// 2^Bits elements, raw memory constructed on push_back (T trivially
// destructible), so a new context costs no construction of unused slots.
// The chunks are pooled (PooledBlock).
template <class T, unsigned Bits>
class Chunked {
  static_assert(std::is_trivially_destructible_v<T> && alignof(T) <= 64);

 public:
  T& operator[](std::size_t i) noexcept { return chunks_[i >> Bits].get()[i & kMask]; }
  const T& operator[](std::size_t i) const noexcept { return chunks_[i >> Bits].get()[i & kMask]; }
  std::size_t size() const noexcept { return size_; }
  void push_back(const T& v) {
    if ((size_ & kMask) == 0) chunks_.emplace_back(kChunk, !chunks_.empty());
    T* const at = chunks_.back().get() + (size_ & kMask);
    // the line a few elements on, for writing (its read for ownership then
    // overlaps the work until it is written)
    if ((size_ & kMask) + kAhead < kChunk) __builtin_prefetch(at + kAhead, 1);
    ::new (static_cast<void*>(at)) T(v);
    ++size_;
  }

 private:
  static constexpr std::size_t kChunk = std::size_t{1} << Bits, kMask = kChunk - 1;
  static constexpr std::size_t kAhead = 8;
  std::vector<PooledBlock<T>> chunks_;
  std::size_t size_ = 0;
};

// Term storage: blocks of at most 2^16 terms (the first one small: a context
// of a few operations stays small); one segment never spans two blocks, so
// a segment is two contiguous arrays (symbols, coefficients). Offsets are
// block << 16 | position. The blocks are pooled (PooledBlock).
class TermStore {
 public:
  static constexpr unsigned kBits = 16;
  static constexpr std::uint32_t kBlock = 1u << kBits;
  // Copies n terms (n <= kBlock) into one block and returns their offset.
  std::uint32_t append(const std::uint32_t* sym, const double* coef, std::uint32_t n) {
    const std::size_t block = used_ >> kBits;  // == blocks_.size() when the last block is exactly full
    if (block >= blocks_.size() || (used_ & (kBlock - 1)) + n > blocks_[block].capacity) {
      const std::uint32_t capacity = blocks_.empty() && n <= 4096 ? 4096 : kBlock;
      const bool populate = !blocks_.empty();
      blocks_.push_back({PooledBlock<std::uint32_t>(capacity, populate), PooledBlock<double>(capacity, populate), capacity});
      used_ = static_cast<std::uint32_t>((blocks_.size() - 1) << kBits);
    }
    const std::uint32_t at = used_;
    std::copy(sym, sym + n, symbols(at));
    std::copy(coef, coef + n, coefficients(at));
    used_ += n;
    stored_ += n;
    return at;
  }
  std::uint32_t* symbols(std::uint32_t at) noexcept { return blocks_[at >> kBits].sym.get() + (at & (kBlock - 1)); }
  double* coefficients(std::uint32_t at) noexcept { return blocks_[at >> kBits].coef.get() + (at & (kBlock - 1)); }
  std::size_t stored() const noexcept { return stored_; }

 private:
  struct Block {
    PooledBlock<std::uint32_t> sym;
    PooledBlock<double> coef;
    std::uint32_t capacity;
  };
  std::vector<Block> blocks_;
  std::uint32_t used_ = 0;  // the next free offset
  std::size_t stored_ = 0;
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
  // Operations with the same first operand land in one window of 256 slots
  // (a heavily used operand, e.g. a matrix element, is looked up again soon:
  // its window stays in cache); the point operations (a = 0) spread out.
  std::size_t operator()(const Key& k) const noexcept {
    const std::uint64_t rest = mix((static_cast<std::uint64_t>(k.b) << 8 | static_cast<std::uint64_t>(k.op)) ^ k.tag);
    if (k.a == 0) return static_cast<std::size_t>(rest);
    return static_cast<std::size_t>(mix(k.a) + (rest & 255));
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

// The rounding of an operation's exact result t into its format, fused into
// the store of t (rounded_operation): bound() gives the enclosure [dlo, dhi]
// (dlo < dhi) of round(t) − t from t's range [t_lo, t_hi], or false (then t
// is stored alone).
struct RoundingHook {
  bool (*bound)(void* state, double t_lo, double t_hi, double& dlo, double& dhi) = nullptr;
  void* state = nullptr;
  std::uint32_t delta = 0;  // out: δ's form, when fused
  bool fused = false;       // out
};

}  // namespace symerr::affine_detail

namespace symerr {

struct AffineContext::Impl {
  // The thread whose AffineScope holds this context (none: a default id), and
  // the number of its nested scopes on it (changed by that thread only): a
  // second thread's scope is refused (affine_context.cpp).
  std::atomic<std::thread::id> owner{};
  std::uint32_t owner_depth = 0;
  affine_detail::Chunked<affine_detail::Header, 12> forms;
  affine_detail::TermStore terms;
  std::uint32_t next_symbol = 0;
  affine_detail::MemoTable memo;  // Point operations, and the overflow of full chains
  affine_detail::Chunked<affine_detail::MemoEntry, 12> chains;  // entry 0: end of chain
  // scratch of the form under construction
  std::vector<std::uint32_t> s_sym;
  std::vector<double> s_coef;
  std::vector<std::uint32_t> s_order;
  // gathered terms of forms with a parent chain (two operands at a time)
  std::vector<std::uint32_t> g_sym[4];
  std::vector<double> g_coef[4];
  std::uint32_t g_form[4] = {};  // the form whose terms each slot holds (0: none)
  // Set by rounded_operation for the one store of t (consumed by it).
  affine_detail::RoundingHook* rounding_hook = nullptr;
  // The operation-level memo of SymbolicDomainError<Affine> arithmetic
  // (affine_symbolic.cpp; opaque here). While an operation it memoises is
  // computed, the form operations inside it are not memoised
  // (form_memo_suspended): a repeated operation is found whole.
  std::shared_ptr<void> operation_memo;
  bool form_memo_suspended = false;
  // Sums of positive SymbolicDomainError<Affine> values, with each leaf's
  // relative error (affine_symbolic.cpp: a part over its whole; opaque here).
  std::shared_ptr<void> part_sums;
  // Sums of operands of one sign (a + b with a, b >= 0, or both <= 0), as a
  // tree over their operands (affine.cpp: record_sum / sum_rest): for an
  // addend a of such a sum s, s − a lies between the sums of the other
  // leaves' bounds, which the forms alone lose (a softmax's exp(x_j − m),
  // linearised over [−2, 2], has the form range [−2.9, 7.4] against its
  // interval [e^-2, e^2]).
  struct SumNode {
    double lo_dn, lo_up, hi_dn, hi_up;  // Σ of the leaves' lower (upper) bounds, rounded down and up
    std::uint32_t left, right, leaves;
  };
  std::unordered_map<std::uint32_t, SumNode> sums;
  // Maxima and minima (domain_extremum()): a form of max(left, right) or
  // min(left, right), so that a − max(…, a, …) <= 0 (and the like) bound the
  // differences' ranges (add_sub): a running maximum m keeps x_i − m <= 0,
  // which its fresh form alone does not.
  struct ExtremumNode {
    std::uint32_t left, right, leaves;
    bool upper;  // max (true) or min
  };
  std::unordered_map<std::uint32_t, ExtremumNode> extrema;
  Impl() { chains.push_back(affine_detail::MemoEntry{}); }
};

namespace affine_detail {

// clip(a, lo, hi) for a form created after form `first_new` (one that no
// other value has seen yet: the fields of the operation being built): its
// interval is narrowed in place instead of a narrowed copy being stored. Two
// fields with one handle are one quantity, so both narrowings hold for it.
// Older forms, and a range narrowed to one point, go through clip().
Affine clip_new(const Affine& a, double lo, double hi, std::size_t first_new);

// The pseudo-context of context-free constants (affine.cpp).
constexpr std::uint32_t kConstantContext = 0xFFFFFFFFu;

// A context-free constant (Affine::point or whole() called with no current
// context) as a handle of the current context: point(v) there (the same
// handle for the same value) or a fresh whole(); any other handle, or no
// current context, unchanged.
Affine localize(const Affine& a);

// t = a ∘ b (op Add, Sub or Mul) and the rounding of t in one stored form:
// fp = t + δ, δ a fresh symbol enclosed by hook.bound(t's range), stored as
// a form of its own (δ = fp − t); t itself is not stored. Without the form
// memo (the same forms as `a ∘ b`, then `t + δ`, in one store less). When
// fusion is declined (the bound refused, t a point, or fp would need
// condensing), returns t alone (fused = false): the caller rounds it.
struct RoundedForms {
  Affine t, fp, delta;
  bool fused = false;
};
RoundedForms rounded_operation(Op op, const Affine& a, const Affine& b, RoundingHook& hook);

}  // namespace affine_detail

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
  // Writes MXCSR only when the rounding field changes: inside an enclosing
  // upward scope (FastArithmetic<Affine>::apply holds one over its ~20 form
  // operations) a nested scope reads MXCSR and writes nothing. A write is
  // the costly part (ldmxcsr); every scope still checks the mode on entry,
  // so an operation that left another mode behind (an Interval operation
  // restores the x87 mode) is corrected by the next scope.
  UpwardScope() noexcept : saved_(_mm_getcsr()) {
    if ((saved_ & 0x6000u) != 0x4000u) _mm_setcsr((saved_ & ~0x6000u) | 0x4000u);
  }
  ~UpwardScope() {
    const unsigned now = _mm_getcsr();
    if ((now & 0x6000u) != (saved_ & 0x6000u)) _mm_setcsr((now & ~0x6000u) | (saved_ & 0x6000u));
  }
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
