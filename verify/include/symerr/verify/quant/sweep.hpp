// Exhaustive checks of quantization kernels against their exact ideal:
// requantization over every int32 accumulator, QuantizeLinear over every
// FP16 / BF16 / FP32 input. Results are deterministic (the same for any
// number of threads) and computed under the library's FP environment.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <symerr/quant/quantize_linear.hpp>
#include <symerr/quant/requantize.hpp>

namespace symerr::verify::quant {

using symerr::quant::FixedPointMultiplier;
using symerr::quant::QuantizeVariant;
using symerr::quant::QuantType;
using symerr::quant::RequantVariant;

/// A requantization kernel under test: the output for one accumulator
/// (before zero point and saturation). Must be thread-safe.
using RequantKernel = std::function<std::int64_t(std::int32_t)>;

/// What to sweep: every accumulator in [first, last].
struct RequantSweep {
  FixedPointMultiplier multiplier{1 << 30, 0};  ///< the real multiplier M·2^-(31+s)
  std::int64_t first = INT32_MIN;               ///< first accumulator
  std::int64_t last = INT32_MAX;                ///< last accumulator (inclusive)
  unsigned threads = 2;                         ///< worker threads (results do not depend on it)
};

/// One accumulator whose output differs from ONNX's rule.
struct RequantDifference {
  std::int32_t acc;        ///< the accumulator
  std::int64_t output;     ///< the kernel's output
  std::int64_t onnx;       ///< round_half_even(acc·M/2^(31+s))
};

/// The sweep's findings.
struct RequantSweepResult {
  std::uint64_t inputs = 0;             ///< accumulators run (each once)
  std::uint64_t differs_from_onnx = 0;  ///< outputs ≠ round_half_even of the exact value
  double max_error_lsb = 0;             ///< max |output − acc·M/2^(31+s)| (rounded up to double)
  std::string max_error_exact;          ///< the same, exact: "n / 2^k"
  std::int32_t max_error_at = 0;        ///< the smallest accumulator reaching it
  std::int64_t output_at_max = 0;       ///< the kernel's output there
  std::vector<RequantDifference> first_differences;  ///< up to 8, smallest accumulators first
};

/// Sweeps a built-in variant (fast path). Throws std::invalid_argument on an
/// invalid multiplier or an empty or out-of-int32 range.
RequantSweepResult sweep_requantize(const RequantSweep& sweep, RequantVariant variant);
/// Sweeps a kernel given as a callable.
RequantSweepResult sweep_requantize(const RequantSweep& sweep, const RequantKernel& kernel);

/// The input format of a QuantizeLinear sweep.
enum class QuantInput { fp16, bf16, fp32 };

/// A QuantizeLinear kernel under test (one float input to one integer output).
using QuantizeKernel = std::function<std::int64_t(float)>;

/// What to sweep: every input encoding in [first_bits, last_bits] of `input`.
struct QuantizeSweep {
  QuantInput input = QuantInput::fp16;      ///< the input format
  float scale = 1.0f;                       ///< y_scale, positive finite
  std::int64_t zero_point = 0;              ///< y_zero_point, inside the type
  QuantType type{"int8", -128, 127, 8};     ///< the output type
  std::uint64_t first_bits = 0;             ///< first encoding
  std::uint64_t last_bits = UINT64_MAX;     ///< last encoding (clamped to the format's last)
  unsigned threads = 2;                     ///< worker threads (results do not depend on it)
};

/// One input whose output differs from the real ideal.
struct QuantizeDifference {
  std::uint32_t bits;     ///< the input's encoding
  float input;            ///< the input
  std::int64_t output;    ///< the kernel's output
  std::int64_t ideal;     ///< saturate(round_half_even(x / scale) + zero_point), exact division
};

/// The sweep's findings.
struct QuantizeSweepResult {
  std::uint64_t inputs = 0;               ///< encodings run (each once), NaN included
  std::uint64_t nan_skipped = 0;          ///< NaN inputs (ONNX leaves them undefined): not judged
  std::uint64_t differs_from_ideal = 0;   ///< outputs ≠ the real ideal
  std::uint64_t differs_from_onnx_reference = 0;  ///< outputs ≠ ONNX's reference (binary32 division, then rint)
  double max_error_lsb = 0;               ///< max |output − zero_point − x/scale| where the ideal does not saturate
  std::uint32_t max_error_at = 0;         ///< the smallest encoding reaching it
  std::vector<QuantizeDifference> first_differences;  ///< up to 8, smallest encodings first
};

/// Sweeps a built-in variant; throws std::invalid_argument on a bad scale or zero point.
QuantizeSweepResult sweep_quantize(const QuantizeSweep& sweep, QuantizeVariant variant);
/// Sweeps a kernel given as a callable.
QuantizeSweepResult sweep_quantize(const QuantizeSweep& sweep, const QuantizeKernel& kernel);

/// The value of an encoding of `input` as a float (FP16 and BF16 convert exactly).
float decode(QuantInput input, std::uint32_t bits) noexcept;

}  // namespace symerr::verify::quant
