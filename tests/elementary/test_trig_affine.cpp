// sin, cos and tan linearised in the Affine domain (trig_shape,
// linearise.hpp): on an operand range between two inflection points around
// one — including sin's and cos's irrational inflection points kπ and
// π/2 + kπ, bracketed by doubles — f(x) is a form correlated with x, so an
// expression in which the linear parts cancel (sin x − x near 0, cos x + x
// near π/2, sin x + x near π, tan x − x near 0, sin x − x near 1000π) is
// bounded by its curvature, not by the width of the ranges. Soundness: the
// real value (MPFR, 256 bits, outward), the computed value (glibc's sin, cos,
// tan and a rounded sum) and their difference lie in the enclosures at every
// sampled point, the inflection brackets' doubles included. Twins: the
// Interval domain's width (no correlation) is at least 50× the Affine one,
// and the Affine width is within 4× of the sampled range of the real value.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <random>

#include <mpfr.h>

#include <symerr/domains/affine.hpp>
#include <symerr/domains/symbolic_interval.hpp>
#include <symerr/elementary.hpp>
#include <symerr/mpfr_state.hpp>

using namespace symerr;

namespace {

struct Case {
  const char* name;
  OpId fn;
  double lo, hi;
  double s;  // g(x) = f(x) + s·x
};

template <RealDomain D>
SymbolicDomainError<D> apply(OpId fn, const SymbolicDomainError<D>& x) {
  return fn == OpId::Sin ? sin(x) : fn == OpId::Cos ? cos(x) : tan(x);
}

double libm(OpId fn, double t) { return fn == OpId::Sin ? std::sin(t) : fn == OpId::Cos ? std::cos(t) : std::tan(t); }

// f(t) + s·t at 256 bits rounded in direction r
void exact_g(mpfr_ptr out, OpId fn, double t, double s, mpfr_rnd_t r) {
  detail::MpfrNumber x(256, t), f(256);
  if (fn == OpId::Sin) mpfr_sin(f.v, x.v, r);
  else if (fn == OpId::Cos) mpfr_cos(f.v, x.v, r);
  else mpfr_tan(f.v, x.v, r);
  mpfr_mul_d(x.v, x.v, s, r);  // s = ±1: exact
  mpfr_add(out, f.v, x.v, r);
}

}  // namespace

TEST_CASE("sin, cos, tan in Affine: linearised across inflection points, sound and tight",
          "[elementary][affine][trig]") {
  const double k1000 = 1000 * M_PI;
  const Case cases[] = {
      {"sin x - x on [-0.1, 0.1]", OpId::Sin, -0.1, 0.1, -1},
      {"cos x + x on [1.4, 1.7] (inflection pi/2)", OpId::Cos, 1.4, 1.7, 1},
      {"sin x + x on [3.0, 3.3] (inflection pi)", OpId::Sin, 3.0, 3.3, 1},
      {"tan x - x on [-0.2, 0.2]", OpId::Tan, -0.2, 0.2, -1},
      {"sin x - x on 1000 pi +- 0.05", OpId::Sin, k1000 - 0.05, k1000 + 0.05, -1},
      {"cos x - x on -pi/2 +- 0.2 (inflection -pi/2)", OpId::Cos, -M_PI / 2 - 0.2, -M_PI / 2 + 0.2, -1},
  };
  std::mt19937_64 rng(77);
  for (const Case& c : cases) {
    INFO(c.name);
    AffineContext ctx;
    AffineScope scope(ctx);
    using SA = SymbolicDomainError<Affine>;
    const SA xa = SA::input(c.lo, c.hi, FP64);
    const SA za = apply(c.fn, xa) + SA::constant(c.s, FP64) * xa;
    const SymbolicError xi = SymbolicError::input(c.lo, c.hi, FP64);
    const SymbolicError zi = apply(c.fn, xi) + SymbolicError::constant(c.s, FP64) * xi;
    // sample points: uniform, the ends, and the doubles around the inflection point
    std::vector<double> ts = {c.lo, c.hi};
    const double kpi = c.fn == OpId::Cos ? std::nearbyint((c.lo + c.hi) / 2 / M_PI - 0.5) + 0.5
                                         : std::nearbyint((c.lo + c.hi) / 2 / M_PI);
    const double z = kpi * M_PI;
    for (double t = std::nextafter(z, -INFINITY), n = 0; n < 4; ++n, t = std::nextafter(t, INFINITY)) ts.push_back(t);
    std::uniform_real_distribution<double> u(c.lo, c.hi);
    for (int i = 0; i < 3000; ++i) ts.push_back(u(rng));
    std::size_t bad = 0;
    double g_min = INFINITY, g_max = -INFINITY;
    detail::MpfrNumber lo(256), hi(256);
    for (double t : ts) {
      if (t < c.lo || t > c.hi) continue;
      exact_g(lo.v, c.fn, t, c.s, MPFR_RNDD);
      exact_g(hi.v, c.fn, t, c.s, MPFR_RNDU);
      const double computed = libm(c.fn, t) + c.s * t;  // the kernel's float computation (round to nearest)
      g_min = std::min(g_min, mpfr_get_d(lo.v, MPFR_RNDD));
      g_max = std::max(g_max, mpfr_get_d(hi.v, MPFR_RNDU));
      const bool real_ok = mpfr_cmp_d(lo.v, za.real.lower()) >= 0 && mpfr_cmp_d(hi.v, za.real.upper()) <= 0;
      const bool fp_ok = computed >= za.fp.lower() && computed <= za.fp.upper();
      // err = computed − real within [computed − hi, computed − lo]
      detail::MpfrNumber e_lo(256, computed), e_hi(256, computed);
      mpfr_sub(e_lo.v, e_lo.v, hi.v, MPFR_RNDD);
      mpfr_sub(e_hi.v, e_hi.v, lo.v, MPFR_RNDU);
      const bool err_ok = mpfr_cmp_d(e_lo.v, za.err.lower()) >= 0 && mpfr_cmp_d(e_hi.v, za.err.upper()) <= 0;
      if (!(real_ok && fp_ok && err_ok)) ++bad;
    }
    CHECK(bad == 0);
    const double affine_width = za.real.upper() - za.real.lower();
    const double interval_width = zi.real.upper() - zi.real.lower();
    const double sampled = g_max - g_min;
    std::printf("trig affine: %-45s Affine width %.3g, Interval %.3g, sampled %.3g\n", c.name, affine_width,
                interval_width, sampled);
    CHECK(affine_width <= 4 * sampled + 1e-12);
    CHECK(interval_width >= 50 * affine_width);
  }
}

// The linearisations themselves: for random ranges (inside one piece, across
// an inflection point, around kπ/2 for k up to 10^4, widths up to 3.5 —
// wider than a piece, where trig_shape must refuse), every Line returned
// must hold f(t) − α·t at every sampled t of the range (MPFR, 256 bits), and
// the slope range f'(t). A wrong curvature, a domain reaching past the next
// inflection point or a dropped bracket piece fails here.
TEST_CASE("sin, cos, tan linearisation shapes: every line and slope range holds f (MPFR)",
          "[elementary][affine][trig]") {
  std::mt19937_64 rng(2024);
  std::uniform_real_distribution<double> unit(0, 1);
  std::size_t lines = 0, refused = 0, bad = 0;
  const int ranges = 3000;
  for (int i = 0; i < ranges; ++i) {
    const OpId fn = i % 3 == 0 ? OpId::Sin : i % 3 == 1 ? OpId::Cos : OpId::Tan;
    const double k = std::floor(unit(rng) * (i % 4 == 0 ? 20000 : 40)) - (i % 4 == 0 ? 10000 : 20);
    const double center = k * M_PI / 2 + (unit(rng) - 0.5) * (i % 2 ? 0.4 : 3.0);
    // a fifth of the ranges about a piece wide (2.5 … 3.5: across one inflection point or two)
    const double width =
        i % 5 == 4 ? 2.5 + unit(rng) : std::ldexp(unit(rng), -static_cast<int>(unit(rng) * 20)) * 3.5;
    const double a = center - width / 2, b = center + width / 2;
    const std::optional<elementary::Shape> s = elementary::trig_shape(fn, a, b);
    const std::optional<elementary::Line> l = s ? elementary::linearise(*s, a, b) : std::nullopt;
    const auto r = s ? elementary::slope_range(*s, a, b) : std::nullopt;
    if (!l) {
      ++refused;
      continue;
    }
    ++lines;
    detail::MpfrNumber x(256), f(256), d(256), g(256);
    std::vector<double> ts = {a, b};
    if (!std::isnan(s->inflection)) {
      ts.push_back(s->inflection);
      if (!std::isnan(s->inflection_hi)) ts.push_back(s->inflection_hi);
    }
    for (int j = 0; j < 40; ++j) ts.push_back(a + (b - a) * unit(rng));
    for (double t : ts) {
      if (t < a || t > b) continue;
      mpfr_set_d(x.v, t, MPFR_RNDN);
      for (mpfr_rnd_t dir : {MPFR_RNDD, MPFR_RNDU}) {
        if (fn == OpId::Sin) mpfr_sin(f.v, x.v, dir), mpfr_cos(d.v, x.v, dir);
        else if (fn == OpId::Cos) mpfr_cos(f.v, x.v, dir), mpfr_sin(d.v, x.v, dir), mpfr_neg(d.v, d.v, MPFR_RNDN);
        else {
          mpfr_tan(f.v, x.v, dir);
          mpfr_sqr(d.v, f.v, MPFR_RNDN);
          mpfr_add_ui(d.v, d.v, 1, MPFR_RNDN);
        }
        mpfr_mul_d(g.v, x.v, l->alpha, MPFR_RNDN);  // 256 bits: exact
        mpfr_sub(g.v, f.v, g.v, dir);
        if (mpfr_cmp_d(g.v, l->lo) < 0 || mpfr_cmp_d(g.v, l->hi) > 0) ++bad;
        if (r && (mpfr_cmp_d(d.v, r->first) < 0 || mpfr_cmp_d(d.v, r->second) > 0)) ++bad;
      }
    }
  }
  std::printf("trig shapes: %zu lines checked, %zu ranges refused, %zu violations\n", lines, refused, bad);
  CHECK(bad == 0);
  CHECK(lines > ranges / 2);  // the twin: most ranges (narrower than a piece) are linearised
  CHECK(refused > 0);         // … and the widest ones are not
}
