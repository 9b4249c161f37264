// The kernel-bound registry (bounds on a part of a whole tensor operator):
// the built-in SONNX MatMul bounds with their exact values, the per-format
// lookup, registration rules shared with the operator bounds, and the
// proof / per-execution verdicts. (MatMul 16x16 against these bounds:
// tests/substitute/test_matmul_sonnx.cpp.)
#include <catch2/catch.hpp>

#include <symerr/verify/bounds/bounds.hpp>
#include <symerr/domains/symbolic_instances.hpp>  // the library's instantiations (compile time)

using namespace symerr;
using namespace symerr::verify;

namespace {

KernelBoundArgs unit_args(std::size_t n, const mpq_class& e) {
  const OperandMagnitudes m{1, e, 1 + e};
  return {{m, m}, n, FP64};
}

}  // namespace

TEST_CASE("kernel bounds: the SONNX MatMul bounds, on the parts they speak about", "[verify][bounds]") {
  const KernelBound* prop = find_kernel_bound("digest.matmul.propagation");
  const KernelBound* intro = find_kernel_bound("digest.matmul.float.introduction");
  REQUIRE(prop);
  REQUIRE(intro);
  CHECK(prop->part == ErrorPart::Propagated);
  CHECK(intro->part == ErrorPart::Introduced);
  CHECK(kernel_bounds_for("MatMul", FP64).size() == 2);
  CHECK(kernel_bounds_for("MatMul", INT8).size() == 1);  // no introduction bound for integers
  CHECK(kernel_bounds_for("Add", FP64).empty());
  // n(|A_err||B| + |B_err||A| + |A_err||B_err|) with |A| = |B| = 1, errors 2^-10, n = 16
  const mpq_class e(1, 1024);
  CHECK(prop->value(unit_args(16, e)) == 16 * (2 * e + e * e));
  // ((1+u)^2((1+u)^n − 1)/u − n)|A||B| = u(n(n−1)/2 + 2n) + O(u^2): 152u at n = 16, FP64
  const mpq_class u = exact_value(FP64.unit_roundoff());
  const mpq_class v = intro->value(unit_args(16, 0));
  CHECK(v > 152 * u);
  CHECK(v < 152 * u * mpq_class(1000001, 1000000));
}

TEST_CASE("kernel bounds: a proof needs sup |part| within the bound, a refutation an execution",
          "[verify][bounds]") {
  const KernelBound& prop = *find_kernel_bound("digest.matmul.propagation");
  const KernelBoundArgs box = unit_args(4, mpq_class(1, 1024));
  const mpq_class b = prop.value(box);
  CHECK(kernel_bound_proven(prop, box, b) == Tri::True);  // "<=": equality proves
  CHECK(kernel_bound_proven(prop, box, b + mpq_class(1, 1 << 30)) == Tri::Unknown);
  CHECK(kernel_bound_holds_at(prop, box, -b));
  CHECK_FALSE(kernel_bound_holds_at(prop, box, -b - mpq_class(1, 1 << 30)));
}

TEST_CASE("register_kernel_bound: id rules, ids distinct from the operator bounds", "[verify][bounds]") {
  KernelBound b;
  b.id = "test.kernel.conv.propagation";
  b.op = "Conv";
  b.part = ErrorPart::Propagated;
  CHECK_THROWS_WITH(register_kernel_bound(b), Catch::Contains("needs value"));
  b.value = [](const KernelBoundArgs&) { return mpq_class(1); };
  b.id = "Test.Upper";
  CHECK_THROWS_WITH(register_kernel_bound(b), Catch::Contains("lower-case"));
  b.id = "symerr.div.propagation";  // an operator bound's id
  CHECK_THROWS_WITH(register_kernel_bound(b), Catch::Contains("exists"));
  b.id = "digest.matmul.propagation";
  CHECK_THROWS_WITH(register_kernel_bound(b), Catch::Contains("exists"));
  b.id = "test.kernel.conv.propagation";
  if (!find_kernel_bound(b.id)) register_kernel_bound(b);
  CHECK(kernel_bounds_for("Conv", FP32).size() == 1);
  CHECK_THROWS_WITH(register_kernel_bound(b), Catch::Contains("exists"));
  // an operator bound may not take a kernel bound's id either
  SpecBound s;
  s.id = "digest.matmul.propagation";
  s.op = OpId::Add;
  s.enclose = [](const SymbolicError&, const SymbolicError&, const SymbolicError&) { return Interval::point(1); };
  s.exact = [](const ExactPoint&) { return mpq_class(1); };
  CHECK_THROWS_WITH(register_bound(s), Catch::Contains("exists"));
  // magnitudes at an execution need as many ideal as actual values
  const std::vector<mpq_class> two(2), three(3);
  CHECK_THROWS_WITH(magnitudes(two, three), Catch::Contains("2 ideal values but 3"));
}
