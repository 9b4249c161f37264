// symerr's own Div/Sub/Add/Mul (the scalar rules of lib/ops, wrapped by
// builtin_kernel) pass the concrete check for every format of the default
// campaign; 8-bit integers are proven on all pairs.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <iostream>

#include <symerr/verify/campaign/campaign.hpp>
#include <symerr/verify/concrete/concrete.hpp>

#include "test_scale.hpp"

using namespace symerr;
using namespace symerr::verify;

TEST_CASE("builtin kernels: Add, Sub, Mul, Div over the default formats", "[concrete][builtin]") {
  for (OpId op : {OpId::Add, OpId::Sub, OpId::Mul, OpId::Div})
    for (ElementType t : {ElementType::FP16, ElementType::BF16, ElementType::FP32, ElementType::FP64,
                          ElementType::INT8, ElementType::UINT8, ElementType::INT32}) {
      for (IntegerDivision d : {IntegerDivision::Floor, IntegerDivision::Truncate}) {
        if (d == IntegerDivision::Truncate && (op != OpId::Div || is_float(t))) continue;
        CheckOptions o;
        o.integer_division = d;
        o.strategies.random_count = symerr::test::scaled(20000, 1);
        o.strategies.boundary_count = 2000;
        const CheckResult r = check_kernel(builtin_kernel(op, t, d), o);
        INFO(r.id << ": " << r.reason);
        CHECK(r.evidence.failures == 0);
        CHECK(r.verdict == (storage_size(t) == 1 ? Verdict::Proven : Verdict::PassedOnSamples));
        if (is_float(t)) CHECK(r.evidence.max_ulp_error <= 0.5);
      }
    }
}

TEST_CASE("builtin kernels exist for the two-input operators of the table only", "[concrete][builtin]") {
  for (const OpInfo& info : operator_table()) {
    CAPTURE(info.name);
    if (binary_kernel_operator(info.id)) {
      CHECK(builtin_kernel(info.id, ElementType::FP32).op == info.id);
    } else {
      CHECK_THROWS_WITH(builtin_kernel(info.id, ElementType::FP32),
                        Catch::Contains(std::string(info.name) + " has no two-input concrete check"));
    }
  }
}
