// Without --output, symerr writes its reports to ./report in the current
// directory: an installed tool never writes into the tree it was built from.
#include <catch2/catch.hpp>

#include <symerr/verify/report/report.hpp>

#include "fixture.hpp"
#include "util.hpp"

using namespace symerr::verify;
using namespace symerr::verify::test;

TEST_CASE("symerr: the default report directory is ./report in the current directory", "[cli]") {
  const auto dir = temp_dir("cli-default-output");
  write_reports(golden_campaign(), dir / "in");
  std::filesystem::create_directories(dir / "cwd");
  const auto r = run_command("cd '" + (dir / "cwd").string() + "' && " + symerr_exe() + " report " +
                             (dir / "in/report.json").string());
  INFO(r.output);
  CHECK(r.status == 1);  // the golden campaign has violations
  CHECK(std::filesystem::exists(dir / "cwd/report/report.json"));
  CHECK(std::filesystem::exists(dir / "cwd/report/report.html"));
  CHECK(read_text(dir / "cwd/report/report.md") == render_markdown(golden_campaign()));
  CHECK_THAT(r.output, Catch::Contains((dir / "cwd/report/report.json").string()));
}
