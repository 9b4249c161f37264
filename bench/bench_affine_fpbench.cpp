// FPBench standard benchmarks (binary64; every input carries its half-ulp
// rounding error, decimal constants are rounded) in the Affine and Interval
// domains, through the library's kernel driver without and with its automatic
// subdivision (no hand splitting), next to the published bounds.
// Run: build/release/bench/bench_affine_fpbench
#include <chrono>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include <symerr/decimal.hpp>
#include <symerr/domains/affine.hpp>
#include <symerr/domains/interval.hpp>
#include <symerr/symbolic.hpp>

#include "fpbench/kernels.hpp"
#include "fpbench/driver_box.hpp"

using namespace symerr;
using namespace symerr::bench;

namespace {

template <class D>
struct Literal {
  SymbolicDomainError<D> operator()(const char* decimal) const {
    return SymbolicDomainError<D>::literal(exact_decimal(decimal), FP64);
  }
};

struct Bench {
  const char* name;
  std::vector<InputRange> box;
  std::function<SymbolicDomainError<Affine>(const std::vector<SymbolicDomainError<Affine>>&)> affine;
  std::function<SymbolicDomainError<Interval>(const std::vector<SymbolicDomainError<Interval>>&)> interval;
  const char* published;
};

#define SYMERR_FPBENCH(fn)                                                                                  \
  [](const std::vector<SymbolicDomainError<Affine>>& x) { return fpbench::fn(x, Literal<Affine>{}); },       \
      [](const std::vector<SymbolicDomainError<Interval>>& x) { return fpbench::fn(x, Literal<Interval>{}); }

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

}  // namespace

int main(int argc, char** argv) {
  const double budget = argc > 1 ? std::atof(argv[1]) : 0.9;  // seconds of subdivision per kernel
  const InputError ie = half_ulp_input_error(FP64);
  std::vector<Bench> benches = {
      {"doppler1", {{-100, 100}, {20, 20000}, {-30, 50}}, SYMERR_FPBENCH(doppler1), "FPTaylor 1.2176e-13, Daisy 4.19e-13"},
      {"turbine1", {{-4.5, -0.3}, {0.4, 0.9}, {3.8, 7.8}}, SYMERR_FPBENCH(turbine1), "FPTaylor 1.6695e-14, Daisy 8.65e-14"},
      {"jet", {{-5, 5}, {-20, 5}}, SYMERR_FPBENCH(jet), "FPTaylor 1.0283e-11"},
      {"carbonGas", {{0.1, 0.5}}, SYMERR_FPBENCH(carbon_gas), "FPTaylor 4.9623e-9, Daisy 3.91e-8"},
      {"rigidBody1", {{-15, 15}, {-15, 15}, {-15, 15}}, SYMERR_FPBENCH(rigid_body1), "all tools 2.948753e-13"},
      {"Reduction_1024", std::vector<InputRange>(1024, InputRange{-1, 1}), SYMERR_FPBENCH(reduction),
       "Gappa 6.2528e-13 = 11*2^-44 (392 s), Satire 1.25e-12 (29.5 s)"},
  };
  std::printf("| benchmark | symerr Interval | symerr Affine | time | Affine + automatic subdivision | boxes, time | published |\n");
  std::printf("|---|---|---|---|---|---|---|\n");
  for (const Bench& b : benches) {
    const double i = driver_bound<Interval>(b.interval, b.box, FP64, ie).bound;
    auto t = std::chrono::steady_clock::now();
    const double a = driver_bound<Affine>(b.affine, b.box, FP64, ie).bound;
    const double sa = seconds_since(t);
    std::string sub_text = "-", sub_cost = "-";
    if (b.box.size() <= 8) {
      const Bounded s = driver_bound<Affine>(b.affine, b.box, FP64, ie, subdivision_for(budget));
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.6e", s.bound);
      sub_text = buf;
      std::snprintf(buf, sizeof buf, "%zu, %.2f s", s.report.input_boxes, s.report.seconds);
      sub_cost = buf;
    }
    std::printf("| %s | %.6e | %.6e | %.3f s | %s | %s | %s |\n", b.name, i, a, sa, sub_text.c_str(),
                sub_cost.c_str(), b.published);
    std::fflush(stdout);
  }
  std::printf("\n11*2^-44 = %.6e; 20.75*2^-46 = %.7e\n", 11 * 0x1p-44, 20.75 * 0x1p-46);
  return 0;
}
