// Unary concrete checks: the fast FP32 oracle agrees with MPFR, glibc's
// float functions pass their bounds, and the broken zoo gets the right
// verdict with a witness.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <random>

#include <symerr/verify/concrete/unary.hpp>
#include "test_scale.hpp"

using namespace symerr;
using namespace symerr::verify;

namespace {

const std::string kLib = SYMERR_UNARY_KERNELS;

UnaryOptions with(UnaryStrategy s, double bound, std::uint64_t samples = 20000) {
  UnaryOptions o;
  o.strategy = s;
  o.ulp_bound = bound;
  o.samples = samples;
  return o;
}

}  // namespace

TEST_CASE("the fast FP32 oracle agrees with MPFR", "[unary][oracle]") {
  std::mt19937_64 rng(3);
  // 5000 per function here (MPFR at up to 4096 bits on results that are not
  // correctly rounded is the cost); 10^6 per function in test_unary_fast_oracle [long]
  const long n = static_cast<long>(5000 * symerr::test::test_scale());
  for (OpId op : {OpId::Exp, OpId::Log, OpId::Tanh, OpId::Sigmoid,
                           OpId::Sqrt, OpId::Erf}) {
    long fast_decided = 0;
    for (long i = 0; i < n; ++i) {
      std::uint32_t bits = static_cast<std::uint32_t>(rng());
      if (i % 2) bits = (bits & 0x83ffffffu) | 0x3c000000u;  // half of them with |x| in [2^-7, 2^8)
      float xf;
      std::memcpy(&xf, &bits, 4);
      const double x = xf;
      if (unary_special(op, x)) continue;
      const double y = std::nextafter(static_cast<float>(std::exp(std::log(std::fabs(x) + 1))), 0.0f);
      const UnaryTruth fast = unary_truth(op, x, y, FP32, true, 1.0);
      const UnaryTruth slow = unary_truth(op, x, y, FP32, false, 1.0);
      INFO(to_string(op) << " x = " << x);
      REQUIRE(fast.rounded == slow.rounded);
      if (std::isfinite(slow.ulp_error)) REQUIRE(std::fabs(fast.ulp_error - slow.ulp_error) <= 0x1p-20 * (1 + slow.ulp_error));
      fast_decided += !fast.used_mpfr;
    }
    CHECK(fast_decided > n / 4);
  }
}

TEST_CASE("glibc's float functions: special and boundary values correct, random within glibc's bound",
          "[unary][glibc]") {
  struct Case {
    const char* symbol;
    OpId op;
    double bound;
  };
  for (const Case& c : {Case{"glibc_expf", OpId::Exp, 1}, Case{"glibc_logf", OpId::Log, 1},
                        Case{"glibc_tanhf", OpId::Tanh, 3}, Case{"glibc_erff", OpId::Erf, 1},
                        Case{"glibc_sqrtf", OpId::Sqrt, 0.5}, Case{"sigmoid_split", OpId::Sigmoid, 4}}) {
    const UnaryKernel k = load_unary_kernel(kLib, c.symbol, c.op, ElementType::FP32);
    for (UnaryStrategy s : {UnaryStrategy::Special, UnaryStrategy::Boundary, UnaryStrategy::Random}) {
      const UnaryResult r = check_unary_kernel(k, with(s, c.bound));
      INFO(r.summary());
      CHECK(r.passed());
      CHECK(r.tested > 0);
    }
  }
  // FP64 through MPFR only (no exhaustive for FP64)
  const UnaryResult r = check_unary_kernel(load_unary_kernel(kLib, "glibc_exp", OpId::Exp, ElementType::FP64),
                                           with(UnaryStrategy::Random, 1, 5000));
  INFO(r.summary());
  CHECK(r.passed());
}

TEST_CASE("exhaustive FP16: expf through float, then rounded to FP16", "[unary][exhaustive]") {
  const UnaryKernel k = load_unary_kernel(kLib, "glibc_expf_fp16", OpId::Exp, ElementType::FP16);
  const UnaryResult r = check_unary_kernel(k, with(UnaryStrategy::Exhaustive, 0.5));
  INFO(r.summary());
  CHECK(r.tested == 65536);
  CHECK(r.special_mismatches == 0);
  CHECK(r.max_ulp_error < 0.5 + 0x1p-12);  // ½ ulp + the float rounding, scaled
}

TEST_CASE("exhaustive FP32 sweep of a sub-range matches the MPFR-only sweep", "[unary][exhaustive]") {
  const UnaryKernel k = load_unary_kernel(kLib, "glibc_expf", OpId::Exp, ElementType::FP32);
  UnaryOptions o = with(UnaryStrategy::Exhaustive, 1);
  o.first = 0x42b00000u;  // around the overflow threshold (88.0 ..)
  o.count = static_cast<std::uint64_t>(200000 * symerr::test::test_scale());
  const UnaryResult fast = check_unary_kernel(k, o);
  o.mpfr_only = true;
  const UnaryResult slow = check_unary_kernel(k, o);
  INFO(fast.summary() << "\n" << slow.summary());
  CHECK(fast.tested == slow.tested);
  CHECK(fast.incorrectly_rounded == slow.incorrectly_rounded);
  CHECK(fast.over_bound == slow.over_bound);
  CHECK(std::fabs(fast.max_ulp_error - slow.max_ulp_error) < 1e-5);
  CHECK(fast.mpfr_calls < slow.mpfr_calls);
}

TEST_CASE("the broken unary zoo gets the right verdicts, with witnesses", "[unary][zoo]") {
  struct Case {
    const char* symbol;
    OpId op;
    double bound;
    UnaryStrategy strategy;
    const char* what;
  };
  const Case cases[] = {
      {"zoo_expf_exp2", OpId::Exp, 1, UnaryStrategy::Boundary, "exceeds the bound"},
      {"zoo_tanhf_naive", OpId::Tanh, 2, UnaryStrategy::Special, "special value"},
      {"zoo_sigmoidf_nan", OpId::Sigmoid, 4, UnaryStrategy::Special, "special value"},
      {"zoo_logf_zero", OpId::Log, 1, UnaryStrategy::Special, "special value"},
  };
  for (const Case& c : cases) {
    const UnaryResult r = check_unary_kernel(load_unary_kernel(kLib, c.symbol, c.op, ElementType::FP32),
                                             with(c.strategy, c.bound));
    INFO(r.summary());
    CHECK(!r.passed());
    REQUIRE(!r.witnesses.empty());
    CHECK(r.witnesses.front().what == c.what);
  }
  // the naive tanh is also wrong on ordinary large arguments (NaN instead of 1)
  const UnaryResult t = check_unary_kernel(load_unary_kernel(kLib, "zoo_tanhf_naive", OpId::Tanh, ElementType::FP32),
                                           with(UnaryStrategy::Boundary, 2));
  INFO(t.summary());
  CHECK(!t.passed());
  // the sigmoid's witness is x = −inf
  const UnaryResult s = check_unary_kernel(load_unary_kernel(kLib, "zoo_sigmoidf_nan", OpId::Sigmoid, ElementType::FP32),
                                           with(UnaryStrategy::Special, 4));
  CHECK(std::isinf(s.witnesses.front().x));
  CHECK(s.witnesses.front().x < 0);
  // bad input: a clear error
  CHECK_THROWS_WITH(load_unary_kernel(kLib, "no_such_symbol", OpId::Exp, ElementType::FP32),
                    Catch::Contains("no_such_symbol"));
  CHECK_THROWS_WITH(load_unary_kernel("/nonexistent.so", "f", OpId::Exp, ElementType::FP32),
                    Catch::Contains("does not exist"));
}

TEST_CASE("exhaustive FP32: glibc expf, logf, tanhf, erff, all 2^32 inputs", "[.][unary][exhaustive][long]") {
  struct Case {
    const char* symbol;
    OpId op;
    double bound;
  };
  for (const Case& c : {Case{"glibc_expf", OpId::Exp, 1}, Case{"glibc_logf", OpId::Log, 1},
                        Case{"glibc_tanhf", OpId::Tanh, 2}, Case{"glibc_erff", OpId::Erf, 1}}) {
    const UnaryResult r = check_unary_kernel(load_unary_kernel(kLib, c.symbol, c.op, ElementType::FP32),
                                             with(UnaryStrategy::Exhaustive, c.bound));
    WARN(r.summary());
    CHECK(r.tested == (1ULL << 32));
  }
}
