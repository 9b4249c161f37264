#include <symerr/verify/symbolic/symbolic_check.hpp>

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

std::string box_text(const InputBox& x) {
  std::ostringstream s;
  s.precision(17);
  s << "value [" << x.lo << ", " << x.hi << "] err [" << x.elo << ", " << x.ehi << "]";
  return s.str();
}

// A value of the format near v (nearest; integers: nearest integer).
double on_grid(double v, const Format& f) {
  if (const FloatFormat* F = std::get_if<FloatFormat>(&f)) return round_to(v, *F, RoundingMode::NearestEven).value;
  if (std::holds_alternative<IntFormat>(f)) return std::nearbyint(v);
  return v;
}

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

Value value_of(double v, const Format& f) {
  Value x;
  x.value = v;
  std::ostringstream s;
  s.precision(17);
  s << v;
  x.exact = std::isfinite(v) ? exact_value(v).get_str() : s.str();
  if (const FloatFormat* F = std::get_if<FloatFormat>(&f); F && (*F == FP16 || *F == BF16) &&
                                                            (std::isnan(v) || is_representable(v, *F))) {
    char b[16];
    std::snprintf(b, sizeof b, "0x%04x", *F == FP16 ? encode_fp16(v) : encode_bf16(v));
    x.bits = b;
  }
  return x;
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

}  // namespace

CheckResult symbolic_check(OpId op, const Format& format, const InputBox& a, const InputBox& b,
                           const SpecBound& bound, const SymbolicCheckOptions& options) {
  const auto start = std::chrono::steady_clock::now();
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
  r.strategies = {"symbolic-bisection", "sampling"};
  r.seed = options.seed;

  std::mt19937_64 rng(options.seed);
  const FloatFormat* F = std::get_if<FloatFormat>(&format);
  std::deque<Cell> queue{{a, b}};
  std::size_t cells = 0, proven = 0, vacuous = 0;
  bool special_possible = false;
  Evidence& ev = r.evidence;

  auto try_point = [&](const ExactPoint& p) {
    if (!p.real_defined || !p.computed_finite) {
      ++ev.undefined;
      return;
    }
    if (!bound.valid_at(p)) return;
    ++ev.inputs_checked;
    const ClassMask cls = classify(p);
    for (InputClass c : kInputClasses)
      if (has_class(cls, c)) ++ev[c].checked;
    const mpq_class e = part_of(p, bound.part);
    const mpq_class ae = sgn(e) < 0 ? mpq_class(-e) : e;
    const mpq_class bv = bound.exact(p);
    const double abs_err = ae.get_d();
    double ulp_err = 0;
    if (F) ulp_err = mpq_class(ae / exact_ulp(p.cr, *F)).get_d();
    ev.max_abs_error = std::max(ev.max_abs_error, abs_err);
    if (sgn(p.cr) != 0) ev.max_rel_error = std::max(ev.max_rel_error, mpq_class(ae / (sgn(p.cr) < 0 ? mpq_class(-p.cr) : p.cr)).get_d());
    ev.max_ulp_error = std::max(ev.max_ulp_error, ulp_err);
    ev.histogram.add(ulp_err);
    const bool violated = bound.strict ? ae >= bv : ae > bv;
    if (!violated) return;
    ++ev.failures;
    for (InputClass c : kInputClasses)
      if (has_class(cls, c)) ++ev[c].failed;
    if (r.witnesses.size() >= options.max_witnesses) return;
    Witness w;
    w.inputs = {value_of(p.fa, format), value_of(p.fb, format)};
    w.inputs[0].exact = "real " + p.ar.get_str() + ", err " + p.ae.get_str();
    w.inputs[1].exact = "real " + p.br.get_str() + ", err " + p.be.get_str();
    w.output = value_of(p.fc, format);
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
    msg << "|" << to_string(bound.part) << "| = " << ae.get_d() << " exceeds the bound " << bv.get_d()
        << " (exact: " << ae.get_str() << " vs " << bv.get_str() << ")";
    w.message = msg.str();
    r.witnesses.push_back(std::move(w));
  };

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
      const SymbolicError c = arithmetic(arith_of(op), *x, *y, options.int_division);
      if (c.specials.may_be_nan || c.specials.may_be_pos_inf || c.specials.may_be_neg_inf || c.specials.may_be_undefined)
        special_possible = true;
      const Interval& field = bound.part == ErrorPart::Total ? c.err
                              : bound.part == ErrorPart::Propagated ? c.propagated : c.introduced;
      const double sup = mag(field);
      const double inf_bound = bound.enclose(*x, *y, c).lower();
      const bool holds = !c.specials.may_be_finite || (bound.strict ? sup < inf_bound : sup <= inf_bound);
      decided = valid == Tri::True && holds;
      if (!decided && F && bound.part == ErrorPart::Introduced && bound.enclose_t && valid != Tri::False) {
        const Interval t = arith_of(op) == ArithOp::Div ? x->fp / y->fp
                         : arith_of(op) == ArithOp::Mul ? x->fp * y->fp
                         : arith_of(op) == ArithOp::Add ? x->fp + y->fp : x->fp - y->fp;
        decided = decided_in_t(op, t, *F, bound);
      }
    } catch (const std::exception&) {
      decided = false;
    }
    if (decided) {
      ++proven;
      continue;
    }
    // look for a counterexample in the box
    for (int s = 0; s < options.samples_per_cell; ++s) {
      const auto pa = sample(cell.a, x->fp.lower(), x->fp.upper(), format, rng);
      const auto pb = sample(cell.b, y->fp.lower(), y->fp.upper(), format, rng);
      if (!pa || !pb) continue;
      try_point(evaluate_point(op, format, options.int_division, pa->first, pa->second, pb->first, pb->second));
    }
    // split the widest dimension (relative to the original box)
    auto rel = [](double lo, double hi, double olo, double ohi) {
      return ohi > olo ? (hi - lo) / (ohi - olo) : 0.0;
    };
    const double w[4] = {rel(cell.a.lo, cell.a.hi, a.lo, a.hi), rel(cell.a.elo, cell.a.ehi, a.elo, a.ehi),
                         rel(cell.b.lo, cell.b.hi, b.lo, b.hi), rel(cell.b.elo, cell.b.ehi, b.elo, b.ehi)};
    const int d = static_cast<int>(std::max_element(w, w + 4) - w);
    if (w[d] <= 0) continue;  // a point box that stays undecided
    Cell c1 = cell, c2 = cell;
    auto halve = [](double& lo1, double& hi1, double& lo2, double& hi2) {
      const double mid = lo1 + (hi1 - lo1) / 2;
      hi1 = mid;
      lo2 = mid;
      (void)hi2;
    };
    switch (d) {
      case 0: halve(c1.a.lo, c1.a.hi, c2.a.lo, c2.a.hi); break;
      case 1: halve(c1.a.elo, c1.a.ehi, c2.a.elo, c2.a.ehi); break;
      case 2: halve(c1.b.lo, c1.b.hi, c2.b.lo, c2.b.hi); break;
      default: halve(c1.b.elo, c1.b.ehi, c2.b.elo, c2.b.ehi); break;
    }
    queue.push_back(c1);
    queue.push_back(c2);
  }

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
  }
  if (special_possible)
    reason << ". Some inputs give ±inf, NaN or an undefined real result: the bound speaks of finite results only";
  r.reason = reason.str();
  r.exhaustive = r.verdict == Verdict::Proven;
  r.duration_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

}  // namespace symerr::verify
