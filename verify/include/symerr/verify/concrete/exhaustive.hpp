// Exhaustive concrete check of a binary kernel over 16-bit (or smaller)
// formats: all 2^32 pairs of FP16 or BF16, all pairs of an 8- or 16-bit
// integer type. Multi-threaded, with progress on stderr, and shardable:
// shard i/N covers the dividends (first operands) a with
// i·2^bits/N <= index(a) < (i+1)·2^bits/N; the results of all N shards merge
// (merge(CheckResult&, const CheckResult&)) into the result of one run.
//
// Correct-rounding checks of FP16/BF16 use a fast path: the kernel output o
// is accepted when the binary64 result q of the operation lies strictly
// inside o's round-to-nearest interval (midpoints from next_up/next_down of
// the format table) — exact because q = RN64(exact) and the midpoints are
// binary64 numbers (RN64 is monotone), so "strictly inside" transfers to the
// exact result; q on a midpoint, special values and failures go to the
// oracle (oracle.hpp). Bound checks and integers judge every pair with the
// oracle.
#pragma once

#include <cstdint>
#include <functional>
#include <string_view>

#include <symerr/verify/concrete/concrete.hpp>

namespace symerr::verify {

/// Shard i of N of an exhaustive sweep.
struct Shard {
  std::uint32_t index = 0;  ///< 0-based
  /// N.
  std::uint32_t count = 1;
};
/// "i/N" with 0 <= i < N (0-based); throws std::invalid_argument.
Shard parse_shard(std::string_view text);

/// When an exhaustive sweep draws its progress line on stderr.
enum class ProgressDisplay : unsigned char { Auto, Always, Never };  ///< Auto: when stderr is a terminal

/// The options of an exhaustive sweep of a 16-bit (or narrower) kernel.
struct ExhaustiveOptions {
  CheckOptions check;      ///< id, property, requirements, division, witnesses (strategies unused)
  unsigned threads = 0;    ///< 0: std::thread::hardware_concurrency()
  /// The part of the domain to sweep.
  Shard shard;
  /// When to draw the progress line on stderr.
  ProgressDisplay progress = ProgressDisplay::Auto;
  /// Periodic progress lines ("[Div FP16 k] 42.0% 12.3 s, ETA 17 s, 0 failures")
  /// for logs that are not terminals: one every progress_interval seconds.
  std::function<void(std::string_view)> progress_lines;
  /// Seconds between two progress_lines.
  double progress_interval = 10;
  std::size_t chunk = 4096;  ///< elements per kernel call
  /// Stop after this many failures (0: never, every failure is counted and
  /// classified; the witnesses kept are capped). The verdict is then Violated and
  /// the evidence covers only the rows swept; the reason says so.
  std::uint64_t max_failures = 0;
  /// Use AVX-512 for the FP16/BF16 fast path where the CPU has it (false: the
  /// scalar loop, same results).
  bool vectorized = true;
};

/// Number of pairs of the whole domain: 2^(2·bits).
std::uint64_t exhaustive_pair_count(ElementType t);
bool exhaustive_supported(ElementType t) noexcept;  ///< storage of at most 16 bits

/// Runs k on every pair of its (16-bit or narrower) type, or on one shard of them,
/// judging every output as check_kernel does; Proven when no input fails and every
/// shard is covered.
CheckResult check_exhaustive(const Kernel& k, const ExhaustiveOptions& o);

}  // namespace symerr::verify
