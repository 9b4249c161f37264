// The edge fuzzers' test cases: elementary functions in DAGs with operands
// that overflow to ±inf (the propagated / introduced split) under two
// accuracy models per DAG (Affine: one context, both models' results in its
// memo), and the lean type near the overflow threshold, at 0 and on
// subnormals. Each against its exact oracle (elementary_fuzzer.hpp,
// lean_fuzzer.hpp); short runs here, >= 10^7 executions per domain in the
// [long] run; planted bugs each must find.
#include <catch2/catch.hpp>

#include <iostream>

#include <symerr/domains/affine.hpp>
#include <symerr/domains/interval.hpp>
#include <symerr/domains/mpfr_interval.hpp>
#include <symerr/domains/rational_interval.hpp>
#include <symerr/domains/symbolic_instances.hpp>  // the library's instantiations (compile time)

#include "fuzz/elementary_fuzzer.hpp"
#include "fuzz/lean_fuzzer.hpp"

using namespace symerr;
using namespace symerr::fuzz;

namespace {

template <RealDomain D>
Report run_elem(const char* domain, std::uint64_t seed, long dags, int samples) {
  const Report rep = elem::run<D>(seed, dags, samples, domain);
  std::cout << "elementary fuzz " << domain << ": " << rep.dags << " DAGs, " << rep.executions << " executions, "
            << rep.node_checks << " node checks, " << rep.skipped << " skipped\n";
  if (rep.failures) std::cout << rep.first_failure;
  return rep;
}

void print_lean(const char* name, const lean::Report& r) {
  std::cout << "lean fuzz " << name << ": " << r.dags << " DAGs, " << r.nodes << " nodes, " << r.refused
            << " refused, " << r.executions << " executions, " << r.checks << " node checks\n";
  if (r.failures) std::cout << r.first_failure;
}

long scaled(double n) { return std::max(1L, static_cast<long>(n * test::test_scale())); }

}  // namespace

TEST_CASE("elementary fuzzer: overflowed operands, the split, two accuracy models per DAG (every domain)", "[fuzz]") {
  const Report reps[] = {run_elem<Interval>("Interval", 21, scaled(400), 4),
                         run_elem<MpfrInterval>("MpfrInterval", 22, scaled(150), 4),
                         run_elem<RationalInterval>("RationalInterval", 23, scaled(150), 4),
                         run_elem<Affine>("Affine", 24, scaled(400), 4)};
  for (const Report& r : reps) {
    INFO(r.first_failure);
    CHECK(r.failures == 0);
    CHECK(r.executions > 0);
  }
}

TEST_CASE("lean fuzzer: LeanDouble / LeanFloat DAGs near max, at 0, on subnormals", "[fuzz]") {
  const lean::Report d = lean::run<double>(31, scaled(20000), 8), f = lean::run<float>(32, scaled(20000), 8);
  print_lean("LeanDouble", d);
  print_lean("LeanFloat", f);
  CHECK(d.failures == 0);
  CHECK(f.failures == 0);
  CHECK(d.refused > 0);  // the overflow threshold is reached
}

TEST_CASE("edge fuzzers: long run, >= 10^7 executions per domain", "[.][fuzz][long]") {
  const Report reps[] = {run_elem<Interval>("Interval", 201, 2500000, 4),
                         run_elem<MpfrInterval>("MpfrInterval", 202, 2500000, 4),
                         run_elem<RationalInterval>("RationalInterval", 203, 2500000, 4),
                         run_elem<Affine>("Affine", 204, 2500000, 4)};
  for (const Report& r : reps) {
    CHECK(r.failures == 0);
    CHECK(r.executions >= 10000000);
  }
  const lean::Report d = lean::run<double>(301, 1250000, 8), f = lean::run<float>(302, 1250000, 8);
  print_lean("LeanDouble", d);
  print_lean("LeanFloat", f);
  CHECK(d.failures == 0);
  CHECK(f.failures == 0);
  CHECK(d.executions >= 10000000);
  CHECK(f.executions >= 10000000);
}

// Planted bugs: each fuzzer must find them within a small budget.
TEST_CASE("elementary fuzzer: catches the split at inf (propagated = err) and a narrowed fp", "[fuzz]") {
  const elem::Mutator<Interval> whole_is_propagated = [](SymbolicDomainError<Interval>& z) {
    if (is_bounded(z.err)) z.propagated = z.err;
  };
  const Report a = elem::run<Interval>(41, 20000, 4, "Interval", whole_is_propagated);
  REQUIRE(a.failures > 0);
  CHECK(a.first_failure.find("not in propagated") != std::string::npos);
  std::cout << "planted bug (propagated = err) found after " << a.dags << " DAGs:\n" << a.first_failure;
  // the memo's shape of bug: fp narrowed to the correctly rounded model's width
  const elem::Mutator<Affine> narrow = [](SymbolicDomainError<Affine>& z) {
    if (!is_bounded(z.fp) || is_point(z.fp)) return;
    const double w = (z.fp.upper() - z.fp.lower()) / 8;
    z.fp = Affine::between(z.fp.lower() + w, z.fp.upper() - w);
  };
  const Report b = elem::run<Affine>(42, 20000, 4, "Affine", narrow);
  REQUIRE(b.failures > 0);
  CHECK(b.first_failure.find("not in fp") != std::string::npos);
}

TEST_CASE("lean fuzzer: catches an err bound short by a tenth", "[fuzz]") {
  const lean::Mutator<double> shrink = [](LeanDouble& z) {
    const LeanInterval e = z.err();
    if (e.lo < e.hi) z = LeanDouble::from_enclosures(z.fp(), {e.lo + (e.hi - e.lo) / 10, e.hi});
  };
  const lean::Report r = lean::run<double>(43, 20000, 8, shrink);
  REQUIRE(r.failures > 0);
  CHECK(r.first_failure.find("not in err") != std::string::npos);
  std::cout << "planted bug (lean err short) found after " << r.dags << " DAGs:\n" << r.first_failure;
}
