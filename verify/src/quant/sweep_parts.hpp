// The parallel split shared by the quantization sweeps: [first, first+count)
// cut into one contiguous part per thread, run, returned in order.
#pragma once

#include <algorithm>
#include <cstdint>
#include <thread>
#include <vector>

namespace symerr::verify::quant {

inline constexpr std::size_t kKeptDifferences = 8;

template <class Part, class Fn>
std::vector<Part> run_parts(std::uint64_t first, std::uint64_t count, unsigned threads, const Fn& fn) {
  threads = std::max(1u, std::min(threads, 64u));
  if (count < threads) threads = 1;
  std::vector<Part> parts(threads);
  std::vector<std::thread> workers;
  const std::uint64_t step = count / threads;
  for (unsigned t = 0; t < threads; ++t) {
    const std::uint64_t lo = first + t * step;
    const std::uint64_t hi = t + 1 == threads ? first + count - 1 : lo + step - 1;
    workers.emplace_back([&parts, &fn, t, lo, hi] { parts[t] = fn(lo, hi); });
  }
  for (auto& w : workers) w.join();
  return parts;
}

}  // namespace symerr::verify::quant
