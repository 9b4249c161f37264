// LeanError<F>: a lean drop-in error type for large FP64/FP32 kernels.
//
// It carries two enclosures: the set of computed values (`fp`, values of
// F = double or float) and the error fp − real (`err`); the real value is
// enclosed by fp − err, met with a third enclosure of the real value where an
// operation knows more than fp − err says (the square's real value is >= 0, a
// root's, an exp's; sums, products and quotients of such values), as
// SymbolicError's real field does: that is what makes sqrt(x·x), an RMS norm
// and a softmax's quotient run. 48 bytes in all; values that carry no such
// enclosure (a matmul's) take no extra work beyond one test per operation. Add, Sub, Mul, Div, fma, sqrt, min/max,
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
#include <symerr/lean_pair.hpp>
#include <symerr/tribool.hpp>

namespace symerr {

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
    return LeanError(lean_detail::swap(a.f_), lean_detail::swap(a.e_), lean_detail::swap(a.r_));
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
  // a · a of one object is a square (SymbolicError's rule: detail::tighten_square)
  friend LeanError operator*(const LeanError& a, const LeanError& b) {
    if (lean_detail::library_environment()) [[likely]]
      return &a == &b ? square(a) : mul(a, b);
    return guarded(a, b, &a == &b ? 'q' : '*');
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
  LeanError(Pair f, Pair e, Pair r) noexcept : f_(f), e_(e), r_(r) {}
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
  // fp − err rounded outward exactly (directed by TwoSum's remainder)
  LeanInterval plain_real() const noexcept {
    return {lean_detail::sub_down(-f_[0], e_[1]), lean_detail::sub_up(f_[1], -e_[0])};
  }
  // the real enclosure: fp − err, met with r_ where the value carries one
  LeanInterval exact_real() const noexcept {
    LeanInterval r = plain_real();
    if (constrained()) [[unlikely]] {
      r.lo = std::max(r.lo, -r_[0]);
      r.hi = std::min(r.hi, r_[1]);
    }
    return r;
  }
  [[gnu::always_inline]] bool constrained() const noexcept { return r_[0] != 0 || r_[1] != 0; }
  // z with r, an outward enclosure of its real value, kept where it narrows
  // fp − err (a NaN lane, e.g. from inf − inf: none); then err ⊆ fp − real
  // (SymbolicDomainError::reduce's first rule)
  static LeanError constrain(LeanError z, Pair r) noexcept {
    using namespace lean_detail;
    z.r_ = Pair{0.0, 0.0};
    if (!(r[0] == r[0] && r[1] == r[1])) return z;
    const LeanInterval p = z.plain_real();
    if (-r[0] > p.lo || r[1] < p.hi) {
      z.r_ = r;
      const LeanInterval f = z.fp();
      z.e_ = vmin(z.e_, pair({sub_down(f.lo, r[1]), sub_up(f.hi, -r[0])}));
    }
    return z;
  }
  // the operands' real enclosures as pairs, outward
  Pair real_out() const noexcept { return lean_detail::pair(exact_real()); }
  // An outward sum (product, quotient) of real enclosures is >= 0 where the
  // exact one is (the operands' signs say so): widening must not push its
  // lower end below 0, which sqrt would refuse. nonneg(r): r's real lower end >= 0.
  static bool nonneg(Pair r) noexcept { return r[0] <= 0; }
  static Pair floor_zero(Pair r, bool exact_nonneg) noexcept {
    if (exact_nonneg) r[0] = std::min(r[0], 0.0);
    return r;
  }
  // max and min are continuous: max(fa, fb) − max(ra, rb) lies between the
  // operands' errors, whichever operand is the larger in either program.
  static LeanError maximum(const LeanError& a, const LeanError& b) noexcept {
    const LeanInterval fa = a.fp(), fb = b.fp(), ea = a.err(), eb = b.err();
    const bool a_wins = fa.lo >= fb.hi && a.exact_real().lo >= b.exact_real().hi;
    const bool b_wins = fb.lo >= fa.hi && b.exact_real().lo >= a.exact_real().hi;
    if (a_wins) return a;
    if (b_wins) return b;
    const LeanError z(lean_detail::pair({std::max(fa.lo, fb.lo), std::max(fa.hi, fb.hi)}),
                      lean_detail::pair({std::min(ea.lo, eb.lo), std::max(ea.hi, eb.hi)}));
    if (!a.constrained() && !b.constrained()) [[likely]]
      return z;
    const LeanInterval ra = a.exact_real(), rb = b.exact_real();
    return constrain(z, lean_detail::pair({std::max(ra.lo, rb.lo), std::max(ra.hi, rb.hi)}));
  }
  // ||f| − |r|| ≤ |f − r| where the sign is not the same everywhere
  static LeanError magnitude(const LeanError& a) noexcept {
    const LeanInterval f = a.fp(), r = a.exact_real();
    if (f.lo >= 0 && r.lo >= 0) return a;
    if (f.hi <= 0 && r.hi <= 0) return -a;
    const double m = std::max(a.e_[0], a.e_[1]);
    return constrain(LeanError(lean_detail::pair({f.lo >= 0 ? f.lo : f.hi <= 0 ? -f.hi : 0.0, std::max(-f.lo, f.hi)}),
                               Pair{m, m}),
                     lean_detail::pair({r.lo >= 0 ? r.lo : r.hi <= 0 ? -r.hi : 0.0, std::max(-r.lo, r.hi)}));
  }

  // By value: an operand whose address escapes would stay in memory on the fast path.
  static LeanError guarded(LeanError a, LeanError b, char op);
  static LeanError guarded_fma(LeanError a, LeanError b, LeanError c);
  [[noreturn]] static void overflow(LeanError a, LeanError b, char op);
  [[noreturn]] void undecided_sign(const char* op) const;

  // fp − err, rounded to nearest (not widened): (−(flo − ehi), fhi − elo),
  // met with r_ where the value carries one
  // (Met = false: the caller knows that it carries none)
  template <bool Met = true>
  [[gnu::always_inline]] Pair real_pair() const noexcept {
    const Pair p = f_ + lean_detail::swap(e_);
    if constexpr (Met) {
      if (constrained()) [[unlikely]]
        return lean_detail::vmin(p, r_);
    }
    return p;
  }
  // Whether a or b carries a real enclosure (one test of the four lanes' bits, signs dropped).
  [[gnu::always_inline]] static bool any_constrained(const LeanError& a, const LeanError& b) noexcept {
    using Bits = lean_detail::PairBits;
    const Bits x = (reinterpret_cast<Bits>(a.r_) | reinterpret_cast<Bits>(b.r_)) << 1;
    return (x[0] | x[1]) != 0;
  }
  // real·e widened; a real end beyond DBL_MAX (fp near it, err of the other
  // sign) would be ±inf, and inf·0 a NaN that the corners' max drops: then
  // fp·e − err·e (lean.cpp)
  template <bool Met = true>
  [[gnu::always_inline]] static Pair real_product(const LeanError& a, Pair e) {
    const Pair p = a.real_pair<Met>(), r = lean_detail::vabs(p);
    if (!(r[0] <= lean_detail::kMax<double> && r[1] <= lean_detail::kMax<double>)) [[unlikely]]
      return real_product_split(a, e);
    return lean_detail::widen(lean_detail::product(p, e));
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
    if (any_constrained(a, b)) [[unlikely]]
      return add_met(a, b);
    return add_plain(a, b);
  }
  // add without the operands' real enclosures; add_met (lean.cpp) adds the result's
  [[gnu::always_inline]] static LeanError add_plain(const LeanError& a, const LeanError& b) {
    using namespace lean_detail;
    const Pair raw = a.f_ + b.f_, f = to_format<F>(raw);
    double d = rounding(f, a, b, '+');
    if (at_power_of_two(f, d)) [[unlikely]]
      d = sum_rounding(a.f_, b.f_, raw, f, d);
    // below twice the smallest normal, F's values are all on the subnormal grid: exact
    if (std::max(f[0], f[1]) < (std::is_same_v<F, double> ? 0x1p-1021 : 0x1p-125)) [[unlikely]]
      d = 0;
    return checked(f, widen(a.e_ + widen(b.e_ + d)), a, b, '+');
  }
  static LeanError add_met(const LeanError& a, const LeanError& b);
  // fp: the extreme products of the fp ranges, rounded in F (exact);
  // err = fa·fb − ra·rb + δ = ea·fb + ra·eb + δ.
  [[gnu::always_inline]] static LeanError mul(const LeanError& a, const LeanError& b) {
    if (any_constrained(a, b)) [[unlikely]]
      return mul_met(a, b);
    return mul_plain<false>(a, b);
  }
  // mul with the operands' real enclosures met (Met) or known absent; mul_met
  // (lean.cpp) adds the result's
  template <bool Met>
  [[gnu::always_inline]] static LeanError mul_plain(const LeanError& a, const LeanError& b) {
    using namespace lean_detail;
    const Pair f = to_format<F>(product(a.f_, b.f_));
    double d = rounding(f, a, b, '*');
    if (at_power_of_two(f, d)) [[unlikely]]
      d = product_rounding(a.f_, b.f_, f, d);
    const Pair x = widen(product(a.e_, b.f_));
    return checked(f, widen(x + widen(real_product<Met>(a, b.e_) + d)), a, b, '*');
  }
  static LeanError mul_met(const LeanError& a, const LeanError& b);
  // x · x of one value (SymbolicError's square rule, detail::tighten_square):
  // the computed value is >= 0 (the rounding of r² >= 0), so is the real one
  // (its enclosure met with [0, +inf), kept in r_), and err = fp − real <= fp.
  static LeanError square(const LeanError& a) {
    LeanError z = mul(a, a);
    const LeanInterval f = z.fp();
    if (detail::square_narrows(f.lo, f.hi)) z.f_[0] = 0.0;  // fp ∩ [0, +inf)
    z.e_[1] = std::min(z.e_[1], z.f_[1]);                    // err <= fp − 0
    LeanInterval r = z.exact_real();
    if (detail::square_narrows(r.lo, r.hi)) r.lo = 0.0;      // real ∩ [0, +inf)
    return constrain(z, lean_detail::pair(r));
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
  Pair r_{0.0, 0.0};  // real ⊆ [−r_[0], r_[1]] where it narrows fp − err; (0, 0): none
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

}  // namespace symerr

#include <symerr/lean_functions.hpp>
