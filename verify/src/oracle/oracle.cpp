// Reference results: IEEE special rules, exact rationals, MPFR emulation of a
// format, and the binary64 double-rounding oracle.
#include <symerr/verify/oracle/oracle.hpp>

#include <cmath>
#include <stdexcept>
#include <string>

#include <mpfr.h>

namespace symerr::verify {

const char* to_string(OracleKind k) noexcept {
  switch (k) {
    case OracleKind::Exact: return "gmp-exact";
    case OracleKind::Mpfr: return "mpfr-emulation";
    case OracleKind::Double: return "binary64-double-rounding";
  }
  return "?";
}

std::optional<double> ieee_special_result(OpId op, double a, double b) noexcept {
  if (std::isnan(a) || std::isnan(b)) return NAN;
  const bool ia = std::isinf(a), ib = std::isinf(b);
  const bool sign_xor = std::signbit(a) != std::signbit(b);
  switch (op) {
    case OpId::Add:
    case OpId::Sub: {
      const bool nb = (op == OpId::Sub) ? !std::signbit(b) : std::signbit(b);
      if (ia && ib) {
        if (std::signbit(a) != nb) return NAN;  // inf - inf
        return a;
      }
      if (ia) return a;
      if (ib) return nb ? -INFINITY : INFINITY;
      return std::nullopt;
    }
    case OpId::Mul:
      if ((ia && b == 0) || (ib && a == 0)) return NAN;  // 0 * inf
      if (ia || ib) return sign_xor ? -INFINITY : INFINITY;
      return std::nullopt;
    case OpId::Div:
      if (ia && ib) return NAN;                   // inf / inf
      if (a == 0 && b == 0) return NAN;           // 0 / 0
      if (ia) return sign_xor ? -INFINITY : INFINITY;
      if (ib) return sign_xor ? -0.0 : 0.0;       // x / inf
      if (b == 0) return sign_xor ? -INFINITY : INFINITY;  // x / ±0, x != 0
      return std::nullopt;
    default: return std::nullopt;  // not a binary-kernel operator
  }
}

bool zero_result_negative(OpId op, double a, double b) noexcept {
  switch (op) {
    case OpId::Add:  // x + (-x) = +0 in RNE; (-0) + (-0) = -0
      return std::signbit(a) && std::signbit(b) && a == 0 && b == 0;
    case OpId::Sub:  // (-0) - (+0) = -0
      return std::signbit(a) && !std::signbit(b) && a == 0 && b == 0;
    case OpId::Mul:
    case OpId::Div: return std::signbit(a) != std::signbit(b);
    default: return false;  // not a binary-kernel operator
  }
}

mpq_class exact_result(OpId op, double a, double b) { return exact_result(op, exact_value(a), exact_value(b)); }

mpq_class exact_result(OpId op, const mpq_class& x, const mpq_class& y) {
  switch (op) {
    case OpId::Add: return x + y;
    case OpId::Sub: return x - y;
    case OpId::Mul: return x * y;
    case OpId::Div:
      if (sgn(y) == 0) throw std::domain_error("exact_result: division by zero");
      return x / y;
    default:
      throw std::invalid_argument("exact_result: " + std::string(to_string(op)) + " has no exact rational result");
  }
}

// The Double oracle rounds a op b first to binary64 (p' = 53) and then to F
// (precision p). Double rounding is innocuous for + - * / when p' >= 2p + 2
// (Figueroa, "When is double rounding innocuous?", SIGNUM Newsletter 1995;
// Roux, "Innocuous double rounding of basic arithmetic operations", JFR 2014),
// provided the binary64 result neither overflows nor underflows: F's range
// must satisfy max² and min_subnormal² within the binary64 normal range,
// which holds for FP16, BF16 and FP32 (exponents within ±300). Below the
// normal range of F the second rounding is onto a coarser fixed grid, which
// only widens the gap. As a belt and braces, an exact binary64 tie is
// re-decided by the Exact oracle. Cross-checked against Mpfr in tests.
bool double_oracle_valid(OpId op, const FloatFormat& F) noexcept {
  return binary_kernel_operator(op) && 53 >= 2 * F.precision + 2 && F.subnormals && 2 * (F.emax + 1) < 1000 &&
         2 * (F.emin - F.precision + 1) > -1000;
}

OracleKind default_oracle(OpId op, const FloatFormat& F) noexcept {
  return double_oracle_valid(op, F) ? OracleKind::Double : OracleKind::Mpfr;
}

namespace {

FloatReference special_reference(double s) {
  FloatReference r;
  r.value = s;
  r.exact = s;
  r.finite_exact = false;
  return r;
}

FloatReference exact_reference(OpId op, double a, double b, const FloatFormat& F) {
  if (auto s = ieee_special_result(op, a, b)) return special_reference(*s);
  const mpq_class q = exact_result(op, a, b);
  const Rounded r = round_to(q, F, RoundingMode::NearestEven, zero_result_negative(op, a, b));
  FloatReference ref;
  ref.value = r.value;
  ref.exact = sgn(q) == 0 ? r.value : round_to(q, FP64, RoundingMode::NearestEven).value;
  ref.finite_exact = true;
  ref.overflow = r.overflow;
  return ref;
}

// MPFR's exponent range is per thread; restored on scope exit.
class EmulatedRange {
 public:
  explicit EmulatedRange(const FloatFormat& F) : emin_(mpfr_get_emin()), emax_(mpfr_get_emax()) {
    // MPFR significands lie in [1/2, 1): IEEE exponent e is MPFR exponent e + 1.
    mpfr_set_emin(F.emin - F.precision + 2);
    mpfr_set_emax(F.emax + 1);
  }
  ~EmulatedRange() {
    mpfr_set_emin(emin_);
    mpfr_set_emax(emax_);
  }
  EmulatedRange(const EmulatedRange&) = delete;
  EmulatedRange& operator=(const EmulatedRange&) = delete;

 private:
  mpfr_exp_t emin_, emax_;
};

// op(a, b) rounded in direction rnd: the operator table's exact evaluation.
int mpfr_apply(OpId op, mpfr_ptr y, mpfr_srcptr a, mpfr_srcptr b, mpfr_rnd_t rnd) {
  const mpfr_srcptr args[] = {a, b};
  return evaluate_mpfr(op, y, args, rnd);
}

// Per-thread MPFR variables: no allocation per call.
struct MpfrScratch {
  mpfr_t a, b, y, wide;
  // `wide` has 128 >= 2*53 + 2 bits: its rounding to binary64 (subnormals
  // included) is then the correct rounding of the exact result (Figueroa).
  MpfrScratch() {
    mpfr_inits2(53, a, b, y, static_cast<mpfr_ptr>(nullptr));
    mpfr_init2(wide, 128);
  }
  ~MpfrScratch() { mpfr_clears(a, b, y, wide, static_cast<mpfr_ptr>(nullptr)); }
  MpfrScratch(const MpfrScratch&) = delete;
  MpfrScratch& operator=(const MpfrScratch&) = delete;
};

FloatReference mpfr_reference(OpId op, double a, double b, const FloatFormat& F) {
  if (!F.subnormals)
    throw std::invalid_argument("the MPFR oracle emulates formats with subnormals only");
  thread_local MpfrScratch s;
  mpfr_set_d(s.a, a, MPFR_RNDN);  // exact: 53-bit variables
  mpfr_set_d(s.b, b, MPFR_RNDN);
  FloatReference ref;
  // nearest double to the exact result (full exponent range; IEEE rules for specials)
  mpfr_apply(op, s.wide, s.a, s.b, MPFR_RNDN);
  ref.exact = mpfr_get_d(s.wide, MPFR_RNDN);
  const auto special = ieee_special_result(op, a, b);
  ref.finite_exact = !special.has_value();
  {
    EmulatedRange range(F);
    mpfr_set_prec(s.y, F.precision);
    int t = mpfr_apply(op, s.y, s.a, s.b, MPFR_RNDN);
    t = mpfr_check_range(s.y, t, MPFR_RNDN);
    mpfr_subnormalize(s.y, t, MPFR_RNDN);
    ref.value = mpfr_get_d(s.y, MPFR_RNDN);  // exact: a value of F is a double
  }
  if (special) {
    ref.exact = ref.value;
  }
  ref.overflow = ref.finite_exact && std::isinf(ref.value);
  return ref;
}

double apply(OpId op, double a, double b) noexcept {
  switch (op) {
    case OpId::Add: return a + b;
    case OpId::Sub: return a - b;
    case OpId::Mul: return a * b;
    case OpId::Div: return a / b;
    default: return NAN;
  }
}

FloatReference double_reference(OpId op, double a, double b, const FloatFormat& F) {
  if (!double_oracle_valid(op, F))
    throw std::invalid_argument("the binary64 oracle is not exact for " + std::string(to_string(op)) + " in " +
                                std::string(F.name));
  if (auto s = ieee_special_result(op, a, b)) return special_reference(*s);
  const double d = apply(op, a, b);  // RN53 of the exact result: no overflow/underflow in F's range
  FloatReference ref;
  ref.finite_exact = true;
  ref.exact = d;
  if (d == 0) {  // the exact result is 0 (binary64 cannot underflow to 0 here)
    ref.value = zero_result_negative(op, a, b) ? -0.0 : 0.0;
    ref.exact = ref.value;
    return ref;
  }
  // A binary64 result exactly halfway between two values of F may come from an
  // exact result just off the midpoint: let the exact oracle decide.
  const FloatFormat wider{"F+1", F.precision + 1, F.emin, F.emax + 1, true};
  if (is_representable(d, wider) && !is_representable(d, F)) return exact_reference(op, a, b, F);
  const Rounded r = round_to(d, F, RoundingMode::NearestEven);
  ref.value = r.value;
  ref.overflow = r.overflow;
  return ref;
}

}  // namespace

FloatReference float_reference(OracleKind k, OpId op, double a, double b,
                               const FloatFormat& F) {
  switch (k) {
    case OracleKind::Exact: return exact_reference(op, a, b, F);
    case OracleKind::Mpfr: return mpfr_reference(op, a, b, F);
    case OracleKind::Double: return double_reference(op, a, b, F);
  }
  throw std::invalid_argument("float_reference: unknown oracle");
}

// ---- integers ---------------------------------------------------------------

IntReference int_reference(OpId op, __int128 a, __int128 b, const IntFormat& I,
                           IntegerDivision division) {
  IntReference r;
  __int128 exact = 0;
  bool out_of_int128 = false;
  switch (op) {
    case OpId::Add: exact = a + b; break;  // |a|, |b| <= 2^64: no overflow
    case OpId::Sub: exact = a - b; break;
    case OpId::Mul: out_of_int128 = __builtin_mul_overflow(a, b, &exact); break;
    case OpId::Div: {
      if (b == 0) return r;  // undefined
      exact = a / b;         // truncated
      if (division == IntegerDivision::Floor && a % b != 0 && ((a < 0) != (b < 0))) exact -= 1;
      break;
    }
    default:
      throw std::invalid_argument("int_reference: " + std::string(to_string(op)) + " is not integer arithmetic");
  }
  if (out_of_int128) {  // only UINT64 * UINT64: reduce modulo 2^128 first (2^64 divides it)
    const auto u = static_cast<unsigned __int128>(a) * static_cast<unsigned __int128>(b);
    const auto low = static_cast<__int128>(u & ((static_cast<unsigned __int128>(1) << 64) - 1));
    r.value = I.wrap(low);
    r.overflow = true;
    return r;
  }
  r.overflow = !I.contains(exact);
  r.value = I.wrap(exact);
  return r;
}

}  // namespace symerr::verify
