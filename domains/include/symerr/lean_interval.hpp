// LeanInterval, the enclosure type of LeanError<F>, and the forward
// declarations of the lean value types (<symerr/lean.hpp> defines them).
#pragma once

#include <algorithm>

namespace symerr {

// A closed interval of doubles [lo, hi] (an enclosure of LeanError).
struct LeanInterval {
  double lo;
  double hi;
  bool contains(double x) const noexcept { return lo <= x && x <= hi; }
  double mag() const noexcept { return std::max(-lo, hi); }
};
// The bound on |x| over the interval, as mag() of the domains: mag(y.err()).
inline double mag(const LeanInterval& i) noexcept { return i.mag(); }

template <class F>
class LeanError;
using LeanDouble = LeanError<double>;
using LeanFloat = LeanError<float>;
// printf("%f", x) and its family refuse a lean value or enclosure: a compile
// error (<symerr/symbolic/printf_guard.hpp>).
template <class F>
void varargs_refused(const LeanError<F>*);
void varargs_refused(const LeanInterval*);

}  // namespace symerr
