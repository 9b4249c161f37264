// The list-driven concrete check: strategies -> kernel batches -> judge.
#include <symerr/verify/concrete/concrete.hpp>

#include <array>
#include <atomic>
#include <cstring>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <exception>
#include <stdexcept>
#include <type_traits>

#include <symerr/verify/bounds/bounds.hpp>  // exact_ulp: ulp at the exact result
#include <symerr/verify/report/report.hpp>

#include "judge.hpp"

namespace symerr::verify {

Property correct_rounding() { return Property{}; }

Property error_bound(BoundInfo info, BoundFn bound, ExactBoundFn exact_bound) {
  if (!bound) throw std::invalid_argument("error_bound(" + info.name + "): no bound function");
  return Property{Property::Kind::Bound, std::move(info), std::move(bound), std::move(exact_bound)};
}

namespace {
// ulp(x) of F for x the exact result rounded to nearest, or NaN when x is a
// power of two (r may lie just below it, in the binade of half the spacing)
double approx_ulp(double x, const FloatFormat& F) {
  int e = 0;
  return std::frexp(x, &e) == (x < 0 ? -0.5 : 0.5) ? NAN : ulp(x, F);
}
}  // namespace

Property sonnx_div_introduction_bound() {
  return error_bound(
      {"ulp(Y)", "|Y - A/B| <= ulp(A/B) (ulp at the real result)",
       "SONNX Div, float: Error Introduction (seed 000), unit verification `ulp(c.real)`"},
      [](const BoundContext& c) { return approx_ulp(c.exact, c.format); },
      [](const BoundContext& c, const mpq_class& r) { return exact_ulp(r, c.format); });
}

Property ulp_multiple_bound(double k) {
  char text[96];
  std::snprintf(text, sizeof text, "|Y - exact| <= %g ulp(exact)", k);
  return error_bound(BoundInfo{"within " + std::to_string(k).substr(0, 6) + " ulp", text, "campaign file"},
                     [k](const BoundContext& c) { return k * approx_ulp(c.exact, c.format); },
                     [k](const BoundContext& c, const mpq_class& r) {
                       return mpq_class(exact_value(k) * exact_ulp(r, c.format));
                     });
}

Property unit_roundoff_bound() {
  return error_bound({"u*max(|r|, min_normal)", "|Y - r| <= u * max(|r|, 2^emin), r exact result",
                      "standard model with gradual underflow (Higham, ASNA §2.2)"},
                     [](const BoundContext& c) {
                       return c.format.unit_roundoff() * std::max(std::fabs(c.exact), c.format.min_normal());
                     },
                     [](const BoundContext& c, const mpq_class& r) {
                       const mpq_class m = std::max(mpq_class(abs(r)), exact_value(c.format.min_normal()));
                       return mpq_class(exact_value(c.format.unit_roundoff()) * m);
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
    if (k.op == OpId::Div) r.semantics["division_by_zero"] = "IEEE 754 (±inf, NaN for 0/0)";
  } else {
    r.bound = BoundInfo{"exact", "Y == reference (wrap-around modulo 2^n)", "integer semantics"};
    r.semantics["overflow"] = "wrap-around modulo 2^n";
    r.semantics["property"] = "exact result";
    if (k.op == OpId::Div) {
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

// The operands of element i of the batch buffers, for fault reports.
std::function<std::vector<Value>(std::size_t)> values_of(const Kernel& k, const unsigned char* A,
                                                         const unsigned char* B) {
  return [&k, A, B](std::size_t i) {
    return std::vector<Value>{detail::storage_value(k.type, load_bits(k.type, A, i)),
                              detail::storage_value(k.type, load_bits(k.type, B, i))};
  };
}

}  // namespace

namespace {
std::atomic<int> g_stop{0};
static_assert(std::atomic<int>::is_always_lock_free, "request_stop must be async-signal-safe");
}  // namespace

void request_stop(int signal) noexcept { g_stop.store(signal, std::memory_order_relaxed); }
int stop_requested() noexcept { return g_stop.load(std::memory_order_relaxed); }

void finish_interrupted(CheckResult& r) {
  if (r.evidence.failures > 0) return;  // a violation found stands
  const char* name = sigabbrev_np(stop_requested());
  r.verdict = Verdict::Inconclusive;
  r.reason = std::string("interrupted by SIG") + (name ? name : "?") + " after " +
             std::to_string(r.evidence.inputs_checked) + " inputs (no violation among them); the check did not finish";
}

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
  if (k.sandbox)
    if (std::string out = k.sandbox->output(); !out.empty()) r.semantics["kernel_output"] = std::move(out);
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
  static const char* kinds[] = {"signal", "exit", "exception", "timeout", "memory"};
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
    for (const auto& v : f.reproducer[i]) symerr::detail::append_sep(t, ", ", v.bits.empty() ? v.exact : v.bits + " = " + v.exact);
    symerr::detail::append_sep(inputs, "; ", "(" + t + ")");
  }
  r.reason = f.message + " on a batch of " + std::to_string(n) + " inputs; the smallest batch found that " +
             (reproduced ? "reproduces it" : "was tried (not reproduced)") + " has " + std::to_string(len) +
             " input" + (len == 1 ? "" : "s") + ": " + inputs + (len > 16 ? "; ..." : "") +
             ". The check stopped there (" + std::to_string(r.evidence.inputs_checked) +
             " inputs judged before it)";
  r.fault = std::move(f);
}

namespace {

// What check_pairs needs of an element kind: V = double (float formats) or
// __int128 (integer formats).
template <class V>
constexpr bool kFloatValues = std::is_same_v<V, double>;

template <class V>
std::uint64_t encode_value(ElementType t, V v) {
  if constexpr (kFloatValues<V>) return encode_float(t, v);
  else return encode_int(t, v);
}
template <class V>
V decode_value(ElementType t, std::uint64_t bits) {
  if constexpr (kFloatValues<V>) return decode_float(t, bits);
  else return decode_int(t, bits);
}

// The judge of the kernel's outputs and, for each input pair, its reference.
template <class V>
auto make_judge(const Kernel& k, const CheckOptions& o) {
  if constexpr (kFloatValues<V>)
    return detail::FloatJudge(k.type, k.op, std::get<FloatFormat>(format_of(k.type)), o);
  else
    return detail::IntJudge(k.type, k.op, std::get<IntFormat>(format_of(k.type)), o);
}
template <class V, class Judge>
bool judge_one(Judge& judge, const Kernel& k, const CheckOptions& o, V a, V b, V out) {
  if constexpr (kFloatValues<V>) {
    const OracleKind oracle = o.oracle.value_or(default_oracle(k.op, judge.format));
    return judge.judge(a, b, out, float_reference(oracle, k.op, a, b, judge.format));
  } else {
    return judge.judge(a, b, out, int_reference(k.op, a, b, judge.format, o.integer_division));
  }
}

// The list-driven check over float or integer input pairs: batches of at most
// o.batch pairs through the (harnessed) kernel, every output judged; integer
// divisions by 0 are left out unless o.feed_undefined.
template <class V>
CheckResult check_pairs(const Kernel& kernel, const std::vector<Inputs<V>>& inputs, const CheckOptions& o,
                        bool exhaustive) {
  if (is_float(kernel.type) != kFloatValues<V>)
    throw std::invalid_argument(std::string("check_inputs: ") + (kFloatValues<V> ? "float" : "integer") +
                                " inputs for the " + to_string(kernel.type) + " kernel '" + kernel.name + "'");
  const FpStateScope documented;
  const Kernel k = harnessed(kernel, o.isolation);
  const auto t0 = Clock::now();
  CheckResult r = make_check_header(k, o);
  auto judge = make_judge<V>(k, o);
  const std::size_t batch = std::max<std::size_t>(1, o.batch);
  const std::size_t w = storage_size(k.type);
  std::vector<unsigned char> A(batch * w), B(batch * w), Y(batch * w);
  // a poison output pattern: a float kernel that does not write its output is caught
  const std::uint64_t poison = kFloatValues<V> ? encode_float(k.type, NAN) ^ 1 : 0;
  const auto value_of = values_of(k, A.data(), B.data());
  const bool skip_zero_divisor = !kFloatValues<V> && k.op == OpId::Div && !o.feed_undefined;
  std::uint64_t skipped = 0;
  std::vector<std::array<V, 2>> pairs;  // the batch
  pairs.reserve(batch);
  bool faulted = false, interrupted = false;
  for (const auto& in : inputs) {
    add_strategy(r, in.strategy);
    for (std::size_t next = 0; next < in.pairs.size() && !faulted && !(interrupted = stop_requested() != 0);) {
      pairs.clear();
      for (; next < in.pairs.size() && pairs.size() < batch; ++next) {
        if (skip_zero_divisor && in.pairs[next][1] == 0) ++skipped;
        else pairs.push_back(in.pairs[next]);
      }
      for (std::size_t i = 0; i < pairs.size(); ++i) {
        store_bits(k.type, A.data(), i, encode_value(k.type, pairs[i][0]));
        store_bits(k.type, B.data(), i, encode_value(k.type, pairs[i][1]));
        store_bits(k.type, Y.data(), i, poison);
      }
      if (pairs.empty()) break;
      faulted = !run_batch(r, k, A.data(), B.data(), Y.data(), pairs.size(), value_of);
      for (std::size_t i = 0; i < pairs.size() && !faulted; ++i)
        judge_one<V>(judge, k, o, pairs[i][0], pairs[i][1], decode_value<V>(k.type, load_bits(k.type, Y.data(), i)));
    }
    if (faulted || interrupted) break;
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
  if (!faulted && interrupted) finish_interrupted(r);
  finish_fp_environment(r, k);
  r.duration_seconds = seconds_since(t0);
  return r;
}

}  // namespace

CheckResult check_inputs(const Kernel& kernel, const std::vector<FloatInputs>& inputs,
                         const CheckOptions& o, bool exhaustive) {
  return check_pairs(kernel, inputs, o, exhaustive);
}

CheckResult check_inputs(const Kernel& kernel, const std::vector<IntInputs>& inputs,
                         const CheckOptions& o, bool exhaustive) {
  return check_pairs(kernel, inputs, o, exhaustive);
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
