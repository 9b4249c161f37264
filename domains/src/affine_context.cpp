// The Affine context: its storage pool, the context and scope, the
// construction of forms (points, intervals, the unknown, the context-free
// constants), and the self-test of the directed rounding.
#include "affine_engine.hpp"

#include <atomic>
#include <sstream>
#include <thread>

#include <symerr/domains/mpfr_support.hpp>

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

using namespace affine_engine;

// ---- the storage pool (affine_impl.hpp) ------------------------------------

namespace {

thread_local bool tls_in_self_test = false;
std::atomic<std::uint32_t> next_context_id{0};


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

AffineScope::AffineScope(AffineContext& ctx) : previous_(tls_current), held_(&ctx) {
  // One compare-exchange per scope: the driver makes one context per box.
  AffineContext::Impl& im = ctx.impl();
  const std::thread::id me = std::this_thread::get_id();
  std::thread::id holder{};
  if (!im.owner.compare_exchange_strong(holder, me) && holder != me) {
    std::ostringstream msg;
    msg << "AffineContext " << ctx.id() << ": used by thread " << me << " while thread " << holder
        << " holds it (a context is used by one thread at a time; give each thread its own)";
    throw std::logic_error(msg.str());
  }
  ++im.owner_depth;
  tls_current = &ctx;
}
AffineScope::~AffineScope() {
  tls_current = previous_;
  AffineContext::Impl& im = held_->impl();
  if (--im.owner_depth == 0) im.owner.store(std::thread::id{});
}

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
