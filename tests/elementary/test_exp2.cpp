// exp2 on SymbolicDomainError, the operator added through the operator table
// (README, "Architecture"): soundness against MPFR at 256 bits (both
// directions) over random boxes in every format and three domains, under a
// correctly rounded and a k-ulp implementation taken at its extremes; the
// tightness twin (err within 5 % of the enumerated maximum); a planted bug
// the soundness check must catch; the IEEE special values.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>

#include <mpfr.h>

#include <symerr/domains/affine.hpp>
#include <symerr/domains/interval.hpp>
#include <symerr/domains/mpfr_interval.hpp>
#include <symerr/domains/rational_interval.hpp>
#include <symerr/domains/symbolic_interval.hpp>
#include <symerr/elementary.hpp>
#include <symerr/mpfr_state.hpp>

#include "elementary/unary_mpfr_support.hpp"

using namespace symerr;
using Mp = detail::MpfrNumber;

namespace {

const FloatFormat kFormats[] = {FP16, BF16, FP32, FP64};

// One execution: the machine input t (a value of F) and the real input r = t − e.
struct Execution {
  double t, e;
};

// The implementation's result at t under the model: round(2^t) for k = 0.5,
// else the value of F at distance k·ulp below (pick 1) or above (pick 2) 2^t
// (unary_mpfr_support.hpp) — and +inf beyond max finite + k ulps, where no
// finite value is within the bound.
double implementation(double t, const FloatFormat& F, double k, int pick) {
  if (k != 0.5 && pick != 0) {
    Mp x(64, t), v(256), limit(256, F.max_finite());
    mpfr_exp2(v.v, x.v, MPFR_RNDD);
    mpfr_add_d(limit.v, limit.v, k * ulp(F.max_finite(), F), MPFR_RNDN);  // exact at 256 bits
    if (mpfr_cmp(v.v, limit.v) > 0) return INFINITY;
  }
  return test::k_ulp_implementation(mpfr_exp2, t, F, k, pick);
}

// "" if z encloses the execution, else what failed.
template <RealDomain D>
std::string check(const SymbolicDomainError<D>& z, const Execution& ex, double y) {
  Mp r(4096), t(64, ex.t), e(64, ex.e), lo(256), hi(256);
  mpfr_sub(r.v, t.v, e.v, MPFR_RNDN);  // exact at 4096 bits
  mpfr_exp2(lo.v, r.v, MPFR_RNDD);
  mpfr_exp2(hi.v, r.v, MPFR_RNDU);
  if (mpfr_cmp_d(lo.v, z.real.lower()) < 0 || mpfr_cmp_d(hi.v, z.real.upper()) > 0) return "2^r not in real";
  if (std::isinf(y)) return z.specials.may_be_pos_inf ? "" : "+inf not flagged";
  if (!z.specials.may_be_finite || !contains(z.fp, y)) return "y not in fp";
  if (y == 0 && !z.specials.may_be_pos_zero) return "+0 not flagged";
  return test::err_holds(z, y, lo.v, hi.v);  // y − 2^r in err, y/2^r − 1 in rel_err
}

// A random box of F around the regimes of 2^x (overflow, underflow, 0, ±1, moderate).
void random_box(std::mt19937_64& g, const FloatFormat& F, double& lo, double& hi, double& elo, double& ehi) {
  std::uniform_real_distribution<double> u(0, 1);
  const double centres[] = {F.emax + 1.0, double(F.emin), double(F.emin - F.precision + 1), 0, 1, -1, 10, -10};
  const double c = centres[g() % 8] + (u(g) - 0.5) * 4;
  const double w = std::ldexp(u(g), -static_cast<int>(g() % 12));
  lo = round_to(c - w, F, RoundingMode::Upward).value;
  hi = round_to(c + w, F, RoundingMode::Downward).value;
  if (lo > hi) lo = hi = round_to(c, F, RoundingMode::NearestEven).value;
  const double m = std::max({std::fabs(lo), std::fabs(hi), F.min_normal()});
  const double err = g() % 3 == 0 ? 0.0 : m * std::ldexp(u(g), -static_cast<int>(g() % 30));
  elo = -err * u(g);
  ehi = err * u(g);
}


template <RealDomain D>
void soundness(std::uint64_t seed, int boxes, long& executions) {
  test::soundness_loop<D>(
      kFormats, seed, boxes, random_box, [](const auto& x, const AccuracyModel& m) { return exp2(x, m); },
      [](const auto& z, const FloatFormat& F, double t, double e, double k, int pick) {
        const double y = implementation(t, F, k, pick);
        const std::string fault = check(z, Execution{t, e}, y);
        return fault.empty() ? fault : "y = " + std::to_string(y) + ": " + fault;
      },
      executions);
}

}  // namespace

TEMPLATE_TEST_CASE("exp2 is sound (MPFR at 256 bits, random boxes, every format)", "[elementary][exp2]", Interval,
                   MpfrInterval, RationalInterval, Affine) {
  long executions = 0;
  soundness<TestType>(2, 150, executions);
  INFO(executions << " executions");
  CHECK(executions > 4 * 150 * 12 / 4);  // most drawn pairs are executions of their box
}

TEST_CASE("exp2 tightness twin: err within 5 % of the enumerated maximum (FP16 runs)", "[elementary][exp2]") {
  const AccuracyModel cr = AccuracyModel::correctly_rounded();
  for (double start : {1.0, -3.0, 0.3125, 7.0, -0.75}) {  // 200 inputs, outputs in one binade
    double t = start, worst = 0;
    for (int i = 0; i < 200; ++i, t = std::nextafter(t, INFINITY)) {
      t = round_to(t, FP16, RoundingMode::Upward).value;
      Mp x(64, t), v(256), d(256);
      mpfr_exp2(v.v, x.v, MPFR_RNDN);
      mpfr_d_sub(d.v, round_to(v.get(), FP16, RoundingMode::NearestEven).value, v.v, MPFR_RNDN);
      worst = std::max(worst, std::fabs(mpfr_get_d(d.v, MPFR_RNDU)));
    }
    const auto z = exp2(SymbolicError::input(start, t, FP16), cr);
    INFO("box [" << start << ", " << t << "] z = " << z << " enumerated max " << worst);
    CHECK(mag(z.err) >= worst);
    CHECK(mag(z.err) <= worst * 1.05);
  }
  // the propagated part: real 3, fp 3 − 2^−10 gives 2^fp − 2^r = 8·(2^(−2^−10) − 1)
  const auto z = exp2(SymbolicError::input(3, 3, -0x1p-10, -0x1p-10, FP64), cr);
  Mp f(64, 3 - 0x1p-10), lo(256), hi(256);
  mpfr_exp2(lo.v, f.v, MPFR_RNDD);
  mpfr_exp2(hi.v, f.v, MPFR_RNDU);
  mpfr_sub_ui(lo.v, lo.v, 8, MPFR_RNDD);
  mpfr_sub_ui(hi.v, hi.v, 8, MPFR_RNDU);
  INFO("propagated " << z.propagated << " exact " << mpfr_get_d(lo.v, MPFR_RNDN));
  CHECK(mpfr_cmp_d(lo.v, z.propagated.lower()) >= 0);
  CHECK(mpfr_cmp_d(hi.v, z.propagated.upper()) <= 0);
  CHECK(width(z.propagated) < 1e-12 * std::fabs(mpfr_get_d(lo.v, MPFR_RNDN)));
}

TEST_CASE("exp2: a planted bug in err is caught by the soundness check", "[elementary][exp2]") {
  const auto x = SymbolicError::input(1.0, 1.25, -0x1p-12, 0x1p-12, FP32);
  const auto z = test::narrowed_err(exp2(x, AccuracyModel::correctly_rounded()));  // the bug
  CHECK(test::caught_by_execution(1.0, 1.25, 0x1p-12, [&](double t, double e) {
    return check(z, Execution{t, e}, implementation(t, FP32, 0.5, 0));
  }));
}

TEST_CASE("exp2: IEEE special values and the operator-table row", "[elementary][exp2]") {
  const AccuracyModel cr = AccuracyModel::correctly_rounded();
  const auto one = exp2(SymbolicError::input(0, 0, FP32), cr);
  CHECK(one.fp.lower() == 1);
  CHECK(one.fp.upper() == 1);
  CHECK(exp2(SymbolicError::inf(+1, FP32), cr).specials.may_be_pos_inf);
  const auto at_neg_inf = exp2(SymbolicError::inf(-1, FP32), cr);
  CHECK(at_neg_inf.specials.may_be_finite);
  CHECK(contains(at_neg_inf.fp, 0.0));
  CHECK(exp2(SymbolicError::input(128, 129, FP32), cr).specials.may_be_pos_inf);  // overflow
  REQUIRE(find_operator("exp2") != nullptr);
  CHECK(find_operator("exp2")->arity == 1);
  CHECK(elementary_name(OpId::Exp2) == "exp2");
  CHECK(AccuracyModel::glibc_x86_64().bound(OpId::Exp2, FP32, RoundingMode::NearestEven).ulps == 1);
}
