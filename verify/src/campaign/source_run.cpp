// `symerr run` on source kernels (source_kernel.hpp): each entry built (or
// found in the cache), its checker run in a child process, its checks given
// the hypotheses they rest on.
#include <symerr/verify/campaign/source_kernel.hpp>

#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cstring>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include <symerr/operators.hpp>
#include <symerr/symbolic/accuracy.hpp>
#include <symerr/verify/campaign/campaign.hpp>
#include <symerr/verify/concrete/concrete.hpp>

#include "source_build.hpp"

namespace symerr::verify {

namespace {

namespace fs = std::filesystem;
using source_detail::Ran;

struct Built {
  fs::path dir, checker;
  source_detail::ObjectFacts facts;
  std::string compiler_version;
};

[[noreturn]] void fail(const CampaignSpec& spec, const SourceKernelSpec& k, const std::string& key,
                       const std::string& msg) {
  throw CampaignError(spec.file.string() + ": at " + k.json_path + key + ": " + msg);
}

std::string tail(const std::string& s, std::size_t n = 3000) { return s.size() <= n ? s : "..." + s.substr(s.size() - n); }

void say(const RunOptions& ro, const std::string& s) {
  if (ro.progress) ro.progress(s);
}

// The plain objects (and assembly, for the FMA scan without objdump), the
// checker program, the compiler's version: built in a fresh directory, renamed
// into the cache when complete.
void build_into(const CampaignSpec& spec, const SourceKernelSpec& k, const source_detail::SymerrLayout& l,
                const fs::path& cc, const fs::path& dir) {
  const auto flags = source_detail::split_flags(k.flags);
  std::vector<std::string> link = {l.cxx, "-std=gnu++20", "-O1", "-ffp-contract=off", "-fno-fast-math"};
  for (const auto& f : l.extra_flags) link.push_back(f);
  for (const auto& i : l.includes) link.push_back("-I" + i.string());
  link.push_back((dir / "checker.cpp").string());
  for (std::size_t i = 0; i < k.sources.size(); ++i) {
    const fs::path obj = dir / ("plain" + std::to_string(i) + ".o");
    for (const char* mode : {"-c", "-S"}) {
      std::vector<std::string> c = {cc.string()};
      c.insert(c.end(), flags.begin(), flags.end());
      c.insert(c.end(), {mode, k.sources[i].string(), "-o",
                         (dir / ("plain" + std::to_string(i) + (mode[1] == 'c' ? ".o" : ".s"))).string()});
      const Ran r = source_detail::run_command(c, dir / "cc.log", 600, 0);
      if (r.exit_code != 0)
        fail(spec, k, "/sources/" + std::to_string(i), "the plain build (" + cc.string() + " " + k.flags + ") failed:\n" + tail(r.output));
    }
    link.push_back(obj.string());
    // the entry's parameters as the campaign declares them: a conflict with the source is an error
    const fs::path proto = dir / ("prototype" + std::to_string(i) + ".c");
    std::ofstream(proto) << "#include <stddef.h>\n#include \"" << k.sources[i].string() << "\"\n"
                         << source_entry_prototype(k) << ";\n";
    std::vector<std::string> c = {cc.string()};
    c.insert(c.end(), flags.begin(), flags.end());
    c.insert(c.end(), {"-fsyntax-only", proto.string()});
    const Ran r = source_detail::run_command(c, dir / "cc.log", 600, 0);
    if (r.exit_code != 0)
      fail(spec, k, "/arguments", "the entry's prototype from the arguments, " + source_entry_prototype(k) +
                                      ", does not match " + k.sources[i].string() + " (inputs are const):\n" +
                                      tail(r.output));
  }
  for (const auto& x : l.libraries) link.push_back(x.string());
  link.insert(link.end(), {"-lmpfr", "-lgmpxx", "-lgmp", "-pthread", "-ldl", "-o", (dir / "checker").string()});
  std::ofstream(dir / "checker.cpp") << source_checker_program(k);
  const Ran r = source_detail::run_command(link, dir / "cxx.log", 1800, 0);
  if (r.exit_code != 0)
    fail(spec, k, "/sources", "the substituted build failed (the kernel must compile as C++ on symerr's types: "
                              "docs/substitution.md):\n" + tail(r.output));
  const Ran v = source_detail::run_command({cc.string(), "--version"}, dir / "version.txt", 60, 0);
  std::ofstream(dir / "compiler.txt") << v.output.substr(0, v.output.find('\n'));
}

Built build(const CampaignSpec& spec, const SourceKernelSpec& k, const RunOptions& ro) {
  const auto cc = source_detail::find_tool(k.compiler);
  if (!cc)
    fail(spec, k, "/compiler", "C compiler '" + k.compiler + "' not found: install one (Debian: apt-get install gcc) "
                               "or name it in \"compiler\"");
  const source_detail::SymerrLayout l = source_detail::symerr_layout();
  if (!source_detail::find_tool(l.cxx))
    fail(spec, k, "", "no C++ compiler '" + l.cxx + "' to build the checker: install g++ (Debian: apt-get install g++)");
  const std::string program = source_checker_program(k);
  Built b;
  const fs::path root = source_detail::cache_root() / "builds";
  b.dir = root / source_detail::build_key(k, l, program);
  b.checker = b.dir / "checker";
  if (!fs::exists(b.checker)) {
    say(ro, "source kernel " + k.name + ": building (" + k.compiler + " " + k.flags + "; checker from " + l.where + ")");
    const fs::path tmp = root / (b.dir.filename().string() + ".tmp" + std::to_string(::getpid()));
    fs::remove_all(tmp);
    fs::create_directories(tmp);
    try {
      build_into(spec, k, l, *cc, tmp);
    } catch (...) {
      fs::remove_all(tmp);  // a failed build leaves nothing in the cache
      throw;
    }
    std::error_code ec;
    fs::rename(tmp, b.dir, ec);  // another run may have finished the same build first: keep its
    if (ec) fs::remove_all(tmp);
  } else {
    say(ro, "source kernel " + k.name + ": build found in the cache " + b.dir.string());
  }
  std::vector<fs::path> objects, assembly;
  for (std::size_t i = 0; i < k.sources.size(); ++i) {
    objects.push_back(b.dir / ("plain" + std::to_string(i) + ".o"));
    assembly.push_back(b.dir / ("plain" + std::to_string(i) + ".s"));
  }
  b.facts = source_detail::object_facts(objects, assembly, b.dir);
  std::getline(std::ifstream(b.dir / "compiler.txt"), b.compiler_version);
  return b;
}

// The shortest decimal that reads back as x.
std::string shortest(double x) {
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, x);
  return std::string(buf, r.ptr);
}

bool has_flag(const std::vector<std::string>& flags, const std::string& f) {
  for (const auto& x : flags)
    if (x == f || x.rfind(f + "=", 0) == 0) return true;
  return false;
}

// Whether the plain build honours the analysis' model (separate IEEE roundings
// in the source's order, binary32/64 arithmetic): "" when it does, else why not.
std::string model_breach(const SourceKernelSpec& k, const source_detail::ObjectFacts& f, bool contraction_off) {
  const auto flags = source_detail::split_flags(k.flags);
  std::string why;
  auto add = [&why](const std::string& s) { why += (why.empty() ? "" : "; ") + s; };
  for (const char* fm : {"-ffast-math", "-Ofast", "-funsafe-math-optimizations", "-fassociative-math",
                         "-freciprocal-math", "-ffinite-math-only"})
    if (has_flag(flags, fm)) add(std::string(fm) + " lets the compiler change the arithmetic");
  for (const auto& x : flags)
    if (x == "-mfpmath=387" || x == "-m32") add(x + ": x87 arithmetic (extended precision)");
  if (f.fma > 0)
    add(std::to_string(f.fma) + " FMA instruction(s) in the object code" +
        (contraction_off ? " of a build declared without contraction" : "") +
        ": the analysis models a separate rounding of every product");
  return why;
}

std::string libm_models(const SourceKernelSpec& k, const source_detail::ObjectFacts& f) {
  std::string out;
  const FloatFormat F = k.format == "FP32" ? FP32 : FP64;
  for (const OpInfo& op : operator_table()) {
    if (!op.has(kAccuracyModel)) continue;
    for (const std::string& name : {std::string(op.function_name), std::string(op.function_name) + "f"}) {
      if (!f.calls.count(name)) continue;
      const UlpBound b = current_accuracy_model().bound(op.id, F, RoundingMode::NearestEven);
      std::ostringstream s;
      s << name << ": " << current_accuracy_model().name() << ", "
        << (b.correctly_rounded ? std::string("correctly rounded") : shortest(b.ulps) + " ulp") << " ("
        << F.name << ", round to nearest; " << b.source << ")";
      out += (out.empty() ? "" : "; ") + s.str();
    }
  }
  return out.empty() ? "no libm function with an accuracy model called" : out;
}

void attach_hypotheses(std::vector<CheckResult>& checks, const SourceKernelSpec& k, const Built& b) {
  const auto flags = source_detail::split_flags(k.flags);
  // the last -ffp-contract= decides; without one, GCC's ISO C modes (-std=c99, ...) are off, GNU C fast
  std::string contract, std_mode;
  for (const auto& f : flags) {
    if (f.rfind("-std=", 0) == 0) std_mode = f;
    if (f.rfind("-ffp-contract=", 0) == 0) contract = f;
  }
  const bool off = contract.empty() ? std_mode.rfind("-std=c", 0) == 0 : contract == "-ffp-contract=off";
  const std::string breach = model_breach(k, b.facts, off);
  std::map<std::string, std::string> h;
  h["compiler"] = b.compiler_version;
  h["compile_flags"] = k.flags;
  h["contraction"] = off ? "declared off (-ffp-contract=off or an ISO -std)"
                         : "not declared off (GCC's GNU C default: -ffp-contract=fast)";
  h["fma_instructions"] = std::to_string(b.facts.fma) + " (" + b.facts.method + ")";
  h["model_honoured"] = breach.empty() ? "yes" : "no: " + breach;
  h["libm_model"] = libm_models(k, b.facts);
  h["constants"] = "numbers the kernel computes (sqrtf(2.0f / M_PI)) are computed in " + k.format +
                   " as the compiled kernel computes them, not the mathematical constants";
  h["evaluation_order"] = "the source's: the substituted build runs the same statements in the same order";
  h["exact_execution"] = "the substituted build at the point: a sound enclosure of the real program's result";
  for (const auto& a : k.arguments)
    if (a.role == SourceArgument::Role::Input) {
      h["box." + a.name] = "[" + shortest(a.lo) + ", " + shortest(a.hi) + "]";
      h["input_error." + a.name] = "[" + shortest(a.elo) + ", " + shortest(a.ehi) + "]";
    }
  const SourceBudget& u = k.budget;
  h["budget"] = "boxes " + std::to_string(u.boxes) + ", runs " + std::to_string(u.runs) + ", subdivision " +
                std::to_string(u.subdivision) + ", executions " + std::to_string(u.executions) + ", elements " +
                std::to_string(u.elements);
  for (auto& c : checks) {
    for (const auto& [key, v] : h) c.semantics[key] = v;
    if (!breach.empty() && c.verdict == Verdict::Proven) {
      c.verdict = Verdict::Inconclusive;
      c.exhaustive = false;
      c.reason = "proven for the model, not for this build (" + breach + "): " + c.reason;
    }
  }
}

std::vector<CheckResult> faulted(const SourceKernelSpec& k, const Ran& r) {
  std::vector<CheckResult> out;
  for (const Statement& s : k.statements) {
    CheckResult c;
    c.kind = "symbolic";
    c.kernel = c.operator_name = k.name;
    c.format = k.format;
    c.id = "statement/" + k.name + "/" + k.format + "/" + s.id;
    c.requirements = s.requirements;
    c.requirements.insert(c.requirements.end(), k.requirements.begin(), k.requirements.end());
    c.bound = BoundInfo{s.id + ": |" + to_string(s.kind) + "| <= " + s.bound_text, s.bound_text, s.source};
    c.verdict = r.timed_out ? Verdict::TimedOut : Verdict::Crashed;
    FaultInfo f;
    f.kind = r.timed_out ? "timeout" : "signal";
    f.message = r.timed_out ? "the checker did not finish within budget.time_limit_seconds = " +
                                  std::to_string(k.budget.time_limit_seconds) + " s (a safety limit, wall-clock)"
                            : "the checker died of signal " + std::to_string(r.signal) + " (" + strsignal(r.signal) + ")";
    c.fault = f;
    c.reason = f.message + "; its output: " + tail(r.output, 600);
    out.push_back(std::move(c));
  }
  return out;
}

std::vector<CheckResult> run_one(const CampaignSpec& spec, std::size_t i, const Built& b, const RunOptions& ro) {
  const SourceKernelSpec& k = spec.source_kernels[i];
  say(ro, "source kernel " + k.name + ": " + std::to_string(k.statements.size()) + " statement(s), checking");
  const std::string tag = std::to_string(::getpid());
  const fs::path out = b.dir / ("result-" + tag + ".json"), log = b.dir / ("run-" + tag + ".log");
  const bool sanitized = !source_detail::symerr_layout().extra_flags.empty();  // ASan reserves more than RLIMIT_AS allows
  const fs::path progress = b.dir / ("progress-" + tag + ".txt");
  std::ofstream(progress).close();
  std::ifstream lines(progress);
  const auto relay = [&] {
    lines.clear();
    for (std::string line; std::getline(lines, line);) say(ro, "source kernel " + k.name + ": " + line);
    return stop_requested() != 0;  // SIGINT / SIGTERM: the checker is killed, its checks not judged
  };
  const Ran r = source_detail::run_command(
      {b.checker.string(), fs::absolute(spec.file).string(), std::to_string(i), out.string(), progress.string()}, log,
      k.budget.time_limit_seconds, sanitized ? 0 : spec.memory_limit_bytes, relay);
  relay();
  fs::remove(log);
  fs::remove(progress);
  if (r.stopped) {
    std::vector<CheckResult> out = faulted(k, r);
    for (auto& c : out) {
      c.verdict = Verdict::Inconclusive;
      c.fault.reset();
      c.reason = "interrupted: the checker was killed before it finished";
    }
    return out;
  }
  if (r.timed_out || r.signal != 0) return faulted(k, r);
  if (r.exit_code != 0) fail(spec, k, "", "the checker of " + k.name + " failed:\n" + tail(r.output));
  std::ifstream in(out, std::ios::binary);
  const nlohmann::json j = nlohmann::json::parse(in);
  in.close();
  fs::remove(out);
  std::vector<CheckResult> checks = j.get<std::vector<CheckResult>>();
  attach_hypotheses(checks, k, b);
  if (!r.output.empty())  // what the kernel (or the checker) printed: reported, never mixed into symerr's output
    for (auto& c : checks)
      c.semantics["kernel_output"] = r.output.substr(0, 2048) + " (" + std::to_string(r.output.size()) + " bytes)";
  return checks;
}

}  // namespace

std::vector<CheckResult> run_source_checks(const CampaignSpec& spec, const RunOptions& ro) {
  std::vector<CheckResult> out;
  if (spec.source_kernels.empty()) return out;
  if (spec.file.empty()) throw CampaignError("source kernels are read from a campaign file: this campaign has none");
  for (std::size_t i = 0; i < spec.source_kernels.size(); ++i) {
    if (stop_requested()) {  // interrupted: the kernels not started are not judged
      for (auto& c : faulted(spec.source_kernels[i], Ran{})) {
        c.verdict = Verdict::Inconclusive;
        c.fault.reset();
        c.reason = "not run: the run was interrupted";
        out.push_back(std::move(c));
      }
      continue;
    }
    const Built b = build(spec, spec.source_kernels[i], ro);
    for (auto& c : run_one(spec, i, b, ro)) out.push_back(std::move(c));
  }
  return out;
}

}  // namespace symerr::verify
