// fma(x, y, w) = round(x·y + w), one rounding (rules/fma.hpp), on
// SymbolicDomainError: every enclosure against exact executions (GMP: the
// ideal value, the exact t = f_x·f_y + f_w and its rounding into the format;
// the hardware fma agrees with that rounding on FP64 and FP32), in FP16, BF16,
// FP32, FP64 and the four domains, on the generator's boxes of every shape,
// for inputs and for a chained operand (fma(a·b, c, d): the split's general
// case). Tightness twins: the one rounding's bound is the half ulp of max |t|
// and is attained within 2%; the propagated error of boxes in [1, 2] is
// 5e (+ the rounding) and attained; point operands give the exact rounding;
// in the Affine domain two evaluations of the same fma cancel exactly.
#include <catch2/catch.hpp>

#include <cmath>
#include <stdexcept>

#include <symerr/domains/affine.hpp>
#include <symerr/domains/mpfr_interval.hpp>
#include <symerr/domains/rational_interval.hpp>
#include <symerr/domains/symbolic_interval.hpp>
#include <symerr/elementary.hpp>
#include <symerr/symbolic.hpp>

#include "core/symbolic_oracle.hpp"
#include "domain_scope.hpp"

using namespace symerr;
using namespace symerr::test;

namespace {

template <class D>
using Scope = DomainScope<D>;  // an AffineContext for Affine (domain_scope.hpp)

const FloatFormat kFormats[] = {FP16, BF16, FP32, FP64};

// The exact outcome of fma on concrete values: ideal r = rx·ry + rw, the
// machine's exact t = fx·fy + fw and its rounding f.
Outcome fma_outcome(const mpq_class& rx, const mpq_class& ry, const mpq_class& rw, double fx, double fy, double fw,
                    const FloatFormat& F) {
  Outcome o;
  o.r = rx * ry + rw;
  o.t = exact_value(fx) * exact_value(fy) + exact_value(fw);
  o.t_finite = true;
  o.f = round_to(o.t, F, RoundingMode::NearestEven).value;
  return o;
}

template <class D>
long campaign(const FloatFormat& F, long boxes, long& hardware_checked) {
  using S = SymbolicDomainError<D>;
  Generator gen(9100 + F.precision);
  long executions = 0;
  for (long b_i = 0; b_i < boxes; ++b_i) {
    const Box bx = gen.box(F), by = gen.box(F), bw = gen.box(F);
    [[maybe_unused]] Scope<D> scope;
    const S x = S::input(bx.lo, bx.hi, bx.elo, bx.ehi, F), y = S::input(by.lo, by.hi, by.elo, by.ehi, F),
            w = S::input(bw.lo, bw.hi, bw.elo, bw.ehi, F);
    const S z = fma(x, y, w);
    INFO(F.name << " x " << describe(bx) << " y " << describe(by) << " w " << describe(bw) << "\n z = " << z);
    for (int j = 0; j < 10; ++j) {
      const auto ex = gen.execution(bx, x.fp.lower(), x.fp.upper(), F, x.specials.may_be_neg_zero);
      const auto ey = gen.execution(by, y.fp.lower(), y.fp.upper(), F, y.specials.may_be_neg_zero);
      const auto ew = gen.execution(bw, w.fp.lower(), w.fp.upper(), F, w.specials.may_be_neg_zero);
      if (!ex || !ey || !ew) continue;
      const Outcome o = fma_outcome(ex->r, ey->r, ew->r, ex->f, ey->f, ew->f, F);
      if ((F.precision == 53 || F.precision == 24) && std::isfinite(o.f) && o.f != 0) {
        const double hw = F.precision == 53 ? std::fma(ex->f, ey->f, ew->f)
                                            : static_cast<double>(std::fma(static_cast<float>(ex->f),
                                                                           static_cast<float>(ey->f),
                                                                           static_cast<float>(ew->f)));
        CHECK(hw == o.f);  // the oracle's rounding is the hardware's fma
        ++hardware_checked;
      }
      const std::string defect = check_execution(z, o, F);
      INFO("x = " << hex(ex->f) << " y = " << hex(ey->f) << " w = " << hex(ew->f) << " f = " << hex(o.f));
      CHECK(defect == "");
      ++executions;
    }
  }
  return executions;
}

// fma(a·b, c, d): the first operand is a result (introduced error nonzero).
template <class D>
long chained_campaign(const FloatFormat& F, long boxes) {
  using S = SymbolicDomainError<D>;
  Generator gen(9200 + F.precision);
  long executions = 0;
  for (long b_i = 0; b_i < boxes; ++b_i) {
    Box bo[4];
    for (Box& b : bo) {
      b = gen.box(F);
      if (gen.pick(0, 1)) {  // moderate magnitudes: products stay finite
        b.lo = round_to(gen.unit() * 4 - 2, F, RoundingMode::NearestEven).value;
        b.hi = round_to(b.lo + gen.unit() * 2, F, RoundingMode::NearestEven).value;
        b.elo = -std::ldexp(gen.unit(), -F.precision + 2);
        b.ehi = std::ldexp(gen.unit(), -F.precision + 2);
      }
    }
    [[maybe_unused]] Scope<D> scope;
    S in[4];
    for (int k = 0; k < 4; ++k) in[k] = S::input(bo[k].lo, bo[k].hi, bo[k].elo, bo[k].ehi, F);
    const S ab = in[0] * in[1];
    const S z = fma(ab, in[2], in[3]);
    INFO(F.name << " z = " << z);
    for (int j = 0; j < 8; ++j) {
      std::optional<Generator::Execution> e[4];
      bool ok = true;
      for (int k = 0; k < 4; ++k) {
        e[k] = gen.execution(bo[k], in[k].fp.lower(), in[k].fp.upper(), F, in[k].specials.may_be_neg_zero);
        ok = ok && e[k].has_value();
      }
      if (!ok) continue;
      const mpq_class pr_ab = exact_value(e[0]->f) * exact_value(e[1]->f);  // the real product of the actual inputs
      const double f_ab = round_to(pr_ab, F, RoundingMode::NearestEven).value;
      if (!std::isfinite(f_ab)) continue;
      const mpq_class r = e[0]->r * e[1]->r * e[2]->r + e[3]->r;
      const mpq_class t = exact_value(f_ab) * exact_value(e[2]->f) + exact_value(e[3]->f);
      const double f = round_to(t, F, RoundingMode::NearestEven).value;
      const mpq_class pr = pr_ab * exact_value(e[2]->f) + exact_value(e[3]->f);
      bool done = false;
      INFO("f = " << hex(f));
      CHECK(split_defect(z, f, r, pr, F, done) == "");
      if (!done) ++executions;
    }
  }
  return executions;
}

template <class D>
void soundness() {
  const long boxes = std::max(300L, static_cast<long>(2500 * test_scale()));
  long total = 0, chained = 0, hardware = 0;
  for (const FloatFormat& F : kFormats) {
    total += campaign<D>(F, boxes, hardware);
    chained += chained_campaign<D>(F, boxes / 2);
  }
  INFO(total << " executions, " << chained << " chained, " << hardware << " checked against the hardware fma");
  CHECK(total >= boxes * 4 * 3);
  CHECK(chained >= boxes * 2);
  CHECK(hardware >= boxes);
}

}  // namespace

TEMPLATE_TEST_CASE("fma: every enclosure holds exact executions", "[core][fma]", Interval, MpfrInterval,
                   RationalInterval, Affine) {
  soundness<TestType>();
}

// Twin: the one rounding's bound is ½ ulp(max |t|), attained within 2% by
// sampled executions (x, y, w in [1, 2], no input error: t in [2, 6]), and
// half the unfused a·b + c's two roundings.
TEST_CASE("fma tightness: one rounding, bound attained", "[core][fma]") {
  const auto x = SymbolicError::input(1, 2, FP64), y = SymbolicError::input(1, 2, FP64),
             w = SymbolicError::input(1, 2, FP64);
  const auto z = fma(x, y, w);
  CHECK(mag(z.introduced) == std::ldexp(1.0, -51));  // ½ ulp of [4, 8)
  CHECK(mag(z.err) == std::ldexp(1.0, -51));
  CHECK(mag((x * y + w).err) == 0x1.8p-51);  // two roundings: ½ ulp([2, 4)) + ½ ulp([4, 8))
  Generator g(5);
  mpq_class worst = 0;
  for (int i = 0; i < 20000; ++i) {
    const double a = 1 + g.unit(), b = 1 + g.unit(), c = 1 + g.unit();
    const mpq_class t = exact_value(a) * exact_value(b) + exact_value(c);
    const mpq_class d = abs(mpq_class(exact_value(std::fma(a, b, c)) - t));
    if (d > worst) worst = d;
  }
  CHECK(worst.get_d() >= 0.98 * std::ldexp(1.0, -51));
}

// Twin: propagation. x, y, w in [1, 2] with input error in [-e, e]: the
// largest |f − r| is 5e + e² plus the rounding, at x = y = 2 (errors +e).
TEST_CASE("fma tightness: propagated error attained", "[core][fma]") {
  const double e = 1e-10;
  const auto x = SymbolicError::input(1, 2, -e, e, FP64), y = SymbolicError::input(1, 2, -e, e, FP64),
             w = SymbolicError::input(1, 2, -e, e, FP64);
  const auto z = fma(x, y, w);
  const double attained = 5 * e + e * e;  // r = 2, 2, 2; f = 2 + e each (t − r), then rounded
  CHECK(mag(z.propagated) >= attained);
  CHECK(mag(z.propagated) <= attained * (1 + 1e-12));
  CHECK(mag(z.err) <= attained * (1 + 1e-12) + std::ldexp(1.0, -51));
  // the witness: f − r of the corner execution, within the bound
  const double f2 = round_to(mpq_class(2) + exact_value(e), FP64, RoundingMode::NearestEven).value;
  const mpq_class fz = exact_value(std::fma(f2, f2, f2));
  CHECK(contains(z.err, mpq_class(fz - 6)));
  CHECK(mpq_class(fz - 6).get_d() >= 0.999 * attained);
}

// Point operands: the exact rounding error; literals next to symbolic
// values; the C name fmaf; refused formats; special operands.
TEST_CASE("fma: points, literals, C names, refused operands", "[core][fma]") {
  const auto a = SymbolicError::constant(0x1.8p0, FP64), b = SymbolicError::constant(0x1.0000000000001p0, FP64);
  const auto c = SymbolicError::constant(-1.5, FP64);
  const auto z = fma(a, b, c);  // 1.5·(1 + 2^-52) − 1.5 = 1.5·2^-52 exactly: representable
  CHECK(z.fp.lower() == 0x1.8p-52);
  CHECK(z.fp.upper() == 0x1.8p-52);
  CHECK(detail::is_zero_point(z.err));
  const auto unfused = a * b + c;  // the product rounds: 1.5 + 2^-51 (ties to even) − 1.5 = 2^-51
  CHECK(unfused.fp.lower() == 0x1p-51);

  const auto x = SymbolicError::input(1, 2, FP32);
  const auto lit = fma(x, 0.1, 1.0);  // 0.1 is not an FP32 value: rounded, its error introduced
  // the double 0.1 as the compiler gave it (not 1/10), rounded into FP32
  const auto same = fma(x, SymbolicError::literal(exact_value(0.1), FP32), SymbolicError::constant(1.0, FP32));
  CHECK(lit.err.lower() == same.err.lower());
  CHECK(lit.err.upper() == same.err.upper());
  CHECK(mag(lit.introduced) > 0);
  CHECK(fmaf(x, x, 1.0f).fp.upper() == fma(x, x, 1.0).fp.upper());

  CHECK_THROWS_WITH(fma(x, SymbolicError::input(1, 2, FP64), x), Catch::Contains("different formats"));
  CHECK_THROWS_WITH(fma(SymbolicError::input(1, 2, INT8), SymbolicError::input(1, 2, INT8), 1),
                    Catch::Contains("integer format"));
  const auto n = fma(SymbolicError::inf(1, FP32), SymbolicError::constant(0.0, FP32), x);  // inf·0: invalid
  CHECK(n.specials.may_be_nan);
  CHECK(operator_info(OpId::Fma).arity == 3);
  CHECK(find_operator("fma") == &operator_info(OpId::Fma));
}

// Twin in Affine: two evaluations of the same fma on the same operands are
// one value (its rounding is named by t): the difference is exactly 0, where
// the Interval domain gives the width of the result.
TEST_CASE("fma in Affine: the same fma twice cancels", "[core][fma][affine]") {
  AffineContext ctx;
  AffineScope scope(ctx);
  using SA = SymbolicDomainError<Affine>;
  const SA x = SA::input(-1, 1, -1e-9, 1e-9, FP32), y = SA::input(1, 2, -1e-9, 1e-9, FP32),
           w = SA::input(-1, 1, FP32);
  const SA d = fma(x, y, w) - fma(x, y, w);
  CHECK(d.real.lower() == 0);
  CHECK(d.real.upper() == 0);
  CHECK(d.err.lower() == 0);
  CHECK(d.err.upper() == 0);
  const auto xi = SymbolicError::input(-1, 1, -1e-9, 1e-9, FP32), yi = SymbolicError::input(1, 2, -1e-9, 1e-9, FP32),
             wi = SymbolicError::input(-1, 1, FP32);
  CHECK(width((fma(xi, yi, wi) - fma(xi, yi, wi)).err) > 0);
}
