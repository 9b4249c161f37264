// Private to domains/src (not installed): Interval's rounding algorithms,
// once, for both rounding paths —
//   * per operation (interval.cpp): Boost's save_state policy saves the
//     caller's mode, sets FE_UPWARD and restores it around each operation;
//   * one scope (interval_batch.cpp): the whole SymbolicDomainError operation
//     runs in one FE_UPWARD scope and the policy assumes it is set.
// The path is the Boost interval type's rounding policy; the algorithms (Boost's
// operations, the outward widening of NaN endpoints, the 0 · inf = 0
// convention, the split of sqrt) are the same text. Both including
// translation units are compiled with -frounding-math.
//
// Internal linkage, like interval_rounding.hpp: each including translation
// unit instantiates its own copy with its own policy types.
#pragma once

#include <cmath>
#include <limits>
#include <optional>

#include <boost/numeric/interval/arith.hpp>
#include <boost/numeric/interval/utility.hpp>
#include <gmpxx.h>

#include <symerr/domains/endpoint_queries.hpp>

namespace symerr {
namespace {

// I: the interval type (lower(), upper()); Boost: boost::numeric::interval<
// double, policies<Rounding, Checking>> (Rounding: the path); make(lo, hi):
// an I from endpoints that already meet the invariant; Rounding also serves sqrt.
template <class I, class Boost, I (*make)(double, double) noexcept>
struct IntervalAlgorithms {
  static constexpr double inf = std::numeric_limits<double>::infinity();

  static Boost boost(const I& a) noexcept { return Boost(a.lower(), a.upper(), true); }

  // NaN endpoints of + − / come from inf − inf or inf / inf, i.e. from a
  // degenerate operand [+inf, +inf] or [−inf, −inf]: widen outward.
  static I outward(const Boost& r) noexcept {
    return make(std::isnan(r.lower()) ? -inf : r.lower(), std::isnan(r.upper()) ? inf : r.upper());
  }
  static I add(const I& a, const I& b) { return outward(boost(a) + boost(b)); }
  static I sub(const I& a, const I& b) { return outward(boost(a) - boost(b)); }
  // Boost's sign-case table multiplies endpoints only; a NaN endpoint is an
  // endpoint product 0 · inf, which the interval convention takes as 0.
  [[gnu::always_inline]] static I mul(const I& a, const I& b) {
    const Boost r = boost(a) * boost(b);
    return make(std::isnan(r.lower()) ? 0.0 : r.lower(), std::isnan(r.upper()) ? 0.0 : r.upper());
  }
  [[gnu::always_inline]] static I div(const I& a, const I& b) {
    if (endpoint::contains(b, 0.0)) return make(-inf, inf);
    return outward(boost::numeric::interval_lib::detail::div_non_zero(boost(a), boost(b)));
  }
  static I neg(const I& a) noexcept { return make(-a.upper(), -a.lower()); }
  static I abs(const I& a) noexcept {
    if (a.lower() >= 0) return a;
    if (a.upper() <= 0) return neg(a);
    return make(0.0, endpoint::max2(-a.lower(), a.upper()));
  }
  static I sqrt(const I& a) {
    if (a.upper() <= 0) return make(0.0, 0.0);
    typename Boost::traits_type::rounding rnd;
    const double lo = a.lower() > 0 ? rnd.sqrt_down(a.lower()) : 0.0;
    return make(lo, rnd.sqrt_up(a.upper()));
  }
  static I hull(const I& a, const I& b) noexcept {
    return make(endpoint::min2(a.lower(), b.lower()), endpoint::max2(a.upper(), b.upper()));
  }
  static std::optional<I> intersect(const I& a, const I& b) noexcept {
    const double lo = endpoint::max2(a.lower(), b.lower()), hi = endpoint::min2(a.upper(), b.upper());
    if (lo > hi) return std::nullopt;
    return make(lo, hi);
  }
  static double width(const I& a) {
    const double w = boost::numeric::width(boost(a));
    return std::isnan(w) ? inf : w;  // [+inf, +inf]: unbounded
  }
  // Sign of d − q for a double d (possibly infinite, not NaN) and a rational q.
  static int compare(double d, const mpq_class& q) {
    if (std::isinf(d)) return d > 0 ? 1 : -1;
    return cmp(mpq_class(d), q);
  }
  static bool contains(const I& a, const mpq_class& q) {
    return compare(a.lower(), q) <= 0 && compare(a.upper(), q) >= 0;
  }
};

}  // namespace
}  // namespace symerr
