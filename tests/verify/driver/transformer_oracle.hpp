// Exact executions of the transformer kernels (transformer_kernels.hpp) and
// the driver's bound on them: the same template run on a 256-bit MPFR number
// (the ideal program: exact operations, exact comparisons) and on float or
// double (the computed program, glibc's expf/sqrtf), at fp inputs x̂ and real
// inputs x = x̂ − d with |d| <= e; the error y(x̂) computed − y(x) exact of
// every output, as a double interval that contains it. A third of the
// executions have near-equal inputs (a few ulps apart: the unstable band of
// a running maximum, the diagonal where a variance vanishes).
#pragma once

#include <algorithm>
#include <cmath>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include <mpfr.h>

#include <symerr/verify/symbolic/driver.hpp>

#include "transformer_kernels.hpp"

namespace symerr::test::transformer {

// A 256-bit MPFR number with the operators the kernels use.
struct Real {
  mpfr_t v;
  Real(double d = 0) {  // NOLINT: implicit, as a C number converts
    mpfr_init2(v, 256);
    mpfr_set_d(v, d, MPFR_RNDN);
  }
  Real(const Real& o) {
    mpfr_init2(v, 256);
    mpfr_set(v, o.v, MPFR_RNDN);
  }
  Real& operator=(const Real& o) {
    mpfr_set(v, o.v, MPFR_RNDN);
    return *this;
  }
  ~Real() { mpfr_clear(v); }
  Real& operator+=(const Real& o) { mpfr_add(v, v, o.v, MPFR_RNDN); return *this; }
  Real& operator-=(const Real& o) { mpfr_sub(v, v, o.v, MPFR_RNDN); return *this; }
  Real& operator*=(const Real& o) { mpfr_mul(v, v, o.v, MPFR_RNDN); return *this; }
  Real& operator/=(const Real& o) { mpfr_div(v, v, o.v, MPFR_RNDN); return *this; }
  friend Real operator+(Real a, const Real& b) { return a += b; }
  friend Real operator-(Real a, const Real& b) { return a -= b; }
  friend Real operator*(Real a, const Real& b) { return a *= b; }
  friend Real operator/(Real a, const Real& b) { return a /= b; }
  friend bool operator>(const Real& a, const Real& b) { return mpfr_greater_p(a.v, b.v) != 0; }
  friend Real expf(const Real& a) {
    Real z;
    mpfr_exp(z.v, a.v, MPFR_RNDN);
    return z;
  }
  friend Real sqrtf(const Real& a) {
    Real z;
    mpfr_sqrt(z.v, a.v, MPFR_RNDN);
    return z;
  }
  friend Real exp(const Real& a) { return expf(a); }
  friend Real sqrt(const Real& a) { return sqrtf(a); }
};

// A kernel of the fixture: n_in inputs (real in [lo, hi], error within ±e,
// or a point weight when e_of says so), n_out outputs; `run` is the same
// template on every type.
struct Fixture {
  std::string name;
  int n_in = 0, n_out = 0;
  bool fp64 = false;
  std::vector<double> lo, hi, e;  // per input
  std::function<void(const float*, float*)> f32;
  std::function<void(const double*, double*)> f64;
  std::function<void(const Real*, Real*)> exact;
  // the inputs to make near-equal in a third of the executions
  std::vector<int> near;
};

// The largest |err| and whether every output's err lay in [blo_k, bhi_k].
struct Observed {
  double max_err = 0;
  bool sound = true;
  std::string escape;
};

inline Observed observe(const Fixture& f, const std::vector<double>& blo, const std::vector<double>& bhi, int runs,
                        std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u01(0, 1);
  Observed o;
  std::vector<double> xf(f.n_in), yf(f.n_out);
  std::vector<Real> xr(f.n_in), yr(f.n_out);
  Real t;
  const double slack = std::ldexp(1.0, -200);
  for (int run = 0; run < runs; ++run) {
    const bool near = run % 3 == 2 && !f.near.empty();
    auto fp_value = [&](double v) { return f.fp64 ? v : double(float(v)); };
    for (int i = 0; i < f.n_in; ++i) {
      const double margin = f.e[i] * 2;
      xf[i] = fp_value(f.lo[i] + margin + (f.hi[i] - f.lo[i] - 2 * margin) * u01(rng));
    }
    if (near) {
      const double base = xf[f.near[0]];
      for (int i : f.near) {
        const double ulp = f.fp64 ? std::ldexp(1.0, -52) : std::ldexp(1.0, -23);
        xf[i] = fp_value(base + ulp * std::floor(5 * u01(rng) - 2) * std::max(std::fabs(base), 0.5));
        xf[i] = std::clamp(xf[i], fp_value(f.lo[i] + 2 * f.e[i]), fp_value(f.hi[i] - 2 * f.e[i]));
      }
    }
    for (int i = 0; i < f.n_in; ++i) {
      const double r = u01(rng);
      const double d = f.e[i] * (r < 0.4 ? -1 : r < 0.8 ? 1 : 2 * u01(rng) - 1);
      mpfr_set_d(xr[i].v, xf[i], MPFR_RNDN);
      mpfr_set_d(t.v, d, MPFR_RNDN);
      mpfr_sub(xr[i].v, xr[i].v, t.v, MPFR_RNDN);
    }
    if (f.fp64) {
      f.f64(xf.data(), yf.data());
    } else {
      std::vector<float> a(xf.begin(), xf.end()), b(f.n_out);
      f.f32(a.data(), b.data());
      std::copy(b.begin(), b.end(), yf.begin());
    }
    f.exact(xr.data(), yr.data());
    for (int k = 0; k < f.n_out; ++k) {
      mpfr_d_sub(t.v, yf[k], yr[k].v, MPFR_RNDN);
      const double lo = mpfr_get_d(t.v, MPFR_RNDD) - slack, hi = mpfr_get_d(t.v, MPFR_RNDU) + slack;
      o.max_err = std::max({o.max_err, std::fabs(lo), std::fabs(hi)});
      if (o.sound && (lo < blo[k] || hi > bhi[k])) {
        o.sound = false;
        o.escape = f.name + ": output " + std::to_string(k) + " err [" + std::to_string(lo) + ", " +
                   std::to_string(hi) + "] outside its bound at run " + std::to_string(run);
      }
    }
  }
  return o;
}

// The driver's bound: per output err [lo, hi], in domain D with F the C float
// (or double) type of D.
struct Bound {
  std::vector<double> lo, hi;
  double sup = 0;
  std::string summary;
};

template <class D>
Bound driver_bound(const Fixture& f, const std::function<void(std::span<SymbolicDomainError<D>>,
                                                               std::span<SymbolicDomainError<D>>)>& kernel,
                   verify::DriverOptions opt = {}) {
  using S = SymbolicDomainError<D>;
  const Format F = f.fp64 ? FP64 : FP32;
  std::vector<S> in;
  for (int i = 0; i < f.n_in; ++i) in.push_back(S::input(f.lo[i], f.hi[i], -f.e[i], f.e[i], F));
  const auto r = verify::run_kernel<D>(kernel, in, static_cast<std::size_t>(f.n_out), opt);
  Bound b;
  for (const S& y : r.outputs) {
    b.lo.push_back(y.err.lower());
    b.hi.push_back(y.err.upper());
    b.sup = std::max(b.sup, mag(y.err));
  }
  b.summary = r.report.summary();
  return b;
}

// The kernel of fixture f as the driver runs it: C_TYPES' float (or double)
// on domain D, through KernelBuffers.
template <class D, class Body>
auto c_kernel(bool fp64, Body body) {
  using S = SymbolicDomainError<D>;
  return std::function<void(std::span<S>, std::span<S>)>([fp64, body](std::span<S> x, std::span<S> y) {
    auto go = [&](auto tag) {
      using F = decltype(tag);
      verify::KernelBuffer<F> xc(x), yc(y.size());
      body(xc.data(), yc.data());
      yc.copy_to(y);
    };
    if (fp64) go(CNumber<D, CType::Double>{});
    else go(CNumber<D, CType::Float>{});
  });
}

}  // namespace symerr::test::transformer
