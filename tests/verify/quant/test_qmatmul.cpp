// The quantized matmul's bound against exact executions: soundness on random
// and near-tie inputs (the test's own rational oracle: quantization, integer
// accumulation and the real matmul in GMP), tightness by an aimed search, a
// planted bound without its quantization term caught, bad specs refused.
#include <catch2/catch.hpp>

#include <gmpxx.h>

#include <algorithm>
#include <cmath>
#include <random>

#include <symerr/verify/quant/qmatmul.hpp>

#include "test_scale.hpp"

using namespace symerr::quant;
using namespace symerr::verify::quant;

namespace {

FixedPointMultiplier to_fixed_point(double m) {
  int shift = 0;
  while (m * std::ldexp(1.0, 31 + shift) < 0x1p30) ++shift;
  return {static_cast<std::int32_t>(std::lround(m * std::ldexp(1.0, 31 + shift))), shift};
}

// An n×n×n matmul of int8 tensors, inputs in [-1, 1], output scale for [-n, n].
QMatMulSpec square_spec(std::size_t n, RequantVariant variant) {
  QMatMulSpec s;
  s.m = s.k = s.n = n;
  s.a_lo.assign(n * n, -1.0);
  s.a_hi.assign(n * n, 1.0);
  s.b_lo = s.a_lo;
  s.b_hi = s.a_hi;
  s.a.scale = s.b.scale = 1.0f / 127.0f;
  s.y.scale = static_cast<float>(n) / 127.0f;
  s.multiplier = to_fixed_point(static_cast<double>(s.a.scale) * s.b.scale / s.y.scale);
  s.variant = variant;
  return s;
}

// The test's own oracle: round_half_even(x / s) + z saturated, in GMP.
long oracle_quantize(float x, const QuantParams& p) {
  const mpq_class q = mpq_class(x) / mpq_class(p.scale);
  mpz_class f;
  mpz_fdiv_q(f.get_mpz_t(), q.get_num_mpz_t(), q.get_den_mpz_t());
  const mpq_class frac = q - mpq_class(f);
  if (frac > mpq_class(1, 2) || (frac == mpq_class(1, 2) && mpz_odd_p(f.get_mpz_t()))) f += 1;
  return std::clamp(f.get_si() + static_cast<long>(p.zero_point), static_cast<long>(p.type.lo),
                    static_cast<long>(p.type.hi));
}

// The exact error of output (i, j): the integer kernel run by the oracle, its
// requantization by the variant under test, minus the real matmul.
mpq_class oracle_error(const QMatMulSpec& s, const std::vector<float>& a, const std::vector<float>& b, std::size_t i,
                       std::size_t j) {
  long acc = 0;
  mpq_class real = 0;
  for (std::size_t l = 0; l < s.k; ++l) {
    const float x = a[i * s.k + l], w = b[l * s.n + j];
    acc += (oracle_quantize(x, s.a) - s.a.zero_point) * (oracle_quantize(w, s.b) - s.b.zero_point);
    real += mpq_class(x) * mpq_class(w);
  }
  const long q = std::clamp(static_cast<long>(requantize(static_cast<std::int32_t>(acc), s.multiplier, s.variant)) +
                                static_cast<long>(s.y.zero_point),
                            static_cast<long>(s.y.type.lo), static_cast<long>(s.y.type.hi));
  return mpq_class(s.y.scale) * mpq_class(q - s.y.zero_point) - real;
}

// An input drawn in [-1, 1]: uniform, an endpoint, or next to a quantization tie.
float draw(std::mt19937_64& rng, float scale) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  switch (rng() % 4) {
    case 0:
      return static_cast<float>(u(rng));
    case 1:
      return rng() % 2 ? 1.0f : -1.0f;
    default: {
      const int level = static_cast<int>(rng() % 254) - 127;
      const float tie = (static_cast<float>(level) + 0.5f) * scale;
      const float off = std::ldexp(static_cast<float>(rng() % 64) - 32.0f, -30);
      return std::clamp(tie + off, -1.0f, 1.0f);
    }
  }
}

// Inputs of output (0, 0) aimed at the largest error of sign `sign`: every
// product term at its quantization errors' worst, one A level swept to move
// the requantization's rounding; the largest |error| of that sign found.
double aimed_search(const QMatMulSpec& s, int sign) {
  std::vector<float> a(s.m * s.k, 0.0f), b(s.k * s.n, 0.0f);
  double best = 0;
  for (int last_level = 127; last_level >= 64; --last_level)
    for (float delta : {0x1p-24f, 0x1p-20f, 0x1p-16f}) {
      for (std::size_t l = 0; l < s.k; ++l) {
        const int level = l + 1 == s.k ? last_level : 127;
        const float av = (static_cast<float>(level) - 0.5f) * s.a.scale + delta;  // rounds up: e_a ≈ +sa/2
        const float bv = (127.0f - 0.5f) * s.b.scale + delta;
        a[l] = sign > 0 ? av : -av;
        b[l * s.n] = bv;
      }
      const double e = oracle_error(s, a, b, 0, 0).get_d() * sign;
      best = std::max(best, e);
    }
  return best;
}

}  // namespace

TEST_CASE("quant: quantized matmul bound sound against exact executions (4x4, 16x16, three requantizations)",
          "[verify][quant]") {
  std::mt19937_64 rng(11);
  std::size_t executions = 0, checked = 0;
  for (auto variant : {RequantVariant::exact_half_even, RequantVariant::gemmlowp, RequantVariant::float_lrintf})
    for (std::size_t n : {4u, 16u}) {
      const QMatMulSpec s = square_spec(n, variant);
      const auto bound = qmatmul_bound(s);
      const std::size_t runs = symerr::test::scaled(n == 4 ? 30000 : 1000, 30);
      for (std::size_t r = 0; r < runs; ++r, ++executions) {
        std::vector<float> a(n * n), b(n * n);
        for (auto& x : a) x = draw(rng, s.a.scale);
        for (auto& x : b) x = draw(rng, s.b.scale);
        const auto qy = qmatmul_execute(s, a, b);
        for (std::size_t i = 0; i < n; ++i)
          for (std::size_t j = 0; j < n; ++j, ++checked) {
            const mpq_class e = oracle_error(s, a, b, i, j);
            const auto& bd = bound[i * n + j];
            REQUIRE(e >= mpq_class(bd.err_lo));
            REQUIRE(e <= mpq_class(bd.err_hi));
            REQUIRE(qmatmul_error(s, a, b, qy, i, j) == e.get_d());  // the library's execution agrees
          }
      }
    }
  INFO("executions " << executions << ", elements checked " << checked);
  CHECK(executions >= symerr::test::scaled(93000, 180));
}

TEST_CASE("quant: quantized matmul bound within 2x of the error an aimed search reaches (4x4, 16x16)", "[verify][quant]") {
  for (auto variant : {RequantVariant::exact_half_even, RequantVariant::gemmlowp})
    for (std::size_t n : {4u, 16u}) {
      const QMatMulSpec s = square_spec(n, variant);
      const auto b = qmatmul_bound(s)[0];
      CHECK_FALSE(b.inputs_may_saturate);
      CHECK_FALSE(b.output_may_saturate);
      const double up = aimed_search(s, +1), down = aimed_search(s, -1);
      INFO("n " << n << " bound [" << b.err_lo << ", " << b.err_hi << "] observed " << -down << " / " << up);
      CHECK(up <= b.err_hi);
      CHECK(b.err_hi <= 2 * up);
      CHECK(-down >= b.err_lo);
      CHECK(-b.err_lo <= 2 * down);
      // planted: the bound without its quantization term is violated by the search
      CHECK(up > b.rounding + b.multiplier);
    }
}

TEST_CASE("quant: quantized matmul with saturating inputs and output stays sound and says so", "[verify][quant]") {
  QMatMulSpec s = square_spec(4, RequantVariant::exact_half_even);
  std::fill(s.a_lo.begin(), s.a_lo.end(), -2.0);
  std::fill(s.a_hi.begin(), s.a_hi.end(), 2.0);
  s.y.scale = 1.0f / 127.0f;  // outputs up to 4·2 do not fit in [-1, 1]
  s.multiplier = to_fixed_point(static_cast<double>(s.a.scale) * s.b.scale / s.y.scale);
  const auto bound = qmatmul_bound(s);
  CHECK(bound[0].inputs_may_saturate);
  CHECK(bound[0].output_may_saturate);
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> u(-2.0, 2.0);
  for (std::size_t r = 0; r < symerr::test::scaled(3000, 30); ++r) {
    std::vector<float> a(16), b(16);
    for (auto& x : a) x = static_cast<float>(u(rng));
    for (auto& x : b) x = draw(rng, s.b.scale);
    for (std::size_t e = 0; e < 16; ++e) {
      const mpq_class err = oracle_error(s, a, b, e / 4, e % 4);
      REQUIRE(err >= mpq_class(bound[e].err_lo));
      REQUIRE(err <= mpq_class(bound[e].err_hi));
    }
  }
}

TEST_CASE("quant: quantized matmul specs that are wrong are refused with the reason", "[verify][quant]") {
  QMatMulSpec s = square_spec(4, RequantVariant::exact_half_even);
  s.a_lo.pop_back();
  CHECK_THROWS_WITH(qmatmul_bound(s), Catch::Contains("box of A"));
  s = square_spec(4, RequantVariant::exact_half_even);
  s.b_hi[3] = -5;
  CHECK_THROWS_WITH(qmatmul_bound(s), Catch::Contains("B[3]"));
  s = square_spec(4, RequantVariant::exact_half_even);
  s.y.zero_point = 300;
  CHECK_THROWS_WITH(qmatmul_bound(s), Catch::Contains("zero point 300"));
  s = square_spec(4, RequantVariant::exact_half_even);
  s.a.scale = -1;
  CHECK_THROWS_WITH(qmatmul_bound(s), Catch::Contains("positive"));
  s = square_spec(4, RequantVariant::exact_half_even);
  CHECK_THROWS_WITH(qmatmul_execute(s, std::vector<float>(3), std::vector<float>(16)), Catch::Contains("3 and 16"));
  // an accumulator that may leave int32 gives no bound, flagged
  s = square_spec(4, RequantVariant::exact_half_even);
  s.k = 70000;
  s.m = s.n = 1;
  s.a_lo.assign(70000, -1e6);
  s.a_hi.assign(70000, 1e6);
  s.b_lo = s.a_lo;
  s.b_hi = s.a_hi;
  s.a.type = s.b.type = quant_type_from_string("int16");
  const auto b = qmatmul_bound(s);
  CHECK(b[0].accumulator_may_overflow);
  CHECK(std::isinf(b[0].err_hi));
}
