// The ulp models in formats without subnormals and in formats of 2 bits.
//
// ulps(k) bounds |impl(t) − f(t)| by k·ulp(f(t)) with symerr::ulp of the
// format: without subnormals the spacing below 2^emin is the gap 2^emin
// itself, so a result next to it may be flushed to ±0 or raised to ±2^emin.
// The glibc model's narrow formats round glibc's FP32 result into the format,
// and that rounding flushes the same way: tanh(−2^−10) in a 5-bit format
// without subnormals (emin = −10) rounding upward is −0, pow(−2^−10, 100)
// rounding upward is 2^−10 (issue 47: fp excluded 0 with no −0 flag, and fp
// was {0}). A result of the other sign is allowed once k·ulp(f(t)) > |f(t)|.
#include <catch2/catch.hpp>

#include <cfenv>
#include <cmath>

#include <symerr/domains/interval.hpp>
#include <symerr/domains/symbolic_interval.hpp>
#include <symerr/elementary.hpp>

using namespace symerr;

namespace {

constexpr FloatFormat kP5NoSub{"P5_NOSUB", 5, -10, 10, false};
constexpr FloatFormat kP2{"P2", 2, -6, 7, true};

SymbolicError point(double x, const FloatFormat& F, RoundingMode m) { return SymbolicError::input(x, x, 0, 0, F, m); }

float glibc_upward(float (*f)(float, float), float x, float y) {
  float (*volatile g)(float, float) = f;
  const int saved = std::fegetround();
  std::fesetround(FE_UPWARD);
  const float r = g(x, y);
  std::fesetround(saved);
  return r;
}
float tanhf_upward(float x) {
  float (*volatile g)(float) = ::tanhf;
  const int saved = std::fegetround();
  std::fesetround(FE_UPWARD);
  const float r = g(x);
  std::fesetround(saved);
  return r;
}

}  // namespace

TEST_CASE("no subnormals: glibc's flush to -0 and to the smallest normal are in the result", "[elementary][formats]") {
  const auto up = RoundingMode::Upward;
  // glibc: tanhf(−2^−10) upward is above −2^−10; rounded upward into the format: −0
  const float t32 = tanhf_upward(-0x1p-10f);
  REQUIRE(t32 > -0x1p-10f);
  const Rounded t = round_to(t32, kP5NoSub, up);
  REQUIRE(t.value == 0);
  REQUIRE(std::signbit(t.value));
  const SymbolicError z = tanh(point(-0x1p-10, kP5NoSub, up));
  CHECK(contains(z.fp, 0.0));
  CHECK(z.specials.may_be_neg_zero);
  CHECK(contains(z.fp, -0x1p-10));
  // pow(−2^−10, 100) = 2^−1000: powf gives 0 or the smallest FP32 subnormal
  // upward, rounded upward into the format: 2^−10
  const float p32 = glibc_upward(::powf, -0x1p-10f, 100.0f);
  REQUIRE(p32 >= 0);
  const SymbolicError p = pow(point(-0x1p-10, kP5NoSub, up), 100);
  CHECK(contains(p.fp, round_to(p32, kP5NoSub, up).value));
  CHECK(contains(p.fp, 0x1p-10));
  // the correctly rounded model: 2^−1000 rounded upward is the smallest normal
  const SymbolicError q = pow(point(-0x1p-10, kP5NoSub, up), 100, AccuracyModel::correctly_rounded());
  CHECK(q.fp.lower() == 0x1p-10);
  CHECK(q.fp.upper() == 0x1p-10);
}

TEST_CASE("no subnormals: ulps(k) takes the gap 2^emin below the normal range", "[elementary][formats]") {
  const auto rn = RoundingMode::NearestEven;
  // e^−8 ≈ 3.4e−4 < 2^−10: one ulp there is 2^−10, so 0 and 2^−10 are both within it
  const SymbolicError z = exp(point(-8, kP5NoSub, rn), AccuracyModel::ulps(1));
  CHECK(contains(z.fp, 0.0));
  CHECK(contains(z.fp, 0x1p-10));
  CHECK(z.specials.may_be_pos_zero);
  // tightness: in the normal range one ulp is 2^(e−4), the result stays within it
  const SymbolicError w = exp(point(0.5, kP5NoSub, rn), AccuracyModel::ulps(1));
  CHECK(w.fp.lower() >= 1.5);   // e^0.5 ≈ 1.6487, ulp 2^−4
  CHECK(w.fp.upper() <= 1.75);
  // e^−6.5 ≈ 1.5e−3 is 1.54·2^−10, above the gap by far: no zero
  const SymbolicError v = exp(point(-6.5, kP5NoSub, rn), AccuracyModel::ulps(1));
  CHECK(v.fp.lower() > 0);
  CHECK(!v.specials.may_be_pos_zero);
}

TEST_CASE("2-bit formats: a result of the other sign is allowed when k ulps reach across 0", "[elementary][formats]") {
  const auto rn = RoundingMode::NearestEven;
  // tanh(0.75) ≈ 0.635, ulp 0.25 in a 2-bit format: 4 ulps reach down to −0.365
  const SymbolicError z = tanh(point(0.75, kP2, rn), AccuracyModel::ulps(4));
  CHECK(contains(z.fp, -0.25));
  CHECK(z.specials.may_be_neg_zero == false);  // tanh's zero keeps t's sign: +0
  CHECK(z.specials.may_be_pos_zero);
  // the far end of the image decides: exp over [0.5, 1.5] (e^1.5 ≈ 4.48, ulp 2)
  // with 3 ulps may give 4.48 − 6 < 0
  const SymbolicError e = exp(SymbolicError::input(0.5, 1.5, 0, 0, kP2, rn), AccuracyModel::ulps(3));
  CHECK(e.fp.lower() <= -1);
  // tightness: 2 ulps never cross 0 (f − 2·ulp(f) >= 0 in 2 bits)
  const SymbolicError t = tanh(point(0.75, kP2, rn), AccuracyModel::ulps(2));
  CHECK(t.fp.lower() >= 0);
}

TEST_CASE("glibc model, narrow formats: the FP32 result may cross into the next binade first",
          "[elementary][formats]") {
  // expf(−2^−60) upward is 1 + 2^−23 in glibc 2.36 (f = 1 − 2^−60 < 1); rounded
  // upward into BF16 it is 1 + 2^−7, two BF16 ulps (2^−8 below 1) above f
  float (*volatile g)(float) = ::expf;
  const int saved = std::fegetround();
  std::fesetround(FE_UPWARD);
  const float y32 = g(-0x1p-60f);
  std::fesetround(saved);
  const double y = round_to(static_cast<double>(y32), BF16, RoundingMode::Upward).value;
  const SymbolicError z = exp(point(-0x1p-60, BF16, RoundingMode::Upward));
  CHECK(contains(z.fp, y));
  CHECK(contains(z.fp, 1 + 0x1p-7));
  CHECK(z.fp.upper() <= 1 + 0x1p-7);  // tightness: not a binade further
  // to nearest the same widening keeps the result within one BF16 ulp of 1
  const SymbolicError n = exp(point(-0x1p-60, BF16, RoundingMode::NearestEven));
  CHECK(n.fp.upper() <= 1 + 0x1p-7);
}
