// The inline format queries of the arithmetic hot path
// (lib/include/symerr/symbolic/fast_format.hpp) equal their out-of-line
// counterparts in <symerr/format.hpp>: every power of two (normal, subnormal,
// out of range), ulp of zeros, subnormals and normals, min_subnormal, in every
// built-in float format.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <random>

#include <symerr/symbolic/fast_format.hpp>

using namespace symerr;

TEST_CASE("fast_format: pow2 equals ldexp(1, e) for every exponent, subnormal powers included", "[core][format]") {
  for (int e = -1200; e <= 1100; ++e) {
    INFO(e);
    CHECK(detail::pow2(e) == std::ldexp(1.0, e));
  }
}

TEST_CASE("fast_format: ulp_of and min_subnormal equal ulp() and FloatFormat's, zeros and subnormals included",
          "[core][format]") {
  std::mt19937_64 rng(11);
  const double sub = std::numeric_limits<double>::denorm_min();
  for (const FloatFormat& F : {FP64, FP32, FP16, BF16, FP8_E5M2, FP8_E4M3}) {
    INFO(F.name);
    CHECK(detail::min_subnormal(F) == F.min_subnormal());
    CHECK(detail::min_normal(F) == F.min_normal());
    for (double x : {0.0, -0.0, sub, -sub, 0x1p-1030, 0x1p-1023, 0x1.fffffffffffffp-1023, 0x1p-1022, 0.75, 1.0, 3.5,
                     F.min_normal(), F.max_finite()})
      CHECK(detail::ulp_of(x, F) == ulp(x, F));
    for (int i = 0; i < 2000; ++i) {
      const double x = std::ldexp(std::uniform_real_distribution<double>(1, 2)(rng),
                                  std::uniform_int_distribution<int>(-1074, F.emax)(rng));
      CHECK(detail::ulp_of(x, F) == ulp(x, F));
    }
  }
}
