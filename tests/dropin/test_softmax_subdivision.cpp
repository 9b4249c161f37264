// Softmax of 4 FP64 values on the whole box [-1, 1]^4, e = 0, running
// maximum written with `if`, in the Affine domain through the driver with
// automatic subdivision (split the widest dimension): sound against exact
// executions (glibc exp in binary64 against a 256-bit MPFR reference), and
// within 2x of the largest error of an actual execution (issue-14 target).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include <mpfr.h>

#include <symerr/elementary.hpp>
#include <symerr/kernels/softmax.hpp>
#include <symerr/verify/symbolic/driver.hpp>

#include "test_scale.hpp"

using namespace symerr;

namespace {

using kernels::softmax_if;

// The error f − r of output i of one execution (exact inputs x, e = 0), as a
// double interval [lo, hi] that contains it (256-bit reference, widened by
// 2^-200 and rounded outward).
struct Observed {
  double computed, lo, hi;
};
Observed error_of(const std::vector<double>& x, std::size_t i) {
  std::vector<double> y(x.size());
  softmax_if(x.data(), y.data(), x.size());
  mpfr_t t, s, ei;
  mpfr_inits2(256, t, s, ei, static_cast<mpfr_ptr>(nullptr));
  mpfr_set_ui(s, 0, MPFR_RNDN);
  for (std::size_t k = 0; k < x.size(); ++k) {
    mpfr_set_d(t, x[k], MPFR_RNDN);
    mpfr_exp(t, t, MPFR_RNDN);
    if (k == i) mpfr_set(ei, t, MPFR_RNDN);
    mpfr_add(s, s, t, MPFR_RNDN);
  }
  mpfr_div(t, ei, s, MPFR_RNDN);
  mpfr_d_sub(t, y[i], t, MPFR_RNDN);
  const double slack = std::ldexp(1.0, -200);
  const double lo = mpfr_get_d(t, MPFR_RNDD) - slack, hi = mpfr_get_d(t, MPFR_RNDU) + slack;
  mpfr_clears(t, s, ei, static_cast<mpfr_ptr>(nullptr));
  return {y[i], lo, hi};
}

}  // namespace

TEST_CASE("softmax of 4 (if-maximum) FP64 on [-1,1]^4, e = 0: Affine driver with subdivision, sound and within 2x",
          "[dropin][driver][subdivision][softmax]") {
  using SA = SymbolicDomainError<Affine>;
  AffineContext ctx;
  AffineScope scope(ctx);
  std::vector<SA> in;
  for (int i = 0; i < 4; ++i) in.push_back(SA::input(-1, 1, FP64));
  verify::DriverOptions opt;
  // measured: 1.83x the witness below with 1357 boxes (1.5 s); the
  // sanitizer run (scaled down) checks soundness on fewer boxes
  const bool full = !symerr::test::scaled_down();
  opt.max_boxes = full ? 1400 : 100;
  opt.split_candidates = 1;
  const auto r = verify::run_kernel<Affine>([](std::span<SA> x, std::span<SA> y) { softmax_if(x.data(), y.data(), 4); },
                                            in, 4, opt);
  INFO(r.report.summary());
  CHECK_FALSE(r.report.budget_exhausted);
  CHECK(r.report.input_boxes >= (full ? 1000u : 50u));
  double bound = 0;
  for (const SA& y : r.outputs) bound = std::max(bound, mag(y.err));
  // a witness found by hill climbing (bench/bench_affine_examples.cpp):
  // its error 2.2759e-16 is a lower bound of the true maximum
  const std::vector<double> witness{0x1.add8c95350f22p-1, -0x1.e480cc7d0c4cdp-1, -0x1.96e4a67bc9a49p-1,
                                    -0x1.a51edbe9d6295p-1};
  std::mt19937_64 rng(77);
  std::uniform_real_distribution<double> u(-1, 1);
  double observed = 0;
  std::size_t bad = 0;
  const std::size_t trials = static_cast<std::size_t>(4000 * symerr::test::test_scale());
  for (std::size_t t = 0; t <= trials; ++t) {
    std::vector<double> x = witness;
    if (t > 0)
      for (double& v : x) v = u(rng);
    if (t % 3 == 1) x[1] = x[0];  // ties of the running maximum
    for (std::size_t i = 0; i < 4; ++i) {
      const auto [f, lo, hi] = error_of(x, i);
      observed = std::max({observed, std::fabs(lo), std::fabs(hi)});
      if (!(r.outputs[i].err.lower() <= lo && hi <= r.outputs[i].err.upper()) || !contains(r.outputs[i].fp, f)) ++bad;
    }
  }
  INFO("bound " << bound << ", observed " << observed);
  CHECK(bad == 0);
  CHECK(observed >= 2.27e-16);  // the witness
  if (full) CHECK(bound <= 2 * observed);
}

// The same softmax with the running maximum written max(m, x[i])
// (kernels::softmax), in the Affine domain on the whole box without
// subdivision, n = 4 and 16, e = 0 and 1e-12. The maximum is recorded
// (x_i − m <= 0: exp(x_i − m) in [e^-2, 1]) and each quotient is a part over
// its whole (exp(x_i − m) / Σ_j exp(x_j − m), the sum's other terms at least
// (n − 1)·e^-2), so the real range of an output is exact: at most
// 1/(1 + (n − 1)e^-2) (0.7112 for 4, 0.3300 for 16); without the recorded
// maximum and sum they are 12.4 and 3.27, err 1.31e-14 / 7.83e-15 (e = 0) and
// 5.46e-11 / 1.37e-11 (e = 1e-12). Sound against exact executions (256-bit
// MPFR reference of real and err) at uniform points, ties and the corners
// where one output is largest.
TEST_CASE("softmax (max form) FP64 on the whole box [-1,1]^n, Affine, unsplit: exact real ranges, sound",
          "[dropin][softmax][affine]") {
  using SA = SymbolicDomainError<Affine>;
  const struct {
    std::size_t n;
    // measured: 5.81e-16, 5.013e-13, 6.25e-16, 4.435e-13 (the part over its
    // whole with the relative errors as forms and the sum's roundings weighed
    // by the numerator's share; 7.90e-16, 2.85e-12, 8.06e-16 and 1.32e-12
    // without them)
    double e, ceiling;
  } cases[] = {{4, 0.0, 6.0e-16}, {4, 1e-12, 5.1e-13}, {16, 0.0, 6.4e-16}, {16, 1e-12, 4.5e-13}};
  for (const auto& c : cases) {
    INFO("n = " << c.n << ", e = " << c.e);
    AffineContext ctx;
    AffineScope scope(ctx);
    std::vector<SA> in;
    for (std::size_t i = 0; i < c.n; ++i) in.push_back(SA::input(-1, 1, -c.e, c.e, FP64));
    std::vector<SA> y(c.n);
    kernels::softmax(in.data(), y.data(), c.n);
    const double top = 1 / (1 + static_cast<double>(c.n - 1) * std::exp(-2.0));
    double bound = 0;
    for (const SA& v : y) {
      bound = std::max(bound, mag(v.err));
      CHECK(v.real.upper() <= top * (1 + 1e-9));
      CHECK(v.real.lower() >= 0);
    }
    CHECK(bound <= c.ceiling);
    std::mt19937_64 rng(5 + c.n);
    std::uniform_real_distribution<double> u(0, 1);
    std::size_t bad = 0;
    const std::size_t trials = symerr::test::scaled(3000, 300);
    std::vector<double> x(c.n), err(c.n), f(c.n);
    mpfr_t t, s, m;
    mpfr_inits2(256, t, s, m, static_cast<mpfr_ptr>(nullptr));
    std::vector<mpfr_t> ex(c.n);
    for (auto& v : ex) mpfr_init2(v, 256);
    for (std::size_t k = 0; k < trials; ++k) {
      const std::size_t big = rng() % c.n;
      for (std::size_t i = 0; i < c.n; ++i) {
        x[i] = k % 3 == 0 ? 2 * u(rng) - 1 : (i == big ? 1 - 1e-3 * u(rng) : -1 + 1e-3 * u(rng));
        err[i] = c.e * (u(rng) < 0.5 ? -1 : 1);
        if (std::fabs(x[i] - err[i]) > 1) err[i] = -err[i];
      }
      if (k % 3 == 2) x[1] = x[0], err[1] = -err[0];  // a computed tie of the maximum, reals apart by 2e
      kernels::softmax(x.data(), f.data(), c.n);
      mpfr_set_ui(s, 0, MPFR_RNDN);
      for (std::size_t i = 0; i < c.n; ++i) {  // real inputs x − err (exact at 256 bits); exp, sum
        mpfr_set_d(ex[i], x[i], MPFR_RNDN);
        mpfr_sub_d(ex[i], ex[i], err[i], MPFR_RNDN);
        mpfr_exp(ex[i], ex[i], MPFR_RNDN);
        mpfr_add(s, s, ex[i], MPFR_RNDN);
      }
      for (std::size_t i = 0; i < c.n; ++i) {
        mpfr_div(t, ex[i], s, MPFR_RNDN);
        const double slack = std::ldexp(1.0, -200);
        const double rlo = mpfr_get_d(t, MPFR_RNDD) - slack, rhi = mpfr_get_d(t, MPFR_RNDU) + slack;
        mpfr_d_sub(m, f[i], t, MPFR_RNDN);
        const double elo = mpfr_get_d(m, MPFR_RNDD) - slack, ehi = mpfr_get_d(m, MPFR_RNDU) + slack;
        if (!(y[i].real.lower() <= rlo && rhi <= y[i].real.upper()) || !(y[i].err.lower() <= elo && ehi <= y[i].err.upper()) ||
            !contains(y[i].fp, f[i]))
          ++bad;
      }
    }
    for (auto& v : ex) mpfr_clear(v);
    mpfr_clears(t, s, m, static_cast<mpfr_ptr>(nullptr));
    CHECK(bad == 0);
  }
}

// A softmax of two *computed* scores (attention: s_j = q·k_j / √4), FP32,
// q, k_0, k_1 in [-1, 1]^4, Affine, unsplit. y_0 = σ(s_0 − s_1) with
// s_0 − s_1 = q·(k_0 − k_1)/2 in [−4, 4], so its real range is exactly
// [σ(−4), σ(4)]: the recorded maximum and sum give it (without them
// [0.00017, 1364] and err ±2.4e-3; the Interval domain gives
// [0.00017, 1490]). Sound against exact executions (scores exact, exp and
// the quotient at 300 bits) at uniform points, corners ±1 and ties k_0 = ±k_1.
TEST_CASE("softmax of two computed attention scores, FP32, Affine: exact real range, sound",
          "[dropin][softmax][affine]") {
  using SA = SymbolicDomainError<Affine>;
  AffineContext ctx;
  AffineScope scope(ctx);
  constexpr int d = 4;
  std::vector<SA> q, k0, k1;
  for (int i = 0; i < d; ++i) {
    q.push_back(SA::input(-1, 1, FP32));
    k0.push_back(SA::input(-1, 1, FP32));
    k1.push_back(SA::input(-1, 1, FP32));
  }
  auto scores = [](const auto* qv, const auto* a, const auto* b, auto* s) {
    for (int i = 0; i < d; ++i) s[0] = s[0] + qv[i] * a[i], s[1] = s[1] + qv[i] * b[i];
    s[0] = s[0] / 2.0f, s[1] = s[1] / 2.0f;
  };
  SA s[2] = {SA(0.0f), SA(0.0f)}, y[2];
  scores(q.data(), k0.data(), k1.data(), s);
  kernels::softmax(s, y, 2);
  const double lo = 1 / (1 + std::exp(4.0)), hi = 1 / (1 + std::exp(-4.0));
  for (const SA& v : y) {
    INFO(v);
    CHECK(v.real.lower() >= lo * (1 - 1e-9));
    CHECK(v.real.upper() <= hi * (1 + 1e-9));
    CHECK(mag(v.err) <= 2e-6);  // measured 1.64e-6 (without the records: 2.4e-3)
  }
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<float> u(-1, 1);
  std::size_t bad = 0;
  mpfr_t a, b, t, e0, e1, sum;
  mpfr_inits2(300, a, b, t, e0, e1, sum, static_cast<mpfr_ptr>(nullptr));
  const std::size_t trials = symerr::test::scaled(20000, 2000);
  for (std::size_t n = 0; n < trials; ++n) {
    float qf[d], kf0[d], kf1[d];
    for (int i = 0; i < d; ++i) {
      const bool corner = n % 4 == 0;
      qf[i] = corner ? (rng() % 2 ? 1.f : -1.f) : u(rng);
      kf0[i] = corner ? (rng() % 2 ? 1.f : -1.f) : u(rng);
      kf1[i] = n % 4 == 1 ? kf0[i] : corner && rng() % 2 ? -kf0[i] : u(rng);
    }
    float sf[2] = {0, 0}, yf[2];
    scores(qf, kf0, kf1, sf);
    kernels::softmax(sf, yf, 2);
    mpfr_set_ui(a, 0, MPFR_RNDN);
    mpfr_set_ui(b, 0, MPFR_RNDN);
    for (int i = 0; i < d; ++i) {  // exact: products of floats and their sums fit in 300 bits
      mpfr_set_d(t, qf[i], MPFR_RNDN);
      mpfr_mul_d(t, t, kf0[i], MPFR_RNDN);
      mpfr_add(a, a, t, MPFR_RNDN);
      mpfr_set_d(t, qf[i], MPFR_RNDN);
      mpfr_mul_d(t, t, kf1[i], MPFR_RNDN);
      mpfr_add(b, b, t, MPFR_RNDN);
    }
    mpfr_div_ui(a, a, 2, MPFR_RNDN);
    mpfr_div_ui(b, b, 2, MPFR_RNDN);
    mpfr_exp(e0, a, MPFR_RNDN);
    mpfr_exp(e1, b, MPFR_RNDN);
    mpfr_add(sum, e0, e1, MPFR_RNDN);
    for (int o = 0; o < 2; ++o) {
      mpfr_div(t, o ? e1 : e0, sum, MPFR_RNDN);
      const double slack = std::ldexp(1.0, -200);
      const double rlo = mpfr_get_d(t, MPFR_RNDD) - slack, rhi = mpfr_get_d(t, MPFR_RNDU) + slack;
      mpfr_d_sub(t, yf[o], t, MPFR_RNDN);
      const double elo = mpfr_get_d(t, MPFR_RNDD) - slack, ehi = mpfr_get_d(t, MPFR_RNDU) + slack;
      if (!(y[o].real.lower() <= rlo && rhi <= y[o].real.upper()) || !(y[o].err.lower() <= elo && ehi <= y[o].err.upper()) ||
          !contains(y[o].fp, static_cast<double>(yf[o])))
        ++bad;
    }
  }
  mpfr_clears(a, b, t, e0, e1, sum, static_cast<mpfr_ptr>(nullptr));
  CHECK(bad == 0);
}
