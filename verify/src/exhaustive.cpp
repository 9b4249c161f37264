// The exhaustive sweep over all pairs of a 16-bit (or smaller) format.
#include <symerr/verify/exhaustive.hpp>

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
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

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
struct Tables16 {
  std::vector<double> dec, lo, hi;         // value; open round-to-nearest interval of each pattern
  std::vector<std::uint8_t> cls, is_nan;   // operand class index; NaN pattern
  std::vector<std::uint64_t> key_b;        // second half of detail::pair_key, per b pattern
  std::vector<std::uint16_t> all;          // 0, 1, ..., 65535: the b operands
  std::array<double, 2048> inv_ulp{};      // 1/ulp_F at a binary64 exponent field
  std::array<std::uint64_t, kInputClassCount> class_count{};
  std::uint64_t near_zero = 0;             // patterns that are zero or subnormal
};

Tables16 build_tables(ElementType t, const FloatFormat& F) {
  Tables16 T;
  T.dec.resize(kRow);
  T.lo.resize(kRow);
  T.hi.resize(kRow);
  T.cls.resize(kRow);
  T.is_nan.resize(kRow);
  T.key_b.resize(kRow);
  T.all.resize(kRow);
  const double max = F.max_finite();
  const double threshold = std::ldexp(2.0 - std::ldexp(1.0, -F.precision), F.emax);  // max + ulp/2
  const double half_min = F.min_subnormal() / 2;
  for (std::uint32_t i = 0; i < kRow; ++i) {
    const double v = decode_float(t, i);
    T.dec[i] = v;
    T.all[i] = static_cast<std::uint16_t>(i);
    T.is_nan[i] = std::isnan(v);
    const InputClass c = operand_class(v, F);
    T.cls[i] = static_cast<std::uint8_t>(c);
    ++T.class_count[static_cast<std::size_t>(c)];
    if (std::fabs(v) < F.min_normal()) ++T.near_zero;
    T.key_b[i] = detail::mix64(std::bit_cast<std::uint64_t>(v) + 0x632BE59BD9B4E019ull);
    if (std::isnan(v)) {
      T.lo[i] = INFINITY;
      T.hi[i] = -INFINITY;
    } else if (std::isinf(v)) {
      T.lo[i] = v > 0 ? threshold : -INFINITY;
      T.hi[i] = v > 0 ? INFINITY : -threshold;
    } else if (v == 0) {
      T.lo[i] = std::signbit(v) ? -half_min : 0.0;
      T.hi[i] = std::signbit(v) ? 0.0 : half_min;
    } else {
      const double m = std::fabs(v);
      const double lo = (m + next_down(m, F)) / 2;  // exact: adjacent values of F, p <= 52
      const double hi = m == max ? threshold : (m + next_up(m, F)) / 2;
      T.lo[i] = v > 0 ? lo : -hi;
      T.hi[i] = v > 0 ? hi : -lo;
    }
  }
  for (int e = 0; e < 2047; ++e)
    T.inv_ulp[static_cast<std::size_t>(e)] = 1.0 / ulp(e == 0 ? 0.0 : std::ldexp(1.0, e - 1023), F);
  return T;
}

const Tables16& tables(ElementType t, const FloatFormat& F) {
  static const Tables16 fp16 = build_tables(ElementType::FP16, FP16);
  static const Tables16 bf16 = build_tables(ElementType::BF16, BF16);
  if (t == ElementType::FP16 && F == FP16) return fp16;
  if (t == ElementType::BF16 && F == BF16) return bf16;
  throw std::invalid_argument("exhaustive fast path: FP16 and BF16 only");
}

double apply(Operator op, double a, double b) noexcept {
  switch (op) {
    case Operator::Add: return a + b;
    case Operator::Sub: return a - b;
    case Operator::Mul: return a * b;
    case Operator::Div: return a / b;
  }
  return NAN;
}

// Error statistics of the fast path (merged into the judge at the end).
struct FastStats {
  double max_abs = 0, max_rel = 0, max_ulp = 0;
  bool has_worst = false;
  double worst_a = 0, worst_b = 0, worst_out = 0;
  std::array<std::array<std::uint64_t, UlpHistogram::kBuckets>, 4> hist{};
  std::uint64_t overflow = 0, special = 0;
};

inline std::size_t bucket_bits(double ulps) noexcept {
  // UlpHistogram::bucket_of for 0 <= ulps < 2^kMaxExp, from the exponent field
  const auto u = std::bit_cast<std::uint64_t>(ulps);
  if (u == 0) return 0;
  const int idx = static_cast<int>(u >> 52) - 1023 - UlpHistogram::kMinExp + 2;
  return static_cast<std::size_t>(std::clamp(idx, 1, static_cast<int>(UlpHistogram::kBuckets) - 2));
}

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
};

// ---- FP16 / BF16 correct rounding: the fast path -------------------------------------

class FastFloatWorker {
  Shared& s_;
  const Kernel& k_;
  const Tables16& T_;
  FastStats st_;

 public:
  FastFloatWorker(Shared& s, const FloatFormat& F)
      : s_(s), k_(*s.kernel), T_(tables(k_.type, F)),
        judge(k_.type, k_.op, F, s.options->check) {}

  void run() {
    const std::size_t chunk = std::clamp<std::size_t>(s_.options->chunk, 8, kRow);
    std::vector<std::uint16_t> a(chunk), y(chunk);
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
        k_.run(a.data(), T_.all.data() + j0, y.data(), n);
        check_chunk(row, j0, y.data(), n);
      }
      count_row(row);
      s_.rows_done.fetch_add(1, std::memory_order_relaxed);
      const std::uint64_t total = s_.failures.fetch_add(judge.evidence.failures - failures_before) +
                                  (judge.evidence.failures - failures_before);
      if (s_.options->max_failures != 0 && total >= s_.options->max_failures) s_.stop = true;
    }
    finish();
  }

  detail::FloatJudge judge;

 private:
  void check_chunk(std::uint32_t row, std::uint32_t j0, const std::uint16_t* y, std::size_t n) {
    const double A = T_.dec[row];
    const std::uint64_t key_a = std::bit_cast<std::uint64_t>(A) * 0x9E3779B97F4A7C15ull;
    const Operator op = k_.op;
    for (std::size_t jj = 0; jj < n; ++jj) {
      const std::uint32_t j = j0 + static_cast<std::uint32_t>(jj);
      const std::uint16_t o = y[jj];
      const double B = T_.dec[j];
      const double q = apply(op, A, B);
      const double v = T_.dec[o];
      if (q > T_.lo[o] && q < T_.hi[o]) {  // o is the correctly rounded result, not a tie
        if (std::isinf(v)) {  // overflow to ±inf, as IEEE requires
          ++st_.overflow;
          ++st_.special;
          continue;
        }
        if (v == 0) ++st_.special;  // underflow to a correctly signed zero
        record(A, B, v, q, std::fabs(v - q), key_a ^ T_.key_b[j], jj);
      } else if (q == v && std::signbit(q) == std::signbit(v)) {  // exact, or an IEEE special case
        if (std::isinf(q) || std::isinf(A) || std::isinf(B)) {  // e.g. x/0, x/inf: no real result
          ++st_.special;
          continue;
        }
        if (q == 0) ++st_.special;
        record(A, B, v, q, 0.0, key_a ^ T_.key_b[j], jj);
      } else if (q != q && T_.is_nan[o]) {  // NaN where IEEE gives NaN
        ++st_.special;
      } else {  // a tie, or a failure: the oracle decides
        judge.judge(A, B, v, float_reference(OracleKind::Double, op, A, B, judge.format), false);
      }
    }
  }

  void record(double A, double B, double v, double q, double err, std::uint64_t key_pre,
              std::size_t lane) {
    const double ulps = err * T_.inv_ulp[(std::bit_cast<std::uint64_t>(q) >> 52) & 0x7FF];
    st_.max_abs = std::max(st_.max_abs, err);
    if (err > st_.max_rel * std::fabs(q)) st_.max_rel = std::max(st_.max_rel, err / std::fabs(q));
    if (ulps >= st_.max_ulp) {
      if (ulps > st_.max_ulp || !st_.has_worst ||
          detail::order_key(A, B) < detail::order_key(st_.worst_a, st_.worst_b)) {
        st_.max_ulp = ulps;
        st_.worst_a = A;
        st_.worst_b = B;
        st_.worst_out = v;
        st_.has_worst = true;
      }
    }
    ++st_.hist[lane & 3][bucket_bits(ulps)];
    const std::uint64_t key = detail::mix64(key_pre);
    if (detail::scatter_wants(judge.evidence.scatter, key))
      detail::scatter_add(judge.evidence.scatter, ScatterPoint{{A, B}, std::fabs(q), ulps, key});
  }

  // Inputs and operand classes of a whole row, counted at once.
  void count_row(std::uint32_t row) {
    Evidence& ev = judge.evidence;
    ev.inputs_checked += kRow;
    for (std::size_t c = 0; c < kInputClassCount; ++c) {
      if (kInputClasses[c] == InputClass::Overflow || kInputClasses[c] == InputClass::NearZeroDivisor) continue;
      ev.classes[c].checked += T_.cls[row] == c ? kRow : T_.class_count[c];
    }
    if (k_.op == Operator::Div) ev[InputClass::NearZeroDivisor].checked += T_.near_zero;
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
        k_.run(a.data(), b.data(), y.data(), n);
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
  std::vector<std::unique_ptr<Worker>> workers;
  for (unsigned i = 0; i < threads; ++i) workers.push_back(std::make_unique<Worker>(s, F));
  std::atomic<unsigned> running{threads};
  std::mutex m;
  std::condition_variable cv;
  std::vector<std::thread> pool;
  for (auto& w : workers)
    pool.emplace_back([&, worker = w.get()] {
      try {
        worker->run();
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
      if (!progress) continue;
      const double done = static_cast<double>(s.rows_done.load()) / static_cast<double>(rows);
      const double t = std::chrono::duration<double>(Clock::now() - t0).count();
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

}  // namespace

CheckResult check_exhaustive(const Kernel& k, const ExhaustiveOptions& o) {
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
  const bool progress = o.progress == ProgressDisplay::Always ||
                        (o.progress == ProgressDisplay::Auto && ::isatty(STDERR_FILENO) == 1);

  CheckResult r = make_check_header(k, o.check);
  if (o.check.id.empty()) r.id = "exhaustive/" + r.operator_name + "/" + r.format + "/" + k.name;
  r.strategies = {"exhaustive"};
  r.shard = ShardInfo{o.shard.count, {o.shard.index}};
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
  if (!s.error.empty()) {
    r.verdict = Verdict::Inconclusive;
    r.reason = "the sweep stopped on an error: " + s.error;
    r.duration_seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    return r;
  }
  const bool complete = s.rows_done.load() == s.row_end - s.row_begin;
  detail::finish_verdict(r, complete);
  if (!complete)
    r.reason += "; the sweep stopped after " + std::to_string(r.evidence.failures) +
                " failures (max_failures), having covered " + std::to_string(r.evidence.inputs_checked) +
                " of " + std::to_string(std::uint64_t{columns} * (s.row_end - s.row_begin)) + " pairs";
  r.duration_seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  r.evidence.metrics["threads"] = threads;
  return r;
}

}  // namespace symerr::verify
