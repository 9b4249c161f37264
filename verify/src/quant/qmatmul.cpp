// The quantized matmul's bound and exact execution
// (<symerr/verify/quant/qmatmul.hpp>): every bound term in exact rational
// interval arithmetic (GMP), rounded outward to double at the end.
#include <symerr/verify/quant/qmatmul.hpp>

#include <gmpxx.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include <symerr/fp_environment.hpp>

namespace symerr::verify::quant {
namespace {

using symerr::quant::FixedPointMultiplier;
using symerr::quant::RequantVariant;

struct QI {
  mpq_class lo, hi;
};

QI add(const QI& a, const QI& b) { return {a.lo + b.lo, a.hi + b.hi}; }
QI sub_const(const QI& a, const mpq_class& c) { return {a.lo - c, a.hi - c}; }
QI mul(const QI& a, const QI& b) {
  const mpq_class p[4] = {a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi};
  QI r{p[0], p[0]};
  for (const auto& v : p) {
    if (v < r.lo) r.lo = v;
    if (v > r.hi) r.hi = v;
  }
  return r;
}
QI scale(const QI& a, const mpq_class& c) { return c >= 0 ? QI{a.lo * c, a.hi * c} : QI{a.hi * c, a.lo * c}; }
mpq_class mag(const QI& a) { return std::max(mpq_class(abs(a.lo)), mpq_class(abs(a.hi))); }

double down(const mpq_class& x) {
  double d = x.get_d();
  if (mpq_class(d) > x) d = std::nextafter(d, -INFINITY);
  return d;
}
double up(const mpq_class& x) {
  double d = x.get_d();
  if (mpq_class(d) < x) d = std::nextafter(d, INFINITY);
  return d;
}

// round_half_even(x / s) for a rational x.
mpz_class rne_quotient(const mpq_class& x, const mpq_class& s) {
  const mpq_class q = x / s;
  mpz_class f;
  mpz_fdiv_q(f.get_mpz_t(), q.get_num_mpz_t(), q.get_den_mpz_t());
  const mpq_class frac = q - mpq_class(f);
  if (frac > mpq_class(1, 2) || (frac == mpq_class(1, 2) && mpz_odd_p(f.get_mpz_t()))) f += 1;
  return f;
}

// One quantized input element over its box: the quantized value's range
// (saturated), the dequantized range ã and the quantization error e = ã − a.
struct QuantizedBox {
  QI a, q, deq, err;
  bool saturates = false;
};

QuantizedBox quantize_box(double lo, double hi, const QuantParams& p) {
  const mpq_class s(p.scale), z(static_cast<long>(p.zero_point));
  QuantizedBox r;
  r.a = {mpq_class(lo), mpq_class(hi)};
  const mpz_class qlo = rne_quotient(r.a.lo, s) + p.zero_point, qhi = rne_quotient(r.a.hi, s) + p.zero_point;
  const mpz_class tlo = p.type.lo, thi = p.type.hi;
  r.saturates = qlo < tlo || qhi > thi;
  r.q = {mpq_class(std::clamp(qlo, tlo, thi)), mpq_class(std::clamp(qhi, tlo, thi))};
  r.deq = scale(sub_const(r.q, z), s);
  if (qlo == qhi) {
    r.err = {r.deq.lo - r.a.hi, r.deq.lo - r.a.lo};
    return r;
  }
  r.err = {-s / 2, s / 2};
  if (qhi > thi) r.err.lo = std::min(r.err.lo, mpq_class(s * (mpq_class(thi) - z) - r.a.hi));
  if (qlo < tlo) r.err.hi = std::max(r.err.hi, mpq_class(s * (mpq_class(tlo) - z) - r.a.lo));
  return r;
}

void check_box(const std::vector<double>& lo, const std::vector<double>& hi, std::size_t count, const char* name) {
  if (lo.size() != count || hi.size() != count)
    throw std::invalid_argument(std::string("quantized matmul: box of ") + name + " has " + std::to_string(lo.size()) +
                                " / " + std::to_string(hi.size()) + " bounds, expected " + std::to_string(count));
  for (std::size_t i = 0; i < count; ++i)
    if (!(std::isfinite(lo[i]) && std::isfinite(hi[i]) && lo[i] <= hi[i]))
      throw std::invalid_argument(std::string("quantized matmul: box of ") + name + "[" + std::to_string(i) +
                                  "] is not a finite interval lo <= hi: [" + std::to_string(lo[i]) + ", " +
                                  std::to_string(hi[i]) + "]");
}

void validate_spec(const QMatMulSpec& s) {
  if (s.m == 0 || s.k == 0 || s.n == 0) throw std::invalid_argument("quantized matmul: a dimension is 0");
  check_box(s.a_lo, s.a_hi, s.m * s.k, "A");
  check_box(s.b_lo, s.b_hi, s.k * s.n, "B");
  symerr::quant::validate_quantize(s.a.scale, s.a.zero_point, s.a.type);
  symerr::quant::validate_quantize(s.b.scale, s.b.zero_point, s.b.type);
  symerr::quant::validate_quantize(s.y.scale, s.y.zero_point, s.y.type);
  symerr::quant::validate(s.multiplier);
}

mpq_class real_multiplier(const FixedPointMultiplier& m) {
  mpz_class den = 1;
  den <<= 31 + m.shift;
  mpq_class r(mpz_class(m.multiplier), den);
  r.canonicalize();
  return r;
}

QMatMulElementBound element_bound(const QMatMulSpec& s, const std::vector<QuantizedBox>& qa,
                                  const std::vector<QuantizedBox>& qb, std::size_t i, std::size_t j) {
  QMatMulElementBound out;
  const mpq_class za(static_cast<long>(s.a.zero_point)), zb(static_cast<long>(s.b.zero_point));
  QI acc{0, 0}, quant{0, 0}, real{0, 0};
  for (std::size_t l = 0; l < s.k; ++l) {
    const QuantizedBox& a = qa[i * s.k + l];
    const QuantizedBox& b = qb[l * s.n + j];
    out.inputs_may_saturate = out.inputs_may_saturate || a.saturates || b.saturates;
    acc = add(acc, mul(sub_const(a.q, za), sub_const(b.q, zb)));
    quant = add(quant, add(mul(a.a, b.err), mul(a.err, b.deq)));
    real = add(real, mul(a.a, b.a));
  }
  if (acc.lo < INT32_MIN || acc.hi > INT32_MAX) {
    out.accumulator_may_overflow = true;
    out.err_lo = -INFINITY;
    out.err_hi = INFINITY;
    return out;
  }
  const mpq_class mreal = real_multiplier(s.multiplier), sy(s.y.scale), sab = mpq_class(s.a.scale) * mpq_class(s.b.scale);
  const QI y = scale(acc, mreal);
  const double r = requant_rounding_bound(s.variant, s.multiplier, up(mag(y)));
  if (!std::isfinite(r)) {
    out.err_lo = -INFINITY;
    out.err_hi = INFINITY;
    return out;
  }
  const mpq_class rq(r);
  const mpq_class zy(static_cast<long>(s.y.zero_point));
  // the output is an integer: qy − zy ∈ [⌈y.lo − R⌉, ⌊y.hi + R⌋]
  const mpq_class ylo = y.lo - rq, yhi = y.hi + rq;
  mpz_class qlo, qhi;
  mpz_cdiv_q(qlo.get_mpz_t(), ylo.get_num_mpz_t(), ylo.get_den_mpz_t());
  mpz_fdiv_q(qhi.get_mpz_t(), yhi.get_num_mpz_t(), yhi.get_den_mpz_t());
  const QI yint{mpq_class(qlo) + zy, mpq_class(qhi) + zy};
  out.output_may_saturate = yint.lo < s.y.type.lo || yint.hi > s.y.type.hi;
  const QI rounding = scale(QI{-rq, rq}, sy);
  const QI mult = scale(acc, sy * mreal - sab);
  out.rounding = up(mag(rounding));
  out.multiplier = up(mag(mult));
  out.quantization = up(mag(quant));
  QI err = add(add(rounding, mult), quant);
  if (out.output_may_saturate) {
    // qy ∈ saturate(yint): the dequantized hull minus the real range
    const mpq_class tlo(static_cast<long>(s.y.type.lo)), thi(static_cast<long>(s.y.type.hi));
    const QI qy{std::clamp(mpq_class(yint.lo), tlo, thi), std::clamp(mpq_class(yint.hi), tlo, thi)};
    const QI deq = scale(sub_const(qy, zy), sy);
    const QI hull{deq.lo - real.hi, deq.hi - real.lo};
    err = {std::min(err.lo, hull.lo), std::max(err.hi, hull.hi)};
  }
  out.err_lo = down(err.lo);
  out.err_hi = up(err.hi);
  return out;
}

}  // namespace

double requant_rounding_bound(RequantVariant v, const FixedPointMultiplier& m, double magnitude) {
  constexpr double kU = 0x1p-24;
  const double float_part = magnitude * (3.0000002 * kU);
  switch (v) {
    case RequantVariant::exact_half_even:
    case RequantVariant::single_half_up:
      return 0.5;
    case RequantVariant::gemmlowp:
    case RequantVariant::tosa_double_round:
      return 0.5 + std::ldexp(0.5, -m.shift);  // 1/2 at 2^-31 resolution, then 1/2 LSB
    case RequantVariant::truncate:
      return 1.0;
    case RequantVariant::float_lrintf:
      return 0.5 + float_part;
    case RequantVariant::float_magic_bias:
      return magnitude + float_part + 0.5 < 0x1p22 ? 0.5 + float_part : INFINITY;
  }
  return INFINITY;
}

std::vector<QMatMulElementBound> qmatmul_bound(const QMatMulSpec& spec) {
  validate_spec(spec);
  std::vector<QuantizedBox> qa, qb;
  qa.reserve(spec.m * spec.k);
  qb.reserve(spec.k * spec.n);
  for (std::size_t e = 0; e < spec.m * spec.k; ++e) qa.push_back(quantize_box(spec.a_lo[e], spec.a_hi[e], spec.a));
  for (std::size_t e = 0; e < spec.k * spec.n; ++e) qb.push_back(quantize_box(spec.b_lo[e], spec.b_hi[e], spec.b));
  std::vector<QMatMulElementBound> out;
  out.reserve(spec.m * spec.n);
  for (std::size_t i = 0; i < spec.m; ++i)
    for (std::size_t j = 0; j < spec.n; ++j) out.push_back(element_bound(spec, qa, qb, i, j));
  return out;
}

std::vector<std::int64_t> qmatmul_execute(const QMatMulSpec& spec, const std::vector<float>& a,
                                          const std::vector<float>& b) {
  if (a.size() != spec.m * spec.k || b.size() != spec.k * spec.n)
    throw std::invalid_argument("quantized matmul: inputs of " + std::to_string(a.size()) + " and " +
                                std::to_string(b.size()) + " elements for " + std::to_string(spec.m) + "x" +
                                std::to_string(spec.k) + " by " + std::to_string(spec.k) + "x" + std::to_string(spec.n));
  FpEnvironmentGuard env;
  using symerr::quant::quantize_ideal;
  std::vector<std::int64_t> y(spec.m * spec.n);
  for (std::size_t i = 0; i < spec.m; ++i)
    for (std::size_t j = 0; j < spec.n; ++j) {
      std::int64_t acc = 0;
      for (std::size_t l = 0; l < spec.k; ++l)
        acc += (quantize_ideal(a[i * spec.k + l], spec.a.scale, spec.a.zero_point, spec.a.type) - spec.a.zero_point) *
               (quantize_ideal(b[l * spec.n + j], spec.b.scale, spec.b.zero_point, spec.b.type) - spec.b.zero_point);
      if (acc < INT32_MIN || acc > INT32_MAX)
        throw std::overflow_error("quantized matmul: the int32 accumulator of output (" + std::to_string(i) + ", " +
                                  std::to_string(j) + ") overflows: " + std::to_string(acc));
      const std::int64_t q =
          symerr::quant::requantize(static_cast<std::int32_t>(acc), spec.multiplier, spec.variant) + spec.y.zero_point;
      y[i * spec.n + j] = std::clamp(q, spec.y.type.lo, spec.y.type.hi);
    }
  return y;
}

double qmatmul_error(const QMatMulSpec& spec, const std::vector<float>& a, const std::vector<float>& b,
                     const std::vector<std::int64_t>& qy, std::size_t i, std::size_t j) {
  mpq_class real = 0;
  for (std::size_t l = 0; l < spec.k; ++l) real += mpq_class(a[i * spec.k + l]) * mpq_class(b[l * spec.n + j]);
  const mpq_class deq = mpq_class(spec.y.scale) * mpq_class(static_cast<long>(qy[i * spec.n + j] - spec.y.zero_point));
  return mpq_class(deq - real).get_d();
}

}  // namespace symerr::verify::quant
