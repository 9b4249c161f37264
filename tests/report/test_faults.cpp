// End-to-end tests of issue 15 through the symerr executable: faulty kernels
// (crash, hang, exit(), exception) isolated with reproducers, the kernel FP
// environment owned by the harness, exact FP64 figures, the wrong-special-
// value class, and every bad input of the issue's list with its status and
// message.
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <symerr/verify/report/report.hpp>

#include "schema_check.hpp"
#include "util.hpp"

using namespace symerr::verify;
using namespace symerr::verify::test;
namespace fs = std::filesystem;

namespace {

const std::string kKernels = SYMERR_SOURCE_DIR "/tests/report/kernels/";

// tests/report/kernels/faulty_kernels.c as a shared library, built once per run.
const fs::path& faulty_library() {
  static const fs::path so = [] {
    const auto dir = temp_dir("faulty-kernels");
    const auto lib = dir / "libfaulty.so";
    const auto r = run_command("cc -shared -fPIC -O1 -o " + lib.string() + " " + kKernels + "faulty_kernels.c -lm");
    INFO(r.output);
    REQUIRE(r.status == 0);
    return lib;
  }();
  return so;
}

std::string kernel_entry(const std::string& symbol, const std::string& type = "FP32",
                         const std::string& op = "Div") {
  return R"({"library": ")" + faulty_library().string() + R"(", "symbol": ")" + symbol +
         R"(", "operator": ")" + op + R"(", "type": ")" + type + R"("})";
}

struct CampaignRun {
  Run run;
  CampaignResult result;
  fs::path out;
};

CampaignRun run_campaign_text(const std::string& name, const std::string& body, const std::string& flags = "") {
  const auto dir = temp_dir(name);
  write_text(dir / "campaign.json", body);
  CampaignRun c;
  c.out = dir / "out";
  c.run = run_command(symerr_exe() + " run " + (dir / "campaign.json").string() + " -o " + c.out.string() + " " + flags);
  if (fs::exists(c.out / "report.json")) c.result = read_report(c.out / "report.json");
  return c;
}

const CheckResult& check_named(const CampaignResult& r, const std::string& kernel) {
  for (const auto& c : r.checks)
    if (c.kernel == kernel) return c;
  FAIL("no check of kernel " << kernel);
  throw std::logic_error("unreachable");
}

// A small sampled campaign over the given kernels.
std::string campaign(const std::vector<std::string>& kernels, const std::string& extra = "") {
  std::string list;
  for (const auto& k : kernels) list += (list.empty() ? "" : ",\n  ") + k;
  return "{\"name\": \"faults\", \"seed\": 5, \"kernels\": [\n  " + list +
         "],\n \"strategies\": [\"special_grid\", \"random\"], \"random_count\": 2000" + extra + "}";
}

}  // namespace

TEST_CASE("a segfaulting, a looping and an exit()-calling kernel with a correct one", "[cli][faults]") {
  const auto dir = temp_dir("faults-main");
  // a stale report: it must be replaced, whatever the kernels do
  write_text(dir / "stale.txt", "");
  const auto c = run_campaign_text(
      "faults", campaign({kernel_entry("segv_div"), kernel_entry("loop_div"), kernel_entry("exit_div"),
                          kernel_entry("good_div")},
                         ", \"time_limit_seconds\": 0.5"),
      "-j 2 -q");
  INFO(c.run.output);
  CHECK(c.run.status == 1);
  CHECK_THAT(c.run.output, Catch::StartsWith("implementations: 3 of 4 checks FAIL"));
  REQUIRE(c.result.checks.size() == 4);

  const CheckResult& segv = check_named(c.result, "segv_div");
  CHECK(segv.verdict == Verdict::Crashed);
  REQUIRE(segv.fault);
  CHECK(segv.fault->kind == "signal");
  CHECK_THAT(segv.fault->message, Catch::Contains("SIGSEGV"));
  CHECK(segv.fault->reproducer_size == 1);  // bisected to the one NaN input
  CHECK(segv.fault->reproduced);
  REQUIRE(segv.fault->reproducer.size() == 1);
  const auto& in = segv.fault->reproducer[0];
  CHECK((std::isnan(in[0].value)));

  const CheckResult& loop = check_named(c.result, "loop_div");
  CHECK(loop.verdict == Verdict::TimedOut);
  REQUIRE(loop.fault);
  CHECK(loop.fault->reproducer_size == 1);
  CHECK(loop.fault->reproducer[0][1].value == 0.0);

  const CheckResult& ex = check_named(c.result, "exit_div");
  CHECK(ex.verdict == Verdict::Crashed);
  REQUIRE(ex.fault);
  CHECK(ex.fault->kind == "exit");
  CHECK_THAT(ex.fault->message, Catch::Contains("exit status 0"));
  CHECK(ex.fault->reproducer_size == 1);
  CHECK((std::isinf(ex.fault->reproducer[0][0].value) || std::isinf(ex.fault->reproducer[0][1].value)));

  const CheckResult& good = check_named(c.result, "good_div");
  CHECK(good.verdict == Verdict::PassedOnSamples);
  CHECK(good.evidence.inputs_checked > 2000);
  // identity of the item under test
  CHECK(good.item.library == fs::canonical(faulty_library()).string());
  CHECK(good.item.symbol == "good_div");
  CHECK(good.item.form == "elementwise");
  CHECK(good.item.sha256.size() == 64);
  CHECK(c.result.source.sha256.size() == 64);
  CHECK_THAT(c.result.source.command_line, Catch::Contains(" run ") && Catch::Contains("-j 2"));

  // complete reports, valid against the schema
  const std::string md = read_text(c.out / "report.md"), html = read_text(c.out / "report.html");
  CHECK_THAT(md, Catch::Contains("**CRASHED**") && Catch::Contains("**TIMED OUT**") &&
                     Catch::Contains("Reproducer (1 of the") && Catch::EndsWith("|\n\n"));
  CHECK_THAT(html, Catch::Contains("<table class=\"reproducer\">") && Catch::EndsWith("</html>\n"));
  SchemaCheck schema(nlohmann::json::parse(read_text(fs::path(SYMERR_SOURCE_DIR) / "verify/schema/report.schema.json")));
  const auto errors = schema.validate(nlohmann::json::parse(read_text(c.out / "report.json")));
  for (const auto& e : errors) UNSCOPED_INFO(e);
  CHECK(errors.empty());
}

TEST_CASE("kernels that change the FP state do not affect the next kernel, under every --jobs", "[cli][faults][fpenv]") {
  for (const char* jobs : {"-j 1", "-j 2", "-j 4"}) {
    INFO(jobs);
    const auto c = run_campaign_text(
        "fpenv", campaign({kernel_entry("daz_restore"), kernel_entry("daz_leave"), kernel_entry("upward_leave"),
                           kernel_entry("trap_leave"), kernel_entry("good_div")}),
        std::string(jobs) + " -q");
    INFO(c.run.output);
    CHECK(c.run.status == 1);
    REQUIRE(c.result.checks.size() == 5);
    const CheckResult& good = check_named(c.result, "good_div");
    CHECK(good.verdict == Verdict::PassedOnSamples);
    CHECK_THAT(good.fp_environment, Catch::Contains("left it unchanged"));

    const CheckResult& leave = check_named(c.result, "daz_leave");
    CHECK(leave.verdict == Verdict::Violated);  // subnormals flushed
    CHECK_THAT(leave.fp_environment, Catch::Contains("leaves FTZ+DAZ set after a call"));

    const CheckResult& restore = check_named(c.result, "daz_restore");
    CHECK(restore.verdict == Verdict::Violated);
    CHECK_THAT(restore.fp_environment,
               Catch::Contains("computes with FTZ+DAZ set during the call and restores it"));

    const CheckResult& up = check_named(c.result, "upward_leave");
    CHECK(up.verdict == Verdict::PassedOnSamples);  // its own results are correct
    CHECK_THAT(up.fp_environment, Catch::Contains("leaves rounding upward"));
    const CheckResult& trap = check_named(c.result, "trap_leave");
    CHECK(trap.verdict == Verdict::PassedOnSamples);
    CHECK_THAT(trap.fp_environment, Catch::Contains("leaves FP traps enabled"));
  }
}

TEST_CASE("FP64: a correct division measures 0.5 ulp, NaN -> -inf is a wrong special value", "[cli][faults][figures]") {
  const auto c = run_campaign_text(
      "figures", campaign({kernel_entry("good_div64", "FP64"), kernel_entry("nan_to_minus_inf_add", "FP32", "Add")}),
      "-j 1 -q");
  INFO(c.run.output);
  CHECK(c.run.status == 1);
  const CheckResult& d = check_named(c.result, "good_div64");
  CHECK(d.verdict == Verdict::PassedOnSamples);
  CHECK(d.evidence.max_ulp_error > 0.49);  // measured exactly, not the rounded oracle's 0
  CHECK(d.evidence.max_ulp_error <= 0.5);
  CHECK(d.evidence.max_rel_error > 0);
  CHECK_THAT(read_text(c.out / "report.md"), Catch::Contains("| 0.5 ulp (rel "));

  const CheckResult& add = check_named(c.result, "nan_to_minus_inf_add");
  CHECK(add.verdict == Verdict::Violated);
  CHECK(add.evidence.wrong_special > 0);
  CHECK(add.evidence.wrong_special == add.evidence.failures);
  CHECK(add.evidence[InputClass::NaN].failed == add.evidence.failures);
  bool nan_witness = false;
  for (const auto& w : add.witnesses)
    if (has_class(w.classes, InputClass::NaN) && w.output.value == -INFINITY) nan_witness = true;
  CHECK(nan_witness);
  CHECK_THAT(c.run.output, Catch::Contains("wrong special values"));
}

TEST_CASE("integer Div: divisor 0 is not fed by default, run on request it is a reproducible crash", "[cli][faults]") {
  auto c = run_campaign_text("intdiv", campaign({kernel_entry("c_div_int32", "INT32")}), "-q");
  INFO(c.run.output);
  CHECK(c.run.status == 1);
  const CheckResult& k = check_named(c.result, "c_div_int32");
  // no divisor 0 is fed; INT32_MIN / -1 (signed overflow, also undefined in C)
  // still traps on x86: a crash with that one input as reproducer
  CHECK(k.verdict == Verdict::Crashed);
  REQUIRE(k.fault);
  CHECK(k.fault->reproducer_size == 1);
  CHECK(k.fault->reproducer[0][0].value == -2147483648.0);
  CHECK(k.fault->reproducer[0][1].value == -1);

  c = run_campaign_text("intdiv-run",
                        campaign({kernel_entry("c_div_int32", "INT32")}, ", \"undefined_inputs\": \"run\""), "-q");
  INFO(c.run.output);
  const CheckResult& r = check_named(c.result, "c_div_int32");
  CHECK(r.verdict == Verdict::Crashed);
  REQUIRE(r.fault);
  CHECK_THAT(r.fault->message, Catch::Contains("SIGFPE"));
  CHECK(r.fault->reproducer_size == 1);
  CHECK((r.fault->reproducer[0][1].value == 0 || r.fault->reproducer[0][1].value == -1));
}

TEST_CASE("a throwing C++ kernel is a crash with its message", "[cli][faults]") {
  const auto dir = temp_dir("throwing-lib");
  const auto so = dir / "libthrow.so";
  const auto cc = run_command("c++ -shared -fPIC -O1 -o " + so.string() + " " + kKernels + "throwing_kernel.cpp");
  INFO(cc.output);
  REQUIRE(cc.status == 0);
  const auto c = run_campaign_text(
      "throwing", campaign({R"({"library": ")" + so.string() +
                            R"(", "symbol": "throwing_div", "operator": "Div", "type": "FP32"})"}),
      "-q");
  INFO(c.run.output);
  CHECK(c.run.status == 1);
  CHECK_THAT(c.run.output, Catch::Contains("CRASHED") && Catch::Contains("division by zero refused"));
  REQUIRE(c.result.checks.size() == 1);
  CHECK(c.result.checks[0].verdict == Verdict::Crashed);
  CHECK(c.result.checks[0].fault->kind == "exception");
}

TEST_CASE("keep_special_values: false is honoured without min/max", "[cli][campaign]") {
  const auto c = run_campaign_text(
      "keep-special", campaign({kernel_entry("good_div")}, ", \"inputs\": {\"keep_special_values\": false}"), "-q");
  INFO(c.run.output);
  CHECK(c.run.status == 0);
  REQUIRE(c.result.checks.size() == 1);
  const Evidence& e = c.result.checks[0].evidence;
  CHECK(e.inputs_checked > 0);
  CHECK(e[InputClass::NaN].checked == 0);
  CHECK(e[InputClass::Inf].checked == 0);
}

TEST_CASE("symerr's own kernels with the audit: exit status 3 and the headline", "[cli][subjects]") {
  const auto c = run_campaign_text("own-audit",
                                   R"({"operators": ["Div", "Sub"], "formats": ["FP32", "INT8"],
                                       "random_count": 2000, "audit": true})",
                                   "-q -j 2");
  INFO(c.run.output);
  CHECK(c.run.status == 3);
  CHECK_THAT(c.run.output, Catch::StartsWith("symerr's own kernels: no check failed, ") && Catch::Contains("; the seed specifications contain "));
  for (const auto& check : c.result.checks) {
    INFO(check.id);
    CHECK(!check.requirements.empty());
    for (const auto& req : check.requirements) CHECK(req.find('/') != std::string::npos);  // section-qualified
  }
  CHECK_THAT(read_text(c.out / "report.md"), Catch::Contains("| Div/float/[C3] |") && Catch::Contains("## Hypotheses"));
  const auto j = nlohmann::json::parse(read_text(c.out / "report.json"));
  bool traced = false;
  for (const auto& t : j.at("traceability"))
    if (t.at("requirement") == "Sub/float/[C3]") traced = t.at("checks").size() == 1 && t.at("verdict") == "passed_on_samples";
  CHECK(traced);
  CHECK(j.at("exit_status") == 3);
  CHECK(!j.at("hypotheses").empty());
}

TEST_CASE("the default campaign: exit status 3, the headline, requirement IDs everywhere", "[.][cli][subjects][long]") {
  const auto dir = temp_dir("default-campaign");
  const auto r = run_command(symerr_exe() + " run -q -o " + (dir / "out").string());
  INFO(r.output);
  CHECK(r.status == 3);
  CHECK_THAT(r.output, Catch::StartsWith("symerr's own kernels: no check failed, ") && Catch::Contains("; the seed specifications contain "));
  const CampaignResult res = read_report(dir / "out/report.json");
  for (const auto& c : res.checks) {
    INFO(c.id);
    CHECK(!c.requirements.empty());
  }
  CHECK_THAT(read_text(dir / "out/report.html"), Catch::Contains("<table id=\"traceability\">"));
}

// ---- bad input: status 2 and a message naming the file and the place ------------------

TEST_CASE("bad campaign files: each a clear error with status 2", "[cli][badinput]") {
  const auto dir = temp_dir("bad-input");
  auto run_file = [&](const std::string& name, const std::string& text) {
    write_text(dir / name, text);
    return run_command("timeout 60 " + symerr_exe() + " run " + (dir / name).string() + " -q -o " + (dir / "out").string());
  };
  SECTION("nested 100 000 deep") {
    const auto r = run_file("deep.json", std::string(100000, '[') + std::string(100000, ']'));
    CHECK(r.status == 2);
    CHECK_THAT(r.output, Catch::Contains("deep.json") && Catch::Contains("nesting deeper than 64"));
  }
  SECTION("a duplicated key") {
    const auto r = run_file("dup.json", R"({"operators": ["Div"], "formats": ["FP32"], "operators": ["Add"]})");
    CHECK(r.status == 2);
    CHECK_THAT(r.output, Catch::Contains("dup.json:1:") && Catch::Contains("duplicate key \"operators\""));
  }
  SECTION("1e400") {
    const auto r = run_file("big.json", "{\"operators\": [\"Div\"], \"formats\": [\"FP32\"],\n \"bound\": {\"ulp\": 1e400}}");
    CHECK(r.status == 2);
    CHECK_THAT(r.output, Catch::Contains("big.json:2:") && Catch::Contains("1e400 is out of the range"));
  }
  SECTION("a huge wrong-typed value is not echoed") {
    const auto r = run_file("huge.json", "{\"name\": \"x\", \"seed\": \"" + std::string(1 << 20, 'z') + "\", \"audit\": true}");
    CHECK(r.status == 2);
    CHECK_THAT(r.output, Catch::Contains("at /seed: expected a non-negative integer") && Catch::Contains("characters)"));
    CHECK(r.output.size() < 2000);
  }
  SECTION("random_count 10^12") {
    const auto r = run_file("count.json", R"({"operators": ["Div"], "formats": ["FP32"], "random_count": 1000000000000})");
    CHECK(r.status == 2);
    CHECK_THAT(r.output, Catch::Contains("at /random_count") && Catch::Contains("more than the limit"));
  }
  SECTION("strategies []") {
    const auto r = run_file("none.json", R"({"operators": ["Div"], "formats": ["FP32"], "strategies": []})");
    CHECK(r.status == 2);
    CHECK_THAT(r.output, Catch::Contains("at /strategies: empty"));
  }
  SECTION("/dev/zero is bounded") {
    const auto r = run_command("timeout 60 " + symerr_exe() + " run /dev/zero -q -o " + (dir / "out").string());
    CHECK(r.status == 2);
    CHECK_THAT(r.output, Catch::Contains("/dev/zero: larger than 16 MiB"));
  }
  CHECK(!fs::exists(dir / "out/report.json"));  // no report for a rejected campaign
}

TEST_CASE("symerr report: no checks, negative and huge counts are input errors", "[cli][badinput]") {
  const auto dir = temp_dir("bad-report");
  auto report = [&](const std::string& name, const std::string& text) {
    write_text(dir / name, text);
    return run_command(symerr_exe() + " report " + (dir / name).string() + " -q -o " + (dir / "out").string());
  };
  auto r = report("empty.json", R"({"schema_version": "2.0.0", "checks": []})");
  CHECK(r.status == 2);
  CHECK_THAT(r.output, Catch::Contains("no checks"));
  const std::string check = R"({"id": "x", "verdict": "proven", "evidence": {"inputs_checked": COUNT}})";
  auto with_count = [&](const std::string& count) {
    std::string c = check;
    c.replace(c.find("COUNT"), 5, count);
    return R"({"schema_version": "2.0.0", "checks": [)" + c + "]}";
  };
  r = report("negative.json", with_count("-5"));
  CHECK(r.status == 2);
  CHECK_THAT(r.output, Catch::Contains("non-negative integer count, got -5"));
  r = report("huge.json", with_count("1e300"));
  CHECK(r.status == 2);
  CHECK_THAT(r.output, Catch::Contains("non-negative integer count"));
  r = report("deep.json", std::string(100000, '[') + std::string(100000, ']'));
  CHECK(r.status == 2);
  r = report("ok.json", with_count("5"));
  CHECK(r.status == 0);
}

TEST_CASE("reports are written atomically: on failure the old ones are untouched", "[report][atomic]") {
  const auto dir = temp_dir("atomic");
  CampaignResult first;
  first.name = "first";
  CheckResult c;
  c.id = "one";
  c.verdict = Verdict::Proven;
  first.checks = {c};
  write_reports(first, dir);
  const std::string before = read_text(dir / "report.json");
  CampaignResult second = first;
  second.name = "second";
  // the Markdown temporary cannot be created: a directory is in its place
  fs::create_directories(dir / ("report.md.tmp-" + std::to_string(::getpid())) / "blocker");
  CHECK_THROWS_WITH(write_reports(second, dir), Catch::Contains("report.md") && Catch::Contains("untouched"));
  CHECK(read_text(dir / "report.json") == before);
  CHECK(!fs::exists(dir / ("report.json.tmp-" + std::to_string(::getpid()))));
  fs::remove_all(dir / ("report.md.tmp-" + std::to_string(::getpid())));
  write_reports(second, dir);
  CHECK(read_text(dir / "report.json") != before);
}
