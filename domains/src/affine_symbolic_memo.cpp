// SymbolicDomainError<Affine>'s fast path: the entry point
// FastArithmetic<Affine>::apply and the operation-level memo (see
// affine_symbolic.cpp for the operation itself).
#include "affine_symbolic_impl.hpp"

#include <utility>

namespace symerr {
namespace affine_symbolic {

// ---- the operation-level memo ----------------------------------------------
// The same operation on the same operands (the same handles and metadata) is
// the same value: its result is recorded once and returned again, so x·y − x·y
// is 0 and a re-run of a kernel prefix (the branch driver's paths) rebuilds
// no form. One lookup per operation; the form operations inside a computed
// operation are not memoised (each would be a lookup keyed by an old,
// heavily used operand: a third of the time of a 64×64 matmul).

std::uint16_t special_bits(const SpecialStates& s) {
  const bool b[] = {s.may_be_finite, s.may_be_pos_inf, s.may_be_neg_inf, s.may_be_nan, s.may_be_pos_zero,
                    s.may_be_neg_zero, s.may_be_defined, s.may_be_undefined, s.may_overflow};
  std::uint16_t r = 0;
  for (bool v : b) r = static_cast<std::uint16_t>(r << 1 | (v ? 1 : 0));
  return r;
}

SpecialStates special_states(std::uint16_t r) {
  SpecialStates s;
  bool* b[] = {&s.may_be_finite, &s.may_be_pos_inf, &s.may_be_neg_inf, &s.may_be_nan, &s.may_be_pos_zero,
               &s.may_be_neg_zero, &s.may_be_defined, &s.may_be_undefined, &s.may_overflow};
  for (int i = 8; i >= 0; --i, r = static_cast<std::uint16_t>(r >> 1)) *b[i] = (r & 1) != 0;
  return s;
}

std::int8_t division_code(const std::optional<IntegerDivision>& d) { return d ? static_cast<std::int8_t>(*d) : -1; }

std::optional<IntegerDivision> division_of(std::int8_t c) {
  if (c < 0) return std::nullopt;
  return static_cast<IntegerDivision>(c);
}

constexpr int kFields = 6;  // real, fp, err, rel_err, propagated, introduced

void handles_of(const SA& v, std::uint32_t* h) {
  const Affine* f[kFields] = {&v.real, &v.fp, &v.err, &v.rel_err, &v.propagated, &v.introduced};
  for (int i = 0; i < kFields; ++i) h[i] = f[i]->index();
}

struct OperationKey {
  std::uint32_t h[2 * kFields];  // the operands' fields (one context: handles are indices)
  std::uint16_t specials[2];
  std::int8_t division[2];
  std::uint8_t format;  // index into OperationMemo::formats
  ArithOp op;
  RoundingMode mode;
  bool operator==(const OperationKey&) const = default;

  // The handles in pairs as six 64-bit words, each times its own odd
  // constant (independent multiplications; a chain of twelve mixes was a
  // dependent chain of ~120 cycles per operation), then one mix.
  std::uint64_t hash() const noexcept {
    static constexpr std::uint64_t kOdd[6] = {0x9E3779B97F4A7C15ULL, 0xC2B2AE3D27D4EB4FULL, 0x165667B19E3779F9ULL,
                                              0xD6E8FEB86659FD93ULL, 0xFF51AFD7ED558CCDULL, 0xC4CEB9FE1A85EC53ULL};
    std::uint64_t z = static_cast<std::uint64_t>(op) << 8 | static_cast<std::uint64_t>(mode) | std::uint64_t{format} << 16 |
                      std::uint64_t{specials[0]} << 24 | std::uint64_t{specials[1]} << 40;
    for (int i = 0; i < 6; ++i) z += (std::uint64_t{h[2 * i]} | std::uint64_t{h[2 * i + 1]} << 32) * kOdd[i];
    return affine_detail::KeyHash::mix(affine_detail::KeyHash::mix(z));
  }
};

struct OperationResult {
  std::uint32_t h[kFields];
  std::uint16_t specials;
  std::int8_t division;
  std::uint8_t format;
  RoundingMode mode;
};

// Where a lookup that missed records the result: a header slot (a form of
// the operands with no operation yet) or the hash table.
struct Probe {
  std::uint32_t header = 0;  // 0: the table
  std::size_t slot = 0, table_size = 0;
  bool skip = false;  // not recorded (a retired table)
};

// Every form header has one slot for an operation among whose operands it is
// (Header::operation, with 8 bits of the key's hash as a filter). The
// operands' headers are in cache (their ranges were just read), so a lookup
// reads no other memory unless a filter matches. A result is recorded in the
// slot of the newest operand form whose slot is free; only when every slot
// is taken, in a hash table. Slots are never freed, so an operation whose
// operands have a free slot now had one when it was recorded: it is in a
// slot or nowhere, and the table is read only when all slots are taken.
// Every hit is confirmed on the whole key.
class OperationMemo {
 public:
  // The key of z = x ∘ y (x, y in scope: one float format); nullopt when the
  // format table is full (then the operation is not memoised).
  // (filled in place: a returned copy read back in 16-byte pieces what was
  // just written byte by byte, a store-forwarding stall per operation)
  bool key(ArithOp op, const SA& x, const SA& y, OperationKey& k) {
    const std::optional<std::uint8_t> f = format_index(std::get<FloatFormat>(x.format));
    if (!f) return false;
    handles_of(x, k.h);
    handles_of(y, k.h + kFields);
    k.specials[0] = special_bits(x.specials);
    k.specials[1] = special_bits(y.specials);
    k.division[0] = division_code(x.int_division);
    k.division[1] = division_code(y.int_division);
    k.format = *f;
    k.op = op;
    k.mode = x.mode;
    return true;
  }

  // The recorded result for k, built in `z` (origin left to the caller); on a
  // miss, `probe` says where insert() records it.
  bool find(const OperationKey& k, std::uint64_t hash, AffineContext& ctx, SA& z, Probe& probe) const {
    AffineContext::Impl& c = ctx.impl();
    const auto tag = static_cast<std::uint8_t>(hash);
    bool all_taken = true;
    for (std::uint32_t h : k.h) {
      if (h == 0) continue;
      const affine_detail::Header& f = c.forms[h];
      if (f.operation == 0) {
        all_taken = false;
        if (h > probe.header) probe.header = h;
      } else if (f.operation_tag == tag && entries_[f.operation - 1].key == k) {
        return build(entries_[f.operation - 1].result, ctx, z);
      }
    }
    if (!all_taken) return false;
    // Retired table (see retire_table): the operation is not memoised.
    if (table_retired_) {
      probe.skip = true;
      return false;
    }
    ++table_lookups_;
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t i = position(hash) & mask;; i = (i + 1) & mask) {
      const std::uint64_t s = slots_[i];
      if (s == 0) {
        probe.slot = i;
        probe.table_size = slots_.size();
        return false;
      }
      if ((s >> 32) != (hash >> 32)) continue;
      const Entry& e = entries_[(s & 0xffffffffu) - 1];
      if (e.key == k) {
        ++table_hits_;
        return build(e.result, ctx, z);
      }
    }
  }

  // Outside a branch driver's run, once 2^16 operations have looked in the
  // hash table (every operand form's slot taken: a matrix element in its
  // second and later products) and fewer than 1 in 64 found their result
  // there, the table is no longer read or filled in this context: each of
  // those operations cost a cache miss to read and one to write (13% of a
  // 64x64 matmul, where no operation repeats). The header slots still
  // memoise every operation that finds a free one (x·x − x·x, a value's
  // first uses); a repeated operation of operands that were used many times
  // before then gets new forms (sound, no longer exactly equal). Under a
  // driver run (which re-runs kernel prefixes) the table always stays.
  void retire_table(bool driver_run) {
    if (!table_retired_ && !driver_run && table_lookups_ >= (std::size_t{1} << 16) && 64 * table_hits_ < table_lookups_)
      table_retired_ = true;
  }

  void insert(const OperationKey& k, std::uint64_t hash, const SA& z, AffineContext& ctx, const Probe& probe) {
    if (probe.skip) return;
    const std::optional<std::uint8_t> f = format_index(std::get<FloatFormat>(z.format));
    if (!f || entries_.size() >= 0xfffffffeu) return;
    OperationResult r{};
    handles_of(z, r.h);
    r.specials = special_bits(z.specials);
    r.division = division_code(z.int_division);
    r.format = *f;
    r.mode = z.mode;
    entries_.push_back({k, r});
    const auto entry = static_cast<std::uint32_t>(entries_.size());  // index + 1
    if (probe.header != 0) {
      affine_detail::Header& h = ctx.impl().forms[probe.header];
      h.operation = entry;
      h.operation_tag = static_cast<std::uint8_t>(hash);
      return;
    }
    ++table_entries_;
    if (2 * table_entries_ > slots_.size()) {
      grow();
      place(hash, entry);
    } else if (probe.table_size == slots_.size() && slots_[probe.slot] == 0) {
      slots_[probe.slot] = (hash >> 32) << 32 | entry;
    } else {
      place(hash, entry);
    }
  }

 private:
  struct Entry {
    OperationKey key;
    OperationResult result;
  };
  // The table position from the hash's high half, which the slot keeps: the
  // table grows without reading the keys again.
  static std::size_t position(std::uint64_t hash) noexcept { return static_cast<std::size_t>(hash >> 32); }
  bool build(const OperationResult& r, const AffineContext& ctx, SA& z) const {
    Affine* f[kFields] = {&z.real, &z.fp, &z.err, &z.rel_err, &z.propagated, &z.introduced};
    for (int j = 0; j < kFields; ++j) *f[j] = ctx.handle(r.h[j]);
    z.specials = special_states(r.specials);
    z.int_division = division_of(r.division);
    z.format = formats_[r.format];
    z.mode = r.mode;
    return true;
  }
  std::optional<std::uint8_t> format_index(const FloatFormat& F) {
    for (std::size_t i = 0; i < formats_.size(); ++i)
      if (formats_[i] == F && formats_[i].name == F.name) return static_cast<std::uint8_t>(i);
    if (formats_.size() >= 255) return std::nullopt;
    formats_.push_back(F);
    return static_cast<std::uint8_t>(formats_.size() - 1);
  }
  void place(std::uint64_t hash, std::uint32_t entry) {
    const std::size_t mask = slots_.size() - 1;
    std::size_t i = position(hash) & mask;
    while (slots_[i] != 0) i = (i + 1) & mask;
    slots_[i] = (hash >> 32) << 32 | entry;
  }
  void grow() {
    std::vector<std::uint64_t> old(slots_.size() * 2, 0);
    old.swap(slots_);
    for (std::uint64_t s : old)
      if (s != 0) place(s, static_cast<std::uint32_t>(s));
  }
  std::vector<std::uint64_t> slots_ = std::vector<std::uint64_t>(64, 0);  // grows with the table entries
  std::size_t table_entries_ = 0;
  mutable std::size_t table_lookups_ = 0, table_hits_ = 0;
  bool table_retired_ = false;
  affine_detail::Chunked<Entry, 12> entries_;
  std::vector<FloatFormat> formats_;
};

OperationMemo& operation_memo(AffineContext& ctx) {
  std::shared_ptr<void>& m = ctx.impl().operation_memo;
  if (!m) m = std::make_shared<OperationMemo>();
  return *static_cast<OperationMemo*>(m.get());
}

// Form operations not memoised while it lives (restored on exceptions).
class FormMemoSuspended {
 public:
  explicit FormMemoSuspended(AffineContext& ctx) : flag_(ctx.impl().form_memo_suspended), saved_(flag_) {
    flag_ = true;
  }
  ~FormMemoSuspended() { flag_ = saved_; }
  FormMemoSuspended(const FormMemoSuspended&) = delete;
  FormMemoSuspended& operator=(const FormMemoSuspended&) = delete;

 private:
  bool& flag_;
  bool saved_;
};

SA generic(ArithOp op, const SA& x, const SA& y, std::optional<IntegerDivision> int_division) {
  [[maybe_unused]] const FpEnvironmentGuard guard;
  SA z = detail::arithmetic_impl(op, x, y, int_division);
  z.origin = detail::merge_origin(x.origin, y.origin);
  return z;
}

// Whether x holds a context-free constant (a literal or constant(), see
// Affine::portable_point), and x with those mapped into the current context.
bool has_constant_field(const SA& x) {
  for (const Affine* f : {&x.real, &x.fp, &x.err, &x.rel_err, &x.propagated, &x.introduced})
    if (f->context_id() == affine_detail::kConstantContext) return true;
  return false;
}
SA localized(const SA& x) {
  SA r = x;
  for (Affine* f : {&r.real, &r.fp, &r.err, &r.rel_err, &r.propagated, &r.introduced}) *f = affine_detail::localize(*f);
  return r;
}

SA apply_operation(ArithOp op, const SA& x_in, const SA& y_in, std::optional<IntegerDivision> int_division) {
  // first: the scope test compares subnormal endpoints (DAZ would read them as 0)
  [[maybe_unused]] const FpEnvironmentGuard guard;
  if ((has_constant_field(x_in) || has_constant_field(y_in)) && AffineContext::current_or_null())
    return apply_operation(op, localized(x_in), localized(y_in), int_division);
  const SA& x = x_in;
  const SA& y = y_in;
  if (!in_scope(op, x, y)) return generic(op, x, y, int_division);
  AffineContext* ctx = AffineContext::current_or_null();
  if (!ctx || !ctx->options().memoise) return compute(op, x, y, int_division);
  for (const SA* v : {&x, &y})
    for (const Affine* f : {&v->real, &v->fp, &v->err, &v->rel_err, &v->propagated, &v->introduced})
      if (f->context_id() != 0 && f->context_id() != ctx->id()) return compute(op, x, y, int_division);
  OperationMemo& memo = operation_memo(*ctx);
  OperationKey key{};
  if (!memo.key(op, x, y, key)) return compute(op, x, y, int_division);
  const std::uint64_t hash = key.hash();
  SA z;
  Probe probe;
  memo.retire_table(symerr::detail::quantity_numbering().generation > 0);
  if (memo.find(key, hash, *ctx, z, probe)) {
    z.origin = detail::merge_origin(x.origin, y.origin);
    return z;
  }
  {
    const FormMemoSuspended suspended(*ctx);
    z = compute(op, x, y, int_division);
  }
  memo.insert(key, hash, z, *ctx, probe);
  return z;
}
}  // namespace affine_symbolic

SymbolicDomainError<Affine> FastArithmetic<Affine>::apply(ArithOp op, const SymbolicDomainError<Affine>& x,
                                                          const SymbolicDomainError<Affine>& y,
                                                          std::optional<IntegerDivision> int_division) {
  SymbolicDomainError<Affine> z = affine_symbolic::apply_operation(op, x, y, int_division);
  // 0 + a (or a + 0), which is a: its sum record is a's (part_over_whole)
  if (op == ArithOp::Add) affine_symbolic::alias_zero_sum(x, y, z);
  return z;
}

}  // namespace symerr
