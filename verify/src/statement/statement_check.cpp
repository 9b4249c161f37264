// A kernel judged against an elementwise accuracy statement (statement_check.hpp).
#include <symerr/verify/statement/statement_check.hpp>

#include <chrono>
#include <cmath>
#include <sstream>

#include <mpfr.h>

namespace symerr::verify {

namespace {

const Interval& part_of(const SymbolicError& c, StatementKind k) {
  return k == StatementKind::Propagated ? c.propagated : k == StatementKind::Introduced ? c.introduced : c.err;
}

ErrorPart error_part(StatementKind k) {
  return k == StatementKind::Propagated ? ErrorPart::Propagated
       : k == StatementKind::Introduced ? ErrorPart::Introduced : ErrorPart::Total;
}

void validate(const Statement& s, const std::vector<std::string>& names, std::size_t n_inputs, const Format& format) {
  if (!std::holds_alternative<FloatFormat>(format))
    throw std::invalid_argument("check_statement: " + format_name(format) + " is not a float format");
  if (s.kind == StatementKind::RelErr || s.kind == StatementKind::Ulp)
    throw StatementError(s.origin + ": bounds " + to_string(s.kind) + ": not supported by check_statement yet");
  if (s.indices.size() != 1) throw StatementError(s.origin + ": not elementwise (one output index): " + s.id);
  if (names.size() != n_inputs)
    throw StatementError(s.origin + ": " + std::to_string(n_inputs) + " inputs, " + std::to_string(names.size()) + " names");
  for (const auto& [tensor, dims] : s.tensors) {
    bool known = tensor == s.output;
    for (const auto& n : names) known = known || n == tensor;
    if (!known) throw StatementError(s.origin + ": tensor '" + tensor + "' is neither an input of the kernel nor its output");
  }
  for (const auto& n : names)
    if (!s.tensors.count(n)) throw StatementError(s.origin + ": input '" + n + "' is not a tensor of the statement");
}

// The grid of sub-boxes: k cuts of every input's real range, k^n <= grid.
std::vector<std::vector<InputBox>> grid_of(std::span<const InputBox> whole, std::size_t grid) {
  const std::size_t n = whole.size();
  std::size_t k = 1;
  auto power = [n](std::size_t b) {
    double p = 1;
    for (std::size_t i = 0; i < n; ++i) p *= static_cast<double>(b);
    return p;
  };
  while (n > 0 && power(k + 1) <= static_cast<double>(grid)) ++k;
  std::vector<std::vector<InputBox>> out;
  for (std::size_t idx = 0; idx < static_cast<std::size_t>(power(k)); ++idx) {
    std::vector<InputBox> sub(whole.begin(), whole.end());
    std::size_t rest = idx;
    for (std::size_t i = 0; i < n; ++i, rest /= k) {
      const std::size_t j = rest % k;
      const double lo = whole[i].lo, w = whole[i].hi - whole[i].lo;
      sub[i].lo = j == 0 ? lo : lo + w * static_cast<double>(j) / static_cast<double>(k);
      sub[i].hi = j + 1 == k ? whole[i].hi : lo + w * static_cast<double>(j + 1) / static_cast<double>(k);
    }
    out.push_back(std::move(sub));
  }
  return out;
}

TensorStatementValues values_of(const Statement& s, const std::vector<std::string>& names, std::span<const InputBox> box,
                                const Format& format, const Interval& y, const Interval& y_err) {
  TensorStatementValues v(std::get<FloatFormat>(format));
  for (std::size_t i = 0; i < names.size(); ++i)
    v.set(names[i], {{1}, {box[i].lo}, {box[i].hi}, {box[i].elo}, {box[i].ehi}});
  v.set(s.output, {{1}, {y.lower()}, {y.upper()}, {y_err.lower()}, {y_err.upper()}});
  return v;
}

SymbolicError enclose(const SymbolicKernel& kernel, std::span<const InputBox> box, const Format& format,
                      const DriverOptions& o) {
  std::vector<SymbolicError> in;
  for (const InputBox& x : box) in.push_back(SymbolicError::input(x.lo, x.hi, x.elo, x.ehi, format));
  return run_kernel([&kernel](std::span<SymbolicError> i, std::span<SymbolicError> out) {
    out[0] = kernel(std::span<const SymbolicError>(i.data(), i.size()));
  }, in, 1, o).outputs[0];
}

struct Proof {
  std::size_t cells = 0, proven = 0, vacuous = 0;
  double worst_sup = 0, worst_bound = 0;  // the unproven cell of largest sup - bound
  bool any_unproven = false;
};

Proof prove(const SymbolicKernel& kernel, std::span<const InputBox> inputs, const std::vector<std::string>& names,
            const Format& format, const Statement& s, const KernelCheckOptions& options, std::size_t grid) {
  Proof p;
  const std::size_t zero[] = {0};
  const auto cells = grid_of(inputs, grid);
  DriverOptions o = options.driver;
  o.max_boxes = std::max<std::size_t>(1, o.max_boxes / cells.size());
  for (const auto& box : cells) {
    ++p.cells;
    SymbolicError c;
    try {
      c = enclose(kernel, box, format, o);
    } catch (const std::invalid_argument&) {
      ++p.vacuous;  // no value of the format in this sub-box
      continue;
    }
    const auto v = values_of(s, names, box, format, c.real, c.err);
    if (evaluate_where(s, v, zero, 64) == Tri::False) {
      ++p.vacuous;
      continue;
    }
    const double sup = symerr::detail::maybe_special(c) ? INFINITY : mag(part_of(c, s.kind));
    const double b = evaluate_bound(s, v, zero, 64).lower();
    if (sup <= b) {
      ++p.proven;
    } else if (!p.any_unproven || sup - b > p.worst_sup - p.worst_bound) {
      p.any_unproven = true;
      p.worst_sup = sup;
      p.worst_bound = b;
    }
  }
  return p;
}

// The statement's largest value at one point, exactly (256 bits, rounded up to a rational).
PointBound point_bound(const Statement& s, const std::vector<std::string>& names, const Format& format) {
  return [&s, &names, format](std::span<const double> real, std::span<const double> err,
                              const std::pair<double, double>& R, double y) -> std::optional<mpq_class> {
    TensorStatementValues v(std::get<FloatFormat>(format));
    for (std::size_t i = 0; i < names.size(); ++i) v.set_points(names[i], {1}, {real[i]}, {err[i]});
    const double elo = mpq_class(exact_value(y) - exact_value(R.second)).get_d();
    const double ehi = mpq_class(exact_value(y) - exact_value(R.first)).get_d();
    v.set(s.output, {{1}, {R.first}, {R.second}, {std::nextafter(elo, -INFINITY)}, {std::nextafter(ehi, INFINITY)}});
    const std::size_t zero[] = {0};
    if (evaluate_where(s, v, zero, 256) != Tri::True) return std::nullopt;
    const MpfrInterval b = evaluate_bound(s, v, zero, 256);
    if (!is_bounded(b)) return std::nullopt;
    mpq_class q;
    mpfr_get_q(q.get_mpq_t(), b.upper_mpfr());
    return q;
  };
}

WitnessSearchResult search(const SymbolicKernel& kernel, std::span<const InputBox> inputs,
                           const std::vector<std::string>& names, const Format& format, const Statement& s,
                           const KernelCheckOptions& options) {
  DriverOptions one;
  one.literals = options.driver.literals;
  one.literal_format = options.driver.literal_format;
  one.max_runs = options.driver.max_runs;
  const ExactExecution exact = [&](std::span<const double> real,
                                   std::span<const double> err) -> std::optional<std::pair<double, double>> {
    std::vector<InputBox> point;
    for (std::size_t i = 0; i < real.size(); ++i) point.push_back({real[i], real[i], err[i], err[i]});
    const SymbolicError c = enclose(kernel, point, format, one);
    if (symerr::detail::maybe_special(c) || !is_bounded(c.real)) return std::nullopt;
    return std::make_pair(c.real.lower(), c.real.upper());
  };
  const BoxErrorSup box_sup = [&](std::span<const InputBox> box) {
    const SymbolicError c = enclose(kernel, box, format, one);
    return symerr::detail::maybe_special(c) ? INFINITY : mag(c.err);
  };
  return search_witnesses(options.compiled, exact, box_sup, inputs, format, 0.0, options.search, options.max_witnesses,
                          options.seed, point_bound(s, names, format));
}

}  // namespace

KernelCheckResult check_statement(const SymbolicKernel& kernel, std::span<const InputBox> inputs,
                                  const std::vector<std::string>& input_names, const Format& format,
                                  const Statement& s, const KernelCheckOptions& options, const std::string& name,
                                  std::size_t grid) {
  validate(s, input_names, inputs.size(), format);
  const auto start = std::chrono::steady_clock::now();
  KernelCheckResult out;
  CheckResult& r = out.check;
  r.kind = "symbolic";
  r.kernel = r.operator_name = name;
  r.format = format_name(format);
  r.id = "statement/" + name + "/" + r.format + "/" + s.id;
  r.semantics["error_part"] = to_string(error_part(s.kind));
  r.bound = BoundInfo{s.id + ": |" + to_string(s.kind) + "| <= " + s.bound_text,
                      s.bound_text + (s.where_text.empty() ? "" : " where " + s.where_text), s.source};
  r.requirements = s.requirements;
  r.strategies = {"statement-grid-proof"};
  r.seed = options.seed;
  const Proof p = prove(kernel, inputs, input_names, format, s, options, grid);
  auto& m = r.evidence.metrics;
  m["grid_cells"] = static_cast<double>(p.cells);
  m["grid_cells_proven"] = static_cast<double>(p.proven);
  m["grid_cells_outside_condition"] = static_cast<double>(p.vacuous);
  bool exact_inputs = true;
  for (const InputBox& x : inputs) exact_inputs = exact_inputs && x.elo == 0 && x.ehi == 0;
  const bool compiled = options.compiled && (s.kind == StatementKind::Err ||
                                             (s.kind == StatementKind::Introduced && exact_inputs));
  if (compiled) {
    r.strategies.push_back("compiled-kernel-witness-search");
    const WitnessSearchResult w = search(kernel, inputs, input_names, format, s, options);
    r.witnesses = w.witnesses;
    r.evidence.inputs_checked = w.executions - w.undefined - w.inapplicable;
    r.evidence.undefined = w.undefined;
    r.evidence.failures = w.failures;
    r.evidence.max_abs_error = w.max_observed;
    r.evidence.worst = w.worst;
    m["observed_max"] = w.max_observed;
    m["observed_over_bound_max"] = w.max_ratio;
    m["search_executions"] = static_cast<double>(w.executions);
  }
  std::ostringstream reason;
  reason.precision(6);
  if (!r.witnesses.empty()) {
    r.verdict = Verdict::Violated;
    reason << "violated by the compiled kernel (re-checked, the statement evaluated exactly at the point): "
           << r.witnesses.front().message;
  } else if (!p.any_unproven) {
    r.verdict = Verdict::Proven;
    reason << "proven on every sub-box of the grid (" << p.proven << " proven, " << p.vacuous
           << " outside the condition or empty)";
  } else {
    r.verdict = Verdict::Inconclusive;
    m["enclosure_sup"] = p.worst_sup;
    m["bound"] = p.worst_bound;
    reason << "inconclusive: " << p.cells - p.proven - p.vacuous << " of " << p.cells
           << " sub-boxes not proven; on the worst, the proven enclosure gives sup |" << to_string(s.kind)
           << "| = " << p.worst_sup << ", the statement allows " << p.worst_bound;
    if (compiled)
      reason << "; the largest error observed is " << r.evidence.max_abs_error << ", at most "
             << m["observed_over_bound_max"] << " of the bound at its point";
  }
  r.reason = reason.str();
  r.exhaustive = r.verdict == Verdict::Proven;
  r.duration_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

}  // namespace symerr::verify
