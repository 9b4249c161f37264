// Relative errors carried through operations (<symerr/symbolic/relative.hpp>):
// products, quotients, sums of one sign, sqrt, exp, exp2, pow, cbrt and
// sigmoid multiply or average their operands' relative errors, log turns the
// relative error into its absolute one (log1p(rel)), and err is intersected
// with rel_err · real.
//
// Composed kernels with shared operands, each run on SymbolicError (Interval)
// and checked against exact executions: the same template on float/double
// for the computed value, and on a 256-bit MPFR enclosure (symref::Enclosure)
// for the real value, so that r ∈ real, f ∈ fp, f − r ∈ err and (f − r)/r ∈
// rel_err are checked for the whole reference enclosure. Tightness twins:
// the bound is within a stated factor of the largest observed error (set
// about 2.5x above the measured ratio), every rel_err bound is below the one
// the absolute identities alone gave (measured before the relative
// identities: the "before" columns below; err/real there) and no err bound
// is wider, so that returning the old bounds fails.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include <symerr/domains/symbolic_interval.hpp>
#include <symerr/elementary.hpp>
#include <symerr/symbolic.hpp>

#include "substitute/enclosure_prelude.hpp"
#include "test_scale.hpp"

using namespace symerr;

namespace {

using S = SymbolicError;

// ---- kernels (one template for the symbolic, computed and exact runs) ----

// (x0 + x1 + x2 + x3) / (x4 + x5 + x6 + x7): sums of positive terms, a ratio
template <class T>
T ratio_of_sums(const std::vector<T>& x) {
  T a = x[0], b = x[4];
  for (int i = 1; i < 4; ++i) a = a + x[static_cast<std::size_t>(i)];
  for (int i = 5; i < 8; ++i) b = b + x[static_cast<std::size_t>(i)];
  return a / b;
}

// x0·x1·…·x7 / (x8·x9)
template <class T>
T product_chain(const std::vector<T>& x) {
  T p = x[0];
  for (int i = 1; i < 8; ++i) p = p * x[static_cast<std::size_t>(i)];
  return p / (x[8] * x[9]);
}

// √(x0·x1) / (x0 + x1): the geometric over the arithmetic mean (x0, x1 reused)
template <class T>
T geometric_over_arithmetic(const std::vector<T>& x) {
  using std::sqrt;
  return sqrt(x[0] * x[1]) / (x[0] + x[1]);
}

// a·b / (a + b) with a = f(x0), b = f(x1) (each value reused)
template <class T, class F>
T harmonic(const std::vector<T>& x, F f) {
  const T a = f(x[0]), b = f(x[1]);
  return a * b / (a + b);
}

// f = exp
template <class T>
T exp_harmonic(const std::vector<T>& x) {
  return harmonic(x, [](const T& v) {
    using std::exp;
    return exp(v);
  });
}

// softmax of 8 values, first output: exp(x0 − x0)... written with the
// inputs' own maximum known (every input in [−1, 1], m = 1 constant):
// exp(x_i − 1) / Σ exp(x_j − 1)
template <class T>
T softmax_first(const std::vector<T>& x) {
  using std::exp;
  T s = 0;
  T y0 = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const T t = exp(x[i] - 1.0);
    if (i == 0) y0 = t;
    s += t;
  }
  return y0 / s;
}

// log Σ exp(x_i) (8 values): the logarithm of a sum of positive terms,
// whose absolute error is log1p of the sum's relative error
template <class T>
T log_sum_exp(const std::vector<T>& x) {
  using std::exp;
  using std::log;
  T s = 0;
  for (const T& v : x) s += exp(v);
  return log(s);
}

// 2^x0 · 2^x1 / (2^x0 + 2^x1)
template <class T>
T exp2_harmonic(const std::vector<T>& x) {
  return harmonic(x, [](const T& v) {
    using std::exp2;
    return exp2(v);
  });
}

// x0 / (Σ x_i² / 4)^½ over positive inputs: an RMS normalisation with pow
template <class T>
T rms_scale(const std::vector<T>& x) {
  using std::pow;
  T s = 0;
  for (const T& v : x) s += v * v;
  return x[0] / pow(s / 4.0, 0.5);
}

// cbrt(x0·x1·x2) / (x0 + x1 + x2): the geometric over the arithmetic mean of 3
template <class T>
T cbrt_mean(const std::vector<T>& x) {
  using std::cbrt;
  return cbrt(x[0] * x[1] * x[2]) / (x[0] + x[1] + x[2]);
}

// sigmoid: on double the implementation 1 / (1 + exp(−x)) (its relative
// error is below 2^-51, under 4 ulps), on SymbolicError symerr::sigmoid
// under a 5-ulp model of it
template <class T>
T sig(const T& x) {
  using std::exp;
  return T(1.0) / (T(1.0) + exp(-x));
}
S sig(const S& x) { return symerr::sigmoid(x, AccuracyModel::ulps(5)); }

// σ(x0)·σ(x1) / (σ(x0) + σ(x1))
template <class T>
T sigmoid_harmonic(const std::vector<T>& x) {
  return harmonic(x, [](const T& v) { return sig(v); });
}

// tanh(x0·x1) / erf(x2): odd functions concave on [0, inf), which never
// amplify a relative error
template <class T>
T tanh_over_erf(const std::vector<T>& x) {
  using std::erf;
  using std::tanh;
  return tanh(x[0] * x[1]) / erf(x[2]);
}

// swish (SiLU) x / (1 + exp(−x)): a quotient whose divisor has a relative
// error over a wide range, and whose numerator has none (x may be 0)
template <class T>
T swish(const std::vector<T>& x) {
  using std::exp;
  return x[0] / (T(1) + exp(-x[0]));
}

// Σ x_i² / 4 + 2^-17 over [−1, 1]: every square may be 0 or underflow, so
// no term has a relative error; the mixed relative/absolute pair
// (mixed_error.hpp) carries one through the sum to the value ≥ 2^-17
template <class T>
T mean_square_eps(const std::vector<T>& x) {
  T s = 0;
  for (const T& v : x) s += v * v;
  return s / T(4) + T(0x1p-17);
}

// RMS normalisation x0 / √(Σ x_i² / 4 + 2^-17) over [−1, 1]
template <class T>
T rms_norm(const std::vector<T>& x) {
  using std::sqrt;
  return x[0] / sqrt(mean_square_eps(x));
}

// √(x0² + x1²) over [−1, 1]: the root of a value that reaches 0 (½-Hölder)
template <class T>
T l2_norm(const std::vector<T>& x) {
  using std::sqrt;
  return sqrt(x[0] * x[0] + x[1] * x[1]);
}

enum class Kernel { RatioOfSums, ProductChain, GeoArith, ExpHarmonic, Softmax, LogSumExp, Exp2Harmonic, RmsScale,
                    CbrtMean, SigmoidHarmonic, TanhOverErf, Swish, MeanSquareEps, RmsNorm, L2Norm };

template <class T>
T run(Kernel k, const std::vector<T>& x) {
  switch (k) {
    case Kernel::RatioOfSums: return ratio_of_sums(x);
    case Kernel::ProductChain: return product_chain(x);
    case Kernel::GeoArith: return geometric_over_arithmetic(x);
    case Kernel::ExpHarmonic: return exp_harmonic(x);
    case Kernel::Softmax: return softmax_first(x);
    case Kernel::LogSumExp: return log_sum_exp(x);
    case Kernel::Exp2Harmonic: return exp2_harmonic(x);
    case Kernel::RmsScale: return rms_scale(x);
    case Kernel::CbrtMean: return cbrt_mean(x);
    case Kernel::SigmoidHarmonic: return sigmoid_harmonic(x);
    case Kernel::TanhOverErf: return tanh_over_erf(x);
    case Kernel::Swish: return swish(x);
    case Kernel::MeanSquareEps: return mean_square_eps(x);
    case Kernel::RmsNorm: return rms_norm(x);
    case Kernel::L2Norm: return l2_norm(x);
  }
  return x[0];
}

struct Case {
  const char* name;
  Kernel k;
  std::size_t n;
  double lo, hi;
  FloatFormat F;
  double e;           // every input's error in [−e, e]
  bool relative;      // the measure: sup|rel_err| (else sup|err|)
  double max_ratio;   // tightness twin: bound / observed, of the measure
  // sup|err| and sup|rel_err| of the Interval bounds without the relative
  // identities (measured on the code before them)
  double before_err, before_rel;
};

// ---- exact executions ----------------------------------------------------

mpq_class mpfr_q(mpfr_srcptr v) {
  mpq_class q;
  mpfr_get_q(q.get_mpq_t(), v);
  return q;
}

bool encloses(const Interval& a, const mpq_class& lo, const mpq_class& hi) {
  return (a.lower() == -INFINITY || exact_value(a.lower()) <= lo) && (a.upper() == INFINITY || hi <= exact_value(a.upper()));
}

struct Observed {
  double max_err = 0, max_rel = 0;
  long executions = 0;
  std::string first;  // the first violation
};

template <class F>
Observed sample(const Case& c, const S& y, long executions, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> unit(0, 1);
  Observed o;
  for (long k = 0; k < executions; ++k) {
    std::vector<F> f(c.n);
    std::vector<symref::Enclosure> r;
    for (std::size_t i = 0; i < c.n; ++i) {
      // a computed input f in the box and an error in [−e, e], r = f − error in the box
      // every other execution: each input within 10^-4 of the box's width
      // from a random end of the box, with an error near ±e
      const bool ends = k % 2 == 0, high = unit(rng) < 0.5;  // the end: per input
      for (;;) {
        const double w = ends ? 1e-4 * unit(rng) : unit(rng);
        const double v = ends && high ? c.hi - (c.hi - c.lo) * w : c.lo + (c.hi - c.lo) * w;
        f[i] = static_cast<F>(v);
        if (static_cast<double>(f[i]) < c.lo || static_cast<double>(f[i]) > c.hi) continue;
        const double err = ends ? c.e * (unit(rng) < 0.5 ? -1 : 1) * (1 - 0.01 * unit(rng)) : c.e * (2 * unit(rng) - 1);
        const mpq_class rq = exact_value(static_cast<double>(f[i])) - exact_value(err);
        if (rq < exact_value(c.lo) || rq > exact_value(c.hi)) continue;
        r.emplace_back(rq);
        break;
      }
    }
    const double fy = static_cast<double>(run<F>(c.k, f));
    const symref::Enclosure ry = run<symref::Enclosure>(c.k, r);
    const mpq_class rlo = mpfr_q(ry.lower()), rhi = mpfr_q(ry.upper()), fq = exact_value(fy);
    ++o.executions;
    auto fail = [&](const char* what) {
      if (o.first.empty()) o.first = std::string(what) + " at execution " + std::to_string(k) + ": f = " + std::to_string(fy);
    };
    if (!encloses(y.real, rlo, rhi)) fail("r not in real");
    if (!encloses(y.fp, fq, fq)) fail("f not in fp");
    if (!encloses(y.err, fq - rhi, fq - rlo)) fail("f - r not in err");
    // (f − r)/r = f/r − 1 is decreasing in r > 0
    if (sgn(rlo) > 0 && !encloses(y.rel_err, fq / rhi - 1, fq / rlo - 1)) fail("(f - r)/r not in rel_err");
    const mpq_class mid = (rlo + rhi) / 2;
    o.max_err = std::max(o.max_err, std::fabs(mpq_class(fq - mid).get_d()));
    if (sgn(mid) != 0) o.max_rel = std::max(o.max_rel, std::fabs(mpq_class(fq / mid - 1).get_d()));
  }
  return o;
}

S symbolic(const Case& c) {
  std::vector<S> x;
  for (std::size_t i = 0; i < c.n; ++i) x.push_back(S::input(c.lo, c.hi, -c.e, c.e, c.F));
  return run<S>(c.k, x);
}

const std::vector<Case>& cases() {
  static const std::vector<Case> v = {
      // name, kernel, n, box, format, e, relative measure, max ratio, before: err, rel_err
      {"ratio of sums of 4, FP32 [1, 1000]", Kernel::RatioOfSums, 8, 1, 1000, FP32, 0, false, 6, 0.0764, 76.4},
      {"ratio of sums of 4, FP32 [1, 1000], e = 2^-12", Kernel::RatioOfSums, 8, 1, 1000, FP32, 0x1p-12, false, 4, 0.321, 321},
      {"product of 8 / product of 2, FP32 [0.5, 2]", Kernel::ProductChain, 10, 0.5, 2, FP32, 0, false, 16, 7.32e-4, 0.75},
      {"product of 8 / product of 2, FP64 [0.5, 2], e = 1e-12", Kernel::ProductChain, 10, 0.5, 2, FP64, 1e-12, false, 8, 2.05e-8, 2.1e-5},
      {"sqrt(x0 x1) / (x0 + x1), FP64 [1, 2]", Kernel::GeoArith, 2, 1, 2, FP64, 0, false, 5, 2.78e-16, 1.11e-15},
      {"exp(x0) exp(x1) / (exp(x0) + exp(x1)), FP64 [-20, 20] (relative)", Kernel::ExpHarmonic, 2, -20, 20, FP64, 0, true, 7, INFINITY, INFINITY},
      {"softmax of 8 (first output, known maximum), FP64 [-1, 1]", Kernel::Softmax, 8, -1, 1, FP64, 0, false, 31, 5.29e-15, 3.13e-13},
      {"softmax of 8 (first output, known maximum), FP64 [-1, 1], e = 1e-12", Kernel::Softmax, 8, -1, 1, FP64, 1e-12, false, 10, 7.75e-12, 4.58e-10},
      // log, exp2, pow, cbrt, sigmoid, tanh and erf with their relative identities (the last
      // columns: err / real for their operands, and no relative identity of their own)
      {"log sum exp of 8, FP64 [-1, 1]", Kernel::LogSumExp, 8, -1, 1, FP64, 0, false, 7, 4.52e-15, 4.19e-15},
      {"log sum exp of 8, FP64 [-1, 1], e = 1e-12", Kernel::LogSumExp, 8, -1, 1, FP64, 1e-12, false, 2.5, 7.39e-12, 6.85e-12},
      {"2^x0 2^x1 / (2^x0 + 2^x1), FP64 [-20, 20] (relative)", Kernel::Exp2Harmonic, 2, -20, 20, FP64, 0, true, 6, 2.11e14, 7.33e-4},
      {"x0 / pow(sum of 4 squares / 4, 0.5), FP64 [0.5, 2]", Kernel::RmsScale, 4, 0.5, 2, FP64, 0, false, 12, 2.89e-14, 7.22e-15},
      {"x0 / pow(sum of 4 squares / 4, 0.5), FP64 [0.5, 2], e = 1e-12", Kernel::RmsScale, 4, 0.5, 2, FP64, 1e-12, false, 13, 1.3e-10, 3.4e-11},
      {"cbrt(x0 x1 x2) / (x0 + x1 + x2), FP64 [1, 2]", Kernel::CbrtMean, 3, 1, 2, FP64, 0, false, 11, 9.93e-16, 2.7e-15},
      {"sigmoid(x0) sigmoid(x1) / (sum), FP64 [-20, 20], e = 1e-12 (relative)", Kernel::SigmoidHarmonic, 2, -20, 20, FP64, 1e-12, true, 7.5, 2.95e4, 3.65e-4},
      {"tanh(x0 x1) / erf(x2), FP64 [0.5, 2], e = 1e-12 (relative)", Kernel::TanhOverErf, 3, 0.5, 2, FP64, 1e-12, true, 2.6, 1.05e-11, 1.7e-11},
      {"tanh(x0 x1) / erf(x2), FP32 [0.5, 2] (relative)", Kernel::TanhOverErf, 3, 0.5, 2, FP32, 0, true, 7, 8.385e-7, 1.36e-6},
      // the quotient's error with the divisor's relative error: e_x / fp_y − real_z·r_y / (1 + r_y)
      // (the last columns: (e_x − real_z·e_y) / fp_y alone, e_y over the divisor's smallest value)
      {"swish x / (1 + exp(-x)), FP32 [-20, 20]", Kernel::Swish, 1, -20, 20, FP32, 0, false, 9, 40.0001, INFINITY},
      {"swish x / (1 + exp(-x)), FP32 [-20, 20], e = 2^-20", Kernel::Swish, 1, -20, 20, FP32, 0x1p-20, false, 28, 40.0001, INFINITY},
      // the mixed relative/absolute pair through values that may be 0, and the ½-Hölder
      // bound of √ (the last columns: no relative error where the real range holds 0)
      {"sum of 4 squares / 4 + 2^-17, FP32 [-1, 1] (relative)", Kernel::MeanSquareEps, 4, -1, 1, FP32, 0, true, 5.5, 1.937e-7, 0.02539},
      {"sum of 4 squares / 4 + 2^-17, FP64 [-1, 1] (relative)", Kernel::MeanSquareEps, 4, -1, 1, FP64, 0, true, 5.5, 3.608e-16, 4.729e-11},
      {"sum of 4 squares / 4 + 2^-17, FP32 [-2^-70, 2^-70] (relative)", Kernel::MeanSquareEps, 4, -0x1p-70, 0x1p-70, FP32, 0, true, 2.5, 7.189e-43, INFINITY},
      {"x0 / sqrt(sum of 4 squares / 4 + 2^-17), FP32 [-1, 1]", Kernel::RmsNorm, 4, -1, 1, FP32, 0, false, 1400, 4.604, INFINITY},
      {"x0 / sqrt(sum of 4 squares / 4 + 2^-17), FP64 [-1, 1]", Kernel::RmsNorm, 4, -1, 1, FP64, 0, false, 1300, 8.561e-9, INFINITY},
      {"x0 / sqrt(sum of 4 squares / 4 + 2^-17), FP32 [-2^-70, 2^-70]", Kernel::RmsNorm, 4, -0x1p-70, 0x1p-70, FP32, 0, false, 2.5, 1.8173e-26, INFINITY},
      {"sqrt(x0^2 + x1^2), FP32 [-1, 1]", Kernel::L2Norm, 2, -1, 1, FP32, 0, false, 6, 1.414, INFINITY},
      {"sqrt(x0^2 + x1^2), FP64 [-1, 1]", Kernel::L2Norm, 2, -1, 1, FP64, 0, false, 6, 1.414, INFINITY},
      {"sqrt(x0^2 + x1^2), FP32 [-1, 1], e = 2^-20", Kernel::L2Norm, 2, -1, 1, FP32, 0x1p-20, false, 3400, 1.414, INFINITY},
  };
  return v;
}

}  // namespace

TEST_CASE("relative errors: composed kernels with reused operands are sound and tight against exact executions",
          "[relative]") {
  const long n = std::max(200L, static_cast<long>(20000 * test::test_scale()));
  for (const Case& c : cases()) {
    const S y = symbolic(c);
    const double bound = c.relative ? mag(y.rel_err) : mag(y.err);
    const Observed o = c.F.precision == FP32.precision ? sample<float>(c, y, n, 7) : sample<double>(c, y, n, 7);
    const double ratio = bound / (c.relative ? o.max_rel : o.max_err);
    std::printf("| %-70s | %10.3g | %10.3g | %6.3g | err %10.3g (before %10.3g) | rel_err %10.3g (before %10.3g) |\n",
                c.name, bound, c.relative ? o.max_rel : o.max_err, ratio, mag(y.err), c.before_err, mag(y.rel_err),
                c.before_rel);
    INFO(c.name << ": bound " << bound << ", observed " << o.max_err << ", rel_err " << y.rel_err << "; " << o.first);
    CHECK(o.first.empty());
    CHECK(o.executions == n);
    // the ratio on the full sample (the sanitizer run samples fewer executions)
    if (!test::scaled_down()) CHECK(ratio <= c.max_ratio);
    if (std::isfinite(c.before_rel)) CHECK(mag(y.rel_err) < c.before_rel);  // every relative bound is tighter than before
    CHECK(mag(y.err) <= c.before_err * 1.0001);   // and no error bound is wider
  }
}

// The computed value of a k-ulp elementary function stays within
// k·2^(1−p)·|f(t)| of its image at an end of one sign (common.hpp,
// round_image): exp over [−20, 20] used to reach below 0 (the slack of e^20),
// which made every product or quotient of exponentials lose its relative error.
TEST_CASE("relative errors: exp over a wide range keeps a positive computed value, tight at both ends", "[relative]") {
  for (const FloatFormat& F : {FP32, FP64}) {
    const S x = S::input(-20, 20, 0, 0, F);
    const S y = exp(x);
    const double u = std::ldexp(1.0, 1 - F.precision);
    INFO(F.name << ": " << y);
    CHECK(y.fp.lower() > 0);
    // tightness twin: within 4 ulps (relative) of e^-20 and e^20 rounded to F
    const double lo = static_cast<double>(F.precision == 24 ? static_cast<double>(std::exp(-20.0f)) : std::exp(-20.0));
    const double hi = static_cast<double>(F.precision == 24 ? static_cast<double>(std::exp(20.0f)) : std::exp(20.0));
    CHECK(y.fp.lower() >= lo * (1 - 4 * u));
    CHECK(y.fp.upper() <= hi * (1 + 4 * u));
    CHECK(mag(y.rel_err) <= 4 * u);
  }
}
