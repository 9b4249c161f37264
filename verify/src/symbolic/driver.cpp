// The kernel driver (see driver.hpp for the model and its soundness argument).
#include <symerr/verify/symbolic/driver.hpp>

#include <algorithm>
#include <bit>
#include <atomic>
#include <chrono>
#include <cmath>
#include <functional>
#include <limits>
#include <unordered_map>
#include <unordered_set>
#include <optional>
#include <queue>
#include <map>
#include <sstream>
#include <stdexcept>

#include <gmpxx.h>

#include <symerr/domains/affine.hpp>
#include <symerr/domains/mpfr_interval.hpp>
#include <symerr/domains/rational_interval.hpp>
#include <symerr/symbolic/quantity_recipe.hpp>

namespace symerr::verify {
namespace {

// One undecided comparison's outcome on a path.
struct Step {
  bool ideal;
  bool computed;
};

enum class Role : unsigned char { Joint, Real, Computed };

// A path of one lane: the outcomes of its undecided comparisons in order of
// occurrence. Real/Computed items belong to the unstable group `group`, whose
// ideal and computed outcomes first differ at step `diverge`.
struct Item {
  std::vector<Step> script;
  Role role = Role::Joint;
  std::size_t group = 0;
  std::size_t diverge = 0;
};

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

// An Affine form of the current context as a Lin.
Lin lin_of(const Affine& a) {
  const AffineContext& ctx = AffineContext::current();
  Lin l{mpq_class(ctx.center(a)), {}};
  for (const AffineTerm& t : ctx.terms(a)) l.terms.emplace_back(t.symbol, t.coefficient);
  return l;
}

// A comparison's outcome on a path, as recorded (cheap): h <= 0 on every
// execution of the path, h = a − b (or b − a when `flip`) of the compared
// operands' real values (or computed values when `computed`). Turned into a
// Lin only when a pair of paths needs it (Explorer::condition_lin).
struct Cond {
  Affine form{};                     // Affine domain: h itself, a form of the context
  std::int32_t input[2] = {-1, -1};  // interval domains: operand o is a copy of this input,
  double value[2] = {0, 0};          // or (input −1) the exact constant value[o]
  bool computed = false;
  bool flip = false;
  bool by_input = false;  // Affine domain: stated by input tags and constants (input, value), not by form
  bool operator==(const Cond& o) const {
    return same_handle(form, o.form) && input[0] == o.input[0] && input[1] == o.input[1] &&
           value[0] == o.value[0] && value[1] == o.value[1] && computed == o.computed && flip == o.flip &&
           by_input == o.by_input;
  }
};

// A computed quantity met in a comparison: its number (>= the number of
// inputs; see symerr::detail::quantity_numbering) and its real and err ranges
// at its first comparison on the run, which parametrise it as an input's do
// (input_lin). A result of an operation on tagged operands is numbered when
// it is made, in the order of the run's operations; an untagged compared
// object is numbered at the comparison. Runs that execute the same
// operations and outcomes up to a point number the quantities made before
// that point alike, and a quantity's range at its first comparison is the
// range it was made with (only a comparison tightens a value, and the first
// one records it before tightening): the real and the computed run of an
// unstable group share the quantities numbered before their divergence, and
// only those (Names::limit).
struct Named {
  std::uint32_t quantity;
  double real_lo, real_hi, err_lo, err_hi;
};
struct Names {
  const std::vector<Named>* table = nullptr;
  std::uint32_t limit = 0xFFFFFFFFu;  // quantities numbered from here on are not shared
};

template <class D>
struct GroupState {
  using S = SymbolicDomainError<D>;
  std::uint32_t shared = 0;  // the quantities numbered before the divergence: below this
  // per lane output: hull of the real-path / computed-path results
  std::vector<std::optional<S>> real_side;
  std::vector<std::optional<S>> computed_side;
  // Every run of each side with its path condition (see pair_err).
  struct Run {
    std::vector<S> outputs;       // per lane output
    std::vector<Cond> conditions;  // h with h(ε*) <= 0 on every execution of the path
    std::vector<Named> named;      // the computed values named on the path
    // how the quantities numbered from `shared` on were made, by number
    // (empty past kMaxRecipes: then none is matched; see same_quantity)
    std::vector<symerr::detail::QuantityRecipe> recipes;
  };
  std::vector<Run> real_runs, computed_runs;
};

template <class D>
struct LaneState {
  using S = SymbolicDomainError<D>;
  std::vector<Item> pending;
  std::optional<Item> current;
  std::size_t occurrence = 0;
  bool overflow = false;                 // a path had more than max_branches forks
  bool infeasible = false;               // the current path's condition holds for no execution
  std::vector<std::size_t> outputs;      // output indices of this lane
  std::vector<std::optional<S>> joint;   // per lane output: hull over joint paths
  bool branched = false;                 // the driver decided a comparison of this lane
  std::vector<Cond> conditions;          // the current run's path condition (see record)
  // Affine domain: the same outcomes stated by the operands' input tags
  // (Cond::by_input), for outcome_feasible only: a form may be replaced by
  // another one of the same quantity (a narrowed input's fp, met with a
  // narrower fresh range, takes that range's symbol), a tag never is.
  std::vector<Cond> tag_conditions;
  std::vector<Named> named;              // the current run's named computed values
  std::vector<GroupState<D>> groups;
};

template <class D>
SymbolicDomainError<D> join(const std::optional<SymbolicDomainError<D>>& acc, const SymbolicDomainError<D>& v) { return acc ? symerr::detail::join_values(*acc, v) : v; }

template <class D>
SymbolicDomainError<D> unbounded_like(const SymbolicDomainError<D>& v) {
  auto z = SymbolicDomainError<D>::undef(v.format);
  z.mode = v.mode;
  z.origin = v.origin;
  return z;
}

// An unstable pair: real from the real path, fp from the computed path.
template <class D>
SymbolicDomainError<D> combine_unstable(const SymbolicDomainError<D>& real_side,
                                        const SymbolicDomainError<D>& computed_side) {
  auto z = symerr::detail::join_values(real_side, computed_side);
  z.mixed = {};  // fp − real across two paths: neither side's pair holds
  z.real = real_side.real;
  z.fp = computed_side.fp;
  z.specials.may_be_defined = real_side.specials.may_be_defined;
  z.specials.may_be_undefined = real_side.specials.may_be_undefined;
  z.specials.may_be_finite = computed_side.specials.may_be_finite;
  z.specials.may_be_nan = computed_side.specials.may_be_nan;
  z.specials.may_be_pos_inf = computed_side.specials.may_be_pos_inf;
  z.specials.may_be_neg_inf = computed_side.specials.may_be_neg_inf;
  z.specials.may_be_pos_zero = computed_side.specials.may_be_pos_zero;
  z.specials.may_be_neg_zero = computed_side.specials.may_be_neg_zero;
  if (symerr::detail::maybe_special(real_side) || symerr::detail::maybe_special(computed_side)) {
    z.err = z.rel_err = z.propagated = z.introduced = D::whole();
    return z;
  }
  z.err = z.fp - z.real;
  // The real computation on the actual inputs may follow either path (or a
  // third one): no whole-kernel split is claimed for an unstable pair.
  z.propagated = z.introduced = D::whole();
  z.rel_err = D::whole();
  z.reduce();
  return z;
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
template <class Dense>
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
  const std::size_t cols = m + 2 * n;  // y_0..y_{m-1}, p_0..p_{n-1}, q_0..q_{n-1}
  std::vector<std::vector<double>> T(n, std::vector<double>(cols + 1, 0.0));  // last column: right-hand side
  std::vector<std::size_t> basis(n);
  std::vector<double> cost(cols, 1.0);
  for (std::size_t j = 0; j < m; ++j) cost[j] = -H[j].c0;
  for (std::size_t i = 0; i < n; ++i) {
    const double sign = c[i] < 0 ? -1.0 : 1.0;  // rows with a nonnegative right-hand side
    for (std::size_t j = 0; j < m; ++j) T[i][j] = sign * H[j].c[i];
    T[i][m + i] = sign;
    T[i][m + n + i] = -sign;
    T[i][cols] = sign * c[i];
    basis[i] = c[i] < 0 ? m + n + i : m + i;
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
  constexpr double tiny_cost = 1e-20, tiny_pivot = 1e-13;
  const double rounding = 4.0 * static_cast<double>(n + 1) * 0x1p-53;
  // A column whose only positive entries are below the pivot threshold is
  // not an unbounded direction (its ratio test is merely unsafe): it is
  // skipped until the next pivot. Taking it for a ray ended the search at
  // y = 0: two relus of computed FP64 values, u = x0 + x1 and v = x0 − x1
  // (conditions 2ε + 2^-53·ε' on both), had v's pair bounded by the plain
  // difference [−2, 0] instead of one rounding error.
  std::vector<bool> blocked(cols, false);
  for (int iteration = 0; iteration < 400; ++iteration) {
    std::size_t enter = cols;
    for (std::size_t k = 0; k < cols && enter == cols; ++k) {
      if (blocked[k]) continue;
      double reduced = cost[k], magnitude = std::fabs(cost[k]);
      for (std::size_t i = 0; i < n; ++i) {
        const double t = cost[basis[i]] * T[i][k];
        reduced -= t;
        magnitude += std::fabs(t);
      }
      if (reduced < -tiny_cost && reduced < -rounding * magnitude) enter = k;
    }
    if (enter == cols) break;  // optimal
    std::size_t leave = n;
    double best = INFINITY;
    for (std::size_t i = 0; i < n; ++i) {
      if (T[i][enter] <= tiny_pivot) continue;
      const double ratio = T[i][cols] / T[i][enter];
      if (ratio < best || (ratio == best && leave < n && basis[i] < basis[leave])) best = ratio, leave = i;
    }
    if (leave == n && std::any_of(T.begin(), T.end(), [enter](const auto& row) { return row[enter] > 0; })) {
      blocked[enter] = true;  // a tiny positive pivot only: not a ray
      continue;
    }
    if (leave == n) {  // unbounded: the conditions are contradictory; the direction's y-part
      ray.assign(m, 0.0);
      if (enter < m) ray[enter] = 1;
      for (std::size_t i = 0; i < n; ++i)
        if (basis[i] < m) ray[basis[i]] = std::max(0.0, -T[i][enter]);
      break;
    }
    const double pivot = T[leave][enter];
    for (double& v : T[leave]) v /= pivot;
    for (std::size_t i = 0; i < n; ++i) {
      if (i == leave || T[i][enter] == 0) continue;
      const double f = T[i][enter];
      for (std::size_t k = 0; k <= cols; ++k) T[i][k] -= f * T[leave][k];
    }
    basis[leave] = enter;
    std::fill(blocked.begin(), blocked.end(), false);
  }
  for (std::size_t i = 0; i < n; ++i)
    if (basis[i] < m) y[basis[i]] = std::max(0.0, T[i][cols]);
  return y;
}

// An upper bound of max s·f(ε) over ε ∈ [-1, 1]^N subject to h_j(ε) <= 0 for
// every j (s = ±1), by weak duality: for any y >= 0 and every feasible ε,
//   s·f(ε) <= s·f(ε) − Σ_j y_j h_j(ε) = b + Σ_i r_i ε_i <= b + Σ_i |r_i|,
//   b = s·f_0 − Σ_j y_j h_j0,  r_i = s·f_i − Σ_j y_j h_ji.
// Every y gives a sound bound, so y is only searched for (dual_multipliers:
// the simplex method in double), and the bound of the y found is evaluated
// exactly (GMP) and rounded up. y = 0 gives the form's plain range.
// Conditions that hold for no ε give −inf when certified (Farkas: a w >= 0
// with Σ_j w_j h_j > 0 on the whole box); otherwise the bound stays finite.
// `rescaled`: also search with the symbols' rows scaled (see below; twice the
// cost where the symbols' scales differ by more than 10^6).
double certified_max(const Lin& f, const std::vector<const Lin*>& h, int s, bool rescaled = true) {
  struct Dense {
    double c0 = 0;  // for the search only
    mpq_class q0;   // exact
    std::vector<double> c;
  };
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
  Dense obj;
  if (!load(f, s, obj)) return INFINITY;
  std::vector<Dense> H;
  for (const Lin* hj : h) {
    Dense d;
    if (load(*hj, 1, d)) H.push_back(std::move(d));
  }
  const std::size_t n = index.size(), m = H.size();
  obj.c.resize(n, 0.0);
  for (Dense& d : H) d.c.resize(n, 0.0);
  // the multipliers only act on symbols of some condition: the LP is solved
  // over those (the others add Σ|f_i| whatever y is)
  std::vector<std::size_t> active;
  for (std::size_t i = 0; i < n; ++i)
    if (std::any_of(H.begin(), H.end(), [i](const Dense& d) { return d.c[i] != 0; })) active.push_back(i);
  std::vector<double> c_active;
  std::vector<Dense> h_active(m);
  for (std::size_t i : active) c_active.push_back(obj.c[i]);
  for (std::size_t j = 0; j < m; ++j) {
    h_active[j].c0 = H[j].c0;
    for (std::size_t i : active) h_active[j].c.push_back(H[j].c[i]);
  }
  // Infeasible conditions, certified exactly: min over the box of Σ_j w_j h_j
  // = Σ_j w_j h_j0 − Σ_i |Σ_j w_j h_ji| > 0 contradicts every h_j <= 0, so no
  // ε satisfies them (the pair has no execution): −inf.
  auto contradictory = [&](const std::vector<double>& ray) {
    if (ray.empty()) return false;
    mpq_class low;
    for (std::size_t j = 0; j < m; ++j)
      if (ray[j] != 0) low += mpq_class(ray[j]) * H[j].q0;
    for (std::size_t i = 0; i < n; ++i) {
      mpq_class wi;
      for (std::size_t j = 0; j < m; ++j)
        if (ray[j] != 0 && H[j].c[i] != 0) wi += mpq_class(ray[j]) * mpq_class(H[j].c[i]);
      low -= abs(wi);
    }
    return low > 0;
  };
  auto evaluate = [&](const std::vector<double>& y) {
    mpq_class bound = obj.q0;
    for (std::size_t j = 0; j < m; ++j)
      if (y[j] != 0) bound -= mpq_class(y[j]) * H[j].q0;
    for (std::size_t i = 0; i < n; ++i) {
      mpq_class ri(obj.c[i]);
      for (std::size_t j = 0; j < m; ++j)
        if (y[j] != 0 && H[j].c[i] != 0) ri -= mpq_class(y[j]) * mpq_class(H[j].c[i]);
      bound += abs(ri);
    }
    return bound;
  };
  std::vector<double> ray;
  const std::vector<double> y = dual_multipliers(c_active, h_active, m, active.size(), ray);
  if (contradictory(ray)) return -INFINITY;
  mpq_class bound = evaluate(y);
  // Symbols of very different scales (a rounding error of 1e-16 next to a
  // real value of 1: a rounded FP64 product compared without input error)
  // leave the reduced costs of the small ones below the simplex's rounding
  // threshold, so it stops before the multipliers that cancel them: the bound
  // of std::sort of x[i] · 1.5 in FP64 was the whole range 3, not 3e-16. A
  // second candidate is searched with every symbol's row scaled to magnitude
  // 1 (the same LP with the residuals weighted by 1 / scale: any y is still
  // certified exactly by the true objective), and the lower bound is kept.
  double smallest = INFINITY, largest = 0;
  std::vector<double> scale(active.size(), 0.0);
  for (std::size_t a = 0; a < active.size(); ++a) {
    double s = std::fabs(c_active[a]);
    for (std::size_t j = 0; j < m; ++j) s = std::max(s, std::fabs(h_active[j].c[a]));
    scale[a] = s;
    smallest = std::min(smallest, s), largest = std::max(largest, s);
  }
  if (rescaled && largest > 0 && smallest > 0 && smallest < largest * 1e-6) {
    std::vector<double> c_scaled = c_active;
    std::vector<Dense> h_scaled = h_active;
    for (std::size_t a = 0; a < active.size(); ++a) {
      c_scaled[a] /= scale[a];
      for (Dense& d : h_scaled) d.c[a] /= scale[a];
    }
    const std::vector<double> y2 = dual_multipliers(c_scaled, h_scaled, m, active.size(), ray);
    if (contradictory(ray)) return -INFINITY;
    mpq_class b2 = evaluate(y2);
    if (b2 < bound) bound = b2;
  }
  double d = bound.get_d();
  if (mpq_class(d) < bound) d = std::nextafter(d, INFINITY);
  return d;
}

// The wall-time budget of a whole run_kernel call (DriverOptions::max_seconds;
// none when it is 0): every box exploration, each of its runs and the bounds
// of its unstable pairs check it, so that a kernel whose paths get long (a
// data-dependent loop) cannot hold the call past it. A kernel run is
// abandoned at its first undecided comparison after the deadline (OutOfTime,
// thrown through the kernel as UndecidedBranch is outside a driver): no
// answer to that comparison would be one the exploration could keep, and
// answering it anyway could run the kernel on (a loop `while (x < 2)`
// answered `true` runs until the kernel's own guard, or forever).
struct Deadline {
  std::optional<std::chrono::steady_clock::time_point> at;
  bool passed() const { return at && std::chrono::steady_clock::now() >= *at; }
};
struct OutOfTime {};

// The driver's initial value of every output element in a run: the exact 0
// (S{}, so that `out[i] += v` accumulates from 0, as always) with a source tag
// that nothing else carries — an operation's result has -1 or a run's tag
// (>= 2^16), an input copy its input's tag — and that every reader of tags
// takes for none (quantity_of: negative; derived_source, same_value: below
// 2^16). An output that still carries it after a run was never assigned by
// the kernel on that path (or assigned only a copy of such an element): its
// value would be the driver's 0, not the kernel's, and certified exact.
constexpr std::int32_t kUnwritten = std::numeric_limits<std::int32_t>::min();

// The driver's tags of its inputs (SymbolicDomainError::source): the
// exploration's generation (1 … 2^15 − 1, cycling) in the high half, the
// input's index (< 2^16; later inputs get none) in the low half, so that a
// value kept from another exploration is not taken for one of this one's.
std::int32_t next_generation() {
  static std::atomic<std::uint32_t> counter{0};
  return static_cast<std::int32_t>(counter.fetch_add(1, std::memory_order_relaxed) % 0x7FFFu + 1u);
}
constexpr std::size_t kTaggedInputs = std::size_t{1} << 16;
// The most recipes an unstable group's run keeps (those made after its
// divergence); a longer tail is not kept, and its outputs are matched by
// number only (the memory of a group's runs stays bounded).
constexpr std::size_t kMaxRecipes = std::size_t{1} << 14;

template <class D>
class Explorer final : public BranchHook, public detail::BufferAdopter {
  using S = SymbolicDomainError<D>;
  using Lane = LaneState<D>;
  using Group = GroupState<D>;

 public:
  Explorer(const DriverOptions& o, std::size_t n_out, bool use_lanes, DriverReport& rep, std::span<const S> inputs,
           const Deadline& deadline)
      : opt_(o), single_(!use_lanes), report_(rep), inputs_(inputs), deadline_(deadline) {
    for (const S& x : inputs) {
      input_err_lo_ = std::min(input_err_lo_, x.err.lower());
      input_err_hi_ = std::max(input_err_hi_, x.err.upper());
    }
    std::size_t n_lanes = 1;
    if (use_lanes)
      for (int l : o.output_lanes) n_lanes = std::max<std::size_t>(n_lanes, static_cast<std::size_t>(l) + 1);
    for (int l : use_lanes ? o.input_lanes : std::vector<int>{})
      if (l >= 0) n_lanes = std::max<std::size_t>(n_lanes, static_cast<std::size_t>(l) + 1);
    lanes_.resize(n_lanes);
    for (std::size_t j = 0; j < n_out; ++j) lanes_[use_lanes ? o.output_lanes[j] : 0].outputs.push_back(j);
    for (Lane& L : lanes_) {
      L.pending.push_back(Item{});
      L.joint.resize(L.outputs.size());
    }
    rep.lanes = n_lanes;
  }

  bool violated() const { return violated_; }

  // Whether the call's time budget has run out (then the report says so).
  bool out_of_time() const {
    if (!timed_out_ && deadline_.passed()) timed_out_ = report_.time_exhausted = true;
    return timed_out_;
  }

  // The run in progress was abandoned (OutOfTime): its lanes' paths go back
  // to the pending ones, so that those lanes count as unexplored (unbounded
  // outputs, like the lanes the runs budget leaves).
  void abandon_run() {
    for (Lane& L : lanes_)
      if (L.current) {
        L.pending.push_back(std::move(*L.current));
        L.current.reset();
      }
  }

  // The first output of the run that would be recorded (a lane on a
  // feasible path) and still holds the driver's initial value (kUnwritten).
  std::optional<std::size_t> unwritten_output(std::span<const S> out) const {
    std::optional<std::size_t> first;
    for (const Lane& L : lanes_) {
      if (!L.current || L.infeasible) continue;
      for (std::size_t j : L.outputs)
        if (out[j].source == kUnwritten && (!first || j < *first)) first = j;
    }
    return first;
  }

  // Starts a run: every lane takes its next path. False when none is left.
  bool start_run() {
    adopted_.clear();  // a KernelBuffer kept past its run is not this run's
    recipes_.clear();
    bool any = false;
    for (Lane& L : lanes_) {
      L.current.reset();
      L.occurrence = 0;
      L.infeasible = false;
      L.conditions.clear();
      L.tag_conditions.clear();
      L.named.clear();
      if (!L.pending.empty()) {
        L.current = std::move(L.pending.back());
        L.pending.pop_back();
        any = true;
      }
    }
    return any;
  }

  void set_buffers(std::span<S> in, std::span<S> out) {
    in_ = in;
    out_ = out;
  }

  // Records the run's outputs in the lanes' accumulators.
  void finish_run(std::span<const S> out) {
    for (Lane& L : lanes_) {
      if (!L.current) continue;
      if (L.infeasible) {  // no execution follows this path
        ++report_.infeasible_paths;
        L.current.reset();
        continue;
      }
      ++report_.paths;
      const Item& it = *L.current;
      if (it.role != Role::Joint && L.groups.size() <= it.group) L.groups.resize(it.group + 1);
      for (std::size_t k = 0; k < L.outputs.size(); ++k) {
        const S& v = out[L.outputs[k]];
        if (it.role == Role::Joint) {
          L.joint[k] = join(L.joint[k], v);
          continue;
        }
        Group& g = L.groups[it.group];
        auto& side = it.role == Role::Real ? g.real_side : g.computed_side;
        if (side.size() < L.outputs.size()) side.resize(L.outputs.size());
        side[k] = join(side[k], v);
      }
      if (it.role != Role::Joint) {
        Group& g = L.groups[it.group];
        typename Group::Run run{{}, L.conditions, L.named, {}};
        for (std::size_t j : L.outputs) run.outputs.push_back(out[j]);
        // the recipes of the quantities made after the divergence (numbers
        // are handed out in increasing order: the table is sorted)
        const auto from = std::lower_bound(recipes_.begin(), recipes_.end(), g.shared,
                                           [](const auto& r, std::uint32_t n) { return r.number < n; });
        if (recipes_.end() - from <= static_cast<std::ptrdiff_t>(kMaxRecipes)) run.recipes.assign(from, recipes_.end());
        (it.role == Role::Real ? g.real_runs : g.computed_runs).push_back(std::move(run));
      }
      L.current.reset();
    }
  }

  bool lanes_pending() const {
    return std::any_of(lanes_.begin(), lanes_.end(), [](const Lane& L) { return !L.pending.empty(); });
  }

  // The final enclosures; lanes left unexplored (budget) are unbounded.
  std::vector<S> results(std::span<const S> any_output) {
    std::vector<S> r(any_output.begin(), any_output.end());
    for (Lane& L : lanes_) {
      const bool incomplete = !L.pending.empty() || L.overflow;
      if (L.overflow) report_.branches_exhausted = report_.budget_exhausted = true;  // a path cut: unbounded
      for (std::size_t k = 0; k < L.outputs.size(); ++k) {
        const std::size_t j = L.outputs[k];
        std::optional<S> acc = L.joint[k];
        for (const Group& g : L.groups)
          if (std::optional<S> z = group_result(g, k)) acc = join(acc, *z);
        if (incomplete || !acc) acc = unbounded_like(r[j]);
        // The real computation on the actual inputs (pr = real + propagated)
        // may decide a comparison unlike both the ideal and the computed
        // program, so after a driver-decided branch no whole-kernel split is
        // claimed; err, real and fp stay as joined.
        if (L.branched) acc->propagated = acc->introduced = D::whole();
        acc->source = -1;  // the driver's tags stay inside its runs
        r[j] = *acc;
      }
    }
    return r;
  }

  // An unstable group's enclosure of lane output k: real from the real
  // paths, fp from the computed paths, err = fp − real, intersected with the
  // pairwise bound (pair_err). nullopt: a side without a feasible path (no
  // execution is unstable there).
  std::optional<S> group_result(const Group& g, std::size_t k) {
    auto has = [k](const std::vector<std::optional<S>>& side) { return side.size() > k && side[k].has_value(); };
    if (!has(g.real_side) || !has(g.computed_side)) return std::nullopt;
    S z = combine_unstable(*g.real_side[k], *g.computed_side[k]);
    if (symerr::detail::maybe_special(z)) return z;
    // Interval domains: a plain bound within the inputs' error ranges is kept
    // as it is (a copy-and-constant pair would at best narrow it inside them,
    // e.g. relu's [-e, 0]: the linear programs are not worth their cost there).
    if constexpr (!std::is_same_v<D, Affine>) {
      if (z.err.lower() >= input_err_lo_ && z.err.upper() <= input_err_hi_) {
        z.reduce();
        return z;
      }
    }
    // (out of time: the plain difference, which pair_err only narrows)
    if (const std::optional<std::pair<double, double>> p = out_of_time() ? std::nullopt : pair_err(g, k)) {
      if (p->first > p->second) return std::nullopt;  // certified: no execution is unstable here
      z.err = symerr::detail::meet(z.err, D::between(p->first, p->second));
    }
    z.reduce();
    return z;
  }

  // err of lane output k over the group's unstable executions, pair by pair.
  // An execution whose ideal control flow follows real run r and whose
  // computed control flow follows computed run c has err = fp_c − real_r, and
  // its symbol assignment ε* satisfies both runs' path conditions (the
  // comparisons taken, as linear functions of the compared operands: the real
  // operands on the real side, the computed ones on the computed side, both
  // before the divergence; see record). Each pair's err is bounded by the
  // maximum of fp_c − real_r over ε ∈ [-1, 1]^N under those conditions,
  // certified by weak duality (certified_max); the hull over pairs encloses
  // the err of every unstable execution of the group. This keeps the relation
  // between the compared values that the hull of each side loses (a running
  // maximum over locals, maxpool written with `if`). In the Affine domain the
  // quantities are the outputs' forms; in the interval domains an output
  // counts when it is a copy of an input (its real value and its error are
  // that input's symbols) or an exact constant. nullopt: no bound (a pair may
  // be special or unbounded, or an output is neither); lo > hi: no pair has an
  // execution (each pair's conditions certified contradictory).
  std::optional<std::pair<double, double>> pair_err(const Group& g, std::size_t k) const {
    if (g.real_runs.empty() || g.computed_runs.empty()) return std::nullopt;
    // Output k made alike on every pair of paths (the same operations on the
    // same quantities, recipe for recipe: y = x1 * x2 after a branch on x0)
    // is one function of the inputs: an execution's err is that quantity's
    // error, which each side's enclosure holds on the executions of its path
    // (the real runs refine only real ranges after the divergence, the
    // computed runs only computed ones). Without this, such an output takes
    // the difference of the two paths' enclosures (x1 * x2 on [-1, 1]: 2,
    // against its own 2e-6).
    const std::optional<std::pair<double, double>> same = same_quantity_err(g, k);
    if (same && !std::is_same_v<D, Affine>) return same;
    const std::optional<std::pair<double, double>> rel = relational_pair_err(g, k);
    if (!same) return rel;
    if (!rel || rel->first > rel->second) return rel ? rel : same;  // (lo > hi: no execution at all)
    return std::pair{std::max(rel->first, same->first), std::min(rel->second, same->second)};
  }

  // The hull of output k's err over the group's runs, if output k is the
  // same quantity on every (real run, computed run) pair; else nullopt.
  std::optional<std::pair<double, double>> same_quantity_err(const Group& g, std::size_t k) const {
    for (const auto& r : g.real_runs)
      for (const auto& c : g.computed_runs)
        if (!same_quantity(g, r, r.outputs[k].source, c, c.outputs[k].source)) return std::nullopt;
    double lo = INFINITY, hi = -INFINITY;
    for (const auto* runs : {&g.real_runs, &g.computed_runs})
      for (const auto& run : *runs) {
        const S& v = run.outputs[k];
        if (symerr::detail::maybe_special(v)) return std::nullopt;
        lo = std::min(lo, v.err.lower());
        hi = std::max(hi, v.err.upper());
      }
    return std::pair{lo, hi};
  }

  // Whether tag a on run r and tag b on run c stand for one quantity: the
  // same input or quantity made before the divergence, or quantities made
  // after it by the same recipe from operands that are (recursively) one
  // quantity or the same constants.
  bool same_quantity(const Group& g, const typename Group::Run& r, std::int32_t a, const typename Group::Run& c,
                     std::int32_t b) const {
    std::vector<std::pair<std::uint32_t, std::uint32_t>> todo;
    std::unordered_set<std::uint64_t> seen;  // the pairs met (a DAG: each compared once)
    auto push = [&](std::int32_t x, std::int32_t y) {
      const std::optional<std::size_t> p = quantity_of(x), q = quantity_of(y);
      if (!p || !q) return false;
      const bool shared_p = *p < inputs_.size() || *p < g.shared, shared_q = *q < inputs_.size() || *q < g.shared;
      if (shared_p || shared_q) return *p == *q;
      const std::pair<std::uint32_t, std::uint32_t> pq{static_cast<std::uint32_t>(*p), static_cast<std::uint32_t>(*q)};
      if (seen.insert(std::uint64_t{pq.first} << 32 | pq.second).second) todo.push_back(pq);
      return true;
    };
    auto recipe = [](const typename Group::Run& run, std::uint32_t n) -> const symerr::detail::QuantityRecipe* {
      const auto it = std::lower_bound(run.recipes.begin(), run.recipes.end(), n,
                                       [](const auto& x, std::uint32_t m) { return x.number < m; });
      return it != run.recipes.end() && it->number == n ? &*it : nullptr;
    };
    if (!push(a, b)) return false;
    while (!todo.empty()) {
      if (seen.size() > kMaxRecipes) return false;
      const auto [p, q] = todo.back();
      todo.pop_back();
      const symerr::detail::QuantityRecipe *x = recipe(r, p), *y = recipe(c, q);
      if (!x || !y || !symerr::detail::same_making(*x, *y)) return false;
      for (int i = 0; i < 2; ++i)
        if (x->operand[i] >= 0 && !push(x->operand[i], y->operand[i])) return false;
    }
    return true;
  }

  // The pairwise bound by path conditions (see pair_err).
  std::optional<std::pair<double, double>> relational_pair_err(const Group& g, std::size_t k) const {
    if constexpr (!std::is_same_v<D, Affine>) {
      // every output a copy of an input or a constant, checked before any
      // condition is converted (softmax's exp(x − m) leaves at once)
      auto related = [this, k, &g](const auto& runs, bool computed) {
        return std::all_of(runs.begin(), runs.end(), [&](const auto& run) {
          return shared_quantity(run.outputs[k], g).has_value() ||
                 value_lin(run.outputs[k], computed, Names{&run.named, g.shared}).has_value();
        });
      };
      if (!related(g.real_runs, false) || !related(g.computed_runs, true)) return std::nullopt;
    }
    if (!std::is_same_v<D, Affine> && g.real_runs.size() == 1 && g.computed_runs.size() == 1) {
      // one pair (both runs feasible) whose conditions name neither output's
      // input: it cannot narrow err below the plain difference (where(c, a, b):
      // the conditions are on c), no linear program then. (With more pairs,
      // such a pair may still be contradictory, which only the program shows.)
      for (const auto& r : g.real_runs)
        for (const auto& c : g.computed_runs) {
          const std::optional<std::size_t> p = quantity_of(r.outputs[k].source),
                                           q = quantity_of(c.outputs[k].source);
          auto names = [&](const Cond& cond) {
            for (std::int32_t i : cond.input)
              if (i >= 0 && ((p && *p == static_cast<std::size_t>(i)) || (q && *q == static_cast<std::size_t>(i))))
                return true;
            return false;
          };
          if (p && q && *p == *q) continue;
          if (std::none_of(r.conditions.begin(), r.conditions.end(), names) &&
              std::none_of(c.conditions.begin(), c.conditions.end(), names))
            return std::nullopt;
        }
    }
    // (a condition naming a computed value named after the divergence is
    // left out: in the other run that name may stand for another quantity;
    // leaving a condition out only widens the bound)
    auto lins = [this, &g](const std::vector<typename Group::Run>& runs) {
      std::vector<std::vector<Lin>> out(runs.size());
      for (std::size_t i = 0; i < runs.size(); ++i)
        for (const Cond& cond : runs[i].conditions)
          if (std::optional<Lin> l = condition_lin(cond, Names{&runs[i].named, g.shared}))
            out[i].push_back(std::move(*l));
      return out;
    };
    const std::vector<std::vector<Lin>> real_h = lins(g.real_runs), computed_h = lins(g.computed_runs);
    double lo = INFINITY, hi = -INFINITY;
    for (std::size_t ri = 0; ri < g.real_runs.size(); ++ri)
      for (std::size_t ci = 0; ci < g.computed_runs.size(); ++ci) {
        // a group's pairs are (real runs) x (computed runs) linear programs:
        // a maxpool of 4x4 FP32 inputs without lanes spent minutes here
        if (out_of_time()) return std::nullopt;
        const S& a = g.real_runs[ri].outputs[k];
        const S& b = g.computed_runs[ci].outputs[k];
        if (symerr::detail::maybe_special(a) || symerr::detail::maybe_special(b)) return std::nullopt;
        if (!is_bounded(a.real) || !is_bounded(b.fp) || !is_bounded(a.fp) || !is_bounded(b.real) ||
            !is_bounded(a.err) || !is_bounded(b.err))
          return std::nullopt;
        std::vector<const Lin*> h;
        for (const auto* side : {&real_h[ri], &computed_h[ci]})
          for (const Lin& x : *side)
            if (std::none_of(h.begin(), h.end(), [&x](const Lin* y) { return y->c0 == x.c0 && y->terms == x.terms; }))
              h.push_back(&x);
        double pair_lo = -INFINITY, pair_hi = INFINITY;
        auto bound = [&](const Lin& err) {
          pair_hi = std::min(pair_hi, certified_max(err, h, 1));
          pair_lo = std::max(pair_lo, -certified_max(err, h, -1));
        };
        if constexpr (std::is_same_v<D, Affine>) {
          // three forms of the same quantity fp_c − real_r: directly; the
          // computed run's error plus the ideal program's jump between the two
          // control flows (err_c + real_c − real_r: tight where the result is
          // continuous across the switch); the real run's error plus the
          // machine program's jump (err_r + fp_c − fp_r). Each bound is sound:
          // their intersection is kept.
          for (const Affine& err : {b.fp - a.real, b.err + (b.real - a.real), a.err + (b.fp - a.fp)}) {
            pair_hi = std::min(pair_hi, err.upper());
            pair_lo = std::max(pair_lo, err.lower());
            bound(lin_of(err));
          }
        } else {
          const std::optional<std::size_t> p = shared_quantity(a, g), q = shared_quantity(b, g);
          if (p && q && *p == *q) {  // one quantity on both sides: err = its error
            if (*p < inputs_.size()) {
              pair_lo = inputs_[*p].err.lower(), pair_hi = inputs_[*p].err.upper();
            } else {  // (each side's copy encloses it on executions of its path; both, their hull)
              pair_lo = std::min(a.err.lower(), b.err.lower()), pair_hi = std::max(a.err.upper(), b.err.upper());
            }
          } else {
            const std::optional<Lin> real_a = value_lin(a, false, Names{&g.real_runs[ri].named, g.shared}),
                                     fp_b = value_lin(b, true, Names{&g.computed_runs[ci].named, g.shared});
            if (!real_a || !fp_b) return std::nullopt;
            const std::optional<Lin> err = difference(*fp_b, *real_a);
            if (!err) return std::nullopt;
            bound(*err);
          }
          ++report_.relational_pairs;
        }
        hi = std::max(hi, pair_hi);
        lo = std::min(lo, pair_lo);
      }
    return std::pair{lo, hi};  // lo > hi: every pair's conditions are contradictory (no execution)
  }

  // The quantity x is a copy of, if it is one of both runs of group g: an
  // input, or a computed value numbered before the divergence (Named).
  std::optional<std::size_t> shared_quantity(const S& x, const Group& g) const {
    const std::optional<std::size_t> q = quantity_of(x.source);
    if (!q || (*q >= inputs_.size() && *q >= g.shared)) return std::nullopt;
    return q;
  }

  // A recorded condition as a Lin (nullopt: an operand has none).
  std::optional<Lin> condition_lin(const Cond& cond, const Names& names) const {
    std::optional<Lin> d;
    if (std::is_same_v<D, Affine> && !cond.by_input) {
      d = lin_of(cond.form);
    } else {
      std::optional<Lin> v[2];
      for (int o = 0; o < 2; ++o) {
        if (cond.input[o] < 0) v[o] = Lin{mpq_class(cond.value[o]), {}};
        else v[o] = quantity_lin(static_cast<std::size_t>(cond.input[o]), cond.computed, names);
      }
      if (!v[0] || !v[1]) return std::nullopt;
      d = difference(*v[0], *v[1]);
    }
    if (d && cond.flip) {
      d->c0 = -d->c0;
      for (auto& t : d->terms) t.second = -t.second;
    }
    return d;
  }

  // Interval domains: the input a value is a copy of (its tag, of this
  // exploration), or nullopt.
  std::optional<std::size_t> input_of(const S& x) const { return input_of(x.source); }
  // … of a tag (a comparison's copy of an operand's: ComparisonInfo::source)
  std::optional<std::size_t> input_of(std::int32_t source) const {
    const std::optional<std::size_t> i = quantity_of(source);
    if (!i || *i >= inputs_.size()) return std::nullopt;
    return i;
  }
  // … or the named computed value (an index >= inputs_.size(): see Named)
  std::optional<std::size_t> quantity_of(std::int32_t source) const {
    if (source < 0 || (source >> 16) != generation_) return std::nullopt;
    return static_cast<std::size_t>(source & 0xFFFF);
  }

  // Quantity q (an input, or a computed value named in
  // `names` and numbered below names.limit) as a Lin, like input_lin.
  std::optional<Lin> quantity_lin(std::size_t q, bool computed, const Names& names) const {
    if (q < inputs_.size()) return input_lin(q, computed);
    if (!names.table || q >= names.limit) return std::nullopt;
    for (const Named& n : *names.table)
      if (n.quantity == q) return range_lin(n.real_lo, n.real_hi, n.err_lo, n.err_hi, q, computed);
    return std::nullopt;
  }

  // Interval domains: the real (computed = false) or computed value of x as a
  // linear function of the inputs' symbols — input i's real value is
  // m_r + h_r·ε_{2i} over its box's real range [m_r − h_r, m_r + h_r] (m_r
  // exact, h_r rounded up: every real value of the range has its ε), its
  // error m_e + h_e·ε_{2i+1} likewise, its computed value the sum — or an
  // exact constant (real = computed, one point). nullopt otherwise.
  std::optional<Lin> input_lin(std::size_t i, bool computed) const {
    const S& in = inputs_[i];
    if (symerr::detail::maybe_special(in) || !is_bounded(in.real) || !is_bounded(in.err)) return std::nullopt;
    return range_lin(in.real.lower(), in.real.upper(), in.err.lower(), in.err.upper(), i, computed);
  }
  // Quantity q with real value in [rlo, rhi] and error in [elo, ehi] (finite).
  static Lin range_lin(double rlo, double rhi, double elo, double ehi, std::size_t q, bool computed) {
    Lin l;
    auto add = [&l](double range_lo, double range_hi, std::uint32_t symbol) {
      const mpq_class lo(range_lo), hi(range_hi);
      const mpq_class half = (hi - lo) / 2;
      l.c0 += (lo + hi) / 2;
      double h = half.get_d();
      if (mpq_class(h) < half) h = std::nextafter(h, INFINITY);
      if (h != 0) l.terms.emplace_back(symbol, h);
    };
    // (in the Affine domain numbered apart from the context's symbols: the
    // two kinds of conditions meet in outcome_feasible's programs)
    const std::uint32_t first = std::is_same_v<D, Affine> ? 0xC0000000u : 0u;
    add(rlo, rhi, first + static_cast<std::uint32_t>(2 * q));
    if (computed) add(elo, ehi, first + static_cast<std::uint32_t>(2 * q + 1));
    return l;
  }
  std::optional<Lin> value_lin(const S& x, bool computed, const Names& names) const {
    const D& v = computed ? x.fp : x.real;
    if (symerr::detail::maybe_special(x)) return std::nullopt;
    if (const std::optional<std::size_t> q = quantity_of(x.source)) return quantity_lin(*q, computed, names);
    if (x.real.lower() == x.real.upper() && x.fp.lower() == x.fp.upper() && x.real.lower() == x.fp.lower() &&
        std::isfinite(v.lower()))
      return Lin{mpq_class(v.lower()), {}};
    return std::nullopt;
  }

  bool decide(const Truth& t) override {
    if (out_of_time()) throw OutOfTime{};  // abandons the run (see Deadline)
    const ComparisonInfo* info = t.info();
    int lane = 0;
    if (!single_) {
      lane = info ? info->lane : -1;
      if (lane < 0 || static_cast<std::size_t>(lane) >= lanes_.size()) {
        violated_ = true;
        return false;
      }
    }
    Lane& L = lanes_[static_cast<std::size_t>(lane)];
    if (!L.current) return t.computed() != Tri::False;  // an idle lane: its outputs are not recorded
    Item& it = *L.current;
    L.branched = true;
    const std::size_t k = L.occurrence++;
    if (k >= opt_.max_branches) {
      L.overflow = true;
      return false;
    }
    S* targets[2] = {nullptr, nullptr};
    if (info) targets[0] = target_of(*info, 0), targets[1] = target_of(*info, 1);  // once, for all uses
    name_operands(L, info, targets);
    if (k >= it.script.size()) extend(L, it, t, targets);
    const Step step = it.script[k];
    const bool both = it.role == Role::Joint || k <= it.diverge;
    record(L, info, targets, step, both || it.role == Role::Real, both || it.role == Role::Computed);
    if (!refine(info, targets, step, both || it.role == Role::Real, both || it.role == Role::Computed))
      L.infeasible = true;
    report_.max_path_branches = std::max(report_.max_path_branches, k + 1);
    return it.role == Role::Computed ? step.computed : step.ideal;
  }

 private:
  static void outcomes(Tri t, bool (&out)[2], int& n) {
    n = 0;
    if (t != Tri::False) out[n++] = true;
    if (t != Tri::True) out[n++] = false;
  }

  // Whether the ideal and computed outcomes of `a R b` can differ (ideal
  // outcome `ideal`): the computed difference is the real one plus
  // E = err_a − err_b, so the two sides of the switch are at most |E| apart;
  // with E = {0} (e.g. exact operands) they never differ.
  static bool unstable_feasible(const ComparisonInfo* info, bool ideal) {
    if (!info || info->relation == Relation::Other) return true;
    const double elo = info->err[0][0] - info->err[1][1];  // rounding: only the sign and zero matter,
    const double ehi = info->err[0][1] - info->err[1][0];  // and a - b of doubles has the exact sign
    bool up = false;  // the computed difference lies above the real one's side
    switch (info->relation) {
      case Relation::Lt:
      case Relation::Le: up = ideal; break;   // real d < 0 (<= 0), computed d >= 0 (> 0): E > 0 somewhere
      case Relation::Gt:
      case Relation::Ge: up = !ideal; break;  // real d > 0, computed d <= 0: E < 0 somewhere
      case Relation::Eq:
      case Relation::Ne: return !(elo == 0 && ehi == 0);
      default: return true;
    }
    // the difference must cross the switch strictly in E's direction
    return up ? ehi > 0 : elo < 0;
  }

  // A new unstable group diverging at step k of `base`: its real and computed
  // paths become pending; with `runs_now`, base itself continues as the real
  // path.
  void open_group(Lane& L, Item& base, std::size_t k, bool runs_now) {
    ++report_.unstable_branches;
    base.group = L.groups.size();
    L.groups.emplace_back();
    L.groups.back().shared = symerr::detail::quantity_numbering().next;
    base.diverge = k;
    for (Role role : {Role::Computed, Role::Real}) {
      if (runs_now && role == Role::Real) continue;
      Item c = base;
      c.role = role;
      L.pending.push_back(std::move(c));
    }
    base.role = Role::Real;
  }

  // A comparison met for the first time on this path: the path follows the
  // first possible outcome; the others become pending paths.
  void extend(Lane& L, Item& it, const Truth& t, S* const (&targets)[2]) {
    ++report_.undecided_branches;
    bool iv[2], cv[2];
    int ni = 0, nc = 0;
    outcomes(t.ideal(), iv, ni);
    outcomes(t.computed(), cv, nc);
    if (it.role == Role::Joint) {
      std::vector<Step> options;
      for (int a = 0; a < ni; ++a)
        for (int b = 0; b < nc; ++b)
          if (iv[a] == cv[b]) options.push_back({iv[a], cv[b]});
      for (int a = 0; a < ni; ++a)
        for (int b = 0; b < nc; ++b)
          if (iv[a] != cv[b] && unstable_feasible(t.info(), iv[a])) options.push_back({iv[a], cv[b]});
      std::erase_if(options, [&](Step o) { return !outcome_feasible(L, t.info(), targets, o, true, true); });
      const std::size_t k = it.script.size();
      if (options.empty()) {  // no outcome is feasible: no execution reaches this comparison
        L.infeasible = true;
        it.script.push_back({iv[0], iv[0]});
        return;
      }
      for (std::size_t o = 1; o < options.size(); ++o) {
        Item alt;
        alt.script = it.script;
        alt.script.push_back(options[o]);
        if (options[o].ideal == options[o].computed) {
          L.pending.push_back(std::move(alt));
          continue;
        }
        open_group(L, alt, k, false);
      }
      it.script.push_back(options[0]);
      if (options[0].ideal != options[0].computed) open_group(L, it, k, true);  // this run: the real path
      return;
    }
    // After the divergence only one side's outcome matters.
    const bool real = it.role == Role::Real;
    bool v[2];
    int n = 0;
    for (int a = 0; a < (real ? ni : nc); ++a) {
      const bool o = real ? iv[a] : cv[a];
      if (outcome_feasible(L, t.info(), targets, {o, o}, real, !real)) v[n++] = o;
    }
    if (n == 0) {  // no outcome is feasible: no execution reaches this comparison
      L.infeasible = true;
      it.script.push_back({real ? iv[0] : cv[0], real ? iv[0] : cv[0]});
      return;
    }
    if (n == 2) {
      Item alt = it;
      alt.script.push_back({v[1], v[1]});
      L.pending.push_back(std::move(alt));
    }
    it.script.push_back({v[0], v[0]});
  }

  // The element of the driver's own buffers at address p, or null (std::less
  // orders unrelated pointers; inside a buffer p is an element's address);
  // then the adopted buffers (KernelBuffer), compared as addresses.
  S* owned(const void* p) const {
    const S* q = static_cast<const S*>(p);
    const std::less<const S*> before;
    for (std::span<S> buf : {in_, out_})
      if (!buf.empty() && !before(q, buf.data()) && before(q, buf.data() + buf.size()))
        return &buf[static_cast<std::size_t>(q - buf.data())];
    const auto a = reinterpret_cast<std::uintptr_t>(p);
    for (const detail::AdoptedBuffer& b : adopted_)
      if (a >= b.begin && a < b.begin + b.count * b.stride && (a - b.begin) % b.stride == 0)
        return static_cast<S*>(b.at(b.begin, (a - b.begin) / b.stride));
    return nullptr;
  }

  void adopt(const detail::AdoptedBuffer& b) override {
    if (b.domain == detail::domain_tag<D>() && b.count > 0) adopted_.push_back(b);
  }
  void release(std::uintptr_t begin) noexcept override {
    for (std::size_t i = adopted_.size(); i-- > 0;)
      if (adopted_[i].begin == begin) {
        adopted_.erase(adopted_.begin() + static_cast<std::ptrdiff_t>(i));
        return;
      }
  }

  // Whether x still holds the compared value of operand `side`.
  static bool unchanged(const S& x, const ComparisonInfo& info, int side) {
    return x.real.lower() == info.real[side][0] && x.real.upper() == info.real[side][1] &&
           x.fp.lower() == info.fp[side][0] && x.fp.upper() == info.fp[side][1];
  }

  // The modifiable object behind operand `side`, or null: an element of the
  // driver's buffers, or an operand that was a non-const lvalue (exposed by
  // the comparison as a target), provided the comparison is the thread's
  // latest and the operand still holds the compared value (a Truth kept past
  // its operands' full-expression would point at storage reused since).
  // Never a const object: nothing is cast away.
  S* target_of(const ComparisonInfo& info, int side) const {
    const void* p = side == 0 ? info.lhs : info.rhs;
    if (!p) return nullptr;
    if (S* o = owned(p)) return o;
    void* t = side == 0 ? info.lhs_target : info.rhs_target;
    if (!t || info.serial != symerr::detail::comparison_serial()) return nullptr;
    S* x = static_cast<S*>(t);
    return unchanged(*x, info, side) ? x : nullptr;
  }

  // The path condition on the compared operands that can be tightened.
  // Returns false when the outcome is infeasible (no execution takes it).
  bool refine(const ComparisonInfo* info, S* const (&targets)[2], Step step, bool ideal_side, bool computed_side) {
    bool infeasible = false;
    if (!info || !info->refine) return true;
    for (int s = 0; s < 2; ++s) {
      S* x = targets[s];
      if (!x || (s == 1 && x == targets[0])) continue;
      // With lanes, an operand of no lane (a broadcast input, a constant) is
      // shared by every lane's path in this run: never tightened.
      if (!single_ && x->origin != info->lane) continue;
      if (!info->refine(x, *info, s == 0, step.ideal, step.computed, ideal_side, computed_side)) infeasible = true;
      ++report_.refined_operands;
    }
    return !infeasible;
  }

  // The sign of a − b on the executions where `a R b` has the given outcome:
  // 1 (>= 0), -1 (<= 0), 2 (= 0), 0 (unknown).
  static int outcome_sign(Relation r, bool outcome) {
    switch (outcome ? r : negated(r)) {
      case Relation::Lt:
      case Relation::Le: return -1;
      case Relation::Gt:
      case Relation::Ge: return 1;
      case Relation::Eq: return 2;
      default: return 0;
    }
  }

  // Appends the comparison's outcome to the lane's path condition, as linear
  // functions h <= 0 of the difference a − b of the compared operands (the
  // real ones for the ideal outcome, the computed ones for the computed
  // outcome): their forms in the Affine domain, their inputs' symbols in the
  // interval domains (value_lin). Operands are the checked addresses found
  // once per comparison and also used for tightening (read before it;
  // tightening keeps the forms and the tags anyway); an operand without one
  // (a const object: std::max's `a < b`) counts by the input tag the
  // comparison copied (interval domains), or when it is a constant (a point
  // range). Operands that may be
  // special are skipped (a comparison with NaN is false whatever the forms).
  void record(Lane& L, const ComparisonInfo* info, S* const (&ops)[2], Step step, bool ideal_side,
              bool computed_side) {
    for (int side = 0; side < 2; ++side) {  // 0: real / ideal outcome, 1: fp / computed outcome
      if (side == 0 ? !ideal_side : !computed_side) continue;
      for (const SideCondition& c : side_conditions(info, ops, side, side == 0 ? step.ideal : step.computed)) {
        std::vector<Cond>& list = c.cond.by_input ? L.tag_conditions : L.conditions;
        if (std::find(list.begin(), list.end(), c.cond) == list.end()) list.push_back(c.cond);
      }
    }
  }

  // The conditions h <= 0 that outcome `outcome` of the comparison puts on
  // one side (0: the ideal outcome, on the real values; 1: the computed one,
  // on the fp values); `strict` where the outcome also excludes h = 0
  // (a < b true, a <= b false). Empty where the outcome says nothing linear.
  struct SideCondition {
    Cond cond;
    bool strict = false;
  };
  std::vector<SideCondition> side_conditions(const ComparisonInfo* info, S* const (&ops)[2], int side,
                                             bool outcome) const {
    std::vector<SideCondition> out;
    if (!info || info->relation == Relation::Other) return out;
    for (const S* x : ops)
      if (x && symerr::detail::maybe_special(*x)) return out;
    const int sign = outcome_sign(info->relation, outcome);
    if (sign == 0) return out;
    const Relation taken = outcome ? info->relation : negated(info->relation);
    const bool strict = taken == Relation::Lt || taken == Relation::Gt;
    auto push = [&out, sign, strict](Cond cond) {
      if (sign != 1) out.push_back({cond, strict});  // a − b <= 0 (< 0)
      if (sign != -1) {                                // a − b >= 0 (> 0)
        cond.flip = true;
        out.push_back({cond, strict});
      }
    };
    Cond cond;
    cond.computed = side == 1;
    if constexpr (std::is_same_v<D, Affine>) {
      std::optional<Affine> v[2];
      for (int o = 0; o < 2; ++o) {
        const double* r = side == 0 ? info->real[o] : info->fp[o];
        if (ops[o]) v[o] = side == 0 ? ops[o]->real : ops[o]->fp;
        else if (info->has_forms) v[o] = std::bit_cast<Affine>(info->forms[o][side]);  // a temporary's form
        else if (r[0] == r[1] && std::isfinite(r[0])) v[o] = Affine::point(r[0]);
      }
      if (v[0] && v[1]) {
        Cond f = cond;
        f.form = *v[0] - *v[1];
        push(f);
      }
      cond.by_input = true;  // and by the operands' input tags, where both have one (or are constants)
    }
    for (int o = 0; o < 2; ++o) {
      const double* r = side == 0 ? info->real[o] : info->fp[o];
      if (const std::optional<std::size_t> i = quantity_of(ops[o] ? ops[o]->source : info->source[o]))
        cond.input[o] = static_cast<std::int32_t>(*i);
      else if (r[0] == r[1] && std::isfinite(r[0]))
        cond.value[o] = r[0];
      else
        return out;
    }
    if (cond.input[0] >= 0 || cond.input[1] >= 0 || !std::is_same_v<D, Affine>) push(cond);
    return out;
  }

  // Records the compared quantities met for the first time on the run (see
  // Named), and numbers the compared modifiable objects that hold an untagged
  // computed value, so that this and later comparisons of the value — and,
  // in the interval domains, outputs that are copies of it — are related by
  // the path conditions and the unstable-pair bound as copies of inputs are:
  // std::sort of computed values (`v[i] = x[i] * s`) ran contradictory paths
  // (see outcome_feasible), in the Affine domain too on sub-boxes, where a
  // tightened value's form can be replaced (its tag conditions then still
  // relate it), and a running maximum of computed values had err = the whole
  // range in the interval domains.
  void name_operands(Lane& L, const ComparisonInfo* info, S* const (&targets)[2]) {
    if (!info) return;
    for (int o = 0; o < 2; ++o) {
      S* x = targets[o];
      std::optional<std::size_t> q = quantity_of(x ? x->source : info->source[o]);
      if (q && *q < inputs_.size()) continue;  // an input
      if (q && std::any_of(L.named.begin(), L.named.end(), [&q](const Named& n) { return n.quantity == *q; }))
        continue;  // recorded
      double rl = info->real[o][0], rh = info->real[o][1], el = info->err[o][0], eh = info->err[o][1];
      if (x) {
        if (symerr::detail::maybe_special(*x) || !is_bounded(x->real) || !is_bounded(x->err)) continue;
        rl = x->real.lower(), rh = x->real.upper(), el = x->err.lower(), eh = x->err.upper();
      } else if (!std::isfinite(rl) || !std::isfinite(rh) || !std::isfinite(el) || !std::isfinite(eh)) {
        continue;
      }
      if (!q) {  // an untagged object: numbered now
        if (!x) continue;
        symerr::detail::QuantityNumbering& n = symerr::detail::quantity_numbering();
        if (n.generation != generation_ || n.next >= 0xFFFFu) continue;
        q = n.next++;
        x->source = static_cast<std::int32_t>((static_cast<std::uint32_t>(generation_) << 16) |
                                              static_cast<std::uint32_t>(*q));
        symerr::detail::QuantityRecipe unknown;  // (of unknown making: matched by its number only)
        unknown.number = static_cast<std::uint32_t>(*q);
        recipes_.push_back(unknown);
      }
      L.named.push_back({static_cast<std::uint32_t>(*q), rl, rh, el, eh});
    }
  }

  // Whether the outcome `step` of a comparison met for the first time on the
  // current path can still hold, given the path's condition so far: false
  // when the conditions it adds contradict the recorded ones (certified
  // exactly: certified_max, the strict outcomes included: a < b after a >= b
  // on the same operands). A path that contradicts itself has no execution,
  // and running the kernel along it could make it misbehave: std::sort's
  // unguarded insertion trusts that `val < *first` stays false once it was,
  // and walked off the front of its buffer when the driver answered the two
  // comparisons independently (heap corruption). Only conditions sharing a
  // symbol, transitively, with the new ones take part.
  bool outcome_feasible(const Lane& L, const ComparisonInfo* info, S* const (&ops)[2], Step step, bool ideal_side,
                        bool computed_side) const {
    if (L.conditions.empty() && L.tag_conditions.empty()) return true;
    struct Fresh {
      Lin h;
      bool strict, computed;
    };
    std::vector<Fresh> fresh;  // the new conditions
    for (int side = 0; side < 2; ++side) {
      if (side == 0 ? !ideal_side : !computed_side) continue;
      for (const SideCondition& c : side_conditions(info, ops, side, side == 0 ? step.ideal : step.computed))
        if (std::optional<Lin> l = condition_lin(c.cond, Names{&L.named}))
          fresh.push_back({std::move(*l), c.strict, c.cond.computed});
    }
    if (fresh.empty()) return true;
    std::vector<std::pair<Lin, bool>> pool;  // with the side (computed) it states
    for (const std::vector<Cond>* list : {&L.conditions, &L.tag_conditions})
      for (const Cond& c : *list)
        if (std::optional<Lin> l = condition_lin(c, Names{&L.named}))
          if (std::none_of(pool.begin(), pool.end(), [&l](const auto& y) {
                return y.first.c0 == l->c0 && y.first.terms == l->terms;
              }))
            pool.emplace_back(std::move(*l), c.computed);
    for (std::size_t k = 0; k < fresh.size(); ++k) {
      // h_k <= 0 (< 0) has no execution iff max(−h_k) under the others is < 0 (<= 0)
      Lin neg = fresh[k].h;
      neg.c0 = -neg.c0;
      for (auto& t : neg.terms) t.second = -t.second;
      // First with the conditions on the same side only, then with all: a
      // subset of the conditions bounds the maximum from above as well, and
      // the simplex search in double can miss a contradiction among the real
      // conditions when computed ones take part (their error terms, 1e-16
      // for a rounded FP64 product, are below its rounding threshold: the
      // insertion sort of x[i] · 1.5 in FP64 ran 19 contradictory paths).
      for (bool same_side : {true, false}) {
        std::vector<const Lin*> others;
        for (std::size_t j = 0; j < fresh.size(); ++j)
          if (j != k && (!same_side || fresh[j].computed == fresh[k].computed)) others.push_back(&fresh[j].h);
        for (const auto& [y, computed] : pool)
          if (!same_side || computed == fresh[k].computed) others.push_back(&y);
        const std::vector<const Lin*> h = connected(fresh[k].h, others);
        if (h.empty()) continue;
        const double m = certified_max(neg, h, 1, false);
        if (fresh[k].strict ? m <= 0 : m < 0) return false;
      }
    }
    return true;
  }

  // The conditions of `pool` linked to `seed` by shared symbols, transitively.
  static std::vector<const Lin*> connected(const Lin& seed, const std::vector<const Lin*>& pool) {
    std::vector<std::uint32_t> symbols;
    for (const auto& t : seed.terms) symbols.push_back(t.first);
    std::vector<const Lin*> out;
    std::vector<bool> taken(pool.size(), false);
    for (bool grew = true; grew;) {
      grew = false;
      for (std::size_t j = 0; j < pool.size(); ++j) {
        if (taken[j]) continue;
        const bool linked = std::any_of(pool[j]->terms.begin(), pool[j]->terms.end(), [&symbols](const auto& t) {
          return std::find(symbols.begin(), symbols.end(), t.first) != symbols.end();
        });
        if (!linked) continue;
        taken[j] = grew = true;
        out.push_back(pool[j]);
        for (const auto& t : pool[j]->terms)
          if (std::find(symbols.begin(), symbols.end(), t.first) == symbols.end()) symbols.push_back(t.first);
      }
    }
    return out;
  }

  const DriverOptions& opt_;
  bool single_;
  DriverReport& report_;
  std::vector<Lane> lanes_;
  bool violated_ = false;
  std::span<S> in_, out_;
  std::vector<detail::AdoptedBuffer> adopted_;  // KernelBuffers alive in the current run
  std::vector<symerr::detail::QuantityRecipe> recipes_;  // the current run's, by number
  std::span<const S> inputs_;                        // the box's inputs, as given (for value_lin)
  double input_err_lo_ = 0, input_err_hi_ = 0;       // the hull of their error ranges (and 0)
  const std::int32_t generation_ = next_generation();  // of this exploration's tags
  const Deadline deadline_;
  mutable bool timed_out_ = false;

 public:
  std::int32_t generation() const { return generation_; }
  // The current run's recipes (QuantityNumbering::recipes), by number.
  std::vector<symerr::detail::QuantityRecipe>* recipe_table() { return &recipes_; }
  // The tag of input i in this exploration's runs (also in the Affine
  // domain, whose conditions are also stated by tags: see tag_conditions).
  std::int32_t tag(std::size_t i) const {
    if (i >= kTaggedInputs) return -1;
    return static_cast<std::int32_t>((static_cast<std::uint32_t>(generation_) << 16) | static_cast<std::uint32_t>(i));
  }
};

// One exploration of the paths of the kernel on `inputs` (one box), within
// `max_runs` runs and the deadline.
template <class D>
BasicDriverResult<D> explore(const BasicKernelFn<D>& kernel, std::span<const SymbolicDomainError<D>> inputs,
                             std::size_t n_outputs, const DriverOptions& options, bool use_lanes,
                             std::size_t max_runs, const Deadline& deadline) {
  using S = SymbolicDomainError<D>;
  BasicDriverResult<D> res;
  DriverReport& rep = res.report;
  Explorer<D> ex(options, n_outputs, use_lanes, rep, inputs, deadline);
  std::vector<S> in(inputs.begin(), inputs.end());
  std::vector<S> out(n_outputs), shape;
  S unwritten;
  unwritten.source = kUnwritten;
  BranchHookScope scope(&ex);
  // the numbering of the caller's run, if any, is restored on the way out
  struct RestoreNumbering {
    symerr::detail::QuantityNumbering saved = symerr::detail::quantity_numbering();
    ~RestoreNumbering() { symerr::detail::quantity_numbering() = saved; }
  } restore_numbering;
  while (true) {
    if ((rep.runs == max_runs || ex.out_of_time()) && ex.lanes_pending()) {
      rep.budget_exhausted = true;
      rep.runs_exhausted = rep.runs == max_runs;
      break;
    }
    if (!ex.start_run()) break;
    ++rep.runs;
    std::copy(inputs.begin(), inputs.end(), in.begin());
    for (std::size_t i = 0; i < in.size(); ++i) {
      in[i].origin = use_lanes ? options.input_lanes[i] : 0;
      in[i].source = ex.tag(i);
    }
    std::fill(out.begin(), out.end(), unwritten);
    ex.set_buffers(in, out);
    // the run's results are numbered after the inputs (Named)
    symerr::detail::quantity_numbering() = {ex.generation(), static_cast<std::uint32_t>(std::min(in.size(), kTaggedInputs)),
                                            ex.recipe_table()};
    try {
      kernel(in, out);
    } catch (const OutOfTime&) {
      ex.abandon_run();
      rep.budget_exhausted = true;
      break;
    }
    // an output that depends on another lane's inputs by data (its value's
    // lane): the statement is false (a dependence by control flow alone, a
    // branch on another lane's input, cannot be seen: the caller's statement)
    if (use_lanes)
      for (std::size_t j = 0; j < out.size(); ++j)
        if (out[j].origin != -1 && out[j].origin != options.output_lanes[j]) {
          rep.lanes_violated = true;
          return res;
        }
    if (ex.violated()) {
      rep.lanes_violated = true;
      return res;
    }
    // (a loop bound one short, a branch that forgets its output: without this
    // the driver's initial 0 came back certified exact)
    if (const std::optional<std::size_t> j = ex.unwritten_output(out))
      throw std::invalid_argument("run_kernel: output " + std::to_string(*j) + " of " +
                                  std::to_string(out.size()) + " was never written by the kernel (on the path of run " +
                                  std::to_string(rep.runs) + "); the kernel must assign every output element");
    ex.finish_run(out);
    if (shape.empty()) shape = out;
  }
  if (ex.lanes_pending()) rep.budget_exhausted = true;
  res.outputs = ex.results(shape.empty() ? std::span<const S>(out) : std::span<const S>(shape));
  return res;
}

// One box: with the caller's lanes, and again with one lane if they did not hold.
template <class D>
BasicDriverResult<D> explore_box(const BasicKernelFn<D>& kernel, std::span<const SymbolicDomainError<D>> inputs,
                                 std::size_t n_outputs, const DriverOptions& options, std::size_t max_runs,
                                 const Deadline& deadline) {
  const bool use_lanes = !options.input_lanes.empty();
  BasicDriverResult<D> r = explore(kernel, inputs, n_outputs, options, use_lanes, max_runs, deadline);
  if (use_lanes && r.report.lanes_violated) {
    const DriverReport first = r.report;
    r = explore(kernel, inputs, n_outputs, options, false, max_runs > first.runs ? max_runs - first.runs : 1, deadline);
    r.report.lanes_violated = true;
    r.report.runs += first.runs;
    r.report.time_exhausted = r.report.time_exhausted || first.time_exhausted;
    r.report.branches_exhausted = r.report.branches_exhausted || first.branches_exhausted;
  }
  return r;
}

void accumulate(DriverReport& t, const DriverReport& r) {
  t.runs += r.runs, t.paths += r.paths, t.infeasible_paths += r.infeasible_paths;
  t.undecided_branches += r.undecided_branches, t.unstable_branches += r.unstable_branches;
  t.refined_operands += r.refined_operands, t.lanes = r.lanes;
  t.relational_pairs += r.relational_pairs;
  t.max_path_branches = std::max(t.max_path_branches, r.max_path_branches);
  t.lanes_violated = t.lanes_violated || r.lanes_violated;
  t.time_exhausted = t.time_exhausted || r.time_exhausted;
  t.runs_exhausted = t.runs_exhausted || r.runs_exhausted;
  t.branches_exhausted = t.branches_exhausted || r.branches_exhausted;
}

// ---- automatic subdivision ---------------------------------------------------

// Affine values are handles into a context: a box explored in its own context
// keeps its outputs as intervals (SymbolicDomainError<Interval>); the other
// domains keep their own values.
template <class D>
constexpr bool context_bound = std::is_same_v<D, Affine>;
template <class D>
using Stored = std::conditional_t<context_bound<D>, SymbolicDomainError<Interval>, SymbolicDomainError<D>>;

template <class To, class From>
SymbolicDomainError<To> convert_fields(const SymbolicDomainError<From>& x) {
  auto field = [](const From& f) {
    if (!is_bounded(f)) return To::whole();
    return To::between(f.lower(), f.upper());
  };
  SymbolicDomainError<To> z;
  z.real = field(x.real), z.fp = field(x.fp), z.err = field(x.err), z.rel_err = field(x.rel_err);
  z.propagated = field(x.propagated), z.introduced = field(x.introduced);
  z.format = x.format, z.mode = x.mode, z.int_division = x.int_division, z.specials = x.specials;
  z.mixed = x.mixed;
  z.origin = x.origin;
  return z;
}

struct Range {
  double lo, hi;
};

// The score of a box: the largest sup|err| over its outputs (+inf when one may
// be special).
template <class V>
double score_of(const std::vector<V>& outputs) {
  double s = 0;
  for (const V& v : outputs) s = std::max(s, symerr::detail::maybe_special(v) ? INFINITY : mag(v.err));
  return s;
}

// The box's score is set by an output whose err is at least half the
// product of its rel_err and real ranges: a bound of the relative kind
// (relative.hpp: rel_err · real itself, or the quotient identity
// e_x / fp_y − real_z · r_y / (1 + r_y), a little below it), which moves
// with the box's largest |real| only, so it stays under most splits until
// the absolute one, which shrinks with the box, falls below it — a split
// there is no stall (softmax: the relative bound of a corner box stays
// while its absolute bound converges). The same for the mixed bound
// rel · |real| + abs (mixed_error.hpp) of an output whose real range holds 0
// (a normalisation x / √(Σx²/n + ε)).
template <class V>
bool relative_limited(const std::vector<V>& outputs, double score) {
  for (const V& v : outputs) {
    if (symerr::detail::maybe_special(v) || !(mag(v.err) >= score) || !is_bounded(v.real)) continue;
    if (is_bounded(v.rel_err) && mag(v.err) >= 0.5 * (mag(v.rel_err) * mag(v.real))) return true;
    // (a pair of the relative kind only: rel·max|real| at least abs — every
    // value has the pair (0, max|err|) from its own err, which would make
    // every box count and the stall rule never stop a subdivision)
    if (v.mixed.known() && v.mixed.rel > 0 && v.mixed.rel * mag(v.real) >= v.mixed.abs &&
        mag(v.err) >= 0.5 * symerr::detail::mixed_error_bound<typename V::domain_type>(v.mixed, mag(v.real)))
      return true;
  }
  return false;
}

// child ∩ parent, field by field (real, fp, err, rel_err, propagated,
// introduced; the special-state flags by "and"): sound for a child box inside
// the parent box, since every execution of the child is one of the parent's
// and both results enclose it. So a split never widens a bound (a half whose
// own exploration is looser, e.g. a relation the smaller box no longer
// decides, keeps the parent's). A field whose two enclosures are disjoint
// means that no execution lies in the child (e.g. Affine inputs that are one
// quantity, on a box where their ranges differ) if the child's executions are
// all finite and defined: false, and the caller drops the child. Flags that
// would admit no execution keep the child's.
template <class V>
bool narrow_to_parent(std::vector<V>& child, const std::vector<V>& parent) {
  bool some = true;
  for (std::size_t j = 0; j < child.size() && j < parent.size(); ++j) {
    V& c = child[j];
    const V& p = parent[j];
    // the fields describe the finite, defined executions: disjoint ones rule
    // out the child only where it has no other kind (else it is kept as is)
    const bool plain = !symerr::detail::maybe_special(c);
    auto meet = [&some, plain](auto& a, const auto& b) {
      if (auto m = intersect(a, b)) a = *m;
      else if (plain) some = false;
    };
    meet(c.real, p.real), meet(c.fp, p.fp), meet(c.err, p.err), meet(c.rel_err, p.rel_err);
    meet(c.propagated, p.propagated), meet(c.introduced, p.introduced);
    SpecialStates s = c.specials;
    const SpecialStates& q = p.specials;
    s.may_be_finite = s.may_be_finite && q.may_be_finite;
    s.may_be_pos_inf = s.may_be_pos_inf && q.may_be_pos_inf;
    s.may_be_neg_inf = s.may_be_neg_inf && q.may_be_neg_inf;
    s.may_be_nan = s.may_be_nan && q.may_be_nan;
    s.may_be_pos_zero = s.may_be_pos_zero && q.may_be_pos_zero;
    s.may_be_neg_zero = s.may_be_neg_zero && q.may_be_neg_zero;
    s.may_be_defined = s.may_be_defined && q.may_be_defined;
    s.may_be_undefined = s.may_be_undefined && q.may_be_undefined;
    s.may_overflow = s.may_overflow && q.may_overflow;
    const bool some_value = s.may_be_finite || s.may_be_pos_inf || s.may_be_neg_inf || s.may_be_nan;
    if (some_value && (s.may_be_defined || s.may_be_undefined)) c.specials = s;
  }
  return some;
}

template <class D>
struct Leaf {
  std::vector<Range> box;
  std::vector<Stored<D>> outputs;
  double score = 0;
  bool budget_exhausted = false;
  unsigned stalls = 0;  // consecutive splits (up to this box) that did not lower the score
};

template <class D>
class Subdivider {
  using S = SymbolicDomainError<D>;

 public:
  Subdivider(const BasicKernelFn<D>& k, std::span<const S> inputs, std::size_t n_out, const DriverOptions& o,
             DriverReport& rep, const Deadline& deadline)
      : kernel_(k), inputs_(inputs), n_out_(n_out), opt_(o), rep_(rep), deadline_(deadline) {
    for (const S& x : inputs) {
      root_.push_back({x.real.lower(), x.real.upper()});
      if ((context_bound<D> || o.input_error) && symerr::detail::maybe_special(x))
        throw std::invalid_argument("run_kernel: subdivision in the Affine domain or with an input error model "
                                    "needs inputs that cannot be NaN, infinite or undefined");
      base_.push_back(convert_fields<Interval>(x));
    }
  }

  const std::vector<Range>& root() const { return root_; }
  DriverReport& report() { return rep_; }

  // Explores one box; nullopt when no execution lies in it (some input's
  // sub-range has no value of its format).
  std::optional<Leaf<D>> explore(const std::vector<Range>& box) {
    const std::size_t left = opt_.max_runs > rep_.runs ? opt_.max_runs - rep_.runs : 0;
    if (left == 0) rep_.runs_exhausted = true;
    if (left == 0 || out_of_time()) return Leaf<D>{box, {}, INFINITY, true, 0};
    ++rep_.box_explorations;
    std::optional<Leaf<D>> leaf;
    if constexpr (context_bound<D>) {
      AffineContext ctx;
      AffineScope scope(ctx);
      std::vector<S> in;
      if (!rebuild(box, in)) return std::nullopt;
      leaf = finish(box, explore_box<D>(kernel_, in, n_out_, opt_, left, deadline_));
    } else {
      std::vector<S> in(inputs_.begin(), inputs_.end());
      if (opt_.input_error) {
        if (!rebuild(box, in)) return std::nullopt;
      } else {
        for (std::size_t i = 0; i < box.size(); ++i) {
          if (box[i].lo == root_[i].lo && box[i].hi == root_[i].hi) continue;
          in[i].real = D::between(box[i].lo, box[i].hi);
          in[i].reduce();
        }
      }
      leaf = finish(box, explore_box<D>(kernel_, in, n_out_, opt_, left, deadline_));
    }
    return leaf;
  }

  // The whole box. In the Affine domain without an input error model it runs
  // on the caller's inputs in the caller's context, so that correlations
  // between them (the same value passed twice, inputs computed from shared
  // symbols) hold there; every split is then met with it
  // (narrow_to_parent). Other boxes re-create their inputs (explore).
  std::optional<Leaf<D>> explore_root() {
    if constexpr (context_bound<D>) {
      if (!opt_.input_error && AffineContext::current_or_null()) {
        const std::size_t left = opt_.max_runs > rep_.runs ? opt_.max_runs - rep_.runs : 0;
        if (left == 0) rep_.runs_exhausted = true;
        if (left == 0 || out_of_time()) return Leaf<D>{root_, {}, INFINITY, true, 0};
        ++rep_.box_explorations;
        return finish(root_, explore_box<D>(kernel_, inputs_, n_out_, opt_, left, deadline_));
      }
    }
    return explore(root_);
  }

  // The inputs of `box` as fresh inputs (in the current context): real range
  // of the box, the input error of the model or of the original input.
  // False when some input has no value of its format there (vacuous box).
  bool rebuild(const std::vector<Range>& box, std::vector<S>& in) {
    in.clear();
    for (std::size_t i = 0; i < box.size(); ++i) {
      const SymbolicDomainError<Interval>& b = base_[i];
      std::pair<double, double> e{b.err.lower(), b.err.upper()};
      if (opt_.input_error) e = opt_.input_error(i, box[i].lo, box[i].hi);
      try {
        in.push_back(S::input(box[i].lo, box[i].hi, e.first, e.second, b.format, b.mode));
      } catch (const std::invalid_argument&) {
        ++rep_.vacuous_boxes;
        return false;
      }
      in.back().int_division = b.int_division;
    }
    return true;
  }

  // Whether the executions of `child` (a sub-box of `parent`) are executions
  // of `parent`: always, except under an input error model whose error range
  // on the child is not inside its range on the parent.
  bool nested(const std::vector<Range>& child, const std::vector<Range>& parent) const {
    if (!opt_.input_error) return true;
    for (std::size_t i = 0; i < child.size(); ++i) {
      const auto c = opt_.input_error(i, child[i].lo, child[i].hi), p = opt_.input_error(i, parent[i].lo, parent[i].hi);
      if (c.first < p.first || c.second > p.second) return false;
    }
    return true;
  }

  // Whether input i has a value of its format with real value in r (the
  // check explore() makes when it builds fresh inputs; else always).
  bool has_values(std::size_t i, const Range& r) const {
    if (!(context_bound<D> || opt_.input_error)) return true;
    const SymbolicDomainError<Interval>& b = base_[i];
    std::pair<double, double> e{b.err.lower(), b.err.upper()};
    if (opt_.input_error) e = opt_.input_error(i, r.lo, r.hi);
    try {
      (void)SymbolicDomainError<Interval>::input(r.lo, r.hi, e.first, e.second, b.format, b.mode);
    } catch (const std::invalid_argument&) {
      return false;
    }
    return true;
  }

  // The dimensions worth trying on `box`: bounded, splittable, the widest
  // relative to the root box first.
  const DriverOptions& options() const { return opt_; }
  // The call's time budget has run out (the report says so).
  bool out_of_time() {
    if (deadline_.passed()) rep_.time_exhausted = true;
    return rep_.time_exhausted;
  }

  std::vector<std::size_t> candidates(const std::vector<Range>& box) const {
    std::vector<std::pair<double, std::size_t>> c;
    for (std::size_t i = 0; i < box.size(); ++i) {
      const double lo = box[i].lo, hi = box[i].hi, mid = lo / 2 + hi / 2;
      if (!(std::isfinite(lo) && std::isfinite(hi) && lo < mid && mid < hi)) continue;
      c.push_back({(hi - lo) / (root_[i].hi - root_[i].lo), i});
    }
    std::stable_sort(c.begin(), c.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    std::vector<std::size_t> r;
    for (std::size_t k = 0; k < c.size() && k < std::max<std::size_t>(opt_.split_candidates, 1); ++k)
      r.push_back(c[k].second);
    return r;
  }

 private:
  Leaf<D> finish(const std::vector<Range>& box, const BasicDriverResult<D>& r) {
    accumulate(rep_, r.report);
    Leaf<D> leaf{box, {}, 0, r.report.budget_exhausted, 0};
    if constexpr (context_bound<D>) {
      for (const S& v : r.outputs) leaf.outputs.push_back(convert_fields<Interval>(v));
    } else {
      leaf.outputs = r.outputs;
    }
    leaf.score = score_of(leaf.outputs);
    return leaf;
  }

  const BasicKernelFn<D>& kernel_;
  std::span<const S> inputs_;
  std::size_t n_out_;
  const DriverOptions& opt_;
  DriverReport& rep_;
  std::vector<Range> root_;
  std::vector<SymbolicDomainError<Interval>> base_;  // the inputs as intervals (valid in any context)
  const Deadline deadline_;
};

// The best bisection of `leaf`: both halves of each candidate dimension
// explored, the one whose larger score is smallest kept. nullopt: no split
// (no candidate dimension, or the run budget ran out during the trials).
template <class D>
std::optional<std::vector<Leaf<D>>> best_split(Subdivider<D>& sub, const Leaf<D>& leaf) {
  std::optional<std::vector<Leaf<D>>> best;
  double best_score = INFINITY;
  for (std::size_t d : sub.candidates(leaf.box)) {
    std::vector<Range> a = leaf.box, b = leaf.box;
    const double mid = a[d].lo / 2 + a[d].hi / 2;
    a[d].hi = mid;
    b[d].lo = mid;
    std::vector<Leaf<D>> halves, unnarrowed;
    bool complete = true;
    for (const auto& box : {a, b}) {
      if (auto l = sub.explore(box)) {
        complete = complete && !l->budget_exhausted;
        unnarrowed.push_back(*l);
        if (!l->budget_exhausted && sub.nested(box, leaf.box)) {
          if (!narrow_to_parent(l->outputs, leaf.outputs)) {  // no execution in this half
            ++sub.report().vacuous_boxes;
            continue;
          }
          l->score = score_of(l->outputs);
        }
        halves.push_back(std::move(*l));
      }
    }
    if (halves.empty()) halves = std::move(unnarrowed);  // cannot happen for sound results: keep both
    if (!complete) break;  // the run budget is spent: keep what was decided
    double s = 0;
    for (const Leaf<D>& h : halves) s = std::max(s, h.score);
    // the candidates come widest first: a narrower dimension must beat the
    // best so far by min_gain (an improvement below it is a tie, and ties
    // go to the widest). A score held by a relative bound (rel_err · real)
    // moves by tiny amounts when a narrow dimension is split, while the
    // absolute bound beneath it shrinks only with the wide ones.
    if (!best || s < best_score * (1 - sub.options().min_gain)) best = std::move(halves), best_score = s;
  }
  return best;
}

template <class D>
BasicDriverResult<D> hull_of_leaves(const std::vector<Leaf<D>>& leaves, std::size_t n_out, DriverReport rep) {
  BasicDriverResult<D> res;
  std::vector<std::optional<Stored<D>>> acc(n_out);
  bool missing = false;  // a leaf without outputs (never kept by the subdivision; unbounded if it were)
  for (const Leaf<D>& l : leaves) {
    rep.budget_exhausted = rep.budget_exhausted || l.budget_exhausted;
    missing = missing || l.outputs.size() < n_out;
    for (std::size_t j = 0; j < n_out && j < l.outputs.size(); ++j) acc[j] = join(acc[j], l.outputs[j]);
  }
  rep.input_boxes = leaves.size();
  for (std::size_t j = 0; j < n_out; ++j) {
    Stored<D> v = acc[j] ? *acc[j] : unbounded_like(Stored<D>{});
    if (missing) v = unbounded_like(v);
    if constexpr (context_bound<D>) res.outputs.push_back(convert_fields<D>(v));
    else res.outputs.push_back(v);
  }
  res.report = rep;
  return res;
}

struct Stopwatch {
  const std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
  double seconds() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); }
};

template <class D>
BasicDriverResult<D> subdivide(const BasicKernelFn<D>& kernel, std::span<const SymbolicDomainError<D>> inputs,
                               std::size_t n_out, const DriverOptions& opt, const Deadline& deadline) {
  DriverReport rep;
  rep.box_explorations = 0;
  Subdivider<D> sub(kernel, inputs, n_out, opt, rep, deadline);
  auto worse = [](const Leaf<D>& a, const Leaf<D>& b) { return a.score < b.score; };
  std::priority_queue<Leaf<D>, std::vector<Leaf<D>>, decltype(worse)> open(worse);
  std::vector<Leaf<D>> done;  // leaves that cannot be split
  if (auto root = sub.explore_root()) open.push(std::move(*root));
  while (!open.empty()) {
    if (opt.target_err > 0 && open.top().score <= opt.target_err) break;
    const bool boxes_left = open.size() + done.size() < std::max<std::size_t>(opt.max_boxes, 1);
    if (!boxes_left || sub.out_of_time() || rep.runs >= opt.max_runs) {
      rep.subdivision_budget_exhausted = open.top().score > 0;
      if (rep.subdivision_budget_exhausted) {  // name what stopped it (the first limit met, and any other one)
        rep.boxes_exhausted = !boxes_left;
        rep.runs_exhausted = rep.runs_exhausted || rep.runs >= opt.max_runs;
      }
      break;
    }
    Leaf<D> worst = open.top();
    open.pop();
    std::optional<std::vector<Leaf<D>>> parts = best_split(sub, worst);
    if (!parts) {  // the worst box is a point, or the run or time budget is spent: its bound is final
      rep.subdivision_budget_exhausted = rep.runs >= opt.max_runs || rep.time_exhausted;
      rep.runs_exhausted = rep.runs_exhausted || rep.runs >= opt.max_runs;
      done.push_back(std::move(worst));
      break;
    }
    // A split that does not lower the box's score by min_gain (relative) is a
    // stall (an unstable jump that no split removes, the rounding floor);
    // after max_stalls consecutive ones the halves are kept, not split again.
    // (a split whose worst half is limited by its relative bound is none).
    double split_score = 0;
    for (const Leaf<D>& p : *parts) split_score = std::max(split_score, p.score);
    bool limited = false;
    for (const Leaf<D>& p : *parts) limited = limited || (p.score >= split_score && relative_limited(p.outputs, p.score));
    const unsigned stalls = split_score < worst.score * (1 - opt.min_gain) || limited ? 0 : worst.stalls + 1;
    for (Leaf<D>& p : *parts) {
      p.stalls = stalls;
      if (stalls > opt.max_stalls) done.push_back(std::move(p));
      else open.push(std::move(p));
    }
  }
  while (!open.empty()) {
    done.push_back(open.top());
    open.pop();
  }
  return hull_of_leaves<D>(done, n_out, rep);
}

// Subdivision lane by lane. With lanes (the caller's statement that lane k's
// outputs depend only on lane k's inputs and on inputs of no lane), each lane
// keeps its own leaves over its own inputs, and one run evaluates a box of
// every lane side by side ("diagonal" boxes, as the zipped paths of
// explore()): splitting every lane once costs two runs, not two per lane, and
// 16 elementwise lanes of 8 leaves each cost 8·2 runs, not 8^16. Output j is
// the hull over its lane's leaves: every execution of lane k lies in one of
// them, whatever the other lanes' inputs. Each round halves, in every lane
// that has an open leaf, its worst leaf along its widest input (relative to
// the root; no trial splits), with the stall rule of subdivide(). nullopt: the
// lanes statement did not hold in some run (the caller subdivides the whole box).
template <class D>
std::optional<BasicDriverResult<D>> subdivide_lanes(const BasicKernelFn<D>& kernel,
                                                    std::span<const SymbolicDomainError<D>> inputs,
                                                    std::size_t n_out, const DriverOptions& opt,
                                                    const Deadline& deadline) {
  DriverReport rep;
  rep.box_explorations = 0;
  Subdivider<D> sub(kernel, inputs, n_out, opt, rep, deadline);
  const std::vector<Range>& root = sub.root();
  int n_lanes = 0;
  for (int l : opt.output_lanes) n_lanes = std::max(n_lanes, l + 1);
  std::vector<std::vector<std::size_t>> lane_in(static_cast<std::size_t>(n_lanes)),
      lane_out(static_cast<std::size_t>(n_lanes));
  for (std::size_t i = 0; i < inputs.size(); ++i)
    if (opt.input_lanes[i] >= 0 && opt.input_lanes[i] < n_lanes) lane_in[static_cast<std::size_t>(opt.input_lanes[i])].push_back(i);
  for (std::size_t j = 0; j < n_out; ++j) lane_out[static_cast<std::size_t>(opt.output_lanes[j])].push_back(j);
  struct LaneLeaf {
    std::vector<Range> box;  // the whole box; only the lane's inputs are its own
    std::vector<Stored<D>> outputs;
    double score;
    unsigned stalls;
    bool open;
  };
  auto lane_score = [&](const std::vector<Stored<D>>& out, std::size_t L) {
    std::vector<Stored<D>> mine;
    for (std::size_t j : lane_out[L]) mine.push_back(out[j]);
    return score_of(mine);
  };
  std::optional<Leaf<D>> first = sub.explore_root();
  if (!first || rep.lanes_violated) return std::nullopt;
  std::vector<std::vector<LaneLeaf>> leaves(static_cast<std::size_t>(n_lanes));
  for (std::size_t L = 0; L < leaves.size(); ++L)
    leaves[L].push_back({root, first->outputs, lane_score(first->outputs, L), 0, !lane_in[L].empty()});
  // the root's own exploration out of runs: its outputs are partial (unbounded where unexplored)
  const bool root_exhausted = first->budget_exhausted;
  bool exhausted = root_exhausted;
  while (!exhausted) {
    // each lane's worst open leaf, and its split dimension
    std::vector<std::optional<std::size_t>> pick(leaves.size()), dim(leaves.size());
    bool any = false;
    for (std::size_t L = 0; L < leaves.size(); ++L) {
      if (leaves[L].size() >= std::max<std::size_t>(opt.max_boxes, 1)) continue;
      if (opt.target_err > 0) {
        double worst = 0;
        for (const LaneLeaf& l : leaves[L]) worst = std::max(worst, l.score);
        if (worst <= opt.target_err) continue;
      }
      for (std::size_t k = 0; k < leaves[L].size(); ++k)
        if (leaves[L][k].open && leaves[L][k].score > 0 && (!pick[L] || leaves[L][k].score > leaves[L][*pick[L]].score))
          pick[L] = k;
      if (!pick[L]) continue;
      const std::vector<Range>& box = leaves[L][*pick[L]].box;
      double widest = 0;
      for (std::size_t i : lane_in[L]) {
        const double lo = box[i].lo, hi = box[i].hi, mid = lo / 2 + hi / 2;
        if (!(std::isfinite(lo) && std::isfinite(hi) && lo < mid && mid < hi)) continue;
        const double w = (hi - lo) / (root[i].hi - root[i].lo);
        if (w > widest) widest = w, dim[L] = i;
      }
      if (!dim[L]) {
        leaves[L][*pick[L]].open = false;  // a point: final
        pick[L].reset();
        continue;
      }
      any = true;
    }
    if (!any) break;
    if (sub.out_of_time()) {
      rep.subdivision_budget_exhausted = true;
      break;
    }
    // the two halves of every splitting lane, side by side in two runs (a
    // half without a value of its format is dropped, the other one runs in
    // its place); lanes not splitting run their first leaf's box
    std::vector<Range> boxes[2] = {root, root};
    std::vector<bool> has[2] = {std::vector<bool>(leaves.size(), false), std::vector<bool>(leaves.size(), false)};
    for (std::size_t L = 0; L < leaves.size(); ++L) {
      std::vector<Range> half[2] = {leaves[L][pick[L] ? *pick[L] : 0].box, leaves[L][pick[L] ? *pick[L] : 0].box};
      if (pick[L]) {
        const std::size_t d = *dim[L];
        const double mid = half[0][d].lo / 2 + half[0][d].hi / 2;
        half[0][d].hi = mid, half[1][d].lo = mid;
        for (int h = 0; h < 2; ++h) has[h][L] = sub.has_values(d, half[h][d]);
        if (!has[0][L] && !has[1][L]) has[0][L] = has[1][L] = true;  // cannot happen: the parent had values
        for (int h = 0; h < 2; ++h)
          if (!has[h][L]) ++rep.vacuous_boxes;
      }
      for (int h = 0; h < 2; ++h) {
        const std::vector<Range>& b = !pick[L] || has[h][L] ? half[h] : half[1 - h];
        for (std::size_t i : lane_in[L]) boxes[h][i] = b[i];
      }
    }
    std::optional<Leaf<D>> run[2];
    for (int h = 0; h < 2; ++h) {
      run[h] = sub.explore(boxes[h]);
      if (rep.lanes_violated || !run[h]) return std::nullopt;
      exhausted = exhausted || run[h]->budget_exhausted;
    }
    if (exhausted) break;  // keep the leaves as they were: a run without a bound decides nothing
    for (std::size_t L = 0; L < leaves.size(); ++L) {
      if (!pick[L]) continue;
      const LaneLeaf parent = leaves[L][*pick[L]];
      leaves[L].erase(leaves[L].begin() + static_cast<std::ptrdiff_t>(*pick[L]));
      std::vector<LaneLeaf> parts, unnarrowed;
      for (int h = 0; h < 2; ++h)
        if (has[h][L]) {
          std::vector<Range> b = parent.box;
          for (std::size_t i : lane_in[L]) b[i] = boxes[h][i];
          std::vector<Stored<D>> out = run[h]->outputs;
          unnarrowed.push_back({b, out, lane_score(out, L), 0, true});
          if (sub.nested(b, parent.box)) {  // the lane's outputs within the parent leaf's
            std::vector<Stored<D>> mine, theirs;
            for (std::size_t j : lane_out[L]) mine.push_back(out[j]), theirs.push_back(parent.outputs[j]);
            if (!narrow_to_parent(mine, theirs)) {  // no execution of the lane in this half
              ++rep.vacuous_boxes;
              continue;
            }
            for (std::size_t k = 0; k < lane_out[L].size(); ++k) out[lane_out[L][k]] = mine[k];
          }
          const double score = lane_score(out, L);
          parts.push_back({std::move(b), std::move(out), score, 0, true});
        }
      if (parts.empty()) parts = std::move(unnarrowed);  // cannot happen for sound results: keep both
      double split_score = 0;
      for (const LaneLeaf& p : parts) split_score = std::max(split_score, p.score);
      bool limited = false;  // as in subdivide()
      for (const LaneLeaf& p : parts) {
        if (p.score < split_score) continue;
        std::vector<Stored<D>> mine;
        for (std::size_t j : lane_out[L]) mine.push_back(p.outputs[j]);
        limited = limited || relative_limited(mine, p.score);
      }
      const unsigned stalls = split_score < parent.score * (1 - opt.min_gain) || limited ? 0 : parent.stalls + 1;
      for (LaneLeaf& p : parts) {
        p.stalls = stalls;
        p.open = stalls <= opt.max_stalls;
        leaves[L].push_back(std::move(p));
      }
    }
  }
  if (root_exhausted) rep.budget_exhausted = true;
  else if (exhausted) rep.subdivision_budget_exhausted = true;  // the leaves so far are complete
  for (const auto& ls : leaves)
    for (const LaneLeaf& l : ls)
      if (l.open && l.score > 0 && ls.size() >= std::max<std::size_t>(opt.max_boxes, 1))
        rep.subdivision_budget_exhausted = rep.boxes_exhausted = true;
  BasicDriverResult<D> res;
  res.outputs.resize(n_out);
  std::size_t most = 1;
  for (std::size_t L = 0; L < leaves.size(); ++L) {
    most = std::max(most, leaves[L].size());
    for (std::size_t j : lane_out[L]) {
      std::optional<Stored<D>> acc;
      for (const LaneLeaf& l : leaves[L]) acc = join(acc, l.outputs[j]);
      if constexpr (context_bound<D>) res.outputs[j] = convert_fields<D>(*acc);
      else res.outputs[j] = *acc;
    }
  }
  rep.input_boxes = most;
  rep.lane_subdivision = true;
  res.report = rep;
  return res;
}

void check_options(const DriverOptions& options, std::size_t n_inputs, std::size_t n_outputs) {
  const bool use_lanes = !options.input_lanes.empty() || !options.output_lanes.empty();
  if (use_lanes) {
    if (options.input_lanes.size() != n_inputs || options.output_lanes.size() != n_outputs)
      throw std::invalid_argument("run_kernel: lanes given for " + std::to_string(options.input_lanes.size()) +
                                  " inputs and " + std::to_string(options.output_lanes.size()) +
                                  " outputs, but the kernel has " + std::to_string(n_inputs) + " inputs and " +
                                  std::to_string(n_outputs) + " outputs");
    for (int l : options.output_lanes)
      if (l < 0) throw std::invalid_argument("run_kernel: every output element needs a lane (>= 0)");
  }
  if (options.max_runs == 0) throw std::invalid_argument("run_kernel: max_runs must be at least 1");
  if (options.max_boxes == 0) throw std::invalid_argument("run_kernel: max_boxes must be at least 1");
  if (!(options.max_seconds >= 0) || !(options.target_err >= 0))
    throw std::invalid_argument("run_kernel: max_seconds and target_err must be >= 0");
}

}  // namespace

// The literal format of the kernel's runs (DriverOptions::literals).
template <class D>
std::optional<std::pair<Format, RoundingMode>> literal_format_for(std::span<const SymbolicDomainError<D>> inputs,
                                                                  const DriverOptions& options) {
  using L = DriverOptions::Literals;
  if (options.literals == L::Exact) return std::pair{Format{}, RoundingMode::NearestEven};  // also under a caller's scope
  if (options.literals == L::Explicit) return std::pair{options.literal_format, RoundingMode::NearestEven};
  if (literal_format() != nullptr) return std::nullopt;  // the caller's scope stays
  const SymbolicDomainError<D>* first = nullptr;
  for (const auto& x : inputs) {
    if (x.is_real()) continue;
    if (!x.is_float()) return std::nullopt;
    if (!first) first = &x;
    else if (x.format != first->format || x.mode != first->mode) return std::nullopt;
  }
  if (!first) return std::nullopt;
  return std::pair{first->format, first->mode};
}

// Affine input elements that are one quantity with an earlier one (the same
// real and fp handles): a fill-constructed vector of one input() is n copies
// of one input, where the same line in the interval domains makes n inputs.
// The report says so (a tryout's softmax of such copies was exactly 0.5).
static void count_copied_inputs(std::span<const SymbolicDomainError<Affine>> inputs, DriverReport& rep) {
  std::unordered_map<std::uint64_t, std::size_t> first;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const Affine& r = inputs[i].real;
    if (!is_bounded(r) || is_point(r)) continue;  // constants are no inputs
    const std::uint64_t key = (std::uint64_t{r.context_id()} << 32) | r.index();
    const auto [it, fresh] = first.try_emplace(key, i);
    if (!fresh && same_handle(inputs[it->second].fp, inputs[i].fp)) {
      if (rep.copied_inputs++ == 0) rep.first_copied_input = i, rep.first_copied_of = it->second;
    }
  }
}

template <class D>
BasicDriverResult<D> run_kernel(const std::type_identity_t<BasicKernelFn<D>>& kernel,
                                std::type_identity_t<std::span<const SymbolicDomainError<D>>> inputs,
                                std::size_t n_outputs, const DriverOptions& options) {
  const Stopwatch clock;
  check_options(options, inputs.size(), n_outputs);
  Deadline deadline;
  if (options.max_seconds > 0)
    deadline.at = clock.start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                    std::chrono::duration<double>(std::min(options.max_seconds, 1e9)));
  const auto literals = literal_format_for<D>(inputs, options);
  std::optional<ScopedLiteralFormat> literal_scope;
  if (literals) literal_scope.emplace(literals->first, literals->second);
  BasicDriverResult<D> r;
  if (options.max_boxes > 1) {  // (never by max_seconds: a safety limit left unreached changes nothing)
    std::optional<BasicDriverResult<D>> by_lane;
    if (!options.output_lanes.empty()) by_lane = subdivide_lanes<D>(kernel, inputs, n_outputs, options, deadline);
    if (by_lane) {
      r = std::move(*by_lane);
    } else {
      r = subdivide<D>(kernel, inputs, n_outputs, options, deadline);
    }
  } else {
    r = explore_box<D>(kernel, inputs, n_outputs, options, options.max_runs, deadline);
  }
  r.report.seconds = clock.seconds();
  if constexpr (std::is_same_v<D, Affine>) count_copied_inputs(inputs, r.report);
  return r;
}

template BasicDriverResult<Interval> run_kernel<Interval>(const BasicKernelFn<Interval>&,
                                                          std::span<const SymbolicDomainError<Interval>>,
                                                          std::size_t, const DriverOptions&);
template BasicDriverResult<MpfrInterval> run_kernel<MpfrInterval>(const BasicKernelFn<MpfrInterval>&,
                                                                  std::span<const SymbolicDomainError<MpfrInterval>>,
                                                                  std::size_t, const DriverOptions&);
template BasicDriverResult<RationalInterval> run_kernel<RationalInterval>(
    const BasicKernelFn<RationalInterval>&, std::span<const SymbolicDomainError<RationalInterval>>, std::size_t,
    const DriverOptions&);
template BasicDriverResult<Affine> run_kernel<Affine>(const BasicKernelFn<Affine>&,
                                                      std::span<const SymbolicDomainError<Affine>>, std::size_t,
                                                      const DriverOptions&);

DriverResult run_kernel(const KernelFn& kernel, std::span<const SymbolicError> inputs, std::size_t n_outputs,
                        const DriverOptions& options) {
  return run_kernel<Interval>(kernel, inputs, n_outputs, options);
}

void elementwise_lanes(DriverOptions& options, std::span<const std::size_t> input_sizes, std::size_t n_out) {
  options.input_lanes.clear();
  for (std::size_t size : input_sizes)
    for (std::size_t i = 0; i < size; ++i)
      options.input_lanes.push_back(size == n_out ? static_cast<int>(i) : -1);
  options.output_lanes.resize(n_out);
  for (std::size_t j = 0; j < n_out; ++j) options.output_lanes[j] = static_cast<int>(j);
}

std::vector<std::string> DriverReport::stopped_by() const {
  std::vector<std::string> r;
  if (runs_exhausted) r.push_back("max_runs");
  if (branches_exhausted) r.push_back("max_branches");
  if (boxes_exhausted) r.push_back("max_boxes");
  if (time_exhausted) r.push_back("max_seconds");
  return r;
}

std::string DriverReport::summary() const {
  std::ostringstream os;
  os << runs << " runs, " << paths << " paths (+" << infeasible_paths << " infeasible) over " << lanes
     << " lane(s), " << undecided_branches << " undecided branches (" << unstable_branches << " unstable), at most "
     << max_path_branches << " on one path, " << refined_operands << " operand refinements";
  if (relational_pairs) os << ", " << relational_pairs << " unstable pairs bounded relationally";
  if (box_explorations > 1)
    os << ", " << input_boxes << " input boxes" << (lane_subdivision ? " per lane" : "") << " (" << box_explorations
       << " explored, " << vacuous_boxes << " vacuous)";
  if (subdivision_budget_exhausted) os << "; subdivision stopped by its budget (the result is the hull so far)";
  if (budget_exhausted) os << "; BUDGET EXHAUSTED: unexplored lanes are unbounded";
  // every limit that stopped the analysis, by its option's name
  const char* sep = "; stopped by ";
  auto limit = [&](const char* name, const std::string& what) {
    os << sep << name << " (" << what << ")";
    sep = ", ";
  };
  if (runs_exhausted) limit("max_runs", std::to_string(runs) + " runs spent");
  if (branches_exhausted) limit("max_branches", "a path was cut: its lane's outputs are unbounded");
  if (boxes_exhausted) limit("max_boxes", std::to_string(input_boxes) + " boxes, some still splittable");
  if (time_exhausted)
    limit("max_seconds", "the time budget ran out: a wall-clock safety limit, so this result depends on the "
                         "machine's load and is not reproducible");
  if (lanes_violated) os << "; the lanes statement did not hold: explored as one lane";
  if (copied_inputs)
    os << "; " << copied_inputs << " input element(s) are copies of an earlier one (input " << first_copied_input
       << " is input " << first_copied_of << ": one Affine quantity; make independent inputs with one input() call each)";
  return os.str();
}

}  // namespace symerr::verify
