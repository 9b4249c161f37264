// LeanError's out-of-line parts: the operations under a caller's foreign
// floating-point environment (computed here under the library's, this file
// being compiled with -frounding-math), the messages, the comparisons, and
// the bridge to SymbolicError for the elementary functions.
#include <symerr/lean.hpp>

#include <symerr/domains/endpoint_queries.hpp>

#include <cstdio>
#include <limits>
#include <utility>
#include <stdexcept>

namespace symerr {

namespace lean_detail {

void fail(const std::string& what) { throw std::domain_error(what); }

std::string range_text(const char* name, double lo, double hi) {
  char buf[128];
  std::snprintf(buf, sizeof buf, "%s [%.17g, %.17g]", name, lo, hi);
  return buf;
}

namespace {
std::string sides_text(const Sides& s) {
  return range_text("fp", s.fp.lo, s.fp.hi) + ", " + range_text("real", s.real.lo, s.real.hi);
}
[[noreturn]] void undecided(const Sides& a, const Sides& b, const char* op, const char* format, const char* why) {
  throw UndecidedBranch(std::string("symerr::LeanError<") + format + ">: the comparison a " + op + " b is " + why +
                        " (a: " + sides_text(a) + "; b: " + sides_text(b) +
                        "). LeanError has no branch driver: run a kernel with data-dependent branches on "
                        "SymbolicError through symerr::verify::run_kernel");
}
// An enclosure as the domains' endpoint queries read it (endpoint_queries.hpp:
// the comparisons of every interval domain, one rule for all).
struct Ends {
  double lo, hi;
  double lower() const noexcept { return lo; }
  double upper() const noexcept { return hi; }
};
int code(Tri t) { return t == Tri::True ? 1 : t == Tri::False ? 0 : -1; }
// The answer of x < y (or_equal: x <= y) for every x in x_range, y in y_range:
// 1 true, 0 false, -1 either.
int decide(const LeanInterval& x, const LeanInterval& y, bool or_equal) {
  const Ends a{x.lo, x.hi}, b{y.lo, y.hi};
  return code(or_equal ? endpoint::cmp_le(a, b) : endpoint::cmp_lt(a, b));
}
bool settle(int computed, int ideal, const Sides& a, const Sides& b, const char* op, const char* format) {
  if (computed < 0 || ideal < 0) undecided(a, b, op, format, "true for some values of the operands and false for others");
  if (computed != ideal)
    undecided(a, b, op, format, "decided differently by the real and the computed values (an unstable test)");
  return computed == 1;
}
}  // namespace

bool less(const Sides& a, const Sides& b, bool or_equal, const char* op, const char* format) {
  return settle(decide(a.fp, b.fp, or_equal), decide(a.real, b.real, or_equal), a, b, op, format);
}

bool equal(const Sides& a, const Sides& b, const char* op, const char* format) {
  const auto decide_eq = [](const LeanInterval& x, const LeanInterval& y) {
    return code(endpoint::cmp_eq(Ends{x.lo, x.hi}, Ends{y.lo, y.hi}));
  };
  return settle(decide_eq(a.fp, b.fp), decide_eq(a.real, b.real), a, b, op, format);
}

template <class F, class I>
Sides integer_sides_guarded(I c) {
  [[maybe_unused]] const FpEnvironmentGuard guard;
  const double f = static_cast<double>(static_cast<F>(c));  // C's conversion, round to nearest
  const double d = static_cast<double>(c);
  const auto diff = static_cast<__int128>(c);
  // d's neighbours enclose c: [d, next up] or [next down, d]
  const bool above = static_cast<__int128>(d) > diff, below = static_cast<__int128>(d) < diff;
  return {{f, f}, {below ? d : above ? next_down(d) : d, above ? d : below ? -next_down(-d) : d}};
}
template <class F>
Sides integer_sides(long long c) {
  return integer_sides_guarded<F>(c);
}
template <class F>
Sides integer_sides(unsigned long long c) {
  return integer_sides_guarded<F>(c);
}
template Sides integer_sides<double>(long long);
template Sides integer_sides<float>(long long);
template Sides integer_sides<double>(unsigned long long);
template Sides integer_sides<float>(unsigned long long);

// Every operation of LeanError<F>, reached through its private statics.
struct Guarded {
  template <class F>
  static LeanError<F> binary(const LeanError<F>& a, const LeanError<F>& b, char op) {
    [[maybe_unused]] const FpEnvironmentGuard guard;
    switch (op) {
      case '+': return LeanError<F>::add(a, b);
      case '*': return LeanError<F>::mul(a, b);
      case 'q': return LeanError<F>::square(a);
      case '/': return LeanError<F>::div(a, b);
      case 'M': return LeanError<F>::maximum(a, b);
      case 'A': return LeanError<F>::magnitude(a);
      default: return LeanError<F>::root(a);
    }
  }
  template <class F>
  static LeanError<F> fma(const LeanError<F>& a, const LeanError<F>& b, const LeanError<F>& c) {
    [[maybe_unused]] const FpEnvironmentGuard guard;
    return LeanError<F>::fused(a, b, c);
  }
};

}  // namespace lean_detail

template <class F>
LeanError<F> LeanError<F>::guarded(LeanError a, LeanError b, char op) {
  return lean_detail::Guarded::binary(a, b, op);
}

template <class F>
LeanError<F> LeanError<F>::guarded_fma(LeanError a, LeanError b, LeanError c) {
  return lean_detail::Guarded::fma(a, b, c);
}

template <class F>
LeanInterval LeanError<F>::guarded_real() const {
  [[maybe_unused]] const FpEnvironmentGuard guard;
  return exact_real();
}

template <class F>
LeanInterval LeanError<F>::rel_err() const {
  [[maybe_unused]] const FpEnvironmentGuard guard;
  const LeanInterval r = exact_real();
  if (r.lo <= 0 && r.hi >= 0) return {-std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity()};
  return lean_detail::interval(lean_detail::widen(lean_detail::quotient(e_, lean_detail::pair(r))));
}

template <class F>
LeanError<F> LeanError<F>::guarded_literal(double d) {
  [[maybe_unused]] const FpEnvironmentGuard guard;
  return rounded_literal(d);
}

template <class F>
void LeanError<F>::bad_literal(double d) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", d);
  lean_detail::fail(std::string("symerr::LeanError<") + lean_detail::format_name<F>() + ">: the literal " + buf +
                    (std::isfinite(d) ? " overflows the format" : " must be finite (LeanError has no infinities)"));
}

namespace {
template <class F, class I>
std::pair<double, double> integer_literal_parts(I c) {
  [[maybe_unused]] const FpEnvironmentGuard guard;
  const F f = static_cast<F>(c);  // C's one conversion
  if (!(std::fabs(static_cast<double>(f)) <= lean_detail::kMax<F>))
    lean_detail::fail(std::string("symerr::LeanError<") + lean_detail::format_name<F>() + ">: the integer literal " +
                      std::to_string(c) + " overflows the format");
  // exact: |f − c| < 2^40
  return {static_cast<double>(f), static_cast<double>(static_cast<__int128>(f) - static_cast<__int128>(c))};
}
}  // namespace

template <class F>
LeanError<F> LeanError<F>::integer_literal(long long c) {
  const auto [f, e] = integer_literal_parts<F>(c);
  return LeanError(Pair{-f, f}, Pair{-e, e});
}
template <class F>
LeanError<F> LeanError<F>::integer_literal(unsigned long long c) {
  const auto [f, e] = integer_literal_parts<F>(c);
  return LeanError(Pair{-f, f}, Pair{-e, e});
}

template <class F>
void LeanError<F>::overflow(LeanError a, LeanError b, char op) {
  const std::string name = std::string("symerr::LeanError<") + lean_detail::format_name<F>() + ">: ";
  const auto text = [](const LeanError& v) {
    return lean_detail::range_text("fp", v.fp().lo, v.fp().hi) + ", " +
           lean_detail::range_text("err", v.err().lo, v.err().hi) + ", " +
           lean_detail::range_text("real", v.real().lo, v.real().hi);
  };
  const std::string ra = text(a), rb = text(b);
  switch (op) {
    case '/':
      lean_detail::fail(name + "a / b: the divisor's range holds 0 or the quotient may overflow (a: " + ra +
                        "; b: " + rb + "); LeanError has no infinities: use SymbolicError");
    case 's':
      lean_detail::fail(name + "sqrt(a): a may be negative (a: " + ra + "); use SymbolicError (NaN) or "
                        "guard the operand");
    case 'f':
      lean_detail::fail(name + "fma(a, b, c) may overflow (a: " + ra + "; b: " + rb +
                        "); LeanError has no infinities: use SymbolicError");
    default:
      lean_detail::fail(name + "a " + std::string(1, op) + " b may overflow (a: " + ra + "; b: " + rb +
                        "); LeanError has no infinities: use SymbolicError");
  }
}

template <class F>
void LeanError<F>::undecided_sign(const char* op) const {
  throw UndecidedBranch(std::string("symerr::LeanError<") + lean_detail::format_name<F>() + ">: " + op +
                        ": the sign of s is not the same everywhere in both programs (s: " +
                        lean_detail::range_text("fp", fp().lo, fp().hi) + ", " +
                        lean_detail::range_text("real", real().lo, real().hi) +
                        "); LeanError has no branch driver: run a kernel with data-dependent branches on SymbolicError "
                        "through symerr::verify::run_kernel");
}

template <class F>
LeanError<F> LeanError<F>::input(double lo, double hi, double elo, double ehi) {
  [[maybe_unused]] const FpEnvironmentGuard guard;
  // SymbolicError's input computes the exact range of F's values in [lo + elo, hi + ehi]
  // and the error's enclosure (one rule for both types' inputs)
  const SymbolicError s = SymbolicError::input(lo, hi, elo, ehi, std::is_same_v<F, double> ? FP64 : FP32);
  if (!std::isfinite(lo) || !std::isfinite(hi) || !std::isfinite(elo) || !std::isfinite(ehi))
    throw std::invalid_argument("symerr::LeanError::input: the ranges must be finite (" +
                                lean_detail::range_text("value", lo, hi) + ", " +
                                lean_detail::range_text("error", elo, ehi) + ")");
  const double flo = s.fp.lower(), fhi = s.fp.upper();
  if (!(std::max(-flo, fhi) <= lean_detail::kMax<F>))
    throw std::invalid_argument("symerr::LeanError::input: " + lean_detail::range_text("value", lo, hi) +
                                " plus " + lean_detail::range_text("error", elo, ehi) + " overflows " +
                                lean_detail::format_name<F>());
  // err as SymbolicError's input has it: [elo, ehi] met with fp − [lo, hi]
  // (a point real and a point fp: the one error fp − real)
  return LeanError(lean_detail::Pair{-flo, fhi}, lean_detail::Pair{-s.err.lower(), s.err.upper()});
}

template <class F>
LeanError<F> LeanError<F>::from_enclosures(LeanInterval fp, LeanInterval err) {
  [[maybe_unused]] const FpEnvironmentGuard guard;
  const auto bad = [](LeanInterval r) { return !(r.lo <= r.hi) || !std::isfinite(r.lo) || !std::isfinite(r.hi); };
  if (bad(fp) || bad(err) || !(std::max(-fp.lo, fp.hi) <= lean_detail::kMax<F>) || static_cast<double>(static_cast<F>(fp.lo)) != fp.lo ||
      static_cast<double>(static_cast<F>(fp.hi)) != fp.hi)
    throw std::invalid_argument("symerr::LeanError::from_enclosures: " + lean_detail::range_text("fp", fp.lo, fp.hi) +
                                " must be a finite range with ends that are values of " +
                                lean_detail::format_name<F>() + ", " + lean_detail::range_text("err", err.lo, err.hi) +
                                " a finite range");
  return LeanError(lean_detail::pair(fp), lean_detail::pair(err));
}

template <class F>
SymbolicError LeanError<F>::to_symbolic() const {
  [[maybe_unused]] const FpEnvironmentGuard guard;
  const LeanInterval r = real(), f = fp();
  SymbolicError s = SymbolicError::input(r.lo, r.hi, err().lo, err().hi, std::is_same_v<F, double> ? FP64 : FP32);
  // input() takes the values of F in real + err, wider than fp: met with fp
  s.fp = detail::meet(s.fp, decltype(s.fp)::between(f.lo, f.hi));
  s.reduce();
  return s;
}

template <class F>
LeanError<F> LeanError<F>::from_symbolic(const SymbolicError& s, const char* operation) {
  if (s.is_finite().tri() != Tri::True || s.is_undef().tri() != Tri::False)
    lean_detail::fail(std::string("symerr::LeanError<") + lean_detail::format_name<F>() + ">: " + operation +
                      "(x) may be infinite, NaN or undefined (its computed value " +
                      lean_detail::range_text("fp", s.fp.lower(), s.fp.upper()) +
                      "); LeanError has no special values: use SymbolicError");
  const LeanInterval f{s.fp.lower(), s.fp.upper()}, e{s.err.lower(), s.err.upper()};
  if (!(std::max(-f.lo, f.hi) <= lean_detail::kMax<F>) || !std::isfinite(e.lo) || !std::isfinite(e.hi))
    lean_detail::fail(std::string("symerr::LeanError<") + lean_detail::format_name<F>() + ">: " + operation +
                      "(x) has no finite enclosure (" + lean_detail::range_text("fp", f.lo, f.hi) + ", " +
                      lean_detail::range_text("err", e.lo, e.hi) + ")");
  // SymbolicError's real enclosure (exp > 0, tanh in [−1, 1]) where it narrows fp − err
  return constrain(LeanError(lean_detail::pair(f), lean_detail::pair(e)),
                   lean_detail::pair({s.real.lower(), s.real.upper()}));
}

// ---- add and mul of values with a real enclosure, div, fma, sqrt (out of line) ----

template <class F>
LeanError<F> LeanError<F>::add_met(const LeanError& a, const LeanError& b) {
  using namespace lean_detail;
  const Pair ra = a.real_out(), rb = b.real_out();
  return constrain(add_plain(a, b), floor_zero(widen(ra + rb), nonneg(ra) && nonneg(rb)));
}

template <class F>
LeanError<F> LeanError<F>::mul_met(const LeanError& a, const LeanError& b) {
  using namespace lean_detail;
  const Pair ra = a.real_out(), rb = b.real_out();
  return constrain(mul_plain<true>(a, b), floor_zero(widen(product(ra, rb)), nonneg(ra) && nonneg(rb)));
}

template <class F>
LeanError<F> LeanError<F>::div(const LeanError& a, const LeanError& b) {
  using namespace lean_detail;
  const LeanInterval rb = b.exact_real();
  // 0 ∉ fb and 0 ∉ rb
  if (!(std::min(b.f_[0], b.f_[1]) < 0) || !(rb.lo > 0 || rb.hi < 0)) [[unlikely]]
    overflow(a, b, '/');
  const Pair f = to_format<F>(quotient(a.f_, b.f_));
  const double d = rounding(f, a, b, '/');
  // ea/fb − (ra/rb)·(eb/fb): every factor an enclosure rounded once (no
  // absolute margin of an intermediate is divided by a small fb)
  const LeanInterval ra = a.exact_real();  // an end beyond DBL_MAX is ±inf: inf·0 below would be NaN
  if (!(std::fabs(ra.lo) <= kMax<double> && std::fabs(ra.hi) <= kMax<double>)) [[unlikely]]
    unbounded_error(a, b, '/');
  const Pair q = widen(quotient(pair(ra), pair(rb)));  // (may overflow near DBL_MAX: an exact b then adds 0)
  const Pair t = b.e_[0] == 0 && b.e_[1] == 0 ? Pair{0.0, 0.0} : widen(product(q, widen(quotient(b.e_, b.f_))));
  const LeanError z = checked(f, widen(widen(widen(quotient(a.e_, b.f_)) + swap(t)) + d), a, b, '/');
  if (a.constrained() || b.constrained())  // ra / rb, outward (>= 0 where ra >= 0 < rb)
    return constrain(z, floor_zero(q, ra.lo >= 0 && rb.lo > 0));
  return z;
}

template <class F>
LeanError<F> LeanError<F>::fused(const LeanError& a, const LeanError& b, const LeanError& c) {
  using namespace lean_detail;
  if (c.exact_zero()) return mul(a, b);  // fma(a, b, 0) rounds a·b once (`acc = 0; acc = fma(x, y, acc)`)
  const LeanInterval fa = a.fp(), fb = b.fp(), fc = c.fp();
  const F a0 = static_cast<F>(fa.lo), a1 = static_cast<F>(fa.hi);
  const F b0 = static_cast<F>(fb.lo), b1 = static_cast<F>(fb.hi);
  const F c0 = static_cast<F>(fc.lo), c1 = static_cast<F>(fc.hi);
  using std::fma;
  const double lo = std::min(std::min<double>(fma(a0, b0, c0), fma(a0, b1, c0)),
                             std::min<double>(fma(a1, b0, c0), fma(a1, b1, c0)));
  const double hi = std::max(std::max<double>(fma(a0, b0, c1), fma(a0, b1, c1)),
                             std::max<double>(fma(a1, b0, c1), fma(a1, b1, c1)));
  const Pair f{-lo, hi};
  double d = rounding(f, a, b, 'f');
  if (at_power_of_two(f, d)) [[unlikely]]
    d = fused_rounding(a.f_, b.f_, c.f_, f, d);
  const Pair x = widen(product(a.e_, b.f_));
  const LeanError z = checked(f, widen(widen(x + c.e_) + widen(real_product(a, b.e_) + d)), a, b, 'f');
  if (a.constrained() || b.constrained() || c.constrained())
  {
    const Pair ra = a.real_out(), rb = b.real_out(), rc = c.real_out();
    return constrain(z, floor_zero(widen(widen(product(ra, rb)) + rc), nonneg(ra) && nonneg(rb) && nonneg(rc)));
  }
  return z;
}

template <class F>
LeanError<F> LeanError<F>::root(const LeanError& a) {
  using namespace lean_detail;
  const LeanInterval fa = a.fp(), ra = a.exact_real(), ea = a.err();
  if (!(fa.lo >= 0) || !(ra.lo >= 0)) [[unlikely]]
    overflow(a, a, 's');
  const Pair f = to_format<F>(Pair{-std::sqrt(fa.lo), std::sqrt(fa.hi)});
  double d = rounding(f, a, a, 's');
  // one computed operand whose root is a value of F: no rounding (f² − x by
  // one fma, exact; above 2^-960 a nonzero remainder does not underflow to 0)
  if (fa.lo == fa.hi && (fa.lo == 0 || fa.lo >= 0x1p-960) && std::fma(f[1], f[1], -fa.lo) == 0) d = 0;
  // √f − √r = e / (√f + √r), met with |√f − √r| ≤ √|e| (√ is ½-Hölder; the
  // only bound where both may be 0), as SymbolicError's sqrt rule
  const double den = down(down(std::sqrt(fa.lo)) + down(std::sqrt(ra.lo)));
  const double m = up(std::sqrt(std::max(-ea.lo, ea.hi)));
  Pair e = Pair{m, m};
  if (den > 0) e = vmin(e, widen(quotient(a.e_, Pair{-den, up(up(std::sqrt(fa.hi)) + up(std::sqrt(ra.hi)))})));
  // the real root √r >= 0, whatever fp − err of the result says
  return constrain(checked(f, widen(e + d), a, a, 's'), Pair{-down(std::sqrt(ra.lo)), up(std::sqrt(ra.hi))});
}

template <class F>
lean_detail::Pair LeanError<F>::real_product_split(const LeanError& a, Pair e) {
  using namespace lean_detail;
  // r·e = f·e − err·e in every execution (the same e, f and err)
  return widen(widen(product(a.f_, e)) + swap(widen(product(a.e_, e))));
}

template <class F>
void LeanError<F>::unbounded_error(LeanError a, LeanError b, char op) {
  const std::string name = std::string("symerr::LeanError<") + lean_detail::format_name<F>() + ">: ";
  const auto text = [](const LeanError& v) {
    return lean_detail::range_text("fp", v.fp().lo, v.fp().hi) + ", " +
           lean_detail::range_text("err", v.err().lo, v.err().hi);
  };
  const std::string call = op == 's' ? "sqrt(a)" : op == 'f' ? "fma(a, b, c)" : "a " + std::string(1, op) + " b";
  lean_detail::fail(name + call + ": an intermediate or error bound overflows the range of double (a: " + text(a) +
                    (op == 's' ? std::string() : "; b: " + text(b)) + "); use SymbolicError");
}

template class LeanError<double>;
template class LeanError<float>;

}  // namespace symerr
