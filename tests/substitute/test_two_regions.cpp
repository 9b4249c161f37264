// Two substitution regions in one translation unit: one kernel source read
// on SymbolicError and again on SymbolicDomainError<Affine>. Before session
// 21 <symerr/substitute.hpp> was `#pragma once`, so the second region left
// `float` as float and the call on an Affine value did not compile (found by
// a new-user tryout).
#include <catch2/catch.hpp>

#include <type_traits>
#include <utility>

#define SYMERR_SUBSTITUTE_FLOAT ::symerr::SymbolicError
#include <symerr/substitute.hpp>
namespace ki {
inline float scale2(float x) { return 2.0f * x + 0.5f; }
}  // namespace ki
#include <symerr/substitute_end.hpp>

#undef SYMERR_SUBSTITUTE_FLOAT
#define SYMERR_SUBSTITUTE_FLOAT ::symerr::SymbolicDomainError<::symerr::Affine>
#include <symerr/substitute.hpp>
namespace ka {
inline float scale2(float x) { return 2.0f * x + 0.5f; }
}  // namespace ka
#include <symerr/substitute_end.hpp>
#undef SYMERR_SUBSTITUTE_FLOAT

using namespace symerr;
using SA = SymbolicDomainError<Affine>;

static_assert(std::is_same_v<decltype(ki::scale2(std::declval<SymbolicError>())), SymbolicError>);
static_assert(std::is_same_v<decltype(ka::scale2(std::declval<SA>())), SA>);

TEST_CASE("two substitution regions in one translation unit: each replaces float by its own type",
          "[substitute]") {
  const float plain = 1.0f;  // float is float again after the regions
  static_assert(std::is_same_v<decltype(plain), const float>);
  const ScopedLiteralFormat literal(FP32);
  const SymbolicError yi = ki::scale2(SymbolicError::input(-1, 1, FP32));
  CHECK(yi.real.lower() == -1.5);
  CHECK(yi.real.upper() == 2.5);
  AffineContext ctx;
  AffineScope scope(ctx);
  const SA x = SA::input(-1, 1, FP32);
  const SA ya = ka::scale2(x);
  CHECK(ya.real.lower() == -1.5);
  CHECK(ya.real.upper() == 2.5);
  const SA d = ya - ka::scale2(x);  // one quantity: exactly 0
  CHECK(d.real.lower() == 0);
  CHECK(d.real.upper() == 0);
}
