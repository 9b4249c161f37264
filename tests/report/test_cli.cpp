// End-to-end tests of the symerr executable: exit codes, a user kernel from a
// shared library through a campaign file, and the HTML report in headless
// Chromium.
#include <catch2/catch.hpp>

#include <sstream>

#include <symerr/verify/report/report.hpp>

#include "fixture.hpp"
#include "schema_check.hpp"
#include "util.hpp"

using namespace symerr::verify;
using namespace symerr::verify::test;

TEST_CASE("symerr: --version, usage errors and bad campaign files", "[cli]") {
  const std::string exe = symerr_exe();
  REQUIRE(std::filesystem::exists(exe));
  auto r = run_command(exe + " --version");
  CHECK(r.status == 0);
  CHECK_THAT(r.output, Catch::Contains("symerr 0.") && Catch::Contains("commit"));
  CHECK(run_command(exe + " --help").status == 0);
  CHECK(run_command(exe).status == 2);
  CHECK(run_command(exe + " run --no-such-flag").status == 2);
  // an unknown subcommand is named, with the subcommands there are
  r = run_command(exe + " frob");
  CHECK(r.status == 2);
  CHECK_THAT(r.output, Catch::Contains("unknown subcommand 'frob'") && Catch::Contains("run, audit, report, unary"));
  CHECK(run_command(exe + " report /nonexistent.json").status == 2);

  const auto dir = temp_dir("cli-bad");
  write_text(dir / "bad.json", "{\n  \"operators\": [\"Div\"]\n  \"formats\": [\"FP32\"]\n}\n");
  r = run_command(exe + " run " + (dir / "bad.json").string() + " -o " + (dir / "out").string());
  INFO(r.output);
  CHECK(r.status == 2);
  CHECK_THAT(r.output, Catch::Contains("bad.json:3:"));
  write_text(dir / "bad2.json", R"({"operators": ["Div"], "formats": ["FP12"]})");
  r = run_command(exe + " run " + (dir / "bad2.json").string() + " -o " + (dir / "out").string());
  CHECK(r.status == 2);
  CHECK_THAT(r.output, Catch::Contains("bad2.json: at /formats/0"));
}

TEST_CASE("symerr report re-renders a stored report.json", "[cli]") {
  const auto dir = temp_dir("cli-report");
  write_reports(golden_campaign(), dir / "in");
  const auto r = run_command(symerr_exe() + " report " + (dir / "in/report.json").string() +
                             " -o " + (dir / "out").string());
  INFO(r.output);
  CHECK(r.status == 1);  // the golden campaign has violations
  CHECK(read_text(dir / "out/report.html") == render_html(golden_campaign()));
  CHECK(read_text(dir / "out/report.md") == render_markdown(golden_campaign()));
  CHECK_THAT(r.output, Catch::Contains((dir / "out/report.json").string()));
}

TEST_CASE("a user kernel from a shared library: its violation in all three reports", "[cli][kernel]") {
  const auto dir = temp_dir("cli-kernel");
  write_text(dir / "recip_div.c",
             "#include <stddef.h>\n"
             "void recip_div(const float* a, const float* b, float* y, size_t n) {\n"
             "  for (size_t i = 0; i < n; ++i) y[i] = a[i] * (1.0f / b[i]);\n"
             "}\n");
  const auto cc = run_command("cc -shared -fPIC -O2 -o " + (dir / "librecip.so").string() + " " +
                              (dir / "recip_div.c").string());
  INFO(cc.output);
  REQUIRE(cc.status == 0);
  write_text(dir / "campaign.json", R"({
  "name": "user kernel",
  "seed": 11,
  "kernels": [{"name": "recip_div", "library": "librecip.so", "symbol": "recip_div",
               "operator": "Div", "type": "FP32"}],
  "bound": "correctly_rounded",
  "strategies": ["special_grid", "random"],
  "random_count": 3000,
  "requirements": ["[R2]"]
})");
  const auto out = dir / "out";
  const auto r = run_command(symerr_exe() + " run " + (dir / "campaign.json").string() + " -o " +
                             out.string() + " -j 1");
  INFO(r.output);
  CHECK(r.status == 1);
  CHECK_THAT(r.output, Catch::Contains("VIOLATED concrete/Div/FP32/recip_div"));

  const CampaignResult back = read_report(out / "report.json");
  REQUIRE(back.checks.size() == 1);
  const CheckResult& c = back.checks[0];
  CHECK(c.verdict == Verdict::Violated);
  CHECK(c.kernel == "recip_div");
  CHECK(c.requirements == std::vector<std::string>{"[R2]"});
  REQUIRE(!c.witnesses.empty());
  const Witness& w = c.witnesses[0];
  REQUIRE(w.inputs.size() == 2);
  // the witness really is one: a * (1/b) differs from the correctly rounded a / b
  const float a = static_cast<float>(w.inputs[0].value), b = static_cast<float>(w.inputs[1].value);
  CHECK(a * (1.0f / b) != a / b);

  const std::string md = read_text(out / "report.md"), html = read_text(out / "report.html");
  CHECK_THAT(md, Catch::Contains("concrete/Div/FP32/recip_div") && Catch::Contains("**VIOLATED**") &&
                     Catch::Contains("Witnesses:") && Catch::Contains(w.inputs[0].bits));
  CHECK_THAT(html, Catch::Contains("<tr class=\"check violated\">") &&
                       Catch::Contains("<table class=\"witnesses\">") &&
                       Catch::Contains(w.inputs[0].bits) && Catch::Contains(w.output.bits));
  CHECK(read_text(out / "report.json").find(w.inputs[1].bits) != std::string::npos);
  SchemaCheck schema(nlohmann::json::parse(
      read_text(std::filesystem::path(SYMERR_SOURCE_DIR) / "verify/schema/report.schema.json")));
  const auto errors = schema.validate(nlohmann::json::parse(read_text(out / "report.json")));
  for (const auto& e : errors) UNSCOPED_INFO(e);
  CHECK(errors.empty());
}

TEST_CASE("the HTML report renders in headless Chromium: summary table and plots", "[cli][chromium]") {
  const auto which = run_command("command -v chromium || command -v chromium-browser");
  if (which.status != 0)
    FAIL("chromium is not installed: the test command installs it (.ci/test.sh runs "
         "'.ci/deps.sh chromium'); or: apt-get install chromium");
  std::string chromium = which.output.substr(0, which.output.find('\n'));
  const auto dir = temp_dir("chromium");
  const ReportFiles f = write_reports(golden_campaign(), dir);
  const auto r = run_command(
      "timeout 90 " + chromium +
      " --headless --no-sandbox --disable-gpu --disable-background-networking "
      "--disable-component-update --disable-sync --no-first-run --disable-dev-shm-usage "
      "--user-data-dir=" + (dir / "profile").string() + " --dump-dom file://" +
      std::filesystem::absolute(f.html).string() + " 2>/dev/null");
  INFO(r.output.substr(0, 2000));
  REQUIRE(r.status == 0);
  const std::string& dom = r.output;
  CHECK(dom.find("<table id=\"summary\">") != std::string::npos);
  CHECK(count_of(dom, "<tr class=\"check ") == 4);
  CHECK(count_of(dom, "<tr class=\"check violated\">") == 2);
  CHECK(count_of(dom, "<tr class=\"check crashed\">") == 1);
  CHECK(count_of(dom, "<svg class=\"plot histogram\"") == 3);
  CHECK(count_of(dom, "<svg class=\"plot scatter\"") == 3);
  CHECK(count_of(dom, "<rect class=\"bar\"") >= 3);
  CHECK(count_of(dom, "<circle class=\"point") == 16);
  CHECK(dom.find("<table id=\"environment\">") != std::string::npos);
  CHECK(dom.find("<section id=\"audit\">") != std::string::npos);
}

TEST_CASE("the HTML report prints to PDF in headless Chromium, witness tables fit the page", "[cli][chromium]") {
  const auto which = run_command("command -v chromium || command -v chromium-browser");
  if (which.status != 0) FAIL("chromium is not installed (apt-get install chromium)");
  const std::string chromium = which.output.substr(0, which.output.find('\n'));
  const auto dir = temp_dir("chromium-pdf");
  // a witness with the longest exact values the renderers meet (~770 digits)
  CampaignResult c = golden_campaign();
  Witness& w = c.checks[0].witnesses[0];
  w.inputs[0].exact = std::string(770, '7');
  w.message = "Div(" + std::string(300, '1') + ") returned something else";
  const ReportFiles f = write_reports(c, dir);
  const std::string flags =
      " --headless --no-sandbox --disable-gpu --disable-background-networking --disable-component-update"
      " --disable-sync --no-first-run --disable-dev-shm-usage --user-data-dir=" + (dir / "profile").string();
  const auto pdf = dir / "report.pdf";
  auto r = run_command("timeout 90 " + chromium + flags + " --print-to-pdf=" + pdf.string() +
                       " --no-pdf-header-footer file://" + std::filesystem::absolute(f.html).string() + " 2>/dev/null");
  INFO(r.output);
  REQUIRE(std::filesystem::exists(pdf));
  CHECK(read_text(pdf).rfind("%PDF-", 0) == 0);
  // the rendered width of every witness table at an A4 page width (794 CSS px)
  // is measured by a probe page that loads the report in an iframe
  write_text(dir / "probe.html",
             "<!DOCTYPE html><html><body style=\"margin:0\"><iframe id=\"r\" src=\"report.html\" "
             "style=\"width:794px;height:800px;border:0\"></iframe><pre id=\"out\"></pre><script>"
             "document.getElementById('r').onload=function(){var d=this.contentDocument,o=[];"
             "d.querySelectorAll('table.witnesses,table#summary,table.reproducer').forEach(function(t){"
             "o.push('table '+Math.ceil(t.getBoundingClientRect().right)+' '+d.documentElement.clientWidth);});"
             "document.getElementById('out').textContent=o.join('\\n')+'\\ndone';};</script></body></html>");
  r = run_command("timeout 90 " + chromium + flags +
                  " --allow-file-access-from-files --virtual-time-budget=5000 --dump-dom file://" +
                  std::filesystem::absolute(dir / "probe.html").string() + " 2>/dev/null");
  INFO(r.output.substr(0, 3000));
  REQUIRE(r.status == 0);
  REQUIRE(r.output.find("done") != std::string::npos);
  const std::string pre = "<pre id=\"out\">";
  REQUIRE(r.output.find(pre) != std::string::npos);
  std::istringstream lines(r.output.substr(r.output.find(pre) + pre.size()));
  std::string word;
  int tables = 0;
  while (lines >> word && word == "table") {
    int right = 0, page = 0;
    lines >> right >> page;
    CHECK(right <= page);
    ++tables;
  }
  CHECK(tables >= 3);
}
