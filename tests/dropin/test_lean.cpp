// LeanError (<symerr/lean.hpp>), operation by operation: every enclosure
// (fp, err, real) against exact executions (GMP rationals; sqrt and the
// elementary functions against 256-bit MPFR enclosures), on random operands
// of every magnitude (subnormal to near overflow, point ranges, one-sided,
// zero and large errors), FP64 and FP32; each with its tightness twin (the
// bound's ends within the observed extremes plus one rounding). Then the
// floating-point environment (results bit for bit the same under the caller's
// rounding modes, FTZ/DAZ and unmasked traps), literals and comparisons, and
// what bad input gets.
#include <catch2/catch.hpp>

#include <cfenv>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include <gmpxx.h>
#include <mpfr.h>

#include <symerr/fp_environment.hpp>
#include <symerr/lean.hpp>

#include "test_scale.hpp"

using namespace symerr;

namespace {

mpq_class q(double x) { return exact_value(x); }
bool in(const LeanInterval& i, const mpq_class& x) { return q(i.lo) <= x && x <= q(i.hi); }

// The format's rounding of an FP64 value.
template <class F>
double to_f(double x) {
  return static_cast<double>(static_cast<F>(x));
}

// A random operand: its enclosures, and draws of executions inside them.
template <class F>
struct Operand {
  LeanInterval f, e;
  LeanError<F> v;
  bool small_error;  // |err| <= 2^-20 min |fp|: the twins' dependency terms are negligible
};

template <class F>
class Gen {
 public:
  // boxes: operands [−2^k, 2^k] or [0, 2^k] (k in −2..2), exact or with a few
  // ulps of error: the results' largest magnitudes are powers of two (the
  // exactness refinements of add, mul and fma)
  explicit Gen(std::uint64_t seed, bool boxes = false) : rng_(seed), boxes_(boxes) {}

  Operand<F> operand(bool positive = false) {
    constexpr bool fp64 = std::is_same_v<F, double>;
    if (boxes_) {
      const double p = std::ldexp(1.0, pick(-2, 2)), lo = positive || pick(0, 3) == 0 ? p / 4 : -p;
      const double e = pick(0, 1) ? 0.0 : p * (fp64 ? 0x1p-52 : 0x1p-23) * pick(1, 4);
      return {{lo, p}, {-e, e}, LeanError<F>::from_enclosures({lo, p}, {-e, e}), true};
    }
    const double scales[] = {1.0, 0x1p-30, 0x1p30, fp64 ? 0x1p-1060 : 0x1p-140, fp64 ? 0x1p-1000 : 0x1p-120,
                             fp64 ? 0x1p500 : 0x1p60};
    const double s = scales[pick(0, 5)];
    double lo = to_f<F>(s * uniform(-1, 1)), hi = to_f<F>(s * uniform(-1, 1));
    if (lo > hi) std::swap(lo, hi);
    const int shape = pick(0, 5);
    if (shape == 0) hi = lo;  // a point
    if (shape == 1) lo = to_f<F>(-s), hi = to_f<F>(s);
    if (positive || shape == 2) {
      lo = std::fabs(lo), hi = std::fabs(hi);
      if (lo > hi) std::swap(lo, hi);
      if (lo == 0) lo = to_f<F>(s * 0.25);
      if (hi < lo) hi = lo;
    }
    const double mag = std::max({std::fabs(lo), std::fabs(hi), s * 1e-3});
    const double u = fp64 ? 0x1p-53 : 0x1p-24;
    double elo = 0, ehi = 0;
    bool small = true;
    switch (pick(0, 4)) {
      case 0: break;                                                        // exact
      case 1: ehi = mag * u * pick(1, 64), elo = -ehi; break;               // a few ulps
      case 2: ehi = mag * 0x1p-30 * uniform(0, 1); break;                   // one-sided
      case 3: elo = -mag * 0x1p-24 * uniform(0, 1), ehi = -elo * 0.5; break;  // asymmetric
      default:
        elo = -mag * 0.1 * uniform(0, 1), ehi = mag * 0.2 * uniform(0, 1);  // large: soundness only
        small = false;
    }
    if (positive) elo = std::max(elo, -0.5 * lo), ehi = std::min(ehi, 0.5 * lo);  // real stays > 0
    const double mig = lo > 0 ? lo : hi < 0 ? -hi : 0.0;
    small = small && std::max(-elo, ehi) <= 0x1p-20 * mig;
    return {{lo, hi}, {elo, ehi}, LeanError<F>::from_enclosures({lo, hi}, {elo, ehi}), small};
  }

  // An execution of the operand: a computed value (a value of F in f) and an
  // error in e; the real value is their difference. corner 0-3: the ends
  // (f.lo or f.hi, e.lo or e.hi); otherwise ends are drawn often.
  std::pair<double, double> draw(const Operand<F>& x, int corner = -1) {
    const auto end = [&](const LeanInterval& i, int bit) {
      const int k = corner >= 0 ? (corner >> bit) & 1 : pick(0, 3);
      return k == 0 ? i.lo : k == 1 ? i.hi : i.lo + (i.hi - i.lo) * uniform(0, 1);
    };
    double f = to_f<F>(end(x.f, 0));
    f = std::min(std::max(f, x.f.lo), x.f.hi);
    return {f, std::min(std::max(end(x.e, 1), x.e.lo), x.e.hi)};
  }
  int pick(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  double uniform(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng_); }

 private:
  std::mt19937_64 rng_;
  bool boxes_;
};

struct Tally {
  std::size_t ops = 0, executions = 0, violations = 0, twins = 0, loose = 0, refused = 0;
  std::string first, first_loose;
};

// The observed error range of one operation's executions, for the twin.
struct Observed {
  double lo = INFINITY, hi = -INFINITY;
  void add(double e) { lo = std::min(lo, e), hi = std::max(hi, e); }
};

// Twin: the bound's ends lie within the observed extremes, widened by two
// roundings of the result (d: half an ulp of its largest magnitude; the
// executions need not meet the worst rounding), 2^-18 of the bound, and the
// absolute 2^-1074 that each outward rounding adds (visible on subnormals).
template <class F>
void twin(const LeanError<F>& r, const Observed& o, Tally& t, const std::string& what) {
  const double m = std::max(-r.fp().lo, r.fp().hi);
  const double d = std::max(lean_detail::half_ulp<F>(m), 0x1p-1074);
  const double slack = 2 * d + 0x1p-18 * r.err().mag() + 8 * 0x1p-1074;  // + each widening's 2^-1074
  ++t.twins;
  if (r.err().hi > o.hi + slack || r.err().lo < o.lo - slack) {
    if (t.loose++ == 0) {
      char buf[256];
      std::snprintf(buf, sizeof buf, "bound [%.17g, %.17g] observed [%.17g, %.17g] slack %.3g", r.err().lo,
                    r.err().hi, o.lo, o.hi, slack);
      t.first_loose = what + ": " + buf;
    }
  }
}

template <class F>
void violation(Tally& t, const std::string& what) {
  if (t.violations++ == 0) t.first = what;
}

using Exact = std::function<mpq_class(const std::vector<mpq_class>&)>;
using Computed = std::function<double(const std::vector<double>&)>;
template <class F>
using Apply = std::function<LeanError<F>(const std::vector<LeanError<F>>&)>;

// An operation of `arity` operands on random operands (the last one
// positive when `positive_last`): its 4^arity corner executions (each
// operand's fp and err at an end), then random ones. twin: whether the
// bound must lie within the observed extremes (not for fdim: max(x, 0) keeps
// x's rounding bound from the side it clips).
template <class F>
Tally nary(const char* name, int arity, const Apply<F>& op, const Exact& exact, const Computed& computed,
           std::uint64_t seed, bool positive_last = false, bool twin_check = true, bool boxes = false) {
  Gen<F> gen(seed, boxes);
  Tally t;
  const std::size_t ops = symerr::test::scaled(3000, 100);
  const int corners = 1 << (2 * arity), draws = corners + 48;
  std::vector<Operand<F>> x;
  std::vector<LeanError<F>> v;
  std::vector<double> f(static_cast<std::size_t>(arity));
  std::vector<mpq_class> r(static_cast<std::size_t>(arity));
  for (std::size_t k = 0; k < ops; ++k) {
    x.clear(), v.clear();
    for (int i = 0; i < arity; ++i) {
      x.push_back(gen.operand(positive_last && i == arity - 1));
      v.push_back(x.back().v);
    }
    std::ostringstream call;
    call << name << "(";
    for (int i = 0; i < arity; ++i) call << (i ? ", " : "") << v[static_cast<std::size_t>(i)];
    call << ")";
    LeanError<F> y;
    try {
      y = op(v);
    } catch (const std::domain_error&) {
      ++t.refused;  // a range may overflow or hold 0 (refusals by name: the last test case)
      continue;
    }
    ++t.ops;
    Observed o;
    bool small = true;
    for (int j = 0; j < draws; ++j) {
      bool skip = false;
      for (int i = 0; i < arity; ++i) {
        const auto n = static_cast<std::size_t>(i);
        const auto [fi, ei] = gen.draw(x[n], j < corners ? (j >> (2 * i)) & 3 : -1);
        f[n] = fi;
        r[n] = q(fi) - q(ei);
        small = small && x[n].small_error;
        if (positive_last && i == arity - 1 && r[n] <= 0) skip = true;
      }
      if (skip) continue;
      const double fp = computed(f);
      if (!std::isfinite(fp)) {
        violation<F>(t, call.str() + ": a non-finite execution was not refused");
        continue;
      }
      const mpq_class real = exact(r), err = q(fp) - real;
      ++t.executions;
      o.add(err.get_d());
      if (!in(y.fp(), q(fp)) || !in(y.err(), err) || !in(y.real(), real)) {
        std::ostringstream os;
        os << call.str() << " = " << y << " misses fp " << fp << " err " << err.get_d() << " real " << real.get_d();
        violation<F>(t, os.str());
      }
    }
    if (twin_check && small && o.lo <= o.hi) {
      std::ostringstream os;
      os << call.str() << " = " << y;
      twin(y, o, t, os.str());
    }
  }
  return t;
}

template <class F>
void report(const char* name, const Tally& t) {
  std::printf("lean %-6s %s: %zu operations, %zu exact executions, %zu refused; twins %zu, %zu loose\n", name,
              std::is_same_v<F, double> ? "FP64" : "FP32", t.ops, t.executions, t.refused, t.twins, t.loose);
  INFO(name << ": " << t.first);
  CHECK(t.violations == 0);
  INFO(t.first_loose);
  CHECK(t.loose == 0);
  CHECK(t.executions > 1000);
  // every operation (but fdim and the shared fma, which have none) met its twin often
  CHECK((t.twins * 20 >= t.ops || std::string(name) == "fdim" || std::string(name) == "fma-sh"));
}

template <class F>
F fop(double x) {
  return static_cast<F>(x);
}

template <class F>
void arithmetic() {
  using L = LeanError<F>;
  using V = std::vector<L>;
  using Q = std::vector<mpq_class>;
  using D = std::vector<double>;
  const auto f = [](double x) { return static_cast<F>(x); };
  report<F>("add", nary<F>("add", 2, [](const V& a) { return a[0] + a[1]; }, [](const Q& a) { return mpq_class(a[0] + a[1]); },
                           [&](const D& a) { return static_cast<double>(f(a[0]) + f(a[1])); }, 1));
  report<F>("sub", nary<F>("sub", 2, [](const V& a) { return a[0] - a[1]; }, [](const Q& a) { return mpq_class(a[0] - a[1]); },
                           [&](const D& a) { return static_cast<double>(f(a[0]) - f(a[1])); }, 2));
  report<F>("mul", nary<F>("mul", 2, [](const V& a) { return a[0] * a[1]; }, [](const Q& a) { return mpq_class(a[0] * a[1]); },
                           [&](const D& a) { return static_cast<double>(f(a[0]) * f(a[1])); }, 3));
  report<F>("div", nary<F>("div", 2, [](const V& a) { return a[0] / a[1]; }, [](const Q& a) { return mpq_class(a[0] / a[1]); },
                           [&](const D& a) { return static_cast<double>(f(a[0]) / f(a[1])); }, 4, true));
  report<F>("fmax", nary<F>("fmax", 2, [](const V& a) { return fmax(a[0], a[1]); },
                            [](const Q& a) { return a[0] < a[1] ? a[1] : a[0]; },
                            [&](const D& a) { return static_cast<double>(std::fmax(f(a[0]), f(a[1]))); }, 5));
  report<F>("fmin", nary<F>("fmin", 2, [](const V& a) { return fmin(a[0], a[1]); },
                            [](const Q& a) { return a[0] < a[1] ? a[0] : a[1]; },
                            [&](const D& a) { return static_cast<double>(std::fmin(f(a[0]), f(a[1]))); }, 6));
  report<F>("fabs", nary<F>("fabs", 1, [](const V& a) { return fabs(a[0]); }, [](const Q& a) { return mpq_class(abs(a[0])); },
                            [&](const D& a) { return static_cast<double>(std::fabs(f(a[0]))); }, 7));
  report<F>("neg", nary<F>("neg", 1, [](const V& a) { return -a[0]; }, [](const Q& a) { return mpq_class(-a[0]); },
                           [&](const D& a) { return static_cast<double>(-f(a[0])); }, 8));
  // fdim(a, b) = max(a − b, 0): soundness here; its bound is a − b's joined with 0 (below)
  report<F>("fdim", nary<F>("fdim", 2, [](const V& a) { return fdim(a[0], a[1]); },
                            [](const Q& a) { return a[0] > a[1] ? mpq_class(a[0] - a[1]) : mpq_class(0); },
                            [&](const D& a) { return static_cast<double>(std::fdim(f(a[0]), f(a[1]))); }, 9, false,
                            false));
  report<F>("fma", nary<F>("fma", 3, [](const V& a) { return fma(a[0], a[1], a[2]); },
                           [](const Q& a) { return mpq_class(a[0] * a[1] + a[2]); },
                           [&](const D& a) { return static_cast<double>(std::fma(f(a[0]), f(a[1]), f(a[2]))); }, 10));
  // a shared operand (fma(a, b, a)): sound; no twin (LeanError does not see that it is shared)
  report<F>("fma-sh", nary<F>("fma-sh", 2, [](const V& a) { return fma(a[0], a[1], a[0]); },
                              [](const Q& a) { return mpq_class(a[0] * a[1] + a[0]); },
                              [&](const D& a) { return static_cast<double>(std::fma(f(a[0]), f(a[1]), f(a[0]))); }, 11,
                              false, false));
  // power-of-two boxes: the halved rounding terms of add, mul and fma
  report<F>("add-2k", nary<F>("add-2k", 2, [](const V& a) { return a[0] + a[1]; },
                              [](const Q& a) { return mpq_class(a[0] + a[1]); },
                              [&](const D& a) { return static_cast<double>(f(a[0]) + f(a[1])); }, 13, false, true, true));
  report<F>("mul-2k", nary<F>("mul-2k", 2, [](const V& a) { return a[0] * a[1]; },
                              [](const Q& a) { return mpq_class(a[0] * a[1]); },
                              [&](const D& a) { return static_cast<double>(f(a[0]) * f(a[1])); }, 14, false, true, true));
  report<F>("fma-2k", nary<F>("fma-2k", 3, [](const V& a) { return fma(a[0], a[1], a[2]); },
                              [](const Q& a) { return mpq_class(a[0] * a[1] + a[2]); },
                              [&](const D& a) { return static_cast<double>(std::fma(f(a[0]), f(a[1]), f(a[2]))); }, 15,
                              false, true, true));
  // fdim's twin: the subtraction's error, 0's, or both joined
  Gen<F> gen(12);
  for (int k = 0; k < 200; ++k) {
    const Operand<F> a = gen.operand(), b = gen.operand();
    try {
      const L d = fdim(a.v, b.v), s = a.v - b.v;
      const bool x_wins = d.err().lo == s.err().lo && d.err().hi == s.err().hi;  // a − b > 0 everywhere
      const bool zero_wins = d.err().lo == 0 && d.err().hi == 0;
      CHECK((x_wins || zero_wins ||
             (d.err().lo == std::min(s.err().lo, 0.0) && d.err().hi == std::max(s.err().hi, 0.0))));
    } catch (const std::domain_error&) {
    }
  }
}

}  // namespace

TEST_CASE("LeanError arithmetic: every enclosure holds the exact executions, and is tight", "[dropin][lean]") {
  arithmetic<double>();
  arithmetic<float>();
}

namespace {

// sqrt(real) enclosed at 256 bits: err = fp − sqrt(real) ∈ [fp − hi, fp − lo].
template <class F>
void square_root() {
  Gen<F> gen(21);
  Tally t;
  mpfr_t x, lo, hi;
  mpfr_inits2(256, x, lo, hi, static_cast<mpfr_ptr>(nullptr));
  for (std::size_t k = 0; k < symerr::test::scaled(3000, 100); ++k) {
    const Operand<F> a = gen.operand(true);
    const LeanError<F> r = sqrt(a.v);
    ++t.ops;
    Observed o;
    for (int j = 0; j < 64; ++j) {
      const auto [fa, ea] = gen.draw(a, j < 4 ? j : -1);
      const mpq_class ra = q(fa) - q(ea);
      const double fp = static_cast<double>(std::sqrt(fop<F>(fa)));
      mpfr_set_q(x, ra.get_mpq_t(), MPFR_RNDN);  // 256 bits hold the sum of two doubles' ranges exactly here
      mpfr_sqrt(lo, x, MPFR_RNDD);
      mpfr_sqrt(hi, x, MPFR_RNDU);
      mpfr_d_sub(lo, fp, lo, MPFR_RNDU);  // fp − sqrt(real) <= this
      mpfr_d_sub(hi, fp, hi, MPFR_RNDD);  // >= this
      ++t.executions;
      o.add(mpfr_get_d(lo, MPFR_RNDN));
      if (!in(r.fp(), q(fp)) || mpfr_cmp_d(hi, r.err().lo) < 0 || mpfr_cmp_d(lo, r.err().hi) > 0) {
        std::ostringstream os;
        os << "sqrt(" << a.v << ") = " << r << " misses fp " << fp;
        violation<F>(t, os.str());
      }
    }
    if (a.small_error) twin(r, o, t, "sqrt");
  }
  mpfr_clears(x, lo, hi, static_cast<mpfr_ptr>(nullptr));
  report<F>("sqrt", t);
}

// exp, log, tanh through SymbolicError: the computed value glibc's (under
// symerr's accuracy model), the real one enclosed at 256 bits.
template <class F>
void elementary_fn(const char* name, LeanError<F> (*fn)(const LeanError<F>&), int (*ref)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t),
                F (*libm)(F), double lo, double hi) {
  std::mt19937_64 rng(31);
  std::uniform_real_distribution<double> u(0, 1);
  std::size_t violations = 0, executions = 0;
  double worst = 0, bound = 0;
  std::string first;
  mpfr_t x, a, b;
  mpfr_inits2(256, x, a, b, static_cast<mpfr_ptr>(nullptr));
  for (int k = 0; k < 40; ++k) {
    double l = to_f<F>(lo + (hi - lo) * u(rng)), h = to_f<F>(lo + (hi - lo) * u(rng));
    if (l > h) std::swap(l, h);
    const double e = std::fabs(l) * 1e-9 * u(rng);
    const LeanError<F> v = LeanError<F>::from_enclosures({l, h}, {-e, e});
    const LeanError<F> r = fn(v);
    bound = std::max(bound, r.err().mag());
    for (int j = 0; j < 200; ++j) {
      const double f = to_f<F>(j % 3 == 0 ? l : j % 3 == 1 ? h : l + (h - l) * u(rng));
      const double ee = j % 2 ? e : -e * u(rng);
      const double fp = static_cast<double>(libm(fop<F>(std::min(std::max(f, l), h))));
      const mpq_class real = q(std::min(std::max(f, l), h)) - q(ee);
      mpfr_set_q(x, real.get_mpq_t(), MPFR_RNDN);
      ref(a, x, MPFR_RNDD);
      ref(b, x, MPFR_RNDU);
      mpfr_d_sub(a, fp, a, MPFR_RNDU);
      mpfr_d_sub(b, fp, b, MPFR_RNDD);
      ++executions;
      worst = std::max(worst, std::fabs(mpfr_get_d(a, MPFR_RNDN)));
      if (!in(r.fp(), q(fp)) || mpfr_cmp_d(b, r.err().lo) < 0 || mpfr_cmp_d(a, r.err().hi) > 0) {
        if (violations++ == 0) {
          std::ostringstream os;
          os << name << "(" << v << ") = " << r << " misses fp " << fp;
          first = os.str();
        }
      }
    }
  }
  mpfr_clears(x, a, b, static_cast<mpfr_ptr>(nullptr));
  std::printf("lean %-6s %s: %zu executions, bound %.3g, largest observed %.3g\n", name,
              std::is_same_v<F, double> ? "FP64" : "FP32", executions, bound, worst);
  INFO(first);
  CHECK(violations == 0);
  CHECK(bound <= 8 * worst);  // twin: SymbolicError's bounds, within a few times of what glibc reaches
}

}  // namespace

TEST_CASE("LeanError sqrt and the elementary functions (through SymbolicError) against MPFR", "[dropin][lean]") {
  square_root<double>();
  square_root<float>();
  elementary_fn<double>("exp", [](const LeanDouble& x) { return exp(x); }, mpfr_exp, [](double x) { return std::exp(x); },
                     -5, 5);
  elementary_fn<double>("log", [](const LeanDouble& x) { return log(x); }, mpfr_log, [](double x) { return std::log(x); },
                     0.1, 100);
  elementary_fn<float>("tanh", [](const LeanFloat& x) { return tanh(x); }, mpfr_tanh,
                    [](float x) { return std::tanh(x); }, -3, 3);
}

namespace {

// A small kernel with every inline operation and a subnormal intermediate.
std::vector<LeanDouble> env_kernel() {
  const LeanDouble a = LeanDouble::input(-1, 1, -1e-12, 1e-12), b = LeanDouble::input(0.1, 0.7, 0, 1e-15);
  const LeanDouble tiny = LeanDouble::input(0x1p-1060, 0x1p-1050, -0x1p-1074, 0x1p-1074);
  std::vector<LeanDouble> out{a + b, a - b, a * b, a / b, fma(a, b, a), sqrt(b), tiny * 0.75, tiny + tiny,
                              LeanDouble(0.1) * a, fmax(a, b), fabs(a)};
  LeanDouble acc = 0;
  for (int i = 0; i < 16; ++i) acc += a * b;
  out.push_back(acc);
  return out;
}
bool same_bits(const std::vector<LeanDouble>& x, const std::vector<LeanDouble>& y) {
  if (x.size() != y.size()) return false;
  for (std::size_t i = 0; i < x.size(); ++i)
    if (std::memcmp(&x[i], &y[i], sizeof(LeanDouble)) != 0) return false;
  return true;
}

}  // namespace

namespace {
template <class A, class B>
constexpr bool addable = requires(A a, B b) { a + b; };
}  // namespace

TEST_CASE("LeanError owns its floating-point environment: the caller's rounding, FTZ/DAZ and traps change nothing",
          "[dropin][lean]") {
  const std::vector<LeanDouble> reference = env_kernel();
  for (const int mode : {FE_UPWARD, FE_DOWNWARD, FE_TOWARDZERO}) {
    std::fesetround(mode);
    const std::vector<LeanDouble> r = env_kernel();
    CHECK(std::fegetround() == mode);  // the caller's mode is restored
    std::fesetround(FE_TONEAREST);
    INFO("rounding mode " << mode);
    CHECK(same_bits(r, reference));
  }
#if defined(__x86_64__) && defined(__SSE2_MATH__)
  const unsigned saved = detail::read_mxcsr();
  detail::write_mxcsr(saved | detail::kMxcsrFtz | detail::kMxcsrDaz);
  const std::vector<LeanDouble> ftz = env_kernel();
  const unsigned after = detail::read_mxcsr();
  detail::write_mxcsr(saved);
  CHECK((after & (detail::kMxcsrFtz | detail::kMxcsrDaz)) == (detail::kMxcsrFtz | detail::kMxcsrDaz));
  CHECK(same_bits(ftz, reference));
  // every exception unmasked: an inexact operation of the library would trap (SIGFPE)
  detail::write_mxcsr(saved & ~detail::kMxcsrMasks);
  const std::vector<LeanDouble> traps = env_kernel();
  detail::write_mxcsr(saved);
  CHECK(same_bits(traps, reference));
#endif
}

TEST_CASE("LeanError literals: exact reals rounded into the format as error, comparisons with the exact value",
          "[dropin][lean]") {
  // a literal that is not a value of FP32: its rounding is its error
  const LeanFloat x = 0.1;
  CHECK(x.fp().lo == static_cast<double>(0.1f));
  CHECK(x.err().lo == static_cast<double>(0.1f) - 0.1);
  CHECK(x.err().hi == x.err().lo);
  CHECK(LeanDouble(0.1).err().mag() == 0);
  CHECK(LeanFloat(0.5).err().mag() == 0);
  // integers beyond 2^53 (FP64) and 2^24 (FP32): C's one conversion
  const LeanDouble big = (1LL << 60) + 1;
  CHECK(big.fp().lo == 0x1p60);
  CHECK(big.err().lo == -1.0);
  const LeanFloat i24 = 16777217;
  CHECK(i24.fp().lo == 16777216.0);
  CHECK(i24.err().lo == -1.0);
  // comparisons: with the literal's exact value in both programs
  CHECK_FALSE(x < 0.1);  // float(0.1) > 0.1, and the real 0.1 is not < 0.1
  CHECK(x > 0.0);
  CHECK_THROWS_WITH(x == 0.1, Catch::Contains("unstable"));  // computed: false; real: true
  const LeanDouble box = LeanDouble::input(-1, 1, -1e-12, 1e-12);
  CHECK(box < 2);
  CHECK(2.0 > box);
  CHECK_THROWS_AS(box < 0, UndecidedBranch);
  CHECK_FALSE(box != box);  // one object with itself (C's NaN test): decided
  CHECK(box <= box);
  const LeanDouble copy = box;
  CHECK_THROWS_AS(copy == box, UndecidedBranch);  // a copy is not known to hold the same value: undecided
  CHECK_THROWS_WITH(box < 0.5, Catch::Contains("LeanError<FP64>") && Catch::Contains("fp [") &&
                                   Catch::Contains("real [") && Catch::Contains("run_kernel"));
  // mixed arithmetic with numbers on either side, compound operators
  LeanDouble y = 2.0 * LeanDouble::input(-1, 1) + 1;  // [-2, 2] + 1 = [-1, 3]
  y -= 1;
  y /= 2;
  CHECK(y.fp().lo == -1.0);
  CHECK(y.fp().hi == 1.0);
  // two formats do not mix: no operator exists
  static_assert(!addable<LeanDouble, LeanFloat> && !addable<LeanFloat, LeanDouble>);
  static_assert(addable<LeanDouble, int> && addable<float, LeanFloat>);
  static_assert(std::is_trivially_copyable_v<LeanFloat> && sizeof(LeanFloat) == 48);
  // the format's limits, as exact constants; no infinity (a clear error, not a silent 0)
  CHECK(std::numeric_limits<LeanFloat>::lowest().fp().lo == -static_cast<double>(FLT_MAX));
  CHECK(std::numeric_limits<LeanDouble>::max().fp().hi == DBL_MAX);
  CHECK(std::numeric_limits<LeanDouble>::epsilon().err().mag() == 0);
  CHECK(std::numeric_limits<LeanFloat>::digits == 24);
  CHECK_THROWS_WITH(std::numeric_limits<LeanDouble>::infinity(), Catch::Contains("no infinities"));
  LeanDouble m = std::numeric_limits<LeanDouble>::lowest();  // a running maximum of negative values
  for (double v : {-3.0, -2.0, -5.0}) m = fmax(m, LeanDouble(v));
  CHECK(m.fp().lo == -2.0);
}

TEST_CASE("LeanError refuses what it cannot bound, by name: overflow, 0 divisors, negative roots, bad ranges",
          "[dropin][lean]") {
  const LeanDouble huge = LeanDouble::input(1e300, 1e308), box = LeanDouble::input(-1, 1, -1e-12, 1e-12);
  CHECK_THROWS_WITH(huge * huge, Catch::Contains("a * b may overflow") && Catch::Contains("fp [1.0000000000000001e+300"));
  CHECK_THROWS_WITH(huge + huge, Catch::Contains("a + b may overflow"));
  CHECK_THROWS_WITH(1 / box, Catch::Contains("the divisor's range holds 0"));
  CHECK_THROWS_WITH(sqrt(box), Catch::Contains("sqrt(a): a may be negative"));
  CHECK_THROWS_WITH(LeanFloat(1e39), Catch::Contains("overflows the format"));
  CHECK_THROWS_WITH(LeanDouble(NAN), Catch::Contains("must be finite"));
  CHECK_THROWS_WITH(copysign(box, box), Catch::Contains("copysign") && Catch::Contains("sign of s"));
  CHECK_THROWS_AS(LeanDouble::input(1, 0), std::invalid_argument);
  CHECK_THROWS_AS(LeanDouble::input(NAN, 1), std::invalid_argument);
  CHECK_THROWS_WITH(LeanFloat::from_enclosures({0.1, 0.2}, {0, 0}), Catch::Contains("values of FP32"));
  CHECK_THROWS_WITH(exp(LeanDouble::input(0, 800)), Catch::Contains("exp(x) may be infinite"));
  // near the edge: the largest finite sum is fine
  const LeanDouble m = LeanDouble::input(0x1p1022, 0x1p1022);
  CHECK((m + m).fp().hi == 0x1p1023);
}
