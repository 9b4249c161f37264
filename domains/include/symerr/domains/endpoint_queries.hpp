// The queries of a closed interval of doubles that only compare endpoints —
// containment, comparisons as Tri, magnitude — once, for every interval type
// with lower() and upper() (never NaN, lower() <= upper()): Interval
// (interval.hpp) and the one-scope path's ScopedInterval
// (domains/src/interval_batch.cpp) forward to these.
//
// Endpoints are never NaN, so plain comparisons replace fmin/fmax (library
// calls without -ffinite-math-only); they may differ from fmin/fmax only in
// the sign of a zero result, which is the same bound.
#pragma once

#include <cmath>

#include <symerr/tribool.hpp>

namespace symerr::endpoint {

///@{
/// The smaller (larger) of two non-NaN doubles, by a plain comparison.
inline double min2(double a, double b) noexcept { return b < a ? b : a; }
inline double max2(double a, double b) noexcept { return a < b ? b : a; }
///@}

///@{
/// The endpoint queries of the domain concept (<symerr/domain/concept.hpp>) for an
/// interval type I with lower() <= upper(), never NaN: v ∈ a, a ⊆ b, both
/// endpoints finite, a finite point, sup |x| (mag) and inf |x| (mig).
template <class I>
bool contains(const I& a, double v) noexcept { return a.lower() <= v && v <= a.upper(); }
template <class I>
bool subset(const I& a, const I& b) noexcept { return b.lower() <= a.lower() && a.upper() <= b.upper(); }
template <class I>
bool is_bounded(const I& a) noexcept { return std::isfinite(a.lower()) && std::isfinite(a.upper()); }
template <class I>
bool is_point(const I& a) noexcept { return a.lower() == a.upper() && is_bounded(a); }
template <class I>
double mag(const I& a) noexcept { return max2(std::fabs(a.lower()), std::fabs(a.upper())); }
template <class I>
double mig(const I& a) noexcept {
  if (a.lower() <= 0 && 0 <= a.upper()) return 0.0;
  return min2(std::fabs(a.lower()), std::fabs(a.upper()));
}
///@}

// Tri::True if the relation holds for all x in a, y in b; False if for none.
///@{
/// Comparisons as Tri: True if the relation holds for all x ∈ a, y ∈ b, False if for none.
template <class I>
Tri cmp_lt(const I& a, const I& b) noexcept {
  if (a.upper() < b.lower()) return Tri::True;
  if (a.lower() >= b.upper()) return Tri::False;
  return Tri::Unknown;
}
template <class I>
Tri cmp_le(const I& a, const I& b) noexcept {
  if (a.upper() <= b.lower()) return Tri::True;
  if (a.lower() > b.upper()) return Tri::False;
  return Tri::Unknown;
}
template <class I>
Tri cmp_eq(const I& a, const I& b) noexcept {
  if (a.upper() < b.lower() || b.upper() < a.lower()) return Tri::False;
  if (is_point(a) && is_point(b)) return Tri::True;  // equal points: not disjoint
  return Tri::Unknown;
}
///@}

}  // namespace symerr::endpoint

// The free functions of the domain concept for an interval type I, as
// forwarders to the queries above (expanded once per type, at namespace scope).
#define SYMERR_ENDPOINT_QUERIES(I)                                                              \
  inline bool contains(const I& a, double v) { return ::symerr::endpoint::contains(a, v); }   \
  inline bool subset(const I& a, const I& b) { return ::symerr::endpoint::subset(a, b); }      \
  inline bool is_bounded(const I& a) { return ::symerr::endpoint::is_bounded(a); }             \
  inline bool is_point(const I& a) { return ::symerr::endpoint::is_point(a); }                 \
  inline double mag(const I& a) { return ::symerr::endpoint::mag(a); }                         \
  inline double mig(const I& a) { return ::symerr::endpoint::mig(a); }                         \
  inline Tri cmp_lt(const I& a, const I& b) { return ::symerr::endpoint::cmp_lt(a, b); }       \
  inline Tri cmp_le(const I& a, const I& b) { return ::symerr::endpoint::cmp_le(a, b); }       \
  inline Tri cmp_gt(const I& a, const I& b) { return ::symerr::endpoint::cmp_lt(b, a); }       \
  inline Tri cmp_ge(const I& a, const I& b) { return ::symerr::endpoint::cmp_le(b, a); }       \
  inline Tri cmp_eq(const I& a, const I& b) { return ::symerr::endpoint::cmp_eq(a, b); }       \
  inline Tri cmp_ne(const I& a, const I& b) { return !::symerr::endpoint::cmp_eq(a, b); }
