// The branch driver on an elementwise kernel with unstable branches: a 3-way
// piecewise function of FP32 inputs in [-1, 1] with input error 2^-20 (every
// element's comparisons are undecided and may be unstable), one lane per
// element, from 256 to 16,384 elements. Reported per element: the CPU time
// of one run_kernel call (the thread's: the machine is shared) and the peak
// of the heap bytes live during it (counted by this program's operator new).
// A driver linear in the number of lanes keeps both constant.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <atomic>
#include <ctime>
#include <cstdlib>
#include <new>
#include <vector>

#include <malloc.h>

#include <symerr/verify/symbolic/driver.hpp>

namespace {

std::atomic<long long> g_live{0}, g_peak{0};

void count_alloc(void* p) {
  if (!p) return;
  const long long now = g_live.fetch_add(static_cast<long long>(malloc_usable_size(p))) +
                        static_cast<long long>(malloc_usable_size(p));
  long long peak = g_peak.load();
  while (now > peak && !g_peak.compare_exchange_weak(peak, now)) {
  }
}

}  // namespace

// (not inlined: GCC would pair the inlined free with the new-expression's
// operator new and warn of a mismatched deallocation)
__attribute__((noinline)) void* operator new(std::size_t n) {
  void* p = std::malloc(n ? n : 1);
  if (!p) throw std::bad_alloc();
  count_alloc(p);
  return p;
}
void* operator new[](std::size_t n) { return operator new(n); }
__attribute__((noinline)) void operator delete(void* p) noexcept {
  if (!p) return;
  g_live.fetch_sub(static_cast<long long>(malloc_usable_size(p)));
  std::free(p);
}
void operator delete[](void* p) noexcept { operator delete(p); }
void operator delete(void* p, std::size_t) noexcept { operator delete(p); }
void operator delete[](void* p, std::size_t) noexcept { operator delete(p); }

namespace {

using symerr::SymbolicError;

double thread_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

// 3 pieces, each a different computation (the two sides of a switch differ).
void piecewise(std::span<SymbolicError> x, std::span<SymbolicError> y) {
  for (std::size_t i = 0; i < x.size(); ++i) {
    const SymbolicError& v = x[i];
    if (v < -0.5) y[i] = v * 0.5 - 0.25;
    else if (v < 0.5) y[i] = v * v;
    else y[i] = v * 2.0 - 0.75;
  }
}

void BM_driver_piecewise(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const double e = 0x1p-20;
  std::vector<SymbolicError> in(n, SymbolicError::input(-1, 1, -e, e, symerr::FP32));
  symerr::verify::DriverOptions opt;
  const std::size_t sizes[] = {n};
  symerr::verify::elementwise_lanes(opt, sizes, n);
  double seconds = 0;
  long long peak = 0;
  std::size_t runs = 0;
  for (auto _ : state) {
    const long long base = g_live.load();
    g_peak.store(base);
    const double start = thread_seconds();
    const auto r = symerr::verify::run_kernel(piecewise, in, n, opt);
    seconds += thread_seconds() - start;
    peak = std::max(peak, g_peak.load() - base);
    runs = r.report.runs;
    if (r.report.budget_exhausted || r.report.lanes_violated) state.SkipWithError("budget exhausted or lanes violated");
    benchmark::DoNotOptimize(r.outputs.data());
  }
  const double per = 1.0 / static_cast<double>(n);
  state.counters["cpu_us_per_element"] = seconds / static_cast<double>(state.iterations()) * 1e6 * per;
  state.counters["peak_bytes_per_element"] = static_cast<double>(peak) * per;
  state.counters["runs"] = static_cast<double>(runs);
}
BENCHMARK(BM_driver_piecewise)->RangeMultiplier(4)->Range(256, 16384)->Unit(benchmark::kMillisecond)->Iterations(2);

}  // namespace

BENCHMARK_MAIN();
