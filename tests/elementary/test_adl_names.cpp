// A kernel's own function named like one of symerr's operations is the
// kernel's: symerr::sigmoid and symerr::powi are function objects, which
// argument-dependent lookup does not find. As function templates they were
// found by ADL for a symbolic argument and, being more specialised than the
// kernel's `template <class T> T sigmoid(T)`, replaced the kernel's code by a
// one-operation model: under AccuracyModel::ulps(1) a float sigmoid written
// 1 / (1 + expf(−x)), whose error reaches 1.98 ulp at x = −0x1.6ca4p-9, was
// bounded by 1 ulp.
#include <catch2/catch.hpp>

#include <cmath>

#include <gmpxx.h>
#include <mpfr.h>

#include <symerr/domains/symbolic_interval.hpp>
#include <symerr/elementary.hpp>

namespace user_kernels {
template <class T>
T sigmoid(T x) {
  return T(1) / (T(1) + exp(-x));
}
template <class T>
T logistic(T x) {  // the same code under a name symerr does not have
  return T(1) / (T(1) + exp(-x));
}
template <class T>
T powi(T x, long n) {  // by repeated squaring: other roundings than x·x·…·x
  T r = T(1);
  for (T b = x; n > 0; n >>= 1, b = b * b)
    if (n & 1) r = r * b;
  return r;
}
template <class T>
T power_by_squaring(T x, long n) {
  T r = T(1);
  for (T b = x; n > 0; n >>= 1, b = b * b)
    if (n & 1) r = r * b;
  return r;
}
}  // namespace user_kernels

namespace {

using symerr::SymbolicError;

bool same_enclosures(const SymbolicError& a, const SymbolicError& b) {
  const symerr::Interval* fa[] = {&a.real, &a.fp, &a.err, &a.propagated, &a.introduced};
  const symerr::Interval* fb[] = {&b.real, &b.fp, &b.err, &b.propagated, &b.introduced};
  for (int i = 0; i < 5; ++i)
    if (fa[i]->lower() != fb[i]->lower() || fa[i]->upper() != fb[i]->upper()) return false;
  return true;
}

bool holds(const symerr::Interval& i, double v) { return i.lower() <= v && v <= i.upper(); }

// fl(1 / (1 + expf(−x))) − 1 / (1 + e^−x), the C float kernel's error, exactly
// enough (MPFR 256 bits; the error is a difference of two floats' scale).
double float_sigmoid_error(float x) {
  const float f = 1.0f / (1.0f + std::exp(-x));
  mpfr_t t;
  mpfr_init2(t, 256);
  mpfr_set_flt(t, x, MPFR_RNDN);
  mpfr_neg(t, t, MPFR_RNDN);
  mpfr_exp(t, t, MPFR_RNDN);
  mpfr_add_ui(t, t, 1, MPFR_RNDN);
  mpfr_ui_div(t, 1, t, MPFR_RNDN);
  mpfr_t d;
  mpfr_init2(d, 256);
  mpfr_set_flt(d, f, MPFR_RNDN);
  mpfr_sub(d, d, t, MPFR_RNDN);
  const double e = mpfr_get_d(d, MPFR_RNDN);
  mpfr_clears(t, d, static_cast<mpfr_ptr>(nullptr));
  return e;
}

}  // namespace

TEST_CASE("a kernel's own sigmoid is the kernel's code, not symerr's one-operation model", "[elementary][adl]") {
  using user_kernels::sigmoid;
  const symerr::ScopedAccuracyModel model(symerr::AccuracyModel::ulps(1));
  const float w = -0x1.6ca4p-9f;  // the float kernel's error is 1.98 ulp here
  const double actual = float_sigmoid_error(w);
  const float f = 1.0f / (1.0f + std::exp(-w));
  CHECK(std::fabs(actual) > 1.9 * std::ldexp(1.0, std::ilogb(f) - 23));
  const SymbolicError x = SymbolicError::input(w, w, symerr::FP32);
  const SymbolicError mine = sigmoid(x);  // unqualified, as a kernel calls it
  CHECK(same_enclosures(mine, user_kernels::logistic(x)));
  CHECK(holds(mine.err, actual));
  CHECK(holds(mine.fp, f));
  // the twin: symerr's one-operation sigmoid under the same 1-ulp model
  // excludes this execution, which is why it must not stand in for the kernel
  const SymbolicError model_op = symerr::sigmoid(x);
  CHECK_FALSE(holds(model_op.err, actual));
  CHECK_FALSE(same_enclosures(model_op, mine));
}

TEST_CASE("a kernel's own powi is the kernel's code", "[elementary][adl]") {
  using user_kernels::powi;
  const SymbolicError x = SymbolicError::input(1.1f, 1.1f, symerr::FP32);
  for (long n : {8L, 13L}) {  // (n = 3 is x·x·x both ways)
    const SymbolicError mine = powi(x, n);
    CHECK(same_enclosures(mine, user_kernels::power_by_squaring(x, n)));
    // the twin: symerr's left-to-right product rounds n − 1 times, the
    // squaring fewer times, on other intermediate values: another result
    const SymbolicError left_to_right = symerr::powi(x, n);
    CHECK_FALSE(same_enclosures(left_to_right, mine));
  }
}
