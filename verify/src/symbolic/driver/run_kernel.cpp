// The kernel driver's entry point (see <symerr/verify/symbolic/driver.hpp>
// for the model and its soundness argument): the options checked, the
// literal format of the kernel's runs, one box's exploration or the
// subdivision, and the report's summary.
#include <symerr/verify/symbolic/driver.hpp>

#include <chrono>
#include <sstream>
#include <stdexcept>
#include <string>
#include <unordered_map>

#include "parts.hpp"

namespace symerr::verify {
namespace driver_impl {
namespace {

struct Stopwatch {
  const std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
  double seconds() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); }
};

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
void count_copied_inputs(std::span<const SymbolicDomainError<Affine>> inputs, DriverReport& rep) {
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

}  // namespace
}  // namespace driver_impl

template <class D>
BasicDriverResult<D> run_kernel(const std::type_identity_t<BasicKernelFn<D>>& kernel,
                                std::type_identity_t<std::span<const SymbolicDomainError<D>>> inputs,
                                std::size_t n_outputs, const DriverOptions& options) {
  using namespace driver_impl;
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
