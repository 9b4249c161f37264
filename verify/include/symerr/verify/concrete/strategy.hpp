// Input strategies of the concrete check: which operand pairs a kernel is run
// on. Each strategy is named (the name goes into CheckResult::strategies) and
// random ones are reproducible from their seed.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <symerr/format.hpp>
#include <symerr/verify/kernel/kernel.hpp>
#include <symerr/verify/report/verdict.hpp>

namespace symerr::verify {

/// The input pairs of one strategy.
template <class V>
struct Inputs {
  std::string strategy;                  ///< "special_grid", "boundary", "random", "exhaustive"
  std::vector<std::array<V, 2>> pairs;   ///< (a, b)
};
using FloatInputs = Inputs<double>;      ///< values of the format (NaN, ±inf included)
using IntInputs = Inputs<__int128>;      ///< values of the integer format

/// The special values of F: ±0, ±min subnormal, ±max subnormal, ±min normal,
/// ±1, ±(1 + ulp), ±(1 - ulp/2), ±max, ±inf, NaN (19 values).
std::vector<double> special_values(const FloatFormat& F);
/// Every special value crossed with every special value (361 pairs).
FloatInputs special_grid(const FloatFormat& F);
/// Pairs whose exact result lands near the overflow threshold, the largest
/// finite value, the smallest normal, the subnormal range and half the smallest
/// subnormal (targets scaled by random operands), near-zero divisors for Div,
/// and near-cancellations for Add/Sub. `count` pairs, seeded.
FloatInputs boundary_inputs(OpId op, const FloatFormat& F, std::size_t count,
                            std::uint64_t seed);
/// Half uniform over encodings (every binade, NaN and inf included), half with
/// magnitudes in [2^-8, 2^8) and random signs. Seeded.
FloatInputs random_inputs(const FloatFormat& F, std::size_t count, std::uint64_t seed);

/// Integers: 0, ±1, ±2, min, min + 1, max, max - 1, max / 2, max / 2 + 1
/// (those that exist in I), crossed with themselves.
std::vector<__int128> special_values(const IntFormat& I);
/// Every integer special value crossed with every one.
IntInputs special_grid(const IntFormat& I);
/// `count` uniformly random pairs of I's values, seeded.
IntInputs random_inputs(const IntFormat& I, std::size_t count, std::uint64_t seed);
/// All 2^(2·bits) pairs; precondition bits <= 12 (throws std::invalid_argument).
IntInputs exhaustive_inputs(const IntFormat& I);

/// The classes of one float operand / one integer operand (NaN, Inf, Zero,
/// Subnormal or Normal; Zero or Normal).
InputClass operand_class(double x, const FloatFormat& F) noexcept;
/// The class of an integer operand: Zero or Normal.
InputClass operand_class(__int128 x) noexcept;

/// A deterministic 64-bit generator (SplitMix64): the same seed gives the same
/// inputs on every platform and standard library.
class SplitMix64 {
 public:
  /// A generator seeded with `seed`.
  explicit SplitMix64(std::uint64_t seed) noexcept : state_(seed) {}
  /// The next 64-bit number.
  std::uint64_t next() noexcept {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  /// A number in [0, n) (0 when n = 0; modulo bias accepted).
  std::uint64_t below(std::uint64_t n) noexcept { return n == 0 ? 0 : next() % n; }

 private:
  std::uint64_t state_;
};

}  // namespace symerr::verify
