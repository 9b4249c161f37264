// Test support for the unary elementary functions checked against MPFR
// (test_log2_log10.cpp, test_trig.cpp): the context a domain's values need,
// a k-ulp implementation at its extremes, and the random-box soundness loop.
#pragma once

#include <algorithm>
#include <cmath>
#include <random>
#include <span>
#include <stdexcept>
#include <string>

#include <catch2/catch.hpp>
#include <mpfr.h>

#include <symerr/domains/affine.hpp>
#include <symerr/elementary.hpp>
#include <symerr/mpfr_state.hpp>

#include "domain_scope.hpp"
#include "elementary/relative_range.hpp"
#include <symerr/domains/symbolic_interval.hpp>

namespace symerr::test {

// f evaluated by MPFR: f(r, x, rounding).
using MpfrEval = int (*)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t);

// The implementation's result at t (finite, inside f's domain) under a model:
// the correctly rounded value for k = 0.5 (or pick 0), else the value of F k
// ulps below (pick 1) or above (pick 2) the exact value — directed all the
// way, so that it is within k ulps of the exact value, not of a 256-bit
// rounding of it (they differ for arguments tiny enough that f(t) − t is
// below 256 bits).
inline double k_ulp_implementation(MpfrEval f, double t, const FloatFormat& F, double k, int pick) {
  detail::MpfrNumber x(64, t), v(256), w(256);
  if (k == 0.5 || pick == 0) {
    f(v.v, x.v, MPFR_RNDN);
    return round_to(v.get(), F, RoundingMode::NearestEven).value;
  }
  f(v.v, x.v, pick == 1 ? MPFR_RNDU : MPFR_RNDD);
  const double slack = k * ulp(std::fabs(mpfr_get_d(v.v, MPFR_RNDZ)), F);
  if (pick == 1) {
    mpfr_sub_d(w.v, v.v, slack, MPFR_RNDU);  // >= exact − slack
    return round_to(mpfr_get_d(w.v, MPFR_RNDU), F, RoundingMode::Upward).value;
  }
  mpfr_add_d(w.v, v.v, slack, MPFR_RNDD);  // <= exact + slack
  return round_to(mpfr_get_d(w.v, MPFR_RNDD), F, RoundingMode::Downward).value;
}

// The planted-bug twins: whether some of 2000 executions — t an FP32 value
// drawn in [lo, hi], e in [−ea, ea] — makes fault(t, e) non-empty.
template <class Fault>
bool caught_by_execution(double lo, double hi, double ea, Fault&& fault) {
  std::mt19937_64 g(3);
  std::uniform_real_distribution<double> u(0, 1);
  for (int i = 0; i < 2000; ++i) {
    const double t = static_cast<float>(lo + (hi - lo) * u(g)), e = -ea + 2 * ea * u(g);
    if (!fault(t, e).empty()) return true;
  }
  return false;
}

// "" if z.err holds y − f(r) and, where f(r) != 0, z.rel_err holds
// (y − f(r))/f(r), for every f(r) in [lo, hi] (MPFR bounds of f(r)).
template <RealDomain D>
std::string err_holds(const SymbolicDomainError<D>& z, double y, mpfr_srcptr lo, mpfr_srcptr hi) {
  detail::MpfrNumber d(256);
  mpfr_d_sub(d.v, y, hi, MPFR_RNDD);  // <= y − f(r)
  if (mpfr_cmp_d(d.v, z.err.lower()) < 0) return "err lower bound above y - f(r)";
  mpfr_d_sub(d.v, y, lo, MPFR_RNDU);  // >= y − f(r)
  if (mpfr_cmp_d(d.v, z.err.upper()) > 0) return "err upper bound below y - f(r)";
  if (mpfr_sgn(lo) > 0 || mpfr_sgn(hi) < 0) {  // y/f(r) − 1, monotone in f(r) of one sign
    detail::MpfrNumber qlo(512), qhi(512);
    relative_error_range(y, lo, hi, qlo.v, qhi.v);
    if (mpfr_cmp_d(qlo.v, z.rel_err.lower()) < 0) return "rel_err lower bound above (y - f(r))/f(r)";
    if (mpfr_cmp_d(qhi.v, z.rel_err.upper()) > 0) return "rel_err upper bound below (y - f(r))/f(r)";
  }
  if (!mixed_holds(z.mixed, y, lo, hi)) return "|y - f(r)| above mixed.rel |f(r)| + mixed.abs";
  return "";
}

// The usual planted bug: z's err narrowed by a quarter of its width on each side.
inline SymbolicDomainError<Interval> narrowed_err(SymbolicDomainError<Interval> z) {
  const double w = z.err.upper() - z.err.lower();
  z.err = Interval::between(z.err.lower() + w / 4, z.err.upper() - w / 4);
  return z;
}

// A box of F around c of half-width w: endpoints rounded inward onto F (one
// point if none is left), an input error of none (a third of the boxes) or
// up to 2^-k of the magnitude, of random extent each side.
inline void finish_box(std::mt19937_64& g, const FloatFormat& F, double c, double w, double& lo, double& hi,
                       double& elo, double& ehi) {
  std::uniform_real_distribution<double> u(0, 1);
  w = std::fabs(w);
  lo = round_to(std::max(c - w, -F.max_finite()), F, RoundingMode::Upward).value;
  hi = round_to(std::min(c + w, F.max_finite()), F, RoundingMode::Downward).value;
  if (lo > hi) lo = hi = round_to(c, F, RoundingMode::NearestEven).value;
  const double m = std::max({std::fabs(lo), std::fabs(hi), F.min_normal()});
  const double err = g() % 3 == 0 ? 0.0 : m * std::ldexp(u(g), -static_cast<int>(g() % 30));
  elo = -err * u(g);
  ehi = err * u(g);
}

// For each format and box from `random_box(g, F, lo, hi, elo, ehi)`: z =
// apply(x, model) under a correctly rounded (odd boxes) or 3-ulp model, and 12
// executions t ∈ fp, e ∈ [elo, ehi] with t − e ∈ real, each checked by
// check(z, t, e, k, pick) ("" or the fault; pick cycles 0, 1, 2). Counts the
// executions; the first fault fails the test with the box and the values.
template <RealDomain D, class RandomBox, class Apply, class Check>
void soundness_loop(std::span<const FloatFormat> formats, std::uint64_t seed, int boxes, RandomBox&& random_box,
                    Apply&& apply, Check&& check, long& executions) {
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<double> u(0, 1);
  for (const FloatFormat& F : formats)
    for (int b = 0; b < boxes; ++b) {
      double lo, hi, elo, ehi;
      random_box(g, F, lo, hi, elo, ehi);
      const double k = b % 2 ? 0.5 : 3;
      const AccuracyModel model = k == 0.5 ? AccuracyModel::correctly_rounded() : AccuracyModel::ulps(k);
      [[maybe_unused]] DomainScope<D> scope;  // an AffineContext per box for Affine
      SymbolicDomainError<D> x;
      try {
        x = SymbolicDomainError<D>::input(lo, hi, elo, ehi, F);
      } catch (const std::invalid_argument&) {
        continue;  // no value of F within the box's error: no execution
      }
      const auto z = apply(x, model);
      for (int i = 0; i < 12; ++i) {
        const double t0 = x.fp.lower() + (x.fp.upper() - x.fp.lower()) * u(g);
        double t = std::clamp(round_to(t0, F, RoundingMode::NearestEven).value, x.fp.lower(), x.fp.upper());
        if (t == 0 && x.specials.may_be_neg_zero && i % 2) t = -0.0;
        const double e = elo + (ehi - elo) * u(g);
        if (!contains(x.real, mpq_class(mpq_class(t) - mpq_class(e)))) continue;
        ++executions;
        const std::string fault = check(z, F, t, e, k, i % 3);
        if (!fault.empty())
          FAIL(F.name << " x = " << x << " t = " << t << " e = " << e << ": " << fault << "\nz = " << z);
      }
    }
}

// The tightness twin of one function: over n consecutive FP16 inputs from
// `start` (rounded up), the largest |round(f(t)) − f(t)| (correct rounding)
// against the symbolic err of the whole run as one box under a correctly
// rounded model: at least that maximum, and within 5% of it (the outputs
// should lie in one binade).
template <class Apply>
void check_rounding_twin(MpfrEval f, const char* name, double start, Apply&& apply, int n = 200) {
  double t = round_to(start, FP16, RoundingMode::Upward).value, worst = 0;
  const double first = t;
  for (int i = 0; i < n; ++i) {
    detail::MpfrNumber x(64, t), v(256), d(256);
    f(v.v, x.v, MPFR_RNDN);
    mpfr_d_sub(d.v, round_to(v.get(), FP16, RoundingMode::NearestEven).value, v.v, MPFR_RNDN);
    worst = std::max(worst, std::fabs(mpfr_get_d(d.v, MPFR_RNDU)));
    if (i < n - 1) t = round_to(std::nextafter(t, INFINITY), FP16, RoundingMode::Upward).value;
  }
  const auto z = apply(SymbolicDomainError<Interval>::input(first, t, FP16), AccuracyModel::correctly_rounded());
  INFO(name << " box [" << first << ", " << t << "] z = " << z << " enumerated max " << worst);
  CHECK(mag(z.err) >= worst);
  CHECK(mag(z.err) <= worst * 1.05);
}

// soundness_loop for one function object fn (fn(x, model), fn.name), its
// implementation(fn, t, F, k, pick) and check(fn, z, t, e, y) ("" or the fault).
template <RealDomain D, class Fn, class Impl, class Check, class RandomBox>
void function_soundness(const Fn& fn, Impl&& implementation, Check&& check, RandomBox&& random_box,
                        std::span<const FloatFormat> formats, std::uint64_t seed, int boxes, long& executions) {
  soundness_loop<D>(
      formats, seed, boxes, random_box, [&](const auto& x, const AccuracyModel& m) { return fn(x, m); },
      [&](const auto& z, const FloatFormat& F, double t, double e, double k, int pick) {
        const double y = implementation(fn, t, F, k, pick);
        const std::string fault = check(fn, z, t, e, y);
        return fault.empty() ? fault : std::string(fn.name) + " y = " + std::to_string(y) + ": " + fault;
      },
      executions);
}

}  // namespace symerr::test
