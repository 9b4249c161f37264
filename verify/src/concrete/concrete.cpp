// The list-driven concrete check: strategies -> kernel batches -> judge.
#include <symerr/verify/concrete/concrete.hpp>

#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <exception>
#include <stdexcept>

#include <symerr/verify/report/report.hpp>

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
  r.item.form = to_string(k.form);
  r.item.library = k.library;
  r.item.symbol = k.symbol;
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
      r.semantics["division_by_zero"] = o.feed_undefined ? "undefined (run, reported, not judged)"
                                                         : "undefined (not run)";
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

// Runs one batch of n elements; on a fault fills r and returns false.
bool run_batch(CheckResult& r, const Kernel& k, const unsigned char* A, const unsigned char* B,
               unsigned char* Y, std::size_t n,
               const std::function<std::vector<Value>(std::size_t)>& value_of) {
  const std::vector<unsigned char> Y0(Y, Y + n * storage_size(k.type));
  try {
    k.run(A, B, Y, n);
    return true;
  } catch (const KernelFault& f) {
    record_fault(r, k, f, A, B, Y0.data(), n, value_of);
  } catch (const std::exception& e) {
    record_fault(r, k, KernelFault(FaultKind::Exception, 0, std::string("the kernel threw: ") + e.what()),
                 A, B, Y0.data(), n, value_of);
  }
  return false;
}

Value float_value(ElementType t, std::uint64_t bits) {
  const double x = decode_float(t, bits);
  return Value{x, detail::exact_decimal(x), bits_text(t, bits)};
}
Value int_value(ElementType t, std::uint64_t bits) {
  const __int128 x = decode_int(t, bits);
  return Value{static_cast<double>(x), detail::int_text(x), bits_text(t, bits)};
}

// The operands of element i of the batch buffers, for fault reports.
std::function<std::vector<Value>(std::size_t)> values_of(const Kernel& k, const unsigned char* A,
                                                         const unsigned char* B) {
  return [&k, A, B](std::size_t i) {
    auto v = is_float(k.type) ? float_value : int_value;
    return std::vector<Value>{v(k.type, load_bits(k.type, A, i)), v(k.type, load_bits(k.type, B, i))};
  };
}

}  // namespace

void finish_fp_environment(CheckResult& r, const Kernel& k) {
  std::string d = "every call started in " + describe_fp_state(mxcsr::kDocumented) +
                  (k.sandbox ? " (in a child process" : " (in-process, the caller's state restored after each call");
  if (k.sandbox) {
    char buf[48];
    std::snprintf(buf, sizeof buf, ", time limit %g s per call", k.sandbox->options().time_limit_seconds);
    d += buf;
  }
  d += ")";
  if (k.fp_log) {
    d += "; " + k.fp_log->describe();
    if (k.fp_log->changed())
      r.semantics["fp_state_changed_by_kernel"] = k.fp_log->describe();
  }
  // failures that all match flushing arithmetic: the kernel computed with FTZ/DAZ
  const auto& m = r.evidence.metrics;
  const double failures = static_cast<double>(r.evidence.failures);
  auto all = [&](const char* key) {
    const auto it = m.find(key);
    return failures > 0 && it != m.end() && it->second == failures;
  };
  const char* flush = all("failures_matching_ftz") ? "FTZ"
                      : all("failures_matching_daz") ? "DAZ"
                      : all("failures_matching_ftz_daz") ? "FTZ+DAZ" : nullptr;
  if (flush) {
    const bool left = k.fp_log && (k.fp_log->left_set & (mxcsr::kFTZ | mxcsr::kDAZ)) != 0;
    d += std::string("; every failure matches ") + flush + " arithmetic: the kernel computes with " + flush +
         (left ? " set" : " set during the call and restores it (the state after each call is the documented one)");
    r.semantics["fp_state_inferred"] = std::string(flush) + " during the kernel's calls (all " +
                                       std::to_string(r.evidence.failures) + " failures match " + flush + " arithmetic)";
  }
  r.fp_environment = d;
}

void record_fault(CheckResult& r, const Kernel& k, const KernelFault& first, const unsigned char* A,
                  const unsigned char* B, const unsigned char* Y0, std::size_t n,
                  const std::function<std::vector<Value>(std::size_t)>& value_of) {
  const std::size_t w = storage_size(k.type);
  const double limit = k.sandbox ? k.sandbox->options().time_limit_seconds : 0;
  const auto t0 = Clock::now();
  const double budget = 6 * limit + 5;  // timeouts make bisection steps expensive
  auto fails = [&](std::size_t lo, std::size_t m) {
    std::vector<unsigned char> y(Y0 + lo * w, Y0 + (lo + m) * w);
    try {
      k.run(A + lo * w, B + lo * w, y.data(), m);
      return false;
    } catch (const std::exception&) {
      return true;
    }
  };
  std::size_t lo = 0, len = n;
  bool reproduced = false;
  while (len > 1 && seconds_since(t0) < budget) {
    const std::size_t half = len / 2;
    if (fails(lo, half)) {
      len = half;
      reproduced = true;
    } else if (fails(lo + half, len - half)) {
      lo += half;
      len -= half;
      reproduced = true;
    } else {
      break;  // neither half alone: the whole batch is needed
    }
  }
  if (!reproduced && seconds_since(t0) < budget) reproduced = fails(lo, len);
  FaultInfo f;
  static const char* kinds[] = {"signal", "exit", "exception", "timeout"};
  f.kind = kinds[static_cast<int>(first.kind)];
  f.message = first.what();
  f.batch_size = n;
  f.reproducer_size = len;
  f.reproduced = reproduced;
  for (std::size_t i = 0; i < std::min<std::size_t>(len, 16); ++i) f.reproducer.push_back(value_of(lo + i));
  r.verdict = first.kind == FaultKind::Timeout ? Verdict::TimedOut : Verdict::Crashed;
  std::string inputs;
  for (std::size_t i = 0; i < f.reproducer.size(); ++i) {
    std::string t;
    for (const auto& v : f.reproducer[i]) detail::append_sep(t, ", ", v.bits.empty() ? v.exact : v.bits + " = " + v.exact);
    detail::append_sep(inputs, "; ", "(" + t + ")");
  }
  r.reason = f.message + " on a batch of " + std::to_string(n) + " inputs; the smallest batch found that " +
             (reproduced ? "reproduces it" : "was tried (not reproduced)") + " has " + std::to_string(len) +
             " input" + (len == 1 ? "" : "s") + ": " + inputs + (len > 16 ? "; ..." : "") +
             ". The check stopped there (" + std::to_string(r.evidence.inputs_checked) +
             " inputs judged before it)";
  r.fault = std::move(f);
}

CheckResult check_inputs(const Kernel& kernel, const std::vector<FloatInputs>& inputs,
                         const CheckOptions& o, bool exhaustive) {
  if (!is_float(kernel.type))
    throw std::invalid_argument("check_inputs: float inputs for the " + std::string(to_string(kernel.type)) +
                                " kernel '" + kernel.name + "'");
  const FpStateScope documented;
  const Kernel k = harnessed(kernel, o.isolation);
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
  const auto value_of = values_of(k, A.data(), B.data());
  bool faulted = false;
  for (const auto& in : inputs) {
    add_strategy(r, in.strategy);
    for (std::size_t start = 0; start < in.pairs.size() && !faulted; start += batch) {
      const std::size_t n = std::min(batch, in.pairs.size() - start);
      for (std::size_t i = 0; i < n; ++i) {
        store_bits(k.type, A.data(), i, encode_float(k.type, in.pairs[start + i][0]));
        store_bits(k.type, B.data(), i, encode_float(k.type, in.pairs[start + i][1]));
        store_bits(k.type, Y.data(), i, poison);
      }
      if (!run_batch(r, k, A.data(), B.data(), Y.data(), n, value_of)) {
        faulted = true;
        break;
      }
      for (std::size_t i = 0; i < n; ++i) {
        const double a = in.pairs[start + i][0], b = in.pairs[start + i][1];
        const double out = decode_float(k.type, load_bits(k.type, Y.data(), i));
        judge.judge(a, b, out, float_reference(oracle, k.op, a, b, F));
      }
    }
    if (faulted) break;
  }
  judge.finish_worst();
  r.evidence = judge.evidence;
  r.witnesses = judge.witnesses();
  if (!faulted) detail::finish_verdict(r, exhaustive);
  finish_fp_environment(r, k);
  r.duration_seconds = seconds_since(t0);
  return r;
}

CheckResult check_inputs(const Kernel& kernel, const std::vector<IntInputs>& inputs,
                         const CheckOptions& o, bool exhaustive) {
  if (is_float(kernel.type))
    throw std::invalid_argument("check_inputs: integer inputs for the " +
                                std::string(to_string(kernel.type)) + " kernel '" + kernel.name + "'");
  const FpStateScope documented;
  const Kernel k = harnessed(kernel, o.isolation);
  const auto t0 = Clock::now();
  const auto I = std::get<IntFormat>(format_of(k.type));
  CheckResult r = make_check_header(k, o);
  detail::IntJudge judge(k.type, k.op, I, o);
  const std::size_t batch = std::max<std::size_t>(1, o.batch);
  const std::size_t w = storage_size(k.type);
  std::vector<unsigned char> A(batch * w), B(batch * w), Y(batch * w);
  const auto value_of = values_of(k, A.data(), B.data());
  const bool skip_zero_divisor = k.op == Operator::Div && !o.feed_undefined;
  std::uint64_t skipped = 0;
  bool faulted = false;
  for (const auto& in : inputs) {
    add_strategy(r, in.strategy);
    std::vector<std::array<__int128, 2>> pairs;
    pairs.reserve(in.pairs.size());
    for (const auto& p : in.pairs) {
      if (skip_zero_divisor && p[1] == 0) ++skipped;
      else pairs.push_back({p[0], p[1]});
    }
    for (std::size_t start = 0; start < pairs.size(); start += batch) {
      const std::size_t n = std::min(batch, pairs.size() - start);
      for (std::size_t i = 0; i < n; ++i) {
        store_bits(k.type, A.data(), i, encode_int(k.type, pairs[start + i][0]));
        store_bits(k.type, B.data(), i, encode_int(k.type, pairs[start + i][1]));
        store_bits(k.type, Y.data(), i, 0);
      }
      if (!run_batch(r, k, A.data(), B.data(), Y.data(), n, value_of)) {
        faulted = true;
        break;
      }
      for (std::size_t i = 0; i < n; ++i) {
        const __int128 a = pairs[start + i][0], b = pairs[start + i][1];
        const __int128 out = decode_int(k.type, load_bits(k.type, Y.data(), i));
        judge.judge(a, b, out, int_reference(k.op, a, b, I, o.integer_division));
      }
    }
    if (faulted) break;
  }
  judge.finish_worst();
  r.evidence = judge.evidence;
  r.witnesses = judge.witnesses();
  if (skipped > 0) {
    r.evidence.metrics["undefined_inputs_not_run"] = static_cast<double>(skipped);
    r.semantics["division_by_zero"] = "undefined: not run (" + std::to_string(skipped) +
                                      " inputs with divisor 0 left out; campaign \"undefined_inputs\": \"run\" runs them)";
  }
  if (!faulted) detail::finish_verdict(r, exhaustive);
  finish_fp_environment(r, k);
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
