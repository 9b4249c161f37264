// Elementary functions in a relational domain (D::keeps_correlations with a
// memoised function_of, i.e. Affine): f of a correlated operand as a linear
// function of it plus one remainder symbol, so that the result stays
// correlated with its operand (exp(x) − exp(x) is exactly 0, softmax's
// exp(x_i − m) keeps x_i) instead of being a fresh independent range.
//
// Linearisation (Line): on [a, b] with f convex or concave on each side of
// its inflection point, take α ≈ the chord's slope and bound g = f − α·x:
//   convex piece [p, q]:  g <= max(g(p), g(q)) (g is convex), and, for any
//     t in [p, q] with f'(t) ∈ [s−, s+], f(x) >= f(t) + f'(t)(x − t) (the
//     tangent lies below), so g >= its minimum over {p, t, q} of the
//     piecewise-linear bound f(t) + (x < t ? s+ : s−)(x − t) − α·x;
//   concave piece: the mirror image.
// t only places the tangent (any t is sound; t ≈ where f' = α is tight);
// every quantity is rounded outward (nextafter after each operation: one
// rounding is off by less than one ulp in any rounding mode). The result is
// f(x) ∈ α·x + [lo, hi], and the form α·x + ρ with ρ = function_of(x, tag,
// lo, hi): a symbol named after the operand, so the same function of the
// same value is the same form.
//
// Propagated error f(fp) − f(r) = f'(ξ)·e, ξ between r and fp: with f' over
// the hull of both ranges in [d−, d+], m = mid, it is m·e + (f'(ξ) − m)·e,
// the second part bounded by radius·|e| (a symbol named after the pair of
// operand handles). Rounding impl(t) − f(t): a symbol named after t's handle
// (and the function, format and mode): the machine computes one value per
// input. The interval enclosures of the rule stay: each form is intersected
// with them (the narrower range is kept, the form keeps the correlation).
#pragma once

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <mutex>
#include <optional>
#include <vector>

#include <symerr/format.hpp>
#include <symerr/operators.hpp>
#include <symerr/symbolic/elementary/enclosure.hpp>

namespace symerr::elementary {

template <class D>
concept Relational = requires(const D& d) {
  requires D::keeps_correlations;
  function_of(d, std::uint64_t{}, 0.0, 0.0);
  d.index();
};

// f's shape for linearisations. f and f' (of any sign) are given with
// directed rounding; curvature +1 convex, −1 concave (below the inflection
// point, and above it); tangency(α, side) ≈ a point of that side (−1 below,
// +1 above the inflection) where f' = α.
struct Shape {
  double (*f)(double, Dir);
  double (*slope)(double, Dir);
  double (*tangency)(double alpha, int side);
  double domain_lo;   // valid for x > domain_lo
  double inflection;  // NaN: none (curvature `below` everywhere)
  int below, above;
  double domain_hi = INFINITY;  // … and x < domain_hi
  // An irrational inflection point (sin at kπ, k ≠ 0; cos at π/2 + kπ):
  // `inflection` and `inflection_hi` are the doubles just below and above it;
  // the curvature is `below` up to the lower one and `above` from the upper
  // one. Between them f must be monotone and |f''| <= 1 (so f' moves by less
  // than their distance there). NaN: the inflection point is `inflection`.
  double inflection_hi = NAN;
};

namespace lin {
inline double up(double x) { return std::nextafter(x, INFINITY); }
inline double dn(double x) { return std::nextafter(x, -INFINITY); }
inline double pos(double x) { return std::max(x, 0.0); }
}  // namespace lin

// f(x) − alpha·x ∈ [lo, hi] for every x ∈ [a, b].
struct Line {
  double alpha, lo, hi;
};

// The bound of g = f − α·x on one piece [p, q] of constant curvature c.
inline std::optional<Line> line_piece(const Shape& s, double alpha, double p, double q, int c, int side) {
  using namespace lin;
  auto g_at = [&](double x, Dir d) {  // f(x) − α·x rounded in direction d
    const double ax = alpha * x;
    return d == Dir::Down ? dn(s.f(x, Dir::Down) - up(ax)) : up(s.f(x, Dir::Up) - dn(ax));
  };
  double t = s.tangency(alpha, side);
  if (!std::isfinite(t)) t = p / 2 + q / 2;
  t = std::clamp(t, p, q);
  const double slo = s.slope(t, Dir::Down), shi = s.slope(t, Dir::Up);
  // k·(x − t) rounded down / up, for a slope k of either sign
  auto times_dn = [&](double k, double x) { return std::min(dn(k * dn(x - t)), dn(k * up(x - t))); };
  auto times_up = [&](double k, double x) { return std::max(up(k * dn(x - t)), up(k * up(x - t))); };
  Line l{alpha, 0, 0};
  if (c > 0) {
    l.hi = std::max(g_at(p, Dir::Up), g_at(q, Dir::Up));
    const double ft = s.f(t, Dir::Down);
    l.lo = std::min({dn(ft - up(alpha * t)), dn(dn(ft + times_dn(shi, p)) - up(alpha * p)),
                     dn(dn(ft + times_dn(slo, q)) - up(alpha * q))});
  } else {
    l.lo = std::min(g_at(p, Dir::Down), g_at(q, Dir::Down));
    const double ft = s.f(t, Dir::Up);
    l.hi = std::max({up(ft - dn(alpha * t)), up(up(ft + times_up(slo, p)) - dn(alpha * p)),
                     up(up(ft + times_up(shi, q)) - dn(alpha * q))});
  }
  if (!std::isfinite(l.lo) || !std::isfinite(l.hi) || !(l.lo <= l.hi)) return std::nullopt;
  return l;
}

inline std::optional<Line> linearise(const Shape& s, double a, double b) {
  using namespace lin;
  if (!(std::isfinite(a) && std::isfinite(b) && a < b && a > s.domain_lo && b < s.domain_hi)) return std::nullopt;
  const double fa = s.f(a, Dir::Up) / 2 + s.f(a, Dir::Down) / 2, fb = s.f(b, Dir::Up) / 2 + s.f(b, Dir::Down) / 2;
  const double alpha = (fb - fa) / (b - a);
  if (!std::isfinite(alpha)) return std::nullopt;
  if (std::isnan(s.inflection)) return line_piece(s, alpha, a, b, s.below, -1);
  const double z = s.inflection, zh = std::isnan(s.inflection_hi) ? z : s.inflection_hi;
  Line r{alpha, INFINITY, -INFINITY};
  auto add = [&r](const std::optional<Line>& l) {
    if (!l) return false;
    r.lo = std::min(r.lo, l->lo), r.hi = std::max(r.hi, l->hi);
    return true;
  };
  if (a < z && !add(line_piece(s, alpha, a, std::min(b, z), s.below, -1))) return std::nullopt;
  if (b > zh && !add(line_piece(s, alpha, std::max(a, zh), b, s.above, 1))) return std::nullopt;
  if (a < zh && b > z && z < zh) {
    // between the doubles around an irrational inflection f is monotone: f(x)
    // lies between f(z) and f(zh), and α·x between α·z and α·zh
    const double p = std::max(a, z), q = std::min(b, zh);
    const double f_lo = std::min(s.f(p, Dir::Down), s.f(q, Dir::Down)), f_hi = std::max(s.f(p, Dir::Up), s.f(q, Dir::Up));
    const double ax_lo = std::min(dn(alpha * p), dn(alpha * q)), ax_hi = std::max(up(alpha * p), up(alpha * q));
    add(Line{alpha, dn(f_lo - ax_hi), up(f_hi - ax_lo)});
  }
  if (!std::isfinite(r.lo) || !std::isfinite(r.hi) || !(r.lo <= r.hi)) return std::nullopt;
  return r;
}

// f' over [a, b] (monotone on each piece of constant curvature): [d−, d+].
inline std::optional<std::pair<double, double>> slope_range(const Shape& s, double a, double b) {
  if (!(std::isfinite(a) && std::isfinite(b) && a <= b && a > s.domain_lo && b < s.domain_hi)) return std::nullopt;
  double lo = std::min(s.slope(a, Dir::Down), s.slope(b, Dir::Down));
  double hi = std::max(s.slope(a, Dir::Up), s.slope(b, Dir::Up));
  if (!std::isnan(s.inflection)) {
    const double z = s.inflection, zh = std::isnan(s.inflection_hi) ? z : s.inflection_hi;
    if (a < zh && z < b) {  // f' has its extremum at the inflection point
      // at an irrational one, between z and zh: f' there is within |zh − z| of f'(z) (|f''| <= 1)
      if (zh == z) {
        lo = std::min(lo, s.slope(z, Dir::Down));
        hi = std::max(hi, s.slope(z, Dir::Up));
      } else {
        const double w = lin::up(zh - z);
        for (double t : {z, zh}) {
          lo = std::min(lo, lin::dn(s.slope(t, Dir::Down) - w));
          hi = std::max(hi, lin::up(s.slope(t, Dir::Up) + w));
        }
      }
    }
  }
  if (!std::isfinite(lo) || !std::isfinite(hi)) return std::nullopt;
  return std::pair{lo, hi};
}

// Names of the symbols (function_of tags; the top bit keeps them apart from
// the arithmetic's rounding tags): role 0 the real linearisation, 1 the
// image's, 2 the propagated remainder (with the fp operand's handle: the
// quantity depends on both operands), 3 the rounding (with format and mode),
// 4 the remainder of a function of the operand's error (relative_form).
inline std::uint64_t symbol_tag(OpId fn, unsigned role, std::uint64_t extra) {
  return (std::uint64_t{1} << 63) | (std::uint64_t{role} << 56) | (static_cast<std::uint64_t>(fn) & 0xFF) << 48 |
         (extra & 0xFFFFFFFFFFFFULL);
}

// The identity of a machine function's rounding, for the symbol that names
// it: every field of the format that changes a rounding (precision, exponent
// range, subnormals, overflow, reserved encodings), the rounding mode and the
// accuracy model (AccuracyModel::kind_key and ulps_key: sqrt, correctly
// rounded in every model, passes 0, 0), numbered in the order of first use in
// the process. Two results share their rounding symbol only when all of these
// are equal: exp(x) under correctly_rounded() and then under ulps(1000) are
// two implementations, two roundings (the second once reused the first's
// symbol and its half-ulp range).
inline std::uint64_t rounding_identity(const FloatFormat& F, RoundingMode mode, std::uint64_t model_kind,
                                       double model_ulps) {
  struct Identity {
    int precision, emin, emax, reserved_top;
    bool subnormals;
    Overflow overflow;
    RoundingMode mode;
    std::uint64_t kind, ulps;
    bool operator==(const Identity&) const = default;
  };
  static std::mutex lock;
  static std::vector<Identity> seen;
  const Identity id{F.precision, F.emin,   F.emax, F.reserved_top, F.subnormals, F.overflow,
                    mode,        model_kind, std::bit_cast<std::uint64_t>(model_ulps)};
  const std::lock_guard<std::mutex> hold(lock);
  for (std::size_t i = 0; i < seen.size(); ++i)
    if (seen[i] == id) return i;
  seen.push_back(id);
  return seen.size() - 1;
}

// The rounding impl(t) − f(t) of fn at the operand of fp form `t_of`, within
// `bound`: in a relational domain a symbol named after t (the machine
// computes one value per input, function, format, mode and accuracy model:
// rounding_identity); else `bound`.
template <class D>
D named_rounding(const D& t_of, OpId fn, const FloatFormat& F, RoundingMode mode, const D& bound,
                 std::uint64_t model_kind = 0, double model_ulps = 0) {
  if constexpr (Relational<D>) {
    if (!is_bounded(bound)) return bound;
    const std::uint64_t which = rounding_identity(F, mode, model_kind, model_ulps);
    return function_of(t_of, symbol_tag(fn, 3, which), bound.lower(), bound.upper());
  } else {
    (void)t_of, (void)fn, (void)F, (void)mode, (void)model_kind, (void)model_ulps;
    return bound;
  }
}

template <class D>
D linear_form(const D& x, const Line& l, std::uint64_t tag) {
  return D::point(l.alpha) * x + function_of(x, tag, l.lo, l.hi);
}

// ---- shapes ----------------------------------------------------------------

namespace shape_detail {
using namespace lin;
inline double log_slope(double x, Dir d) { return d == Dir::Up ? up(1 / x) : dn(1 / x); }
inline double log1p_slope(double x, Dir d) { return d == Dir::Up ? up(1 / dn(1 + x)) : dn(1 / up(1 + x)); }
inline double tanh_slope(double x, Dir d) {  // 1 / cosh(x)^2
  if (d == Dir::Up) {
    const double c = cosh_d(x, Dir::Down);
    return up(1 / dn(c * c));
  }
  const double c = cosh_d(x, Dir::Up);
  return dn(1 / up(c * c));
}
inline double sigmoid_slope(double x, Dir d) {  // s (1 − s), s = sigmoid(x)
  const double lo = sigmoid_d(x, Dir::Down), hi = sigmoid_d(x, Dir::Up);
  auto g_up = [](double s) { return up(s * up(1 - s)); };
  auto g_dn = [](double s) { return pos(dn(s * dn(1 - s))); };
  if (d == Dir::Up) return lo <= 0.5 && 0.5 <= hi ? 0.25 : hi < 0.5 ? g_up(hi) : g_up(lo);
  return std::min(g_dn(lo), g_dn(hi));
}
inline double erf_slope(double x, Dir d) { return erf_slope_d(std::fabs(x), d); }
// ln 2 · 2^x; ln 2 between the double below it (0x1.62e42fefa39efp-1) and the next one
inline double exp2_slope(double x, Dir d) {
  constexpr double ln2_dn = 0x1.62e42fefa39efp-1;
  const double ln2_up = std::nextafter(ln2_dn, INFINITY);
  return d == Dir::Up ? up(directed_d<OpId::Exp2>(x, Dir::Up) * ln2_up)
                      : dn(directed_d<OpId::Exp2>(x, Dir::Down) * ln2_dn);
}
// 1 / (x·ln b) for log2 (ln 2) and log10 (ln 10), between the doubles around ln b
inline double log_base_slope(double x, double ln_dn, Dir d) {
  const double ln_up = std::nextafter(ln_dn, INFINITY);
  return d == Dir::Up ? up(1 / dn(x * ln_dn)) : dn(1 / up(x * ln_up));
}
constexpr double kLn2Dn = 0x1.62e42fefa39efp-1, kLn10Dn = 0x1.26bb1bbb55515p+1;  // the doubles below ln 2 and ln 10
inline double log2_slope(double x, Dir d) { return log_base_slope(x, kLn2Dn, d); }
inline double log10_slope(double x, Dir d) { return log_base_slope(x, kLn10Dn, d); }
inline double log2_tangency(double a, int) { return 1 / (a * kLn2Dn); }
inline double log10_tangency(double a, int) { return 1 / (a * kLn10Dn); }
inline double exp2_tangency(double a, int) { return std::log2(a / 0x1.62e42fefa39efp-1); }
inline double exp_tangency(double a, int) { return std::log(a); }
inline double log_tangency(double a, int) { return 1 / a; }
inline double log1p_tangency(double a, int) { return 1 / a - 1; }
inline double tanh_tangency(double a, int side) { return side * std::atanh(std::sqrt(std::max(0.0, 1 - a))); }
inline double sigmoid_tangency(double a, int side) {
  const double s = (1 + side * std::sqrt(std::max(0.0, 1 - 4 * a))) / 2;
  return std::log(s / (1 - s));
}
inline double erf_tangency(double a, int side) {
  return side * std::sqrt(std::max(0.0, -std::log(a * std::sqrt(M_PI) / 2)));
}
// erfc' = −erf' (negative, even); the points where it is the slope a < 0 are erf's for −a
inline double erfc_slope(double x, Dir d) { return -erf_slope_d(std::fabs(x), d == Dir::Up ? Dir::Down : Dir::Up); }
inline double erfc_tangency(double a, int side) { return erf_tangency(-a, side); }
// atan' = 1/(1 + x²), asinh' = 1/√(1 + x²) (even, decreasing in |x|)
inline double atan_slope(double x, Dir d) {
  return d == Dir::Up ? up(1 / dn(1 + dn(x * x))) : pos(dn(1 / up(1 + up(x * x))));
}
inline double asinh_slope(double x, Dir d) {
  return d == Dir::Up ? up(1 / dn(std::sqrt(dn(1 + dn(x * x))))) : pos(dn(1 / up(std::sqrt(up(1 + up(x * x))))));
}
// 1 − x² = (1 − |x|)(1 + |x|) rounded in direction d (|x| <= 1; 0 at the edge, never below)
inline double one_minus_sq(double x, Dir d) {
  const double a = std::fabs(x);
  return d == Dir::Up ? up(up(1 - a) * up(1 + a)) : pos(dn(dn(1 - a) * dn(1 + a)));
}
// asin' = 1/√(1 − x²), atanh' = 1/(1 − x²) (even, increasing in |x|, +inf at ±1)
inline double asin_slope(double x, Dir d) {
  if (d == Dir::Up) {
    const double q = one_minus_sq(x, Dir::Down);
    return q > 0 ? up(1 / dn(std::sqrt(q))) : INFINITY;
  }
  return std::fabs(x) > 1 ? INFINITY : pos(dn(1 / up(std::sqrt(one_minus_sq(x, Dir::Up)))));
}
inline double acos_slope(double x, Dir d) { return -asin_slope(x, d == Dir::Up ? Dir::Down : Dir::Up); }
inline double atanh_slope(double x, Dir d) {
  if (d == Dir::Up) {
    const double q = one_minus_sq(x, Dir::Down);
    return q > 0 ? up(1 / q) : INFINITY;
  }
  return std::fabs(x) > 1 ? INFINITY : pos(dn(1 / one_minus_sq(x, Dir::Up)));
}
// acosh' = 1/√(x² − 1) = 1/√((x − 1)(x + 1)) (x >= 1, decreasing, +inf at 1)
inline double acosh_slope(double x, Dir d) {
  if (d == Dir::Up) {
    const double q = pos(dn(dn(x - 1) * dn(x + 1)));
    return q > 0 ? up(1 / dn(std::sqrt(q))) : INFINITY;
  }
  return pos(dn(1 / up(std::sqrt(up(up(x - 1) * up(x + 1))))));
}
// cbrt' = 1/(3·cbrt(x)²) (even, decreasing in |x|, +inf at 0)
inline double cbrt_slope(double x, Dir d) {
  const double a = std::fabs(x);
  if (d == Dir::Up) {
    const double c = directed_d<OpId::Cbrt>(a, Dir::Down);
    return c > 0 ? up(1 / dn(3 * dn(c * c))) : INFINITY;
  }
  const double c = directed_d<OpId::Cbrt>(a, Dir::Up);
  return pos(dn(1 / up(3 * up(c * c))));
}
inline double cbrt_tangency(double a, int side) { return side * std::pow(3 * a, -1.5); }
inline double atan_tangency(double a, int side) { return side * std::sqrt(std::max(0.0, 1 / a - 1)); }
inline double asinh_tangency(double a, int side) { return side * std::sqrt(std::max(0.0, 1 / (a * a) - 1)); }
inline double sinh_tangency(double a, int side) { return side * std::acosh(std::max(1.0, a)); }
inline double cosh_tangency(double a, int) { return std::asinh(a); }
inline double asin_tangency(double a, int side) { return side * std::sqrt(std::max(0.0, 1 - 1 / (a * a))); }
inline double atanh_tangency(double a, int side) { return side * std::sqrt(std::max(0.0, 1 - 1 / a)); }
inline double acosh_tangency(double a, int) { return std::sqrt(1 + 1 / (a * a)); }
}  // namespace shape_detail

inline const Shape exp_shape{exp_d, exp_d, shape_detail::exp_tangency, -INFINITY, NAN, 1, 1};
inline const Shape expm1_shape{expm1_d, exp_d, shape_detail::exp_tangency, -INFINITY, NAN, 1, 1};
inline const Shape log_shape{log_d, shape_detail::log_slope, shape_detail::log_tangency, 0.0, NAN, -1, -1};
inline const Shape log2_shape{directed_d<OpId::Log2>, shape_detail::log2_slope, shape_detail::log2_tangency, 0.0, NAN,
                              -1, -1};
inline const Shape log10_shape{directed_d<OpId::Log10>, shape_detail::log10_slope, shape_detail::log10_tangency, 0.0,
                               NAN, -1, -1};
inline const Shape log1p_shape{log1p_d, shape_detail::log1p_slope, shape_detail::log1p_tangency, -1.0, NAN, -1, -1};
inline const Shape tanh_shape{tanh_d, shape_detail::tanh_slope, shape_detail::tanh_tangency, -INFINITY, 0.0, 1, -1};
inline const Shape sigmoid_shape{sigmoid_d, shape_detail::sigmoid_slope, shape_detail::sigmoid_tangency, -INFINITY,
                                 0.0, 1, -1};
inline const Shape exp2_shape{directed_d<OpId::Exp2>, shape_detail::exp2_slope, shape_detail::exp2_tangency, -INFINITY,
                              NAN, 1, 1};
inline const Shape erf_shape{erf_d, shape_detail::erf_slope, shape_detail::erf_tangency, -INFINITY, 0.0, 1, -1};
// erfc = 1 − erf: concave below 0, convex above
inline const Shape erfc_shape{directed_d<OpId::Erfc>, shape_detail::erfc_slope, shape_detail::erfc_tangency, -INFINITY,
                              0.0, -1, 1};

// atan, asinh: convex below 0, concave above (like tanh); sinh the mirror;
// cosh convex. asin, atanh: concave below 0, convex above, acos the mirror,
// acosh concave: their slopes are unbounded at the domain's ends, where
// slope_range and the linearisation give up (no form; the intervals stay).
inline const Shape atan_shape{directed_d<OpId::Atan>, shape_detail::atan_slope, shape_detail::atan_tangency,
                              -INFINITY, 0.0, 1, -1};
inline const Shape asinh_shape{directed_d<OpId::Asinh>, shape_detail::asinh_slope, shape_detail::asinh_tangency,
                               -INFINITY, 0.0, 1, -1};
// cbrt: convex below 0, concave above; its slope is unbounded at 0, so a
// range across 0 is linearised by the chord and tangents away from 0, and
// slope_range (the propagated part's) gives up there.
inline const Shape cbrt_shape{directed_d<OpId::Cbrt>, shape_detail::cbrt_slope, shape_detail::cbrt_tangency,
                              -INFINITY, 0.0, 1, -1};
inline const Shape sinh_shape{sinh_d, cosh_d, shape_detail::sinh_tangency, -INFINITY, 0.0, -1, 1};
inline const Shape cosh_shape{cosh_d, sinh_d, shape_detail::cosh_tangency, -INFINITY, NAN, 1, 1};
inline const Shape asin_shape{directed_d<OpId::Asin>, shape_detail::asin_slope, shape_detail::asin_tangency, -1.0,
                              0.0, -1, 1, 1.0};
inline const Shape acos_shape{directed_d<OpId::Acos>, shape_detail::acos_slope, shape_detail::asin_tangency, -1.0,
                              0.0, 1, -1, 1.0};
inline const Shape atanh_shape{directed_d<OpId::Atanh>, shape_detail::atanh_slope, shape_detail::atanh_tangency,
                               -1.0, 0.0, -1, 1, 1.0};
inline const Shape acosh_shape{directed_d<OpId::Acosh>, shape_detail::acosh_slope, shape_detail::acosh_tangency, 1.0,
                               NAN, -1, -1};


// sin, cos, tan near an argument range [a, b] (radians): the shape between
// the inflection points (sin: kπ; cos: π/2 + kπ; tan: kπ, between its poles
// π/2 + kπ) around it, with the inflection point nearest to the range's
// middle; the points are bracketed by doubles (MPFR, π rounded outward).
// nullopt: no such piece holds [a, b] (wider than about π), or it is out of
// reach (|a|, |b| > 2^50). The tangent points are left to the pieces'
// middles (tangency NaN: any point is sound).
std::optional<Shape> trig_shape(OpId fn, double a, double b);

namespace shape_detail {
inline double sin_slope(double x, Dir d) { return directed_d<OpId::Cos>(x, d); }
inline double cos_slope(double x, Dir d) {  // −sin(x)
  return -directed_d<OpId::Sin>(x, d == Dir::Up ? Dir::Down : Dir::Up);
}
inline double tan_slope(double x, Dir d) {  // 1 + tan(x)^2
  const double t_lo = directed_d<OpId::Tan>(x, Dir::Down), t_hi = directed_d<OpId::Tan>(x, Dir::Up);
  if (d == Dir::Up) {
    const double m = std::max(std::fabs(t_lo), std::fabs(t_hi));
    return lin::up(1 + lin::up(m * m));
  }
  const double m = t_lo <= 0 && 0 <= t_hi ? 0.0 : std::min(std::fabs(t_lo), std::fabs(t_hi));
  return lin::dn(1 + lin::dn(m * m));
}
inline double no_tangency(double, int) { return NAN; }
}  // namespace shape_detail
}  // namespace symerr::elementary
