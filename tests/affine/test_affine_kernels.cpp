// Composed kernels in SymbolicDomainError<Affine> against their known true
// maxima: the tightness figures of the README's affine section that a single
// operation cannot show. (a − b)/(a + b) on FP16 [1, 2]: the exhaustive
// maximum of |f − r| over all 1025² pairs is 2.2882e-4
// (bench/bench_affine_examples computes it); the bound must stay within
// 1.25× of it without subdivision, and never below it (soundness twin).
#include <catch2/catch.hpp>

#include <symerr/domains/affine.hpp>
#include <symerr/domains/interval.hpp>
#include <symerr/symbolic.hpp>

using namespace symerr;

namespace {
using SA = SymbolicDomainError<Affine>;
constexpr double kRatioExhaustiveMax = 2.2882e-4;  // rounded down in the 5th digit
}  // namespace

TEST_CASE("(a - b)/(a + b), FP16 [1, 2]: within 1.25x of the exhaustive maximum", "[affine][tightness]") {
  AffineContext ctx;
  AffineScope scope(ctx);
  const SA a = SA::input(1, 2, FP16), b = SA::input(1, 2, FP16);
  const SA q = (a - b) / (a + b);
  INFO(q);
  const double bound = mag(q.err);
  CHECK(bound >= kRatioExhaustiveMax);
  CHECK(bound <= 1.25 * kRatioExhaustiveMax);
  // the twin: the Interval domain is far looser on the same kernel
  using SI = SymbolicDomainError<Interval>;
  const SI ai = SI::input(1, 2, FP16), bi = SI::input(1, 2, FP16);
  CHECK(mag(((ai - bi) / (ai + bi)).err) > 1.5 * kRatioExhaustiveMax);
}
