// The list-driven concrete check: strategies -> kernel batches -> judge.
#include <symerr/verify/concrete.hpp>

#include <chrono>
#include <cmath>
#include <exception>
#include <stdexcept>

#include "judge.hpp"

namespace symerr::verify {

Property correct_rounding() { return Property{}; }

Property error_bound(BoundInfo info, BoundFn bound) {
  if (!bound) throw std::invalid_argument("error_bound(" + info.name + "): no bound function");
  return Property{Property::Kind::Bound, std::move(info), std::move(bound)};
}

Property sonnx_div_introduction_bound() {
  return error_bound(
      {"ulp(Y)", "|Y - A/B| <= ulp(A/B) (ulp at the real result)",
       "SONNX Div, float: Error Introduction (seed 000), unit verification `ulp(c.real)`"},
      [](const BoundContext& c) { return ulp(c.exact, c.format); });
}

Property unit_roundoff_bound() {
  return error_bound({"u*max(|r|, min_normal)", "|Y - r| <= u * max(|r|, 2^emin), r exact result",
                      "standard model with gradual underflow (Higham, ASNA §2.2)"},
                     [](const BoundContext& c) {
                       return c.format.unit_roundoff() *
                              std::max(std::fabs(c.exact), c.format.min_normal());
                     });
}

CheckResult make_check_header(const Kernel& k, const CheckOptions& o) {
  CheckResult r;
  r.kind = "concrete";
  r.kernel = k.name;
  r.operator_name = to_string(k.op);
  r.format = to_string(k.type);
  r.id = o.id.empty() ? "concrete/" + r.operator_name + "/" + r.format + "/" + k.name : o.id;
  r.bound = o.property.info;
  r.requirements = o.requirements;
  r.seed = o.seed;
  r.semantics["kernel_form"] = to_string(k.form);
  if (is_float(k.type)) {
    const auto F = std::get<FloatFormat>(format_of(k.type));
    r.semantics["rounding"] = "RNE";
    r.semantics["special_values"] = o.strict_special_values ? "IEEE 754 (judged)" : "IEEE 754 (counted)";
    r.semantics["property"] = o.property.kind == Property::Kind::CorrectRounding ? "correct rounding"
                                                                                  : "error bound";
    r.semantics["oracle"] = to_string(o.oracle.value_or(default_oracle(k.op, F)));
    if (k.op == Operator::Div) r.semantics["division_by_zero"] = "IEEE 754 (±inf, NaN for 0/0)";
  } else {
    r.bound = BoundInfo{"exact", "Y == reference (wrap-around modulo 2^n)", "integer semantics"};
    r.semantics["overflow"] = "wrap-around modulo 2^n";
    r.semantics["property"] = "exact result";
    if (k.op == Operator::Div) {
      r.semantics["integer_division"] = std::string(to_string(o.integer_division));
      r.semantics["division_by_zero"] = "undefined (run, reported, not judged)";
      r.bound.formula = std::string("Y == ") +
                        (o.integer_division == IntegerDivision::Floor ? "floor" : "trunc") +
                        "(A / B) wrapped modulo 2^n, B != 0";
    }
  }
  return r;
}

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

void add_strategy(CheckResult& r, const std::string& s) {
  for (const auto& x : r.strategies)
    if (x == s) return;
  r.strategies.push_back(s);
}

}  // namespace

CheckResult check_inputs(const Kernel& k, const std::vector<FloatInputs>& inputs,
                         const CheckOptions& o, bool exhaustive) {
  if (!is_float(k.type))
    throw std::invalid_argument("check_inputs: float inputs for the " + std::string(to_string(k.type)) +
                                " kernel '" + k.name + "'");
  const auto t0 = Clock::now();
  const auto F = std::get<FloatFormat>(format_of(k.type));
  const OracleKind oracle = o.oracle.value_or(default_oracle(k.op, F));
  CheckResult r = make_check_header(k, o);
  detail::FloatJudge judge(k.type, k.op, F, o);
  const std::size_t batch = std::max<std::size_t>(1, o.batch);
  const std::size_t w = storage_size(k.type);
  std::vector<unsigned char> A(batch * w), B(batch * w), Y(batch * w);
  // a poison output pattern: a kernel that does not write its output is caught
  const std::uint64_t poison = encode_float(k.type, NAN) ^ 1;
  for (const auto& in : inputs) {
    add_strategy(r, in.strategy);
    for (std::size_t start = 0; start < in.pairs.size(); start += batch) {
      const std::size_t n = std::min(batch, in.pairs.size() - start);
      for (std::size_t i = 0; i < n; ++i) {
        store_bits(k.type, A.data(), i, encode_float(k.type, in.pairs[start + i][0]));
        store_bits(k.type, B.data(), i, encode_float(k.type, in.pairs[start + i][1]));
        store_bits(k.type, Y.data(), i, poison);
      }
      try {
        k.run(A.data(), B.data(), Y.data(), n);
      } catch (const std::exception& e) {
        r.verdict = Verdict::Inconclusive;
        r.reason = std::string("the kernel threw: ") + e.what();
        r.duration_seconds = seconds_since(t0);
        return r;
      }
      for (std::size_t i = 0; i < n; ++i) {
        const double a = in.pairs[start + i][0], b = in.pairs[start + i][1];
        const double out = decode_float(k.type, load_bits(k.type, Y.data(), i));
        judge.judge(a, b, out, float_reference(oracle, k.op, a, b, F));
      }
    }
  }
  judge.finish_worst();
  r.evidence = judge.evidence;
  r.witnesses = judge.witnesses();
  detail::finish_verdict(r, exhaustive);
  r.duration_seconds = seconds_since(t0);
  return r;
}

CheckResult check_inputs(const Kernel& k, const std::vector<IntInputs>& inputs,
                         const CheckOptions& o, bool exhaustive) {
  if (is_float(k.type))
    throw std::invalid_argument("check_inputs: integer inputs for the " +
                                std::string(to_string(k.type)) + " kernel '" + k.name + "'");
  const auto t0 = Clock::now();
  const auto I = std::get<IntFormat>(format_of(k.type));
  CheckResult r = make_check_header(k, o);
  detail::IntJudge judge(k.type, k.op, I, o);
  const std::size_t batch = std::max<std::size_t>(1, o.batch);
  const std::size_t w = storage_size(k.type);
  std::vector<unsigned char> A(batch * w), B(batch * w), Y(batch * w);
  for (const auto& in : inputs) {
    add_strategy(r, in.strategy);
    for (std::size_t start = 0; start < in.pairs.size(); start += batch) {
      const std::size_t n = std::min(batch, in.pairs.size() - start);
      for (std::size_t i = 0; i < n; ++i) {
        store_bits(k.type, A.data(), i, encode_int(k.type, in.pairs[start + i][0]));
        store_bits(k.type, B.data(), i, encode_int(k.type, in.pairs[start + i][1]));
        store_bits(k.type, Y.data(), i, 0);
      }
      try {
        k.run(A.data(), B.data(), Y.data(), n);
      } catch (const std::exception& e) {
        r.verdict = Verdict::Inconclusive;
        r.reason = std::string("the kernel threw: ") + e.what();
        r.duration_seconds = seconds_since(t0);
        return r;
      }
      for (std::size_t i = 0; i < n; ++i) {
        const __int128 a = in.pairs[start + i][0], b = in.pairs[start + i][1];
        const __int128 out = decode_int(k.type, load_bits(k.type, Y.data(), i));
        judge.judge(a, b, out, int_reference(k.op, a, b, I, o.integer_division));
      }
    }
  }
  judge.finish_worst();
  r.evidence = judge.evidence;
  r.witnesses = judge.witnesses();
  detail::finish_verdict(r, exhaustive);
  r.duration_seconds = seconds_since(t0);
  return r;
}

CheckResult check_kernel(const Kernel& k, const CheckOptions& o) {
  const StrategyOptions& s = o.strategies;
  if (is_float(k.type)) {
    const auto F = std::get<FloatFormat>(format_of(k.type));
    std::vector<FloatInputs> in;
    if (s.special_grid) in.push_back(special_grid(F));
    if (s.boundary) in.push_back(boundary_inputs(k.op, F, s.boundary_count, o.seed));
    if (s.random_count > 0) in.push_back(random_inputs(F, s.random_count, o.seed));
    return check_inputs(k, in, o, false);
  }
  const auto I = std::get<IntFormat>(format_of(k.type));
  if (s.exhaustive_small_integers && I.bits <= 8) return check_inputs(k, {exhaustive_inputs(I)}, o, true);
  std::vector<IntInputs> in;
  if (s.special_grid) in.push_back(special_grid(I));
  if (s.random_count > 0) in.push_back(random_inputs(I, s.random_count, o.seed));
  return check_inputs(k, in, o, false);
}

}  // namespace symerr::verify
