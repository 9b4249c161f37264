// SymbolicDomainError<Affine> arithmetic: the fast path FastArithmetic<Affine>
// (see affine.hpp). For z = x ∘ y with both operands finite values of one
// float format F (and, for ÷, a divisor that is not 0):
//   1. the operation runs over the Interval domain on the operands' ranges:
//      every flag (special values, zero signs, definedness) and an interval
//      for every field, by the library's proven interval path;
//   2. the affine forms that carry correlations are built once each:
//        real_z = real_x ∘ real_y,  t = fp_x ∘ fp_y,
//        δ = round(t) − t, a fresh symbol bounded by detail::round_float_result
//            on the range of t,
//        E  = the exact identity of t − real_z on the operands' errors
//             (add e_x + e_y, sub e_x − e_y, mul real_x·e_y + e_x·fp_y as one
//              form (multiply_add), div e_x/fp_y − (real_z/fp_y)·e_y),
//        err = E + δ,  fp = t + δ,
//      where for +, − and × of uncorrelated operands fp is built in the store
//      of t (affine_detail::rounded_operation: t is not stored, δ gets its
//      own one-term form), and E before δ, so that err = E + δ extends E;
//      otherwise (÷, or × and ÷ of correlated operands, whose tighter
//      identities read t) t is stored and δ named by function_of(t);
//        propagated = E and introduced = δ when both operands have
//        introduced = {0}; otherwise propagated by the same identity on the
//        propagated parts (pr = real + propagated) and introduced =
//        (i_x ± i_y) + δ for add/sub, err − propagated for mul/div
//        (exact: f − r = (pr − r) + (f − pr));
//   3. every form is clipped to the interval result of step 1 (clip(): same
//      terms, narrower interval), so no field is wider than the Interval
//      domain's on the same ranges.
// Each form is sound by its identity (the affine operations are sound), and
// each interval by the Interval path; their intersection is sound.
#include <symerr/symbolic/map_enclosures.hpp>
#include <symerr/domains/affine.hpp>
#include <symerr/domains/interval.hpp>
#include <symerr/symbolic.hpp>

#include <utility>

#include "affine_impl.hpp"
#include "interval_batch.hpp"

namespace symerr {
namespace {

using SA = SymbolicDomainError<Affine>;
using SI = SymbolicDomainError<Interval>;

Interval range(const Affine& a) { return Interval::between(a.lower(), a.upper()); }

// The Interval view of x: every field's range, the same metadata. Read from
// the current context's headers when every handle is of it (else through
// lower()/upper(), which throw on a foreign handle).
SI ranges_of(const SA& x) {
  AffineContext* ctx = AffineContext::current_or_null();
  bool own = ctx != nullptr;
  for (const Affine* f : {&x.real, &x.fp, &x.err, &x.rel_err, &x.propagated, &x.introduced})
    own = own && (f->context_id() == 0 || f->context_id() == ctx->id());
  if (!own) return map_enclosures<Interval>(x, [](const Affine& a) { return range(a); });
  const auto& forms = ctx->impl().forms;
  return map_enclosures<Interval>(x, [&](const Affine& a) {
    const affine_detail::Header& h = forms[a.index()];
    return Interval::between(h.lo, h.hi);
  });
}

// Only finite, defined values: the executions the forms describe.
bool plain(const SpecialStates& s) {
  return s.may_be_finite && !s.may_be_nan && !s.may_be_pos_inf && !s.may_be_neg_inf && s.may_be_defined &&
         !s.may_be_undefined;
}

bool in_scope(ArithOp op, const SA& x, const SA& y) {
  if (!std::holds_alternative<FloatFormat>(x.format) || x.format != y.format || x.mode != y.mode) return false;
  if (!plain(x.specials) || !plain(y.specials)) return false;
  return op != ArithOp::Div || (!contains(y.fp, 0.0) && !contains(y.real, 0.0));
}

// The exact identity of x_act ∘ y_act − x_real ∘ y_real on the differences
// e = act − real of the operands (act: fp for err, pr for propagated);
// z_real = x_real ∘ y_real (Div: y_act must exclude 0). The two products of
// × are one form (multiply_add).
Affine error_identity(ArithOp op, const Affine& x_real, const Affine& ex, const Affine& y_actual, const Affine& ey,
                      const Affine& z_real) {
  switch (op) {
    case ArithOp::Add: return ex + ey;
    case ArithOp::Sub: return ex - ey;
    case ArithOp::Mul: return multiply_add(x_real, ey, ex, y_actual);
    case ArithOp::Div: return ex / y_actual - (z_real / y_actual) * ey;
  }
  return Affine::whole();
}

// For correlated operands (forms sharing a symbol) of × and ÷ the other exact
// forms of t − real_z can be tighter as forms: their intersection (one form
// kept, intervals intersected; the Interval result already intersects them
// for independent operands).
Affine tighter_error(ArithOp op, const SA& x, const SA& y, bool correlated, const Affine& t, const Affine& z_real,
                     const Affine& E) {
  if ((op != ArithOp::Mul && op != ArithOp::Div) || !correlated) return E;
  const Affine direct = detail::meet(E, t - z_real);
  if (op == ArithOp::Mul) return detail::meet(direct, multiply_add(y.real, x.err, y.err, x.fp));
  return detail::meet(direct, (x.err - z_real * y.err) / y.fp);
}

// a clipped to i; in place if a is one of the forms this operation built
// (created at or after form `first_new`).
Affine clip_to(const Affine& a, const Interval& i, std::size_t first_new) {
  return affine_detail::clip_new(a, i.lower(), i.upper(), first_new);
}

// The bound of round(t) − t for t in [t_lo, t_hi] (detail::round_float_result,
// which also handles point operands and exact cases) and the range of the
// rounded result (fp_range); false if the rounding may leave the finite values.
struct RoundingBound {
  ArithOp op;
  const SI* xi;
  const SI* yi;
  const FloatFormat* F;
  RoundingMode mode;
  Interval fp_range;
  Interval bound;
  bool evaluate(double t_lo, double t_hi) {
    Interval ti = Interval::between(t_lo, t_hi);
    SI scratch;
    scratch.mode = mode;
    scratch.specials = SpecialStates{};
    scratch.specials.may_be_finite = false;
    // in one upward scope (an Interval operation each would save, set and
    // restore the mode: 5% of a 64x64 matmul)
    bound = detail::scoped_round_float_result(op, xi->fp, yi->fp, ti, *F, scratch);
    if (!plain(scratch.specials) || !is_bounded(bound)) return false;
    fp_range = scratch.fp;
    return true;
  }
  // affine_detail::RoundingHook::bound: fused only for a bound of positive width
  static bool hook(void* state, double t_lo, double t_hi, double& dlo, double& dhi) {
    RoundingBound& b = *static_cast<RoundingBound*>(state);
    if (!b.evaluate(t_lo, t_hi)) return false;
    dlo = b.bound.lower();
    dhi = b.bound.upper();
    return dlo < dhi;
  }
};

// round(t) − t named as a function of t (one symbol per (t, F, mode)):
// nullopt if the rounding may leave the finite values.
std::optional<Affine> rounding_symbol(RoundingBound& rb, const Affine& t, const FloatFormat& F, RoundingMode mode) {
  if (!rb.evaluate(t.lower(), t.upper())) return std::nullopt;
  if (rb.bound.lower() == 0 && rb.bound.upper() == 0) return Affine();
  return function_of(t, rounding_tag(F, mode), rb.bound.lower(), rb.bound.upper());
}

// propagated and introduced of z (see the header comment, step 2).
void set_split(ArithOp op, const SA& x, const SA& y, const Affine& E, const Affine& delta, SA& z) {
  const bool fresh = detail::is_zero_point(x.introduced) && detail::is_zero_point(y.introduced);
  if (fresh) {
    z.propagated = E;
    z.introduced = delta;
    return;
  }
  // pr_y = real_y + propagated_y: the identity reads it only for × and ÷
  const Affine pry = op == ArithOp::Add || op == ArithOp::Sub ? Affine() : y.real + y.propagated;
  if (op == ArithOp::Div && contains(pry, 0.0)) {
    z.propagated = Affine::whole();
  } else {
    z.propagated = error_identity(op, x.real, x.propagated, pry, y.propagated, z.real);
  }
  // add, sub: t − pr_z = i_x ± i_y (the introduced parts' identity: in a sum
  // chain a cheap extension of i_x); mul, div: err − propagated.
  if (op == ArithOp::Add || op == ArithOp::Sub)
    z.introduced = add3(x.introduced, y.introduced, op == ArithOp::Sub, delta);
  else
    z.introduced = z.err - z.propagated;
}

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

}  // namespace

namespace {

SA compute(ArithOp op, const SA& x, const SA& y, std::optional<IntegerDivision> int_division);

}  // namespace

namespace {
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
}  // namespace

namespace {
// 0 + a (or a + 0), which is a: its sum record is a's (part_over_whole)
void alias_zero_sum(const SA& x, const SA& y, const SA& z);

SA apply_operation(ArithOp op, const SA& x_in, const SA& y_in, std::optional<IntegerDivision> int_division);
}  // namespace

SA FastArithmetic<Affine>::apply(ArithOp op, const SA& x, const SA& y, std::optional<IntegerDivision> int_division) {
  SA z = apply_operation(op, x, y, int_division);
  if (op == ArithOp::Add) alias_zero_sum(x, y, z);
  return z;
}

namespace {
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
}  // namespace

namespace {

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

}  // namespace

namespace {

// The fast path proper (x, y in scope; called only from apply(), whose
// FpEnvironmentGuard is in force).
SA compute(ArithOp op, const SA& x, const SA& y, std::optional<IntegerDivision> int_division) {
  const SI xi = ranges_of(x), yi = ranges_of(y);
  const SI zi = arithmetic(op, xi, yi, int_division);
  if (!plain(zi.specials)) return generic(op, x, y, int_division);
  // One upward scope over the form operations below: each of them opens its
  // own scope, which then finds the mode set and writes no MXCSR (and
  // re-sets it if an Interval operation in between restored another mode).
  // Nothing below rounds outside a form operation or an Interval operation.
  const affine_detail::UpwardScope upward;
  const std::size_t first_new = AffineContext::current().form_count();
  const FloatFormat& F = std::get<FloatFormat>(x.format);
  SA z;
  z.real = detail::with_rule(op, [&](auto rule) { return decltype(rule)::value(x.real, y.real); });
  // t = fp_x ∘ fp_y and δ = round(t) − t; fp = t + δ. For +, − and × of
  // uncorrelated operands (t is then used by nothing else) t and the
  // rounding are built as one stored form (affine_detail::rounded_operation).
  const bool correlated = (op == ArithOp::Mul || op == ArithOp::Div) && share_symbols(x.fp, y.fp);
  const bool linear_op = op == ArithOp::Add || op == ArithOp::Sub;
  const bool fresh = detail::is_zero_point(x.introduced) && detail::is_zero_point(y.introduced);
  // E = t − real_z by the error identity, needed on its own only as the
  // propagated part of fresh operands (or for × and ÷). Built before δ when
  // it does not need t: δ's symbol is then newer than E's, and err = E + δ
  // is stored as an extension of E (one term) instead of a merge.
  const bool need_E = !(linear_op && !fresh);
  Affine E;
  if (need_E && !correlated) E = error_identity(op, x.real, x.err, y.fp, y.err, z.real);
  RoundingBound rb{op, &xi, &yi, &F, x.mode, zi.fp, Interval()};
  Affine t, delta;
  bool fused = false;
  if (op != ArithOp::Div && !correlated) {
    affine_detail::RoundingHook hook{&RoundingBound::hook, &rb};
    const affine_detail::Op form_op =
        op == ArithOp::Mul ? affine_detail::Op::Mul : op == ArithOp::Sub ? affine_detail::Op::Sub : affine_detail::Op::Add;
    const affine_detail::RoundedForms r = affine_detail::rounded_operation(form_op, x.fp, y.fp, hook);
    fused = r.fused;
    if (fused) {
      z.fp = r.fp;
      delta = r.delta;
    } else {
      t = r.t;
    }
  } else {
    t = detail::with_rule(op, [&](auto rule) { return decltype(rule)::value(x.fp, y.fp); });
  }
  if (!fused) {
    const std::optional<Affine> d = rounding_symbol(rb, t, F, x.mode);
    if (!d) return generic(op, x, y, int_division);
    delta = *d;
    z.fp = t + delta;
  }
  const Interval fp_range = rb.fp_range;
  if (need_E && correlated)
    E = tighter_error(op, x, y, correlated, t, z.real, error_identity(op, x.real, x.err, y.fp, y.err, z.real));
  z.err = linear_op && !fresh ? add3(x.err, y.err, op == ArithOp::Sub, delta) : E + delta;
  set_split(op, x, y, E, delta, z);
  z.real = clip_to(z.real, zi.real, first_new);
  z.err = clip_to(z.err, zi.err, first_new);
  // err ⊆ rel_err · real again over the form's real range where it is the
  // tighter one (zi used the operands' ranges: a part over its whole, see
  // operator/ of Affine, is at most 1 where the ranges' corners give 12)
  if (is_bounded(zi.rel_err) && is_bounded(zi.real) && !contains(zi.real, 0.0) &&
      (z.real.lower() > zi.real.lower() || z.real.upper() < zi.real.upper())) {
    const auto [lo, hi] = detail::range_product(zi.rel_err, Interval::between(z.real.lower(), z.real.upper()));
    if (lo <= hi && lo > -INFINITY && hi < INFINITY) z.err = affine_detail::clip_new(z.err, lo, hi, first_new);
  }
  const double fp_lo = std::max(zi.fp.lower(), fp_range.lower()), fp_hi = std::min(zi.fp.upper(), fp_range.upper());
  z.fp = fp_lo <= fp_hi ? affine_detail::clip_new(z.fp, fp_lo, fp_hi, first_new) : clip_to(z.fp, zi.fp, first_new);
  z.propagated = clip_to(z.propagated, zi.propagated, first_new);
  z.introduced = clip_to(z.introduced, zi.introduced, first_new);
  // as reduce(): err / real where real certainly excludes 0
  z.rel_err = contains(zi.real, 0.0) ? Affine::whole() : clip_to(z.err / z.real, zi.rel_err, first_new);
  z.format = zi.format;
  z.mode = zi.mode;
  z.int_division = zi.int_division;
  z.specials = zi.specials;
  z.mixed = zi.mixed;  // the same quantity's (from the operands' own pairs)
  z.origin = detail::merge_origin(x.origin, y.origin);
  // a part over its whole (see part_over_whole)
  if (op == ArithOp::Add) record_part_sum(x, y, xi, yi, rb.bound, F, z);
  if (op == ArithOp::Div && !fused && is_bounded(t))
    part_over_whole(x, y, Interval::between(t.lower(), t.upper()), rb.bound, F, z, first_new);
  return z;
}

}  // namespace
}  // namespace symerr
