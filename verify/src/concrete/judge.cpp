// Judging outputs against the reference and building evidence and witnesses.
#include "judge.hpp"

#include <charconv>
#include <cstdio>
#include <stdexcept>

namespace symerr::verify::detail {

// ---- text -------------------------------------------------------------------------

namespace {
std::string trim_fraction(std::string s) {
  if (s.find('.') == std::string::npos) return s;
  while (!s.empty() && s.back() == '0') s.pop_back();
  if (!s.empty() && s.back() == '.') s.pop_back();
  return s;
}
}  // namespace

std::string exact_decimal(const mpq_class& q) {
  if (sgn(q) == 0) return "0";
  const mpz_class& den = q.get_den();
  if (mpz_popcount(den.get_mpz_t()) != 1) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.17g", q.get_d());
    return q.get_str() + " ~ " + buf;
  }
  const unsigned long k = mpz_sizeinbase(den.get_mpz_t(), 2) - 1;  // den = 2^k
  mpz_class five;
  mpz_ui_pow_ui(five.get_mpz_t(), 5, k);
  const mpz_class digits_z = abs(q.get_num()) * five;  // |q| = digits * 10^-k
  const std::string d = digits_z.get_str();
  const long point = static_cast<long>(d.size()) - static_cast<long>(k);  // digits before the point
  std::string s;
  if (point > 21 || point < -5) {  // scientific: d[0].d[1..] e(point-1)
    s = trim_fraction(d.substr(0, 1) + "." + d.substr(1));
    s += "e" + std::to_string(point - 1);
  } else if (point <= 0) {
    s = trim_fraction("0." + std::string(static_cast<std::size_t>(-point), '0') + d);
  } else if (static_cast<std::size_t>(point) >= d.size()) {
    s = d + std::string(static_cast<std::size_t>(point) - d.size(), '0');
  } else {
    s = trim_fraction(d.substr(0, static_cast<std::size_t>(point)) + "." +
                      d.substr(static_cast<std::size_t>(point)));
  }
  return (sgn(q) < 0 ? "-" : "") + s;
}

std::string exact_decimal(double x) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  if (x == 0) return std::signbit(x) ? "-0" : "0";
  return exact_decimal(exact_value(x));
}

std::string short_text(double x) {
  if (std::isnan(x)) return "NaN";
  if (std::isinf(x)) return x > 0 ? "+inf" : "-inf";
  if (x == 0) return std::signbit(x) ? "-0" : "+0";
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, x);
  return std::string(buf, r.ptr);
}

std::string int_text(__int128 v) {
  if (v == 0) return "0";
  const bool neg = v < 0;
  auto u = neg ? -static_cast<unsigned __int128>(v) : static_cast<unsigned __int128>(v);
  std::string s;
  while (u != 0) {
    s.insert(s.begin(), static_cast<char>('0' + static_cast<int>(u % 10)));
    u /= 10;
  }
  return neg ? "-" + s : s;
}

Value storage_value(ElementType t, std::uint64_t bits) {
  if (is_float(t)) {
    const double x = decode_float(t, bits);
    return Value{x, exact_decimal(x), bits_text(t, bits)};
  }
  const __int128 x = decode_int(t, bits);
  return Value{static_cast<double>(x), int_text(x), bits_text(t, bits)};
}

// ---- evidence helpers ---------------------------------------------------------------

void scatter_add(ScatterSample& s, ScatterPoint p) {
  auto it = std::lower_bound(s.points.begin(), s.points.end(), p.key,
                             [](const ScatterPoint& x, std::uint64_t k) { return x.key < k; });
  if (it != s.points.end() && it->key == p.key) return;  // the same input seen again
  s.points.insert(it, std::move(p));
  if (s.points.size() > s.capacity) s.points.pop_back();
}

void count_classes(Evidence& ev, ClassMask m, bool failed) {
  for (std::size_t i = 0; i < kInputClassCount; ++i)
    if (has_class(m, kInputClasses[i])) {
      ++ev.classes[i].checked;
      if (failed) ++ev.classes[i].failed;
    }
}

namespace {
void count_failed(Evidence& ev, ClassMask m) {
  for (std::size_t i = 0; i < kInputClassCount; ++i)
    if (has_class(m, kInputClasses[i])) ++ev.classes[i].failed;
}

// One judged input: with count_inputs, the input and its classes are counted
// here; else the caller counts them (the exhaustive sweep, per row) and only
// the Overflow class (it depends on the result) and the failure are.
void count_outcome(Evidence& ev, ClassMask m, bool fail, bool overflow, bool count_inputs) {
  if (count_inputs) {
    ++ev.inputs_checked;
    count_classes(ev, m, fail);
  } else {
    if (overflow) ++ev[InputClass::Overflow].checked;
    if (fail) count_failed(ev, m);
  }
}

std::string call_text(OpId op, const std::string& a, const std::string& b) {
  return std::string(to_string(op)) + "(" + a + ", " + b + ")";
}
}  // namespace

// ---- float judge ------------------------------------------------------------------------

FloatJudge::FloatJudge(ElementType t, OpId o, const FloatFormat& F, const CheckOptions& opt)
    : JudgeState(opt.max_witnesses), type(t), op(o), format(F), property(&opt.property),
      strict(opt.strict_special_values) {}

ClassMask FloatJudge::classes(double a, double b, const FloatReference& ref) const noexcept {
  ClassMask m = mask_of(operand_class(a, format)) | mask_of(operand_class(b, format));
  if (ref.overflow) m |= mask_of(InputClass::Overflow);
  if (op == OpId::Div && std::fabs(b) < format.min_normal()) m |= mask_of(InputClass::NearZeroDivisor);
  return m;
}

bool FloatJudge::bound_holds(double a, double b, double out, const FloatReference& ref,
                             double err_d) const {
  if (!std::isfinite(out)) return false;
  const BoundContext ctx{op, format, a, b, ref.exact, ref.value, out};
  const double bound = property->bound(ctx);
  const bool exact = static_cast<bool>(property->exact_bound);
  if (!exact && std::isnan(bound)) return false;
  if (!exact && bound == INFINITY) return true;
  if (std::isfinite(bound)) {
    // err_d is within 2^-52 |exact| + 2^-53 err_d of the exact error, and an
    // approximate bound within 2^-49 bound + 2^-1060 of the exact one; decide
    // with a wider margin, and exactly inside it.
    const double delta = 0x1p-50 * (std::fabs(ref.exact) + err_d) + (exact ? 0x1p-48 * bound : 0) + 0x1p-1059;
    if (err_d + delta <= bound) return true;
    if (err_d - delta > bound) return false;
  }
  const mpq_class r = exact_result(op, a, b);
  const mpq_class e = abs(exact_value(out) - r);
  return exact ? e <= property->exact_bound(ctx, r) : e <= exact_value(bound);
}

bool FloatJudge::judge(double a, double b, double out, const FloatReference& ref, bool count_inputs) {
  const ClassMask m = classes(a, b, ref);
  const bool same = same_result(out, ref.value);
  const bool exact_zero = ref.finite_exact && ref.exact == 0;
  const bool special = !ref.finite_exact || ref.overflow || ref.value == 0;
  bool fail = false;
  double err_d = 0;
  const bool stats = ref.finite_exact && !ref.overflow;
  if (stats) err_d = std::isfinite(out) ? std::fabs(out - ref.exact) : INFINITY;
  // FP64: ref.exact is the exact result rounded to binary64, i.e. often the
  // output itself; measure |out - exact| exactly (GMP) instead.
  double ulp_err = 0;
  if (stats && format.precision >= 53 && std::isfinite(out)) {
    const mpq_class e = abs(exact_value(out) - exact_result(op, a, b));
    err_d = round_to(e, FP64, RoundingMode::Upward).value;
    const double u = ulp(ref.exact, format);
    ulp_err = round_to(mpq_class(e / exact_value(u)), FP64, RoundingMode::Upward).value;
  } else if (stats) {
    ulp_err = err_d / ulp(ref.exact, format);
  }
  if (property->kind == Property::Kind::CorrectRounding) {
    fail = !same;
  } else if (!ref.finite_exact) {
    fail = strict && !same;
  } else if (ref.overflow) {
    fail = !same;
  } else if (exact_zero) {
    fail = strict ? !same : out != 0;
  } else {
    fail = !bound_holds(a, b, out, ref, err_d);
  }
  count_outcome(evidence, m, fail, ref.overflow, count_inputs);
  if (special) {
    ++evidence.special.checked;
    if (same) ++evidence.special.matched;
  }
  if (stats) record_error(a, b, out, err_d, ref.exact, ulp_err);
  if (fail) {
    ++evidence.failures;
    if (special && !same) ++evidence.wrong_special;
    note_flush_consistency(a, b, out);
    failing.add({a, b, out, m});
  }
  return !fail;
}


// Would the kernel's output be right in flush-to-zero / denormals-are-zero
// arithmetic? Counted per failure (metrics "failures_matching_ftz",
// "_daz", "_ftz_daz"): the FP state the kernel really computed in.
void FloatJudge::note_flush_consistency(double a, double b, double out) {
  const double mn = format.min_normal();
  auto daz = [mn](double x) { return std::fabs(x) < mn && x != 0 ? std::copysign(0.0, x) : x; };
  auto ftz = [mn](double x) { return std::isfinite(x) && std::fabs(x) < mn && x != 0 ? std::copysign(0.0, x) : x; };
  const OracleKind exact = OracleKind::Exact;
  const double plain = float_reference(exact, op, a, b, format).value;
  const double with_daz = float_reference(exact, op, daz(a), daz(b), format).value;
  if (same_result(out, ftz(plain))) evidence.metrics["failures_matching_ftz"] += 1;
  if (same_result(out, with_daz)) evidence.metrics["failures_matching_daz"] += 1;
  if (same_result(out, ftz(with_daz))) evidence.metrics["failures_matching_ftz_daz"] += 1;
}

void FloatJudge::record_error(double a, double b, double out, double abs_err, double exact,
                              double ulp_err) {
  Evidence& ev = evidence;
  ev.max_abs_error = std::max(ev.max_abs_error, abs_err);
  const double rel = exact != 0 ? abs_err / std::fabs(exact) : (abs_err == 0 ? 0.0 : INFINITY);
  ev.max_rel_error = std::max(ev.max_rel_error, rel);
  note_worst(a, b, out, ulp_err, ev.max_ulp_error);
  ev.max_ulp_error = std::max(ev.max_ulp_error, ulp_err);
  ev.histogram.add(ulp_err);
  const std::uint64_t key = pair_key(std::bit_cast<std::uint64_t>(a), std::bit_cast<std::uint64_t>(b));
  if (scatter_wants(ev.scatter, key))
    scatter_add(ev.scatter, ScatterPoint{{a, b}, std::fabs(exact), ulp_err, key});
}

namespace {
Value float_value(ElementType t, double x) {
  return Value{x, exact_decimal(x), bits_text(t, encode_float(t, x))};
}
// A bound that is not a double: "2^-1075" for a power of two, else its
// upward rounding marked as such.
std::string power_or_rounded_up(const mpq_class& B, double up) {
  const mpz_class& n = B.get_num();
  const mpz_class& d = B.get_den();
  if (n == 1 && mpz_popcount(d.get_mpz_t()) == 1)
    return "2^-" + std::to_string(mpz_sizeinbase(d.get_mpz_t(), 2) - 1) + " (exact)";
  return short_text(up) + " (rounded up from the exact bound)";
}
}  // namespace

Witness FloatJudge::make_witness(double a, double b, double out, ClassMask cls) const {
  Witness w;
  w.inputs = {float_value(type, a), float_value(type, b)};
  w.output = float_value(type, out);
  const FloatReference ref = float_reference(OracleKind::Exact, op, a, b, format);
  w.reference = float_value(type, ref.value);
  w.classes = cls;
  const std::string call = call_text(op, short_text(a), short_text(b));
  const std::string fmt(format.name);
  const bool same = same_result(out, ref.value);
  if (!ref.finite_exact) {
    w.exact_result = exact_decimal(ref.value) + " (IEEE 754 special case)";
    w.abs_error = w.rel_error = w.ulp_error = same ? 0.0 : INFINITY;
    w.message = call + " returned " + short_text(out) + "; IEEE 754 gives " + short_text(ref.value);
    return w;
  }
  const mpq_class q = exact_result(op, a, b);
  w.exact_result = exact_decimal(q);
  if (ref.overflow) {
    w.abs_error = w.rel_error = w.ulp_error = std::isinf(out) && same ? 0.0 : INFINITY;
    w.message = call + " returned " + short_text(out) + "; the exact result " + w.exact_result +
                " overflows " + fmt + " and IEEE 754 (RNE) gives " + short_text(ref.value);
    return w;
  }
  if (std::isfinite(out)) {
    const mpq_class e = abs(exact_value(out) - q);
    w.abs_error = round_to(e, FP64, RoundingMode::Upward).value;
    const double u = ulp(round_to(q, FP64, RoundingMode::TowardZero).value, format);
    w.ulp_error = round_to(mpq_class(e / exact_value(u)), FP64, RoundingMode::Upward).value;
    w.rel_error = sgn(q) != 0 ? round_to(mpq_class(e / abs(q)), FP64, RoundingMode::Upward).value
                              : (sgn(e) == 0 ? 0.0 : INFINITY);
  } else {
    w.abs_error = w.rel_error = w.ulp_error = INFINITY;
  }
  char err[64];
  std::snprintf(err, sizeof err, "%.4g", w.ulp_error);
  if (property->kind == Property::Kind::Bound) {
    const BoundContext ctx{op, format, a, b, ref.exact, ref.value, out};
    std::string bound_text;
    if (property->exact_bound) {
      const mpq_class B = property->exact_bound(ctx, q);
      const Rounded up = round_to(B, FP64, RoundingMode::Upward);
      w.bound = up.value;  // never below the bound
      bound_text = up.ternary == Ternary::Exact ? short_text(up.value) : power_or_rounded_up(B, up.value);
    } else {
      w.bound = property->bound(ctx);
      bound_text = short_text(*w.bound);
    }
    if (sgn(q) == 0 && std::isfinite(out) && out == 0 && !same)
      w.message = call + " returned " + short_text(out) + "; the exact result is 0 and IEEE 754 gives " +
                  short_text(ref.value);
    else
      w.message = call + " returned " + short_text(out) + "; |error| = " + short_text(w.abs_error) +
                  " (" + err + " ulp) against the exact " + w.exact_result + ", bound " +
                  property->info.name + " = " + bound_text;
  } else {
    w.message = call + " returned " + short_text(out) + "; the correctly rounded " + fmt +
                " result is " + short_text(ref.value) + " (exact " + w.exact_result + ", error " +
                err + " ulp)";
  }
  return w;
}

void FloatJudge::finish_worst() {
  if (!has_worst) return;
  const ClassMask m = classes(worst_a, worst_b, float_reference(OracleKind::Exact, op, worst_a, worst_b, format));
  evidence.worst = make_witness(worst_a, worst_b, worst_out, m);
}

// ---- integer judge ----------------------------------------------------------------------

IntJudge::IntJudge(ElementType t, OpId o, const IntFormat& I, const CheckOptions& opt)
    : JudgeState(opt.max_witnesses), type(t), op(o), format(I), division(opt.integer_division) {}

namespace {
ClassMask int_classes(OpId op, __int128 a, __int128 b, const IntReference& ref) {
  ClassMask m = mask_of(operand_class(a)) | mask_of(operand_class(b));
  if (ref.overflow) m |= mask_of(InputClass::Overflow);
  if (op == OpId::Div && b == 0) m |= mask_of(InputClass::NearZeroDivisor);
  return m;
}
double int_abs(__int128 x) { return static_cast<double>(x < 0 ? -x : x); }
}  // namespace

bool IntJudge::judge(__int128 a, __int128 b, __int128 out, const IntReference& ref, bool count_inputs) {
  const ClassMask m = int_classes(op, a, b, ref);
  const bool fail = ref.value.has_value() && out != *ref.value;
  count_outcome(evidence, m, fail, ref.overflow, count_inputs);
  if (!ref.value) {  // undefined (x / 0): run, not judged
    ++evidence.undefined;
    return true;
  }
  if (ref.overflow) {
    ++evidence.special.checked;
    if (!fail) ++evidence.special.matched;
  }
  // |out - ref| as an exact integer (both within 64 bits) in units of 1
  const __int128 diff = out - *ref.value;
  const double err = int_abs(diff);
  Evidence& ev = evidence;
  ev.max_abs_error = std::max(ev.max_abs_error, err);
  const double rel = *ref.value != 0 ? err / int_abs(*ref.value) : (err == 0 ? 0.0 : INFINITY);
  ev.max_rel_error = std::max(ev.max_rel_error, rel);
  note_worst(a, b, out, err, ev.max_ulp_error);
  ev.max_ulp_error = std::max(ev.max_ulp_error, err);
  ev.histogram.add(err);
  const std::uint64_t key = pair_key(static_cast<std::uint64_t>(a), static_cast<std::uint64_t>(b));
  if (scatter_wants(ev.scatter, key))
    scatter_add(ev.scatter, ScatterPoint{{static_cast<double>(a), static_cast<double>(b)},
                                         int_abs(*ref.value), err, key});
  if (fail) {
    ++ev.failures;
    failing.add({a, b, out, m});
  }
  return !fail;
}

Witness IntJudge::make_witness(__int128 a, __int128 b, __int128 out, ClassMask cls) const {
  auto value = [&](__int128 x) {
    return Value{static_cast<double>(x), int_text(x), bits_text(type, encode_int(type, x))};
  };
  Witness w;
  w.inputs = {value(a), value(b)};
  w.output = value(out);
  w.classes = cls;
  const IntReference ref = int_reference(op, a, b, format, division);
  const std::string call = call_text(op, int_text(a), int_text(b));
  if (!ref.value) {
    w.reference = Value{NAN, "undefined", ""};
    w.exact_result = "undefined";
    w.message = call + " returned " + int_text(out) + "; the result is undefined (division by zero)";
    return w;
  }
  w.reference = value(*ref.value);
  mpz_class za(int_text(a)), zb(int_text(b));
  std::string exact;
  switch (op) {
    case OpId::Add: exact = mpz_class(za + zb).get_str(); break;
    case OpId::Sub: exact = mpz_class(za - zb).get_str(); break;
    case OpId::Mul: exact = mpz_class(za * zb).get_str(); break;
    case OpId::Div: {
      mpq_class q(za, zb);
      q.canonicalize();
      exact = exact_decimal(q);
      break;
    }
    default: break;  // int_reference rejects the other operators
  }
  w.exact_result = exact;
  const double err = int_abs(out - *ref.value);
  w.abs_error = w.ulp_error = err;
  w.rel_error = *ref.value != 0 ? err / int_abs(*ref.value) : (err == 0 ? 0.0 : INFINITY);
  std::string rule;
  if (op == OpId::Div)
    rule = std::string(division == IntegerDivision::Floor ? "floor" : "truncating") +
           " division of the exact quotient " + exact + " gives " + int_text(*ref.value);
  else
    rule = "the exact result " + exact +
           (ref.overflow ? " wraps modulo 2^" + std::to_string(format.bits) + " to "
                         : " is ") + int_text(*ref.value);
  if (op == OpId::Div && ref.overflow)
    rule += " (wrapped modulo 2^" + std::to_string(format.bits) + ")";
  w.message = call + " returned " + int_text(out) + "; " + rule;
  return w;
}

void IntJudge::finish_worst() {
  if (!has_worst) return;
  const IntReference ref = int_reference(op, worst_a, worst_b, format, division);
  evidence.worst = make_witness(worst_a, worst_b, worst_out, int_classes(op, worst_a, worst_b, ref));
}

// ---- verdict --------------------------------------------------------------------------------

void finish_verdict(CheckResult& r, bool exhaustive) {
  const Evidence& ev = r.evidence;
  r.exhaustive = exhaustive;
  const std::string n = std::to_string(ev.inputs_checked);
  std::string undefined;
  if (ev.undefined > 0)
    undefined = " (" + std::to_string(ev.undefined) +
                " inputs with an undefined result were run and not judged)";
  if (ev.failures > 0) {
    r.verdict = Verdict::Violated;
    r.reason = std::to_string(ev.failures) + " of " + n + " inputs violate the property" +
               (ev.wrong_special > 0 ? " (" + std::to_string(ev.wrong_special) + " of them return a wrong special value)"
                                     : std::string()) +
               (r.witnesses.empty() ? std::string() : "; smallest: " + r.witnesses.front().message) +
               undefined;
  } else if (exhaustive && r.shard.complete()) {
    r.verdict = Verdict::Proven;
    r.reason = "all " + n + " inputs of the domain satisfy the property" + undefined;
  } else if (exhaustive) {
    r.verdict = Verdict::PassedOnSamples;
    r.reason = "no violation in the " + n + " inputs of shard " +
               std::to_string(r.shard.indices.empty() ? 0 : r.shard.indices.front()) + "/" +
               std::to_string(r.shard.count) + "; merge all shards to decide" + undefined;
  } else {
    r.verdict = Verdict::PassedOnSamples;
    r.reason = "no violation in " + n +
               " sampled inputs; sampling does not cover the input domain" + undefined;
  }
}

}  // namespace symerr::verify::detail
