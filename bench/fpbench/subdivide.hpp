// A small local bisection helper for the affine benches (not the library's
// kernel driver): evaluates a kernel of SymbolicDomainError<D> inputs on an
// input box, and bisects the box with the largest error bound along the
// dimension whose split lowers that bound the most, within a box budget and a
// time budget. The result is the maximum of the sub-boxes' bounds |err|, which
// encloses the whole box's error because the sub-boxes cover it.
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <queue>
#include <stdexcept>
#include <utility>
#include <vector>

#include <symerr/domains/affine.hpp>
#include <symerr/symbolic.hpp>

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

// mag(err) of the kernel on one box (+inf if the result may be non-finite).
template <class D>
double error_bound(const Kernel<D>& k, const std::vector<InputRange>& box, const FloatFormat& F,
                   const InputError& input_error) {
  std::optional<AffineContext> ctx;
  std::optional<AffineScope> scope;
  if constexpr (std::is_same_v<D, Affine>) {
    ctx.emplace();
    scope.emplace(*ctx);
  }
  std::vector<SymbolicDomainError<D>> in;
  for (const InputRange& r : box) {
    const auto [elo, ehi] = input_error(r.lo, r.hi);
    try {
      in.push_back(SymbolicDomainError<D>::input(r.lo, r.hi, elo, ehi, F));
    } catch (const std::invalid_argument&) {
      return 0.0;  // no value of F in the sub-box: no execution to bound
    }
  }
  const SymbolicDomainError<D> z = k(in);
  if (z.specials.may_be_nan || z.specials.may_be_pos_inf || z.specials.may_be_neg_inf || z.specials.may_be_undefined)
    return INFINITY;
  return mag(z.err);
}

struct Subdivided {
  double bound;
  long boxes;
  double seconds;
};

template <class D>
Subdivided subdivide(const Kernel<D>& k, const std::vector<InputRange>& box, const FloatFormat& F,
                     const InputError& input_error, long max_boxes, double max_seconds) {
  const auto start = std::chrono::steady_clock::now();
  const auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  using Entry = std::pair<double, std::vector<InputRange>>;
  const auto less = [](const Entry& a, const Entry& b) { return a.first < b.first; };
  std::priority_queue<Entry, std::vector<Entry>, decltype(less)> queue(less);
  queue.push({error_bound<D>(k, box, F, input_error), box});
  long boxes = 1;
  while (boxes < max_boxes && elapsed() < max_seconds) {
    Entry worst = queue.top();
    queue.pop();
    double best = INFINITY;
    Entry best_a, best_b;
    for (std::size_t d = 0; d < worst.second.size(); ++d) {
      const InputRange r = worst.second[d];
      const double mid = r.lo / 2 + r.hi / 2;
      if (!(r.lo < mid && mid < r.hi)) continue;
      Entry a = worst, b = worst;
      a.second[d].hi = mid;
      b.second[d].lo = mid;
      a.first = error_bound<D>(k, a.second, F, input_error);
      b.first = error_bound<D>(k, b.second, F, input_error);
      if (std::max(a.first, b.first) < best) {
        best = std::max(a.first, b.first);
        best_a = std::move(a);
        best_b = std::move(b);
      }
    }
    if (best == INFINITY && best_a.second.empty()) {  // the worst box is a point: its bound is final
      queue.push(std::move(worst));
      break;
    }
    queue.push(std::move(best_a));
    queue.push(std::move(best_b));
    ++boxes;
  }
  return {queue.top().first, boxes, elapsed()};
}

}  // namespace symerr::bench
