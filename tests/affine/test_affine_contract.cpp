// The RealDomain contract of Affine against exact oracles (GMP rationals;
// sqrt through exact squaring), in the functional semantics: operands are
// built from shared inputs (so they are correlated), every input gets a
// concrete rational value, and the exact result of the operation on the
// operands' exact values must lie in the result's range. >= 10^5 trials per
// operation in the [long] run, scaled by SYMERR_TEST_SCALE in the default run.
// Tightness twins: on independent operands the range is never wider than the
// Interval domain's; on correlated ones it is exact where affine arithmetic is
// (x − x, (x + y) − y, 2x − x).
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <type_traits>
#include <functional>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <symerr/domains/affine.hpp>
#include <symerr/domains/interval.hpp>
#include "test_scale.hpp"

using namespace symerr;

namespace {

struct Rng {
  std::mt19937_64 eng;
  explicit Rng(std::uint64_t s) : eng(s) {}
  double unit() { return static_cast<double>(eng() >> 11) * 0x1p-53; }
  int range(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(eng); }
  bool coin() { return (eng() & 1) != 0; }
};

// An input range: moderate, tiny (subnormal), wide, point, zero-crossing or huge (near overflow).
std::pair<double, double> random_range(Rng& r) {
  const double s = r.coin() ? 1.0 : -1.0;
  switch (r.range(0, 7)) {
    case 6: { const double lo = s * std::ldexp(1 + r.unit(), r.range(1000, 1022)); return {std::min(lo, lo * 0.75), std::max(lo, lo * 0.75)}; }  // huge
    case 7: { const double m = std::ldexp(1 + r.unit(), r.range(1010, 1022)); return {-m, m * r.unit()}; }  // huge, zero-crossing
    case 0: { const double c = s * std::ldexp(1 + r.unit(), r.range(-20, 20)); return {c, c}; }
    case 1: { const double lo = -std::ldexp(r.unit(), r.range(-10, 10)); return {lo, std::ldexp(r.unit(), r.range(-10, 10))}; }
    case 2: { const double lo = s * std::ldexp(1 + r.unit(), r.range(-30, 30)); const double w = std::fabs(lo) * std::ldexp(r.unit(), -r.range(0, 50)); return {lo, lo + w}; }
    case 3: { const double lo = std::ldexp(1 + r.unit(), r.range(-1060, -1020)); return {lo, lo * (1 + r.unit())}; }
    default: { const double lo = s * (1 + 3 * r.unit()); return {std::min(lo, lo + s), std::max(lo, lo + s)}; }
  }
}

// A rational inside [lo, hi]: an endpoint or an interior point.
mpq_class sample(Rng& r, double lo, double hi) {
  const int k = r.range(0, 5);
  if (k == 0) return mpq_class(lo);
  if (k == 1) return mpq_class(hi);
  mpq_class t(r.range(0, 1 << 20), 1 << 20);
  mpq_class q = mpq_class(lo) + (mpq_class(hi) - mpq_class(lo)) * t;
  q.canonicalize();
  return q;
}

// Operands: a small expression over inputs x, y (shared), with its exact value.
struct Operand {
  Affine a;
  mpq_class v;
};

Operand operand(Rng& r, const Affine& x, const Affine& y, const mpq_class& qx, const mpq_class& qy) {
  switch (r.range(0, 4)) {
    case 0: return {x, qx};
    case 1: return {y, qy};
    case 2: return {x + y, qx + qy};
    case 3: return {x - y, qx - qy};
    default: { const double k = std::ldexp(1 + r.unit(), r.range(-3, 3)); return {x * Affine::point(k) + y, qx * mpq_class(k) + qy}; }
  }
}

enum class Op { Add, Sub, Mul, Div, Neg, Abs, Sqrt, Hull, Intersect };
const char* name(Op o) {
  const char* n[] = {"add", "sub", "mul", "div", "neg", "abs", "sqrt", "hull", "intersect"};
  return n[static_cast<int>(o)];
}

// "" if `exact` (the result's exact value, or for sqrt its square) is enclosed.
std::string check(Op op, const Affine& z, const mpq_class& u, const mpq_class& v) {
  switch (op) {
    case Op::Add: return contains(z, mpq_class(u + v)) ? "" : "u+v not in result";
    case Op::Sub: return contains(z, mpq_class(u - v)) ? "" : "u-v not in result";
    case Op::Mul: return contains(z, mpq_class(u * v)) ? "" : "u*v not in result";
    case Op::Div:
      if (sgn(v) == 0) return "";
      return contains(z, mpq_class(u / v)) ? "" : "u/v not in result";
    case Op::Neg: return contains(z, mpq_class(-u)) ? "" : "-u not in result";
    case Op::Abs: return contains(z, mpq_class(abs(u))) ? "" : "|u| not in result";
    case Op::Sqrt: {
      if (sgn(u) < 0) return "";
      if (z.lower() > 0 && std::isfinite(z.lower()) && mpq_class(z.lower()) * mpq_class(z.lower()) > u)
        return "sqrt(u) below the result";
      if (z.lower() == INFINITY) return "sqrt(u) below the result";
      if (!std::isinf(z.upper()) && (z.upper() < 0 || mpq_class(z.upper()) * mpq_class(z.upper()) < u))
        return "sqrt(u) above the result";
      return "";
    }
    case Op::Hull: return contains(z, u) && contains(z, v) ? "" : "hull misses an operand value";
    case Op::Intersect: return contains(z, u) ? "" : "intersection misses the common value";
  }
  return "?";
}

Affine apply(Op op, const Affine& a, const Affine& b) {
  switch (op) {
    case Op::Add: return a + b;
    case Op::Sub: return a - b;
    case Op::Mul: return a * b;
    case Op::Div: return a / b;
    case Op::Neg: return -a;
    case Op::Abs: return abs(a);
    case Op::Sqrt: return sqrt(a);
    case Op::Hull: return hull(a, b);
    case Op::Intersect: return *intersect(a, a + (b - b));
  }
  return Affine::whole();
}

// Soundness campaign: returns the number of checked executions; fails on the first miss.
long campaign(Op op, long trials, std::uint64_t seed, const std::function<Affine(const Affine&)>& plant = {}) {
  Rng r(seed);
  long checked = 0;
  for (long t = 0; t < trials; ++t) {
    AffineOptions opt;
    opt.max_terms = static_cast<std::size_t>(r.range(2, 8));  // exercise condensation
    AffineContext ctx(opt);
    AffineScope scope(ctx);
    const auto [xl, xh] = random_range(r);
    const auto [yl, yh] = random_range(r);
    const Affine x = Affine::between(xl, xh), y = Affine::between(yl, yh);
    for (int e = 0; e < 4; ++e) {
      const mpq_class qx = sample(r, xl, xh), qy = sample(r, yl, yh);
      Rng shape(seed ^ static_cast<std::uint64_t>(t * 7919));  // same operand shapes for every execution
      const Operand u = operand(shape, x, y, qx, qy), v = operand(shape, x, y, qx, qy);
      Affine z = apply(op, u.a, v.a);
      if (plant) z = plant(z);
      const std::string failure = check(op, z, u.v, v.v);
      if (!failure.empty())
        FAIL(name(op) << ": " << failure << "\n x in [" << xl << ", " << xh << "] = " << qx.get_d() << ", y in [" << yl
                      << ", " << yh << "] = " << qy.get_d() << "\n u = " << u.a << " v = " << v.a << "\n z = " << z);
      ++checked;
    }
  }
  return checked;
}

constexpr Op kOps[] = {Op::Add, Op::Sub, Op::Mul, Op::Div, Op::Neg, Op::Abs, Op::Sqrt, Op::Hull, Op::Intersect};

}  // namespace

TEST_CASE("Affine operations are sound on correlated operands (exact oracle)", "[affine][soundness]") {
  const long trials = std::max(1L, static_cast<long>(25000 * symerr::test::test_scale() / 10));
  for (Op op : kOps) {
    const long n = campaign(op, trials, 0xAFF1 + static_cast<int>(op));
    INFO(name(op) << ": " << n << " executions");
    CHECK(n == 4 * trials);
  }
}

TEST_CASE("Affine operations are sound, long run (>= 10^5 executions per operation)", "[.][affine][soundness][long]") {
  for (Op op : kOps) CHECK(campaign(op, 25000, 0xBEEF + static_cast<int>(op)) == 100000);
}

namespace {

// multiply_add(u, v, w, s) on correlated operands against u·v + w·s exactly.
// Returns the number of trials where multiply_add is wider than u * v + w * s
// computed separately beyond rounding: more than 2^-40 relatively plus 32
// ulps of the result's magnitude plus 64 subnormal spacings (the two round
// their coefficients and centers in different orders, a few ulps either way).
long multiply_add_campaign(long trials, std::uint64_t seed, long& checked) {
  Rng r(seed);
  long wider = 0;
  for (long t = 0; t < trials; ++t) {
    AffineOptions opt;
    opt.max_terms = static_cast<std::size_t>(r.range(2, 8));
    AffineContext ctx(opt);
    AffineScope scope(ctx);
    const auto [xl, xh] = random_range(r);
    const auto [yl, yh] = random_range(r);
    const Affine x = Affine::between(xl, xh), y = Affine::between(yl, yh);
    const std::uint64_t shape_seed = seed ^ static_cast<std::uint64_t>(t * 7919);
    for (int e = 0; e < 4; ++e) {
      const mpq_class qx = sample(r, xl, xh), qy = sample(r, yl, yh);
      Rng shape(shape_seed);
      const Operand u = operand(shape, x, y, qx, qy), v = operand(shape, x, y, qx, qy);
      const Operand w = operand(shape, x, y, qx, qy), s = operand(shape, x, y, qx, qy);
      const Affine z = multiply_add(u.a, v.a, w.a, s.a);
      const mpq_class exact = u.v * v.v + w.v * s.v;
      INFO("x in [" << xl << ", " << xh << "] = " << qx.get_d() << ", y in [" << yl << ", " << yh
                    << "] = " << qy.get_d() << "\n u = " << u.a << " v = " << v.a << " w = " << w.a << " s = " << s.a
                    << "\n z = " << z);
      REQUIRE(contains(z, exact));
      ++checked;
      if (e == 0) {
        const Affine separate = u.a * v.a + w.a * s.a;
        const double allowed = width(separate) * (1 + 0x1p-40) + 0x1p-47 * mag(separate) + 0x1p-1068;
        if (std::isfinite(allowed) && width(z) > allowed) ++wider;
      }
    }
  }
  return wider;
}

}  // namespace

TEST_CASE("multiply_add: sound on correlated operands, never wider than the two products", "[affine][soundness]") {
  long checked = 0;
  const long trials = std::max(1L, static_cast<long>(25000 * symerr::test::test_scale() / 10));
  CHECK(multiply_add_campaign(trials, 0xADD5, checked) == 0);
  CHECK(checked == 4 * trials);
  // the twins: a result shrunk to a point is caught, so is a doubled width
  AffineContext ctx;
  AffineScope scope(ctx);
  const Affine x = Affine::between(1, 2), y = Affine::between(-3, 5);
  const Affine z = multiply_add(x, y, y, y);
  CHECK(contains(z, mpq_class(2 * 5 + 25)));
  CHECK(contains(z, mpq_class(1 * -3 + 9)));
  CHECK(!contains(Affine::point(z.lower()), mpq_class(2 * 5 + 25)));
  const Affine separate = x * y + y * y;
  CHECK(width(z) <= width(separate) * (1 + 0x1p-40) + 0x1p-47 * mag(separate));
  CHECK(!(width(z + z) <= width(separate) * (1 + 0x1p-40) + 0x1p-47 * mag(separate)));
  // one symbol for both remainders: x·y + y·y holds x's, y's and one more symbol
  CHECK(ctx.terms(z).size() <= 3);
}

TEST_CASE("multiply_add, long run (>= 10^5 executions)", "[.][affine][soundness][long]") {
  long checked = 0;
  CHECK(multiply_add_campaign(25000, 0xADD6, checked) == 0);
  CHECK(checked == 100000);
}

TEST_CASE("the soundness campaign detects a planted bug", "[affine][soundness]") {
  // A result shrunk to its lower endpoint must be caught by check().
  const auto shrink = [](const Affine& z) { return Affine::point(z.lower()); };
  AffineContext ctx;
  AffineScope scope(ctx);
  const Affine x = Affine::between(1, 2), y = Affine::between(3, 5);
  const Affine z = shrink(x + y);
  CHECK(!check(Op::Add, z, mpq_class(2), mpq_class(5)).empty());
  CHECK(check(Op::Add, x + y, mpq_class(2), mpq_class(5)).empty());
}

TEST_CASE("tightness: never wider than the Interval domain on independent operands", "[affine][tightness]") {
  Rng r(42);
  const long trials = std::max(1L, static_cast<long>(20000 * symerr::test::test_scale()));
  for (long t = 0; t < trials; ++t) {
    AffineContext ctx;
    AffineScope scope(ctx);
    const auto [xl, xh] = random_range(r);
    const auto [yl, yh] = random_range(r);
    const Affine x = Affine::between(xl, xh), y = Affine::between(yl, yh);
    const Interval ix = Interval::between(xl, xh), iy = Interval::between(yl, yh);
    const std::pair<Affine, Interval> cases[] = {{x + y, ix + iy}, {x - y, ix - iy}, {x * y, ix * iy},
                                                 {x / y, ix / iy}, {sqrt(x), sqrt(ix)}, {abs(x), abs(ix)},
                                                 {-x, -ix},        {hull(x, y), hull(ix, iy)}};
    for (const auto& [a, i] : cases) {
      INFO("x [" << xl << ", " << xh << "] y [" << yl << ", " << yh << "]: affine " << a << " interval " << i);
      REQUIRE(a.lower() >= i.lower());
      REQUIRE(a.upper() <= i.upper());
    }
  }
}

TEST_CASE("tightness: correlations cancel exactly", "[affine][tightness]") {
  AffineContext ctx;
  AffineScope scope(ctx);
  const Affine x = Affine::between(1, 64), y = Affine::between(-3, 0.5);
  CHECK(is_point(x - x));
  CHECK((x - x).lower() == 0);
  CHECK(is_point((x * x) - (x * x)));
  const Affine q = ((x * y) / (x + Affine::point(100))) - ((x * y) / (x + Affine::point(100)));
  CHECK((is_point(q) && q.lower() == 0));
  const Affine s = (x + y) - y;  // = x exactly, up to coefficient rounding (none here)
  CHECK(s.lower() == 1);
  CHECK(s.upper() == 64);
  const Affine d = Affine::point(2) * x - x;
  CHECK(d.lower() == 1);
  CHECK(d.upper() == 64);
  // x·x on [1, 2] by the diagonal rule: [1, 4] exactly from the form [0.25, 4]... ∩ interval [1, 4]
  const Affine z = Affine::between(-1, 1);
  const Affine sq = z * z;
  CHECK(sq.lower() == 0);
  CHECK(sq.upper() == 1);
  // correlated comparison: x < x + 1 although the ranges overlap
  CHECK(cmp_lt(x, x + Affine::point(1)) == Tri::True);
  CHECK(cmp_ge(x, x + Affine::point(1)) == Tri::False);
  CHECK(cmp_eq(x, x) == Tri::True);
  CHECK(cmp_lt(x, y + Affine::point(40)) == Tri::Unknown);
}

// a/b where b = a + c holds a (a softmax's exp(x_i − m) / Σ_j exp(x_j − m)):
// the quotient is monotone in a and in c = b − a, so its range is
// [a_lo/(a_lo + c_hi), a_hi/(a_hi + c_lo)] ⊆ [0, 1], inside the corners of
// the operands' ranges. Sound against exact quotients, both signs, and the
// rule left alone where b − a may change sign.
TEST_CASE("division: a part over its whole has the monotone range (sound, and tighter than the corners)",
          "[affine][soundness][tightness]") {
  Rng r(4711);
  const long trials = std::max(200L, static_cast<long>(20000 * symerr::test::test_scale()));
  for (int sign : {1, -1}) {
    for (long t = 0; t < trials; ++t) {
      AffineContext ctx;
      AffineScope scope(ctx);
      const double al = 0.25 + r.unit(), ah = al + r.unit() * 2, cl = (t % 4 == 0 ? -0.2 : 0.0) + r.unit(),
                   ch = cl + r.unit() * 3;
      const Affine a0 = Affine::between(al, ah), c = Affine::between(cl, ch);
      const Affine a = sign > 0 ? a0 : -a0, b = sign > 0 ? a0 + c : -(a0 + c);
      const Affine q = a / b;
      INFO("a in [" << al << ", " << ah << "], c in [" << cl << ", " << ch << "], sign " << sign << ": " << q);
      for (int k = 0; k < 8; ++k) {
        const mpq_class qa = sample(r, al, ah), qc = sample(r, cl, ch);
        if (sgn(mpq_class(qa + qc)) == 0) continue;
        REQUIRE(contains(q, mpq_class(qa / (qa + qc))));
      }
      if (cl >= 0) {  // twin: the monotone range, not the corners' (b's range is [al + cl, ah + ch])
        CHECK(q.upper() <= ah / (ah + cl) * (1 + 1e-12));
        CHECK(q.lower() >= al / (al + ch) * (1 - 1e-12));
        CHECK(q.upper() <= 1);
      }
    }
  }
  // the softmax shape of the issue: three positive terms and their sum
  AffineContext ctx;
  AffineScope scope(ctx);
  const Affine t0 = Affine::between(0.1, 1), t1 = Affine::between(0.1, 1), t2 = Affine::between(0.1, 1);
  const Affine y = t0 / ((t0 + t1) + t2);
  CHECK(y.upper() <= 1 / 1.2 * (1 + 1e-12));  // the corners: 1 / 0.3
  CHECK(y.lower() >= 0.1 / 2.1 * (1 - 1e-12));
}

// domain_extremum: a running maximum m = max(max(x0, x1), x2) of overlapping
// ranges is a fresh symbol, and the context records it: x_i − m <= 0 and
// m − x_i >= 0 (min: the mirror), at any depth, also after m is met with
// another enclosure of it (intersect, as reduce() does). Sound against exact
// values; twin: without the record x_i − m would reach the ranges' corners.
TEST_CASE("domain_extremum: differences with a recorded maximum or minimum keep their sign",
          "[affine][soundness][tightness]") {
  Rng r(99);
  const long trials = std::max(200L, static_cast<long>(5000 * symerr::test::test_scale()));
  for (long t = 0; t < trials; ++t) {
    AffineContext ctx;
    AffineScope scope(ctx);
    const bool upper = t % 2 == 0;
    double lo[3], hi[3];
    std::vector<Affine> x;
    for (int i = 0; i < 3; ++i) {
      lo[i] = 4 * r.unit() - 2, hi[i] = lo[i] + 0.5 + 2 * r.unit();
      x.push_back(Affine::between(lo[i], hi[i]));
    }
    Affine m = domain_extremum(domain_extremum(x[0], x[1], upper), x[2], upper);
    if (t % 3 == 0) {  // another form of the same quantity (an operation's, which intersect keeps)
      const Affine z = Affine::between(-1e-3, 1e-3);
      m = *intersect(m, (m + z) - z);
    }
    std::vector<Affine> d;
    for (int i = 0; i < 3; ++i) d.push_back(x[i] - m);
    const Affine back = m - x[0];
    INFO("m " << m << " d0 " << d[0] << " back " << back);
    for (int k = 0; k < 10; ++k) {
      mpq_class v[3];
      for (int i = 0; i < 3; ++i) v[i] = sample(r, lo[i], hi[i]);
      mpq_class mv = v[0];
      for (int i = 1; i < 3; ++i) mv = upper ? std::max(mv, v[i]) : std::min(mv, v[i]);
      REQUIRE(contains(m, mv));
      for (int i = 0; i < 3; ++i) REQUIRE(contains(d[i], mpq_class(v[i] - mv)));
      REQUIRE(contains(back, mpq_class(mv - v[0])));
    }
    for (int i = 0; i < 3; ++i) CHECK((upper ? d[i].upper() <= 0 : d[i].lower() >= 0));
    CHECK((upper ? back.lower() >= 0 : back.upper() <= 0));
  }
  // decided by the ranges: the operand itself
  AffineContext ctx;
  AffineScope scope(ctx);
  const Affine a = Affine::between(2, 3), b = Affine::between(-1, 1);
  CHECK(same_handle(domain_extremum(a, b, true), a));
  CHECK(same_handle(domain_extremum(a, b, false), b));
}

TEST_CASE("Affine handles: trivially copyable, context rules, clear errors", "[affine][context]") {
  STATIC_REQUIRE(std::is_trivially_copyable_v<Affine>);
  const Affine zero;  // the point 0 needs no context
  CHECK(zero.lower() == 0);
  CHECK_THROWS_WITH(Affine::between(1, 2), Catch::Contains("no AffineContext is current"));
  Affine kept;
  {
    AffineContext ctx;
    AffineScope scope(ctx);
    kept = Affine::between(1, 2);
    CHECK_THROWS_AS(Affine::between(2, 1), std::invalid_argument);
    CHECK_THROWS_AS(Affine::point(NAN), std::invalid_argument);
    // memcpy round trip through a malloc'd buffer
    void* buf = std::malloc(sizeof(Affine));
    std::memcpy(buf, &kept, sizeof(Affine));
    Affine back;
    std::memcpy(&back, buf, sizeof(Affine));
    std::free(buf);
    CHECK(is_point(back - kept));
  }
  AffineContext other;
  AffineScope scope(other);
  CHECK_THROWS_WITH(kept.lower(), Catch::Contains("used while AffineContext"));
}

TEST_CASE("special values: unbounded enclosures and division by zero", "[affine]") {
  AffineContext ctx;
  AffineScope scope(ctx);
  const Affine w = Affine::whole(), x = Affine::between(1, 2);
  CHECK(!is_bounded(w));
  CHECK(!is_bounded(x / Affine::between(-1, 1)));
  CHECK(!is_bounded(w + x));
  CHECK((Affine::point(0) * w).lower() == 0);
  const Affine pinf = Affine::point(INFINITY);
  CHECK(pinf.lower() == INFINITY);
  CHECK((pinf + x).upper() == INFINITY);
  CHECK(sqrt(Affine::between(-2, -1)).upper() == 0);
  CHECK(affine_self_test());
}

TEST_CASE("division by a power of two whose inverse overflows", "[affine]") {
  // Regression: 1/(-2^-1074) rounded upward is -DBL_MAX, not an exact inverse.
  AffineContext ctx;
  AffineScope scope(ctx);
  const Affine x = Affine::between(0x1p-1070, 0x1p-1020), y = Affine::point(-0x1p-1074);
  const Affine q = x / y;
  CHECK(contains(q, mpq_class(-16)));                       // 2^-1070 / -2^-1074
  CHECK(contains(q, -mpq_class(mpz_class(1) << 54)));       // 2^-1020 / -2^-1074
  CHECK(q.upper() < 0);
}

TEST_CASE("contexts are per thread: each thread has its own current context", "[affine][context]") {
  AffineContext main_ctx;
  AffineScope main_scope(main_ctx);
  const Affine x = Affine::between(1, 2);
  bool other_thread_had_no_context = false, other_thread_computed = false;
  std::thread t([&] {
    try {
      (void)Affine::between(0, 1);
    } catch (const std::logic_error&) {
      other_thread_had_no_context = true;
    }
    AffineContext ctx;
    AffineScope scope(ctx);
    const Affine y = Affine::between(3, 4);
    other_thread_computed = is_point(y - y) && (y * y).lower() == 9;
  });
  t.join();
  CHECK(other_thread_had_no_context);
  CHECK(other_thread_computed);
  CHECK(is_point(x - x));  // this thread's context is untouched
}

TEST_CASE("storage: forms stay intact across many term blocks", "[affine][context]") {
  AffineContext ctx;
  AffineScope scope(ctx);
  std::vector<Affine> in;
  for (int i = 0; i < 64; ++i) in.push_back(Affine::between(-1, 1));
  std::vector<Affine> forms;
  std::vector<std::vector<AffineTerm>> seen;
  std::uint64_t state = 12345;
  for (int k = 0; k < 12000; ++k) {
    Affine s = in[k % 64];
    const int n = 1 + static_cast<int>((state = state * 6364136223846793005ULL + 1) >> 59);
    for (int j = 1; j <= n; ++j) s = s * Affine::point(0.75 + j + k * 0x1p-12) + in[(k * 7 + j * 13) % 64];
    forms.push_back(s);
    seen.push_back(ctx.terms(s));
  }
  INFO(ctx.term_count() << " stored terms");
  CHECK(ctx.term_count() > 2 * 65536 + 4096);  // the small first block and two full ones
  for (std::size_t k = 0; k < forms.size(); ++k) {
    const auto now = ctx.terms(forms[k]);
    REQUIRE(now.size() == seen[k].size());
    for (std::size_t t = 0; t < now.size(); ++t) {
      REQUIRE(now[t].symbol == seen[k][t].symbol);
      REQUIRE(now[t].coefficient == seen[k][t].coefficient);
    }
  }
}

TEST_CASE("a context held by one thread's scope is refused to another thread's scope", "[affine][context]") {
  AffineContext ctx;
  std::string refused;
  bool taken_after_release = false;
  {
    AffineScope outer(ctx);
    AffineScope nested(ctx);  // the same thread may nest scopes on its context
    const Affine x = Affine::between(1, 2);
    // the scope is made on the second thread while this one holds ctx (join
    // before the scopes end: no timing involved)
    std::thread t([&] {
      try {
        AffineScope scope(ctx);
      } catch (const std::logic_error& e) {
        refused = e.what();
      }
    });
    t.join();
    CHECK(is_point(x - x));  // the holder's context is untouched by the refusal
  }
  // released: another thread may now hold it (sequential use)
  std::thread t([&] {
    AffineScope scope(ctx);
    const Affine y = Affine::between(3, 4);
    taken_after_release = is_point(y - y);
  });
  t.join();
  INFO(refused);
  CHECK(refused.find("used by thread") != std::string::npos);
  CHECK(refused.find("while thread") != std::string::npos);
  CHECK(taken_after_release);
}
