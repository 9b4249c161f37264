// Regression tests of issue 11 (soundness holes found by an expression
// fuzzer), one per numbered item, with the exact inputs. Each result
// is checked against exact concrete executions of the fuzzer's exact model
// (tests/fuzz/exact_model.hpp: GMP rationals, MPFR rounding), in every domain.
#include <catch2/catch.hpp>

#include <cfenv>

#include <symerr/domains/interval.hpp>
#include <symerr/domains/mpfr_interval.hpp>
#include <symerr/domains/rational_interval.hpp>
#include <symerr/domains/symbolic_instances.hpp>  // the library's instantiations (compile time)

#include "fuzz/dag_fuzzer.hpp"

using namespace symerr;
using namespace symerr::fuzz;

namespace {

const Format R{};  // the real format
constexpr RoundingMode RNE = RoundingMode::NearestEven;

Exec exact(const mpq_class& r, const mpq_class& pr, const Computed& f) {
  Exec e;
  e.r = r;
  e.pr = pr;
  e.f = f;
  return e;
}
// An execution of an error-free value: r = pr = f.
Exec exact(const mpq_class& v, bool neg_zero = false) { return exact(v, v, finite_value(v, neg_zero)); }

mpq_class q2(long e) { return pow2q(e); }

#define REQUIRE_ENCLOSES(z, e)                      \
  do {                                              \
    const std::string what_ = check((z), (e));      \
    INFO((z) << "\n  exact: " << str(e));           \
    CHECK(what_ == "");                             \
  } while (false)

}  // namespace

#define DOMAINS Interval, MpfrInterval, RationalInterval

TEMPLATE_TEST_CASE("issue 11 item 1: a real-format operand is converted into the machine format", "[issue11]",
                   DOMAINS) {
  using SDE = SymbolicDomainError<TestType>;
  SECTION("1e-9 + [2^-24, 2^-23] (FP32)") {
    const SDE x = SDE::constant(1e-9), y = SDE::input(0x1p-24, 0x1p-23, FP32);
    const SDE z = x + y;
    for (const mpq_class& v : {q2(-24), q2(-23), mpq_class(q2(-24) + q2(-40))}) {
      const Exec e = binary(ArithOp::Add, exact(exact_value(1e-9)), exact(v), R, FP32, RNE, IntegerDivision::Floor);
      REQUIRE_ENCLOSES(z, e);
    }
    // tightness twin: at the point 2^-24 the result is a point with its exact, nonzero error
    const SDE p = x + SDE::constant(0x1p-24, FP32);
    CHECK(is_point(p.fp));
    CHECK_FALSE(contains(p.err, 0.0));
  }
  SECTION("[0.1, 0.2] * 2 (FP16)") {
    const SDE x = SDE::input(0.1, 0.2, R), y = SDE::constant(2, FP16);
    const SDE z = x * y;
    CHECK(contains(z.fp, mpq_class(exact_value(0.199951171875) * 2)));
    for (double v : {0.1, 0.2, 0.15, 0.19995}) {
      const Exec e = binary(ArithOp::Mul, exact(exact_value(v)), exact(2), R, FP16, RNE, IntegerDivision::Floor);
      REQUIRE_ENCLOSES(z, e);
    }
  }
  SECTION("RNE Add with a real operand: introduced is not bounded by min(|x|, |y|) of the unrounded operand") {
    const SDE x = SDE::input(0x1p-24, 0x1p-11, R), y = SDE::constant(1, FP16);
    const SDE z = y + x;
    for (const mpq_class& v : {q2(-11), q2(-24), mpq_class(q2(-11) - q2(-30)), mpq_class(q2(-12) * 3 / 4)}) {
      const Exec e = binary(ArithOp::Add, exact(1), exact(v), FP16, R, RNE, IntegerDivision::Floor);
      REQUIRE_ENCLOSES(z, e);
    }
  }
  SECTION("FP16 divided by a real divisor [-1e-10, 1e-10]: the divisor rounds to ±0") {
    const SDE x = SDE::constant(0x1p-24, FP16), y = SDE::input(-1e-10, 1e-10, R);
    const SDE z = x / y;
    for (double v : {1e-10, -1e-10, 1e-20}) {
      const Exec e = binary(ArithOp::Div, exact(q2(-24)), exact(exact_value(v)), FP16, R, RNE, IntegerDivision::Floor);
      CHECK(e.f.kind != Kind::Finite);  // FP16(±1e-10) = ±0
      REQUIRE_ENCLOSES(z, e);
    }
  }
  SECTION("a -0 product with a real operand") {
    const SDE z = SDE::constant(-0x1p-24, FP16) * SDE::input(0.1, 0.2, R);
    const Exec e = binary(ArithOp::Mul, exact(-q2(-24)), exact(exact_value(0.1)), FP16, R, RNE, IntegerDivision::Floor);
    CHECK(e.f.neg_zero);
    REQUIRE_ENCLOSES(z, e);
  }
  SECTION("exactly representable real constants stay exact") {
    const SDE y = SDE::input(1, 2, FP32);
    for (double c : {0.0, 1.0, 0.5, 2.0}) {
      const SDE z = y * SDE::constant(c);
      CHECK(is_point(z.err));
      CHECK(z.err.lower() == 0);
    }
  }
  SECTION("integer op real: the real operand is rounded to nearest (ties to even) and wrapped") {
    const SDE z = SDE::constant(2, INT8) + SDE::constant(0.5);
    const Exec e = binary(ArithOp::Add, exact(2), exact(mpq_class(1, 2)), INT8, R, RNE, IntegerDivision::Floor);
    CHECK(e.f.v == 2);
    REQUIRE_ENCLOSES(z, e);
    CHECK(is_point(z.fp));
    CHECK(z.fp.lower() == 2);
  }
}

TEMPLATE_TEST_CASE("issue 11 item 2: 64-bit integer bounds and arithmetic are exact", "[issue11]", DOMAINS) {
  using SDE = SymbolicDomainError<TestType>;
  const mpq_class m63 = q2(63), m64 = q2(64);
  const SDE min64 = SDE::constant(-0x1p63, INT64);
  SECTION("INT64_MIN / -1, -INT64_MIN, |INT64_MIN| wrap to INT64_MIN") {
    const SDE d = divide(min64, SDE::constant(-1, INT64), IntegerDivision::Truncate);
    REQUIRE_ENCLOSES(d, binary(ArithOp::Div, exact(-m63), exact(-1), INT64, INT64, RNE, IntegerDivision::Truncate));
    CHECK_FALSE(contains(d.fp, 0x1p63));
    const Exec neg = unary(Unary::Neg, exact(-m63), INT64, INT64, RNE);
    CHECK(neg.f.v == -m63);
    REQUIRE_ENCLOSES(-min64, neg);
    REQUIRE_ENCLOSES(abs(min64), unary(Unary::Abs, exact(-m63), INT64, INT64, RNE));
  }
  SECTION("UINT64 2^63 + 2^63 wraps to 0") {
    const SDE h = SDE::constant(0x1p63, UINT64);
    const SDE z = h + h;
    REQUIRE_ENCLOSES(z, binary(ArithOp::Add, exact(m63), exact(m63), UINT64, UINT64, RNE, IntegerDivision::Floor));
    CHECK(is_point(z.fp));
    CHECK(z.fp.lower() == 0);
  }
  SECTION("constants and inputs at the 64-bit bounds") {
    CHECK_THROWS_AS(SDE::constant(0x1p63, INT64), std::invalid_argument);
    CHECK_NOTHROW(SDE::constant(-0x1p63, INT64));
    const SDE u = SDE::input(0, 0x1p64, UINT64);
    CHECK(contains(u.fp, mpq_class(m64 - 1)));
    CHECK_THROWS_AS(SDE::input(0x1p64, 0x1p64, UINT64), std::invalid_argument);
  }
  SECTION("literal(2^53 + 1, INT64) is exact; minus 2^53 gives 1") {
    const mpq_class big = q2(53) + 1;
    const SDE l = SDE::literal(big, INT64);
    REQUIRE_ENCLOSES(l, exact(big));
    const SDE z = l - SDE::constant(0x1p53, INT64);
    REQUIRE_ENCLOSES(z, binary(ArithOp::Sub, exact(big), exact(q2(53)), INT64, INT64, RNE, IntegerDivision::Floor));
  }
  SECTION("literal(2^63, UINT64) and literal(2^64, UINT64) wrap instead of throwing") {
    REQUIRE_ENCLOSES(SDE::literal(m63, UINT64), exact(m63));
    const SDE w = SDE::literal(m64, UINT64);
    REQUIRE_ENCLOSES(w, exact(m64, m64, finite_value(0)));
  }
}

TEMPLATE_TEST_CASE("issue 11 item 3: (-2^63)^2 wraps exactly (also under the one-scope upward rounding)",
                   "[issue11]", DOMAINS) {
  using SDE = SymbolicDomainError<TestType>;
  const SDE x = SDE::constant(-0x1p63, INT64);
  const SDE z = x * x;
  const Exec e = binary(ArithOp::Mul, exact(-q2(63)), exact(-q2(63)), INT64, INT64, RNE, IntegerDivision::Floor);
  CHECK(e.f.v == 0);
  REQUIRE_ENCLOSES(z, e);
  CHECK(contains(z.err, mpq_class(-q2(126))));
  // a non-point operand through the generic wrap
  const SDE y = SDE::input(-0x1p63, -0x1p63 + 4096, INT64);
  const SDE w = y * y;
  REQUIRE_ENCLOSES(w, e);
}

TEMPLATE_TEST_CASE("issue 11 item 4: rel_err after an integer wrap, convert(-2^62, INT4)", "[issue11]", DOMAINS) {
  using SDE = SymbolicDomainError<TestType>;
  SECTION("-x with f = -128, r = -128.25 (INT8)") {
    const SDE x = SDE::computed(-128, 0.25, 0.25, INT8);
    const Exec ex = exact(mpq_class(-513, 4), -128, finite_value(-128));
    REQUIRE_ENCLOSES(x, ex);
    const Exec e = unary(Unary::Neg, ex, INT8, INT8, RNE);
    REQUIRE_ENCLOSES(-x, e);
    CHECK(contains((-x).err, mpq_class(-1025, 4)));
  }
  SECTION("-constant(-128) (INT8): rel_err -2") {
    const SDE z = -SDE::constant(-128, INT8);
    REQUIRE_ENCLOSES(z, unary(Unary::Neg, exact(-128), INT8, INT8, RNE));
    CHECK(contains(z.rel_err, -2.0));
  }
  SECTION("convert(-2^62, INT4)") {
    const SDE z = convert(SDE::constant(-0x1p62, INT64), INT4);
    REQUIRE_ENCLOSES(z, unary(Unary::Convert, exact(-q2(62)), INT64, INT4, RNE));
  }
}

TEMPLATE_TEST_CASE("issue 11 item 5: formats without subnormals", "[issue11]", DOMAINS) {
  using SDE = SymbolicDomainError<TestType>;
  const FloatFormat F = custom_float_format("P5_NOSUB", 5, -10, 15, false);
  const double mn = 0x1p-10;
  SECTION("1.25 mn - mn flushes to 0 (not exact): err -2^-12") {
    const SDE z = SDE::input(1.25 * mn, 1.5 * mn, F) - SDE::constant(mn, F);
    const Exec e = binary(ArithOp::Sub, exact(exact_value(1.25 * mn)), exact(exact_value(mn)), F, F, RNE,
                          IntegerDivision::Floor);
    CHECK(e.f.v == 0);
    REQUIRE_ENCLOSES(z, e);
    CHECK(contains(z.err, mpq_class(-q2(-12))));
  }
  SECTION("mn * 0.75 rounds to mn: introduced 2^-12") {
    const SDE z = SDE::input(0.5, 1, F) * SDE::constant(mn, F);
    const Exec e = binary(ArithOp::Mul, exact(mpq_class(3, 4)), exact(exact_value(mn)), F, F, RNE,
                          IntegerDivision::Floor);
    REQUIRE_ENCLOSES(z, e);
    CHECK(contains(z.introduced, mpq_class(q2(-12))));
  }
  SECTION("a sum flushed to -0, then 1/(-0) = -inf") {
    const SDE s = SDE::constant(mn, F) + SDE::input(-1.5 * mn, -1.25 * mn, F);
    const Exec es = binary(ArithOp::Add, exact(exact_value(mn)), exact(exact_value(-1.25 * mn)), F, F, RNE,
                           IntegerDivision::Floor);
    CHECK(es.f.neg_zero);
    REQUIRE_ENCLOSES(s, es);
    const SDE q = SDE::constant(1, F) / s;
    const Exec eq = binary(ArithOp::Div, exact(1), es, F, F, RNE, IntegerDivision::Floor);
    CHECK(eq.f.kind == Kind::NegInf);
    REQUIRE_ENCLOSES(q, eq);
  }
}

TEMPLATE_TEST_CASE("issue 11 item 6: signed zeros in convert, literal, integer wrap to 0 and neg", "[issue11]",
                   DOMAINS) {
  using SDE = SymbolicDomainError<TestType>;
  for (double v : {-0x1p-30, 0x1p-30}) {
    const SDE z = convert(SDE::constant(v, FP32), FP16);
    const Exec e = unary(Unary::Convert, exact(exact_value(v)), FP32, FP16, RNE);
    CHECK(e.f.neg_zero == (v < 0));
    REQUIRE_ENCLOSES(z, e);
    const SDE l = SDE::literal(exact_value(v), FP16);
    REQUIRE_ENCLOSES(l, exact(exact_value(v), exact_value(v), round_exact(exact_value(v), false, FP16, RNE)));
    // 1 / that zero: ±inf must be flagged
    const SDE q = SDE::constant(1, FP16) / l;
    REQUIRE_ENCLOSES(q, binary(ArithOp::Div, exact(1), exact(exact_value(v), exact_value(v), e.f), FP16, FP16, RNE,
                               IntegerDivision::Floor));
  }
  // UINT8 200 + 56 wraps to 0; to FP16 is +0; its negation -0; 1 / -0 = -inf
  const SDE w = SDE::constant(200, UINT8) + SDE::constant(56, UINT8);
  const Exec ew = binary(ArithOp::Add, exact(200), exact(56), UINT8, UINT8, RNE, IntegerDivision::Floor);
  REQUIRE_ENCLOSES(w, ew);
  const SDE c = convert(w, FP16);
  const Exec ec = unary(Unary::Convert, ew, UINT8, FP16, RNE);
  REQUIRE_ENCLOSES(c, ec);
  const SDE n = -c;
  const Exec en = unary(Unary::Neg, ec, FP16, FP16, RNE);
  CHECK(en.f.neg_zero);
  REQUIRE_ENCLOSES(n, en);
  const SDE q = SDE::constant(1, FP16) / n;
  const Exec eq = binary(ArithOp::Div, exact(1), en, FP16, FP16, RNE, IntegerDivision::Floor);
  CHECK(eq.f.kind == Kind::NegInf);
  REQUIRE_ENCLOSES(q, eq);
}

TEMPLATE_TEST_CASE("issue 11 item 7: literal(1e5, FP16, RTZ) reports the overflow", "[issue11]", DOMAINS) {
  using SDE = SymbolicDomainError<TestType>;
  const SDE l = SDE::literal(100000, FP16, RoundingMode::TowardZero);
  CHECK(l.specials.may_overflow);
  REQUIRE_ENCLOSES(l, exact(100000, 100000, round_exact(100000, false, FP16, RoundingMode::TowardZero)));
  CHECK(l.fp.upper() == 65504);
  // tightness twin: an in-range literal does not overflow
  CHECK_FALSE(SDE::literal(60000, FP16, RoundingMode::TowardZero).specials.may_overflow);
}

namespace {
// Runs f under every hostile caller environment and checks the result equals
// the default environment's (compared and checked outside the hostile scope:
// with DAZ set even printing a subnormal reads it as 0).
template <class F>
auto same_under_every_environment(F f) {
  const auto reference = f();
  for (CallerEnv env : {CallerEnv::TowardZero, CallerEnv::Downward, CallerEnv::Upward, CallerEnv::FtzDaz,
                        CallerEnv::UpwardFtzDaz}) {
    std::optional<decltype(reference)> got;
    {
      const CallerEnvScope scope(env);
      got.emplace(f());
    }
    INFO("caller environment " << env_name(env));
    CHECK(fingerprint(*got) == fingerprint(reference));
  }
  return reference;
}
}  // namespace

TEST_CASE("issue 11 item 8: round_to and the FP environment self-test", "[issue11]") {
  CHECK(fp_environment_guard_works());
  mpq_class huge = q2(1100);
  for (int mode : {FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD}) {
    const int saved = std::fegetround();
    std::fesetround(mode);
    const Rounded r = round_to(huge, FP64, RNE);
    std::fesetround(saved);
    CHECK(r.overflow);
    CHECK(r.value == INFINITY);
  }
}

TEMPLATE_TEST_CASE("issue 11 item 8: results do not depend on the caller's rounding mode or FTZ/DAZ", "[issue11]",
                   DOMAINS) {
  using SDE = SymbolicDomainError<TestType>;
  SECTION("2^1000 * 2^100 overflows") {
    const SDE z = same_under_every_environment(
        [] { return SDE::constant(0x1p1000, FP64) * SDE::constant(0x1p100, FP64); });
    CHECK(z.specials.may_overflow);
    CHECK(z.specials.may_be_pos_inf);
    CHECK_FALSE(z.specials.may_be_finite);
  }
  SECTION("input(2^-1060) / 4 (FP64, subnormal)") {
    const SDE z = same_under_every_environment(
        [] { return SDE::input(0x1p-1060, 0x1p-1060, FP64) / SDE::constant(4, FP64); });
    REQUIRE_ENCLOSES(z, exact(q2(-1062)));
  }
  SECTION("a non-point FP32 product and a real-format operand") {
    same_under_every_environment(
        [] { return (SDE::input(0.1, 0.3, FP32) * SDE::input(-3, 7, 1e-7, 2e-7, FP32)) + SDE::constant(0.1); });
  }
}

TEMPLATE_TEST_CASE("issue 11: OCP FP8 E4M3 (no infinities, max 448, NaN or saturating overflow)", "[issue11]",
                   DOMAINS) {
  using SDE = SymbolicDomainError<TestType>;
  CHECK(FP8_E4M3.max_finite() == 448);
  CHECK_FALSE(is_representable(480, FP8_E4M3));
  CHECK_FALSE(is_representable(INFINITY, FP8_E4M3));
  CHECK(is_representable(448, FP8_E4M3));
  CHECK(std::isnan(round_to(mpq_class(470), FP8_E4M3, RNE).value));
  CHECK(round_to(mpq_class(464), FP8_E4M3, RNE).value == 448);  // the tie goes to the even 448
  CHECK(round_to(mpq_class(100000), FP8_E4M3_SAT, RNE).value == 448);
  CHECK_THROWS_AS(SDE::inf(1, FP8_E4M3), std::invalid_argument);
  CHECK_THROWS_AS(custom_float_format("bad", 4, -6, 8, true, Overflow::Infinity, 1), std::invalid_argument);
  const SDE big = SDE::input(400, 448, FP8_E4M3);
  const SDE n = big + big;  // every sum overflows: NaN, never finite
  CHECK(n.specials.may_be_nan);
  CHECK_FALSE(n.specials.may_be_finite);
  CHECK_FALSE(n.specials.may_be_pos_inf);
  const SDE sat = SDE::input(400, 448, FP8_E4M3_SAT);
  const SDE s = sat + sat;
  REQUIRE_ENCLOSES(s, binary(ArithOp::Add, exact(400), exact(448), FP8_E4M3_SAT, FP8_E4M3_SAT, RNE,
                             IntegerDivision::Floor));
  CHECK(s.fp.upper() == 448);
  const SDE d = SDE::constant(1, FP8_E4M3) / SDE::constant(0, FP8_E4M3);  // x / 0: NaN
  CHECK(d.specials.may_be_nan);
  CHECK_FALSE(d.specials.may_be_pos_inf);
}

// Found by the DAG fuzzer's long run: a product's introduced error of 4.6e-326
// (RationalInterval: lower() rounds it down to 0) was taken for an exact zero,
// and the next division's propagated part was intersected with its total
// error as if the operand were fresh.
TEMPLATE_TEST_CASE("whole-kernel split: a tiny introduced error is not taken for zero", "[issue11]", DOMAINS) {
  using SDE = SymbolicDomainError<TestType>;
  const RoundingMode up = RoundingMode::Upward;
  const double c = -0x1.82fbcd248fb1p-342, f1 = 0x1.d21ce36507691p-730;
  const double elo = -0x1.1398ace778f3cp-731, ehi = 0x1.e4c00b236f886p-734;
  SDE n0 = SDE::constant(c, FP64), n1 = SDE::computed(f1, elo, ehi, FP64);
  n0.mode = n1.mode = up;
  const SDE n2 = n1 * n0, n3 = n2 / n0;
  const Exec e0 = exact(exact_value(c));
  const Exec e1 = exact(exact_value(f1) - exact_value(ehi), exact_value(f1), finite_value(exact_value(f1)));
  const Exec e2 = binary(ArithOp::Mul, e1, e0, FP64, FP64, up, IntegerDivision::Floor);
  REQUIRE_ENCLOSES(n2, e2);
  REQUIRE_ENCLOSES(n3, binary(ArithOp::Div, e2, e0, FP64, FP64, up, IntegerDivision::Floor));
}

// Found by the [long] DAG fuzzer: x / 0 in an integer or the real
// format is undefined, flagged ±inf by its table entry; converted into a float
// format it looked like an exact infinity, and `y < y`, `y < 0` were answered
// "certainly false" although the value is undefined.
TEMPLATE_TEST_CASE("a converted x / 0 of an integer or real value is undefined: no certain comparison", "[issue11]",
                   DOMAINS) {
  using SDE = SymbolicDomainError<TestType>;
  const SDE zero_i = SDE::constant(0, UINT32);
  const SDE q_i = divide(SDE::constant(7, UINT32), zero_i, IntegerDivision::Truncate);
  const SDE zero_r = SDE::constant(0.0, R);
  const SDE q_r = SDE::constant(3.0, R) / zero_r;
  const SDE ref = SDE::constant(1.0, FP16);
  for (const SDE& q : {q_i, q_r}) {
    const SDE y = convert(q, FP16);
    INFO(y);
    CHECK(y.specials.may_be_undefined);
    CHECK(y.specials.may_be_nan);
    CHECK((y < y).tri() == Tri::Unknown);
    CHECK((y < ref).tri() == Tri::Unknown);
    CHECK((ref >= y).tri() == Tri::Unknown);
  }
  // twin: a float infinity is an exact infinity, compared with certainty
  const SDE inf = SDE::inf(+1, FP16);
  CHECK((inf > ref).tri() == Tri::True);
}
