#include <catch2/catch.hpp>

#include <symerr/domains/symbolic_interval.hpp>

using namespace symerr;

TEST_CASE("smoke", "[core]") {
  auto a = SymbolicError::input(1, 2, FP32);
  auto b = SymbolicError::input(3, 4, FP32);
  auto c = a / b;
  INFO(c);
  CHECK(certainly(abs(c.err) <= ulp(c.real, FP32)));
  CHECK(certainly(c.is_finite()));
  auto z = SymbolicError::constant(0.0, FP32);
  auto d = a / z;
  INFO(d);
  CHECK(certainly(d.is_inf()));
  CHECK(certainly((z / z).is_nan()));
}
