// The driver's linear bounds: linear functions of symbols ε ∈ [-1, 1] (path
// conditions, quantities bounded under them) and the certified maximum of
// one under conditions h_j <= 0 (weak duality, evaluated exactly).
#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include <gmpxx.h>

#include <symerr/domains/affine.hpp>

namespace symerr::verify::driver_impl {

// A linear function c0 + Σ c_i ε_i of symbols ε_i ∈ [-1, 1] (a path
// condition h <= 0, or a quantity bounded under such conditions): the forms of
// the Affine domain, or — in the interval domains — of the driver's inputs,
// whose real value and error are two symbols each (see input_lin). c0 is
// exact; a coefficient is a double.
struct Lin {
  mpq_class c0;
  std::vector<std::pair<std::uint32_t, double>> terms;  // symbol, coefficient (each symbol once)
};

// a − b, or nullopt when a symbol of both does not cancel exactly (never for
// the driver's input symbols: one input's coefficients are the same doubles).
std::optional<Lin> difference(const Lin& a, const Lin& b);

// An Affine form of the current context as a Lin.
Lin lin_of(const Affine& a);

// An upper bound of max s·f(ε) over ε ∈ [-1, 1]^N subject to h_j(ε) <= 0 for
// every j (s = ±1), by weak duality: for any y >= 0 and every feasible ε,
//   s·f(ε) <= s·f(ε) − Σ_j y_j h_j(ε) = b + Σ_i r_i ε_i <= b + Σ_i |r_i|,
//   b = s·f_0 − Σ_j y_j h_j0,  r_i = s·f_i − Σ_j y_j h_ji.
// Every y gives a sound bound, so y is only searched for (the simplex method
// in double), and the bound of the y found is evaluated exactly (GMP) and
// rounded up. y = 0 gives the form's plain range. Conditions that hold for
// no ε give −inf when certified (Farkas: a w >= 0 with Σ_j w_j h_j > 0 on the
// whole box); otherwise the bound stays finite. `rescaled`: also search with
// the symbols' rows scaled (twice the cost where the symbols' scales differ
// by more than 10^6).
double certified_max(const Lin& f, const std::vector<const Lin*>& h, int s, bool rescaled = true);

}  // namespace symerr::verify::driver_impl
