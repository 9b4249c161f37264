// The unary SONNX propagation bounds and their audit (unary_audit.hpp).
// Every bound is a pair of exact functions of (r, e) evaluated in MPFR at 256
// bits with directed rounding: lhs = |f(r + e) − f(r)| (an enclosure) and the
// bound's value (an enclosure), plus the claimed holding region.
#include <symerr/verify/bounds/unary_audit.hpp>

#include <cmath>
#include <cstdio>
#include <functional>
#include <random>
#include <sstream>

#include <mpfr.h>

namespace symerr::verify {
namespace {

constexpr mpfr_prec_t kPrec = 256;

struct M {
  mpfr_t v;
  M() { mpfr_init2(v, kPrec); }
  ~M() { mpfr_clear(v); }
  M(const M&) = delete;
  M& operator=(const M&) = delete;
};

// An enclosure [lo, hi] of a real number.
struct Enc {
  M lo, hi;
};

using Unary = int (*)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t);

// sigmoid(x) in direction d (decreasing in exp(−x)).
int sigmoid(mpfr_ptr out, mpfr_srcptr x, mpfr_rnd_t d) {
  M t;
  const mpfr_rnd_t o = d == MPFR_RNDD ? MPFR_RNDU : MPFR_RNDD;
  mpfr_neg(t.v, x, MPFR_RNDN);
  mpfr_exp(t.v, t.v, o);
  mpfr_add_ui(t.v, t.v, 1, o);
  return mpfr_ui_div(out, 1, t.v, d);
}
int abs_fn(mpfr_ptr out, mpfr_srcptr x, mpfr_rnd_t d) { return mpfr_abs(out, x, d); }

// |f(r + e) − f(r)| for increasing-or-not f, r and e doubles, f defined at both.
void propagated(Unary f, double r, double e, Enc& out) {
  M x, a_lo, a_hi, b_lo, b_hi;
  mpfr_set_d(x.v, r, MPFR_RNDN);
  mpfr_add_d(x.v, x.v, e, MPFR_RNDN);  // exact: 256 bits hold r + e for doubles within 2^200
  f(a_lo.v, x.v, MPFR_RNDD);
  f(a_hi.v, x.v, MPFR_RNDU);
  mpfr_set_d(x.v, r, MPFR_RNDN);
  f(b_lo.v, x.v, MPFR_RNDD);
  f(b_hi.v, x.v, MPFR_RNDU);
  M d_lo, d_hi;
  mpfr_sub(d_lo.v, a_lo.v, b_hi.v, MPFR_RNDD);
  mpfr_sub(d_hi.v, a_hi.v, b_lo.v, MPFR_RNDU);
  if (mpfr_sgn(d_lo.v) >= 0) {
    mpfr_set(out.lo.v, d_lo.v, MPFR_RNDD);
    mpfr_set(out.hi.v, d_hi.v, MPFR_RNDU);
  } else if (mpfr_sgn(d_hi.v) <= 0) {
    mpfr_neg(out.lo.v, d_hi.v, MPFR_RNDD);
    mpfr_neg(out.hi.v, d_lo.v, MPFR_RNDU);
  } else {
    mpfr_set_zero(out.lo.v, 1);
    mpfr_neg(d_lo.v, d_lo.v, MPFR_RNDU);
    mpfr_max(out.hi.v, d_lo.v, d_hi.v, MPFR_RNDU);
  }
}

// |g(r)| · |e| with g given in both directions (g >= 0 on the region used).
void slope_times(Unary g, double r, double e, double factor, Enc& out) {
  M x;
  mpfr_set_d(x.v, r, MPFR_RNDN);
  g(out.lo.v, x.v, MPFR_RNDD);
  g(out.hi.v, x.v, MPFR_RNDU);
  mpfr_abs(out.lo.v, out.lo.v, MPFR_RNDD);  // g's sign is fixed on the audited inputs
  mpfr_abs(out.hi.v, out.hi.v, MPFR_RNDU);
  if (mpfr_cmp(out.lo.v, out.hi.v) > 0) mpfr_swap(out.lo.v, out.hi.v);
  mpfr_mul_d(out.lo.v, out.lo.v, std::fabs(e) * factor, MPFR_RNDD);
  mpfr_mul_d(out.hi.v, out.hi.v, std::fabs(e) * factor, MPFR_RNDU);
}

int exp_fn(mpfr_ptr o, mpfr_srcptr x, mpfr_rnd_t d) { return mpfr_exp(o, x, d); }
int inv(mpfr_ptr o, mpfr_srcptr x, mpfr_rnd_t d) { return mpfr_ui_div(o, 1, x, d); }
int inv_two_sqrt(mpfr_ptr o, mpfr_srcptr x, mpfr_rnd_t d) {  // 1 / (2√x), decreasing in x
  M s;
  mpfr_sqrt(s.v, x, d == MPFR_RNDD ? MPFR_RNDU : MPFR_RNDD);
  mpfr_mul_2ui(s.v, s.v, 1, MPFR_RNDN);
  return mpfr_ui_div(o, 1, s.v, d);
}
int sigmoid_slope(mpfr_ptr o, mpfr_srcptr x, mpfr_rnd_t d) {  // σ(1 − σ) = 1 / (2 + 2 cosh x)
  M c;
  mpfr_cosh(c.v, x, d == MPFR_RNDD ? MPFR_RNDU : MPFR_RNDD);
  mpfr_mul_2ui(c.v, c.v, 1, MPFR_RNDN);
  mpfr_add_ui(c.v, c.v, 2, d == MPFR_RNDD ? MPFR_RNDU : MPFR_RNDD);
  return mpfr_ui_div(o, 1, c.v, d);
}
int tanh_slope(mpfr_ptr o, mpfr_srcptr x, mpfr_rnd_t d) {  // 1 − tanh² = 1 / cosh²
  M c;
  mpfr_cosh(c.v, x, d == MPFR_RNDD ? MPFR_RNDU : MPFR_RNDD);
  mpfr_sqr(c.v, c.v, d == MPFR_RNDD ? MPFR_RNDU : MPFR_RNDD);
  return mpfr_ui_div(o, 1, c.v, d);
}
int ident(mpfr_ptr o, mpfr_srcptr x, mpfr_rnd_t d) { return mpfr_set(o, x, d); }
int one(mpfr_ptr o, mpfr_srcptr, mpfr_rnd_t d) { return mpfr_set_ui(o, 1, d); }
int quarter(mpfr_ptr o, mpfr_srcptr, mpfr_rnd_t d) { return mpfr_set_d(o, 0.25, d); }
int log_fn(mpfr_ptr o, mpfr_srcptr x, mpfr_rnd_t d) { return mpfr_log(o, x, d); }
int sqrt_fn(mpfr_ptr o, mpfr_srcptr x, mpfr_rnd_t d) { return mpfr_sqrt(o, x, d); }
int tanh_fn(mpfr_ptr o, mpfr_srcptr x, mpfr_rnd_t d) { return mpfr_tanh(o, x, d); }
template <int C2>  // x^(C2/2)
int pow_fn(mpfr_ptr o, mpfr_srcptr x, mpfr_rnd_t d) {
  M c;
  mpfr_set_d(c.v, C2 / 2.0, MPFR_RNDN);
  return mpfr_pow(o, x, c.v, d);
}
template <int C2>  // |c · x^(c−1)|
int pow_slope(mpfr_ptr o, mpfr_srcptr x, mpfr_rnd_t d) {
  M c;
  mpfr_set_d(c.v, C2 / 2.0 - 1, MPFR_RNDN);
  mpfr_pow(o, x, c.v, d);
  return mpfr_mul_d(o, o, std::fabs(C2 / 2.0), d);
}
constexpr double kAlpha = 0.01;  // LeakyRelu's α in the audit
int leaky(mpfr_ptr o, mpfr_srcptr x, mpfr_rnd_t d) {
  if (mpfr_sgn(x) >= 0) return mpfr_set(o, x, d);
  return mpfr_mul_d(o, x, kAlpha, d);
}
int leaky_crossing(mpfr_ptr o, mpfr_srcptr, mpfr_rnd_t d) { return mpfr_set_d(o, 1.0, d); }  // max(1, |α|)

struct Bound {
  std::string id, op, formula, validity, holds_on, argument;
  Unary f;
  Unary slope;
  double factor = 1;
  std::function<bool(double r, double e)> valid;    // the stated validity condition
  std::function<bool(double r, double e)> region;   // the claimed holding region
  std::vector<std::pair<double, double>> candidates;  // witness candidates (r, e)
};

std::vector<Bound> unary_bounds() {
  auto all = [](double, double) { return true; };
  std::vector<Bound> b;
  b.push_back({"sonnx.abs.propagation", "Abs", "|Y_err| <= |X_err|", "all I (also crossing 0)",
               "every finite e", "reverse triangle inequality ||r+e| − |r|| <= |e|", abs_fn, one, 1, all, all, {}});
  b.push_back({"sonnx.exp.propagation", "Exp", "|Y_err| <= |exp(X)| · |X_err|", "all I",
               "e <= 0 (any r)",
               "exp(r+e) − exp(r) = exp(r)·expm1(e); |expm1(e)| <= |e| iff e <= 0 (expm1(e) > e for e > 0)",
               exp_fn, exp_fn, 1, all, [](double, double e) { return e <= 0; }, {{0, 1}, {1, 0x1p-20}, {-3, 2}}});
  b.push_back({"sonnx.log.propagation", "Log", "|Y_err| <= |X_err / X|", "X > 0 and X + X_err > 0",
               "e >= 0 (relative error e/r >= 0)",
               "log(r+e) − log(r) = log1p(q), q = e/r; |log1p(q)| <= |q| iff q >= 0 (−log1p(q) > −q for −1 < q < 0)",
               log_fn, inv, 1, [](double r, double e) { return r > 0 && r + e > 0; },
               [](double, double e) { return e >= 0; }, {{1, -0.5}, {2, -0x1p-20}, {1e-3, -5e-4}}});
  b.push_back({"sonnx.sqrt.propagation", "Sqrt", "|Y_err| <= |X_err / (2·sqrt(X))|", "X > 0 and X + X_err >= 0",
               "e >= 0", "√(r+e) − √r = e / (√(r+e) + √r), and √(r+e) + √r >= 2√r iff e >= 0",
               sqrt_fn, inv_two_sqrt, 1, [](double r, double e) { return r > 0 && r + e >= 0; },
               [](double, double e) { return e >= 0; }, {{1, -0.75}, {4, -0x1p-20}, {1, -1}}});
  b.push_back({"sonnx.sigmoid.propagation.local", "Sigmoid", "|Y_err| <= |σ(X)(1 − σ(X))| · |X_err|", "all I",
               "r·e >= 0 (the error moves away from 0), any e when r = 0",
               "σ' = σ(1−σ) is even and decreasing in |x|: for r·e >= 0 every ξ between r and r+e has σ'(ξ) <= σ'(r); "
               "for r·e < 0 with r+e on the same side, σ'(ξ) > σ'(r) (mean value)",
               sigmoid, sigmoid_slope, 1, all, [](double r, double e) { return r * e >= 0; },
               {{1, -1}, {3, -0x1p-10}, {-2, 1}}});
  b.push_back({"sonnx.sigmoid.propagation.global", "Sigmoid", "|Y_err| <= 1/4 · |X_err|", "all I", "every finite e",
               "σ' <= 1/4 everywhere (mean value)", sigmoid, quarter, 1, all, all, {}});
  b.push_back({"sonnx.pow.propagation.c2", "Pow", "|C_err| <= |B·A^(B−1)·A_err| + |A^B·ln(A)·B_err| (B = 2, B_err = 0)",
               "A > 0 and A + A_err >= 0", "e <= 0",
               "(r+e)² − r² = e·(2r + e): for r > 0 and −r <= e <= 0 its size |e|·(2r + e) <= 2r|e|; for e > 0 it exceeds 2r|e|",
               pow_fn<4>, pow_slope<4>, 1, [](double r, double e) { return r > 0 && r + e >= 0; },
               [](double, double e) { return e <= 0; }, {{1, 0.5}, {3, 0x1p-20}}});
  b.push_back({"sonnx.pow.propagation.c_half", "Pow", "|C_err| <= |B·A^(B−1)·A_err| (B = 1/2, B_err = 0)",
               "A > 0 and A + A_err >= 0", "e >= 0", "x^(1/2) is concave: the first-order term overestimates iff e >= 0",
               pow_fn<1>, pow_slope<1>, 1, [](double r, double e) { return r > 0 && r + e >= 0; },
               [](double, double e) { return e >= 0; }, {{1, -0.5}, {2, -0x1p-20}}});
  b.push_back({"sonnx.leakyrelu.propagation.crossing", "LeakyRelu",
               "|Y_err| <= max(1, |α|)·|X_err| on sign crossing (α = 0.01 audited)", "sign regions", "every finite e",
               "LeakyRelu is piecewise linear with slopes 1 and α: max(1, |α|)-Lipschitz", leaky, leaky_crossing, 1,
               all, all, {}});
  b.push_back({"sonnx.where.propagation", "Where", "Z_err = X_err (condition true) or Y_err", "—",
               "every finite e", "selection copies the chosen operand: its error exactly", ident, one, 1, all, all, {}});
  b.push_back({"sonnx.tanh.propagation.first_order", "Tanh", "|Y_err| <= (1 − tanh²(X)) · |X_err|", "all I",
               "r·e >= 0, any e when r = 0",
               "tanh' = 1/cosh² is even and decreasing in |x| (as for sigmoid)", tanh_fn, tanh_slope, 1, all,
               [](double r, double e) { return r * e >= 0; }, {{1, -1}, {0.5, -0x1p-12}}});
  b.push_back({"sonnx.tanh.propagation.lipschitz", "Tanh", "|Y_err| <= |X_err|", "all I", "every finite e",
               "tanh' <= 1", tanh_fn, one, 1, all, all, {}});
  return b;
}

std::string dec(mpfr_srcptr v, mpfr_rnd_t d) {
  char buf[128];
  mpfr_snprintf(buf, sizeof buf, d == MPFR_RNDD ? "%.17RDg" : "%.17RUg", v);
  return buf;
}
std::string hexd(double x) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%a", x);
  return buf;
}

// lower(|propagated|) > upper(bound): certified violation.
bool violated(const Bound& b, double r, double e, std::string* witness) {
  Enc lhs, rhs;
  propagated(b.f, r, e, lhs);
  slope_times(b.slope, r, e, b.factor, rhs);
  const bool v = mpfr_cmp(lhs.lo.v, rhs.hi.v) > 0;
  if (v && witness)
    *witness = "r = " + hexd(r) + ", e = " + hexd(e) + ": |f(r+e) − f(r)| >= " + dec(lhs.lo.v, MPFR_RNDD) +
               " > bound <= " + dec(rhs.hi.v, MPFR_RNDU);
  return v;
}

}  // namespace

std::vector<UnaryAuditEntry> run_unary_audit(long samples, std::uint64_t seed) {
  std::vector<UnaryAuditEntry> out;
  std::mt19937_64 rng(seed);
  auto unit = [&] { return std::uniform_real_distribution<double>(0, 1)(rng); };
  for (const Bound& b : unary_bounds()) {
    UnaryAuditEntry a{b.id, b.op, b.formula, "SONNX accuracy digest §1.5", b.validity, false, "", b.holds_on,
                      b.argument};
    for (const auto& [r, e] : b.candidates)
      if (b.valid(r, e) && violated(b, r, e, &a.witness)) { a.refuted = true; break; }
    for (long i = 0; i < samples; ++i) {
      const double r = std::ldexp(unit() * 2 - 1, static_cast<int>(unit() * 8) - 3);
      double e = std::ldexp(unit() * 2 - 1, -static_cast<int>(unit() * 40));
      if (unit() < 0.5) e *= std::fabs(r);
      if (!b.valid(r, e)) continue;
      std::string w;
      const bool v = violated(b, r, e, a.refuted ? nullptr : &w);
      if (b.region(r, e)) {
        ++a.inside;
        a.inside_violations += v;
      } else {
        ++a.outside;
        a.outside_violations += v;
      }
      if (v && !a.refuted) { a.refuted = true; a.witness = w; }
    }
    out.push_back(std::move(a));
  }
  return out;
}

std::string unary_audit_markdown(const std::vector<UnaryAuditEntry>& entries) {
  auto cell = [](const std::string& t) {  // a table cell: pipes escaped
    std::string r;
    for (char ch : t) r += ch == '|' ? std::string("\\|") : std::string(1, ch);
    return r;
  };
  std::ostringstream s;
  s << "| bound | operator | verdict | witness | holds on | random executions inside / violations, outside / "
       "violations |\n|---|---|---|---|---|---|\n";
  for (const auto& a : entries)
    s << "| `" << a.id << "` " << cell(a.formula) << " | " << a.op << " | " << (a.refuted ? "**violated**" : "holds")
      << " | " << (a.refuted ? cell(a.witness) : "—") << " | " << a.holds_on << " | " << a.inside << " / "
      << a.inside_violations << ", " << a.outside << " / " << a.outside_violations << " |\n";
  return s.str();
}

}  // namespace symerr::verify
