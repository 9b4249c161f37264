// Test support: random symbolic inputs of every shape, concrete executions
// inside them, and the exact oracle (GMP rationals + the format's exact
// rounding) of one operation.
#pragma once

#include "mixed_bound_check.hpp"
#include <cmath>
#include <optional>
#include <random>
#include <sstream>
#include <string>

#include <symerr/symbolic.hpp>
#include "test_scale.hpp"

namespace symerr::test {

struct Box {
  double lo, hi, elo, ehi;
};

inline std::string hex(double x) {
  char b[64];
  std::snprintf(b, sizeof b, "%a", x);
  return b;
}

inline std::string describe(const Box& b) {
  return "real [" + hex(b.lo) + ", " + hex(b.hi) + "] err [" + hex(b.elo) + ", " + hex(b.ehi) + "]";
}

class Generator {
 public:
  explicit Generator(std::uint64_t seed) : rng_(seed) {}

  int pick(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  double unit() { return std::uniform_real_distribution<double>(0, 1)(rng_); }

  // A random symbolic input box for `format`.
  Box box(const Format& format) {
    if (auto* I = std::get_if<IntFormat>(&format)) return int_box(*I);
    const FloatFormat& F = std::get<FloatFormat>(format);
    const int shape = pick(0, 6);
    const double max = F.max_finite();
    double lo = 0, hi = 0;
    auto mag_at = [&](int e) { return std::ldexp(1.0 + unit(), e); };
    switch (shape) {
      case 0: {  // narrow
        const double c = mag_at(pick(F.emin, F.emax - 1)) * (pick(0, 1) ? 1 : -1);
        const double w = std::fabs(c) * std::ldexp(1.0, -pick(2, F.precision + 2));
        lo = c - w; hi = c + w;
        break;
      }
      case 1: {  // wide, one sign
        lo = mag_at(pick(F.emin, F.emax / 2)); hi = mag_at(pick(F.emax / 2, F.emax - 1));
        if (pick(0, 1)) { const double t = -hi; hi = -lo; lo = t; }
        break;
      }
      case 2:  // zero-crossing
        lo = -mag_at(pick(F.emin, F.emax - 1)); hi = mag_at(pick(F.emin, F.emax - 1));
        break;
      case 3:  // subnormal / tiny
        lo = F.min_subnormal() * pick(0, 40) * (pick(0, 2) ? 1 : -1);
        hi = lo + F.min_normal() * unit() * 2;
        break;
      case 4:  // near overflow
        hi = max * (1 - unit() * 0.01); lo = max * (0.5 + unit() * 0.4);
        if (pick(0, 1)) { const double t = -hi; hi = -lo; lo = t; }
        break;
      case 5: {  // moderate, around 1
        lo = unit() * 4 - 2; hi = lo + unit() * 3;
        break;
      }
      default: {  // a point
        lo = hi = mag_at(pick(-10, 10)) * (pick(0, 1) ? 1 : -1);
        break;
      }
    }
    lo = std::max(lo, -max); hi = std::min(hi, max);
    if (lo > hi) std::swap(lo, hi);
    // endpoints on the format's grid, so that every box holds a value of F
    lo = round_to(lo, F, RoundingMode::NearestEven).value;
    hi = round_to(hi, F, RoundingMode::NearestEven).value;
    const double scale = std::max(std::fabs(lo), std::fabs(hi));
    double e = 0;
    switch (pick(0, 3)) {
      case 0: e = 0; break;                                         // error-free input
      case 1: e = ulp(scale, F) * pick(1, 4) / 2; break;            // a few half-ulps
      case 2: e = scale * std::ldexp(1.0, -pick(4, 30)); break;     // small relative
      default: e = std::max(scale, F.min_normal()) * unit() * 0.6; break;  // large relative
    }
    double elo = -e * unit(), ehi = e * unit();
    if (pick(0, 3) == 0) elo = 0;
    return {lo, hi, elo, ehi};
  }

  Box int_box(const IntFormat& I) {
    const double min = static_cast<double>(I.min_value()), max = static_cast<double>(I.max_value());
    double lo, hi;
    switch (pick(0, 3)) {
      case 0: lo = min; hi = max; break;  // whole range
      case 1: lo = std::floor(min + (max - min) * unit()); hi = lo + pick(0, 20); break;
      case 2: lo = -pick(0, 9); hi = pick(0, 9); break;  // around zero
      default: lo = std::floor(max - pick(0, 10)); hi = max; break;  // near the top
    }
    if (I.is_signed == false) lo = std::max(lo, 0.0);
    hi = std::min(hi, max);
    lo = std::min(lo, hi);
    double elo = 0, ehi = 0;
    if (pick(0, 2) == 0) { elo = -unit() * 2; ehi = unit() * 2; }
    return {lo, hi, elo, ehi};
  }

  // A concrete execution (r, f) of an input built from `b` whose fp is `fp`:
  // f a value of the format in [fp_lo, fp_hi], r exact with r ∈ [lo, hi] and
  // f − r ∈ [elo, ehi]. nullopt if the sampled f admits no r.
  struct Execution {
    mpq_class r;
    double f;
  };
  std::optional<Execution> execution(const Box& b, double fp_lo, double fp_hi, const Format& format,
                                     bool allow_neg_zero) {
    double f;
    const int k = pick(0, 9);
    if (k == 0) f = fp_lo;
    else if (k == 1) f = fp_hi;
    else if (k == 2 && fp_lo <= 0 && 0 <= fp_hi) f = 0;
    else f = fp_lo + (fp_hi - fp_lo) * unit();
    if (!std::isfinite(f)) f = fp_lo;
    if (auto* F = std::get_if<FloatFormat>(&format)) {
      f = round_to(f, *F, RoundingMode::NearestEven).value;
      f = std::min(std::max(f, fp_lo), fp_hi);
      if (f == 0 && allow_neg_zero && pick(0, 1)) f = -0.0;
      if (f == 0 && !allow_neg_zero) f = 0.0;
    } else if (std::holds_alternative<IntFormat>(format)) {
      f = std::min(std::max(std::nearbyint(f), std::ceil(fp_lo)), std::floor(fp_hi));
    }
    const mpq_class fq = exact_value(f);
    mpq_class L = exact_value(b.lo), H = exact_value(b.hi);
    const mpq_class l2 = fq - exact_value(b.ehi), h2 = fq - exact_value(b.elo);
    if (l2 > L) L = l2;
    if (h2 < H) H = h2;
    if (L > H) return std::nullopt;
    const int k2 = pick(0, 5);
    mpq_class r = k2 == 0 ? L : k2 == 1 ? H : mpq_class(L + (H - L) * mpq_class(pick(0, 1 << 20), 1 << 20));
    r.canonicalize();
    return Execution{r, f};
  }

 private:
  std::mt19937_64 rng_;
};

// The exact outcome of one operation on concrete values.
struct Outcome {
  bool real_defined = true;
  mpq_class r;            // ideal result (if defined)
  bool computed_defined = true;  // integer x/0 has no computed result
  double f = 0;           // computed result (may be ±inf, NaN)
  bool t_finite = false;  // exact result of the machine inputs exists and is finite
  mpq_class t;
};

inline mpq_class floor_q(const mpq_class& q) {
  mpz_class z;
  mpz_fdiv_q(z.get_mpz_t(), q.get_num_mpz_t(), q.get_den_mpz_t());
  return mpq_class(z);
}
inline mpq_class trunc_q(const mpq_class& q) {
  mpz_class z;
  mpz_tdiv_q(z.get_mpz_t(), q.get_num_mpz_t(), q.get_den_mpz_t());
  return mpq_class(z);
}

inline Outcome oracle(ArithOp op, const mpq_class& rx, const mpq_class& ry, double fx, double fy,
                      const Format& format, RoundingMode mode, IntegerDivision idiv) {
  Outcome o;
  switch (op) {
    case ArithOp::Add: o.r = rx + ry; break;
    case ArithOp::Sub: o.r = rx - ry; break;
    case ArithOp::Mul: o.r = rx * ry; break;
    case ArithOp::Div:
      if (sgn(ry) == 0) o.real_defined = false; else o.r = rx / ry;
      break;
  }
  const mpq_class qx = exact_value(fx), qy = exact_value(fy);
  if (auto* I = std::get_if<IntFormat>(&format)) {
    mpq_class t;
    switch (op) {
      case ArithOp::Add: t = qx + qy; break;
      case ArithOp::Sub: t = qx - qy; break;
      case ArithOp::Mul: t = qx * qy; break;
      case ArithOp::Div:
        if (fy == 0) { o.computed_defined = false; return o; }
        t = qx / qy;
        break;
    }
    o.t = t;
    o.t_finite = true;
    mpq_class q = op == ArithOp::Div ? (idiv == IntegerDivision::Floor ? floor_q(t) : trunc_q(t)) : t;
    mpz_class w;  // q mod 2^n, then into [min, max]
    mpz_fdiv_r_2exp(w.get_mpz_t(), q.get_num_mpz_t(), static_cast<mp_bitcnt_t>(I->bits));
    if (I->is_signed && w >= (mpz_class(1) << (I->bits - 1))) w -= mpz_class(1) << I->bits;
    o.f = w.get_d();  // exact for formats of at most 53 bits
    return o;
  }
  const FloatFormat& F = std::get<FloatFormat>(format);
  // IEEE 754 semantics on the machine inputs
  const bool nx = std::signbit(fx), ny = std::signbit(fy);
  switch (op) {
    case ArithOp::Add:
    case ArithOp::Sub: {
      o.t = op == ArithOp::Add ? mpq_class(qx + qy) : mpq_class(qx - qy);
      const bool ney = op == ArithOp::Sub ? !ny : ny;
      const bool neg_zero = (fx == 0 && nx && fy == 0 && ney) || (mode == RoundingMode::Downward && sgn(o.t) == 0);
      o.t_finite = true;
      o.f = round_to(o.t, F, mode, neg_zero).value;
      return o;
    }
    case ArithOp::Mul:
      o.t = qx * qy;
      o.t_finite = true;
      o.f = round_to(o.t, F, mode, nx != ny).value;
      return o;
    case ArithOp::Div:
      if (fy == 0) {
        o.f = fx == 0 ? NAN : ((nx != ny) ? -INFINITY : INFINITY);
        return o;
      }
      o.t = qx / qy;
      o.t_finite = true;
      o.f = round_to(o.t, F, mode, nx != ny).value;
      return o;
  }
  return o;
}

// The computed result f against z's special-value flags and fp enclosure:
// an empty string if they hold it, else what failed; `done` is set when f is
// special (nothing more to check).
template <class D>
std::string computed_defect(const SymbolicDomainError<D>& z, double f, const Format& format, bool& done) {
  const SpecialStates& s = z.specials;
  done = std::isnan(f) || std::isinf(f);
  if (std::isnan(f)) return s.may_be_nan ? "" : "NaN result not flagged";
  if (std::isinf(f)) {
    if (f > 0 && !s.may_be_pos_inf) return "+inf result not flagged";
    if (f < 0 && !s.may_be_neg_inf) return "-inf result not flagged";
    return "";
  }
  if (!s.may_be_finite) return "finite result but may_be_finite is false";
  if (!contains(z.fp, exact_value(f))) return "f not in fp";
  if (f == 0 && std::holds_alternative<FloatFormat>(format)) {
    if (std::signbit(f) && !s.may_be_neg_zero) return "-0 result not flagged";
    if (!std::signbit(f) && !s.may_be_pos_zero) return "+0 result not flagged";
  }
  return "";
}

// One execution of a chained operation (an operand is itself a result):
// computed f, ideal r, and pr = the real operation on the actual operands.
// Every enclosure of z, the whole-kernel split's included; `done` when f is
// special (then only the flags are checked). Empty on success.
template <class D>
std::string split_defect(const SymbolicDomainError<D>& z, double f, const mpq_class& r, const mpq_class& pr,
                         const Format& format, bool& done) {
  if (std::string d = computed_defect(z, f, format, done); !d.empty() || done) return d;
  if (!contains(z.real, r)) return "r not in real";
  if (!contains(z.err, mpq_class(exact_value(f) - r))) return "f - r not in err";
  if (!contains(z.propagated, mpq_class(pr - r))) return "pr - r not in propagated";
  if (!contains(z.introduced, mpq_class(exact_value(f) - pr))) return "f - pr not in introduced";
  return "";
}

// Checks one execution; returns an empty string on success, else what failed.
template <class D>
inline std::string check_execution(const SymbolicDomainError<D>& z, const Outcome& o, const Format& format) {
  const SpecialStates& s = z.specials;
  if (!o.computed_defined) return s.may_be_undefined ? "" : "integer x/0 not flagged undefined";
  if (!o.real_defined && !s.may_be_undefined) return "real undefined (division by 0) not flagged";
  bool done = false;
  if (std::string d = computed_defect(z, o.f, format, done); !d.empty() || done) return d;
  if (o.t_finite && !contains(z.introduced, exact_value(o.f) - o.t)) return "f - t not in introduced";
  if (!o.real_defined) return "";
  if (!s.may_be_defined) return "real defined but may_be_defined is false";
  if (!contains(z.real, o.r)) return "r not in real";
  const mpq_class e = exact_value(o.f) - o.r;
  if (!contains(z.err, e)) return "f - r not in err";
  if (o.t_finite && !contains(z.propagated, o.t - o.r)) return "t - r not in propagated";
  if (sgn(o.r) != 0 && !contains(z.rel_err, mpq_class(e / o.r))) return "(f - r)/r not in rel_err";
  if (!mixed_holds(z.mixed, e, o.r)) return "|f - r| above mixed.rel |r| + mixed.abs";
  return "";
}

}  // namespace symerr::test
