// LeanDouble / LeanFloat at the edges of the format: near ±max (the real
// value fp − err may lie beyond max, where real() has an infinite end), at 0
// and on subnormals. Soundness against exact executions (GMP rationals; the
// lean fuzzer, tests/fuzz/lean_fuzzer.hpp), the cases that once gave NaN or
// too small bounds, and parity with SymbolicError: on the same operands, one
// operation's fp and err agree within the declared slack (two roundings of
// the result's largest magnitude, 2^-18 of the bound, 2^-1070; ÷ within a
// factor of the divisor's spread) for operands of small relative error, or
// LeanError refuses by name where the result may overflow or an intermediate
// bound overflows double.
#include <catch2/catch.hpp>

#include <cfloat>
#include <iostream>

#include <symerr/domains/symbolic_instances.hpp>  // the library's instantiations (compile time)
#include <symerr/lean.hpp>

#include "fuzz/lean_fuzzer.hpp"
#include "test_scale.hpp"

using namespace symerr;
namespace lf = symerr::fuzz::lean;

namespace {

// The executions of z = x op y over the corners and draws of the operands' boxes.
template <class F>
void corners_hold(const lf::Box& a, const lf::Box& b, char op) {
  using L = LeanError<F>;
  const L x = L::from_enclosures(a.f, a.e), y = L::from_enclosures(b.f, b.e);
  L z;
  try {
    z = op == '*' ? x * y : op == '+' ? x + y : op == '-' ? x - y : x / y;
  } catch (const std::domain_error& e) {
    INFO(e.what());
    CHECK(std::string(e.what()).find("symerr::LeanError") != std::string::npos);
    return;
  }
  INFO(x << " " << op << " " << y << " = " << z);
  for (double fa : {a.f.lo, a.f.hi})
    for (double ea : {a.e.lo, a.e.hi})
      for (double fb : {b.f.lo, b.f.hi})
        for (double eb : {b.e.lo, b.e.hi}) {
          lf::Node n;
          n.op = op == '*' ? lf::Op::Mul : op == '+' ? lf::Op::Add : op == '-' ? lf::Op::Sub : lf::Op::Div;
          n.a = 0, n.b = 1;
          const auto [f, r] = lf::execute<F>(n, {fa, fb}, {lf::q(fa) - lf::q(ea), lf::q(fb) - lf::q(eb)});
          INFO("execution fa " << fa << " ea " << ea << " fb " << fb << " eb " << eb);
          CHECK(lf::check(z, f, r) == "");
        }
  CHECK(std::isfinite(z.err().lo));
  CHECK(std::isfinite(z.err().hi));
}

// SymbolicError with the same enclosures: fp, err = fp − real, independent.
SymbolicError symbolic(const lf::Box& b, const FloatFormat& F) {
  SymbolicError s = SymbolicError::computed(b.f.lo, b.e.lo, b.e.hi, F);
  s.fp = Interval::between(b.f.lo, b.f.hi);
  s.real = s.fp - s.err;
  s.specials.may_be_pos_zero = contains(s.fp, 0.0);
  s.specials.may_be_neg_zero = false;
  s.reduce();
  return s;
}

}  // namespace

TEST_CASE("LeanDouble near DBL_MAX: x * 0.5 with real beyond DBL_MAX, no NaN, sound", "[dropin][lean]") {
  const double M = DBL_MAX;
  // fp in [DBL_MAX − 1e300, DBL_MAX], err of either sign: real reaches beyond DBL_MAX
  for (const LeanInterval e : {LeanInterval{-1e290, 1e290}, LeanInterval{-1e300, 0}, LeanInterval{0, 1e300},
                               LeanInterval{-0x1p970, 0x1p970}, LeanInterval{0, 0}}) {
    const lf::Box a{{M - 1e300, M}, e}, neg{{-M, -(M - 1e300)}, e};
    const lf::Box half{{0.5, 0.5}, {0, 0}}, zero{{0, 0}, {0, 0}}, one{{1, 1}, {0, 0}};
    for (const lf::Box& x : {a, neg})
      for (const lf::Box& y : {half, zero, one}) {
        corners_hold<double>(x, y, '*');
        corners_hold<double>(y, x, '*');
        corners_hold<double>(x, y, '+');
        corners_hold<double>(x, y, '-');
      }
    corners_hold<double>(a, lf::Box{{2, 2}, {0, 0}}, '/');
    corners_hold<double>(a, lf::Box{{M / 4, M / 2}, {-1e280, 1e280}}, '/');
  }
  // real() is an enclosure: its lower end at most DBL_MAX, never +inf
  const LeanDouble x = LeanDouble::from_enclosures({M, M}, {-1e300, -1e299});
  CHECK(x.real().lo <= M);
  CHECK(x.real().hi == INFINITY);
  const LeanInterval rel = x.rel_err();
  CHECK(!std::isnan(rel.lo));
  CHECK(!std::isnan(rel.hi));
}

TEST_CASE("LeanDouble and LeanFloat near max, at 0 and on subnormals: random DAGs hold exact executions",
          "[dropin][lean]") {
  const long dags = symerr::test::scaled(4000, 200);
  const lf::Report d = lf::run<double>(71, dags, 6), f = lf::run<float>(72, dags, 6);
  for (const lf::Report* r : {&d, &f}) {
    std::cout << "lean edges: " << r->dags << " DAGs, " << r->nodes << " nodes, " << r->refused << " refused, "
              << r->executions << " executions, " << r->checks << " node checks\n";
    INFO(r->first_failure);
    CHECK(r->failures == 0);
    CHECK(r->checks > dags);
  }
}

TEST_CASE("LeanDouble and SymbolicError agree within the declared slack near max, at 0, on subnormals",
          "[dropin][lean]") {
  lf::Gen<double> g(73);
  long compared = 0, refused = 0, tight = 0;
  const long n = symerr::test::scaled(20000, 500);
  // |err| <= 2^-20 |fp| (a box holding 0: an exact one)
  const auto small = [](const lf::Box& v) {
    const double mig = v.f.lo > 0 ? v.f.lo : v.f.hi < 0 ? -v.f.hi : 0.0;
    return std::max(-v.e.lo, v.e.hi) <= 0x1p-20 * mig;
  };
  // |err| >= |fp| somewhere: the independent factors of LeanError's formulas may overflow
  const auto wild = [](const lf::Box& v) {
    return std::max(-v.e.lo, v.e.hi) >= std::min(std::fabs(v.f.lo), std::fabs(v.f.hi));
  };
  for (long k = 0; k < n; ++k) {
    const lf::Box a = g.box(), b = g.box();
    const char op = "+-*/"[g.pick(0, 3)];
    const LeanDouble x = LeanDouble::from_enclosures(a.f, a.e), y = LeanDouble::from_enclosures(b.f, b.e);
    const SymbolicError sx = symbolic(a, FP64), sy = symbolic(b, FP64);
    if (op == '/' && (contains(sy.fp, 0.0) || contains(sy.real, 0.0))) continue;
    const SymbolicError s = op == '+' ? sx + sy : op == '-' ? sx - sy : op == '*' ? sx * sy : sx / sy;
    LeanDouble z;
    try {
      z = op == '+' ? x + y : op == '-' ? x - y : op == '*' ? x * y : x / y;
    } catch (const std::domain_error& e) {
      // refused: the result may overflow, or an intermediate bound does
      ++refused;
      INFO(a.f.lo << " " << op << " " << b.f.lo << ": " << e.what() << "; symbolic " << s);
      const bool may_overflow = s.specials.may_be_pos_inf || s.specials.may_be_neg_inf || s.specials.may_overflow ||
                                !s.specials.may_be_finite || !(mag(s.fp) <= DBL_MAX);
      const bool huge = !(mag(s.err) <= 0x1p1020) || !(mag(s.real) <= DBL_MAX) || !(mag(sx.real) <= DBL_MAX) ||
                        !(mag(sy.real) <= DBL_MAX);
      CHECK((may_overflow || huge || wild(a) || wild(b)));
      continue;
    }
    ++compared;
    const double m = std::max(mag(s.fp), z.fp().mag());
    const double d = std::max(lean_detail::half_ulp<double>(m), 0x1p-1074);
    const double slack = 4 * d + 0x1p-18 * std::max(mag(s.err), z.err().mag()) + 0x1p-1070;
    INFO(x << " " << op << " " << y << ": lean " << z << ", symbolic " << s << ", slack " << slack);
    REQUIRE(s.specials.may_be_finite);
    CHECK(std::fabs(z.fp().lo - s.fp.lower()) <= 2 * d);
    CHECK(std::fabs(z.fp().hi - s.fp.upper()) <= 2 * d);
    // operands of small relative error (|err| <= 2^-20 |fp|, as the twins of
    // test_lean.cpp): the same bound within the slack; ÷ within 4·(|fb|max /
    // |fb|min) times — LeanError's ea/fb − (ra/rb)(eb/fb) takes its factors
    // independently where SymbolicError relates the divisor's real and
    // computed values. (Operands of large relative error: soundness only;
    // either type's bound may be the tighter one.)
    if (!small(a) || !small(b)) continue;
    ++tight;
    if (op == '/') {
      const double spread =
          std::max(std::fabs(b.f.lo), std::fabs(b.f.hi)) / std::min(std::fabs(b.f.lo), std::fabs(b.f.hi));
      CHECK(z.err().mag() <= 4 * spread * mag(s.err) + slack);
      CHECK(mag(s.err) <= 4 * spread * z.err().mag() + slack);
      continue;
    }
    CHECK(std::fabs(z.err().lo - s.err.lower()) <= slack);
    CHECK(std::fabs(z.err().hi - s.err.upper()) <= slack);
  }
  std::cout << "lean/symbolic parity: " << compared << " operations compared (" << tight
            << " of small relative error), " << refused << " refused\n";
  CHECK(compared > n / 2);
  CHECK(tight > n / 20);
}
