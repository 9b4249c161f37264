#include <symerr/domains/mpfr_interval.hpp>

#include <algorithm>
#include <limits>
#include <ostream>
#include <stdexcept>

#include <symerr/domains/endpoint_plan.hpp>
#include <symerr/domains/mpfr_support.hpp>

namespace symerr {
namespace detail {
struct MpfrIntervalAccess {
  static mpfr_ptr lo(MpfrInterval& a) noexcept { return a.lo_; }
  static mpfr_ptr hi(MpfrInterval& a) noexcept { return a.hi_; }
};
}  // namespace detail

namespace {

using detail::MpfrStateGuard;
using Access = detail::MpfrIntervalAccess;

thread_local mpfr_prec_t default_bits = MpfrInterval::initial_default_precision;

void require_precision(mpfr_prec_t bits) {
  if (bits < MPFR_PREC_MIN || bits > MPFR_PREC_MAX)
    throw std::invalid_argument("MpfrInterval: precision outside [MPFR_PREC_MIN, MPFR_PREC_MAX]");
}

void require_endpoints(bool any_nan, bool reversed, const char* who) {
  if (any_nan)
    throw std::invalid_argument(std::string(who) + ": NaN endpoint (special states are flags, not NaN)");
  if (reversed) throw std::invalid_argument(std::string(who) + ": lower endpoint above upper endpoint");
}

mpfr_prec_t joint_precision(const MpfrInterval& a, const MpfrInterval& b) noexcept {
  return std::max(a.precision(), b.precision());
}

mpfr_srcptr endpoint(const MpfrInterval& a, bool upper) noexcept {
  return upper ? a.upper_mpfr() : a.lower_mpfr();
}

// Endpoint operations, r = x op y rounded in direction rnd (RNDD or RNDU).
// A NaN can only come from a degenerate operand [+inf, +inf] / [-inf, -inf]
// (inf - inf, inf / inf) and is widened outward; 0 * inf is 0.
void widen_nan(mpfr_ptr r, mpfr_rnd_t rnd) noexcept {
  if (mpfr_nan_p(r)) mpfr_set_inf(r, rnd == MPFR_RNDD ? -1 : 1);
}
void add_endpoint(mpfr_ptr r, mpfr_srcptr x, mpfr_srcptr y, mpfr_rnd_t rnd) noexcept {
  mpfr_add(r, x, y, rnd);
  widen_nan(r, rnd);
}
void sub_endpoint(mpfr_ptr r, mpfr_srcptr x, mpfr_srcptr y, mpfr_rnd_t rnd) noexcept {
  mpfr_sub(r, x, y, rnd);
  widen_nan(r, rnd);
}
void mul_endpoint(mpfr_ptr r, mpfr_srcptr x, mpfr_srcptr y, mpfr_rnd_t rnd) noexcept {
  if (mpfr_zero_p(x) || mpfr_zero_p(y)) {
    mpfr_set_zero(r, 1);
  } else {
    mpfr_mul(r, x, y, rnd);
  }
}
void div_endpoint(mpfr_ptr r, mpfr_srcptr x, mpfr_srcptr y, mpfr_rnd_t rnd) noexcept {
  mpfr_div(r, x, y, rnd);
  widen_nan(r, rnd);
}

using EndpointOp = void (*)(mpfr_ptr, mpfr_srcptr, mpfr_srcptr, mpfr_rnd_t) noexcept;

// r = the extremum of the plan's corner values, rounded in direction rnd
// (the min for RNDD, the max for RNDU; both candidates are rounded in rnd, and
// the min of values rounded down is the min rounded down).
void corner_extremum(mpfr_ptr r, const detail::Extremum& e, const MpfrInterval& a,
                     const MpfrInterval& b, EndpointOp op, mpfr_rnd_t rnd) {
  op(r, endpoint(a, e.first.x_upper), endpoint(b, e.first.y_upper), rnd);
  if (!e.two) return;
  MpfrInterval scratch(mpfr_get_prec(r));
  mpfr_ptr t = Access::lo(scratch);
  op(t, endpoint(a, e.second.x_upper), endpoint(b, e.second.y_upper), rnd);
  if (rnd == MPFR_RNDD) {
    mpfr_min(r, r, t, rnd);
  } else {
    mpfr_max(r, r, t, rnd);
  }
}

detail::SignClass sign_class(const MpfrInterval& a) noexcept {
  return detail::sign_class(mpfr_sgn(a.lower_mpfr()), mpfr_sgn(a.upper_mpfr()));
}

MpfrInterval by_plan(const MpfrInterval& a, const MpfrInterval& b, const detail::EndpointPlan& plan,
                     EndpointOp op) {
  MpfrStateGuard guard;
  MpfrInterval r(joint_precision(a, b));
  corner_extremum(Access::lo(r), plan.lower, a, b, op, MPFR_RNDD);
  corner_extremum(Access::hi(r), plan.upper, a, b, op, MPFR_RNDU);
  return r;
}

// |x| rounded up / down to double, for x not NaN.
double abs_up(mpfr_srcptr x) {
  return mpfr_sgn(x) < 0 ? -mpfr_get_d(x, MPFR_RNDD) : mpfr_get_d(x, MPFR_RNDU);
}
double abs_down(mpfr_srcptr x) {
  return mpfr_sgn(x) < 0 ? -mpfr_get_d(x, MPFR_RNDU) : mpfr_get_d(x, MPFR_RNDD);
}

}  // namespace

mpfr_prec_t MpfrInterval::default_precision() noexcept { return default_bits; }

void MpfrInterval::set_default_precision(mpfr_prec_t bits) {
  require_precision(bits);
  default_bits = bits;
}

MpfrInterval::PrecisionScope::PrecisionScope(mpfr_prec_t bits) : saved_(default_bits) {
  set_default_precision(bits);
}
MpfrInterval::PrecisionScope::~PrecisionScope() { default_bits = saved_; }

MpfrInterval::MpfrInterval() : MpfrInterval(default_bits) {}

MpfrInterval::MpfrInterval(mpfr_prec_t precision) {
  require_precision(precision);
  mpfr_init2(lo_, precision);
  mpfr_init2(hi_, precision);
  mpfr_set_zero(lo_, 1);
  mpfr_set_zero(hi_, 1);
}

MpfrInterval::MpfrInterval(const MpfrInterval& other) {
  mpfr_init2(lo_, other.precision());
  mpfr_init2(hi_, other.precision());
  mpfr_set(lo_, other.lo_, MPFR_RNDD);  // exact: same precision
  mpfr_set(hi_, other.hi_, MPFR_RNDU);
}

MpfrInterval::MpfrInterval(MpfrInterval&& other) noexcept {
  mpfr_init2(lo_, MPFR_PREC_MIN);
  mpfr_init2(hi_, MPFR_PREC_MIN);
  mpfr_set_zero(lo_, 1);
  mpfr_set_zero(hi_, 1);
  swap(other);
}

MpfrInterval& MpfrInterval::operator=(const MpfrInterval& other) {
  if (this != &other) {
    mpfr_set_prec(lo_, other.precision());
    mpfr_set_prec(hi_, other.precision());
    mpfr_set(lo_, other.lo_, MPFR_RNDD);
    mpfr_set(hi_, other.hi_, MPFR_RNDU);
  }
  return *this;
}

MpfrInterval& MpfrInterval::operator=(MpfrInterval&& other) noexcept {
  swap(other);
  return *this;
}

MpfrInterval::~MpfrInterval() {
  mpfr_clear(lo_);
  mpfr_clear(hi_);
}

void MpfrInterval::swap(MpfrInterval& other) noexcept {
  mpfr_swap(lo_, other.lo_);
  mpfr_swap(hi_, other.hi_);
}

MpfrInterval MpfrInterval::point(double v) { return between(v, v, default_bits); }
MpfrInterval MpfrInterval::point(double v, mpfr_prec_t precision) { return between(v, v, precision); }
MpfrInterval MpfrInterval::between(double lo, double hi) { return between(lo, hi, default_bits); }

MpfrInterval MpfrInterval::between(double lo, double hi, mpfr_prec_t precision) {
  require_endpoints(lo != lo || hi != hi, lo > hi, "MpfrInterval::between");
  MpfrStateGuard guard;
  MpfrInterval r(precision);
  mpfr_set_d(r.lo_, lo, MPFR_RNDD);
  mpfr_set_d(r.hi_, hi, MPFR_RNDU);
  return r;
}

MpfrInterval MpfrInterval::between(mpfr_srcptr lo, mpfr_srcptr hi, mpfr_prec_t precision) {
  require_endpoints(mpfr_nan_p(lo) || mpfr_nan_p(hi), mpfr_greater_p(lo, hi),
                    "MpfrInterval::between");
  MpfrStateGuard guard;
  MpfrInterval r(precision);
  mpfr_set(r.lo_, lo, MPFR_RNDD);
  mpfr_set(r.hi_, hi, MPFR_RNDU);
  return r;
}

MpfrInterval MpfrInterval::from_rational(const mpq_class& q) { return from_rational(q, default_bits); }

MpfrInterval MpfrInterval::from_rational(const mpq_class& q, mpfr_prec_t precision) {
  MpfrStateGuard guard;
  MpfrInterval r(precision);
  mpfr_set_q(r.lo_, q.get_mpq_t(), MPFR_RNDD);
  mpfr_set_q(r.hi_, q.get_mpq_t(), MPFR_RNDU);
  return r;
}

MpfrInterval MpfrInterval::whole() { return whole(default_bits); }

MpfrInterval MpfrInterval::whole(mpfr_prec_t precision) {
  MpfrInterval r(precision);
  mpfr_set_inf(r.lo_, -1);
  mpfr_set_inf(r.hi_, 1);
  return r;
}

double MpfrInterval::lower() const {
  MpfrStateGuard guard;
  return mpfr_get_d(lo_, MPFR_RNDD);
}

double MpfrInterval::upper() const {
  MpfrStateGuard guard;
  return mpfr_get_d(hi_, MPFR_RNDU);
}

MpfrInterval operator+(const MpfrInterval& a, const MpfrInterval& b) {
  MpfrStateGuard guard;
  MpfrInterval r(joint_precision(a, b));
  add_endpoint(Access::lo(r), a.lower_mpfr(), b.lower_mpfr(), MPFR_RNDD);
  add_endpoint(Access::hi(r), a.upper_mpfr(), b.upper_mpfr(), MPFR_RNDU);
  return r;
}

MpfrInterval operator-(const MpfrInterval& a, const MpfrInterval& b) {
  MpfrStateGuard guard;
  MpfrInterval r(joint_precision(a, b));
  sub_endpoint(Access::lo(r), a.lower_mpfr(), b.upper_mpfr(), MPFR_RNDD);
  sub_endpoint(Access::hi(r), a.upper_mpfr(), b.lower_mpfr(), MPFR_RNDU);
  return r;
}

MpfrInterval operator*(const MpfrInterval& a, const MpfrInterval& b) {
  return by_plan(a, b, detail::mul_plan(sign_class(a), sign_class(b)), mul_endpoint);
}

MpfrInterval operator/(const MpfrInterval& a, const MpfrInterval& b) {
  if (mpfr_sgn(b.lower_mpfr()) <= 0 && mpfr_sgn(b.upper_mpfr()) >= 0)
    return MpfrInterval::whole(joint_precision(a, b));
  return by_plan(a, b, detail::div_plan(sign_class(a), sign_class(b)), div_endpoint);
}

MpfrInterval operator-(const MpfrInterval& a) {
  MpfrInterval r(a.precision());
  mpfr_neg(Access::lo(r), a.upper_mpfr(), MPFR_RNDD);  // exact: same precision
  mpfr_neg(Access::hi(r), a.lower_mpfr(), MPFR_RNDU);
  return r;
}

MpfrInterval abs(const MpfrInterval& a) {
  if (mpfr_sgn(a.lower_mpfr()) >= 0) return a;
  if (mpfr_sgn(a.upper_mpfr()) <= 0) return -a;
  MpfrInterval r(a.precision());
  if (mpfr_cmpabs(a.lower_mpfr(), a.upper_mpfr()) > 0) {
    mpfr_neg(Access::hi(r), a.lower_mpfr(), MPFR_RNDU);
  } else {
    mpfr_set(Access::hi(r), a.upper_mpfr(), MPFR_RNDU);
  }
  return r;  // lower endpoint 0
}

MpfrInterval sqrt(const MpfrInterval& a) {
  MpfrInterval r(a.precision());  // [0, 0]
  if (mpfr_sgn(a.upper_mpfr()) <= 0) return r;
  MpfrStateGuard guard;
  if (mpfr_sgn(a.lower_mpfr()) > 0) mpfr_sqrt(Access::lo(r), a.lower_mpfr(), MPFR_RNDD);
  mpfr_sqrt(Access::hi(r), a.upper_mpfr(), MPFR_RNDU);
  return r;
}

MpfrInterval hull(const MpfrInterval& a, const MpfrInterval& b) {
  MpfrInterval r(joint_precision(a, b));  // min/max exact at the joint precision
  mpfr_min(Access::lo(r), a.lower_mpfr(), b.lower_mpfr(), MPFR_RNDD);
  mpfr_max(Access::hi(r), a.upper_mpfr(), b.upper_mpfr(), MPFR_RNDU);
  return r;
}

std::optional<MpfrInterval> intersect(const MpfrInterval& a, const MpfrInterval& b) {
  if (mpfr_less_p(a.upper_mpfr(), b.lower_mpfr()) || mpfr_less_p(b.upper_mpfr(), a.lower_mpfr()))
    return std::nullopt;
  MpfrInterval r(joint_precision(a, b));
  mpfr_max(Access::lo(r), a.lower_mpfr(), b.lower_mpfr(), MPFR_RNDD);
  mpfr_min(Access::hi(r), a.upper_mpfr(), b.upper_mpfr(), MPFR_RNDU);
  return r;
}

bool contains(const MpfrInterval& a, double v) {
  if (v != v) return false;
  MpfrStateGuard guard;
  return mpfr_cmp_d(a.lower_mpfr(), v) <= 0 && mpfr_cmp_d(a.upper_mpfr(), v) >= 0;
}

bool contains(const MpfrInterval& a, const mpq_class& q) {
  MpfrStateGuard guard;
  return mpfr_cmp_q(a.lower_mpfr(), q.get_mpq_t()) <= 0 && mpfr_cmp_q(a.upper_mpfr(), q.get_mpq_t()) >= 0;
}

bool subset(const MpfrInterval& a, const MpfrInterval& b) {
  return mpfr_lessequal_p(b.lower_mpfr(), a.lower_mpfr()) &&
         mpfr_lessequal_p(a.upper_mpfr(), b.upper_mpfr());
}

double width(const MpfrInterval& a) {
  MpfrStateGuard guard;
  mpfr_t w;
  mpfr_init2(w, 53);
  mpfr_sub(w, a.upper_mpfr(), a.lower_mpfr(), MPFR_RNDU);
  // NaN: inf - inf from [+inf, +inf] or [-inf, -inf], which are unbounded.
  const double d = mpfr_nan_p(w) ? std::numeric_limits<double>::infinity() : mpfr_get_d(w, MPFR_RNDU);
  mpfr_clear(w);
  return d;
}

double mag(const MpfrInterval& a) {
  MpfrStateGuard guard;
  return std::max(abs_up(a.lower_mpfr()), abs_up(a.upper_mpfr()));
}

double mig(const MpfrInterval& a) {
  if (mpfr_sgn(a.lower_mpfr()) <= 0 && mpfr_sgn(a.upper_mpfr()) >= 0) return 0.0;
  MpfrStateGuard guard;
  return std::min(abs_down(a.lower_mpfr()), abs_down(a.upper_mpfr()));
}

bool is_bounded(const MpfrInterval& a) {
  return mpfr_number_p(a.lower_mpfr()) && mpfr_number_p(a.upper_mpfr());
}

bool is_point(const MpfrInterval& a) {
  return mpfr_equal_p(a.lower_mpfr(), a.upper_mpfr()) && mpfr_number_p(a.lower_mpfr());
}

Tri cmp_lt(const MpfrInterval& a, const MpfrInterval& b) {
  if (mpfr_less_p(a.upper_mpfr(), b.lower_mpfr())) return Tri::True;
  if (mpfr_greaterequal_p(a.lower_mpfr(), b.upper_mpfr())) return Tri::False;
  return Tri::Unknown;
}

Tri cmp_le(const MpfrInterval& a, const MpfrInterval& b) {
  if (mpfr_lessequal_p(a.upper_mpfr(), b.lower_mpfr())) return Tri::True;
  if (mpfr_greater_p(a.lower_mpfr(), b.upper_mpfr())) return Tri::False;
  return Tri::Unknown;
}

Tri cmp_eq(const MpfrInterval& a, const MpfrInterval& b) {
  if (mpfr_less_p(a.upper_mpfr(), b.lower_mpfr()) || mpfr_less_p(b.upper_mpfr(), a.lower_mpfr()))
    return Tri::False;
  if (is_point(a) && is_point(b)) return Tri::True;  // equal points: not disjoint
  return Tri::Unknown;
}

std::string to_string(const MpfrInterval& a) {
  MpfrStateGuard guard;
  return detail::format_interval(a.lower_mpfr(), a.upper_mpfr());
}

std::ostream& operator<<(std::ostream& os, const MpfrInterval& a) { return os << to_string(a); }

}  // namespace symerr
