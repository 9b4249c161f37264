// Qualified math calls in a generic kernel: std::exp(x), std::sqrt(x),
// std::fmax(a, b), ... with a symbolic x (<symerr/symbolic/std_math.hpp>,
// included by the driver header). Before, `std::exp(x)` did not compile for
// SymbolicError (the standard overloads take arithmetic types only). Checked:
// the qualified spelling gives exactly the result of the unqualified one in
// every domain (the same function), float/double/integer calls resolve as
// before, and a kernel written with std:: calls run through the driver
// encloses exact executions (MPFR 256-bit reference) with a tightness twin.
#include <catch2/catch.hpp>

#include <cmath>
#include <type_traits>
#include <vector>

#include <mpfr.h>

#include <symerr/c_types.hpp>
#include <symerr/verify/symbolic/driver.hpp>

#include "dropin/sampling.hpp"

using namespace symerr;
using S = SymbolicError;

namespace std_spelled {
template <class T>
T activation(T x) {  // every name of the header's list that takes one operand, qualified
  T a = std::tanh(x) * std::sqrt(std::fabs(x) + T(1)) + std::exp(-x * x) * std::erf(x);
  a += std::log1p(std::abs(x)) - std::expm1(x) + std::exp2(x) + std::cbrt(x + T(2));
  a += std::log(x + T(3)) + std::log2(x + T(3)) + std::log10(x + T(3)) + std::sin(x) * std::cos(x);
  a += std::atan(x) + std::asin(x * T(0.5)) + std::acos(x * T(0.5)) + std::sinh(x) - std::cosh(x);
  a += std::asinh(x) + std::acosh(x + T(2)) + std::atanh(x * T(0.5)) + std::tan(x * T(0.5));
  a += std::floor(x) + std::ceil(x) + std::trunc(x) + std::round(x) + std::rint(x) + std::nearbyint(x);
  a += std::fmin(x, T(0)) + std::fmax(T(0), x) + std::pow(x, 2.0) + std::fmod(x, T(0.75));
  a += std::hypot(x, T(1)) + std::atan2(x, T(2)) + std::ldexp(x, 3) + std::scalbn(x, -2);
  return std::fma(a, x, T(0.5));
}
template <class T>
T softplus(T x) {  // the stable form
  return std::log1p(std::exp(-std::fabs(x))) + std::fmax(x, T(0));
}
}  // namespace std_spelled

namespace plain_spelled {  // the same code, unqualified (symerr's by ADL)
using std::abs, std::acos, std::acosh, std::asin, std::asinh, std::atan, std::atan2, std::atanh, std::cbrt,
    std::ceil, std::cos, std::cosh, std::erf, std::exp, std::exp2, std::expm1, std::fabs, std::floor, std::fma,
    std::fmax, std::fmin, std::fmod, std::hypot, std::ldexp, std::log, std::log10, std::log1p, std::log2,
    std::nearbyint, std::pow, std::rint, std::round, std::scalbn, std::sin, std::sinh, std::sqrt, std::tan,
    std::tanh, std::trunc;
template <class T>
T activation(T x) {
  T a = tanh(x) * sqrt(fabs(x) + T(1)) + exp(-x * x) * erf(x);
  a += log1p(abs(x)) - expm1(x) + exp2(x) + cbrt(x + T(2));
  a += log(x + T(3)) + log2(x + T(3)) + log10(x + T(3)) + sin(x) * cos(x);
  a += atan(x) + asin(x * T(0.5)) + acos(x * T(0.5)) + sinh(x) - cosh(x);
  a += asinh(x) + acosh(x + T(2)) + atanh(x * T(0.5)) + tan(x * T(0.5));
  a += floor(x) + ceil(x) + trunc(x) + round(x) + rint(x) + nearbyint(x);
  a += fmin(x, T(0)) + fmax(T(0), x) + pow(x, 2.0) + fmod(x, T(0.75));
  a += hypot(x, T(1)) + atan2(x, T(2)) + ldexp(x, 3) + scalbn(x, -2);
  return fma(a, x, T(0.5));
}
}  // namespace plain_spelled

namespace {

template <class D>
bool same_ranges(const SymbolicDomainError<D>& a, const SymbolicDomainError<D>& b) {
  const D* fa[] = {&a.real, &a.fp, &a.err, &a.rel_err, &a.propagated, &a.introduced};
  const D* fb[] = {&b.real, &b.fp, &b.err, &b.rel_err, &b.propagated, &b.introduced};
  for (int i = 0; i < 6; ++i)
    if (fa[i]->lower() != fb[i]->lower() || fa[i]->upper() != fb[i]->upper()) return false;
  const SpecialStates &s = a.specials, &t = b.specials;
  return s.may_be_finite == t.may_be_finite && s.may_be_nan == t.may_be_nan && s.may_be_pos_inf == t.may_be_pos_inf &&
         s.may_be_neg_inf == t.may_be_neg_inf && s.may_be_undefined == t.may_be_undefined && a.format == b.format;
}

// log1p(exp(−|r|)) + max(r, 0) at 256 bits, and the enclosure [v − t, v + t]
// of the exact value (t: 2^-240 relative, far beyond the error of 4 correctly
// rounded 256-bit operations)
struct Reference {
  mpq_class lo, hi;
};
Reference softplus_reference(const mpq_class& r) {
  mpfr_t t, m;
  mpfr_inits2(256, t, m, static_cast<mpfr_ptr>(nullptr));
  mpfr_set_q(t, r.get_mpq_t(), MPFR_RNDN);
  mpfr_abs(m, t, MPFR_RNDN);
  mpfr_neg(m, m, MPFR_RNDN);
  mpfr_exp(m, m, MPFR_RNDN);
  mpfr_log1p(m, m, MPFR_RNDN);
  if (r > 0) mpfr_add(m, m, t, MPFR_RNDN);
  mpq_class v;
  mpfr_get_q(v.get_mpq_t(), m);
  mpfr_clears(t, m, static_cast<mpfr_ptr>(nullptr));
  const mpq_class tol = abs(v) / (mpq_class(1) << 240) + mpq_class(1, 1) / (mpq_class(1) << 1000);
  return {v - tol, v + tol};
}

bool encloses_range(const Interval& i, const mpq_class& lo, const mpq_class& hi) {
  return contains(i, lo) && contains(i, hi);
}

}  // namespace

TEST_CASE("std:: qualified math calls on symbolic values: the same functions as the unqualified calls",
          "[dropin][std_math]") {
  STATIC_REQUIRE(std::is_same_v<decltype(std::exp(std::declval<S>())), S>);
  STATIC_REQUIRE(std::is_same_v<decltype(std::fmax(std::declval<S>(), 0.0)), S>);
  // arithmetic calls resolve to the standard functions, as before
  STATIC_REQUIRE(std::is_same_v<decltype(std::exp(1.0f)), float>);
  STATIC_REQUIRE(std::is_same_v<decltype(std::pow(2, 3)), double>);
  STATIC_REQUIRE(std::is_same_v<decltype(std::abs(-3)), int>);
  CHECK(std_spelled::activation(0.25) == plain_spelled::activation(0.25));
  CHECK(std_spelled::activation(-0.75f) == plain_spelled::activation(-0.75f));
  CHECK(std::abs(-3) == 3);

  for (const FloatFormat& F : {FP32, FP64}) {
    for (const auto& [lo, hi] : {std::pair{-1.0, 1.0}, std::pair{0.125, 0.5}, std::pair{-0.3, -0.2}}) {
      const S x = S::input(lo, hi, -1e-9, 1e-9, F);
      INFO(format_name(F) << " [" << lo << ", " << hi << "]");
      CHECK(same_ranges(std_spelled::activation(x), plain_spelled::activation(x)));
      const CDouble xd(S::input(lo, hi, -1e-9, 1e-9, FP64));
      CHECK(same_ranges<Interval>(std::sqrt(xd + 2.0), sqrt(xd + 2.0)));  // C_TYPES: the double function
      CHECK(same_ranges<Interval>(std::expf(xd), expf(xd)));               // the float one
      AffineContext ctx;
      AffineScope scope(ctx);
      const auto xa = SymbolicDomainError<Affine>::input(lo, hi, -1e-9, 1e-9, F);
      CHECK(same_ranges(std_spelled::activation(xa), plain_spelled::activation(xa)));
    }
  }
  // classification, qualified: decided by the flags
  const S y = S::input(0.5, 1, 0, 0, FP64);
  CHECK_FALSE(bool(std::isnan(y)));
  CHECK_FALSE(bool(std::isinf(y)));
  CHECK(bool(std::isfinite(y)));
}

TEST_CASE("a kernel written with std:: calls: sound against exact executions through the driver, and tight",
          "[dropin][std_math]") {
  struct Case {
    FloatFormat F;
    double e;
  };
  for (const Case& c : {Case{FP64, 0.0}, Case{FP64, 1e-12}, Case{FP32, 0.0}, Case{FP32, 0x1p-20}}) {
    const std::vector<S> in(1, test::unit_box(c.F, c.e));
    verify::DriverOptions opts;
    opts.max_boxes = 64;  // subdivision for tightness (the bound is the hull)
    const auto res = verify::run_kernel([](std::span<S> x, std::span<S> y) { y[0] = std_spelled::softplus(x[0]); },
                                        in, 1, opts);
    INFO(format_name(c.F) << " e = " << c.e << ": " << res.report.summary());
    const S& z = res.outputs[0];
    test::InputSampler gen(11, c.F, c.e);
    std::size_t violations = 0;
    double observed = 0;
    const std::size_t trials = test::scaled(20000, 2000);
    for (std::size_t t = 0; t < trials; ++t) {
      const test::Sample s = gen.next();
      const double f = c.F.precision == 24 ? static_cast<double>(std_spelled::softplus(static_cast<float>(s.computed)))
                                           : std_spelled::softplus(s.computed);
      const Reference ref = softplus_reference(s.real);
      const mpq_class fq = exact_value(f);
      violations += !encloses_range(z.real, ref.lo, ref.hi) || !contains(z.fp, fq) ||
                    !encloses_range(z.err, fq - ref.hi, fq - ref.lo);
      observed = std::max({observed, std::fabs(mpq_class(fq - ref.lo).get_d()), std::fabs(mpq_class(fq - ref.hi).get_d())});
    }
    CHECK(violations == 0);
    // the twin: the bound is within a small factor of the largest observed error
    INFO("bound " << mag(z.err) << " observed " << observed);
    CHECK(mag(z.err) >= observed);
    CHECK(mag(z.err) <= 3 * observed);  // measured: 1.55–2.05×
  }
}
