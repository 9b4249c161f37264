// The kernel driver: runs a callable on symbolic inputs and returns, per output
// element, a sound enclosure (real, fp, err, rel_err, flags), analysing the
// data-dependent branches itself instead of throwing UndecidedBranch, and
// subdividing the input box to tighten the result when given a budget.
// Templated over the domain: Interval (SymbolicError), MpfrInterval,
// RationalInterval and Affine (explicit instantiations in
// verify/src/symbolic/driver/, one file per part of the driver).
//
// Model. An execution of a kernel has a real (ideal) control flow and a
// computed one; at each comparison the ideal outcome is decided by the real
// values and the computed outcome by the computed values. The driver explores
// the outcomes a comparison can have on the current enclosures:
//   * decided comparisons (the same answer for the real and the computed
//     values everywhere) are followed as always;
//   * an undecided one forks the path: each possible pair (ideal, computed) of
//     outcomes is a path of its own, on which the compared operands are
//     tightened to the outcome taken (path condition). Only modifiable objects
//     are tightened: elements of the driver's own input/output buffers (found
//     by address, written through the driver's buffer), and operands that
//     were non-const lvalues at the comparison (ComparisonInfo::lhs_target /
//     rhs_target, `if (v < 0)` on a local v) provided the comparison is the
//     thread's latest and the operand still holds the compared value. A const
//     operand or a temporary is never written. With lanes, never an operand
//     of no lane (shared by every lane's path in the run);
//   * a pair with ideal != computed is an unstable test: from there on the
//     ideal and the computed executions follow different control flows. The
//     driver runs the real path (the ideal outcomes from there on) and the
//     computed path (the computed outcomes) separately, each again forking on
//     its own undecided comparisons, and bounds such executions by
//       real ⊆ hull of the real-path reals, fp ⊆ hull of the computed-path fps,
//       err ⊆ fp − real,
//     which holds for every execution whose control flows differ there.
//   * a path whose condition, after tightening, holds for no execution (e.g.
//     x < c with x's enclosure tightened to the point c) is discarded, and an
//     unstable outcome of a R b needs err_a − err_b to cross the switch (with
//     exact operands the ideal and computed outcomes never differ).
// Every execution follows one explored path (or one pair of paths), so the
// hull over paths is sound for all executions, including unstable ones.
//
// Unstable pairs. The plain bound of a pair's err is the difference of two
// unrelated enclosures (a maximum of two inputs taken with `if` on [-1, 1]:
// err in [-2, 2] whatever e). The driver keeps the relation between the two
// control flows instead: each comparison taken on a path is recorded as a
// linear condition h = a − b <= 0 (or >= 0) — on the real operands for the
// ideal outcome, on the computed operands for the computed outcome — over
// symbols ε ∈ [-1, 1]:
//   * Affine domain: the operands' forms (inputs share their symbols across
//     runs);
//   * interval domains (Interval, MpfrInterval, RationalInterval): the driver
//     tags each input of a run (SymbolicDomainError::source, with the
//     exploration's generation); a copy keeps the tag and every operation's
//     result has none, so a tagged operand is that input itself: its real value
//     is m_r + h_r·ε_2i over the box's real range, its error m_e + h_e·ε_2i+1,
//     its computed value their sum. A constant (one point, real = computed) is
//     itself; any other operand's comparison is not recorded (fewer
//     conditions: still sound).
// Operands are read through the same checked addresses as for tightening.
// For every pair (real run r, computed run c) of an unstable group, the
// unstable executions following r and c have err = fp_c − real_r, and their
// symbol assignment satisfies the conditions of both runs; the maximum of
// that quantity under the conditions (a small linear program over
// ε ∈ [-1, 1]^N) bounds it. Affine: taken for three forms of it, fp_c − real_r,
// err_c + (real_c − real_r) and err_r + (fp_c − fp_r) (the error along one
// control flow plus the jump of the ideal, resp. machine, program between the
// two flows), and intersected; interval domains: when both outputs are tagged
// copies or constants (one input on both sides: its error, no program). The
// bound is certified by weak duality — any multipliers y >= 0 give
// max f <= f0 − Σ y_j h_j0 + Σ_i |f_i − Σ_j y_j h_ji|, evaluated exactly (GMP)
// and rounded up — with y found by the simplex method in double (only a
// candidate: soundness never depends on it); a pair whose conditions hold
// for no ε is dropped when the simplex's unbounded ray w >= 0 certifies it
// (Σ_j w_j h_j > 0 on the whole box, evaluated exactly: Farkas). The group's
// err is the intersection of the plain difference with the hull over pairs.
// Interval domains skip the programs where they cannot pay: a plain err
// already inside the inputs' error ranges (relu: [-e, 0]), or a single pair
// whose conditions name neither output's input (where(c, a, b)).
// Effect: a running maximum of 4 values written with `if` (maxpool) gets
// err = e exactly, from [-2, 2], in every domain; so does a sorting network.
// Still loose: kernels whose two paths compute the result through different
// operations — in the interval domains any non-copy (x · 1, x − m), in the
// Affine domain different nonlinear ones (softmax with an `if`-maximum:
// exp(x − m) for two different m; its value does not depend on m, but the
// linearisations of the two paths do not know it).
//
// Lanes (independent elements). Exploring every combination of the outcomes
// of n independent comparisons (relu on n elements) costs 4^n runs. Given
// lanes — a lane per input and per output, the caller's statement that the
// outputs of lane k depend (by data or control flow) only on the inputs of
// lane k and on inputs of no lane (lane −1, never compared undecidedly) —
// the driver explores every lane's paths in the same runs ("zipped"): run r
// follows the r-th path of every lane, so runs = max over lanes of its paths.
// Each value carries the lane of the inputs it depends on
// (SymbolicDomainError::origin); an undecided comparison whose operands mix
// lanes (or depend on no lane), or an output whose value carries another
// lane's data, violates the statement: the driver then starts again with one
// lane and says so in the report. A dependence by control flow alone (an
// output of lane k branching on lane m's input) cannot be seen.
//
// Automatic subdivision (max_boxes > 1). The input box (the
// real ranges of the inputs) is explored as above; then, while the budget
// lasts, the sub-box with the largest score — max over outputs of sup|err| —
// is bisected: every candidate dimension (an input with a bounded real range
// of positive width; at most split_candidates of them, the widest relative to
// the whole box) is tried by exploring both halves, and the dimension whose
// halves have the smallest larger score is kept (ties, and improvements
// below min_gain over a wider candidate: the widest); after
// max_stalls consecutive splits that lowered the score by less than min_gain
// the halves are not split again (an unstable jump, the rounding floor); a
// split whose worst half's score is set by a relative-error bound
// (err = rel_err · real, which subdivision does not lower until the absolute
// bound, shrinking with the box, falls below it) is not counted as a stall. The same
// rule drives the bisection for branches: an undecided comparison makes its
// box's score large (the hull of the paths, or an unstable jump), and the
// dimension its operands depend on is the one whose split lowers it. The
// outputs are the hulls over the leaf boxes, which cover the input box (a
// half with no value of an input's format is dropped: no execution lies in
// it). Stopping (target reached, box or run budget, the time limit, or every
// leaf a point) never loses soundness: the hull of the current leaves is
// returned; the report names the budget that stopped it.
//
// Affine contexts. Affine values are handles into the thread's current
// AffineContext (the caller's; the inputs must live in it). Without
// subdivision every run happens in the caller's context, so the outputs are
// forms correlated with the inputs (memoisation makes repeated paths share
// forms). With subdivision every box exploration (including the trial
// halves) runs in a fresh AffineContext made current for its duration (memory
// bounded by one box's work), its inputs re-created from the caller's input
// ranges as independent inputs (real range of the sub-box, the input's err
// range or DriverOptions::input_error, format, mode); the box's outputs are exported as intervals, joined,
// and the hull is returned as fresh forms of the caller's context (correlated
// with nothing). Affine inputs that may be special (NaN, inf, undefined)
// cannot be re-created: subdivision rejects them (std::invalid_argument).
// Input elements that are copies of one Affine value (`{a, a}`, or the fill
// constructor `std::vector<SA>(n, SA::input(...))`) are one quantity: x0 − x1
// is exactly 0, on the whole box and under subdivision (a split never widens
// the whole box's bound), where the interval domains, whose values have no
// identity, tag each element as an input of its own (x0 − x1 in [-2, 2]).
// Independent Affine inputs are made by one input() call each.
//
// Budget. Every limit that can change a result is counted in work, so that
// two calls on the same kernel and box give the same result whatever the
// machine's load: `max_runs` kernel executions in all, `max_branches`
// undecided comparisons on one path, `max_boxes` leaf boxes. Lanes left
// unexplored by max_runs, and a lane with a path cut by max_branches, get the
// unbounded enclosure (sound); the subdivision stopped by max_runs or
// max_boxes returns the hull of its leaves so far. Each budget that stopped
// the analysis is named in the report (runs_exhausted, branches_exhausted,
// boxes_exhausted; stopped_by(), summary()).
// `max_seconds` (if positive) is a wall-clock safety limit, not a budget: it
// stops an analysis that would otherwise run on (a data-dependent loop), and
// a result it stopped depends on the machine's load, which the report says
// (time_exhausted; summary(): "not reproducible"). Left unreached it changes
// nothing. When it runs out, a run still going is abandoned at its next
// undecided comparison (an exception the driver throws through the kernel
// and catches; a kernel that swallows every exception, or loops without
// comparing, can outlast it), its lanes count as unexplored (unbounded,
// budget_exhausted), unstable pairs not yet bounded relationally keep their
// plain bound fp − real, and the subdivision keeps the leaves it has.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <symerr/domains/affine.hpp>
#include <symerr/domains/mpfr_interval.hpp>
#include <symerr/domains/rational_interval.hpp>
#include <symerr/domains/symbolic_interval.hpp>
// what a kernel calls: exp, log, tanh, erf, ... (found by unqualified lookup;
// without it `exp(x)` in a template resolved to ::exp(double) and failed with
// "cannot convert SymbolicDomainError to double")
#include <symerr/elementary.hpp>
// and the qualified spellings std::exp(x), std::sqrt(x), std::fmax(a, b), ...
// (SYMERR_NO_STD_OVERLOADS leaves namespace std untouched)
#include <symerr/symbolic/std_math.hpp>

namespace symerr::verify {

/// The budget and the statements a branch driver run (run_kernel()) works with;
/// see this header's opening comment for the model, lanes, subdivision and budget.
struct DriverOptions {
  std::size_t max_runs = 1u << 16;  ///< kernel executions, over all boxes
  std::size_t max_branches = 4096;  ///< undecided comparisons on one path of one lane
  ///@{
  /// Automatic subdivision: at most `max_boxes` leaf boxes (1: none). It
  /// stops early when every output's sup|err| is at most `target_err` (if
  /// positive). With lanes (below), each lane is subdivided on its own inputs,
  /// up to `max_boxes` leaves per lane, and one run evaluates a box of every
  /// lane side by side (each round halves every lane's worst leaf along its
  /// widest input: two runs); if the lanes statement fails in a run, the whole
  /// box is subdivided instead. Each box explored costs runs of `max_runs`
  /// (a split tries 2 x split_candidates halves): a large max_boxes can be
  /// cut short by max_runs, which the report then names (runs_exhausted).
  std::size_t max_boxes = 1;
  /// A wall-clock safety limit in seconds for the whole call (0: none), not a
  /// budget: a result it stopped is flagged as depending on the machine's
  /// load (DriverReport::time_exhausted). See "Budget" above.
  double max_seconds = 0;
  double target_err = 0;
  ///@}
  std::size_t split_candidates = 16;  ///< dimensions tried per split
  /// A split that lowers its box's score by less than this fraction is a
  /// stall; after more than max_stalls consecutive stalls the halves are kept
  /// and not split further.
  double min_gain = 1e-3;
  /// The most consecutive stalls before the halves are kept (see min_gain).
  unsigned max_stalls = 2;
  /// The input error of input i on a sub-box where its real value lies in
  /// [lo, hi] (e.g. half an ulp of the sub-range's magnitude for inputs
  /// rounded from reals): {elo, ehi}. It must enclose the errors of every
  /// execution of the input in [lo, hi]. Empty: the input's own err range on
  /// every sub-box. Used only by subdivision.
  std::function<std::pair<double, double>(std::size_t input, double lo, double hi)> input_error;
  ///@{
  /// Empty: one lane (every combination of outcomes). Otherwise one entry per
  /// input / output element: its lane (>= 0), or -1 for an input of no lane.
  std::vector<int> input_lanes;
  std::vector<int> output_lanes;
  ///@}
  /// The format numbers built in the kernel take (`T x = 0;`, `(T)n`,
  /// `1.0f / sqrtf((float)d)`; ScopedLiteralFormat, <symerr/symbolic/dropin.hpp>)
  /// during its runs. Auto: the inputs' float format when every machine-format
  /// input has the same one (and the same rounding mode), so that constants
  /// the kernel computes are computed as the compiled kernel computes them —
  /// unless the caller holds a ScopedLiteralFormat of its own, which is kept.
  /// Exact: exact real constants (also under a caller's scope). Explicit: `literal_format`.
  enum class Literals { Auto, Exact, Explicit };
  /// How numbers built in the kernel are read (see Literals).
  Literals literals = Literals::Auto;
  /// The literal format when literals is Explicit.
  Format literal_format{};
  /// Bound an unstable pair also as the computed path's error plus the ideal
  /// program's jump between the two control flows, by differentiating along
  /// the leaves that differ (docs/driver.md, "Jumps"); false: only the other
  /// bounds (for comparisons: the result is never wider with it).
  bool jump_bounds = true;
};

/// What a run_kernel() call did: runs, paths, branches, boxes, and which budget stopped it.
struct DriverReport {
  std::size_t runs = 0;               ///< kernel executions
  std::size_t paths = 0;              ///< explored paths, over all lanes and boxes
  std::size_t infeasible_paths = 0;   ///< paths whose condition no execution meets (discarded)
  std::size_t undecided_branches = 0; ///< undecided comparisons met (forks), over all lanes
  std::size_t unstable_branches = 0;  ///< forks where the ideal and computed outcomes differ
  /// Lanes explored (1 when none were given or the statement failed).
  std::size_t lanes = 1;
  std::size_t max_path_branches = 0;  ///< most undecided comparisons on one path
  /// some lane's outputs unbounded by a budget: left unexplored (max_runs, the
  /// time limit) or a path cut (max_branches)
  bool budget_exhausted = false;
  bool lanes_violated = false;  ///< the lanes statement was contradicted: ran with one lane
  std::size_t refined_operands = 0;  ///< operand tightenings applied
  std::size_t relational_pairs = 0;  ///< interval domains: unstable pairs bounded under both paths' conditions
  std::size_t input_boxes = 1;  ///< leaf boxes whose hull is the result (by lane: the most of one lane)
  bool lane_subdivision = false;  ///< subdivided lane by lane (lanes given; see DriverOptions::max_boxes)
  std::size_t box_explorations = 1;  ///< boxes explored (leaves, split boxes and tried halves)
  std::size_t vacuous_boxes = 0;  ///< halves with no value of some input's format (dropped)
  bool subdivision_budget_exhausted = false;  ///< a budget or the time limit stopped the subdivision
  ///@{
  /// The limits that stopped the analysis, each named by stopped_by() and
  /// summary(): max_runs was spent (runs_exhausted), a path reached
  /// max_branches (branches_exhausted), the subdivision had boxes left to
  /// split at max_boxes leaves (boxes_exhausted), the wall-clock safety limit
  /// max_seconds ran out (time_exhausted: the result depends on the machine's
  /// load, it is not reproducible).
  bool runs_exhausted = false;
  bool branches_exhausted = false;
  bool boxes_exhausted = false;
  bool time_exhausted = false;
  ///@}
  /// Affine: input elements that are copies of an earlier element (one
  /// quantity: `std::vector<SA>(n, SA::input(...))`, see "Affine" above); the
  /// summary names the first (the interval domains tag each element as an
  /// input of its own, so the count is 0 there).
  std::size_t copied_inputs = 0;
  ///@{
  /// The first copied input element and the element it copies.
  std::size_t first_copied_input = 0, first_copied_of = 0;
  ///@}
  double seconds = 0;  ///< wall time of the whole call (never part of the result)
  /// The options that stopped the analysis, in this order: "max_runs",
  /// "max_branches", "max_boxes", "max_seconds" (empty: none did).
  std::vector<std::string> stopped_by() const;
  /// One paragraph for a report.
  std::string summary() const;
};

/// What run_kernel() returns: an enclosure per output element and the report.
template <class D>
struct BasicDriverResult {
  /// The outputs' enclosures (hulls over paths and leaf boxes).
  std::vector<SymbolicDomainError<D>> outputs;
  /// What the driver did.
  DriverReport report;
};

/// The kernel reads `in` (the driver's copy of the inputs, fresh for every run;
/// it may also write it) and writes every element of `out`. Each element of
/// `out` starts every run as the exact 0 (`out[i] += v` accumulates from 0);
/// one that a run leaves holding that initial value — never assigned, or
/// assigned only a copy of another unassigned element — makes run_kernel
/// throw std::invalid_argument naming it ("output 3 of 4 was never written by
/// the kernel"): a loop bound one short was certified an exact 0. Writing the
/// 0 (`out[i] = 0;`) counts; relying on the initial value without any
/// assignment (`if (v > out[i]) out[i] = v;` on a path where the test fails)
/// does not. It must be
/// deterministic and keep no symbolic value from one run to the next (a static
/// local, captured state): the results of a run's operations are numbered in
/// the order they are made (symerr::detail::quantity_numbering), and a value
/// of an earlier run would be taken for the current run's quantity of the
/// same number.
template <class D>
using BasicKernelFn =
    std::function<void(std::span<SymbolicDomainError<D>> in, std::span<SymbolicDomainError<D>> out)>;

/// run_kernel<D>(kernel, inputs, n_outputs, options): D is given explicitly
/// (Interval, MpfrInterval, RationalInterval, Affine).
template <class D>
BasicDriverResult<D> run_kernel(const std::type_identity_t<BasicKernelFn<D>>& kernel,
                                std::type_identity_t<std::span<const SymbolicDomainError<D>>> inputs,
                                std::size_t n_outputs, const DriverOptions& options = {});

/// @cond
extern template BasicDriverResult<Interval> run_kernel<Interval>(const BasicKernelFn<Interval>&,
                                                                 std::span<const SymbolicDomainError<Interval>>,
                                                                 std::size_t, const DriverOptions&);
extern template BasicDriverResult<MpfrInterval> run_kernel<MpfrInterval>(
    const BasicKernelFn<MpfrInterval>&, std::span<const SymbolicDomainError<MpfrInterval>>, std::size_t,
    const DriverOptions&);
extern template BasicDriverResult<RationalInterval> run_kernel<RationalInterval>(
    const BasicKernelFn<RationalInterval>&, std::span<const SymbolicDomainError<RationalInterval>>, std::size_t,
    const DriverOptions&);
extern template BasicDriverResult<Affine> run_kernel<Affine>(const BasicKernelFn<Affine>&,
                                                             std::span<const SymbolicDomainError<Affine>>,
                                                             std::size_t, const DriverOptions&);
                                                             /// @endcond

/// The Interval domain (SymbolicError), without naming the domain.
using DriverResult = BasicDriverResult<Interval>;
/// BasicKernelFn in the Interval domain.
using KernelFn = BasicKernelFn<Interval>;
/// run_kernel() in the Interval domain (SymbolicError).
DriverResult run_kernel(const KernelFn& kernel, std::span<const SymbolicError> inputs, std::size_t n_outputs,
                        const DriverOptions& options = {});

// ---- kernel buffers of another element type ------------------------------
}  // namespace symerr::verify

// (in symerr::detail, the library's one internal namespace: a second `detail`
// in symerr::verify would make `detail` ambiguous under `using namespace
// symerr; using namespace symerr::verify;`)
namespace symerr::detail {
// A buffer of values (count elements, stride bytes apart from address begin)
// that a running driver treats as its own: a comparison on one of its
// elements may tighten it in place, also when the kernel reads it through a
// const pointer. `at` gives element i's SymbolicDomainError<D> subobject;
// `domain` is domain_tag<D>() (the driver ignores a buffer of another domain).
struct AdoptedBuffer {
  std::uintptr_t begin = 0;
  std::size_t count = 0;
  std::size_t stride = 0;
  const void* domain = nullptr;
  void* (*at)(std::uintptr_t begin, std::size_t i) = nullptr;
};
class BufferAdopter {
 public:
  virtual void adopt(const AdoptedBuffer& b) = 0;
  virtual void release(std::uintptr_t begin) noexcept = 0;

 protected:
  ~BufferAdopter() = default;
};
template <class D>
const void* domain_tag() noexcept {
  static const char tag = 0;
  return &tag;
}
}  // namespace symerr::detail

namespace symerr::verify {

/// KernelBuffer<T>: a fixed-size buffer of T, a type derived from
/// SymbolicDomainError<D> with no data of its own (CFloat, CDouble of
/// <symerr/c_types.hpp>), for a kernel whose arrays are of type T, run under
/// the driver, whose spans are of SymbolicDomainError<D>. Made inside the
/// kernel callable, it is a copy of the driver's span (or n default values)
/// that the running driver adopts for its lifetime (make it inside the
/// callable, as below; the driver forgets it when it is destroyed or when the
/// run ends): a comparison on an element
/// is tightened as on the driver's own buffers (C kernels take their inputs
/// as `const float*`, whose elements are otherwise never tightened), and a
/// copied input keeps its driver tag. Outside a driver it is a plain copy.
///   auto kernel = [](std::span<SymbolicError> x, std::span<SymbolicError> y) {
///     KernelBuffer<CFloat> xc(x), yc(y.size());
///     c_kernel(xc.data(), yc.data(), n);
///     yc.copy_to(y);
///   };
template <class T>
class KernelBuffer {
  template <class D>
  static D domain_of(const SymbolicDomainError<D>*);
  using D = decltype(domain_of(static_cast<const T*>(nullptr)));
  using S = SymbolicDomainError<D>;
  static_assert(std::is_base_of_v<S, T> && sizeof(T) == sizeof(S),
                "KernelBuffer<T>: T must derive from SymbolicDomainError<D> and add no data");

 public:
  ///@{
  /// A copy of the driver's span `from` (or n default values), adopted by the running driver.
  explicit KernelBuffer(std::span<const S> from) : data_(from.begin(), from.end()) { adopt(); }
  explicit KernelBuffer(std::span<S> from) : KernelBuffer(std::span<const S>(from)) {}
  explicit KernelBuffer(std::size_t n) : data_(n) { adopt(); }
  ///@}
  // Released from the driver that adopted it, if that driver is still the
  // thread's running one (a buffer kept past its run is not released from a
  // driver that no longer exists).
  ~KernelBuffer() {
    if (adopter_ && dynamic_cast<detail::BufferAdopter*>(symerr::detail::branch_hook()) == adopter_)
      adopter_->release(reinterpret_cast<std::uintptr_t>(data_.data()));
  }
  KernelBuffer(const KernelBuffer&) = delete;
  KernelBuffer& operator=(const KernelBuffer&) = delete;

  ///@{
  /// The elements (pass data() to a C kernel).
  T* data() noexcept { return data_.data(); }
  const T* data() const noexcept { return data_.data(); }
  std::size_t size() const noexcept { return data_.size(); }
  T& operator[](std::size_t i) noexcept { return data_[i]; }
  const T& operator[](std::size_t i) const noexcept { return data_[i]; }
  ///@}
  /// The values as SymbolicDomainError<D> (the kernel's outputs into the driver's span).
  void copy_to(std::span<S> to) const {
    for (std::size_t i = 0; i < data_.size() && i < to.size(); ++i) to[i] = data_[i];
  }

 private:
  void adopt() {
    adopter_ = dynamic_cast<detail::BufferAdopter*>(symerr::detail::branch_hook());
    if (!adopter_ || data_.empty()) {
      adopter_ = nullptr;
      return;
    }
    detail::AdoptedBuffer b;
    b.begin = reinterpret_cast<std::uintptr_t>(data_.data());
    b.count = data_.size();
    b.stride = sizeof(T);
    b.domain = detail::domain_tag<D>();
    b.at = [](std::uintptr_t begin, std::size_t i) -> void* {
      return static_cast<S*>(reinterpret_cast<T*>(begin) + i);
    };
    adopter_->adopt(b);
  }
  std::vector<T> data_;
  detail::BufferAdopter* adopter_ = nullptr;
};

/// Lanes of an elementwise kernel whose inputs are tensors of the given sizes
/// (concatenated, in order) and whose output has `n_out` elements: element i of
/// every input of n_out elements is in lane i; smaller (broadcast) inputs are
/// in no lane.
void elementwise_lanes(DriverOptions& options, std::span<const std::size_t> input_sizes, std::size_t n_out);

}  // namespace symerr::verify
