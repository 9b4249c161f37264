// Affine's memo across accuracy models: in one context the same function of
// the same value under two models is two implementations, two roundings. An
// implementation allowed by ulps(1000) (a value 999 ulps from exp(t), found
// with MPFR at 256 bits) must lie in fp and err of exp(x) under ulps(1000)
// even after exp(x) was taken under the correctly rounded model (the second
// call once returned the first result: the rounding symbol was named by
// function, format and mode only). Twins: the correctly rounded result
// stays within a few ulps, and one model's exp(x) − exp(x) is still 0.
#include <catch2/catch.hpp>

#include <cmath>

#include <gmpxx.h>
#include <mpfr.h>

#include <symerr/domains/affine.hpp>
#include <symerr/domains/symbolic_instances.hpp>  // the library's instantiations (compile time)
#include <symerr/elementary.hpp>

using namespace symerr;

namespace {

using SA = SymbolicDomainError<Affine>;

// The value of F (FP32 here) k ulps above (k > 0) or below exp(t), rounded
// toward exp(t): |v − exp(t)| <= |k| ulp(exp(t)), the ulps(|k|) model's bound.
double k_ulps_from_exp(double t, int k) {
  mpfr_t y, v;
  mpfr_inits2(256, y, v, static_cast<mpfr_ptr>(nullptr));
  mpfr_set_d(y, t, MPFR_RNDN);
  mpfr_exp(y, y, MPFR_RNDN);
  const long e = mpfr_get_exp(y);  // y in [2^(e-1), 2^e): ulp 2^(e-24) in FP32 (normal)
  mpfr_set_si_2exp(v, k, e - 24, MPFR_RNDN);
  mpfr_add(v, y, v, MPFR_RNDN);  // exact at 256 bits
  mpfr_t f;
  mpfr_init2(f, 24);
  mpfr_set(f, v, k > 0 ? MPFR_RNDD : MPFR_RNDU);  // toward exp(t)
  const double r = mpfr_get_d(f, MPFR_RNDN);
  mpfr_clears(y, v, f, static_cast<mpfr_ptr>(nullptr));
  return r;
}

mpq_class exp_q(double t, mpfr_rnd_t rnd) {
  mpfr_t y;
  mpfr_init2(y, 256);
  mpfr_set_d(y, t, MPFR_RNDN);
  mpfr_exp(y, y, rnd);
  mpq_class q;
  mpfr_get_q(q.get_mpq_t(), y);
  mpfr_clear(y);
  return q;
}

}  // namespace

TEST_CASE("Affine: exp(x) under two accuracy models in one context gives each model's enclosure",
          "[affine][elementary][models]") {
  const AccuracyModel cr = AccuracyModel::correctly_rounded(), loose = AccuracyModel::ulps(1000);
  for (const bool cr_first : {true, false}) {
    AffineContext ctx;
    AffineScope scope(ctx);
    const SA x = SA::input(0.5, 1.0, FP32);  // exact inputs: fp = real
    const SA a = cr_first ? exp(x, cr) : exp(x, loose);
    const SA b = cr_first ? exp(x, loose) : exp(x, cr);
    const SA& on_cr = cr_first ? a : b;
    const SA& on_loose = cr_first ? b : a;
    INFO("cr first " << cr_first << ": CR " << on_cr << ", ulps(1000) " << on_loose);
    for (const double t : {0.5, 0.75, 1.0, 0.6180339887498949}) {
      const double tt = static_cast<double>(static_cast<float>(t));
      for (const int k : {999, -999, 1000, -1000}) {
        const double v = k_ulps_from_exp(tt, k);
        const mpq_class lo = exp_q(tt, MPFR_RNDD), hi = exp_q(tt, MPFR_RNDU);
        INFO("t " << tt << " impl " << v << " (" << k << " ulps)");
        CHECK(contains(on_loose.fp, v));
        CHECK(contains(on_loose.err, mpq_class(exact_value(v) - lo)));
        CHECK(contains(on_loose.err, mpq_class(exact_value(v) - hi)));
        CHECK(contains(on_loose.introduced, mpq_class(exact_value(v) - lo)));
        // the twin: a correctly rounded exp is not 999 ulps off
        CHECK(!contains(on_cr.introduced, mpq_class(exact_value(v) - lo)));
      }
    }
    // twins: the correctly rounded enclosure is a rounding's width, the loose one 1000 ulps'
    CHECK(mag(on_cr.introduced) <= 0x1p-23);
    CHECK(mag(on_loose.introduced) >= 900 * 0x1p-23);
    // one model's two calls are one implementation: exp(x) − exp(x) = 0
    const SA again = exp(x, loose);
    const SA zero = again - on_loose;
    CHECK(zero.fp.lower() == 0);
    CHECK(zero.fp.upper() == 0);
    // two models' results may differ by up to the sum of their bounds
    const SA diff = on_loose - on_cr;
    CHECK(mag(diff.fp) >= 900 * 0x1p-23);
  }
}
