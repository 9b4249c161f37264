// Half, BFloat16, Int4/UInt4 and the integer scalar rules, against independent
// oracles: MPFR emulating the format (precision, exponent range, subnormals)
// for the floats, GMP integers for the integer rules.
#include <catch2/catch.hpp>

#include <symerr/format.hpp>
#include <symerr/ops/integer_arith.hpp>
#include <symerr/scalar_types.hpp>

#include <gmpxx.h>
#include <mpfr.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <random>
#include <string>
#include "test_scale.hpp"

using namespace symerr;

namespace {


// Saves and restores MPFR's exponent range (thread-global state).
struct MpfrRange {
  mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
  ~MpfrRange() {
    mpfr_set_emin(emin);
    mpfr_set_emax(emax);
  }
};

// The correctly rounded (RNE) result of a op b in format F, by MPFR emulation.
double mpfr_oracle(char op, double a, double b, const FloatFormat& F) {
  MpfrRange guard;
  mpfr_t x, y, r;
  mpfr_inits2(53, x, y, static_cast<mpfr_ptr>(nullptr));
  mpfr_init2(r, F.precision);
  mpfr_set_d(x, a, MPFR_RNDN);  // exact
  mpfr_set_d(y, b, MPFR_RNDN);
  mpfr_set_emin(F.emin - F.precision + 2);
  mpfr_set_emax(F.emax + 1);
  int t = 0;
  switch (op) {
    case '+': t = mpfr_add(r, x, y, MPFR_RNDN); break;
    case '-': t = mpfr_sub(r, x, y, MPFR_RNDN); break;
    case '*': t = mpfr_mul(r, x, y, MPFR_RNDN); break;
    default: t = mpfr_div(r, x, y, MPFR_RNDN); break;
  }
  t = mpfr_check_range(r, t, MPFR_RNDN);
  mpfr_subnormalize(r, t, MPFR_RNDN);
  const double d = mpfr_get_d(r, MPFR_RNDN);  // exact: r is a value of F
  mpfr_clears(x, y, r, static_cast<mpfr_ptr>(nullptr));
  return d;
}

bool same_value(double x, double y) {  // bitwise, any NaN equal to any NaN
  if (std::isnan(x) || std::isnan(y)) return std::isnan(x) && std::isnan(y);
  return x == y && std::signbit(x) == std::signbit(y);
}

template <class T>
T apply(char op, T a, T b) {
  switch (op) {
    case '+': return a + b;
    case '-': return a - b;
    case '*': return a * b;
    default: return a / b;
  }
}

template <class T>
void check_against_mpfr(const FloatFormat& F, std::size_t trials, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::size_t failures = 0;
  for (std::size_t k = 0; k < trials && failures < 10; ++k) {
    // Uniform over encodings: every class (zero, subnormal, normal, inf, NaN) occurs.
    const T a = T::from_bits(static_cast<std::uint16_t>(rng()));
    T b = T::from_bits(static_cast<std::uint16_t>(rng()));
    if (k % 4 == 1)  // operands of close magnitude: cancellation and exact results
      b = T::from_bits(static_cast<std::uint16_t>((a.bits() ^ (rng() & 0x80FF))));
    for (char op : {'+', '-', '*', '/'}) {
      const double got = static_cast<double>(apply(op, a, b));
      const double want = mpfr_oracle(op, static_cast<double>(a), static_cast<double>(b), F);
      if (!same_value(got, want)) {
        ++failures;
        FAIL_CHECK(F.name << ": " << std::hexfloat << static_cast<double>(a) << ' ' << op << ' '
                          << static_cast<double>(b) << " = " << got << ", MPFR says " << want);
      }
    }
  }
  CHECK(failures == 0);
}

}  // namespace

TEST_CASE("Half: + - * / correctly rounded (random pairs vs MPFR FP16 emulation)", "[scalar]") {
  check_against_mpfr<Half>(FP16, symerr::test::scaled(60000, 1000), 1);
}

TEST_CASE("BFloat16: + - * / correctly rounded (random pairs vs MPFR BF16 emulation)",
          "[scalar]") {
  check_against_mpfr<BFloat16>(BF16, symerr::test::scaled(60000, 1000), 2);
}

TEST_CASE("Half and BFloat16: 2^24 random pairs vs MPFR", "[scalar][.][long]") {
  check_against_mpfr<Half>(FP16, std::size_t{1} << 24, 3);
  check_against_mpfr<BFloat16>(BF16, std::size_t{1} << 24, 4);
}

TEST_CASE("BFloat16: every encoding converts to double and back unchanged", "[scalar]") {
  for (std::uint32_t bits = 0; bits <= 0xFFFF; ++bits) {
    const auto b = BFloat16::from_bits(static_cast<std::uint16_t>(bits));
    const double d = static_cast<double>(b);
    if (std::isnan(d)) {
      CHECK(std::isnan(static_cast<double>(BFloat16(d))));
      continue;
    }
    CHECK(d == decode_bf16(static_cast<std::uint16_t>(bits)));
    if (BFloat16(d).bits() != bits) FAIL_CHECK("bits " << bits);
  }
}

TEST_CASE("BFloat16 and Half: rounding a double agrees with round_to (RNE)", "[scalar]") {
  std::mt19937_64 rng(5);
  std::size_t bad = 0;
  for (std::size_t k = 0; k < symerr::test::scaled(200000, 1000) && bad < 10; ++k) {
    // random doubles spread over the whole BF16/FP16 range, subnormals, overflow,
    // and exact ties (the midpoint of two neighbours of the 16-bit format)
    double x;
    const int kind = static_cast<int>(k % 3);
    if (kind == 0) {
      x = std::ldexp(1.0 + static_cast<double>(rng() >> 12) * 0x1p-52,
                     static_cast<int>(rng() % 300) - 150);
    } else {
      const auto lo = BFloat16::from_bits(static_cast<std::uint16_t>(rng() & 0x7F7F));
      const double l = static_cast<double>(lo);
      const double u = static_cast<double>(BFloat16::from_bits(static_cast<std::uint16_t>(lo.bits() + 1)));
      x = kind == 1 ? l + (u - l) / 2 : l + (u - l) * 0.499999999;
    }
    if (rng() & 1) x = -x;
    const Rounded rb = round_to(x, BF16, RoundingMode::NearestEven);
    if (!same_value(static_cast<double>(BFloat16(x)), rb.value)) {
      ++bad;
      FAIL_CHECK("BF16 " << std::hexfloat << x << " -> " << static_cast<double>(BFloat16(x))
                         << ", round_to " << rb.value);
    }
    const Rounded rh = round_to(x, FP16, RoundingMode::NearestEven);
    if (!same_value(static_cast<double>(Half(x)), rh.value)) {
      ++bad;
      FAIL_CHECK("FP16 " << std::hexfloat << x << " -> " << static_cast<double>(Half(x))
                         << ", round_to " << rh.value);
    }
  }
  CHECK(bad == 0);
  // the overflow threshold of BF16 under RNE: max + half an ulp rounds to inf
  CHECK(std::isinf(static_cast<double>(BFloat16(0x1.FFp127))));
  CHECK(static_cast<double>(BFloat16(0x1.FEFFFFFFp127)) == 0x1.FEp127);
  CHECK(BFloat16(std::nan("")).bits() == 0x7FC0);
  CHECK(BFloat16(-std::nan("")).bits() == 0xFFC0);
  CHECK(BFloat16(-0.0).bits() == 0x8000);
  CHECK(BFloat16(0x1p-133).bits() == 0x0001);   // min subnormal
  CHECK(BFloat16(0x1p-134).bits() == 0x0000);   // tie between 0 and min subnormal: even = 0
  CHECK(BFloat16(0x1.8p-133).bits() == 0x0002); // tie 1.5 * min subnormal -> 2 (even)
}

TEST_CASE("Half and BFloat16: IEEE special cases", "[scalar]") {
  const Half one(1.0), zero(0.0), nzero(-0.0);
  CHECK((one / zero).bits() == 0x7C00);
  CHECK((one / nzero).bits() == 0xFC00);
  CHECK(std::isnan(static_cast<double>(zero / zero)));
  CHECK((zero - zero).bits() == 0x0000);
  CHECK((nzero - zero).bits() == 0x8000);
  CHECK((Half(65504.0) + Half(65504.0)).bits() == 0x7C00);
  CHECK(one == Half(1.0));
  CHECK(zero == nzero);
  CHECK_FALSE(Half(std::nan("")) == Half(std::nan("")));
  CHECK((-one).bits() == 0xBC00);

  const BFloat16 b1(1.0), b0(0.0), bn0(-0.0);
  CHECK((b1 / b0).bits() == 0x7F80);
  CHECK((-b1 / b0).bits() == 0xFF80);
  CHECK((b1 / bn0).bits() == 0xFF80);
  CHECK(std::isnan(static_cast<double>(b0 / b0)));
  CHECK((bn0 - b0).bits() == 0x8000);
  // 1 + 2^-8 is a tie between 1 and 1 + 2^-7: even -> 1
  CHECK(static_cast<double>(b1 + BFloat16(0x1p-8)) == 1.0);
  CHECK(static_cast<double>(b1 + BFloat16(0x1.8p-8)) == 1.0 + 0x1p-7);
}

TEST_CASE("Int4 / UInt4: exhaustive + - * and division, modulo 16", "[scalar]") {
  const auto wrap4 = [](long long v, bool is_signed) {
    long long m = ((v % 16) + 16) % 16;
    return is_signed && m >= 8 ? m - 16 : m;
  };
  for (int a = -8; a <= 7; ++a)
    for (int b = -8; b <= 7; ++b) {
      const Int4 x(a), y(b);
      CHECK((x + y).value() == wrap4(a + b, true));
      CHECK((x - y).value() == wrap4(a - b, true));
      CHECK((x * y).value() == wrap4(a * b, true));
      CHECK(wrapping_mul(x, y).value() == wrap4(a * b, true));
      const auto fl = integer_divide(x, y, IntegerDivision::Floor);
      const auto tr = integer_divide(x, y, IntegerDivision::Truncate);
      if (b == 0) {
        CHECK_FALSE(fl);
        CHECK_FALSE(tr);
        continue;
      }
      const double q = static_cast<double>(a) / b;
      CHECK(fl->value() == wrap4(static_cast<long long>(std::floor(q)), true));
      CHECK(tr->value() == wrap4(static_cast<long long>(std::trunc(q)), true));
    }
  CHECK(integer_divide(Int4(-8), Int4(-1), IntegerDivision::Floor)->value() == -8);  // 8 wraps
  for (int a = 0; a <= 15; ++a)
    for (int b = 0; b <= 15; ++b) {
      const UInt4 x(a), y(b);
      CHECK((x + y).value() == wrap4(a + b, false));
      CHECK((x - y).value() == wrap4(a - b, false));
      CHECK((x * y).value() == wrap4(a * b, false));
      if (b != 0) CHECK(integer_divide(x, y, IntegerDivision::Floor)->value() == a / b);
    }
  CHECK(Int4::from_bits(0xF).value() == -1);
  CHECK(Int4(-1).bits() == 0xF);
  CHECK(UInt4::from_bits(0xAB).value() == 0xB);
}

namespace {

// GMP reference of the integer rules of type T.
template <class T>
void check_integer_rules_gmp(T a, T b) {
  constexpr IntFormat F = int_format_of<T>();
  const auto as_mpz = [](T v) {
    return std::is_signed_v<T> ? mpz_class(std::to_string(static_cast<long long>(v)))
                               : mpz_class(std::to_string(static_cast<unsigned long long>(v)));
  };
  const auto wrap = [&](const mpz_class& v) {
    mpz_class m;
    mpz_fdiv_r_2exp(m.get_mpz_t(), v.get_mpz_t(), F.bits);
    if (F.is_signed && m >= (mpz_class(1) << (F.bits - 1))) m -= mpz_class(1) << F.bits;
    return m;
  };
  const mpz_class xa = as_mpz(a), y = as_mpz(b);
  INFO(F.name << ": a = " << xa.get_str() << ", b = " << y.get_str());
  CHECK(as_mpz(wrapping_add(a, b)) == wrap(xa + y));
  CHECK(as_mpz(wrapping_sub(a, b)) == wrap(xa - y));
  CHECK(as_mpz(wrapping_mul(a, b)) == wrap(xa * y));
  if (b == 0) {
    CHECK_FALSE(integer_divide(a, b, IntegerDivision::Floor));
    CHECK_FALSE(integer_divide(a, b, IntegerDivision::Truncate));
    return;
  }
  mpz_class qf, qt;
  mpz_fdiv_q(qf.get_mpz_t(), xa.get_mpz_t(), y.get_mpz_t());
  mpz_tdiv_q(qt.get_mpz_t(), xa.get_mpz_t(), y.get_mpz_t());
  CHECK(as_mpz(*integer_divide(a, b, IntegerDivision::Floor)) == wrap(qf));
  CHECK(as_mpz(*integer_divide(a, b, IntegerDivision::Truncate)) == wrap(qt));
}

template <class T>
void check_integer_type(std::size_t trials, std::uint64_t seed) {
  using L = std::numeric_limits<T>;
  const T edges[] = {L::min(), static_cast<T>(L::min() + 1), static_cast<T>(-1), T(0), T(1),
                     T(2),     static_cast<T>(L::max() - 1), L::max(), static_cast<T>(L::max() / 2)};
  for (T a : edges)
    for (T b : edges) check_integer_rules_gmp(a, b);
  std::mt19937_64 rng(seed);
  for (std::size_t k = 0; k < trials; ++k) {
    const T a = static_cast<T>(rng()), b = static_cast<T>(k % 3 ? rng() : rng() % 7);
    check_integer_rules_gmp(a, b);
  }
}

}  // namespace

TEST_CASE("integer rules: wrap-around and floor/truncation vs GMP, every width", "[scalar]") {
  check_integer_type<std::int8_t>(2000, 11);
  check_integer_type<std::uint8_t>(2000, 12);
  check_integer_type<std::int16_t>(2000, 13);
  check_integer_type<std::uint16_t>(2000, 14);
  check_integer_type<std::int32_t>(2000, 15);
  check_integer_type<std::uint32_t>(2000, 16);
  check_integer_type<std::int64_t>(2000, 17);
  check_integer_type<std::uint64_t>(2000, 18);
}

TEST_CASE("integer rules: INT_MIN / -1 wraps to INT_MIN in every signed width", "[scalar]") {
  using D = IntegerDivision;
  CHECK(*integer_divide<std::int8_t>(-128, -1, D::Floor) == -128);
  CHECK(*integer_divide<std::int16_t>(-32768, -1, D::Truncate) == -32768);
  CHECK(*integer_divide(std::numeric_limits<std::int32_t>::min(), -1, D::Floor) ==
        std::numeric_limits<std::int32_t>::min());
  CHECK(*integer_divide(std::numeric_limits<std::int64_t>::min(), std::int64_t{-1}, D::Truncate) ==
        std::numeric_limits<std::int64_t>::min());
  CHECK(integer_divide(std::numeric_limits<std::int64_t>::min(), std::int64_t{0}, D::Floor) ==
        std::nullopt);
}

TEST_CASE("element type names come from the format table", "[scalar]") {
  CHECK(element_type_name<float>() == "FP32");
  CHECK(element_type_name<double>() == "FP64");
  CHECK(element_type_name<Half>() == "FP16");
  CHECK(element_type_name<_Float16>() == "FP16");
  CHECK(element_type_name<BFloat16>() == "BF16");
  CHECK(element_type_name<std::int8_t>() == "INT8");
  CHECK(element_type_name<std::uint64_t>() == "UINT64");
  CHECK(element_type_name<Int4>() == "INT4");
  CHECK(element_type_name<UInt4>() == "UINT4");
  CHECK(float_format_of<BFloat16>() == BF16);
  CHECK(int_format_of<std::uint16_t>() == UINT16);
}
