// The driver's budget: every limit that changes a result is counted in work
// (runs, branches, boxes), so two calls give identical results; the
// wall-clock limit max_seconds is a safety limit that changes nothing when
// unreached and is reported as such when reached; every limit that stopped
// the analysis is named in the report (stopped_by, summary).
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include <symerr/verify/symbolic/driver.hpp>

using namespace symerr;
using S = SymbolicError;

namespace {

// A branch on a computed value, and a quotient whose bound subdivision
// tightens: a budget decides where the subdivision stops.
verify::DriverResult run_branchy(const verify::DriverOptions& opt) {
  const std::vector<S> in = {S::input(1, 2, -0x1p-20, 0x1p-20, FP32), S::input(1, 2, FP32)};
  return verify::run_kernel(
      [](std::span<S> x, std::span<S> y) {
        const S q = (x[0] - x[1]) / (x[0] + x[1]);
        y[0] = x[0] * x[1] < 2.25 ? q : S(q * 0.5);
      },
      in, 1, opt);
}

bool same_interval(const Interval& a, const Interval& b) {
  return (a.lower() == b.lower() || (std::isnan(a.lower()) && std::isnan(b.lower()))) &&
         (a.upper() == b.upper() || (std::isnan(a.upper()) && std::isnan(b.upper())));
}

bool same_value(const S& a, const S& b) {
  return same_interval(a.real, b.real) && same_interval(a.fp, b.fp) && same_interval(a.err, b.err) &&
         same_interval(a.rel_err, b.rel_err) && same_interval(a.propagated, b.propagated) &&
         same_interval(a.introduced, b.introduced) && symerr::detail::maybe_special(a) == symerr::detail::maybe_special(b);
}

// The report without its wall time (the one field that is not a result).
std::string report_of(verify::DriverReport r) {
  r.seconds = 0;
  return r.summary() + " | " + std::to_string(r.runs) + " " + std::to_string(r.paths) + " " +
         std::to_string(r.box_explorations) + " " + std::to_string(r.input_boxes) + " " +
         std::to_string(r.subdivision_budget_exhausted) + std::to_string(r.budget_exhausted) +
         std::to_string(r.runs_exhausted) + std::to_string(r.boxes_exhausted) + std::to_string(r.branches_exhausted) +
         std::to_string(r.time_exhausted);
}

void check_identical(const verify::DriverResult& a, const verify::DriverResult& b) {
  INFO(a.report.summary() << "\n" << b.report.summary() << "\n" << a.outputs[0] << "\n" << b.outputs[0]);
  REQUIRE(a.outputs.size() == b.outputs.size());
  for (std::size_t j = 0; j < a.outputs.size(); ++j) CHECK(same_value(a.outputs[j], b.outputs[j]));
  CHECK(report_of(a.report) == report_of(b.report));
}

}  // namespace

TEST_CASE("driver budget: two calls with a work budget give identical results", "[verify][driver][budget]") {
  verify::DriverOptions opt;
  opt.max_boxes = 20000;
  opt.max_runs = 300;  // stops the subdivision part-way: where, is decided by counted runs only
  const auto a = run_branchy(opt);
  const auto b = run_branchy(opt);
  CHECK(a.report.runs_exhausted);
  CHECK(a.report.input_boxes > 1);
  check_identical(a, b);
  // a wall-clock safety limit that is not reached changes nothing (it used to
  // select the subdivision's code path, and to stop it at a load-dependent box)
  verify::DriverOptions limited = opt;
  limited.max_seconds = 1e6;
  const auto c = run_branchy(limited);
  CHECK_FALSE(c.report.time_exhausted);
  check_identical(a, c);
  verify::DriverOptions plain;
  const auto d = run_branchy(plain);
  plain.max_seconds = 1e6;
  const auto e = run_branchy(plain);
  CHECK(d.report.box_explorations == 1);
  check_identical(d, e);
  CHECK(d.report.stopped_by().empty());
  CHECK(d.report.summary().find("stopped by") == std::string::npos);
}

TEST_CASE("driver budget: the limit that stopped the analysis is named", "[verify][driver][budget]") {
  SECTION("max_runs caps a large max_boxes") {
    verify::DriverOptions opt;
    opt.max_boxes = 20000;
    opt.max_runs = 200;
    const auto r = run_branchy(opt);
    INFO(r.report.summary());
    CHECK(r.report.subdivision_budget_exhausted);
    CHECK(r.report.input_boxes < opt.max_boxes);
    CHECK(r.report.runs_exhausted);
    CHECK_FALSE(r.report.boxes_exhausted);
    CHECK(r.report.stopped_by() == std::vector<std::string>{"max_runs"});
    CHECK(r.report.summary().find("stopped by max_runs (") != std::string::npos);
  }
  SECTION("max_boxes") {
    verify::DriverOptions opt;
    opt.max_boxes = 4;
    const auto r = run_branchy(opt);
    INFO(r.report.summary());
    CHECK(r.report.input_boxes == 4);
    CHECK(r.report.boxes_exhausted);
    CHECK_FALSE(r.report.runs_exhausted);
    CHECK(r.report.stopped_by() == std::vector<std::string>{"max_boxes"});
    CHECK(r.report.summary().find("stopped by max_boxes (4 boxes") != std::string::npos);
  }
  SECTION("max_boxes per lane") {
    std::vector<S> in;
    for (int i = 0; i < 4; ++i) in.push_back(S::input(1, 2, -0x1p-20, 0x1p-20, FP32));
    verify::DriverOptions opt;
    opt.max_boxes = 3;
    const std::size_t sizes[] = {4};
    verify::elementwise_lanes(opt, sizes, 4);
    const auto r = verify::run_kernel(
        [](std::span<S> x, std::span<S> y) {
          for (std::size_t i = 0; i < 4; ++i) y[i] = (x[i] - 1) / (x[i] + 1);
        },
        in, 4, opt);
    INFO(r.report.summary());
    CHECK(r.report.lane_subdivision);
    CHECK(r.report.boxes_exhausted);
    CHECK(r.report.stopped_by() == std::vector<std::string>{"max_boxes"});
  }
  SECTION("max_branches: a cut path leaves its outputs unbounded, and says so") {
    const std::vector<S> in = {S::input(-1, 3, FP32)};
    verify::DriverOptions opt;
    opt.max_branches = 5;
    const auto r = verify::run_kernel(
        [](std::span<S> a, std::span<S> b) {
          S x = a[0];
          for (int it = 0; it < 8 && x < 2; ++it) x = x + 0.0;
          b[0] = x;
        },
        in, 1, opt);
    INFO(r.report.summary() << "\n" << r.outputs[0]);
    CHECK(r.report.branches_exhausted);
    CHECK(r.report.budget_exhausted);
    CHECK(symerr::detail::maybe_special(r.outputs[0]));  // unbounded: sound
    CHECK(r.report.stopped_by() == std::vector<std::string>{"max_branches"});
    opt.max_branches = 9;  // enough: nothing cut
    const auto whole = verify::run_kernel(
        [](std::span<S> a, std::span<S> b) {
          S x = a[0];
          for (int it = 0; it < 8 && x < 2; ++it) x = x + 0.0;
          b[0] = x;
        },
        in, 1, opt);
    CHECK_FALSE(whole.report.branches_exhausted);
    CHECK(whole.report.stopped_by().empty());
  }
  SECTION("max_seconds: reported as a wall-clock safety limit") {
    const std::vector<S> in = {S::input(-1, 3, FP32)};
    verify::DriverOptions opt;
    opt.max_runs = 1000;
    opt.max_seconds = 0.05;
    const auto r = verify::run_kernel(
        [](std::span<S> a, std::span<S> b) {
          S x = a[0];
          for (int it = 0; it < 3000 && x < 2; ++it) x = x + 0.0;
          b[0] = x;
        },
        in, 1, opt);
    INFO(r.report.summary());
    CHECK(r.report.time_exhausted);
    const std::vector<std::string> limits = r.report.stopped_by();
    CHECK(std::find(limits.begin(), limits.end(), "max_seconds") != limits.end());
    CHECK(r.report.summary().find("wall-clock safety limit") != std::string::npos);
    CHECK(r.report.summary().find("not reproducible") != std::string::npos);
  }
}
