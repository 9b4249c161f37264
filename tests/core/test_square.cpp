// x * x with both operands the same object is a square (arith.hpp,
// detail::square): real and, in floating formats, fp are >= 0. Soundness
// against exact executions per format × domain, the tightness twins (the
// square is nonnegative where the product of two copies is not; an integer
// square still wraps), and a composed variance / layer-norm kernel checked
// against exact executions.
#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <random>

#include <gmpxx.h>

#include <symerr/domains/affine.hpp>
#include <symerr/domains/interval.hpp>
#include <symerr/domains/mpfr_interval.hpp>
#include <symerr/domains/rational_interval.hpp>
#include <symerr/domains/symbolic_interval.hpp>
#include <symerr/elementary.hpp>
#include <symerr/symbolic.hpp>

#include "core/symbolic_oracle.hpp"

using namespace symerr;
using namespace symerr::test;

namespace {

const Format kSquareFormats[] = {FP16, BF16, FP32, FP64, INT8, UINT8, INT32, INT4};

// variance of n values the way a C kernel writes it: the same local squared
template <class T>
T variance(const T* x, int n) {
  T m = 0;
  for (int i = 0; i < n; ++i) m += x[i];
  m = m / n;
  T v = 0;
  for (int i = 0; i < n; ++i) {
    T d = x[i] - m;
    v += d * d;
  }
  return v / n;
}

}  // namespace

TEMPLATE_TEST_CASE("x * x of one object is sound (random boxes, exact oracle)", "[core][soundness][square]",
                   Interval, MpfrInterval, RationalInterval) {
  const long boxes = std::max(20L, static_cast<long>(1000 * test_scale()));
  for (const Format& format : kSquareFormats) {
    Generator g(77 ^ std::hash<std::string>{}(format_name(format)));
    long executions = 0;
    for (long p = 0; p < boxes; ++p) {
      const Box bx = g.box(format);
      const auto x = SymbolicDomainError<TestType>::input(bx.lo, bx.hi, bx.elo, bx.ehi, format);
      const auto z = x * x;
      auto w = x;
      w *= w;  // the compound form: the same object on both sides
      for (int k = 0; k < 100; ++k) {
        const auto ex = g.execution(bx, x.fp.lower(), x.fp.upper(), format, x.specials.may_be_neg_zero);
        if (!ex) continue;
        const Outcome o = oracle(ArithOp::Mul, ex->r, ex->r, ex->f, ex->f, format, RoundingMode::NearestEven,
                                 IntegerDivision::Truncate);
        for (const SymbolicDomainError<TestType>* r : {&z, static_cast<const SymbolicDomainError<TestType>*>(&w)}) {
          const std::string failure = check_execution(*r, o, format);
          if (!failure.empty())
            FAIL(format_name(format) << " x*x: " << failure << "\nx box " << describe(bx) << "\n  x = " << x
                                     << "\nz = " << *r << "\nexecution: rx=" << ex->r.get_str()
                                     << " fx=" << hex(ex->f) << " f=" << hex(o.f));
        }
        ++executions;
      }
    }
    INFO(format_name(format) << ": " << executions << " executions");
    CHECK(executions >= boxes * 60);
  }
}

TEMPLATE_TEST_CASE("x * x of one object: nonnegative where two copies are not (tightness twins)",
                   "[core][tightness][square]", Interval, MpfrInterval, RationalInterval) {
  using S = SymbolicDomainError<TestType>;
  const S x = S::input(-1, 2, -1e-3, 1e-3, FP32);
  const S y = x;  // a copy: another object, so the product rule knows nothing
  const S sq = x * x, prod = x * y;
  CHECK(sq.real.lower() == 0);
  CHECK(sq.real.upper() >= 4);
  CHECK(sq.fp.lower() == 0);
  CHECK(!sq.specials.may_be_neg_zero);
  CHECK(prod.real.lower() <= -2);  // the twin: the independent product
  CHECK(prod.fp.lower() < -2);
  // the err part is the product rule's, never wider
  CHECK(sq.err.lower() >= prod.err.lower());
  CHECK(sq.err.upper() <= prod.err.upper());
  CHECK(sq.err.upper() >= 4e-3);  // (2 + 1e-3)² − 4 ≈ 4.0e-3 is reached
  // one sign: nothing to tighten, the same enclosure as the product
  const S p = S::input(0.5, 2, FP32);
  const S q = p;
  CHECK((p * p).real.lower() == (p * q).real.lower());
  CHECK((p * p).real.upper() == (p * q).real.upper());
  // an integer square wraps (INT8 12·12 = 144 -> −112): fp stays negative
  const S i = S::input(10, 12, INT8);
  CHECK((i * i).fp.lower() <= -112);
  CHECK((i * i).real.lower() == 100);
}

TEST_CASE("variance and layer norm with d * d: sound against exact executions, sqrt defined",
          "[core][soundness][square]") {
  constexpr int n = 4;
  const double e = 0x1p-20;
  std::array<SymbolicError, n> xs;
  for (auto& v : xs) v = SymbolicError::input(-1, 1, -e, e, FP32);
  const SymbolicError var = variance(xs.data(), n);
  const SymbolicError eps(1e-5);
  const SymbolicError mean = (xs[0] + xs[1] + xs[2] + xs[3]) / n;
  const SymbolicError norm = (xs[1] - mean) / sqrt(var + eps);
  CHECK(var.real.lower() == 0);  // tightness: Σ d·d >= 0
  CHECK(!var.specials.may_be_undefined);
  CHECK(!norm.specials.may_be_undefined);  // sqrt of a positive number: defined
  CHECK(std::isfinite(norm.err.upper()));
  CHECK(var.err.upper() < 1e-4);  // tightness: a small multiple of 4·2^−20 (the propagated error)
  // exact executions: inputs r_i in [−1, 1] with f_i = r_i + e_i, the kernel run
  // in float (RNE) and exactly in mpq
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> u(-1, 1), ue(-e, e);
  const long trials = std::max(100L, static_cast<long>(20000 * test_scale()));
  for (long t = 0; t < trials; ++t) {
    std::array<float, n> f{};
    std::array<mpq_class, n> r;
    for (int i = 0; i < n; ++i) {
      f[i] = static_cast<float>(u(rng));
      r[i] = mpq_class(static_cast<double>(f[i])) - mpq_class(ue(rng));  // f − r ∈ [−e, e]
      if (r[i] > 1) r[i] = 1;  // then f − r ∈ (−e, 0]: f > 1 − e
      if (r[i] < -1) r[i] = -1;
    }
    const float vf = variance(f.data(), n);
    const mpq_class vr = variance(r.data(), n);
    INFO("trial " << t << " var " << vf << " exact " << vr.get_d());
    REQUIRE(contains(var.real, vr));
    REQUIRE(contains(var.fp, exact_value(static_cast<double>(vf))));
    REQUIRE(contains(var.err, exact_value(static_cast<double>(vf)) - vr));
  }
}

// In the Affine domain a value is a named quantity: two temporaries of one
// memoised expression, (x − m) and (x − m), have the same handles, so their
// product is a square (arith.hpp, detail::same_value) — written with
// temporaries, without a local. Sound against exact executions; twins: the
// product with an independent m2 of the same box, and the Interval domain,
// where two temporaries are two unrelated enclosures.
TEST_CASE("Affine: (x - m) * (x - m) of two temporaries is a square", "[core][square][affine]") {
  AffineContext ctx;
  AffineScope scope(ctx);
  using SA = SymbolicDomainError<Affine>;
  const double e = 0x1p-20;
  const SA x = SA::input(-1, 2, -e, e, FP32), m = SA::input(0, 1, -e, e, FP32), m2 = SA::input(0, 1, -e, e, FP32);
  const SA sq = (x - m) * (x - m);
  CHECK(sq.real.lower() >= 0);
  CHECK(sq.fp.lower() >= 0);
  CHECK_FALSE(sq.specials.may_be_neg_zero);
  CHECK(((x - m) * (x - m2)).real.lower() < 0);  // twin: another m
  const SymbolicError xi = SymbolicError::input(-1, 2, -e, e, FP32), mi = SymbolicError::input(0, 1, -e, e, FP32);
  CHECK(((xi - mi) * (xi - mi)).real.lower() < 0);  // twin: the Interval domain
  std::mt19937_64 g(5);
  std::uniform_real_distribution<double> u(0, 1);
  long checked = 0;
  for (int i = 0; i < 4000; ++i) {
    const double fx = round_to(-1 + 3 * u(g), FP32, RoundingMode::NearestEven).value;
    const double fm = round_to(u(g), FP32, RoundingMode::NearestEven).value;
    const mpq_class rx = exact_value(fx) - mpq_class(exact_value(e)) * mpq_class(static_cast<long>(u(g) * 2048) - 1024, 1024);
    const mpq_class rm = exact_value(fm) - mpq_class(exact_value(e)) * mpq_class(static_cast<long>(u(g) * 2048) - 1024, 1024);
    if (rx < -1 || rx > 2 || rm < 0 || rm > 1) continue;
    const double d = round_to(mpq_class(exact_value(fx) - exact_value(fm)), FP32, RoundingMode::NearestEven).value;
    const double f = round_to(mpq_class(exact_value(d) * exact_value(d)), FP32, RoundingMode::NearestEven).value;
    const mpq_class r = (rx - rm) * (rx - rm);
    INFO("fx = " << hex(fx) << " fm = " << hex(fm) << " f = " << hex(f) << "\nsq = " << sq);
    CHECK(contains(sq.real, r));
    CHECK(contains(sq.fp, exact_value(f)));
    CHECK(contains(sq.err, mpq_class(exact_value(f) - r)));
    ++checked;
  }
  CHECK(checked > 3000);
}
