// The headline and the exit status: an inconclusive check is never counted as
// correct (docs/verdicts.md "Exit statuses").
#include <catch2/catch.hpp>

#include <symerr/verify/report/report.hpp>

#include "report/util.hpp"

using namespace symerr::verify;

namespace {

CheckResult check(const std::string& id, Verdict v, Subject s = Subject::Implementation) {
  CheckResult c;
  c.id = id;
  c.kind = "symbolic";
  c.verdict = v;
  c.subject = s;
  return c;
}

}  // namespace

TEST_CASE("headline: inconclusive checks are counted, never called correct", "[report][headline]") {
  CampaignResult r;
  r.name = "gelu";
  r.checks = {check("symbolic/kernel/gelu/FP32/err/le2.5e-07/00000001", Verdict::Proven),
              check("symbolic/kernel/gelu/FP32/err/le1.3e-07/00000001", Verdict::Inconclusive)};
  const std::string h = symerr::detail::headline(r);
  CHECK(h == "implementations: no check failed, 1 of 2 not proven (1 proven, 1 inconclusive)");
  CHECK(h.find("correct") == std::string::npos);
  CHECK(exit_code(r) == kExitOk);
  CHECK(exit_code(r, true) == kExitInconclusive);
  CHECK(kExitInconclusive == 4);
  CHECK(exit_code(Verdict::Inconclusive, true) == 4);

  r.checks[1].verdict = Verdict::Proven;
  CHECK(symerr::detail::headline(r) == "implementations: all 2 checks proven");
  CHECK(exit_code(r, true) == kExitOk);

  r.checks.push_back(check("symbolic/kernel/gelu/FP32/err/le1e-07/00000001", Verdict::Violated));
  r.checks.push_back(check("symbolic/kernel/gelu/FP32/err/le1e-07/00000002", Verdict::Inconclusive));
  CHECK(symerr::detail::headline(r) == "implementations: 1 of 4 checks FAIL (2 proven, 1 violated, 1 inconclusive)");
  CHECK(exit_code(r) == kExitImplementationFailure);
  CHECK(exit_code(r, true) == kExitImplementationFailure);

  // specification checks are counted apart, with their verdicts
  r.checks = {check("symbolic/kernel/a", Verdict::Proven), check("b", Verdict::Inconclusive, Subject::Specification)};
  CHECK(symerr::detail::headline(r) ==
        "implementations: 1 check, proven; no specification statement refuted (1 inconclusive)");
  r.checks[0].id = "symbolic/Div/FP32/symerr.div.float.introduction";  // one of symerr's operators
  CHECK(symerr::detail::headline(r).rfind("symerr's own kernels: 1 check, proven; ", 0) == 0);
  CHECK(exit_code(r) == kExitOk);
  CHECK(exit_code(r, true) == kExitInconclusive);
}

TEST_CASE("a campaign without a file is named by its name, the CLI's default one as such", "[report][headline]") {
  CampaignResult r;
  r.name = "gelu dossier";
  r.checks = {check("x", Verdict::Proven)};
  CHECK(symerr::detail::campaign_without_file(r) == "(none: campaign \"gelu dossier\", built by a program)");
  CHECK(render_markdown(r).find("(none: campaign \"gelu dossier\", built by a program)") != std::string::npos);
  CHECK(render_markdown(r).find("the default campaign") == std::string::npos);
  r.name = "default";
  CHECK(symerr::detail::campaign_without_file(r) == "(the default campaign)");
}

TEST_CASE("symerr report: an inconclusive check exits 0, with --strict 4, the headline says it", "[report][headline][cli]") {
  using namespace symerr::verify::test;
  CampaignResult r;
  r.name = "inconclusive";
  r.environment = current_environment(1);
  r.checks = {check("symbolic/kernel/k/FP32/err/le1e-07/00000001", Verdict::Proven),
              check("symbolic/kernel/k/FP32/err/le9e-08/00000001", Verdict::Inconclusive)};
  const auto dir = temp_dir("headline-strict");
  write_text(dir / "in.json", render_json(r));
  const auto plain = run_command(symerr_exe() + " report " + (dir / "in.json").string() + " -q -o " + (dir / "a").string());
  INFO(plain.output);
  CHECK(plain.status == 0);
  CHECK(plain.output.find("implementations: no check failed, 1 of 2 not proven (1 proven, 1 inconclusive)") !=
        std::string::npos);
  const auto strict =
      run_command(symerr_exe() + " report " + (dir / "in.json").string() + " -q --strict -o " + (dir / "b").string());
  INFO(strict.output);
  CHECK(strict.status == 4);
}

TEST_CASE("a kernel check's metrics survive the JSON report, an infinite ratio included", "[report][headline]") {
  CampaignResult r;
  r.name = "metrics";
  r.checks = {check("symbolic/kernel/k/FP32/err/le1e-07/00000001", Verdict::Proven)};
  r.checks[0].evidence.metrics = {{"bound", 1e-7}, {"observed_max", 0}, {"bound_over_observed", INFINITY}};
  const CampaignResult back = parse_report(render_json(r), "m.json");
  REQUIRE(back.checks.size() == 1);
  CHECK(back.checks[0].evidence.metrics == r.checks[0].evidence.metrics);
}
