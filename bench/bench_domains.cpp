// The cost of one division in each domain, next to a plain double division
// and a raw boost::numeric::interval<double> division (default policies).
// Operands: 256 pairs of intervals [x, x(1 + 2^-20)] with x in [1, 2) for
// the dividend and [0.5, 4) for the divisor (0 never in the divisor, so every
// domain takes its full path, not the whole() shortcut); cycled per iteration.
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include <boost/numeric/interval.hpp>

#include <symerr/domains/interval.hpp>
#include <symerr/domains/mpfr_interval.hpp>
#include <symerr/domains/rational_interval.hpp>

using namespace symerr;

namespace {

constexpr std::size_t pairs = 256;

struct Endpoints {
  double a_lo, a_hi, b_lo, b_hi;
};

const std::vector<Endpoints>& endpoints() {
  static const std::vector<Endpoints> e = [] {
    std::mt19937_64 rng(42);
    std::uniform_real_distribution<double> x(1.0, 2.0), y(0.5, 4.0);
    std::vector<Endpoints> v;
    for (std::size_t i = 0; i < pairs; ++i) {
      const double a = x(rng), b = y(rng);
      v.push_back({a, a * (1 + 0x1p-20), b, b * (1 + 0x1p-20)});
    }
    return v;
  }();
  return e;
}

template <class T, class Make> void run(benchmark::State& state, Make make) {
  std::vector<T> as, bs;
  for (const Endpoints& e : endpoints()) {
    as.push_back(make(e.a_lo, e.a_hi));
    bs.push_back(make(e.b_lo, e.b_hi));
  }
  std::size_t i = 0;
  for (auto _ : state) {
    T q = as[i] / bs[i];
    benchmark::DoNotOptimize(q);
    i = (i + 1) % pairs;
  }
  state.SetItemsProcessed(state.iterations());
}

void BM_double(benchmark::State& s) {
  run<double>(s, [](double lo, double) { return lo; });
}
void BM_boost_interval(benchmark::State& s) {
  run<boost::numeric::interval<double>>(s, [](double lo, double hi) {
    return boost::numeric::interval<double>(lo, hi);
  });
}
void BM_Interval(benchmark::State& s) {
  run<Interval>(s, [](double lo, double hi) { return Interval::between(lo, hi); });
}
void BM_MpfrInterval(benchmark::State& s) {
  const mpfr_prec_t bits = static_cast<mpfr_prec_t>(s.range(0));
  run<MpfrInterval>(s, [bits](double lo, double hi) { return MpfrInterval::between(lo, hi, bits); });
}
void BM_RationalInterval(benchmark::State& s) {
  run<RationalInterval>(s, [](double lo, double hi) { return RationalInterval::between(lo, hi); });
}

}  // namespace

BENCHMARK(BM_double);
BENCHMARK(BM_boost_interval);
BENCHMARK(BM_Interval);
BENCHMARK(BM_MpfrInterval)->Arg(53)->Arg(256);
BENCHMARK(BM_RationalInterval);

BENCHMARK_MAIN();
