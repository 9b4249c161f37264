// The DAG fuzzer of tests/fuzz on the Affine domain alone (random expression
// DAGs over every format and mode, against exact executions, each DAG also
// re-run under a hostile caller environment — FTZ/DAZ, other rounding — whose
// results must be identical): the fast path of SymbolicDomainError<Affine>
// runs a different code path than the generic one, so it gets its own run.
#include <catch2/catch.hpp>

#include <iostream>

#include <symerr/domains/affine.hpp>
#include <symerr/domains/symbolic_instances.hpp>  // the library's instantiations (compile time)

#include "fuzz/dag_fuzzer.hpp"

using namespace symerr;

namespace {
void fuzz_affine(std::uint64_t seed, long dags) {
  const fuzz::Report rep = fuzz::run_fuzzer<Affine>(seed, dags, 8, "Affine");
  std::cout << "fuzz Affine: " << rep.dags << " DAGs, " << rep.executions << " executions, " << rep.node_checks
            << " node checks, " << rep.env_compared << " DAGs re-run under the default environment\n";
  INFO(rep.first_failure);
  CHECK(rep.failures == 0);
  CHECK(rep.dags + rep.skipped == dags);
}
}  // namespace

TEST_CASE("Affine DAG fuzzer: exact executions and a hostile caller environment", "[affine][fuzz]") {
  fuzz_affine(2024, std::max(1L, static_cast<long>(3000 * test::test_scale())));
}

TEST_CASE("Affine DAG fuzzer: long run", "[.][affine][fuzz][long]") { fuzz_affine(104, 300000); }
