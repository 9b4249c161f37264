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

void fn_eval_directed(const Trig& fn, Mp& v, const Mp& x, mpfr_rnd_t d) { fn.eval(v.v, x.v, d); }

// The implementation's result at t: correctly rounded (k = 0.5 or pick 0),
// else the value of F k ulps below (pick 1) or above (pick 2) the exact one.
double implementation(const Trig& fn, double t, const FloatFormat& F, double k, int pick) {
  Mp x(64, t), v(256), w(256);
  fn.eval(v.v, x.v, MPFR_RNDN);
  if (k == 0.5 || pick == 0) return round_to(v.get(), F, RoundingMode::NearestEven).value;
  const double slack = k * ulp(std::fabs(mpfr_get_d(v.v, MPFR_RNDZ)), F);
  if (pick == 1) {
    fn_eval_directed(fn, v, x, MPFR_RNDU);  // v >= the exact value (a 256-bit RNDN value may lie below it)
    mpfr_sub_d(w.v, v.v, slack, MPFR_RNDU);  // >= exact − slack, also as a double (RNDU)
    return round_to(mpfr_get_d(w.v, MPFR_RNDU), F, RoundingMode::Upward).value;
  }
  fn_eval_directed(fn, v, x, MPFR_RNDD);
  mpfr_add_d(w.v, v.v, slack, MPFR_RNDD);  // <= exact + slack, also as a double (RNDD)
  return round_to(mpfr_get_d(w.v, MPFR_RNDD), F, RoundingMode::Downward).value;
}

template <RealDomain D>
std::string check(const Trig& fn, const SymbolicDomainError<D>& z, double t, double e, double y) {
  Mp r(4096), tt(64, t), ee(64, e), lo(256), hi(256), d(256);
  mpfr_sub(r.v, tt.v, ee.v, MPFR_RNDN);  // exact at 4096 bits
  fn.eval(lo.v, r.v, MPFR_RNDD);
  fn.eval(hi.v, r.v, MPFR_RNDU);
  if (!z.specials.may_be_defined) return "defined real not flagged";
  if (mpfr_cmp_d(lo.v, z.real.lower()) < 0 || mpfr_cmp_d(hi.v, z.real.upper()) > 0) return "f(r) not in real";
  if (!z.specials.may_be_finite || !contains(z.fp, y)) return "y not in fp";
  if (y == 0 && (std::signbit(y) ? !z.specials.may_be_neg_zero : !z.specials.may_be_pos_zero))
    return "zero sign not flagged";
  mpfr_d_sub(d.v, y, hi.v, MPFR_RNDD);
  if (mpfr_cmp_d(d.v, z.err.lower()) < 0) return "err lower bound above y - f(r)";
  mpfr_d_sub(d.v, y, lo.v, MPFR_RNDU);
  if (mpfr_cmp_d(d.v, z.err.upper()) > 0) return "err upper bound below y - f(r)";
  return "";
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
  w = std::fabs(w);
  lo = round_to(std::max(c - w, -F.max_finite()), F, RoundingMode::Upward).value;
  hi = round_to(std::min(c + w, F.max_finite()), F, RoundingMode::Downward).value;
  if (lo > hi) lo = hi = round_to(c, F, RoundingMode::NearestEven).value;
  const double m = std::max({std::fabs(lo), std::fabs(hi), F.min_normal()});
  const double err = g() % 3 == 0 ? 0.0 : m * std::ldexp(u(g), -static_cast<int>(g() % 30));
  elo = -err * u(g);
  ehi = err * u(g);
}

template <class D>
struct BoxScope {};
template <>
struct BoxScope<Affine> {
  AffineContext ctx;
  AffineScope scope{ctx};
};

template <RealDomain D>
void soundness(const Trig& fn, std::uint64_t seed, int boxes, long& executions) {
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<double> u(0, 1);
  for (const FloatFormat& F : kFormats)
    for (int b = 0; b < boxes; ++b) {
      double lo, hi, elo, ehi;
      random_box(g, F, lo, hi, elo, ehi);
      const double k = b % 2 ? 0.5 : 3;
      const AccuracyModel model = k == 0.5 ? AccuracyModel::correctly_rounded() : AccuracyModel::ulps(k);
      [[maybe_unused]] BoxScope<D> scope;
      SymbolicDomainError<D> x;
      try {
        x = SymbolicDomainError<D>::input(lo, hi, elo, ehi, F);
      } catch (const std::invalid_argument&) {
        continue;
      }
      const auto z = fn(x, model);
      for (int i = 0; i < 12; ++i) {
        const double t0 = x.fp.lower() + (x.fp.upper() - x.fp.lower()) * u(g);
        double t = std::clamp(round_to(t0, F, RoundingMode::NearestEven).value, x.fp.lower(), x.fp.upper());
        if (t == 0 && x.specials.may_be_neg_zero && i % 2) t = -0.0;
        const double e = elo + (ehi - elo) * u(g);
        if (!contains(x.real, mpq_class(mpq_class(t) - mpq_class(e)))) continue;
        ++executions;
        const double y = implementation(fn, t, F, k, i % 3);
        const std::string fault = check(fn, z, t, e, y);
        if (!fault.empty())
          FAIL(fn.name << " " << F.name << " x = " << x << " t = " << t << " e = " << e << " y = " << y << ": "
                       << fault << "\nz = " << z);
      }
    }
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
  for (const Run& run : runs) {
    double t = round_to(run.start, FP16, RoundingMode::Upward).value, worst = 0;
    const double first = t;
    for (int i = 0; i < 200; ++i) {
      Mp xx(64, t), vv(256), d(256);
      run.fn->eval(vv.v, xx.v, MPFR_RNDN);
      mpfr_d_sub(d.v, round_to(vv.get(), FP16, RoundingMode::NearestEven).value, vv.v, MPFR_RNDN);
      worst = std::max(worst, std::fabs(mpfr_get_d(d.v, MPFR_RNDU)));
      if (i < 199) t = round_to(std::nextafter(t, INFINITY), FP16, RoundingMode::Upward).value;
    }
    const auto z = (*run.fn)(SymbolicError::input(first, t, FP16), cr);
    INFO(run.fn->name << " box [" << first << ", " << t << "] z = " << z << " enumerated max " << worst);
    CHECK(mag(z.err) >= worst);
    CHECK(mag(z.err) <= worst * 1.05);
  }
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
  std::mt19937_64 g(3);
  std::uniform_real_distribution<double> u(0, 1);
  int caught = 0;
  for (int i = 0; i < 2000 && caught == 0; ++i) {
    const double t = static_cast<float>(1.25 + 0.75 * u(g)), e = -0x1p-12 + 0x1p-11 * u(g);
    if (!check(kSin, z, t, e, implementation(kSin, t, FP32, 0.5, 0)).empty()) ++caught;
  }
  CHECK(caught > 0);
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
