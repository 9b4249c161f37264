// Format descriptors, ulp, and exact rounding of rationals/doubles into a
// binary format. The rounding here is an independent integer implementation;
// tests check it against MPFR's emulation of each format and against hardware.
#include <symerr/format.hpp>

#include <algorithm>
#include <bit>
#include <cctype>
#include <cmath>
#include <stdexcept>
#include <string>

namespace symerr {

const char* to_string(RoundingMode m) noexcept {
  switch (m) {
    case RoundingMode::NearestEven: return "RNE";
    case RoundingMode::TowardZero: return "RTZ";
    case RoundingMode::Upward: return "RUP";
    case RoundingMode::Downward: return "RDN";
  }
  return "?";
}

double FloatFormat::unit_roundoff() const noexcept { return std::ldexp(1.0, -precision); }
double FloatFormat::epsilon() const noexcept { return std::ldexp(1.0, 1 - precision); }
double FloatFormat::min_normal() const noexcept { return std::ldexp(1.0, emin); }
double FloatFormat::min_subnormal() const noexcept {
  return subnormals ? std::ldexp(1.0, emin - precision + 1) : min_normal();
}
double FloatFormat::max_subnormal() const noexcept {
  return subnormals ? min_normal() - min_subnormal() : 0.0;
}
double FloatFormat::max_finite() const noexcept {
  // (2^p - 1 - r) * 2^(emax - p + 1): exact (an integer below 2^53 scaled).
  const double top = std::ldexp(1.0, precision) - 1.0 - reserved_top;
  return std::ldexp(top, emax - precision + 1);
}

FloatFormat custom_float_format(std::string_view name, int precision, int emin, int emax,
                                bool subnormals, Overflow overflow, int reserved_top) {
  auto fail = [&](const std::string& what) {
    throw std::invalid_argument("custom_float_format(" + std::string(name) + "): " + what);
  };
  if (precision < 2 || precision > 53)
    fail("precision " + std::to_string(precision) + " outside [2, 53]");
  if (emax < 1 || emax > 1023) fail("emax " + std::to_string(emax) + " outside [1, 1023]");
  if (emin > -1 || emin < -1022) fail("emin " + std::to_string(emin) + " outside [-1022, -1]");
  if (subnormals && emin - precision + 1 < -1074)
    fail("smallest subnormal 2^" + std::to_string(emin - precision + 1) +
         " is below the smallest double 2^-1074");
  if (reserved_top < 0 || reserved_top > (1 << std::min(precision - 1, 30)) - 1)
    fail("reserved_top " + std::to_string(reserved_top) + " outside [0, 2^(p-1) - 1]");
  if (reserved_top != 0 && overflow == Overflow::Infinity)
    fail("reserved top significands need overflow Saturate or NaN (the format has no infinities)");
  return FloatFormat{name, precision, emin, emax, subnormals, overflow, reserved_top};
}

__int128 IntFormat::min_value() const noexcept {
  return is_signed ? -(static_cast<__int128>(1) << (bits - 1)) : 0;
}
__int128 IntFormat::max_value() const noexcept {
  return is_signed ? (static_cast<__int128>(1) << (bits - 1)) - 1
                   : (static_cast<__int128>(1) << bits) - 1;
}
__int128 IntFormat::wrap(__int128 v) const noexcept {
  const __int128 modulus = static_cast<__int128>(1) << bits;
  __int128 r = v % modulus;
  if (r < 0) r += modulus;
  if (r > max_value()) r -= modulus;
  return r;
}

std::string format_name(const Format& f) {
  if (auto* ff = std::get_if<FloatFormat>(&f)) return std::string(ff->name);
  if (auto* fi = std::get_if<IntFormat>(&f)) return std::string(fi->name);
  return "real";
}

std::optional<Format> find_format(std::string_view name) {
  std::string n(name);
  for (auto& c : n) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (n == "REAL") return Format{std::monostate{}};
  if (n == "FLOAT16" || n == "HALF") n = "FP16";
  if (n == "BFLOAT16") n = "BF16";
  if (n == "FLOAT" || n == "FLOAT32") n = "FP32";
  if (n == "DOUBLE" || n == "FLOAT64") n = "FP64";
  for (const auto& f : kFloatFormats)
    if (f.name == n) return Format{f};
  for (const auto& f : {FP8_E5M2, FP8_E4M3, FP8_E4M3_SAT})
    if (f.name == n) return Format{f};
  for (const auto& f : kIntFormats)
    if (f.name == n) return Format{f};
  return std::nullopt;
}

// ---- values ---------------------------------------------------------------

namespace {

// |x| = M * 2^k with M an integer < 2^53 (x finite, nonzero).
struct Decomposed {
  std::uint64_t mantissa;
  int exponent;  // k
  int binade;    // e = floor(log2 |x|)
};

Decomposed decompose(double x) noexcept {
  int e = 0;
  const double fr = std::frexp(std::fabs(x), &e);  // fr in [0.5, 1)
  const auto m = static_cast<std::uint64_t>(std::ldexp(fr, 53));
  const int tz = std::countr_zero(m);
  return {m >> tz, e - 53 + tz, e - 1};
}

}  // namespace

bool is_representable(double x, const FloatFormat& F) noexcept {
  if (std::isnan(x)) return false;
  if (std::isinf(x)) return F.has_infinities();
  if (x == 0) return true;
  if (std::fabs(x) > F.max_finite()) return false;
  const Decomposed d = decompose(x);
  if (d.binade > F.emax) return false;
  if (d.binade < F.emin && !F.subnormals) return false;
  const int quantum = std::max(d.binade, F.emin) - F.precision + 1;
  return d.exponent >= quantum;
}

double ulp(double x, const FloatFormat& F) {
  if (!std::isfinite(x)) throw std::domain_error("ulp: argument is not finite");
  const double a = std::fabs(x);
  if (a < F.min_normal()) return std::ldexp(1.0, F.emin - F.precision + 1);
  const int e = std::min(std::ilogb(a), F.emax);
  return std::ldexp(1.0, e - F.precision + 1);
}

namespace {
// Spacing just below |x| for a positive value x of F.
double ulp_below(double a, const FloatFormat& F) {
  const double u = ulp(a, F);
  int e = 0;
  const bool power_of_two = std::frexp(a, &e) == 0.5;
  if (power_of_two && a > F.min_normal()) return u / 2;
  return u;
}

void require_value(double x, const FloatFormat& F, const char* who) {
  if (!std::isnan(x) && !is_representable(x, F))
    throw std::invalid_argument(std::string(who) + ": " + std::to_string(x) +
                                " is not a value of " + std::string(F.name));
}
}  // namespace

double next_up(double x, const FloatFormat& F) {
  require_value(x, F, "next_up");
  if (std::isnan(x) || x == INFINITY) return x;
  if (x == -INFINITY) return -F.max_finite();
  if (x == 0) return F.min_subnormal();
  if (x > 0) {
    const double y = x + ulp(x, F);
    return y > F.max_finite() ? INFINITY : y;
  }
  const double y = x + ulp_below(-x, F);
  if (!F.subnormals && y > -F.min_normal() && y < 0) return -0.0;
  return y == 0 ? -0.0 : y;
}

double next_down(double x, const FloatFormat& F) { return -next_up(-x, F); }

// ---- rounding -------------------------------------------------------------

namespace {

// Decide whether to increment the truncated magnitude, given the discarded
// part as a comparison of the remainder against half a quantum.
// `cmp_half` is sign(remainder - quantum/2); `inexact` is remainder != 0.
bool round_up_magnitude(RoundingMode mode, bool negative, bool inexact, int cmp_half,
                        bool odd) noexcept {
  if (!inexact) return false;
  switch (mode) {
    case RoundingMode::NearestEven: return cmp_half > 0 || (cmp_half == 0 && odd);
    case RoundingMode::TowardZero: return false;
    case RoundingMode::Upward: return !negative;
    case RoundingMode::Downward: return negative;
  }
  return false;
}

// The value of an overflowing result in `mode` (IEEE 754 §7.4, or the
// format's Saturate / NaN behaviour).
double overflow_value(RoundingMode mode, bool negative, const FloatFormat& F) noexcept {
  if (F.overflow == Overflow::NaN) return negative ? -NAN : NAN;
  if (F.overflow == Overflow::Saturate) return negative ? -F.max_finite() : F.max_finite();
  const bool to_inf = mode == RoundingMode::NearestEven ||
                      (mode == RoundingMode::Upward && !negative) ||
                      (mode == RoundingMode::Downward && negative);
  const double mag = to_inf ? INFINITY : F.max_finite();
  return negative ? -mag : mag;
}

Ternary ternary_of(bool negative, bool magnitude_up) noexcept {
  return (magnitude_up != negative) ? Ternary::RoundedUp : Ternary::RoundedDown;
}

// Shared tail: the magnitude m * 2^quantum_exp (m an integer up to 2^p), the
// rounding direction already applied; handles overflow and flush-to-zero.
Rounded finish(std::uint64_t m, int quantum_exp, bool negative, bool inexact, bool magnitude_up,
               bool tiny, const FloatFormat& F, RoundingMode mode) {
  Rounded r{};
  // m * 2^quantum_exp >= 2^(emax+1) is decided on the exponent, before any
  // ldexp (which would saturate at DBL_MAX, or be inexact, for such values).
  const int top_exp = quantum_exp + static_cast<int>(std::bit_width(m)) - 1;
  const double mag = top_exp > F.emax ? INFINITY : std::ldexp(static_cast<double>(m), quantum_exp);
  if (mag > F.max_finite()) {
    r.value = overflow_value(mode, negative, F);
    r.overflow = true;
    if (std::isnan(r.value)) r.ternary = negative ? Ternary::RoundedDown : Ternary::RoundedUp;
    else r.ternary = negative ? (r.value < -F.max_finite() ? Ternary::RoundedDown : Ternary::RoundedUp)
                              : (r.value > F.max_finite() ? Ternary::RoundedUp : Ternary::RoundedDown);
    return r;
  }
  r.value = negative ? -mag : mag;
  r.ternary = inexact ? ternary_of(negative, magnitude_up) : Ternary::Exact;
  r.underflow = tiny && inexact;
  return r;
}

// Rounding when subnormals are disabled and |x| < min normal: the candidates
// are 0 and min normal. `cmp_half_min` = sign(|x| - min_normal/2).
Rounded round_flushed(bool negative, int cmp_half_min, const FloatFormat& F, RoundingMode mode) {
  bool up = false;
  switch (mode) {
    case RoundingMode::NearestEven: up = cmp_half_min > 0; break;  // tie -> 0 (even)
    case RoundingMode::TowardZero: up = false; break;
    case RoundingMode::Upward: up = !negative; break;
    case RoundingMode::Downward: up = negative; break;
  }
  const double mag = up ? F.min_normal() : 0.0;
  return Rounded{negative ? -mag : mag, ternary_of(negative, up), false, true};
}

}  // namespace

Rounded round_to(const mpq_class& x, const FloatFormat& F, RoundingMode mode,
                 bool negative_zero) {
  const FpEnvironmentGuard guard;
  const int s = sgn(x);
  if (s == 0) return Rounded{negative_zero ? -0.0 : 0.0, Ternary::Exact, false, false};
  const bool negative = s < 0;
  mpz_class num = abs(x.get_num());
  const mpz_class& den = x.get_den();
  // binade e = floor(log2 |x|)
  long e = static_cast<long>(mpz_sizeinbase(num.get_mpz_t(), 2)) -
           static_cast<long>(mpz_sizeinbase(den.get_mpz_t(), 2));
  {
    mpz_class lhs = num, rhs = den;  // compare num with den * 2^e
    if (e >= 0) rhs <<= static_cast<mp_bitcnt_t>(e); else lhs <<= static_cast<mp_bitcnt_t>(-e);
    if (lhs < rhs) --e;
  }
  if (e > F.emax + 1) {  // far beyond the range: overflow in every mode
    return finish(std::uint64_t{1} << 62, 1100, negative, true, true, false, F, mode);
  }
  const bool tiny = e < F.emin;
  if (tiny && !F.subnormals) {
    mpz_class lhs = num, rhs = den;
    const long k = 1 - F.emin;  // > 0
    lhs <<= static_cast<mp_bitcnt_t>(k);
    const int c = cmp(lhs, rhs);
    return round_flushed(negative, c, F, mode);
  }
  const long quantum_exp = std::max<long>(e, F.emin) - F.precision + 1;
  // scaled = |x| / 2^quantum_exp = num * 2^-quantum_exp / den
  mpz_class n = num, d = den;
  if (quantum_exp <= 0) n <<= static_cast<mp_bitcnt_t>(-quantum_exp);
  else d <<= static_cast<mp_bitcnt_t>(quantum_exp);
  mpz_class q, r;
  mpz_tdiv_qr(q.get_mpz_t(), r.get_mpz_t(), n.get_mpz_t(), d.get_mpz_t());
  const bool inexact = sgn(r) != 0;
  const int cmp_half = inexact ? cmp(mpz_class(r << 1), d) : -1;
  std::uint64_t m = mpz_get_ui(q.get_mpz_t());
  const bool up = round_up_magnitude(mode, negative, inexact, cmp_half, (m & 1) != 0);
  if (up) ++m;
  return finish(m, static_cast<int>(quantum_exp), negative, inexact, up, tiny, F, mode);
}

Rounded round_to(mpfr_srcptr x, const FloatFormat& F, RoundingMode mode) {
  if (mpfr_nan_p(x)) return Rounded{NAN, Ternary::Exact, false, false};
  if (mpfr_inf_p(x)) return round_to(mpfr_signbit(x) ? -INFINITY : INFINITY, F, mode);
  if (mpfr_zero_p(x)) return Rounded{mpfr_signbit(x) ? -0.0 : 0.0, Ternary::Exact, false, false};
  // |x| in [2^(E-1), 2^E). Far outside F's range the rounding depends on the
  // sign alone: below 2^(emin-p) (half the subnormal spacing, and below
  // 2^(emin-1), the flush threshold without subnormals) and from 2^(emax+2)
  // (beyond the overflow threshold) the ±2^(emin-p-2) or ±2^(emax+2) stand-in
  // rounds the same (value, ternary, flags). The exact rational of x would
  // have |E| bits: 2^-1073741824, MPFR's underflow in its default exponent
  // range, took 134 MB (a 2^30-bit denominator).
  const mpfr_exp_t E = mpfr_get_exp(x);
  const bool below = E <= F.emin - F.precision - 1;
  if (below || E >= F.emax + 3) {
    const long k = below ? F.emin - F.precision - 2 : F.emax + 2;
    mpq_class stand_in(1);
    if (k >= 0) mpq_mul_2exp(stand_in.get_mpq_t(), stand_in.get_mpq_t(), static_cast<mp_bitcnt_t>(k));
    else mpq_div_2exp(stand_in.get_mpq_t(), stand_in.get_mpq_t(), static_cast<mp_bitcnt_t>(-k));
    if (mpfr_signbit(x)) stand_in = -stand_in;
    return round_to(stand_in, F, mode);
  }
  mpz_class z;
  const mpfr_exp_t e = mpfr_get_z_2exp(z.get_mpz_t(), x);
  mpq_class q(z);
  if (e >= 0) mpq_mul_2exp(q.get_mpq_t(), q.get_mpq_t(), static_cast<mp_bitcnt_t>(e));
  else mpq_div_2exp(q.get_mpq_t(), q.get_mpq_t(), static_cast<mp_bitcnt_t>(-e));
  return round_to(q, F, mode);
}

Rounded round_to(double x, const FloatFormat& F, RoundingMode mode) {
  const FpEnvironmentGuard guard;
  if (std::isnan(x) || x == 0) return Rounded{x, Ternary::Exact, false, false};
  if (std::isinf(x)) {  // an infinity of a format without infinities overflows
    if (F.has_infinities()) return Rounded{x, Ternary::Exact, false, false};
    return finish(std::uint64_t{1} << 62, 1100, x < 0, true, true, false, F, mode);
  }
  const bool negative = std::signbit(x);
  const Decomposed d = decompose(x);
  const bool tiny = d.binade < F.emin;
  if (tiny && !F.subnormals) {
    const double half_min = std::ldexp(1.0, F.emin - 1);
    const double a = std::fabs(x);
    return round_flushed(negative, a > half_min ? 1 : (a < half_min ? -1 : 0), F, mode);
  }
  if (d.binade > F.emax + 1)
    return finish(std::uint64_t{1} << 62, 1100, negative, true, true, false, F, mode);
  const int quantum_exp = std::max(d.binade, F.emin) - F.precision + 1;
  if (d.exponent >= quantum_exp) {  // already on the grid of F
    const std::uint64_t m = d.mantissa << (d.exponent - quantum_exp);
    return finish(m, quantum_exp, negative, false, false, tiny, F, mode);
  }
  const int shift = quantum_exp - d.exponent;  // > 0
  std::uint64_t m = 0;
  int cmp_half = -1;
  if (shift >= 64) {
    m = 0;
    cmp_half = -1;  // mantissa < 2^53 <= 2^(shift-1)
  } else {
    m = d.mantissa >> shift;
    const std::uint64_t rem = d.mantissa & ((std::uint64_t{1} << shift) - 1);
    const std::uint64_t half = std::uint64_t{1} << (shift - 1);
    cmp_half = rem > half ? 1 : (rem < half ? -1 : 0);
  }
  const bool up = round_up_magnitude(mode, negative, true, cmp_half, (m & 1) != 0);
  if (up) ++m;
  return finish(m, quantum_exp, negative, true, up, tiny, F, mode);
}

Rounded convert(double x, const FloatFormat& from, const FloatFormat& to, RoundingMode mode) {
  require_value(x, from, "convert");
  return round_to(x, to, mode);
}

mpq_class exact_value(double x) {
  if (!std::isfinite(x)) throw std::domain_error("exact_value: argument is not finite");
  mpq_class q;
  mpq_set_d(q.get_mpq_t(), x);  // exact for every finite double
  return q;
}

// ---- storage encodings ----------------------------------------------------

namespace {

// A double NaN carrying `payload_bits` bits of payload (quiet bit included) at
// the top of its significand, like a hardware widening conversion.
double nan_with_payload(bool negative, std::uint64_t payload, int payload_bits) {
  const std::uint64_t bits = (negative ? (std::uint64_t{1} << 63) : 0) |
                             (std::uint64_t{0x7FF} << 52) | (payload << (52 - payload_bits));
  return std::bit_cast<double>(bits);
}

std::uint64_t nan_payload(double x, int payload_bits) {
  const auto bits = std::bit_cast<std::uint64_t>(x);
  std::uint64_t p = (bits >> (52 - payload_bits)) & ((std::uint64_t{1} << payload_bits) - 1);
  if (p == 0) p = std::uint64_t{1} << (payload_bits - 1);  // payload lost below: keep it a NaN
  return p;
}

double decode16(std::uint16_t bits, int mant_bits, const FloatFormat& F) noexcept {
  const bool negative = (bits >> 15) != 0;
  const int exp_bits = 15 - mant_bits;
  const unsigned exp_field = (bits >> mant_bits) & ((1u << exp_bits) - 1);
  const std::uint64_t mant = bits & ((1u << mant_bits) - 1);
  const unsigned exp_all_ones = (1u << exp_bits) - 1;
  double mag;
  if (exp_field == exp_all_ones) {
    if (mant != 0) return nan_with_payload(negative, mant, mant_bits);
    mag = INFINITY;
  } else if (exp_field == 0) {
    mag = std::ldexp(static_cast<double>(mant), F.emin - mant_bits);
  } else {
    mag = std::ldexp(static_cast<double>(mant | (std::uint64_t{1} << mant_bits)),
                     static_cast<int>(exp_field) - (static_cast<int>(exp_all_ones) >> 1) - mant_bits);
  }
  return negative ? -mag : mag;
}

std::uint16_t encode16(double x, int mant_bits, const FloatFormat& F, const char* who) {
  const std::uint16_t sign = std::signbit(x) ? 0x8000 : 0;
  const int exp_bits = 15 - mant_bits;
  const unsigned exp_all_ones = (1u << exp_bits) - 1;
  if (std::isnan(x))
    return static_cast<std::uint16_t>(sign | (exp_all_ones << mant_bits) | nan_payload(x, mant_bits));
  if (!is_representable(x, F)) require_value(x, F, who);
  if (std::isinf(x)) return static_cast<std::uint16_t>(sign | (exp_all_ones << mant_bits));
  const double a = std::fabs(x);
  if (a < F.min_normal()) {
    const auto m = static_cast<std::uint16_t>(std::ldexp(a, mant_bits - F.emin));
    return static_cast<std::uint16_t>(sign | m);
  }
  const int e = std::ilogb(a);
  const auto m = static_cast<std::uint64_t>(std::ldexp(a, mant_bits - e)) - (std::uint64_t{1} << mant_bits);
  const unsigned exp_field = static_cast<unsigned>(e + (static_cast<int>(exp_all_ones) >> 1));
  return static_cast<std::uint16_t>(sign | (exp_field << mant_bits) | m);
}

}  // namespace

double decode_fp16(std::uint16_t bits) noexcept { return decode16(bits, 10, FP16); }
std::uint16_t encode_fp16(double x) { return encode16(x, 10, FP16, "encode_fp16"); }
double decode_bf16(std::uint16_t bits) noexcept { return decode16(bits, 7, BF16); }
std::uint16_t encode_bf16(double x) { return encode16(x, 7, BF16, "encode_bf16"); }

}  // namespace symerr

namespace symerr {

bool fp_environment_guard_works() {
  // Exact comparisons by bit pattern: with DAZ set, a subnormal compares as 0.
  auto same = [](double a, double b) { return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b); };
  mpq_class huge(1), tiny(1);
  mpq_mul_2exp(huge.get_mpq_t(), huge.get_mpq_t(), 1100);
  mpq_div_2exp(tiny.get_mpq_t(), tiny.get_mpq_t(), 1060);
  auto checks = [&] {
    const Rounded h = round_to(huge, FP64, RoundingMode::NearestEven);
    const Rounded t = round_to(tiny, FP64, RoundingMode::NearestEven);
    const Rounded d = round_to(std::ldexp(1.0, -1060), FP32, RoundingMode::Upward);
    return h.overflow && same(h.value, INFINITY) && same(t.value, 0x1p-1060) &&
           t.ternary == Ternary::Exact && same(d.value, 0x1p-149);
  };
  bool ok = true;
#if defined(__x86_64__) && defined(__SSE2_MATH__)
  const unsigned saved = detail::read_mxcsr();
  const unsigned hostile = detail::kMxcsrMasks | detail::kMxcsrRounding | detail::kMxcsrFtz |
                           detail::kMxcsrDaz;  // RC = toward zero
  detail::set_mxcsr_control(hostile);
  ok = checks();
  {
    const FpEnvironmentGuard guard;
    ok = ok && (detail::read_mxcsr() & detail::kMxcsrControl) == detail::kMxcsrLibrary;
  }
  ok = ok && (detail::read_mxcsr() & detail::kMxcsrControl) == hostile;
  detail::set_mxcsr_control(saved);
#else
  const int saved = std::fegetround();
  std::fesetround(FE_TOWARDZERO);
  ok = checks();
  ok = ok && std::fegetround() == FE_TOWARDZERO;
  std::fesetround(saved);
#endif
  return ok && checks();
}

}  // namespace symerr
