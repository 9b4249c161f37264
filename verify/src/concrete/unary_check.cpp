// The unary concrete check (unary.hpp): input strategies, batched kernel
// calls, the verdict per input, threads for the exhaustive sweep.
#include <symerr/verify/concrete/unary.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cfenv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <random>
#include <sstream>
#include <thread>

#include <mpfr.h>

#include <symerr/fp_environment.hpp>
#include <symerr/verify/concrete/concrete.hpp>  // stop_requested
#include <symerr/verify/concrete/strategy.hpp>
#include <symerr/verify/report/verdict.hpp>

namespace symerr::verify {
namespace {

constexpr std::size_t kBatch = 1 << 14;

// The worker's floating-point environment: the library's (round to nearest,
// no FTZ/DAZ, traps masked: <symerr/fp_environment.hpp>), and round to
// nearest in the x87 unit too (the fast oracle's double -> float conversion
// relies on it).
struct DefaultFpEnvironment {
  FpEnvironmentGuard guard;
  int round = std::fegetround();
  DefaultFpEnvironment() { std::fesetround(FE_TONEAREST); }
  ~DefaultFpEnvironment() { std::fesetround(round); }
  DefaultFpEnvironment(const DefaultFpEnvironment&) = delete;
  DefaultFpEnvironment& operator=(const DefaultFpEnvironment&) = delete;
};

bool same_value(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  return a == b && std::signbit(a) == std::signbit(b);
}

void keep_worst(std::vector<UnaryWitness>& worst, const UnaryWitness& w) {
  if (worst.size() == 5 && worst.back().ulp_error >= w.ulp_error) return;
  worst.push_back(w);
  std::sort(worst.begin(), worst.end(), [](const UnaryWitness& a, const UnaryWitness& b) {
    return a.ulp_error > b.ulp_error || (a.ulp_error == b.ulp_error && a.bits < b.bits);
  });
  if (worst.size() > 5) worst.pop_back();
}

// Judges one input and its result into r.
// Counts x in its input class (and f(x) in Overflow); `failed` for the failures.
void count_class(UnaryResult& r, double x, const FloatFormat& F, bool overflow, bool failed) {
  auto add = [&](InputClass c) {
    auto& n = r.classes[static_cast<std::size_t>(c)];
    ++n[0];
    n[1] += failed;
  };
  add(operand_class(x, F));
  if (overflow) add(InputClass::Overflow);
}

// Error statistics of a finite y whose correctly rounded f(x) is finite: the
// ulp error times the ulp at RN(f(x)) is at least |y − f(x)| (RN(f(x)) is in
// the binade of f(x) or at the power of two above it).
void note_errors(UnaryResult& r, double y, double rounded, double err, const FloatFormat& F) {
  if (!std::isfinite(y) || !std::isfinite(rounded) || !std::isfinite(err)) return;
  const double u = ulp(rounded, F);
  const double abs_up = err * u;
  r.max_abs_error = std::max(r.max_abs_error, abs_up);
  const double mag = std::fabs(rounded) - 0.5 * u;  // |f(x)| is at least this
  if (rounded != 0) r.max_rel_error = std::max(r.max_rel_error, abs_up / mag);
  else if (y == 0) r.max_rel_error = std::max(r.max_rel_error, 1.0);
}

void judge(UnaryResult& r, OpId op, const FloatFormat& F, std::uint64_t bits, double x, double y,
           const UnaryOptions& o) {
  ++r.tested;
  if (auto special = unary_special(op, x)) {
    const bool wrong = !same_value(*special, y);
    count_class(r, x, F, false, wrong);
    if (wrong) {
      ++r.special_mismatches;
      ++r.over_bound;
      if (r.witnesses.size() < 5) r.witnesses.push_back({bits, x, y, *special, INFINITY, "special value"});
    }
    return;
  }
  const UnaryTruth t = unary_truth(op, x, y, F, !o.mpfr_only, o.ulp_bound);
  r.mpfr_calls += t.used_mpfr;
  const bool correct = same_value(t.rounded, y);
  const double err = std::isnan(y) ? INFINITY : (correct ? std::min(t.ulp_error, 0.5) : t.ulp_error);
  if (!correct) ++r.incorrectly_rounded;
  bool over = o.ulp_bound <= 0.5 ? !correct : !(err <= o.ulp_bound);
  if (o.sonnx_unit_roundoff)  // a correctly rounded result meets it; others are decided exactly
    over = !correct && (!std::isfinite(y) || !unary_within_unit_roundoff(op, x, y, F));
  if (err > r.max_ulp_error || std::isnan(err)) r.max_ulp_error = err;
  r.histogram.add(err);
  count_class(r, x, F, std::isinf(t.rounded), over);
  note_errors(r, y, t.rounded, err, F);
  if (!over && correct && err <= 0.5) return;
  UnaryWitness w{bits, x, y, t.rounded, err,
                 over ? (o.ulp_bound <= 0.5 && !o.sonnx_unit_roundoff ? "not correctly rounded" : "exceeds the bound")
                      : ""};
  if (over) {
    ++r.over_bound;
    if (r.witnesses.size() < 5) r.witnesses.push_back(w);
  }
  keep_worst(r.worst, w);
}

void merge(UnaryResult& a, const UnaryResult& b) {
  a.tested += b.tested;
  a.incorrectly_rounded += b.incorrectly_rounded;
  a.special_mismatches += b.special_mismatches;
  a.over_bound += b.over_bound;
  a.mpfr_calls += b.mpfr_calls;
  a.max_ulp_error = std::max(a.max_ulp_error, b.max_ulp_error);
  a.max_abs_error = std::max(a.max_abs_error, b.max_abs_error);
  a.max_rel_error = std::max(a.max_rel_error, b.max_rel_error);
  for (std::size_t i = 0; i < a.classes.size(); ++i)
    for (std::size_t j = 0; j < 2; ++j) a.classes[i][j] += b.classes[i][j];
  for (std::size_t i = 0; i < UlpHistogram::kBuckets; ++i) a.histogram.counts[i] += b.histogram.counts[i];
  a.interrupted = a.interrupted || b.interrupted;
  if (b.fault && !a.fault) {
    a.fault = b.fault;
    a.fault_batch = b.fault_batch;
  }
  for (const auto& w : b.worst) keep_worst(a.worst, w);
  for (const auto& w : b.witnesses)
    if (a.witnesses.size() < 5) a.witnesses.push_back(w);
}

// Runs the kernel over the bit patterns `in` and judges every result.
void run_batch(const UnaryKernel& k, const FloatFormat& F, const std::vector<std::uint64_t>& in, UnaryResult& r,
               const UnaryOptions& o) {
  const std::size_t width = storage_size(k.type);
  std::vector<unsigned char> xb(in.size() * width), yb(in.size() * width);
  if (k.type == ElementType::FP32) {
    for (std::size_t i = 0; i < in.size(); ++i) {
      const auto b = static_cast<std::uint32_t>(in[i]);
      std::memcpy(xb.data() + 4 * i, &b, 4);
    }
  } else {
    for (std::size_t i = 0; i < in.size(); ++i) store_bits(k.type, xb.data(), i, in[i]);
  }
  try {
    k.run(xb.data(), yb.data(), in.size());
  } catch (const KernelFault& f) {
    r.fault = f;
    r.fault_batch = in;
    return;
  } catch (const std::exception& e) {
    r.fault = KernelFault(FaultKind::Exception, 0, std::string("the kernel threw: ") + e.what());
    r.fault_batch = in;
    return;
  }
  if (k.type == ElementType::FP32) {  // the hot path of the 2^32 sweep
    for (std::size_t i = 0; i < in.size(); ++i) {
      float x, y;
      std::memcpy(&x, xb.data() + 4 * i, 4);
      std::memcpy(&y, yb.data() + 4 * i, 4);
      judge(r, k.op, F, in[i], x, y, o);
    }
    return;
  }
  for (std::size_t i = 0; i < in.size(); ++i) {
    const double x = decode_float(k.type, in[i]);
    const double y = decode_float(k.type, load_bits(k.type, yb.data(), i));
    judge(r, k.op, F, in[i], x, y, o);
  }
}

std::vector<double> regime_points(OpId op, const FloatFormat& F) {
  const double lmax = std::log(F.max_finite()), lmin = std::log(F.min_normal()), lsub = std::log(F.min_subnormal());
  const double sat = 0.5 * (F.precision + 1) * std::log(2.0);
  switch (op) {
    case OpId::Exp: return {lmax, lmin, lsub, 0, -lmax, 1};
    case OpId::Log: return {0, F.min_normal(), 1, F.max_finite()};
    case OpId::Tanh:
    case OpId::Erf: return {0, sat, -sat, 0.5, -0.5, F.min_normal()};
    case OpId::Sigmoid: return {0, 2 * sat, -2 * sat, lsub, lmin, -lmax};
    case OpId::Sqrt: return {0, F.min_normal(), 1, F.max_finite()};
    default: return {0, 1, F.max_finite()};
  }
}

std::vector<std::uint64_t> strategy_inputs(const UnaryKernel& k, const FloatFormat& F, const UnaryOptions& o) {
  std::vector<double> xs;
  if (o.strategy == UnaryStrategy::Special) {
    for (double v : {0.0, 1.0, 2.0, 0.5, F.min_subnormal(), F.min_normal(), F.max_finite(), double(INFINITY)}) {
      xs.push_back(v);
      xs.push_back(-v);
    }
    xs.push_back(NAN);
  } else {  // Boundary: 32 values of F on each side of every regime point
    for (double p : regime_points(k.op, F)) {
      const double c = round_to(p, F, RoundingMode::NearestEven).value;
      double up = c, down = c;
      xs.push_back(c);
      for (int i = 0; i < 32; ++i) {
        up = next_up(up, F);
        down = next_down(down, F);
        if (std::isfinite(up)) xs.push_back(up);
        if (std::isfinite(down)) xs.push_back(down);
      }
    }
  }
  std::vector<std::uint64_t> bits;
  for (double v : xs) bits.push_back(encode_float(k.type, v));
  return bits;
}

// The progress of an exhaustive sweep, counted in inputs: a line at every
// 1/64 of the inputs, whichever worker crosses the mark.
class SweepProgress {
 public:
  SweepProgress(const std::function<void(std::string_view)>& out, std::uint64_t total)
      : out_(out), total_(total), t0_(std::chrono::steady_clock::now()) {}
  void add(std::uint64_t n) {
    if (!out_ || total_ == 0) return;
    const std::uint64_t done = done_ += n;
    const std::uint64_t mark = done * 64 / total_;
    std::lock_guard<std::mutex> lock(m_);
    if (mark <= shown_ || done >= total_) return;
    shown_ = mark;
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
    const double left = s * static_cast<double>(total_ - done) / static_cast<double>(done);
    char line[160];
    std::snprintf(line, sizeof line, "sweep %.1f%% (%llu of %llu inputs), %.0f s, about %.0f s left",
                  100.0 * static_cast<double>(done) / static_cast<double>(total_),
                  static_cast<unsigned long long>(done), static_cast<unsigned long long>(total_), s, left);
    out_(line);
  }

 private:
  const std::function<void(std::string_view)>& out_;
  const std::uint64_t total_;
  const std::chrono::steady_clock::time_point t0_;
  std::atomic<std::uint64_t> done_{0};
  std::mutex m_;
  std::uint64_t shown_ = 0;
};

UnaryResult blank(const UnaryKernel& k, const UnaryOptions& o) {
  UnaryResult r;
  r.kernel = k.name;
  r.op = k.op;
  r.type = k.type;
  r.strategy = o.strategy;
  r.ulp_bound = o.ulp_bound;
  r.sonnx_unit_roundoff = o.sonnx_unit_roundoff;
  return r;
}

}  // namespace

const char* to_string(UnaryStrategy s) noexcept {
  switch (s) {
    case UnaryStrategy::Special: return "special";
    case UnaryStrategy::Boundary: return "boundary";
    case UnaryStrategy::Random: return "random";
    case UnaryStrategy::Exhaustive: return "exhaustive";
  }
  return "?";
}

UnaryResult check_unary_kernel(const UnaryKernel& kernel, const UnaryOptions& o) {
  if (!is_float(kernel.type)) throw std::invalid_argument("check_unary_kernel: " + std::string(to_string(kernel.type)) +
                                                     " is not a float type");
  if (!(o.ulp_bound >= 0.5)) throw std::invalid_argument("check_unary_kernel: ulp bound must be >= 0.5");
  const UnaryKernel k = harnessed(kernel, o.isolation);
  const FloatFormat F = std::get<FloatFormat>(format_of(k.type));
  const UnaryResult empty = blank(k, o);
  UnaryResult r = empty;
  DefaultFpEnvironment env;
  if (o.strategy == UnaryStrategy::Special || o.strategy == UnaryStrategy::Boundary) {
    run_batch(k, F, strategy_inputs(k, F, o), r, o);
    return r;
  }
  const unsigned width_bits = static_cast<unsigned>(storage_size(k.type) * 8);
  if (o.strategy == UnaryStrategy::Random) {
    std::mt19937_64 rng(o.seed);
    const std::uint64_t mask = width_bits == 64 ? ~0ULL : (1ULL << width_bits) - 1;
    for (std::uint64_t done = 0; done < o.samples;) {
      std::vector<std::uint64_t> in(std::min<std::uint64_t>(kBatch, o.samples - done));
      for (auto& b : in) b = rng() & mask;
      run_batch(k, F, in, r, o);
      if (r.fault) break;
      done += in.size();
      if (done < o.samples && stop_requested()) {
        r.interrupted = true;
        break;
      }
    }
    return r;
  }
  if (width_bits > 32) throw std::invalid_argument("check_unary_kernel: exhaustive sweeps exist for 16- and 32-bit types only");
  const std::uint64_t total = 1ULL << width_bits;
  const std::uint64_t first = std::min(o.first, total);
  const std::uint64_t count = o.count == 0 ? total - first : std::min(o.count, total - first);
  const unsigned threads = std::max(1u, o.threads);
  SweepProgress progress(o.progress, count);
  std::vector<UnaryResult> parts(threads, empty);
  std::vector<std::thread> pool;
  std::atomic<bool> stop{false};  // a kernel fault ends every worker's sweep
  for (unsigned t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      DefaultFpEnvironment worker_env;
      // interleaved blocks: the expensive regions are shared between threads
      std::vector<std::uint64_t> in;
      for (std::uint64_t start = first + t * kBatch; start < first + count && !stop; start += threads * kBatch) {
        const std::uint64_t end = std::min(start + kBatch, first + count);
        in.resize(end - start);
        for (std::uint64_t b = start; b < end; ++b) in[b - start] = b;
        run_batch(k, F, in, parts[t], o);
        progress.add(in.size());
        if (parts[t].fault) stop = true;
        if (stop_requested()) {
          parts[t].interrupted = stop = true;
        }
      }
      mpfr_free_cache();  // MPFR's constant caches are per thread (MPFR manual §5.2)
    });
  }
  for (auto& th : pool) th.join();
  for (const auto& p : parts) merge(r, p);
  return r;
}

std::string UnaryResult::summary() const {
  std::ostringstream s;
  s << kernel << " (" << to_string(op) << " " << to_string(type) << "), " << to_string(strategy) << ", " << tested
    << " inputs; bound: "
    << (sonnx_unit_roundoff ? std::string("SONNX u·max(|f(x)|, min normal)")
                            : ulp_bound <= 0.5 ? std::string("correctly rounded") : std::to_string(ulp_bound) + " ulp")
    << "; " << incorrectly_rounded << " not correctly rounded, max error " << max_ulp_error << " ulp, "
    << special_mismatches << " wrong special values; "
    << (fault ? "CRASHED: " + std::string(fault->what()) + " (the check stopped at a batch of " +
                    std::to_string(fault_batch.size()) + " inputs)"
              : passed() ? "PASS" : "VIOLATED");
  if (!witnesses.empty()) {
    char buf[160];
    const auto& w = witnesses.front();
    std::snprintf(buf, sizeof buf, "; witness x = %a (bits 0x%llx): y = %a, expected %a (%s)", w.x,
                  static_cast<unsigned long long>(w.bits), w.y, w.expected, w.what.c_str());
    s << buf;
  }
  return s.str();
}

}  // namespace symerr::verify
