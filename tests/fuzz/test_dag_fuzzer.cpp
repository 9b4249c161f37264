// The DAG fuzzer's test cases: the default run (>= 10^5 DAG executions over
// the four domains), the [long] run (>= 10^7), and planted bugs it must catch.
#include <catch2/catch.hpp>

#include <iostream>

#include <symerr/domains/affine.hpp>
#include <symerr/domains/interval.hpp>
#include <symerr/domains/mpfr_interval.hpp>
#include <symerr/domains/rational_interval.hpp>
#include <symerr/domains/symbolic_instances.hpp>  // the library's instantiations (compile time)

#include "fuzz/dag_fuzzer.hpp"

using namespace symerr;
using namespace symerr::fuzz;

namespace {

template <RealDomain D>
Report run(const char* domain, std::uint64_t seed, long dags, int samples) {
  const Report rep = run_fuzzer<D>(seed, dags, samples, domain);
  std::cout << "fuzz " << domain << ": " << rep.dags << " DAGs, " << rep.executions << " executions, "
            << rep.node_checks << " node checks, " << rep.comparisons << " certain-comparison checks, "
            << rep.env_compared << " DAGs re-run under the default environment, " << rep.skipped
            << " skipped\n";
  if (rep.failures) std::cout << rep.first_failure;
  return rep;
}

void print_families(const std::vector<Report>& reps) {
  std::map<std::string, long> per;
  for (const Report& r : reps)
    for (const auto& [k, v] : r.per_family) per[k] += v;
  std::cout << "executions per format / mode / domain:\n";
  for (const auto& [k, v] : per) std::cout << "  " << k << ": " << v << "\n";
}

long scaled(double n) { return std::max(1L, static_cast<long>(n * test::test_scale())); }

}  // namespace

TEST_CASE("DAG fuzzer: random expression DAGs agree with exact executions (every format, mode, domain)",
          "[fuzz]") {
  std::vector<Report> reps;
  reps.push_back(run<Interval>("Interval", 11, scaled(14000), 4));
  reps.push_back(run<MpfrInterval>("MpfrInterval", 12, scaled(7000), 4));
  reps.push_back(run<RationalInterval>("RationalInterval", 13, scaled(7000), 4));
  reps.push_back(run<Affine>("Affine", 14, scaled(7000), 4));
  long executions = 0;
  for (const Report& r : reps) {
    CHECK(r.failures == 0);
    executions += r.executions;
  }
  if (test::test_scale() >= 1) CHECK(executions >= 100000);
}

TEST_CASE("DAG fuzzer: long run, >= 10^7 DAG executions", "[.][fuzz][long]") {
  std::vector<Report> reps;
  reps.push_back(run<Interval>("Interval", 101, 730000, 8));
  reps.push_back(run<MpfrInterval>("MpfrInterval", 102, 300000, 8));
  reps.push_back(run<RationalInterval>("RationalInterval", 103, 300000, 8));
  reps.push_back(run<Affine>("Affine", 104, 300000, 8));
  long executions = 0;
  for (const Report& r : reps) {
    CHECK(r.failures == 0);
    executions += r.executions;
  }
  print_families(reps);
  std::cout << "total executions: " << executions << "\n";
  CHECK(executions >= 10000000);
}

// Planted bugs: the fuzzer must find each within a small budget.
TEST_CASE("DAG fuzzer: catches a halved introduced-error bound", "[fuzz]") {
  const Mutator<Interval> halve = [](SymbolicDomainError<Interval>& z) {
    if (z.is_float() && is_bounded(z.introduced)) z.introduced = z.introduced * Interval::point(0.5);
  };
  const Report rep = run_fuzzer<Interval>(7, 4000, 4, "Interval", halve);
  REQUIRE(rep.failures > 0);
  CHECK(rep.first_failure.find("not in introduced") != std::string::npos);
  CHECK(rep.first_failure.find("DAG") != std::string::npos);
  std::cout << "planted bug (introduced halved) found after " << rep.dags << " DAGs:\n" << rep.first_failure;
}

TEST_CASE("DAG fuzzer: catches a lost negative-zero flag and a tightened err", "[fuzz]") {
  const Mutator<Interval> no_neg_zero = [](SymbolicDomainError<Interval>& z) { z.specials.may_be_neg_zero = false; };
  const Report a = run_fuzzer<Interval>(8, 20000, 4, "Interval", no_neg_zero);
  REQUIRE(a.failures > 0);
  CHECK(a.first_failure.find("-0 not flagged") != std::string::npos);
  const Mutator<Interval> shrink_err = [](SymbolicDomainError<Interval>& z) {
    if (is_bounded(z.err) && !is_point(z.err))
      z.err = Interval::between(z.err.lower() * 0.9 + z.err.upper() * 0.1, z.err.upper());
  };
  const Report b = run_fuzzer<Interval>(9, 4000, 4, "Interval", shrink_err);
  REQUIRE(b.failures > 0);
  CHECK(b.first_failure.find("not in err") != std::string::npos);
}
