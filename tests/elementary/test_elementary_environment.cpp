// The elementary functions own their floating-point environment: every
// (call, caller environment) pair — the caller's rounding direction × FTZ ×
// DAZ — gives the result of the clean environment, field by field and flag by
// flag. Subnormal arguments and results are where FTZ / DAZ used to leak in:
// tanh(2^-1070) under FTZ came out as real = fp = err = [0, 0], log(2^-1070)
// under DAZ as "never finite, undefined" (MPFR read the subnormal as 0).
#include <catch2/catch.hpp>

#include <functional>
#include <string>
#include <vector>

#include <symerr/domains/interval.hpp>
#include <symerr/domains/symbolic_interval.hpp>
#include <symerr/elementary.hpp>

#include "fuzz/dag_fuzzer.hpp"  // CallerEnvScope, fingerprint

using namespace symerr;

namespace {

struct Call {
  std::string name;
  std::function<SymbolicError()> run;
};

SymbolicError point(double x, const FloatFormat& F = FP64) { return SymbolicError::input(x, x, F); }

std::vector<Call> calls() {
  const double sub = 0x1p-1070, sub32 = 0x1p-140f;
  const auto cr = AccuracyModel::correctly_rounded();
  return {
      {"tanh(2^-1070) FP64", [=] { return tanh(point(sub)); }},
      {"log(2^-1070) FP64", [=] { return log(point(sub)); }},
      {"log(2^-1070) FP64 cr", [=] { return log(point(sub), cr); }},
      {"exp(-745) FP64", [=] { return exp(point(-745.0)); }},
      {"exp([-746, -700]) FP64 cr", [=] { return exp(SymbolicError::input(-746, -700, FP64), cr); }},
      {"expm1(2^-1070) FP64", [=] { return expm1(point(sub)); }},
      {"log1p(2^-1070) FP64", [=] { return log1p(point(sub)); }},
      {"erf(2^-1070) FP64", [=] { return erf(point(sub)); }},
      {"sin(2^-1070) FP64", [=] { return sin(point(sub)); }},
      {"atan(2^-1070) FP64", [=] { return atan(point(sub)); }},
      {"sinh(2^-1070) FP64", [=] { return sinh(point(sub)); }},
      {"cbrt(2^-1070) FP64", [=] { return cbrt(point(sub)); }},
      {"pow(2^-1070, 0.5) FP64", [=] { return pow(point(sub), 0.5); }},
      {"pow(2^-500, 2.5) FP64", [=] { return pow(point(0x1p-500), 2.5); }},
      {"sigmoid(-740) FP64 2-ulp", [=] { return sigmoid(point(-740.0), AccuracyModel::ulps(2)); }},
      {"tanh(2^-140) FP32", [=] { return tanh(point(sub32, FP32)); }},
      {"log2(2^-140) FP32", [=] { return log2(point(sub32, FP32)); }},
      {"exp(x) FP32 input with subnormal error", [=] {
         return exp(SymbolicError::input(-104, -103, -0x1p-140, 0x1p-140, FP32));
       }},
      {"hypot(2^-1070, 2^-1070) FP64", [=] { return hypot(point(sub), point(sub)); }},
      {"ldexp(2^-1000, -70) FP64", [=] { return ldexp(point(0x1p-1000), -70); }},
  };
}

}  // namespace

TEST_CASE("elementary functions: results independent of the caller's rounding, FTZ and DAZ",
          "[elementary][environment]") {
  using fuzz::CallerEnv;
  const CallerEnv envs[] = {CallerEnv::TowardZero, CallerEnv::Downward, CallerEnv::Upward, CallerEnv::FtzDaz,
                            CallerEnv::UpwardFtzDaz};
  int pairs = 0;
  for (const Call& c : calls()) {
    const std::string clean = fuzz::fingerprint(c.run());
    for (const CallerEnv e : envs) {
      std::string got;
      {
        const fuzz::CallerEnvScope scope(e);
        got = fuzz::fingerprint(c.run());
      }
      INFO(c.name << " under " << fuzz::env_name(e));
      CHECK(got == clean);
      ++pairs;
    }
  }
  CHECK(pairs == 100);
  // the clean results themselves: a subnormal argument stays a nonzero one
  const SymbolicError t = tanh(point(0x1p-1070));
  CHECK(t.fp.lower() > 0);  // within 2 ulps (2^-1073) of tanh(2^-1070)
  CHECK(t.real.lower() > 0);
  const SymbolicError l = log(point(0x1p-1070));
  CHECK(l.specials.may_be_finite);
  CHECK(!l.specials.may_be_undefined);
}

#if defined(__x86_64__) && defined(__SSE2_MATH__)
TEST_CASE("elementary functions: FTZ alone and DAZ alone", "[elementary][environment]") {
  // CallerEnvScope sets FTZ and DAZ together; each bit on its own, in every rounding direction
  const unsigned rcs[] = {0x0000u, 0x2000u, 0x4000u, 0x6000u};
  const unsigned bits[] = {detail::kMxcsrFtz, detail::kMxcsrDaz};
  for (const Call& c : calls()) {
    const std::string clean = fuzz::fingerprint(c.run());
    for (const unsigned rc : rcs)
      for (const unsigned b : bits) {
        const unsigned saved = detail::read_mxcsr();
        detail::write_mxcsr((saved & ~(detail::kMxcsrRounding | detail::kMxcsrFtz | detail::kMxcsrDaz)) | rc | b);
        const std::string got = fuzz::fingerprint(c.run());
        const unsigned after = detail::read_mxcsr() & detail::kMxcsrControl;
        detail::write_mxcsr(saved);
        INFO(c.name << " with MXCSR control bits 0x" << std::hex << (rc | b));
        CHECK(got == clean);
        CHECK(after == ((saved & detail::kMxcsrControl & ~(detail::kMxcsrRounding | detail::kMxcsrFtz |
                                                             detail::kMxcsrDaz)) | rc | b));  // caller's restored
      }
  }
}
#endif
