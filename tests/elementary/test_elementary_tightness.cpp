// Tightness twins of the soundness tests: the enclosures are not "anything".
//  * point inputs with zero input error, correctly rounded model: fp is the
//    one correctly rounded value and |err| <= ½ ulp(f(t)) (outward rounding of
//    the double endpoints aside);
//  * FP16 boxes (zero input error): sup |err| is within 5% of the maximum
//    found by enumerating every FP16 input of the box;
//  * a planted bug (err shrunk by a quarter of its width on each side) is
//    caught by the soundness check of tests/elementary.
#include <catch2/catch.hpp>

#include <symerr/domains/affine.hpp>
#include <symerr/domains/interval.hpp>
#include <symerr/domains/symbolic_interval.hpp>
#include <symerr/domains/mpfr_interval.hpp>
#include <symerr/domains/rational_interval.hpp>
#include <symerr/elementary.hpp>

#include "elementary/elementary_oracle.hpp"

using namespace symerr;
using namespace symerr::test;

namespace {

const FloatFormat kFormats[] = {FP16, BF16, FP32, FP64};
constexpr Fn kFunctions[] = {Fn::Exp, Fn::Expm1, Fn::Log, Fn::Log1p, Fn::Tanh,
                             Fn::Sigmoid, Fn::Erf, Fn::Pow, Fn::Sqrt};

// |round(f(t)) − f(t)| at 256 bits, as a double rounded up; nullopt if special.
std::optional<double> rounding_error(Fn f, double t, double c, const FloatFormat& F) {
  if (ieee_special(f, t, c)) return std::nullopt;
  Mp tt(64), ft(256), d(256);
  mpfr_set_d(tt.v, t, MPFR_RNDN);
  eval_mpfr(f, ft.v, tt.v, c, MPFR_RNDN);
  const double y = round_to(ft.v, F, RoundingMode::NearestEven).value;
  if (!std::isfinite(y)) return std::nullopt;
  mpfr_d_sub(d.v, y, ft.v, MPFR_RNDN);
  mpfr_abs(d.v, d.v, MPFR_RNDN);
  return mpfr_get_d(d.v, MPFR_RNDU);
}

double point_argument(Generator& g, Fn f) {
  switch (f) {
    case Fn::Log:
    case Fn::Sqrt: return std::ldexp(1.0 + g.unit(), g.pick(-8, 8));
    case Fn::Log1p: return -0.9 + 10 * g.unit();
    case Fn::Pow: return std::ldexp(1.0 + g.unit(), g.pick(-3, 3));
    default: return (g.unit() * 2 - 1) * 8;
  }
}

template <class D>
void point_tightness(bool sqrt_fp64_only) {
  Generator g(5);
  const AccuracyModel cr = AccuracyModel::correctly_rounded();
  for (const FloatFormat& F : kFormats) {
    for (Fn f : kFunctions) {
      // symerr's sqrt (rules/sqrt.hpp) rounds an outward double enclosure of
      // √t: at FP64 a point input gives two candidates, decided in MPFR
      if ((f == Fn::Sqrt && F == FP64) != sqrt_fp64_only) continue;
      for (int i = 0; i < 200; ++i) {
        const double t = round_to(point_argument(g, f), F, RoundingMode::NearestEven).value;
        const double c = f == Fn::Pow ? 2.5 : 0;
        [[maybe_unused]] DomainScope<D> scope;
        const auto x = SymbolicDomainError<D>::input(t, t, F);
        const auto z = apply(f, x, c, cr);
        Mp tt(64), ft(256);
        mpfr_set_d(tt.v, t, MPFR_RNDN);
        eval_mpfr(f, ft.v, tt.v, c, MPFR_RNDN);
        const double y = round_to(ft.v, F, RoundingMode::NearestEven).value;
        INFO(fn_name(f) << " " << F.name << " t = " << hex(t) << " z = " << z);
        REQUIRE(is_point(z.fp));
        REQUIRE(z.fp.lower() == y);
        const double half = ulp(mpfr_get_d(ft.v, MPFR_RNDZ), F) / 2;
        CHECK(mag(z.err) <= half * (1 + 0x1p-40) + 0x1p-1074);
      }
    }
  }
}

}  // namespace

TEMPLATE_TEST_CASE("point inputs, correctly rounded model: err within half an ulp",
                   "[elementary][tightness]", Interval, MpfrInterval, RationalInterval, Affine) {
  point_tightness<TestType>(false);
}

// sqrt of an FP64 point: the outward double enclosure of √t rounds to two
// candidates; the rule decides the correctly rounded one in MPFR.
TEMPLATE_TEST_CASE("sqrt of FP64 points: one correctly rounded value", "[elementary][tightness]",
                   Interval, MpfrInterval, RationalInterval, Affine) {
  point_tightness<TestType>(true);
}

TEST_CASE("FP16 boxes: sup |err| within 5% of the enumerated maximum", "[elementary][tightness]") {
  const AccuracyModel cr = AccuracyModel::correctly_rounded();
  struct Case {
    Fn f;
    double start;
    double c;
  };
  // 200 consecutive FP16 inputs from `start`, each box's outputs in one binade
  const Case cases[] = {{Fn::Exp, 1.0, 0},       {Fn::Exp, -3.0, 0},     {Fn::Expm1, 0.75, 0},
                        {Fn::Log, 3.0, 0},       {Fn::Log, 300.0, 0},    {Fn::Log1p, 5.0, 0},
                        {Fn::Tanh, 0.5625, 0},   {Fn::Tanh, -0.3125, 0}, {Fn::Sigmoid, 0.25, 0},
                        {Fn::Sigmoid, -2.0, 0},  {Fn::Erf, 0.25, 0},     {Fn::Pow, 1.125, 2.5},
                        {Fn::Pow, 3.0, -1.5},    {Fn::Sqrt, 4.5, 0}};
  for (const Case& k : cases) {
    double t = k.start, hi = k.start, worst = 0;
    for (int i = 0; i < 200; ++i, t = next_up(t, FP16)) {
      hi = t;
      worst = std::max(worst, rounding_error(k.f, t, k.c, FP16).value_or(0));
    }
    const auto x = SymbolicError::input(std::min(k.start, hi), std::max(k.start, hi), FP16);
    const auto z = apply(k.f, x, k.c, cr);
    INFO(fn_name(k.f) << " box [" << k.start << ", " << hi << "] z = " << z << " enumerated max " << worst);
    CHECK(mag(z.err) >= worst);
    CHECK(mag(z.err) <= worst * 1.05);
  }
}

TEMPLATE_TEST_CASE("a planted bug in an err enclosure is caught by the soundness check", "[elementary][tightness]",
                   Interval, Affine) {
  Generator g(11);
  const AccuracyModel cr = AccuracyModel::correctly_rounded();
  const UlpBound b{true, 0.5, ""};
  for (Fn f : kFunctions) {
    const double lo = f == Fn::Log1p ? 0.5 : 1.0, hi = f == Fn::Log1p ? 0.75 : 1.25;
    const Box box{lo, hi, -0x1p-12, 0x1p-12};
    [[maybe_unused]] DomainScope<TestType> scope;
    const auto x = SymbolicDomainError<TestType>::input(box.lo, box.hi, box.elo, box.ehi, FP32);
    auto z = apply(f, x, 2.5, cr);
    const double w = z.err.upper() - z.err.lower();
    z.err = TestType::between(z.err.lower() + w / 4, z.err.upper() - w / 4);  // the bug
    int caught = 0;
    for (int i = 0; i < 2000 && caught == 0; ++i) {
      const auto ex = g.execution(box, x.fp.lower(), x.fp.upper(), FP32, false);
      if (ex && !check_unary(f, 2.5, z, UnaryExecution{ex->r, ex->f}, FP32, b, RoundingMode::NearestEven, 0).empty())
        ++caught;
    }
    INFO(fn_name(f));
    CHECK(caught > 0);
  }
}
