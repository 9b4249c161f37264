// The special states of a SymbolicDomainError: which IEEE categories the
// computed value may take, and whether the ideal (real) value may be undefined.
// Special states are flags, never NaN endpoints (docs/design.md §1).
#pragma once

#include <cstdint>

namespace symerr {

/// IEEE categories of a computed value.
enum Category : std::uint8_t {
  kNegInf = 1 << 0,
  kNegFinite = 1 << 1,  ///< < 0
  kNegZero = 1 << 2,
  kPosZero = 1 << 3,
  kPosFinite = 1 << 4,  ///< > 0
  kPosInf = 1 << 5,
  kNaN = 1 << 6,
};
/// A set of Category bits.
using CategorySet = std::uint8_t;

/// Either zero.
inline constexpr CategorySet kAnyZero = kNegZero | kPosZero;
/// Either infinity.
inline constexpr CategorySet kAnyInf = kNegInf | kPosInf;
/// A finite nonzero value.
inline constexpr CategorySet kNonZeroFinite = kNegFinite | kPosFinite;
/// Any finite value, zeros included.
inline constexpr CategorySet kFinite = kNegFinite | kPosFinite | kAnyZero;
inline constexpr CategorySet kNegative = kNegInf | kNegFinite | kNegZero;  ///< sign bit set
/// Sign bit clear.
inline constexpr CategorySet kPositive = kPosInf | kPosFinite | kPosZero;

/// The special states of a SymbolicDomainError: which IEEE categories the
/// computed value may take, and whether the ideal (real) value may be undefined.
/// Special states are flags, never NaN endpoints (docs/design.md §1).
struct SpecialStates {
  bool may_be_finite = true;    ///< the computed value may be finite (then fp encloses it)
  ///@{
  /// The computed value may be +inf (-inf, NaN).
  bool may_be_pos_inf = false;
  bool may_be_neg_inf = false;
  bool may_be_nan = false;
  ///@}
  bool may_be_pos_zero = true;  ///< sign of a zero computed value (meaningful when 0 ∈ fp)
  /// The computed value may be −0.
  bool may_be_neg_zero = false;
  bool may_be_defined = true;   ///< the real value may be defined (then real encloses it)
  bool may_be_undefined = false;  ///< the real value may be undefined (e.g. real division by 0)
  bool may_overflow = false;    ///< the last rounding may have overflowed
};

}  // namespace symerr
