// C's sign and classification functions of a symbolic value
// (<symerr/symbolic/sign_functions.hpp>): signbit, copysign, fdim, isnormal,
// fpclassify, their f/l names and std:: spellings. Before, a kernel calling
// them did not compile.
//
// Checked: the decided cases and the refusal outside the driver; and through
// the driver, in the Interval and Affine domains, a soft shrink written as C
// writes it, copysign(fdim(fabs(x), lambda), x), and a sign function scaled by
// another input, copysign(0.5, x1) * x2, against exact executions (GMP
// rationals; the computed program is the same code on float with libm's
// copysignf/fdimf/fabsf), with −0 among the computed inputs. Tightness twins:
// each bound against the largest error of the executions (and the true
// maximum where it is known: 1 for the sign function, 0 for its e = 0 band).
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <optional>
#include <random>
#include <type_traits>
#include <vector>

#include <symerr/c_types.hpp>
#include <symerr/verify/symbolic/driver.hpp>

#include "dropin/sampling.hpp"

using namespace symerr;
using S = SymbolicError;

namespace {

constexpr double kLambda = 0.2;  // a literal that is not a value of FP32: its rounding is introduced error

template <class T>
T softshrink(T x) {
  return copysign(fdim(fabs(x), kLambda), x);
}
float softshrink_f(float x) { return copysignf(fdimf(fabsf(x), static_cast<float>(kLambda)), x); }

mpq_class softshrink_exact(const mpq_class& r) {
  const mpq_class d = abs(r) - exact_value(kLambda);
  const mpq_class m = d > 0 ? d : mpq_class(0);
  return r < 0 ? mpq_class(-m) : m;  // a real has no signed zero: copysign(m, 0) = m
}

}  // namespace

TEST_CASE("signbit, copysign, fdim, isnormal, fpclassify: decided cases, specials, refusal outside the driver",
          "[dropin][sign]") {
  const S a = S::input(1, 2, FP64), b = S::input(-3, -1, FP64);
  const S c = copysign(a, b);
  CHECK(c.real.lower() == -2);
  CHECK(c.real.upper() == -1);
  CHECK(mag(c.err) == 0);
  CHECK(copysign(a, -0.0).fp.upper() == -1);  // a plain number's sign bit
  CHECK(copysign(a, 0.0).fp.lower() == 1);
  CHECK(copysign(2.5, b).fp.lower() == -2.5);
  CHECK(bool(signbit(b)));
  CHECK_FALSE(bool(signbit(a)));
  // fdim: x − y where x > y, +0 where x <= y, exact where the difference is
  const S d = fdim(a, b);
  CHECK(d.real.lower() == 2);
  CHECK(d.real.upper() == 5);
  const S z = fdim(b, a);
  CHECK((z.fp.lower() == 0 && z.fp.upper() == 0 && mag(z.err) == 0));
  CHECK(mag(fdim(a, 1.5).err) == 0);  // Sterbenz: |x − 1.5| exact for x in [1, 2]
  CHECK(fdim(S::nan(FP64), a).specials.may_be_nan);
  CHECK(fdim(S::inf(+1, FP64), a).specials.may_be_pos_inf);
  CHECK(fdim(a, S::inf(+1, FP64)).fp.upper() == 0);
  // −0: the computed sign bit is set, the real 0 has none
  const S negzero = -S::constant(0.0, FP64);
  const Truth t = signbit(negzero);
  CHECK(t.computed() == Tri::True);
  CHECK(t.ideal() == Tri::False);
  // classification by the format's smallest normal
  CHECK(fpclassify(S::constant(1.5, FP32)) == FP_NORMAL);
  CHECK(fpclassify(S::constant(0x1p-130, FP32)) == FP_SUBNORMAL);
  CHECK(fpclassify(S::constant(0.0, FP32)) == FP_ZERO);
  CHECK(fpclassify(S::inf(-1, FP32)) == FP_INFINITE);
  CHECK(fpclassify(S::nan(FP32)) == FP_NAN);
  CHECK(bool(isnormal(S::constant(0x1p-126, FP32))));
  CHECK_FALSE(bool(isnormal(S::constant(0x1p-127, FP32))));
  CHECK(bool(isnormal(S::constant(0x1p-127, FP64))));
  CHECK_FALSE(bool(isnormal(S::nan(FP64))));
  // undecided outside the driver: UndecidedBranch naming the test
  const S x = S::input(-1, 1, FP64);
  CHECK_THROWS_WITH(bool(signbit(x)), Catch::Contains("signbit(x)"));
  CHECK_THROWS_AS(copysign(a, x), UndecidedBranch);
  CHECK_THROWS_AS(fpclassify(S::input(0x1p-1030, 0x1p-1020, FP64)), UndecidedBranch);
  CHECK_NOTHROW(fdim(x, 0.25));  // continuous: no branch
  // the f names and std:: spellings are the same functions; float calls unchanged
  CHECK(copysignf(a, b).fp.lower() == c.fp.lower());
  CHECK(std::copysign(a, b).fp.upper() == c.fp.upper());
  CHECK(std::fdim(a, b).real.upper() == 5);
  CHECK(fdimf(a, 1.5).fp.upper() == 0.5);
  CHECK(bool(std::signbit(b)));
  CHECK(std::fpclassify(a) == FP_NORMAL);
  CHECK(bool(std::isnormal(a)));
  CHECK(std::copysign(1.0, -2.0) == -1.0);
  CHECK(std::fdim(3.0f, 1.0f) == 2.0f);
  CHECK(std::signbit(-0.0));
}

TEMPLATE_TEST_CASE("copysign and fdim through the driver: soft shrink and a sign function, sound and tight",
                   "[dropin][sign]", Interval, Affine) {
  using SD = SymbolicDomainError<TestType>;
  for (const double e : {0.0, 0x1p-20}) {
    [[maybe_unused]] const test::DomainScope<TestType> domain;
    // soft shrink of one input, subdivided: the band where copysign's two
    // programs take different signs shrinks to boxes where fdim is exactly 0
    verify::DriverOptions options;
    options.max_boxes = 64;
    const auto shrink = verify::run_kernel<TestType>(
        [](std::span<SD> x, std::span<SD> y) { y[0] = softshrink(x[0]); },
        std::vector<SD>(1, SD::input(-1, 1, -e, e, FP32)), 1, options);
    // a sign function times another input: no subdivision
    std::vector<SD> in;
    for (int i = 0; i < 2; ++i) in.push_back(SD::input(-1, 1, -e, e, FP32));
    const auto sign = verify::run_kernel<TestType>(
        [](std::span<SD> x, std::span<SD> y) { y[0] = copysign(0.5, x[0]) * x[1]; }, in, 1, {});
    INFO("e = " << e << ": soft shrink " << shrink.report.summary() << "; sign " << sign.report.summary());
    CHECK_FALSE(shrink.report.budget_exhausted);
    CHECK_FALSE(sign.report.budget_exhausted);
    CHECK(sign.report.unstable_branches > 0);  // x near 0 (and −0): the two programs take different signs
    test::InputSampler gen(77, FP32, e);
    std::mt19937_64 rng(5);
    std::size_t violations = 0;
    double observed[2] = {0, 0};
    const std::size_t n = test::scaled(100000, 5000);
    for (std::size_t t = 0; t < n; ++t) {
      test::Sample s[3] = {gen.next(), gen.next(), gen.next()};
      for (auto& v : s)  // −0 as often as +0 among the computed inputs
        if (v.computed == 0 && (rng() & 1)) v.computed = -0.0;
      if (t % 8 == 0) s[2] = {mpq_class(rng() & 1 ? 1 : -1), 0};  // |x2| = 1 exactly
      if (t % 8 == 0) s[2].computed = s[2].real.get_d();
      const float f[3] = {static_cast<float>(s[0].computed), static_cast<float>(s[1].computed),
                          static_cast<float>(s[2].computed)};
      const double computed[2] = {softshrink_f(f[0]), copysignf(0.5f, f[1]) * f[2]};
      const mpq_class real[2] = {softshrink_exact(s[0].real),
                                 (s[1].real < 0 ? mpq_class(-1, 2) : mpq_class(1, 2)) * s[2].real};
      const SD* out[2] = {&shrink.outputs[0], &sign.outputs[0]};
      for (int k = 0; k < 2; ++k) {
        violations += !test::encloses(*out[k], real[k], computed[k]);
        observed[k] = std::max(observed[k], std::fabs(mpq_class(exact_value(computed[k]) - real[k]).get_d()));
      }
    }
    const double bound[2] = {mag(shrink.outputs[0].err), mag(sign.outputs[0].err)};
    INFO("soft shrink: bound " << bound[0] << ", observed " << observed[0] << "; sign: bound " << bound[1]
                               << ", observed " << observed[1]);
    std::printf("%s e=%g: soft shrink bound %.4g observed %.4g (%zu boxes); sign bound %.4g observed %.4g\n",
                std::is_same_v<TestType, Affine> ? "Affine" : "Interval", e, bound[0], observed[0],
                shrink.report.input_boxes, bound[1], observed[1]);
    CHECK(violations == 0);
    // the sign function: 1 where the two programs take different signs (real
    // 0 and computed −0 at e = 0; the band |x1| <= e at e > 0) and |x2| = 1
    CHECK(observed[1] == 1.0);
    CHECK(bound[1] <= 1.0 + 2 * e);
    // soft shrink: the literal's rounding (0.2f − 0.2 = 2.98e-9) on every
    // |x| > 0.2, the subtraction's rounding, and the input error
    CHECK(observed[0] > 0);
    CHECK(bound[0] <= (e > 0 ? 1.5 : 2.0) * observed[0]);  // e = 0: 1.83 (half an ulp of 0.8 bounds 2^-26 roundings)
  }
}

TEST_CASE("C_TYPES: copysign, fdim, frexp, modf and the classifications of CFloat and CDouble", "[dropin][sign]") {
  const CDouble x(S::input(2.25, 2.75, FP64));
  const CFloat y(S::input(-3, -2.5, FP32));
  // the function's type decides the format: copysignf of a double is a float
  const CFloat c = copysignf(x, y);
  CHECK(c.format == Format(FP32));
  CHECK(c.fp.upper() == -2.25);
  const CDouble d = fdim(x, 2.5);
  CHECK(d.format == Format(FP64));
  CHECK((d.fp.lower() == 0 && d.fp.upper() == 0.25 && mag(d.err) == 0));
  int k = 0;
  const CFloat m = frexpf(x, &k);
  CHECK(k == 2);
  CHECK(m.format == Format(FP32));
  CFloat i;
  const CFloat f = modff(y, &i);
  CHECK((i.fp.lower() == -3 && i.fp.upper() == -2));
  CHECK((f.fp.lower() >= -1 && f.fp.upper() <= 0.5));
  CHECK(bool(signbit(y)));
  CHECK(fpclassify(x) == FP_NORMAL);
  CHECK(bool(isnormal(y)));
}
