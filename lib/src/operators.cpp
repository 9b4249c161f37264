// The operator table's functions (<symerr/operators.hpp>, where the rows
// are): lookup by name, and the exact MPFR evaluation of the operators MPFR
// has no single function for.
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

// The operators MPFR has no single function for.
int evaluate_composed(OpId op, mpfr_ptr out, std::span<const mpfr_srcptr> args, mpfr_rnd_t rnd) {
  switch (op) {
    case OpId::Sigmoid: return sigmoid_rounded(out, args[0], rnd);
    case OpId::Powi: return power_integer(out, args[0], args[1], rnd);
    case OpId::Fma: return mpfr_fma(out, args[0], args[1], args[2], rnd);
    default: break;
  }
  throw std::logic_error("evaluate_mpfr: no MPFR evaluation registered for " + std::string(to_string(op)));
}

}  // namespace

std::string_view to_string(OpId op) noexcept {
  return static_cast<std::size_t>(op) < operator_table().size() ? operator_info(op).name : std::string_view("?");
}

const OpInfo* find_operator(std::string_view name) noexcept {
  for (const OpInfo& info : operator_table())
    if (same_ignoring_case(info.name, name)) return &info;
  return nullptr;
}

int evaluate_mpfr(OpId op, mpfr_ptr out, std::span<const mpfr_srcptr> args, mpfr_rnd_t rnd) {
  if (static_cast<std::size_t>(op) >= operator_table().size())
    throw std::invalid_argument("evaluate_mpfr: unknown operator id " + std::to_string(static_cast<int>(op)));
  const OpInfo& info = operator_info(op);
  if (args.size() != info.arity)
    throw std::invalid_argument("evaluate_mpfr(" + std::string(info.name) + "): " + std::to_string(args.size()) +
                                " operands, expected " + std::to_string(info.arity));
  const detail::MpfrStateGuard state;
  if (info.mpfr_unary) return info.mpfr_unary(out, args[0], rnd);
  if (info.mpfr_binary) return info.mpfr_binary(out, args[0], args[1], rnd);
  return evaluate_composed(op, out, args, rnd);
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
