// The affine benches' kernels (SymbolicDomainError<D> of a vector of inputs)
// run through the library's kernel driver (symerr::verify::run_kernel) on an
// input box, with or without its automatic subdivision.
#pragma once

#include <cmath>
#include <functional>
#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

#include <symerr/symbolic.hpp>
#include <symerr/verify/symbolic/driver.hpp>

namespace symerr::bench {

struct InputRange {
  double lo, hi;
};

// The input error of a (sub-)range: [elo, ehi].
using InputError = std::function<std::pair<double, double>(double lo, double hi)>;

inline InputError no_input_error() {
  return [](double, double) { return std::pair<double, double>{0.0, 0.0}; };
}
inline InputError absolute_input_error(double e) {
  return [e](double, double) { return std::pair<double, double>{-e, e}; };
}
// The rounding of a real input into F: half an ulp of the range's magnitude.
inline InputError half_ulp_input_error(const FloatFormat& F) {
  return [F](double lo, double hi) {
    const double m = std::max(std::fabs(lo), std::fabs(hi));
    double u = ulp(m, F);
    if (m > 0 && std::ldexp(1.0, std::ilogb(m)) == m) u = ulp(std::nextafter(m, 0.0), F);  // 2^k is exact
    return std::pair<double, double>{-u / 2, u / 2};
  };
}

template <class D>
using Kernel = std::function<SymbolicDomainError<D>(const std::vector<SymbolicDomainError<D>>&)>;

// For D = Affine: a fresh AffineContext, current for the object's lifetime.
template <class D>
class ContextFor {
 public:
  ContextFor() {
    if constexpr (std::is_same_v<D, Affine>) {
      ctx_.emplace();
      scope_.emplace(*ctx_);
    }
  }

 private:
  std::optional<AffineContext> ctx_;
  std::optional<AffineScope> scope_;
};

struct Bounded {
  double bound;  // sup |err| (+inf if the result may be non-finite)
  verify::DriverReport report;
};

// The kernel through run_kernel<D> on `box` (inputs of format F with the input
// error model `ie`); subdivision as `opt` says (default: none). For Affine a
// context is made current for the call.
template <class D>
Bounded driver_bound(const Kernel<D>& k, const std::vector<InputRange>& box, const FloatFormat& F,
                     const InputError& ie, verify::DriverOptions opt = {}) {
  using S = SymbolicDomainError<D>;
  const ContextFor<D> context;
  std::vector<S> in;
  for (const InputRange& r : box) {
    const auto [elo, ehi] = ie(r.lo, r.hi);
    in.push_back(S::input(r.lo, r.hi, elo, ehi, F));
  }
  opt.input_error = [ie](std::size_t, double lo, double hi) { return ie(lo, hi); };
  const auto res = verify::run_kernel<D>(
      [&k](std::span<S> x, std::span<S> y) { y[0] = k(std::vector<S>(x.begin(), x.end())); }, in, 1, opt);
  const S& z = res.outputs[0];
  const bool special = z.specials.may_be_nan || z.specials.may_be_pos_inf || z.specials.may_be_neg_inf ||
                       z.specials.may_be_undefined;
  return {special ? INFINITY : mag(z.err), res.report};
}

// Automatic subdivision within `seconds` (no box limit).
inline verify::DriverOptions subdivision_for(double seconds) {
  verify::DriverOptions o;
  o.max_boxes = 1u << 30;
  o.max_seconds = seconds;
  return o;
}

}  // namespace symerr::bench
