// Quantization kernels checked against their exact ideal: the requantization
// variants and QuantizeLinear, exhaustively over their input spaces, with an
// independent oracle (GMP rationals) for the arithmetic the sweeps rely on.
#include <catch2/catch.hpp>

#include <gmpxx.h>

#include <cfenv>
#include <cstdint>
#include <random>

#include <symerr/verify/quant/sweep.hpp>

using namespace symerr::quant;
using namespace symerr::verify::quant;

namespace {

// |q − acc·M/2^(31+s)| as a rational.
mpq_class exact_error(std::int64_t q, std::int32_t acc, FixedPointMultiplier m) {
  mpz_class den = 1;
  den <<= 31 + m.shift;
  mpq_class ideal(mpz_class(static_cast<long>(acc)) * m.multiplier, den);
  ideal.canonicalize();
  mpq_class d = mpq_class(static_cast<long>(q)) - ideal;
  return abs(d);
}

// round_half_even(acc·M/2^(31+s)) with GMP.
long gmp_round_half_even(std::int32_t acc, FixedPointMultiplier m) {
  mpz_class p = mpz_class(static_cast<long>(acc)) * m.multiplier;
  mpz_class den = 1;
  den <<= 31 + m.shift;
  mpz_class q;
  mpz_fdiv_q(q.get_mpz_t(), p.get_mpz_t(), den.get_mpz_t());
  mpz_class rem = p - q * den;
  mpz_class twice = 2 * rem;
  if (twice > den || (twice == den && mpz_odd_p(q.get_mpz_t()))) q += 1;
  return q.get_si();
}

}  // namespace

TEST_CASE("quant: requantization arithmetic equals GMP's on random and edge accumulators", "[verify][quant]") {
  std::mt19937_64 rng(7);
  const std::int32_t edges[] = {INT32_MIN, INT32_MIN + 1, -1, 0, 1, INT32_MAX - 1, INT32_MAX};
  for (int trial = 0; trial < 4000; ++trial) {
    FixedPointMultiplier m{static_cast<std::int32_t>(rng() % 0x7FFFFFFFu) + 1, static_cast<int>(rng() % 32)};
    const std::int32_t acc = trial < 7 ? edges[trial] : static_cast<std::int32_t>(rng());
    const std::int64_t rne = requantize(acc, m, RequantVariant::exact_half_even);
    REQUIRE(rne == gmp_round_half_even(acc, m));
    for (auto v : {RequantVariant::gemmlowp, RequantVariant::single_half_up, RequantVariant::truncate}) {
      const std::int64_t q = requantize(acc, m, v);
      const mpq_class e = exact_error(q, acc, m);
      mpz_class num = static_cast<unsigned long>(scaled_error(q, acc, m) >> 64);
      num <<= 64;
      num += static_cast<unsigned long>(scaled_error(q, acc, m) & ~0ul);
      mpz_class den = 1;
      den <<= 31 + m.shift;
      mpq_class scaled(num, den);
      scaled.canonicalize();
      REQUIRE(scaled == e);
      // every variant stays within one LSB of the exact value (gemmlowp's
      // saturating corner INT32_MIN·INT32_MIN excepted: M < 2^31 here)
      REQUIRE(e < 1);
    }
  }
}

TEST_CASE("quant: ONNX's rule proven on every accumulator of a window, gemmlowp's double rounding found where it differs",
          "[verify][quant]") {
  RequantSweep s;
  s.multiplier = {1583594044, 9};
  s.first = -(1 << 22);
  s.last = 1 << 22;
  const auto exact = sweep_requantize(s, RequantVariant::exact_half_even);
  CHECK(exact.inputs == (std::uint64_t{1} << 23) + 1);
  CHECK(exact.differs_from_onnx == 0);
  CHECK(exact.max_error_lsb <= 0.5);
  const auto single = sweep_requantize(s, RequantVariant::single_half_up);
  CHECK(single.max_error_lsb <= 0.5);  // one rounding: ties differ from RNE only
  const auto gemm = sweep_requantize(s, RequantVariant::gemmlowp);
  CHECK(gemm.differs_from_onnx > 0);
  CHECK(gemm.max_error_lsb > 0.5);
  REQUIRE_FALSE(gemm.first_differences.empty());
  for (const auto& d : gemm.first_differences) {
    CHECK(d.onnx == gmp_round_half_even(d.acc, s.multiplier));
    CHECK(d.output == requantize(d.acc, s.multiplier, RequantVariant::gemmlowp));
  }
  // tightness twin: the reported maximum is reached at the reported accumulator
  CHECK(exact_error(gemm.output_at_max, gemm.max_error_at, s.multiplier) ==
        exact_error(requantize(gemm.max_error_at, s.multiplier, RequantVariant::gemmlowp), gemm.max_error_at,
                    s.multiplier));
}

TEST_CASE("quant: multiplier 2^30 with shift 1 (0.25): gemmlowp reaches 0.75 LSB at accumulator 1", "[verify][quant]") {
  RequantSweep s;
  s.multiplier = {1 << 30, 1};
  s.first = -4096;
  s.last = 4096;
  const auto r = sweep_requantize(s, RequantVariant::gemmlowp);
  CHECK(r.max_error_lsb == 0.75);
  // the smallest accumulator reaching it: 0.25 → 0.5 → 1 (two roundings up);
  // negative ties round toward zero in the first step and stay within 0.25
  CHECK(r.max_error_at == 1);
  CHECK(r.output_at_max == 1);
  const auto exact = sweep_requantize(s, RequantVariant::exact_half_even);
  CHECK(exact.max_error_lsb == 0.5);
  CHECK(exact.differs_from_onnx == 0);
}

TEST_CASE("quant: a planted wrong accumulator is found, with its witness, whatever the thread count", "[verify][quant]") {
  RequantSweep s;
  s.multiplier = {1583594044, 9};
  s.first = -100000;
  s.last = 100000;
  const FixedPointMultiplier m = s.multiplier;
  const RequantKernel planted = [m](std::int32_t acc) {
    return requantize(acc, m, RequantVariant::exact_half_even) + (acc == 31337 ? 1 : 0);
  };
  for (unsigned threads : {1u, 2u, 3u}) {
    s.threads = threads;
    const auto r = sweep_requantize(s, planted);
    CHECK(r.differs_from_onnx == 1);
    REQUIRE(r.first_differences.size() == 1);
    CHECK(r.first_differences[0].acc == 31337);
    CHECK(r.max_error_at == 31337);
    CHECK(r.max_error_lsb > 0.5);
  }
  s.first = 5;
  s.last = 4;
  CHECK_THROWS_WITH(sweep_requantize(s, RequantVariant::gemmlowp), Catch::Contains("empty"));
  s.first = 0;
  s.multiplier = {0, 3};
  CHECK_THROWS_WITH(sweep_requantize(s, RequantVariant::gemmlowp), Catch::Contains("positive"));
  s.multiplier = {1 << 30, 40};
  CHECK_THROWS_WITH(sweep_requantize(s, RequantVariant::gemmlowp), Catch::Contains("shift"));
}

TEST_CASE("quant: float-multiplier variants do not depend on the caller's rounding mode", "[verify][quant]") {
  RequantSweep s;
  s.multiplier = {1583594044, 9};
  s.first = -300000;
  s.last = 300000;
  const auto clean = sweep_requantize(s, RequantVariant::float_lrintf);
  std::fesetround(FE_UPWARD);
  const auto hostile = sweep_requantize(s, RequantVariant::float_lrintf);
  std::fesetround(FE_TONEAREST);
  CHECK(clean.differs_from_onnx == hostile.differs_from_onnx);
  CHECK(clean.max_error_lsb == hostile.max_error_lsb);
}

TEST_CASE("quant: QuantizeLinear from FP16 and BF16, every input: the exact rule has no difference, the variants theirs",
          "[verify][quant]") {
  for (auto input : {QuantInput::fp16, QuantInput::bf16}) {
    QuantizeSweep s;
    s.input = input;
    s.scale = 0.1f;
    s.zero_point = 3;
    s.type = quant_type_from_string("int8");
    const auto exact = sweep_quantize(s, QuantizeVariant::exact);
    CHECK(exact.inputs == 65536);
    CHECK(exact.nan_skipped == (input == QuantInput::fp16 ? 2046u : 254u));
    CHECK(exact.differs_from_ideal == 0);
    CHECK(exact.max_error_lsb <= 0.5);
    // ONNX's reference divides in binary32 and then rounds: it differs from
    // the real ideal where the quotient rounds onto a half-integer (25 inputs
    // at scale 0.1 in both formats)
    const auto reference = sweep_quantize(s, QuantizeVariant::onnx_reference);
    CHECK(reference.differs_from_ideal == 25);
    CHECK(reference.differs_from_onnx_reference == 0);
    const auto away = sweep_quantize(s, QuantizeVariant::half_away_from_zero);
    CHECK(away.differs_from_ideal > reference.differs_from_ideal);
    const auto trunc = sweep_quantize(s, QuantizeVariant::truncate);
    CHECK(trunc.max_error_lsb > 0.99);
    for (const auto& d : trunc.first_differences) CHECK(d.ideal == quantize_ideal(d.input, s.scale, s.zero_point, s.type));
    const auto sym = sweep_quantize(s, QuantizeVariant::symmetric_range);
    REQUIRE_FALSE(sym.first_differences.empty());
    // the symmetric range differs where the ideal is −128, and where the
    // binary32 division it shares with the reference does
    CHECK(sym.differs_from_onnx_reference > 0);
    for (const auto& d : sym.first_differences)
      CHECK(((d.ideal == -128 && d.output == -127) ||
             d.output == quantize(d.input, s.scale, s.zero_point, s.type, QuantizeVariant::onnx_reference)));
  }
}

TEST_CASE("quant: the ideal quotient's rounding is exact: ties, near-ties and the FP32 witness", "[verify][quant]") {
  const QuantType i8 = quant_type_from_string("int8");
  CHECK(quantize_ideal(2.5f, 1.0f, 0, i8) == 2);
  CHECK(quantize_ideal(3.5f, 1.0f, 0, i8) == 4);
  CHECK(quantize_ideal(-2.5f, 1.0f, 0, i8) == -2);
  CHECK(quantize_ideal(1000.0f, 1.0f, 0, i8) == 127);
  CHECK(quantize_ideal(-INFINITY, 1.0f, 0, i8) == -128);
  // 0x1.666666p-2 / 0.1f is 3.4999999... exactly; binary32 division gives 3.5
  // and rint 4: ONNX's reference says 4, the real ideal 3
  const float x = 0x1.666666p-2f;
  CHECK(quantize_ideal(x, 0.1f, 0, i8) == 3);
  CHECK(quantize(x, 0.1f, 0, i8, QuantizeVariant::onnx_reference) == 4);
  const mpq_class q = mpq_class(x) / mpq_class(0.1f);
  CHECK(q < mpq_class(7, 2));
  CHECK_THROWS_WITH(quant_type_from_string("int7"), Catch::Contains("int8"));
  CHECK_THROWS_WITH(validate_quantize(0.0f, 0, i8), Catch::Contains("positive"));
  CHECK_THROWS_WITH(validate_quantize(1.0f, 200, i8), Catch::Contains("zero point 200"));
}

TEST_CASE("quant: published multiplier 1583594044, shift 9, all 2^32 accumulators", "[verify][quant][.][long]") {
  RequantSweep s;
  s.multiplier = {1583594044, 9};
  const auto gemm = sweep_requantize(s, RequantVariant::gemmlowp);
  CHECK(gemm.inputs == (std::uint64_t{1} << 32));
  CHECK(gemm.differs_from_onnx == 4194310);
  CHECK(gemm.max_error_exact == "550829554096 / 2^40");  // 0.500977 LSB
  const auto exact = sweep_requantize(s, RequantVariant::exact_half_even);
  CHECK(exact.differs_from_onnx == 0);
  CHECK(exact.max_error_lsb <= 0.5);
}
