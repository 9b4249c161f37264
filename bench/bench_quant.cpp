// Exhaustive quantization sweeps against a plain loop over the same inputs,
// in one run, reported as ratios (docs/quantization.md): the requantization
// sweep over all 2^32 int32 accumulators (target <= 30 s on 2 cores) and the
// QuantizeLinear sweep over all 65,536 FP16 inputs (target <= 1 s).
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdint>
#include <cstdio>

#include <symerr/verify/quant/sweep.hpp>

using namespace symerr::quant;
using namespace symerr::verify::quant;

namespace {

double seconds(const auto& f) {
  const auto t0 = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

constexpr FixedPointMultiplier kPublished{1583594044, 9};

// The plain loop: the kernel alone over every accumulator, one thread.
std::int64_t plain_requant_loop() {
  std::int64_t sum = 0;
  for (std::int64_t a = INT32_MIN; a <= INT32_MAX; ++a)
    sum += requantize(static_cast<std::int32_t>(a), kPublished, RequantVariant::gemmlowp);
  return sum;
}

void BM_RequantSweepVsPlain(benchmark::State& state) {
  for (auto _ : state) {
    std::int64_t sink = 0;
    const double plain = seconds([&] { sink = plain_requant_loop(); });
    benchmark::DoNotOptimize(sink);
    RequantSweep s;
    s.multiplier = kPublished;
    RequantSweepResult r;
    const double sweep = seconds([&] { r = sweep_requantize(s, RequantVariant::gemmlowp); });
    state.counters["sweep_s"] = sweep;
    state.counters["plain_s"] = plain;
    state.counters["ratio"] = sweep / plain;
    state.counters["differs"] = static_cast<double>(r.differs_from_onnx);
  }
}
BENCHMARK(BM_RequantSweepVsPlain)->Iterations(1)->Unit(benchmark::kSecond);

void BM_QuantizeFp16SweepVsPlain(benchmark::State& state) {
  const QuantType i8 = quant_type_from_string("int8");
  for (auto _ : state) {
    std::int64_t sink = 0;
    const double plain = seconds([&] {
      for (std::uint32_t b = 0; b < 65536; ++b) {
        const float x = decode(QuantInput::fp16, b);
        if (x == x) sink += quantize(x, 0.1f, 3, i8, QuantizeVariant::onnx_reference);
      }
    });
    benchmark::DoNotOptimize(sink);
    QuantizeSweep s;
    s.scale = 0.1f;
    s.zero_point = 3;
    s.type = i8;
    const double sweep = seconds([&] { benchmark::DoNotOptimize(sweep_quantize(s, QuantizeVariant::onnx_reference)); });
    state.counters["sweep_s"] = sweep;
    state.counters["plain_s"] = plain;
    state.counters["ratio"] = sweep / plain;
  }
}
BENCHMARK(BM_QuantizeFp16SweepVsPlain)->Iterations(3)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
