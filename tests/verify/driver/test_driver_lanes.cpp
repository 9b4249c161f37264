// Many lanes with unstable branches: every lane's unstable runs share one
// immutable recipe table per run (a copy per lane made the driver quadratic
// in the number of lanes). An output made alike on both paths of an unstable
// branch keeps its own error in every lane, however many quantities the
// other lanes make after its divergence: the first lane of 4,200 (16,800
// recipes after its branch; copies were dropped past 16,384, and its output
// then took the plain difference of the two paths, 6) is bounded as
// the same kernel on one lane. And the lanes' outputs enclose exact
// executions (GMP), a quarter of them in the unstable band.
#include <catch2/catch.hpp>

#include <vector>

#include <symerr/verify/symbolic/driver.hpp>

#include "dropin/sampling.hpp"

using namespace symerr;
using S = SymbolicError;

namespace {

// Four operations after the branch, the same on both of its paths.
template <class T>
T made_alike(const T& a, const T& b) {
  T t = a * b;
  t = t + a;
  t = t * b;
  return t - a;
}

template <class T>
T lane(const T& x0, const T& x1, const T& x2) {
  if (x0 < 0) return made_alike(x1, x2);
  return made_alike(x1, x2);
}

verify::DriverResult run_lanes(std::size_t n, double e) {
  std::vector<S> in;
  for (std::size_t k = 0; k < 3 * n; ++k) in.push_back(S::input(-1, 1, -e, e, FP64));
  verify::DriverOptions opt;
  for (std::size_t k = 0; k < 3 * n; ++k) opt.input_lanes.push_back(static_cast<int>(k / 3));
  for (std::size_t j = 0; j < n; ++j) opt.output_lanes.push_back(static_cast<int>(j));
  return verify::run_kernel(
      [](std::span<S> x, std::span<S> y) {
        for (std::size_t j = 0; j < y.size(); ++j) y[j] = lane(x[3 * j], x[3 * j + 1], x[3 * j + 2]);
      },
      in, n, opt);
}

}  // namespace

TEST_CASE("driver lanes: an output made alike on both unstable paths keeps its own error in every lane",
          "[verify][driver][lanes]") {
  const double e = 0x1p-30;
  const auto one = run_lanes(1, e);
  const auto many = run_lanes(4200, e);
  INFO(one.report.summary() << "\n" << many.report.summary() << "\none lane: " << one.outputs[0]
                            << "\nfirst of 4200: " << many.outputs[0]);
  REQUIRE_FALSE(many.report.budget_exhausted);
  REQUIRE_FALSE(many.report.lanes_violated);
  CHECK(many.report.unstable_branches >= 4200);
  CHECK(mag(one.outputs[0].err) < 1e-8);  // its own error (the plain difference of the paths is 6)
  for (std::size_t j : {std::size_t{0}, std::size_t{1}, std::size_t{2100}, std::size_t{4199}}) {
    INFO("lane " << j << ": " << many.outputs[j]);
    CHECK(mag(many.outputs[j].err) <= mag(one.outputs[0].err) * (1 + 1e-12));
  }
  // soundness: exact executions of lanes 0 and 4199, a quarter in the unstable band of x0
  test::InputSampler gen(4200, FP64, e);
  std::size_t bad = 0;
  for (std::size_t t = 0; t < test::scaled(4000, 400); ++t) {
    const test::Sample x0 = gen.next(), x1 = gen.next(), x2 = gen.next();
    const mpq_class real = lane<mpq_class>(x0.real, x1.real, x2.real);
    const double fp = lane<double>(x0.computed, x1.computed, x2.computed);
    bad += !test::encloses(many.outputs[0], real, fp);
    bad += !test::encloses(many.outputs[4199], real, fp);
  }
  CHECK(bad == 0);
}
