// LeanInterval, the enclosure type of LeanError<F>, and the forward
// declarations of the lean value types (<symerr/lean.hpp> defines them).
#pragma once

#include <algorithm>

namespace symerr {

/// A closed interval of doubles [lo, hi] (an enclosure of LeanError).
struct LeanInterval {
  /// The lower bound.
  double lo;
  /// The upper bound.
  double hi;
  /// Whether x lies in [lo, hi].
  bool contains(double x) const noexcept { return lo <= x && x <= hi; }
  /// The bound on |x| over the interval: max(−lo, hi).
  double mag() const noexcept { return std::max(-lo, hi); }
};
/// The bound on |x| over the interval, as mag() of the domains: mag(y.err()).
inline double mag(const LeanInterval& i) noexcept { return i.mag(); }

template <class F>
class LeanError;
/// LeanError over double (<symerr/lean.hpp>).
using LeanDouble = LeanError<double>;
/// LeanError over float (<symerr/lean.hpp>).
using LeanFloat = LeanError<float>;
///@{
/// printf("%f", x) and its family refuse a lean value or enclosure: a compile
/// error (<symerr/symbolic/printf_guard.hpp>).
template <class F>
void varargs_refused(const LeanError<F>*);
void varargs_refused(const LeanInterval*);
///@}

}  // namespace symerr
