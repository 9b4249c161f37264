// The counterexample search of a kernel check: the compiled kernel against an
// exact execution, aimed by the symbolic analysis (witness_search.hpp).
#include <symerr/verify/symbolic/witness_search.hpp>

#include <algorithm>
#include <cfenv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <sstream>

#include <symerr/verify/symbolic/symbolic_check.hpp>

#include "check_support.hpp"

namespace symerr::verify {

namespace {

// One point execution: computed inputs f = r + e (exactly), real inputs r, errors e.
struct Point {
  std::vector<double> f, r, e;
};

// The compiled kernel under the default FP environment; the caller's restored.
double call_compiled(const CompiledKernel& k, std::span<const double> f) {
  struct Restore {
    std::fenv_t saved;
    Restore() { std::fegetenv(&saved); }
    ~Restore() { std::fesetenv(&saved); }
  } restore;
  std::fesetenv(FE_DFL_ENV);
  return k(f);
}

std::string hex_dec(double v) {
  char b[80];
  std::snprintf(b, sizeof b, "%a (%.9g)", v, v);
  return b;
}

// The error of input i at computed value f: the value of [elo, ehi] nearest
// `prefer` (0 by default) such that r = f − e lies in [lo, hi] and is a
// double (checked exactly); nullopt when there is none.
std::optional<std::pair<double, double>> real_and_error(const InputBox& x, double f, double prefer) {
  const double elo = std::max(x.elo, f - x.hi), ehi = std::min(x.ehi, f - x.lo);
  if (!(elo <= ehi)) return std::nullopt;
  const double e = std::min(std::max(prefer, elo), ehi);
  const double r = f - e;
  if (!(r >= x.lo && r <= x.hi) || exact_value(r) + exact_value(e) != exact_value(f)) return std::nullopt;
  return std::make_pair(r, e);
}

// The computed values a box allows for input i: [lo + elo, hi + ehi] on the format's grid.
std::pair<double, double> computed_range(const InputBox& x, const Format& format) {
  double lo = on_grid(x.lo + x.elo, format), hi = on_grid(x.hi + x.ehi, format);
  if (const FloatFormat* F = std::get_if<FloatFormat>(&format)) {
    if (lo < x.lo + x.elo) lo = next_up(lo, *F);
    if (hi > x.hi + x.ehi) hi = next_down(hi, *F);
  }
  return {lo, hi};
}

double step(double v, long k, const Format& format) {
  if (const FloatFormat* F = std::get_if<FloatFormat>(&format)) {
    for (long i = 0; i < std::abs(k) && std::isfinite(v); ++i) v = k > 0 ? next_up(v, *F) : next_down(v, *F);
    return v;
  }
  return std::holds_alternative<IntFormat>(format) ? v + static_cast<double>(k) : std::nextafter(v, k > 0 ? INFINITY : -INFINITY);
}

class Search {
 public:
  Search(const CompiledKernel& compiled, const ExactExecution& exact, std::span<const InputBox> whole,
         const Format& format, double bound, const PointBound& point_bound, const WitnessSearchOptions& o,
         std::size_t max_witnesses)
      : compiled_(compiled), exact_(exact), whole_(whole), format_(format), bound_q_(exact_value(bound)),
        point_bound_(point_bound), o_(o), max_witnesses_(max_witnesses) {}

  bool done() const { return out.executions >= o_.executions || out.witnesses.size() >= max_witnesses_; }

  // Runs the point given by computed values f (errors chosen near `prefer`).
  void run(const std::vector<double>& f, double prefer = 0) {
    if (done()) return;
    Point p;
    for (std::size_t i = 0; i < f.size(); ++i) {
      const auto re = real_and_error(whole_[i], f[i], prefer);
      if (!re) return;
      p.f.push_back(f[i]);
      p.r.push_back(re->first);
      p.e.push_back(re->second);
    }
    ++out.executions;
    double y = 0;
    std::pair<double, double> R;
    const auto d = distance(p, &y, &R);
    if (!d) {
      ++out.undefined;
      return;
    }
    const auto a = allowed(p, y, R);
    if (!a) {
      ++out.inapplicable;
      return;
    }
    const double observed = d->get_d();
    const double ratio = sgn(*a) > 0 ? mpq_class(*d / *a).get_d() : sgn(*d) > 0 ? INFINITY : 0.0;
    out.max_ratio = std::max(out.max_ratio, ratio);
    if (observed > out.max_observed || !out.worst) {
      out.max_observed = std::max(out.max_observed, observed);
      if (auto w = witness(p, *a)) out.worst = std::move(*w);
    }
    keep_best(p, point_bound_ ? ratio : observed);
    if (*d > *a) {
      ++out.failures;
      if (auto w = witness(p, *a); w && recheck(p)) out.witnesses.push_back(std::move(*w));
    }
  }

  std::vector<Point> best;  // largest observed first
  std::vector<double> best_err;
  WitnessSearchResult out;

 private:
  // |y − R| at its smallest over the enclosure R of the real output (0 when y
  // lies in R); nullopt without a finite output or a real enclosure.
  std::optional<mpq_class> distance(const Point& p, double* y_out = nullptr,
                                    std::pair<double, double>* r_out = nullptr) const {
    double y = 0;
    std::optional<std::pair<double, double>> R;
    try {
      y = call_compiled(compiled_, p.f);
      R = exact_(p.r, p.e);
    } catch (const std::exception&) {
      return std::nullopt;
    }
    if (!R || !std::isfinite(y) || !std::isfinite(R->first) || !std::isfinite(R->second)) return std::nullopt;
    if (y_out) *y_out = y;
    if (r_out) *r_out = *R;
    const mpq_class yq = exact_value(y);
    if (y < R->first) return mpq_class(exact_value(R->first) - yq);
    if (y > R->second) return mpq_class(yq - exact_value(R->second));
    return mpq_class(0);
  }

  // The violation again from scratch: the compiled output bit for bit, the
  // exact execution, the rational comparison.
  bool recheck(const Point& p) const {
    double y1 = 0, y2 = 0;
    std::pair<double, double> R;
    const auto d1 = distance(p, &y1), d2 = distance(p, &y2, &R);
    if (!d1 || !d2 || std::memcmp(&y1, &y2, sizeof y1) != 0) return false;
    const auto a = allowed(p, y2, R);
    return a && *d2 > *a;
  }

  // The bound at the point: the constant, or the statement evaluated there.
  std::optional<mpq_class> allowed(const Point& p, double y, const std::pair<double, double>& R) const {
    if (!point_bound_) return bound_q_;
    try {
      return point_bound_(p.r, p.e, R, y);
    } catch (const std::exception&) {
      return std::nullopt;
    }
  }

  void keep_best(const Point& p, double observed) {
    if (o_.best == 0) return;
    for (const Point& q : best)
      if (q.f == p.f) return;
    auto it = std::upper_bound(best_err.begin(), best_err.end(), observed, std::greater<double>());
    const auto k = it - best_err.begin();
    if (static_cast<std::size_t>(k) >= o_.best) return;
    best_err.insert(it, observed);
    best.insert(best.begin() + k, p);
    if (best.size() > o_.best) {
      best.pop_back();
      best_err.pop_back();
    }
  }

  std::optional<Witness> witness(const Point& p, const mpq_class& allowed) const {
    double y = 0;
    std::pair<double, double> R;
    const auto d = distance(p, &y, &R);
    if (!d) return std::nullopt;
    Witness w;
    bool any_error = false;
    for (double e : p.e) any_error = any_error || e != 0;
    std::ostringstream at;
    for (std::size_t i = 0; i < p.f.size(); ++i) {
      w.inputs.push_back(value_of(p.f[i], format_));
      if (any_error) w.input_errors.push_back(value_of(p.e[i], format_));
      at << (i ? ", x" : "x") << i << " = " << hex_dec(p.f[i]);
      if (p.e[i] != 0) at << " (real " << hex_dec(p.r[i]) << ")";
    }
    w.output = value_of(y, format_);
    const double mid = R.first + (R.second - R.first) / 2;
    w.reference = value_of(mid, format_);
    std::string range = "[";  // appended piecewise: GCC 12 reports a false -Wrestrict on the chained +
    range += exact_value(R.first).get_str();
    range += ", ";
    range += exact_value(R.second).get_str();
    range += "]";
    w.reference.exact = range;
    w.exact_result = w.reference.exact;
    w.abs_error = d->get_d();
    w.rel_error = mid != 0 ? w.abs_error / std::fabs(mid) : INFINITY;
    if (const FloatFormat* F = std::get_if<FloatFormat>(&format_)) w.ulp_error = w.abs_error / ulp(y, *F);
    w.bound = allowed.get_d();
    std::ostringstream m;
    m.precision(6);
    m << "element 0: the compiled kernel gives " << hex_dec(y) << " at " << at.str() << "; the exact execution's "
      << "real result lies in [" << hex_dec(R.first) << ", " << hex_dec(R.second) << "]: observed |err| >= "
      << w.abs_error << (*d > allowed ? " > allowed " : " <= allowed ") << allowed.get_d();
    w.message = m.str();
    return w;
  }

  const CompiledKernel& compiled_;
  const ExactExecution& exact_;
  std::span<const InputBox> whole_;
  Format format_;
  mpq_class bound_q_;
  const PointBound& point_bound_;
  const WitnessSearchOptions& o_;
  std::size_t max_witnesses_;
};

// The aiming grid: about `boxes` sub-boxes (k cuts of every input's real
// range, k^n <= boxes), with their sup|err|; the ones to search, worst first.
std::vector<std::vector<InputBox>> aim(const BoxErrorSup& box_sup, std::span<const InputBox> whole, double bound,
                                       const WitnessSearchOptions& o, WitnessSearchResult& out) {
  const std::size_t n = whole.size();
  std::size_t k = 1;
  auto power = [n](std::size_t b) {
    double p = 1;
    for (std::size_t i = 0; i < n; ++i) p *= static_cast<double>(b);
    return p;
  };
  while (n > 0 && power(k + 1) <= static_cast<double>(o.boxes)) ++k;
  const std::size_t total = static_cast<std::size_t>(power(k));
  std::vector<std::pair<double, std::vector<InputBox>>> ranked;
  for (std::size_t idx = 0; idx < total; ++idx) {
    std::vector<InputBox> sub(whole.begin(), whole.end());
    std::size_t rest = idx;
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t j = rest % k;
      rest /= k;
      const double lo = whole[i].lo, w = whole[i].hi - whole[i].lo;
      sub[i].lo = j == 0 ? lo : lo + w * static_cast<double>(j) / static_cast<double>(k);
      sub[i].hi = j + 1 == k ? whole[i].hi : lo + w * static_cast<double>(j + 1) / static_cast<double>(k);
    }
    double sup = INFINITY;
    try {
      sup = box_sup(sub);
    } catch (const std::invalid_argument&) {
      continue;  // no value of the format in this sub-box
    } catch (const std::exception&) {
    }
    ++out.boxes;
    if (sup > bound) ++out.boxes_above;
    ranked.emplace_back(sup, std::move(sub));
  }
  std::stable_sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  std::vector<std::vector<InputBox>> focus;
  for (std::size_t i = 0; i < ranked.size() && i < std::max<std::size_t>(o.focus, 1); ++i)
    focus.push_back(std::move(ranked[i].second));
  return focus;
}

// Corners, centre and the aligned-rounding points (powers of two inside the
// box and the format's values next to them) of one sub-box, until the search
// has run `cap` points (a kernel of many inputs has thousands of such points,
// each a change of one input of the centre: they would starve the draws).
void constructions(Search& s, const std::vector<InputBox>& box, const Format& format, std::uint64_t cap) {
  const std::size_t n = box.size();
  std::vector<std::vector<double>> values(n);
  std::vector<double> centre(n);
  for (std::size_t i = 0; i < n; ++i) {
    const auto [lo, hi] = computed_range(box[i], format);
    if (!(lo <= hi)) return;
    centre[i] = std::min(std::max(on_grid(lo + (hi - lo) / 2, format), lo), hi);
    values[i] = {lo, hi};
    // the powers of two at and below the largest magnitude (at most 8) and their neighbours
    int top = 0;
    std::frexp(std::max(std::fabs(lo), std::fabs(hi)), &top);
    for (int j = 0; j < 8; ++j)
      for (double sign : {1.0, -1.0}) {
        const double p = sign * std::ldexp(1.0, top - 1 - j);
        if (p >= lo && p <= hi)
          for (long d : {0L, -1L, 1L}) {
            const double v = step(p, d, format);
            if (v >= lo && v <= hi) values[i].push_back(v);
          }
      }
  }
  for (std::size_t c = 0; n <= 6 && c < (std::size_t{1} << n); ++c) {  // corners
    std::vector<double> f(n);
    for (std::size_t i = 0; i < n; ++i) f[i] = values[i][(c >> i) & 1];
    s.run(f);
  }
  s.run(centre);
  for (std::size_t i = 0; i < n && s.out.executions < cap; ++i)
    for (std::size_t j = 2; j < values[i].size() && s.out.executions < cap; ++j) {
      std::vector<double> f = centre;
      f[i] = values[i][j];
      s.run(f);
    }
}

}  // namespace

WitnessSearchResult search_witnesses(const CompiledKernel& compiled, const ExactExecution& exact,
                                     const BoxErrorSup& box_sup, std::span<const InputBox> inputs,
                                     const Format& format, double bound, const WitnessSearchOptions& options,
                                     std::size_t max_witnesses, std::uint64_t seed, const PointBound& point_bound) {
  Search s(compiled, exact, inputs, format, bound, point_bound, options, max_witnesses);
  const auto focus = aim(box_sup, inputs, bound, options, s.out);
  for (const auto& box : focus) constructions(s, box, format, options.executions / 4);
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> unit(0, 1);
  for (std::size_t d = 0; d < options.draws && !focus.empty() && !s.done(); ++d) {
    const auto& box = focus[d % focus.size()];
    std::vector<double> f(box.size());
    for (std::size_t i = 0; i < box.size(); ++i) {
      const auto [lo, hi] = computed_range(box[i], format);
      f[i] = std::min(std::max(on_grid(lo + (hi - lo) * unit(rng), format), lo), hi);
    }
    const double prefer = (rng() % 3 == 0) ? -INFINITY : (rng() % 2 == 0) ? INFINITY : 0.0;
    s.run(f, prefer);
  }
  const std::vector<Point> starts = s.best;  // local search around the best points
  for (const Point& p : starts)
    for (std::size_t i = 0; i < p.f.size() && !s.done(); ++i)
      for (std::size_t k = 1; k <= options.neighbours && !s.done(); ++k)
        for (long dir : {1L, -1L}) {
          std::vector<double> f = p.f;
          f[i] = step(p.f[i], dir * static_cast<long>(k), format);
          s.run(f);
        }
  return std::move(s.out);
}

}  // namespace symerr::verify
