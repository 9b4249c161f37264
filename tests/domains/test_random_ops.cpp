// Property tests of the three domains against exact oracles (GMP rationals;
// sqrt through exact squaring): soundness on >= 10^5 random operand pairs per
// domain x operation, and its tightness twin (a result that is "everything"
// or one grid step too wide fails).
//
// Operand shapes: wide, narrow, point, zero-crossing, huge (near 1e308),
// tiny (subnormal), infinite endpoints, rational endpoints, full-range mixed.
// For each trial, concrete points are sampled inside the operands (endpoints
// plus random interior points, as exact rationals) and the exact result must
// lie in the computed enclosure. Counts scale with SYMERR_TEST_SCALE (default 1).
#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <symerr/domains/interval.hpp>
#include <symerr/domains/mpfr_interval.hpp>
#include <symerr/domains/rational_interval.hpp>
#include "test_scale.hpp"

using namespace symerr;

namespace {

constexpr double inf = std::numeric_limits<double>::infinity();
constexpr unsigned long long default_seed = 0x5eed'd0a1'2024ULL;

long trial_count(long base) {
  const long n = static_cast<long>(static_cast<double>(base) * symerr::test::test_scale());
  return n < 1 ? 1 : n;
}

// ---- the oracle's number type: a rational or an infinity (test-side, independent
// of the library's ExtendedRational) ----

struct Ext {
  mpq_class q;  // the value when finite
  int inf = 0;  // -1, +1 for -inf, +inf
  bool finite() const { return inf == 0; }
};

Ext ext(const mpq_class& q) { return {q, 0}; }
Ext ext(double d) { return std::isinf(d) ? Ext{0, d > 0 ? 1 : -1} : Ext{mpq_class(d), 0}; }

int compare(const Ext& x, const Ext& y) {
  if (x.inf != y.inf) return x.inf < y.inf ? -1 : 1;
  if (!x.finite()) return 0;
  return cmp(x.q, y.q);
}
int compare(const Ext& x, const mpq_class& q) { return x.finite() ? cmp(x.q, q) : x.inf; }

std::string show(const mpq_class& q) {
  char buf[64];
  std::snprintf(buf, sizeof buf, " (~%a)", q.get_d());
  return q.get_str() + buf;
}
std::string show(const Ext& x) { return x.finite() ? show(x.q) : (x.inf > 0 ? "+inf" : "-inf"); }

struct Bounds {
  Ext lo, hi;
  bool bounded() const { return lo.finite() && hi.finite(); }
  bool contains(const mpq_class& q) const { return compare(lo, q) <= 0 && compare(hi, q) >= 0; }
};

// ---- per-domain access: exact endpoints, printing, grid neighbours ----

template <class D> struct Traits;

template <> struct Traits<Interval> {
  static constexpr const char* name = "Interval";
  static constexpr bool exact_arith = false;
  static Bounds bounds(const Interval& a) { return {ext(a.lower()), ext(a.upper())}; }
  static std::string show(const Interval& a) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "[%a, %a]", a.lower(), a.upper());
    return buf;
  }
  // The grid neighbours of the result's lower endpoint (above) and upper endpoint (below).
  static double succ_lower(const Interval& r) { return std::nextafter(r.lower(), inf); }
  static double pred_upper(const Interval& r) { return std::nextafter(r.upper(), -inf); }
};

Ext ext(mpfr_srcptr x) {
  if (mpfr_inf_p(x)) return {0, mpfr_sgn(x) > 0 ? 1 : -1};
  Ext e;
  mpfr_get_q(e.q.get_mpq_t(), x);
  return e;
}

template <> struct Traits<MpfrInterval> {
  static constexpr const char* name = "MpfrInterval";
  static constexpr bool exact_arith = false;
  static Bounds bounds(const MpfrInterval& a) { return {ext(a.lower_mpfr()), ext(a.upper_mpfr())}; }
  static std::string show(const MpfrInterval& a) {
    char* s = nullptr;
    mpfr_asprintf(&s, "[%Ra, %Ra] (%ld bits)", a.lower_mpfr(), a.upper_mpfr(),
                  static_cast<long>(a.precision()));
    std::string r(s);
    mpfr_free_str(s);
    return r;
  }
  // Kept as an MpfrInterval point, not converted to a rational: the
  // neighbour of 0 is 2^(emin-1), a rational of 2^30 bits.
  static MpfrInterval neighbour(mpfr_srcptr x, bool above) {
    mpfr_t t;
    mpfr_init2(t, mpfr_get_prec(x));
    mpfr_set(t, x, MPFR_RNDN);
    above ? mpfr_nextabove(t) : mpfr_nextbelow(t);
    MpfrInterval n = MpfrInterval::between(t, t, mpfr_get_prec(x));
    mpfr_clear(t);
    return n;
  }
  static MpfrInterval succ_lower(const MpfrInterval& r) { return neighbour(r.lower_mpfr(), true); }
  static MpfrInterval pred_upper(const MpfrInterval& r) { return neighbour(r.upper_mpfr(), false); }
};

// Signs of n - v and n^2 - v for a grid neighbour n (double or MPFR point).
int compare(double n, const Ext& v) { return compare(ext(n), v); }
int compare(const MpfrInterval& n, const Ext& v) {
  return v.finite() ? mpfr_cmp_q(n.lower_mpfr(), v.q.get_mpq_t()) : -v.inf;
}
int compare_square(double n, const mpq_class& v) {
  if (std::isinf(n)) return 1;
  const mpq_class q(n);
  return cmp(q * q, v);
}
int compare_square(const MpfrInterval& n, const mpq_class& v) {
  mpfr_srcptr x = n.lower_mpfr();
  if (mpfr_inf_p(x)) return 1;
  if (mpfr_zero_p(x)) return -sgn(v);
  if (sgn(v) == 0) return 1;  // x^2 > 0 even where it underflows (x = 2^(emin-1))
  const mpfr_exp_t emin = mpfr_get_emin();
  mpfr_set_emin(mpfr_get_emin_min());
  mpfr_t sq;  // exact: 2p bits and the widest exponent range hold the square
  mpfr_init2(sq, 2 * mpfr_get_prec(x));
  mpfr_sqr(sq, x, MPFR_RNDN);
  const int c = mpfr_cmp_q(sq, v.get_mpq_t());
  mpfr_clear(sq);
  mpfr_set_emin(emin);
  return c;
}

template <> struct Traits<RationalInterval> {
  static constexpr const char* name = "RationalInterval";
  static constexpr bool exact_arith = true;
  static Ext ext_of(const ExtendedRational& x) { return {x.value, x.infinity}; }
  static Bounds bounds(const RationalInterval& a) {
    return {ext_of(a.lower_exact()), ext_of(a.upper_exact())};
  }
  static std::string show(const RationalInterval& a) {
    const Bounds b = bounds(a);
    return "[" + ::show(b.lo) + ", " + ::show(b.hi) + "]";
  }
};

// ---- random operands ----

struct Rng {
  std::mt19937_64 eng;
  explicit Rng(unsigned long long seed) : eng(seed) {}
  double unit() { return static_cast<double>(eng() >> 11) * 0x1p-53; }  // [0, 1)
  long range(long lo, long hi) { return std::uniform_int_distribution<long>(lo, hi)(eng); }
  bool coin(double p = 0.5) { return unit() < p; }
  double sign() { return coin() ? 1.0 : -1.0; }
};

double moderate(Rng& r) { return r.sign() * std::ldexp(1.0 + r.unit(), static_cast<int>(r.range(-30, 30))); }
double huge(Rng& r) {
  if (r.coin(0.1)) return r.sign() * std::numeric_limits<double>::max();
  return r.sign() * std::ldexp(1.0 + r.unit(), static_cast<int>(r.range(1000, 1023)));
}
double tiny(Rng& r) {  // subnormal or the smallest normals
  if (r.coin(0.1)) return r.sign() * std::numeric_limits<double>::denorm_min();
  return r.sign() * std::ldexp(static_cast<double>(r.range(1, (1L << 53) - 1)), -1074);
}
double any_finite(Rng& r) {
  switch (r.range(0, 6)) {
    case 0: return r.coin() ? 0.0 : -0.0;
    case 1: return huge(r);
    case 2: return tiny(r);
    case 3: return r.sign() * std::ldexp(1.0 + r.unit(), static_cast<int>(r.range(-1074, 1023)));
    case 4: return static_cast<double>(r.range(-8, 8));
    default: return moderate(r);
  }
}
double up_ulps(double x, long k) {
  for (long i = 0; i < k; ++i) x = std::nextafter(x, inf);
  return x;
}

enum class Shape { Wide, Narrow, Point, ZeroCrossing, Huge, Tiny, Infinite, Rational, Mixed, Count };
const char* to_string(Shape s) {
  static const char* names[] = {"wide", "narrow", "point", "zero-crossing", "huge",
                                "tiny", "infinite", "rational", "mixed"};
  return names[static_cast<int>(s)];
}

// An operand before it is made into a domain value: double endpoints, or
// rational endpoints (made by hull(from_rational(lo), from_rational(hi))).
struct Spec {
  Shape shape;
  double lo = 0, hi = 0;
  mpq_class qlo, qhi;
  mpfr_prec_t bits = 53;  // MpfrInterval precision of this operand
};

mpq_class random_rational(Rng& r) {
  mpq_class q(mpz_class(static_cast<long>(r.range(-(1L << 40), 1L << 40))),
              mpz_class(static_cast<long>(r.range(0, 1L << 20)) * 2 + 1));
  q.canonicalize();
  const long e = r.coin(0.2) ? r.range(-1100, 1100) : r.range(-40, 40);
  if (e >= 0) mpq_mul_2exp(q.get_mpq_t(), q.get_mpq_t(), static_cast<mp_bitcnt_t>(e));
  else mpq_div_2exp(q.get_mpq_t(), q.get_mpq_t(), static_cast<mp_bitcnt_t>(-e));
  return q;
}

void order(double& a, double& b) {
  if (b < a) std::swap(a, b);
}

Spec random_spec(Rng& r, bool bounded) {
  static const mpfr_prec_t precisions[] = {8, 24, 53, 53, 64, 113, 128, 200};
  Spec s;
  s.bits = precisions[r.range(0, 7)];
  const int shapes = static_cast<int>(Shape::Count);
  do {
    s.shape = static_cast<Shape>(r.range(0, shapes - 1));
  } while (bounded && s.shape == Shape::Infinite);
  switch (s.shape) {
    case Shape::Wide: s.lo = moderate(r), s.hi = moderate(r); break;
    case Shape::Narrow: s.lo = any_finite(r), s.hi = up_ulps(s.lo, r.range(1, 8)); break;
    case Shape::Point: s.lo = s.hi = any_finite(r); break;
    case Shape::ZeroCrossing:
      s.lo = r.coin(0.2) ? (r.coin() ? 0.0 : -0.0) : -std::fabs(any_finite(r));
      s.hi = r.coin(0.2) ? 0.0 : std::fabs(any_finite(r));
      break;
    case Shape::Huge: s.lo = huge(r), s.hi = huge(r); break;
    case Shape::Tiny: s.lo = tiny(r), s.hi = tiny(r); break;
    case Shape::Infinite:
      switch (r.range(0, 2)) {
        case 0: s.lo = -inf, s.hi = any_finite(r); break;
        case 1: s.lo = any_finite(r), s.hi = inf; break;
        default: s.lo = -inf, s.hi = inf;
      }
      break;
    case Shape::Rational:
      s.qlo = random_rational(r), s.qhi = r.coin(0.2) ? s.qlo : random_rational(r);
      if (s.qhi < s.qlo) swap(s.qlo, s.qhi);
      break;
    default: s.lo = any_finite(r), s.hi = any_finite(r);
  }
  if (std::isinf(s.hi) && s.hi < 0) s.hi = s.lo;  // Narrow cannot overflow up, but be safe
  order(s.lo, s.hi);
  return s;
}

// The same operand moved to [0, inf): for sqrt, whose interesting part is there.
Spec nonneg(Spec s) {
  s.lo = std::fabs(s.lo), s.hi = std::fabs(s.hi);
  order(s.lo, s.hi);
  s.qlo = abs(s.qlo), s.qhi = abs(s.qhi);
  if (s.qhi < s.qlo) swap(s.qlo, s.qhi);
  return s;
}

template <class D> D build(const Spec& s) {
  MpfrInterval::PrecisionScope scope(s.bits);
  if (s.shape == Shape::Rational) return hull(D::from_rational(s.qlo), D::from_rational(s.qhi));
  return D::between(s.lo, s.hi);
}

// A second operand near the first: overlapping, touching, equal or nested,
// so that intersect and the comparisons see their interesting cases.
template <class D> D build_related(const D& a, const std::vector<mpq_class>& points, Rng& r, mpfr_prec_t bits) {
  MpfrInterval::PrecisionScope scope(bits);
  if (points.empty() || r.coin(0.2)) return a;
  const mpq_class& x = points[static_cast<size_t>(r.range(0, static_cast<long>(points.size()) - 1))];
  const mpq_class d1 = r.coin(0.3) ? mpq_class(0) : abs(random_rational(r));
  const mpq_class d2 = r.coin(0.3) ? mpq_class(0) : abs(random_rational(r));
  return hull(D::from_rational(x - d1), D::from_rational(x + d2));
}

mpq_class random_fraction(Rng& r) {  // in [0, 1]; mostly dyadic (cheap), some with odd denominators
  if (r.coin(0.75)) return mpq_class(mpz_class(static_cast<long>(r.range(0, 1L << 32))), mpz_class(1L << 32));
  const long n = r.range(1, 1L << 20) * 2 + 1;
  mpq_class t(mpz_class(r.range(0, n)), mpz_class(n));
  t.canonicalize();
  return t;
}

mpq_class random_offset(Rng& r) {  // >= 0, any magnitude, also beyond double range
  mpq_class q(mpz_class(static_cast<long>(r.range(0, (1L << 53) - 1))));
  const long e = r.range(-1100, 1100);
  if (e >= 0) mpq_mul_2exp(q.get_mpq_t(), q.get_mpq_t(), static_cast<mp_bitcnt_t>(e));
  else mpq_div_2exp(q.get_mpq_t(), q.get_mpq_t(), static_cast<mp_bitcnt_t>(-e));
  return q;
}

// Finite points of the enclosed set: the finite endpoints and `interior` random points.
std::vector<mpq_class> sample(const Bounds& b, Rng& r, int interior) {
  std::vector<mpq_class> xs;
  if (b.lo.finite()) xs.push_back(b.lo.q);
  if (b.hi.finite() && !(b.lo.finite() && b.lo.q == b.hi.q)) xs.push_back(b.hi.q);
  for (int i = 0; i < interior; ++i) {
    if (b.bounded()) {
      xs.push_back(b.lo.q + random_fraction(r) * (b.hi.q - b.lo.q));
    } else if (b.lo.finite() && b.hi.inf > 0) {
      xs.push_back(b.lo.q + random_offset(r));
    } else if (b.hi.finite() && b.lo.inf < 0) {
      xs.push_back(b.hi.q - random_offset(r));
    } else if (b.lo.inf < 0 && b.hi.inf > 0) {
      xs.push_back(r.coin() ? random_offset(r) : mpq_class(-random_offset(r)));
    }
  }
  return xs;
}

// ---- the operations under test and their exact meaning ----

enum class Op { Add, Sub, Mul, Div, Sqrt, Neg, Abs, Hull, Intersect, Compare };
const char* to_string(Op op) {
  static const char* names[] = {"+", "-", "*", "/", "sqrt", "neg", "abs", "hull", "intersect", "cmp_*"};
  return names[static_cast<int>(op)];
}
bool is_binary(Op op) { return op != Op::Sqrt && op != Op::Neg && op != Op::Abs; }

template <class D> D apply(Op op, const D& a, const D& b) {
  switch (op) {
    case Op::Add: return a + b;
    case Op::Sub: return a - b;
    case Op::Mul: return a * b;
    case Op::Div: return a / b;
    case Op::Sqrt: return sqrt(a);
    case Op::Neg: return -a;
    case Op::Abs: return abs(a);
    case Op::Hull: return hull(a, b);
    default: return a;
  }
}

mpq_class exact(Op op, const mpq_class& x, const mpq_class& y) {
  switch (op) {
    case Op::Add: return x + y;
    case Op::Sub: return x - y;
    case Op::Mul: return x * y;
    case Op::Div: return x / y;
    case Op::Neg: return -x;
    default: return abs(x);
  }
}

// r.lo <= sqrt(x) <= r.hi for x >= 0, decided by exact squaring.
bool encloses_sqrt(const Bounds& r, const mpq_class& x) {
  const bool lo_ok = compare(r.lo, mpq_class(0)) <= 0 || (r.lo.finite() && r.lo.q * r.lo.q <= x);
  const bool hi_ok = r.hi.inf > 0 || (r.hi.finite() && sgn(r.hi.q) >= 0 && r.hi.q * r.hi.q >= x);
  return lo_ok && hi_ok;
}

enum class Rel { Lt, Le, Gt, Ge, Eq, Ne };
const char* to_string(Rel r) {
  static const char* names[] = {"cmp_lt", "cmp_le", "cmp_gt", "cmp_ge", "cmp_eq", "cmp_ne"};
  return names[static_cast<int>(r)];
}
template <class D> std::array<std::pair<Rel, Tri>, 6> all_cmp(const D& a, const D& b) {
  return {{{Rel::Lt, cmp_lt(a, b)}, {Rel::Le, cmp_le(a, b)}, {Rel::Gt, cmp_gt(a, b)},
           {Rel::Ge, cmp_ge(a, b)}, {Rel::Eq, cmp_eq(a, b)}, {Rel::Ne, cmp_ne(a, b)}}};
}
bool relation_holds(Rel rel, const mpq_class& x, const mpq_class& y) {
  const int c = cmp(x, y);
  switch (rel) {
    case Rel::Lt: return c < 0;
    case Rel::Le: return c <= 0;
    case Rel::Gt: return c > 0;
    case Rel::Ge: return c >= 0;
    case Rel::Eq: return c == 0;
    default: return c != 0;
  }
}

// Collects failures; prints the first few in full (operands in %a hex floats).
struct Failures {
  long count = 0;
  void report(const std::string& what) {
    if (++count <= 5) FAIL_CHECK(what);
  }
};

// Where a failing trial came from: the seed, the trial number, the shapes.
struct Origin {
  unsigned long long seed;
  long trial;
  Shape shape_a, shape_b;
};

template <class D> std::string describe(Op op, const D& a, const D& b, const D* result, const Origin& o) {
  using T = Traits<D>;
  std::ostringstream os;
  os << T::name << " " << to_string(op) << " seed " << o.seed << " trial " << o.trial << " shapes "
     << to_string(o.shape_a) << ", " << to_string(o.shape_b) << "\n  a = " << T::show(a);
  if (is_binary(op)) os << "\n  b = " << T::show(b);
  if (result) os << "\n  result = " << T::show(*result);
  return os.str();
}

// ---- soundness ----

template <class D>
void check_soundness(Op op, const D& a, const D& b, Rng& rng, Failures& f, const Origin& origin) {
  using T = Traits<D>;
  const Bounds ba = T::bounds(a), bb = T::bounds(b);
  const auto xs = sample(ba, rng, is_binary(op) ? 1 : 2);
  const auto ys = is_binary(op) ? sample(bb, rng, 1) : std::vector<mpq_class>{};
  auto fail = [&](const D* r, const std::string& detail) {
    f.report(describe(op, a, b, r, origin) + "\n  " + detail);
  };
  if (op == Op::Compare) {
    for (const auto& [rel, answer] : all_cmp(a, b)) {
      if (answer == Tri::Unknown) continue;
      for (const auto& x : xs)
        for (const auto& y : ys)
          if (relation_holds(rel, x, y) != (answer == Tri::True))
            fail(nullptr, std::string(to_string(rel)) + " = " + symerr::to_string(answer) +
                              " contradicted by x = " + show(x) + ", y = " + show(y));
    }
    return;
  }
  if (op == Op::Intersect) {
    const auto r = intersect(a, b);
    const Bounds br = r ? T::bounds(*r) : Bounds{};
    for (const auto& x : xs)
      if (bb.contains(x) && !(r && br.contains(x))) fail(r ? &*r : nullptr, "misses x = " + show(x));
    for (const auto& y : ys)
      if (ba.contains(y) && !(r && br.contains(y))) fail(r ? &*r : nullptr, "misses y = " + show(y));
    const bool disjoint = compare(ba.hi, bb.lo) < 0 || compare(bb.hi, ba.lo) < 0;
    if (!r && !disjoint) fail(nullptr, "nullopt for intersecting operands");
    return;
  }
  const D r = apply(op, a, b);
  const Bounds br = T::bounds(r);
  if (!(compare(br.lo, br.hi) <= 0)) fail(&r, "lower above upper");
  if (op == Op::Div && bb.contains(mpq_class(0))) {
    if (br.lo.inf >= 0 || br.hi.inf <= 0) fail(&r, "0 in b but the quotient is not whole()");
    return;
  }
  if (op == Op::Hull) {
    const bool ok = compare(br.lo, ba.lo) <= 0 && compare(br.lo, bb.lo) <= 0 &&
                    compare(br.hi, ba.hi) >= 0 && compare(br.hi, bb.hi) >= 0;
    if (!ok) fail(&r, "hull misses part of an operand");
    return;
  }
  if (op == Op::Sqrt) {
    if (compare(ba.hi, mpq_class(0)) <= 0 && !(compare(br.lo, mpq_class(0)) == 0 && compare(br.hi, mpq_class(0)) == 0))
      fail(&r, "sqrt of a <= 0 is not [0, 0]");
    for (const auto& x : xs)
      if (sgn(x) >= 0 && !encloses_sqrt(br, x)) fail(&r, "misses sqrt(x), x = " + show(x));
    return;
  }
  if (!is_binary(op)) {
    for (const auto& x : xs)
      if (!br.contains(exact(op, x, x))) fail(&r, "misses f(x), x = " + show(x));
    return;
  }
  for (const auto& x : xs)
    for (const auto& y : ys)
      if (!br.contains(exact(op, x, y)))
        fail(&r, "misses x op y = " + show(exact(op, x, y)) + "\n  x = " + show(x) + "\n  y = " + show(y));
}

template <class D> void run_soundness(Op op, long trials, unsigned long long seed) {
  Rng rng(seed);
  Failures f;
  for (long t = 0; t < trials; ++t) {
    Spec sa = random_spec(rng, false);
    if (op == Op::Sqrt && rng.coin(0.7)) sa = nonneg(sa);
    const D a = build<D>(sa);
    D b = a;
    Shape shape_b = sa.shape;
    if (is_binary(op)) {
      if (rng.coin(0.25)) {
        b = build_related(a, sample(Traits<D>::bounds(a), rng, 1), rng, sa.bits);
      } else {
        const Spec sb = random_spec(rng, false);
        b = build<D>(sb);
        shape_b = sb.shape;
      }
    }
    check_soundness(op, a, b, rng, f, Origin{seed, t, sa.shape, shape_b});
  }
  INFO(Traits<D>::name << " " << to_string(op) << ": " << trials << " trials");
  CHECK(f.count == 0);
}

}  // namespace

TEMPLATE_TEST_CASE("Random operands: every result encloses the exact result", "[domains][soundness]",
                   Interval, MpfrInterval, RationalInterval) {
  const long n = trial_count(100000);
  const Op ops[] = {Op::Add, Op::Sub, Op::Mul, Op::Div, Op::Sqrt, Op::Neg,
                    Op::Abs, Op::Hull, Op::Intersect, Op::Compare};
  for (Op op : ops) run_soundness<TestType>(op, n, default_seed + static_cast<unsigned>(op));
}

TEMPLATE_TEST_CASE("Random operands, long run: every result encloses the exact result", "[domains][soundness][.][long]",
                   Interval, MpfrInterval, RationalInterval) {
  const long n = trial_count(1000000);
  const Op ops[] = {Op::Add, Op::Sub, Op::Mul, Op::Div, Op::Sqrt, Op::Neg,
                    Op::Abs, Op::Hull, Op::Intersect, Op::Compare};
  for (Op op : ops) run_soundness<TestType>(op, n, 0xabcdef + static_cast<unsigned>(op));
}

// ---- tightness: the twin of every soundness test ----
//
// On bounded operands the best enclosure of x op y is known exactly: the
// image [L, U] over the corners (+ - * /: the extremes are at endpoints),
// rounded outward to the domain's grid. Interval must give [RD(L), RU(U)]
// (doubles), MpfrInterval the same at the result's precision, checked as
// lo <= L < succ(lo) and pred(hi) < U <= hi (so each side is within one grid
// step: at most 1 ulp, resp. 2^(1-P) relative); RationalInterval exactly [L, U].
// neg, abs, hull, intersect are exact in every domain; the cmp_* answers are
// the best possible ones.

namespace {

Ext min_of(const std::vector<Ext>& v) {
  Ext m = v[0];
  for (const auto& x : v)
    if (compare(x, m) < 0) m = x;
  return m;
}
Ext max_of(const std::vector<Ext>& v) {
  Ext m = v[0];
  for (const auto& x : v)
    if (compare(x, m) > 0) m = x;
  return m;
}

// The exact image of op over bounded a, b (0 not in b for /).
Bounds ideal(Op op, const Bounds& a, const Bounds& b) {
  const mpq_class &al = a.lo.q, &ah = a.hi.q, &bl = b.lo.q, &bh = b.hi.q;
  switch (op) {
    case Op::Add: return {ext(al + bl), ext(ah + bh)};
    case Op::Sub: return {ext(al - bh), ext(ah - bl)};
    case Op::Mul:
    case Op::Div: {
      std::vector<Ext> c;
      for (const auto* x : {&al, &ah})
        for (const auto* y : {&bl, &bh}) c.push_back(ext(exact(op, *x, *y)));
      return {min_of(c), max_of(c)};
    }
    case Op::Neg: return {ext(-ah), ext(-al)};
    case Op::Abs:
      if (sgn(al) >= 0) return a;
      if (sgn(ah) <= 0) return {ext(-ah), ext(-al)};
      return {ext(mpq_class(0)), ext(std::max(mpq_class(-al), ah))};
    case Op::Hull: return {ext(std::min(al, bl)), ext(std::max(ah, bh))};
    default: return {ext(std::max(al, bl)), ext(std::min(ah, bh))};  // Intersect
  }
}

bool same(const Bounds& x, const Bounds& y) { return compare(x.lo, y.lo) == 0 && compare(x.hi, y.hi) == 0; }

// "" if r is the tightest enclosure of op over a, b on D's grid; else why not.
template <class D> std::string tightness_defect(Op op, const D& a, const D& b, const D& r) {
  using T = Traits<D>;
  const Bounds ba = T::bounds(a), bb = T::bounds(b), br = T::bounds(r);
  if constexpr (std::is_same_v<D, MpfrInterval>) {
    const auto p = is_binary(op) ? std::max(a.precision(), b.precision()) : a.precision();
    if (r.precision() != p) return "result precision is not the operands' maximum";
  }
  if (op == Op::Sqrt) {
    const mpq_class lo = std::max(ba.lo.q, mpq_class(0)), hi = ba.hi.q;
    if (sgn(hi) <= 0) return same(br, {ext(mpq_class(0)), ext(mpq_class(0))}) ? "" : "sqrt of a <= 0 is not [0, 0]";
    if (!br.bounded() || sgn(br.lo.q) < 0) return "sqrt result unbounded or negative";
    if (br.lo.q * br.lo.q > lo || br.hi.q * br.hi.q < hi) return "sqrt result misses an endpoint image";
    if constexpr (T::exact_arith) {  // each side within 2^-250 relative of the exact root
      const mpq_class up(mpz_class(1) + (mpz_class(1) << 250), mpz_class(1) << 250);
      const mpq_class down((mpz_class(1) << 250) - 1, mpz_class(1) << 250);
      const mpq_class l = br.lo.q * up, h = br.hi.q * down;
      if (l * l < lo || h * h > hi) return "sqrt endpoint farther than 2^-250 relative from the exact root";
    } else {
      const auto s = T::succ_lower(r), p = T::pred_upper(r);
      if (!(compare_square(s, lo) > 0)) return "sqrt lower endpoint one step too low";
      if (!(compare(p, ext(mpq_class(0))) < 0 || compare_square(p, hi) < 0))
        return "sqrt upper endpoint one step too high";
    }
    return "";
  }
  const Bounds e = ideal(op, ba, bb);
  if (T::exact_arith || op == Op::Neg || op == Op::Abs || op == Op::Hull)
    return same(br, e) ? "" : "not the exact image " + ("[" + show(e.lo) + ", " + show(e.hi) + "]");
  if constexpr (!T::exact_arith) {
    if (!(compare(br.lo, e.lo) <= 0 && compare(T::succ_lower(r), e.lo) > 0))
      return "lower endpoint is not the exact minimum " + show(e.lo) + " rounded down";
    if (!(compare(T::pred_upper(r), e.hi) < 0 && compare(e.hi, br.hi) <= 0))
      return "upper endpoint is not the exact maximum " + show(e.hi) + " rounded up";
  }
  return "";
}

// The best three-valued answers for bounded closed intervals.
Tri best_lt(const Bounds& a, const Bounds& b) {
  if (compare(a.hi, b.lo) < 0) return Tri::True;
  if (compare(a.lo, b.hi) >= 0) return Tri::False;
  return Tri::Unknown;
}
Tri best_le(const Bounds& a, const Bounds& b) {
  if (compare(a.hi, b.lo) <= 0) return Tri::True;
  if (compare(a.lo, b.hi) > 0) return Tri::False;
  return Tri::Unknown;
}
Tri best_eq(const Bounds& a, const Bounds& b) {
  if (compare(a.hi, b.lo) < 0 || compare(b.hi, a.lo) < 0) return Tri::False;
  if (compare(a.lo, a.hi) == 0 && same(a, b)) return Tri::True;
  return Tri::Unknown;
}

template <class D> std::string compare_defect(const D& a, const D& b) {
  const Bounds ba = Traits<D>::bounds(a), bb = Traits<D>::bounds(b);
  const std::pair<Tri, Tri> answers[] = {
      {cmp_lt(a, b), best_lt(ba, bb)}, {cmp_le(a, b), best_le(ba, bb)}, {cmp_gt(a, b), best_lt(bb, ba)},
      {cmp_ge(a, b), best_le(bb, ba)}, {cmp_eq(a, b), best_eq(ba, bb)}, {cmp_ne(a, b), !best_eq(ba, bb)}};
  const char* names[] = {"lt", "le", "gt", "ge", "eq", "ne"};
  for (int i = 0; i < 6; ++i)
    if (answers[i].first != answers[i].second)
      return std::string("cmp_") + names[i] + " = " + symerr::to_string(answers[i].first) + ", best " +
             symerr::to_string(answers[i].second);
  return "";
}

template <class D> void run_tightness(Op op, long trials, unsigned long long seed, bool points_only) {
  Rng rng(seed);
  Failures f;
  long checked = 0;
  for (long t = 0; t < trials; ++t) {
    Spec sa = random_spec(rng, true), sb = random_spec(rng, true);
    if (points_only) sa.shape = sb.shape = Shape::Point, sa.hi = sa.lo, sb.hi = sb.lo;
    if (op == Op::Sqrt && rng.coin(0.8)) sa = nonneg(sa);
    const D a = build<D>(sa);
    const D b = rng.coin(0.2) && !points_only ? build_related(a, sample(Traits<D>::bounds(a), rng, 1), rng, sa.bits)
                                              : build<D>(sb);
    if (!Traits<D>::bounds(a).bounded() || !Traits<D>::bounds(b).bounded()) continue;  // overflowed
    const Origin origin{seed, t, sa.shape, sb.shape};
    std::string defect;
    if (op == Op::Compare) {
      defect = compare_defect(a, b);
    } else if (op == Op::Intersect) {
      const auto r = intersect(a, b);
      const Bounds ba = Traits<D>::bounds(a), bb = Traits<D>::bounds(b);
      const Bounds e = ideal(op, ba, bb);
      if (compare(e.lo, e.hi) > 0) defect = r ? "not nullopt for disjoint operands" : "";
      else defect = !r ? "nullopt for intersecting operands" : same(Traits<D>::bounds(*r), e) ? "" : "not exact";
    } else {
      if (op == Op::Div && Traits<D>::bounds(b).contains(mpq_class(0))) continue;
      const D r = apply(op, a, b);
      defect = tightness_defect(op, a, b, r);
      if (!defect.empty()) defect = "result = " + Traits<D>::show(r) + "\n  " + defect;
    }
    ++checked;
    if (!defect.empty()) f.report(describe<D>(op, a, b, nullptr, origin) + "\n  " + defect);
  }
  INFO(Traits<D>::name << " " << to_string(op) << ": " << checked << " trials");
  CHECK(checked > trials / 2);
  CHECK(f.count == 0);
}

}  // namespace

TEMPLATE_TEST_CASE("Tightness twin: bounded operands give the tightest enclosure on the domain's grid",
                   "[domains][tightness]", Interval, MpfrInterval, RationalInterval) {
  const long n = trial_count(15000);
  const Op ops[] = {Op::Add, Op::Sub, Op::Mul, Op::Div, Op::Sqrt, Op::Neg,
                    Op::Abs, Op::Hull, Op::Intersect, Op::Compare};
  for (Op op : ops) run_tightness<TestType>(op, n, default_seed + 100 + static_cast<unsigned>(op), false);
}

TEMPLATE_TEST_CASE("Tightness twin: point operands (Interval within 1 ulp per side, MPFR 2^(1-P), rationals exact)",
                   "[domains][tightness]", Interval, MpfrInterval, RationalInterval) {
  const long n = trial_count(10000);
  for (Op op : {Op::Add, Op::Sub, Op::Mul, Op::Div, Op::Sqrt, Op::Compare})
    run_tightness<TestType>(op, n, default_seed + 200 + static_cast<unsigned>(op), true);
}

TEST_CASE("Point operands: explicit width bounds", "[domains][tightness]") {
  Rng rng(default_seed + 300);
  const long n = trial_count(20000);
  long failures = 0;
  for (long t = 0; t < n; ++t) {
    const double x = any_finite(rng), y = any_finite(rng);
    const mpq_class qx(x), qy(y);
    const Op op = static_cast<Op>(rng.range(0, 3));
    if (op == Op::Div && y == 0) continue;
    const mpq_class e = exact(op, qx, qy);
    CAPTURE(to_string(op));
    {  // Interval: lower <= e <= upper, each side within 1 ulp of e (unless e overflows)
      const Interval r = apply(op, Interval::point(x), Interval::point(y));
      const bool inside = compare(ext(r.lower()), e) <= 0 && compare(ext(r.upper()), e) >= 0;
      const bool lo_1ulp = compare(ext(std::nextafter(r.lower(), inf)), e) > 0;
      const bool hi_1ulp = compare(ext(std::nextafter(r.upper(), -inf)), e) < 0;
      if (!(inside && lo_1ulp && hi_1ulp)) {
        ++failures;
        char buf[160];
        std::snprintf(buf, sizeof buf, "x = %a, y = %a, result [%a, %a]", x, y, r.lower(), r.upper());
        FAIL_CHECK("Interval point result not within 1 ulp: " << buf);
      }
    }
    {  // MpfrInterval at P >= 53 bits (the point operands are exact): width <= 2^(1-P) |e|
      const mpfr_prec_t p = static_cast<mpfr_prec_t>(rng.range(53, 300));
      MpfrInterval::PrecisionScope scope(p);
      const MpfrInterval r = apply(op, MpfrInterval::point(x), MpfrInterval::point(y));
      const Bounds b = Traits<MpfrInterval>::bounds(r);
      mpq_class bound = abs(e);
      mpq_mul_2exp(bound.get_mpq_t(), bound.get_mpq_t(), 1);
      mpq_div_2exp(bound.get_mpq_t(), bound.get_mpq_t(), static_cast<mp_bitcnt_t>(p));
      if (!(b.bounded() && b.contains(e) && b.hi.q - b.lo.q <= bound)) {
        ++failures;
        FAIL_CHECK("MpfrInterval point result wider than 2^(1-P): P = " << p << ", x = " << show(qx)
                                                                        << ", y = " << show(qy));
      }
    }
    {  // RationalInterval: the exact point
      const RationalInterval r = apply(op, RationalInterval::point(x), RationalInterval::point(y));
      if (!(is_point(r) && r.lower_exact().value == e)) {
        ++failures;
        FAIL_CHECK("RationalInterval point result not exact: x = " << show(qx) << ", y = " << show(qy));
      }
    }
  }
  CHECK(failures == 0);
}

TEST_CASE("Tightness twin can fail: whole() and one-step-wider results are rejected", "[domains][tightness]") {
  const Interval a = Interval::between(1.0, 2.0), b = Interval::between(3.0, 5.0);
  for (Op op : {Op::Add, Op::Sub, Op::Mul, Op::Div, Op::Sqrt}) {
    CAPTURE(to_string(op));
    const Interval r = apply(op, a, b);
    CHECK(tightness_defect(op, a, b, r).empty());
    CHECK_FALSE(tightness_defect(op, a, b, Interval::whole()).empty());
    CHECK_FALSE(tightness_defect(op, a, b, Interval::between(std::nextafter(r.lower(), -inf), r.upper())).empty());
    CHECK_FALSE(tightness_defect(op, a, b, Interval::between(r.lower(), std::nextafter(r.upper(), inf))).empty());
  }
  const MpfrInterval ma = MpfrInterval::between(1.0, 2.0, 64), mb = MpfrInterval::between(3.0, 5.0, 64);
  CHECK(tightness_defect(Op::Div, ma, mb, ma / mb).empty());
  CHECK_FALSE(tightness_defect(Op::Div, ma, mb, MpfrInterval::whole(64)).empty());
  CHECK_FALSE(tightness_defect(Op::Div, ma, mb, hull(ma / mb, MpfrInterval::point(0.1, 64))).empty());
  const RationalInterval ra = RationalInterval::between(1.0, 2.0), rb = RationalInterval::between(3.0, 5.0);
  CHECK(tightness_defect(Op::Mul, ra, rb, ra * rb).empty());
  CHECK_FALSE(tightness_defect(Op::Mul, ra, rb, RationalInterval::between(2.9, 10.0)).empty());
  // The best answers on points and disjoint intervals are never Unknown, so a
  // comparison that always answers Unknown fails compare_defect.
  const Bounds p1 = Traits<Interval>::bounds(Interval::point(1.0));
  const Bounds p2 = Traits<Interval>::bounds(Interval::point(2.0));
  CHECK(best_lt(p1, p2) == Tri::True);
  CHECK(best_eq(p1, p1) == Tri::True);
  CHECK(best_le(Traits<Interval>::bounds(b), Traits<Interval>::bounds(a)) == Tri::False);
  CHECK(compare_defect(Interval::point(1.0), Interval::point(2.0)).empty());
  CHECK(compare_defect(a, b).empty());
}
