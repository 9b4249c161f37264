// Exhaustive quantization sweeps (<symerr/verify/quant/sweep.hpp>): the range
// is cut into one contiguous part per thread, each part keeps its counts, its
// first maximum and its first differences in input order, and the parts are
// merged in order, so the result does not depend on the thread count.
#include <symerr/verify/quant/sweep.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <stdexcept>
#include <string>
#include <thread>

#include <symerr/fp_environment.hpp>
#include <symerr/half.hpp>

#include "sweep_parts.hpp"

namespace symerr::verify::quant {
namespace {

std::string u128_to_string(unsigned __int128 v) {
  if (v == 0) return "0";
  std::string s;
  while (v != 0) {
    s.push_back(static_cast<char>('0' + static_cast<int>(v % 10)));
    v /= 10;
  }
  std::reverse(s.begin(), s.end());
  return s;
}

// v as a double rounded up (v < 2^100).
double u128_up(unsigned __int128 v) {
  double d = static_cast<double>(v);
  if (static_cast<unsigned __int128>(d) < v) d = std::nextafter(d, INFINITY);
  return d;
}

struct RequantPart {
  std::uint64_t inputs = 0;
  std::uint64_t differs = 0;
  unsigned __int128 max_err = 0;
  std::int32_t max_at = 0;
  std::int64_t output_at_max = 0;
  bool any = false;
  std::vector<RequantDifference> diffs;
};

template <class Kernel>
RequantPart requant_part(const FixedPointMultiplier& m, std::int64_t first, std::int64_t last, const Kernel& kernel) {
  FpEnvironmentGuard env;
  RequantPart p;
  for (std::int64_t a = first; a <= last; ++a) {
    const auto acc = static_cast<std::int32_t>(a);
    const std::int64_t q = kernel(acc);
    const std::int64_t onnx = symerr::quant::requantize(acc, m, RequantVariant::exact_half_even);
    const unsigned __int128 err = symerr::quant::scaled_error(q, acc, m);
    ++p.inputs;
    if (q != onnx) {
      ++p.differs;
      if (p.diffs.size() < kKeptDifferences) p.diffs.push_back({acc, q, onnx});
    }
    if (!p.any || err > p.max_err) {
      p.any = true;
      p.max_err = err;
      p.max_at = acc;
      p.output_at_max = q;
    }
  }
  return p;
}

template <class Kernel>
RequantSweepResult sweep_requant_impl(const RequantSweep& s, const Kernel& kernel) {
  symerr::quant::validate(s.multiplier);
  if (s.first < INT32_MIN || s.last > INT32_MAX || s.first > s.last)
    throw std::invalid_argument("requantization sweep range [" + std::to_string(s.first) + ", " + std::to_string(s.last) +
                                "] is empty or outside int32");
  const auto count = static_cast<std::uint64_t>(s.last - s.first) + 1;
  // The parts are indexed from 0 so that the unsigned arithmetic of run_parts
  // cannot wrap; each part shifts back by s.first.
  auto parts = run_parts<RequantPart>(0, count, s.threads, [&](std::uint64_t lo, std::uint64_t hi) {
    return requant_part(s.multiplier, s.first + static_cast<std::int64_t>(lo), s.first + static_cast<std::int64_t>(hi),
                        kernel);
  });
  RequantSweepResult r;
  RequantPart best;
  for (const auto& p : parts) {
    r.inputs += p.inputs;
    r.differs_from_onnx += p.differs;
    for (const auto& d : p.diffs)
      if (r.first_differences.size() < kKeptDifferences) r.first_differences.push_back(d);
    if (p.any && (!best.any || p.max_err > best.max_err)) best = p;
  }
  const int k = 31 + s.multiplier.shift;
  r.max_error_lsb = std::ldexp(u128_up(best.max_err), -k);
  r.max_error_exact = u128_to_string(best.max_err) + " / 2^" + std::to_string(k);
  r.max_error_at = best.max_at;
  r.output_at_max = best.output_at_max;
  return r;
}

}  // namespace

RequantSweepResult sweep_requantize(const RequantSweep& sweep, RequantVariant variant) {
  const FixedPointMultiplier m = sweep.multiplier;
  return sweep_requant_impl(sweep, [m, variant](std::int32_t acc) { return symerr::quant::requantize(acc, m, variant); });
}

RequantSweepResult sweep_requantize(const RequantSweep& sweep, const RequantKernel& kernel) {
  if (!kernel) throw std::invalid_argument("requantization sweep: no kernel");
  return sweep_requant_impl(sweep, kernel);
}

float decode(QuantInput input, std::uint32_t bits) noexcept {
  switch (input) {
    case QuantInput::fp16:
      return static_cast<float>(Half::from_bits(static_cast<std::uint16_t>(bits)));
    case QuantInput::bf16:
      return std::bit_cast<float>(bits << 16);
    case QuantInput::fp32:
      return std::bit_cast<float>(bits);
  }
  return 0;
}

}  // namespace symerr::verify::quant
