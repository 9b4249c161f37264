// A reference number type for bench_substitute: ONE Boost interval
// (boost::numeric::interval<double> with its default policies: the caller's
// rounding mode saved and restored around every operation, like symerr's
// Interval), with the C math functions the fixture kernels call, so that the
// same C kernel file can be substituted on it (symerr_add_substituted_kernel
// ... WITH bench_plain::PlainInterval, force-included). It measures what an
// interval analysis of that kernel costs before any error analysis: a floor
// for SymbolicError, which carries six enclosures (real, fp, err, rel_err,
// propagated, introduced) and the special-value flags. Only onnx_matmul is
// timed; the other kernels only need to compile (an undecided comparison
// throws, as Boost's strict comparisons do; exp and sqrt are widened by one
// ulp each way instead of a directed-rounding libm).
#pragma once

#include <cmath>
#include <limits>
#include <stdexcept>

#include <boost/numeric/interval.hpp>

namespace bench_plain {

using BI = boost::numeric::interval<double>;

struct PlainInterval {
  BI v;
  PlainInterval() : v(0.0) {}
  PlainInterval(double x) : v(x) {}  // NOLINT: literals, as in C
  PlainInterval(int x) : v(static_cast<double>(x)) {}  // NOLINT
  explicit PlainInterval(BI x) : v(x) {}
  PlainInterval& operator+=(const PlainInterval& o) { v += o.v; return *this; }
  PlainInterval& operator-=(const PlainInterval& o) { v -= o.v; return *this; }
  PlainInterval& operator*=(const PlainInterval& o) { v *= o.v; return *this; }
  PlainInterval& operator/=(const PlainInterval& o) { v /= o.v; return *this; }
};

inline PlainInterval operator+(const PlainInterval& a, const PlainInterval& b) { return PlainInterval(a.v + b.v); }
inline PlainInterval operator-(const PlainInterval& a, const PlainInterval& b) { return PlainInterval(a.v - b.v); }
inline PlainInterval operator*(const PlainInterval& a, const PlainInterval& b) { return PlainInterval(a.v * b.v); }
inline PlainInterval operator/(const PlainInterval& a, const PlainInterval& b) { return PlainInterval(a.v / b.v); }
inline PlainInterval operator-(const PlainInterval& a) { return PlainInterval(-a.v); }

// Decided comparisons only.
inline bool less(const PlainInterval& a, const PlainInterval& b) {
  if (a.v.upper() < b.v.lower()) return true;
  if (a.v.lower() >= b.v.upper()) return false;
  throw std::logic_error("PlainInterval: undecided comparison");
}
inline bool operator<(const PlainInterval& a, const PlainInterval& b) { return less(a, b); }
inline bool operator>(const PlainInterval& a, const PlainInterval& b) { return less(b, a); }
inline bool operator<=(const PlainInterval& a, const PlainInterval& b) { return !less(b, a); }
inline bool operator>=(const PlainInterval& a, const PlainInterval& b) { return !less(a, b); }

inline PlainInterval fma(const PlainInterval& a, const PlainInterval& b, const PlainInterval& c) { return a * b + c; }
inline PlainInterval fmax(const PlainInterval& a, const PlainInterval& b) { return PlainInterval(boost::numeric::max(a.v, b.v)); }
inline PlainInterval fmin(const PlainInterval& a, const PlainInterval& b) { return PlainInterval(boost::numeric::min(a.v, b.v)); }
inline PlainInterval fabs(const PlainInterval& a) { return PlainInterval(boost::numeric::abs(a.v)); }
inline PlainInterval fdim(const PlainInterval& a, const PlainInterval& b) {
  return PlainInterval(boost::numeric::max(a.v - b.v, BI(0.0)));
}
// copysign branches on y's sign: decided only where y's sign is known.
inline PlainInterval copysign(const PlainInterval& x, const PlainInterval& y) {
  const BI m = boost::numeric::abs(x.v);
  if (y.v.lower() >= 0) return PlainInterval(m);
  if (y.v.upper() < 0) return PlainInterval(-m);
  throw std::logic_error("PlainInterval: undecided sign in copysign");
}
inline PlainInterval widened(double lo, double hi) {
  constexpr double inf = std::numeric_limits<double>::infinity();
  return PlainInterval(BI(std::nextafter(lo, -inf), std::nextafter(hi, inf)));
}
inline PlainInterval exp(const PlainInterval& a) { return widened(std::exp(a.v.lower()), std::exp(a.v.upper())); }
inline PlainInterval sqrt(const PlainInterval& a) {
  return widened(std::sqrt(std::fmax(a.v.lower(), 0.0)), std::sqrt(std::fmax(a.v.upper(), 0.0)));
}

}  // namespace bench_plain
