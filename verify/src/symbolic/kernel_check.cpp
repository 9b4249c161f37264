// symbolic_check of any kernel through the driver (symbolic_check.hpp), and
// its counterexample search: the compiled kernel against exact executions
// when the caller gives it (witness_search.hpp), else point enclosures.
#include <symerr/verify/symbolic/symbolic_check.hpp>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <sstream>
#include <stdexcept>

#include <symerr/verify/symbolic/driver.hpp>
#include <symerr/verify/symbolic/witness_search.hpp>

#include "check_support.hpp"

namespace symerr::verify {

// ---- any kernel, through the driver ------------------------------------------

namespace {

// The shortest decimal that reads back as x ("1e-07", not "9.9999999999999995e-08").
std::string shortest(double x) {
  char b[40];
  for (int p = 1; p <= 17; ++p) {
    std::snprintf(b, sizeof b, "%.*g", p, x);
    if (std::strtod(b, nullptr) == x) break;
  }
  return b;
}

// FNV-1a of the boxes' bits: the same boxes, the same digest, on every run.
std::string box_digest(std::span<const InputBox> inputs) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (const InputBox& x : inputs)
    for (double v : {x.lo, x.hi, x.elo, x.ehi}) {
      std::uint64_t bits = 0;
      std::memcpy(&bits, &v, sizeof bits);
      for (int k = 0; k < 8; ++k) h = (h ^ ((bits >> (8 * k)) & 0xff)) * 0x100000001b3ull;
    }
  char b[20];
  std::snprintf(b, sizeof b, "%08llx", static_cast<unsigned long long>(h & 0xffffffffull));
  return b;
}

CheckResult kernel_header(const std::string& name, const Format& format, std::span<const InputBox> inputs,
                          double bound, ErrorPart part, const KernelCheckOptions& options) {
  CheckResult r;
  r.kind = "symbolic";
  r.kernel = name;
  r.operator_name = name;
  r.format = format_name(format);
  r.id = "symbolic/kernel/" + name + "/" + r.format + "/" + to_string(part) + "/le" + shortest(bound) + "/" +
         box_digest(inputs);
  r.semantics["rounding"] = "RNE";
  r.semantics["error_part"] = to_string(part);
  std::ostringstream domain;
  for (std::size_t i = 0; i < inputs.size(); ++i) domain << (i ? "; x" : "x") << i << ": " << box_text(inputs[i]);
  r.semantics["domain"] = domain.str();
  const std::string formula = "|" + std::string(to_string(part)) + "| <= " + shortest(bound);
  r.bound = BoundInfo{formula, formula, "caller"};
  r.strategies = {"kernel-driver-subdivision"};
  r.strategies.push_back(options.compiled ? "compiled-kernel-witness-search" : "point-enclosures");
  r.seed = options.seed;
  return r;
}

// A point execution of input x: a value f of the format in its computed range
// and an error e in [elo, ehi] with r = f − e a double in [lo, hi] (exactly:
// f − e is checked in rationals). nullopt when the draw has no such pair.
template <RealDomain D>
std::optional<SymbolicDomainError<D>> point_input(const InputBox& x, const Format& format, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> unit(0, 1);
  const double flo = x.lo + x.elo, fhi = x.hi + x.ehi;
  const int k = static_cast<int>(rng() % 4);
  double f = k == 0 ? flo : k == 1 ? fhi : flo + (fhi - flo) * unit(rng);
  f = on_grid(f, format);
  const int j = static_cast<int>(rng() % 3);
  const double e = j == 0 ? x.elo : j == 1 ? x.ehi : (x.elo <= 0 && 0 <= x.ehi ? 0.0 : x.elo);
  const double r = f - e;
  if (!std::isfinite(f) || !(r >= x.lo && r <= x.hi)) return std::nullopt;
  if (exact_value(r) + exact_value(e) != exact_value(f)) return std::nullopt;
  try {
    return SymbolicDomainError<D>::input(r, r, e, e, format);
  } catch (const std::invalid_argument&) {
    return std::nullopt;
  }
}

// Point executions: the kernel's enclosure at one execution; its smallest
// |part| above the bound proves a violation there.
// The kernel as the driver runs it: one output.
template <RealDomain D>
BasicKernelFn<D> one_output(const BasicSymbolicKernel<D>& kernel) {
  return [&kernel](std::span<SymbolicDomainError<D>> in, std::span<SymbolicDomainError<D>> out) {
    out[0] = kernel(std::span<const SymbolicDomainError<D>>(in.data(), in.size()));
  };
}

template <RealDomain D>
void search_counterexample(const BasicSymbolicKernel<D>& kernel, std::span<const InputBox> inputs, const Format& format,
                           double bound, ErrorPart part, const KernelCheckOptions& options, CheckResult& r) {
  std::mt19937_64 rng(options.seed);
  Evidence& ev = r.evidence;
  const BasicKernelFn<D> run = one_output(kernel);
  for (int s = 0; s < options.samples && r.witnesses.size() < options.max_witnesses; ++s) {
    std::vector<SymbolicDomainError<D>> point;
    for (const InputBox& x : inputs)
      if (auto p = point_input<D>(x, format, rng)) point.push_back(*p);
    if (point.size() != inputs.size()) continue;
    const SymbolicError c = interval_hull(run_kernel<D>(run, point, 1).outputs[0]);
    if (symerr::detail::maybe_special(c)) {
      ++ev.undefined;
      continue;
    }
    ++ev.inputs_checked;
    const double low = mig(field_of(c, part));
    ev.max_abs_error = std::max(ev.max_abs_error, low);
    if (!(low > bound)) continue;
    ++ev.failures;
    Witness w;
    for (const SymbolicDomainError<D>& p : point) {
      const SymbolicError x = interval_hull(p);  // a point: its hull is exact
      w.inputs.push_back(value_of(x.fp.lower(), format));
      w.inputs.back().exact =
          "real " + exact_value(x.real.lower()).get_str() + ", err " + exact_value(x.err.lower()).get_str();
    }
    w.abs_error = low;
    w.bound = bound;
    std::ostringstream msg;
    msg.precision(6);
    msg << "|" << to_string(part) << "| >= " << low << " exceeds the bound " << bound
        << " at this execution (enclosure " << field_of(c, part) << ")";
    w.message = msg.str();
    r.witnesses.push_back(std::move(w));
  }
}

// The compiled kernel's search (witness_search.hpp): exact executions and
// sub-box enclosures from the substituted kernel, run by the driver with the
// caller's literal format and run budget (one box each).
template <RealDomain D>
WitnessSearchResult search_compiled(const BasicSymbolicKernel<D>& kernel, std::span<const InputBox> inputs,
                                    const Format& format, double bound, bool proven,
                                    const KernelCheckOptions& options) {
  const BasicKernelFn<D> run = one_output(kernel);
  DriverOptions one;
  one.literals = options.driver.literals;
  one.literal_format = options.driver.literal_format;
  one.max_runs = options.driver.max_runs;
  one.max_branches = options.driver.max_branches;
  auto hull_at = [&](std::span<const InputBox> box) {
    std::vector<SymbolicDomainError<D>> in;
    for (const InputBox& x : box) in.push_back(SymbolicDomainError<D>::input(x.lo, x.hi, x.elo, x.ehi, format));
    return interval_hull(run_kernel<D>(run, in, 1, one).outputs[0]);
  };
  const ExactExecution exact = [&](std::span<const double> real,
                                   std::span<const double> err) -> std::optional<std::pair<double, double>> {
    std::vector<InputBox> point;
    for (std::size_t i = 0; i < real.size(); ++i) point.push_back({real[i], real[i], err[i], err[i]});
    const SymbolicError c = hull_at(point);
    if (symerr::detail::maybe_special(c) || !is_bounded(c.real)) return std::nullopt;
    return std::make_pair(c.real.lower(), c.real.upper());
  };
  const BoxErrorSup box_sup = [&](std::span<const InputBox> box) {
    const SymbolicError c = hull_at(box);
    return symerr::detail::maybe_special(c) ? INFINITY : mag(c.err);
  };
  WitnessSearchOptions so = options.search;
  if (proven) {  // the observed error only: a few draws over the whole box
    so.boxes = 1;
    so.focus = 1;
    so.best = 0;
    so.executions = std::min<std::size_t>(so.executions, 256);
  }
  return search_witnesses(options.compiled, exact, box_sup, inputs, format, bound, so, options.max_witnesses,
                          options.seed);
}

void record_search(const WitnessSearchResult& s, CheckResult& r) {
  Evidence& ev = r.evidence;
  ev.inputs_checked = s.executions - s.undefined;
  ev.undefined = s.undefined;
  ev.failures = s.failures;
  ev.max_abs_error = s.max_observed;
  ev.worst = s.worst;
  ev.metrics["search_executions"] = static_cast<double>(s.executions);
  ev.metrics["search_boxes"] = static_cast<double>(s.boxes);
  ev.metrics["search_boxes_above_bound"] = static_cast<double>(s.boxes_above);
  r.witnesses = s.witnesses;
}

// The three numbers of a check that is neither proven nor refuted, and the
// ratio bound / observed, in the metrics and in words.
std::string three_numbers(CheckResult& r, double sup, double bound, ErrorPart part) {
  auto& m = r.evidence.metrics;
  const double observed = r.evidence.max_abs_error;
  m["bound"] = bound;
  m["observed_max"] = observed;
  m["bound_over_observed"] = observed > 0 ? bound / observed : INFINITY;
  std::ostringstream s;
  s.precision(6);
  s << "the proven enclosure gives sup |" << to_string(part) << "| = " << sup << ", the statement allows " << bound
    << ", the largest error observed is " << observed;
  if (observed > 0) s << " (bound / observed = " << bound / observed << ")";
  return s.str();
}

}  // namespace

template <RealDomain D>
BasicKernelCheckResult<D> symbolic_check(const BasicSymbolicKernel<D>& kernel, std::span<const InputBox> inputs,
                                      const Format& format, double bound, ErrorPart part,
                                      const KernelCheckOptions& options, const std::string& name) {
  if (!(bound >= 0)) throw std::invalid_argument("symbolic_check: the bound must be a number >= 0");
  const auto start = std::chrono::steady_clock::now();
  BasicKernelCheckResult<D> out;
  CheckResult& r = out.check;
  r = kernel_header(name, format, inputs, bound, part, options);
  std::vector<SymbolicDomainError<D>> in;
  for (const InputBox& x : inputs) in.push_back(SymbolicDomainError<D>::input(x.lo, x.hi, x.elo, x.ehi, format));
  DriverOptions o = options.driver;
  o.target_err = part == ErrorPart::Total ? bound : 0;  // the driver's score is sup|err|
  const auto run = run_kernel<D>(one_output(kernel), in, 1, o);
  out.enclosure = run.outputs[0];
  out.report = run.report;
  const SymbolicError hull = interval_hull(out.enclosure);
  const bool special = symerr::detail::maybe_special(hull);
  const double sup = mag(field_of(hull, part));
  r.evidence.metrics["boxes"] = static_cast<double>(run.report.input_boxes);
  r.evidence.metrics["enclosure_sup"] = sup;
  const bool proven = !special && sup <= bound;
  const bool compiled = options.compiled && part == ErrorPart::Total;
  if (compiled) record_search(search_compiled<D>(kernel, inputs, format, bound, proven, options), r);
  else if (!proven) search_counterexample<D>(kernel, inputs, format, bound, part, options, r);
  const std::string numbers = three_numbers(r, sup, bound, part);
  std::ostringstream reason;
  if (proven) {
    r.verdict = r.witnesses.empty() ? Verdict::Proven : Verdict::Violated;  // a witness contradicts the model
    if (r.witnesses.empty())
      reason << "proven: sup |" << to_string(part) << "| <= " << sup << " over " << run.report.input_boxes
             << " boxes (" << run.report.summary() << ")";
    else
      reason << "the enclosure proves the bound for the substituted kernel, but the compiled kernel breaks it "
                "(it does not follow the accuracy model or the evaluation order analysed): "
             << r.witnesses.front().message;
    if (compiled) reason << "; observed in " << r.evidence.metrics["search_executions"] << " executions of the compiled kernel: "
                         << r.evidence.max_abs_error;
  } else if (!r.witnesses.empty()) {
    r.verdict = Verdict::Violated;
    reason << (compiled ? "violated by the compiled kernel (re-checked against the exact execution): "
                        : "counterexample (enclosure at one execution of the substituted kernel): ")
           << r.witnesses.front().message;
  } else {
    r.verdict = Verdict::Inconclusive;
    reason << "inconclusive: " << numbers << (special ? "; the result may be special" : "") << "; "
           << run.report.input_boxes << " boxes analysed; no violation in ";
    if (compiled)
      reason << r.evidence.metrics["search_executions"] << " executions of the compiled kernel aimed at "
             << r.evidence.metrics["search_boxes_above_bound"] << " of " << r.evidence.metrics["search_boxes"]
             << " sub-boxes whose enclosure exceeds the bound";
    else
      reason << options.samples << " point executions of the substituted kernel (no compiled kernel given)";
  }
  r.reason = reason.str();
  r.exhaustive = r.verdict == Verdict::Proven;
  r.duration_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

#define SYMERR_KERNEL_CHECK(D)                                                                              \
  template BasicKernelCheckResult<D> symbolic_check<D>(const BasicSymbolicKernel<D>&, std::span<const InputBox>, \
                                                    const Format&, double, ErrorPart, const KernelCheckOptions&, \
                                                    const std::string&);
SYMERR_KERNEL_CHECK(Interval)
SYMERR_KERNEL_CHECK(MpfrInterval)
SYMERR_KERNEL_CHECK(RationalInterval)
SYMERR_KERNEL_CHECK(Affine)
#undef SYMERR_KERNEL_CHECK

KernelCheckResult symbolic_check(const SymbolicKernel& kernel, std::span<const InputBox> inputs,
                                 const Format& format, double bound, ErrorPart part,
                                 const KernelCheckOptions& options, const std::string& name) {
  return symbolic_check<Interval>(kernel, inputs, format, bound, part, options, name);
}

}  // namespace symerr::verify
