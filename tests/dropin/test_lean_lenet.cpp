// LeNet-5 (lenet5.hpp, one template) on LeanFloat against SymbolicError and
// against exact executions: on one image (kWidth widens it to a box), at
// input error e = 0 and e = 2^-20, the lean type runs where SymbolicError gives a finite
// bound (the softmax's quotient by a sum of exponentials whose fp − err
// reaches 0 while its real value is > 0; exp's operand taken as the lean
// computed range, not widened by the error), with SymbolicError's bound per
// output up to the declared slack; where SymbolicError's result may be
// special the lean type refuses by name. Soundness: every output's lean
// enclosures hold the exact executions at a few concrete points (the real
// program on 256-bit MPFR numbers, transformer_oracle.hpp's Real; the
// computed one in float with glibc's tanhf / expf). Planted divergences fail
// it: the elementary functions' err dropped (the exact executions escape);
// their bridge to SymbolicError without the lean computed range and without
// SymbolicError's real range (at e = 2^-20 the softmax quotient is refused,
// "the divisor's range holds 0"; at e = 0 the lean fp is wider than
// SymbolicError's).
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <random>
#include <stdexcept>
#include <vector>

#include <mpfr.h>

#include <symerr/lean.hpp>

#include "lenet5.hpp"
#include "verify/driver/transformer_oracle.hpp"

namespace symerr::test::transformer {
// The functions the template calls that Real lacks, found by ADL.
inline Real tanh(const Real& a) {
  Real z;
  mpfr_tanh(z.v, a.v, MPFR_RNDN);
  return z;
}
inline Real fmax(const Real& a, const Real& b) { return a > b ? a : b; }
}  // namespace symerr::test::transformer

using namespace symerr;

namespace {

using symerr::test::transformer::Real;

// The declared factor: on one image the lean err bound is at most this many
// times SymbolicError's (measured 5.5 at e = 0, 1.87 at e = 2^-20: the lean
// operands' real range fp − err is wider than SymbolicError's real field, and
// SymbolicError carries relative errors through the softmax's quotient).
constexpr double kLenetSlack = 8;
constexpr double kWidth = 0;  // the input box: image ± kWidth (0: one image)

double pixel(int i, int j) { return ((i * 7 + j * 3) % 9) / 8.0; }  // values of FP32

struct Box {
  std::vector<double> lo, hi;
};
Box image_box() {
  Box b;
  for (int i = 0; i < 32; ++i)
    for (int j = 0; j < 32; ++j) {
      b.lo.push_back(std::max(0.0, pixel(i, j) - kWidth));
      b.hi.push_back(std::min(1.0, pixel(i, j) + kWidth));
    }
  return b;
}

// The lean outputs, or the refusal's message (empty when it ran).
std::string run_lean(const kernels::LenetWeights& w, double e, std::vector<LeanFloat>& y) {
  const Box b = image_box();
  std::vector<LeanFloat> x;
  for (std::size_t k = 0; k < b.lo.size(); ++k) x.push_back(LeanFloat::input(b.lo[k], b.hi[k], -e, e));
  y.assign(10, LeanFloat());
  try {
    kernels::lenet5(x.data(), w, y.data());
  } catch (const std::domain_error& err) {
    return err.what();
  }
  return {};
}
std::vector<SymbolicError> run_full(const kernels::LenetWeights& w, double e) {
  const Box b = image_box();
  std::vector<SymbolicError> x, y(10);
  for (std::size_t k = 0; k < b.lo.size(); ++k) x.push_back(SymbolicError::input(b.lo[k], b.hi[k], -e, e, FP32));
  kernels::lenet5(x.data(), w, y.data());
  return y;
}

bool finite(const SymbolicError& s) { return s.is_finite().tri() == Tri::True && s.is_undef().tri() == Tri::False; }

// One concrete execution: a real input r in the box and the computed input
// f = r + d, a float with |d| <= e; the outputs of both programs.
void execution(const kernels::LenetWeights& w, double e, std::mt19937_64& rng, std::vector<float>& yf,
               std::vector<Real>& yr) {
  const Box b = image_box();
  std::uniform_real_distribution<double> u(0, 1);
  std::vector<float> xf;
  std::vector<Real> xr;
  for (std::size_t k = 0; k < b.lo.size(); ++k) {
    // r in the box (a double), f a float within e of it (r exact: the
    // pixels are values of FP32, d = f − r is exact in double)
    for (;;) {
      const double r = b.lo[k] + (b.hi[k] - b.lo[k]) * u(rng);
      const float f = static_cast<float>(r + (2 * u(rng) - 1) * e);
      if (!(std::fabs(static_cast<double>(f) - r) <= e)) continue;
      xf.push_back(f);
      xr.emplace_back(r);
      break;
    }
  }
  yf.assign(10, 0.0f);
  yr.assign(10, Real());
  kernels::lenet5(xf.data(), w, yf.data());
  kernels::lenet5(xr.data(), w, yr.data());
}

}  // namespace

TEST_CASE("LeNet-5 runs on LeanFloat where SymbolicError does, with its bound, and holds exact executions",
          "[dropin][lean][lenet]") {
  const kernels::LenetWeights w = kernels::lenet_weights(2.0);
  std::mt19937_64 rng(44);
  for (const double e : {0.0, 0x1p-20}) {
    INFO("input error " << e);
    std::vector<LeanFloat> y;
    const std::string refused = run_lean(w, e, y);
    const std::vector<SymbolicError> s = run_full(w, e);
    bool all_finite = true;
    for (const SymbolicError& v : s) all_finite = all_finite && finite(v);
    INFO("lean: " << (refused.empty() ? "ran" : refused));
    // the box is chosen so that SymbolicError's bound is finite: the lean type must run
    REQUIRE(all_finite);
    REQUIRE(refused.empty());
    double worst = 0, largest = 0;
    for (int k = 0; k < 10; ++k) {
      const LeanInterval f = y[k].fp(), er = y[k].err();
      INFO("output " << k << ": lean " << y[k] << "; full fp [" << s[k].fp.lower() << ", " << s[k].fp.upper()
                     << "] err [" << s[k].err.lower() << ", " << s[k].err.upper() << "]");
      // fp inside SymbolicError's; err at most the declared factor kLenetSlack
      // of SymbolicError's (which carries relative errors through the
      // softmax's quotient, the lean type an absolute error over the sum)
      CHECK(s[k].fp.lower() <= f.lo);
      CHECK(f.hi <= s[k].fp.upper());
      const double factor = er.mag() / std::max(std::fabs(s[k].err.lower()), std::fabs(s[k].err.upper()));
      worst = std::max(worst, factor);
      largest = std::max(largest, er.mag());
      CHECK(factor <= kLenetSlack);
    }
    // soundness: exact executions inside the lean enclosures (MPFR's 256-bit
    // roundings: a margin of 2^-200)
    double observed = 0;
    for (int run = 0; run < 2; ++run) {
      std::vector<float> yf;
      std::vector<Real> yr;
      execution(w, e, rng, yf, yr);
      for (int k = 0; k < 10; ++k) {
        Real diff = Real(static_cast<double>(yf[k])) - yr[k];
        const double lo = mpfr_get_d(diff.v, MPFR_RNDD), hi = mpfr_get_d(diff.v, MPFR_RNDU);
        observed = std::max(observed, std::fabs(lo));
        INFO("run " << run << ", output " << k << ": computed " << yf[k] << ", error [" << lo << ", " << hi
                    << "], lean " << y[k]);
        CHECK(y[k].fp().contains(yf[k]));
        CHECK(y[k].err().lo <= hi + 0x1p-200);
        CHECK(lo - 0x1p-200 <= y[k].err().hi);
      }
    }
    std::printf("LeNet-5 on LeanFloat, e = %g: largest |err| bound %.3g, observed %.3g at 2 points; lean err bound / "
                "SymbolicError's at most %.3g\n",
                e, largest, observed, worst);
  }
}
