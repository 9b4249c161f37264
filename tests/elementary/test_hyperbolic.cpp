// sinh, cosh, asinh, acosh and atanh on SymbolicDomainError (operators Sinh,
// Cosh, Asinh, Acosh, Atanh): soundness against MPFR (the real value at a
// 4096-bit input, rounded outward at 256 bits) over random boxes in every
// format and four domains — tiny arguments and signed zeros, boxes at and
// across the overflow thresholds of sinh and cosh, acosh's end 1, atanh's
// poles ±1 — under a correctly rounded and a 3-ulp implementation taken at
// its extremes; tightness twins (the rounding within 5% of the enumerated
// FP16 maximum, the propagated error: sinh and cosh's identities to 1e-12,
// the mean value within 2^-7); a planted bug; IEEE special values.
#include <catch2/catch.hpp>

#include <cfenv>
#include <cmath>
#include <limits>

#include <mpfr.h>

#include <symerr/domains/affine.hpp>
#include <symerr/domains/interval.hpp>
#include <symerr/domains/mpfr_interval.hpp>
#include <symerr/domains/rational_interval.hpp>
#include <symerr/domains/symbolic_interval.hpp>
#include <symerr/elementary.hpp>

#include "elementary/unary_function_tests.hpp"
#include "test_scale.hpp"

using namespace symerr;
using test::UnaryFn;

namespace {

const FloatFormat kFormats[] = {FP16, BF16, FP32, FP64};
// sinh, cosh: 1 and the overflow thresholds of FP16, FP32 / BF16, FP64
const UnaryFn kSinh{"sinh", OpId::Sinh, mpfr_sinh, {1.0, -1.0, 11.78, -89.42, 710.48}};
const UnaryFn kCosh{"cosh", OpId::Cosh, mpfr_cosh, {1.0, -1.0, -11.78, 89.42, -710.48}};
const UnaryFn kAsinh{"asinh", OpId::Asinh, mpfr_asinh, {1.0, -1.0, 1e10}};
const UnaryFn kAcosh{"acosh", OpId::Acosh, mpfr_acosh, {1.0, 2.0}};
const UnaryFn kAtanh{"atanh", OpId::Atanh, mpfr_atanh, {1.0, -1.0, 0.5}};

}  // namespace

TEMPLATE_TEST_CASE("sinh, cosh, asinh, acosh, atanh are sound (MPFR, random boxes, every format)",
                   "[elementary][hyperbolic]", Interval, MpfrInterval, RationalInterval, Affine) {
  const int boxes = static_cast<int>(test::scaled(100, 20));
  std::uint64_t seed = 51;
  for (const UnaryFn& fn : {kSinh, kCosh, kAsinh, kAcosh, kAtanh}) {
    long executions = 0;
    test::unary_soundness<TestType>(fn, kFormats, seed++, boxes, executions);
    INFO(fn.name << ": " << executions << " executions");
    CHECK(executions > 4 * boxes * 12 / 4);
  }
}

TEMPLATE_TEST_CASE("sinh, cosh, asinh, acosh, atanh are sound: many boxes", "[elementary][hyperbolic][long]", Interval,
                   Affine) {
  std::uint64_t seed = 151;
  for (const UnaryFn& fn : {kSinh, kCosh, kAsinh, kAcosh, kAtanh}) {
    long executions = 0;
    test::unary_soundness<TestType>(fn, kFormats, seed++, 20000, executions);
    INFO(fn.name << ": " << executions << " executions");
    CHECK(executions > 4 * 20000 * 12 / 4);
  }
}

TEST_CASE("hyperbolic tightness twins: rounding, propagation", "[elementary][hyperbolic]") {
  struct Run {
    const UnaryFn* fn;
    double start;
  };
  // 200 consecutive FP16 inputs each, outputs within one binade
  const Run runs[] = {{&kSinh, 0.3}, {&kSinh, 3.0}, {&kCosh, 0.2}, {&kCosh, 4.0}, {&kAsinh, 0.6},
                      {&kAsinh, 40.0}, {&kAcosh, 2.0}, {&kAcosh, 40.0}, {&kAtanh, 0.1}, {&kAtanh, 0.6}};
  for (const Run& run : runs)
    test::check_rounding_twin(run.fn->mpfr, run.fn->name, run.start,
                              [&](const SymbolicError& x, const AccuracyModel& m) { return (*run.fn)(x, m); });
  // sinh, cosh: exact identities, to 1e-12; the inverses: the mean value
  for (const UnaryFn* fn : {&kSinh, &kCosh}) {
    test::check_propagated_twin(*fn, 1, 1 + 0x1p-10, 1e-12);
    test::check_propagated_twin(*fn, -3, -3 + 0x1p-20, 1e-12);
  }
  for (const UnaryFn* fn : {&kAsinh, &kAtanh}) {
    test::check_propagated_twin(*fn, 0.5, 0.5 + 0x1p-10, 0x1p-7);
    test::check_propagated_twin(*fn, -0.25, -0.25 - 0x1p-12, 0x1p-7);
  }
  test::check_propagated_twin(kAcosh, 2, 2 + 0x1p-10, 0x1p-7);
  test::check_propagated_twin(kAcosh, 1.5, 1.5 - 0x1p-12, 0x1p-7);
}

TEST_CASE("sinh: a planted bug in err is caught by the soundness check", "[elementary][hyperbolic]") {
  test::check_planted_bug(kSinh, 1.5, 1.75, 0x1p-12);
}

TEST_CASE("hyperbolic: IEEE special values, domains, poles, overflow, C names", "[elementary][hyperbolic]") {
  const AccuracyModel cr = AccuracyModel::correctly_rounded();
  // zeros: sinh, asinh, atanh keep the sign; cosh(±0) = 1; acosh(1) = +0
  for (const UnaryFn* fn : {&kSinh, &kAsinh, &kAtanh}) {
    const auto z = (*fn)(SymbolicError::constant(-0.0, FP32), cr);
    CHECK(z.specials.may_be_neg_zero);
  }
  const auto c0 = cosh(SymbolicError::constant(-0.0, FP32), cr);
  CHECK(c0.fp.lower() == 1);
  CHECK(c0.fp.upper() == 1);
  const auto a1 = acosh(SymbolicError::input(1, 1, FP32), cr);
  CHECK(a1.fp.upper() == 0);
  CHECK(a1.specials.may_be_pos_zero);
  CHECK(!a1.specials.may_be_neg_zero);
  // infinities: sinh(−inf) = −inf, cosh(−inf) = +inf, acosh(−inf), atanh(inf) NaN
  CHECK(sinh(SymbolicError::inf(-1, FP32), cr).specials.may_be_neg_inf);
  CHECK(cosh(SymbolicError::inf(-1, FP32), cr).specials.may_be_pos_inf);
  CHECK(asinh(SymbolicError::inf(-1, FP32), cr).specials.may_be_neg_inf);
  CHECK(acosh(SymbolicError::inf(1, FP32), cr).specials.may_be_pos_inf);
  CHECK(acosh(SymbolicError::inf(-1, FP32), cr).specials.may_be_nan);
  CHECK(atanh(SymbolicError::inf(1, FP32), cr).specials.may_be_nan);
  // overflow: sinh of FP32 90 is beyond FP32's range
  const auto big = sinh(SymbolicError::input(80, 90, FP32), cr);
  CHECK(big.specials.may_overflow);
  CHECK(big.specials.may_be_pos_inf);
  CHECK(big.specials.may_be_finite);
  // … rounded toward zero (downward) it is the largest finite value, as glibc's sinhf,
  // coshf and expf return it; the twin: to nearest it is +inf only
  for (const RoundingMode mode : {RoundingMode::Downward, RoundingMode::TowardZero, RoundingMode::NearestEven}) {
    const auto x90 = SymbolicError::input(89.5, 90, 0, 0, FP32, mode);
    const double fmax = FP32.max_finite();
    for (const auto& z : {sinh(x90), cosh(x90), exp(x90), sinh(x90, cr)}) {
      INFO(z);
      CHECK(z.specials.may_be_finite == (mode != RoundingMode::NearestEven));
      CHECK((z.specials.may_be_finite && contains(z.fp, fmax)) == (mode != RoundingMode::NearestEven));
    }
    const auto neg = sinh(-x90);
    CHECK((neg.specials.may_be_finite && contains(neg.fp, -fmax)) == (mode == RoundingMode::TowardZero));
  }
  {
    volatile float w = 89.75f;  // volatile: no constant folding
    const int saved = std::fegetround();
    std::fesetround(FE_DOWNWARD);
    const float s = sinhf(w), c = coshf(w), e = expf(w);
    std::fesetround(saved);
    CHECK(s == std::numeric_limits<float>::max());
    CHECK(c == std::numeric_limits<float>::max());
    CHECK(e == std::numeric_limits<float>::max());
  }
  // atanh's poles: ±1 give ±inf, beyond is NaN, the real is undefined there
  const auto pole = atanh(SymbolicError::input(0.5, 1, FP32), cr);
  CHECK(pole.specials.may_be_pos_inf);
  CHECK(!pole.specials.may_be_nan);
  CHECK(pole.specials.may_be_undefined);
  CHECK(pole.fp.upper() < 10);  // atanh(1 − 2^-24) = 8.66
  const auto beyond = atanh(SymbolicError::input(-2, -1, FP32), cr);
  CHECK(beyond.specials.may_be_nan);
  CHECK(beyond.specials.may_be_neg_inf);
  CHECK(!beyond.specials.may_be_finite);
  const auto below = acosh(SymbolicError::input(0, 0.5, FP32), cr);
  CHECK(below.specials.may_be_nan);
  CHECK(!below.specials.may_be_finite);
  // C names and unqualified calls
  const auto x = SymbolicError::input(0.25, 0.75, -1e-6, 1e-6, FP32);
  const auto y = SymbolicError::input(1.25, 3, -1e-6, 1e-6, FP32);
  CHECK(sinhf(x).err.upper() == sinh(x).err.upper());
  CHECK(coshf(x).err.upper() == cosh(x).err.upper());
  CHECK(asinhl(x).err.upper() == asinh(x).err.upper());
  CHECK(acoshf(y).err.upper() == acosh(y).err.upper());
  CHECK(atanhf(x).err.upper() == atanh(x).err.upper());
  CHECK(operator_info(OpId::Sinh).has(kOdd));
  CHECK(!operator_info(OpId::Cosh).has(kOdd));
  CHECK(find_operator("atanh") == &operator_info(OpId::Atanh));
  CHECK(AccuracyModel::glibc_x86_64().bound(OpId::Sinh, FP64, RoundingMode::Downward).ulps == 3);
  CHECK(AccuracyModel::glibc_x86_64().bound(OpId::Acosh, FP32, RoundingMode::NearestEven).ulps == 3);
}

TEST_CASE("glibc's sinhf, coshf, acoshf, acosh beyond their documented bounds: witnesses", "[elementary][hyperbolic]") {
  // glibc 2.36 documents sinhf 3 ulps (directed), coshf 2 (directed), acoshf 2,
  // acosh 2; sweeps against MPFR found more at these inputs
  using Case = test::LibmCase<float>;
  for (const Case& w : {Case{&kSinh, sinhf, 0x1.facfbp-3f, FE_UPWARD, RoundingMode::Upward, 3, 3.146},
                        Case{&kCosh, coshf, -0x1.6351fap+6f, FE_UPWARD, RoundingMode::Upward, 2, 2.853},
                        Case{&kAcosh, acoshf, 0x1.01cb98p+0f, FE_TONEAREST, RoundingMode::NearestEven, 2, 2.0001},
                        Case{&kAcosh, acoshf, 0x1.01dc8p+0f, FE_UPWARD, RoundingMode::Upward, 2, 3.027}})
    test::check_libm_case(w);
  test::check_libm_case(test::LibmCase<double>{&kAcosh, ::acosh, 0x1.01f9f2788287ap+0, FE_TOWARDZERO,
                                               RoundingMode::TowardZero, 2, 2.892});
}

TEST_CASE("hyperbolic in Affine: f(x) − f(x) is exactly 0", "[elementary][hyperbolic]") {
  const test::AffineSelfDifference p;
  using SA = test::AffineSelfDifference::SA;
  const SA &a = p.a, &c = p.c;
  const SA b = SA::input(1.25, 3, -1e-6, 1e-6, FP32);
  p.check_zero({SA(sinh(a) - sinh(a)), SA(cosh(a) - cosh(a)), SA(asinh(a) - asinh(a)), SA(atanh(a) - atanh(a)),
                SA(acosh(b) - acosh(b)), SA(cosh(c) - cosh(c)), SA(sinh(c) - sinh(c))});
  const auto x = SymbolicError::input(0.25, 0.75, -1e-6, 1e-6, FP32);
  CHECK(width((sinh(x) - sinh(x)).err) > 0);  // the Interval twin
}
