#include <symerr/verify/symbolic/symbolic_check.hpp>

#include <symerr/verify/symbolic/driver.hpp>

#include "check_support.hpp"

#include <chrono>
#include <cmath>
#include <deque>
#include <random>
#include <stdexcept>
#include <sstream>

namespace symerr::verify {

namespace {

ArithOp arith_of(OpId op) {
  switch (op) {
    case OpId::Add: return ArithOp::Add;
    case OpId::Sub: return ArithOp::Sub;
    case OpId::Mul: return ArithOp::Mul;
    case OpId::Div: return ArithOp::Div;
    default: throw std::invalid_argument("symbolic_check: " + std::string(to_string(op)) + " is not binary arithmetic");
  }
}

struct Cell {
  InputBox a, b;
};



// A concrete execution inside a box: f a value of the format in the box's
// computed range and r exact with r ∈ [lo, hi], f − r ∈ [elo, ehi].
std::optional<std::pair<mpq_class, double>> sample(const InputBox& x, double flo, double fhi, const Format& f,
                                                   std::mt19937_64& rng) {
  std::uniform_real_distribution<double> unit(0, 1);
  const int k = static_cast<int>(rng() % 6);
  double v = k == 0 ? flo : k == 1 ? fhi : flo + (fhi - flo) * unit(rng);
  v = std::min(std::max(on_grid(v, f), flo), fhi);
  if (!std::isfinite(v)) return std::nullopt;
  const mpq_class fq = exact_value(v);
  mpq_class L = exact_value(x.lo), H = exact_value(x.hi);
  const mpq_class l2 = fq - exact_value(x.ehi), h2 = fq - exact_value(x.elo);
  if (l2 > L) L = l2;
  if (h2 < H) H = h2;
  if (L > H) return std::nullopt;
  const int j = static_cast<int>(rng() % 4);
  mpq_class r = j == 0 ? L : j == 1 ? H : mpq_class(L + (H - L) * mpq_class(static_cast<long>(rng() % (1u << 20)), 1u << 20));
  r.canonicalize();
  return std::make_pair(r, v);
}

mpq_class part_of(const ExactPoint& p, ErrorPart part) {
  switch (part) {
    case ErrorPart::Total: return p.err();
    case ErrorPart::Propagated: return p.propagated();
    case ErrorPart::Introduced: return p.introduced();
  }
  return 0;
}


ClassMask classify(const ExactPoint& p) {
  ClassMask m = 0;
  for (double v : {p.fa, p.fb}) {
    if (v == 0) m |= mask_of(InputClass::Zero);
    else if (const FloatFormat* F = std::get_if<FloatFormat>(&p.format); F && std::fabs(v) < F->min_normal())
      m |= mask_of(InputClass::Subnormal);
    else m |= mask_of(InputClass::Normal);
  }
  if (p.overflow) m |= mask_of(InputClass::Overflow);
  if (p.op == OpId::Div) {
    const FloatFormat* F = std::get_if<FloatFormat>(&p.format);
    if (p.fb == 0 || (F && std::fabs(p.fb) < F->min_normal())) m |= mask_of(InputClass::NearZeroDivisor);
  }
  return m;
}

// The pieces of T between consecutive powers of two (and the subnormal range
// around 0), at most `limit`; nullopt if there would be more.
std::optional<std::vector<Interval>> binade_pieces(const Interval& t, const FloatFormat& F, std::size_t limit) {
  std::vector<Interval> out;
  if (!is_bounded(t)) return std::nullopt;
  const double mn = F.min_normal();
  auto positive = [&](double lo, double hi, bool negate) {
    // pieces of [lo, hi] ⊂ [0, inf), mirrored when negate
    if (lo < mn) {
      const double top = std::min(hi, mn);
      out.push_back(negate ? Interval::between(-top, -lo) : Interval::between(lo, top));
      lo = top;
    }
    while (lo < hi && out.size() <= limit) {
      int e = 0;
      std::frexp(lo, &e);
      const double next = std::min(std::ldexp(1.0, e), hi);  // the power of two above lo
      out.push_back(negate ? Interval::between(-next, -lo) : Interval::between(lo, next));
      lo = next;
    }
  };
  if (t.upper() > 0) positive(std::max(t.lower(), 0.0), t.upper(), false);
  if (t.lower() < 0) positive(std::max(-t.upper(), 0.0), -t.lower(), true);
  if (t.lower() == 0 && t.upper() == 0) out.push_back(t);
  if (out.size() > limit) return std::nullopt;
  return out;
}

// Decide an introduction bound that depends on t only, binade by binade.
bool decided_in_t(OpId op, const Interval& t, const FloatFormat& F, const SpecBound& bound) {
  const auto pieces = binade_pieces(t, F, 2200);  // FP64 has 2046 binades
  if (!pieces) return false;
  for (const Interval& piece : *pieces) {
    // A sum or difference of two values of F below 2^(emin+1) is a multiple of
    // the subnormal spacing with at most p bits: exact (Hauser 1996).
    if ((op == OpId::Add || op == OpId::Sub) && mag(piece) <= 2 * F.min_normal()) continue;
    const Tri valid = bound.valid_t ? bound.valid_t(piece, F) : Tri::True;
    if (valid == Tri::False) continue;
    // The subnormal piece [0, min normal] meets a "normal result" condition
    // only at ±min normal, a value of F, where the rounding is exact.
    if (valid == Tri::Unknown && mag(piece) <= F.min_normal()) continue;
    // Otherwise an undecided condition is dropped: proving the bound on the
    // whole piece proves it on its valid part.
    const SymbolicError exact = SymbolicError::input(piece.lower(), piece.upper(), Format{});
    const SymbolicError c = convert(exact, Format{F});
    if (!c.specials.may_be_finite) continue;  // every t here overflows: no finite result
    const double sup = mag(c.introduced);
    const double inf_bound = bound.enclose_t(piece, c.fp, F).lower();
    if (!(bound.strict ? sup < inf_bound : sup <= inf_bound)) return false;
  }
  return true;
}


// ---- the operator check, cell by cell ---------------------------------------

CheckResult result_header(OpId op, const Format& format, const InputBox& a, const InputBox& b,
                          const SpecBound& bound, const SymbolicCheckOptions& options) {
  CheckResult r;
  r.kind = "symbolic";
  r.kernel = "symerr generic " + std::string(to_string(op));
  r.operator_name = to_string(op);
  r.format = format_name(format);
  r.id = "symbolic/" + r.operator_name + "/" + r.format + "/" + bound.id;
  r.semantics["rounding"] = "RNE";
  if (std::holds_alternative<IntFormat>(format) && op == OpId::Div)
    r.semantics["integer_division"] = std::string(to_string(options.int_division));
  r.semantics["error_part"] = to_string(bound.part);
  r.semantics["domain"] = "A: " + box_text(a) + "; B: " + box_text(b);
  r.bound = BoundInfo{bound.name, bound.formula, bound.source};
  r.requirements = bound.requirements;
  r.strategies = {"symbolic-bisection", "kernel-driver", "sampling"};
  r.seed = options.seed;
  return r;
}

// Records one exact execution in the evidence, and a witness if it violates.
class PointJudge {
 public:
  PointJudge(CheckResult& r, const SpecBound& bound, const Format& format, std::size_t max_witnesses)
      : r_(r), bound_(bound), format_(format), max_witnesses_(max_witnesses),
        F_(std::get_if<FloatFormat>(&format)) {}

  void operator()(const ExactPoint& p) {
    Evidence& ev = r_.evidence;
    if (!p.real_defined || !p.computed_finite) {
      ++ev.undefined;
      return;
    }
    if (!bound_.valid_at(p)) return;
    ++ev.inputs_checked;
    const ClassMask cls = classify(p);
    for (InputClass c : kInputClasses)
      if (has_class(cls, c)) ++ev[c].checked;
    const mpq_class e = part_of(p, bound_.part);
    const mpq_class ae = sgn(e) < 0 ? mpq_class(-e) : e;
    const mpq_class bv = bound_.exact(p);
    const double abs_err = ae.get_d();
    const double ulp_err = F_ ? mpq_class(ae / exact_ulp(p.cr, *F_)).get_d() : 0.0;
    ev.max_abs_error = std::max(ev.max_abs_error, abs_err);
    if (sgn(p.cr) != 0)
      ev.max_rel_error = std::max(ev.max_rel_error, mpq_class(ae / (sgn(p.cr) < 0 ? mpq_class(-p.cr) : p.cr)).get_d());
    ev.max_ulp_error = std::max(ev.max_ulp_error, ulp_err);
    ev.histogram.add(ulp_err);
    if (sgn(bv) > 0) {  // the largest observed error relative to the bound at its input
      double& ratio = ev.metrics["observed_over_bound_max"];
      ratio = std::max(ratio, mpq_class(ae / bv).get_d());
    }
    if (!(bound_.strict ? ae >= bv : ae > bv)) return;
    ++ev.failures;
    for (InputClass c : kInputClasses)
      if (has_class(cls, c)) ++ev[c].failed;
    if (r_.witnesses.size() < max_witnesses_) r_.witnesses.push_back(witness(p, cls, ae, bv, abs_err, ulp_err));
  }

 private:
  Witness witness(const ExactPoint& p, ClassMask cls, const mpq_class& ae, const mpq_class& bv, double abs_err,
                  double ulp_err) const {
    Witness w;
    w.inputs = {value_of(p.fa, format_), value_of(p.fb, format_)};
    w.inputs[0].exact = "real " + p.ar.get_str() + ", err " + p.ae.get_str();
    w.inputs[1].exact = "real " + p.br.get_str() + ", err " + p.be.get_str();
    w.output = value_of(p.fc, format_);
    w.output.exact = p.fcq.get_str();
    w.reference = w.output;
    w.exact_result = p.cr.get_str();
    w.abs_error = abs_err;
    w.rel_error = sgn(p.cr) ? mpq_class(ae / p.cr).get_d() : INFINITY;
    w.ulp_error = ulp_err;
    w.bound = bv.get_d();
    w.classes = cls;
    std::ostringstream msg;
    msg.precision(6);
    msg << "|" << to_string(bound_.part) << "| = " << ae.get_d() << " exceeds the bound " << bv.get_d()
        << " (exact: " << ae.get_str() << " vs " << bv.get_str() << ")";
    w.message = msg.str();
    return w;
  }

  CheckResult& r_;
  const SpecBound& bound_;
  Format format_;
  std::size_t max_witnesses_;
  const FloatFormat* F_;
};


// Whether the bound certainly holds on the cell x op y: the operation runs
// through the kernel driver (one box); an introduction bound that depends on
// the exact result t only is also decided binade by binade.
bool cell_decided(OpId op, const SymbolicError& x, const SymbolicError& y, Tri valid, const SpecBound& bound,
                  const SymbolicCheckOptions& options, bool& special_possible) {
  const SymbolicError in[2] = {x, y};
  const auto run = run_kernel(
      [op, &options](std::span<SymbolicError> v, std::span<SymbolicError> out) {
        out[0] = arithmetic(arith_of(op), v[0], v[1], options.int_division);
      },
      in, 1);
  const SymbolicError& c = run.outputs[0];
  if (c.specials.may_be_nan || c.specials.may_be_pos_inf || c.specials.may_be_neg_inf || c.specials.may_be_undefined)
    special_possible = true;
  const double sup = mag(field_of(c, bound.part));
  const double inf_bound = bound.enclose(x, y, c).lower();
  const bool holds = !c.specials.may_be_finite || (bound.strict ? sup < inf_bound : sup <= inf_bound);
  if (valid == Tri::True && holds) return true;
  const FloatFormat* F = std::get_if<FloatFormat>(&x.format);
  if (!F || bound.part != ErrorPart::Introduced || !bound.enclose_t || valid == Tri::False) return false;
  const ArithOp a = arith_of(op);
  const Interval t = a == ArithOp::Div ? x.fp / y.fp : a == ArithOp::Mul ? x.fp * y.fp
                   : a == ArithOp::Add ? x.fp + y.fp : x.fp - y.fp;
  return decided_in_t(op, t, *F, bound);
}

// The two halves of the cell along its widest dimension (relative to the
// original box); empty for a point cell.
std::vector<Cell> split_cell(const Cell& cell, const Cell& whole) {
  auto rel = [](double lo, double hi, double olo, double ohi) { return ohi > olo ? (hi - lo) / (ohi - olo) : 0.0; };
  const double w[4] = {rel(cell.a.lo, cell.a.hi, whole.a.lo, whole.a.hi),
                       rel(cell.a.elo, cell.a.ehi, whole.a.elo, whole.a.ehi),
                       rel(cell.b.lo, cell.b.hi, whole.b.lo, whole.b.hi),
                       rel(cell.b.elo, cell.b.ehi, whole.b.elo, whole.b.ehi)};
  const int d = static_cast<int>(std::max_element(w, w + 4) - w);
  if (w[d] <= 0) return {};
  Cell low = cell, high = cell;  // low keeps [lo, mid], high takes [mid, hi]
  double* upper_of_low[4] = {&low.a.hi, &low.a.ehi, &low.b.hi, &low.b.ehi};
  double* lower_of_high[4] = {&high.a.lo, &high.a.elo, &high.b.lo, &high.b.elo};
  const double lo = *lower_of_high[d], hi = *upper_of_low[d];
  *upper_of_low[d] = *lower_of_high[d] = lo + (hi - lo) / 2;
  return {low, high};
}

void conclude(CheckResult& r, std::size_t cells, std::size_t proven, std::size_t vacuous,
              const std::deque<Cell>& queue, bool special_possible) {
  Evidence& ev = r.evidence;
  ev.metrics["boxes_examined"] = static_cast<double>(cells);
  ev.metrics["boxes_proven"] = static_cast<double>(proven);
  ev.metrics["boxes_vacuous"] = static_cast<double>(vacuous);
  ev.metrics["boxes_undecided"] = static_cast<double>(queue.size());
  std::ostringstream reason;
  if (!r.witnesses.empty()) {
    r.verdict = Verdict::Violated;
    reason << "counterexample found (exact arithmetic): " << r.witnesses.front().message;
  } else if (queue.empty()) {
    r.verdict = Verdict::Proven;
    reason << "proven on every box (" << cells << " examined, " << proven << " decided, " << vacuous
           << " outside the validity condition)";
  } else {
    r.verdict = Verdict::Inconclusive;
    reason << queue.size() << " boxes undecided after " << cells << " (budget); e.g. A: "
           << box_text(queue.front().a) << ", B: " << box_text(queue.front().b);
    if (ev.inputs_checked > 0)
      reason << "; the largest error observed in " << ev.inputs_checked << " exact executions is "
             << ev.max_abs_error << ", at most " << ev.metrics["observed_over_bound_max"]
             << " of the bound at its input";
  }
  if (special_possible)
    reason << ". Some inputs give ±inf, NaN or an undefined real result: the bound speaks of finite results only";
  r.reason = reason.str();
  r.exhaustive = r.verdict == Verdict::Proven;
}

}  // namespace

CheckResult symbolic_check(OpId op, const Format& format, const InputBox& a, const InputBox& b,
                           const SpecBound& bound, const SymbolicCheckOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  CheckResult r = result_header(op, format, a, b, bound, options);
  std::mt19937_64 rng(options.seed);
  const Cell whole{a, b};
  std::deque<Cell> queue{whole};
  std::size_t cells = 0, proven = 0, vacuous = 0;
  bool special_possible = false;
  PointJudge judge(r, bound, format, options.max_witnesses);
  while (!queue.empty() && cells < options.max_cells && r.witnesses.size() < options.max_witnesses) {
    const Cell cell = queue.front();
    queue.pop_front();
    ++cells;
    std::optional<SymbolicError> x, y;
    try {
      x = SymbolicError::input(cell.a.lo, cell.a.hi, cell.a.elo, cell.a.ehi, format).with_int_division(options.int_division);
      y = SymbolicError::input(cell.b.lo, cell.b.hi, cell.b.elo, cell.b.ehi, format).with_int_division(options.int_division);
    } catch (const std::invalid_argument&) {
      ++vacuous;  // no value of the format in this box
      continue;
    }
    const Tri valid = bound.valid_on(*x, *y);
    if (valid == Tri::False) {
      ++vacuous;
      continue;
    }
    bool decided = false;
    try {
      decided = cell_decided(op, *x, *y, valid, bound, options, special_possible);
    } catch (const std::exception&) {
      decided = false;
    }
    if (decided) {
      ++proven;
      continue;
    }
    for (int s = 0; s < options.samples_per_cell; ++s) {  // look for a counterexample in the box
      const auto pa = sample(cell.a, x->fp.lower(), x->fp.upper(), format, rng);
      const auto pb = sample(cell.b, y->fp.lower(), y->fp.upper(), format, rng);
      if (pa && pb)
        judge(evaluate_point(op, format, options.int_division, pa->first, pa->second, pb->first, pb->second));
    }
    for (const Cell& half : split_cell(cell, whole)) queue.push_back(half);
  }
  conclude(r, cells, proven, vacuous, queue, special_possible);
  r.duration_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

}  // namespace symerr::verify
