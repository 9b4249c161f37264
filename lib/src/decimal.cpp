// exact_decimal: a decimal number as an exact rational, in base 10.
#include <symerr/decimal.hpp>

#include <cctype>
#include <stdexcept>
#include <string>

namespace symerr {

namespace {

[[noreturn]] void bad_decimal(std::string_view text, const char* why) {
  throw std::invalid_argument("exact_decimal: \"" + std::string(text) + "\" is not a decimal number (" + why + ")");
}

bool is_digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

}  // namespace

mpq_class exact_decimal(std::string_view text) {
  std::size_t i = 0;
  const bool negative = i < text.size() && text[i] == '-';
  if (i < text.size() && (text[i] == '-' || text[i] == '+')) ++i;
  std::string digits;  // integer and fraction digits, no dot
  long fraction_digits = 0;
  bool dot = false;
  for (; i < text.size() && (is_digit(text[i]) || (text[i] == '.' && !dot)); ++i) {
    if (text[i] == '.') {
      dot = true;
      continue;
    }
    digits += text[i];
    if (dot) ++fraction_digits;
  }
  if (digits.empty()) bad_decimal(text, "no digits");
  long exp10 = 0;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    const bool exp_negative = i < text.size() && text[i] == '-';
    if (i < text.size() && (text[i] == '-' || text[i] == '+')) ++i;
    if (i == text.size()) bad_decimal(text, "no exponent digits");
    for (; i < text.size() && is_digit(text[i]); ++i) {
      if (exp10 > 100000000) bad_decimal(text, "exponent out of range");
      exp10 = exp10 * 10 + (text[i] - '0');
    }
    if (exp_negative) exp10 = -exp10;
  }
  if (i != text.size()) bad_decimal(text, "unexpected character");
  mpz_class num(digits, 10);  // base 10: a leading 0 is not an octal prefix
  if (negative) num = -num;
  const long shift = exp10 - fraction_digits;
  mpz_class ten_pow;
  mpz_ui_pow_ui(ten_pow.get_mpz_t(), 10, static_cast<unsigned long>(shift < 0 ? -shift : shift));
  mpq_class q = shift >= 0 ? mpq_class(num * ten_pow) : mpq_class(num, ten_pow);
  q.canonicalize();
  return q;
}

}  // namespace symerr
