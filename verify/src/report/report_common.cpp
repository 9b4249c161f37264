// What the three renderers share: number formatting, the bound in ulp, the
// JSON form, the terminal summary, and writing/reading the report files.
#include <symerr/verify/report/report.hpp>

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include <symerr/verify/report/identity.hpp>

#include "integrity.hpp"

// The renderers' shared helpers (declared in report.hpp, in symerr::detail).
namespace symerr::detail {

using namespace ::symerr::verify;

std::string format_number(double x) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", x);
  return buf;
}

std::string format_metric(double x) {
  if (x >= 0 && x < 0x1p53 && std::floor(x) == x) return format_count(static_cast<std::uint64_t>(x));
  return format_number(x);
}

std::string format_count(std::uint64_t n) {
  std::string digits = std::to_string(n), out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

void append_sep(std::string& s, std::string_view sep, std::string_view x) {
  if (!s.empty()) s.append(sep);
  s.append(x);
}

std::string semantics_text(const CheckResult& c) {
  std::string s;
  for (const auto& [k, v] : c.semantics) {
    append_sep(s, ", ", k);
    s += " = ";
    s += v;
  }
  return s;
}

LineColumn line_column(const std::string& text, std::size_t offset) {
  LineColumn lc;
  const std::size_t end = offset < text.size() ? offset : text.size();
  for (std::size_t i = 0; i < end; ++i) {
    if (text[i] == '\n') {
      ++lc.line;
      lc.column = 1;
    } else {
      ++lc.column;
    }
  }
  return lc;
}

std::string classes_text(const Evidence& e) {
  std::string s;
  for (InputClass c : kInputClasses) {
    const ClassCount& n = e[c];
    if (n.checked == 0) continue;
    if (!s.empty()) s += ", ";
    s += std::string(to_string(c)) + " " + format_count(n.checked);
    if (n.failed > 0) s += " (" + format_count(n.failed) + " failed)";
  }
  return s.empty() ? "-" : s;
}

std::optional<double> margin_in_ulp(const CheckResult& check) {
  const auto b = bound_in_ulp(check);
  if (!b || check.evidence.inputs_checked == 0) return std::nullopt;
  return *b - check.evidence.max_ulp_error;
}

std::string verdict_name(Verdict v) {
  std::string s = to_string(v);
  for (auto& ch : s)
    if (ch == '_') ch = ' ';
  return s;
}

const char* verdict_meaning(Verdict v) {
  switch (v) {
    case Verdict::Proven: return "the property holds on every input of the stated domain (all inputs run, or a symbolic proof)";
    case Verdict::PassedOnSamples: return "no violation among the inputs run, which do not cover the domain (count and coverage per class given)";
    case Verdict::Violated: return "at least one input breaks the property; witnesses re-checked exactly";
    case Verdict::Inconclusive: return "a proof attempt that did not close; the reason says why";
    case Verdict::Crashed: return "the kernel died (signal, exit(), exception) on an input batch; the smallest reproducing batch is given";
    case Verdict::TimedOut: return "a kernel call did not return within the time limit; the smallest reproducing batch is given";
  }
  return "?";
}

std::string verdict_counts(const CampaignResult& r, Subject subject) {
  std::size_t n[6] = {}, total = 0;
  for (const auto& c : r.checks)
    if (c.subject == subject) {
      ++n[static_cast<int>(c.verdict)];
      ++total;
    }
  std::string s = std::to_string(total) + " check" + (total == 1 ? "" : "s");
  std::string parts;
  for (Verdict v : kAllVerdicts)
    if (n[static_cast<int>(v)] > 0) append_sep(parts, ", ", std::to_string(n[static_cast<int>(v)]) + " " + verdict_name(v));
  return parts.empty() ? s : s + ": " + parts;
}

namespace {
// "1 proven, 1 violated, 1 inconclusive" over one subject.
std::string counts_only(const CampaignResult& r, Subject subject) {
  const std::string s = verdict_counts(r, subject);
  const auto colon = s.find(": ");
  return colon == std::string::npos ? s : s.substr(colon + 2);
}
}  // namespace

// An inconclusive check (or one passed on samples) is never counted as
// correct: the implementation part says how many checks are not proven.
std::string headline(const CampaignResult& r) {
  std::size_t impl = 0, impl_fail = 0, impl_proven = 0, spec = 0, spec_fail = 0;
  bool only_own = true;
  for (const auto& c : r.checks) {
    if (c.subject == Subject::Implementation) {
      ++impl;
      if (is_failure(c.verdict)) ++impl_fail;
      if (c.verdict == Verdict::Proven) ++impl_proven;
      // a library, or a kernel given to symbolic_check (not one of symerr's operators)
      if (!c.item.library.empty() || c.id.rfind("symbolic/kernel/", 0) == 0 || c.id.rfind("statement/", 0) == 0)
        only_own = false;
    } else {
      ++spec;
      if (is_failure(c.verdict)) ++spec_fail;  // one refuted statement per check
    }
  }
  std::string s;
  const std::string who = only_own ? "symerr's own kernels" : "implementations";
  const std::string n = std::to_string(impl);
  if (impl == 0) s = "no implementation checked";
  else if (impl_fail > 0)
    s = who + ": " + std::to_string(impl_fail) + " of " + n + " checks FAIL (" + counts_only(r, Subject::Implementation) + ")";
  else if (impl_proven == impl) s = who + (impl == 1 ? ": 1 check, proven" : ": all " + n + " checks proven");
  else
    s = who + ": no check failed, " + std::to_string(impl - impl_proven) + " of " + n + " not proven (" +
        counts_only(r, Subject::Implementation) + ")";
  if (spec == 0) return s;
  if (spec_fail == 0)
    return s + "; no specification statement refuted (" + counts_only(r, Subject::Specification) + ")";
  return s + "; the seed specifications contain " + std::to_string(spec_fail) +
         " false statement" + (spec_fail == 1 ? "" : "s") + " (" + counts_only(r, Subject::Specification) +
         "; see the specification checks and the spec audit in the report)";
}

std::string campaign_without_file(const CampaignResult& r) {
  if (r.name.empty() || r.name == "default") return "(the default campaign)";
  return "(none: campaign \"" + r.name + "\", built by a program)";
}

std::string error_figure(const CheckResult& c) {
  const Evidence& e = c.evidence;
  std::string s;
  if (c.kind == "symbolic" && c.witnesses.empty()) {
    // a kernel check run against the compiled kernel: its largest observed error
    const auto o = e.metrics.find("observed_max"), b = e.metrics.find("bound");
    if (o != e.metrics.end() && b != e.metrics.end() && e.inputs_checked > 0)
      return "observed " + format_number(o->second) +
             (o->second > 0 ? " (bound / observed " + format_number(b->second / o->second) + ")" : "");
  }
  if (c.kind == "symbolic" || c.kind == "audit") {
    double abs_excess = 0, rel_excess = 0;
    bool any = false;
    for (const auto& w : c.witnesses)
      if (w.bound && std::isfinite(*w.bound) && std::isfinite(w.abs_error)) {
        any = true;
        abs_excess = std::max(abs_excess, w.abs_error - *w.bound);
        if (*w.bound > 0) rel_excess = std::max(rel_excess, w.abs_error / *w.bound - 1);
      }
    if (!any) return e.inputs_checked > 0 && c.witnesses.empty() ? "within the bound" : "-";
    return "excess " + format_number(100 * rel_excess) + " % (abs " + format_number(abs_excess) +
           ") over the bound";
  }
  if (e.inputs_checked == 0) return "-";
  const bool integer = c.format.find("INT") != std::string::npos;
  if (integer) s = format_number(e.max_abs_error) + (e.max_abs_error == 1 ? " unit" : " units");
  else s = format_number(e.max_ulp_error) + " ulp (rel " + format_number(e.max_rel_error) + ")";
  if (e.wrong_special > 0) s += "; " + format_count(e.wrong_special) + " wrong special values";
  return s;
}

std::string value_brief(const Value& v) {
  // integers: exact is an integer and the bits are its two's complement
  bool is_int = !v.exact.empty() && v.exact.find_first_not_of("-0123456789") == std::string::npos;
  if (is_int && v.bits.size() > 2 && v.bits.size() <= 18) {
    const unsigned width = static_cast<unsigned>(4 * (v.bits.size() - 2));
    const std::uint64_t bits = std::strtoull(v.bits.c_str() + 2, nullptr, 16);
    const std::uint64_t mask = width >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << width) - 1;
    const auto as_int = static_cast<std::uint64_t>(static_cast<std::int64_t>(std::strtoll(v.exact.c_str(), nullptr, 10)));
    is_int = (as_int & mask) == bits;
  }
  if (is_int || v.exact == "undefined") return v.exact;
  if (std::isnan(v.value)) return "NaN" + (v.bits.empty() ? "" : " " + v.bits);
  if (std::isinf(v.value)) return v.value > 0 ? "+inf" : "-inf";
  char buf[96];
  std::snprintf(buf, sizeof buf, "%a = %.17g", v.value, v.value);
  return buf;
}

const std::vector<std::pair<std::string, std::string>>& class_legend() {
  static const std::vector<std::pair<std::string, std::string>> legend = {
      {"normal", "an operand is a normal number (integers: a non-zero value)"},
      {"subnormal", "an operand is subnormal"},
      {"zero", "an operand is +0 or -0"},
      {"inf", "an operand is infinite"},
      {"nan", "an operand is NaN"},
      {"overflow", "the exact result exceeds the format's range (integers: wraps around)"},
      {"near_zero_divisor", "Div: the divisor is zero or subnormal (integers: zero)"},
  };
  return legend;
}

std::vector<TraceRow> traceability(const CampaignResult& r) {
  std::map<std::string, TraceRow> by_id;  // sorted by requirement; n log n in the IDs (a list search was quadratic)
  for (std::size_t i = 0; i < r.checks.size(); ++i)
    for (const auto& req : r.checks[i].requirements) {
      auto it = by_id.try_emplace(req, TraceRow{req, {}, Verdict::Proven}).first;
      it->second.checks.push_back(i);
      it->second.verdict = combine(it->second.verdict, r.checks[i].verdict);
    }
  std::vector<TraceRow> rows;
  rows.reserve(by_id.size());
  for (auto& [id, row] : by_id) rows.push_back(std::move(row));
  return rows;
}

std::string libraries_text(const ItemIdentity& item) {
  std::string s;
  for (const auto& l : item.libraries) {
    std::string one = l.path + " (";
    if (!l.package.empty()) one += l.package + ", ";
    one += "SHA-256 " + (l.sha256.empty() ? std::string("unknown") : l.sha256.substr(0, 16) + "…") + ")";
    append_sep(s, "; ", one);
  }
  return s;
}

std::string code_path_text(const Environment& env) {
  std::string s;
  for (const auto& [k, v] : env.code_path_variables) append_sep(s, ", ", k + "=" + v);
  return s.empty() ? "none set" : s;
}

std::vector<std::pair<std::string, std::string>> hypotheses(const CampaignResult& r) {
  std::vector<std::pair<std::string, std::string>> h = {
      {"Oracle", "concrete checks compare with the exact result of the operation on the operands "
                 "(GMP rationals: a sum, difference, product or quotient of two binary floating-point "
                 "numbers is a rational number computed exactly) rounded once to the format (round to "
                 "nearest even); where a binary64 computation is used it is exact or correctly rounded "
                 "(Boldo-Melquiond: for p-bit formats with 2p+2 <= 53 the binary64 result rounded to p "
                 "bits is the correctly rounded result), with ties and special values decided by GMP"},
      {"Errors", "ulp errors are |output - exact| / ulp(exact) in the check's format, measured exactly "
                 "(GMP) for FP64; relative errors |output - exact| / |exact|; integer errors in units"},
      {"NaN policy", "any NaN output matches any NaN reference: payload and sign of NaN are not compared; "
                     "the sign of zero is compared"},
      {"FP state", "every kernel call starts in round-to-nearest-even, FTZ off, DAZ off, exception "
                   "flags clear, traps off; what a kernel changes is reported with its check and never "
                   "reaches another kernel or symerr"},
      {"Symbolic soundness", "symbolic checks rest on the soundness of the interval domain (outward "
                             "rounding owned by symerr, independent of the caller's FP state) and on the "
                             "error identities of each operator stated in lib/; every enclosure is tested "
                             "against an exact oracle"},
      {"Sampling", "\"passed on samples\" is evidence, not proof: only the inputs counted were run"},
      {"Integer division by zero", "undefined in C and in SONNX: not run unless the campaign asks for it"},
  };
  std::size_t items = 0, linked = 0;
  for (const auto& c : r.checks) {
    items += c.item.library.empty() ? 0 : 1;
    linked += c.item.libraries.size();
  }
  if (items > 0)
    h.emplace_back("Item under test",
                   "each user kernel is its library file (absolute path, SHA-256) and the shared libraries that "
                   "library loads, resolved by the dynamic loader and listed with its check (" +
                       std::to_string(linked) +
                       " in all); a verdict holds for those files, the CPU features and the variables that select "
                       "code paths in the environment: " + code_path_text(r.environment));
  bool elementary = false;
  for (const auto& c : r.checks)
    if (c.operator_name != "Add" && c.operator_name != "Sub" && c.operator_name != "Mul" &&
        c.operator_name != "Div" && !c.operator_name.empty() && c.operator_name.find('/') == std::string::npos)
      elementary = true;
  if (elementary)
    h.emplace_back("Elementary functions", "accuracy models of elementary functions are those stated in their checks' bounds");
  for (const auto& c : r.checks)
    if (c.semantics.count("model_honoured")) {
      h.emplace_back("Source kernels", "a proof holds for the substituted build: every operation of the source rounded "
                                       "once, in the source's order, libm functions within the accuracy model named "
                                       "in the check (libm_model); it covers the plain build only when that build "
                                       "honours the model (model_honoured: no FMA instruction in its object code, no "
                                       "fast-math, no x87). Witnesses are executions of the plain build");
      break;
    }
  return h;
}

}  // namespace symerr::detail

namespace symerr::verify {

std::optional<double> bound_in_ulp(const CheckResult& check) {
  const auto& m = check.evidence.metrics;
  if (auto it = m.find("bound_ulp"); it != m.end() && std::isfinite(it->second)) return it->second;
  const auto& w = check.evidence.worst;
  if (w && w->bound && std::isfinite(*w->bound) && w->abs_error > 0 && std::isfinite(w->abs_error) &&
      w->ulp_error > 0 && std::isfinite(w->ulp_error))
    return *w->bound * (w->ulp_error / w->abs_error);
  return std::nullopt;
}

namespace {

constexpr const char* kDigestKey = "content_sha256";

// SHA-256 of the compact JSON text of `j` without its digest key. The
// compact text of a parsed document is the text it was made from (object
// keys sorted, numbers in their shortest round-trip form), so the reader
// recomputes the same digest from report.json however it is indented.
std::string content_digest(nlohmann::json j) {
  j.erase(kDigestKey);
  return sha256_hex(j.dump());
}

// Refuses a report whose content does not match its digest. Reports of
// schema 2.0.x were written before the digest and have none.
void check_digest(nlohmann::json& j, const std::string& version, const std::filesystem::path& json_file) {
  if (!j.contains(kDigestKey)) {
    if (version.rfind("2.0.", 0) == 0) return;
    throw std::runtime_error(json_file.string() + ": the report has no \"" + kDigestKey + "\" (schema_version " +
                             version + " requires it): a tampered report");
  }
  if (!j[kDigestKey].is_string())
    throw std::runtime_error(json_file.string() + ": at /" + kDigestKey + ": expected a string of 64 hex digits");
  const std::string stated = j[kDigestKey].get<std::string>();
  const std::string actual = content_digest(j);
  if (stated != actual)
    throw std::runtime_error(json_file.string() + ": the content does not match its digest (/" + kDigestKey + " " +
                             stated.substr(0, 64) + ", the content's SHA-256 is " + actual +
                             "): the report was edited after symerr wrote it");
}

}  // namespace

std::string render_json(const CampaignResult& result) {
  nlohmann::json j = result;
  // derived sections (not read back): requirement -> checks -> verdict, hypotheses
  nlohmann::json trace = nlohmann::json::array();
  for (const auto& t : detail::traceability(result)) {
    nlohmann::json ids = nlohmann::json::array();
    for (auto i : t.checks) ids.push_back(result.checks[i].id);
    trace.push_back({{"requirement", t.requirement}, {"checks", ids}, {"verdict", to_string(t.verdict)}});
  }
  j["traceability"] = trace;
  nlohmann::json hyp = nlohmann::json::array();
  for (const auto& [title, text] : detail::hypotheses(result)) hyp.push_back({{"title", title}, {"text", text}});
  j["hypotheses"] = hyp;
  j["summary"] = detail::headline(result);
  j["exit_status"] = exit_code(result);
  j["schema_version"] = kReportSchemaVersion;
  j["generator"] = "symerr";
  j[kDigestKey] = content_digest(j);
  return j.dump(2) + "\n";
}

std::string render_summary(const CampaignResult& result, std::size_t max_rows) {
  std::uint64_t inputs = 0;
  for (const auto& c : result.checks) inputs += c.evidence.inputs_checked;
  std::ostringstream out;
  out << detail::headline(result) << "\n"
      << "  campaign " << result.name << ", " << detail::format_count(inputs) << " inputs run\n"
      << "  implementation checks: " << detail::verdict_counts(result, Subject::Implementation) << "\n"
      << "  specification checks:  " << detail::verdict_counts(result, Subject::Specification) << "\n";
  std::size_t shown = 0, failing = 0;
  for (const auto& c : result.checks) failing += is_failure(c.verdict) ? 1 : 0;
  for (Subject subject : {Subject::Implementation, Subject::Specification})
    for (const auto& c : result.checks) {
      if (c.subject != subject || !is_failure(c.verdict)) continue;
      if (shown++ == max_rows) {
        out << "  ... (" << failing - max_rows << " more in the report)\n";
        break;
      }
      std::string v = detail::verdict_name(c.verdict);
      for (auto& ch : v) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
      out << "  " << (subject == Subject::Implementation ? "" : "spec ") << v << " " << c.id;
      if (c.verdict == Verdict::Violated) {
        out << "  " << detail::error_figure(c);
        if (!c.witnesses.empty()) {
          const Witness& w = c.witnesses[0];
          out << "  e.g. (";
          for (std::size_t i = 0; i < w.inputs.size(); ++i) {
            out << (i ? ", " : "") << detail::format_number(w.inputs[i].value);
            if (i < w.input_errors.size()) out << " err " << detail::format_number(w.input_errors[i].value);
          }
          out << ") -> " << detail::format_number(w.output.value);
        }
      } else if (c.fault) {
        out << "  " << c.fault->message << "; reproducer: " << c.fault->reproducer_size << " input(s)";
      }
      out << "\n";
    }
  out << "  symerr " << result.environment.symerr_version << " (" << result.environment.git_commit
      << "), seed " << result.environment.seed << "; kernels run in " << result.environment.kernel_fp_state
      << "\n";
  return out.str();
}

namespace {

// Writes `text` to `tmp` and flushes it to the disk; false on any error.
bool write_temp(const std::filesystem::path& tmp, const std::string& text) {
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return false;
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      ::close(fd);
      return false;
    }
    done += static_cast<std::size_t>(n);
  }
  const bool synced = ::fsync(fd) == 0;
  return ::close(fd) == 0 && synced;
}

}  // namespace

ReportFiles write_reports(const CampaignResult& result, const std::filesystem::path& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw std::runtime_error(dir.string() + ": cannot create the report directory: " + ec.message());
  ReportFiles f{dir / "report.json", dir / "report.md", dir / "report.html"};
  const std::string texts[3] = {render_json(result), render_markdown(result), render_html(result)};
  const std::filesystem::path finals[3] = {f.json, f.markdown, f.html};
  std::filesystem::path temps[3];
  const std::string suffix = ".tmp-" + std::to_string(::getpid());
  for (int i = 0; i < 3; ++i) {
    temps[i] = finals[i];
    temps[i] += suffix;
    if (!write_temp(temps[i], texts[i])) {
      const std::string why = std::strerror(errno);
      for (int k = 0; k <= i; ++k) std::filesystem::remove(temps[k], ec);
      throw std::runtime_error(finals[i].string() + ": cannot write the report file (" + why +
                               "); the previous reports are untouched");
    }
  }
  for (int i = 0; i < 3; ++i)
    if (::rename(temps[i].c_str(), finals[i].c_str()) != 0) {
      const std::string why = std::strerror(errno);
      for (int k = i; k < 3; ++k) std::filesystem::remove(temps[k], ec);
      throw std::runtime_error(finals[i].string() + ": cannot replace the report file (" + why + ")");
    }
  return f;
}

CampaignResult parse_report(const std::string& text, const std::filesystem::path& json_file) {
  nlohmann::json j;
  std::vector<std::set<std::string>> keys;  // per open object: a repeated key is refused (JSON keeps the last)
  try {
    j = nlohmann::json::parse(text, [&](int depth, nlohmann::json::parse_event_t ev, nlohmann::json& parsed) {
      if (depth > 32) throw std::runtime_error(json_file.string() + ": nested deeper than any symerr report (32 levels)");
      if (ev == nlohmann::json::parse_event_t::object_start) keys.emplace_back();
      if (ev == nlohmann::json::parse_event_t::object_end && !keys.empty()) keys.pop_back();
      if (ev == nlohmann::json::parse_event_t::key && !keys.empty() &&
          !keys.back().insert(parsed.get<std::string>()).second)
        throw std::runtime_error(json_file.string() + ": the key \"" + parsed.get<std::string>() +
                                 "\" appears twice in one object: a tampered report");
      return true;
    });
  } catch (const nlohmann::json::parse_error& e) {
    const auto lc = detail::line_column(text, e.byte > 0 ? e.byte - 1 : 0);
    throw std::runtime_error(json_file.string() + ":" + std::to_string(lc.line) + ":" +
                             std::to_string(lc.column) + ": not valid JSON: " + e.what());
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(json_file.string() + ": not valid JSON: " + e.what());
  }
  if (!j.is_object() || !j.contains("schema_version") || !j["schema_version"].is_string())
    throw std::runtime_error(json_file.string() + ": not a symerr report (no \"schema_version\")");
  const auto version = j["schema_version"].get<std::string>();
  if (version.substr(0, version.find('.')) !=
      std::string(kReportSchemaVersion).substr(0, std::string(kReportSchemaVersion).find('.')))
    throw std::runtime_error(json_file.string() + ": report schema_version " + version +
                             " is not supported (this symerr writes " + kReportSchemaVersion + ")");
  CampaignResult r;
  try {
    r = j.get<CampaignResult>();
  } catch (const std::exception& e) {
    throw std::runtime_error(json_file.string() + ": invalid report: " + e.what());
  }
  if (r.checks.empty())
    throw std::runtime_error(json_file.string() + ": the report has no checks: nothing was verified");
  for (const auto& c : r.checks)
    if (const auto why = detail::verdict_inconsistency(c))
      throw std::runtime_error(json_file.string() + ": check " + c.id + ": " + *why +
                               ": the verdict does not follow from the evidence (a tampered report)");
  check_digest(j, version, json_file);
  return r;
}

CampaignResult read_report(const std::filesystem::path& json_file) {
  std::ifstream in(json_file, std::ios::binary);
  if (!in) throw std::runtime_error(json_file.string() + ": cannot read the file");
  constexpr std::size_t kMaxReportBytes = std::size_t{1} << 30;
  std::string text;
  {
    std::ostringstream buf;
    char chunk[1 << 16];
    while (in.read(chunk, sizeof chunk) || in.gcount() > 0) {
      buf.write(chunk, in.gcount());
      if (static_cast<std::size_t>(buf.tellp()) > kMaxReportBytes)
        throw std::runtime_error(json_file.string() + ": larger than 1 GiB: not a symerr report");
    }
    text = buf.str();
  }
  return parse_report(text, json_file);
}

}  // namespace symerr::verify
