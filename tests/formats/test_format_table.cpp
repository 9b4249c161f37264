// Format descriptors, ulp, adjacent values and the 16-bit storage encodings.
#include <catch2/catch.hpp>

#include <bit>
#include <cmath>

#include <symerr/format.hpp>

using namespace symerr;

TEST_CASE("format table constants", "[formats]") {
  CHECK(FP16.unit_roundoff() == std::ldexp(1.0, -11));
  CHECK(BF16.unit_roundoff() == std::ldexp(1.0, -8));
  CHECK(FP32.unit_roundoff() == std::ldexp(1.0, -24));
  CHECK(FP64.unit_roundoff() == std::ldexp(1.0, -53));
  CHECK(FP16.max_finite() == 65504.0);
  CHECK(FP16.min_normal() == std::ldexp(1.0, -14));
  CHECK(FP16.min_subnormal() == std::ldexp(1.0, -24));
  CHECK(BF16.max_finite() == 0x1.fep127);
  CHECK(FP32.max_finite() == static_cast<double>(std::numeric_limits<float>::max()));
  CHECK(FP32.min_subnormal() == static_cast<double>(std::numeric_limits<float>::denorm_min()));
  CHECK(FP64.max_finite() == std::numeric_limits<double>::max());
  CHECK(FP64.min_subnormal() == std::numeric_limits<double>::denorm_min());
  CHECK(FP32.epsilon() == static_cast<double>(std::numeric_limits<float>::epsilon()));
}

TEST_CASE("integer formats wrap modulo 2^n", "[formats][int]") {
  CHECK(INT4.min_value() == -8);
  CHECK(INT4.max_value() == 7);
  CHECK(UINT4.max_value() == 15);
  CHECK(INT8.wrap(130) == -126);
  CHECK(INT8.wrap(-129) == 127);
  CHECK(UINT8.wrap(-100) == 156);
  CHECK(UINT8.wrap(256 + 44) == 44);
  CHECK(INT4.wrap(8) == -8);
  CHECK(UINT64.max_value() == (static_cast<__int128>(1) << 64) - 1);
  CHECK(INT64.wrap(static_cast<__int128>(1) << 63) == -(static_cast<__int128>(1) << 63));
  for (const IntFormat& f : kIntFormats)
    for (__int128 v = -300; v <= 300; ++v) {
      const __int128 w = f.wrap(v);
      REQUIRE(f.contains(w));
      REQUIRE((v - w) % (static_cast<__int128>(1) << f.bits) == 0);
    }
}

TEST_CASE("custom formats are validated", "[formats]") {
  const FloatFormat e4m3 = custom_float_format("E4M3-like", 4, -6, 8);
  CHECK(e4m3.max_finite() == 480.0);  // IEEE-style: (2 - 2^-3) * 2^8
  CHECK(e4m3.min_subnormal() == std::ldexp(1.0, -9));
  CHECK_THROWS_WITH(custom_float_format("x", 60, -10, 10), Catch::Contains("precision 60"));
  CHECK_THROWS_WITH(custom_float_format("x", 10, -10, 2000), Catch::Contains("emax 2000"));
  CHECK_THROWS_AS(custom_float_format("x", 10, 3, 10), std::invalid_argument);
  REQUIRE(find_format("float16").has_value());
  CHECK(std::get<FloatFormat>(*find_format("BFLOAT16")) == BF16);
  CHECK(std::get<IntFormat>(*find_format("uint4")) == UINT4);
  CHECK_FALSE(find_format("fp12").has_value());
  CHECK(format_name(Format{INT32}) == "INT32");
  CHECK(format_name(Format{}) == "real");
}

TEST_CASE("every FP16 and BF16 encoding round-trips", "[formats][encoding]") {
  for (std::uint32_t b = 0; b <= 0xFFFF; ++b) {
    const auto bits = static_cast<std::uint16_t>(b);
    for (int which = 0; which < 2; ++which) {
      const FloatFormat& F = which ? BF16 : FP16;
      const double x = which ? decode_bf16(bits) : decode_fp16(bits);
      const std::uint16_t back = which ? encode_bf16(x) : encode_fp16(x);
      INFO(F.name << " bits 0x" << std::hex << b);
      REQUIRE(back == bits);  // NaN payloads, signed zeros included
      if (std::isfinite(x)) {
        REQUIRE(is_representable(x, F));
        const Rounded r = round_to(exact_value(x), F, RoundingMode::NearestEven, std::signbit(x));
        REQUIRE(r.ternary == Ternary::Exact);
        REQUIRE(std::bit_cast<std::uint64_t>(r.value) == std::bit_cast<std::uint64_t>(x));
      }
    }
  }
  // Hardware agreement: _Float16 conversion of every FP16 pattern.
  for (std::uint32_t b = 0; b <= 0xFFFF; ++b) {
    const auto h = std::bit_cast<_Float16>(static_cast<std::uint16_t>(b));
    const double x = decode_fp16(static_cast<std::uint16_t>(b));
    if (std::isnan(x)) { REQUIRE(std::isnan(static_cast<double>(h))); continue; }
    REQUIRE(static_cast<double>(h) == x);
  }
  // BF16 is the top half of FP32.
  for (std::uint32_t b = 0; b <= 0xFFFF; ++b) {
    const double x = decode_bf16(static_cast<std::uint16_t>(b));
    const float f = std::bit_cast<float>(b << 16);
    if (std::isnan(x)) { REQUIRE(std::isnan(f)); continue; }
    REQUIRE(static_cast<double>(f) == x);
  }
  CHECK_THROWS_AS(encode_fp16(0.1), std::invalid_argument);
  CHECK_THROWS_AS(encode_bf16(1.0 + 1.0 / 1024), std::invalid_argument);
}

TEST_CASE("ulp agrees with the spacing of adjacent values for every FP16 value", "[formats][ulp]") {
  for (std::uint32_t b = 0; b < 0x7C00; ++b) {  // every non-negative finite FP16
    const double x = decode_fp16(static_cast<std::uint16_t>(b));
    const double up = decode_fp16(static_cast<std::uint16_t>(b + 1));
    const double spacing_above = (b + 1 < 0x7C00) ? up - x : ulp(FP16.max_finite(), FP16);
    INFO("x = " << x);
    // ulp(x) is the spacing of the binade of x (the gap above x).
    REQUIRE(ulp(x, FP16) == spacing_above);
    REQUIRE(ulp(-x, FP16) == spacing_above);
    if (b + 1 < 0x7C00) REQUIRE(next_up(x, FP16) == up);
    REQUIRE(next_down(next_up(x, FP16), FP16) == x);
  }
  CHECK(next_up(FP16.max_finite(), FP16) == INFINITY);
  CHECK(next_up(0.0, FP16) == FP16.min_subnormal());
  CHECK(std::signbit(next_up(-FP16.min_subnormal(), FP16)));
  CHECK(next_down(1.0, FP16) == 1.0 - std::ldexp(1.0, -11));
  CHECK_THROWS_AS(ulp(INFINITY, FP16), std::domain_error);
  // ulp in the other formats on a few anchors.
  CHECK(ulp(1.0, FP32) == std::ldexp(1.0, -23));
  CHECK(ulp(1.0, BF16) == std::ldexp(1.0, -7));
  CHECK(ulp(0.0, FP64) == std::numeric_limits<double>::denorm_min());
  CHECK(ulp(FP64.max_finite(), FP64) == std::ldexp(1.0, 971));
}
