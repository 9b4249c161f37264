// Verdicts and evidence are plain data: JSON round trips, histogram buckets,
// merging of shards, the observed environment.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdlib>
#include <regex>

#include <nlohmann/json.hpp>
#include <symerr/verify/concrete/exhaustive.hpp>

#include "verify/zoo/zoo.hpp"
#include "test_scale.hpp"

using namespace symerr;
using namespace symerr::verify;
using nlohmann::json;

TEST_CASE("results: JSON round trip of a failing check, non-finite numbers as strings",
          "[concrete][json]") {
  const auto k = make_kernel<float>("zoo_div_fp32_reciprocal", OpId::Div, ElementType::FP32,
                                    zoo::zoo_div_fp32_reciprocal);
  CheckOptions o;
  o.strategies.random_count = 3000;
  o.requirements = {"[R1]", "[C3]"};
  const CheckResult r = check_kernel(k, o);
  REQUIRE(r.verdict == Verdict::Violated);
  const json j = r;
  CHECK(j.at("verdict") == "violated");
  CHECK(j.at("requirements") == json({"[R1]", "[C3]"}));
  CHECK(j.at("evidence").at("classes").contains("near_zero_divisor"));
  CHECK(j.at("evidence").at("max_ulp_error") == "inf");  // NaN where a number was due
  CHECK(j.at("witnesses").at(0).at("inputs").at(0).at("bits").get<std::string>().size() == 10);
  const CheckResult back = j.get<CheckResult>();
  CHECK(json(back) == j);
  CHECK(std::isinf(back.evidence.max_ulp_error));

  CampaignResult c{"zoo", current_environment(7), {r}, {}};
  const json cj = c;
  CHECK(cj.at("verdict") == "violated");
  CHECK(json(cj.get<CampaignResult>()) == cj);
  CHECK(exit_code(c.overall()) == 1);
  CHECK(exit_code(Verdict::Inconclusive) == 0);
  CHECK(exit_code(Verdict::Inconclusive, true) == kExitInconclusive);  // 4: not an input error (2)
  CHECK(combine(Verdict::Proven, Verdict::Inconclusive) == Verdict::Inconclusive);
}

TEST_CASE("results: histogram buckets are fixed and log-spaced", "[concrete][json]") {
  using H = UlpHistogram;
  CHECK(H::bucket_of(0) == 0);
  CHECK(H::bucket_of(0x1p-11) == 1);
  CHECK(H::bucket_of(0x1p-10) == 2);
  CHECK(H::bucket_of(0.5) == 11);
  CHECK(H::bucket_of(0.75) == 11);
  CHECK(H::bucket_of(1) == 12);
  CHECK(H::bucket_of(0x1p30) == H::kBuckets - 2);
  CHECK(H::bucket_of(INFINITY) == H::kBuckets - 1);
  CHECK(H::bucket_of(NAN) == H::kBuckets - 1);
  for (double x = 0x1p-12; x < 0x1p26; x *= 1.37) {
    const std::size_t b = H::bucket_of(x);
    CHECK(H::lower_edge(b) <= x);
    CHECK(x < H::upper_edge(b));
  }
}

TEST_CASE("results: merged shards equal one run, scatter sample included", "[concrete][json]") {
  const auto k = make_kernel<std::uint16_t>("zoo_div_fp16_ftz", OpId::Div, ElementType::FP16,
                                            zoo::zoo_div_fp16_ftz);
  ExhaustiveOptions o;
  o.threads = 2;
  o.progress = ProgressDisplay::Never;
  // rows 448..511; under the sanitizers (SYMERR_TEST_SCALE < 1) the last
  // quarter of them, 496..511 (the same code paths, a quarter of the time)
  const std::uint32_t d = symerr::test::scaled_down() ? 4 : 1;
  o.shard = {8 * d - 1, 1024 * d};
  const CheckResult whole = check_exhaustive(k, o);
  CheckResult merged;
  for (std::uint32_t i = 0; i < 4; ++i) {
    ExhaustiveOptions p = o;
    p.shard = {4 * (8 * d - 1) + i, 4096 * d};  // the same rows in four parts
    CheckResult part = check_exhaustive(k, p);
    part.shard = {4, {i}};
    part.id = whole.id;
    if (i == 0) merged = part;
    else merge(merged, part, 5 + kInputClassCount);
  }
  CHECK(merged.evidence.inputs_checked == whole.evidence.inputs_checked);
  CHECK(merged.evidence.failures == whole.evidence.failures);
  CHECK(merged.evidence.histogram.counts == whole.evidence.histogram.counts);
  REQUIRE(merged.evidence.scatter.points.size() == whole.evidence.scatter.points.size());
  for (std::size_t i = 0; i < whole.evidence.scatter.points.size(); ++i)
    CHECK(merged.evidence.scatter.points[i].key == whole.evidence.scatter.points[i].key);
  CHECK(merged.evidence.max_ulp_error == whole.evidence.max_ulp_error);
  CHECK(merged.verdict == Verdict::Violated);
  REQUIRE(!merged.witnesses.empty());
  CHECK(merged.witnesses.front().message == whole.witnesses.front().message);
}

TEST_CASE("results: the environment is observed at run time", "[concrete][json]") {
  const Environment e = current_environment(99);
  CHECK(e.rounding_mode == "RNE");
  CHECK(!e.flush_to_zero);
  CHECK(!e.denormals_are_zero);
  CHECK(e.seed == 99);
  CHECK(!e.symerr_version.empty());
  CHECK(!e.compiler.empty());
  CHECK(e.hardware_threads >= 1);
  CHECK(std::regex_match(e.date, std::regex(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)")));
  CHECK(json(e).get<Environment>().cpu_model == e.cpu_model);
}
