// Helpers shared by the symbolic checks (symbolic_check.cpp, kernel_check.cpp,
// witness_search.cpp): a box as text, values of a format, the error part of
// an enclosure. Internal to verify/src/symbolic.
#pragma once

#include <bit>
#include <cstdint>

#include <cmath>
#include <cstdio>
#include <sstream>
#include <string>
#include <variant>

#include <symerr/verify/symbolic/symbolic_check.hpp>

namespace symerr::detail {

inline std::string box_text(const verify::InputBox& x) {
  std::ostringstream s;
  s.precision(17);
  s << "value [" << x.lo << ", " << x.hi << "] err [" << x.elo << ", " << x.ehi << "]";
  return s.str();
}

// A value of the format near v (nearest; integers: nearest integer).
inline double on_grid(double v, const Format& f) {
  if (const FloatFormat* F = std::get_if<FloatFormat>(&f)) return round_to(v, *F, RoundingMode::NearestEven).value;
  if (std::holds_alternative<IntFormat>(f)) return std::nearbyint(v);
  return v;
}

// A value as the reports show it: the double, its exact decimal, and the
// storage bits of a 16-bit, FP32 or FP64 format.
inline verify::Value value_of(double v, const Format& f) {
  verify::Value x;
  x.value = v;
  std::ostringstream s;
  s.precision(17);
  s << v;
  x.exact = std::isfinite(v) ? exact_value(v).get_str() : s.str();
  if (const FloatFormat* F = std::get_if<FloatFormat>(&f); F && (*F == FP16 || *F == BF16) &&
                                                            (std::isnan(v) || is_representable(v, *F))) {
    char b[16];
    std::snprintf(b, sizeof b, "0x%04x", *F == FP16 ? encode_fp16(v) : encode_bf16(v));
    x.bits = b;
  } else if (F && *F == FP32 && (std::isnan(v) || is_representable(v, *F))) {
    char b[16];
    std::snprintf(b, sizeof b, "0x%08x", std::bit_cast<std::uint32_t>(static_cast<float>(v)));
    x.bits = b;
  } else if (F && *F == FP64) {
    char b[24];
    std::snprintf(b, sizeof b, "0x%016llx", static_cast<unsigned long long>(std::bit_cast<std::uint64_t>(v)));
    x.bits = b;
  }
  return x;
}

inline const Interval& field_of(const SymbolicError& c, verify::ErrorPart part) {
  using verify::ErrorPart;
  return part == ErrorPart::Total ? c.err : part == ErrorPart::Propagated ? c.propagated : c.introduced;
}

}  // namespace symerr::detail

namespace symerr::verify {
using detail::box_text;
using detail::field_of;
using detail::on_grid;
using detail::value_of;
}  // namespace symerr::verify
