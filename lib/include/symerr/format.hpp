// Number formats: one table of descriptors for the binary floating-point and
// integer formats symerr reasons about (docs/design.md §1 "Formats").
//
// Representation choice: every value of every supported floating-point format
// is a double. Custom binary formats are therefore limited to
// 2 <= precision <= 53, emin >= -1022, emax <= 1023 (FP8 E4M3/E5M2, FP16, BF16,
// TF32, FP32, FP64 all fit); custom_float_format() rejects anything else.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include <gmpxx.h>
#include <mpfr.h>

#include <symerr/config.hpp>
#include <symerr/fp_environment.hpp>

namespace symerr {

/// IEEE 754 rounding-direction attributes.
enum class RoundingMode : unsigned char {
  NearestEven,  ///< roundTiesToEven
  TowardZero,   ///< roundTowardZero
  Upward,       ///< roundTowardPositive
  Downward,     ///< roundTowardNegative
};
/// The mode's name ("NearestEven", ...).
const char* to_string(RoundingMode m) noexcept;

/// Ternary value of a rounding, with MPFR's sign convention:
/// the rounded value is exactly, above, or below the exact one.
enum class Ternary : signed char { RoundedDown = -1, Exact = 0, RoundedUp = 1 };

/// What an overflowing rounding produces (|round(x)| with unbounded exponent
/// range above max_finite()):
///   Infinity — IEEE 754 §7.4: ±inf or ±max finite by the rounding direction;
///   Saturate — ±max finite in every mode (OCP FP8 "satfinite" conversion);
///   NaN      — NaN in every mode (OCP FP8 E4M3 non-saturating conversion).
/// Formats with Saturate or NaN have no infinities: an operation whose IEEE
/// result would be ±inf (x/±0 included) gives ±max finite resp. NaN.
enum class Overflow : unsigned char { Infinity, Saturate, NaN };

/// A binary floating-point format: values (-1)^s * m * 2^(e-p+1), m < 2^p,
/// normal exponents e in [emin, emax], subnormals at exponent emin if enabled.
///
/// Without subnormals the nonzero values below 2^emin do not exist: an exact
/// result below the normal range is rounded into {0, ±2^emin} by the rounding
/// direction like any other value (RNE: to 2^emin above 2^(emin-1), else to 0,
/// the tie to 0), and a result rounded to 0 keeps the sign of the exact value.
struct FloatFormat {
  /// The format's name ("FP32"); not part of its identity (operator== ignores it).
  std::string_view name;
  int precision;  ///< p, including the hidden bit
  int emin;       ///< exponent of the smallest normal: min normal = 2^emin
  int emax;       ///< exponent of the largest finite: max = (2 - (1+r) 2^(1-p)) * 2^emax
  /// Whether the format has subnormals (gradual underflow).
  bool subnormals = true;
  /// What an overflowing rounding produces.
  Overflow overflow = Overflow::Infinity;
  /// r: the largest r significands of the top binade are not finite values
  /// (OCP FP8 E4M3: r = 1, its all-ones pattern is NaN, so max = 448).
  int reserved_top = 0;

  /// Whether overflow can produce ±inf (Overflow::Infinity).
  bool has_infinities() const noexcept { return overflow == Overflow::Infinity; }

  /// u = 2^-p, the unit roundoff of round-to-nearest.
  double unit_roundoff() const noexcept;
  /// epsilon = 2^(1-p), the spacing of values in [1, 2).
  double epsilon() const noexcept;
  double min_normal() const noexcept;     ///< 2^emin
  double min_subnormal() const noexcept;  ///< 2^(emin-p+1), or min_normal() without subnormals
  double max_subnormal() const noexcept;  ///< min_normal() - min_subnormal(); 0 without subnormals
  double max_finite() const noexcept;     ///< (2 - 2^(1-p)) * 2^emax

  /// Equality of the parameters (the name is ignored).
  friend bool operator==(const FloatFormat& a, const FloatFormat& b) noexcept {
    return a.precision == b.precision && a.emin == b.emin && a.emax == b.emax &&
           a.subnormals == b.subnormals && a.overflow == b.overflow &&
           a.reserved_top == b.reserved_top;
  }
};

/// IEEE binary16.
inline constexpr FloatFormat FP16{"FP16", 11, -14, 15, true};
/// bfloat16.
inline constexpr FloatFormat BF16{"BF16", 8, -126, 127, true};
/// IEEE binary32.
inline constexpr FloatFormat FP32{"FP32", 24, -126, 127, true};
/// IEEE binary64.
inline constexpr FloatFormat FP64{"FP64", 53, -1022, 1023, true};
/// OCP FP8 E5M2 is IEEE-like (it has infinities and NaN); listed for custom use.
inline constexpr FloatFormat FP8_E5M2{"FP8_E5M2", 3, -14, 15, true};
/// OCP FP8 E4M3: no infinities, max 448 (the top all-ones code is NaN),
/// overflow to NaN; FP8_E4M3_SAT saturates to ±448 instead.
inline constexpr FloatFormat FP8_E4M3{"FP8_E4M3", 4, -6, 8, true, Overflow::NaN, 1};
/// OCP FP8 E4M3 with saturating overflow (±448 in every mode).
inline constexpr FloatFormat FP8_E4M3_SAT{"FP8_E4M3_SAT", 4, -6, 8, true, Overflow::Saturate, 1};

/// A custom binary format; throws std::invalid_argument naming the offending
/// parameter and its allowed range (reserved_top in [0, 2^(p-1) - 1]; Infinity
/// overflow requires reserved_top = 0).
FloatFormat custom_float_format(std::string_view name, int precision, int emin, int emax,
                                bool subnormals = true, Overflow overflow = Overflow::Infinity,
                                int reserved_top = 0);

/// A two's-complement (signed) or plain binary (unsigned) integer format of
/// `bits` bits with wrap-around modulo 2^bits.
struct IntFormat {
  /// The format's name ("INT8"); not part of its identity.
  std::string_view name;
  int bits;  ///< 1..64
  /// Signed (two's complement) or unsigned.
  bool is_signed;

  ///@{
  /// The smallest (max_value(): largest) integer of the format.
  __int128 min_value() const noexcept;
  __int128 max_value() const noexcept;
  ///@}
  /// The representative of v modulo 2^bits in [min_value(), max_value()].
  __int128 wrap(__int128 v) const noexcept;
  /// Whether v is an integer of the format (no wrap needed).
  bool contains(__int128 v) const noexcept { return v >= min_value() && v <= max_value(); }

  /// Equality of width and signedness (the name is ignored).
  friend bool operator==(const IntFormat& a, const IntFormat& b) noexcept {
    return a.bits == b.bits && a.is_signed == b.is_signed;
  }
};

///@{
/// The named integer formats: signed (two's complement) INTn and unsigned UINTn of n bits.
inline constexpr IntFormat INT4{"INT4", 4, true};
inline constexpr IntFormat INT8{"INT8", 8, true};
inline constexpr IntFormat INT16{"INT16", 16, true};
inline constexpr IntFormat INT32{"INT32", 32, true};
inline constexpr IntFormat INT64{"INT64", 64, true};
inline constexpr IntFormat UINT4{"UINT4", 4, false};
inline constexpr IntFormat UINT8{"UINT8", 8, false};
inline constexpr IntFormat UINT16{"UINT16", 16, false};
inline constexpr IntFormat UINT32{"UINT32", 32, false};
inline constexpr IntFormat UINT64{"UINT64", 64, false};
///@}

/// Either kind of format; the "real" format (no rounding at all) is std::monostate.
using Format = std::variant<std::monostate, FloatFormat, IntFormat>;

/// `x.format == FP32`: the value is of that format (and !=, reversed, by
/// C++20's rewritten comparisons).
inline bool operator==(const Format& f, const FloatFormat& F) noexcept {
  const FloatFormat* p = std::get_if<FloatFormat>(&f);
  return p && *p == F;
}
/// `x.format == INT8`: the value is of that integer format.
inline bool operator==(const Format& f, const IntFormat& I) noexcept {
  const IntFormat* p = std::get_if<IntFormat>(&f);
  return p && *p == I;
}
/// The format's name ("FP32", "INT8", "real" for std::monostate).
std::string format_name(const Format& f);

/// The table: every named format. find_format("fp16") is case-insensitive and
/// also accepts the ONNX names (FLOAT16, BFLOAT16, FLOAT, DOUBLE).
inline constexpr FloatFormat kFloatFormats[] = {FP16, BF16, FP32, FP64};
/// The named integer formats, for lookup by name.
inline constexpr IntFormat kIntFormats[] = {INT4,  INT8,  INT16,  INT32,  INT64,
                                            UINT4, UINT8, UINT16, UINT32, UINT64};
/// The format named `name` (case-insensitive; ONNX names FLOAT16, BFLOAT16, FLOAT,
/// DOUBLE accepted), or std::nullopt.
std::optional<Format> find_format(std::string_view name);

// ---- values of a float format ------------------------------------------

/// True iff x is a value of F. ±0 count as values, ±inf iff F has infinities;
/// NaN does not.
bool is_representable(double x, const FloatFormat& F) noexcept;

/// The spacing of F's values at x: for |x| in [2^e, 2^(e+1)) with e >= emin it is
/// 2^(e-p+1); below 2^emin it is min_subnormal() (the subnormal spacing).
/// For |x| above max_finite() it is the spacing of the top binade.
/// Precondition: x finite (throws std::domain_error otherwise).
double ulp(double x, const FloatFormat& F);

/// The values adjacent to x in F (x a value of F): next_up / next_down, with
/// overflow to ±inf.
double next_up(double x, const FloatFormat& F);
/// The value adjacent to x below in F (see next_up()).
double next_down(double x, const FloatFormat& F);

// ---- rounding ---------------------------------------------------------------

/// The result of a rounding: the value and what happened.
struct Rounded {
  double value;       ///< a value of F (or ±inf); a zero result keeps the sign rule
  Ternary ternary;    ///< value vs the exact input
  bool overflow;      ///< |exact| beyond the overflow threshold of the mode
  bool underflow;     ///< tiny (|exact| < min normal) and inexact (IEEE "after rounding" aside)
};

/// Round an exact value into F. `negative_zero` chooses the sign of a zero
/// result when the exact value is 0 (rationals have no signed zero).
Rounded round_to(const mpq_class& x, const FloatFormat& F, RoundingMode mode,
                 bool negative_zero = false);
/// Round an MPFR number (any precision; ±0, ±inf pass through, NaN -> NaN, Exact).
Rounded round_to(mpfr_srcptr x, const FloatFormat& F, RoundingMode mode);
/// Round a double (exactly: no double rounding) into F — conversion between formats.
Rounded round_to(double x, const FloatFormat& F, RoundingMode mode);

/// Convert a value of `from` to `to` (throws std::invalid_argument if x is not a
/// value of `from`).
Rounded convert(double x, const FloatFormat& from, const FloatFormat& to, RoundingMode mode);

/// The exact rational value of a finite double.
mpq_class exact_value(double x);

// ---- storage encodings ------------------------------------------------------

/// Bit patterns of the 16-bit formats. decode is exact; encode requires x to be
/// a value of the format (or NaN) and throws std::invalid_argument otherwise.
/// NaN payloads (and the quiet bit and sign) are carried in the top payload bits
/// of the double, as hardware conversions do, so decode∘encode and encode∘decode
/// are the identity on every bit pattern.
double decode_fp16(std::uint16_t bits) noexcept;
///@{
/// Bit patterns of FP16 and BF16 (see decode_fp16()): decode is exact; encode
/// requires x to be a value of the format (or NaN) and throws
/// std::invalid_argument otherwise.
std::uint16_t encode_fp16(double x);
double decode_bf16(std::uint16_t bits) noexcept;
std::uint16_t encode_bf16(double x);
///@}

}  // namespace symerr
