// The exhaustive FP16 division check (all 2^32 pairs, 2 threads) against the
// same check with the MPFR oracle on a fixed sample of 4 x 2^20 pairs, scaled
// to 2^32 — in one run, reported as a ratio (issue "Verification harness":
// target <= 10 s and >= 20x faster than the MPFR path).
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdio>

#include <symerr/verify/concrete/exhaustive.hpp>

#include "../tests/verify/zoo/zoo.hpp"

using namespace symerr::verify;
using symerr::OpId;

namespace {

Kernel fp16_div() {
  return make_kernel<std::uint16_t>("zoo_div_fp16", OpId::Div, ElementType::FP16, zoo::div_fp16_fast);
}

double seconds(const auto& f) {
  const auto t0 = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

ExhaustiveOptions two_threads() {
  ExhaustiveOptions o;
  o.threads = 2;
  o.progress = ProgressDisplay::Never;
  return o;
}

// The MPFR-oracle path on shards 512, 1536, 2560, 3584 of 4096 (16 dividends
// each, every divisor), scaled to all 2^32 pairs.
double mpfr_scaled_seconds(std::uint64_t& pairs) {
  ExhaustiveOptions o = two_threads();
  o.check.oracle = OracleKind::Mpfr;
  double t = 0;
  pairs = 0;
  for (std::uint32_t s : {512u, 1536u, 2560u, 3584u}) {
    o.shard = {s, 4096};
    t += seconds([&] {
      const CheckResult r = check_exhaustive(fp16_div(), o);
      pairs += r.evidence.inputs_checked;
      if (r.evidence.failures != 0) std::fprintf(stderr, "unexpected failure: %s\n", r.reason.c_str());
    });
  }
  return t * static_cast<double>(std::uint64_t{1} << 32) / static_cast<double>(pairs);
}

void BM_ExhaustiveFp16DivVsMpfr(benchmark::State& state) {
  for (auto _ : state) {
    CheckResult full;
    const double fast = seconds([&] { full = check_exhaustive(fp16_div(), two_threads()); });
    std::uint64_t sample = 0;
    const double mpfr = mpfr_scaled_seconds(sample);
    state.counters["exhaustive_s"] = fast;
    state.counters["mpfr_scaled_s"] = mpfr;
    state.counters["ratio"] = mpfr / fast;
    state.counters["pairs"] = static_cast<double>(full.evidence.inputs_checked);
    std::printf("exhaustive FP16 Div (2^32 pairs, 2 threads): %.2f s, verdict %s\n", fast,
                to_string(full.verdict));
    std::printf("MPFR oracle, %llu sampled pairs scaled to 2^32: %.1f s; ratio %.1fx\n",
                static_cast<unsigned long long>(sample), mpfr, mpfr / fast);
  }
}
BENCHMARK(BM_ExhaustiveFp16DivVsMpfr)->Iterations(1)->Unit(benchmark::kSecond)->UseRealTime();

// One shard (1/64 of the pairs) of the fast path, for quick comparisons.
void BM_ExhaustiveFp16DivShard(benchmark::State& state) {
  ExhaustiveOptions o = two_threads();
  o.shard = {20, 64};
  o.vectorized = state.range(0) != 0;
  for (auto _ : state) benchmark::DoNotOptimize(check_exhaustive(fp16_div(), o));
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * (std::int64_t{1} << 26));
}
BENCHMARK(BM_ExhaustiveFp16DivShard)->Arg(1)->Arg(0)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
