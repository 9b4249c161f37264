// RationalInterval: closed intervals with exact rational endpoints (GMP
// mpq_class), possibly infinite, a RealDomain.
//
// Invariants: lower <= upper; an infinite endpoint is an explicit flag (never
// NaN; its value is 0 and unused); [+inf, +inf] / [-inf, -inf] are accepted
// and treated as limits. + - * / neg abs hull intersect are exact on finite
// endpoints. sqrt is the one enclosure: exact when the endpoint is the square
// of a rational, otherwise MPFR at `bits` (default 256) rounded outward and
// converted exactly back to rationals (relative width <= 2^(1-bits)).
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <utility>

#include <gmpxx.h>
#include <mpfr.h>

#include <symerr/config.hpp>
#include <symerr/domains/concept.hpp>
#include <symerr/tribool.hpp>

namespace symerr {

/// A rational or an infinity: the endpoint type of RationalInterval.
struct ExtendedRational {
  mpq_class value;           ///< the value if finite; 0 otherwise
  signed char infinity = 0;  ///< -1: -inf, +1: +inf, 0: finite

  /// A finite endpoint q.
  static ExtendedRational finite(const mpq_class& q) { return {q, 0}; }
  /// The infinity of the sign of `sign` (+inf for 0).
  static ExtendedRational infinite(int sign) { return {mpq_class(0), static_cast<signed char>(sign < 0 ? -1 : 1)}; }
  /// Whether it is finite.
  bool is_finite() const noexcept { return infinity == 0; }
  /// Its sign: −1, 0 or +1.
  int sign() const noexcept { return infinity != 0 ? infinity : sgn(value); }
};

/// The sign of x - y (-1, 0, +1); equal infinities compare equal.
int compare(const ExtendedRational& x, const ExtendedRational& y);

namespace detail {
struct RationalIntervalAccess;
}

/// Closed intervals with exact rational endpoints (GMP mpq_class), possibly
/// infinite, a RealDomain. Invariant: lower <= upper; an infinite endpoint is an
/// explicit flag, never NaN. + − · / neg abs hull intersect are exact on finite
/// endpoints; sqrt is the one enclosure (exact on squares of rationals, else MPFR
/// at `bits`, default 256, rounded outward: relative width <= 2^(1−bits)).
class RationalInterval {
 public:
  /// The default precision of sqrt(): 256 bits.
  static constexpr mpfr_prec_t default_sqrt_precision = 256;

  RationalInterval() = default;  // [0, 0]

  ///@{
  /// Exact. Throw std::invalid_argument on NaN or lo > hi.
  static RationalInterval point(double v);
  static RationalInterval between(double lo, double hi);
  static RationalInterval between(const mpq_class& lo, const mpq_class& hi);
  static RationalInterval between(const ExtendedRational& lo, const ExtendedRational& hi);
  static RationalInterval from_rational(const mpq_class& q);
  static RationalInterval whole();
  ///@}

  ///@{
  /// The largest double <= the lower endpoint (upper(): the smallest double >= the upper one).
  double lower() const;  // the largest double <= the lower endpoint
  double upper() const;  // the smallest double >= the upper endpoint
  ///@}
  ///@{
  /// The exact endpoints.
  const ExtendedRational& lower_exact() const noexcept { return lo_; }
  const ExtendedRational& upper_exact() const noexcept { return hi_; }
  ///@}

 private:
  RationalInterval(ExtendedRational lo, ExtendedRational hi) : lo_(std::move(lo)), hi_(std::move(hi)) {}
  friend struct detail::RationalIntervalAccess;
  ExtendedRational lo_;
  ExtendedRational hi_;
};

///@{
/// Exact interval arithmetic, the RealDomain contract (<symerr/domain/concept.hpp>):
/// endpoint products 0 · inf are 0; a / b is whole() if 0 ∈ b.
RationalInterval operator+(const RationalInterval& a, const RationalInterval& b);
RationalInterval operator-(const RationalInterval& a, const RationalInterval& b);
RationalInterval operator*(const RationalInterval& a, const RationalInterval& b);  // 0 * inf = 0
RationalInterval operator/(const RationalInterval& a, const RationalInterval& b);  // whole() if 0 in b
RationalInterval operator-(const RationalInterval& a);
RationalInterval abs(const RationalInterval& a);
///@}
///@{
/// {sqrt(x) : x in a, x >= 0}; [0, 0] if a <= 0. See the header comment.
RationalInterval sqrt(const RationalInterval& a);
RationalInterval sqrt(const RationalInterval& a, mpfr_prec_t bits);
///@}
/// The smallest interval holding a ∪ b.
RationalInterval hull(const RationalInterval& a, const RationalInterval& b);
/// a ∩ b, or std::nullopt when disjoint.
std::optional<RationalInterval> intersect(const RationalInterval& a, const RationalInterval& b);

///@{
/// The endpoint queries of the domain concept (<symerr/domain/concept.hpp>), exact:
/// v ∈ a, q ∈ a, a ⊆ b; width (rounded up; +inf if unbounded), mag = sup |x|
/// (rounded up), mig = inf |x| (rounded down); a finite point; both ends finite.
bool contains(const RationalInterval& a, double v);
bool contains(const RationalInterval& a, const mpq_class& q);
bool subset(const RationalInterval& a, const RationalInterval& b);
double width(const RationalInterval& a);  // rounded up; +inf if unbounded
double mag(const RationalInterval& a);    // rounded up
double mig(const RationalInterval& a);    // rounded down
bool is_point(const RationalInterval& a);
bool is_bounded(const RationalInterval& a);
///@}

///@{
/// Comparisons as Tri: True if the relation holds for all x ∈ a, y ∈ b, False if for none.
Tri cmp_lt(const RationalInterval& a, const RationalInterval& b);
Tri cmp_le(const RationalInterval& a, const RationalInterval& b);
Tri cmp_eq(const RationalInterval& a, const RationalInterval& b);
inline Tri cmp_gt(const RationalInterval& a, const RationalInterval& b) { return cmp_lt(b, a); }
inline Tri cmp_ge(const RationalInterval& a, const RationalInterval& b) { return cmp_le(b, a); }
inline Tri cmp_ne(const RationalInterval& a, const RationalInterval& b) { return !cmp_eq(a, b); }
///@}

/// "[lo, hi]", 17 significant digits, lo rounded down and hi rounded up.
std::string to_string(const RationalInterval& a);
/// Prints to_string(a).
std::ostream& operator<<(std::ostream& os, const RationalInterval& a);

static_assert(RealDomain<RationalInterval>);

}  // namespace symerr
