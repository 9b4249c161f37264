// frexp and modf of symbolic values (<symerr/symbolic/elementary/frexp_modf.hpp>):
// before, a kernel calling them (TFLite's QuantizeMultiplier calls frexp on
// its scale) did not compile. Checked: decided cases and the refusals, and
// through the driver, x in [0.3, 5] FP32 (6 binades, 5 integer parts), both
// decompositions against exact executions (GMP rationals; the computed
// program is std::frexp / std::modf on float), with the twins: every bound 0
// for e = 0 where the decompositions are exact, and the true maxima at the
// switch points for e > 0 (mantissa 0.5, exponent 1, integer part 1).
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <optional>
#include <random>
#include <type_traits>
#include <vector>

#include <symerr/verify/symbolic/driver.hpp>

#include "dropin/sampling.hpp"

using namespace symerr;
using S = SymbolicError;

TEST_CASE("frexp and modf: decided cases, C names, std:: spellings, refusals", "[dropin][frexp]") {
  int e = 99;
  S m = frexp(S::constant(768.0, FP64), &e);
  CHECK(e == 10);
  CHECK((m.fp.lower() == 0.75 && m.fp.upper() == 0.75 && mag(m.err) == 0));
  m = std::frexp(S::input(3, 3.5, FP32), &e);  // one binade: decided
  CHECK(e == 2);
  CHECK((m.real.lower() == 0.75 && m.real.upper() == 0.875 && mag(m.err) == 0));
  m = frexpf(S::input(-3.5, -3, FP32), &e);
  CHECK(e == 2);
  CHECK(m.fp.upper() == -0.75);
  m = frexp(S::constant(0.0, FP32), &e);
  CHECK(e == 0);
  CHECK(m.fp.upper() == 0);
  CHECK_THROWS_AS(frexp(S::input(3, 5, FP32), &e), UndecidedBranch);  // two binades, outside the driver
  CHECK_THROWS_WITH(frexp(S::input(-1, 1, FP32), &e), Catch::Contains("frexp: the range reaches 0"));
  CHECK_THROWS_WITH(frexp(S::nan(FP32), &e), Catch::Contains("may be NaN or infinite"));
  S ip;
  S f = modf(S::input(2.25, 2.75, FP64), &ip);
  CHECK((ip.fp.lower() == 2 && ip.fp.upper() == 2));
  CHECK((f.fp.lower() == 0.25 && f.fp.upper() == 0.75 && mag(f.err) == 0));
  f = std::modf(S::constant(-3.0, FP64), &ip);
  CHECK(f.specials.may_be_neg_zero);  // modf(−3) = −0
  CHECK(ip.fp.lower() == -3);
  CHECK_THROWS_WITH(modff(S::inf(+1, FP32), &ip), Catch::Contains("modf: the operand may be NaN or infinite"));
  double d = std::frexp(768.0, &e);  // the standard functions are unchanged
  CHECK((d == 0.75 && e == 10));
}

namespace {
struct Exact {
  mpq_class mantissa, exponent, frac, integral;
};
Exact decompose(const mpq_class& r) {  // r > 0
  Exact x;
  int k = 0;
  mpq_class p = 1;  // 2^k
  while (r >= p) p *= 2, ++k;
  while (r < p / 2) p /= 2, --k;
  x.mantissa = r / p;
  x.exponent = k;
  mpz_class t = r.get_num() / r.get_den();  // r > 0: floor = trunc
  x.integral = t;
  x.frac = r - mpq_class(t);
  return x;
}
}  // namespace

TEMPLATE_TEST_CASE("frexp and modf through the driver: sound against exact executions, and tight",
                   "[dropin][frexp]", Interval, Affine) {
  using SD = SymbolicDomainError<TestType>;
  for (const double e : {0.0, 0x1p-20}) {
    [[maybe_unused]] const test::DomainScope<TestType> domain;
    const std::vector<SD> in(1, SD::input(0.3, 5, -e, e, FP32));
    const auto res = verify::run_kernel<TestType>(
        [](std::span<SD> x, std::span<SD> y) {
          int k = 0;
          y[0] = frexp(x[0], &k);
          y[1] = SD(k);
          SD ip;
          y[2] = modf(x[0], &ip);
          y[3] = ip;
        },
        in, 4, {});
    INFO("e = " << e << ": " << res.report.summary());
    CHECK_FALSE(res.report.budget_exhausted);
    std::mt19937_64 rng(11);
    std::uniform_real_distribution<double> u(0.3, 5), v(-1, 1);
    std::size_t violations = 0;
    double observed[4] = {0, 0, 0, 0};
    for (std::size_t t = 0; t < test::scaled(40000, 4000); ++t) {
      // a computed input (every fourth on a power of two or an integer), the real one within e
      const int kind = static_cast<int>(t % 4);
      double fd = kind == 0 ? std::ldexp(1.0, static_cast<int>(rng() % 3))
                            : kind == 1 ? static_cast<double>(1 + rng() % 4) : u(rng);
      const float f = static_cast<float>(fd);
      const int side = static_cast<int>(rng() % 3) - 1;
      const mpq_class r = exact_value(static_cast<double>(f)) - exact_value(e) * (kind < 2 ? mpq_class(side) : mpq_class(v(rng)));
      if (r < mpq_class(3, 10) || r > 5 || f < 0.3f || f > 5) continue;
      int kf = 0;
      float ipf = 0;
      const float mf = std::frexp(f, &kf);
      const float ff = std::modf(f, &ipf);
      const Exact x = decompose(r);
      const double computed[4] = {mf, static_cast<double>(kf), ff, ipf};
      const mpq_class real[4] = {x.mantissa, x.exponent, x.frac, x.integral};
      for (int j = 0; j < 4; ++j) {
        violations += !test::encloses(res.outputs[static_cast<std::size_t>(j)], real[j], computed[j]);
        observed[j] = std::max(observed[j], std::fabs(mpq_class(exact_value(computed[j]) - real[j]).get_d()));
      }
    }
    double bound[4];
    for (int j = 0; j < 4; ++j) bound[j] = mag(res.outputs[static_cast<std::size_t>(j)].err);
    std::printf("%s e=%g: frexp m %.4g/%.4g k %.4g/%.4g, modf frac %.4g/%.4g int %.4g/%.4g (bound/observed)\n",
                std::is_same_v<TestType, Affine> ? "Affine" : "Interval", e, bound[0], observed[0], bound[1],
                observed[1], bound[2], observed[2], bound[3], observed[3]);
    CHECK(violations == 0);
    if (e == 0) {  // exact decompositions: the twins are bound 0
      CHECK(bound[0] == 0);
      CHECK(bound[1] == 0);
      CHECK(bound[3] == 0);
      CHECK(bound[2] <= 0x1p-24);  // the rounded subtraction's half ulp of [0, 1): modf is exact
    } else {
      CHECK(observed[1] == 1.0);  // a real just below 2^k, the computed value on it
      CHECK(bound[1] == 1.0);
      CHECK(observed[3] == 1.0);
      CHECK(bound[3] == 1.0);
      CHECK(bound[0] <= 0.5 + 2 * e);  // mantissa: 1 − against 0.5 at a switch
      CHECK(observed[0] >= 0.49);
      CHECK(bound[2] <= 1.0 + 2 * e);  // fraction: 1 − against 0
      CHECK(observed[2] >= 0.99);
    }
  }
}
