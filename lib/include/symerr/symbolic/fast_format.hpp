// Inline fast paths for the format queries of the arithmetic hot path:
// powers of two, max finite, ulp, and rounding a double into a FloatFormat.
// Each computes the same value as its counterpart in <symerr/format.hpp> by
// integer manipulation of the binary64 encoding (no floating-point operation,
// so the result does not depend on the rounding mode), and falls back to the
// out-of-line function outside its simple cases.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>

#include <symerr/format.hpp>

namespace symerr::detail {

// 2^e for every int e (exact; the subnormal powers 2^-1074 ... 2^-1023 by
// their single fraction bit — FP64's min_subnormal() is on the hot path;
// ldexp outside the binary64 range).
inline double pow2(int e) noexcept {
  if (e >= -1022 && e <= 1023) return std::bit_cast<double>(static_cast<std::uint64_t>(e + 1023) << 52);
  if (e >= -1074 && e < -1022) return std::bit_cast<double>(std::uint64_t{1} << (e + 1074));
  return std::ldexp(1.0, e);
}

// |x| = 2^k for some integer k (x finite and nonzero): frexp(x) = ±0.5.
inline bool is_power_of_two(double x) noexcept {
  const std::uint64_t bits = std::bit_cast<std::uint64_t>(x) & ~(std::uint64_t{1} << 63);
  const std::uint64_t exponent = bits >> 52, fraction = bits & ((std::uint64_t{1} << 52) - 1);
  if (exponent == 0x7ff) return false;             // inf, NaN
  if (exponent == 0) return std::has_single_bit(fraction);  // subnormal (0 has no bit)
  return fraction == 0;
}

// q · 2^k for a positive power of two q (a double) and k >= 0, exactly (+inf
// past the binary64 range), by exponent arithmetic: q may be subnormal
// (FP64's ulp below the normal range), and a multiply with a subnormal operand
// takes a microcode assist of ~100 cycles on x86 (13% of a 64×64 substituted
// matmul by multiplication, in sum_is_exact's test on intervals that hold 0).
inline double scale_power_of_two(double q, int k) noexcept {
  const std::uint64_t bits = std::bit_cast<std::uint64_t>(q);
  const int biased = static_cast<int>(bits >> 52);
  const int e = biased == 0 ? -1074 + std::countr_zero(bits) : biased - 1023;
  return pow2(e + k);
}

// FloatFormat::max_finite(): (2 - 2^(1-p)) * 2^emax.
inline double max_finite(const FloatFormat& F) noexcept {
  if (F.reserved_top == 0 && F.precision >= 1 && F.precision <= 53 && F.emax >= -1022 && F.emax <= 1023) {
    const std::uint64_t frac = ((std::uint64_t{1} << (F.precision - 1)) - 1) << (53 - F.precision);
    return std::bit_cast<double>((static_cast<std::uint64_t>(F.emax + 1023) << 52) | frac);
  }
  return F.max_finite();
}
inline double min_normal(const FloatFormat& F) noexcept { return pow2(F.emin); }
inline double min_subnormal(const FloatFormat& F) noexcept {
  return F.subnormals ? pow2(F.emin - F.precision + 1) : pow2(F.emin);
}

// symerr::ulp(x, F).
inline double ulp_of(double x, const FloatFormat& F) {
  const std::uint64_t bits = std::bit_cast<std::uint64_t>(x) & ~(std::uint64_t{1} << 63);
  const int biased = static_cast<int>(bits >> 52);
  if (biased == 0x7ff) return symerr::ulp(x, F);  // inf, NaN: the error it throws
  // zero and subnormal doubles lie below every format's min_normal (emin >= -1022):
  // the spacing below the normal range (mig of an interval containing 0 is on the hot path)
  if (biased == 0) return F.emin >= -1022 ? pow2(F.emin - F.precision + 1) : symerr::ulp(x, F);
  const int e = biased - 1023;                            // ilogb(|x|)
  if (e < F.emin) return pow2(F.emin - F.precision + 1);
  return pow2(std::min(e, F.emax) - F.precision + 1);
}

// round_to(x, F, mode).value for a double x.
inline double round_value(double x, const FloatFormat& F, RoundingMode mode) {
  const std::uint64_t raw = std::bit_cast<std::uint64_t>(x);
  const bool negative = (raw >> 63) != 0;
  const std::uint64_t bits = raw & ~(std::uint64_t{1} << 63);
  const int biased = static_cast<int>(bits >> 52);
  const int e = biased - 1023;
  // Fast path: x a normal double whose binade is a normal binade of F.
  if (biased == 0 || biased == 0x7ff || e < F.emin || e > F.emax || F.precision < 1 || F.precision > 53)
    return symerr::round_to(x, F, mode).value;
  const int s = 53 - F.precision;  // discarded bits
  if (s == 0) return x;
  const std::uint64_t unit = std::uint64_t{1} << s;
  const std::uint64_t rem = bits & (unit - 1);
  if (rem == 0) return x;
  const std::uint64_t trunc = bits - rem;
  bool up = false;
  switch (mode) {
    case RoundingMode::NearestEven: {
      const std::uint64_t half = unit >> 1;
      up = rem > half || (rem == half && ((trunc >> s) & 1) != 0);
      break;
    }
    case RoundingMode::TowardZero: up = false; break;
    case RoundingMode::Upward: up = !negative; break;
    case RoundingMode::Downward: up = negative; break;
  }
  // A carry out of the significand moves to the next binade: the right value.
  const double mag = std::bit_cast<double>(up ? trunc + unit : trunc);
  if (mag > max_finite(F)) return symerr::round_to(x, F, mode).value;  // overflow
  return negative ? -mag : mag;
}

}  // namespace symerr::detail
