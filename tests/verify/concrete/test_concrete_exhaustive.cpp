// Exhaustive sweeps: shards, merging, the fast path against the oracle path,
// and (tagged [long]) the full 2^32-pair proofs and refutations of the zoo.
#include <catch2/catch.hpp>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <vector>

#include <nlohmann/json.hpp>
#include <symerr/verify/concrete/exhaustive.hpp>

#include "verify/zoo/zoo.hpp"
#include "test_scale.hpp"

using namespace symerr;
using namespace symerr::verify;

namespace {

Kernel fp16_div() {
  return make_kernel<std::uint16_t>("zoo_div_fp16", OpId::Div, ElementType::FP16, zoo::div_fp16_fast);
}
Kernel fp16_div_ftz() {
  return make_kernel<std::uint16_t>("zoo_div_fp16_ftz", OpId::Div, ElementType::FP16, zoo::zoo_div_fp16_ftz);
}
Kernel bf16_div_truncate() {
  return make_kernel<std::uint16_t>("zoo_div_bf16_truncate", OpId::Div, ElementType::BF16,
                                    zoo::zoo_div_bf16_truncate);
}

ExhaustiveOptions shard(std::uint32_t i, std::uint32_t n) {
  ExhaustiveOptions o;
  o.shard = {i, n};
  o.threads = 2;
  o.progress = ProgressDisplay::Never;
  return o;
}

void print(const CheckResult& r) {
  std::cout << r.id << " [" << r.shard.indices.size() << "/" << r.shard.count << " shards]: "
            << to_string(r.verdict) << " — " << r.reason << " (" << r.duration_seconds << " s)\n";
  for (const auto& w : r.witnesses) std::cout << "    witness: " << w.message << "\n";
}

void require_same_evidence(const Evidence& x, const Evidence& y) {
  CHECK(x.inputs_checked == y.inputs_checked);
  CHECK(x.failures == y.failures);
  for (std::size_t i = 0; i < kInputClassCount; ++i) {
    INFO("class " << to_string(kInputClasses[i]));
    CHECK(x.classes[i].checked == y.classes[i].checked);
    CHECK(x.classes[i].failed == y.classes[i].failed);
  }
  CHECK(x.special.checked == y.special.checked);
  CHECK(x.special.matched == y.special.matched);
  CHECK(x.max_ulp_error == y.max_ulp_error);
  CHECK(x.max_abs_error == y.max_abs_error);
  CHECK(x.max_rel_error == Approx(y.max_rel_error).epsilon(1e-12));
  CHECK(x.histogram.counts == y.histogram.counts);
  REQUIRE(x.scatter.points.size() == y.scatter.points.size());
  for (std::size_t i = 0; i < x.scatter.points.size(); ++i) CHECK(x.scatter.points[i].key == y.scatter.points[i].key);
  REQUIRE(x.worst.has_value() == y.worst.has_value());
  if (x.worst) CHECK(x.worst->message == y.worst->message);
}

}  // namespace

TEST_CASE("shard parsing", "[concrete][exhaustive]") {
  CHECK(parse_shard("0/4").index == 0);
  CHECK(parse_shard("3/4").count == 4);
  CHECK_THROWS_AS(parse_shard("4/4"), std::invalid_argument);
  CHECK_THROWS_AS(parse_shard("1"), std::invalid_argument);
  CHECK_THROWS_AS(parse_shard("a/2"), std::invalid_argument);
  CHECK_THROWS_AS(parse_shard("1/0"), std::invalid_argument);
}

TEST_CASE("exhaustive: the fast path agrees with the oracle on every pair of a shard",
          "[concrete][exhaustive]") {
  // shard 3/4096 of FP16 (16 dividends x 65536 divisors); shard 2047/4096 holds
  // the largest positive dividends (overflow), 4095/4096 the NaN rows. Under the
  // sanitizers (SYMERR_TEST_SCALE < 1) the two special shards only: the Release
  // run does all four, the sanitizer run needs the code paths, not the count.
  const std::vector<std::uint32_t> shards = symerr::test::scaled_down() ? std::vector<std::uint32_t>{2047u, 4095u}
                                                   : std::vector<std::uint32_t>{3u, 500u, 2047u, 4095u};
  for (std::uint32_t s : shards) {
    for (const Kernel& k : {fp16_div(), fp16_div_ftz()}) {
      INFO(k.name << " shard " << s);
      ExhaustiveOptions fast = shard(s, 4096);
      ExhaustiveOptions slow = shard(s, 4096);
      slow.check.oracle = OracleKind::Double;  // disables the fast path
      ExhaustiveOptions scalar = fast;
      scalar.vectorized = false;  // the scalar loop of the fast path (AVX-512 is the default)
      const CheckResult a = check_exhaustive(k, fast);
      const CheckResult b = check_exhaustive(k, slow);
      const CheckResult c = check_exhaustive(k, scalar);
      require_same_evidence(a.evidence, b.evidence);
      require_same_evidence(c.evidence, b.evidence);
      CHECK(a.verdict == b.verdict);
      REQUIRE(a.witnesses.size() == b.witnesses.size());
      for (std::size_t i = 0; i < a.witnesses.size(); ++i) CHECK(a.witnesses[i].message == b.witnesses[i].message);
    }
  }
  // the oracle path with MPFR as the reference gives the same evidence
  ExhaustiveOptions fast = shard(1000, 4096), mpfr = shard(1000, 4096);
  mpfr.check.oracle = OracleKind::Mpfr;
  require_same_evidence(check_exhaustive(fp16_div_ftz(), fast).evidence,
                        check_exhaustive(fp16_div_ftz(), mpfr).evidence);
}

TEST_CASE("exhaustive: a shard has no violation but proves nothing alone, merged shards prove",
          "[concrete][exhaustive]") {
  const CheckResult one = check_exhaustive(fp16_div(), shard(7, 1024));
  print(one);
  CHECK(one.verdict == Verdict::PassedOnSamples);
  CHECK(one.evidence.failures == 0);
  CHECK(one.evidence.inputs_checked == 64u * 65536u);
  CHECK(one.reason.find("shard") != std::string::npos);

  // INT8 subtraction over 4 shards, merged through JSON as a sharded CLI run would
  const auto k = make_kernel<std::uint8_t>("zoo_sub_uint8_wrap", OpId::Sub, ElementType::UINT8,
                                           zoo::zoo_sub_uint8_wrap);
  CheckResult merged;
  for (std::uint32_t i = 0; i < 4; ++i) {
    const CheckResult part = check_exhaustive(k, shard(i, 4));
    CHECK(part.verdict == Verdict::PassedOnSamples);
    const CheckResult back = nlohmann::json(part).get<CheckResult>();
    if (i == 0) merged = back;
    else merge(merged, back);
  }
  print(merged);
  CHECK(merged.verdict == Verdict::Proven);
  CHECK(merged.evidence.inputs_checked == 65536);
  CHECK(merged.evidence[InputClass::Overflow].checked == 32640);
  CHECK_THROWS_AS(merge(merged, check_exhaustive(k, shard(1, 4))), std::invalid_argument);

  // a broken kernel is refuted by any shard holding a failure
  const auto sat = make_kernel<std::int8_t>("zoo_sub_int8_saturate", OpId::Sub, ElementType::INT8,
                                            zoo::zoo_sub_int8_saturate);
  const CheckResult v = check_exhaustive(sat, shard(0, 2));
  CHECK(v.verdict == Verdict::Violated);
}

TEST_CASE("exhaustive: max_failures stops a refutation early", "[concrete][exhaustive]") {
  ExhaustiveOptions o = shard(0, 1);
  o.max_failures = 1000;
  const CheckResult r = check_exhaustive(bf16_div_truncate(), o);
  print(r);
  CHECK(r.verdict == Verdict::Violated);
  CHECK(!r.exhaustive);
  CHECK(r.evidence.inputs_checked < exhaustive_pair_count(ElementType::BF16));
  CHECK(!r.witnesses.empty());
}

// ---- long runs ------------------------------------------------------------------------

TEST_CASE("exhaustive FP16: correct division proven over all 2^32 pairs", "[.][long][exhaustive]") {
  ExhaustiveOptions o;
  o.threads = 2;
  const auto t0 = std::chrono::steady_clock::now();
  const CheckResult r = check_exhaustive(fp16_div(), o);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  print(r);
  std::cout << "exhaustive FP16 Div, 2^32 pairs, 2 threads: " << s << " s\n";
  CHECK(r.verdict == Verdict::Proven);
  CHECK(r.evidence.inputs_checked == (std::uint64_t{1} << 32));
  CHECK(r.evidence.max_ulp_error <= 0.5);
  CHECK(r.evidence.special.all_matched());
}

TEST_CASE("exhaustive FP16/BF16: broken divisions refuted over all pairs", "[.][long][exhaustive]") {
  ExhaustiveOptions o;
  o.threads = 2;
  const CheckResult ftz = check_exhaustive(fp16_div_ftz(), o);
  print(ftz);
  CHECK(ftz.verdict == Verdict::Violated);
  CHECK(ftz.exhaustive);  // every pair swept: the failure count is exact
  for (const auto& w : ftz.witnesses) {
    CHECK(w.output.value == 0);
    CHECK(std::fabs(w.reference.value) < FP16.min_normal());
    CHECK(w.reference.value != 0);
  }
  // truncation fails on about half of all pairs: stop after 10^6 failures
  o.max_failures = 1000000;
  const CheckResult trunc = check_exhaustive(bf16_div_truncate(), o);
  print(trunc);
  CHECK(trunc.verdict == Verdict::Violated);
  CHECK(trunc.evidence.failures >= 1000000);
  CHECK(trunc.evidence.max_ulp_error < 1.0);
}
