// Force-included before the C kernels compiled on mpq_class (the exact
// oracle): the C math functions the kernels call, exact on rationals.
#pragma once

#include <stdexcept>

#include <gmpxx.h>

inline mpq_class fmax(const mpq_class& a, const mpq_class& b) { return a < b ? b : a; }
inline mpq_class fmin(const mpq_class& a, const mpq_class& b) { return b < a ? b : a; }
inline mpq_class fabs(const mpq_class& a) { return abs(a); }
// copysign: a rational has no signed zero (copysign(a, 0) = |a|)
inline mpq_class copysign(const mpq_class& a, const mpq_class& b) { return sgn(b) < 0 ? mpq_class(-abs(a)) : abs(a); }
inline mpq_class fdim(const mpq_class& a, const mpq_class& b) { return a > b ? mpq_class(a - b) : mpq_class(0); }
inline mpq_class fma(const mpq_class& a, const mpq_class& b, const mpq_class& c) { return a * b + c; }
// sqrt of a perfect square of rationals (the tests choose var + eps so);
// anything else has no exact rational value.
inline mpq_class sqrt(const mpq_class& q) {
  mpq_class c = q;
  c.canonicalize();
  if (sgn(c) < 0 || !mpz_perfect_square_p(c.get_num_mpz_t()) || !mpz_perfect_square_p(c.get_den_mpz_t()))
    throw std::domain_error("exact sqrt: not a perfect square of rationals");
  mpz_class n, d;
  mpz_sqrt(n.get_mpz_t(), c.get_num_mpz_t());
  mpz_sqrt(d.get_mpz_t(), c.get_den_mpz_t());
  return mpq_class(n, d);
}
// exp has no rational value (the softmax reference is symref::Enclosure,
// enclosure_prelude.hpp); declared so that the kernel file links unchanged.
inline mpq_class exp(const mpq_class&) {
  throw std::domain_error("exact rational reference: exp is not rational (use the MPFR enclosure reference)");
}
