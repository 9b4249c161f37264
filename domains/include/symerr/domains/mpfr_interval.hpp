// MpfrInterval: closed intervals with mpfr_t endpoints of a run-time
// precision, a RealDomain.
//
// Invariants: both endpoints have the object's precision(), lower <= upper,
// neither is NaN; ±inf endpoints allowed. Every rounding names its direction
// (MPFR_RNDD for a lower endpoint, MPFR_RNDU for an upper one); MPFR's global
// state (exponent range, flags) is left as the caller had it (MpfrStateGuard)
// and the hardware rounding mode is never read or changed.
// Precision: factories use the thread-local default (128 bits unless set) or
// an explicit argument; a binary operation computes at the larger precision
// of its operands.
#pragma once

#include <iosfwd>
#include <optional>
#include <string>

#include <gmpxx.h>
#include <mpfr.h>

#include <symerr/config.hpp>
#include <symerr/domains/concept.hpp>
#include <symerr/tribool.hpp>

namespace symerr {

namespace detail {
struct MpfrIntervalAccess;
}

/// Closed intervals with mpfr_t endpoints of a run-time precision, a RealDomain.
/// Invariants: both endpoints have precision(), lower <= upper, neither is NaN
/// (±inf allowed). Every rounding names its direction (down for a lower
/// endpoint, up for an upper one); MPFR's global state is left as the caller had
/// it and the hardware rounding mode is never read or changed. Factories use the
/// thread-local default precision (128 bits unless set) or an explicit one; a
/// binary operation computes at the larger precision of its operands.
class MpfrInterval {
 public:
  /// The default precision before any set_default_precision(): 128 bits.
  static constexpr mpfr_prec_t initial_default_precision = 128;

  // Per thread. Throws std::invalid_argument outside [MPFR_PREC_MIN, MPFR_PREC_MAX].
  /// This thread's default precision.
  static mpfr_prec_t default_precision() noexcept;
  /// Sets this thread's default precision.
  /// @throws std::invalid_argument outside [MPFR_PREC_MIN, MPFR_PREC_MAX].
  static void set_default_precision(mpfr_prec_t bits);

  /// Sets the default precision for the lifetime of the scope, then restores it.
  class PrecisionScope {
   public:
    /// Sets this thread's default precision to `bits` (throws as set_default_precision()).
    explicit PrecisionScope(mpfr_prec_t bits);
    ~PrecisionScope();
    PrecisionScope(const PrecisionScope&) = delete;
    PrecisionScope& operator=(const PrecisionScope&) = delete;

   private:
    mpfr_prec_t saved_;
  };

  MpfrInterval();  ///< [0, 0] at the default precision
  explicit MpfrInterval(mpfr_prec_t precision);  ///< [0, 0]
  ///@{
  /// Copy and move (a moved-from interval is [0, 0] at MPFR_PREC_MIN).
  MpfrInterval(const MpfrInterval& other);
  MpfrInterval(MpfrInterval&& other) noexcept;  // other is left [0, 0] at MPFR_PREC_MIN
  MpfrInterval& operator=(const MpfrInterval& other);
  MpfrInterval& operator=(MpfrInterval&& other) noexcept;
  ///@}
  ~MpfrInterval();
  /// Exchanges the two intervals' endpoints (no allocation).
  void swap(MpfrInterval& other) noexcept;

  ///@{
  /// Enclosures rounded outward at `precision` (exact when representable).
  /// Throw std::invalid_argument on NaN or lo > hi.
  static MpfrInterval point(double v);
  static MpfrInterval point(double v, mpfr_prec_t precision);
  static MpfrInterval between(double lo, double hi);
  static MpfrInterval between(double lo, double hi, mpfr_prec_t precision);
  static MpfrInterval from_rational(const mpq_class& q);
  static MpfrInterval from_rational(const mpq_class& q, mpfr_prec_t precision);
  static MpfrInterval whole();
  static MpfrInterval whole(mpfr_prec_t precision);
  ///@}
  /// Encloses [lo, hi] of any precisions (rounded outward to `precision`).
  static MpfrInterval between(mpfr_srcptr lo, mpfr_srcptr hi, mpfr_prec_t precision);

  /// The endpoints' precision in bits.
  mpfr_prec_t precision() const noexcept { return mpfr_get_prec(lo_); }
  double lower() const;  ///< the largest double <= the lower endpoint
  double upper() const;  ///< the smallest double >= the upper endpoint
  ///@{
  /// The exact endpoints.
  mpfr_srcptr lower_mpfr() const noexcept { return lo_; }  // exact endpoints
  mpfr_srcptr upper_mpfr() const noexcept { return hi_; }
  ///@}

 private:
  friend struct detail::MpfrIntervalAccess;
  mpfr_t lo_;
  mpfr_t hi_;
};

/// Exchanges a and b.
inline void swap(MpfrInterval& a, MpfrInterval& b) noexcept { a.swap(b); }

///@{
/// Interval arithmetic rounded outward at the larger operand precision, the
/// RealDomain contract (<symerr/domain/concept.hpp>): endpoint products 0 · inf
/// are 0; a / b is whole() if 0 ∈ b; sqrt(a) = {√x : x ∈ a, x >= 0}, [0, 0] if a <= 0.
MpfrInterval operator+(const MpfrInterval& a, const MpfrInterval& b);
MpfrInterval operator-(const MpfrInterval& a, const MpfrInterval& b);
MpfrInterval operator*(const MpfrInterval& a, const MpfrInterval& b);  // endpoint 0 * inf = 0
MpfrInterval operator/(const MpfrInterval& a, const MpfrInterval& b);  // whole() if 0 in b
MpfrInterval operator-(const MpfrInterval& a);
MpfrInterval abs(const MpfrInterval& a);
MpfrInterval sqrt(const MpfrInterval& a);  // {sqrt(x) : x in a, x >= 0}; [0, 0] if a <= 0
///@}
/// The smallest interval holding a ∪ b.
MpfrInterval hull(const MpfrInterval& a, const MpfrInterval& b);
/// a ∩ b, or std::nullopt when disjoint.
std::optional<MpfrInterval> intersect(const MpfrInterval& a, const MpfrInterval& b);

///@{
/// The endpoint queries of the domain concept (<symerr/domain/concept.hpp>), exact:
/// v ∈ a, q ∈ a, a ⊆ b; width (rounded up; +inf if unbounded), mag = sup |x|
/// (rounded up), mig = inf |x| (rounded down); a finite point; both ends finite.
bool contains(const MpfrInterval& a, double v);
bool contains(const MpfrInterval& a, const mpq_class& q);
bool subset(const MpfrInterval& a, const MpfrInterval& b);
double width(const MpfrInterval& a);  // rounded up; +inf if unbounded
double mag(const MpfrInterval& a);    // rounded up
double mig(const MpfrInterval& a);    // rounded down
bool is_point(const MpfrInterval& a);
bool is_bounded(const MpfrInterval& a);
///@}

///@{
/// Comparisons as Tri: True if the relation holds for all x ∈ a, y ∈ b, False if for none.
Tri cmp_lt(const MpfrInterval& a, const MpfrInterval& b);
Tri cmp_le(const MpfrInterval& a, const MpfrInterval& b);
Tri cmp_eq(const MpfrInterval& a, const MpfrInterval& b);
inline Tri cmp_gt(const MpfrInterval& a, const MpfrInterval& b) { return cmp_lt(b, a); }
inline Tri cmp_ge(const MpfrInterval& a, const MpfrInterval& b) { return cmp_le(b, a); }
inline Tri cmp_ne(const MpfrInterval& a, const MpfrInterval& b) { return !cmp_eq(a, b); }
///@}

/// "[lo, hi]", 17 significant digits, lo rounded down and hi rounded up.
std::string to_string(const MpfrInterval& a);
/// Prints to_string(a).
std::ostream& operator<<(std::ostream& os, const MpfrInterval& a);

static_assert(RealDomain<MpfrInterval>);

}  // namespace symerr
