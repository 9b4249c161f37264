// The whole-kernel split through an elementary function: y = f(a + b) with
// a, b inputs carrying input error, so that x = a + b carries both a
// propagated and an introduced part. For every concrete execution (exact
// inputs r, actual inputs f = r + e, pr_x = f_a + f_b exactly, fp_x =
// round(pr_x)), checked with MPFR at 256 bits under the correctly rounded
// model:  f(pr) − f(r) ∈ propagated,  impl(fp_x) − f(pr) ∈ introduced,
// impl(fp_x) − f(r) ∈ err. Rounding into FP32 / FP16 is done by the hardware
// conversions and by MPFR at the format's precision, not by symerr.
// Tightness twin: without input error no error propagates (propagated = {0}).
#include <catch2/catch.hpp>

#include <random>

#include <mpfr.h>

#include <symerr/domains/interval.hpp>
#include <symerr/domains/mpfr_interval.hpp>
#include <symerr/domains/rational_interval.hpp>
#include <symerr/elementary.hpp>
#include <symerr/domains/symbolic_instances.hpp>  // the library's instantiations (compile time)

using namespace symerr;

namespace {

enum class F1 { Exp, Log, Tanh };

struct Mp {
  mpfr_t v;
  explicit Mp(mpfr_prec_t p = 256) { mpfr_init2(v, p); }
  ~Mp() { mpfr_clear(v); }
  Mp(const Mp&) = delete;
  Mp& operator=(const Mp&) = delete;
};

void apply(F1 f, mpfr_t out, const mpfr_t in) {
  switch (f) {
    case F1::Exp: mpfr_exp(out, in, MPFR_RNDN); break;
    case F1::Log: mpfr_log(out, in, MPFR_RNDN); break;
    case F1::Tanh: mpfr_tanh(out, in, MPFR_RNDN); break;
  }
}

template <RealDomain D>
SymbolicDomainError<D> call(F1 f, const SymbolicDomainError<D>& x, const AccuracyModel& m) {
  switch (f) {
    case F1::Exp: return exp(x, m);
    case F1::Log: return log(x, m);
    case F1::Tanh: return tanh(x, m);
  }
  return x;
}

// v ∈ [a.lower(), a.upper()] for an MPFR value v.
template <RealDomain D>
bool in(const mpfr_t v, const D& a) {
  return mpfr_cmp_d(v, a.lower()) >= 0 && mpfr_cmp_d(v, a.upper()) <= 0;
}

double to_format(double v, const FloatFormat& F) {
  return F.precision == 24 ? static_cast<double>(static_cast<float>(v))
                           : static_cast<double>(static_cast<_Float16>(v));
}

template <RealDomain D>
long split_campaign(F1 f, const FloatFormat& F, double err, long trials, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> U(0, 1);
  const AccuracyModel model = AccuracyModel::correctly_rounded();
  long checked = 0;
  for (long t = 0; t < trials; ++t) {
    const double lo = f == F1::Log ? 0.25 + 2 * U(rng) : -2 + 4 * U(rng);
    const double alo = to_format(lo, F), ahi = to_format(lo + 0.01 * U(rng), F);
    const double blo = to_format(0.5 + U(rng), F), bhi = to_format(blo + 0.01 * U(rng), F);
    using S = SymbolicDomainError<D>;
    const S a = S::input(alo, std::max(alo, ahi), -err, err, F);
    const S b = S::input(blo, std::max(blo, bhi), -err, err, F);
    const S x = a + b;
    const S y = call(f, x, model);
    for (int s = 0; s < 8; ++s) {
      // actual inputs: values of F in the boxes' fp; ideal ones r = f − e
      const double fa = to_format(a.fp.lower() + U(rng) * (a.fp.upper() - a.fp.lower()), F);
      const double fb = to_format(b.fp.lower() + U(rng) * (b.fp.upper() - b.fp.lower()), F);
      std::uniform_int_distribution<int> K(-1024, 1024);
      const double ea = err * K(rng) / 1024, eb = err * K(rng) / 1024;  // 11-bit multiples of err / 1024
      const double ra = fa - ea, rb = fb - eb;  // exact in double for these magnitudes (checked below)
      if (ra - fa != -ea || rb - fb != -eb) continue;
      if (!contains(a.real, ra) || !contains(b.real, rb) || !contains(a.fp, fa) || !contains(b.fp, fb)) continue;
      Mp r, pr, fx, fr, fpr, impl, d;
      mpfr_set_d(r.v, ra, MPFR_RNDN), mpfr_add_d(r.v, r.v, rb, MPFR_RNDN);       // exact at 256 bits
      mpfr_set_d(pr.v, fa, MPFR_RNDN), mpfr_add_d(pr.v, pr.v, fb, MPFR_RNDN);    // exact
      const double fpx = to_format(fa + fb, F);  // fa + fb is exact in double
      mpfr_set_d(fx.v, fpx, MPFR_RNDN);
      apply(f, fr.v, r.v);
      apply(f, fpr.v, pr.v);
      Mp rounded(F.precision);  // correctly rounded f(fp_x) at F's precision (results are normal here)
      apply(f, rounded.v, fx.v);
      mpfr_set(impl.v, rounded.v, MPFR_RNDN);
      mpfr_sub(d.v, fpr.v, fr.v, MPFR_RNDN);
      INFO("a " << ra << "+" << ea << " b " << rb << "+" << eb << " fp_x " << fpx);
      CHECK(in(d.v, y.propagated));
      mpfr_sub(d.v, impl.v, fpr.v, MPFR_RNDN);
      CHECK(in(d.v, y.introduced));
      mpfr_sub(d.v, impl.v, fr.v, MPFR_RNDN);
      CHECK(in(d.v, y.err));
      ++checked;
    }
  }
  return checked;
}

}  // namespace

TEMPLATE_TEST_CASE("whole-kernel split through exp, log, tanh of a rounded sum is sound", "[elementary][split]",
                   Interval, MpfrInterval, RationalInterval) {
  std::mt19937_64 rng(2027);
  for (const FloatFormat& F : {FP32, FP16})
    for (F1 f : {F1::Exp, F1::Log, F1::Tanh}) {
      const long n = split_campaign<TestType>(f, F, F.precision == 24 ? 0x1p-20 : 0x1p-9, 150, rng);
      CHECK(n >= 200);
    }
}

TEMPLATE_TEST_CASE("whole-kernel split tightness: without input error nothing propagates", "[elementary][split]",
                   Interval, MpfrInterval, RationalInterval) {
  using S = SymbolicDomainError<TestType>;
  const AccuracyModel m = AccuracyModel::correctly_rounded();
  for (const FloatFormat& F : {FP32, FP16}) {
    const S x = S::input(1.25, 1.5, F) + S::input(0.5, 0.75, F);  // introduced ≠ 0, propagated = 0
    REQUIRE(!(x.introduced.lower() == 0 && x.introduced.upper() == 0));
    for (const S& y : {exp(x, m), log(x, m), tanh(x, m)}) {
      CHECK(y.propagated.lower() == 0);
      CHECK(y.propagated.upper() == 0);
      CHECK(is_bounded(y.introduced));
      // the introduced part is no wider than err (it is all of it here)
      CHECK(width(y.introduced) <= 2 * width(y.err));
    }
  }
}
