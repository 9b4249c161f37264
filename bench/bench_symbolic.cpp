// One SymbolicDomainError division (Interval domain, FP32) against one
// boost::numeric::interval<double> division, in the same run. Target ratio <= 5x.
#include <benchmark/benchmark.h>

#include <boost/numeric/interval.hpp>

#include <symerr/domains/symbolic_interval.hpp>

namespace {

void BM_boost_interval_div(benchmark::State& state) {
  using namespace boost::numeric;
  using I = interval<double, interval_lib::policies<interval_lib::save_state<interval_lib::rounded_arith_std<double>>,
                                                    interval_lib::checking_base<double>>>;
  I a(1.0, 2.0), b(3.0, 4.0);
  for (auto _ : state) {
    benchmark::DoNotOptimize(a);
    benchmark::DoNotOptimize(b);
    I c = a / b;
    benchmark::DoNotOptimize(c);
  }
}

void BM_symbolic_div_fp32(benchmark::State& state) {
  using symerr::SymbolicError;
  const auto a = SymbolicError::input(1.0, 2.0, -1e-7, 1e-7, symerr::FP32);
  const auto b = SymbolicError::input(3.0, 4.0, -1e-7, 1e-7, symerr::FP32);
  for (auto _ : state) {
    benchmark::DoNotOptimize(&a);
    auto c = a / b;
    benchmark::DoNotOptimize(c);
  }
}

}  // namespace

BENCHMARK(BM_boost_interval_div);
BENCHMARK(BM_symbolic_div_fp32);
BENCHMARK_MAIN();
