// Defects of the branch driver found by a new-user tryout (reproducers in the
// tryout's defects/ directory): an output the kernel never writes came back
// certified as an exact 0; max_seconds did not bound the first box's
// exploration (a data-dependent loop ran 26 s with max_seconds = 2, a maxpool
// without lanes did not finish in minutes); and the independence of Affine
// inputs made separately, next to one input element used twice.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include <symerr/verify/symbolic/driver.hpp>

#include "dropin/sampling.hpp"

using namespace symerr;
using S = SymbolicError;
using SA = SymbolicDomainError<Affine>;
using symerr::test::encloses;

TEST_CASE("run_kernel: an output the kernel never writes is an error naming it", "[verify][driver][defects]") {
  const std::vector<S> in(4, S::input(-1, 1, FP32));
  // a loop bound one short: out[3] is never assigned
  auto short_loop = [](std::span<S> x, std::span<S> y) {
    for (std::size_t i = 0; i + 1 < y.size(); ++i) y[i] = x[i] * 2.0;
  };
  CHECK_THROWS_AS(verify::run_kernel(short_loop, in, 4), std::invalid_argument);
  CHECK_THROWS_WITH(verify::run_kernel(short_loop, in, 4),
                    Catch::Contains("output 3 of 4 was never written by the kernel"));
  // on one path only (an undecided branch that forgets its output)
  auto one_path = [](std::span<S> x, std::span<S> y) {
    y[0] = x[0];
    if (x[1] > 0) y[1] = x[1];
  };
  CHECK_THROWS_WITH(verify::run_kernel(one_path, in, 2), Catch::Contains("output 1 of 2 was never written"));
  // a copy of an unwritten element is no write
  auto copies_unwritten = [](std::span<S> x, std::span<S> y) {
    y[0] = y[1];
    y[2] = x[0];
  };
  CHECK_THROWS_WITH(verify::run_kernel(copies_unwritten, in, 3), Catch::Contains("output 0 of 3"));
  // with lanes and with subdivision, as without
  verify::DriverOptions lanes;
  verify::elementwise_lanes(lanes, std::vector<std::size_t>{4}, 4);
  CHECK_THROWS_WITH(verify::run_kernel(short_loop, in, 4, lanes), Catch::Contains("output 3 of 4"));
  verify::DriverOptions boxes;
  boxes.max_boxes = 4;
  CHECK_THROWS_WITH(verify::run_kernel(short_loop, in, 4, boxes), Catch::Contains("output 3 of 4"));
  // in the Affine domain
  {
    AffineContext ctx;
    AffineScope scope(ctx);
    const std::vector<SA> ain = {SA::input(-1, 1, FP32), SA::input(-1, 1, FP32)};
    CHECK_THROWS_WITH(verify::run_kernel<Affine>([](std::span<SA> x, std::span<SA> y) { y[0] = x[0] + x[1]; }, ain, 2),
                      Catch::Contains("output 1 of 2"));
  }
}

TEST_CASE("run_kernel: writing 0, an input or accumulating from the initial 0 is a write",
          "[verify][driver][defects]") {
  const std::vector<S> in = {S::input(-1, 1, FP32), S::input(0.5, 2, FP32)};
  const auto r = verify::run_kernel(
      [](std::span<S> x, std::span<S> y) {
        y[0] = 0;
        y[1] = x[1];
        y[2] += x[0];  // the initial value is the exact 0
        for (int k = 0; k < 3; ++k) y[3] += x[1];
        y[4] = x[0] > 0 ? x[0] : S(0);  // every path writes it
      },
      in, 5);
  INFO(r.report.summary());
  for (const S& y : r.outputs) INFO(y);
  const S& zero = r.outputs[0];
  CHECK((zero.real.lower() == 0 && zero.real.upper() == 0 && zero.err.lower() == 0 && zero.err.upper() == 0));
  CHECK((r.outputs[1].real.lower() == 0.5 && r.outputs[1].real.upper() == 2));
  CHECK((r.outputs[2].real.lower() == -1 && r.outputs[2].real.upper() == 1));
  CHECK((r.outputs[2].err.lower() == 0 && r.outputs[2].err.upper() == 0));  // 0 + x is x exactly
  CHECK(r.outputs[3].real.lower() <= 1.5);
  CHECK(r.outputs[3].real.upper() >= 6);
  CHECK((r.outputs[4].real.lower() == 0 && r.outputs[4].real.upper() == 1));
  CHECK(r.outputs[3].source == -1);  // the driver's tags stay inside its runs
}

namespace {
// A data-dependent loop that never leaves for x < 2 (x + 0 is x): only its
// own guard stops it. Each iteration is an undecided comparison on a path
// as deep as the iteration count, so the exploration's cost grows faster
// than quadratically with the guard.
verify::DriverResult run_loop(int guard, double max_seconds) {
  const std::vector<S> in = {S::input(-1, 3, FP32)};
  verify::DriverOptions opt;
  opt.max_runs = 1000;
  opt.max_seconds = max_seconds;
  return verify::run_kernel(
      [guard](std::span<S> a, std::span<S> b) {
        S x = a[0];
        int it = 0;
        while (x < 2) {
          x = x + 0.0;
          if (++it >= guard) break;
        }
        b[0] = x;
      },
      in, 1, opt);
}
}  // namespace

TEST_CASE("run_kernel: max_seconds bounds the first exploration of a data-dependent loop",
          "[verify][driver][defects]") {
  // 2000 iterations: 26 s with max_seconds = 2 when only the subdivision
  // looked at the clock (1000 runs of paths up to 2000 comparisons deep)
  const auto r = run_loop(2000, 1);
  INFO(r.report.summary() << "\n" << r.outputs[0] << "\n" << r.report.seconds << " s");
  CHECK(r.report.seconds < 4);  // the budget, plus one comparison and the wrap-up
  CHECK(r.report.time_exhausted);
  CHECK(r.report.budget_exhausted);  // unexplored paths: the output is unbounded, as for max_runs
  CHECK(r.report.summary().find("time budget") != std::string::npos);
  // sound: the kernel returns its input (x + 0 is exact)
  std::size_t bad = 0;
  for (double x = -1; x <= 3; x += 1.0 / 64) bad += !encloses(r.outputs[0], exact_value(x), x);
  CHECK(bad == 0);
  // a short loop within the budget: explored completely, nothing reported
  const auto quick = run_loop(8, 30);
  INFO(quick.report.summary() << "\n" << quick.outputs[0]);
  CHECK_FALSE(quick.report.time_exhausted);
  CHECK_FALSE(quick.report.budget_exhausted);
  CHECK(quick.outputs[0].real.upper() == 3);
  CHECK((quick.outputs[0].err.lower() == 0 && quick.outputs[0].err.upper() == 0));
}

TEST_CASE("run_kernel: max_seconds bounds a maxpool without lanes, the unstable pairs' bounds included",
          "[verify][driver][defects]") {
  // 2x2 maxpool of a 4x4 FP32 image, e = 2^-20, no lanes: every combination
  // of the four windows' paths, and a linear program per unstable pair (where
  // the time went: minutes, with max_seconds = 5 ignored)
  const double e = 0x1p-20;
  std::vector<S> in;
  for (int i = 0; i < 16; ++i) in.push_back(S::input(-1, 1, -e, e, FP32));
  auto maxpool = [](std::span<S> img, std::span<S> out) {
    for (int r = 0; r < 4; r += 2)
      for (int c = 0; c < 4; c += 2) {
        S m = -INFINITY;
        for (int dr = 0; dr < 2; ++dr)
          for (int dc = 0; dc < 2; ++dc) {
            S v = img[static_cast<std::size_t>((r + dr) * 4 + c + dc)];
            if (v > m) m = v;
          }
        out[static_cast<std::size_t>((r / 2) * 2 + c / 2)] = m;
      }
  };
  verify::DriverOptions opt;
  opt.max_seconds = 1;
  const auto res = verify::run_kernel(maxpool, in, 4, opt);
  INFO(res.report.summary() << "\n" << res.outputs[0] << "\n" << res.report.seconds << " s");
  CHECK(res.report.seconds < 4);
  CHECK(res.report.time_exhausted);
  // sound on sampled executions (unbounded where unexplored)
  symerr::test::InputSampler gen(5, FP32, e);
  std::size_t bad = 0;
  for (std::size_t t = 0; t < symerr::test::scaled(2000, 200); ++t) {
    std::vector<symerr::test::Sample> x;
    for (int i = 0; i < 16; ++i) x.push_back(gen.next());
    for (int w = 0; w < 4; ++w) {
      const int r = (w / 2) * 2, c = (w % 2) * 2;
      mpq_class real = x[static_cast<std::size_t>(r * 4 + c)].real;
      double fp = x[static_cast<std::size_t>(r * 4 + c)].computed;
      for (int k : {r * 4 + c + 1, (r + 1) * 4 + c, (r + 1) * 4 + c + 1}) {
        real = std::max(real, x[static_cast<std::size_t>(k)].real);
        fp = std::max(fp, x[static_cast<std::size_t>(k)].computed);
      }
      bad += !encloses(res.outputs[static_cast<std::size_t>(w)], real, fp);
    }
  }
  CHECK(bad == 0);
}

// Affine inputs made by separate input() calls are independent under the
// driver, as in the Interval domain; one input element read twice is one
// quantity. (Copies of ONE Affine value passed as two elements — the fill
// constructor `std::vector<SA>(n, SA::input(...))` — are one quantity by the
// driver's documented design: test_driver_subdivision.cpp, "correlated Affine
// inputs stay exact".)
TEST_CASE("run_kernel, Affine: separate inputs are independent, one element used twice is one quantity",
          "[verify][driver][defects]") {
  AffineContext ctx;
  AffineScope scope(ctx);
  const std::vector<SA> in = {SA::input(-1, 1, FP32), SA::input(-1, 1, FP32)};
  for (const std::size_t boxes : {std::size_t{1}, std::size_t{16}}) {
    verify::DriverOptions opt;
    opt.max_boxes = boxes;
    const auto r = verify::run_kernel<Affine>(
        [](std::span<SA> x, std::span<SA> y) {
          y[0] = x[0] - x[1];
          y[1] = x[0] - x[0];
        },
        in, 2, opt);
    INFO(boxes << " boxes: " << r.report.summary() << "\n" << r.outputs[0] << "\n" << r.outputs[1]);
    CHECK((r.outputs[0].real.lower() == -2 && r.outputs[0].real.upper() == 2));
    CHECK((r.outputs[1].real.lower() == 0 && r.outputs[1].real.upper() == 0));
    CHECK((r.outputs[1].err.lower() == 0 && r.outputs[1].err.upper() == 0));
  }
}

// The fill constructor in the Affine domain gives copies of one input (one
// quantity, by design): the report counts them and names the first, so the
// trap (a softmax of copies: every output 0.5, found by a new-user tryout) shows.
TEST_CASE("run_kernel, Affine: copies of one input element are reported", "[verify][driver][defects]") {
  AffineContext ctx;
  AffineScope scope(ctx);
  auto kernel = [](std::span<SA> x, std::span<SA> y) { y[0] = x[0] - x[1] + x[2]; };
  const std::vector<SA> copies(3, SA::input(-1, 1, FP32));
  const auto r = verify::run_kernel<Affine>(kernel, copies, 1);
  INFO(r.report.summary());
  CHECK(r.report.copied_inputs == 2);
  CHECK(r.report.first_copied_input == 1);
  CHECK(r.report.first_copied_of == 0);
  CHECK_THAT(r.report.summary(), Catch::Contains("input 1 is input 0"));
  const std::vector<SA> separate = {SA::input(-1, 1, FP32), SA::input(-1, 1, FP32), SA::constant(0.5, FP32)};
  const auto s = verify::run_kernel<Affine>(kernel, separate, 1);
  CHECK(s.report.copied_inputs == 0);
  CHECK_THAT(s.report.summary(), !Catch::Contains("copies"));
}

// Two relus of computed values (found by a new-user tryout): u = x0 + x1, v = x0 − x1,
// y0 = relu(u), y1 = relu(v). In FP64 without input error y1 had the bound
// [−2, 1.1e-16] in the Interval domain (y0, FP32 and Affine: one rounding).
// The unstable pair's linear program (conditions 2ε + 2^-53·ε' <= 0 for u and
// for v) met a column whose only positive entry was below the simplex's pivot
// threshold, took it for an unbounded direction and stopped at y = 0, the
// plain difference of the two paths.
TEST_CASE("run_kernel: relus of two computed values are bounded by their roundings (FP64 unstable pairs)",
          "[verify][driver][defects]") {
  const struct {
    FloatFormat F;
    double e;
  } cases[] = {{FP64, 0.0}, {FP64, 1e-12}, {FP32, 0.0}, {FP32, 0x1p-20}};
  auto relu2 = [](auto x0, auto x1, auto& y0, auto& y1) {
    using T = std::decay_t<decltype(x0)>;
    T u = x0 + x1, v = x0 - x1;  // modifiable locals: the driver narrows them
    y0 = u < 0 ? T(0) : u;
    y1 = v < 0 ? T(0) : v;
  };
  for (const auto& c : cases) {
    INFO(c.F.name << " e = " << c.e);
    const std::vector<S> in = {S::input(-1, 1, -c.e, c.e, c.F), S::input(-1, 1, -c.e, c.e, c.F)};
    const auto r = verify::run_kernel(
        [&](std::span<S> x, std::span<S> y) {
          S y0, y1;
          relu2(x[0], x[1], y0, y1);
          y[0] = y0;
          y[1] = y1;
        },
        in, 2);
    INFO(r.report.summary() << "\n" << r.outputs[0] << "\n" << r.outputs[1]);
    // sound: exact executions, a third of them with x0 ≈ ±x1 (u or v in the band)
    symerr::test::InputSampler gen(97, c.F, c.e);
    std::size_t bad = 0;
    double observed = 0;
    const std::size_t trials = symerr::test::scaled(30000, 3000);
    for (std::size_t t = 0; t < trials; ++t) {
      const auto a = gen.next();
      auto b = gen.next();
      if (t % 3 == 1) b = a;
      if (t % 3 == 2) b = {-a.real, -a.computed};
      if (t % 3 != 0 && c.e > 0) {  // the same computed tie, b's real value within e of it
        b.real = exact_value(b.computed) + exact_value(c.e) * mpq_class(gen.pick(-4, 4), 4);
        if (b.real > 1 || b.real < -1) b.real = exact_value(b.computed);
      }
      mpq_class ry0, ry1;
      relu2(a.real, b.real, ry0, ry1);
      double f0 = 0, f1 = 0;
      if (c.F.precision == 24) {
        float g0 = 0, g1 = 0;
        relu2(static_cast<float>(a.computed), static_cast<float>(b.computed), g0, g1);
        f0 = g0, f1 = g1;
      } else {
        relu2(a.computed, b.computed, f0, f1);
      }
      if (!encloses(r.outputs[0], ry0, f0) || !encloses(r.outputs[1], ry1, f1)) ++bad;
      observed = std::max({observed, std::fabs(mpq_class(exact_value(f0) - ry0).get_d()),
                           std::fabs(mpq_class(exact_value(f1) - ry1).get_d())});
    }
    CHECK(bad == 0);
    // tight, both outputs alike: 2e plus half an ulp of the sums' largest
    // binade, [1, 2) without input error (2^-53 in FP64, 2^-24 in FP32: the
    // true maximum), [2, 4) with it (computed sums reach 2 + 2e); the old
    // bound of y1 in FP64 was 2
    const int p = static_cast<int>(c.F.precision);
    const double truth = 2 * c.e + std::ldexp(1.0, c.e > 0 ? 1 - p : -p);
    for (const S& y : r.outputs) {
      CHECK(mag(y.err) <= truth * (1 + 1e-9));
      CHECK(y.real.lower() >= 0);  // the narrowed locals: a relu's real value is never negative
    }
    CHECK(observed >= 0.5 * truth);
  }
}
