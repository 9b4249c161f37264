// sin and cos on SymbolicDomainError (operators Sin and Cos): soundness
// against MPFR (the real value at a 4096-bit input, rounded outward at 256
// bits) over random boxes in every format and four domains — tiny arguments
// (sin x ≈ x, signed zeros), boxes around the extrema π/2 + kπ, boxes wider
// than 2π, huge arguments up to the format's maximum, moderate ones — under a
// correctly rounded and a 3-ulp implementation taken at its extremes;
// tightness twins (images with and without an extremum inside, sin(1e22),
// the rounding within 5% of the enumerated FP16 maximum, the propagated
// identity to 1e-12); a planted bug; IEEE special values.
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

struct Trig {
  const char* name;
  bool sine;
  int eval(mpfr_ptr r, mpfr_srcptr x, mpfr_rnd_t d) const { return sine ? mpfr_sin(r, x, d) : mpfr_cos(r, x, d); }
  template <RealDomain D>
  SymbolicDomainError<D> operator()(const SymbolicDomainError<D>& x, const AccuracyModel& m) const {
    return sine ? sin(x, m) : cos(x, m);
  }
};
const Trig kSin{"sin", true}, kCos{"cos", false};

// The implementation's result at t: the k-ulp model (unary_mpfr_support.hpp).
double implementation(const Trig& fn, double t, const FloatFormat& F, double k, int pick) {
  return test::k_ulp_implementation(fn.sine ? mpfr_sin : mpfr_cos, t, F, k, pick);
}

template <RealDomain D>
std::string check(const Trig& fn, const SymbolicDomainError<D>& z, double t, double e, double y) {
  Mp r(4096), tt(64, t), ee(64, e), lo(256), hi(256);
  mpfr_sub(r.v, tt.v, ee.v, MPFR_RNDN);  // exact at 4096 bits
  fn.eval(lo.v, r.v, MPFR_RNDD);
  fn.eval(hi.v, r.v, MPFR_RNDU);
  if (!z.specials.may_be_defined) return "defined real not flagged";
  if (mpfr_cmp_d(lo.v, z.real.lower()) < 0 || mpfr_cmp_d(hi.v, z.real.upper()) > 0) return "f(r) not in real";
  if (!z.specials.may_be_finite || !contains(z.fp, y)) return "y not in fp";
  if (y == 0 && (std::signbit(y) ? !z.specials.may_be_neg_zero : !z.specials.may_be_pos_zero))
    return "zero sign not flagged";
  return test::err_holds(z, y, lo.v, hi.v);
}

void random_box(std::mt19937_64& g, const FloatFormat& F, double& lo, double& hi, double& elo, double& ehi) {
  std::uniform_real_distribution<double> u(0, 1);
  const double sign = g() % 2 ? 1 : -1;
  double c = 0, w = 0;
  switch (g() % 6) {
    case 0: c = sign * F.min_normal() * u(g) * 4; w = F.min_normal() * u(g) * 2; break;     // tiny, across 0
    case 1: c = (0.5 + static_cast<double>(g() % 9)) * M_PI * sign; w = std::ldexp(u(g), -static_cast<int>(g() % 16)); break;  // extrema
    case 2: c = sign * u(g) * 10; w = 3 + u(g) * 5; break;                                   // wider than 2π
    case 3: c = sign * F.max_finite() * u(g); w = c * std::ldexp(u(g), -static_cast<int>(F.precision) + 2); break;  // huge
    case 4: c = sign * std::ldexp(1 + u(g), static_cast<int>(g() % 60)); w = std::fabs(c) * std::ldexp(u(g), -static_cast<int>(F.precision) - 4 + static_cast<int>(g() % 10)); break;
    default: c = sign * u(g) * 4; w = u(g) * std::ldexp(1.0, -static_cast<int>(g() % 12)); break;
  }
  test::finish_box(g, F, c, w, lo, hi, elo, ehi);
}

template <RealDomain D>
void soundness(const Trig& fn, std::uint64_t seed, int boxes, long& executions) {
  test::function_soundness<D>(
      fn, implementation, [](const Trig& f, const auto& z, double t, double e, double y) { return check(f, z, t, e, y); },
      random_box, kFormats, seed, boxes, executions);
}

}  // namespace

TEMPLATE_TEST_CASE("sin and cos are sound (MPFR, random boxes, every format)", "[elementary][trig]", Interval,
                   MpfrInterval, RationalInterval, Affine) {
  for (const Trig& fn : {kSin, kCos}) {
    long executions = 0;
    soundness<TestType>(fn, fn.sine ? 31 : 32, 200, executions);
    INFO(fn.name << ": " << executions << " executions");
    CHECK(executions > 4 * 200 * 12 / 4);
  }
}

TEST_CASE("sin, cos tightness twins: images, huge arguments, rounding, propagation", "[elementary][trig]") {
  const AccuracyModel cr = AccuracyModel::correctly_rounded();
  // an extremum inside gives ±1; none inside gives the endpoint values
  const auto s03 = sin(SymbolicError::input(0, 3, FP64), cr);
  CHECK(s03.real.upper() == 1);
  CHECK(s03.real.lower() == 0);
  const auto s2 = sin(SymbolicError::input(2, 2.5, FP64), cr);
  CHECK(s2.real.upper() < 0.9093);  // sin 2 = 0.90929...
  CHECK(s2.real.upper() >= std::sin(2.0));
  CHECK(s2.real.lower() <= std::sin(2.5));
  CHECK(s2.real.lower() > 0.598);
  const auto c3 = cos(SymbolicError::input(3, 3.2, FP64), cr);
  CHECK(c3.real.lower() == -1);
  const auto c01 = cos(SymbolicError::input(0.1, 0.2, FP64), cr);
  CHECK(c01.real.upper() < 0.9951);  // cos 0.1 = 0.99500...
  CHECK(c01.real.lower() > 0.98);
  // a huge argument: the exact value (MPFR reduces it), one double wide
  const auto big = sin(SymbolicError::input(1e22, 1e22, FP64), cr);
  Mp x22(64, 1e22), v(256);
  mpfr_sin(v.v, x22.v, MPFR_RNDN);
  CHECK(mpfr_cmp_d(v.v, big.real.lower()) >= 0);
  CHECK(mpfr_cmp_d(v.v, big.real.upper()) <= 0);
  CHECK(big.real.upper() - big.real.lower() <= 2 * ulp(0.85, FP64));
  CHECK(big.fp.lower() == big.fp.upper());  // the correctly rounded point
  // the rounding: within 5% of the enumerated maximum over 200 FP16 inputs
  struct Run {
    const Trig* fn;
    double start;
  };
  const Run runs[] = {{&kSin, 0.2}, {&kSin, 2.0}, {&kCos, 0.6}, {&kCos, 2.5}};
  for (const Run& run : runs)
    test::check_rounding_twin(run.fn->sine ? mpfr_sin : mpfr_cos, run.fn->name, run.start,
                              [&](const SymbolicError& x, const AccuracyModel& m) { return (*run.fn)(x, m); });
  // the propagated part: real 1, fp 1 + 2^-10
  for (const Trig& fn : {kSin, kCos}) {
    const auto z = fn(SymbolicError::input(1, 1, 0x1p-10, 0x1p-10, FP64), cr);
    Mp a(64, 1.0), b(64, 1 + 0x1p-10), fa(256), fb(256), lo(256), hi(256);
    fn.eval(fa.v, a.v, MPFR_RNDN);
    fn.eval(fb.v, b.v, MPFR_RNDN);
    mpfr_sub(lo.v, fb.v, fa.v, MPFR_RNDN);  // 256 bits: far inside the 1e-12 below
    INFO(fn.name << " propagated " << z.propagated << " exact " << mpfr_get_d(lo.v, MPFR_RNDN));
    CHECK(mpfr_cmp_d(lo.v, z.propagated.lower()) >= 0);
    CHECK(mpfr_cmp_d(lo.v, z.propagated.upper()) <= 0);
    CHECK(width(z.propagated) < 1e-12 * std::fabs(mpfr_get_d(lo.v, MPFR_RNDN)));
  }
}

TEST_CASE("sin: a planted bug (a missed maximum) is caught by the soundness check", "[elementary][trig]") {
  const auto x = SymbolicError::input(1.25, 2.0, -0x1p-12, 0x1p-12, FP32);
  auto z = sin(x, AccuracyModel::correctly_rounded());
  // the bug: the image without the maximum at π/2 (the endpoints' values only)
  const double top = std::max(std::sin(1.25), std::sin(2.0));
  z.real = Interval::between(z.real.lower(), top);
  z.fp = Interval::between(z.fp.lower(), top);
  CHECK(test::caught_by_execution(1.25, 2.0, 0x1p-12, [&](double t, double e) {
    return check(kSin, z, t, e, implementation(kSin, t, FP32, 0.5, 0));
  }));
}

TEST_CASE("sin, cos: IEEE special values, C names, the operator table", "[elementary][trig]") {
  const AccuracyModel cr = AccuracyModel::correctly_rounded();
  const auto c0 = cos(SymbolicError::constant(0.0, FP32), cr);
  CHECK(c0.fp.lower() == 1);
  CHECK(c0.fp.upper() == 1);
  const auto s0 = sin(SymbolicError::constant(-0.0, FP32), cr);
  CHECK(s0.specials.may_be_neg_zero);
  const auto s1 = sin(SymbolicError::input(1, 1, FP64), cr);
  CHECK(s1.fp.lower() == 0x1.aed548f090ceep-1);  // sin(1) correctly rounded
  const auto inf = sin(SymbolicError::inf(1, FP32), cr);
  CHECK(inf.specials.may_be_nan);
  const auto x = SymbolicError::input(-3, 3, -1e-6, 1e-6, FP32);
  CHECK(sinf(x).err.upper() == sin(x).err.upper());
  CHECK(cosf(x).err.upper() == cos(x).err.upper());
  CHECK(sin(x).real.lower() == -1);  // ±π/2 inside
  CHECK(operator_info(OpId::Sin).has(kOdd));
  CHECK(find_operator("cos") == &operator_info(OpId::Cos));
  CHECK(AccuracyModel::glibc_x86_64().bound(OpId::Sin, FP32, RoundingMode::NearestEven).ulps == 1);
}
