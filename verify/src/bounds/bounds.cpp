// The registered bounds: the seed specifications' (verbatim), the SONNX
// accuracy digest's, and symerr's own rigorous ones.
#include <symerr/verify/bounds/bounds.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <deque>
#include <mutex>
#include <stdexcept>

#include <symerr/verify/oracle/oracle.hpp>

// The table below leaves the optional t-space members (enclose_t, valid_t) of
// SpecBound empty where they do not apply.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace symerr::verify {

namespace {

// A stable bound id: "<source>.<operator>.<rest>", all lower-case
// ("symerr.div.float.introduction").
std::string bound_id(std::string_view source, OpId op, std::string_view rest) {
  std::string id = std::string(source) + "." + std::string(to_string(op)) + "." + std::string(rest);
  std::transform(id.begin(), id.end(), id.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return id;
}
bool is_lower_case_id(const std::string& id) {
  return !id.empty() && std::none_of(id.begin(), id.end(), [](unsigned char c) { return std::isupper(c) || std::isspace(c); });
}

mpq_class absq(const mpq_class& q) { return sgn(q) < 0 ? mpq_class(-q) : q; }

unsigned type_class(const Format& f) {
  if (std::holds_alternative<FloatFormat>(f)) return kFloatType;
  if (std::holds_alternative<IntFormat>(f)) return kIntType;
  return kRealType;
}

const FloatFormat* float_of(const SymbolicError& c) { return std::get_if<FloatFormat>(&c.format); }
const FloatFormat* float_of(const ExactPoint& p) { return std::get_if<FloatFormat>(&p.format); }

// B != 0 and B + B_err does not cross zero (the seed's stated condition).
Tri divisor_keeps_sign(const SymbolicError&, const SymbolicError& b) {
  const Tri pos = cmp_gt(b.real, Interval::point(0)) && cmp_gt(b.fp, Interval::point(0));
  const Tri neg = cmp_lt(b.real, Interval::point(0)) && cmp_lt(b.fp, Interval::point(0));
  return pos || neg;
}
bool divisor_keeps_sign_at(const ExactPoint& p) {
  const mpq_class fb = p.br + p.be;
  return sgn(p.br) != 0 && sgn(p.br) == sgn(fb);
}
Tri always(const SymbolicError&, const SymbolicError&) { return Tri::True; }

// The exact results t = fa ∘ fb of the machine inputs, enclosed.
Interval machine_result(OpId op, const SymbolicError& a, const SymbolicError& b) {
  switch (op) {
    case OpId::Div: return a.fp / b.fp;
    case OpId::Mul: return a.fp * b.fp;
    case OpId::Add: return a.fp + b.fp;
    case OpId::Sub: return a.fp - b.fp;
    default: throw std::invalid_argument("machine_result: " + std::string(to_string(op)) + " is not binary arithmetic");
  }
}
bool always_at(const ExactPoint&) { return true; }
bool finite_result_at(const ExactPoint& p) { return p.computed_finite && !p.overflow; }

// |A_err / B| + |A · B_err / B²| — seed 000, real and float sections.
Interval seed_propagation(const SymbolicError& a, const SymbolicError& b) {
  return abs(a.err / b.real) + abs(a.real * b.err / (b.real * b.real));
}
mpq_class seed_propagation_at(const ExactPoint& p) {
  return absq(p.ae / p.br) + absq(mpq_class(p.ar * p.be / (p.br * p.br)));
}

// The exact result t is a normal number of F (the digest's IEEE rule applies).
Tri normal_result(const Interval& t, const FloatFormat& F) {
  if (mig(t) >= F.min_normal() && mag(t) <= F.max_finite()) return Tri::True;
  if (mag(t) < F.min_normal() || mig(t) > F.max_finite()) return Tri::False;
  return Tri::Unknown;
}
// u · max(|q|, min normal) over the quotients q (the digest's Div rule).
Interval unit_roundoff_of_quotient(const Interval& q_signed, const FloatFormat& F) {
  const Interval q = abs(q_signed);
  return Interval::point(F.unit_roundoff()) *
         Interval::between(std::max(q.lower(), F.min_normal()), std::max(q.upper(), F.min_normal()));
}

// The seed specification's bounds, verbatim.
void seed_bounds(std::vector<SpecBound>& v) {
  const char* seed = "SONNX Div specification (seed 000)";

  v.push_back({"seed000.div.propagation", OpId::Div, "seed Div propagation bound",
               "|Y_err^propag| <= |A_err/B| + |A*B_err/B^2|", std::string(seed) + ", Error Propagation (real and float)",
               {}, kRealType | kFloatType, ErrorPart::Propagated, true, false,
               "B != 0 and B + B_err does not cross zero", divisor_keeps_sign, divisor_keeps_sign_at,
               [](auto& a, auto& b, auto&) { return seed_propagation(a, b); }, seed_propagation_at});
  v.push_back({"seed000.div.real.scenario", OpId::Div, "seed real Div unit verification",
               "|c.err| <= |a.err/b.real| + |a.real*b.err/b.real^2| + 1e-12", std::string(seed) + ", real, Unit Verification",
               {"[C2]"}, kRealType, ErrorPart::Total, true, false,
               "b.real != 0 and b.real + b.err != 0", divisor_keeps_sign, divisor_keeps_sign_at,
               [](auto& a, auto& b, auto&) { return seed_propagation(a, b) + 1e-12; },
               [](const ExactPoint& p) -> mpq_class { return seed_propagation_at(p) + mpq_class(1, 1000000000000); }});
  v.push_back({"seed000.div.float.introduction", OpId::Div, "seed float Div introduction bound",
               "|Y_err^intro| <= ulp(Y)", std::string(seed) + ", float, Error Introduction",
               {"[C3]"}, kFloatType, ErrorPart::Introduced, true, false, "finite result", always, finite_result_at,
               [](auto&, auto&, auto& c) { return ulp(c.fp, *float_of(c)); },
               [](const ExactPoint& p) { return exact_ulp(exact_value(p.fc), *float_of(p)); },
               [](const Interval&, const Interval& fc, const FloatFormat& F) { return ulp(fc, F); }, {}});
  v.push_back({"seed000.div.float.scenario", OpId::Div, "seed float Div unit verification",
               "|c.err| <= |a.err/b.real| + |a.real*b.err/b.real^2| + ulp(c.real)",
               std::string(seed) + ", float, Unit verification (symbolic)", {"[C3]"}, kFloatType, ErrorPart::Total,
               true, false, "isfinite(b.real), b.real != 0, b.real + b.err != 0", divisor_keeps_sign,
               [](const ExactPoint& p) { return divisor_keeps_sign_at(p) && finite_result_at(p); },
               [](auto& a, auto& b, auto& c) { return seed_propagation(a, b) + ulp(c.real, *float_of(c)); },
               [](const ExactPoint& p) -> mpq_class { return seed_propagation_at(p) + exact_ulp(p.cr, *float_of(p)); }});
  v.push_back({"seed000.div.int.scenario", OpId::Div, "seed int Div unit verification",
               "|c.err| <= |a.err/b.int| + |a.int*b.err/b.int^2| + 0", std::string(seed) + ", int, Unit Verification",
               {"[R3]", "[C3]"}, kIntType, ErrorPart::Total, true, false, "b.int != 0, b.int + b.err != 0",
               divisor_keeps_sign, divisor_keeps_sign_at,
               [](auto& a, auto& b, auto&) { return seed_propagation(a, b); }, seed_propagation_at});
}

// The SONNX accuracy digest's bounds: §1.2 (Div), §1.6 / §2.4 (the IEEE rule).
void digest_bounds(std::vector<SpecBound>& v) {
  const char* digest = "SONNX accuracy digest";
  v.push_back({"digest.div.propagation", OpId::Div, "digest Div propagation bound (3rd form)",
               "|C_err^propag| <= 1/(|B|*|B+B_err|) * (|A_err| + |A*B_err/B|)", std::string(digest) + " §1.2",
               {}, kRealType | kFloatType | kIntType, ErrorPart::Propagated, true, false,
               "B != 0 and B does not cross zero under perturbation", divisor_keeps_sign, divisor_keeps_sign_at,
               [](auto& a, auto& b, auto&) {
                 return (abs(a.err) + abs(a.real * b.err / b.real)) / (abs(b.real) * abs(b.fp));
               },
               [](const ExactPoint& p) {
                 return mpq_class((absq(p.ae) + absq(mpq_class(p.ar * p.be / p.br))) / (absq(p.br) * absq(mpq_class(p.br + p.be))));
               }});
  v.push_back({"digest.div.float.introduction", OpId::Div, "digest IEEE Div introduction bound",
               "|C_err^intro| <= u * max(|A|/|B|, min-normalized)  (RNE)", std::string(digest) + " §1.2",
               {}, kFloatType, ErrorPart::Introduced, true, false, "round to nearest even, no overflow", always,
               finite_result_at,
               [](auto& a, auto& b, auto& c) { return unit_roundoff_of_quotient(a.fp / b.fp, *float_of(c)); },
               [](const ExactPoint& p) {
                 const FloatFormat& F = *float_of(p);
                 mpq_class q = absq(exact_value(p.fa) / exact_value(p.fb));
                 const mpq_class mn = exact_value(F.min_normal());
                 if (q < mn) q = mn;
                 return mpq_class(q * exact_value(F.unit_roundoff()));
               },
               [](const Interval& t, const Interval&, const FloatFormat& F) { return unit_roundoff_of_quotient(t, F); },
               {}});
  v.push_back({"digest.div.int.introduction", OpId::Div, "digest int Div introduction bound",
               "|C_err^intro| < 0.5", std::string(digest) + " §1.2", {}, kIntType, ErrorPart::Introduced, true, true,
               "divisor != 0", always, [](const ExactPoint& p) { return p.computed_finite; },
               [](auto&, auto&, auto&) { return Interval::point(0.5); },
               [](const ExactPoint&) { return mpq_class(1, 2); }});
  // The guideline's IEEE rule (§1.6, §2.4): for a normal result r, |intro| <= u·|r| (RNE).
  for (OpId op : {OpId::Add, OpId::Sub, OpId::Mul}) {
    v.push_back({bound_id("digest", op, "float.introduction"), op, "digest IEEE introduction rule",
                 "|Y_err^intro| <= u * |r| for a normal result r (RNE)", std::string(digest) + " §1.6 / §2.4",
                 {}, kFloatType, ErrorPart::Introduced, true, false, "the exact result r is a normal number",
                 [op](const SymbolicError& a, const SymbolicError& b) {
                   return normal_result(machine_result(op, a, b), *std::get_if<FloatFormat>(&a.format));
                 },
                 [](const ExactPoint& p) {
                   const FloatFormat& F = *float_of(p);
                   const mpq_class r = absq(p.t);
                   return finite_result_at(p) && r >= exact_value(F.min_normal()) && r <= exact_value(F.max_finite());
                 },
                 [op](auto& a, auto& b, auto& c) {
                   return Interval::point(float_of(c)->unit_roundoff()) * abs(machine_result(op, a, b));
                 },
                 [](const ExactPoint& p) { return mpq_class(absq(p.t) * exact_value(float_of(p)->unit_roundoff())); },
                 [](const Interval& t, const Interval&, const FloatFormat& F) {
                   return Interval::point(F.unit_roundoff()) * abs(t);
                 },
                 normal_result});
  }
}

// symerr's own rigorous bounds: the exact identities and IEEE 754.
void symerr_bounds(std::vector<SpecBound>& v) {
  v.push_back({"symerr.div.propagation", OpId::Div, "exact Div propagation bound",
               "|Y_err^propag| <= (|A_err|*|B| + |A|*|B_err|) / (|B| * |B + B_err|)", "symerr (exact identity)",
               {}, kRealType | kFloatType | kIntType, ErrorPart::Propagated, false, false,
               "B != 0 and B + B_err != 0 with the same sign", divisor_keeps_sign, divisor_keeps_sign_at,
               [](auto& a, auto& b, auto&) {
                 return (abs(a.err) * abs(b.real) + abs(a.real) * abs(b.err)) / (abs(b.real) * abs(b.fp));
               },
               [](const ExactPoint& p) {
                 return mpq_class((absq(p.ae) * absq(p.br) + absq(p.ar) * absq(p.be)) / (absq(p.br) * absq(mpq_class(p.br + p.be))));
               }});
  for (OpId op : {OpId::Add, OpId::Sub})
    v.push_back({bound_id("symerr", op, "propagation"), op, "exact Add/Sub propagation bound",
                 "|Y_err^propag| <= |A_err| + |B_err|", "symerr (exact identity)", {},
                 kRealType | kFloatType | kIntType, ErrorPart::Propagated, false, false, "always", always, always_at,
                 [](auto& a, auto& b, auto&) { return abs(a.err) + abs(b.err); },
                 [](const ExactPoint& p) { return mpq_class(absq(p.ae) + absq(p.be)); }});
  v.push_back({bound_id("symerr", OpId::Mul, "propagation"), OpId::Mul, "exact Mul propagation bound",
               "|Y_err^propag| <= |A|*|B_err| + |B|*|A_err| + |A_err|*|B_err|", "symerr (exact identity)", {},
               kRealType | kFloatType | kIntType, ErrorPart::Propagated, false, false, "always", always, always_at,
               [](auto& a, auto& b, auto&) {
                 return abs(a.real) * abs(b.err) + abs(b.real) * abs(a.err) + abs(a.err) * abs(b.err);
               },
               [](const ExactPoint& p) {
                 return mpq_class(absq(p.ar) * absq(p.be) + absq(p.br) * absq(p.ae) + absq(p.ae) * absq(p.be));
               }});
  for (OpId op : {OpId::Add, OpId::Sub, OpId::Mul, OpId::Div}) {
    v.push_back({bound_id("symerr", op, "float.introduction"), op, "correct rounding (RNE)",
                 "|Y_err^intro| <= ulp(t)/2, t the exact result of the machine inputs", "IEEE 754 §4.3.1", {},
                 kFloatType, ErrorPart::Introduced, false, false, "finite result", always, finite_result_at,
                 [op](auto& a, auto& b, auto& c) { return ulp(machine_result(op, a, b), *float_of(c)) * 0.5; },
                 [](const ExactPoint& p) { return mpq_class(exact_ulp(p.t, *float_of(p)) / 2); },
                 [](const Interval& t, const Interval&, const FloatFormat& F) { return ulp(t, F) * 0.5; }, {}});
    v.push_back({bound_id("symerr", op, "int.introduction"), op,
                 op == OpId::Div ? "integer quotient rounding" : "exact without wrap-around",
                 op == OpId::Div ? "|Y_err^intro| <= 1 (floor or truncation; in fact < 1), no wrap-around"
                                          : "Y_err^intro = 0 when the result does not wrap",
                 "symerr (integer semantics)", {}, kIntType, ErrorPart::Introduced, false, false,
                 "no wrap-around", always,
                 [](const ExactPoint& p) { return p.computed_finite && !p.overflow; },
                 [op](auto&, auto&, auto&) { return Interval::point(op == OpId::Div ? 1.0 : 0.0); },
                 [op](const ExactPoint&) { return mpq_class(op == OpId::Div ? 1 : 0); }});
  }
}

std::vector<SpecBound> builtin_bounds() {
  std::vector<SpecBound> v;
  seed_bounds(v);
  digest_bounds(v);
  symerr_bounds(v);
  return v;
}

// A registry of bounds B (SpecBound, KernelBound): a deque, so that the
// pointers it hands out stay valid while bounds are registered; every access
// holds the mutex. `add` checks the id rules; the caller checks the rest.
template <class B>
class Registry {
 public:
  explicit Registry(std::vector<B> builtin) {
    for (B& b : builtin) bounds_.push_back(std::move(b));
  }
  std::vector<const B*> all() {
    std::lock_guard<std::mutex> lock(mutex_);
    std::vector<const B*> r;
    for (const auto& b : bounds_) r.push_back(&b);
    return r;
  }
  const B* find(std::string_view id) {
    std::lock_guard<std::mutex> lock(mutex_);
    for (const auto& b : bounds_)
      if (b.id == id) return &b;
    return nullptr;
  }
  template <class Key>  // OpId for SpecBound, the operator name for KernelBound
  std::vector<const B*> for_op(const Key& op, const Format& format) {
    std::lock_guard<std::mutex> lock(mutex_);
    std::vector<const B*> r;
    for (const auto& b : bounds_)
      if (b.op == op && (b.types & type_class(format))) r.push_back(&b);
    return r;
  }
  void add(B b, const char* who) {
    if (!is_lower_case_id(b.id))
      throw std::invalid_argument(std::string(who) + ": the id '" + b.id +
                                  "' must be non-empty and lower-case, without spaces");
    std::lock_guard<std::mutex> lock(mutex_);
    for (const auto& x : bounds_)
      if (x.id == b.id) throw std::invalid_argument(std::string(who) + ": a bound with id '" + b.id + "' exists");
    bounds_.push_back(std::move(b));
  }

 private:
  std::mutex mutex_;
  std::deque<B> bounds_;
};
Registry<SpecBound>& registry() {
  static Registry<SpecBound> r(builtin_bounds());
  return r;
}

}  // namespace

const char* to_string(ErrorPart p) noexcept {
  switch (p) {
    case ErrorPart::Total: return "err";
    case ErrorPart::Propagated: return "err_propag";
    case ErrorPart::Introduced: return "err_intro";
  }
  return "?";
}

mpq_class exact_ulp(const mpq_class& x, const FloatFormat& F) {
  const mpq_class a = sgn(x) < 0 ? mpq_class(-x) : x;
  const double r = round_to(a, F, RoundingMode::TowardZero).value;
  return exact_value(ulp(std::isfinite(r) ? r : F.max_finite(), F));
}

ExactPoint evaluate_point(OpId op, const Format& format, IntegerDivision idiv, const mpq_class& ar, double fa,
                          const mpq_class& br, double fb) {
  ExactPoint p;
  p.op = op;
  p.format = format;
  p.int_division = idiv;
  p.ar = ar;
  p.br = br;
  p.fa = fa;
  p.fb = fb;
  p.ae = exact_value(fa) - ar;
  p.be = exact_value(fb) - br;
  if (op == OpId::Div && sgn(br) == 0) p.real_defined = false;
  else p.cr = exact_result(op, ar, br);
  if (const FloatFormat* F = std::get_if<FloatFormat>(&format)) {
    const FloatReference ref = float_reference(OracleKind::Exact, op, fa, fb, *F);
    p.fc = ref.value;
    p.overflow = ref.overflow;
    p.computed_finite = std::isfinite(ref.value);
    if (ref.finite_exact) p.t = exact_result(op, fa, fb);
  } else if (const IntFormat* I = std::get_if<IntFormat>(&format)) {
    const IntReference ref = int_reference(op, static_cast<__int128>(fa), static_cast<__int128>(fb), *I, idiv);
    p.computed_finite = ref.value.has_value();
    if (p.computed_finite) {
      p.fc = static_cast<double>(*ref.value);
      p.t = exact_result(op, fa, fb);
      p.overflow = ref.overflow;
    }
  } else {  // ideal real arithmetic: no rounding
    p.computed_finite = !(op == OpId::Div && fb == 0);
    if (p.computed_finite) {
      p.t = exact_result(op, fa, fb);
      p.fc = p.t.get_d();
    }
  }
  if (p.computed_finite && !std::holds_alternative<std::monostate>(format)) p.fcq = exact_value(p.fc);
  if (p.computed_finite && std::holds_alternative<std::monostate>(format)) p.fcq = p.t;
  return p;
}

std::vector<const SpecBound*> bound_registry() { return registry().all(); }

void register_bound(SpecBound b) {
  if (!b.enclose || !b.exact) throw std::invalid_argument("register_bound: '" + b.id + "' needs enclose and exact");
  if (!b.valid_on) b.valid_on = always;
  if (!b.valid_at) b.valid_at = always_at;
  if (find_kernel_bound(b.id)) throw std::invalid_argument("register_bound: a kernel bound with id '" + b.id + "' exists");
  registry().add(std::move(b), "register_bound");
}

std::vector<const SpecBound*> bounds_for(OpId op, const Format& format) {
  return registry().for_op(op, format);
}

const SpecBound* find_bound(std::string_view id) { return registry().find(id); }

}  // namespace symerr::verify

// ---- Bounds on a part of a whole tensor operator ---------------------------

namespace symerr::verify {

namespace {

mpq_class sup_abs(const Interval& x) { return exact_value(mag(x)); }  // mag rounds up: an upper bound

// (1+u)^n exactly.
mpq_class power(const mpq_class& base, std::size_t n) {
  mpz_class num, den;
  mpz_pow_ui(num.get_mpz_t(), base.get_num_mpz_t(), n);
  mpz_pow_ui(den.get_mpz_t(), base.get_den_mpz_t(), n);
  return mpq_class(num, den);
}

// SONNX accuracy digest §1.3 (matmul_acc.md): the two MatMul bounds, with
// n the inner dimension; a, b the coefficient bounds, ae, be the error bounds.
std::vector<KernelBound> builtin_kernel_bounds() {
  const char* source = "SONNX accuracy digest §1.3 (MatMul)";
  std::vector<KernelBound> v;
  v.push_back({"digest.matmul.propagation", "MatMul", "digest MatMul propagation bound",
               "|Y_err^propag[i,j]| <= n*(|A_err|*|B| + |B_err|*|A| + |A_err|*|B_err|)", source,
               ErrorPart::Propagated, kRealType | kFloatType | kIntType, true, false,
               "always (|A|, |B| bound the ideal coefficients, |A_err|, |B_err| their errors)",
               [](const KernelBoundArgs& k) {
                 const OperandMagnitudes &a = k.operands.at(0), &b = k.operands.at(1);
                 return mpq_class(mpq_class(k.reduction) * (a.error * b.value + b.error * a.value + a.error * b.error));
               }});
  v.push_back({"digest.matmul.float.introduction", "MatMul", "digest MatMul introduction bound (naive loop)",
               "|Y_err^intro[i,j]| <= ((1+u)^2*((1+u)^n - 1)/u - n)*|A|*|B|", source, ErrorPart::Introduced,
               kFloatType, true, false,
               "round to nearest even, the naive sequential loop, Y[i,j] normal (|A|, |B| bound the values read)",
               [](const KernelBoundArgs& k) {
                 const FloatFormat& F = std::get<FloatFormat>(k.format);
                 const mpq_class u = exact_value(F.unit_roundoff()), n(k.reduction);
                 const mpq_class factor = power(1 + u, 2) * (power(1 + u, k.reduction) - 1) / u - n;
                 return mpq_class(factor * k.operands.at(0).actual * k.operands.at(1).actual);
               }});
  return v;
}

Registry<KernelBound>& kernel_registry() {
  static Registry<KernelBound> r(builtin_kernel_bounds());
  return r;
}

bool within(const KernelBound& b, const mpq_class& part, const mpq_class& bound) {
  return b.strict ? part < bound : part <= bound;
}

}  // namespace

OperandMagnitudes magnitudes(std::span<const SymbolicError> x) {
  OperandMagnitudes m;
  for (const SymbolicError& v : x) {
    m.value = std::max(m.value, sup_abs(v.real));
    m.error = std::max(m.error, sup_abs(v.err));
    m.actual = std::max(m.actual, sup_abs(v.fp));
  }
  return m;
}

OperandMagnitudes magnitudes(std::span<const mpq_class> ideal, std::span<const mpq_class> actual) {
  if (ideal.size() != actual.size())
    throw std::invalid_argument("magnitudes: " + std::to_string(ideal.size()) + " ideal values but " +
                                std::to_string(actual.size()) + " actual values");
  OperandMagnitudes m;
  for (std::size_t i = 0; i < ideal.size(); ++i) {
    m.value = std::max(m.value, absq(ideal[i]));
    m.error = std::max(m.error, absq(mpq_class(actual[i] - ideal[i])));
    m.actual = std::max(m.actual, absq(actual[i]));
  }
  return m;
}

Tri kernel_bound_proven(const KernelBound& b, const KernelBoundArgs& box, const mpq_class& part_sup) {
  return within(b, part_sup, b.value(box)) ? Tri::True : Tri::Unknown;
}

bool kernel_bound_holds_at(const KernelBound& b, const KernelBoundArgs& execution, const mpq_class& part) {
  return within(b, absq(part), b.value(execution));
}

std::vector<const KernelBound*> kernel_bound_registry() { return kernel_registry().all(); }

void register_kernel_bound(KernelBound b) {
  if (!b.value) throw std::invalid_argument("register_kernel_bound: '" + b.id + "' needs value");
  if (find_bound(b.id))
    throw std::invalid_argument("register_kernel_bound: a bound with id '" + b.id + "' exists (an operator bound)");
  kernel_registry().add(std::move(b), "register_kernel_bound");
}

std::vector<const KernelBound*> kernel_bounds_for(std::string_view op, const Format& format) {
  return kernel_registry().for_op(op, format);
}

const KernelBound* find_kernel_bound(std::string_view id) { return kernel_registry().find(id); }

}  // namespace symerr::verify
