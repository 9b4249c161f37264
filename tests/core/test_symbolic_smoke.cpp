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

// Bad input names the offending numbers as they are (shortest round-trip
// form), not in std::to_string's six fixed decimals, which printed 1e-9 as
// 0.000000 and 1e300 as a 301-digit integer (found by a new-user tryout).
TEST_CASE("input errors print their numbers readably", "[core][messages]") {
  using S = SymbolicError;
  auto message = [](auto&& f) -> std::string {
    try {
      f();
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
    return "";
  };
  CHECK_THAT(message([] { S::input(1e-9, -1e-9, FP32); }), Catch::Contains("[1e-09, -1e-09] is empty"));
  CHECK_THAT(message([] { S::input(0, 1, 1e-12, -1e-12, FP64); }), Catch::Contains("[1e-12, -1e-12] is empty"));
  CHECK_THAT(message([] { S::input(1e-50, 2e-50, FP32); }), Catch::Contains("FP32"));
  CHECK_THAT(message([] { S::input(1e-50, 2e-50, FP32); }), Catch::Contains("1e-50"));
  const std::string big = message([] { S::input(1e300, 2e300, FP32); });
  CHECK_THAT(big, Catch::Contains("1e+300"));
  CHECK(big.size() < 200);
  CHECK_THAT(message([] { S::constant(0.1, FP32); }), Catch::Contains("0.1 is not a value of FP32"));
}

// `x.format == FP32` compiles and means "x is of format FP32" (it did not
// compile: no operator== between the Format variant and a format).
TEST_CASE("a value's format compares with a named format", "[core]") {
  const auto x = SymbolicError::input(0, 1, FP32);
  CHECK(x.format == FP32);
  CHECK(FP32 == x.format);
  CHECK(x.format != FP64);
  CHECK(x.format != INT8);
  CHECK(SymbolicError::constant(3, INT8).format == INT8);
  CHECK(SymbolicError::constant(3).format != FP32);  // the real format
}
