// The driver's automatic subdivision: results enclose exact executions in
// every domain (Interval, MpfrInterval, RationalInterval, Affine), tightness
// twins (the subdivided bound is within a small factor of the true maximum,
// and tighter than the unsplit one), and a planted bug — a result that
// misses one sub-box — caught by the same check.
#include <catch2/catch.hpp>

#include <algorithm>
#include <vector>

#include <symerr/verify/symbolic/driver.hpp>

#include "dropin/sampling.hpp"

using namespace symerr;

namespace {

std::size_t trials() { return static_cast<std::size_t>(2e4 * symerr::test::test_scale()); }

// A branch on a computed value and a non-linear piece on each side.
template <class T>
T mixed(T a, T b) {
  return a * b < T(0.25) ? T((a - b) * (a + b)) : T(a + T(0.5) * b);
}

template <class D>
verify::BasicDriverResult<D> run_mixed(double e, const verify::DriverOptions& opt) {
  using S = SymbolicDomainError<D>;
  const std::vector<S> in = {S::input(-1, 1, -e, e, FP64), S::input(-1, 1, -e, e, FP64)};  // two inputs
  return verify::run_kernel<D>([](std::span<S> x, std::span<S> y) { y[0] = mixed(x[0], x[1]); }, in, 1, opt);
}

using symerr::test::encloses;

// Exact executions of `mixed` (a third near the switch a*b = 0.25) escaping s;
// max_err: the largest |f − r| seen.
template <class D>
std::size_t escapes(const SymbolicDomainError<D>& s, double e, std::size_t n, double& max_err) {
  symerr::test::InputSampler gen(31, FP64, e);
  std::size_t bad = 0;
  for (std::size_t t = 0; t < n; ++t) {
    symerr::test::Sample a = gen.next(), b = gen.next();
    if (t % 3 == 0 && std::fabs(a.computed) > 0.3) {  // the switch: b near 0.25 / a
      b.computed = 0.25 / a.computed;
      b.real = exact_value(b.computed) - exact_value(e) * mpq_class(gen.pick(-4, 4), 4);
      if (b.real > 1 || b.real < -1) continue;
    }
    const mpq_class real = mixed<mpq_class>(a.real, b.real);
    const double fp = mixed<double>(a.computed, b.computed);
    max_err = std::max(max_err, std::fabs(mpq_class(exact_value(fp) - real).get_d()));
    if (!encloses(s, real, fp)) ++bad;
  }
  return bad;
}

}  // namespace

TEST_CASE("subdivision: sound in every domain, tighter than the whole box", "[verify][driver][subdivision]") {
  verify::DriverOptions opt;
  opt.max_boxes = 64;
  for (double e : {0.0, 1e-12}) {
    INFO("e = " << e);
    const auto whole = run_mixed<Interval>(e, {});
    const auto cut = run_mixed<Interval>(e, opt);
    INFO(cut.report.summary() << "\n" << cut.outputs[0]);
    double max_err = 0;
    CHECK(escapes(cut.outputs[0], e, trials(), max_err) == 0);
    CHECK(cut.report.input_boxes > 1);
    CHECK(cut.report.input_boxes <= 64);
    CHECK(subset(cut.outputs[0].err, whole.outputs[0].err));
    CHECK(mag(cut.outputs[0].err) < mag(whole.outputs[0].err));  // twin: the subdivision tightens
    {
      AffineContext ctx;
      AffineScope scope(ctx);
      const auto a = run_mixed<Affine>(e, opt);
      INFO(a.report.summary());
      double m = 0;
      CHECK(escapes(a.outputs[0], e, trials() / 4, m) == 0);
      CHECK(a.report.input_boxes > 1);
    }
    const auto mp = run_mixed<MpfrInterval>(e, opt);
    const auto rq = run_mixed<RationalInterval>(e, opt);
    double m = 0;
    CHECK(escapes(mp.outputs[0], e, trials() / 10, m) == 0);
    CHECK(escapes(rq.outputs[0], e, trials() / 10, m) == 0);
    if (e == 0) {  // no unstable test: rounding only, within a small factor of the observed maximum
      CHECK(max_err > 0);
      CHECK(mag(cut.outputs[0].err) <= 8 * max_err);
    }
  }
}

namespace {

using SA = SymbolicDomainError<Affine>;

double round16(const mpq_class& q) { return round_to(q, FP16, RoundingMode::NearestEven).value; }

// |fl16((a − b) / fl16(a + b)) − (a − b)/(a + b)| for FP16 a, b (a − b exact).
mpq_class ratio_err(double a, double b) {
  const double s = round16(mpq_class(exact_value(a) + exact_value(b)));
  const double f = round16(mpq_class(exact_value(a - b) / exact_value(s)));
  return abs(mpq_class(exact_value(f) - exact_value(a - b) / (exact_value(a) + exact_value(b))));
}

// The exhaustive maximum over FP16 a, b in [lo, hi] x [1, 2] (grid 2^-10), and its argument.
double ratio_max(double lo, double hi, double& arg_a, double& arg_b) {
  mpq_class worst = -1;
  for (double a = lo; a <= hi; a += 0x1p-10)
    for (double b = 1; b <= 2; b += 0x1p-10) {
      const mpq_class e = ratio_err(a, b);
      if (e > worst) worst = e, arg_a = a, arg_b = b;
    }
  return worst.get_d();
}

verify::BasicDriverResult<Affine> run_ratio(double alo, double ahi, double blo, double bhi,
                                            const verify::DriverOptions& opt) {
  const std::vector<SA> in = {SA::input(alo, ahi, FP16), SA::input(blo, bhi, FP16)};
  return verify::run_kernel<Affine>(
      [](std::span<SA> x, std::span<SA> y) { y[0] = (x[0] - x[1]) / (x[0] + x[1]); }, in, 1, opt);
}

}  // namespace

TEST_CASE("subdivision tightness twin: (a-b)/(a+b) FP16 within 1.02x of the exhaustive maximum, a dropped "
          "sub-box is caught",
          "[verify][driver][subdivision]") {
  AffineContext ctx;
  AffineScope scope(ctx);
  verify::DriverOptions opt;
  opt.max_boxes = 1u << 20;
  opt.max_seconds = 2;  // a cap for slow (sanitizer) builds; the stall rule ends it sooner
  const auto whole = run_ratio(1, 2, 1, 2, {});
  const auto cut = run_ratio(1, 2, 1, 2, opt);
  INFO(cut.report.summary() << "\n" << cut.outputs[0]);
  // exhaustive over a in [1, 1.25] (the maximum is there: the largest quotient
  // magnitude relative to its binade) and every b; checked against the whole box's result
  double a0 = 0, b0 = 0;
  const double max_left = ratio_max(1, 1.25, a0, b0);
  CHECK(max_left > 2.28e-4);  // the exhaustive maximum over all pairs is 2.288e-4
  CHECK(mag(cut.outputs[0].err) >= max_left);
  CHECK(mag(cut.outputs[0].err) <= 1.02 * 2.2888e-4);  // tight
  CHECK(mag(whole.outputs[0].err) > 1.2 * 2.2888e-4);  // and the subdivision is what makes it tight
  // every execution at the maximum's row is enclosed
  std::size_t bad = 0;
  for (double b = 1; b <= 2; b += 0x1p-10) {
    const double s = round16(mpq_class(exact_value(a0) + exact_value(b)));
    const double f = round16(mpq_class(exact_value(a0 - b) / exact_value(s)));
    const mpq_class real = exact_value(a0 - b) / (exact_value(a0) + exact_value(b));
    if (!encloses(cut.outputs[0], real, f)) ++bad;
  }
  CHECK(bad == 0);
  // Planted bug: the hull over the sub-boxes without the one holding the
  // maximum (the quarter of a's range and half of b's range around it).
  const double alo = a0 < 1.125 ? 1.0 : 1.125, blo = b0 < 1.5 ? 1.0 : 1.5;
  std::vector<SA> parts;
  for (double a = 1; a < 2; a += 0.125)
    for (double b = 1; b < 2; b += 0.5)
      if (!(a == alo && b == blo)) parts.push_back(run_ratio(a, a + 0.125, b, b + 0.5, opt).outputs[0]);
  SA dropped = parts[0];
  for (const SA& p : parts) dropped = symerr::detail::join_values(dropped, p);
  const double s = round16(mpq_class(exact_value(a0) + exact_value(b0)));
  const double f = round16(mpq_class(exact_value(a0 - b0) / exact_value(s)));
  const mpq_class real = exact_value(a0 - b0) / (exact_value(a0) + exact_value(b0));
  CHECK(encloses(cut.outputs[0], real, f));
  CHECK_FALSE(encloses(dropped, real, f));  // caught: the dropped sub-box held an execution
}

TEST_CASE("subdivision: budgets are reported and the result stays sound", "[verify][driver][subdivision]") {
  verify::DriverOptions opt;
  opt.max_boxes = 4;
  const auto few = run_mixed<Interval>(1e-12, opt);
  CHECK(few.report.input_boxes <= 4);
  CHECK(few.report.subdivision_budget_exhausted);
  CHECK(few.report.summary().find("subdivision stopped by its budget") != std::string::npos);
  double m = 0;
  CHECK(escapes(few.outputs[0], 1e-12, trials() / 4, m) == 0);
  opt.max_boxes = 1u << 20;
  opt.max_seconds = 0.02;
  const auto timed = run_mixed<Interval>(1e-12, opt);
  CHECK(timed.report.seconds < 1.0);
  CHECK(escapes(timed.outputs[0], 1e-12, trials() / 4, m) == 0);
  opt.max_boxes = 0;
  CHECK_THROWS_AS(run_mixed<Interval>(0, opt), std::invalid_argument);
}

namespace {
// Soft shrink as C writes it: copysign's sign test is unstable near 0, where
// the two programs' results are both 0 once the box is narrower than lambda.
template <class T>
T shrink(T x) {
  return copysign(fdim(fabs(x), 0.2), x);
}
mpq_class shrink_exact(const mpq_class& r) {
  const mpq_class d = abs(r) - exact_value(0.2);
  const mpq_class m = d > 0 ? d : mpq_class(0);
  return r < 0 ? mpq_class(-m) : m;
}
}  // namespace

TEST_CASE("subdivision lane by lane: 8 elementwise lanes as tight as one lane alone, at the cost of one, and a false "
          "lanes statement falls back to the whole box",
          "[verify][driver][subdivision]") {
  using S = SymbolicError;
  constexpr std::size_t n = 8;
  for (const double e : {0.0, 1e-12}) {
    verify::DriverOptions one;
    one.max_boxes = 64;
    const auto single = verify::run_kernel([](std::span<S> x, std::span<S> y) { y[0] = shrink(x[0]); },
                                           std::vector<S>(1, S::input(-1, 1, -e, e, FP64)), 1, one);
    verify::DriverOptions opt = one;
    const std::size_t sizes[] = {n};
    verify::elementwise_lanes(opt, sizes, n);
    const std::vector<S> in(n, S::input(-1, 1, -e, e, FP64));
    const auto lanes = verify::run_kernel(
        [](std::span<S> x, std::span<S> y) {
          for (std::size_t i = 0; i < n; ++i) y[i] = shrink(x[i]);
        },
        in, n, opt);
    INFO("e = " << e << ": one lane " << single.report.summary() << "; 8 lanes " << lanes.report.summary());
    CHECK(lanes.report.lane_subdivision);
    CHECK_FALSE(lanes.report.lanes_violated);
    CHECK_FALSE(lanes.report.budget_exhausted);
    // zipped: 8 lanes cost about what one costs (the whole-box subdivision of
    // 8 dimensions would need 8^k boxes for k splits of each)
    CHECK(lanes.report.runs <= 2 * single.report.runs);
    symerr::test::InputSampler gen(3, FP64, e);
    std::size_t bad = 0;
    double observed = 0;
    for (std::size_t t = 0; t < trials(); ++t) {
      const symerr::test::Sample v = gen.next();
      const std::size_t i = t % n;
      const mpq_class real = shrink_exact(v.real);
      const double fp = shrink(v.computed);
      observed = std::max(observed, std::fabs(mpq_class(exact_value(fp) - real).get_d()));
      if (!encloses(lanes.outputs[i], real, fp)) ++bad;
    }
    CHECK(bad == 0);
    // twins: every lane as tight as the single lane, and within 1.1x of the
    // largest observed error (the unsplit box: 2 (1 − 0.2) = 1.6)
    for (const S& y : lanes.outputs) CHECK(mag(y.err) <= mag(single.outputs[0].err));
    CHECK(mag(lanes.outputs[0].err) <= 1.1 * observed);
    CHECK(mag(lanes.outputs[0].err) < 1e-11);
    // out of runs during the subdivision: the leaves so far (complete, sound),
    // reported as the subdivision's budget, not as unexplored lanes
    verify::DriverOptions few = opt;
    few.max_runs = 12;
    const auto cut = verify::run_kernel(
        [](std::span<S> x, std::span<S> y) {
          for (std::size_t i = 0; i < n; ++i) y[i] = shrink(x[i]);
        },
        in, n, few);
    INFO(cut.report.summary());
    CHECK(cut.report.subdivision_budget_exhausted);
    CHECK_FALSE(cut.report.budget_exhausted);
    CHECK(mag(cut.outputs[0].err) > mag(lanes.outputs[0].err));  // fewer boxes, a wider bound
    CHECK(mag(cut.outputs[0].err) <= 2 * (1 - 0.2) + 1e-9);      // at most the whole box's
    for (std::size_t t = 0; t < trials() / 4; ++t) {
      const symerr::test::Sample v = gen.next();
      if (!encloses(cut.outputs[t % n], shrink_exact(v.real), shrink(v.computed))) ++bad;
    }
    CHECK(bad == 0);
  }
  // a kernel whose output i also reads x[i + 1]: the lanes statement is false
  // (the driver sees it in the output's lane), the driver subdivides the whole
  // box instead, and stays sound
  verify::DriverOptions opt;
  opt.max_boxes = 16;
  const std::size_t sizes[] = {4};
  verify::elementwise_lanes(opt, sizes, 4);
  const std::vector<S> in(4, S::input(-1, 1, FP64));
  auto wrong = [](std::span<S> x, std::span<S> y) {
    for (std::size_t i = 0; i < 4; ++i) y[i] = shrink(x[i]) + 0.25 * x[(i + 1) % 4];
  };
  const auto r = verify::run_kernel(wrong, in, 4, opt);
  INFO(r.report.summary());
  CHECK(r.report.lanes_violated);
  CHECK_FALSE(r.report.lane_subdivision);
  symerr::test::InputSampler gen(4, FP64, 0);
  std::size_t bad = 0;
  for (std::size_t t = 0; t < trials() / 4; ++t) {
    symerr::test::Sample v[4] = {gen.next(), gen.next(), gen.next(), gen.next()};
    for (std::size_t i = 0; i < 4; ++i) {
      const mpq_class real = shrink_exact(v[i].real) + mpq_class(1, 4) * v[(i + 1) % 4].real;
      const double fp = shrink(v[i].computed) + 0.25 * v[(i + 1) % 4].computed;
      if (!encloses(r.outputs[i], real, fp)) ++bad;
    }
  }
  CHECK(bad == 0);
}

// A split never widens a bound: each half's result is met with its parent's
// (both enclose the half's executions). The witness: Affine inputs that are
// one quantity (the caller passes the same value twice). The whole box keeps
// the correlation (x0 − x1 = 0), a sub-box re-creates its inputs as
// independent ones (docs: "Affine contexts"); the hull over the halves
// alone would be x0 − x1 = ±(box width).
TEST_CASE("subdivision never widens the whole box's bound: correlated Affine inputs stay exact",
          "[verify][driver][subdivision]") {
  using SA = SymbolicDomainError<Affine>;
  const double e = 0x1p-20;
  for (const bool lanes : {false, true}) {
    AffineContext ctx;
    AffineScope scope(ctx);
    const SA a = SA::input(-1, 1, -e, e, FP32);
    const std::vector<SA> in = {a, a};
    verify::DriverOptions opt;
    opt.max_boxes = 16;
    if (lanes) opt.input_lanes = {0, 0}, opt.output_lanes = {0, 0};
    const auto res = verify::run_kernel<Affine>(
        [](std::span<SA> x, std::span<SA> y) {
          y[0] = x[0] - x[1];
          y[1] = x[0] * x[1] + x[0];  // subdivision tightens it: the halves are used
        },
        in, 2, opt);
    INFO((lanes ? "lanes: " : "") << res.report.summary() << "\n" << res.outputs[0] << "\n" << res.outputs[1]);
    CHECK(res.report.input_boxes > 1);
    // the twin: exactly 0, as on the whole box (the halves alone: ±2)
    CHECK(res.outputs[0].err.lower() == 0);
    CHECK(res.outputs[0].err.upper() == 0);
    CHECK(res.outputs[0].real.lower() == 0);
    CHECK(res.outputs[0].real.upper() == 0);
    // sound: executions of the one quantity
    symerr::test::InputSampler gen(71, FP32, e);
    std::size_t bad = 0;
    for (std::size_t t = 0; t < symerr::test::scaled(20000, 2000); ++t) {
      const symerr::test::Sample s = gen.next();
      const float f = static_cast<float>(s.computed);
      const float p = f * f;  // FP32, as the kernel computes
      bad += !encloses(res.outputs[0], mpq_class(0), 0.0);
      bad += !encloses(res.outputs[1], s.real * s.real + s.real, static_cast<double>(p + f));
    }
    CHECK(bad == 0);
  }
}
