// The spec audit of the unary SONNX bounds: the first-order propagation bounds
// are refuted with certified witnesses, the Lipschitz-type ones hold, and every
// claimed holding range is respected by random executions (none violated
// inside, violations outside).
#include <catch2/catch.hpp>

#include <cstdlib>
#include <iostream>
#include <set>

#include <symerr/verify/bounds/unary_audit.hpp>

using namespace symerr::verify;

TEST_CASE("unary SONNX bounds: verdicts, witnesses, holding ranges", "[unary][audit]") {
  const auto entries = run_unary_audit(4000);
  const std::set<std::string> refuted = {"sonnx.exp.propagation",           "sonnx.log.propagation",
                                         "sonnx.sqrt.propagation",          "sonnx.sigmoid.propagation.local",
                                         "sonnx.pow.propagation.c2",        "sonnx.pow.propagation.c_half",
                                         "sonnx.tanh.propagation.first_order"};
  REQUIRE(entries.size() == 12);
  for (const auto& a : entries) {
    INFO(a.id << ": " << a.witness << " inside " << a.inside << "/" << a.inside_violations << " outside "
              << a.outside << "/" << a.outside_violations);
    CHECK(a.refuted == (refuted.count(a.id) == 1));
    CHECK(a.inside > 100);
    CHECK(a.inside_violations == 0);
    if (a.refuted) {
      CHECK(!a.witness.empty());
      CHECK(a.outside_violations > 0);
    } else {
      CHECK(a.outside_violations == 0);
    }
  }
  if (std::getenv("SYMERR_PRINT_AUDIT")) std::cout << unary_audit_markdown(entries);
}
