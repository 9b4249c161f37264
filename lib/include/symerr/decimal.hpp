// Decimal constants as exact rationals: "331.4", "0.125", "3.5e7", "-42.7E-6".
#pragma once

#include <string_view>

#include <gmpxx.h>

namespace symerr {

/// The exact rational value of a decimal number written [sign] digits [. digits]
/// [e|E [sign] digits], read in base 10 whatever its leading zeros ("0.125" is
/// 1/8, "017" is 17: GMP's string constructors read a leading 0 as octal).
/// std::invalid_argument naming the text when it is not such a number.
mpq_class exact_decimal(std::string_view text);

}  // namespace symerr
