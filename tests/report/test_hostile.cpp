// Issue 48 through the symerr executable: hostile kernels (unary ones in the
// sandbox, forks, out-of-bounds writes, constructors, memory hogs), inputs
// that would run nothing, limits below their floor, budgets, and the FP64
// multiplication that unit_roundoff used to call violated. Each row shows the
// documented verdict or error, and the next kernel's result intact.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <unistd.h>

#include <fstream>

#include <nlohmann/json.hpp>

#include <symerr/verify/report/report.hpp>

#include "fixture.hpp"
#include "schema_check.hpp"
#include "util.hpp"

using namespace symerr::verify;
using namespace symerr::verify::test;
namespace fs = std::filesystem;

namespace {

const std::string kKernels = SYMERR_SOURCE_DIR "/tests/report/kernels/";

fs::path build_library(const std::string& name, const std::string& source, const std::string& flags = "") {
  const auto dir = temp_dir("hostile-lib-" + name);
  const auto lib = dir / ("lib" + name + ".so");
  const auto r = run_command("cc -shared -fPIC -O1 " + flags + " -o " + lib.string() + " " + kKernels + source + " -lm");
  INFO(r.output);
  REQUIRE(r.status == 0);
  return lib;
}

const fs::path& hostile_library() {
  static const fs::path so = build_library("hostile", "hostile_kernels.c");
  return so;
}

std::string unary_entry(const std::string& symbol, const std::string& strategies = R"(["special", "boundary"])") {
  return R"({"form": "unary", "library": ")" + hostile_library().string() + R"(", "symbol": ")" + symbol +
         R"(", "operator": "Sqrt", "type": "FP32", "strategies": )" + strategies + "}";
}
std::string binary_entry(const std::string& symbol, const std::string& type = "FP32", const std::string& op = "Div") {
  return R"({"library": ")" + hostile_library().string() + R"(", "symbol": ")" + symbol + R"(", "operator": ")" +
         op + R"(", "type": ")" + type + R"("})";
}

std::string campaign(const std::vector<std::string>& kernels, const std::string& extra = "") {
  std::string list;
  for (const auto& k : kernels) list += (list.empty() ? "" : ",\n  ") + k;
  return "{\"name\": \"hostile\", \"seed\": 3, \"kernels\": [\n  " + list +
         "],\n \"strategies\": [\"special_grid\", \"random\"], \"random_count\": 2000" + extra + "}";
}

struct CampaignRun {
  Run run;
  CampaignResult result;
  fs::path out;
};

CampaignRun run_text(const std::string& name, const std::string& body, const std::string& flags = "-q",
                     const std::string& env = "") {
  const auto dir = temp_dir(name);
  write_text(dir / "campaign.json", body);
  CampaignRun c;
  c.out = dir / "out";
  c.run = run_command(env + symerr_exe() + " run " + (dir / "campaign.json").string() + " -o " + c.out.string() +
                      " " + flags);
  if (fs::exists(c.out / "report.json")) c.result = read_report(c.out / "report.json");
  return c;
}

const CheckResult& check_named(const CampaignResult& r, const std::string& kernel) {
  for (const auto& c : r.checks)
    if (c.kernel == kernel) return c;
  FAIL("no check of kernel " << kernel);
  throw std::logic_error("unreachable");
}

// A process that exists and is not a zombie.
bool alive(int pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string pid_s, comm, state;
  if (!(stat >> pid_s >> comm >> state)) return false;
  return state != "Z" && state != "X";
}

}  // namespace

TEST_CASE("hostile unary kernels run in the sandbox: segfault, exit(0), endless loop", "[cli][hostile][unary]") {
  const auto c = run_text("hostile-unary",
                          campaign({unary_entry("segv_sqrtf"), unary_entry("exit_sqrtf"), unary_entry("loop_sqrtf"),
                                    unary_entry("good_sqrtf")},
                                   ", \"time_limit_seconds\": 0.5"));
  INFO(c.run.output);
  CHECK(c.run.status == 1);
  REQUIRE(c.result.checks.size() == 4);
  const CheckResult& segv = check_named(c.result, "segv_sqrtf");
  CHECK(segv.verdict == Verdict::Crashed);
  REQUIRE(segv.fault);
  CHECK_THAT(segv.fault->message, Catch::Contains("SIGSEGV"));
  CHECK(segv.fault->reproducer_size == 1);  // bisected to one negative input
  REQUIRE(segv.fault->reproducer.size() == 1);
  CHECK(segv.fault->reproducer[0][0].value < 0);
  const CheckResult& ex = check_named(c.result, "exit_sqrtf");
  CHECK(ex.verdict == Verdict::Crashed);
  REQUIRE(ex.fault);
  CHECK(ex.fault->kind == "exit");
  const CheckResult& loop = check_named(c.result, "loop_sqrtf");
  CHECK(loop.verdict == Verdict::TimedOut);
  CHECK(check_named(c.result, "good_sqrtf").verdict == Verdict::PassedOnSamples);
  CHECK_THAT(check_named(c.result, "good_sqrtf").fp_environment, Catch::Contains("in a child process"));
}

TEST_CASE("unary kernels that leave the FP state changed: judged under the library's state", "[cli][hostile][unary]") {
  const auto c = run_text("hostile-fpstate", campaign({unary_entry("ftz_sqrtf"), unary_entry("up_sqrtf"),
                                                       unary_entry("good_sqrtf")}));
  INFO(c.run.output);
  CHECK(c.run.status == 1);
  const CheckResult& ftz = check_named(c.result, "ftz_sqrtf");
  CHECK(ftz.verdict == Verdict::Violated);  // sqrt of a subnormal flushed to 0: no false pass
  CHECK_THAT(ftz.fp_environment, Catch::Contains("leaves FTZ+DAZ set"));
  const CheckResult& up = check_named(c.result, "up_sqrtf");
  CHECK(up.verdict == Verdict::PassedOnSamples);  // each call starts in RNE
  CHECK_THAT(up.fp_environment, Catch::Contains("leaves rounding upward"));
  const CheckResult& good = check_named(c.result, "good_sqrtf");
  CHECK(good.verdict == Verdict::PassedOnSamples);
  // evidence of a unary check: errors and input classes filled
  CHECK(good.evidence.max_ulp_error > 0);
  CHECK(good.evidence.max_abs_error > 0);
  CHECK(good.evidence.max_rel_error > 0);
  CHECK(good.evidence[InputClass::Normal].checked > 0);
  CHECK(good.evidence[InputClass::Subnormal].checked > 0);
  CHECK(ftz.evidence[InputClass::Subnormal].failed > 0);
}

TEST_CASE("kernels that fork: both processes returning, a forked sleeper, a forked crash", "[cli][hostile][fork]") {
  const auto dir = temp_dir("hostile-fork-pids");
  const auto pids = dir / "pids.txt";
  const auto c = run_text("hostile-fork",
                          campaign({binary_entry("fork_div"), binary_entry("fork_segv_div"),
                                    unary_entry("fork_sqrtf"), unary_entry("sleeper_sqrtf"), binary_entry("good_div")}),
                          "-q -j 1", "HOSTILE_PID_FILE=" + pids.string() + " ");
  INFO(c.run.output);
  CHECK(c.run.status == 0);
  REQUIRE(c.result.checks.size() == 5);
  for (const auto& k : c.result.checks) {
    INFO(k.kernel << ": " << k.reason);
    CHECK(k.verdict == Verdict::PassedOnSamples);
  }
  // the sleeper died with its sandbox's process group
  std::ifstream in(pids);
  int pid = 0, n = 0;
  while (in >> pid) {
    ++n;
    CHECK_FALSE(alive(pid));
    if (alive(pid)) ::kill(pid, SIGKILL);
  }
  CHECK(n >= 1);
}

TEST_CASE("out-of-bounds writes past outputs and into inputs are crashed verdicts", "[cli][hostile][guard]") {
  const auto c = run_text("hostile-guard", campaign({binary_entry("overflow_div"), unary_entry("overflow_sqrtf"),
                                                     unary_entry("scribble_sqrtf"), binary_entry("good_div")}));
  INFO(c.run.output);
  CHECK(c.run.status == 1);
  for (const char* name : {"overflow_div", "overflow_sqrtf", "scribble_sqrtf"}) {
    const CheckResult& k = check_named(c.result, name);
    INFO(name << ": " << k.reason);
    CHECK(k.verdict == Verdict::Crashed);
    REQUIRE(k.fault);
    CHECK(k.fault->kind == "memory");
  }
  CHECK_THAT(check_named(c.result, "overflow_div").fault->message, Catch::Contains("past the end of its output y"));
  CHECK_THAT(check_named(c.result, "scribble_sqrtf").fault->message, Catch::Contains("into its input a"));
  CHECK(check_named(c.result, "good_div").verdict == Verdict::PassedOnSamples);
  // the fault kind "memory" is in the report schema
  SchemaCheck schema(nlohmann::json::parse(read_text(fs::path(SYMERR_SOURCE_DIR) / "verify/schema/report.schema.json")));
  const auto errors = schema.validate(nlohmann::json::parse(read_text(c.out / "report.json")));
  for (const auto& e : errors) UNSCOPED_INFO(e);
  CHECK(errors.empty());
}

TEST_CASE("a kernel that allocates without bound fails inside its memory limit", "[cli][hostile][memory]") {
  const auto c = run_text("hostile-memory", campaign({unary_entry("hog_sqrtf"), unary_entry("good_sqrtf")},
                                                     ", \"memory_limit_mb\": 256"));
  INFO(c.run.output);
  CHECK(c.run.status == 1);
  CHECK(check_named(c.result, "hog_sqrtf").verdict == Verdict::Crashed);
  CHECK(check_named(c.result, "good_sqrtf").verdict == Verdict::PassedOnSamples);
}

TEST_CASE("a library whose constructor exits, crashes or hangs: exit 2 naming the file and the entry",
          "[cli][hostile][constructor]") {
  const struct {
    const char* macro;
    const char* says;
  } cases[] = {{"CTOR_EXIT", "exit status 0"}, {"CTOR_SEGV", "SIGSEGV"}, {"CTOR_LOOP", "did not finish within 1 s"}};
  for (const auto& k : cases) {
    INFO(k.macro);
    const auto lib = build_library(std::string("ctor-") + k.macro, "hostile_ctor.c", std::string("-D") + k.macro);
    const auto c = run_text("hostile-ctor",
                            R"({"kernels": [{"library": ")" + lib.string() +
                                R"(", "symbol": "good_div", "operator": "Div", "type": "FP32"}], "time_limit_seconds": 1})");
    INFO(c.run.output);
    CHECK(c.run.status == 2);
    CHECK_THAT(c.run.output, Catch::Contains("campaign.json: at /kernels/0") && Catch::Contains(k.says) &&
                                 Catch::Contains("constructors"));
    CHECK_FALSE(fs::exists(c.out / "report.json"));
  }
}

TEST_CASE("FP64: a correct multiplication under unit_roundoff passes (subnormal results included)",
          "[cli][hostile][bound]") {
  const auto c = run_text("hostile-mul64",
                          R"({"kernels": [)" + binary_entry("mul_f64", "FP64", "Mul") +
                              R"(], "bound": "unit_roundoff", "strategies": ["special_grid", "boundary", "random"],
                                "random_count": 100000})");
  INFO(c.run.output);
  CHECK(c.run.status == 0);
  const CheckResult& k = check_named(c.result, "mul_f64");
  CHECK(k.verdict == Verdict::PassedOnSamples);
  CHECK(k.evidence.failures == 0);
  CHECK(k.evidence[InputClass::Subnormal].checked > 1000);
}

TEST_CASE("checks that would run no input, limits below their floor, budgets, bad seeds: exit 2 naming why",
          "[cli][hostile][inputs]") {
  const struct {
    const char* body;
    const char* says;
  } cases[] = {
      {R"({"operators": ["Div"], "formats": ["FP32"], "strategies": ["exhaustive"]})",
       "at /strategies: only \"exhaustive\""},
      {R"({"operators": ["Div"], "formats": ["FP16"], "inputs": {"min": 1e6, "keep_special_values": false}})",
       "at /inputs: the range of magnitudes holds no finite value of FP16"},
      {R"({"operators": ["Div"], "formats": ["FP32"], "inputs": {"max": -1}})", "at /inputs/max: a magnitude"},
      {R"({"operators": ["Add"], "formats": ["INT8"], "inputs": {"min": 200}})",
       "holds no finite value of INT8"},
      {R"({"operators": ["Div"], "formats": ["FP32"], "time_limit_seconds": 0.001})",
       "below the floor of 0.1 s"},
      {R"({"operators": ["Div"], "formats": ["FP32"], "random_count": 100000000, "budget": {"max_executions": 1000}})",
       "at /budget/max_executions"},
      {R"({"operators": ["Div", "Add", "Div"], "formats": ["FP32"]})", "at /operators/2: \"Div\" is listed twice"},
  };
  for (const auto& k : cases) {
    INFO(k.body);
    const auto c = run_text("hostile-inputs", k.body);
    INFO(c.run.output);
    CHECK(c.run.status == 2);
    CHECK_THAT(c.run.output, Catch::Contains(k.says));
  }
  const auto seed = run_text("hostile-seed", R"({"operators": ["Div"], "formats": ["FP32"]})", "-q --seed -1");
  CHECK(seed.run.status == 2);
  CHECK_THAT(seed.run.output, Catch::Contains("non-negative integer"));
  // an integer range is applied (not ignored): INT8 Add on |x| <= 3 only, sampled
  const auto r = run_text("hostile-int-range", R"({"operators": ["Add"], "formats": ["INT8"], "inputs": {"max": 3}})");
  INFO(r.run.output);
  CHECK(r.run.status == 0);
  REQUIRE(r.result.checks.size() == 1);
  CHECK(r.result.checks[0].verdict == Verdict::PassedOnSamples);
  CHECK(r.result.checks[0].evidence.inputs_checked == 49);
}

TEST_CASE("report.md escapes what report.html escapes, symerr report refuses tampered verdicts and repeated keys",
          "[cli][hostile][report]") {
  const auto c = run_text("hostile-report",
                          R"({"name": "<script>alert(1)</script>", "kernels": [{"name": "<img src=x onerror=alert(2)>",
                               "library": ")" + hostile_library().string() +
                              R"(", "symbol": "good_div", "operator": "Div", "type": "FP32"}],
                              "strategies": ["special_grid", "random"], "random_count": 1000})");
  INFO(c.run.output);
  REQUIRE(c.run.status == 0);
  const std::string md = read_text(c.out / "report.md");
  CHECK(md.find("<script>") == std::string::npos);
  CHECK(md.find("<img") == std::string::npos);
  CHECK_THAT(md, Catch::Contains("&lt;script&gt;"));

  const std::string original = read_text(c.out / "report.json");
  auto report_of = [&](const std::string& name, const std::string& text) {
    const auto dir = temp_dir(name);
    write_text(dir / "report.json", text);
    return run_command(symerr_exe() + " report " + (dir / "report.json").string() + " -o " + (dir / "out").string());
  };
  CHECK(report_of("hostile-report-intact", original).status == 0);  // the untouched report is accepted
  // failures kept, verdict left "passed on samples"
  auto j = nlohmann::json::parse(original);
  j["checks"][0]["evidence"]["failures"] = 3;
  const Run failures = report_of("hostile-report-failures", j.dump(2));
  INFO(failures.output);
  CHECK(failures.status == 2);
  CHECK_THAT(failures.output, Catch::Contains("check concrete/Div/FP32/") &&
                                  Catch::Contains("with 3 failures in its evidence"));
  // a crashed check edited to "proven", its fault kept
  j = nlohmann::json::parse(original);
  j["checks"][0]["verdict"] = "proven";
  j["checks"][0]["fault"] = {{"kind", "signal"}, {"message", "killed"}, {"batch_size", 1}, {"reproducer_size", 1},
                             {"reproduced", true}, {"reproducer", nlohmann::json::array()}};
  const Run proven = report_of("hostile-report-proven", j.dump(2));
  INFO(proven.output);
  CHECK(proven.status == 2);
  CHECK_THAT(proven.output, Catch::Contains("verdict \"proven\""));
  // a repeated "verdict" key (a parser keeps one of them)
  std::string dup = original;
  const auto at = dup.find("\"verdict\": \"passed_on_samples\"");
  REQUIRE(at != std::string::npos);
  dup.insert(at, "\"verdict\": \"violated\", ");
  const Run repeated = report_of("hostile-report-dup", dup);
  INFO(repeated.output);
  CHECK(repeated.status == 2);
  CHECK_THAT(repeated.output, Catch::Contains("the key \"verdict\" appears twice"));
}

TEST_CASE("SIGINT and SIGTERM during a run: a partial report, the documented status, no temporary file",
          "[cli][hostile][interrupt]") {
  for (const auto& [sig, status] : {std::pair<const char*, int>{"INT", 130}, {"TERM", 143}}) {
    INFO(sig);
    const auto dir = temp_dir(std::string("hostile-interrupt-") + sig);
    // 400,000 random inputs at 0.1 s per call of the slow kernel: far longer than the signal's delay
    std::string body = campaign({binary_entry("slow_div"), binary_entry("good_div")});
    body.replace(body.find("\"random_count\": 2000"), 20, "\"random_count\": 400000");
    write_text(dir / "campaign.json", body);
    const auto out = dir / "out";
    const Run r = run_command("(" + symerr_exe() + " run " + (dir / "campaign.json").string() + " -o " +
                              out.string() + " -j 1 -q & p=$!; sleep 2; kill -" + sig + " $p; wait $p; echo status=$?)");
    INFO(r.output);
    CHECK_THAT(r.output, Catch::Contains("status=" + std::to_string(status)));
    CHECK_THAT(r.output, Catch::Contains(std::string("interrupted by SIG") + sig + ": partial report"));
    REQUIRE(fs::exists(out / "report.json"));
    const CampaignResult res = read_report(out / "report.json");
    REQUIRE(res.checks.size() == 2);
    CHECK(res.checks[0].verdict == Verdict::Inconclusive);
    CHECK_THAT(res.checks[0].reason, Catch::StartsWith(std::string("interrupted by SIG") + sig + " after"));
    CHECK(res.checks[0].evidence.inputs_checked > 0);
    CHECK(res.checks[1].verdict == Verdict::Inconclusive);
    CHECK_THAT(res.checks[1].reason, Catch::StartsWith("not run: the run was interrupted"));
    for (const auto& e : fs::directory_iterator(out))
      CHECK(e.path().filename().string().find(".tmp") == std::string::npos);
  }
}

TEST_CASE("symerr unary runs the kernel in the sandbox: a segfault is a crash, the FP state is the library's",
          "[cli][hostile][unary]") {
  const auto lib = hostile_library().string();
  const Run segv = run_command(symerr_exe() + " unary " + lib + " segv_sqrtf --op Sqrt --type FP32 --strategy special");
  INFO(segv.output);
  CHECK(segv.status == 1);
  CHECK_THAT(segv.output, Catch::Contains("CRASHED: the kernel was killed by signal 11 (SIGSEGV"));
  const Run ftz = run_command(symerr_exe() + " unary " + lib + " ftz_sqrtf --op Sqrt --type FP32 --strategy special");
  INFO(ftz.output);
  CHECK(ftz.status == 1);  // sqrt of the smallest subnormal flushed to 0: judged against the exact reference
  CHECK_THAT(ftz.output, Catch::Contains("VIOLATED"));
  const Run good = run_command(symerr_exe() + " unary " + lib + " good_sqrtf --op Sqrt --type FP32 --strategy special");
  INFO(good.output);
  CHECK(good.status == 0);
}

TEST_CASE("a kernel's stdout and stderr are captured into the report, not mixed into symerr's", "[cli][hostile][output]") {
  const auto c = run_text("hostile-output", campaign({binary_entry("chatty_div"), binary_entry("good_div")}));
  INFO(c.run.output);
  CHECK(c.run.status == 0);
  CHECK(c.run.output.find("chatty_div:") == std::string::npos);
  CHECK(c.run.output.find("on stderr") == std::string::npos);
  const CheckResult& chatty = check_named(c.result, "chatty_div");
  CHECK(chatty.verdict == Verdict::PassedOnSamples);
  REQUIRE(chatty.semantics.count("kernel_output"));
  const std::string& out = chatty.semantics.at("kernel_output");
  CHECK_THAT(out, Catch::Contains("chatty_div: ") && Catch::Contains("chatty_div on stderr"));
  CHECK(out.size() < 2200);  // the first 2,048 bytes and the total
  CHECK(check_named(c.result, "good_div").semantics.count("kernel_output") == 0);
}

TEST_CASE("two runs into one output directory: the second is refused before it runs, the first's report intact",
          "[cli][hostile][lock]") {
  const auto dir = temp_dir("hostile-lock");
  const auto out = dir / "out";
  fs::create_directories(out);
  write_text(out / "report.json", "previous\n");
  {  // a run holding the lock (here: this test, as process 4242 says the file)
    const int fd = ::open((out / ".symerr-lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    REQUIRE(fd >= 0);
    REQUIRE(::flock(fd, LOCK_EX | LOCK_NB) == 0);
    REQUIRE(::write(fd, "4242\n", 5) == 5);
    write_text(dir / "campaign.json", campaign({binary_entry("good_div")}));
    const Run second = run_command(symerr_exe() + " run " + (dir / "campaign.json").string() + " -o " + out.string() + " -q");
    INFO(second.output);
    CHECK(second.status == 2);
    CHECK_THAT(second.output, Catch::Contains(out.string() + ": the report directory is in use by another symerr run "
                                                             "(process 4242)"));
    CHECK(read_text(out / "report.json") == "previous\n");
    ::close(fd);  // released: the next run takes the directory
  }
  const Run next = run_command(symerr_exe() + " run " + (dir / "campaign.json").string() + " -o " + out.string() + " -q");
  INFO(next.output);
  CHECK(next.status == 0);
  CHECK(read_report(out / "report.json").name == "hostile");

  // two real runs: the slow one holds the directory until it ends (interrupted here)
  std::string slow = campaign({binary_entry("slow_div")});
  slow.replace(slow.find("\"hostile\""), 9, "\"slow\"");
  slow.replace(slow.find("\"random_count\": 2000"), 20, "\"random_count\": 400000");
  write_text(dir / "slow.json", slow);
  const Run pair = run_command("(" + symerr_exe() + " run " + (dir / "slow.json").string() + " -o " + out.string() +
                               " -j 1 -q > /dev/null 2>&1 & p=$!; sleep 1; " + symerr_exe() + " run " +
                               (dir / "campaign.json").string() + " -o " + out.string() +
                               " -q; echo second=$?; kill -INT $p; wait $p; echo first=$?)");
  INFO(pair.output);
  CHECK_THAT(pair.output, Catch::Contains("in use by another symerr run") && Catch::Contains("second=2") &&
                              Catch::Contains("first=130"));
  const CampaignResult first = read_report(out / "report.json");
  CHECK(first.name == "slow");  // the first run's report, whole (its Markdown names the same campaign)
  CHECK_THAT(read_text(out / "report.md"), Catch::Contains("# symerr report: slow"));
}

TEST_CASE("report.json carries a digest of its content: symerr report refuses an edited report",
          "[cli][hostile][report][digest]") {
  const auto c = run_text("hostile-digest", campaign({binary_entry("good_div")}));
  INFO(c.run.output);
  REQUIRE(c.run.status == 0);
  const std::string original = read_text(c.out / "report.json");
  auto j = nlohmann::json::parse(original);
  REQUIRE(j.contains("content_sha256"));
  CHECK(j["content_sha256"].get<std::string>().size() == 64);
  auto report_of = [&](const std::string& name, const std::string& text) {
    const auto dir = temp_dir(name);
    write_text(dir / "report.json", text);
    return run_command(symerr_exe() + " report " + (dir / "report.json").string() + " -o " + (dir / "out").string());
  };
  // indentation does not matter: the digest is of the content
  CHECK(report_of("hostile-digest-indent", j.dump(4)).status == 0);
  // an edit the verdicts do not reveal: a smaller error, another CPU
  j["checks"][0]["evidence"]["max_ulp_error"] = 0.25;
  Run edited = report_of("hostile-digest-edit", j.dump(2));
  INFO(edited.output);
  CHECK(edited.status == 2);
  CHECK_THAT(edited.output, Catch::Contains("report.json: the content does not match its digest") &&
                                Catch::Contains("edited after symerr wrote it"));
  j = nlohmann::json::parse(original);
  j["environment"]["cpu_model"] = "another CPU";
  CHECK(report_of("hostile-digest-cpu", j.dump(2)).status == 2);
  // the digest removed from a report of this schema
  j = nlohmann::json::parse(original);
  j.erase("content_sha256");
  edited = report_of("hostile-digest-none", j.dump(2));
  INFO(edited.output);
  CHECK(edited.status == 2);
  CHECK_THAT(edited.output, Catch::Contains("has no \"content_sha256\""));
}

TEST_CASE("the item identified: the libraries it loads, the variables selecting code paths, absolute paths",
          "[cli][hostile][identity]") {
  const auto c = run_text("hostile-identity", campaign({binary_entry("good_div"), unary_entry("good_sqrtf")}), "-q",
                          "ONEDNN_MAX_CPU_ISA=AVX512_CORE OMP_NUM_THREADS=3 ");
  INFO(c.run.output);
  REQUIRE(c.run.status == 0);
  CHECK(c.result.environment.code_path_variables.count("ONEDNN_MAX_CPU_ISA"));
  CHECK(c.result.environment.code_path_variables.at("ONEDNN_MAX_CPU_ISA") == "AVX512_CORE");
  CHECK(c.result.environment.code_path_variables.at("OMP_NUM_THREADS") == "3");
  for (const auto& k : c.result.checks) {
    INFO(k.id);
    CHECK(fs::path(k.item.library).is_absolute());
    bool libm = false, libc = false;
    for (const auto& l : k.item.libraries) {
      CHECK(fs::path(l.path).is_absolute());
      CHECK(l.sha256.size() == 64);
      libm = libm || l.path.find("/libm.so") != std::string::npos;
      libc = libc || l.path.find("/libc.so") != std::string::npos;
      if (l.path.find("/libc.so") != std::string::npos) CHECK_THAT(l.package, Catch::StartsWith("libc6"));
    }
    CHECK(libm);
    CHECK(libc);
  }
  const std::string md = read_text(c.out / "report.md"), html = read_text(c.out / "report.html");
  for (const std::string* page : {&md, &html}) {
    CHECK_THAT(*page, Catch::Contains("libraries it loads: ") && Catch::Contains("libm.so.6"));
    CHECK_THAT(*page, Catch::Contains("ONEDNN_MAX_CPU_ISA=AVX512_CORE"));
  }
  const auto j = nlohmann::json::parse(read_text(c.out / "report.json"));
  bool hypothesis = false;
  for (const auto& h : j["hypotheses"])
    hypothesis = hypothesis || (h["title"] == "Item under test" &&
                                h["text"].get<std::string>().find("ONEDNN_MAX_CPU_ISA=AVX512_CORE") != std::string::npos);
  CHECK(hypothesis);
}

TEST_CASE("a unary sweep counts each input once and reports its progress in inputs", "[cli][hostile][unary][count]") {
  const auto c = run_text("hostile-unary-count",
                          R"({"kernels": [{"form": "unary", "symbol": "symerr::Sqrt", "operator": "Sqrt", "type": "FP16",
                              "strategies": ["special", "boundary", "random", "exhaustive"]}]})",
                          "-j 1");
  INFO(c.run.output);
  REQUIRE(c.run.status == 0);
  REQUIRE(c.result.checks.size() == 1);
  const CheckResult& k = c.result.checks[0];
  CHECK(k.verdict == Verdict::Proven);
  CHECK(k.evidence.inputs_checked == 65536);  // was 65536 + the special, boundary and random inputs
  std::uint64_t classes = 0;
  for (InputClass ic : {InputClass::Zero, InputClass::Subnormal, InputClass::Normal, InputClass::Inf,
                        InputClass::NaN})
    classes += k.evidence[ic].checked;
  CHECK(classes == 65536);
  std::uint64_t histogram = 0;  // the ulp errors of the ordinary inputs (the HTML's chart; was empty)
  for (auto n : k.evidence.histogram.counts) histogram += n;
  CHECK(histogram > 30000);
  CHECK(histogram <= 65536);
  CHECK_THAT(c.run.output, Catch::Contains("sweep 25.0% (16384 of 65536 inputs)") && Catch::Contains("s left"));
  CHECK_THAT(read_text(c.out / "report.md"), Catch::Contains("65,536"));
}

TEST_CASE("every report format shows the same counts and durations: metrics as counts, the HTML not dropping them",
          "[report][hostile][formats]") {
  CampaignResult r = golden_campaign();
  r.checks[0].evidence.metrics["not_correctly_rounded"] = 118674000;
  r.checks[0].evidence.metrics["mpfr_fallbacks"] = 2;
  r.checks[0].duration_seconds = 512.5;
  const std::string md = render_markdown(r), html = render_html(r);
  for (const std::string* page : {&md, &html}) {
    CHECK_THAT(*page, Catch::Contains("not_correctly_rounded: 118,674,000") && Catch::Contains("mpfr_fallbacks: 2") &&
                          Catch::Contains("duration: 512.5 s"));
    CHECK(page->find("1.18674e+08") == std::string::npos);
  }
}

TEST_CASE("a unary kernel named by a relative path: its item path is absolute", "[cli][hostile][identity]") {
  const auto dir = temp_dir("hostile-relative");
  fs::copy_file(hostile_library(), dir / "libhostile.so");
  write_text(dir / "c.json", R"({"kernels": [{"form": "unary", "library": "libhostile.so", "symbol": "good_sqrtf",
                                 "operator": "Sqrt", "type": "FP32", "strategies": ["special"]}]})");
  const Run r = run_command("cd " + dir.string() + " && " + symerr_exe() + " run c.json -o out -q");
  INFO(r.output);
  REQUIRE(r.status == 0);
  const CampaignResult res = read_report(dir / "out/report.json");
  REQUIRE(res.checks.size() == 1);
  CHECK(res.checks[0].item.library == fs::canonical(dir / "libhostile.so").string());
}
