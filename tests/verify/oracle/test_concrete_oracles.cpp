// The references of the concrete check: the binary64 oracle against MPFR's
// emulation and GMP (>= 10^5 random pairs per format and operator), integer
// semantics, bound checks (soundness and tightness twins), and the strategies.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdlib>

#include <symerr/verify/concrete/concrete.hpp>

#include "formats/mpfr_emulation.hpp"
#include "verify/zoo/zoo.hpp"
#include "test_scale.hpp"

using namespace symerr;
using namespace symerr::verify;

namespace {

bool same(double x, double y) {
  if (std::isnan(x) || std::isnan(y)) return std::isnan(x) && std::isnan(y);
  return x == y && std::signbit(x) == std::signbit(y);
}

std::vector<std::array<double, 2>> pairs_for(OpId op, const FloatFormat& F, std::size_t n) {
  std::vector<std::array<double, 2>> v;
  for (const auto& in : {special_grid(F), boundary_inputs(op, F, n / 10, 7), random_inputs(F, n, 11)})
    v.insert(v.end(), in.pairs.begin(), in.pairs.end());
  return v;
}

constexpr OpId kOps[] = {OpId::Add, OpId::Sub, OpId::Mul, OpId::Div};

}  // namespace

TEST_CASE("oracles: binary64 double rounding agrees with MPFR emulation", "[concrete][oracle]") {
  for (const FloatFormat& F : {FP16, BF16, FP32}) {
    for (OpId op : kOps) {
      REQUIRE(double_oracle_valid(op, F));
      std::size_t n = 0;
      for (const auto& [a, b] : pairs_for(op, F, symerr::test::scaled(100000, 2000))) {
        const FloatReference d = float_reference(OracleKind::Double, op, a, b, F);
        const FloatReference m = float_reference(OracleKind::Mpfr, op, a, b, F);
        if (!same(d.value, m.value) || !same(d.exact, m.exact) || d.overflow != m.overflow ||
            d.finite_exact != m.finite_exact) {
          FAIL_CHECK(F.name << " " << to_string(op) << "(" << a << ", " << b << "): binary64 "
                            << d.value << " vs MPFR " << m.value);
        }
        ++n;
      }
      CHECK(n >= symerr::test::scaled(100000, 2000));
    }
  }
  CHECK(!double_oracle_valid(OpId::Div, FP64));
  CHECK_THROWS_AS(float_reference(OracleKind::Double, OpId::Div, 1.0, 3.0, FP64), std::invalid_argument);
}

TEST_CASE("oracles: GMP exact agrees with MPFR emulation and the format tests' emulation",
          "[concrete][oracle]") {
  for (const FloatFormat& F : {FP16, BF16, FP32, FP64}) {
    for (OpId op : kOps) {
      for (const auto& [a, b] : pairs_for(op, F, symerr::test::scaled(10000, 2000))) {
        const FloatReference e = float_reference(OracleKind::Exact, op, a, b, F);
        const FloatReference m = float_reference(OracleKind::Mpfr, op, a, b, F);
        if (!same(e.value, m.value) || !same(e.exact, m.exact) || e.overflow != m.overflow)
          FAIL_CHECK(F.name << " " << to_string(op) << "(" << a << ", " << b << "): GMP " << e.value
                            << " vs MPFR " << m.value);
        if (e.finite_exact && e.value != 0) {  // independent: tests/formats' MPFR emulation
          const auto t = test::emulated_round(exact_result(op, a, b), F, RoundingMode::NearestEven);
          if (!same(t.value, e.value)) FAIL_CHECK(F.name << " " << to_string(op) << "(" << a << ", " << b << ")");
        }
      }
    }
  }
}

TEST_CASE("oracles: IEEE special cases and signed zeros", "[concrete][oracle]") {
  auto ref = [](OpId op, double a, double b) {
    return float_reference(OracleKind::Exact, op, a, b, FP32).value;
  };
  CHECK(ref(OpId::Div, -1.0, 0.0) == -INFINITY);
  CHECK(ref(OpId::Div, -1.0, -0.0) == INFINITY);
  CHECK(std::isnan(ref(OpId::Div, 0.0, 0.0)));
  CHECK(std::isnan(ref(OpId::Div, INFINITY, -INFINITY)));
  CHECK(same(ref(OpId::Div, -3.0, INFINITY), -0.0));
  CHECK(std::isnan(ref(OpId::Sub, INFINITY, INFINITY)));
  CHECK(ref(OpId::Add, INFINITY, INFINITY) == INFINITY);
  CHECK(std::isnan(ref(OpId::Mul, 0.0, -INFINITY)));
  CHECK(same(ref(OpId::Sub, 1.5, 1.5), 0.0));
  CHECK(same(ref(OpId::Add, -0.0, -0.0), -0.0));
  CHECK(same(ref(OpId::Sub, -0.0, 0.0), -0.0));
  CHECK(same(ref(OpId::Mul, -2.0, 0.0), -0.0));
  CHECK(same(ref(OpId::Div, 0.0, -7.0), -0.0));
  // underflow to a signed zero, overflow to ±inf
  const FloatReference u = float_reference(OracleKind::Exact, OpId::Mul, -0x1p-100, 0x1p-100, FP32);
  CHECK(same(u.value, -0.0));
  CHECK(u.finite_exact);
  const FloatReference o = float_reference(OracleKind::Exact, OpId::Mul, 0x1p100, 0x1p100, FP32);
  CHECK(o.value == INFINITY);
  CHECK(o.overflow);
}

TEST_CASE("oracles: integer wrap-around and the two division semantics", "[concrete][oracle]") {
  for (int a = -128; a <= 127; ++a)
    for (int b = -128; b <= 127; ++b) {
      const IntReference s = int_reference(OpId::Sub, a, b, INT8, IntegerDivision::Floor);
      REQUIRE(s.value);
      CHECK(*s.value == static_cast<std::int8_t>(static_cast<std::uint8_t>(a - b)));
      CHECK(s.overflow == (a - b < -128 || a - b > 127));
      const IntReference f = int_reference(OpId::Div, a, b, INT8, IntegerDivision::Floor);
      const IntReference t = int_reference(OpId::Div, a, b, INT8, IntegerDivision::Truncate);
      if (b == 0) {
        CHECK(!f.value);
        CHECK(!t.value);
        continue;
      }
      const double q = static_cast<double>(a) / b;
      CHECK(*f.value == static_cast<std::int8_t>(static_cast<int>(std::floor(q))));
      CHECK(*t.value == static_cast<std::int8_t>(static_cast<int>(std::trunc(q))));
    }
  const IntReference w = int_reference(OpId::Div, -128, -1, INT8, IntegerDivision::Truncate);
  CHECK(*w.value == -128);
  CHECK(w.overflow);
  // UINT64 * UINT64 beyond 2^128 still wraps modulo 2^64
  const __int128 m = UINT64.max_value();
  const IntReference p = int_reference(OpId::Mul, m, m, UINT64, IntegerDivision::Floor);
  CHECK(*p.value == 1);
  CHECK(p.overflow);
}

TEST_CASE("bounds: soundness and tightness twins, decided exactly", "[concrete][bound]") {
  const auto correct = make_kernel<float>("zoo_div_fp32", OpId::Div, ElementType::FP32, zoo::zoo_div_fp32);
  CheckOptions o;
  o.strategies.random_count = symerr::test::scaled(20000, 2000);
  // half an ulp holds for a correctly rounded kernel ...
  o.property = error_bound({"ulp/2", "|Y - r| <= ulp(r)/2", "test"},
                           [](const BoundContext& c) { return ulp(c.exact, c.format) / 2; });
  const CheckResult half = check_kernel(correct, o);
  CHECK(half.evidence.failures == 0);
  // ... and 0.49 ulp does not: the check is not vacuous
  o.property = error_bound({"0.49 ulp", "|Y - r| <= 0.49 ulp(r)", "test"},
                           [](const BoundContext& c) { return 0.49 * ulp(c.exact, c.format); });
  const CheckResult tight = check_kernel(correct, o);
  CHECK(tight.verdict == Verdict::Violated);
  REQUIRE(!tight.witnesses.empty());
  CHECK(tight.witnesses.front().bound.has_value());
  CHECK(tight.witnesses.front().ulp_error > 0.49);
  // bounds within 2^-53 of the exact error at 1/3 are decided exactly: the
  // error rounded up holds, rounded down fails (the error is not a double)
  const mpq_class e = abs(exact_value(static_cast<double>(1.0f / 3.0f)) - mpq_class(1, 3));
  const FloatInputs third{"one", {{1.0, 3.0}}};
  for (RoundingMode m : {RoundingMode::Upward, RoundingMode::Downward}) {
    const double bound = round_to(e, FP64, m).value;
    o.property = error_bound({"at 1/3", "test", "test"}, [bound](const BoundContext&) { return bound; });
    CHECK(check_inputs(correct, {third}, o).evidence.failures == (m == RoundingMode::Upward ? 0u : 1u));
  }
  // the SONNX ulp(Y) introduction bound: the FTZ kernel breaks it, the correct one keeps it
  o.property = sonnx_div_introduction_bound();
  CHECK(check_kernel(correct, o).evidence.failures == 0);
  const auto ftz = make_kernel<std::uint16_t>("zoo_div_fp16_ftz", OpId::Div, ElementType::FP16, zoo::zoo_div_fp16_ftz);
  const CheckResult r = check_kernel(ftz, o);
  CHECK(r.verdict == Verdict::Violated);
  CHECK(r.bound.name == "ulp(Y)");
}

TEST_CASE("kernels: a kernel that writes nothing, a tensor-form kernel", "[concrete][kernel]") {
  const auto lazy = make_kernel<float>("writes_nothing", OpId::Add, ElementType::FP32,
                                       [](const float*, const float*, float*, std::size_t) {});
  CheckOptions o;
  o.strategies.random_count = 1000;
  CHECK(check_kernel(lazy, o).verdict == Verdict::Violated);
  const auto tensor = make_tensor_kernel<float>("zoo_div_fp32_tensor", OpId::Div, ElementType::FP32,
                                                zoo::zoo_div_fp32_tensor, 64);
  const CheckResult t = check_kernel(tensor, o);
  CHECK(t.evidence.failures == 0);
  CHECK(t.semantics.at("kernel_form") == "tensor");
  CHECK_THROWS_AS(make_kernel<float>("wrong", OpId::Add, ElementType::FP64, zoo::zoo_div_fp32),
                  std::invalid_argument);
}

TEST_CASE("strategies: the special grid, seeded random inputs, class coverage", "[concrete][strategy]") {
  const auto v = special_values(FP16);
  CHECK(v.size() == 19);
  CHECK(special_grid(FP16).pairs.size() == 361);
  CHECK(std::count(v.begin(), v.end(), FP16.min_subnormal()) == 1);
  CHECK(std::count(v.begin(), v.end(), next_up(1.0, FP16)) == 1);
  const auto r1 = random_inputs(FP32, 100, 42), r2 = random_inputs(FP32, 100, 42), r3 = random_inputs(FP32, 100, 43);
  CHECK(std::equal(r1.pairs.begin(), r1.pairs.end(), r2.pairs.begin(),
                   [](const auto& x, const auto& y) { return same(x[0], y[0]) && same(x[1], y[1]); }));
  CHECK(!std::equal(r1.pairs.begin(), r1.pairs.end(), r3.pairs.begin(),
                    [](const auto& x, const auto& y) { return same(x[0], y[0]) && same(x[1], y[1]); }));
  for (const auto& p : boundary_inputs(OpId::Div, FP16, 2000, 1).pairs) {
    CHECK((std::isnan(p[0]) || is_representable(p[0], FP16)));
    CHECK((std::isnan(p[1]) || is_representable(p[1], FP16)));
  }
  CHECK(special_values(UINT8).size() == 7);
  CHECK(exhaustive_inputs(INT8).pairs.size() == 65536);
  CHECK_THROWS_AS(exhaustive_inputs(INT16), std::invalid_argument);
}
