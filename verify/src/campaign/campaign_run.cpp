// The campaign runner: concrete checks (in parallel over `jobs` threads, in a
// fixed order in the result), then the symbolic checks and the seed audit.
#include <symerr/verify/campaign/campaign.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <climits>
#include <cstdint>
#include <cmath>
#include <mutex>
#include <thread>

#include <symerr/verify/bounds/bounds.hpp>
#include <symerr/verify/concrete/concrete.hpp>
#include <symerr/verify/concrete/exhaustive.hpp>
#include <symerr/verify/report/identity.hpp>
#include <symerr/verify/concrete/strategy.hpp>

namespace symerr::verify {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

struct Job {
  Kernel kernel;
  CheckOptions options;
  ItemIdentity identity;  // user kernels
};

bool has(const std::vector<std::string>& v, const char* s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

Property property_of(const BoundSpec& b, OpId op) {
  switch (b.kind) {
    case BoundSpec::Kind::CorrectlyRounded: return correct_rounding();
    case BoundSpec::Kind::UnitRoundoff: return unit_roundoff_bound();
    case BoundSpec::Kind::SonnxDivIntroduction:
      return op == OpId::Div ? sonnx_div_introduction_bound() : unit_roundoff_bound();
    case BoundSpec::Kind::Ulp: return ulp_multiple_bound(b.ulp);
  }
  return correct_rounding();
}

CheckOptions options_of(const CampaignSpec& s, const Kernel& k, std::uint64_t seed) {
  CheckOptions o;
  o.property = property_of(s.bound, k.op);
  o.integer_division = s.integer_division;
  o.requirements = s.requirements;
  o.feed_undefined = s.run_undefined_inputs;
  o.seed = seed;
  o.strategies.special_grid = has(s.strategies, "special_grid");
  o.strategies.boundary = has(s.strategies, "boundary");
  o.strategies.boundary_count = s.boundary_count;
  o.strategies.random_count = has(s.strategies, "random") ? s.random_count : 0;
  return o;
}

bool restricted(const CampaignSpec& s) { return s.input_min || s.input_max || !s.keep_special_values; }

bool in_range(double x, const CampaignSpec& s) {
  if (std::isnan(x) || std::isinf(x)) return s.keep_special_values;
  const double m = std::fabs(x);
  return (!s.input_min || m >= *s.input_min) && (!s.input_max || m <= *s.input_max);
}

bool in_range(__int128 x, const CampaignSpec& s) {
  const double m = std::fabs(static_cast<double>(x));  // exact below 2^53; ranges are doubles
  return (!s.input_min || m >= *s.input_min) && (!s.input_max || m <= *s.input_max);
}

// The integer strategies' inputs in the range (no longer the whole domain: sampled).
CheckResult check_int_in_range(const Job& job, const CampaignSpec& s) {
  const auto& o = job.options;
  const auto& k = job.kernel;
  const auto I = std::get<IntFormat>(format_of(k.type));
  std::vector<IntInputs> all;
  if (o.strategies.exhaustive_small_integers && I.bits <= 8) {
    all.push_back(exhaustive_inputs(I));
  } else {
    if (o.strategies.special_grid) all.push_back(special_grid(I));
    if (o.strategies.random_count) all.push_back(random_inputs(I, o.strategies.random_count, o.seed));
  }
  for (auto& in : all)
    std::erase_if(in.pairs, [&](const auto& p) { return !in_range(p[0], s) || !in_range(p[1], s); });
  return check_inputs(k, all, o, false);
}

// The strategies' inputs with operands outside the campaign's range dropped.
CheckResult check_in_range(const Job& job, const CampaignSpec& s) {
  const auto& o = job.options;
  const auto& k = job.kernel;
  if (!is_float(k.type)) return check_int_in_range(job, s);
  const auto F = std::get<FloatFormat>(format_of(k.type));
  std::vector<FloatInputs> all;
  if (o.strategies.special_grid) all.push_back(special_grid(F));
  if (o.strategies.boundary) all.push_back(boundary_inputs(k.op, F, o.strategies.boundary_count, o.seed));
  if (o.strategies.random_count) all.push_back(random_inputs(F, o.strategies.random_count, o.seed));
  for (auto& in : all)
    std::erase_if(in.pairs, [&](const auto& p) { return !in_range(p[0], s) || !in_range(p[1], s); });
  return check_inputs(k, all, o, false);
}

// The 16-bit float formats are swept exhaustively (all 2^32 pairs) when asked
// and the input range is not restricted; everything else runs the sampled
// strategies. A sweep counts every failure (witnesses are capped) and runs on
// `threads` threads (--jobs).
CheckResult run_job(const Job& job, const CampaignSpec& s, bool exhaustive, unsigned threads,
                    const Progress& progress) {
  const bool sixteen = job.kernel.type == ElementType::FP16 || job.kernel.type == ElementType::BF16;
  const bool narrowed = restricted(s);
  CheckResult r;
  if (exhaustive && sixteen && !narrowed) {
    ExhaustiveOptions eo;
    eo.check = job.options;
    eo.max_failures = 0;
    eo.threads = std::max(1u, threads);
    eo.progress = ProgressDisplay::Never;
    eo.progress_lines = progress;
    r = check_exhaustive(job.kernel, eo);
  } else {
    r = narrowed ? check_in_range(job, s) : check_kernel(job.kernel, job.options);
    if (exhaustive && sixteen)
      r.reason += (r.reason.empty() ? "" : "; ") +
                  std::string("exhaustive sweep not run: the campaign restricts the input range");
  }
  r.semantics["broadcast"] = s.broadcast;
  if (is_float(job.kernel.type) && !r.evidence.metrics.count("bound_ulp")) {
    if (s.bound.kind == BoundSpec::Kind::CorrectlyRounded) r.evidence.metrics["bound_ulp"] = 0.5;
    if (s.bound.kind == BoundSpec::Kind::Ulp) r.evidence.metrics["bound_ulp"] = s.bound.ulp;
  }
  return r;
}

std::vector<Job> jobs_of(const CampaignSpec& s, std::uint64_t seed) {
  std::vector<Job> jobs;
  for (OpId op : s.operators)
    for (ElementType t : s.formats) {
      Kernel k = builtin_kernel(op, t, s.integer_division);
      CheckOptions o = options_of(s, k, seed);
      o.requirements = s.requirements.empty() ? seed_requirements(op, t) : s.requirements;
      jobs.push_back({std::move(k), std::move(o), {}});
    }
  for (std::size_t i = 0; i < s.kernels.size(); ++i) {
    const UserKernelSpec& u = s.kernels[i];
    Kernel k;
    try {
      k = load_kernel(u.library, u.symbol, u.signature, s.time_limit_seconds);
    } catch (const KernelLoadError& e) {  // name the campaign file and the entry
      throw KernelLoadError((s.file.empty() ? std::string("campaign") : s.file.string()) + ": at " +
                            (i < s.kernel_paths.size() ? s.kernel_paths[i] : "/kernels") + ": " + e.what());
    }
    k.name = u.name;
    CheckOptions o = options_of(s, k, seed);
    if (!u.requirements.empty()) o.requirements = u.requirements;
    if (s.isolate_user_kernels) o.isolation = SandboxOptions{s.time_limit_seconds, s.memory_limit_bytes};
    ItemIdentity id;
    id.library = k.library;
    id.symbol = u.symbol;
    id.form = to_string(u.signature.form);
    id.sha256 = sha256_file(k.library);
    id.package = debian_package_of(k.library);
    if (id.package.empty() && u.library != k.library) id.package = debian_package_of(u.library);
    id.build = u.build;
    jobs.push_back({std::move(k), std::move(o), std::move(id)});
  }
  return jobs;
}

// A check that could not run to its end through an error of the harness
// (not a kernel fault: those are verdicts of their own, crashed / timed out):
// inconclusive, without blaming the kernel.
CheckResult failed_check(const Job& job, const std::exception& e) {
  CheckResult r = make_check_header(job.kernel, job.options);
  r.verdict = Verdict::Inconclusive;
  r.reason = std::string("the harness stopped this check with an error (not a kernel fault): ") + e.what();
  return r;
}

std::vector<CheckResult> run_jobs(const std::vector<Job>& jobs, const CampaignSpec& s,
                                  const RunOptions& ro) {
  std::vector<CheckResult> results(jobs.size());
  std::atomic<std::size_t> next{0}, done{0};
  std::mutex progress_mutex;
  const bool exhaustive = ro.exhaustive || has(s.strategies, "exhaustive");
  auto worker = [&] {
    const FpStateScope documented;  // each thread has its own FP state
    for (std::size_t i; (i = next++) < jobs.size();) {
      const auto t0 = Clock::now();
      try {
        if (stop_requested()) {
          results[i] = make_check_header(jobs[i].kernel, jobs[i].options);
          results[i].verdict = Verdict::Inconclusive;
          results[i].reason = "not run: the run was interrupted before this check started";
        } else {
          results[i] = run_job(jobs[i], s, exhaustive, ro.jobs, ro.progress);
        }
      } catch (const std::exception& e) {
        results[i] = failed_check(jobs[i], e);
      }
      if (!jobs[i].identity.library.empty()) {
        const std::string form = results[i].item.form;
        results[i].item = jobs[i].identity;
        if (results[i].item.form.empty()) results[i].item.form = form;
        // after the check: ldd and dpkg take ~0.5 s, memoized per library
        results[i].item.libraries = library_closure(results[i].item.library);
      }
      results[i].duration_seconds = seconds_since(t0);
      if (ro.progress) {
        char line[512];
        std::snprintf(line, sizeof line, "[%zu/%zu] %s: %s (%.1f s)", ++done, jobs.size(),
                      results[i].id.c_str(), to_string(results[i].verdict),
                      results[i].duration_seconds);
        std::lock_guard lock(progress_mutex);
        ro.progress(line);
      }
    }
  };
  // an exhaustive sweep uses --jobs threads itself: the checks then run one after the other
  const unsigned parallel = exhaustive ? 1u : ro.jobs;
  const unsigned n = std::max(1u, std::min<unsigned>(parallel, static_cast<unsigned>(jobs.size())));
  std::vector<std::thread> threads;
  for (unsigned t = 1; t < n; ++t) threads.emplace_back(worker);
  worker();
  for (auto& t : threads) t.join();
  return results;
}

void append(std::vector<CheckResult>& into, std::vector<CheckResult> from) {
  for (auto& c : from) into.push_back(std::move(c));
}

// Audits judge specification statements; a symbolic check judges a seed's
// bound (from_spec) or one of symerr's own bounds (an implementation).
// Symbolic witnesses name an operand "real R, err E": the error goes to
// Witness::input_errors (shown in the reports next to the input).
void split_input_errors(Witness& w) {
  if (!w.input_errors.empty()) return;
  std::vector<Value> errors;
  for (auto& v : w.inputs) {
    const auto p = v.exact.find(", err ");
    if (v.exact.rfind("real ", 0) != 0 || p == std::string::npos) return;
    const std::string e = v.exact.substr(p + 6);
    double d = 0;
    try {
      d = mpq_class(e).get_d();
    } catch (const std::exception&) {
      return;
    }
    errors.push_back(Value{d, e, ""});
  }
  w.input_errors = std::move(errors);
}

std::vector<CheckResult> classified(std::vector<CheckResult> checks) {
  for (auto& c : checks) {
    for (auto& w : c.witnesses) split_input_errors(w);
    for (auto& req : c.requirements) req = qualified_requirement(req, c.operator_name, c.format);
    if (c.requirements.empty()) {  // the statement checked is its own requirement: "<Op>/<kind>/<statement>"
      const auto parts = c.id.find('/');
      const std::string statement = c.id.substr(parts == std::string::npos ? 0 : parts + 1);
      c.requirements.push_back(qualified_requirement("[" + statement + "]", c.operator_name, c.format));
    }
    if (c.kind == "audit") {
      c.subject = Subject::Specification;
      continue;
    }
    c.subject = Subject::Implementation;
    const auto slash = c.id.rfind('/');
    const std::string bound_id = slash == std::string::npos ? c.id : c.id.substr(slash + 1);
    if (const SpecBound* b = find_bound(bound_id); b && b->from_spec) c.subject = Subject::Specification;
  }
  return checks;
}

}  // namespace

CampaignSpec default_campaign() {
  CampaignSpec s;
  s.name = "default";
  s.operators = {OpId::Div, OpId::Sub, OpId::Add, OpId::Mul};
  s.formats = {ElementType::FP16, ElementType::BF16,  ElementType::FP32, ElementType::FP64,
               ElementType::INT8, ElementType::UINT8, ElementType::INT32};
  s.random_count = 1000000;  // about 20 s of the few minutes the main job may take on 2 cores
  // symerr's reference unary kernels (well under a second): Sqrt on every
  // float format (FP16/BF16 on all 2^16 inputs), Abs and Neg on all FP16 inputs
  for (ElementType t : {ElementType::FP16, ElementType::BF16, ElementType::FP32, ElementType::FP64}) {
    UnaryKernelSpec u;
    u.symbol = u.name = "symerr::Sqrt";
    u.op = OpId::Sqrt;
    u.type = t;
    u.random_count = 20000;
    if (t == ElementType::FP16 || t == ElementType::BF16)
      u.strategies = {UnaryStrategy::Special, UnaryStrategy::Boundary, UnaryStrategy::Exhaustive};
    s.unary_kernels.push_back(u);
  }
  for (OpId op : {OpId::Abs, OpId::Neg}) {
    UnaryKernelSpec u;
    u.symbol = u.name = "symerr::" + std::string(to_string(op));
    u.op = op;
    u.type = ElementType::FP16;
    u.strategies = {UnaryStrategy::Special, UnaryStrategy::Exhaustive};
    s.unary_kernels.push_back(u);
  }
  s.symbolic = true;
  s.audit = true;
  return s;
}

namespace {

// Budgets, before anything runs.
void check_budgets(const CampaignSpec& spec, const RunOptions& ro) {
  const std::string where = spec.file.empty() ? std::string("the default campaign") : spec.file.string();
  const std::uint64_t checks = spec.operators.size() * spec.formats.size() + spec.kernels.size() +
                               spec.unary_kernels.size();
  if (checks > spec.max_checks)
    throw CampaignError(where + ": at /budget/max_checks: " + std::to_string(checks) + " checks exceed the budget of " +
                        std::to_string(spec.max_checks) + " (default " + std::to_string(kDefaultMaxChecks) +
                        "; raise \"budget\": {\"max_checks\": N} to run them)");
  const std::uint64_t n = estimate_executions(spec, ro);
  if (n > spec.max_executions)
    throw CampaignError(where + ": at /budget/max_executions: about " + std::to_string(n) +
                        " kernel executions exceed the budget of " + std::to_string(spec.max_executions) +
                        " (default " + std::to_string(kDefaultMaxExecutions) +
                        "; lower random_count / drop exhaustive, or raise \"budget\": {\"max_executions\": N})");
}

// A concrete check that ran no input verified nothing: an input error.
void check_ran_inputs(const CampaignSpec& spec, const std::vector<CheckResult>& checks) {
  for (const auto& c : checks)
    if (c.kind == "concrete" && c.evidence.inputs_checked == 0 && c.verdict != Verdict::Crashed &&
        c.verdict != Verdict::TimedOut)
      throw CampaignError((spec.file.empty() ? std::string("the default campaign") : spec.file.string()) +
                          ": the check " + c.id + " ran 0 inputs (its strategies and input range leave none): "
                          "nothing would be verified");
}

std::uint64_t sat_add(std::uint64_t a, std::uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; }

}  // namespace

std::uint64_t estimate_executions(const CampaignSpec& spec, const RunOptions& ro) {
  const bool sweep = ro.exhaustive || has(spec.strategies, "exhaustive");
  auto binary = [&](ElementType t) -> std::uint64_t {
    const bool sixteen = t == ElementType::FP16 || t == ElementType::BF16;
    if (sweep && sixteen && !restricted(spec)) return std::uint64_t{1} << 32;
    if (!is_float(t) && std::get<IntFormat>(format_of(t)).bits <= 8) return 1u << 16;
    std::uint64_t n = 0;
    if (has(spec.strategies, "special_grid")) n += 19 * 19;
    if (has(spec.strategies, "boundary")) n += spec.boundary_count;
    if (has(spec.strategies, "random")) n += spec.random_count;
    return n;
  };
  std::uint64_t total = 0;
  for (std::size_t i = 0; i < spec.operators.size(); ++i)
    for (ElementType t : spec.formats) total = sat_add(total, binary(t));
  for (const auto& k : spec.kernels) total = sat_add(total, binary(k.signature.type));
  for (const auto& u : spec.unary_kernels) {
    const bool sixteen = u.type == ElementType::FP16 || u.type == ElementType::BF16;
    std::uint64_t n = 0;
    for (UnaryStrategy st : u.strategies)
      n += st == UnaryStrategy::Exhaustive ? (std::uint64_t{1} << (sixteen ? 16 : 32))
           : st == UnaryStrategy::Random   ? u.random_count
                                           : 1000;
    if (u.strategies.empty()) n = 2000 + u.random_count;
    if (ro.exhaustive && sixteen) n += 1u << 16;
    total = sat_add(total, n);
  }
  return total;
}

CampaignResult run_campaign(const CampaignSpec& spec, const RunOptions& ro) {
  check_budgets(spec, ro);
  const FpStateScope documented;  // symerr's own arithmetic, whatever the caller's FP state
  const std::uint64_t seed = ro.seed.value_or(spec.seed);
  CampaignResult r;
  r.name = spec.name;
  r.environment = current_environment(seed);
  r.source.command_line = ro.command_line;
  if (!spec.file.empty()) {
    r.source.file = spec.file.string();
    r.source.text = spec.text;
    r.source.sha256 = sha256_hex(spec.text);
  }
  const auto jobs = jobs_of(spec, seed);
  if (ro.progress && !jobs.empty())
    ro.progress("concrete checks: " + std::to_string(jobs.size()) + " on " +
                std::to_string(std::max(1u, ro.jobs)) + " threads");
  append(r.checks, run_jobs(jobs, spec, ro));
  if (!stop_requested()) check_ran_inputs(spec, r.checks);
  if (!spec.unary_kernels.empty()) {
    if (ro.progress) ro.progress("unary checks: " + std::to_string(spec.unary_kernels.size()));
    append(r.checks, classified(run_unary_checks(spec, ro)));
  }
  if (!spec.source_kernels.empty() && !stop_requested()) append(r.checks, classified(run_source_checks(spec, ro)));
  if (stop_requested()) return r;  // interrupted: what finished, and what did not, as inconclusive
  if (spec.symbolic) {
    if (ro.progress) ro.progress("symbolic checks");
    append(r.checks, classified(run_default_symbolic_checks(ro.progress)));
  }
  if (spec.audit) {
    if (ro.progress) ro.progress("spec audit of the seeds");
    append(r.checks, classified(run_seed_audit(ro.progress)));
  }
  return r;
}

CampaignResult run_audit(const RunOptions& ro) {
  const FpStateScope documented;
  CampaignResult r;
  r.name = "audit";
  r.environment = current_environment(ro.seed.value_or(0));
  r.source.command_line = ro.command_line;
  if (ro.progress) ro.progress("spec audit of the seeds");
  r.checks = classified(run_seed_audit(ro.progress));
  return r;
}

}  // namespace symerr::verify
