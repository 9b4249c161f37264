// The elementary-function DAG fuzzer (elementary_dag_fuzzer.hpp): the short
// run in the test command, the [long] run (>= 10^7 executions per domain),
// and planted bugs it must find.
#include <catch2/catch.hpp>

#include <iostream>

#include <symerr/domains/affine.hpp>
#include <symerr/domains/interval.hpp>
#include <symerr/domains/mpfr_interval.hpp>
#include <symerr/domains/rational_interval.hpp>
#include <symerr/domains/symbolic_instances.hpp>  // the library's instantiations (compile time)

#include "elementary/elementary_dag_fuzzer.hpp"

using namespace symerr;
using namespace symerr::test;

namespace {

template <RealDomain D>
efuzz::Report run(const char* domain, std::uint64_t seed, long dags, int samples) {
  const efuzz::Report r = efuzz::run_fuzzer<D>(seed, dags, samples);
  std::cout << "elementary fuzz " << domain << ": " << r.dags << " DAGs, " << r.executions << " executions, "
            << r.checks << " checks (" << r.glibc_checks << " against the installed glibc), " << r.env_compared
            << " re-run in the clean environment, " << r.undecided << " undecided, " << r.skipped << " skipped\n";
  if (r.failures) std::cout << r.first_failure;
  return r;
}

long scaled(double n) { return std::max(1L, static_cast<long>(n * test_scale())); }

}  // namespace

TEST_CASE("elementary DAG fuzzer: every model, format, mode and caller environment", "[elementary][fuzz]") {
  const efuzz::Report a = run<Interval>("Interval", 21, scaled(1500), 4);
  const efuzz::Report b = run<MpfrInterval>("MpfrInterval", 22, scaled(300), 4);
  const efuzz::Report c = run<RationalInterval>("RationalInterval", 23, scaled(300), 4);
  const efuzz::Report d = run<Affine>("Affine", 24, scaled(600), 4);
  for (const efuzz::Report* r : {&a, &b, &c, &d}) CHECK(r->failures == 0);
  if (test_scale() >= 1) {
    CHECK(a.checks >= 3000);
    CHECK(a.glibc_checks >= 200);
    CHECK(a.env_compared >= 500);
  }
}

TEST_CASE("elementary DAG fuzzer: long run, >= 10^7 executions per domain", "[.][elementary][fuzz][long]") {
  const long dags = 3000000;  // 4 executions each (some DAGs have no value: >= 10^7 executions)
  const efuzz::Report a = run<Interval>("Interval", 121, dags, 4);
  const efuzz::Report b = run<MpfrInterval>("MpfrInterval", 122, dags, 4);
  const efuzz::Report c = run<RationalInterval>("RationalInterval", 123, dags, 4);
  const efuzz::Report d = run<Affine>("Affine", 124, dags, 4);
  for (const efuzz::Report* r : {&a, &b, &c, &d}) {
    CHECK(r->failures == 0);
    CHECK(r->executions >= 10000000);
  }
}

// Planted bugs: each must be found within a small budget.
TEST_CASE("elementary DAG fuzzer: catches a tightened introduced error and a lost -0 flag",
          "[elementary][fuzz]") {
  const efuzz::Mutator<Interval> shrink = [](SymbolicDomainError<Interval>& z) {
    if (is_bounded(z.introduced) && !is_point(z.introduced)) z.introduced = z.introduced * Interval::point(0.5);
  };
  const efuzz::Report a = efuzz::run_fuzzer<Interval>(5, 3000, 4, shrink);
  REQUIRE(a.failures > 0);
  CHECK(a.first_failure.find("not in introduced") != std::string::npos);
  std::cout << "planted bug (introduced halved) found after " << a.dags << " DAGs:\n" << a.first_failure;
  const efuzz::Mutator<Interval> no_neg_zero = [](SymbolicDomainError<Interval>& z) {
    z.specials.may_be_neg_zero = false;
  };
  const efuzz::Report b = efuzz::run_fuzzer<Interval>(6, 20000, 4, no_neg_zero);
  REQUIRE(b.failures > 0);
  CHECK(b.first_failure.find("-0 result not flagged") != std::string::npos);
}

TEST_CASE("elementary DAG fuzzer: catches fp narrowed to the correctly rounded value under an ulp model",
          "[elementary][fuzz]") {
  // a model one step too tight: fp and introduced as if every model were
  // correctly rounded (the glibc table's extra ulps dropped)
  const efuzz::Mutator<Interval> as_cr = [](SymbolicDomainError<Interval>& z) {
    if (!is_bounded(z.fp) || !is_bounded(z.introduced)) return;
    const double w = z.fp.upper() - z.fp.lower();
    if (w > 0) z.fp = Interval::between(z.fp.lower() + w / 4, z.fp.upper() - w / 4);
  };
  const efuzz::Report r = efuzz::run_fuzzer<Interval>(7, 3000, 4, as_cr);
  REQUIRE(r.failures > 0);
  CHECK(r.first_failure.find("not in fp") != std::string::npos);
}
