// Outputs that do not depend on an unstable branch keep their own error
// bound. An unstable comparison (its real and computed outcomes differ in
// the band of width e around the switch) makes the driver run the path of
// the real value and the path of the computed value, and bound an output by
// fp on the one minus real on the other. Applied to every output of the
// lane, also those computed the same way on both paths, that gives, after
// `y0 = x0 < 0 ? 0 : x0`, y1 = x1 * x2 on [-1, 1] the bound 2 (against its
// own 2e-6), hypot(x1, x2) 1.41 in both domains. The driver keeps how each
// quantity of a run was made (its
// recipe: operation, operands, constants, format) and recognises an output
// made alike on both paths as one quantity, whose error is its own.
// Checked here: such outputs get the bound of the same kernel without the
// branch (the tightness twin: 2 before), outputs that differ between the
// paths (another operation, another constant, another operand) are still
// bounded as a pair, and every output encloses exact executions (GMP),
// a quarter of them in the unstable band.
#include <catch2/catch.hpp>

#include <algorithm>
#include <vector>

#include <symerr/verify/symbolic/driver.hpp>

#include "dropin/sampling.hpp"

using namespace symerr;

namespace {

constexpr std::size_t kIn = 3, kOut = 7;

// y0: relu of x0 (the unstable branch); y1..y3 made alike on both paths;
// y4..y6 made differently on the two sides of x0 < 0.
template <class T>
void kernel(const T* x, T* y, bool with_branch = true) {
  using std::max;
  if (with_branch) y[0] = x[0] < 0 ? T(0) : x[0];
  else y[0] = x[0];
  y[1] = x[1] * x[2];
  y[2] = T(x[1] * x[1]) - T(x[2] / T(x[1] + T(2)));
  y[3] = T(max(x[1], x[2]) * T(0.5)) + x[2];
  if (with_branch) {
    y[4] = x[0] < 0 ? T(x[1] + x[2]) : T(x[1] - x[2]);       // another operation
    y[5] = x[0] < 0 ? T(x[1] * T(0.5)) : T(x[1] * T(0.25));  // another constant
    y[6] = T(x[0] < 0 ? x[1] : x[2]) * x[1];                 // another operand
  } else {
    y[4] = y[5] = y[6] = T(0);
  }
}

template <class D>
std::vector<SymbolicDomainError<D>> bounds(const FloatFormat& F, double e, bool with_branch) {
  using S = SymbolicDomainError<D>;
  std::vector<S> in;
  for (std::size_t j = 0; j < kIn; ++j) in.push_back(S::input(-1, 1, -e, e, F));
  verify::DriverOptions opt;
  opt.max_boxes = 1;
  const auto r = verify::run_kernel<D>(
      [with_branch](std::span<S> x, std::span<S> y) { kernel(x.data(), y.data(), with_branch); }, in, kOut, opt);
  INFO(r.report.summary());
  CHECK_FALSE(r.report.budget_exhausted);
  if (with_branch && e > 0) CHECK(r.report.unstable_branches > 0);
  return r.outputs;
}

template <class D>
void check(const FloatFormat& F, double e) {
  [[maybe_unused]] test::DomainScope<D> scope;
  INFO(F.name << " e = " << e << (std::is_same_v<D, Affine> ? " Affine" : " Interval"));
  const auto y = bounds<D>(F, e, true);
  const auto plain = bounds<D>(F, e, false);
  // the twin: made alike on both paths, the bound of the kernel without the branch
  for (std::size_t k = 1; k <= 3; ++k) {
    INFO("output " << k << ": " << y[k] << " without the branch: " << plain[k]);
    CHECK(mag(y[k].err) <= mag(plain[k].err) * (1 + 1e-12));
  }
  // soundness: exact executions, in and out of the band
  test::InputSampler gen(2300 + static_cast<std::uint64_t>(F.precision), F, e);
  const std::size_t trials = test::scaled(20000, 1000);
  std::size_t bad = 0, band = 0;
  for (std::size_t t = 0; t < trials; ++t) {
    mpq_class xr[kIn], yr[kOut];
    double xf[kIn], yf[kOut];
    gen.fill(xr, xf, kIn);
    if ((xr[0] < 0) != (xf[0] < 0)) ++band;
    kernel<mpq_class>(xr, yr);
    if (F.precision == 24) {
      float xs[kIn], ys[kOut];
      for (std::size_t j = 0; j < kIn; ++j) xs[j] = static_cast<float>(xf[j]);
      kernel<float>(xs, ys);
      for (std::size_t k = 0; k < kOut; ++k) yf[k] = ys[k];
    } else {
      kernel<double>(xf, yf);
    }
    for (std::size_t k = 0; k < kOut; ++k)
      if (!test::encloses(y[k], yr[k], yf[k])) {
        ++bad;
        UNSCOPED_INFO("output " << k << " " << y[k] << " misses real " << yr[k].get_d() << " computed " << yf[k]
                                << " at x = " << xf[0] << ", " << xf[1] << ", " << xf[2]);
      }
  }
  CHECK(bad == 0);
  if (e > 0) CHECK(band > trials / 50);  // the unstable executions were sampled
}

}  // namespace

TEST_CASE("driver: an output made alike on both paths of an unstable branch keeps its own bound, sound",
          "[verify][driver][same-quantity]") {
  for (const auto& [F, e] : {std::pair{FP32, 0x1p-20}, std::pair{FP64, 1e-12}, std::pair{FP32, 0.0}}) {
    check<Interval>(F, e);
    check<Affine>(F, e);
  }
}

TEST_CASE("driver: elementary functions after an unstable branch keep their own bound",
          "[verify][driver][same-quantity]") {
  // without matching: hypot 1.41 and pow 0.414 after a relu, in both
  // domains (results that are not numbered quantities, or are numbered
  // after the divergence without a way to match them)
  auto run = []<class D>(bool with_branch) {
    using S = SymbolicDomainError<D>;
    [[maybe_unused]] test::DomainScope<D> scope;
    std::vector<S> in(3, S::input(-1, 1, -0x1p-20, 0x1p-20, FP32));
    const auto r = verify::run_kernel<D>(
        [with_branch](std::span<S> x, std::span<S> y) {
          y[0] = with_branch ? (x[0] < 0 ? S(0) : x[0]) : x[0];
          y[1] = hypot(x[1], x[2]);
          y[2] = pow(x[1] * x[1] + 1, 0.5);
          y[3] = exp(x[1]) * x[2];
          y[4] = tanh(fmax(x[1], x[2]));
        },
        in, 5);
    std::vector<double> m;
    for (const S& v : r.outputs) m.push_back(mag(v.err));
    return m;
  };
  const auto a = run.operator()<Interval>(true), b = run.operator()<Interval>(false);
  const auto c = run.operator()<Affine>(true), d = run.operator()<Affine>(false);
  for (std::size_t k = 1; k < 5; ++k) {
    INFO("output " << k << ": Interval " << a[k] << " (without the branch " << b[k] << "), Affine " << c[k]
                   << " (" << d[k] << ")");
    CHECK(a[k] <= b[k] * (1 + 1e-12));
    CHECK(c[k] <= d[k] * (1 + 1e-12));
    CHECK(a[k] < 1e-5);
  }
}
