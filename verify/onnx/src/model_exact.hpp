// The exact runner's element: an MPFR number of 256 bits, round to nearest.
// Sums and products of FP32 values and of their errors are exact at this
// precision while the exponents span less than about 200 binades (they do
// for the models symerr accepts: finite FP32 weights and inputs); division,
// square root, exp, log, tanh, erf and pow are correctly rounded to 256 bits, a relative error of
// 2^-256 per operation, which the containment checks allow for explicitly
// (model_analysis.cpp: kOracleSlack).
#pragma once

#include <mpfr.h>

#include <cmath>
#include <utility>

#include "graph_kernels.hpp"

namespace symerr::onnx {

/// An MPFR number of Exact::kPrecision bits with the operations the graph kernels use.
class Exact {
 public:
  static constexpr mpfr_prec_t kPrecision = 256;

  Exact() {
    mpfr_init2(v_, kPrecision);
    mpfr_set_zero(v_, 1);
  }
  Exact(double d) {  // NOLINT: numbers convert, as for float
    mpfr_init2(v_, kPrecision);
    mpfr_set_d(v_, d, MPFR_RNDN);
  }
  Exact(const Exact& o) {
    mpfr_init2(v_, kPrecision);
    mpfr_set(v_, o.v_, MPFR_RNDN);
  }
  Exact(Exact&& o) noexcept : Exact() { mpfr_swap(v_, o.v_); }
  Exact& operator=(const Exact& o) {
    if (this != &o) mpfr_set(v_, o.v_, MPFR_RNDN);
    return *this;
  }
  Exact& operator=(Exact&& o) noexcept {
    mpfr_swap(v_, o.v_);
    return *this;
  }
  ~Exact() { mpfr_clear(v_); }

  /// The MPFR value.
  mpfr_srcptr get() const { return v_; }
  /// Nearest double.
  double to_double() const { return mpfr_get_d(v_, MPFR_RNDN); }

#define SYMERR_EXACT_BINARY(op, fn)                        \
  friend Exact operator op(const Exact& a, const Exact& b) { \
    Exact r;                                                 \
    fn(r.v_, a.v_, b.v_, MPFR_RNDN);                         \
    return r;                                                \
  }
  SYMERR_EXACT_BINARY(+, mpfr_add)
  SYMERR_EXACT_BINARY(-, mpfr_sub)
  SYMERR_EXACT_BINARY(*, mpfr_mul)
  SYMERR_EXACT_BINARY(/, mpfr_div)
#undef SYMERR_EXACT_BINARY

  friend Exact operator-(const Exact& a) {
    Exact r;
    mpfr_neg(r.v_, a.v_, MPFR_RNDN);
    return r;
  }
  friend Exact exp(const Exact& a) {
    Exact r;
    mpfr_exp(r.v_, a.v_, MPFR_RNDN);
    return r;
  }
  friend Exact tanh(const Exact& a) {
    Exact r;
    mpfr_tanh(r.v_, a.v_, MPFR_RNDN);
    return r;
  }
  friend Exact erf(const Exact& a) {
    Exact r;
    mpfr_erf(r.v_, a.v_, MPFR_RNDN);
    return r;
  }
  friend Exact pow(const Exact& a, const Exact& b) {
    Exact r;
    mpfr_pow(r.v_, a.v_, b.v_, MPFR_RNDN);
    return r;
  }
  /// A real constant, to 256 bits.
  static Exact real_constant(kernels::RealConstant c) {
    Exact r;
    if (c == kernels::RealConstant::GeluCubic) {
      mpfr_set_str(r.v_, "0.044715", 10, MPFR_RNDN);
    } else {
      mpfr_const_pi(r.v_, MPFR_RNDN);
      mpfr_ui_div(r.v_, 2, r.v_, MPFR_RNDN);
      mpfr_sqrt(r.v_, r.v_, MPFR_RNDN);
    }
    return r;
  }
  /// The enclosure [lo, hi] of a real constant, by directed rounding.
  static std::pair<double, double> real_constant_bounds(kernels::RealConstant c) {
    const Exact x = real_constant(c);
    // |x − c| <= 2^-255·|c|: widen by one double ulp each way
    const double d = x.to_double();
    return {std::nextafter(d, -INFINITY), std::nextafter(d, INFINITY)};
  }
  friend Exact log(const Exact& a) {
    Exact r;
    mpfr_log(r.v_, a.v_, MPFR_RNDN);
    return r;
  }
  friend Exact sqrt(const Exact& a) {
    Exact r;
    mpfr_sqrt(r.v_, a.v_, MPFR_RNDN);
    return r;
  }
  friend Exact fabs(const Exact& a) {
    Exact r;
    mpfr_abs(r.v_, a.v_, MPFR_RNDN);
    return r;
  }
  friend Exact fmin(const Exact& a, const Exact& b) { return mpfr_cmp(a.v_, b.v_) <= 0 ? a : b; }
  friend Exact fmax(const Exact& a, const Exact& b) { return mpfr_cmp(a.v_, b.v_) >= 0 ? a : b; }

 private:
  mpfr_t v_;
};

namespace kernels {
/// The exact runner's numbers and real constants.
template <>
struct ScalarOps<Exact> {
  static Exact constant(double v) { return Exact(v); }
  static Exact real_constant(RealConstant c) { return Exact::real_constant(c); }
};
}  // namespace kernels

}  // namespace symerr::onnx
