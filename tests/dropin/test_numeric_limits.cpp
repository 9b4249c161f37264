// std::numeric_limits<SymbolicError> (and of CFloat/CDouble): a generic kernel
// that starts a running maximum at numeric_limits<T>::lowest() — the primary
// template's T() made it an exact 0, and the maximum of negative inputs was 0
// — now starts at −FLT_MAX in the driver's FP32 literal format; checked
// against exact executions, with the tightness twin (bound e, the true
// maximum), and outside a format the limits name the way to give one.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cfloat>
#include <limits>
#include <vector>

#include <symerr/c_types.hpp>
#include <symerr/verify/symbolic/driver.hpp>

#include "dropin/sampling.hpp"

using namespace symerr;
using S = SymbolicError;

namespace kernels_nl {

template <class T>
T running_max(const T* x, std::size_t n) {
  T m = std::numeric_limits<T>::lowest();
  for (std::size_t i = 0; i < n; ++i) m = std::max(m, x[i]);
  return m;
}

template <class T>
T running_min(const T* x, std::size_t n) {
  T m = std::numeric_limits<T>::max();
  for (std::size_t i = 0; i < n; ++i)
    if (x[i] < m) m = x[i];
  return m;
}

}  // namespace kernels_nl

TEST_CASE("numeric_limits<T>::lowest() / max() in a generic kernel: sound and tight through the driver",
          "[dropin][numeric_limits]") {
  constexpr std::size_t n = 4;
  struct Case {
    FloatFormat F;
    double e;
  };
  for (const Case& c : {Case{FP32, 0.0}, Case{FP32, 0x1p-20}, Case{FP64, 1e-12}}) {
    const std::vector<S> in(n, test::unit_box(c.F, c.e));
    const auto res = verify::run_kernel(
        [](std::span<S> x, std::span<S> y) {
          y[0] = kernels_nl::running_max(x.data(), x.size());
          y[1] = kernels_nl::running_min(x.data(), x.size());
        },
        in, 2, verify::DriverOptions{});
    INFO(format_name(c.F) << " e = " << c.e << ": " << res.report.summary());
    CHECK_FALSE(res.report.budget_exhausted);
    const S& mx = res.outputs[0];
    const S& mn = res.outputs[1];
    test::InputSampler gen(7, c.F, c.e);
    std::size_t violations = 0;
    double observed = 0;
    const std::size_t trials = test::scaled(20000, 2000);
    for (std::size_t t = 0; t < trials; ++t) {
      mpq_class rmax = -2, rmin = 2;
      double fmax = -DBL_MAX, fmin = DBL_MAX;
      for (std::size_t i = 0; i < n; ++i) {
        const test::Sample s = gen.next();
        rmax = std::max(rmax, s.real), rmin = std::min(rmin, s.real);
        fmax = std::max(fmax, s.computed), fmin = std::min(fmin, s.computed);
      }
      violations += !test::encloses(mx, rmax, fmax) + !test::encloses(mn, rmin, fmin);
      observed = std::max(observed, std::fabs(mpq_class(exact_value(fmax) - rmax).get_d()));
    }
    CHECK(violations == 0);
    // the twin: max is 1-Lipschitz, so the true maximum error is e (observed)
    CHECK(mag(mx.err) <= c.e);
    CHECK(mag(mn.err) <= c.e);
    CHECK(mag(mx.err) >= observed);
    CHECK(mx.real.lower() == -1);
    CHECK(mx.real.upper() == 1);
  }
  // all inputs negative: the maximum is theirs, not the 0 of T()
  const std::vector<S> neg = {S::input(-2, -1, FP32), S::input(-3, -2.5, FP32)};
  const auto r = verify::run_kernel(
      [](std::span<S> x, std::span<S> y) { y[0] = kernels_nl::running_max(x.data(), x.size()); }, neg, 1,
      verify::DriverOptions{});
  CHECK(r.outputs[0].fp.lower() == -2);
  CHECK(r.outputs[0].fp.upper() == -1);
}

TEST_CASE("numeric_limits<SymbolicError>: the values of the literal format, or a clear error",
          "[dropin][numeric_limits]") {
  using L = std::numeric_limits<S>;
  static_assert(L::is_specialized && L::is_signed && !L::is_integer && L::has_infinity);
  // no float format in scope: the format-dependent values name the problem
  CHECK_THROWS_WITH(L::lowest(), Catch::Contains("numeric_limits") && Catch::Contains("lowest") &&
                                     Catch::Contains("ScopedLiteralFormat"));
  CHECK_THROWS_AS(L::epsilon(), std::logic_error);
  // infinity and NaN exist in every float format: real-format values
  CHECK(L::infinity().specials.may_be_pos_inf);
  CHECK(L::quiet_NaN().specials.may_be_nan);
  {
    const ScopedLiteralFormat fp16(FP16);
    CHECK(L::lowest().fp.lower() == -65504);
    CHECK(L::max().fp.upper() == 65504);
    CHECK(L::min().fp.lower() == 0x1p-14);
    CHECK(L::denorm_min().fp.lower() == 0x1p-24);
    CHECK(L::epsilon().fp.lower() == 0x1p-10);
    CHECK(L::round_error().fp.lower() == 0.5);
    CHECK(L::max().format == Format{FP16});
    CHECK(L::infinity().format == Format{FP16});
  }
  {
    const ScopedLiteralFormat up(FP32, RoundingMode::Upward);
    CHECK(L::round_error().fp.lower() == 1.0);
    CHECK(L::lowest().fp.lower() == -FLT_MAX);
    CHECK(L::lowest().mode == RoundingMode::Upward);
  }
  {
    const ScopedLiteralFormat i8(INT8);
    CHECK_THROWS_WITH(L::max(), Catch::Contains("INT8"));
  }
  // CFloat and CDouble: those of float and double
  using LF = std::numeric_limits<CFloat>;
  using LD = std::numeric_limits<CDouble>;
  static_assert(LF::digits == 24 && LD::digits == 53 && !LF::has_signaling_NaN);
  CHECK(LF::lowest().fp.lower() == -FLT_MAX);
  CHECK(LF::lowest().format == Format{FP32});
  CHECK(LD::epsilon().fp.lower() == DBL_EPSILON);
  CHECK(LD::max().format == Format{FP64});
}
