// Exhaustive FP32 unary sweep: glibc's expf checked on all 2^32 inputs with the
// fast oracle on 2 threads, against the MPFR-only oracle on a fixed sample
// (64 blocks of consecutive bit patterns spread over the 2^32), in one run;
// prints the sweep's time, the per-input times on the sample and their ratio.
//   bench_unary_exhaustive [--count N] [--op exp|log|tanh|erf|sigmoid]   (N: inputs of the fast sweep; default 2^32)
#include <chrono>
#include <ctime>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include <symerr/verify/concrete/unary.hpp>

using namespace symerr;
using namespace symerr::verify;

namespace {

void glibc_expf(const float* x, float* y, std::size_t n) { for (std::size_t i = 0; i < n; ++i) y[i] = expf(x[i]); }
void glibc_logf(const float* x, float* y, std::size_t n) { for (std::size_t i = 0; i < n; ++i) y[i] = logf(x[i]); }
void glibc_tanhf(const float* x, float* y, std::size_t n) { for (std::size_t i = 0; i < n; ++i) y[i] = tanhf(x[i]); }
void glibc_erff(const float* x, float* y, std::size_t n) { for (std::size_t i = 0; i < n; ++i) y[i] = erff(x[i]); }
// a float sigmoid (no libm counterpart): 1 / (1 + expf(−x))
void sigmoidf(const float* x, float* y, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) y[i] = 1.0f / (1.0f + expf(-x[i]));
}

// CPU time of the process (all threads): on a shared machine the wall time of
// a 2-thread sweep is at best CPU/2, the figure a quiet 2-core machine gives.
double cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

double seconds(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

int main(int argc, char** argv) {
  std::uint64_t count = 1ULL << 32;
  std::string op = "exp";
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--count") == 0) count = std::strtoull(argv[i + 1], nullptr, 0);
    else if (std::strcmp(argv[i], "--op") == 0) op = argv[i + 1];
    else { std::fprintf(stderr, "usage: %s [--count N] [--op exp|log|tanh|erf|sigmoid]\n", argv[0]); return 2; }
  }
  UnaryKernel k;
  if (op == "exp") k = make_unary_kernel<float>("glibc expf", OpId::Exp, ElementType::FP32, glibc_expf);
  else if (op == "log") k = make_unary_kernel<float>("glibc logf", OpId::Log, ElementType::FP32, glibc_logf);
  else if (op == "tanh") k = make_unary_kernel<float>("glibc tanhf", OpId::Tanh, ElementType::FP32, glibc_tanhf);
  else if (op == "erf") k = make_unary_kernel<float>("glibc erff", OpId::Erf, ElementType::FP32, glibc_erff);
  else if (op == "sigmoid") k = make_unary_kernel<float>("1/(1+expf(-x))", OpId::Sigmoid, ElementType::FP32, sigmoidf);
  else { std::fprintf(stderr, "unknown --op %s\n", op.c_str()); return 2; }
  const double bound = op == "tanh" ? 2 : (op == "sigmoid" ? 4 : 1);

  UnaryOptions o;
  o.strategy = UnaryStrategy::Exhaustive;
  o.ulp_bound = bound;
  o.threads = 2;
  o.count = count;
  auto t0 = std::chrono::steady_clock::now();
  const double c0 = cpu_seconds();
  const UnaryResult fast = check_unary_kernel(k, o);
  const double t_fast = seconds(t0), c_fast = cpu_seconds() - c0;
  std::printf("fast oracle, 2 threads: %s\n  %.1f s for %llu inputs (%.1f ns/input), %llu MPFR fallbacks\n",
              fast.summary().c_str(), t_fast, static_cast<unsigned long long>(fast.tested),
              1e9 * t_fast / static_cast<double>(fast.tested), static_cast<unsigned long long>(fast.mpfr_calls));
  std::printf("  CPU time %.1f s (%.1f s on 2 unshared cores)\n", c_fast, c_fast / 2);

  // the ratio on one fixed sample: 64 blocks spread over the 2^32 bit patterns,
  // 2^16 inputs each for the fast oracle, the first 1024 of each for MPFR only;
  // per input, in CPU time of the process (both threads), which the load of a
  // shared machine does not inflate, and in wall time
  struct PerInput {
    double cpu = 0, wall = 0;
  };
  auto sample = [&](bool mpfr_only, std::uint64_t block) {
    UnaryOptions s = o;
    s.mpfr_only = mpfr_only;
    std::uint64_t n = 0;
    const double c1 = cpu_seconds();
    const auto t1 = std::chrono::steady_clock::now();
    for (int b = 0; b < 64; ++b) {
      s.first = static_cast<std::uint64_t>(b) << 26;
      s.count = block;
      n += check_unary_kernel(k, s).tested;
    }
    return PerInput{(cpu_seconds() - c1) / static_cast<double>(n), seconds(t1) / static_cast<double>(n)};
  };
  const PerInput fast1 = sample(false, 1 << 16);
  const PerInput slow = sample(true, 1024);
  const PerInput fast2 = sample(false, 1 << 16);  // again, around the slow one
  const PerInput fast_per{std::min(fast1.cpu, fast2.cpu), std::min(fast1.wall, fast2.wall)};
  std::printf("sample (64 blocks spread over 2^32), 2 threads: fast %.1f ns/input CPU (%.1f wall), MPFR only "
              "%.1f ns/input CPU (%.1f wall; %.0f s of CPU scaled to 2^32)\n",
              1e9 * fast_per.cpu, 1e9 * fast_per.wall, 1e9 * slow.cpu, 1e9 * slow.wall, slow.cpu * 4294967296.0);
  std::printf("ratio MPFR-only / fast on the sample: %.1fx in CPU time (%.1fx in wall time); full sweep: %.1f s "
              "wall, %.1f s CPU%s\n",
              slow.cpu / fast_per.cpu, slow.wall / fast_per.wall,
              t_fast * 4294967296.0 / static_cast<double>(fast.tested),
              c_fast * 4294967296.0 / static_cast<double>(fast.tested),
              fast.tested == (1ULL << 32) ? " (measured)" : " (scaled from the sweep above)");
  return 0;
}
