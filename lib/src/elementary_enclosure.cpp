// Directed MPFR evaluations of <symerr/symbolic/elementary/enclosure.hpp>.
// Every value is computed at 64 bits rounded in direction d, then converted
// to a double rounded in the same direction: both roundings move the same
// way, so the double is a bound of the exact value. MPFR runs in its widest
// exponent range (no spurious overflow); caller's range and flags restored.
// The correctly rounded values (Ziv) are the operator table's
// (symerr::correctly_rounded, <symerr/operators.hpp>).
#include <symerr/symbolic/elementary/enclosure.hpp>
#include <symerr/symbolic/elementary/linearise.hpp>

#include <algorithm>
#include <cmath>

#include <mpfr.h>

#include <symerr/mpfr_state.hpp>
#include <symerr/operators.hpp>

namespace symerr::elementary {
namespace {

constexpr mpfr_prec_t kWork = 64;

using Scope = detail::MpfrStateGuard;

// A number at the working precision (a double argument exactly: 53 <= 64 bits).
struct Num : detail::MpfrNumber {
  Num() : detail::MpfrNumber(kWork) {}
  explicit Num(double x) : detail::MpfrNumber(kWork, x) {}
};

mpfr_rnd_t rnd(Dir d) { return d == Dir::Down ? MPFR_RNDD : MPFR_RNDU; }
mpfr_rnd_t opposite(Dir d) { return d == Dir::Down ? MPFR_RNDU : MPFR_RNDD; }

double apply(int (*f)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t), double x, Dir d) {
  Scope s;
  Num a(x), r;
  f(r.v, a.v, rnd(d));
  return mpfr_get_d(r.v, rnd(d));
}

}  // namespace

double exp_d(double x, Dir d) { return apply(mpfr_exp, x, d); }
double expm1_d(double x, Dir d) { return apply(mpfr_expm1, x, d); }
double log_d(double x, Dir d) { return apply(mpfr_log, x, d); }
double log1p_d(double x, Dir d) { return apply(mpfr_log1p, x, d); }
double tanh_d(double x, Dir d) { return apply(mpfr_tanh, x, d); }
double sinh_d(double x, Dir d) { return apply(mpfr_sinh, x, d); }
double cosh_d(double x, Dir d) { return apply(mpfr_cosh, x, d); }
double erf_d(double x, Dir d) { return apply(mpfr_erf, x, d); }

double sigmoid_d(double x, Dir d) {
  // 1/(1 + e^−x) is decreasing in e^−x: bound e^−x and the sum the other way.
  Scope s;
  Num a(x), e, sum, r;
  mpfr_neg(a.v, a.v, MPFR_RNDN);
  mpfr_exp(e.v, a.v, opposite(d));
  mpfr_add_ui(sum.v, e.v, 1, opposite(d));
  mpfr_ui_div(r.v, 1, sum.v, rnd(d));
  return mpfr_get_d(r.v, rnd(d));
}

double pow_d(double x, double c, Dir d) {
  Scope s;
  Num a(x), b(c), r;
  mpfr_pow(r.v, a.v, b.v, rnd(d));
  return mpfr_get_d(r.v, rnd(d));
}

double erf_slope_d(double m, Dir d) {
  // 2/√π · exp(−m²): decreasing in m², increasing in the factor 2/√π.
  Scope s;
  Num a(m), sq, e, pi, root, two_over, r;
  mpfr_sqr(sq.v, a.v, opposite(d));
  mpfr_neg(sq.v, sq.v, MPFR_RNDN);
  mpfr_exp(e.v, sq.v, rnd(d));
  mpfr_const_pi(pi.v, opposite(d));
  mpfr_sqrt(root.v, pi.v, opposite(d));
  mpfr_ui_div(two_over.v, 2, root.v, rnd(d));
  mpfr_mul(r.v, e.v, two_over.v, rnd(d));
  return mpfr_get_d(r.v, rnd(d));
}

double directed(OpId op, double x, Dir d) {
  Scope s;
  Num a(x), r;
  const mpfr_srcptr args[1] = {a.v};
  evaluate_mpfr(op, r.v, args, rnd(d));
  return mpfr_get_d(r.v, rnd(d));
}

double directed(OpId op, double x, double y, Dir d) {
  Scope s;
  Num a(x), b(y), r;
  const mpfr_srcptr args[2] = {a.v, b.v};
  evaluate_mpfr(op, r.v, args, rnd(d));
  return mpfr_get_d(r.v, rnd(d));
}

namespace {
// Some integer k with a <= π(φ + 2k) <= b, i.e. (a/π − φ)/2 <= k <= (b/π − φ)/2:
// the quotients at P bits, P = 160 bits beyond the arguments' exponent (their
// error is below 2^(e − P + 3)), widened by 2^(e − P + 16): an extremum that
// is not there may be included (sound, looser), one that is there never missed.
bool may_hold(double a, double b, double phase) {
  Scope s;
  int ea = 0, eb = 0;
  std::frexp(a, &ea);
  std::frexp(b, &eb);
  const int e = std::max({ea, eb, 1});
  const mpfr_prec_t P = static_cast<mpfr_prec_t>(e + 160);
  detail::MpfrNumber pi(P), qa(P, a), qb(P, b), slack(P), ka(P), kb(P);
  mpfr_const_pi(pi.v, MPFR_RNDN);
  for (mpfr_ptr q : {qa.v, qb.v}) {
    mpfr_div(q, q, pi.v, MPFR_RNDN);
    mpfr_sub_d(q, q, phase, MPFR_RNDN);
    mpfr_div_2ui(q, q, 1, MPFR_RNDN);
  }
  mpfr_set_ui_2exp(slack.v, 1, e - static_cast<int>(P) + 16, MPFR_RNDN);
  mpfr_sub(qa.v, qa.v, slack.v, MPFR_RNDD);
  mpfr_add(qb.v, qb.v, slack.v, MPFR_RNDU);
  mpfr_ceil(ka.v, qa.v);
  mpfr_floor(kb.v, qb.v);
  return mpfr_cmp(ka.v, kb.v) <= 0;
}
}  // namespace

TrigRange trig_range(OpId f, double a, double b) {
  const bool sine = f == OpId::Sin;
  TrigRange r{std::min(directed(f, a, Dir::Down), directed(f, b, Dir::Down)),
              std::max(directed(f, a, Dir::Up), directed(f, b, Dir::Up))};
  // sin: maxima at π(1/2 + 2k), minima at π(−1/2 + 2k); cos: maxima at 2kπ, minima at π(1 + 2k)
  if (may_hold(a, b, sine ? 0.5 : 0.0)) r.hi = 1;
  if (may_hold(a, b, sine ? -0.5 : 1.0)) r.lo = -1;
  return r;
}

TrigRange tan_range(double a, double b) {
  // poles at π(1/2 + k) = π(±1/2 + 2k)
  if (may_hold(a, b, 0.5) || may_hold(a, b, -0.5)) return {-INFINITY, INFINITY};
  return {directed(OpId::Tan, a, Dir::Down), directed(OpId::Tan, b, Dir::Up)};
}

namespace {
// The doubles just below and just above (k + c)·π (equal when it is 0): the
// product with π rounded toward each side, at 256 bits, then to a double in
// the same direction.
std::pair<double, double> pi_multiple(double k_plus_c) {
  if (k_plus_c == 0) return {0.0, 0.0};
  Scope s;
  detail::MpfrNumber pi_dn(256), pi_up(256), lo(256), hi(256);
  mpfr_const_pi(pi_dn.v, MPFR_RNDD);
  mpfr_const_pi(pi_up.v, MPFR_RNDU);
  const bool positive = k_plus_c > 0;
  mpfr_mul_d(lo.v, positive ? pi_dn.v : pi_up.v, k_plus_c, MPFR_RNDD);
  mpfr_mul_d(hi.v, positive ? pi_up.v : pi_dn.v, k_plus_c, MPFR_RNDU);
  return {mpfr_get_d(lo.v, MPFR_RNDD), mpfr_get_d(hi.v, MPFR_RNDU)};
}
}  // namespace

std::optional<Shape> trig_shape(OpId fn, double a, double b) {
  if (!(std::isfinite(a) && std::isfinite(b) && a <= b) || std::fabs(a) > 0x1p50 || std::fabs(b) > 0x1p50)
    return std::nullopt;
  // inflection points (k + c)·π
  const double c = fn == OpId::Cos ? 0.5 : 0.0;
  const double k = std::nearbyint((a / 2 + b / 2) / M_PI - c);
  const auto [z, zh] = pi_multiple(k + c);
  Shape s{};
  s.tangency = shape_detail::no_tangency;
  s.inflection = z;
  s.inflection_hi = zh == z ? NAN : zh;
  const bool even = std::fmod(k, 2.0) == 0;
  if (fn == OpId::Tan) {  // between the poles (k ± 1/2)·π: concave below kπ, convex above
    s.f = directed_d<OpId::Tan>;
    s.slope = shape_detail::tan_slope;
    s.domain_lo = pi_multiple(k - 0.5).second;
    s.domain_hi = pi_multiple(k + 0.5).first;
    s.below = -1, s.above = 1;
  } else {
    // between the neighbouring inflection points; the piece above the j-th
    // inflection point is concave for sin when j is even (sin > 0 on
    // (2kπ, (2k+1)π)), convex for cos when j is even (cos < 0 on (π/2, 3π/2))
    const bool sine = fn == OpId::Sin;
    s.f = sine ? directed_d<OpId::Sin> : directed_d<OpId::Cos>;
    s.slope = sine ? shape_detail::sin_slope : shape_detail::cos_slope;
    s.domain_lo = pi_multiple(k - 1 + c).second;
    s.domain_hi = pi_multiple(k + 1 + c).first;
    const int above_even = sine ? -1 : 1;
    s.above = even ? above_even : -above_even;
    s.below = -s.above;
  }
  if (!(s.domain_lo < a && b < s.domain_hi)) return std::nullopt;
  return s;
}

bool correctly_rounded_value(ElementaryFunction f, double t, double c, const FloatFormat& F, RoundingMode mode,
                             double& out) {
  const double args[2] = {t, c};
  const auto r = correctly_rounded(f, std::span<const double>(args, operator_info(f).arity), F, mode);
  if (r) out = *r;
  return r.has_value();
}

}  // namespace symerr::elementary
