// cbrt, hypot, atan2 and ldexp on SymbolicDomainError (operators Cbrt, Hypot,
// Atan2; ldexp is exact or one rounding): soundness against MPFR (real values
// from 4096-bit inputs, bounded at 256 bits) over random boxes in every format
// and four domains, under a correctly rounded and a 3-ulp implementation
// taken at its extremes — for hypot and atan2 also a shared operand (f(x, x))
// and composed FP64 kernels; tightness twins (the rounding within 5% of the
// enumerated FP16 maximum, the propagated error against its attained
// maximum, atan2's corner images and its 2π jump across the cut, ldexp's
// exact 2^n·e and its half-ulp subnormal rounding); planted bugs; IEEE
// special values; glibc 2.36 against its model (witnesses above the
// documented bounds).
#include <catch2/catch.hpp>

#include <cfenv>
#include <cmath>
#include <random>

#include <mpfr.h>

#include <symerr/c_types.hpp>
#include <symerr/domains/affine.hpp>
#include <symerr/domains/interval.hpp>
#include <symerr/domains/mpfr_interval.hpp>
#include <symerr/domains/rational_interval.hpp>
#include <symerr/elementary.hpp>

#include "elementary/unary_function_tests.hpp"
#include "test_scale.hpp"

using namespace symerr;
using test::UnaryFn;

namespace {

const FloatFormat kFormats[] = {FP16, BF16, FP32, FP64};
const UnaryFn kCbrt{"cbrt", OpId::Cbrt, mpfr_cbrt, {0.0, 1.0, -1.0, 8.0}};
// the operand boxes of hypot and atan2: around the axes (0) and the diagonals (±1)
const UnaryFn kAxes{"axes", OpId::Atan, mpfr_atan, {0.0, 1.0, -1.0}};

using MpfrBinary = int (*)(mpfr_ptr, mpfr_srcptr, mpfr_srcptr, mpfr_rnd_t);

// A binary function: its rule, and MPFR in the point's order (x, y).
struct BinaryFn {
  const char* name;
  OpId op;
  template <RealDomain D>
  SymbolicDomainError<D> operator()(const SymbolicDomainError<D>& x, const SymbolicDomainError<D>& y,
                                    const AccuracyModel& m) const {
    return op == OpId::Hypot ? hypot(x, y, m) : atan2(y, x, m);
  }
  int mpfr(mpfr_ptr r, mpfr_srcptr x, mpfr_srcptr y, mpfr_rnd_t rnd) const {
    return op == OpId::Hypot ? mpfr_hypot(r, x, y, rnd) : mpfr_atan2(r, y, x, rnd);
  }
};
const BinaryFn kHypot{"hypot", OpId::Hypot};
const BinaryFn kAtan2{"atan2", OpId::Atan2};

// f(x, y) rounded to nearest-even in F, decided from MPFR bounds at growing
// precision (Ziv): not through one 256-bit value, which is a tie of F when f
// is within 2^-256 of it (atan2(y, x) = y/x − (y/x)³/3 + … for a subnormal
// y/x that is a tie: BF16 atan2(0x1.a4p-7, 0x1.18p+126), just below 1.5·2^-133).
double nearest_value(const BinaryFn& fn, mpfr_srcptr x, mpfr_srcptr y, const FloatFormat& F) {
  double da = 0, db = 0;
  for (mpfr_prec_t p = 256; p <= 16384; p *= 4) {
    detail::MpfrNumber lo(p), hi(p), mid(256);
    fn.mpfr(lo.v, x, y, MPFR_RNDD);
    fn.mpfr(hi.v, x, y, MPFR_RNDU);
    da = round_to(mpfr_get_d(lo.v, MPFR_RNDD), F, RoundingMode::Downward).value;
    db = round_to(mpfr_get_d(hi.v, MPFR_RNDU), F, RoundingMode::Upward).value;
    if (da == db) return da;
    mpfr_set_d(mid.v, da, MPFR_RNDN);
    mpfr_add_d(mid.v, mid.v, db, MPFR_RNDN);  // exact: two doubles at 256 bits
    mpfr_div_2ui(mid.v, mid.v, 1, MPFR_RNDN);
    if (mpfr_cmp(hi.v, mid.v) < 0) return da;
    if (mpfr_cmp(lo.v, mid.v) > 0) return db;
    if (mpfr_equal_p(lo.v, hi.v)) break;  // an exact tie
  }
  return round_to(da / 2 + db / 2, F, RoundingMode::NearestEven).value;
}

// The implementation's result at the machine point (x, y): the correctly
// rounded value (k = 0.5 or pick 0), else a value of F k ulps below (pick 1)
// or above (pick 2) the exact one; ±inf beyond the format's range; a zero
// has the exact value's sign (atan2: y's).
double binary_implementation(const BinaryFn& fn, double x, double y, const FloatFormat& F, double k, int pick) {
  detail::MpfrNumber a(64, x), b(64, y), v(256), w(256), limit(256, F.max_finite());
  fn.mpfr(v.v, a.v, b.v, MPFR_RNDN);
  mpfr_add_d(limit.v, limit.v, k * ulp(F.max_finite(), F), MPFR_RNDN);
  if (mpfr_cmpabs(v.v, limit.v) > 0) return mpfr_sgn(v.v) > 0 ? INFINITY : -INFINITY;
  const double sign = mpfr_signbit(v.v) ? -1.0 : 1.0;
  double r;
  if (k == 0.5 || pick == 0) {
    r = nearest_value(fn, a.v, b.v, F);
  } else {
    fn.mpfr(v.v, a.v, b.v, pick == 1 ? MPFR_RNDU : MPFR_RNDD);
    const double slack = k * ulp(std::fabs(mpfr_get_d(v.v, MPFR_RNDZ)), F);
    if (pick == 1) {
      mpfr_sub_d(w.v, v.v, slack, MPFR_RNDU);
      r = round_to(mpfr_get_d(w.v, MPFR_RNDU), F, RoundingMode::Upward).value;
    } else {
      mpfr_add_d(w.v, v.v, slack, MPFR_RNDD);
      r = round_to(mpfr_get_d(w.v, MPFR_RNDD), F, RoundingMode::Downward).value;
    }
  }
  if (std::fabs(r) > F.max_finite()) return r > 0 ? INFINITY : -INFINITY;
  return r == 0 ? std::copysign(0.0, sign) : r;
}

// "" if z encloses the execution: real point (rx, ry) (4096 bits), result y.
template <RealDomain D>
std::string check_binary_execution(const BinaryFn& fn, const SymbolicDomainError<D>& z, mpfr_srcptr rx,
                                   mpfr_srcptr ry, double y) {
  const bool real_defined = fn.op == OpId::Hypot || !mpfr_zero_p(rx) || !mpfr_zero_p(ry);
  // a real zero has no sign (MPFR's −0.8 · 0 is −0, whose atan2 is −π; the real's is π)
  detail::MpfrNumber zero(64, 0.0);
  if (mpfr_zero_p(rx)) rx = zero.v;
  if (mpfr_zero_p(ry)) ry = zero.v;
  detail::MpfrNumber lo(256), hi(256);
  fn.mpfr(lo.v, rx, ry, MPFR_RNDD);
  fn.mpfr(hi.v, rx, ry, MPFR_RNDU);
  return test::check_result(z, real_defined, "atan2(0, 0) not flagged undefined", lo.v, hi.v, y);
}

// One operand of an execution: a machine value t of x's fp and an error e
// with t − e in x's real range (false if the draw missed it).
struct Draw {
  double t, e;
  detail::MpfrNumber real{4096};
};
template <RealDomain D>
bool draw(std::mt19937_64& g, const SymbolicDomainError<D>& x, const FloatFormat& F, double elo, double ehi, int i,
          Draw& d) {
  std::uniform_real_distribution<double> u(0, 1);
  const double t0 = x.fp.lower() + (x.fp.upper() - x.fp.lower()) * u(g);
  d.t = std::clamp(round_to(t0, F, RoundingMode::NearestEven).value, x.fp.lower(), x.fp.upper());
  if (d.t == 0 && x.specials.may_be_neg_zero && i % 2) d.t = -0.0;
  d.e = elo + (ehi - elo) * u(g);
  if (!contains(x.real, mpq_class(mpq_class(d.t) - mpq_class(d.e)))) return false;
  detail::MpfrNumber tt(64, d.t), ee(64, d.e);
  mpfr_sub(d.real.v, tt.v, ee.v, MPFR_RNDN);  // exact at 4096 bits
  return true;
}

// For each format, `boxes` pairs of random boxes (every 4th pair: one operand
// used twice, f(x, x)); 12 executions each under a correctly rounded (odd
// boxes) or 3-ulp model.
template <RealDomain D>
void binary_soundness(const BinaryFn& fn, std::uint64_t seed, int boxes, long& executions) {
  std::mt19937_64 g(seed);
  for (const FloatFormat& F : kFormats)
    for (int b = 0; b < boxes; ++b) {
      double lo[2], hi[2], elo[2], ehi[2];
      for (int j = 0; j < 2; ++j) test::unary_random_box(kAxes, g, F, lo[j], hi[j], elo[j], ehi[j]);
      const bool shared = b % 4 == 3;
      const double k = b % 2 ? 0.5 : 3;
      const AccuracyModel model = k == 0.5 ? AccuracyModel::correctly_rounded() : AccuracyModel::ulps(k);
      [[maybe_unused]] test::DomainScope<D> scope;
      SymbolicDomainError<D> x, y;
      try {
        x = SymbolicDomainError<D>::input(lo[0], hi[0], elo[0], ehi[0], F);
        y = shared ? x : SymbolicDomainError<D>::input(lo[1], hi[1], elo[1], ehi[1], F);
      } catch (const std::invalid_argument&) {
        continue;
      }
      const auto z = fn(x, y, model);
      for (int i = 0; i < 12; ++i) {
        Draw dx, dy;
        if (!draw(g, x, F, elo[0], ehi[0], i, dx)) continue;
        if (shared) {
          dy.t = dx.t, dy.e = dx.e;
          mpfr_set(dy.real.v, dx.real.v, MPFR_RNDN);
        } else if (!draw(g, y, F, elo[1], ehi[1], i / 2, dy)) {
          continue;
        }
        ++executions;
        const double v = binary_implementation(fn, dx.t, dy.t, F, k, i % 3);
        const std::string fault = check_binary_execution(fn, z, dx.real.v, dy.real.v, v);
        if (!fault.empty())
          FAIL(fn.name << " " << F.name << " x = " << x << " y = " << y << " t = (" << dx.t << ", " << dy.t
                       << ") e = (" << dx.e << ", " << dy.e << ") result " << v << ": " << fault << "\nz = " << z);
      }
    }
}

bool same_enclosures(const SymbolicError& a, const SymbolicError& b) {
  const Interval* fa[] = {&a.real, &a.fp, &a.err, &a.propagated, &a.introduced};
  const Interval* fb[] = {&b.real, &b.fp, &b.err, &b.propagated, &b.introduced};
  for (int i = 0; i < 5; ++i)
    if (fa[i]->lower() != fb[i]->lower() || fa[i]->upper() != fb[i]->upper()) return false;
  return true;
}

// |f(r + e) − f(r)| at one point (MPFR, 256 bits).
double exact_change(const BinaryFn& fn, double rx, double ry, double ex, double ey) {
  detail::MpfrNumber a(64, rx), b(64, ry), c(256), d(256), fa(256), fc(256);
  mpfr_add_d(c.v, a.v, ex, MPFR_RNDN);
  mpfr_add_d(d.v, b.v, ey, MPFR_RNDN);
  fn.mpfr(fa.v, a.v, b.v, MPFR_RNDN);
  fn.mpfr(fc.v, c.v, d.v, MPFR_RNDN);
  mpfr_sub(fc.v, fc.v, fa.v, MPFR_RNDN);
  return std::fabs(mpfr_get_d(fc.v, MPFR_RNDN));
}

}  // namespace

TEMPLATE_TEST_CASE("cbrt is sound (MPFR, random boxes, every format)", "[elementary][cbrt]", Interval, MpfrInterval,
                   RationalInterval, Affine) {
  long executions = 0;
  const int boxes = static_cast<int>(test::scaled(2000, 100));
  test::unary_soundness<TestType>(kCbrt, kFormats, 51, boxes, executions);
  INFO(executions << " executions");
  CHECK(executions > 4 * boxes * 12 / 2);  // 67 681 per domain
}

TEMPLATE_TEST_CASE("hypot and atan2 are sound (MPFR, random boxes, shared operands, every format)",
                   "[elementary][hypot][atan2]", Interval, MpfrInterval, RationalInterval, Affine) {
  std::uint64_t seed = 61;
  for (const BinaryFn* fn : {&kHypot, &kAtan2}) {
    long executions = 0;
    const int boxes = static_cast<int>(test::scaled(1500, 100));
    binary_soundness<TestType>(*fn, seed++, boxes, executions);
    INFO(fn->name << ": " << executions << " executions");
    CHECK(executions > 4 * boxes * 12 * 2 / 5);  // 40 222 and 40 116 per domain
  }
}

TEMPLATE_TEST_CASE("cbrt, hypot, atan2 are sound: many boxes", "[elementary][cbrt][hypot][atan2][long]", Interval,
                   Affine) {
  long executions = 0;
  test::unary_soundness<TestType>(kCbrt, kFormats, 151, 20000, executions);
  binary_soundness<TestType>(kHypot, 161, 20000, executions);
  binary_soundness<TestType>(kAtan2, 171, 20000, executions);
  CHECK(executions > 3 * 4 * 20000 * 12 / 8);
}

TEST_CASE("hypot and atan2 in composed FP64 kernels are sound", "[elementary][hypot][atan2]") {
  // polar(x, y) = (hypot(x − y, x + y), atan2(x·y, x − y)): x, y in random
  // boxes, the kernel executed in double (one rounding per operation) and
  // glibc's hypot/atan2 taken as a 3-ulp implementation at its extremes
  std::mt19937_64 g(81);
  std::uniform_real_distribution<double> u(0, 1);
  const AccuracyModel model = AccuracyModel::ulps(3);
  long executions = 0;
  const int boxes = static_cast<int>(test::scaled(2000, 200));
  for (int b = 0; b < boxes; ++b) {
    double lo[2], hi[2], elo[2], ehi[2];
    for (int j = 0; j < 2; ++j) test::unary_random_box(kAxes, g, FP64, lo[j], hi[j], elo[j], ehi[j]);
    const auto x = SymbolicError::input(lo[0], hi[0], elo[0], ehi[0], FP64);
    const auto y = SymbolicError::input(lo[1], hi[1], elo[1], ehi[1], FP64);
    const auto r = hypot(x - y, x + y, model);
    const auto a = atan2(x * y, x - y, model);
    for (int i = 0; i < 12; ++i) {
      Draw dx, dy;
      if (!draw(g, x, FP64, elo[0], ehi[0], i, dx) || !draw(g, y, FP64, elo[1], ehi[1], i, dy)) continue;
      const double d = dx.t - dy.t, s = dx.t + dy.t, p = dx.t * dy.t;
      detail::MpfrNumber rd(4096), rs(4096), rp(8192);
      mpfr_sub(rd.v, dx.real.v, dy.real.v, MPFR_RNDN);
      mpfr_add(rs.v, dx.real.v, dy.real.v, MPFR_RNDN);
      mpfr_mul(rp.v, dx.real.v, dy.real.v, MPFR_RNDN);
      if (!std::isfinite(d) || !std::isfinite(s) || !std::isfinite(p)) continue;
      ++executions;
      const std::string f1 = check_binary_execution(kHypot, r, rd.v, rs.v, binary_implementation(kHypot, d, s, FP64, 3, i % 3));
      const std::string f2 = check_binary_execution(kAtan2, a, rd.v, rp.v, binary_implementation(kAtan2, d, p, FP64, 3, i % 3));
      if (!f1.empty() || !f2.empty())
        FAIL("x = " << x << " y = " << y << " t = (" << dx.t << ", " << dy.t << "): " << f1 << " " << f2 << "\nhypot "
                    << r << "\natan2 " << a);
    }
  }
  INFO(executions << " executions");
  CHECK(executions > boxes * 12 / 3);  // 12 903
}

TEST_CASE("cbrt tightness twins: rounding, the identity, the bound across 0", "[elementary][cbrt]") {
  for (const double start : {0.6, 3.0, -5.0})
    test::check_rounding_twin(mpfr_cbrt, "cbrt", start,
                              [&](const SymbolicError& x, const AccuracyModel& m) { return cbrt(x, m); });
  // same sign: the exact identity
  test::check_propagated_twin(kCbrt, 0.5, 0.5 + 0x1p-10, 1e-12);
  test::check_propagated_twin(kCbrt, -3, -3 - 0x1p-20, 1e-12);
  // across 0: real in [−a, a], error in [0, 2a]; the bound 2^(2/3)·cbrt(2a) =
  // 2·cbrt(a) is attained at r = −a, f = a
  const double a = 0x1p-30;
  const auto z = cbrt(SymbolicError::input(-a, a, 0, 2 * a, FP64), AccuracyModel::correctly_rounded());
  const double attained = 2 * std::cbrt(a);  // 2^-9 exactly
  INFO("propagated " << z.propagated);
  CHECK(z.propagated.upper() >= attained);
  CHECK(z.propagated.upper() <= attained * (1 + 1e-12));
  CHECK(z.propagated.lower() >= -1e-300);
  test::check_planted_bug(kCbrt, 0.5, 2.0, 0x1p-12);
}

TEST_CASE("hypot and atan2 tightness twins: rounding, propagation, images, the cut", "[elementary][hypot][atan2]") {
  const AccuracyModel cr = AccuracyModel::correctly_rounded();
  // rounding: 200 consecutive FP16 x next to a fixed y, outputs in one binade
  struct Run {
    const BinaryFn* fn;
    double start, other;
  };
  for (const Run& run : {Run{&kHypot, 1.25, 0.5}, Run{&kHypot, 3.0, 2.0}, Run{&kAtan2, 1.0, 1.25}, Run{&kAtan2, 2.5, 3.0}}) {
    double t = round_to(run.start, FP16, RoundingMode::Upward).value, worst = 0;
    const double first = t;
    for (int i = 0; i < 200; ++i) {
      detail::MpfrNumber x(64, t), y(64, run.other), v(256), d(256);
      run.fn->mpfr(v.v, x.v, y.v, MPFR_RNDN);
      mpfr_d_sub(d.v, round_to(v.get(), FP16, RoundingMode::NearestEven).value, v.v, MPFR_RNDN);
      worst = std::max(worst, std::fabs(mpfr_get_d(d.v, MPFR_RNDU)));
      if (i < 199) t = round_to(std::nextafter(t, INFINITY), FP16, RoundingMode::Upward).value;
    }
    const auto z = (*run.fn)(SymbolicError::input(first, t, FP16), SymbolicError::input(run.other, run.other, FP16), cr);
    INFO(run.fn->name << " x in [" << first << ", " << t << "] z = " << z << " enumerated max " << worst);
    CHECK(mag(z.err) >= worst);
    CHECK(mag(z.err) <= worst * 1.05);
  }
  // propagation: the attained maximum at a corner of the box
  const double e = 1e-9;
  const auto h = hypot(SymbolicError::input(3, 3.01, -e, e, FP64), SymbolicError::input(4, 4.01, -e, e, FP64), cr);
  const double h_attained = exact_change(kHypot, 3.01, 4, e, e);
  INFO("hypot propagated " << h.propagated << " attained " << h_attained);
  CHECK(mag(h.propagated) >= h_attained);
  CHECK(mag(h.propagated) <= 1.01 * h_attained);
  const auto t = atan2(SymbolicError::input(1, 1.01, -e, e, FP64), SymbolicError::input(1, 1.01, -e, e, FP64), cr);
  const double t_attained = exact_change(kAtan2, 1, 1, -e, e);
  INFO("atan2 propagated " << t.propagated << " attained " << t_attained);
  CHECK(mag(t.propagated) >= t_attained);
  CHECK(mag(t.propagated) <= 1.02 * t_attained);
  // hypot across the origin: the triangle inequality, attained along a ray
  const auto o = hypot(SymbolicError::input(-1, 1, -e, e, FP64), SymbolicError::input(-1, 1, -e, e, FP64), cr);
  CHECK(mag(o.propagated) >= std::sqrt(2.0) * e);
  CHECK(mag(o.propagated) <= std::sqrt(2.0) * e * (1 + 1e-12));
  // atan2's images: the corners (atan2(1, 2) and atan2(2, 1))
  const auto c = atan2(SymbolicError::input(1, 2, FP64), SymbolicError::input(1, 2, FP64), cr);
  CHECK(c.real.lower() <= std::atan2(1.0, 2.0));
  CHECK(c.real.lower() >= std::atan2(1.0, 2.0) * (1 - 1e-15));
  CHECK(c.real.upper() >= std::atan2(2.0, 1.0));
  CHECK(c.real.upper() <= std::atan2(2.0, 1.0) * (1 + 1e-15));
  // the cut: x < 0 and y across 0 — the real value π at y = 0, the computed
  // −π at y = −0: the err holds the jump 2π (attained), and is not wider
  const auto cut = atan2(SymbolicError::input(-1e-3, 1e-3, -1e-4, 1e-4, FP32), SymbolicError::input(-2, -1, FP32), cr);
  CHECK(cut.err.lower() <= -2 * M_PI);  // real y = 0 (π), computed −0 (−π)
  CHECK(cut.err.upper() >= 2 * M_PI - 1e-3);  // real y < 0 (≈ −π), computed y > 0 (≈ π)
  CHECK(mag(cut.err) <= 2 * M_PI * (1 + 1e-6));
  // the twin: y in [0, 1e-3] with no −0 is continuous (the closed upper half-plane)
  const auto upper = atan2(SymbolicError::input(0, 1e-3, 0, 1e-9, FP32), SymbolicError::input(-2, -1, FP32), cr);
  CHECK(!upper.specials.may_be_neg_zero);
  CHECK(mag(upper.err) < 1e-6);
}

TEST_CASE("hypot and atan2: planted bugs are caught", "[elementary][hypot][atan2]") {
  for (const BinaryFn* fn : {&kHypot, &kAtan2}) {
    const double ea = 0x1p-12;
    const auto x = SymbolicError::input(0.5, 2, -ea, ea, FP32), y = SymbolicError::input(0.25, 1, -ea, ea, FP32);
    const auto good = (*fn)(x, y, AccuracyModel::correctly_rounded());
    const auto bad = test::narrowed_err(good);
    auto caught = [&](const SymbolicError& z) {
      std::mt19937_64 g(5);
      for (int i = 0; i < 2000; ++i) {
        Draw dx, dy;
        if (!draw(g, x, FP32, -ea, ea, i, dx) || !draw(g, y, FP32, -ea, ea, i, dy)) continue;
        if (!check_binary_execution(*fn, z, dx.real.v, dy.real.v, binary_implementation(*fn, dx.t, dy.t, FP32, 0.5, 0))
                 .empty())
          return true;
      }
      return false;
    };
    CAPTURE(fn->name);
    CHECK(caught(bad));
    CHECK_FALSE(caught(good));
  }
}

TEST_CASE("cbrt, hypot, atan2: special values, operands, C names", "[elementary][cbrt][hypot][atan2]") {
  const AccuracyModel cr = AccuracyModel::correctly_rounded();
  // cbrt(±0) = ±0, cbrt(±inf) = ±inf
  const auto z0 = cbrt(SymbolicError::constant(-0.0, FP32), cr);
  CHECK(z0.specials.may_be_neg_zero);
  CHECK(z0.fp.lower() == 0);
  CHECK(z0.fp.upper() == 0);
  const auto zi = cbrt(SymbolicError::inf(-1, FP32), cr);
  CHECK(zi.specials.may_be_neg_inf);
  CHECK(!zi.specials.may_be_finite);
  // hypot overflows to +inf; never negative, never NaN from finite operands
  const auto big = hypot(SymbolicError::input(0x1.fffffep127, 0x1.fffffep127, FP32),
                         SymbolicError::input(0x1.fffffep127, 0x1.fffffep127, FP32), cr);
  CHECK(big.specials.may_be_pos_inf);
  CHECK(!big.specials.may_be_finite);
  const auto hz = hypot(SymbolicError::input(-1, 1, FP32), SymbolicError::input(-1, 1, FP32), cr);
  CHECK(hz.fp.lower() == 0);
  CHECK(hz.specials.may_be_pos_zero);
  CHECK(!hz.specials.may_be_neg_zero);
  CHECK(!hz.specials.may_be_nan);
  // atan2(±0, x > 0) = ±0; atan2(0, 0): the real is undefined
  const auto az = atan2(SymbolicError::constant(-0.0, FP64), SymbolicError::input(1, 2, FP64), cr);
  CHECK(az.specials.may_be_neg_zero);
  CHECK(!az.specials.may_be_pos_zero);
  const auto origin = atan2(SymbolicError::input(-1, 1, FP64), SymbolicError::input(-1, 1, FP64), cr);
  CHECK(origin.specials.may_be_undefined);
  CHECK(origin.specials.may_be_defined);
  // a special operand makes every result possible (sound, not tight)
  const auto nan = hypot(SymbolicError::nan(FP32), SymbolicError::input(1, 2, FP32), cr);
  CHECK(nan.specials.may_be_nan);
  CHECK(nan.specials.may_be_pos_inf);
  // one format: a literal is rounded into it, two formats are refused by name
  const auto x = SymbolicError::input(1, 2, FP32);
  const auto lit = hypot(x, 0.1);
  CHECK(lit.format == Format{FP32});
  CHECK(mag(lit.introduced) > 0);  // the rounding of 0.1 into FP32 propagates
  CHECK_THROWS_WITH(atan2(x, SymbolicError::input(1, 2, FP64), cr),
                    Catch::Contains("Atan2") && Catch::Contains("FP32") && Catch::Contains("FP64"));
  const auto i8 = SymbolicError::input(1, 2, INT8);
  CHECK_THROWS_WITH(hypot(i8, i8), Catch::Contains("integer format"));
  // the C names are the same functions
  const auto y = SymbolicError::input(0.5, 1, FP32);
  CHECK(same_enclosures(cbrtf(x), cbrt(x)));
  CHECK(same_enclosures(hypotf(x, y), hypot(x, y)));
  CHECK(same_enclosures(atan2f(y, x), atan2(y, x)));
  CHECK(same_enclosures(atan2l(y, 2.0), atan2(y, 2.0)));
  // C_TYPES: the double functions compute in FP64 (a float argument widened),
  // the f ones in FP32 (a double argument narrowed: one rounding)
  const CFloat cf(x);
  const CDouble cd(SymbolicError::input(1, 2, FP64));
  CHECK(SymbolicError(hypotf(cf, cf)).format == Format{FP32});
  CHECK(SymbolicError(atan2(cf, 1.0)).format == Format{FP64});
  CHECK(SymbolicError(cbrt(cf)).format == Format{FP64});
  CHECK(SymbolicError(cbrtf(cd)).format == Format{FP32});
  CHECK(same_enclosures(SymbolicError(atan2f(cf, cf)), atan2(x, x)));
  // the identity: the real image of atan2(y, x) for y = x > 0 is π/4
  const auto diag = atan2(x, x, cr);
  CHECK(diag.real.lower() <= M_PI_4);
  CHECK(diag.real.upper() >= M_PI_4);
}

// glibc's f(x, y) at one point under the C rounding mode fe_mode (float or
// double; volatile operands: GCC folds a call on constants), in ulps of the
// exact value.
double libm_ulps(const BinaryFn& fn, bool single, double x, double y, int fe_mode) {
  volatile double vx = x, vy = y;
  double v;
  std::fesetround(fe_mode);
  if (single) {
    volatile float fx = static_cast<float>(vx), fy = static_cast<float>(vy);
    v = fn.op == OpId::Hypot ? hypotf(fx, fy) : atan2f(fy, fx);
  } else {
    v = fn.op == OpId::Hypot ? std::hypot(vx, vy) : std::atan2(vy, vx);
  }
  std::fesetround(FE_TONEAREST);
  detail::MpfrNumber a(64, x), b(64, y), ex(256), d(256);
  fn.mpfr(ex.v, a.v, b.v, MPFR_RNDN);
  mpfr_d_sub(d.v, v, ex.v, MPFR_RNDN);
  return std::fabs(mpfr_get_d(d.v, MPFR_RNDU)) / ulp(std::fabs(mpfr_get_d(ex.v, MPFR_RNDN)), single ? FP32 : FP64);
}

TEST_CASE("cbrt, hypot, atan2: glibc 2.36 within its model", "[elementary][cbrt][hypot][atan2]") {
  const AccuracyModel glibc = AccuracyModel::glibc_x86_64();
  // glibc's cbrtf downward 1.0217 ulps at x = 0x1.2e7b48p+2 (documented 1: the
  // model takes 2), cbrt toward zero 3.900 ulps at x = 0x1.85dc3da0bf0e2p+2
  // (documented 3; the model's directed entry is the upward one, 5)
  const test::LibmCase<float> f{&kCbrt, cbrtf, 0x1.2e7b48p+2f, FE_DOWNWARD, RoundingMode::Downward, 1, 1.0217};
  test::check_libm_case(f);
  const test::LibmWitness d = test::libm_witness(mpfr_cbrt, static_cast<double (*)(double)>(::cbrt),
                                                 0x1.85dc3da0bf0e2p+2, FE_TOWARDZERO);
  CHECK(d.ulps > 3);
  CHECK(d.ulps <= glibc.bound(OpId::Cbrt, FP64, RoundingMode::TowardZero).ulps);
  // above the documented bound (the sweep's witnesses): hypot toward zero
  // (documented 1), atan2f to nearest (1) and downward (2); the model holds them
  struct Witness {
    const BinaryFn* fn;
    bool single;
    double x, y;
    int fe_mode;
    RoundingMode mode;
    double documented;
  };
  for (const Witness& w : {Witness{&kHypot, false, -0x1.7d6b7e59946ecp+2, -0x1.d6d4320c6fbbdp+1, FE_TOWARDZERO,
                                   RoundingMode::TowardZero, 1},
                           Witness{&kAtan2, true, 0x1.58c93ap+4, 0x1.58f8dp+0, FE_TONEAREST, RoundingMode::NearestEven, 1},
                           Witness{&kAtan2, true, 0x1.e44d8p+5, 0x1.e45684p+1, FE_DOWNWARD, RoundingMode::Downward, 2}}) {
    const double ulps = libm_ulps(*w.fn, w.single, w.x, w.y, w.fe_mode);
    const double k = glibc.bound(w.fn->op, w.single ? FP32 : FP64, w.mode).ulps;
    INFO(w.fn->name << (w.single ? "f" : "") << " at (" << w.x << ", " << w.y << "): " << ulps << " ulps, model " << k);
    CHECK(ulps > w.documented);
    CHECK(ulps <= k);
    // tightness: tests/libm (an entry one ulp lower is caught)
  }
  // hypot, atan2 (float and double) on random points in every mode: within the model
  const int modes[] = {FE_TONEAREST, FE_DOWNWARD, FE_TOWARDZERO, FE_UPWARD};
  const RoundingMode rms[] = {RoundingMode::NearestEven, RoundingMode::Downward, RoundingMode::TowardZero,
                              RoundingMode::Upward};
  std::mt19937_64 g(91);
  std::uniform_real_distribution<double> u(-1, 1);
  const int n = static_cast<int>(test::scaled(3000, 300));
  for (const BinaryFn* fn : {&kHypot, &kAtan2})
    for (int m = 0; m < 4; ++m)
      for (const bool single : {true, false}) {
        const double k = glibc.bound(fn->op, single ? FP32 : FP64, rms[m]).ulps;
        double worst = 0;
        for (int i = 0; i < n; ++i) {
          const double x0 = std::ldexp(u(g), static_cast<int>(g() % 17) - 8);
          const double y0 = std::ldexp(u(g), static_cast<int>(g() % 17) - 8);
          const double x = single ? static_cast<float>(x0) : x0, y = single ? static_cast<float>(y0) : y0;
          worst = std::max(worst, libm_ulps(*fn, single, x, y, modes[m]));
        }
        INFO(fn->name << (single ? "f" : "") << " mode " << m << ": " << worst << " ulps, model " << k);
        CHECK(worst <= k);
      }
}

TEST_CASE("cbrt in Affine: cbrt(x) − cbrt(x) is exactly 0, also across 0", "[elementary][cbrt]") {
  using SA = SymbolicDomainError<Affine>;
  AffineContext ctx;
  AffineScope scope(ctx);
  for (const double lo : {0.5, -2.0, -1.0}) {
    const double hi = lo < -1.5 ? -0.25 : 1.5;
    const SA x = SA::input(lo, hi, -1e-6, 1e-6, FP32);
    const SA d = cbrt(x) - cbrt(x);
    CAPTURE(lo, d);
    for (const Affine* a : {&d.real, &d.fp, &d.err}) {
      CHECK(a->lower() == 0);
      CHECK(a->upper() == 0);
    }
    const SymbolicError xi = SymbolicError::input(lo, hi, -1e-6, 1e-6, FP32);
    CHECK(width((cbrt(xi) - cbrt(xi)).real) > 0.1);  // twin
  }
}

// ---- ldexp -------------------------------------------------------------------

namespace {

// Executions of ldexp(x, n) over random boxes: t ∈ fp, e, r = t − e; the
// machine result is t·2^n rounded once to nearest in F (exact in MPFR, then a
// double: one rounding for FP64, exact for the narrower formats unless far
// below their range), the real one r·2^n exactly.
template <RealDomain D>
void ldexp_soundness(std::uint64_t seed, int boxes, long& executions) {
  std::mt19937_64 g(seed);
  for (const FloatFormat& F : kFormats)
    for (const int n : {-1080, -140, -30, -3, 0, 5, 40, 1100})
      for (int b = 0; b < boxes; ++b) {
        double lo, hi, elo, ehi;
        test::unary_random_box(kAxes, g, F, lo, hi, elo, ehi);
        [[maybe_unused]] test::DomainScope<D> scope;
        SymbolicDomainError<D> x;
        try {
          x = SymbolicDomainError<D>::input(lo, hi, elo, ehi, F);
        } catch (const std::invalid_argument&) {
          continue;
        }
        const auto z = ldexp(x, n);
        for (int i = 0; i < 6; ++i) {
          Draw d;
          if (!draw(g, x, F, elo, ehi, i, d)) continue;
          ++executions;
          detail::MpfrNumber t(64, d.t), y(256), r(4096);
          mpfr_mul_2si(y.v, t.v, n, MPFR_RNDN);  // exact
          const double v = round_to(mpfr_get_d(y.v, MPFR_RNDN), F, RoundingMode::NearestEven).value;
          const double result = v == 0 ? std::copysign(0.0, d.t) : v;
          mpfr_mul_2si(r.v, d.real.v, n, MPFR_RNDN);  // exact
          const std::string fault = test::check_result(z, true, "", r.v, r.v, result);
          if (!fault.empty())
            FAIL("ldexp(x, " << n << ") " << F.name << " x = " << x << " t = " << d.t << " e = " << d.e << " result "
                             << result << ": " << fault << "\nz = " << z);
        }
      }
}

}  // namespace

TEMPLATE_TEST_CASE("ldexp is sound (exact 2^n scaling, one rounding below the normal range, overflow)",
                   "[elementary][ldexp]", Interval, MpfrInterval, RationalInterval, Affine) {
  long executions = 0;
  const int boxes = static_cast<int>(test::scaled(150, 15));
  ldexp_soundness<TestType>(191, boxes, executions);
  INFO(executions << " executions");
  CHECK(executions > 4 * 8 * boxes * 6 / 2);
}

TEST_CASE("ldexp: tightness twins, special values, names", "[elementary][ldexp]") {
  // exact scaling: the err is 2^n times the operand's, to the bit
  const double e = 0x1p-20;
  const auto x = SymbolicError::input(1, 2, -e, e, FP32);
  const auto z = ldexp(x, 3);
  CHECK(z.err.lower() == -8 * e);
  CHECK(z.err.upper() == 8 * e);
  CHECK(z.introduced.lower() == 0);
  CHECK(z.introduced.upper() == 0);
  // into the subnormals: one rounding, at most half the spacing 2^-149, which
  // t = 1 + 2^-10 attains (t·2^-140 = 2^-140 + 2^-150, a tie)
  const auto s = ldexp(SymbolicError::input(1, 2, FP32), -140);
  const double exact = std::ldexp(1 + 0x1p-10, -140);  // a double: exact
  CHECK(std::fabs(round_to(exact, FP32, RoundingMode::NearestEven).value - exact) == 0x1p-150);
  CHECK(mag(s.introduced) == 0x1p-150);
  // a point: the correctly rounded result, one value
  const auto p = ldexp(SymbolicError::constant(0x1.fffffep-1, FP32), -140);
  CHECK(is_point(p.fp));
  CHECK(p.fp.lower() == 0x1p-140);
  // Affine: the real part is a form of the operand
  {
    using SA = SymbolicDomainError<Affine>;
    AffineContext ctx;
    AffineScope scope(ctx);
    const SA a = SA::input(0.5, 1.5, -1e-6, 1e-6, FP32);
    const SA d = ldexp(a, 1) - 2 * a;
    CHECK(d.real.lower() == 0);
    CHECK(d.real.upper() == 0);
    CHECK(width((ldexp(x, 1) - 2 * x).real) > 0.5);  // the Interval twin
  }
  // IEEE: signed zeros, infinities, NaN, overflow
  CHECK(ldexp(SymbolicError::constant(-0.0, FP16), 3).specials.may_be_neg_zero);
  CHECK(ldexp(SymbolicError::inf(-1, FP16), -3).specials.may_be_neg_inf);
  CHECK(ldexp(SymbolicError::nan(FP16), 1).specials.may_be_nan);
  const auto big = ldexp(SymbolicError::input(1, 2, FP16), 16);
  CHECK(big.specials.may_be_pos_inf);
  CHECK(big.specials.may_overflow);
  CHECK_THROWS_WITH(ldexp(SymbolicError::input(1, 2, INT8), 1), Catch::Contains("ldexp") && Catch::Contains("INT8"));
  // the C names and C_TYPES
  CHECK(same_enclosures(ldexpf(x, -7), ldexp(x, -7)));
  CHECK(same_enclosures(scalbnf(x, 2), ldexp(x, 2)));
  CHECK(same_enclosures(scalblnf(x, 2L), ldexp(x, 2)));
  const CDouble cd(SymbolicError::input(1, 2, FP64));
  CHECK(SymbolicError(ldexpf(cd, 2)).format == Format{FP32});
  CHECK(SymbolicError(ldexp(CFloat(x), 2)).format == Format{FP64});
}
