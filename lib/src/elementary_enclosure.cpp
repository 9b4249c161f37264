// Directed MPFR evaluations of <symerr/symbolic/elementary/enclosure.hpp>.
// Every value is computed at 64 bits rounded in direction d, then converted
// to a double rounded in the same direction: both roundings move the same
// way, so the double is a bound of the exact value. MPFR runs in its widest
// exponent range (no spurious overflow); caller's range and flags restored.
#include <symerr/symbolic/elementary/enclosure.hpp>

#include <cmath>

#include <mpfr.h>

namespace symerr::elementary {
namespace {

constexpr mpfr_prec_t kWork = 64;

class Scope {
 public:
  Scope() : emin_(mpfr_get_emin()), emax_(mpfr_get_emax()), flags_(mpfr_flags_save()) {
    mpfr_set_emin(mpfr_get_emin_min());
    mpfr_set_emax(mpfr_get_emax_max());
  }
  ~Scope() {
    mpfr_set_emin(emin_);
    mpfr_set_emax(emax_);
    mpfr_flags_restore(flags_, MPFR_FLAGS_ALL);
  }
  Scope(const Scope&) = delete;
  Scope& operator=(const Scope&) = delete;

 private:
  mpfr_exp_t emin_, emax_;
  mpfr_flags_t flags_;
};

struct Num {
  mpfr_t v;
  Num() { mpfr_init2(v, kWork); }
  explicit Num(double x) {
    mpfr_init2(v, kWork);
    mpfr_set_d(v, x, MPFR_RNDN);  // exact: 53 <= 64 bits
  }
  ~Num() { mpfr_clear(v); }
  Num(const Num&) = delete;
  Num& operator=(const Num&) = delete;
};

mpfr_rnd_t rnd(Dir d) { return d == Dir::Down ? MPFR_RNDD : MPFR_RNDU; }
mpfr_rnd_t opposite(Dir d) { return d == Dir::Down ? MPFR_RNDU : MPFR_RNDD; }

double apply(int (*f)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t), double x, Dir d) {
  Scope s;
  Num a(x), r;
  f(r.v, a.v, rnd(d));
  return mpfr_get_d(r.v, rnd(d));
}

}  // namespace

double exp_d(double x, Dir d) { return apply(mpfr_exp, x, d); }
double expm1_d(double x, Dir d) { return apply(mpfr_expm1, x, d); }
double log_d(double x, Dir d) { return apply(mpfr_log, x, d); }
double log1p_d(double x, Dir d) { return apply(mpfr_log1p, x, d); }
double tanh_d(double x, Dir d) { return apply(mpfr_tanh, x, d); }
double sinh_d(double x, Dir d) { return apply(mpfr_sinh, x, d); }
double cosh_d(double x, Dir d) { return apply(mpfr_cosh, x, d); }
double erf_d(double x, Dir d) { return apply(mpfr_erf, x, d); }

double sigmoid_d(double x, Dir d) {
  // 1/(1 + e^−x) is decreasing in e^−x: bound e^−x and the sum the other way.
  Scope s;
  Num a(x), e, sum, r;
  mpfr_neg(a.v, a.v, MPFR_RNDN);
  mpfr_exp(e.v, a.v, opposite(d));
  mpfr_add_ui(sum.v, e.v, 1, opposite(d));
  mpfr_ui_div(r.v, 1, sum.v, rnd(d));
  return mpfr_get_d(r.v, rnd(d));
}

double pow_d(double x, double c, Dir d) {
  Scope s;
  Num a(x), b(c), r;
  mpfr_pow(r.v, a.v, b.v, rnd(d));
  return mpfr_get_d(r.v, rnd(d));
}

double erf_slope_d(double m, Dir d) {
  // 2/√π · exp(−m²): decreasing in m², increasing in the factor 2/√π.
  Scope s;
  Num a(m), sq, e, pi, root, two_over, r;
  mpfr_sqr(sq.v, a.v, opposite(d));
  mpfr_neg(sq.v, sq.v, MPFR_RNDN);
  mpfr_exp(e.v, sq.v, rnd(d));
  mpfr_const_pi(pi.v, opposite(d));
  mpfr_sqrt(root.v, pi.v, opposite(d));
  mpfr_ui_div(two_over.v, 2, root.v, rnd(d));
  mpfr_mul(r.v, e.v, two_over.v, rnd(d));
  return mpfr_get_d(r.v, rnd(d));
}

namespace {

// f(t) at the precision of r, rounded in direction d (MPFR's own correct rounding).
void eval_at(ElementaryFunction f, mpfr_ptr r, mpfr_srcptr t, double c, mpfr_rnd_t d) {
  const mpfr_rnd_t opp = d == MPFR_RNDD ? MPFR_RNDU : MPFR_RNDD;
  switch (f) {
    case ElementaryFunction::Exp: mpfr_exp(r, t, d); return;
    case ElementaryFunction::Expm1: mpfr_expm1(r, t, d); return;
    case ElementaryFunction::Log: mpfr_log(r, t, d); return;
    case ElementaryFunction::Log1p: mpfr_log1p(r, t, d); return;
    case ElementaryFunction::Tanh: mpfr_tanh(r, t, d); return;
    case ElementaryFunction::Erf: mpfr_erf(r, t, d); return;
    case ElementaryFunction::Sqrt: mpfr_sqrt(r, t, d); return;
    case ElementaryFunction::Pow: {
      mpfr_t cc;
      mpfr_init2(cc, 64);
      mpfr_set_d(cc, c, MPFR_RNDN);
      mpfr_pow(r, t, cc, d);
      mpfr_clear(cc);
      return;
    }
    case ElementaryFunction::Sigmoid: {
      mpfr_t e;
      mpfr_init2(e, mpfr_get_prec(r) + 8);
      mpfr_neg(e, t, MPFR_RNDN);
      mpfr_exp(e, e, opp);
      mpfr_add_ui(e, e, 1, opp);
      mpfr_ui_div(r, 1, e, d);
      mpfr_clear(e);
      return;
    }
  }
}

}  // namespace

bool correctly_rounded_value(ElementaryFunction f, double t, double c, const FloatFormat& F, RoundingMode mode,
                             double& out) {
  Scope s;
  Num a(t);
  for (mpfr_prec_t p = 2 * F.precision + 24; p <= 4096; p *= 2) {
    mpfr_t lo, hi;
    mpfr_init2(lo, p);
    mpfr_init2(hi, p);
    eval_at(f, lo, a.v, c, MPFR_RNDD);
    eval_at(f, hi, a.v, c, MPFR_RNDU);
    // far outside F's range the caller's enclosure decides (overflow / underflow)
    const bool out_of_range = !mpfr_number_p(lo) || !mpfr_number_p(hi) ||
                              (!mpfr_zero_p(hi) && mpfr_get_exp(hi) > F.emax + 2) ||
                              (!mpfr_zero_p(lo) && mpfr_get_exp(lo) < F.emin - F.precision - 2) ||
                              mpfr_zero_p(lo) || mpfr_zero_p(hi);
    if (out_of_range) {
      mpfr_clear(lo);
      mpfr_clear(hi);
      return false;
    }
    const Rounded rl = round_to(lo, F, mode), rh = round_to(hi, F, mode);
    mpfr_clear(lo);
    mpfr_clear(hi);
    if (rl.value == rh.value && std::signbit(rl.value) == std::signbit(rh.value)) {
      out = rl.value;
      return true;
    }
  }
  return false;
}

}  // namespace symerr::elementary
