// A kernel judged against an elementwise accuracy statement (statement_check.hpp).
#include <symerr/verify/statement/statement_check.hpp>

#include <chrono>
#include <algorithm>
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

// The kernel's tensors as the statement sees them: the inputs (flat, in
// order), the output and the element checked (its index).
struct Layout {
  std::vector<StatementTensor> inputs;
  StatementTensor output;
  std::size_t element = 0;
  std::vector<std::size_t> index;  // `element` unravelled over output.shape
};

std::size_t size_of(const std::vector<std::size_t>& shape) {
  std::size_t n = 1;
  for (std::size_t d : shape) n *= d;
  return n;
}

void validate(const Statement& s, const Layout& l, std::size_t n_inputs, const Format& format) {
  if (!std::holds_alternative<FloatFormat>(format))
    throw std::invalid_argument("check_statement: " + format_name(format) + " is not a float format");
  if (s.kind == StatementKind::RelErr || s.kind == StatementKind::Ulp)
    throw StatementError(s.origin + ": bounds " + to_string(s.kind) + ": not supported by check_statement yet");
  if (s.indices.size() != l.output.shape.size())
    throw StatementError(s.origin + ": " + std::to_string(s.indices.size()) + " output indices for the output '" +
                         l.output.name + "' of rank " + std::to_string(l.output.shape.size()) + ": " + s.id);
  std::size_t total = 0;
  for (const auto& t : l.inputs) total += size_of(t.shape);
  if (total != n_inputs)
    throw StatementError(s.origin + ": " + std::to_string(n_inputs) + " inputs, the tensors hold " + std::to_string(total));
  if (l.element >= size_of(l.output.shape))
    throw StatementError(s.origin + ": output element " + std::to_string(l.element) + " out of range");
  auto rank_of = [&s](const StatementTensor& t) {
    const auto it = s.tensors.find(t.name);
    if (it != s.tensors.end() && it->second.size() != t.shape.size())
      throw StatementError(s.origin + ": tensor '" + t.name + "' has rank " + std::to_string(it->second.size()) +
                           " in the statement, " + std::to_string(t.shape.size()) + " in the kernel");
  };
  rank_of(l.output);
  for (const auto& t : l.inputs) rank_of(t);
  for (const auto& [tensor, dims] : s.tensors) {
    bool known = tensor == l.output.name;
    for (const auto& t : l.inputs) known = known || t.name == tensor;
    if (!known) throw StatementError(s.origin + ": tensor '" + tensor + "' is neither an input of the kernel nor its output");
  }
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

// The output tensor: element l.element in [lo, hi] (error in [elo, ehi]), the others unknown.
TensorStatementValues::Tensor output_tensor(const Layout& l, double lo, double hi, double elo, double ehi) {
  const std::size_t n = size_of(l.output.shape);
  TensorStatementValues::Tensor t{l.output.shape, std::vector<double>(n, -INFINITY), std::vector<double>(n, INFINITY),
                                  std::vector<double>(n, -INFINITY), std::vector<double>(n, INFINITY)};
  t.lo[l.element] = lo;
  t.hi[l.element] = hi;
  t.err_lo[l.element] = elo;
  t.err_hi[l.element] = ehi;
  return t;
}

TensorStatementValues values_of(const Layout& l, std::span<const InputBox> box, const Format& format,
                                const Interval& y, const Interval& y_err) {
  TensorStatementValues v(std::get<FloatFormat>(format));
  std::size_t at = 0;
  for (const auto& t : l.inputs) {
    TensorStatementValues::Tensor x{t.shape, {}, {}, {}, {}};
    for (std::size_t i = 0, n = size_of(t.shape); i < n; ++i, ++at) {
      x.lo.push_back(box[at].lo);
      x.hi.push_back(box[at].hi);
      x.err_lo.push_back(box[at].elo);
      x.err_hi.push_back(box[at].ehi);
    }
    v.set(t.name, std::move(x));
  }
  v.set(l.output.name, output_tensor(l, y.lower(), y.upper(), y_err.lower(), y_err.upper()));
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
  double worst_sup = 0, worst_bound = 0;  // the cell of largest sup - bound (an unproven one if any)
  bool any_unproven = false;
  std::vector<std::string> stopped_by;  // the driver budgets that stopped an enclosure
};

SymbolicError enclose_noting(const SymbolicKernel& kernel, std::span<const InputBox> box, const Format& format,
                             const DriverOptions& o, std::vector<std::string>& stopped_by) {
  std::vector<SymbolicError> in;
  for (const InputBox& x : box) in.push_back(SymbolicError::input(x.lo, x.hi, x.elo, x.ehi, format));
  auto r = run_kernel([&kernel](std::span<SymbolicError> i, std::span<SymbolicError> out) {
    out[0] = kernel(std::span<const SymbolicError>(i.data(), i.size()));
  }, in, 1, o);
  for (const auto& b : r.report.stopped_by())
    if (std::find(stopped_by.begin(), stopped_by.end(), b) == stopped_by.end()) stopped_by.push_back(b);
  return r.outputs[0];
}

Proof prove(const SymbolicKernel& kernel, std::span<const InputBox> inputs, const Layout& l, const Format& format,
            const Statement& s, const KernelCheckOptions& options, std::size_t grid) {
  Proof p;
  const auto cells = grid_of(inputs, grid);
  DriverOptions o = options.driver;
  o.max_boxes = std::max<std::size_t>(1, o.max_boxes / cells.size());
  for (const auto& box : cells) {
    ++p.cells;
    SymbolicError c;
    try {
      c = enclose_noting(kernel, box, format, o, p.stopped_by);
    } catch (const std::invalid_argument&) {
      ++p.vacuous;  // no value of the format in this sub-box
      continue;
    }
    const auto v = values_of(l, box, format, c.real, c.err);
    if (evaluate_where(s, v, l.index, 64) == Tri::False) {
      ++p.vacuous;
      continue;
    }
    const double sup = symerr::detail::maybe_special(c) ? INFINITY : mag(part_of(c, s.kind));
    const MpfrInterval bi = evaluate_bound(s, v, l.index, 64);
    const double b = is_bounded(bi) ? bi.lower() : 0.0;
    const bool proven = sup <= b;
    p.proven += proven ? 1 : 0;
    // the cell of largest sup - bound: among the unproven ones once there is one
    if (p.cells == p.vacuous + 1 || (!proven && !p.any_unproven) ||
        ((!proven || !p.any_unproven) && sup - b > p.worst_sup - p.worst_bound)) {
      p.worst_sup = sup;
      p.worst_bound = b;
    }
    p.any_unproven = p.any_unproven || !proven;
  }
  return p;
}

// The statement's largest value at one point, exactly (256 bits, rounded up to a rational).
PointBound point_bound(const Statement& s, const Layout& l, const Format& format) {
  return [&s, &l, format](std::span<const double> real, std::span<const double> err,
                          const std::pair<double, double>& R, double y) -> std::optional<mpq_class> {
    TensorStatementValues v(std::get<FloatFormat>(format));
    std::size_t at = 0;
    for (const auto& t : l.inputs) {
      const std::size_t n = size_of(t.shape);
      v.set_points(t.name, t.shape, std::vector<double>(real.begin() + static_cast<std::ptrdiff_t>(at),
                                                        real.begin() + static_cast<std::ptrdiff_t>(at + n)),
                   std::vector<double>(err.begin() + static_cast<std::ptrdiff_t>(at),
                                       err.begin() + static_cast<std::ptrdiff_t>(at + n)));
      at += n;
    }
    const double elo = mpq_class(exact_value(y) - exact_value(R.second)).get_d();
    const double ehi = mpq_class(exact_value(y) - exact_value(R.first)).get_d();
    v.set(l.output.name, output_tensor(l, R.first, R.second, std::nextafter(elo, -INFINITY),
                                       std::nextafter(ehi, INFINITY)));
    if (evaluate_where(s, v, l.index, 256) != Tri::True) return std::nullopt;
    const MpfrInterval b = evaluate_bound(s, v, l.index, 256);
    if (!is_bounded(b)) return std::nullopt;
    mpq_class q;
    mpfr_get_q(q.get_mpq_t(), b.upper_mpfr());
    return q;
  };
}

WitnessSearchResult search(const SymbolicKernel& kernel, std::span<const InputBox> inputs, const Layout& l,
                           const Format& format, const Statement& s, const KernelCheckOptions& options) {
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
                          options.seed, point_bound(s, l, format));
}

// The verdict and its reason from the proof and the witness search.
void conclude(CheckResult& r, const Proof& p, bool compiled, const Statement& s) {
  auto& m = r.evidence.metrics;
  if (p.cells > p.vacuous) {  // the proof's numbers, whatever the verdict
    m["enclosure_sup"] = p.worst_sup;
    m["bound"] = p.worst_bound;
    if (compiled && m["observed_max"] > 0) m["bound_over_observed"] = p.worst_bound / m["observed_max"];
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
    reason << "inconclusive: " << p.cells - p.proven - p.vacuous << " of " << p.cells
           << " sub-boxes not proven; on the worst, the proven enclosure gives sup |" << to_string(s.kind)
           << "| = " << p.worst_sup << ", the statement allows " << p.worst_bound;
    if (compiled)
      reason << "; the largest error observed is " << r.evidence.max_abs_error << ", at most "
             << m["observed_over_bound_max"] << " of the bound at its point";
  }
  r.reason = reason.str();
}

}  // namespace

KernelCheckResult check_statement(const SymbolicKernel& kernel, std::span<const InputBox> inputs,
                                  const std::vector<std::string>& input_names, const Format& format,
                                  const Statement& s, const KernelCheckOptions& options, const std::string& name,
                                  std::size_t grid) {
  if (s.indices.size() != 1) throw StatementError(s.origin + ": not elementwise (one output index): " + s.id);
  if (input_names.size() != inputs.size())
    throw StatementError(s.origin + ": " + std::to_string(inputs.size()) + " inputs, " +
                         std::to_string(input_names.size()) + " names");
  std::vector<StatementTensor> tensors;
  for (const auto& n : input_names) {
    if (!s.tensors.count(n)) throw StatementError(s.origin + ": input '" + n + "' is not a tensor of the statement");
    tensors.push_back({n, {1}});
  }
  return check_statement(kernel, inputs, tensors, {s.output, {1}}, 0, format, s, options, name, grid);
}

KernelCheckResult check_statement(const SymbolicKernel& kernel, std::span<const InputBox> inputs,
                                  const std::vector<StatementTensor>& input_tensors, const StatementTensor& output,
                                  std::size_t element, const Format& format, const Statement& s,
                                  const KernelCheckOptions& options, const std::string& name, std::size_t grid) {
  Layout l{input_tensors, output, element, {}};
  validate(s, l, inputs.size(), format);
  l.index.assign(output.shape.size(), 0);
  for (std::size_t d = output.shape.size(), rest = element; d-- > 0; rest /= output.shape[d]) l.index[d] = rest % output.shape[d];
  const auto start = std::chrono::steady_clock::now();
  KernelCheckResult out;
  CheckResult& r = out.check;
  r.kind = "symbolic";
  r.kernel = r.operator_name = name;
  r.format = format_name(format);
  r.id = "statement/" + name + "/" + r.format + "/" + s.id;
  if (size_of(output.shape) > 1) {
    std::string at;
    for (std::size_t d : l.index) at += (at.empty() ? "" : ",") + std::to_string(d);
    r.id += "/" + output.name + "[" + at + "]";
  }
  r.semantics["error_part"] = to_string(error_part(s.kind));
  r.bound = BoundInfo{s.id + ": |" + to_string(s.kind) + "| <= " + s.bound_text,
                      s.bound_text + (s.where_text.empty() ? "" : " where " + s.where_text), s.source};
  r.requirements = s.requirements;
  r.strategies = {"statement-grid-proof"};
  r.seed = options.seed;
  const Proof p = prove(kernel, inputs, l, format, s, options, grid);
  if (!p.stopped_by.empty()) {
    std::string b;
    for (const auto& x : p.stopped_by) b += (b.empty() ? "" : ", ") + x;
    r.semantics["budget_stopped_by"] = b;
  }
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
    const WitnessSearchResult w = search(kernel, inputs, l, format, s, options);
    r.witnesses = w.witnesses;
    for (Witness& x : r.witnesses)  // the search sees one output: name the tensor's element
      if (x.message.rfind("element 0: ", 0) == 0 && size_of(output.shape) > 1)
        x.message = "element " + r.id.substr(r.id.rfind('/') + 1) + x.message.substr(9);
    r.evidence.inputs_checked = w.executions - w.undefined - w.inapplicable;
    r.evidence.undefined = w.undefined;
    r.evidence.failures = w.failures;
    r.evidence.max_abs_error = w.max_observed;
    r.evidence.worst = w.worst;
    m["observed_max"] = w.max_observed;
    m["observed_over_bound_max"] = w.max_ratio;
    m["search_executions"] = static_cast<double>(w.executions);
  }
  conclude(r, p, compiled, s);
  r.exhaustive = r.verdict == Verdict::Proven;
  r.duration_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

}  // namespace symerr::verify
