// The unary checks of a campaign ("form": "unary"; campaign.hpp): symerr's
// reference unary kernels, loading user kernels, running check_unary_kernel
// per strategy, and one CheckResult per kernel in the campaign's report.
#include <symerr/verify/campaign/campaign.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <stdexcept>

#include <symerr/verify/concrete/concrete.hpp>
#include <symerr/verify/report/identity.hpp>

#include "../concrete/judge.hpp"

namespace symerr::verify {
namespace {

// The reference kernels: the binary64 result (exact for Abs and Neg; sqrt
// correctly rounded) rounded once to the format — correctly rounded, since
// binary64 has >= 2p + 2 bits for every p <= 24 (double rounding is innocuous
// for sqrt) and FP64 needs no second rounding.
double reference_value(OpId op, double x) {
  switch (op) {
    case OpId::Sqrt: return std::sqrt(x);
    case OpId::Abs: return std::fabs(x);
    case OpId::Neg: return -x;
    default: break;
  }
  throw std::invalid_argument("no reference kernel for this operator");
}

UnaryKernel reference_kernel(const std::string& symbol, OpId op, ElementType type) {
  UnaryKernel k;
  k.name = symbol;
  k.op = op;
  k.type = type;
  const FloatFormat F = std::get<FloatFormat>(format_of(type));
  k.run = [op, type, F](const void* x, void* y, std::size_t n) {
    const auto* in = static_cast<const unsigned char*>(x);
    auto* out = static_cast<unsigned char*>(y);
    for (std::size_t i = 0; i < n; ++i) {
      const double v = reference_value(op, decode_float(type, load_bits(type, in, i)));
      const double r = std::isnan(v) ? v : round_to(v, F, RoundingMode::NearestEven).value;
      store_bits(type, out, i, encode_float(type, r));
    }
  };
  return k;
}

std::string bound_name(const UnaryKernelSpec& u) {
  if (u.sonnx_unit_roundoff) return "SONNX introduction: u·max(|f(X)|, min normal)";
  if (u.ulp_bound <= 0.5) return "correctly rounded";
  char b[64];
  std::snprintf(b, sizeof b, "within %g ulp", u.ulp_bound);
  return b;
}

std::string bound_formula(const UnaryKernelSpec& u) {
  const std::string f = std::string(to_string(u.op)) + "(X)";
  if (u.sonnx_unit_roundoff) return "|Y - " + f + "| <= u * max(|" + f + "|, min normal), u = 2^-p";
  if (u.ulp_bound <= 0.5) return "Y == round_RNE(" + f + ")";
  char b[96];
  std::snprintf(b, sizeof b, "|Y - %s| <= %g ulp(%s)", f.c_str(), u.ulp_bound, f.c_str());
  return b;
}

Value float_value(ElementType t, double x) {
  return Value{x, detail::exact_decimal(x), bits_text(t, encode_float(t, x))};
}

Witness witness_of(const UnaryWitness& w, ElementType t, const std::string& op) {
  Witness r;
  r.inputs.push_back(float_value(t, w.x));
  r.output = float_value(t, w.y);
  r.reference = float_value(t, w.expected);
  r.exact_result = std::string(op) + "(" + detail::short_text(w.x) + ")";
  r.ulp_error = w.ulp_error;
  r.abs_error = std::isfinite(w.y) && std::isfinite(w.expected) ? std::fabs(w.y - w.expected) : INFINITY;
  r.message = op + "(" + detail::short_text(w.x) + ") = " + detail::short_text(w.y) + ", expected " +
              detail::short_text(w.expected) + " (" + (w.what.empty() ? "worst" : w.what) + ")";
  return r;
}

// The header of a unary check's report entry.
CheckResult header_of(const UnaryKernelSpec& u, const UnaryKernel& k, std::uint64_t seed) {
  CheckResult r;
  r.kind = "concrete";
  r.kernel = k.name;
  r.operator_name = to_string(u.op);
  r.format = to_string(u.type);
  r.id = "concrete/" + r.operator_name + "/" + r.format + "/" + k.name;
  r.bound = BoundInfo{bound_name(u), bound_formula(u),
                      u.sonnx_unit_roundoff ? "SONNX digest §1.6 (intro, elementwise correctly rounded)" : "campaign file"};
  r.requirements = u.requirements;
  r.seed = seed;
  r.semantics["kernel_form"] = "unary";
  r.semantics["rounding"] = "RNE";
  r.semantics["special_values"] = "IEEE 754 / C Annex F (judged)";
  r.semantics["oracle"] = u.type == ElementType::FP32 ? "rigorous binary64 enclosure, MPFR (Ziv) fallback"
                                                      : "MPFR (Ziv)";
  r.item.form = "unary";
  r.item.symbol = u.symbol;
  for (UnaryStrategy st : u.strategies) r.strategies.push_back(to_string(st));
  return r;
}

// The check stopped at a call that did not return normally: bisect its batch
// to the smallest that reproduces it (as for binary kernels).
void record_unary_fault(CheckResult& r, const UnaryKernel& k, const UnaryResult& p) {
  const std::size_t n = p.fault_batch.size(), w = storage_size(k.type);
  std::vector<unsigned char> x(std::max<std::size_t>(n, 1) * w), y0(x.size());
  for (std::size_t i = 0; i < n; ++i) store_bits(k.type, x.data(), i, p.fault_batch[i]);
  const auto value_of = [&](std::size_t i) {
    return std::vector<Value>{detail::storage_value(k.type, p.fault_batch[i])};
  };
  record_fault(r, as_binary(k), *p.fault, x.data(), x.data(), y0.data(), n, value_of);
}

// Evidence and verdict from the per-strategy results.
void fill(CheckResult& r, const UnaryKernel& k, const std::vector<UnaryResult>& parts, bool exhaustive) {
  Evidence& ev = r.evidence;
  const UnaryWitness* worst = nullptr;
  const UnaryResult* faulted = nullptr;
  for (const UnaryResult& p : parts) {
    ev.inputs_checked += p.tested;
    ev.failures += p.over_bound;
    ev.wrong_special += p.special_mismatches;
    ev.max_ulp_error = std::max(ev.max_ulp_error, p.max_ulp_error);
    ev.max_abs_error = std::max(ev.max_abs_error, p.max_abs_error);
    ev.max_rel_error = std::max(ev.max_rel_error, p.max_rel_error);
    for (std::size_t c = 0; c < kInputClassCount; ++c) {
      ev.classes[c].checked += p.classes[c][0];
      ev.classes[c].failed += p.classes[c][1];
    }
    for (std::size_t b = 0; b < UlpHistogram::kBuckets; ++b) ev.histogram.counts[b] += p.histogram.counts[b];
    if (p.fault && !faulted) faulted = &p;
    ev.metrics["not_correctly_rounded"] += static_cast<double>(p.incorrectly_rounded);
    ev.metrics["mpfr_fallbacks"] += static_cast<double>(p.mpfr_calls);
    for (const UnaryWitness& w : p.witnesses)
      if (r.witnesses.size() < 8) r.witnesses.push_back(witness_of(w, p.type, r.operator_name));
    if (!p.worst.empty() && (!worst || p.worst.front().ulp_error > worst->ulp_error)) worst = &p.worst.front();
  }
  if (worst) ev.worst = witness_of(*worst, parts.front().type, r.operator_name);
  r.exhaustive = exhaustive;
  const bool interrupted = std::any_of(parts.begin(), parts.end(), [](const UnaryResult& p) { return p.interrupted; });
  if (faulted) record_unary_fault(r, k, *faulted);
  else detail::finish_verdict(r, exhaustive && !interrupted);
  if (!faulted && interrupted) finish_interrupted(r);
  finish_fp_environment(r, as_binary(k));
}

UnaryKernel kernel_of(const UnaryKernelSpec& u, double load_seconds) {
  if (u.library.empty()) {
    std::optional<UnaryKernel> k = builtin_unary_kernel(u.symbol, u.type);
    if (!k) throw std::invalid_argument("no reference unary kernel \"" + u.symbol + "\"");
    if (k->op != u.op)
      throw std::invalid_argument(u.symbol + " is not a kernel of " + std::string(to_string(u.op)));
    k->name = u.name;
    return *k;
  }
  UnaryKernel k = load_unary_kernel(u.library, u.symbol, u.op, u.type, load_seconds);
  k.name = u.name;
  return k;
}

CheckResult run_one(const UnaryKernelSpec& u, const CampaignSpec& spec, std::uint64_t seed, const RunOptions& ro) {
  // user kernels in the sandbox (one pool of child processes for every strategy)
  std::optional<SandboxOptions> isolation;
  if (!u.library.empty() && spec.isolate_user_kernels)
    isolation = SandboxOptions{spec.time_limit_seconds, spec.memory_limit_bytes};
  const UnaryKernel k = harnessed(kernel_of(u, spec.time_limit_seconds), isolation);
  CheckResult r = header_of(u, k, seed);
  if (!u.library.empty()) {
    std::error_code ec;
    const auto absolute = std::filesystem::canonical(u.library, ec);  // the item path absolute, as for binary kernels
    r.item.library = ec ? u.library : absolute.string();
    r.item.sha256 = sha256_file(u.library);
    r.item.package = debian_package_of(u.library);
    r.item.build = u.build;
  }
  std::vector<UnaryResult> parts;
  bool exhaustive = false;
  for (UnaryStrategy st : u.strategies) {
    UnaryOptions o;
    o.strategy = st;
    o.ulp_bound = u.ulp_bound;
    o.sonnx_unit_roundoff = u.sonnx_unit_roundoff;
    o.samples = u.random_count;
    o.seed = seed;
    o.threads = std::max(1u, ro.jobs);
    if (ro.progress) {
      ro.progress(r.id + ": " + to_string(st));
      o.progress = [&ro, id = r.id](std::string_view line) { ro.progress(id + ": " + std::string(line)); };
    }
    parts.push_back(check_unary_kernel(k, o));
    exhaustive = exhaustive || st == UnaryStrategy::Exhaustive;
    if (parts.back().fault || parts.back().interrupted) break;  // the check stops at a fault or a stop request
    if (stop_requested()) {
      parts.back().interrupted = true;
      break;
    }
  }
  if (parts.empty()) throw std::invalid_argument("no strategy");
  fill(r, k, parts, exhaustive);
  if (!u.library.empty()) r.item.libraries = library_closure(r.item.library);  // after the check: ~0.5 s
  return r;
}

}  // namespace

std::optional<UnaryKernel> builtin_unary_kernel(const std::string& symbol, ElementType type) {
  if (!is_float(type)) return std::nullopt;
  for (OpId op : {OpId::Sqrt, OpId::Abs, OpId::Neg})
    if (symbol == "symerr::" + std::string(to_string(op))) return reference_kernel(symbol, op, type);
  return std::nullopt;
}

std::vector<CheckResult> run_unary_checks(const CampaignSpec& spec, const RunOptions& ro) {
  std::vector<CheckResult> out;
  const std::uint64_t seed = ro.seed.value_or(spec.seed);
  for (UnaryKernelSpec u : spec.unary_kernels) {
    if (u.strategies.empty()) {
      u.strategies.push_back(UnaryStrategy::Special);
      u.strategies.push_back(UnaryStrategy::Boundary);
      u.strategies.push_back(UnaryStrategy::Random);
    }
    const bool sixteen = u.type == ElementType::FP16 || u.type == ElementType::BF16;
    const bool has_sweep = std::find(u.strategies.begin(), u.strategies.end(), UnaryStrategy::Exhaustive) !=
                           u.strategies.end();
    if (ro.exhaustive && sixteen && !has_sweep) u.strategies.push_back(UnaryStrategy::Exhaustive);  // --exhaustive
    // the sweep runs every input once: the sampled strategies' inputs are among
    // them, and run beside it they were counted twice (2^32 + 407 FP32 inputs)
    if (has_sweep || (ro.exhaustive && sixteen)) u.strategies = {UnaryStrategy::Exhaustive};
    const auto t0 = std::chrono::steady_clock::now();
    CheckResult r;
    if (stop_requested()) {  // interrupted before this check started
      UnaryKernel k;
      k.name = u.name;
      r = header_of(u, k, seed);
      r.verdict = Verdict::Inconclusive;
      r.reason = "not run: the run was interrupted before this check started";
      out.push_back(std::move(r));
      continue;
    }
    try {
      r = run_one(u, spec, seed, ro);
    } catch (const KernelLoadError& e) {  // as for binary kernels: loading errors stop the run
      throw KernelLoadError((spec.file.empty() ? std::string("campaign") : spec.file.string()) + ": unary kernel \"" +
                            u.name + "\": " + e.what());
    } catch (const std::exception& e) {
      UnaryKernel k;
      k.name = u.name;
      r = header_of(u, k, seed);
      r.verdict = Verdict::Inconclusive;
      r.reason = std::string("the harness stopped this check with an error (not a kernel fault): ") + e.what();
    }
    r.duration_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (ro.progress) ro.progress(r.id + ": " + to_string(r.verdict));
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace symerr::verify
