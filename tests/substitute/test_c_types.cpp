// A C kernel file that mixes float and double (kernels/mixed_kernels.c: a
// dot product summed in double, one with double products, a product with the
// double literal 0.1, a float mean divided by an int, a layer norm with double
// statistics and the double sqrt, a softmax with exp in double and a double
// sum, a relu compared with 0.0) substituted with C_TYPES (float -> CFloat,
// double -> CDouble, <symerr/c_types.hpp>), each output's enclosure checked
// against exact executions: the file compiled as C gives the computed result,
// the same file on symref::Enclosure (256-bit MPFR intervals) the real one.
// Tightness twin: the bound within a stated factor of the largest observed
// error. The same file with one type for both (SymbolicError: every value
// keeps its own format, C's conversions vanish) describes another program:
// its bounds are wider where C computes in double.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <random>
#include <span>
#include <string>
#include <vector>

#include <gmpxx.h>
#include <mpfr.h>

#include <symerr/domains/symbolic_interval.hpp>
#include <symerr/verify/symbolic/driver.hpp>

#include "substitute/enclosure_check.hpp"
#include "substitute/enclosure_prelude.hpp"

#include <symerr/substitute.hpp>
#undef float
#undef double
#define float ::symerr::CFloat
#define double ::symerr::CDouble
namespace mct {
#include "kernels/mixed_kernels.h"
}
#undef MIXED_KERNELS_H
#undef float
#undef double
#define float ::symerr::SymbolicError
#define double ::symerr::SymbolicError
namespace mone {
#include "kernels/mixed_kernels.c"
}
#undef MIXED_KERNELS_H
#undef float
#undef double
#define float ::symref::Enclosure
#define double ::symref::Enclosure
namespace mref {
#include "kernels/mixed_kernels.c"
}
#undef MIXED_KERNELS_H
#undef float
#undef double
#include <symerr/substitute_end.hpp>
extern "C" {
#include "kernels/mixed_kernels.h"
#include "test_scale.hpp"
}

using symerr::CDouble;
using symerr::CFloat;
using symerr::SymbolicError;
using symref::Enclosure;

namespace {

enum class K { Dot, DotPromoted, Scale, Mean, LayerNorm, Softmax, Relu };

const char* name(K k) {
  switch (k) {
    case K::Dot: return "dot (float products, double sum)";
    case K::DotPromoted: return "dot (double products)";
    case K::Scale: return "x * 0.1";
    case K::Mean: return "float mean / int";
    case K::LayerNorm: return "layernorm (double statistics, sqrt)";
    case K::Softmax: return "softmax (exp in double, double sum)";
    case K::Relu: return "relu (x < 0.0)";
  }
  return "?";
}
int inputs(K k) {
  switch (k) {
    case K::Dot:
    case K::DotPromoted: return 32;
    case K::Scale:
    case K::Mean: return 16;
    default: return 4;
  }
}
int outputs(K k) {
  switch (k) {
    case K::Dot:
    case K::DotPromoted:
    case K::Mean: return 1;
    case K::Scale: return 16;
    default: return 4;
  }
}

// One body for the four builds: NS is the kernel's namespace (or nothing for
// the C build), T its float type.
#define SYMERR_MIXED_RUN(NS, T)                                          \
  void run(K k, const T* x, T* y) {                                      \
    switch (k) {                                                         \
      case K::Dot: y[0] = NS mixed_dot(x, x + 16, 16); break;            \
      case K::DotPromoted: y[0] = NS mixed_dot_promoted(x, x + 16, 16); break; \
      case K::Scale: NS mixed_scale(x, y, 16); break;                    \
      case K::Mean: y[0] = NS mixed_mean(x, 16); break;                  \
      case K::LayerNorm: NS mixed_layernorm(x, y, 4); break;             \
      case K::Softmax: NS mixed_softmax(x, y, 4); break;                 \
      case K::Relu: NS mixed_relu(x, y, 4); break;                       \
    }                                                                    \
  }
SYMERR_MIXED_RUN(, float)
SYMERR_MIXED_RUN(mct::, CFloat)
SYMERR_MIXED_RUN(mone::, SymbolicError)
SYMERR_MIXED_RUN(mref::, Enclosure)
#undef SYMERR_MIXED_RUN

// The symbolic outputs through the kernel driver (which handles the relu's
// branch): C_TYPES, the driver's spans of SymbolicError copied into
// KernelBuffer<CFloat>s (adopted by the driver: the relu's comparison on a
// const element tightens it; an FP32 input is kept as it is, its driver tag
// included), or one type for both, on the spans themselves.
std::vector<SymbolicError> symbolic(K k, double e, bool c_types) {
  const std::vector<SymbolicError> in(static_cast<std::size_t>(inputs(k)),
                                      SymbolicError::input(-1, 1, -e, e, symerr::FP32));
  const auto kernel = [k, c_types](std::span<SymbolicError> x, std::span<SymbolicError> y) {
    if (!c_types) return run(k, x.data(), y.data());
    symerr::verify::KernelBuffer<CFloat> xc(x), yc(y.size());
    run(k, xc.data(), yc.data());
    yc.copy_to(y);
  };
  symerr::verify::DriverOptions opt;
  if (k == K::Relu) {
    const std::size_t sizes[] = {4};
    symerr::verify::elementwise_lanes(opt, sizes, 4);
  }
  return symerr::verify::run_kernel(kernel, in, static_cast<std::size_t>(outputs(k)), opt).outputs;
}

struct Outcome {
  long violations = 0;
  double observed = 0;  // largest |f − r| seen (from the reference's nearer endpoint)
  double bound = 0;     // largest sup |err| of the outputs
};

double bound_of(const std::vector<SymbolicError>& ys) {
  double b = 0;
  for (const auto& y : ys) b = std::max({b, std::fabs(y.err.lower()), std::fabs(y.err.upper())});
  return b;
}

// Inputs r_i in [−1, 1], computed inputs f_i = r_i + e_i (FP32, |e_i| <= e);
// a quarter of the executions draw from {−1, −0.5, 0, 0.5, 1} ± a few ulps
// (ties of the softmax maximum, the relu's switch, exact sums).
Outcome check(K k, double e, const std::vector<SymbolicError>& ys, long trials, std::uint64_t seed) {
  Outcome o;
  o.bound = bound_of(ys);
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1), ue(-e, e);
  std::uniform_int_distribution<int> pick(0, 3), grid(-2, 2), ulps(-3, 3);
  symref::ExecutionCheck encloses;
  const int n = inputs(k), m = outputs(k);
  for (long trial = 0; trial < trials; ++trial) {
    std::vector<float> f(static_cast<std::size_t>(n)), yf(static_cast<std::size_t>(m));
    std::vector<Enclosure> r(static_cast<std::size_t>(n)), yr(static_cast<std::size_t>(m));
    const bool special = pick(rng) == 0;
    for (int i = 0; i < n; ++i) {
      float v = static_cast<float>(u(rng));
      if (special) v = std::clamp(0.5f * static_cast<float>(grid(rng)) + static_cast<float>(ulps(rng)) * 0x1p-24f, -1.0f, 1.0f);
      f[static_cast<std::size_t>(i)] = v;
      mpq_class q = mpq_class(static_cast<double>(v)) - mpq_class(ue(rng));
      if (q > 1) q = 1;  // then f − r ∈ (−e, 0]: f > 1 − e
      if (q < -1) q = -1;
      r[static_cast<std::size_t>(i)] = Enclosure(q);
    }
    run(k, f.data(), yf.data());
    run(k, r.data(), yr.data());
    for (std::size_t j = 0; j < static_cast<std::size_t>(m); ++j)
      if (!encloses(ys[j], yf[j], yr[j], o.observed)) ++o.violations;
  }
  return o;
}

}  // namespace

TEST_CASE("C_TYPES: a C kernel mixing float and double is analysed as C computes it", "[substitute][c_types]") {
  struct Row {
    K k;
    double e;
    double max_ratio;  // the tightness twin: bound / observed (measured ratios in the README)
  };
  // (measured, 10^4 executions: dot 3.5 / 3.9, double products 2.0 / 4.2,
  // x * 0.1 1.25 / 1.008, mean 3.9 / 2.5, relu 1 / 1; with the sanitizers'
  // 10^3 executions dot and mean reach 6.0–6.6: random sums stay below the
  // worst case, hence the factor 10 there; layernorm and softmax lose the
  // relation between x and the statistics in the interval domain on the
  // whole box (4·10^2–7·10^5): the twin there only rules out an unbounded
  // enclosure)
  const long trials = std::max(300L, static_cast<long>(10000 * symerr::test::test_scale()));
  for (const Row& row : {Row{K::Dot, 0, 10}, Row{K::Dot, 0x1p-20, 10}, Row{K::DotPromoted, 0, 3},
                         Row{K::DotPromoted, 0x1p-20, 10}, Row{K::Scale, 0, 1.5}, Row{K::Scale, 0x1p-20, 1.1},
                         Row{K::Mean, 0, 10}, Row{K::Mean, 0x1p-20, 10}, Row{K::LayerNorm, 0, 1e4},
                         Row{K::LayerNorm, 0x1p-20, 1e7}, Row{K::Softmax, 0, 1e4}, Row{K::Softmax, 0x1p-20, 1e4},
                         Row{K::Relu, 0, 1}, Row{K::Relu, 0x1p-20, 1}}) {
    const std::vector<SymbolicError> ys = symbolic(row.k, row.e, true);
    const Outcome o = check(row.k, row.e, ys, trials, 17 + static_cast<std::uint64_t>(row.k));
    const std::vector<SymbolicError> one = symbolic(row.k, row.e, false);
    INFO(name(row.k) << " e=" << row.e << ": C_TYPES bound " << o.bound << ", observed " << o.observed << ", ratio "
                     << o.bound / o.observed << "; one type for both: bound " << bound_of(one));
    CHECK(o.violations == 0);
    if (row.k == K::Relu) {
      CHECK(o.bound == row.e);  // the true maximum: the relu's comparison tightens the const element
    } else {
      CHECK(o.observed > 0);
      CHECK(o.bound <= row.max_ratio * o.observed);
    }
    for (const auto& y : ys) CHECK(symerr::format_name(y.format) == "FP32");
    // the other program: with one type the double products and the double
    // sum are float operations (11.6x the bound)
    if (row.k == K::DotPromoted && row.e == 0) CHECK(bound_of(one) > 10 * o.bound);
  }
}

template <class T>
concept HasSqrtl = requires(const T& v) { sqrtl(v); };

TEST_CASE("C_TYPES: C's conversions, operation by operation", "[substitute][c_types]") {
  const SymbolicError xs = SymbolicError::input(0.5, 1, symerr::FP32);
  const CFloat x(xs);
  CHECK(x.source == xs.source);
  // a float literal is a float operation; a double literal makes it a double one
  CHECK(symerr::format_name((x * 0.5f).format) == "FP32");
  const auto xd = x * 0.1;
  static_assert(std::is_same_v<std::remove_cv_t<decltype(xd)>, CDouble>);
  CHECK(symerr::format_name(xd.format) == "FP64");
  CHECK(xd.err.upper() <= 0x1p-53);  // one double rounding of x·0.1 (x exact)
  const CFloat xf = xd;                // narrowed on assignment: one float rounding
  CHECK(xf.err.upper() > 0x1p-28);
  CHECK(xf.err.upper() < 0x1p-26);
  // an int operand of a float operation is converted to float: 2^24 + 1 rounds
  const auto big = x * 16777217;
  static_assert(std::is_same_v<std::remove_cv_t<decltype(big)>, CFloat>);
  CHECK(big.introduced.upper() < 0);  // 2^24 + 1 became 2^24: x·(−1) and the product's rounding
  CHECK(symerr::mag((x * 16777216).introduced) < symerr::mag(big.introduced));
  // the <math.h> names: sqrt is the double function, sqrtf the float one
  static_assert(std::is_same_v<decltype(sqrt(x)), CDouble>);
  static_assert(std::is_same_v<decltype(sqrtf(x)), CFloat>);
  static_assert(std::is_same_v<decltype(fmaxf(x, 0.0f)), CFloat>);
  static_assert(std::is_same_v<decltype(fmax(x, 0.0f)), CDouble>);
  static_assert(std::is_same_v<decltype(x + CDouble(1)), CDouble>);
  static_assert(std::is_same_v<decltype(fmaf(x, x, 1.0f)), CFloat>);
  static_assert(std::is_same_v<decltype(fma(x, x, 1)), CDouble>);
  CHECK(fma(x, x, 1).err.upper() <= 0x1p-52);  // x·x + 1 in [1.25, 2], one double rounding
  CHECK(fmaf(x, x, 1).err.upper() > 0x1p-26);
  CHECK(symerr::format_name(sqrt(x).format) == "FP64");
  CHECK(sqrt(x).err.upper() <= 0x1p-53);
  CHECK(sqrtf(x).err.upper() > 0x1p-26);
  // float compared with double, in double; a float literal exactly
  const CDouble third = CDouble(1) / 3;
  CHECK((x > third).tri() == symerr::Tri::True);
  CHECK((x >= 0.5).tri() == symerr::Tri::True);
  // an integer compared with a float is converted to float first, as C does:
  // (float)16777217 is 16777216.0f in the computed program; the ideal one
  // compares the exact values (the conversion is a rounding): an unstable test
  const CFloat p24(SymbolicError::constant(16777216.0, symerr::FP32));
  CHECK((p24 == 16777217).computed() == symerr::Tri::True);
  CHECK((p24 == 16777217).ideal() == symerr::Tri::False);
  CHECK((p24 < 16777217).computed() == symerr::Tri::False);
  CHECK((16777217 <= p24).computed() == symerr::Tri::True);
  CHECK((16777217 <= p24).ideal() == symerr::Tri::False);
  // the drop-in comparison of the value itself converts the integer too; the
  // twin: a double literal is compared exactly (C converts the float to double)
  CHECK((static_cast<const SymbolicError&>(p24) == 16777217).computed() == symerr::Tri::True);
  CHECK((static_cast<const SymbolicError&>(p24) == 16777217).ideal() == symerr::Tri::False);
  CHECK((p24 < 16777217.0).tri() == symerr::Tri::True);
  const SymbolicError h = SymbolicError::constant(2048, symerr::FP16);  // FP16: 2049 rounds to 2048
  CHECK((h == 2049).computed() == symerr::Tri::True);
  CHECK((h < 2049).ideal() == symerr::Tri::True);
  CHECK((h < 2048).tri() == symerr::Tri::False);  // within 2^11: the exact literal
  const CDouble p53(SymbolicError::constant(0x1p53, symerr::FP64));
  CHECK((p53 == (1LL << 53) + 1).computed() == symerr::Tri::True);
  CHECK((p53 == (1LL << 53) + 1).ideal() != symerr::Tri::True);  // 2^53 + 1 is no double: [2^53, 2^53 + 2]
  CHECK((p53 == (1LL << 53)).tri() == symerr::Tri::True);  // exact: the drop-in literal
  CHECK((x < 1).tri() == symerr::Tri::Unknown);  // x in [0.5, 1]
  CHECK((x <= 1).tri() == symerr::Tri::True);
  // numbers converted to the type, as C converts constants
  CHECK(CFloat(0.1).fp.lower() == static_cast<double>(0.1f));
  CHECK(CFloat(0.1).real.lower() == CFloat(0.1).real.upper());
  CHECK(CDouble(0.1).err.upper() == 0);
  CHECK(CFloat(-INFINITY).specials.may_be_neg_inf);
  CHECK_FALSE(CFloat(-INFINITY).specials.may_be_finite);
  // the long double names are deleted (not modelled): sqrtl(x) does not compile
  static_assert(!HasSqrtl<CFloat> && HasSqrtl<float>);
}

TEST_CASE("KernelBuffer: the driver tightens compared elements of a buffer it adopted", "[substitute][c_types]") {
  const double e = 0x1p-20;
  const std::vector<SymbolicError> in(4, SymbolicError::input(-1, 1, -e, e, symerr::FP32));
  symerr::verify::DriverOptions opt;
  const std::size_t sizes[] = {4};
  symerr::verify::elementwise_lanes(opt, sizes, 4);
  const auto adopted = symerr::verify::run_kernel(
      [](std::span<SymbolicError> x, std::span<SymbolicError> y) {
        symerr::verify::KernelBuffer<CFloat> xc(x), yc(y.size());
        mct::mixed_relu(xc.data(), yc.data(), 4);
        yc.copy_to(y);
      },
      in, 4, opt);
  // the same copies in a std::vector, which no driver knows of: the relu's
  // comparisons on its const elements tighten nothing, but they name the
  // inputs the elements are copies of, and each output is such a copy: the
  // unstable pair (real x < 0 → 0, computed x >= 0 → x) is bounded
  // relationally, to e too
  auto plain_vector = [](void (*k)(const CFloat*, CFloat*, int)) {
    return [k](std::span<SymbolicError> x, std::span<SymbolicError> y) {
      std::vector<CFloat> xc(x.begin(), x.end()), yc(y.size());
      k(xc.data(), yc.data(), 4);
      std::copy(yc.begin(), yc.end(), y.begin());
    };
  };
  const auto unknown = symerr::verify::run_kernel(plain_vector(mct::mixed_relu), in, 4, opt);
  // the twin: 2·x on the computed branch is no copy; only a tightened operand
  // (x >= 0 where the real x < 0: x in [0, e]) bounds the pair, to 2e
  const auto scaled = symerr::verify::run_kernel(
      [](std::span<SymbolicError> x, std::span<SymbolicError> y) {
        symerr::verify::KernelBuffer<CFloat> xc(x), yc(y.size());
        mct::mixed_relu_scaled(xc.data(), yc.data(), 4);
        yc.copy_to(y);
      },
      in, 4, opt);
  const auto scaled_unknown = symerr::verify::run_kernel(plain_vector(mct::mixed_relu_scaled), in, 4, opt);
  for (std::size_t i = 0; i < 4; ++i) {
    CHECK(symerr::mag(adopted.outputs[i].err) == e);
    CHECK(symerr::mag(unknown.outputs[i].err) == e);
    CHECK(symerr::mag(scaled.outputs[i].err) <= 2 * e * (1 + 1e-6));
    CHECK(symerr::mag(scaled_unknown.outputs[i].err) > 0.5);
  }
  CHECK(adopted.report.refined_operands > 0);
  CHECK(unknown.report.refined_operands == 0);
  // outside a driver a KernelBuffer is a plain copy
  symerr::verify::KernelBuffer<CFloat> plain{std::span<const SymbolicError>(in)};
  CHECK(plain.size() == 4);
  CHECK(plain[0].source == in[0].source);
}
