// round_to() against MPFR's emulation of each format, and against hardware.
#include <catch2/catch.hpp>

#include <cfenv>
#include <cmath>
#include <cstdio>
#include <random>

#include <symerr/decimal.hpp>

#include "formats/mpfr_emulation.hpp"

using namespace symerr;
using symerr::test::emulated_round;

namespace {

int unused_e = 0;  // frexp's exponent output, not needed here

constexpr RoundingMode kModes[] = {RoundingMode::NearestEven, RoundingMode::TowardZero,
                                   RoundingMode::Upward, RoundingMode::Downward};

std::string hex(double x) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%a", x);
  return buf;
}

// Random exact rationals aimed at the interesting places of F.
class RationalSource {
 public:
  RationalSource(const FloatFormat& F, std::uint64_t seed) : F_(F), rng_(seed) {}

  mpq_class next() {
    const int kind = pick(0, 7);
    mpq_class q;
    switch (kind) {
      case 0: q = random_in_binade(pick(F_.emin - F_.precision - 3, F_.emax + 2)); break;
      case 1: q = random_in_binade(pick(F_.emin - F_.precision - 1, F_.emin));  // subnormal
              break;
      case 2: q = tie(); break;
      case 3: q = near(F_.max_finite()); break;  // near overflow
      case 4: q = near(F_.min_normal()); break;
      case 5: q = near(F_.min_subnormal()); break;
      case 6: {  // random fraction n/d with large terms
        mpz_class n = big(pick(1, 120)), d = big(pick(1, 120));
        if (d == 0) d = 1;
        q = mpq_class(n, d);
        q.canonicalize();
        q = scale(q, pick(F_.emin - F_.precision, F_.emax));
        break;
      }
      default: q = exact_value(value_of_format()) ; break;  // exactly representable
    }
    if (pick(0, 1)) q = -q;
    return q;
  }

  double value_of_format() {
    const int e = pick(F_.emin, F_.emax);
    const double m = static_cast<double>(pick(0, (1 << std::min(F_.precision - 1, 30)) - 1));
    return std::ldexp(1.0 + m / static_cast<double>(1 << std::min(F_.precision - 1, 30)), e);
  }

 private:
  int pick(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  mpz_class big(int bits) {
    mpz_class z = 0;
    for (int i = 0; i < bits; i += 30) z = (z << 30) + pick(0, (1 << 30) - 1);
    return z >> ((bits + 29) / 30 * 30 - bits);
  }
  static mpq_class scale(mpq_class q, int e) {
    if (e >= 0) mpq_mul_2exp(q.get_mpq_t(), q.get_mpq_t(), static_cast<mp_bitcnt_t>(e));
    else mpq_div_2exp(q.get_mpq_t(), q.get_mpq_t(), static_cast<mp_bitcnt_t>(-e));
    return q;
  }
  // A number in [2^e, 2^(e+1)) with p+20 random significand bits.
  mpq_class random_in_binade(int e) {
    const int bits = F_.precision + 20;
    mpz_class m = (mpz_class(1) << (bits - 1)) + big(bits - 1);
    return scale(mpq_class(m), e - bits + 1);
  }
  // An exact midpoint between two adjacent values of F (normal or subnormal).
  mpq_class tie() {
    const int e = pick(F_.emin - 1, F_.emax);
    const int quantum = std::max(e, F_.emin) - F_.precision + 1;
    mpz_class m = big(F_.precision);
    if (e >= F_.emin) m |= mpz_class(1) << (F_.precision - 1);
    return scale(mpq_class(2 * m + 1), quantum - 1);
  }
  // v plus a small random offset of either sign, a fraction of its ulp.
  mpq_class near(double v) {
    mpq_class u = exact_value(ulp(v, F_));
    mpq_class off(pick(-8, 8), 4);
    if (pick(0, 3) == 0) off = mpq_class(pick(-1000, 1000), 997);
    return exact_value(v) + off * u;
  }

  const FloatFormat& F_;
  std::mt19937_64 rng_;
};

}  // namespace

TEST_CASE("round_to(rational) equals MPFR's emulation of the format", "[formats][rounding]") {
  for (const FloatFormat& F : kFloatFormats) {
    RationalSource src(F, 0x5eed0000u + static_cast<unsigned>(F.precision));
    long checked = 0;
    for (int i = 0; i < 100000; ++i) {
      const mpq_class q = src.next();
      for (RoundingMode mode : kModes) {
        const Rounded mine = round_to(q, F, mode);
        const auto ref = emulated_round(q, F, mode);
        const bool same = (std::isnan(mine.value) && std::isnan(ref.value)) ||
                          (mine.value == ref.value && std::signbit(mine.value) == std::signbit(ref.value));
        if (!same || static_cast<int>(mine.ternary) != ref.ternary) {
          INFO("format " << F.name << " mode " << to_string(mode) << " q = " << q.get_str()
                         << " mine " << hex(mine.value) << " t=" << int(mine.ternary)
                         << " mpfr " << hex(ref.value) << " t=" << ref.ternary);
          REQUIRE(same);
          REQUIRE(static_cast<int>(mine.ternary) == ref.ternary);
        }
        ++checked;
      }
    }
    CHECK(checked == 400000);
  }
}

TEST_CASE("overflow follows IEEE 754 per rounding mode", "[formats][rounding]") {
  for (const FloatFormat& F : kFloatFormats) {
    const mpq_class max = exact_value(F.max_finite());
    const mpq_class half_ulp = exact_value(ulp(F.max_finite(), F)) / 2;
    // max + ½ulp is the RNE overflow threshold (ties to the even "2^(emax+1)").
    CHECK(round_to(max + half_ulp, F, RoundingMode::NearestEven).value == INFINITY);
    CHECK(round_to(max + half_ulp, F, RoundingMode::NearestEven).overflow);
    CHECK(round_to(max + half_ulp / 2, F, RoundingMode::NearestEven).value == F.max_finite());
    CHECK_FALSE(round_to(max + half_ulp / 2, F, RoundingMode::NearestEven).overflow);
    CHECK(round_to(max * 4, F, RoundingMode::TowardZero).value == F.max_finite());
    CHECK(round_to(-max * 4, F, RoundingMode::Upward).value == -F.max_finite());
    CHECK(round_to(-max * 4, F, RoundingMode::Downward).value == -INFINITY);
    CHECK(round_to(max * 4, F, RoundingMode::Upward).value == INFINITY);
    CHECK(round_to(max * 4, F, RoundingMode::Upward).ternary == Ternary::RoundedUp);
    CHECK(round_to(max * 4, F, RoundingMode::Downward).ternary == Ternary::RoundedDown);
  }
}

TEST_CASE("round_to(double) equals round_to(exact rational)", "[formats][rounding]") {
  std::mt19937_64 rng(42);
  std::uniform_int_distribution<std::uint64_t> bits;
  for (const FloatFormat& F : kFloatFormats) {
    for (int i = 0; i < 50000; ++i) {
      double x = std::bit_cast<double>(bits(rng));
      if (!std::isfinite(x)) continue;
      if (i % 2) x = std::ldexp(std::frexp(x, &unused_e), static_cast<int>(bits(rng) % 300) - 160);
      for (RoundingMode mode : kModes) {
        const Rounded a = round_to(x, F, mode);
        const Rounded b = round_to(exact_value(x), F, mode, std::signbit(x));
        INFO(F.name << " " << to_string(mode) << " x=" << hex(x));
        REQUIRE(a.value == b.value);
        REQUIRE(std::signbit(a.value) == std::signbit(b.value));
        REQUIRE(a.ternary == b.ternary);
        REQUIRE(a.overflow == b.overflow);
        REQUIRE(a.underflow == b.underflow);
      }
    }
  }
}

namespace {
int to_fenv(RoundingMode m) {
  switch (m) {
    case RoundingMode::NearestEven: return FE_TONEAREST;
    case RoundingMode::TowardZero: return FE_TOWARDZERO;
    case RoundingMode::Upward: return FE_UPWARD;
    case RoundingMode::Downward: return FE_DOWNWARD;
  }
  return FE_TONEAREST;
}

template <class T>
T hw_div(T a, T b, RoundingMode mode) {
  volatile T va = a, vb = b;
  const int old = std::fegetround();
  std::fesetround(to_fenv(mode));
  volatile T r = va / vb;
  std::fesetround(old);
  return r;
}
}  // namespace

TEST_CASE("round_to equals the hardware for FP32 and FP64 quotients", "[formats][rounding][hardware]") {
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<std::uint64_t> bits;
  for (int i = 0; i < 100000; ++i) {
    const RoundingMode mode = kModes[i % 4];
    const double a = std::ldexp(std::frexp(std::bit_cast<double>(bits(rng) | 1), &unused_e),
                                static_cast<int>(bits(rng) % 2100) - 1070);
    const double b = std::ldexp(std::frexp(std::bit_cast<double>(bits(rng) | 1), &unused_e),
                                static_cast<int>(bits(rng) % 2100) - 1070);
    if (!std::isfinite(a) || !std::isfinite(b) || a == 0 || b == 0) continue;
    const mpq_class q = exact_value(a) / exact_value(b);
    const double hw = hw_div(a, b, mode);
    INFO("FP64 " << hex(a) << " / " << hex(b) << " " << to_string(mode));
    REQUIRE(round_to(q, FP64, mode).value == hw);

    const float fa = static_cast<float>(std::ldexp(std::frexp(a, &unused_e), static_cast<int>(bits(rng) % 290) - 150));
    const float fb = static_cast<float>(std::ldexp(std::frexp(b, &unused_e), static_cast<int>(bits(rng) % 290) - 150));
    if (fa == 0 || fb == 0 || !std::isfinite(fa) || !std::isfinite(fb)) continue;
    const float fhw = hw_div(fa, fb, mode);
    INFO("FP32 " << hex(fa) << " / " << hex(fb));
    REQUIRE(round_to(exact_value(fa) / exact_value(fb), FP32, mode).value == static_cast<double>(fhw));
  }
}

TEST_CASE("conversion between formats", "[formats][rounding]") {
  // FP32 -> FP16 of a value above FP16's range overflows; FP16 -> FP32 is exact.
  CHECK(convert(65520.0, FP32, FP16, RoundingMode::NearestEven).value == INFINITY);
  CHECK(convert(65519.0, FP32, FP16, RoundingMode::NearestEven).value == 65504.0);
  CHECK(convert(65504.0, FP16, FP32, RoundingMode::NearestEven).ternary == Ternary::Exact);
  CHECK(convert(1.0 + std::ldexp(1.0, -8), FP32, BF16, RoundingMode::NearestEven).value == 1.0);  // tie to even
  CHECK(convert(1.0 + 3 * std::ldexp(1.0, -8), FP32, BF16, RoundingMode::NearestEven).value ==
        1.0 + std::ldexp(1.0, -6));
  CHECK_THROWS_AS(convert(0.1, FP32, FP16, RoundingMode::NearestEven), std::invalid_argument);
}

// exact_decimal (<symerr/decimal.hpp>): decimal constants in base 10. GMP's
// mpz_class("0125") reads the leading zero as an octal prefix (85), which
// turned "0.125" into 0.085 and "0.401" into 0.257.
TEST_CASE("exact_decimal: decimal constants in base 10, leading zeros included", "[formats][decimal]") {
  CHECK(exact_decimal("0.125") == mpq_class(1, 8));
  CHECK(exact_decimal("0.401") == mpq_class(401, 1000));
  CHECK(exact_decimal("017") == 17);
  CHECK(exact_decimal("0.09") == mpq_class(9, 100));  // "009": not even a valid octal number
  CHECK(exact_decimal("331.4") == mpq_class(1657, 5));
  CHECK(exact_decimal("3.5e7") == 35000000);
  CHECK(exact_decimal("42.7e-6") == mpq_class(427, 10000000));
  CHECK(exact_decimal("-0.5E+1") == -5);
  CHECK(exact_decimal("+.25") == mpq_class(1, 4));
  CHECK(exact_decimal("1.") == 1);
  for (const char* bad : {"", "-", ".", "1e", "1e-", "0x10", "1.2.3", "1,5", " 1", "1 ", "e5", "nan"})
    CHECK_THROWS_WITH(exact_decimal(bad), Catch::Contains("is not a decimal number"));
}

TEST_CASE("round_to(MPFR number) equals round_to(its exact rational), far outside the format's range too",
          "[formats][rounding]") {
  // Far below the subnormals and far beyond the overflow threshold the MPFR
  // overload rounds a stand-in of the same sign (the exact rational of
  // 2^-1073741824 is not built); both sides of each switch point, and
  // MPFR's smallest and largest numbers against the same result at 2^∓4000.
  auto same = [](const Rounded& a, const Rounded& b) {
    return a.value == b.value && std::signbit(a.value) == std::signbit(b.value) && a.ternary == b.ternary &&
           a.overflow == b.overflow && a.underflow == b.underflow;
  };
  auto pow2q = [](long k) {
    mpq_class q(1);
    if (k >= 0) mpq_mul_2exp(q.get_mpq_t(), q.get_mpq_t(), static_cast<mp_bitcnt_t>(k));
    else mpq_div_2exp(q.get_mpq_t(), q.get_mpq_t(), static_cast<mp_bitcnt_t>(-k));
    return q;
  };
  mpfr_t x;
  mpfr_init2(x, 64);
  long checked = 0;
  for (const FloatFormat& F : kFloatFormats) {
    const long lo = F.emin - F.precision - 6, hi = F.emax + 6;
    for (long e = lo; e <= hi; ++e)
      for (const double m : {0.5, 0.75, 0x1.fffffffffffffp-1})
        for (const int s : {1, -1})
          for (RoundingMode mode : kModes) {
            mpfr_set_d(x, s * m, MPFR_RNDN);
            mpfr_mul_2si(x, x, e, MPFR_RNDN);  // exact: s·m·2^e
            mpq_class q;
            mpfr_get_q(q.get_mpq_t(), x);
            INFO(F.name << " " << to_string(mode) << " " << s * m << " * 2^" << e);
            REQUIRE(same(round_to(x, F, mode), round_to(q, F, mode)));
            ++checked;
          }
    for (const int s : {1, -1})
      for (RoundingMode mode : kModes) {
        INFO(F.name << " " << to_string(mode) << " sign " << s);
        mpfr_set_si_2exp(x, s, mpfr_get_emin() - 1, MPFR_RNDN);  // the smallest MPFR number
        REQUIRE(same(round_to(x, F, mode), round_to(mpq_class(s * pow2q(-4000)), F, mode)));
        mpfr_set_si_2exp(x, s, mpfr_get_emax() - 1, MPFR_RNDN);  // the largest power of 2
        REQUIRE(same(round_to(x, F, mode), round_to(mpq_class(s * pow2q(4000)), F, mode)));
        checked += 2;
      }
  }
  mpfr_clear(x);
  CHECK(checked > 10000);
}
