// Drop-in costs, measured as ratios / per-element times in one run:
//  * the ONNX-style C matmul 64x64 compiled on double against the same C
//    kernel substituted on SymbolicError (FP64 inputs in [-1, 1], e = 1e-12),
//    interleaved rounds, timed in thread CPU time (the machine is shared:
//    wall time measures the other jobs) (target: <= 50x);
//  * relu and where on 4096 elements through the branch driver (full box
//    [-1, 1], e = 1e-12, lanes element by element): time per element
//    (target: <= 20 us).
// The C kernel is tests/substitute/kernels/onnx_kernels.c (bench/CMakeLists.txt
// builds it three ways). The third, for reference: the same kernel substituted
// on ONE Boost interval (bench/plain_interval.hpp), the cost of an interval
// evaluation without any error analysis.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <ctime>
#include <cstdio>
#include <span>
#include <vector>

#include <symerr/verify/symbolic/driver.hpp>

#include "plain_interval.hpp"

#include <symerr/substitute.hpp>
#undef double
#define double ::symerr::SymbolicError
namespace ksym {
#include "onnx_kernels.h"
}
#undef ONNX_KERNELS_H
#undef double
#define double bench_plain::PlainInterval
namespace kplain {
#include "onnx_kernels.h"
}
#undef ONNX_KERNELS_H
#undef double
#define double ::symerr::LeanDouble
namespace klean {
#include "onnx_kernels.h"
}
#undef ONNX_KERNELS_H
#include <symerr/substitute_end.hpp>
extern "C" {
#include "onnx_kernels.h"
}

namespace {

using S = symerr::SymbolicError;

template <class Tensor, class T>
Tensor view(int rows, int cols, T* data) {
  Tensor t{};
  t.rank = 2;
  t.dims[0] = rows;
  t.dims[1] = cols;
  t.data = data;
  return t;
}

struct MatmulData {
  std::vector<double> a, b, y;
  std::vector<S> sa, sb, sy;
  std::vector<bench_plain::PlainInterval> pa, pb, py;
  std::vector<symerr::LeanDouble> la, lb, ly;
  MatmulData()
      : a(4096), b(4096), y(4096), sa(4096), sb(4096), sy(4096),
        pa(4096, bench_plain::PlainInterval(bench_plain::BI(-1, 1))), pb(pa), py(4096),
        la(4096, symerr::LeanDouble::input(-1, 1, -1e-12, 1e-12)), lb(la), ly(4096) {
    for (int i = 0; i < 4096; ++i) {
      a[i] = std::ldexp((i * 37) % 1024 - 512, -9);
      b[i] = std::ldexp((i * 91) % 1024 - 512, -9);
      sa[i] = S::input(-1, 1, -1e-12, 1e-12, symerr::FP64);
      sb[i] = sa[i];
    }
  }
  void run_double() {
    tensor ta = view<tensor>(64, 64, a.data()), tb = view<tensor>(64, 64, b.data()), ty = view<tensor>(64, 64, y.data());
    onnx_matmul(&ta, &tb, &ty);
  }
  void run_plain() {
    auto ta = view<kplain::tensor>(64, 64, pa.data()), tb = view<kplain::tensor>(64, 64, pb.data()),
         ty = view<kplain::tensor>(64, 64, py.data());
    kplain::onnx_matmul(&ta, &tb, &ty);
  }
  void run_lean() {
    auto ta = view<klean::tensor>(64, 64, la.data()), tb = view<klean::tensor>(64, 64, lb.data()),
         ty = view<klean::tensor>(64, 64, ly.data());
    klean::onnx_matmul(&ta, &tb, &ty);
  }
  void run_symbolic() {
    auto ta = view<ksym::tensor>(64, 64, sa.data()), tb = view<ksym::tensor>(64, 64, sb.data()),
         ty = view<ksym::tensor>(64, 64, sy.data());
    ksym::onnx_matmul(&ta, &tb, &ty);
  }
};

void BM_matmul64_double(benchmark::State& state) {
  MatmulData d;
  for (auto _ : state) {
    d.run_double();
    benchmark::DoNotOptimize(d.y.data());
  }
}
void BM_matmul64_symbolic_fp64(benchmark::State& state) {
  MatmulData d;
  for (auto _ : state) {
    d.run_symbolic();
    benchmark::DoNotOptimize(d.sy.data());
  }
}

symerr::verify::DriverResult driver_run(bool where, std::size_t n) {
  const std::size_t inputs = where ? 3 * n : n;
  const std::vector<S> in(inputs, S::input(-1, 1, -1e-12, 1e-12, symerr::FP64));
  symerr::verify::DriverOptions opt;
  std::vector<std::size_t> sizes(where ? 3 : 1, n);
  symerr::verify::elementwise_lanes(opt, sizes, n);
  const int m = static_cast<int>(n);
  return symerr::verify::run_kernel(
      [where, m](std::span<S> x, std::span<S> y) {
        ksym::tensor ty{1, {m}, y.data()};
        ksym::tensor tx{1, {m}, x.data()};
        if (!where) return ksym::onnx_relu(&tx, &ty);
        ksym::tensor ta{1, {m}, x.data() + m}, tb{1, {m}, x.data() + 2 * m};
        ksym::onnx_where(&tx, &ta, &tb, &ty);
      },
      in, n, opt);
}

void BM_driver_relu_4096(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(driver_run(false, 4096));
  state.counters["us_per_element"] =
      benchmark::Counter(4096.0 * static_cast<double>(state.iterations()),
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert, benchmark::Counter::kIs1000);
}
void BM_driver_where_4096(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(driver_run(true, 4096));
  state.counters["us_per_element"] =
      benchmark::Counter(4096.0 * static_cast<double>(state.iterations()),
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert, benchmark::Counter::kIs1000);
}

double thread_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}
template <class F>
double cpu_seconds(F&& f) {
  const double start = thread_cpu_seconds();
  f();
  return thread_cpu_seconds() - start;
}

// Interleaved rounds: the symbolic/double ratio of the fastest rounds and the
// median of the per-round ratios (thread CPU time).
void matmul_ratio() {
  MatmulData d;
  std::vector<double> td, ts, tp, tl, ratio, lean_ratio;
  for (int round = 0; round < 15; ++round) {
    tl.push_back(cpu_seconds([&] {
      for (int i = 0; i < 20; ++i) {
        d.run_lean();
        benchmark::DoNotOptimize(d.ly.data());
      }
    }) / 20);
    tp.push_back(cpu_seconds([&] {
      for (int i = 0; i < 5; ++i) {
        d.run_plain();
        benchmark::DoNotOptimize(d.py.data());
      }
    }) / 5);
    const double a = cpu_seconds([&] {
      for (int i = 0; i < 50; ++i) {
        d.run_double();
        benchmark::DoNotOptimize(d.y.data());
      }
    }) / 50;
    const double b = cpu_seconds([&] {
      d.run_symbolic();
      benchmark::DoNotOptimize(d.sy.data());
    });
    td.push_back(a);
    ts.push_back(b);
    ratio.push_back(b / a);
    lean_ratio.push_back(tl.back() / a);
  }
  std::sort(lean_ratio.begin(), lean_ratio.end());
  std::sort(ratio.begin(), ratio.end());
  const double fastest = *std::min_element(ts.begin(), ts.end()) / *std::min_element(td.begin(), td.end());
  const double best = *std::min_element(ts.begin(), ts.end());
  std::printf("matmul 64x64 FP64, substituted C kernel on SymbolicError / the C kernel on double (CPU time): "
              "fastest rounds %.1fx, median %.1fx (double %.3g ms, symbolic %.3g ms = %.0f ns per symbolic "
              "operation, 2 x 64^3 operations)\n",
              fastest, ratio[ratio.size() / 2], 1e3 * *std::min_element(td.begin(), td.end()), 1e3 * best,
              1e9 * best / (2.0 * 64 * 64 * 64));
  const double lean = *std::min_element(tl.begin(), tl.end());
  std::printf("  the same C kernel substituted on LeanDouble: fastest rounds %.1fx, median %.1fx the double kernel "
              "(%.3g ms = %.1f ns per operation); y[0] err [%.4g, %.4g]\n",
              lean / *std::min_element(td.begin(), td.end()), lean_ratio[lean_ratio.size() / 2], 1e3 * lean,
              1e9 * lean / (2.0 * 64 * 64 * 64), d.ly[0].err().lo, d.ly[0].err().hi);
  const double plain = *std::min_element(tp.begin(), tp.end());
  std::printf("  reference, the same C kernel on one boost::numeric::interval<double> (no error analysis): "
              "%.1fx the double kernel (%.3g ms); SymbolicError / one interval: %.1fx\n",
              plain / *std::min_element(td.begin(), td.end()), 1e3 * plain, best / plain);
}

void driver_per_element() {
  for (bool where : {false, true}) {
    double best = 1e9;
    symerr::verify::DriverResult r;
    for (int round = 0; round < 5; ++round) best = std::min(best, cpu_seconds([&] { r = driver_run(where, 4096); }));
    std::printf("%s on 4096 elements through the driver (full box, e = 1e-12): %.2f us CPU per element (%s)\n",
                where ? "where" : "relu", 1e6 * best / 4096, r.report.summary().c_str());
  }
}

}  // namespace

BENCHMARK(BM_matmul64_double);
BENCHMARK(BM_matmul64_symbolic_fp64)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_driver_relu_4096)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_driver_where_4096)->Unit(benchmark::kMillisecond);

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  matmul_ratio();
  driver_per_element();
  return 0;
}
