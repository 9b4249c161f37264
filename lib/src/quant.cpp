// Names and validation of the quantization variants and types
// (<symerr/quant/requantize.hpp>, <symerr/quant/quantize_linear.hpp>).
#include <array>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

#include <symerr/quant/quantize_linear.hpp>
#include <symerr/quant/requantize.hpp>

namespace symerr::quant {
namespace {

constexpr std::array<std::pair<RequantVariant, std::string_view>, 7> kRequantNames{{
    {RequantVariant::exact_half_even, "exact_half_even"},
    {RequantVariant::gemmlowp, "gemmlowp"},
    {RequantVariant::single_half_up, "single_half_up"},
    {RequantVariant::tosa_double_round, "tosa_double_round"},
    {RequantVariant::float_lrintf, "float_lrintf"},
    {RequantVariant::float_magic_bias, "float_magic_bias"},
    {RequantVariant::truncate, "truncate"},
}};

constexpr std::array<std::pair<QuantizeVariant, std::string_view>, 7> kQuantizeNames{{
    {QuantizeVariant::exact, "exact"},
    {QuantizeVariant::onnx_reference, "onnx_reference"},
    {QuantizeVariant::reciprocal_multiply, "reciprocal_multiply"},
    {QuantizeVariant::half_away_from_zero, "half_away_from_zero"},
    {QuantizeVariant::truncate, "truncate"},
    {QuantizeVariant::symmetric_range, "symmetric_range"},
    {QuantizeVariant::wrap, "wrap"},
}};

constexpr std::array<QuantType, 6> kTypes{{
    {"int8", -128, 127, 8},
    {"uint8", 0, 255, 8},
    {"int16", -32768, 32767, 16},
    {"uint16", 0, 65535, 16},
    {"int4", -8, 7, 4},
    {"uint4", 0, 15, 4},
}};

template <class Table>
std::string names_of(const Table& table) {
  std::string out;
  for (const auto& entry : table) {
    if (!out.empty()) out += ", ";
    if constexpr (std::is_same_v<std::decay_t<decltype(entry)>, QuantType>) {
      out += entry.name;
    } else {
      out += entry.second;
    }
  }
  return out;
}

}  // namespace

std::string_view to_string(RequantVariant v) noexcept {
  for (const auto& [variant, name] : kRequantNames)
    if (variant == v) return name;
  return "unknown";
}

RequantVariant requant_variant_from_string(std::string_view name) {
  for (const auto& [variant, n] : kRequantNames)
    if (n == name) return variant;
  throw std::invalid_argument("unknown requantization variant '" + std::string(name) + "' (known: " +
                              names_of(kRequantNames) + ")");
}

std::string_view to_string(QuantizeVariant v) noexcept {
  for (const auto& [variant, name] : kQuantizeNames)
    if (variant == v) return name;
  return "unknown";
}

QuantizeVariant quantize_variant_from_string(std::string_view name) {
  for (const auto& [variant, n] : kQuantizeNames)
    if (n == name) return variant;
  throw std::invalid_argument("unknown QuantizeLinear variant '" + std::string(name) + "' (known: " +
                              names_of(kQuantizeNames) + ")");
}

QuantType quant_type_from_string(std::string_view name) {
  for (const auto& t : kTypes)
    if (t.name == name) return t;
  throw std::invalid_argument("unknown quantized type '" + std::string(name) + "' (known: " + names_of(kTypes) + ")");
}

void validate_quantize(float scale, std::int64_t zero_point, const QuantType& type) {
  if (!(std::isfinite(scale) && scale > 0))
    throw std::invalid_argument("QuantizeLinear scale must be a positive finite number, got " + std::to_string(scale));
  if (zero_point < type.lo || zero_point > type.hi)
    throw std::invalid_argument("zero point " + std::to_string(zero_point) + " outside " + std::string(type.name) +
                                " [" + std::to_string(type.lo) + ", " + std::to_string(type.hi) + "]");
}

}  // namespace symerr::quant
