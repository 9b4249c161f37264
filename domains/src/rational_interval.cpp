#include <symerr/domains/rational_interval.hpp>

#include <cmath>
#include <limits>
#include <ostream>
#include <stdexcept>

#include <symerr/domains/endpoint_plan.hpp>
#include <symerr/domains/mpfr_support.hpp>

namespace symerr {

using XQ = ExtendedRational;

namespace detail {
struct RationalIntervalAccess {
  static RationalInterval make(XQ lo, XQ hi) { return RationalInterval(std::move(lo), std::move(hi)); }
};
}  // namespace detail

namespace {

using Access = detail::RationalIntervalAccess;
constexpr double inf = std::numeric_limits<double>::infinity();

// The direction an undefined endpoint form (inf - inf, inf / inf; only from a
// degenerate operand [+inf, +inf] or [-inf, -inf]) is widened to.
enum class Dir { Down, Up };
XQ outward(Dir d) { return XQ::infinite(d == Dir::Down ? -1 : 1); }

XQ negated(const XQ& x) { return {-x.value, static_cast<signed char>(-x.infinity)}; }

XQ add(const XQ& x, const XQ& y, Dir d) {
  if (x.is_finite() && y.is_finite()) return XQ::finite(x.value + y.value);
  if (!x.is_finite() && !y.is_finite() && x.infinity != y.infinity) return outward(d);
  return XQ::infinite(x.is_finite() ? y.infinity : x.infinity);
}

XQ sub(const XQ& x, const XQ& y, Dir d) { return add(x, negated(y), d); }

XQ mul(const XQ& x, const XQ& y, Dir) {  // 0 * inf = 0
  const int s = x.sign() * y.sign();
  if (s == 0) return XQ::finite(mpq_class(0));
  if (x.is_finite() && y.is_finite()) return XQ::finite(x.value * y.value);
  return XQ::infinite(s);
}

XQ div(const XQ& x, const XQ& y, Dir d) {  // precondition: y != 0
  if (x.is_finite() && y.is_finite()) return XQ::finite(x.value / y.value);
  if (x.is_finite()) return XQ::finite(mpq_class(0));
  if (y.is_finite()) return XQ::infinite(x.infinity * sgn(y.value));
  return outward(d);
}

using EndpointOp = XQ (*)(const XQ&, const XQ&, Dir);

const XQ& endpoint(const RationalInterval& a, bool upper) {
  return upper ? a.upper_exact() : a.lower_exact();
}

XQ corner_extremum(const detail::Extremum& e, const RationalInterval& a, const RationalInterval& b,
                   EndpointOp op, Dir d) {
  XQ r = op(endpoint(a, e.first.x_upper), endpoint(b, e.first.y_upper), d);
  if (!e.two) return r;
  XQ t = op(endpoint(a, e.second.x_upper), endpoint(b, e.second.y_upper), d);
  const int c = compare(t, r);
  return (d == Dir::Down ? c < 0 : c > 0) ? t : r;
}

detail::SignClass sign_class(const RationalInterval& a) {
  return detail::sign_class(a.lower_exact().sign(), a.upper_exact().sign());
}

RationalInterval by_plan(const RationalInterval& a, const RationalInterval& b,
                         const detail::EndpointPlan& plan, EndpointOp op) {
  return Access::make(corner_extremum(plan.lower, a, b, op, Dir::Down),
                      corner_extremum(plan.upper, a, b, op, Dir::Up));
}

XQ from_double(double v) {
  if (std::isinf(v)) return XQ::infinite(v > 0 ? 1 : -1);
  return XQ::finite(mpq_class(v));
}

double to_double(const XQ& x, Dir d) {
  if (!x.is_finite()) return x.infinity * inf;
  return d == Dir::Down ? detail::to_double_down(x.value) : detail::to_double_up(x.value);
}

const XQ& min_of(const XQ& x, const XQ& y) { return compare(y, x) < 0 ? y : x; }
const XQ& max_of(const XQ& x, const XQ& y) { return compare(y, x) > 0 ? y : x; }

// sqrt(q) rounded in direction d, for finite q > 0: exact if q is the square
// of a rational (mpq_class is canonical: numerator and denominator coprime, so
// q is a square iff both are), else MPFR at `bits`, both roundings in d.
XQ sqrt_endpoint(const mpq_class& q, mpfr_prec_t bits, Dir d) {
  if (mpz_perfect_square_p(q.get_num_mpz_t()) && mpz_perfect_square_p(q.get_den_mpz_t())) {
    mpz_class num, den;
    mpz_sqrt(num.get_mpz_t(), q.get_num_mpz_t());
    mpz_sqrt(den.get_mpz_t(), q.get_den_mpz_t());
    return XQ::finite(mpq_class(num, den));
  }
  const mpfr_rnd_t rnd = d == Dir::Down ? MPFR_RNDD : MPFR_RNDU;
  detail::MpfrStateGuard guard;
  mpfr_t t;
  mpfr_init2(t, bits);
  mpfr_set_q(t, q.get_mpq_t(), rnd);
  mpfr_sqrt(t, t, rnd);
  XQ r;
  mpfr_get_q(r.value.get_mpq_t(), t);  // exact
  mpfr_clear(t);
  return r;
}

void require_order(const XQ& lo, const XQ& hi, const char* who) {
  if (compare(lo, hi) > 0) throw std::invalid_argument(std::string(who) + ": lower endpoint above upper endpoint");
}

}  // namespace

int compare(const XQ& x, const XQ& y) {
  if (x.infinity != y.infinity) return x.infinity < y.infinity ? -1 : 1;
  if (!x.is_finite()) return 0;
  const int c = cmp(x.value, y.value);
  return (c > 0) - (c < 0);
}

RationalInterval RationalInterval::point(double v) { return between(v, v); }

RationalInterval RationalInterval::between(double lo, double hi) {
  if (std::isnan(lo) || std::isnan(hi))
    throw std::invalid_argument("RationalInterval::between: NaN endpoint (special states are flags, not NaN)");
  return between(from_double(lo), from_double(hi));
}

RationalInterval RationalInterval::between(const mpq_class& lo, const mpq_class& hi) {
  return between(XQ::finite(lo), XQ::finite(hi));
}

RationalInterval RationalInterval::between(const ExtendedRational& lo, const ExtendedRational& hi) {
  require_order(lo, hi, "RationalInterval::between");
  return RationalInterval(lo, hi);
}

RationalInterval RationalInterval::from_rational(const mpq_class& q) {
  return RationalInterval(XQ::finite(q), XQ::finite(q));
}

RationalInterval RationalInterval::whole() { return RationalInterval(XQ::infinite(-1), XQ::infinite(1)); }

double RationalInterval::lower() const { return to_double(lo_, Dir::Down); }
double RationalInterval::upper() const { return to_double(hi_, Dir::Up); }

RationalInterval operator+(const RationalInterval& a, const RationalInterval& b) {
  return Access::make(add(a.lower_exact(), b.lower_exact(), Dir::Down),
                      add(a.upper_exact(), b.upper_exact(), Dir::Up));
}

RationalInterval operator-(const RationalInterval& a, const RationalInterval& b) {
  return Access::make(sub(a.lower_exact(), b.upper_exact(), Dir::Down),
                      sub(a.upper_exact(), b.lower_exact(), Dir::Up));
}

RationalInterval operator*(const RationalInterval& a, const RationalInterval& b) {
  return by_plan(a, b, detail::mul_plan(sign_class(a), sign_class(b)), mul);
}

RationalInterval operator/(const RationalInterval& a, const RationalInterval& b) {
  if (b.lower_exact().sign() <= 0 && b.upper_exact().sign() >= 0) return RationalInterval::whole();
  return by_plan(a, b, detail::div_plan(sign_class(a), sign_class(b)), div);
}

RationalInterval operator-(const RationalInterval& a) {
  return Access::make(negated(a.upper_exact()), negated(a.lower_exact()));
}

RationalInterval abs(const RationalInterval& a) {
  if (a.lower_exact().sign() >= 0) return a;
  if (a.upper_exact().sign() <= 0) return -a;
  return Access::make(XQ::finite(mpq_class(0)), max_of(negated(a.lower_exact()), a.upper_exact()));
}

RationalInterval sqrt(const RationalInterval& a) {
  return sqrt(a, RationalInterval::default_sqrt_precision);
}

RationalInterval sqrt(const RationalInterval& a, mpfr_prec_t bits) {
  if (bits < MPFR_PREC_MIN || bits > MPFR_PREC_MAX)
    throw std::invalid_argument("sqrt(RationalInterval): precision outside [MPFR_PREC_MIN, MPFR_PREC_MAX]");
  const XQ zero = XQ::finite(mpq_class(0));
  const XQ& hi = a.upper_exact();
  if (hi.sign() <= 0) return Access::make(zero, zero);
  const XQ& lo = a.lower_exact();
  XQ r_lo = lo.sign() <= 0 ? zero : lo.is_finite() ? sqrt_endpoint(lo.value, bits, Dir::Down) : lo;
  XQ r_hi = hi.is_finite() ? sqrt_endpoint(hi.value, bits, Dir::Up) : hi;
  return Access::make(std::move(r_lo), std::move(r_hi));
}

RationalInterval hull(const RationalInterval& a, const RationalInterval& b) {
  return Access::make(min_of(a.lower_exact(), b.lower_exact()), max_of(a.upper_exact(), b.upper_exact()));
}

std::optional<RationalInterval> intersect(const RationalInterval& a, const RationalInterval& b) {
  const XQ& lo = max_of(a.lower_exact(), b.lower_exact());
  const XQ& hi = min_of(a.upper_exact(), b.upper_exact());
  if (compare(lo, hi) > 0) return std::nullopt;
  return Access::make(lo, hi);
}

bool contains(const RationalInterval& a, double v) {
  if (std::isnan(v)) return false;
  const XQ x = from_double(v);
  return compare(a.lower_exact(), x) <= 0 && compare(x, a.upper_exact()) <= 0;
}

bool contains(const RationalInterval& a, const mpq_class& q) {
  const XQ x = XQ::finite(q);
  return compare(a.lower_exact(), x) <= 0 && compare(x, a.upper_exact()) <= 0;
}

bool subset(const RationalInterval& a, const RationalInterval& b) {
  return compare(b.lower_exact(), a.lower_exact()) <= 0 && compare(a.upper_exact(), b.upper_exact()) <= 0;
}

bool is_bounded(const RationalInterval& a) { return a.lower_exact().is_finite() && a.upper_exact().is_finite(); }

bool is_point(const RationalInterval& a) {
  return is_bounded(a) && a.lower_exact().value == a.upper_exact().value;
}

double width(const RationalInterval& a) {
  if (!is_bounded(a)) return inf;
  return detail::to_double_up(a.upper_exact().value - a.lower_exact().value);
}

double mag(const RationalInterval& a) {
  const XQ& lo = a.lower_exact();
  const XQ& hi = a.upper_exact();
  return to_double(max_of(negated(lo), hi), Dir::Up);  // max(|lo|, |hi|) = max(-lo, hi)
}

double mig(const RationalInterval& a) {
  const XQ& lo = a.lower_exact();
  const XQ& hi = a.upper_exact();
  if (lo.sign() > 0) return to_double(lo, Dir::Down);
  if (hi.sign() < 0) return to_double(negated(hi), Dir::Down);
  return 0.0;
}

Tri cmp_lt(const RationalInterval& a, const RationalInterval& b) {
  if (compare(a.upper_exact(), b.lower_exact()) < 0) return Tri::True;
  if (compare(a.lower_exact(), b.upper_exact()) >= 0) return Tri::False;
  return Tri::Unknown;
}

Tri cmp_le(const RationalInterval& a, const RationalInterval& b) {
  if (compare(a.upper_exact(), b.lower_exact()) <= 0) return Tri::True;
  if (compare(a.lower_exact(), b.upper_exact()) > 0) return Tri::False;
  return Tri::Unknown;
}

Tri cmp_eq(const RationalInterval& a, const RationalInterval& b) {
  if (compare(a.upper_exact(), b.lower_exact()) < 0 || compare(b.upper_exact(), a.lower_exact()) < 0)
    return Tri::False;
  if (is_point(a) && is_point(b)) return Tri::True;  // equal points: not disjoint
  return Tri::Unknown;
}

std::string to_string(const RationalInterval& a) {
  detail::MpfrStateGuard guard;
  mpfr_t lo, hi;
  mpfr_inits2(128, lo, hi, static_cast<mpfr_ptr>(nullptr));
  // Rounded toward -inf (+inf) here and again when printed: still a bound.
  const XQ& l = a.lower_exact();
  const XQ& h = a.upper_exact();
  if (l.is_finite()) mpfr_set_q(lo, l.value.get_mpq_t(), MPFR_RNDD); else mpfr_set_inf(lo, l.infinity);
  if (h.is_finite()) mpfr_set_q(hi, h.value.get_mpq_t(), MPFR_RNDU); else mpfr_set_inf(hi, h.infinity);
  std::string s = detail::format_interval(lo, hi);
  mpfr_clears(lo, hi, static_cast<mpfr_ptr>(nullptr));
  return s;
}

std::ostream& operator<<(std::ostream& os, const RationalInterval& a) { return os << to_string(a); }

}  // namespace symerr
