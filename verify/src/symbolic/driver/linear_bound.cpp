// The driver's linear bounds (see linear_bound.hpp).
#include "linear_bound.hpp"

#include <algorithm>
#include <cmath>
#include <map>

namespace symerr::verify::driver_impl {

std::optional<Lin> difference(const Lin& a, const Lin& b) {
  Lin d{a.c0 - b.c0, a.terms};
  for (const auto& [sym, c] : b.terms) {
    auto it = std::find_if(d.terms.begin(), d.terms.end(), [sym](const auto& t) { return t.first == sym; });
    if (it == d.terms.end()) {
      d.terms.emplace_back(sym, -c);
      continue;
    }
    if (mpq_class(it->second) - mpq_class(c) != mpq_class(it->second - c)) return std::nullopt;
    it->second -= c;
  }
  return d;
}

Lin lin_of(const Affine& a) {
  const AffineContext& ctx = AffineContext::current();
  Lin l{mpq_class(ctx.center(a)), {}};
  for (const AffineTerm& t : ctx.terms(a)) l.terms.emplace_back(t.symbol, t.coefficient);
  return l;
}

namespace {

// A Lin with dense coefficients over the problem's symbols.
struct Dense {
  double c0 = 0;  // for the search only
  mpq_class q0;   // exact
  std::vector<double> c;
};

// The simplex tableau of dual_multipliers' LP: one row per symbol; columns
// y_0..y_{m-1}, p_0..p_{n-1}, q_0..q_{n-1}, and the right-hand side last.
struct Tableau {
  std::size_t m = 0, n = 0, cols = 0;
  std::vector<std::vector<double>> T;
  std::vector<std::size_t> basis;
  std::vector<double> cost;
};

// The feasible basis y = 0, p − q = c (rows with a nonnegative right-hand side).
Tableau make_tableau(const std::vector<double>& c, const std::vector<Dense>& H, std::size_t m, std::size_t n) {
  Tableau t;
  t.m = m, t.n = n, t.cols = m + 2 * n;
  t.T.assign(n, std::vector<double>(t.cols + 1, 0.0));
  t.basis.resize(n);
  t.cost.assign(t.cols, 1.0);
  for (std::size_t j = 0; j < m; ++j) t.cost[j] = -H[j].c0;
  for (std::size_t i = 0; i < n; ++i) {
    const double sign = c[i] < 0 ? -1.0 : 1.0;
    for (std::size_t j = 0; j < m; ++j) t.T[i][j] = sign * H[j].c[i];
    t.T[i][m + i] = sign;
    t.T[i][m + n + i] = -sign;
    t.T[i][t.cols] = sign * c[i];
    t.basis[i] = c[i] < 0 ? m + n + i : m + i;
  }
  return t;
}

// thresholds: a reduced cost counts below −1e-20 (error coefficients are
// tiny: 1e-12 input errors) and below the rounding error of its own sum
// (n + 1 terms: at most (n + 1)·2^-53 of their magnitudes, taken 4 times);
// a pivot above 1e-13 (stability). Without the second test, two conditions
// that differ only in error terms (x1 ≥ x0 on the real and on the computed
// values) made each other's reduced cost −5e-17 by rounding alone, and
// Bland's rule cycled between them until the iteration cap, never trying
// the condition that bounds the pair (an argmax and gather with e = 1e-12
// got the bound 1 instead of e).
constexpr double kTinyCost = 1e-20, kTinyPivot = 1e-13;

// The entering column by Bland's rule (the first with a negative reduced
// cost), or t.cols when the basis is optimal.
std::size_t entering_column(const Tableau& t, const std::vector<bool>& blocked) {
  const double rounding = 4.0 * static_cast<double>(t.n + 1) * 0x1p-53;
  for (std::size_t k = 0; k < t.cols; ++k) {
    if (blocked[k]) continue;
    double reduced = t.cost[k], magnitude = std::fabs(t.cost[k]);
    for (std::size_t i = 0; i < t.n; ++i) {
      const double v = t.cost[t.basis[i]] * t.T[i][k];
      reduced -= v;
      magnitude += std::fabs(v);
    }
    if (reduced < -kTinyCost && reduced < -rounding * magnitude) return k;
  }
  return t.cols;
}

// The leaving row of the ratio test (ties: the smallest basic column), or t.n.
std::size_t leaving_row(const Tableau& t, std::size_t enter) {
  std::size_t leave = t.n;
  double best = INFINITY;
  for (std::size_t i = 0; i < t.n; ++i) {
    if (t.T[i][enter] <= kTinyPivot) continue;
    const double ratio = t.T[i][t.cols] / t.T[i][enter];
    if (ratio < best || (ratio == best && leave < t.n && t.basis[i] < t.basis[leave])) best = ratio, leave = i;
  }
  return leave;
}

void pivot(Tableau& t, std::size_t leave, std::size_t enter) {
  const double p = t.T[leave][enter];
  for (double& v : t.T[leave]) v /= p;
  for (std::size_t i = 0; i < t.n; ++i) {
    if (i == leave || t.T[i][enter] == 0) continue;
    const double f = t.T[i][enter];
    for (std::size_t k = 0; k <= t.cols; ++k) t.T[i][k] -= f * t.T[leave][k];
  }
  t.basis[leave] = enter;
}

// The multipliers y >= 0 minimising d·y + Σ_i |c_i − Σ_j y_j h_ji| (d_j =
// −h_j0: the dual of max c·ε subject to h_j0 + Σ_i h_ji ε_i <= 0, |ε_i| <= 1),
// by the simplex method on the LP
//   min d·y + Σ_i (p_i + q_i)  subject to  Σ_j h_ji y_j + p_i − q_i = c_i,  y, p, q >= 0,
// started from the feasible basis y = 0, p − q = c, with Bland's rule (no
// cycling) and an iteration cap. Plain double arithmetic: the result is only a
// candidate, certified_max evaluates its bound exactly. When the LP is
// unbounded below (the conditions hold for no ε: Farkas), `ray` receives the
// y-part w >= 0 of the unbounded direction, a candidate certificate of that.
std::vector<double> dual_multipliers(const std::vector<double>& c, const std::vector<Dense>& H, std::size_t m,
                                     std::size_t n, std::vector<double>& ray) {
  std::vector<double> y(m, 0.0);
  ray.clear();
  if (m == 0) return y;
  if (n == 0) {  // conditions on no symbol: constants; one that is positive is a contradiction
    for (std::size_t j = 0; j < m; ++j)
      if (H[j].c0 > 0) {
        ray.assign(m, 0.0);
        ray[j] = 1;
        break;
      }
    return y;
  }
  Tableau t = make_tableau(c, H, m, n);
  // A column whose only positive entries are below the pivot threshold is
  // not an unbounded direction (its ratio test is merely unsafe): it is
  // skipped until the next pivot. Taking it for a ray ended the search at
  // y = 0: two relus of computed FP64 values, u = x0 + x1 and v = x0 − x1
  // (conditions 2ε + 2^-53·ε' on both), had v's pair bounded by the plain
  // difference [−2, 0] instead of one rounding error.
  std::vector<bool> blocked(t.cols, false);
  for (int iteration = 0; iteration < 400; ++iteration) {
    const std::size_t enter = entering_column(t, blocked);
    if (enter == t.cols) break;  // optimal
    const std::size_t leave = leaving_row(t, enter);
    if (leave == n && std::any_of(t.T.begin(), t.T.end(), [enter](const auto& row) { return row[enter] > 0; })) {
      blocked[enter] = true;  // a tiny positive pivot only: not a ray
      continue;
    }
    if (leave == n) {  // unbounded: the conditions are contradictory; the direction's y-part
      ray.assign(m, 0.0);
      if (enter < m) ray[enter] = 1;
      for (std::size_t i = 0; i < n; ++i)
        if (t.basis[i] < m) ray[t.basis[i]] = std::max(0.0, -t.T[i][enter]);
      break;
    }
    pivot(t, leave, enter);
    std::fill(blocked.begin(), blocked.end(), false);
  }
  for (std::size_t i = 0; i < n; ++i)
    if (t.basis[i] < m) y[t.basis[i]] = std::max(0.0, t.T[i][t.cols]);
  return y;
}

// certified_max's problem over dense symbols: the objective s·f, the
// conditions (those with a non-finite coefficient left out: fewer
// conditions, a larger but sound maximum), and the symbols the conditions
// name (the multipliers act on those only; the others add Σ|f_i| whatever y is).
struct Problem {
  Dense obj;
  std::vector<Dense> H;
  std::size_t n = 0;
  std::vector<std::size_t> active;
  std::vector<double> c_active;
  std::vector<Dense> h_active;
};

// False when the objective has a non-finite coefficient (no bound).
bool load_problem(const Lin& f, const std::vector<const Lin*>& h, int s, Problem& p) {
  std::map<std::uint32_t, std::size_t> index;
  auto load = [&](const Lin& a, int sign, Dense& d) {
    d.q0 = sign * a.c0;
    d.c0 = d.q0.get_d();
    if (!std::isfinite(d.c0)) return false;
    for (const auto& [symbol, coefficient] : a.terms) {
      const std::size_t i = index.emplace(symbol, index.size()).first->second;
      if (d.c.size() <= i) d.c.resize(i + 1, 0.0);
      if (!std::isfinite(coefficient) || d.c[i] != 0) return false;
      d.c[i] = sign * coefficient;
    }
    return true;
  };
  if (!load(f, s, p.obj)) return false;
  for (const Lin* hj : h) {
    Dense d;
    if (load(*hj, 1, d)) p.H.push_back(std::move(d));
  }
  p.n = index.size();
  const std::size_t m = p.H.size();
  p.obj.c.resize(p.n, 0.0);
  for (Dense& d : p.H) d.c.resize(p.n, 0.0);
  for (std::size_t i = 0; i < p.n; ++i)
    if (std::any_of(p.H.begin(), p.H.end(), [i](const Dense& d) { return d.c[i] != 0; })) p.active.push_back(i);
  p.h_active.resize(m);
  for (std::size_t i : p.active) p.c_active.push_back(p.obj.c[i]);
  for (std::size_t j = 0; j < m; ++j) {
    p.h_active[j].c0 = p.H[j].c0;
    for (std::size_t i : p.active) p.h_active[j].c.push_back(p.H[j].c[i]);
  }
  return true;
}

// Infeasible conditions, certified exactly: min over the box of Σ_j w_j h_j
// = Σ_j w_j h_j0 − Σ_i |Σ_j w_j h_ji| > 0 contradicts every h_j <= 0, so no
// ε satisfies them (the pair has no execution).
bool contradictory(const Problem& p, const std::vector<double>& ray) {
  if (ray.empty()) return false;
  const std::size_t m = p.H.size();
  mpq_class low;
  for (std::size_t j = 0; j < m; ++j)
    if (ray[j] != 0) low += mpq_class(ray[j]) * p.H[j].q0;
  for (std::size_t i = 0; i < p.n; ++i) {
    mpq_class wi;
    for (std::size_t j = 0; j < m; ++j)
      if (ray[j] != 0 && p.H[j].c[i] != 0) wi += mpq_class(ray[j]) * mpq_class(p.H[j].c[i]);
    low -= abs(wi);
  }
  return low > 0;
}

// The weak-duality bound b + Σ_i |r_i| of multipliers y, exactly.
mpq_class dual_bound(const Problem& p, const std::vector<double>& y) {
  const std::size_t m = p.H.size();
  mpq_class bound = p.obj.q0;
  for (std::size_t j = 0; j < m; ++j)
    if (y[j] != 0) bound -= mpq_class(y[j]) * p.H[j].q0;
  for (std::size_t i = 0; i < p.n; ++i) {
    mpq_class ri(p.obj.c[i]);
    for (std::size_t j = 0; j < m; ++j)
      if (y[j] != 0 && p.H[j].c[i] != 0) ri -= mpq_class(y[j]) * mpq_class(p.H[j].c[i]);
    bound += abs(ri);
  }
  return bound;
}

// Symbols of very different scales (a rounding error of 1e-16 next to a
// real value of 1: a rounded FP64 product compared without input error)
// leave the reduced costs of the small ones below the simplex's rounding
// threshold, so it stops before the multipliers that cancel them: the bound
// of std::sort of x[i] · 1.5 in FP64 was the whole range 3, not 3e-16. A
// second candidate is searched with every symbol's row scaled to magnitude
// 1 (the same LP with the residuals weighted by 1 / scale: any y is still
// certified exactly by the true objective). nullopt: the scales are alike
// (no second search); else its multipliers, or an empty vector with
// `contradicted` set when its ray certifies the conditions contradictory.
std::optional<std::vector<double>> rescaled_multipliers(const Problem& p, bool& contradicted) {
  const std::size_t m = p.H.size(), na = p.active.size();
  double smallest = INFINITY, largest = 0;
  std::vector<double> scale(na, 0.0);
  for (std::size_t a = 0; a < na; ++a) {
    double s = std::fabs(p.c_active[a]);
    for (std::size_t j = 0; j < m; ++j) s = std::max(s, std::fabs(p.h_active[j].c[a]));
    scale[a] = s;
    smallest = std::min(smallest, s), largest = std::max(largest, s);
  }
  if (!(largest > 0 && smallest > 0 && smallest < largest * 1e-6)) return std::nullopt;
  std::vector<double> c_scaled = p.c_active;
  std::vector<Dense> h_scaled = p.h_active;
  for (std::size_t a = 0; a < na; ++a) {
    c_scaled[a] /= scale[a];
    for (Dense& d : h_scaled) d.c[a] /= scale[a];
  }
  std::vector<double> ray;
  std::vector<double> y = dual_multipliers(c_scaled, h_scaled, m, na, ray);
  contradicted = contradictory(p, ray);
  return y;
}

}  // namespace

double certified_max(const Lin& f, const std::vector<const Lin*>& h, int s, bool rescaled) {
  Problem p;
  if (!load_problem(f, h, s, p)) return INFINITY;
  std::vector<double> ray;
  const std::vector<double> y = dual_multipliers(p.c_active, p.h_active, p.H.size(), p.active.size(), ray);
  if (contradictory(p, ray)) return -INFINITY;
  mpq_class bound = dual_bound(p, y);
  if (rescaled) {
    bool contradicted = false;
    if (const std::optional<std::vector<double>> y2 = rescaled_multipliers(p, contradicted)) {
      if (contradicted) return -INFINITY;
      const mpq_class b2 = dual_bound(p, *y2);
      if (b2 < bound) bound = b2;
    }
  }
  double d = bound.get_d();
  if (mpq_class(d) < bound) d = std::nextafter(d, INFINITY);
  return d;
}

}  // namespace symerr::verify::driver_impl
