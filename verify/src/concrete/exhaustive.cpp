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


#include "exhaustive_scan.hpp"  // the FP16 / BF16 tables and row scans
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
