// Unary checks of operators verify has no code of its own for: Expm1, Log1p,
// Exp2, Atan and Sinh (added to the table after verify dispatched through it) come from
// lib's operator table (name, arity, MPFR evaluation) only. A good kernel
// passes, a planted bug (the textbook exp(x) − 1, log(1 + x), which lose
// every digit near 0; exp(x · ln 2) with ln 2 rounded; atan, sinh 2 ulps up) is caught with a
// witness: the table is what the check dispatches through.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstddef>

#include <symerr/operators.hpp>
#include <symerr/verify/concrete/unary.hpp>

using namespace symerr;
using namespace symerr::verify;

namespace {

void good_expm1(const float* x, float* y, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) y[i] = static_cast<float>(std::expm1(static_cast<double>(x[i])));
}
void naive_expm1(const float* x, float* y, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) y[i] = std::exp(x[i]) - 1.0f;
}
void good_exp2(const float* x, float* y, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) y[i] = static_cast<float>(std::exp2(static_cast<double>(x[i])));
}
void naive_exp2(const float* x, float* y, std::size_t n) {  // the rounded ln 2 is amplified by |x|
  for (std::size_t i = 0; i < n; ++i) y[i] = std::exp(x[i] * 0.6931472f);
}
void good_log1p(const float* x, float* y, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) y[i] = static_cast<float>(std::log1p(static_cast<double>(x[i])));
}
void naive_log1p(const float* x, float* y, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) y[i] = std::log(1.0f + x[i]);
}

// atan and sinh (a family each): the binary64 function rounded once, and a
// planted bug 2 ulps above it
void good_atan(const float* x, float* y, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) y[i] = static_cast<float>(std::atan(static_cast<double>(x[i])));
}
void good_sinh(const float* x, float* y, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) y[i] = static_cast<float>(std::sinh(static_cast<double>(x[i])));
}
template <void (*Good)(const float*, float*, std::size_t)>
void two_ulps_up(const float* x, float* y, std::size_t n) {
  Good(x, y, n);
  for (std::size_t i = 0; i < n; ++i) y[i] = std::nextafter(std::nextafter(y[i], INFINITY), INFINITY);
}

UnaryOptions with(UnaryStrategy s) {
  UnaryOptions o;
  o.strategy = s;
  o.ulp_bound = 1;
  o.samples = 4000;
  return o;
}

}  // namespace

TEST_CASE("unary operators named by the operator table only are checked", "[unary][table]") {
  CHECK(parse_unary_operator("expm1") == OpId::Expm1);
  CHECK(parse_unary_operator("LOG1P") == OpId::Log1p);
  CHECK_THROWS_WITH(parse_unary_operator("Div"), Catch::Contains("operator 'Div' is not unary"));
  CHECK_THROWS_WITH(parse_unary_operator("Frob"), Catch::Contains("operator 'Frob' is unknown (expected one of"));

  struct Case {
    OpId op;
    void (*good)(const float*, float*, std::size_t);
    void (*bad)(const float*, float*, std::size_t);
  };
  for (const Case& c : {Case{OpId::Expm1, good_expm1, naive_expm1}, Case{OpId::Log1p, good_log1p, naive_log1p},
                        Case{OpId::Exp2, good_exp2, naive_exp2}, Case{OpId::Atan, good_atan, two_ulps_up<good_atan>},
                        Case{OpId::Sinh, good_sinh, two_ulps_up<good_sinh>}}) {
    CAPTURE(to_string(c.op));
    for (UnaryStrategy s : {UnaryStrategy::Special, UnaryStrategy::Random}) {
      // the binary64 function rounded once to FP32: within 1 ulp
      const UnaryResult good =
          check_unary_kernel(make_unary_kernel<float>("good", c.op, ElementType::FP32, c.good), with(s));
      INFO(good.summary());
      CHECK(good.passed());
      CHECK(good.tested > 0);
    }
    // the planted bug: catastrophic cancellation near 0 (random bit patterns
    // are mostly tiny), caught with witnesses
    const UnaryResult bad =
        check_unary_kernel(make_unary_kernel<float>("naive", c.op, ElementType::FP32, c.bad), with(UnaryStrategy::Random));
    INFO(bad.summary());
    CHECK_FALSE(bad.passed());
    CHECK(bad.over_bound > 0);
    CHECK_FALSE(bad.witnesses.empty());
  }
}
