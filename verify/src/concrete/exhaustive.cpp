// The exhaustive sweep over all pairs of a 16-bit (or smaller) format.
#include <symerr/verify/concrete/exhaustive.hpp>

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#if defined(__x86_64__)
// GCC 12's AVX-512 headers trip -Wuninitialized on their own _mm512_undefined_*
// (GCC bug 105593); the warnings are located in the header.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>
#pragma GCC diagnostic pop
#endif

#include "judge.hpp"

namespace symerr::verify {

Shard parse_shard(std::string_view text) {
  const auto slash = text.find('/');
  auto fail = [&]() -> Shard {
    throw std::invalid_argument("shard \"" + std::string(text) +
                                "\": expected i/N with 0 <= i < N (0-based), e.g. 0/4");
  };
  if (slash == std::string_view::npos) return fail();
  std::uint64_t i = 0, n = 0;
  auto parse = [](std::string_view s, std::uint64_t& v) {
    if (s.empty() || s.size() > 9) return false;
    for (char c : s) {
      if (c < '0' || c > '9') return false;
      v = v * 10 + static_cast<std::uint64_t>(c - '0');
    }
    return true;
  };
  if (!parse(text.substr(0, slash), i) || !parse(text.substr(slash + 1), n) || n == 0 || i >= n)
    return fail();
  return Shard{static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(n)};
}

bool exhaustive_supported(ElementType t) noexcept { return storage_size(t) <= 2; }

std::uint64_t exhaustive_pair_count(ElementType t) {
  if (!exhaustive_supported(t))
    throw std::invalid_argument(std::string("exhaustive_pair_count: ") + to_string(t) +
                                " has more than 2^32 pairs");
  return std::uint64_t{1} << (16 * storage_size(t));
}

namespace {

using Clock = std::chrono::steady_clock;
constexpr std::uint32_t kRow = 65536;  // columns of a 16-bit float row

// Per-format tables for the FP16/BF16 fast path.
struct alignas(32) Entry {
  double lo, hi;  // the open round-to-nearest interval of the pattern's value
  double v;       // the value (NaN patterns: lo = +inf, hi = -inf, never inside)
  std::uint64_t is_nan;
};

struct Tables16 {
  std::vector<Entry> e;                    // by output pattern
  std::vector<double> dec;                 // by operand pattern
  std::vector<std::uint8_t> cls;           // operand class index
  std::vector<std::uint64_t> key_a, key_b; // detail::key_first / key_second of each value
  std::vector<std::uint16_t> all;          // 0, 1, ..., 65535: the b operands
  std::array<double, 2048> inv_ulp{};      // 1/ulp_F at a binary64 exponent field
  std::array<std::uint64_t, kInputClassCount> class_count{};
  std::uint64_t near_zero = 0;             // patterns that are zero or subnormal
};

Tables16 build_tables(ElementType t, const FloatFormat& F) {
  Tables16 T;
  T.e.resize(kRow);
  T.dec.resize(kRow);
  T.cls.resize(kRow);
  T.key_a.resize(kRow);
  T.key_b.resize(kRow);
  T.all.resize(kRow);
  const double max = F.max_finite();
  const double threshold = std::ldexp(2.0 - std::ldexp(1.0, -F.precision), F.emax);  // max + ulp/2
  const double half_min = F.min_subnormal() / 2;
  for (std::uint32_t i = 0; i < kRow; ++i) {
    const double v = decode_float(t, i);
    Entry& e = T.e[i];
    e.v = v;
    e.is_nan = std::isnan(v);
    T.dec[i] = v;
    T.all[i] = static_cast<std::uint16_t>(i);
    const InputClass c = operand_class(v, F);
    T.cls[i] = static_cast<std::uint8_t>(c);
    ++T.class_count[static_cast<std::size_t>(c)];
    if (std::fabs(v) < F.min_normal()) ++T.near_zero;
    T.key_a[i] = detail::key_first(std::bit_cast<std::uint64_t>(v));
    T.key_b[i] = detail::key_second(std::bit_cast<std::uint64_t>(v));
    if (std::isnan(v)) {
      e.lo = INFINITY;
      e.hi = -INFINITY;
    } else if (std::isinf(v)) {
      e.lo = v > 0 ? threshold : -INFINITY;
      e.hi = v > 0 ? INFINITY : -threshold;
    } else if (v == 0) {
      e.lo = std::signbit(v) ? -half_min : 0.0;
      e.hi = std::signbit(v) ? 0.0 : half_min;
    } else {
      const double m = std::fabs(v);
      const double lo = (m + next_down(m, F)) / 2;  // exact: adjacent values of F, p <= 52
      const double hi = m == max ? threshold : (m + next_up(m, F)) / 2;
      e.lo = v > 0 ? lo : -hi;
      e.hi = v > 0 ? hi : -lo;
    }
  }
  for (int x = 0; x < 2047; ++x)
    T.inv_ulp[static_cast<std::size_t>(x)] = 1.0 / ulp(x == 0 ? 0.0 : std::ldexp(1.0, x - 1023), F);
  return T;
}

const Tables16& tables(ElementType t, const FloatFormat& F) {
  static const Tables16 fp16 = build_tables(ElementType::FP16, FP16);
  static const Tables16 bf16 = build_tables(ElementType::BF16, BF16);
  if (t == ElementType::FP16 && F == FP16) return fp16;
  if (t == ElementType::BF16 && F == BF16) return bf16;
  throw std::invalid_argument("exhaustive fast path: FP16 and BF16 only");
}

template <OpId OP>
inline double apply(double a, double b) noexcept {
  if constexpr (OP == OpId::Add) return a + b;
  else if constexpr (OP == OpId::Sub) return a - b;
  else if constexpr (OP == OpId::Mul) return a * b;
  else return a / b;
}

// Error statistics of the fast path (merged into the judge at the end).
struct FastStats {
  double max_abs = 0, max_rel = 0, max_ulp = 0;
  bool has_worst = false;
  double worst_a = 0, worst_b = 0, worst_out = 0;
  std::array<std::array<std::uint64_t, UlpHistogram::kBuckets>, 8> hist{};  // one per SIMD lane
  std::uint64_t overflow = 0, special = 0;
};

inline std::size_t bucket_bits(double ulps) noexcept {
  // UlpHistogram::bucket_of for 0 <= ulps < 2^kMaxExp, from the exponent field
  const auto u = std::bit_cast<std::uint64_t>(ulps);
  const int idx = static_cast<int>(u >> 52) - 1023 - UlpHistogram::kMinExp + 2;
  const int clamped = std::clamp(idx, 1, static_cast<int>(UlpHistogram::kBuckets) - 2);
  return u == 0 ? 0 : static_cast<std::size_t>(clamped);
}

// What one scan of a chunk found: statistics of the pairs accepted by the
// interval test, and the columns queued for the slower paths.
struct Scan {
  double max_abs = 0, max_rel = 0;
  std::uint64_t special = 0, overflow = 0;
  std::size_t n_other = 0, n_worst = 0, n_scatter = 0;
};

struct ScanInput {
  const Entry* E;
  const double* dec;          // b values of the chunk
  const std::uint64_t* kb;    // key_second of the chunk's b
  const double* inv_ulp;
  int precision, emin;        // of the format
  double A;
  std::uint64_t ka;
  double max_ulp0;            // queue pairs with ulps >= this for Evidence::worst
  std::uint64_t key_limit;    // queue pairs with key < this for the scatter sample
  const std::uint16_t* y;
  std::uint32_t* other_j;
  std::uint32_t* worst_j;
  std::uint32_t* scatter_j;
  std::array<std::array<std::uint64_t, UlpHistogram::kBuckets>, 8>* hist;
};

// Columns [start, n): no calls inside, so every statistic stays in a register.
template <OpId OP>
void scan_scalar(const ScanInput& in, std::size_t start, std::size_t n, Scan& s) {
  double max_abs = s.max_abs, max_rel = s.max_rel;
  std::uint64_t special = 0, overflow = 0;
  std::size_t n_other = s.n_other, n_worst = s.n_worst, n_scatter = s.n_scatter;
  std::uint64_t* H0 = (*in.hist)[0].data();
  std::uint64_t* H1 = (*in.hist)[1].data();
  for (std::size_t jj = start; jj < n; ++jj) {
    const Entry& e = in.E[in.y[jj]];
    const double q = apply<OP>(in.A, in.dec[jj]);
    if (q > e.lo && q < e.hi) [[likely]] {  // y is the correctly rounded result, not a tie
      const double v = e.v;
      if (std::isinf(v)) [[unlikely]] {  // overflow to ±inf, as IEEE requires
        ++overflow;
        continue;
      }
      special += v == 0;  // underflow to a correctly signed zero
      const double err = std::fabs(v - q);  // exact: q within half an ulp of v (Sterbenz)
      const double ulps = err * in.inv_ulp[(std::bit_cast<std::uint64_t>(q) >> 52) & 0x7FF];
      max_abs = std::max(max_abs, err);
      if (err > max_rel * std::fabs(q)) [[unlikely]] max_rel = err / std::fabs(q);
      in.worst_j[n_worst] = static_cast<std::uint32_t>(jj);
      n_worst += ulps >= in.max_ulp0;
      ++((jj & 1) ? H1 : H0)[bucket_bits(ulps)];
      in.scatter_j[n_scatter] = static_cast<std::uint32_t>(jj);
      n_scatter += (in.ka ^ in.kb[jj]) < in.key_limit;
    } else {
      in.other_j[n_other++] = static_cast<std::uint32_t>(jj);
    }
  }
  s.max_abs = max_abs;
  s.max_rel = max_rel;
  s.special += special + overflow;
  s.overflow += overflow;
  s.n_other = n_other;
  s.n_worst = n_worst;
  s.n_scatter = n_scatter;
}

#if defined(__x86_64__)
#define SYMERR_AVX512 __attribute__((target("avx512f")))

template <OpId OP>
SYMERR_AVX512 inline __m512d apply8(__m512d a, __m512d b) noexcept {
  if constexpr (OP == OpId::Add) return _mm512_add_pd(a, b);
  else if constexpr (OP == OpId::Sub) return _mm512_sub_pd(a, b);
  else if constexpr (OP == OpId::Mul) return _mm512_mul_pd(a, b);
  else return _mm512_div_pd(a, b);
}

// The same scan, eight columns at a time; also accepts NaN where NaN is due.
// Returns the number of columns done (a multiple of 8).
template <OpId OP>
SYMERR_AVX512 std::size_t scan_avx512(const ScanInput& in, std::size_t n, Scan& s) {
  const __m512d vA = _mm512_set1_pd(in.A);
  const __m512d vinf = _mm512_set1_pd(INFINITY);
  const __m512d zero = _mm512_setzero_pd();
  const __m512d vmax_ulp0 = _mm512_set1_pd(in.max_ulp0);
  const __m512i vka = _mm512_set1_epi64(static_cast<long long>(in.ka));
  const __m512i vlimit = _mm512_set1_epi64(static_cast<long long>(in.key_limit));
  const __m512i exp_mask = _mm512_set1_epi64(0x7FF);
  const __m512i bias = _mm512_set1_epi64(1023 + UlpHistogram::kMinExp - 2);
  const __m512i one = _mm512_set1_epi64(1);
  const __m512i top = _mm512_set1_epi64(static_cast<long long>(UlpHistogram::kBuckets) - 2);
  __m512d vmax_abs = _mm512_set1_pd(s.max_abs);
  double max_rel = s.max_rel;
  __m512d vmax_rel = _mm512_set1_pd(max_rel);
  const __m512i emin_field = _mm512_set1_epi64(1023 + in.emin);
  const __m512i inv_base = _mm512_set1_epi64(2046 + in.precision - 1);
  std::uint64_t special = 0, overflow = 0;
  alignas(64) long long bucket[8];
  // buckets of ulps in [0, 1): exact, below 2^kMinExp, then one per binade
  constexpr std::size_t kLowBuckets = 2 - UlpHistogram::kMinExp;
  static_assert(5 * kLowBuckets <= 64);
  constexpr int kFlush = 31;  // a 5-bit field holds 31 increments
  __m512i count[kLowBuckets];
  for (auto& c : count) c = _mm512_setzero_si512();
  __m512i packed = _mm512_setzero_si512();
  int pending = 0;
  const __m512i field = _mm512_set1_epi64(31);
  auto unpack = [&]() SYMERR_AVX512 {
#pragma GCC unroll 16
    for (std::size_t k = 0; k < kLowBuckets; ++k)
      count[k] = _mm512_add_epi64(
          count[k], _mm512_and_si512(_mm512_srlv_epi64(packed, _mm512_set1_epi64(static_cast<long long>(5 * k))), field));
    packed = _mm512_setzero_si512();
  };
  alignas(64) double err_l[8], aq_l[8];
  std::size_t jj = 0;
  for (; jj + 8 <= n; jj += 8) {
    const __m256i idx = _mm256_cvtepu16_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(in.y + jj)));
    const __m256i idx4 = _mm256_slli_epi32(idx, 2);  // an Entry is 4 doubles
    const __m512d lo = _mm512_i32gather_pd(idx4, &in.E->lo, 8);
    const __m512d hi = _mm512_i32gather_pd(idx4, &in.E->hi, 8);
    const __m512d v = _mm512_i32gather_pd(idx4, &in.E->v, 8);
    const __m512d q = apply8<OP>(vA, _mm512_loadu_pd(in.dec + jj));
    const __mmask8 inside = _mm512_cmp_pd_mask(q, lo, _CMP_GT_OQ) & _mm512_cmp_pd_mask(q, hi, _CMP_LT_OQ);
    const __mmask8 inf_v = _mm512_cmp_pd_mask(_mm512_abs_pd(v), vinf, _CMP_EQ_OQ);
    const __mmask8 good = inside & static_cast<__mmask8>(~inf_v);
    const __mmask8 nan_ok = _mm512_cmp_pd_mask(q, q, _CMP_UNORD_Q) & _mm512_cmp_pd_mask(v, v, _CMP_UNORD_Q);
    overflow += static_cast<unsigned>(__builtin_popcount(inside & inf_v));
    special += static_cast<unsigned>(__builtin_popcount(nan_ok)) +
               static_cast<unsigned>(__builtin_popcount(_mm512_mask_cmp_pd_mask(good, v, zero, _CMP_EQ_OQ)));
    for (unsigned rest = static_cast<__mmask8>(~(inside | nan_ok)); rest != 0; rest &= rest - 1)
      in.other_j[s.n_other++] = static_cast<std::uint32_t>(jj + static_cast<unsigned>(__builtin_ctz(rest)));
    if (good == 0) continue;
    const __m512d err = _mm512_abs_pd(_mm512_maskz_sub_pd(good, v, q));
    // 1/ulp(q) = 2^(p-1-max(e, emin)), built from the exponent field e of q
    // (the scalar loop reads the same value from inv_ulp, filled by ulp())
    const __m512i qexp = _mm512_and_si512(_mm512_srli_epi64(_mm512_castpd_si512(q), 52), exp_mask);
    const __m512i inv_field = _mm512_sub_epi64(inv_base, _mm512_max_epi64(qexp, emin_field));
    const __m512d ulps = _mm512_mul_pd(err, _mm512_castsi512_pd(_mm512_slli_epi64(inv_field, 52)));
    vmax_abs = _mm512_max_pd(vmax_abs, err);
    const __m512d aq = _mm512_abs_pd(q);
    const __mmask8 rel = _mm512_mask_cmp_pd_mask(good, err, _mm512_mul_pd(vmax_rel, aq), _CMP_GT_OQ);
    if (rel != 0) [[unlikely]] {
      _mm512_store_pd(err_l, err);
      _mm512_store_pd(aq_l, aq);
      for (unsigned m = rel; m != 0; m &= m - 1) {
        const unsigned l = static_cast<unsigned>(__builtin_ctz(m));
        max_rel = std::max(max_rel, err_l[l] / aq_l[l]);
      }
      vmax_rel = _mm512_set1_pd(max_rel);
    }
    for (unsigned m = _mm512_mask_cmp_pd_mask(good, ulps, vmax_ulp0, _CMP_GE_OQ); m != 0; m &= m - 1)
      in.worst_j[s.n_worst++] = static_cast<std::uint32_t>(jj + static_cast<unsigned>(__builtin_ctz(m)));
    const __m512i key = _mm512_xor_si512(vka, _mm512_loadu_si512(in.kb + jj));
    for (unsigned m = _mm512_mask_cmplt_epu64_mask(good, key, vlimit); m != 0; m &= m - 1)
      in.scatter_j[s.n_scatter++] = static_cast<std::uint32_t>(jj + static_cast<unsigned>(__builtin_ctz(m)));
    // histogram bucket from the exponent field of ulps (UlpHistogram::bucket_of)
    __m512i b = _mm512_sub_epi64(_mm512_srli_epi64(_mm512_castpd_si512(ulps), 52), bias);
    b = _mm512_min_epi64(_mm512_max_epi64(b, one), top);
    b = _mm512_maskz_mov_epi64(_mm512_cmp_pd_mask(ulps, zero, _CMP_NEQ_UQ), b);
    // accepted pairs have ulps <= 1/2: buckets 0 .. kLowBuckets-1, counted in
    // 5-bit fields of one register per lane, unpacked every kFlush steps
    const __mmask8 high = _mm512_mask_cmpge_epi64_mask(
        good, b, _mm512_set1_epi64(static_cast<long long>(kLowBuckets)));
    const __m512i shift = _mm512_add_epi64(_mm512_slli_epi64(b, 2), b);  // 5 * bucket
    packed = _mm512_add_epi64(packed, _mm512_maskz_sllv_epi64(good & static_cast<__mmask8>(~high), one, shift));
    if (++pending == kFlush) {
      unpack();
      pending = 0;
    }
    if (high != 0) [[unlikely]] {
      _mm512_store_si512(bucket, b);
      for (unsigned m = high; m != 0; m &= m - 1) {
        const unsigned l = static_cast<unsigned>(__builtin_ctz(m));
        ++(*in.hist)[l][static_cast<std::size_t>(bucket[l])];
      }
    }
  }
  unpack();
  for (std::size_t k = 0; k < kLowBuckets; ++k)
    (*in.hist)[0][k] += static_cast<std::uint64_t>(_mm512_reduce_add_epi64(count[k]));
  s.max_abs = std::max(s.max_abs, _mm512_reduce_max_pd(vmax_abs));
  s.max_rel = max_rel;
  s.special += special + overflow;
  s.overflow += overflow;
  return jj;
}

bool cpu_has_avx512() noexcept { return __builtin_cpu_supports("avx512f"); }
#else
bool cpu_has_avx512() noexcept { return false; }
#endif

struct Shared {
  const Kernel* kernel = nullptr;
  const ExhaustiveOptions* options = nullptr;
  std::uint32_t row_begin = 0, row_end = 0, columns = 0;
  std::atomic<std::uint32_t> next_row{0};
  std::atomic<std::uint64_t> rows_done{0};
  std::atomic<std::uint64_t> failures{0};
  std::atomic<bool> stop{false};
  std::mutex error_mutex;
  std::string error;
  // the first kernel call that did not return normally, and its chunk
  std::optional<KernelFault> fault;
  std::uint32_t fault_row = 0, fault_column = 0;
  std::size_t fault_n = 0;
};

// A kernel fault with the chunk it happened on.
struct ChunkFault : KernelFault {
  ChunkFault(const KernelFault& f, std::uint32_t r, std::uint32_t c, std::size_t count)
      : KernelFault(f), row(r), column(c), n(count) {}
  std::uint32_t row, column;
  std::size_t n;
};

// ---- FP16 / BF16 correct rounding: the fast path -------------------------------------

class FastFloatWorker {
  Shared& s_;
  const Kernel& k_;
  const Tables16& T_;
  FastStats st_;
  std::vector<std::uint32_t> other_, worst_, scatter_;  // queued columns of a chunk
  bool avx512_ = false;

 public:
  FastFloatWorker(Shared& s, const FloatFormat& F)
      : s_(s), k_(*s.kernel), T_(tables(k_.type, F)), avx512_(s.options->vectorized && cpu_has_avx512()),
        judge(k_.type, k_.op, F, s.options->check) {}

  void run() {
    const std::size_t chunk = std::clamp<std::size_t>(s_.options->chunk, 8, kRow);
    std::vector<std::uint16_t> a(chunk), y(chunk);
    other_.resize(chunk);
    worst_.resize(chunk);
    scatter_.resize(chunk);
    const auto poison = static_cast<std::uint16_t>(encode_float(k_.type, NAN) ^ 1);
    for (;;) {
      if (s_.stop.load(std::memory_order_relaxed)) break;
      const std::uint32_t row = s_.next_row.fetch_add(1);
      if (row >= s_.row_end) break;
      std::fill(a.begin(), a.end(), static_cast<std::uint16_t>(row));
      const std::uint64_t failures_before = judge.evidence.failures;
      for (std::uint32_t j0 = 0; j0 < kRow; j0 += static_cast<std::uint32_t>(chunk)) {
        const std::size_t n = std::min<std::size_t>(chunk, kRow - j0);
        std::fill(y.begin(), y.begin() + static_cast<std::ptrdiff_t>(n), poison);
        try {
          k_.run(a.data(), T_.all.data() + j0, y.data(), n);
        } catch (const KernelFault& f) {
          throw ChunkFault(f, row, j0, n);
        }
        switch (k_.op) {
          case OpId::Add: check_chunk<OpId::Add>(row, j0, y.data(), n); break;
          case OpId::Sub: check_chunk<OpId::Sub>(row, j0, y.data(), n); break;
          case OpId::Mul: check_chunk<OpId::Mul>(row, j0, y.data(), n); break;
          case OpId::Div: check_chunk<OpId::Div>(row, j0, y.data(), n); break;
          default: throw std::invalid_argument("check_exhaustive: " + std::string(to_string(k_.op)) +
                                               " has no two-input concrete check");
        }
      }
      count_row(row);
      s_.rows_done.fetch_add(1, std::memory_order_relaxed);
      const std::uint64_t d = judge.evidence.failures - failures_before;
      const std::uint64_t total = s_.failures.fetch_add(d) + d;
      if (s_.options->max_failures != 0 && total >= s_.options->max_failures) s_.stop = true;
    }
    finish();
  }

  detail::FloatJudge judge;

 private:
  std::uint64_t scatter_limit() const noexcept {
    const ScatterSample& sc = judge.evidence.scatter;
    return sc.points.size() < sc.capacity ? ~std::uint64_t{0} : sc.points.back().key;
  }

  // The interval test over the chunk (vectorized where possible), then the
  // queued pairs: candidates for the worst input and the scatter sample, and
  // the pairs the interval test could not accept.
  template <OpId OP>
  void check_chunk(std::uint32_t row, std::uint32_t j0, const std::uint16_t* y, std::size_t n) {
    const Entry* E = T_.e.data();
    const double* dec = T_.dec.data() + j0;
    const std::uint64_t* kb = T_.key_b.data() + j0;
    const double* inv_ulp = T_.inv_ulp.data();
    const double A = T_.dec[row];
    const std::uint64_t ka = T_.key_a[row];
    const ScanInput in{E,
                       dec,
                       kb,
                       inv_ulp,
                       judge.format.precision,
                       judge.format.emin,
                       A,
                       ka,
                       st_.max_ulp,
                       scatter_limit(),
                       y,
                       other_.data(),
                       worst_.data(),
                       scatter_.data(),
                       &st_.hist};
    Scan sc;
    sc.max_abs = st_.max_abs;
    sc.max_rel = st_.max_rel;
    std::size_t done = 0;
#if defined(__x86_64__)
    if (avx512_) done = scan_avx512<OP>(in, n, sc);
#endif
    scan_scalar<OP>(in, done, n, sc);
    st_.max_abs = sc.max_abs;
    st_.max_rel = sc.max_rel;
    st_.special += sc.special;
    st_.overflow += sc.overflow;
    const std::size_t n_worst = sc.n_worst, n_scatter = sc.n_scatter, n_other = sc.n_other;
    const std::uint32_t* worst_j = worst_.data();
    const std::uint32_t* scatter_j = scatter_.data();
    const std::uint32_t* other_j = other_.data();
    // the queued pairs, in order
    for (std::size_t i = 0; i < n_worst; ++i) {
      const std::size_t jj = worst_j[i];
      const double v = E[y[jj]].v, q = apply<OP>(A, dec[jj]);
      const double ulps = std::fabs(v - q) * inv_ulp[(std::bit_cast<std::uint64_t>(q) >> 52) & 0x7FF];
      if (ulps >= st_.max_ulp) note_worst(A, dec[jj], v, ulps);
    }
    for (std::size_t i = 0; i < n_scatter; ++i) {
      const std::size_t jj = scatter_j[i];
      const double v = E[y[jj]].v, q = apply<OP>(A, dec[jj]);
      const double ulps = std::fabs(v - q) * inv_ulp[(std::bit_cast<std::uint64_t>(q) >> 52) & 0x7FF];
      const std::uint64_t key = ka ^ kb[jj];
      if (detail::scatter_wants(judge.evidence.scatter, key))
        detail::scatter_add(judge.evidence.scatter, ScatterPoint{{A, dec[jj]}, std::fabs(q), ulps, key});
    }
    for (std::size_t i = 0; i < n_other; ++i) {
      const std::uint32_t jj = other_j[i];
      other<OP>(row, A, dec[jj], apply<OP>(A, dec[jj]), E[y[jj]], j0 + jj);
    }
  }

  void note_worst(double A, double B, double v, double ulps) {
    if (ulps > st_.max_ulp || !st_.has_worst ||
        detail::order_key(A, B) < detail::order_key(st_.worst_a, st_.worst_b)) {
      st_.max_ulp = ulps;
      st_.worst_a = A;
      st_.worst_b = B;
      st_.worst_out = v;
      st_.has_worst = true;
    }
  }

  // Outside the interval: an exact result or IEEE special case, NaN where NaN
  // is due, or else a tie or a failure, which the oracle decides.
  template <OpId OP>
  [[gnu::noinline]] void other(std::uint32_t row, double A, double B, double q, const Entry& e,
                              std::uint32_t j) {
    const double v = e.v;
    if (q != q && e.is_nan) {
      ++st_.special;
    } else if (q == v && std::signbit(q) == std::signbit(v)) {
      if (std::isinf(q) || std::isinf(A) || std::isinf(B)) {  // x/0, x/inf, inf op x: no real result
        ++st_.special;
        return;
      }
      if (q == 0) ++st_.special;  // an exact zero with the IEEE sign
      if (0 >= st_.max_ulp) note_worst(A, B, v, 0);
      ++st_.hist[0][0];
      const std::uint64_t key = T_.key_a[row] ^ T_.key_b[j];
      if (detail::scatter_wants(judge.evidence.scatter, key))
        detail::scatter_add(judge.evidence.scatter, ScatterPoint{{A, B}, std::fabs(q), 0.0, key});
    } else {
      judge.judge(A, B, v, float_reference(OracleKind::Double, OP, A, B, judge.format), false);
    }
  }

  // Inputs and operand classes of a whole row, counted at once.
  void count_row(std::uint32_t row) {
    Evidence& ev = judge.evidence;
    ev.inputs_checked += kRow;
    for (std::size_t c = 0; c < kInputClassCount; ++c) {
      if (kInputClasses[c] == InputClass::Overflow || kInputClasses[c] == InputClass::NearZeroDivisor) continue;
      ev.classes[c].checked += T_.cls[row] == c ? kRow : T_.class_count[c];
    }
    if (k_.op == OpId::Div) ev[InputClass::NearZeroDivisor].checked += T_.near_zero;
  }

  void finish() {
    Evidence& ev = judge.evidence;
    ev[InputClass::Overflow].checked += st_.overflow;
    ev.special.checked += st_.special;
    ev.special.matched += st_.special;
    ev.max_abs_error = std::max(ev.max_abs_error, st_.max_abs);
    ev.max_rel_error = std::max(ev.max_rel_error, st_.max_rel);
    for (const auto& h : st_.hist)
      for (std::size_t i = 0; i < UlpHistogram::kBuckets; ++i) ev.histogram.counts[i] += h[i];
    if (st_.has_worst &&
        (!judge.has_worst || st_.max_ulp > ev.max_ulp_error ||
         (st_.max_ulp == ev.max_ulp_error &&
          detail::order_key(st_.worst_a, st_.worst_b) < detail::order_key(judge.worst_a, judge.worst_b)))) {
      judge.worst_a = st_.worst_a;
      judge.worst_b = st_.worst_b;
      judge.worst_out = st_.worst_out;
      judge.has_worst = true;
    }
    ev.max_ulp_error = std::max(ev.max_ulp_error, st_.max_ulp);
  }
};

// ---- every other case: each pair judged by the oracle ---------------------------------

template <class Judge>
class GenericWorker {
  Shared& s_;
  const Kernel& k_;

 public:
  template <class Fmt>
  GenericWorker(Shared& s, const Fmt& F) : s_(s), k_(*s.kernel), judge(k_.type, k_.op, F, s.options->check) {}

  void run() {
    const std::size_t chunk = std::clamp<std::size_t>(s_.options->chunk, 8, s_.columns);
    const std::size_t w = storage_size(k_.type);
    std::vector<unsigned char> a(chunk * w), b(chunk * w), y(chunk * w);
    for (;;) {
      if (s_.stop.load(std::memory_order_relaxed)) break;
      const std::uint32_t row = s_.next_row.fetch_add(1);
      if (row >= s_.row_end) break;
      for (std::size_t i = 0; i < chunk; ++i) store_bits(k_.type, a.data(), i, row);
      const std::uint64_t failures_before = judge.evidence.failures;
      for (std::uint32_t j0 = 0; j0 < s_.columns; j0 += static_cast<std::uint32_t>(chunk)) {
        const std::size_t n = std::min<std::size_t>(chunk, s_.columns - j0);
        for (std::size_t i = 0; i < n; ++i) {
          store_bits(k_.type, b.data(), i, j0 + i);
          store_bits(k_.type, y.data(), i, 0);
        }
        try {
          k_.run(a.data(), b.data(), y.data(), n);
        } catch (const KernelFault& f) {
          throw ChunkFault(f, row, j0, n);
        }
        for (std::size_t i = 0; i < n; ++i) judge_one(row, j0 + static_cast<std::uint32_t>(i), load_bits(k_.type, y.data(), i));
      }
      s_.rows_done.fetch_add(1, std::memory_order_relaxed);
      const std::uint64_t d = judge.evidence.failures - failures_before;
      const std::uint64_t total = s_.failures.fetch_add(d) + d;
      if (s_.options->max_failures != 0 && total >= s_.options->max_failures) s_.stop = true;
    }
  }

  Judge judge;

 private:
  void judge_one(std::uint32_t ai, std::uint32_t bi, std::uint64_t out_bits) {
    if constexpr (std::is_same_v<Judge, detail::FloatJudge>) {
      const double a = decode_float(k_.type, ai), b = decode_float(k_.type, bi);
      const double out = decode_float(k_.type, out_bits);
      const OracleKind oracle = s_.options->check.oracle.value_or(default_oracle(k_.op, judge.format));
      judge.judge(a, b, out, float_reference(oracle, k_.op, a, b, judge.format));
    } else {
      const __int128 a = decode_int(k_.type, ai), b = decode_int(k_.type, bi);
      judge.judge(a, b, decode_int(k_.type, out_bits),
                  int_reference(k_.op, a, b, judge.format, judge.division));
    }
  }
};

// Runs `threads` workers and shows progress; returns the workers.
template <class Worker, class Fmt>
std::vector<std::unique_ptr<Worker>> run_workers(Shared& s, const Fmt& F, unsigned threads,
                                                 bool progress, const std::string& label) {
  double last_line = 0;
  std::vector<std::unique_ptr<Worker>> workers;
  for (unsigned i = 0; i < threads; ++i) workers.push_back(std::make_unique<Worker>(s, F));
  std::atomic<unsigned> running{threads};
  std::mutex m;
  std::condition_variable cv;
  std::vector<std::thread> pool;
  for (auto& w : workers)
    pool.emplace_back([&, worker = w.get()] {
      const FpStateScope documented;  // each thread has its own FP state
      try {
        worker->run();
      } catch (const ChunkFault& f) {
        std::lock_guard<std::mutex> lock(s.error_mutex);
        if (!s.fault) {
          s.fault = f;
          s.fault_row = f.row;
          s.fault_column = f.column;
          s.fault_n = f.n;
        }
        s.stop = true;
      } catch (const std::exception& e) {
        std::lock_guard<std::mutex> lock(s.error_mutex);
        if (s.error.empty()) s.error = e.what();
        s.stop = true;
      }
      std::lock_guard<std::mutex> lock(m);
      --running;
      cv.notify_all();
    });
  const auto t0 = Clock::now();
  const std::uint64_t rows = s.row_end - s.row_begin;
  {
    std::unique_lock<std::mutex> lock(m);
    while (running > 0) {
      cv.wait_for(lock, std::chrono::milliseconds(500));
      const double done = static_cast<double>(s.rows_done.load()) / static_cast<double>(rows);
      const double t = std::chrono::duration<double>(Clock::now() - t0).count();
      if (s.options->progress_lines && t - last_line >= s.options->progress_interval && running > 0) {
        last_line = t;
        char line[256];
        std::snprintf(line, sizeof line, "[%s] %.1f%%  %.1f s  ETA %.0f s  failures %llu", label.c_str(),
                      100 * done, t, done > 0 ? t / done - t : 0.0,
                      static_cast<unsigned long long>(s.failures.load()));
        s.options->progress_lines(line);
      }
      if (!progress) continue;
      std::fprintf(stderr, "\r[%s] %5.1f%%  %.1f s  ETA %.0f s  failures %llu   ", label.c_str(),
                   100 * done, t, done > 0 ? t / done - t : 0.0,
                   static_cast<unsigned long long>(s.failures.load()));
      std::fflush(stderr);
    }
  }
  for (auto& t : pool) t.join();
  if (progress) std::fprintf(stderr, "\n");
  return workers;
}

// The sweep over the shard's rows by `threads` workers, their judges merged into r.
void sweep(CheckResult& r, const Kernel& k, const ExhaustiveOptions& o, Shared& s, unsigned threads) {
  const bool progress = o.progress == ProgressDisplay::Always ||
                        (o.progress == ProgressDisplay::Auto && ::isatty(STDERR_FILENO) == 1);
  const std::string label = std::string(to_string(k.op)) + " " + to_string(k.type) + " " + k.name +
                            (o.shard.count > 1 ? " shard " + std::to_string(o.shard.index) + "/" +
                                                     std::to_string(o.shard.count)
                                               : std::string());
  auto collect = [&](auto& workers) {
    auto& first = workers.front()->judge;
    for (std::size_t i = 1; i < workers.size(); ++i) first.merge(workers[i]->judge);
    first.finish_worst();
    r.evidence = first.evidence;
    r.witnesses = first.witnesses();
  };
  if (is_float(k.type)) {
    const auto F = std::get<FloatFormat>(format_of(k.type));
    const bool fast = o.check.property.kind == Property::Kind::CorrectRounding &&
                      double_oracle_valid(k.op, F) && !o.check.oracle.has_value();
    if (fast) {
      r.semantics["oracle"] = "binary64 rounding intervals (fast path); binary64-double-rounding, "
                              "gmp-exact on ties";
      auto workers = run_workers<FastFloatWorker>(s, F, threads, progress, label);
      collect(workers);
    } else {
      auto workers = run_workers<GenericWorker<detail::FloatJudge>>(s, F, threads, progress, label);
      collect(workers);
    }
  } else {
    const auto I = std::get<IntFormat>(format_of(k.type));
    auto workers = run_workers<GenericWorker<detail::IntJudge>>(s, I, threads, progress, label);
    collect(workers);
  }
}

// A kernel fault in the sweep: the faulting chunk rebuilt and bisected.
void record_sweep_fault(CheckResult& r, const Kernel& k, const Shared& s) {
  const std::size_t w = storage_size(k.type), n = s.fault_n;
  std::vector<unsigned char> A(n * w), B(n * w), Y0(n * w);
  const std::uint64_t poison = is_float(k.type) ? encode_float(k.type, NAN) ^ 1 : 0;
  for (std::size_t i = 0; i < n; ++i) {
    store_bits(k.type, A.data(), i, s.fault_row);
    store_bits(k.type, B.data(), i, s.fault_column + i);
    store_bits(k.type, Y0.data(), i, poison);
  }
  record_fault(r, k, *s.fault, A.data(), B.data(), Y0.data(), n, [&](std::size_t i) {
    return std::vector<Value>{detail::storage_value(k.type, s.fault_row),
                              detail::storage_value(k.type, s.fault_column + i)};
  });
}

}  // namespace

CheckResult check_exhaustive(const Kernel& kernel, const ExhaustiveOptions& o) {
  const FpStateScope documented;
  const Kernel k = harnessed(kernel, o.check.isolation);
  if (!exhaustive_supported(k.type))
    throw std::invalid_argument(std::string("check_exhaustive: ") + to_string(k.type) +
                                " has more than 2^32 pairs; use check_kernel");
  const auto t0 = Clock::now();
  const std::uint32_t columns = static_cast<std::uint32_t>(1u << (8 * storage_size(k.type)));
  Shared s;
  s.kernel = &k;
  s.options = &o;
  s.columns = columns;
  s.row_begin = static_cast<std::uint32_t>(std::uint64_t{columns} * o.shard.index / o.shard.count);
  s.row_end = static_cast<std::uint32_t>(std::uint64_t{columns} * (o.shard.index + 1) / o.shard.count);
  s.next_row = s.row_begin;
  const unsigned threads = o.threads != 0 ? o.threads : std::max(1u, std::thread::hardware_concurrency());

  CheckResult r = make_check_header(k, o.check);
  if (o.check.id.empty()) r.id = "exhaustive/" + r.operator_name + "/" + r.format + "/" + k.name;
  r.strategies = {"exhaustive"};
  r.shard = ShardInfo{o.shard.count, {o.shard.index}};
  sweep(r, k, o, s, threads);
  const bool complete = s.rows_done.load() == s.row_end - s.row_begin;
  if (s.fault) {
    record_sweep_fault(r, k, s);
  } else if (!s.error.empty()) {
    r.verdict = Verdict::Crashed;
    r.reason = "the sweep stopped on an error: " + s.error;
  } else {
    detail::finish_verdict(r, complete);
    if (!complete)
      r.reason += "; the sweep stopped after " + std::to_string(r.evidence.failures) +
                  " failures (max_failures), having covered " + std::to_string(r.evidence.inputs_checked) +
                  " of " + std::to_string(std::uint64_t{columns} * (s.row_end - s.row_begin)) + " pairs";
    r.evidence.metrics["threads"] = threads;
  }
  finish_fp_environment(r, k);
  r.duration_seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  return r;
}

}  // namespace symerr::verify
