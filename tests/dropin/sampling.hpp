// Test support: concrete executions inside the box "every input in [-1, 1]
// with an input error of at most e": a real input r (a rational, not only a
// double) and the computed input f = r + d (a value of the format, |d| <= e).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <random>

#include <gmpxx.h>

#include <symerr/domains/symbolic_interval.hpp>
#include <symerr/lean.hpp>
#include "domain_scope.hpp"  // DomainScope<D>: an Affine context for domain-templated tests
#include "test_scale.hpp"

namespace symerr::test {

struct Sample {
  mpq_class real;
  double computed;
};

class InputSampler {
 public:
  InputSampler(std::uint64_t seed, const FloatFormat& F, double e) : rng_(seed), F_(F), e_(e) {}

  Sample next() {
    for (;;) {
      const int shape = pick(0, 7);
      double f;
      if (shape <= 1) f = round(unit() * 8 * (e_ > 0 ? e_ : 1e-3) - 4 * (e_ > 0 ? e_ : 1e-3));  // the band
      else if (shape == 2) f = pick(0, 1) ? 1.0 : -1.0;
      else if (shape == 3) f = 0.0;
      else f = round(unit() * 2 - 1);
      mpq_class d = 0;
      if (e_ > 0) {
        const int k = pick(0, 3);
        const mpq_class E = exact_value(e_);
        if (k == 0) d = E;
        else if (k == 1) d = -E;
        else d = E * mpq_class(pick(-(1 << 20), 1 << 20), 1 << 20);
      }
      const mpq_class r = exact_value(f) - d;
      if (r > 1 || r < -1) continue;
      return {r, f};
    }
  }
  // n executions' inputs at once: real[j], computed[j] from next(), in order.
  void fill(mpq_class* real, double* computed, std::size_t n) {
    for (std::size_t j = 0; j < n; ++j) {
      const Sample s = next();
      real[j] = s.real, computed[j] = s.computed;
    }
  }
  int pick(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  double unit() { return std::uniform_real_distribution<double>(0, 1)(rng_); }

 private:
  double round(double x) const { return F_.precision == 24 ? static_cast<double>(static_cast<float>(x)) : x; }
  std::mt19937_64 rng_;
  FloatFormat F_;
  double e_;
};

inline SymbolicError unit_box(const FloatFormat& F, double e) { return SymbolicError::input(-1, 1, -e, e, F); }

// The execution (real result, computed result) lies in s's enclosures, in any domain.
template <class D>
bool encloses(const SymbolicDomainError<D>& s, const mpq_class& real, double computed) {
  return contains(s.real, real) && contains(s.fp, exact_value(computed)) &&
         contains(s.err, mpq_class(exact_value(computed) - real));
}

// The same for a LeanError (its enclosures: fp, err, real = fp − err).
template <class F>
bool encloses(const LeanError<F>& s, const mpq_class& real, double computed) {
  const auto in = [](const LeanInterval& i, const mpq_class& q) { return exact_value(i.lo) <= q && q <= exact_value(i.hi); };
  return in(s.real(), real) && in(s.fp(), exact_value(computed)) && in(s.err(), exact_value(computed) - real);
}

inline double to_double(const mpq_class& q) { return q.get_d(); }

}  // namespace symerr::test
