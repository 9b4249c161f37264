// Issue 43's table: transformer kernels as written (softmax with an `if`,
// ternary or MAX running maximum, RMS norm, layer norm, attention; the
// fixtures of tests/verify/driver/transformer_fixtures.hpp), FP32 with input
// error 2^-20 and FP64 with 1e-12 on [-1, 1], through the driver in the
// Interval and Affine domains: the bound without the jump bound of unstable
// pairs (DriverOptions::jump_bounds = false: the result before it) and with
// it, the largest error of exact executions (MPFR, 256 bits; a third with
// near-equal inputs), their ratios and the seconds of one analysis, in one
// run. `bench_transformer_kernels` runs the smaller rows, `... all` every row,
// `... <word>` the rows whose name contains it.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "../tests/verify/driver/transformer_fixtures.hpp"

using namespace symerr;
namespace tt = symerr::test::transformer;

namespace {

template <class D>
void measure(const tt::Row<D>& row, const char* domain, int runs) {
  verify::DriverOptions before;
  before.jump_bounds = false;
  const tt::Bound b0 = tt::driver_bound<D>(row.fixture, row.kernel, before);
  const auto t0 = std::chrono::steady_clock::now();
  const tt::Bound b1 = tt::driver_bound<D>(row.fixture, row.kernel);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const tt::Observed o = tt::observe(row.fixture, b1.lo, b1.hi, runs, 43);
  std::printf("| %s | %s | %s | %.3g | %.3g | %.3g | %.3g | %.3g | %.3g | %.2f | %s |\n", row.fixture.name.c_str(),
              row.fixture.fp64 ? "FP64" : "FP32", domain, row.fixture.e[0], b0.sup, b1.sup, o.max_err,
              b0.sup / o.max_err, b1.sup / o.max_err, seconds, o.sound ? "sound" : o.escape.c_str());
  std::fflush(stdout);
}

template <class D>
std::vector<tt::Row<D>> rows(bool all) {
  std::vector<tt::Row<D>> r;
  // (softmax with an `if` maximum: the driver's paths grow as n·2^(n−1), so
  // n = 8 costs 3-200 s, n = 16 runs out of max_runs; `all` shows them)
  const std::vector<int> sizes = all ? std::vector<int>{4, 8, 16} : std::vector<int>{4};
  const std::vector<int> norm_sizes = all ? std::vector<int>{4, 16, 64} : std::vector<int>{4, 16};
  for (bool fp64 : {false, true}) {
    const double e = fp64 ? 1e-12 : 0x1p-20;
    for (int n : sizes)
      for (auto st : {tt::MaxStart::Minus10000, tt::MaxStart::MinusInfinity, tt::MaxStart::MinusFltMax})
        for (auto sp : {tt::MaxSpelling::If, tt::MaxSpelling::Ternary, tt::MaxSpelling::Macro})
          if (n == 4 || (st == tt::MaxStart::Minus10000 && sp == tt::MaxSpelling::If))
            r.push_back(tt::softmax_row<D>(n, fp64, e, st, sp));
    for (int n : all ? std::vector<int>{4, 64} : std::vector<int>{4})
      for (bool dsum : {false, true}) r.push_back(tt::rms_row<D>(n, fp64, dsum, e));
    for (int n : norm_sizes)
      for (bool welford : {false, true}) r.push_back(tt::layer_norm_row<D>(n, fp64, welford, e));
    for (int T : all ? std::vector<int>{3, 8} : std::vector<int>{3})
      for (int d : {2, 8}) r.push_back(tt::attention_row<D>(T, d, fp64, e));
  }
  return r;
}

}  // namespace

// `... scale <n> [affine]`: the seconds of one softmax-with-`if` analysis
// of n inputs without and with the jump bound, and what the driver did.
template <class D>
int scale(int n) {
  const auto row = tt::softmax_row<D>(n, false, 0x1p-20, tt::MaxStart::Minus10000, tt::MaxSpelling::If);
  for (bool jump : {false, true}) {
    verify::DriverOptions o;
    o.jump_bounds = jump;
    const auto t0 = std::chrono::steady_clock::now();
    const tt::Bound b = tt::driver_bound<D>(row.fixture, row.kernel, o);
    std::printf("n = %d, jump bound %s: %.3g in %.2f s; %s\n", n, jump ? "on" : "off", b.sup,
                std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), b.summary.c_str());
  }
  return 0;
}

int main(int argc, char** argv) {
  if (argc > 3 && std::strcmp(argv[1], "scale") == 0 && std::strcmp(argv[3], "affine") == 0) {
    AffineContext ctx;
    AffineScope scope(ctx);
    return scale<Affine>(std::atoi(argv[2]));
  }
  if (argc > 2 && std::strcmp(argv[1], "scale") == 0) return scale<Interval>(std::atoi(argv[2]));
  const bool all = argc > 1 && std::strcmp(argv[1], "all") == 0;
  const char* only = argc > 1 && !all ? argv[1] : nullptr;
  const int runs = 3000;
  std::printf("| kernel | format | domain | e | bound before | bound after | observed | before/obs | after/obs | s | check |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (const auto& row : rows<Interval>(all))
    if (!only || row.fixture.name.find(only) != std::string::npos) measure(row, "Interval", runs);
  AffineContext ctx;
  AffineScope scope(ctx);
  for (const auto& row : rows<Affine>(all))
    if (!only || row.fixture.name.find(only) != std::string::npos) measure(row, "Affine", runs);
}
