// Campaign files: syntax errors with file:line:column, content errors with the
// JSON path, and what a valid file turns into.
#include <catch2/catch.hpp>

#include <symerr/verify/campaign/campaign.hpp>

#include "report/campaign_error.hpp"

using namespace symerr::verify;
using symerr::OpId;

namespace {

std::string error_of(const std::string& text) { return symerr::test::campaign_error_of(text); }

}  // namespace

TEST_CASE("a campaign file with a syntax error names file, line and column", "[campaign]") {
  const std::string e = error_of("{\n  \"seed\": 1,\n  \"operators\": [\"Div\",,]\n}");
  INFO(e);
  CHECK(e.rfind("c.json:3:", 0) == 0);
  CHECK(e.find("syntax error") != std::string::npos);
  CHECK(error_of("{\"seed\": 1").rfind("c.json:1:", 0) == 0);
}

TEST_CASE("invalid campaign content names the JSON path and the reason", "[campaign]") {
  CHECK_THAT(error_of(R"({"operators": ["Div"], "formats": ["FP33"]})"),
             Catch::Contains("c.json: at /formats/0: unknown or unsupported format \"FP33\""));
  CHECK_THAT(error_of(R"({"operators": ["Pow"], "formats": ["FP32"]})"),
             Catch::Contains("at /operators/0: operator 'Pow' has no two-input concrete check"));
  CHECK_THAT(error_of(R"({"operators": ["Div", "Frob"], "formats": ["FP32"]})"),
             Catch::Contains("at /operators/1: operator 'Frob' is unknown (expected one of Add, Sub, Mul, Div)"));
  CHECK_THAT(error_of(R"({"operators": ["Div"], "formats": ["FP32"], "sead": 3})"),
             Catch::Contains("at /sead: unknown key"));
  CHECK_THAT(error_of(R"({"kernels": [{"library": "k.so", "operator": "Div", "type": "FP32"}]})"),
             Catch::Contains("at /kernels/0: missing key \"symbol\""));
  CHECK_THAT(error_of(R"({"operators": ["Div"], "formats": ["INT8"], "semantics": {"integer_division": "round"}})"),
             Catch::Contains("at /semantics/integer_division"));
  CHECK_THAT(error_of(R"({"operators": ["Div"], "formats": ["FP32"], "bound": {"ulp": -1}})"),
             Catch::Contains("at /bound/ulp"));
  CHECK_THAT(error_of(R"({"operators": ["Div"], "formats": ["FP32"], "seed": -4})"),
             Catch::Contains("at /seed: expected a non-negative integer"));
  CHECK_THAT(error_of(R"({"operators": ["Div"]})"), Catch::Contains("go together"));
  CHECK_THAT(error_of(R"({"name": "x"})"), Catch::Contains("nothing to verify"));
  CHECK_THAT(error_of("[1, 2]"), Catch::Contains("at /: expected an object"));
}

TEST_CASE("a valid campaign file", "[campaign]") {
  const auto s = parse_campaign(R"({
    "name": "mine", "seed": 99,
    "operators": ["Div", "sub"], "formats": ["FP16", "INT8"],
    "semantics": {"integer_division": "truncate", "broadcast": "numpy"},
    "inputs": {"min": 0.001, "max": 1000},
    "bound": {"ulp": 1},
    "strategies": ["special_grid", "random"], "random_count": 50,
    "requirements": ["[R2]"],
    "kernels": [{"library": "libk.so", "symbol": "k_div", "operator": "Div", "type": "FP32"}]
  })", "/some/dir/c.json");
  CHECK(s.name == "mine");
  CHECK(s.seed == 99);
  CHECK(s.operators == std::vector<OpId>{OpId::Div, OpId::Sub});
  CHECK(s.formats == std::vector<ElementType>{ElementType::FP16, ElementType::INT8});
  CHECK(s.integer_division == symerr::IntegerDivision::Truncate);
  CHECK(s.broadcast == "numpy");
  CHECK(*s.input_min == 0.001);
  CHECK(*s.input_max == 1000);
  CHECK(s.bound.kind == BoundSpec::Kind::Ulp);
  CHECK(s.random_count == 50);
  REQUIRE(s.kernels.size() == 1);
  CHECK(s.kernels[0].library == "/some/dir/libk.so");
  CHECK(s.kernels[0].name == "k_div");
  CHECK(s.kernels[0].signature.type == ElementType::FP32);
}

TEST_CASE("the generic kernels and a small campaign run", "[campaign]") {
  CampaignSpec s;
  s.operators = {OpId::Div, OpId::Add};
  s.formats = {ElementType::FP32, ElementType::INT8};
  s.strategies = {"special_grid", "random"};
  s.random_count = 500;
  s.integer_division = symerr::IntegerDivision::Truncate;
  RunOptions o;
  o.jobs = 2;
  std::vector<std::string> lines;
  o.progress = [&](std::string_view l) { lines.emplace_back(l); };
  const CampaignResult r = run_campaign(s, o);
  REQUIRE(r.checks.size() == 4);
  CHECK(r.checks[0].id == "concrete/Div/FP32/symerr::Div");
  CHECK(r.checks[3].id == "concrete/Add/INT8/symerr::Add");
  for (const auto& c : r.checks) {
    INFO(c.id << ": " << c.reason);
    CHECK(c.verdict != Verdict::Violated);
    CHECK(c.evidence.inputs_checked > 0);
  }
  CHECK(r.checks[1].verdict == Verdict::Proven);  // INT8 Div runs on all pairs
  CHECK(r.checks[1].semantics.at("integer_division") == "truncate");
  CHECK(lines.size() == 5);
  CHECK(r.environment.seed == s.seed);
}
