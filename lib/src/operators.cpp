// The operator table (<symerr/operators.hpp>): one row per operator, and its
// exact MPFR evaluation.
#include <symerr/operators.hpp>

#include <array>
#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <symerr/mpfr_state.hpp>

namespace symerr {
namespace {

constexpr OpProperties kUnaryElementary = kAccuracyModel;

// The table. Order = OpId order (checked by tests/core/test_operators.cpp).
constexpr std::array kTable{
    OpInfo{OpId::Add, "Add", 2, kCommutative | kCorrectlyRounded | kIntegerFormats, "e_x + e_y"},
    OpInfo{OpId::Sub, "Sub", 2, kCorrectlyRounded | kIntegerFormats, "e_x - e_y"},
    OpInfo{OpId::Mul, "Mul", 2, kCommutative | kCorrectlyRounded | kIntegerFormats,
           "real_x*e_y + e_x*fp_y  (= real_y*e_x + e_y*fp_x)"},
    OpInfo{OpId::Div, "Div", 2, kCorrectlyRounded | kIntegerFormats, "(e_x - real_z*e_y) / fp_y"},
    OpInfo{OpId::Neg, "Neg", 1, kCorrectlyRounded | kExactResult | kIntegerFormats | kOdd, "-e_x"},
    OpInfo{OpId::Abs, "Abs", 1, kCorrectlyRounded | kExactResult | kIntegerFormats,
           "|fp_x| - |real_x|  (in [-|e_x|, |e_x|])"},
    OpInfo{OpId::Sqrt, "Sqrt", 1, kCorrectlyRounded | kMonotoneIncreasing, "e_x / (sqrt(fp_x) + sqrt(real_x))"},
    OpInfo{OpId::Convert, "Convert", 1, kCorrectlyRounded | kIntegerFormats | kMonotoneIncreasing, "e_x"},
    OpInfo{OpId::Exp, "Exp", 1, kUnaryElementary | kMonotoneIncreasing, "exp(real_x) * expm1(e_x)"},
    OpInfo{OpId::Expm1, "Expm1", 1, kUnaryElementary | kMonotoneIncreasing, "exp(real_x) * expm1(e_x)"},
    OpInfo{OpId::Log, "Log", 1, kUnaryElementary | kMonotoneIncreasing, "log1p(e_x / real_x)"},
    OpInfo{OpId::Log1p, "Log1p", 1, kUnaryElementary | kMonotoneIncreasing, "log1p(e_x / (1 + real_x))"},
    OpInfo{OpId::Tanh, "Tanh", 1, kUnaryElementary | kMonotoneIncreasing | kOdd,
           "sinh(e_x) / (cosh(real_x) * cosh(fp_x))"},
    OpInfo{OpId::Sigmoid, "Sigmoid", 1, kUnaryElementary | kMonotoneIncreasing,
           "sinh(e_x/2) / (2 * cosh(real_x/2) * cosh(fp_x/2))"},
    OpInfo{OpId::Erf, "Erf", 1, kUnaryElementary | kMonotoneIncreasing | kOdd,
           "erf'(xi) * e_x, xi in hull(real_x, fp_x)  (mean value)"},
    OpInfo{OpId::Pow, "Pow", 2, kAccuracyModel, "real_x^c * expm1(c * log1p(e_x / real_x))"},
    OpInfo{OpId::Powi, "Powi", 2, kIntegerExponent, "repeated Mul (n - 1 roundings; n < 0: one Div)"},
};

bool same_ignoring_case(std::string_view a, std::string_view b) noexcept {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
    if (lower(a[i]) != lower(b[i])) return false;
  }
  return true;
}

mpfr_rnd_t opposite(mpfr_rnd_t d) { return d == MPFR_RNDD ? MPFR_RNDU : MPFR_RNDD; }

// A bound of sigmoid(x) = 1 / (1 + exp(−x)) in direction d (RNDD or RNDU):
// the quotient is decreasing in exp(−x), so the inner steps round the other way.
void sigmoid_bound(mpfr_ptr out, mpfr_srcptr x, mpfr_rnd_t d) {
  detail::MpfrNumber minus_x(mpfr_get_prec(x)), t(mpfr_get_prec(out) + 16);
  mpfr_neg(minus_x.v, x, MPFR_RNDN);  // exact: same precision
  mpfr_exp(t.v, minus_x.v, opposite(d));
  mpfr_add_ui(t.v, t.v, 1, opposite(d));
  mpfr_ui_div(out, 1, t.v, d);
}

// Correct rounding of sigmoid(x) by Ziv's strategy: directed bounds at
// growing precision until both round (in rnd, to out's precision) to the
// same value and the side of the exact value is known. sigmoid(x) is
// transcendental for x ≠ 0 (Lindemann–Weierstrass), so this ends; past 2^16
// bits (|x| beyond MPFR's exponent range) the bound in rnd's direction is kept.
int sigmoid_rounded(mpfr_ptr out, mpfr_srcptr x, mpfr_rnd_t rnd) {
  const mpfr_prec_t target = mpfr_get_prec(out);
  for (mpfr_prec_t p = target + 32;; p *= 2) {
    detail::MpfrNumber lo(p), hi(p), rl(target), rh(target);
    sigmoid_bound(lo.v, x, MPFR_RNDD);
    sigmoid_bound(hi.v, x, MPFR_RNDU);
    mpfr_set(rl.v, lo.v, rnd);
    mpfr_set(rh.v, hi.v, rnd);
    const bool agree = mpfr_equal_p(rl.v, rh.v);
    if (agree && mpfr_equal_p(lo.v, hi.v)) {
      mpfr_set(out, rl.v, MPFR_RNDN);
      return mpfr_cmp(out, lo.v);
    }
    if (agree && (mpfr_lessequal_p(rl.v, lo.v) || mpfr_greaterequal_p(rl.v, hi.v))) {
      mpfr_set(out, rl.v, MPFR_RNDN);
      return mpfr_lessequal_p(rl.v, lo.v) ? -1 : 1;
    }
    if (p > (1 << 16)) {
      const bool up = rnd == MPFR_RNDU || rnd == MPFR_RNDN || rnd == MPFR_RNDA;
      mpfr_set(out, up ? rh.v : rl.v, MPFR_RNDN);
      return up ? 1 : -1;
    }
  }
}

int power_integer(mpfr_ptr out, mpfr_srcptr x, mpfr_srcptr n, mpfr_rnd_t rnd) {
  if (!mpfr_integer_p(n) || !mpfr_fits_slong_p(n, MPFR_RNDN))
    throw std::invalid_argument("evaluate_mpfr(Powi): the exponent is not an integer in the range of long");
  return mpfr_pow_si(out, x, mpfr_get_si(n, MPFR_RNDN), rnd);
}

int evaluate_unary(OpId op, mpfr_ptr out, mpfr_srcptr x, mpfr_rnd_t rnd) {
  switch (op) {
    case OpId::Neg: return mpfr_neg(out, x, rnd);
    case OpId::Abs: return mpfr_abs(out, x, rnd);
    case OpId::Sqrt: return mpfr_sqrt(out, x, rnd);
    case OpId::Convert: return mpfr_set(out, x, rnd);
    case OpId::Exp: return mpfr_exp(out, x, rnd);
    case OpId::Expm1: return mpfr_expm1(out, x, rnd);
    case OpId::Log: return mpfr_log(out, x, rnd);
    case OpId::Log1p: return mpfr_log1p(out, x, rnd);
    case OpId::Tanh: return mpfr_tanh(out, x, rnd);
    case OpId::Sigmoid: return sigmoid_rounded(out, x, rnd);
    case OpId::Erf: return mpfr_erf(out, x, rnd);
    default: break;
  }
  throw std::invalid_argument("evaluate_mpfr: " + std::string(to_string(op)) + " is not unary");
}

int evaluate_binary(OpId op, mpfr_ptr out, mpfr_srcptr x, mpfr_srcptr y, mpfr_rnd_t rnd) {
  switch (op) {
    case OpId::Add: return mpfr_add(out, x, y, rnd);
    case OpId::Sub: return mpfr_sub(out, x, y, rnd);
    case OpId::Mul: return mpfr_mul(out, x, y, rnd);
    case OpId::Div: return mpfr_div(out, x, y, rnd);
    case OpId::Pow: return mpfr_pow(out, x, y, rnd);
    case OpId::Powi: return power_integer(out, x, y, rnd);
    default: break;
  }
  throw std::invalid_argument("evaluate_mpfr: " + std::string(to_string(op)) + " is not binary");
}

}  // namespace

std::span<const OpInfo> operator_table() noexcept { return kTable; }

const OpInfo& operator_info(OpId op) noexcept { return kTable[static_cast<std::size_t>(op)]; }

std::string_view to_string(OpId op) noexcept {
  const auto i = static_cast<std::size_t>(op);
  return i < kTable.size() ? kTable[i].name : std::string_view("?");
}

const OpInfo* find_operator(std::string_view name) noexcept {
  for (const OpInfo& info : kTable)
    if (same_ignoring_case(info.name, name)) return &info;
  return nullptr;
}

int evaluate_mpfr(OpId op, mpfr_ptr out, std::span<const mpfr_srcptr> args, mpfr_rnd_t rnd) {
  if (static_cast<std::size_t>(op) >= kTable.size())
    throw std::invalid_argument("evaluate_mpfr: unknown operator id " + std::to_string(static_cast<int>(op)));
  const OpInfo& info = operator_info(op);
  if (args.size() != info.arity)
    throw std::invalid_argument("evaluate_mpfr(" + std::string(info.name) + "): " + std::to_string(args.size()) +
                                " operands, expected " + std::to_string(info.arity));
  const detail::MpfrStateGuard state;
  return info.arity == 1 ? evaluate_unary(op, out, args[0], rnd) : evaluate_binary(op, out, args[0], args[1], rnd);
}

namespace {

// lo <= exact <= hi at precision p, both finite, nonzero and near F's range.
bool ordinary_in(mpfr_srcptr lo, mpfr_srcptr hi, const FloatFormat& F) {
  for (mpfr_srcptr v : {lo, hi})
    if (!mpfr_number_p(v) || mpfr_zero_p(v) || mpfr_get_exp(v) > F.emax + 2 ||
        mpfr_get_exp(v) < F.emin - F.precision - 2)
      return false;
  return true;
}

}  // namespace

std::optional<double> correctly_rounded(OpId op, std::span<const double> args, const FloatFormat& F,
                                        RoundingMode mode) {
  const detail::MpfrStateGuard state;
  std::vector<std::unique_ptr<detail::MpfrNumber>> operands;
  std::vector<mpfr_srcptr> ptrs;
  for (double a : args) ptrs.push_back(operands.emplace_back(std::make_unique<detail::MpfrNumber>(64, a))->get());
  for (mpfr_prec_t p = 2 * F.precision + 24; p <= 4096; p *= 2) {
    detail::MpfrNumber lo(p), hi(p);
    evaluate_mpfr(op, lo.get(), ptrs, MPFR_RNDD);
    evaluate_mpfr(op, hi.get(), ptrs, MPFR_RNDU);
    if (!ordinary_in(lo.get(), hi.get(), F)) return std::nullopt;
    const Rounded rl = round_to(lo.get(), F, mode), rh = round_to(hi.get(), F, mode);
    if (rl.value == rh.value && std::signbit(rl.value) == std::signbit(rh.value)) return rl.value;
  }
  return std::nullopt;
}

}  // namespace symerr
