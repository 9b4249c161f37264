// fmod(x, y) = x − trunc(x/y)·y, exact (rules/fmod.hpp), on
// SymbolicDomainError: every enclosure against exact executions (GMP: the
// ideal fmod of the real inputs, the machine's fmod of the computed inputs,
// which std::fmod gives exactly), in FP16, BF16, FP32, FP64 and the four
// domains, on the generator's boxes of every shape (divisors holding 0
// included), on boxes where trunc(x/y) is one integer, on boxes across a
// switch point, and for a chained operand (fmod(a·b, c): the split's general
// case). Tightness twins: with one n the error is e_x − n·e_y, its bound
// attained by a corner execution; across a switch the jump (≈ |y|) is in the
// bound and attained; a result keeps the sign of x.
#include <catch2/catch.hpp>

#include <cmath>
#include <initializer_list>
#include <stdexcept>
#include <utility>

#include <symerr/domains/affine.hpp>
#include <symerr/c_types.hpp>
#include <symerr/domains/mpfr_interval.hpp>
#include <symerr/domains/rational_interval.hpp>
#include <symerr/domains/symbolic_interval.hpp>
#include <symerr/elementary.hpp>
#include <symerr/symbolic.hpp>
#include <symerr/symbolic/std_math.hpp>

#include "core/symbolic_oracle.hpp"
#include "domain_scope.hpp"

using namespace symerr;
using namespace symerr::test;

namespace {

template <class D>
using Scope = DomainScope<D>;

const FloatFormat kFormats[] = {FP16, BF16, FP32, FP64};

mpq_class fmod_q(const mpq_class& x, const mpq_class& y) { return x - trunc_q(x / y) * y; }
// IEEE remainder: n the integer nearest to x / y, ties to even
mpq_class remainder_q(const mpq_class& x, const mpq_class& y) {
  const mpq_class q = x / y, f = floor_q(q), d = q - f;
  const bool odd = mpz_class(f.get_num() % 2) != 0;
  const mpq_class n = d > mpq_class(1, 2) || (d == mpq_class(1, 2) && odd) ? mpq_class(f + 1) : f;
  return x - n * y;
}
mpq_class modulo_q(const mpq_class& x, const mpq_class& y, bool nearest) {
  return nearest ? remainder_q(x, y) : fmod_q(x, y);
}
template <class S>
S modulo(const S& x, const S& y, bool nearest) {
  return nearest ? remainder(x, y) : fmod(x, y);
}

Outcome fmod_outcome(const mpq_class& rx, const mpq_class& ry, double fx, double fy, bool nearest) {
  Outcome o;
  o.real_defined = sgn(ry) != 0;
  if (o.real_defined) o.r = modulo_q(rx, ry, nearest);
  o.f = nearest ? std::remainder(fx, fy) : std::fmod(fx, fy);  // exact; a value of the operands' format
  o.t_finite = std::isfinite(o.f);
  if (o.t_finite) o.t = exact_value(o.f);
  return o;
}

double in_format(double v, const FloatFormat& F) { return round_to(exact_value(v), F, RoundingMode::NearestEven).value; }

// A box of the kind `kind`: 0 the generator's (any shape), 1 x/y between two
// integers (one n), 2 x across a switch point n·y (y nearly a point).
void boxes(Generator& gen, const FloatFormat& F, int kind, Box& bx, Box& by) {
  if (kind == 0) {
    bx = gen.box(F);
    by = gen.box(F);
    return;
  }
  const double sy = gen.pick(0, 1) ? 1.0 : -1.0, sx = gen.pick(0, 1) ? 1.0 : -1.0;
  const double y0 = in_format(0.5 + 3.5 * gen.unit(), F);
  const double y1 = in_format(y0 * (1 + std::ldexp(gen.unit(), -6)), F);
  const int n = gen.pick(0, 40);
  const double rel = std::ldexp(1.0, 2 - F.precision);
  if (kind == 1) {
    double lo = in_format(y1 * (n + 0.1 + 0.3 * gen.unit()), F), hi = in_format(y0 * (n + 0.6 + 0.3 * gen.unit()), F);
    if (lo > hi) std::swap(lo, hi);
    bx = {sx > 0 ? lo : -hi, sx > 0 ? hi : -lo, -rel * hi * gen.unit(), rel * hi * gen.unit()};
  } else {
    const double c = in_format(y0 * std::max(n, 1), F), d = std::ldexp(c, 4 - F.precision);
    bx = {sx * c - d, sx * c + d, -d, d};
    bx.lo = in_format(bx.lo, F);
    bx.hi = in_format(bx.hi, F);
  }
  by = {sy > 0 ? y0 : -y1, sy > 0 ? y1 : -y0, -rel * y1 * gen.unit(), rel * y1 * gen.unit()};
}

// The inputs of the boxes, or false when a constructed range holds no value
// of the format.
template <class S>
bool make_inputs(std::initializer_list<std::pair<const Box*, S*>> inputs, const FloatFormat& F) {
  try {
    for (const auto& [b, s] : inputs) *s = S::input(b->lo, b->hi, b->elo, b->ehi, F);
    return true;
  } catch (const std::invalid_argument&) {
    return false;
  }
}

template <class D>
long campaign(const FloatFormat& F, long count, bool nearest = false) {
  using S = SymbolicDomainError<D>;
  Generator gen(9300 + F.precision + (nearest ? 50 : 0));
  long executions = 0;
  for (long i = 0; i < count; ++i) {
    Box bx, by;
    boxes(gen, F, static_cast<int>(i % 3), bx, by);
    [[maybe_unused]] Scope<D> scope;
    S x, y;
    if (!make_inputs<S>({{&bx, &x}, {&by, &y}}, F)) continue;
    const S z = modulo(x, y, nearest);
    INFO(F.name << (nearest ? " remainder" : " fmod") << " x " << describe(bx) << " y " << describe(by) << "\n z = " << z);
    for (int j = 0; j < 10; ++j) {
      const auto ex = gen.execution(bx, x.fp.lower(), x.fp.upper(), F, x.specials.may_be_neg_zero);
      const auto ey = gen.execution(by, y.fp.lower(), y.fp.upper(), F, y.specials.may_be_neg_zero);
      if (!ex || !ey) continue;
      const Outcome o = fmod_outcome(ex->r, ey->r, ex->f, ey->f, nearest);
      const std::string defect = check_execution(z, o, F);
      INFO("x = " << hex(ex->f) << " y = " << hex(ey->f) << " f = " << hex(o.f));
      CHECK(defect == "");
      if (o.t_finite && o.real_defined) CHECK(contains(z.introduced, mpq_class(0)));
      ++executions;
    }
  }
  return executions;
}

// fmod(a·b, c): the first operand is a result (introduced error nonzero).
template <class D>
long chained_campaign(const FloatFormat& F, long count, bool nearest = false) {
  using S = SymbolicDomainError<D>;
  Generator gen(9400 + F.precision + (nearest ? 50 : 0));
  long executions = 0;
  for (long i = 0; i < count; ++i) {
    Box bx, by;
    boxes(gen, F, 1 + static_cast<int>(i % 2), bx, by);
    const Box bb{1, in_format(1 + std::ldexp(gen.unit(), -4), F), -std::ldexp(1.0, -F.precision),
                 std::ldexp(1.0, -F.precision)};
    [[maybe_unused]] Scope<D> scope;
    S a, b, c;
    if (!make_inputs<S>({{&bx, &a}, {&bb, &b}, {&by, &c}}, F)) continue;
    const S ab = a * b;
    const S z = modulo(ab, c, nearest);
    INFO(F.name << " z = " << z);
    for (int j = 0; j < 8; ++j) {
      const auto ea = gen.execution(bx, a.fp.lower(), a.fp.upper(), F, false);
      const auto eb = gen.execution(bb, b.fp.lower(), b.fp.upper(), F, false);
      const auto ec = gen.execution(by, c.fp.lower(), c.fp.upper(), F, false);
      if (!ea || !eb || !ec) continue;
      const mpq_class pr_ab = exact_value(ea->f) * exact_value(eb->f);  // the real product of the actual inputs
      const double f_ab = round_to(pr_ab, F, RoundingMode::NearestEven).value;
      if (!std::isfinite(f_ab)) continue;
      const mpq_class r = modulo_q(ea->r * eb->r, ec->r, nearest);
      const double f = nearest ? std::remainder(f_ab, ec->f) : std::fmod(f_ab, ec->f);
      const mpq_class pr = modulo_q(pr_ab, exact_value(ec->f), nearest);
      bool done = false;
      INFO("f = " << hex(f));
      CHECK(split_defect(z, f, r, pr, F, done) == "");
      if (!done) ++executions;
    }
  }
  return executions;
}

}  // namespace

TEMPLATE_TEST_CASE("fmod: every enclosure holds exact executions", "[core][fmod]", Interval, MpfrInterval,
                   RationalInterval, Affine) {
  const long count = std::max(300L, static_cast<long>(1500 * test_scale()));
  long total = 0, chained = 0;
  for (const FloatFormat& F : kFormats) {
    total += campaign<TestType>(F, count);
    chained += chained_campaign<TestType>(F, count / 2);
  }
  INFO(total << " executions, " << chained << " chained");
  CHECK(total >= count * 4 * 5);
  CHECK(chained >= count * 2);
}

// Twin: one n. x in [5.25, 5.75], y in [2, 2.125] (x/y in [2.47, 2.875]:
// n = 2), input errors ±e: err = e_x − 2·e_y, bound 3e, attained by the
// corner execution (r_x = 5.5, f_x = r_x + e; r_y = 2.0625, f_y = r_y − e).
TEST_CASE("fmod tightness: with one n the error is e_x - n e_y, attained", "[core][fmod]") {
  const double e = 0x1p-30;
  const auto x = SymbolicError::input(5.25, 5.75, -e, e, FP64), y = SymbolicError::input(2, 2.125, -e, e, FP64);
  const auto z = fmod(x, y);
  CHECK(mag(z.err) >= 3 * e);
  CHECK(mag(z.err) <= 3 * e * (1 + 1e-12));
  CHECK(detail::is_zero_point(z.introduced));
  const double fx = 5.5 + e, fy = 2.0625 - e;
  const mpq_class d = exact_value(std::fmod(fx, fy)) - fmod_q(exact_value(5.5), exact_value(2.0625));
  CHECK(contains(z.err, d));
  CHECK(d.get_d() == 3 * e);
  // the interval image: x − 2y, within [0, 2.125)
  CHECK(z.real.lower() == 5.25 - 2 * 2.125);
  CHECK(z.real.upper() == 5.75 - 2 * 2);
}

// Twin: across a switch. x near 4 with error ±2^-30, y = 2 exactly: the ideal
// and the computed quotient fall on either side of 2, and fmod jumps by 2.
TEST_CASE("fmod tightness: a switch point in the box gives the jump, attained", "[core][fmod]") {
  const double e = 0x1p-30;
  const auto x = SymbolicError::input(4 - 0x1p-20, 4 + 0x1p-20, -e, e, FP64), y = SymbolicError::constant(2, FP64);
  const auto z = fmod(x, y);
  // r = 4 − 2^-31 (fmod 2 − 2^-31), f = 4 + 2^-31 (fmod 2^-31): f − r = −2 + 2^-30
  const mpq_class r = fmod_q(exact_value(4) - exact_value(0x1p-31), 2);
  const mpq_class f = exact_value(std::fmod(4 + 0x1p-31, 2.0));
  CHECK(contains(z.err, mpq_class(f - r)));
  CHECK(z.err.lower() <= -2 + e);
  CHECK(z.err.lower() >= -2 - 0x1p-19);
  CHECK(z.err.upper() >= 2 - e);  // and the other side
  CHECK(z.real.lower() >= 0);     // the sign of x
  CHECK(z.real.upper() <= 2);
}

// Operands without error across switch points: the ideal and the computed
// program take the same n in every execution, and fmod is exact, so the
// error is exactly 0 (it was [−6, 6] for fmod(x, 3) on [−10, 10], from the
// two images; found by a new-user tryout). Twin: an input error of 2^-30
// gives back the jump of about |y| (the case above).
TEST_CASE("fmod and remainder of operands without error are exact across switch points", "[core][fmod]") {
  for (const FloatFormat& F : {FP32, FP64}) {
    const auto x = SymbolicError::input(-10, 10, F), y = SymbolicError::constant(3, F);
    for (const auto& z : {fmod(x, y), remainder(x, y)}) {
      CHECK(z.err.lower() == 0);
      CHECK(z.err.upper() == 0);
      CHECK(z.propagated.lower() == 0);
      CHECK(z.introduced.upper() == 0);
      CHECK(z.real.lower() >= -3);
      CHECK(z.real.upper() <= 3);
    }
    const auto xe = SymbolicError::input(-10, 10, -0x1p-30, 0x1p-30, F);
    CHECK(mag(fmod(xe, y).err) >= 3 - 0x1p-20);
  }
}

TEST_CASE("fmod: special operands, zero signs, literals, C names, refused operands", "[core][fmod]") {
  const auto x = SymbolicError::input(-3, -1, FP32);
  const auto z = fmod(x, SymbolicError::constant(0.5, FP32));  // exact multiples of 0.5 give −0
  CHECK(z.specials.may_be_neg_zero);
  CHECK_FALSE(z.specials.may_be_pos_zero);
  CHECK(z.fp.upper() <= 0);
  CHECK(z.fp.lower() >= -0.5);
  const auto by_zero = fmod(x, SymbolicError::input(-1, 1, FP32));  // fmod(x, 0) is NaN
  CHECK(by_zero.specials.may_be_nan);
  CHECK(by_zero.specials.may_be_undefined);
  const auto of_inf = fmod(SymbolicError::inf(1, FP32), SymbolicError::constant(2, FP32));
  CHECK(of_inf.specials.may_be_nan);
  CHECK(fmodf(x, 2.0f).fp.lower() == fmod(x, SymbolicError::constant(2, FP32)).fp.lower());
  CHECK(fmod(7.0, SymbolicError::input(2, 2.5, FP64)).fp.upper() <= 2.5);
  const auto lit = fmod(SymbolicError::input(0.5, 0.9, FP32), 0.1);  // 0.1 rounded into FP32: its error
  CHECK(mag(lit.err) > 0);
  CHECK_THROWS_WITH(fmod(x, SymbolicError::input(1, 2, FP64)), Catch::Contains("different formats"));
  CHECK_THROWS_WITH(fmod(SymbolicError::input(1, 2, INT8), SymbolicError::input(1, 2, INT8)),
                    Catch::Contains("integer format"));
  CHECK(operator_info(OpId::Fmod).arity == 2);
  CHECK(find_operator("fmod") == &operator_info(OpId::Fmod));
  // C_TYPES: fmod is the double function, fmodf the float one
  const CFloat cx(SymbolicError::input(1, 3, FP32));
  CHECK(format_name(fmod(cx, 0.5).format) == "FP64");
  CHECK(format_name(fmodf(cx, 0.5f).format) == "FP32");
}

// Twin in Affine: fmod with one n is a form, x − n·y: fmod(x, y) − (x − 2y) is 0.
TEST_CASE("fmod and remainder in Affine: with one n the result is the form x - n y", "[core][fmod][affine]") {
  AffineContext ctx;
  AffineScope scope(ctx);
  using SA = SymbolicDomainError<Affine>;
  const SA x = SA::input(5.25, 5.75, FP64), y = SA::input(2, 2.125, FP64);
  const SA d = fmod(x, y) - (x - 2 * y);
  CHECK(d.real.lower() == 0);
  CHECK(d.real.upper() == 0);
  const SA a = SA::input(3.75, 4.25, FP64);  // remainder: x/y in [1.76, 2.125], n = 2
  const SA dr = remainder(a, y) - (a - 2 * y);
  CHECK(dr.real.lower() == 0);
  CHECK(dr.real.upper() == 0);
  const auto xi = SymbolicError::input(5.25, 5.75, FP64), yi = SymbolicError::input(2, 2.125, FP64);
  CHECK(mag((fmod(xi, yi) - (xi - 2 * yi)).real) > 0.5);  // the interval domain: no relation
}

TEMPLATE_TEST_CASE("remainder: every enclosure holds exact executions", "[core][fmod][remainder]", Interval,
                   MpfrInterval, RationalInterval, Affine) {
  const long count = std::max(300L, static_cast<long>(1500 * test_scale()));
  long total = 0, chained = 0;
  for (const FloatFormat& F : kFormats) {
    total += campaign<TestType>(F, count, true);
    chained += chained_campaign<TestType>(F, count / 2, true);
  }
  INFO(total << " executions, " << chained << " chained");
  CHECK(total >= count * 4 * 5);
  CHECK(chained >= count * 2);
}

// Twins: one n (x/y in [1.76, 2.125]: n = 2), err = e_x − 2 e_y, bound 3e
// attained at a corner; across the switch x/y = 2.5 (y = 2, x near 5: the
// tie goes to n = 2, above it n = 3) the jump |y| = 2 in both directions.
TEST_CASE("remainder tightness: one n gives e_x - n e_y, a switch gives the jump, both attained",
          "[core][fmod][remainder]") {
  const double e = 0x1p-30;
  const auto x = SymbolicError::input(3.75, 4.25, -e, e, FP64), y = SymbolicError::input(2, 2.125, -e, e, FP64);
  const auto z = remainder(x, y);
  CHECK(mag(z.err) >= 3 * e);
  CHECK(mag(z.err) <= 3 * e * (1 + 1e-12));
  const double fx = 4 + e, fy = 2.0625 - e;
  const mpq_class d = exact_value(std::remainder(fx, fy)) - remainder_q(exact_value(4.0), exact_value(2.0625));
  CHECK(d.get_d() == 3 * e);
  CHECK(contains(z.err, d));
  CHECK(z.real.lower() >= -2.125 / 2);  // |z| <= |y|/2
  const auto w = remainder(SymbolicError::input(5 - 0x1p-20, 5 + 0x1p-20, -e, e, FP64), SymbolicError::constant(2, FP64));
  const mpq_class r = remainder_q(exact_value(5.0) - exact_value(0x1p-31), 2);  // n = 2: 1 − 2^-31
  const mpq_class f = exact_value(std::remainder(5 + 0x1p-31, 2.0));           // n = 3: −1 + 2^-31
  CHECK(mpq_class(f - r).get_d() == -2 + 0x1p-30);
  CHECK(contains(w.err, mpq_class(f - r)));
  CHECK(w.err.lower() >= -2 - 0x1p-19);
  CHECK(w.err.upper() >= 2 - e);
  CHECK(w.err.upper() <= 2 + 0x1p-19);
  CHECK(std::remainder(5.0, 2.0) == 1.0);  // the tie: n = 2, even
}

TEST_CASE("remainder: C names, std::, literals, C_TYPES", "[core][fmod][remainder]") {
  const auto x = SymbolicError::input(3.75, 4.25, FP32);
  CHECK(remainderf(x, 2.0f).fp.lower() == remainder(x, SymbolicError::constant(2, FP32)).fp.lower());
  CHECK(std::remainder(x, 2.0).fp.upper() <= 1.0);
  CHECK(remainder(7.0, SymbolicError::input(2, 2.5, FP64)).fp.upper() <= 1.25);
  CHECK(std::remainder(7.0, 2.0) == -1.0);  // the standard function unchanged
  const CFloat cx(SymbolicError::input(1, 3, FP32));
  CHECK(format_name(remainder(cx, 0.5).format) == "FP64");
  CHECK(format_name(remainderf(cx, 0.5f).format) == "FP32");
}
