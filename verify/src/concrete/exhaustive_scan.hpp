// The FP16 / BF16 fast path of the exhaustive sweep (exhaustive.cpp, its only
// includer): the per-format tables of every 16-bit value, and the scan of one
// row of pairs against the correctly rounded results (scalar, and AVX-512
// where the CPU has it) into the error statistics.
#pragma once

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <vector>

#include <symerr/verify/concrete/exhaustive.hpp>

#include "judge.hpp"

#if defined(__x86_64__)
// GCC 12's AVX-512 headers trip -Wuninitialized on their own _mm512_undefined_*
// (GCC bug 105593); the warnings are located in the header.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>
#pragma GCC diagnostic pop
#endif

namespace symerr::verify {
namespace {

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

}  // namespace
}  // namespace symerr::verify
