// LeanError<F>: a lean drop-in error type for large FP64/FP32 kernels.
//
// It carries two enclosures, 32 bytes in all: the set of computed values
// (`fp`, values of F = double or float) and the error fp − real (`err`); the
// real value is enclosed by fp − err. Add, Sub, Mul, Div, fma, sqrt, min/max,
// fabs and the comparisons are inline, in round-to-nearest double arithmetic
// with every bound rounded outward (c + (|c|·2^-50 + 2^-1074), a few
// successor steps; Rump, Zimmermann, Boldo, Melquiond, BIT 2009, for one
// step); the elementary functions (exp, log,
// tanh, erf, pow, ...) go through SymbolicError (its enclosures on an input
// holding this value), so they cost what they cost there.
//
// What it gives up against SymbolicError, for a cost of a few ns per
// operation instead of about 70: no propagated/introduced split, no rel_err
// identities (rel_err() is err/real at the end), no special values (a result
// that may overflow, a division by a value whose range holds 0, the square
// root of a value that may be negative throw std::domain_error naming the
// operation and the ranges), no branch driver (a comparison whose outcome is
// not the same for the real and the computed value everywhere throws
// UndecidedBranch); the computed program rounds to nearest (the spec's
// semantics), whatever mode the caller has set.
//
// Literals: as for SymbolicError, a literal is the exact real constant the
// compiler gave it; its rounding into F is its error (LeanFloat(0.1) has err
// float(0.1) − 0.1); comparisons compare with the literal's exact value.
// Mixing LeanError<float> and LeanError<double> does not compile.
//
// The floating-point environment is the library's: every operation reads
// MXCSR (x86-64) and, when the caller's rounding mode, FTZ/DAZ or trap
// settings differ from round-to-nearest / none / none, computes out of line
// under the library's settings (domains/src/lean.cpp).
#pragma once

#include <algorithm>
#include <bit>
#include <cfenv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <ostream>
#include <string>
#include <type_traits>

#include <symerr/domains/symbolic_interval.hpp>
#include <symerr/elementary.hpp>
#include <symerr/fp_environment.hpp>
#include <symerr/lean_interval.hpp>
#include <symerr/tribool.hpp>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace symerr {

namespace lean_detail {

// An interval [lo, hi] as the pair (−lo, hi): both ends are then upper
// bounds, so one vector operation rounds both outward, adds two intervals,
// and negates one (swap the lanes).
using Pair = double __attribute__((vector_size(16)));
using PairBits = std::int64_t __attribute__((vector_size(16)));
using FloatPair = float __attribute__((vector_size(8)));

[[gnu::always_inline]] inline Pair swap(Pair a) noexcept { return __builtin_shufflevector(a, a, 1, 0); }
[[gnu::always_inline]] inline Pair broadcast(double x) noexcept { return Pair{x, x}; }
[[gnu::always_inline]] inline Pair vmax(Pair a, Pair b) noexcept {
#if defined(__SSE2__)
  return reinterpret_cast<Pair>(_mm_max_pd(reinterpret_cast<__m128d>(a), reinterpret_cast<__m128d>(b)));
#else
  return Pair{std::max(a[0], b[0]), std::max(a[1], b[1])};
#endif
}
[[gnu::always_inline]] inline Pair vabs(Pair a) noexcept {
  return reinterpret_cast<Pair>(reinterpret_cast<PairBits>(a) & PairBits{INT64_MAX, INT64_MAX});
}
inline constexpr double kSlack = 0x1p-50;   // 8u, u = 2^-53
inline constexpr double kTiny = 0x1p-1074;  // FP64's smallest subnormal

// Rounds both ends outward: for every lane c, c + (|c|·2^-50 + 2^-1074)
// (round to nearest throughout) ≥ c + 6.9u|c| and ≥ c + 2^-1074. It covers
// what the operations below leave: an end that is the rounding of an exact
// value (error ≤ u|c|; none where the sum is subnormal), or the largest of
// the roundings of products (quotients) of exact or once-rounded operands
// (≤ 2.01u|c|: x ↦ x + 2.01u|x| is increasing, so the largest computed corner
// bounds every true corner), or an underflow (≤ 2^-1075). Rump, Zimmermann,
// Boldo and Melquiond (BIT 2009) use 2^-53(1 + 2^-52) for one successor step.
[[gnu::always_inline]] inline Pair widen(Pair c) noexcept { return c + (vabs(c) * kSlack + kTiny); }
// The next value of FP64 below x (x finite).
inline double next_down(double x) noexcept {
  if (x == 0) return -0x1p-1074;
  const auto bits = std::bit_cast<std::uint64_t>(x);
  return std::bit_cast<double>(x > 0 ? bits - 1 : bits + 1);
}
// x − y rounded down and up exactly (TwoSum's remainder says on which side
// round-to-nearest fell; Knuth): the real value's enclosure fp − err.
// TwoSum's remainder (Knuth): s = RN(x + y) and s + r = x + y exactly (per lane).
template <class T>
inline T two_sum_remainder(T x, T y, T s) noexcept {
  const T v = s - x;
  return (x - (s - v)) + (y - v);
}
// A power of two (or zero): no significand bits.
inline bool power_of_two(double x) noexcept {
  return (std::bit_cast<std::uint64_t>(x) & 0x000FFFFFFFFFFFFFull) == 0;
}
// (x − y beyond DBL_MAX rounds to +inf: the bound below is DBL_MAX; near it
// TwoSum's s − x may overflow, a NaN remainder: then one step down)
inline double sub_down(double x, double y) noexcept {
  const double s = x - y;
  if (s == -INFINITY) return s;
  return !(two_sum_remainder(x, -y, s) >= 0) || s == INFINITY ? next_down(s) : s;
}
inline double sub_up(double x, double y) noexcept { return -sub_down(y, x); }
// The same for one end: up(c) ≥ c, down(c) ≤ c by the same margin.
inline double up(double c) noexcept { return c + (std::fabs(c) * kSlack + kTiny); }
inline double down(double c) noexcept { return c - (std::fabs(c) * kSlack + kTiny); }

// The extreme products (quotients) of two intervals, rounded to nearest, not
// widened: with a = (−a0, a1), b = (−b0, b1), a·b = (a0b0, a1b1) and
// a·swap(b) = (−a0b1, −a1b0); the ends are the maxima of the four and of
// their negations. Exact for the computed values' range (RN is monotone).
[[gnu::always_inline]] inline Pair corners(Pair p, Pair q) noexcept {
  const Pair x = vmax(p, -q), y = vmax(-p, q);
  return vmax(__builtin_shufflevector(y, x, 0, 2), __builtin_shufflevector(y, x, 1, 3));
}
// A NaN corner is inf·0: a bound beyond DBL_MAX (of a finite value) times an
// exact 0, which is 0 (corners' max would drop the NaN, losing that corner).
[[gnu::always_inline]] inline Pair zero_nan(Pair p) noexcept {
  return reinterpret_cast<Pair>(reinterpret_cast<PairBits>(p) & (p == p));
}
[[gnu::always_inline]] inline Pair product(Pair a, Pair b) noexcept {
  return corners(zero_nan(a * b), zero_nan(a * swap(b)));
}
// 0 ∉ b
[[gnu::always_inline]] inline Pair quotient(Pair a, Pair b) noexcept { return corners(a / b, a / swap(b)); }

// Half the spacing of F's values in the binade of m ≥ 0 (m a finite value
// of F), at least half F's smallest subnormal spacing (FP64: its smallest
// subnormal): a bound on |RN_F(x) − x| for every x with |RN_F(x)| ≤ m. A
// power of two.
template <class F>
[[gnu::always_inline]] inline double half_ulp(double m) noexcept {
  const double binade = std::bit_cast<double>(std::bit_cast<std::uint64_t>(m) & 0x7FF0000000000000ull);
  constexpr double scale = std::is_same_v<F, double> ? 0x1p-53 : 0x1p-24;
  constexpr double least = std::is_same_v<F, double> ? 0x1p-1074 : 0x1p-150;
  return std::max(binade * scale, least);
}

// The ends of a pair of exact results rounded to F (for FP32, the FP64
// result of two FP32 values rounded to FP32: double rounding is innocuous for
// +, −, ×, ÷ and √ since 53 ≥ 2·24 + 2, Figueroa 1995).
template <class F>
[[gnu::always_inline]] inline Pair to_format(Pair x) noexcept {
  if constexpr (std::is_same_v<F, double>) return x;
  else return __builtin_convertvector(__builtin_convertvector(x, FloatPair), Pair);
}

template <class F>
inline constexpr double kMax = static_cast<double>(std::numeric_limits<F>::max());

// True when the thread's floating-point environment is the library's
// (round to nearest, no FTZ/DAZ, every exception masked).
[[gnu::always_inline]] inline bool library_environment() noexcept {
#if defined(__x86_64__) && defined(__SSE2_MATH__)
  return (detail::read_mxcsr() & detail::kMxcsrControl) == detail::kMxcsrLibrary;
#else
  return false;  // elsewhere every operation takes the guarded path
#endif
}

// Out of line (domains/src/lean.cpp): messages and the guarded operations.
[[noreturn]] void fail(const std::string& what);
std::string range_text(const char* name, double lo, double hi);
template <class F>
const char* format_name() noexcept {
  return std::is_same_v<F, double> ? "FP64" : "FP32";
}
[[gnu::always_inline]] inline LeanInterval interval(Pair p) noexcept { return {-p[0], p[1]}; }
[[gnu::always_inline]] inline Pair pair(LeanInterval i) noexcept { return Pair{-i.lo, i.hi}; }

struct Guarded;  // friend: the out-of-line operations

}  // namespace lean_detail

template <class F>
class LeanError {
  static_assert(std::is_same_v<F, double> || std::is_same_v<F, float>,
                "symerr::LeanError<F>: F is double (FP64) or float (FP32)");
  using Pair = lean_detail::Pair;

 public:
  using value_type = F;

  // The exact 0 (calloc'd and value-initialised buffers hold it too: its
  // bytes are all zero).
  constexpr LeanError() noexcept = default;

  /// A literal: real = c exactly, fp = c rounded to F, err = fp − c.
  template <class A>
    requires std::is_arithmetic_v<A>
  LeanError(A c) {  // NOLINT(google-explicit-constructor): `T x = 0;` in generic code
    static_assert(!std::is_same_v<A, long double>,
                  "symerr::LeanError: a long double literal is not supported; write it as a double");
    *this = literal(c);
  }

  /// An input: real value in [lo, hi], error in [elo, ehi], computed value a
  /// value of F in [lo + elo, hi + ehi]. Throws std::invalid_argument on an
  /// empty or non-finite range, or when no value of F lies in it.
  static LeanError input(double lo, double hi, double elo = 0.0, double ehi = 0.0);
  /// A value from its enclosures: fp in [fp.lo, fp.hi] (values of F), err in
  /// [err.lo, err.hi]. Throws std::invalid_argument on empty or non-finite ranges.
  static LeanError from_enclosures(LeanInterval fp, LeanInterval err);

  template <class T>
    requires std::is_arithmetic_v<T>
  explicit operator T() const {
    static_assert(sizeof(T) == 0,
                  "symerr::LeanError: a lean value cannot be converted to a number (it stands for every "
                  "execution's value); x.fp(), x.err() and x.real() are its enclosures");
    return T{};
  }

  LeanInterval fp() const noexcept { return lean_detail::interval(f_); }
  LeanInterval err() const noexcept { return lean_detail::interval(e_); }
  /// real = fp − err: [fp.lo − err.hi, fp.hi − err.lo] rounded outward
  LeanInterval real() const {
    if (lean_detail::library_environment()) [[likely]]
      return exact_real();
    return guarded_real();
  }
  /// err / real, or [-inf, inf] when real may be 0
  LeanInterval rel_err() const;
  /// The same value as a SymbolicError (an input with real(), err() and F's format).
  SymbolicError to_symbolic() const;
  static LeanError from_symbolic(const SymbolicError& s, const char* operation);

  // ---- arithmetic -----------------------------------------------------------
  friend LeanError operator+(const LeanError& a) noexcept { return a; }
  friend LeanError operator-(const LeanError& a) noexcept {
    return LeanError(lean_detail::swap(a.f_), lean_detail::swap(a.e_));
  }
  friend LeanError operator+(const LeanError& a, const LeanError& b) {
    if (lean_detail::library_environment()) [[likely]]
      return add(a, b);
    return guarded(a, b, '+');
  }
  friend LeanError operator-(const LeanError& a, const LeanError& b) {
    if (lean_detail::library_environment()) [[likely]]
      return add(a, -b);
    return guarded(a, -b, '+');
  }
  friend LeanError operator*(const LeanError& a, const LeanError& b) {
    if (lean_detail::library_environment()) [[likely]]
      return mul(a, b);
    return guarded(a, b, '*');
  }
  friend LeanError operator/(const LeanError& a, const LeanError& b) {
    if (lean_detail::library_environment()) [[likely]]
      return div(a, b);
    return guarded(a, b, '/');
  }
  LeanError& operator+=(const LeanError& b) { return *this = *this + b; }
  LeanError& operator-=(const LeanError& b) { return *this = *this - b; }
  LeanError& operator*=(const LeanError& b) { return *this = *this * b; }
  LeanError& operator/=(const LeanError& b) { return *this = *this / b; }

  friend LeanError fma(const LeanError& a, const LeanError& b, const LeanError& c) {
    if (lean_detail::library_environment()) [[likely]]
      return fused(a, b, c);
    return guarded_fma(a, b, c);
  }
  friend LeanError sqrt(const LeanError& a) {
    if (lean_detail::library_environment()) [[likely]]
      return root(a);
    return guarded(a, a, 's');
  }
  friend LeanError fmax(const LeanError& a, const LeanError& b) {
    if (lean_detail::library_environment()) [[likely]]
      return maximum(a, b);
    return guarded(a, b, 'M');
  }
  friend LeanError fmin(const LeanError& a, const LeanError& b) { return -fmax(-a, -b); }
  friend LeanError max(const LeanError& a, const LeanError& b) { return fmax(a, b); }
  friend LeanError min(const LeanError& a, const LeanError& b) { return fmin(a, b); }
  friend LeanError fabs(const LeanError& a) {
    if (lean_detail::library_environment()) [[likely]]
      return magnitude(a);
    return guarded(a, a, 'A');
  }
  friend LeanError abs(const LeanError& a) { return fabs(a); }
  /// a − b if a > b, else +0: fmax(a − b, 0), continuous
  friend LeanError fdim(const LeanError& a, const LeanError& b) { return fmax(a - b, LeanError()); }
  /// |m| with the sign of s: decided when s is certainly positive or certainly
  /// negative in both programs; otherwise throws UndecidedBranch.
  friend LeanError copysign(const LeanError& m, const LeanError& s) {
    const LeanInterval r = s.real();
    if (s.fp().lo > 0 && r.lo > 0) return fabs(m);
    if (s.fp().hi < 0 && r.hi < 0) return -fabs(m);
    s.undecided_sign("copysign");
  }
  /// A LeanError is finite (an operation that might not be throws).
  friend bool isnan(const LeanError&) noexcept { return false; }
  friend bool isinf(const LeanError&) noexcept { return false; }
  friend bool isfinite(const LeanError&) noexcept { return true; }

  // ---- comparisons: decided when the real and the computed value agree everywhere
  /// One object compared with itself (C's NaN test x != x) is decided: a
  /// LeanError is never NaN.
  friend bool operator<(const LeanError& a, const LeanError& b) { return &a != &b && a.less(b, false, "<"); }
  friend bool operator<=(const LeanError& a, const LeanError& b) { return &a == &b || a.less(b, true, "<="); }
  friend bool operator>(const LeanError& a, const LeanError& b) { return &a != &b && b.less(a, false, ">"); }
  friend bool operator>=(const LeanError& a, const LeanError& b) { return &a == &b || b.less(a, true, ">="); }
  friend bool operator==(const LeanError& a, const LeanError& b) { return &a == &b || a.equal(b, "=="); }
  friend bool operator!=(const LeanError& a, const LeanError& b) { return &a != &b && !a.equal(b, "!="); }

 private:
  friend struct lean_detail::Guarded;
  LeanError(Pair f, Pair e) noexcept : f_(f), e_(e) {}
  // a literal: integers within 2^53 and floating values through FP64 (exact)
  template <class A>
  static LeanError literal(A c) {
    if constexpr (std::is_integral_v<A>) {
      constexpr long long k = 1LL << 53;
      if constexpr (std::is_signed_v<A>) {
        if (c < -k || c > k) return integer_literal(static_cast<long long>(c));
      } else {
        if (c > static_cast<unsigned long long>(k)) return integer_literal(static_cast<unsigned long long>(c));
      }
    }
    const double d = static_cast<double>(c);
    if (lean_detail::library_environment()) [[likely]]
      return rounded_literal(d);
    return guarded_literal(d);
  }
  // real = d, fp = RN_F(d), err = fp − d (exact: Sterbenz, or fp = 0)
  static LeanError rounded_literal(double d) {
    const double f = static_cast<double>(static_cast<F>(d));
    if (!(std::fabs(f) <= lean_detail::kMax<F>)) [[unlikely]]
      bad_literal(d);
    const double e = f - d;
    return LeanError(Pair{-f, f}, Pair{-e, e});
  }
  static LeanError guarded_literal(double d);
  // an integer beyond 2^53: C's one conversion, its rounding the error
  static LeanError integer_literal(long long c);
  static LeanError integer_literal(unsigned long long c);
  [[noreturn]] static void bad_literal(double d);
  LeanInterval guarded_real() const;
  LeanInterval exact_real() const noexcept {
    return {lean_detail::sub_down(-f_[0], e_[1]), lean_detail::sub_up(f_[1], -e_[0])};
  }
  // max and min are continuous: max(fa, fb) − max(ra, rb) lies between the
  // operands' errors, whichever operand is the larger in either program.
  static LeanError maximum(const LeanError& a, const LeanError& b) noexcept {
    const LeanInterval fa = a.fp(), fb = b.fp(), ea = a.err(), eb = b.err();
    const bool a_wins = fa.lo >= fb.hi && a.exact_real().lo >= b.exact_real().hi;
    const bool b_wins = fb.lo >= fa.hi && b.exact_real().lo >= a.exact_real().hi;
    if (a_wins) return a;
    if (b_wins) return b;
    return LeanError(lean_detail::pair({std::max(fa.lo, fb.lo), std::max(fa.hi, fb.hi)}),
                     lean_detail::pair({std::min(ea.lo, eb.lo), std::max(ea.hi, eb.hi)}));
  }
  // ||f| − |r|| ≤ |f − r| where the sign is not the same everywhere
  static LeanError magnitude(const LeanError& a) noexcept {
    const LeanInterval f = a.fp(), r = a.exact_real();
    if (f.lo >= 0 && r.lo >= 0) return a;
    if (f.hi <= 0 && r.hi <= 0) return -a;
    const double m = std::max(a.e_[0], a.e_[1]);
    return LeanError(lean_detail::pair({f.lo >= 0 ? f.lo : f.hi <= 0 ? -f.hi : 0.0, std::max(-f.lo, f.hi)}),
                     Pair{m, m});
  }

  // By value: an operand whose address escapes would stay in memory on the fast path.
  static LeanError guarded(LeanError a, LeanError b, char op);
  static LeanError guarded_fma(LeanError a, LeanError b, LeanError c);
  [[noreturn]] static void overflow(LeanError a, LeanError b, char op);
  [[noreturn]] void undecided_sign(const char* op) const;

  // fp − err, rounded to nearest (not widened): (−(flo − ehi), fhi − elo)
  [[gnu::always_inline]] Pair real_pair() const noexcept { return f_ + lean_detail::swap(e_); }
  // real·e widened; a real end beyond DBL_MAX (fp near it, err of the other
  // sign) would be ±inf, and inf·0 a NaN that the corners' max drops: then
  // fp·e − err·e (lean.cpp)
  [[gnu::always_inline]] static Pair real_product(const LeanError& a, Pair e) {
    const Pair r = lean_detail::vabs(a.real_pair());
    if (!(r[0] <= lean_detail::kMax<double> && r[1] <= lean_detail::kMax<double>)) [[unlikely]]
      return real_product_split(a, e);
    return lean_detail::widen(lean_detail::product(a.real_pair(), e));
  }
  static Pair real_product_split(const LeanError& a, Pair e);
  // A result whose err bound is not finite (an overflow of an intermediate
  // bound) is refused by name (lean.cpp), never returned with an inf or NaN end.
  [[gnu::always_inline]] static LeanError checked(Pair f, Pair e, const LeanError& a, const LeanError& b, char op) {
    const Pair m = lean_detail::vabs(e);
    if (!(m[0] <= lean_detail::kMax<double> && m[1] <= lean_detail::kMax<double>)) [[unlikely]]
      unbounded_error(a, b, op);
    return LeanError(f, e);
  }
  [[noreturn]] static void unbounded_error(LeanError a, LeanError b, char op);
  // max |fp| of a result, checked finite, and half an ulp there (the rounding bound)
  [[gnu::always_inline]] static double rounding(Pair f, const LeanError& a, const LeanError& b, char op) {
    const double m = std::max(f[0], f[1]);
    if (!(m <= lean_detail::kMax<F>)) [[unlikely]]
      overflow(a, b, op);
    return lean_detail::half_ulp<F>(m);
  }
  // The result's largest magnitude m is a power of two: when no exact result
  // exceeds m, every one lies in [−m, m] and rounds by at most half the
  // spacing of the binade below m, d/2 (the operands [−1, 1] of a product,
  // [−1, 1] + [−1, 1]). Above the subnormal spacing only.
  [[gnu::always_inline]] static bool at_power_of_two(Pair f, double d) noexcept {
    const double m = std::max(f[0], f[1]);
    return lean_detail::power_of_two(m) &&
           d > (std::is_same_v<F, double> ? 0x1p-1074 : 0x1p-150);
  }
  // Sums: raw = RN64(x + y) per lane, its exact remainder by TwoSum (Knuth).
  static double sum_rounding(Pair x, Pair y, Pair raw, Pair f, double d) noexcept {
    const Pair r = lean_detail::two_sum_remainder(x, y, raw);  // raw + r = x + y exactly
    const double m = std::max(f[0], f[1]);
    for (int i = 0; i < 2; ++i)
      if (f[i] == m && !(raw[i] < m || (raw[i] == m && r[i] <= 0))) return d;
    return d / 2;
  }
  // Products: the corners at m are exact (FP32: the FP64 product of two FP32
  // values is exact; FP64: both factors are powers of two, as ±1).
  static double product_rounding(Pair a, Pair b, Pair f, double d) noexcept {
    const double m = std::max(f[0], f[1]);
    using lean_detail::power_of_two;
    for (const double x : {-a[0], a[1]})
      for (const double y : {-b[0], b[1]}) {
        const double p = x * y;
        if (std::fabs(static_cast<double>(static_cast<F>(p))) != m) continue;
        if (std::is_same_v<F, double> ? !(power_of_two(x) && power_of_two(y)) : !(std::fabs(p) <= m)) return d;
      }
    return d / 2;
  }
  // fma: every corner's exact a·b + c within [−m, m] (a·b exact: FP32, or
  // FP64 powers of two; the sum's exact remainder by TwoSum).
  static double fused_rounding(Pair a, Pair b, Pair c, Pair f, double d) noexcept {
    const double m = std::max(f[0], f[1]);
    using lean_detail::power_of_two;
    for (const double x : {-a[0], a[1]})
      for (const double y : {-b[0], b[1]}) {
        if (std::is_same_v<F, double> && !(power_of_two(x) && power_of_two(y))) return d;
        const double p = x * y;  // exact
        for (const double z : {-c[0], c[1]}) {
          const double t = p + z, r = lean_detail::two_sum_remainder(p, z, t);  // t + r = p + z exactly
          const double mag = std::fabs(t), rest = t < 0 ? -r : r;       // |p + z| = mag + rest
          if (mag > m || (mag == m && rest > 0)) return d;
        }
      }
    return d / 2;
  }
  [[gnu::always_inline]] bool exact_zero() const noexcept {
    return f_[0] == 0 && f_[1] == 0 && e_[0] == 0 && e_[1] == 0;
  }

  // fp: [RN(a.lo + b.lo), RN(a.hi + b.hi)] exactly (RN is monotone);
  // err = ea + eb + δ, |δ| ≤ half an ulp of the result. The accumulator of
  // `acc += p` (a) meets one rounding step: err(p) + δ is widened first.
  // 0 + b is b (`acc = 0; acc += p`).
  [[gnu::always_inline]] static LeanError add(const LeanError& a, const LeanError& b) {
    using namespace lean_detail;
    if (a.exact_zero()) [[unlikely]]
      return b;
    const Pair raw = a.f_ + b.f_, f = to_format<F>(raw);
    double d = rounding(f, a, b, '+');
    if (at_power_of_two(f, d)) [[unlikely]]
      d = sum_rounding(a.f_, b.f_, raw, f, d);
    // below twice the smallest normal, F's values are all on the subnormal grid: exact
    if (std::max(f[0], f[1]) < (std::is_same_v<F, double> ? 0x1p-1021 : 0x1p-125)) [[unlikely]]
      d = 0;
    return checked(f, widen(a.e_ + widen(b.e_ + d)), a, b, '+');
  }
  // fp: the extreme products of the fp ranges, rounded in F (exact);
  // err = fa·fb − ra·rb + δ = ea·fb + ra·eb + δ.
  [[gnu::always_inline]] static LeanError mul(const LeanError& a, const LeanError& b) {
    using namespace lean_detail;
    const Pair f = to_format<F>(product(a.f_, b.f_));
    double d = rounding(f, a, b, '*');
    if (at_power_of_two(f, d)) [[unlikely]]
      d = product_rounding(a.f_, b.f_, f, d);
    const Pair x = widen(product(a.e_, b.f_));
    return checked(f, widen(x + widen(real_product(a, b.e_) + d)), a, b, '*');
  }
  // fp: the extreme quotients (0 ∉ fb); err = fa/fb − ra/rb + δ
  // = ea/fb − (ra/rb)·(eb/fb) + δ (0 ∉ rb).
  static LeanError div(const LeanError& a, const LeanError& b);
  // fp: the extreme RN(p + c) over the corner products p (RN is monotone in
  // p and c); err = ea·fb + ra·eb + ec + δ.
  static LeanError fused(const LeanError& a, const LeanError& b, const LeanError& c);
  // fp: [RN √lo, RN √hi]; err = e/(√f + √r) + δ (f, r ≥ 0).
  static LeanError root(const LeanError& a);

  bool less(const LeanError& b, bool or_equal, const char* op) const;
  bool equal(const LeanError& b, const char* op) const;

  Pair f_{0.0, 0.0};  // fp ⊆ [−f_[0], f_[1]], values of F
  Pair e_{0.0, 0.0};  // err = fp − real ⊆ [−e_[0], e_[1]]
};

namespace lean_detail {
// The two sides of a comparison operand: its computed value and its real value.
struct Sides {
  LeanInterval fp, real;
};
template <class F>
Sides sides(const LeanError<F>& a) noexcept {
  return {a.fp(), a.real()};
}
// A number compared with a value of F, as C compares: the computed program
// converts an integer to F first (16777217 == x on a float x compares with
// 16777216); a floating literal keeps its exact value in both programs.
// Integers beyond 2^p (p F's precision), out of line under the library's
// environment: the computed side C's conversion to F, the real side the
// integer's FP64 neighbours.
template <class F>
Sides integer_sides(long long c);
template <class F>
Sides integer_sides(unsigned long long c);
template <class F, class A>
Sides sides_of_number(A c) {
  if constexpr (std::is_integral_v<A>) {
    constexpr long long k = std::is_same_v<F, double> ? 1LL << 53 : 1LL << 24;
    if constexpr (std::is_signed_v<A>) {
      if (c < -k || c > k) return integer_sides<F>(static_cast<long long>(c));
    } else {
      if (c > static_cast<unsigned long long>(k)) return integer_sides<F>(static_cast<unsigned long long>(c));
    }
    const double d = static_cast<double>(c);  // exact
    return {{d, d}, {d, d}};
  } else {
    static_assert(!std::is_same_v<A, long double>, "symerr::LeanError: compare with a double, not a long double");
    const double d = static_cast<double>(c);
    return {{d, d}, {d, d}};
  }
}
// a < b (or_equal: a <= b): true or false when the computed and the real
// comparison give that answer for every value of the operands' ranges;
// otherwise throws UndecidedBranch naming both operands.
bool less(const Sides& a, const Sides& b, bool or_equal, const char* op, const char* format);
bool equal(const Sides& a, const Sides& b, const char* op, const char* format);
}  // namespace lean_detail

template <class F>
bool LeanError<F>::less(const LeanError& b, bool or_equal, const char* op) const {
  return lean_detail::less(lean_detail::sides(*this), lean_detail::sides(b), or_equal, op,
                           lean_detail::format_name<F>());
}
template <class F>
bool LeanError<F>::equal(const LeanError& b, const char* op) const {
  return lean_detail::equal(lean_detail::sides(*this), lean_detail::sides(b), op, lean_detail::format_name<F>());
}

// ---- comparisons with a number: with its exact value (as C compares) ----------
#define SYMERR_LEAN_COMPARE(op, call)                                                                  \
  template <class F, class A>                                                                         \
    requires std::is_arithmetic_v<A>                                                                  \
  bool operator op(const LeanError<F>& a, A c) {                                                      \
    const lean_detail::Sides x = lean_detail::sides(a), y = lean_detail::sides_of_number<F>(c);        \
    return call;                                                                                      \
  }                                                                                                   \
  template <class F, class A>                                                                         \
    requires std::is_arithmetic_v<A>                                                                  \
  bool operator op(A c, const LeanError<F>& a) {                                                      \
    const lean_detail::Sides y = lean_detail::sides(a), x = lean_detail::sides_of_number<F>(c);        \
    return call;                                                                                      \
  }
SYMERR_LEAN_COMPARE(<, lean_detail::less(x, y, false, "<", lean_detail::format_name<F>()))
SYMERR_LEAN_COMPARE(<=, lean_detail::less(x, y, true, "<=", lean_detail::format_name<F>()))
SYMERR_LEAN_COMPARE(>, lean_detail::less(y, x, false, ">", lean_detail::format_name<F>()))
SYMERR_LEAN_COMPARE(>=, lean_detail::less(y, x, true, ">=", lean_detail::format_name<F>()))
SYMERR_LEAN_COMPARE(==, lean_detail::equal(x, y, "==", lean_detail::format_name<F>()))
SYMERR_LEAN_COMPARE(!=, !lean_detail::equal(x, y, "!=", lean_detail::format_name<F>()))
#undef SYMERR_LEAN_COMPARE

// ---- the elementary functions, through SymbolicError ---------------------------
#define SYMERR_LEAN_UNARY(name)                                                  \
  template <class F>                                                             \
  LeanError<F> name(const LeanError<F>& x) {                                     \
    return LeanError<F>::from_symbolic(::symerr::name(x.to_symbolic()), #name); \
  }                                                                              \
  template <class F>                                                             \
  LeanError<F> name##f(const LeanError<F>& x) {                                  \
    return name(x);                                                              \
  }
SYMERR_LEAN_UNARY(exp)
SYMERR_LEAN_UNARY(expm1)
SYMERR_LEAN_UNARY(exp2)
SYMERR_LEAN_UNARY(log)
SYMERR_LEAN_UNARY(log1p)
SYMERR_LEAN_UNARY(log2)
SYMERR_LEAN_UNARY(log10)
SYMERR_LEAN_UNARY(sin)
SYMERR_LEAN_UNARY(cos)
SYMERR_LEAN_UNARY(tan)
SYMERR_LEAN_UNARY(asin)
SYMERR_LEAN_UNARY(acos)
SYMERR_LEAN_UNARY(atan)
SYMERR_LEAN_UNARY(sinh)
SYMERR_LEAN_UNARY(cosh)
SYMERR_LEAN_UNARY(tanh)
SYMERR_LEAN_UNARY(asinh)
SYMERR_LEAN_UNARY(acosh)
SYMERR_LEAN_UNARY(atanh)
SYMERR_LEAN_UNARY(erf)
SYMERR_LEAN_UNARY(erfc)
SYMERR_LEAN_UNARY(cbrt)
#undef SYMERR_LEAN_UNARY

template <class F>
LeanError<F> pow(const LeanError<F>& x, const LeanError<F>& y) {
  return LeanError<F>::from_symbolic(::symerr::pow(x.to_symbolic(), y.to_symbolic()), "pow");
}
template <class F, class A>
  requires std::is_arithmetic_v<A>
LeanError<F> pow(const LeanError<F>& x, A y) {
  return pow(x, LeanError<F>(y));
}
template <class F>
LeanError<F> hypot(const LeanError<F>& x, const LeanError<F>& y) {
  return LeanError<F>::from_symbolic(::symerr::hypot(x.to_symbolic(), y.to_symbolic()), "hypot");
}
template <class F>
LeanError<F> atan2(const LeanError<F>& y, const LeanError<F>& x) {
  return LeanError<F>::from_symbolic(::symerr::atan2(y.to_symbolic(), x.to_symbolic()), "atan2");
}
/// The C99 float names of the inline operations (a kernel written for float).
template <class F>
LeanError<F> fdimf(const LeanError<F>& a, const LeanError<F>& b) { return fdim(a, b); }
template <class F>
LeanError<F> copysignf(const LeanError<F>& m, const LeanError<F>& s) { return copysign(m, s); }
template <class F>
LeanError<F> sqrtf(const LeanError<F>& x) { return sqrt(x); }
template <class F>
LeanError<F> fabsf(const LeanError<F>& x) { return fabs(x); }
template <class F>
LeanError<F> fmaxf(const LeanError<F>& a, const LeanError<F>& b) { return fmax(a, b); }
template <class F>
LeanError<F> fminf(const LeanError<F>& a, const LeanError<F>& b) { return fmin(a, b); }
template <class F>
LeanError<F> fmaf(const LeanError<F>& a, const LeanError<F>& b, const LeanError<F>& c) { return fma(a, b, c); }
template <class F>
LeanError<F> powf(const LeanError<F>& x, const LeanError<F>& y) { return pow(x, y); }

/// {fp [lo, hi], err [lo, hi], real [lo, hi]}, 17 significant digits
template <class F>
std::ostream& operator<<(std::ostream& os, const LeanError<F>& x) {
  const LeanInterval f = x.fp(), e = x.err(), r = x.real();
  return os << "{" << lean_detail::range_text("fp", f.lo, f.hi) << ", " << lean_detail::range_text("err", e.lo, e.hi)
            << ", " << lean_detail::range_text("real", r.lo, r.hi) << "}";
}

static_assert(std::is_trivially_copyable_v<LeanDouble> && std::is_trivially_destructible_v<LeanDouble>);
static_assert(sizeof(LeanDouble) == 32 && sizeof(LeanFloat) == 32);

extern template class LeanError<double>;
extern template class LeanError<float>;

}  // namespace symerr

/// std::numeric_limits<LeanError<F>>: F's limits as exact constants
/// (`T m = std::numeric_limits<T>::lowest();` before a running maximum);
/// without it the primary template answers T(), an exact 0, and a maximum of
/// negative values would silently start at 0. LeanError has no infinities
/// and no NaN: infinity() and quiet_NaN() throw std::domain_error.
template <class F>
struct std::numeric_limits<symerr::LeanError<F>> {
  using T = symerr::LeanError<F>;  ///< The value type.
  using L = std::numeric_limits<F>;  ///< F's own limits.
  static constexpr bool is_specialized = true;  ///< Specialized.
  static constexpr bool is_signed = true;  ///< Signed.
  static constexpr bool is_integer = false;  ///< Not an integer type.
  static constexpr bool is_exact = false;  ///< Not exact.
  static constexpr bool has_infinity = false;  ///< No infinities.
  static constexpr bool has_quiet_NaN = false;  ///< No NaN.
  static constexpr bool has_signaling_NaN = false;  ///< No signaling NaN.
  static constexpr bool is_iec559 = false;  ///< Not IEC 559: a set of executions' values.
  static constexpr bool is_bounded = true;  ///< Bounded.
  static constexpr bool is_modulo = false;  ///< Not modular.
  static constexpr int digits = L::digits;  ///< F's.
  static constexpr int digits10 = L::digits10;  ///< F's.
  static constexpr int max_digits10 = L::max_digits10;  ///< F's.
  static constexpr int radix = 2;  ///< 2.
  static constexpr int min_exponent = L::min_exponent;  ///< F's.
  static constexpr int max_exponent = L::max_exponent;  ///< F's.
  static constexpr std::float_round_style round_style = std::round_to_nearest;  ///< Round to nearest (the computed program's rounding).
  static T min() { return T(L::min()); }  ///< F's smallest normal, as a LeanError.
  static T max() { return T(L::max()); }  ///< F's largest finite value.
  static T lowest() { return T(L::lowest()); }  ///< F's lowest finite value.
  static T epsilon() { return T(L::epsilon()); }  ///< F's epsilon.
  static T round_error() { return T(0.5); }  ///< 0.5.
  static T denorm_min() { return T(L::denorm_min()); }  ///< F's smallest subnormal.
  static T infinity() { symerr::lean_detail::fail(no_special("infinity()")); }  ///< Throws std::domain_error: no infinities.
  static T quiet_NaN() { symerr::lean_detail::fail(no_special("quiet_NaN()")); }  ///< Throws std::domain_error: no NaN.

 private:
  static std::string no_special(const char* member) {
    std::string text = "std::numeric_limits<LeanError<";  // appended: GCC 12 warns on string + literal chains
    text.append(symerr::lean_detail::format_name<F>()).append(">>::").append(member);
    text.append(": LeanError has no infinities and no NaN; start a running maximum at lowest() or at the first "
                "element, or use SymbolicError");
    return text;
  }
};
