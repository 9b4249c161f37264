// The propagated / introduced split of f(x) when x overflowed to ±inf: a
// literal beyond the format's range (literal(70000) in FP16: fp = +inf, real
// = pr = 70000). The real computation on the actual inputs never sees the
// overflow: propagated = f(pr) − f(r) = 0, and the whole error is introduced,
// c − f(q) with c = f(±inf) of IEEE 754 / C Annex F (pow(inf, −1) = 0,
// tanh(inf) = 1, sigmoid(−inf) = 0, erf(−inf) = −1). Checked against MPFR at
// 256 bits with directed rounding (f(q) enclosed, not approximated), in every
// domain; twin: propagated is {0} and introduced no wider than err.
// (Before the fix the run r → pr of the split took x's +inf flag for pr's:
// pow(x, −1) had propagated = −1/70000.)
#include <catch2/catch.hpp>

#include <functional>
#include <string>

#include <gmpxx.h>
#include <mpfr.h>

#include <symerr/domains/affine.hpp>
#include <symerr/domains/interval.hpp>
#include <symerr/domains/mpfr_interval.hpp>
#include <symerr/domains/rational_interval.hpp>
#include <symerr/domains/symbolic_instances.hpp>  // the library's instantiations (compile time)
#include <symerr/elementary.hpp>

using namespace symerr;

namespace {

struct Case {
  const char* name;
  std::function<int(mpfr_t, const mpfr_t, mpfr_rnd_t)> exact;  // f at 256 bits, directed
  double at_pos_inf, at_neg_inf;                               // IEEE f(+inf), f(−inf)
};

int sigmoid_mpfr(mpfr_t y, const mpfr_t x, mpfr_rnd_t rnd) {
  // 1 / (1 + e^−x), the enclosure's direction kept: e^−x is decreasing in x
  mpfr_t t;
  mpfr_init2(t, 300);
  const mpfr_rnd_t inner = rnd == MPFR_RNDD ? MPFR_RNDU : MPFR_RNDD;
  mpfr_neg(t, x, MPFR_RNDN);
  mpfr_exp(t, t, inner);
  mpfr_add_ui(t, t, 1, inner);
  mpfr_ui_div(y, 1, t, rnd);
  mpfr_clear(t);
  return 0;
}

std::vector<Case> cases() {
  return {
      {"pow(x, -1)", [](mpfr_t y, const mpfr_t x, mpfr_rnd_t r) { return mpfr_ui_div(y, 1, x, r); }, 0.0, -0.0},
      {"pow(x, -2)",
       [](mpfr_t y, const mpfr_t x, mpfr_rnd_t r) {
         mpfr_sqr(y, x, r == MPFR_RNDD ? MPFR_RNDU : MPFR_RNDD);
         return mpfr_ui_div(y, 1, y, r);
       },
       0.0, 0.0},
      {"tanh", [](mpfr_t y, const mpfr_t x, mpfr_rnd_t r) { return mpfr_tanh(y, x, r); }, 1.0, -1.0},
      {"sigmoid", sigmoid_mpfr, 1.0, 0.0},
      {"erf", [](mpfr_t y, const mpfr_t x, mpfr_rnd_t r) { return mpfr_erf(y, x, r); }, 1.0, -1.0},
      {"exp", [](mpfr_t y, const mpfr_t x, mpfr_rnd_t r) { return mpfr_exp(y, x, r); }, INFINITY, 0.0},
  };
}

template <RealDomain D>
SymbolicDomainError<D> apply(const std::string& name, const SymbolicDomainError<D>& x, const AccuracyModel& m) {
  if (name == "pow(x, -1)") return pow(x, -1.0, m);
  if (name == "pow(x, -2)") return pow(x, -2.0, m);
  if (name == "tanh") return tanh(x, m);
  if (name == "sigmoid") return sigmoid(x, m);
  if (name == "erf") return erf(x, m);
  return exp(x, m);
}

// [lo, hi] ⊆ a, as rationals (lo, hi: the MPFR enclosure's ends)
template <RealDomain D>
bool holds(const D& a, const mpq_class& lo, const mpq_class& hi) {
  return contains(a, lo) && contains(a, hi);
}

mpq_class to_q(const mpfr_t v) {
  mpq_class q;
  mpfr_get_q(q.get_mpq_t(), v);
  return q;
}

template <RealDomain D>
void check_literals() {
  using S = SymbolicDomainError<D>;
  long checked = 0;
  struct Over {
    const FloatFormat* F;
    mpq_class q;
  };
  const Over overs[] = {{&FP16, mpq_class(70000)}, {&FP16, mpq_class(-70000)}, {&FP16, mpq_class(65520)},
                        {&BF16, mpq_class("400000000000000000000000000000000000000")},
                        {&FP32, mpq_class("-400000000000000000000000000000000000000")}};
  for (const AccuracyModel& model : {AccuracyModel::correctly_rounded(), AccuracyModel::ulps(4)})
    for (const Over& o : overs)
      for (const Case& c : cases()) {
        std::optional<AffineContext> ctx;
        std::optional<AffineScope> scope;
        if constexpr (std::is_same_v<D, Affine>) ctx.emplace(), scope.emplace(*ctx);
        const S x = S::literal(o.q, *o.F, RoundingMode::NearestEven);
        REQUIRE(x.specials.may_be_finite == false);  // the literal overflowed
        const S y = apply(c.name, x, model);
        const bool neg = sgn(o.q) < 0;
        const double at = neg ? c.at_neg_inf : c.at_pos_inf;
        INFO(c.name << " of literal " << o.q.get_str() << " in " << o.F->name << " under " << model.name() << ": "
                    << y << " propagated " << y.propagated << " introduced " << y.introduced);
        mpfr_t r, lo, hi;
        mpfr_inits2(256, r, lo, hi, static_cast<mpfr_ptr>(nullptr));
        mpfr_set_q(r, o.q.get_mpq_t(), MPFR_RNDN);  // exact
        c.exact(lo, r, MPFR_RNDD);
        c.exact(hi, r, MPFR_RNDU);
        if (mpfr_inf_p(hi)) {  // exp(4e38): beyond MPFR's exponent range too
          CHECK(y.real.upper() == INFINITY);
          CHECK(y.specials.may_be_pos_inf);
          mpfr_clears(r, lo, hi, static_cast<mpfr_ptr>(nullptr));
          continue;
        }
        const mpq_class flo = to_q(lo), fhi = to_q(hi);
        mpfr_clears(r, lo, hi, static_cast<mpfr_ptr>(nullptr));
        CHECK(holds(y.real, flo, fhi));
        if (std::isinf(at)) {
          CHECK((at > 0 ? y.specials.may_be_pos_inf : y.specials.may_be_neg_inf));
          continue;
        }
        REQUIRE(y.specials.may_be_finite);
        const mpq_class cq = exact_value(at);
        CHECK(contains(y.fp, cq));
        // the real computation on the actual inputs is the ideal one: pr = r
        CHECK(contains(y.propagated, mpq_class(0)));
        CHECK(holds(y.err, mpq_class(cq - fhi), mpq_class(cq - flo)));
        CHECK(holds(y.introduced, mpq_class(cq - fhi), mpq_class(cq - flo)));
        // twin: nothing propagates, the introduced part is err's size
        CHECK(mag(y.propagated) <= 0x1p-40 * std::max(1.0, mag(y.real)));
        CHECK(width(y.introduced) <= 2 * width(y.err) + 0x1p-40 * std::max(1.0, mag(y.real)));
        ++checked;
      }
  CHECK(checked >= 40);
}

}  // namespace

TEMPLATE_TEST_CASE("split at an operand that overflowed to inf: propagated 0, introduced c - f(r) (MPFR oracle)",
                   "[elementary][split]", Interval, MpfrInterval, RationalInterval, Affine) {
  check_literals<TestType>();
}

// An operand whose fp, err, propagated and introduced are all unknown (an
// overflowed product: one whole() assigned to every field): in Affine the
// shared handle once made fp − introduced = 0, so pr = 0 and tanh's split
// came out as propagated −1, introduced the point 1 (sigmoid 0.5, erf 1).
TEMPLATE_TEST_CASE("split of f(x) for x an overflowed product (every field unknown)", "[elementary][split]", Interval,
                   MpfrInterval, RationalInterval, Affine) {
  using S = SymbolicDomainError<TestType>;
  std::optional<AffineContext> ctx;
  std::optional<AffineScope> scope;
  if constexpr (std::is_same_v<TestType, Affine>) ctx.emplace(), scope.emplace(*ctx);
  const mpq_class q_big("9812693371883195202744129670754573746176/25"), q_small(27, 5);
  const S x = S::literal(q_big, BF16, RoundingMode::NearestEven) * S::literal(q_small, BF16, RoundingMode::NearestEven);
  REQUIRE(x.specials.may_be_pos_inf);
  const mpq_class r = q_big * q_small;  // the real (and pr) value: both literals' exact values
  for (const Case& c : cases()) {
    const S y = apply(c.name, x, AccuracyModel::ulps(1));
    if (std::isinf(c.at_pos_inf)) continue;
    INFO(c.name << ": " << y << " propagated " << y.propagated << " introduced " << y.introduced);
    mpfr_t m, lo, hi;
    mpfr_inits2(256, m, lo, hi, static_cast<mpfr_ptr>(nullptr));
    mpfr_set_q(m, r.get_mpq_t(), MPFR_RNDN);
    c.exact(lo, m, MPFR_RNDD);
    c.exact(hi, m, MPFR_RNDU);
    const mpq_class flo = to_q(lo), fhi = to_q(hi), cq = exact_value(c.at_pos_inf);
    mpfr_clears(m, lo, hi, static_cast<mpfr_ptr>(nullptr));
    CHECK(holds(y.real, flo, fhi));
    CHECK(contains(y.propagated, mpq_class(0)));
    CHECK(holds(y.introduced, mpq_class(cq - fhi), mpq_class(cq - flo)));
    CHECK(holds(y.err, mpq_class(cq - fhi), mpq_class(cq - flo)));
  }
}
