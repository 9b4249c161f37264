// Exhaustive QuantizeLinear sweeps over FP16, BF16 and FP32 inputs
// (<symerr/verify/quant/sweep.hpp>).
#include <symerr/verify/quant/sweep.hpp>

#include <cmath>
#include <stdexcept>
#include <string>

#include <symerr/fp_environment.hpp>

#include "sweep_parts.hpp"

namespace symerr::verify::quant {
namespace {

struct QuantizePart {
  std::uint64_t inputs = 0;
  std::uint64_t nan = 0;
  std::uint64_t differs_ideal = 0;
  std::uint64_t differs_reference = 0;
  double max_err = -1;
  std::uint32_t max_at = 0;
  std::vector<QuantizeDifference> diffs;
};

// |q − zero_point − x/scale| in LSB; (q − zp)·scale is exact in double.
double error_lsb(std::int64_t q, float x, const QuantizeSweep& s) {
  const double a = static_cast<double>(q - s.zero_point) * static_cast<double>(s.scale);
  return std::fabs(a - static_cast<double>(x)) / static_cast<double>(s.scale);
}

template <class Kernel>
QuantizePart quantize_part(const QuantizeSweep& s, std::uint64_t lo, std::uint64_t hi, const Kernel& kernel) {
  FpEnvironmentGuard env;
  QuantizePart p;
  using symerr::quant::quantize;
  for (std::uint64_t b = lo; b <= hi; ++b) {
    const auto bits = static_cast<std::uint32_t>(b);
    const float x = decode(s.input, bits);
    ++p.inputs;
    if (std::isnan(x)) {
      ++p.nan;
      continue;
    }
    const std::int64_t q = kernel(x);
    const std::int64_t ideal = quantize(x, s.scale, s.zero_point, s.type, QuantizeVariant::exact);
    if (q != quantize(x, s.scale, s.zero_point, s.type, QuantizeVariant::onnx_reference)) ++p.differs_reference;
    if (q != ideal) {
      ++p.differs_ideal;
      if (p.diffs.size() < kKeptDifferences) p.diffs.push_back({bits, x, q, ideal});
    }
    if (ideal > s.type.lo && ideal < s.type.hi) {
      const double e = error_lsb(q, x, s);
      if (e > p.max_err) {
        p.max_err = e;
        p.max_at = bits;
      }
    }
  }
  return p;
}

std::uint64_t last_encoding(QuantInput input) {
  return input == QuantInput::fp32 ? 0xFFFFFFFFull : 0xFFFFull;
}

template <class Kernel>
QuantizeSweepResult sweep_quantize_impl(const QuantizeSweep& s, const Kernel& kernel) {
  symerr::quant::validate_quantize(s.scale, s.zero_point, s.type);
  const std::uint64_t last = std::min(s.last_bits, last_encoding(s.input));
  if (s.first_bits > last)
    throw std::invalid_argument("QuantizeLinear sweep: first encoding " + std::to_string(s.first_bits) +
                                " is past the last one " + std::to_string(last));
  auto parts = run_parts<QuantizePart>(s.first_bits, last - s.first_bits + 1, s.threads,
                                       [&](std::uint64_t lo, std::uint64_t hi) { return quantize_part(s, lo, hi, kernel); });
  QuantizeSweepResult r;
  double best = -1;
  for (const auto& p : parts) {
    r.inputs += p.inputs;
    r.nan_skipped += p.nan;
    r.differs_from_ideal += p.differs_ideal;
    r.differs_from_onnx_reference += p.differs_reference;
    for (const auto& d : p.diffs)
      if (r.first_differences.size() < kKeptDifferences) r.first_differences.push_back(d);
    if (p.max_err > best) {
      best = p.max_err;
      r.max_error_at = p.max_at;
    }
  }
  r.max_error_lsb = best < 0 ? 0 : best;
  return r;
}

}  // namespace

QuantizeSweepResult sweep_quantize(const QuantizeSweep& sweep, QuantizeVariant variant) {
  const QuantizeSweep s = sweep;
  return sweep_quantize_impl(sweep, [s, variant](float x) {
    return symerr::quant::quantize(x, s.scale, s.zero_point, s.type, variant);
  });
}

QuantizeSweepResult sweep_quantize(const QuantizeSweep& sweep, const QuantizeKernel& kernel) {
  if (!kernel) throw std::invalid_argument("QuantizeLinear sweep: no kernel");
  return sweep_quantize_impl(sweep, kernel);
}

}  // namespace symerr::verify::quant
