// The rigorous fast FP32 unary oracle (unary_fast_oracle.hpp): binary64 ball
// arithmetic with proven radii, and the FP32 decision from the enclosure.
//
// Rounding model (binary64, round to nearest, no FTZ/DAZ — the worker's
// environment, unary_check.cpp): for a result v = fl(a op b) in the normal
// range, |v − (a op b)| <= u·|v| with u = 2^−53 (round to nearest: the error is
// at most half the spacing at v, and the spacing at v is <= 2^−52·|v|); below
// the normal range the error is at most 2^−1075 more, covered by adding
// η = 2^−1022 to the radius of every product and quotient (sums of doubles
// are exact when subnormal; η is normal, so no operation here is subnormal). Every radius below is a sum of products of
// nonnegative terms computed in round to nearest: each computed radius is at
// least the exact one divided by (1 + u)^c, c the number of operations it
// depends on (< 3000 here), and (1 + u)^3000 < 1 + 2^−41; so the final radius
// is multiplied by 1 + 2^−40 (kInflate), and the endpoints m ∓ r are moved one
// binary64 step outwards (nextafter), which covers the rounding of m ∓ r.
#include <symerr/verify/oracle/unary_fast_oracle.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include <mpfr.h>

#include <symerr/fp_environment.hpp>

namespace symerr::verify {
namespace {

constexpr double kU = 0x1p-53;      // unit roundoff of binary64
constexpr double kEta = 0x1p-1022;  // >= the rounding error of a subnormal result (2^−1075); normal, so no slow subnormal arithmetic
constexpr double kInflate = 1 + 0x1p-40;
constexpr double kBelowOne = 1 - 0x1p-53;  // the largest double below 1
constexpr double kExpRho = 0.00136;        // > ln2/512 = 0.0013538: exp's reduced argument

// The set [m − r, m + r].
struct Ball {
  double m = 0, r = 0;
};

inline Ball add(Ball a, Ball b) {
  const double m = a.m + b.m;
  return {m, a.r + b.r + kU * std::fabs(m)};
}
inline Ball sub(Ball a, Ball b) {
  const double m = a.m - b.m;
  return {m, a.r + b.r + kU * std::fabs(m)};
}
// (a.m + α)(b.m + β) − a.m·b.m = a.m·β + α·b.m + αβ
inline Ball mul(Ball a, Ball b) {
  const double m = a.m * b.m;
  // grouped so that a's radius (the running one in a chain) meets two operations
  return {m, (std::fabs(a.m) * b.r + kU * std::fabs(m) + kEta) + a.r * (std::fabs(b.m) + b.r)};
}
// a/b − a.m/b.m = (α·b.m − a.m·β)/(b·b.m), |b| >= |b.m| − b.r > 0 (checked by the callers' ranges)
inline Ball div(Ball a, Ball b) {
  const double m = a.m / b.m;
  const double bm = std::fabs(b.m);
  return {m, (a.r * bm + std::fabs(a.m) * b.r) / (bm * (bm - b.r)) + kU * std::fabs(m) + kEta};
}
inline Ball neg(Ball a) { return {-a.m, a.r}; }

// 2^e for a normal binary64 exponent e (|e| <= 1022)
inline double pow2(int e) {
  const std::uint64_t b = static_cast<std::uint64_t>(e + 1023) << 52;
  double v;
  std::memcpy(&v, &b, 8);
  return v;
}

// The neighbours of a finite double (nextafter without the library call).
inline double step_down(double v) {
  std::uint64_t b;
  std::memcpy(&b, &v, 8);
  if (v == 0) return -0x1p-1074;
  b = v > 0 ? b - 1 : b + 1;
  std::memcpy(&v, &b, 8);
  return v;
}
inline double step_up(double v) { return -step_down(-v); }
inline Ball exact(double v) { return {v, 0}; }
inline double magnitude(Ball a) { return std::fabs(a.m) + a.r; }

// ---- constants from MPFR -------------------------------------------------------

constexpr mpfr_prec_t kPrec = 256;

struct Mpfr {
  mpfr_t v;
  Mpfr() { mpfr_init2(v, kPrec); }
  ~Mpfr() { mpfr_clear(v); }
  Mpfr(const Mpfr&) = delete;
  Mpfr& operator=(const Mpfr&) = delete;
};

// c (a 256-bit MPFR value within 2^−250·|c| of the constant it stands for) as
// a ball: m = RN(c), r >= |constant − m|.
Ball ball_of(mpfr_srcptr c) {
  const double m = mpfr_get_d(c, MPFR_RNDN);
  Mpfr d;
  mpfr_sub_d(d.v, c, m, MPFR_RNDA);
  mpfr_abs(d.v, d.v, MPFR_RNDU);
  return {m, mpfr_get_d(d.v, MPFR_RNDU) + 0x1p-240 * std::fabs(m)};
}

// A power series Σ c_i t^i evaluated on a ball t with |t| <= rho of one of its
// tiers: terms 0..n by Horner on the midpoint, with the radius
//   u·E + n·η + coef + t.r·deriv + tail, where
// * E = Σ_i |t.m|^i (|p_i| + |q_i|) is Higham's running error sum (p_i =
//   fl(q_{i+1}·t.m), q_i = fl(p_i + c_i.m): each step's two roundings are at
//   most u·|p_i| + u·|q_i| (+ η if p_i is subnormal), and step i's error is
//   multiplied by t.m^i on the way to q_0);
// * coef >= Σ_{i<=n} c_i.r·rho^i (the coefficients' representation errors);
// * deriv >= max_{|s|<=rho} |P'(s)| <= Σ_{i>=1} i·(|c_i.m| + c_i.r)·rho^(i−1)
//   (t's own radius, by the mean value theorem);
// * tail >= |Σ_{i>n} c_i s^i| for |s| <= rho (the series' remainder bound).
// E is computed alongside the midpoint (one multiply-add per step, so the
// radius adds no latency); coef and deriv are computed once, in binary64 on
// nonnegative terms, times 1 + 2^−30 (more than covers their roundings).
struct Series {
  struct Tier {
    double rho = 0;
    int n = 0;
    double tail = 0, coef = 0, deriv = 0;
  };
  std::vector<double> m;  // c_i.m
  std::vector<Ball> c;
  std::vector<Tier> tiers;  // increasing rho
};

// Builds the tiers: for each rho of a fixed ladder up to rho_max, the fewest
// terms whose tail bound (computed by `tail(n, rho)` in MPFR rounding upwards)
// is <= 2^−66.
template <class Tail>
void build_tiers(Series& s, double rho_max, Tail tail) {
  for (const Ball& b : s.c) s.m.push_back(b.m);
  for (double rho : {0x1p-60, 0x1p-40, 0x1p-30, 0x1p-22, 0x1p-16, 0x1p-12, 0x1p-9, 0x1p-7, 0x1p-5, 0x1p-3,
                     0x1p-2, rho_max}) {
    if (rho > rho_max) continue;
    Series::Tier t{rho, static_cast<int>(s.c.size()) - 1, 0, 0, 0};
    for (int n = 0; n < static_cast<int>(s.c.size()); ++n)
      if (tail(n, rho) <= 0x1p-66) {
        t.n = n;
        break;
      }
    t.tail = tail(t.n, rho);
    for (int i = t.n; i >= 0; --i) {
      const Ball& ci = s.c[static_cast<std::size_t>(i)];
      t.coef = t.coef * rho + ci.r;
      if (i >= 1) t.deriv = t.deriv * rho + i * (std::fabs(ci.m) + ci.r);
    }
    t.coef *= 1 + 0x1p-30;
    t.deriv *= 1 + 0x1p-30;
    s.tiers.push_back(t);
    if (rho == rho_max) break;
  }
}

// rho^(n+1) · factor, rounded upwards (factor > 0 given in MPFR, rounded upwards)
double power_times(double rho, int n, mpfr_srcptr factor) {
  Mpfr p;
  mpfr_set_d(p.v, rho, MPFR_RNDU);
  mpfr_pow_ui(p.v, p.v, static_cast<unsigned long>(n + 1), MPFR_RNDU);
  mpfr_mul(p.v, p.v, factor, MPFR_RNDU);
  return mpfr_get_d(p.v, MPFR_RNDU);
}

std::optional<Ball> evaluate(const Series& s, Ball t) {
  const double mag = magnitude(t);
  for (const Series::Tier& tier : s.tiers) {
    if (!(mag <= tier.rho)) continue;
    const double* c = s.m.data();
    const double x = t.m, ax = std::fabs(x);
    double q = c[tier.n], e = 0;
    for (int i = tier.n - 1; i >= 0; --i) {
      const double p = q * x;
      q = p + c[i];
      e = e * ax + (std::fabs(p) + std::fabs(q));
    }
    return Ball{q, kU * e + ((tier.n * kEta + tier.coef + tier.tail) + t.r * tier.deriv)};
  }
  return std::nullopt;  // outside the series' range: a caller's range argument failed
}

struct Tables {
  // ln 2 / 256 = l_hi + l_lo + δ, l_hi with 32 significant bits, |δ| <= l_err
  double l_hi = 0, l_lo = 0, l_err = 0;
  double inv_l = 0;                  // ≈ 256 / ln 2 (only picks k)
  std::array<Ball, 256> two_j{};     // 2^(j/256)
  Ball two_over_sqrt_pi;
  Series exp_s, expm1_s, atanh_s, erf_s;  // see the evaluators
  double ln2_hi = 0, ln2_lo = 0, ln2_err = 0;  // ln 2 = ln2_hi + ln2_lo + δ, |δ| <= ln2_err
  Tables();
};

// hi: v rounded to `bits` significant bits (toward zero); lo: RN(v − hi); err >= |v − hi − lo|
void split(mpfr_srcptr v, int bits, double& hi, double& lo, double& err) {
  Mpfr h, d;
  mpfr_set_prec(h.v, bits);
  mpfr_set(h.v, v, MPFR_RNDZ);
  hi = mpfr_get_d(h.v, MPFR_RNDN);  // exact: bits <= 53
  mpfr_sub_d(d.v, v, hi, MPFR_RNDN);
  const Ball b = ball_of(d.v);
  lo = b.m;
  err = b.r + 0x1p-240;
}

void build_series(Tables& T) {
  Mpfr c, f;
  // exp: c_i = 1/i!; |Σ_{i>n} t^i/i!| <= rho^(n+1)/(n+1)! · e^rho
  mpfr_set_ui(f.v, 1, MPFR_RNDN);
  for (int i = 0; i <= 10; ++i) {
    if (i > 0) mpfr_mul_ui(f.v, f.v, static_cast<unsigned long>(i), MPFR_RNDN);  // exact: i! < 2^256
    mpfr_ui_div(c.v, 1, f.v, MPFR_RNDN);
    T.exp_s.c.push_back(ball_of(c.v));
  }
  // expm1(t)/t: c_j = 1/(j+1)!; |Σ_{j>n} t^j/(j+1)!| <= rho^(n+1)/(n+2)! · e^rho
  mpfr_set_ui(f.v, 1, MPFR_RNDN);
  for (int j = 0; j <= 17; ++j) {
    mpfr_mul_ui(f.v, f.v, static_cast<unsigned long>(j + 1), MPFR_RNDN);
    mpfr_ui_div(c.v, 1, f.v, MPFR_RNDN);
    T.expm1_s.c.push_back(ball_of(c.v));
  }
  auto factorial_tail = [](int offset) {
    return [offset](int n, double rho) {
      Mpfr g, e;
      mpfr_fac_ui(g.v, static_cast<unsigned long>(n + offset), MPFR_RNDD);
      mpfr_set_d(e.v, rho, MPFR_RNDU);
      mpfr_exp(e.v, e.v, MPFR_RNDU);
      mpfr_div(e.v, e.v, g.v, MPFR_RNDU);
      return power_times(rho, n, e.v);
    };
  };
  build_tiers(T.exp_s, kExpRho, factorial_tail(1));
  build_tiers(T.expm1_s, 0.35, factorial_tail(2));
  // atanh(s)/s in z = s²: c_i = 1/(2i+1); |Σ_{i>n} z^i/(2i+1)| <= z^(n+1)/((2n+3)(1 − z))
  for (int i = 0; i <= 13; ++i) {
    mpfr_set_ui(c.v, 1, MPFR_RNDN);
    mpfr_div_ui(c.v, c.v, static_cast<unsigned long>(2 * i + 1), MPFR_RNDN);
    T.atanh_s.c.push_back(ball_of(c.v));
  }
  build_tiers(T.atanh_s, 0.0295, [](int n, double rho) {
    Mpfr g;
    mpfr_set_d(g.v, 1 - rho, MPFR_RNDD);
    mpfr_mul_ui(g.v, g.v, static_cast<unsigned long>(2 * n + 3), MPFR_RNDD);
    mpfr_ui_div(g.v, 1, g.v, MPFR_RNDU);
    return power_times(rho, n, g.v);
  });
  // erf(a)/(2a/√π) in z = a²: c_n = (−1)^n/(n!(2n+1)); |Σ_{n>N} …| <= z^(N+1)/(N+1)! · e^z
  mpfr_set_ui(f.v, 1, MPFR_RNDN);
  for (int n = 0; n <= 26; ++n) {
    if (n > 0) mpfr_mul_ui(f.v, f.v, static_cast<unsigned long>(n), MPFR_RNDN);
    mpfr_mul_ui(c.v, f.v, static_cast<unsigned long>(2 * n + 1), MPFR_RNDN);
    mpfr_ui_div(c.v, 1, c.v, MPFR_RNDN);
    if (n % 2) mpfr_neg(c.v, c.v, MPFR_RNDN);
    T.erf_s.c.push_back(ball_of(c.v));
  }
  build_tiers(T.erf_s, 1.0, factorial_tail(1));
}

Tables::Tables() {
  Mpfr v;
  mpfr_const_log2(v.v, MPFR_RNDN);
  split(v.v, 32, ln2_hi, ln2_lo, ln2_err);
  mpfr_div_ui(v.v, v.v, 256, MPFR_RNDN);  // exact
  split(v.v, 32, l_hi, l_lo, l_err);
  inv_l = 1 / mpfr_get_d(v.v, MPFR_RNDN);
  for (int j = 0; j < 256; ++j) {
    mpfr_set_si(v.v, j, MPFR_RNDN);
    mpfr_div_ui(v.v, v.v, 256, MPFR_RNDN);  // exact
    mpfr_exp2(v.v, v.v, MPFR_RNDN);
    two_j[static_cast<std::size_t>(j)] = ball_of(v.v);
  }
  mpfr_const_pi(v.v, MPFR_RNDN);
  mpfr_sqrt(v.v, v.v, MPFR_RNDN);
  mpfr_ui_div(v.v, 2, v.v, MPFR_RNDN);
  two_over_sqrt_pi = ball_of(v.v);
  build_series(*this);
  mpfr_free_cache();
}

const Tables& tables() {
  static const Tables t;
  return t;
}

// ---- the evaluators -------------------------------------------------------------

// exp(t), |t| <= 200, t any double.
// Reduction: k = nearest integer to t·256/ln 2, k = 256q + j (0 <= j < 256),
// exp(t) = 2^q · 2^(j/256) · exp(r), r = t − k·ln2/256.
// r1 = t − k·l_hi is exact: |k| < 2^17 and l_hi has 32 significant bits, so
// k·l_hi is exact (49 bits) and a multiple of 2^−40 (l_hi ∈ [2^−9, 2^−8)); if
// k ≠ 0 then |t| >= 0.00135 > 2^−10, so t is a multiple of 2^−62 (the spacing
// at 2^−10), and r1 is a multiple of 2^−62 with |r1| < 2^−9 (|r| <= kExpRho is
// checked below, and |r1 − r| <= |k|·2^−40 <= 2^−23): at most 53 bits. r = r1 − k·l_lo − k·δ: the rounding of k·l_lo and of the
// subtraction (u each) and |k|·l_err form r's radius.
// exp(r): Taylor series to degree n with the tier's remainder bound
// rho^(n+1)/(n+1)!·e^rho (|r| <= rho <= kExpRho), evaluated on the ball r (so
// r's radius propagates). Times the ball 2^(j/256); the scaling by 2^q
// is exact (|q| <= 300: every result stays normal, every radius above 2^−1000).
std::optional<Ball> exp_ball(double t) {
  const Tables& T = tables();
  if (!(std::fabs(t) <= 200)) return std::nullopt;
  // nearest integer to t·256/ln 2 (|·| < 2^17: adding 1.5·2^52 rounds it to an
  // integer in round to nearest; any integer k would be sound, the check of
  // |r| below rejects a bad one)
  const double kd = (t * T.inv_l + 0x1.8p52) - 0x1.8p52;
  const auto k = static_cast<long>(kd);
  const double r1 = t - kd * T.l_hi;
  const double kl = kd * T.l_lo;
  const double rm = r1 - kl;
  const Ball r{rm, kU * std::fabs(kl) + kU * std::fabs(rm) + std::fabs(kd) * T.l_err + kEta};
  if (!(magnitude(r) <= kExpRho)) return std::nullopt;  // the exactness argument needs |r1| < 2^−9
  const std::optional<Ball> p = evaluate(T.exp_s, r);
  if (!p) return std::nullopt;
  const long j = k & 255, q = (k - j) / 256;
  const Ball e = mul(T.two_j[static_cast<std::size_t>(j)], *p);
  // exact for the midpoint (normal); a subnormal radius may lose bits: + η
  const double scale = pow2(static_cast<int>(q));
  return Ball{e.m * scale, e.r * scale + kEta};
}

// expm1(t) for |t| <= 1.2: for |t| <= 0.35, t · Σ t^j/(j+1)! with the tier's
// remainder rho^(n+1)/(n+2)!·e^rho (relative accuracy, no cancellation); else
// exp(t) − 1 in balls (|expm1(t)| >= 0.29 there: the subtraction loses at most
// a factor 4.5 of relative accuracy, and the ball carries it).
std::optional<Ball> expm1_ball(double t) {
  if (std::fabs(t) <= 0.35) {
    const std::optional<Ball> s = evaluate(tables().expm1_s, exact(t));
    if (!s) return std::nullopt;
    return mul(exact(t), *s);
  }
  const std::optional<Ball> e = exp_ball(t);
  if (!e) return std::nullopt;
  return sub(*e, exact(1));
}

// Where the function saturates (cond): sets its proven enclosure e.
bool saturated_if(bool cond, UnaryEnclosure e, UnaryEnclosure& saturated, bool& is_saturated) {
  if (cond) {
    saturated = e;
    is_saturated = true;
  }
  return cond;
}

// Exp, FP32 x. x >= 89: e^89 > 2^128.4 >= 2^128, so f(x) ∈ [2^128, +inf] (rounds
// to +inf in FP32: the overflow threshold is 2^128 − 2^103). x <= −104:
// e^−104 < 2^−150.04, so f(x) ∈ [0, 2^−150] (rounds to +0: 2^−150 is the
// midpoint of 0 and 2^−149, ties to even). Between: exp_ball(x).
std::optional<Ball> exp_enclosure(float x, UnaryEnclosure& saturated, bool& is_saturated) {
  if (saturated_if(x >= 89, {0x1p128, INFINITY}, saturated, is_saturated) ||
      saturated_if(x <= -104, {0, 0x1p-150}, saturated, is_saturated))
    return std::nullopt;
  return exp_ball(x);
}

// Log, FP32 x > 0 (finite). x = 2^e·m with m ∈ [0.70710678, 1.41421356)
// (frexp, then m doubled below 0.70710678), log x = e·ln 2 + 2·atanh(s),
// s = (m − 1)/(m + 1) ∈ [−0.1715729, 0.1715729]. m − 1 is exact (Sterbenz) and
// m + 1 is exact (m is a multiple of 2^−24 below 2.5: 26 bits), so s has
// radius u·|s|. atanh(s)/s = Σ z^i/(2i+1), z = s² <= 0.0295, with the tier's
// remainder z^(n+1)/((2n+3)(1 − z)). e·ln 2 = e·ln2_hi (exact: |e| <= 150,
// ln2_hi has 32 bits) + e·ln2_lo (rounded: u) + e·δ (|δ| <= ln2_err). The final
// sum has no cancellation beyond a factor 2 (|e·ln 2| >= 0.69 > 2·0.35 >= 2·|log m|
// when e ≠ 0), and near x = 1 (e = 0) log m = 2s·(…) is relatively accurate.
std::optional<Ball> log_enclosure(float x) {
  const Tables& T = tables();
  int e = 0;
  double m = std::frexp(static_cast<double>(x), &e);
  if (m < 0.70710678) {
    m *= 2;
    --e;
  }
  const double sm = (m - 1) / (m + 1);
  const Ball s{sm, kU * std::fabs(sm) + kEta};
  const Ball z = mul(s, s);
  const std::optional<Ball> p = evaluate(T.atanh_s, z);
  if (!p) return std::nullopt;
  const Ball log_m = mul(mul(exact(2), s), *p);
  const double ed = e;
  const double elo = ed * T.ln2_lo;
  const Ball e_ln2 = add(exact(ed * T.ln2_hi), Ball{elo, kU * std::fabs(elo) + std::fabs(ed) * T.ln2_err + kEta});
  return add(e_ln2, log_m);
}

// For an odd function with |f(x) − sign(x)| < 2^−53 once |x| >= threshold (the
// callers prove it): sets the enclosure [1 − 2^−53, 1] (or its negation).
bool saturates_to_sign(float x, double threshold, UnaryEnclosure& saturated, bool& is_saturated) {
  return saturated_if(std::fabs(static_cast<double>(x)) >= threshold,
                      x < 0 ? UnaryEnclosure{-1, -kBelowOne} : UnaryEnclosure{kBelowOne, 1}, saturated, is_saturated);
}

// Tanh, FP32 x ≠ 0 finite; a = |x|, tanh(x) = sign(x)·tanh(a) (exact negation).
// a >= 20: 1 − tanh(a) = 2/(e^(2a) + 1) < 2e^−40 < 2^−56, so f ∈ [1 − 2^−53, 1] (the enclosure used).
// a < 0.55: E = expm1(2a) (2a exact), tanh a = E/(E + 2) (no cancellation).
// 0.55 <= a < 20: E = exp(2a), tanh a = 1 − 2/(E + 1) (1 − c with c <= 0.5:
// no cancellation). Each step in balls.
std::optional<Ball> tanh_enclosure(float x, UnaryEnclosure& saturated, bool& is_saturated) {
  const double a = std::fabs(static_cast<double>(x));
  if (saturates_to_sign(x, 20, saturated, is_saturated)) return std::nullopt;
  std::optional<Ball> t;
  if (a < 0.55) {
    const std::optional<Ball> E = expm1_ball(2 * a);
    if (E) t = div(*E, add(*E, exact(2)));
  } else {
    const std::optional<Ball> E = exp_ball(2 * a);
    if (E) t = sub(exact(1), div(exact(2), add(*E, exact(1))));
  }
  if (!t) return std::nullopt;
  return x < 0 ? neg(*t) : *t;
}

// Sigmoid 1/(1 + e^−x), FP32 x finite. x >= 40: 1 − σ(x) < e^−40 < 2^−57, so
// f ∈ [1 − 2^−53, 1]. x <= −104: 0 < σ(x) < e^x < 2^−150, f ∈ [0, 2^−150].
// 0 <= x < 40: 1/(1 + exp(−x)); −104 < x < 0: E/(1 + E), E = exp(x) (no
// cancellation in either form).
std::optional<Ball> sigmoid_enclosure(float x, UnaryEnclosure& saturated, bool& is_saturated) {
  if (saturated_if(x >= 40, {kBelowOne, 1}, saturated, is_saturated) ||
      saturated_if(x <= -104, {0, 0x1p-150}, saturated, is_saturated))
    return std::nullopt;
  const std::optional<Ball> E = exp_ball(x >= 0 ? -static_cast<double>(x) : static_cast<double>(x));
  if (!E) return std::nullopt;
  return x >= 0 ? div(exact(1), add(exact(1), *E)) : div(*E, add(exact(1), *E));
}

// erf(a), 1 <= a < 6.5, by the positive series (Abramowitz–Stegun 7.1.6)
// erf(a) = (2a/√π)·e^(−a²)·Σ_{n>=0} w^n/(1·3·5···(2n+1)), w = 2a² (exact: a has
// 24 bits). Terms t_{n+1} = t_n·w/(2n+3), summed in balls until the ratio
// w/(2n+5) of every later term is <= 1/2 and the term is <= 2^−64 of the sum:
// the rest is then <= the last term (a geometric series of ratio 1/2), added
// to the radius. No cancellation anywhere; e^(−a²) by exp_ball (a² exact).
std::optional<Ball> erf_kummer(double a) {
  const double w = 2 * a * a;
  Ball term = exact(1), sum = exact(1);
  for (int n = 0; n < 600; ++n) {
    term = div(mul(term, exact(w)), exact(2.0 * n + 3));
    sum = add(sum, term);
    if (2.0 * n + 5 >= 2 * w && magnitude(term) <= 0x1p-64 * sum.m) {
      sum.r += magnitude(term);
      const std::optional<Ball> e = exp_ball(-a * a);
      if (!e) return std::nullopt;
      return mul(mul(tables().two_over_sqrt_pi, exact(a)), mul(*e, sum));
    }
  }
  return std::nullopt;
}

// Erf, FP32 x ≠ 0 finite; a = |x|, erf(x) = sign(x)·erf(a).
// a >= 6.5: 0 < erfc(a) <= e^(−a²)/(a√π) (the standard bound for a > 0)
// <= e^−42.25/11.5 < 2^−63, so f ∈ [1 − 2^−53, 1].
// a < 1: erf(a) = (2/√π)·a·Σ (−1)^n z^n/(n!(2n+1)), z = a² (exact) <= 1, with the
// tier's remainder z^(N+1)/(N+1)!·e^z (the absolute series dominates); the
// alternating signs' cancellation is carried by the balls (at most a factor
// e^z/0.74 < 3.7). 1 <= a < 6.5: erf_kummer.
std::optional<Ball> erf_enclosure(float x, UnaryEnclosure& saturated, bool& is_saturated) {
  const double a = std::fabs(static_cast<double>(x));
  if (saturates_to_sign(x, 6.5, saturated, is_saturated)) return std::nullopt;
  std::optional<Ball> e;
  if (a < 1) {
    const std::optional<Ball> s = evaluate(tables().erf_s, exact(a * a));
    if (s) e = mul(mul(tables().two_over_sqrt_pi, exact(a)), *s);
  } else {
    e = erf_kummer(a);
  }
  if (!e) return std::nullopt;
  return x < 0 ? neg(*e) : *e;
}

UnaryEnclosure widen(Ball b, double radius_scale) {
  const double r = b.r * (kInflate * radius_scale) + kEta;
  return {step_down(b.m - r), step_up(b.m + r), b.m, r};
}

// The FP32 binade exponent of v, clamped to [−126, 127] (every |v| < 2^−126,
// 0 included, has FP32's subnormal spacing 2^−149).
int fp32_binade(double v) {
  std::uint64_t b;
  std::memcpy(&b, &v, 8);
  const int e = static_cast<int>((b >> 52) & 0x7ff) - 1023;
  return e < -126 ? -126 : (e > 127 ? 127 : e);
}

// The enclosure, in the library's FP environment (the callers hold the guard).
std::optional<UnaryEnclosure> enclosure_in_library_environment(OpId op, float x, double radius_scale) {
  UnaryEnclosure saturated;
  bool is_saturated = false;
  std::optional<Ball> b;
  switch (op) {
    case OpId::Exp: b = exp_enclosure(x, saturated, is_saturated); break;
    case OpId::Log:
      if (!(x > 0) || std::isinf(x)) return std::nullopt;
      b = log_enclosure(x);
      break;
    case OpId::Tanh: b = tanh_enclosure(x, saturated, is_saturated); break;
    case OpId::Sigmoid: b = sigmoid_enclosure(x, saturated, is_saturated); break;
    case OpId::Erf: b = erf_enclosure(x, saturated, is_saturated); break;
    case OpId::Sqrt: {  // IEEE sqrt is correctly rounded: |√x − s| <= u·s
      if (!(x > 0) || std::isinf(x)) return std::nullopt;
      const double s = std::sqrt(static_cast<double>(x));
      b = Ball{s, kU * s};
      break;
    }
    case OpId::Abs: b = exact(std::fabs(static_cast<double>(x))); break;
    case OpId::Neg: b = exact(-static_cast<double>(x)); break;
    default: return std::nullopt;  // no fast evaluator: MPFR decides
  }
  if (is_saturated) {
    saturated.mid = saturated.lo;
    saturated.rad = saturated.hi - saturated.lo;  // exact (2^−53, 2^−150) or +inf
    return saturated;
  }
  if (!b || !std::isfinite(b->m) || !std::isfinite(b->r)) return std::nullopt;
  return widen(*b, radius_scale);
}
}  // namespace

std::optional<UnaryEnclosure> unary_fast_enclosure(OpId op, float x, double radius_scale) {
  const FpEnvironmentGuard env;  // round to nearest, no FTZ/DAZ: the rounding model above (free when already set)
  return enclosure_in_library_environment(op, x, radius_scale);
}

// flatten: the evaluators inline into one function (the exhaustive sweep's hot
// path); not under AddressSanitizer, where flattening the instrumented code
// takes a minute of compile time and measures nothing
#if defined(__SANITIZE_ADDRESS__)
#define SYMERR_HOT_PATH
#else
#define SYMERR_HOT_PATH [[gnu::flatten]]
#endif
SYMERR_HOT_PATH std::optional<UnaryTruth> unary_fast_truth(OpId op, float x, double y, double decide_near) {
  const FpEnvironmentGuard env;  // the rounding model of the evaluators, the RNE conversions to FP32 below
  const std::optional<UnaryEnclosure> e = enclosure_in_library_environment(op, x, 1.0);
  if (!e) return std::nullopt;
  // RNE into FP32 (the worker's environment): monotonic, so lo <= f(x) <= hi
  // and round(lo) = round(hi) give round(f(x))
  const float rl = static_cast<float>(e->lo), rh = static_cast<float>(e->hi);
  if (!(rl == rh && std::signbit(rl) == std::signbit(rh))) return std::nullopt;
  UnaryTruth t;
  t.rounded = rl;
  if (std::isinf(rl)) {  // f(x) overflows: y = ±inf is exact (0 ulp), anything else MPFR measures
    if (y != rl) return std::nullopt;
    return t;
  }
  if (!std::isfinite(y)) {
    t.ulp_error = INFINITY;
    return t;
  }
  // ulp(f(x)) in FP32; if f(x) may lie on either side of a power of two its ulp
  // is undecided, which matters only for a result that is not the rounded one
  const int el = fp32_binade(std::fabs(e->lo)), eh = fp32_binade(std::fabs(e->hi));
  const bool correct = y == t.rounded && std::signbit(y) == std::signbit(t.rounded);
  if (el != eh && !correct) return std::nullopt;
  const double inv_u = pow2(23 - std::max(el, eh));  // 1/ulp, exact
  const double mid = 0.5 * e->lo + 0.5 * e->hi;
  const double err = std::fabs(y - mid) * inv_u;
  if (correct) {  // the verdict needs no ulp error (<= ½ ulp); the figure is the enclosure's estimate
    t.ulp_error = std::min(err, 0.5);
    return t;
  }
  // |err − |y − f(x)|/u| <= (hi − lo)/(2u) + the rounding of this computation
  const double uncertainty = (0.5 * e->hi - 0.5 * e->lo) * inv_u * kInflate + err * 0x1p-50 + 0x1p-60;
  if (std::fabs(err - decide_near) <= uncertainty) return std::nullopt;
  t.ulp_error = err;
  return t;
}

}  // namespace symerr::verify
