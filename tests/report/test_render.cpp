// Golden-output tests of the three renderers on the fixed dataset, JSON schema
// validation, round trip through read_report, escaping.
#include <catch2/catch.hpp>

#include <cstdlib>

#include <nlohmann/json.hpp>

#include <symerr/verify/report/report.hpp>

#include "fixture.hpp"
#include "schema_check.hpp"
#include "util.hpp"

using namespace symerr;
using namespace symerr::verify;  // with symerr: `detail` names one namespace
using namespace symerr::verify::test;

namespace {

const std::filesystem::path kGolden = std::filesystem::path(SYMERR_SOURCE_DIR) / "tests/report/golden";

// Compares with the stored file; SYMERR_UPDATE_GOLDEN=1 rewrites it instead.
void check_golden(const std::string& file, const std::string& actual) {
  const auto path = kGolden / file;
  if (const char* u = std::getenv("SYMERR_UPDATE_GOLDEN"); u && std::string(u) == "1")
    write_text(path, actual);
  const std::string expected = read_text(path);
  INFO("golden file " << path.string() << " (regenerate with SYMERR_UPDATE_GOLDEN=1)");
  REQUIRE(!expected.empty());
  CHECK(actual == expected);
}

nlohmann::json schema() {
  return nlohmann::json::parse(read_text(std::filesystem::path(SYMERR_SOURCE_DIR) /
                                         "verify/schema/report.schema.json"));
}

}  // namespace

TEST_CASE("golden: JSON report", "[report][golden]") {
  check_golden("report.json", render_json(golden_campaign()));
}

TEST_CASE("golden: Markdown report", "[report][golden]") {
  check_golden("report.md", render_markdown(golden_campaign()));
}

TEST_CASE("golden: HTML report", "[report][golden]") {
  check_golden("report.html", render_html(golden_campaign()));
}

TEST_CASE("the JSON report validates against its schema", "[report][schema]") {
  SchemaCheck v(schema());
  const auto j = nlohmann::json::parse(render_json(golden_campaign()));
  const auto errors = v.validate(j);
  for (const auto& e : errors) UNSCOPED_INFO(e);
  CHECK(errors.empty());
  CHECK(j["schema_version"] == kReportSchemaVersion);
  CHECK(schema()["properties"]["schema_version"]["const"] == kReportSchemaVersion);

  SECTION("an empty campaign too") {
    CampaignResult empty;
    empty.environment = golden_campaign().environment;
    CHECK(v.validate(nlohmann::json::parse(render_json(empty))).empty());
  }
}

TEST_CASE("the schema validator rejects what the schema forbids", "[report][schema]") {
  SchemaCheck v(schema());
  auto j = nlohmann::json::parse(render_json(golden_campaign()));
  SECTION("unknown verdict") {
    j["checks"][0]["verdict"] = "maybe";
    CHECK(!v.validate(j).empty());
  }
  SECTION("missing environment") {
    j.erase("environment");
    CHECK(!v.validate(j).empty());
  }
  SECTION("a string where a count is due") {
    j["checks"][0]["evidence"]["inputs_checked"] = "many";
    CHECK(!v.validate(j).empty());
  }
  SECTION("an unexpected key") {
    j["checks"][1]["colour"] = "red";
    CHECK(!v.validate(j).empty());
  }
}

TEST_CASE("read_report gives back the rendered campaign", "[report]") {
  const auto dir = temp_dir("roundtrip");
  const CampaignResult r = golden_campaign();
  const ReportFiles f = write_reports(r, dir);
  CHECK(std::filesystem::exists(f.markdown));
  CHECK(std::filesystem::exists(f.html));
  const CampaignResult back = read_report(f.json);
  CHECK(render_json(back) == render_json(r));
  CHECK(render_html(back) == render_html(r));

  SECTION("a broken file names its line and column") {
    write_text(dir / "bad.json", "{\n  \"schema_version\": \"1.0.0\",\n  \"checks\": [,]\n}\n");
    try {
      read_report(dir / "bad.json");
      FAIL("no error");
    } catch (const std::runtime_error& e) {
      INFO(e.what());
      CHECK(std::string(e.what()).find("bad.json:3:") != std::string::npos);
    }
  }
  SECTION("another schema major version is refused") {
    write_text(dir / "v1.json", "{\"schema_version\": \"1.0.0\"}");
    CHECK_THROWS_WITH(read_report(dir / "v1.json"), Catch::Contains("not supported"));
    write_text(dir / "v3.json", "{\"schema_version\": \"3.0.0\"}");
    CHECK_THROWS_WITH(read_report(dir / "v3.json"), Catch::Contains("not supported"));
  }
}

TEST_CASE("the HTML report escapes text and needs nothing external", "[report]") {
  const std::string html = render_html(golden_campaign());
  CHECK(html.find("golden &lt;fixture&gt;") != std::string::npos);
  CHECK(html.find("<0x3f7fffff>") == std::string::npos);
  CHECK(html.find("&lt;0x3f7fffff&gt; is not the correctly rounded quotient &amp; differs") !=
        std::string::npos);
  CHECK(html.find("<script") == std::string::npos);
  CHECK(html.find("<link") == std::string::npos);
  CHECK(html.find("src=") == std::string::npos);
  CHECK(html.find("url(") == std::string::npos);
  // one histogram and one scatter per check with inputs, the bound line where known
  CHECK(count_of(html, "<svg class=\"plot histogram\"") == 3);
  CHECK(count_of(html, "<svg class=\"plot scatter\"") == 3);
  CHECK(count_of(html, "class=\"bound\"") >= 2);
  CHECK(count_of(html, "<tr class=\"check ") == 4);
  CHECK(count_of(html, "<table class=\"reproducer\">") == 1);
  CHECK(html.find("<p id=\"headline\">implementations: 2 of 3 checks FAIL (1 proven, 1 violated, 1 crashed); the seed specifications contain 1 false statement") != std::string::npos);
  CHECK(html.find("<table id=\"traceability\">") != std::string::npos);
  CHECK(html.find("<section id=\"hypotheses\">") != std::string::npos);
  CHECK(html.find("<section id=\"audit\">") != std::string::npos);
}

TEST_CASE("the Markdown report carries requirements, witnesses and environment", "[report]") {
  const std::string md = render_markdown(golden_campaign());
  CHECK(md.find("| concrete/Div/FP32/recip_div | implementation | [R2] [C4] | Div | FP32 |") != std::string::npos);
  CHECK(md.find("**VIOLATED**") != std::string::npos);
  // tables: hex float and %.17g, the storage bits
  CHECK(md.find("0x1.8p+1 = 3 (0x40400000); 0x1.8p+1 = 3 (0x40400000)") != std::string::npos);
  CHECK(md.find("| symerr's own FP state (observed) | RNE, FTZ off, DAZ off |") != std::string::npos);
  CHECK(md.find("## Traceability matrix") != std::string::npos);
  CHECK(md.find("| [R2] | concrete/Div/FP32/recip_div | **VIOLATED** |") != std::string::npos);
  CHECK(md.find("## Hypotheses") != std::string::npos);
  CHECK(md.find("Input classes (they overlap") != std::string::npos);
  CHECK(md.find("margin to the bound -0.5 ulp") != std::string::npos);
}

TEST_CASE("bound_in_ulp and margins", "[report]") {
  CheckResult c = golden_campaign().checks[0];
  REQUIRE(bound_in_ulp(c));
  CHECK(*bound_in_ulp(c) == 0.5);
  c.evidence.metrics.clear();
  CHECK(bound_in_ulp(c) == 0.0);  // the worst witness's bound 0 scaled to ulp
  c.evidence.worst.reset();
  CHECK(!bound_in_ulp(c));
  CHECK(detail::line_column("ab\ncd", 4).line == 2);
  CHECK(detail::line_column("ab\ncd", 4).column == 2);
  CHECK(detail::format_count(1234567) == "1,234,567");
}
