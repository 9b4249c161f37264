// "form": "unary" in campaign files: parsing, errors naming the JSON path, and
// unary checks in the same report as the binary ones (verdicts, witnesses);
// the default campaign's unary checks of symerr's reference kernels.
#include <catch2/catch.hpp>

#include <chrono>
#include <cmath>
#include <cstring>
#include <random>

#include <mpfr.h>

#include <symerr/verify/campaign/campaign.hpp>
#include <symerr/verify/report/report.hpp>

#include "report/campaign_error.hpp"

using namespace symerr;
using namespace symerr::verify;

namespace {

const std::string kLib = SYMERR_UNARY_KERNELS;

std::string error_of(const std::string& text) { return symerr::test::campaign_error_of(text); }

std::string unary(const std::string& fields) {
  return R"({"kernels": [{"form": "unary", "library": "k.so", "symbol": "f", )" + fields + "}]}";
}

}  // namespace

TEST_CASE("campaign: a unary kernel entry", "[unary][campaign]") {
  const auto s = parse_campaign(R"({
    "bound": {"ulp": 2},
    "kernels": [
      {"form": "unary", "library": "libk.so", "symbol": "my_expf", "operator": "exp", "type": "FP32",
       "strategies": ["special", "boundary", "exhaustive"], "requirements": ["[E1]"]},
      {"form": "unary", "symbol": "symerr::Sqrt", "operator": "Sqrt", "type": "BF16", "bound": "correctly_rounded"},
      {"form": "unary", "library": "libk.so", "symbol": "t", "operator": "Tanh", "type": "FP16",
       "bound": "sonnx_unit_roundoff", "random_count": 77},
      {"library": "libk.so", "symbol": "k_div", "operator": "Div", "type": "FP32"}
    ]})", "/some/dir/c.json");
  REQUIRE(s.unary_kernels.size() == 3);
  REQUIRE(s.kernels.size() == 1);
  const UnaryKernelSpec& e = s.unary_kernels[0];
  CHECK(e.library == "/some/dir/libk.so");
  CHECK(e.name == "my_expf");
  CHECK(e.op == OpId::Exp);
  CHECK(e.type == ElementType::FP32);
  CHECK(e.ulp_bound == 2);  // the campaign's bound
  CHECK(e.strategies.size() == 3);
  CHECK(e.requirements == std::vector<std::string>{"[E1]"});
  CHECK(s.unary_kernels[1].library.empty());
  CHECK(s.unary_kernels[1].ulp_bound == 0.5);
  CHECK(s.unary_kernels[2].sonnx_unit_roundoff);
  CHECK(s.unary_kernels[2].random_count == 77);
}

TEST_CASE("campaign: bad unary kernel entries name the JSON path", "[unary][campaign]") {
  CHECK_THAT(error_of(unary(R"("operator": "Softplus", "type": "FP32")")),
             Catch::Contains("c.json: at /kernels/0/operator: operator 'Softplus' is unknown"));
  CHECK_THAT(error_of(unary(R"("operator": "Exp", "type": "INT8")")),
             Catch::Contains("at /kernels/0/type: a unary kernel takes a float type"));
  CHECK_THAT(error_of(unary(R"("operator": "Exp", "type": "FP32", "bound": {"ulp": 0.25})")),
             Catch::Contains("at /kernels/0/bound/ulp"));
  CHECK_THAT(error_of(unary(R"("operator": "Exp", "type": "FP32", "bound": "sonnx_div_introduction")")),
             Catch::Contains("at /kernels/0/bound: unknown bound"));
  CHECK_THAT(error_of(unary(R"("operator": "Exp", "type": "FP64", "strategies": ["random", "exhaustive"])")),
             Catch::Contains("at /kernels/0/strategies/1: exhaustive sweeps cover"));
  CHECK_THAT(error_of(unary(R"("operator": "Exp", "type": "FP32", "strategies": ["grid"])")),
             Catch::Contains("at /kernels/0/strategies/0: unknown strategy \"grid\""));
  CHECK_THAT(error_of(unary(R"("operator": "Exp", "type": "FP32", "strategies": [])")),
             Catch::Contains("at /kernels/0/strategies: expected a non-empty array"));
  CHECK_THAT(error_of(unary(R"("operator": "Exp", "type": "FP32", "arity": 1)")),
             Catch::Contains("at /kernels/0/arity: unknown key"));
  CHECK_THAT(error_of(R"({"kernels": [{"form": "unary", "symbol": "f", "operator": "Exp", "type": "FP32"}]})"),
             Catch::Contains("at /kernels/0/symbol: no \"library\" given"));
  CHECK_THAT(error_of(R"({"kernels": [{"form": "unary", "library": "k.so", "operator": "Exp", "type": "FP32"}]})"),
             Catch::Contains("at /kernels/0: missing key \"symbol\""));
  CHECK_THAT(error_of(R"({"kernels": [{"form": "unary", "library": "k.so", "symbol": "f", "type": "FP32"}]})"),
             Catch::Contains("at /kernels/0: missing key \"operator\""));
  CHECK_THAT(error_of(R"({"bound": {"ulp": 0.1}, "kernels": [{"form": "unary", "library": "k.so", "symbol": "f",
                                                            "operator": "Exp", "type": "FP32"}]})"),
             Catch::Contains("at /bound/ulp: a unary kernel's ulp bound"));
  CHECK_THAT(error_of(R"({"kernels": [{"form": "binary", "library": "k.so", "symbol": "f", "operator": "Div", "type": "FP32"}]})"),
             Catch::Contains("at /kernels/0/form: expected \"elementwise\", \"tensor\", \"unary\" or \"source\""));
}

TEST_CASE("campaign: unary and binary checks in one report", "[unary][campaign]") {
  const std::string text = R"({
    "operators": ["Div"], "formats": ["FP32"], "random_count": 500,
    "strategies": ["special_grid", "random"],
    "kernels": [
      {"form": "unary", "library": ")" + kLib + R"(", "symbol": "glibc_expf", "operator": "Exp", "type": "FP32",
       "bound": {"ulp": 1}, "random_count": 3000},
      {"form": "unary", "library": ")" + kLib + R"(", "symbol": "zoo_logf_zero", "operator": "Log", "type": "FP32",
       "bound": {"ulp": 1}, "strategies": ["special"]},
      {"form": "unary", "library": ")" + kLib + R"(", "symbol": "glibc_sqrtf", "operator": "Sqrt", "type": "FP32",
       "bound": "sonnx_unit_roundoff", "random_count": 3000},
      {"form": "unary", "library": ")" + kLib + R"(", "symbol": "zoo_expf_exp2", "operator": "Exp", "type": "FP32",
       "bound": "sonnx_unit_roundoff", "strategies": ["boundary"]},
      {"form": "unary", "symbol": "symerr::Sqrt", "operator": "Sqrt", "type": "FP16",
       "strategies": ["special", "exhaustive"]}
    ]})";
  const CampaignSpec s = parse_campaign(text, "c.json");
  const CampaignResult r = run_campaign(s);
  REQUIRE(r.checks.size() == 6);
  CHECK(r.checks[0].id == "concrete/Div/FP32/symerr::Div");
  const CheckResult& exp = r.checks[1];
  INFO(exp.reason);
  CHECK(exp.id == "concrete/Exp/FP32/glibc_expf");
  CHECK(exp.verdict == Verdict::PassedOnSamples);
  CHECK(exp.item.form == "unary");
  CHECK(!exp.item.sha256.empty());
  CHECK(exp.evidence.inputs_checked > 3000);
  CHECK(exp.bound.formula == "|Y - Exp(X)| <= 1 ulp(Exp(X))");
  const CheckResult& log = r.checks[2];
  CHECK(log.verdict == Verdict::Violated);
  REQUIRE(!log.witnesses.empty());
  CHECK(log.witnesses.front().message.find("special value") != std::string::npos);
  CHECK(r.checks[3].verdict == Verdict::PassedOnSamples);  // sqrtf is correctly rounded: within u·|f|
  CHECK(r.checks[3].bound.name.find("SONNX") != std::string::npos);
  CHECK(r.checks[4].verdict == Verdict::Violated);          // exp2f(x·log2 e) near the overflow threshold
  const CheckResult& sq = r.checks[5];
  CHECK(sq.verdict == Verdict::Proven);  // all 2^16 FP16 inputs
  CHECK(sq.exhaustive);
  CHECK(sq.evidence.inputs_checked == 65536);  // each input once: the special ones are among the sweep's
  // the reports render them, and the JSON report reads back
  const std::string md = render_markdown(r);
  CHECK(md.find("concrete/Log/FP32/zoo_logf_zero") != std::string::npos);
  CHECK(!render_html(r).empty());
  const CampaignResult back = parse_report(render_json(r), "r.json");
  REQUIRE(back.checks.size() == 6);
  CHECK(back.checks[2].verdict == Verdict::Violated);
  CHECK(back.checks[2].item.form == "unary");
}

TEST_CASE("the default campaign checks symerr's reference unary kernels, in well under a second each",
          "[unary][campaign]") {
  CampaignSpec s = default_campaign();
  REQUIRE(!s.unary_kernels.empty());
  s.operators.clear();
  s.formats.clear();
  s.symbolic = s.audit = false;
  const auto t0 = std::chrono::steady_clock::now();
  const CampaignResult r = run_campaign(s);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  REQUIRE(r.checks.size() == s.unary_kernels.size());
  for (const CheckResult& c : r.checks) {
    INFO(c.id << ": " << c.reason);
    CHECK(c.verdict != Verdict::Violated);
    CHECK(c.verdict != Verdict::Inconclusive);
    if (c.format == "FP16" || c.format == "BF16") CHECK(c.verdict == Verdict::Proven);
  }
  WARN("default campaign's unary checks: " << seconds << " s");
}

TEST_CASE("the SONNX unit-roundoff bound of unary checks is decided exactly", "[unary][campaign]") {
  // |y − f(x)| <= 2^−24·max(|f(x)|, 2^−126) for results one FP32 step off the
  // correctly rounded one, against a direct MPFR evaluation at 512 bits
  std::mt19937_64 rng(12);
  long within = 0, beyond = 0;
  for (int i = 0; i < 4000; ++i) {
    const std::uint32_t bits = (static_cast<std::uint32_t>(rng()) & 0x83ffffffu) | 0x3c000000u;
    float x;
    std::memcpy(&x, &bits, 4);
    const OpId op = i % 2 ? OpId::Exp : OpId::Tanh;
    const double cr = unary_truth(op, x, 0.0, FP32, false).rounded;
    const double y = std::nextafter(static_cast<float>(cr), i % 4 < 2 ? INFINITY : -INFINITY);
    mpfr_t a, f, d, b;
    mpfr_inits2(512, a, f, d, b, static_cast<mpfr_ptr>(nullptr));
    mpfr_set_flt(a, x, MPFR_RNDN);
    if (op == OpId::Exp) mpfr_exp(f, a, MPFR_RNDN);
    else mpfr_tanh(f, a, MPFR_RNDN);
    mpfr_d_sub(d, y, f, MPFR_RNDN);
    mpfr_abs(d, d, MPFR_RNDN);
    mpfr_abs(b, f, MPFR_RNDN);
    if (mpfr_cmp_d(b, 0x1p-126) < 0) mpfr_set_d(b, 0x1p-126, MPFR_RNDN);
    mpfr_mul_2si(b, b, -24, MPFR_RNDN);
    const bool expected = mpfr_cmp(d, b) <= 0;
    mpfr_clears(a, f, d, b, static_cast<mpfr_ptr>(nullptr));
    INFO(to_string(op) << " x = " << x << " y = " << y);
    REQUIRE(unary_within_unit_roundoff(op, x, y, FP32) == expected);
    (expected ? within : beyond) += 1;
  }
  CHECK(within > 100);  // both answers occur: the test can fail either way
  CHECK(beyond > 100);
}
