// The kernel zoo gets the right verdict, with a witness where it fails
// (issue "Verification harness", concrete check).
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdlib>
#include <iostream>

#include <symerr/verify/concrete/concrete.hpp>

#include "verify/zoo/zoo.hpp"
#include "test_scale.hpp"

using namespace symerr;
using namespace symerr::verify;

namespace {

CheckOptions options() {
  CheckOptions o;
  o.strategies.random_count = symerr::test::scaled(100000, 1000);
  return o;
}

void print(const CheckResult& r) {
  std::cout << r.id << ": " << to_string(r.verdict) << " — " << r.reason << "\n";
  for (const auto& w : r.witnesses) std::cout << "    witness: " << w.message << "\n";
}

bool has_witness_with(const CheckResult& r, const std::string& text) {
  for (const auto& w : r.witnesses)
    if (w.message.find(text) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("zoo: correct FP32 division is not violated", "[concrete][zoo]") {
  const auto k = make_kernel<float>("zoo_div_fp32", OpId::Div, ElementType::FP32, zoo::zoo_div_fp32);
  const CheckResult r = check_kernel(k, options());
  print(r);
  CHECK(r.verdict == Verdict::PassedOnSamples);  // sampled: never "proven"
  CHECK(r.evidence.failures == 0);
  CHECK(r.witnesses.empty());
  CHECK(r.evidence.max_ulp_error <= 0.5);
  CHECK(r.evidence.max_ulp_error > 0.4);  // tightness: the sample reaches near half an ulp
  CHECK(r.evidence.special.all_matched());
  for (InputClass c : kInputClasses) {
    INFO(to_string(c));
    CHECK(r.evidence[c].checked > 0);
  }
}

TEST_CASE("zoo: FP32 division as a * (1/b) is violated", "[concrete][zoo]") {
  const auto k = make_kernel<float>("zoo_div_fp32_reciprocal", OpId::Div, ElementType::FP32,
                                    zoo::zoo_div_fp32_reciprocal);
  const CheckResult r = check_kernel(k, options());
  print(r);
  REQUIRE(r.verdict == Verdict::Violated);
  REQUIRE(!r.witnesses.empty());
  CHECK(r.evidence[InputClass::Normal].failed > 0);
  CHECK(r.evidence.max_ulp_error > 0.5);
  // every witness is re-checked: its output differs from the reference
  for (const auto& w : r.witnesses) CHECK(w.output.bits != w.reference.bits);
}

TEST_CASE("zoo: FP32 division returning +inf for -1/0 is violated", "[concrete][zoo]") {
  const auto k = make_kernel<float>("zoo_div_fp32_unsigned_inf", OpId::Div, ElementType::FP32,
                                    zoo::zoo_div_fp32_unsigned_inf);
  const CheckResult r = check_kernel(k, options());
  print(r);
  REQUIRE(r.verdict == Verdict::Violated);
  CHECK(!r.evidence.special.all_matched());
  CHECK(r.evidence[InputClass::NearZeroDivisor].failed > 0);
  CHECK(r.evidence[InputClass::Normal].failed > 0);
  CHECK(has_witness_with(r, "returned +inf; IEEE 754 gives -inf"));
  // only the x/0 cases fail
  CHECK(r.evidence.failures == r.evidence[InputClass::NearZeroDivisor].failed);
}

TEST_CASE("zoo: BF16 division truncating instead of RNE is violated", "[concrete][zoo]") {
  const auto k = make_kernel<std::uint16_t>("zoo_div_bf16_truncate", OpId::Div, ElementType::BF16,
                                            zoo::zoo_div_bf16_truncate);
  const CheckResult r = check_kernel(k, options());
  print(r);
  REQUIRE(r.verdict == Verdict::Violated);
  CHECK(r.evidence.max_ulp_error > 0.5);
  CHECK(r.evidence.max_ulp_error < 1.0);
  // the RNE twin passes
  const auto good = make_kernel<std::uint16_t>("zoo_div_bf16", OpId::Div, ElementType::BF16, zoo::zoo_div_bf16);
  const CheckResult g = check_kernel(good, options());
  print(g);
  CHECK(g.evidence.failures == 0);
}

TEST_CASE("zoo: FP16 division flushing subnormal results is violated", "[concrete][zoo]") {
  const auto k = make_kernel<std::uint16_t>("zoo_div_fp16_ftz", OpId::Div, ElementType::FP16,
                                            zoo::zoo_div_fp16_ftz);
  const CheckResult r = check_kernel(k, options());
  print(r);
  REQUIRE(r.verdict == Verdict::Violated);
  REQUIRE(!r.witnesses.empty());
  for (const auto& w : r.witnesses) {
    CHECK(w.output.value == 0);
    CHECK(std::fabs(w.reference.value) < FP16.min_normal());
    CHECK(w.reference.value != 0);
  }
  const auto good = make_kernel<std::uint16_t>("zoo_div_fp16", OpId::Div, ElementType::FP16, zoo::zoo_div_fp16);
  const CheckResult g = check_kernel(good, options());
  print(g);
  CHECK(g.evidence.failures == 0);
  CHECK(g.evidence.max_ulp_error <= 0.5);
}

TEST_CASE("zoo: INT8 C division fails floor semantics and passes truncation", "[concrete][zoo]") {
  const auto k = make_kernel<std::int8_t>("zoo_div_int8_trunc", OpId::Div, ElementType::INT8,
                                          zoo::zoo_div_int8_trunc);
  CheckOptions floor_opt = options();
  floor_opt.integer_division = IntegerDivision::Floor;
  const CheckResult f = check_kernel(k, floor_opt);
  print(f);
  REQUIRE(f.verdict == Verdict::Violated);
  CHECK(f.exhaustive);
  CHECK(f.semantics.at("integer_division") == "floor");
  CHECK(has_witness_with(f, "Div(-1, 2) returned 0; floor division"));
  // x / 0 is undefined behaviour in C: not run by default ...
  CHECK(f.evidence.undefined == 0);
  CHECK(f.evidence.metrics.at("undefined_inputs_not_run") == 256);
  CHECK(f.evidence.inputs_checked == 65280);
  // ... and run, counted, not judged when asked for (the zoo kernel guards b == 0)
  floor_opt.feed_undefined = true;
  const CheckResult fed = check_kernel(k, floor_opt);
  CHECK(fed.evidence.undefined == 256);
  CHECK(fed.evidence.inputs_checked == 65536);

  CheckOptions trunc_opt = options();
  trunc_opt.integer_division = IntegerDivision::Truncate;
  const CheckResult t = check_kernel(k, trunc_opt);
  print(t);
  CHECK(t.verdict == Verdict::Proven);
  CHECK(t.evidence.inputs_checked == 65280);
  CHECK(t.evidence[InputClass::Overflow].checked == 1);  // -128 / -1 wraps
  CHECK(t.semantics.at("integer_division") == "truncate");
}

TEST_CASE("zoo: INT8 saturating subtraction is violated, UINT8 wrapping is proven", "[concrete][zoo]") {
  const auto sat = make_kernel<std::int8_t>("zoo_sub_int8_saturate", OpId::Sub, ElementType::INT8,
                                            zoo::zoo_sub_int8_saturate);
  const CheckResult s = check_kernel(sat, options());
  print(s);
  REQUIRE(s.verdict == Verdict::Violated);
  CHECK(s.evidence.failures == s.evidence[InputClass::Overflow].checked);
  CHECK(has_witness_with(s, "wraps modulo 2^8"));

  const auto wrap = make_kernel<std::uint8_t>("zoo_sub_uint8_wrap", OpId::Sub, ElementType::UINT8,
                                              zoo::zoo_sub_uint8_wrap);
  const CheckResult w = check_kernel(wrap, options());
  print(w);
  CHECK(w.verdict == Verdict::Proven);
  CHECK(w.evidence[InputClass::Overflow].checked == 32640);  // b > a
}
