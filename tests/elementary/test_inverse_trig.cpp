// atan, asin, acos and tan on SymbolicDomainError (operators Atan, Asin, Acos,
// Tan; tan's poles π/2 + kπ, sin and cos are in test_trig.cpp):
// soundness against MPFR (the real value at a 4096-bit input, rounded
// outward at 256 bits) over random boxes in every format and four domains —
// tiny arguments and signed zeros, boxes at and across the domain's ends ±1
// (NaN, undefined reals), huge arguments (atan → ±π/2) — under a correctly
// rounded and a 3-ulp implementation taken at its extremes; tightness twins
// (the rounding within 5% of the enumerated FP16 maximum, the mean-value
// propagated error within 2^-7 of the exact one); a planted bug; IEEE special
// values; glibc's accuracy against its model.
#include <catch2/catch.hpp>

#include <cfenv>
#include <cmath>

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
const UnaryFn kAtan{"atan", OpId::Atan, mpfr_atan, {1.0, -1.0, 1e4}};
const UnaryFn kAsin{"asin", OpId::Asin, mpfr_asin, {1.0, -1.0, 0.5}};
const UnaryFn kAcos{"acos", OpId::Acos, mpfr_acos, {1.0, -1.0, 0.5}};
const UnaryFn kTan{"tan", OpId::Tan, mpfr_tan, {M_PI_2, -M_PI_2, 3 * M_PI_2, 1.0}};

}  // namespace

TEMPLATE_TEST_CASE("atan, asin, acos, tan are sound (MPFR, random boxes, every format)", "[elementary][inverse_trig]",
                   Interval, MpfrInterval, RationalInterval, Affine) {
  std::uint64_t seed = 41;
  for (const UnaryFn& fn : {kAtan, kAsin, kAcos, kTan}) {
    // tan: a third (the oracle reduces huge 4096-bit arguments: 30 ms a box)
    const int boxes = static_cast<int>(test::scaled(fn.op == OpId::Tan ? 34 : 100, 20));
    long executions = 0;
    test::unary_soundness<TestType>(fn, kFormats, seed++, boxes, executions);
    INFO(fn.name << ": " << executions << " executions");
    CHECK(executions > 4 * boxes * 12 / 4);
  }
}

TEMPLATE_TEST_CASE("atan, asin, acos, tan are sound: many boxes", "[elementary][inverse_trig][long]", Interval, Affine) {
  std::uint64_t seed = 141;
  for (const UnaryFn& fn : {kAtan, kAsin, kAcos, kTan}) {
    const int boxes = fn.op == OpId::Tan ? 5000 : 20000;
    long executions = 0;
    test::unary_soundness<TestType>(fn, kFormats, seed++, boxes, executions);
    INFO(fn.name << ": " << executions << " executions");
    CHECK(executions > 4 * boxes * 12 / 4);
  }
}

TEST_CASE("atan, asin, acos tightness twins: rounding, propagation, images", "[elementary][inverse_trig]") {
  struct Run {
    const UnaryFn* fn;
    double start;
  };
  // 200 consecutive FP16 inputs each, outputs within one binade
  const Run runs[] = {{&kAtan, 0.6}, {&kAtan, 3.0}, {&kAtan, 0.1}, {&kAsin, 0.6}, {&kAsin, 0.1}, {&kAcos, 0.1},
                      {&kAcos, 0.6}};
  for (const Run& run : runs)
    test::check_rounding_twin(run.fn->mpfr, run.fn->name, run.start,
                              [&](const SymbolicError& x, const AccuracyModel& m) { return (*run.fn)(x, m); });
  // the mean value: the slope's variation over [a, b] is about 2^-10 of it
  for (const UnaryFn* fn : {&kAtan, &kAsin, &kAcos}) {
    test::check_propagated_twin(*fn, 0.5, 0.5 + 0x1p-10, 0x1p-7);
    test::check_propagated_twin(*fn, -0.25, -0.25 - 0x1p-12, 0x1p-7);
  }
  const AccuracyModel cr = AccuracyModel::correctly_rounded();
  // the images: endpoint values, directed (asin 1 = π/2; acos decreasing)
  const auto a = asin(SymbolicError::input(-1, 1, FP64), cr);
  CHECK(a.real.upper() - M_PI_2 <= 1e-15);
  CHECK(a.real.upper() >= M_PI_2);
  CHECK(!a.specials.may_be_nan);
  CHECK(!a.specials.may_be_undefined);
  const auto c = acos(SymbolicError::input(0.5, 1, FP64), cr);
  CHECK(c.real.lower() == 0);
  CHECK(c.real.upper() >= M_PI / 3);
  CHECK(c.real.upper() - M_PI / 3 <= 1e-15);
}

TEST_CASE("tan: poles, twins, special values", "[elementary][inverse_trig]") {
  const AccuracyModel cr = AccuracyModel::correctly_rounded();
  // a pole inside: unbounded, flagged; the real undefined
  const auto p = tan(SymbolicError::input(1.5, 1.6, FP32), cr);
  CHECK(p.specials.may_be_pos_inf);
  CHECK(p.specials.may_be_neg_inf);
  CHECK(p.specials.may_overflow);
  CHECK(p.specials.may_be_undefined);
  // the twin: none inside, the endpoint values (tan 1.5 = 14.10, tan 1.5703125 = 2066.8)
  const auto q = tan(SymbolicError::input(1.5, 1.5703125, FP32), cr);
  CHECK(!q.specials.may_be_pos_inf);
  CHECK(!q.specials.may_be_undefined);
  CHECK(q.real.lower() >= std::tan(1.5) * (1 - 1e-15));
  CHECK(q.real.lower() <= std::tan(1.5) * (1 + 1e-15));
  CHECK(q.real.upper() >= std::tan(1.5703125) * (1 - 1e-15));
  CHECK(q.real.upper() <= std::tan(1.5703125) * (1 + 1e-15));
  // a huge argument: reduced in MPFR, one value
  const auto big = tan(SymbolicError::input(1e22, 1e22, FP64), cr);
  CHECK(is_point(big.fp));
  CHECK(!big.specials.may_be_pos_inf);
  // rounding and propagation twins
  for (const double start : {0.3, 1.0, 2.5})
    test::check_rounding_twin(mpfr_tan, "tan", start,
                              [&](const SymbolicError& x, const AccuracyModel& m) { return tan(x, m); });
  test::check_propagated_twin(kTan, 1, 1 + 0x1p-10, 1e-12);
  test::check_propagated_twin(kTan, -2, -2 + 0x1p-20, 1e-12);
  // IEEE: tan(±0) = ±0, tan(±inf) = NaN; C names
  CHECK(tan(SymbolicError::constant(-0.0, FP32), cr).specials.may_be_neg_zero);
  CHECK(tan(SymbolicError::inf(1, FP32), cr).specials.may_be_nan);
  const auto x = SymbolicError::input(-1, 1, -1e-6, 1e-6, FP32);
  CHECK(tanf(x).err.upper() == tan(x).err.upper());
  CHECK(tanl(x).err.upper() == tan(x).err.upper());
  CHECK(find_operator("tan") == &operator_info(OpId::Tan));
  test::check_planted_bug(kTan, 0.5, 0.75, 0x1p-12);
}

TEST_CASE("glibc's asin, acos, tanf beyond their documented bounds: witnesses", "[elementary][inverse_trig]") {
  // glibc 2.36 documents 1 ulp for asin, acos (every mode) and tanf (to
  // nearest), 2 for tanf (directed); sweeps against MPFR found more here
  using Case = test::LibmCase<float>;
  for (const Case& w : {Case{&kAsin, asinf, 0x1.be1dep-2f, FE_DOWNWARD, RoundingMode::Downward, 1, 1.213},
                        Case{&kAcos, acosf, 0x1.1c044p-1f, FE_UPWARD, RoundingMode::Upward, 1, 1.228},
                        Case{&kTan, tanf, -0x1.9223cap+0f, FE_TONEAREST, RoundingMode::NearestEven, 1, 1.138},
                        Case{&kTan, tanf, 0x1.dac67p-2f, FE_UPWARD, RoundingMode::Upward, 2, 2.210}})
    test::check_libm_case(w);
  using DCase = test::LibmCase<double>;
  for (const DCase& w : {DCase{&kAsin, ::asin, -0x1.cb87abd580238p-4, FE_TOWARDZERO, RoundingMode::TowardZero, 1, 1.010},
                         DCase{&kAcos, ::acos, 0x1.f40292ca3f482p-1, FE_DOWNWARD, RoundingMode::Downward, 1, 1.010}})
    test::check_libm_case(w);
}

TEST_CASE("atan: a planted bug in err is caught by the soundness check", "[elementary][inverse_trig]") {
  test::check_planted_bug(kAtan, 1.5, 1.75, 0x1p-12);
}

TEST_CASE("atan, asin, acos: IEEE special values, domains, C names, the operator table", "[elementary][inverse_trig]") {
  const AccuracyModel cr = AccuracyModel::correctly_rounded();
  // atan(±inf) = ±π/2 rounded: a finite result
  const auto pinf = atan(SymbolicError::inf(1, FP32), cr);
  CHECK(pinf.specials.may_be_finite);
  CHECK(!pinf.specials.may_be_nan);
  CHECK(pinf.fp.lower() == static_cast<double>(static_cast<float>(M_PI_2)));
  CHECK(pinf.fp.upper() == pinf.fp.lower());
  const auto ninf = atan(SymbolicError::inf(-1, FP64), AccuracyModel::glibc_x86_64());
  CHECK(ninf.fp.lower() <= -M_PI_2);
  CHECK(ninf.fp.upper() >= -M_PI_2);
  INFO("atan(-inf) = " << ninf);
  // the model's 1 ulp either side of π/2's enclosure (two doubles), rounded outward
  CHECK(ninf.fp.upper() - ninf.fp.lower() <= 6 * ulp(M_PI_2, FP64));
  // in real arithmetic (no rounding): π/2 enclosed, two doubles wide
  SymbolicError r = SymbolicError::inf(1, FP32);
  r.format = Format{};
  const auto rinf = atan(r, cr);
  CHECK(rinf.specials.may_be_finite);
  CHECK(!rinf.specials.may_be_nan);
  CHECK(rinf.fp.lower() <= M_PI_2);  // the double below π/2
  CHECK(rinf.fp.upper() > M_PI_2);
  CHECK(rinf.fp.upper() - rinf.fp.lower() <= 2 * ulp(M_PI_2, FP64));
  // signed zeros: atan, asin keep the sign; acos(1) = +0
  const auto z0 = atan(SymbolicError::constant(-0.0, FP32), cr);
  CHECK(z0.specials.may_be_neg_zero);
  const auto s0 = asin(SymbolicError::constant(-0.0, FP32), cr);
  CHECK(s0.specials.may_be_neg_zero);
  const auto c1 = acos(SymbolicError::input(1, 1, FP32), cr);
  CHECK(c1.fp.lower() == 0);
  CHECK(c1.fp.upper() == 0);
  CHECK(c1.specials.may_be_pos_zero);
  CHECK(!c1.specials.may_be_neg_zero);
  // outside [−1, 1]: NaN for a computed input, an undefined real
  const auto out = asin(SymbolicError::input(0.5, 2, FP32), cr);
  CHECK(out.specials.may_be_nan);
  CHECK(out.specials.may_be_undefined);
  CHECK(out.fp.upper() == static_cast<double>(static_cast<float>(M_PI_2)));
  const auto all_out = acos(SymbolicError::input(1.5, 2, FP32), cr);
  CHECK(all_out.specials.may_be_nan);
  CHECK(!all_out.specials.may_be_finite);
  CHECK(!all_out.specials.may_be_defined);
  for (const UnaryFn* fn : {&kAsin, &kAcos}) {
    const auto inf = (*fn)(SymbolicError::inf(1, FP32), cr);
    CHECK(inf.specials.may_be_nan);
  }
  // C names (float and long double) and unqualified calls
  const auto x = SymbolicError::input(-0.5, 0.75, -1e-6, 1e-6, FP32);
  CHECK(atanf(x).err.upper() == atan(x).err.upper());
  CHECK(asinf(x).err.upper() == asin(x).err.upper());
  CHECK(acosl(x).err.upper() == acos(x).err.upper());
  CHECK(operator_info(OpId::Atan).has(kOdd));
  CHECK(!operator_info(OpId::Acos).has(kMonotoneIncreasing));
  CHECK(find_operator("asin") == &operator_info(OpId::Asin));
  CHECK(AccuracyModel::glibc_x86_64().bound(OpId::Atan, FP32, RoundingMode::Upward).ulps == 2);
  CHECK(AccuracyModel::glibc_x86_64().bound(OpId::Acos, FP64, RoundingMode::NearestEven).ulps == 1);
  CHECK(AccuracyModel::glibc_x86_64().bound(OpId::Acos, FP64, RoundingMode::Upward).ulps == 2);
}

TEST_CASE("atan, asin, acos in Affine: f(x) − f(x) is exactly 0", "[elementary][inverse_trig]") {
  AffineContext ctx;
  AffineScope scope(ctx);
  using SA = SymbolicDomainError<Affine>;
  const SA a = SA::input(-0.5, 0.75, -1e-6, 1e-6, FP32);
  for (const SA& d : {SA(atan(a) - atan(a)), SA(asin(a) - asin(a)), SA(acos(a) - acos(a))}) {
    CHECK(d.err.lower() == 0);
    CHECK(d.err.upper() == 0);
    CHECK(d.real.lower() == 0);
    CHECK(d.real.upper() == 0);
  }
  const auto x = SymbolicError::input(-0.5, 0.75, -1e-6, 1e-6, FP32);
  CHECK(width((atan(x) - atan(x)).err) > 0);  // the Interval twin
}
