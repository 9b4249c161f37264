// Markdown report: for review and for pasting into a dossier. A summary table
// (one row per check = operator x type x bound), then one section per check
// with its requirements, evidence and witnesses, then the environment.
#include <symerr/verify/report.hpp>

#include <sstream>

namespace symerr::verify {

namespace {

using detail::format_count;
using detail::format_number;

// Table cells: no pipes, no line breaks.
std::string cell(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '|') out += "\\|";
    else if (c == '\n' || c == '\r') out += ' ';
    else out += c;
  }
  return out.empty() ? "-" : out;
}

std::string join(const std::vector<std::string>& v, const char* sep) {
  std::string s;
  for (const auto& x : v) detail::append_sep(s, sep, x);
  return s;
}

std::string verdict_text(Verdict v) {
  switch (v) {
    case Verdict::Proven: return "proven";
    case Verdict::Violated: return "**VIOLATED**";
    case Verdict::Inconclusive: return "inconclusive";
  }
  return "?";
}

std::string margin_text(const CheckResult& c) {
  const auto m = detail::margin_in_ulp(c);
  return m ? format_number(*m) + " ulp" : "-";
}

std::string value_text(const Value& v) {
  std::string s = v.exact.empty() ? format_number(v.value) : v.exact;
  if (!v.bits.empty()) s += " (" + v.bits + ")";
  return s;
}

std::string class_names(ClassMask m) {
  std::string s;
  for (InputClass c : kInputClasses)
    if (has_class(m, c)) detail::append_sep(s, ", ", to_string(c));
  return s;
}

void summary_table(std::ostringstream& out, const CampaignResult& r) {
  out << "| id | requirements | operator | format | bound | verdict | inputs per class | max error "
         "(ulp) | margin |\n"
      << "|---|---|---|---|---|---|---|---|---|\n";
  for (const auto& c : r.checks)
    out << "| " << cell(c.id) << " | " << cell(join(c.requirements, " ")) << " | "
        << cell(c.operator_name) << " | " << cell(c.format) << " | " << cell(c.bound.name) << " | "
        << verdict_text(c.verdict) << " | " << cell(detail::classes_text(c.evidence)) << " | "
        << format_number(c.evidence.max_ulp_error) << " | " << margin_text(c) << " |\n";
}

void witness_table(std::ostringstream& out, const std::vector<Witness>& ws) {
  out << "| # | inputs | output | reference | exact result | error (ulp) | bound | classes | what "
         "went wrong |\n"
      << "|---|---|---|---|---|---|---|---|---|\n";
  for (std::size_t i = 0; i < ws.size(); ++i) {
    const Witness& w = ws[i];
    std::string inputs;
    for (const auto& v : w.inputs) detail::append_sep(inputs, ", ", value_text(v));
    out << "| " << i + 1 << " | " << cell(inputs) << " | " << cell(value_text(w.output)) << " | "
        << cell(value_text(w.reference)) << " | " << cell(w.exact_result) << " | "
        << format_number(w.ulp_error) << " | " << (w.bound ? format_number(*w.bound) : "-")
        << " | " << cell(class_names(w.classes)) << " | " << cell(w.message) << " |\n";
  }
}

void check_section(std::ostringstream& out, const CheckResult& c) {
  const Evidence& e = c.evidence;
  out << "### " << c.id << "\n\n";
  out << "- verdict: " << verdict_text(c.verdict) << "\n";
  if (!c.requirements.empty()) out << "- requirements: " << join(c.requirements, " ") << "\n";
  out << "- kind: " << c.kind;
  if (!c.kernel.empty()) out << ", kernel `" << c.kernel << "`";
  out << ", operator " << c.operator_name << ", format " << c.format << "\n";
  if (!c.semantics.empty()) {
    std::string s;
    for (const auto& [k, v] : c.semantics) {
      detail::append_sep(s, ", ", k);
      s += " = ";
      s += v;
    }
    out << "- semantics: " << s << "\n";
  }
  out << "- bound: " << (c.bound.name.empty() ? "-" : c.bound.name);
  if (!c.bound.formula.empty()) out << " — `" << c.bound.formula << "`";
  if (!c.bound.source.empty()) out << " (" << c.bound.source << ")";
  out << "\n";
  if (!c.strategies.empty())
    out << "- strategies: " << join(c.strategies, ", ") << (c.exhaustive ? " (exhaustive)" : "")
        << ", seed " << c.seed << "\n";
  if (c.shard.count > 1) {
    std::string idx;
    for (auto i : c.shard.indices) detail::append_sep(idx, ",", std::to_string(i));
    out << "- shards: " << idx << " of " << c.shard.count << "\n";
  }
  out << "- inputs: " << format_count(e.inputs_checked) << " checked, " << format_count(e.failures)
      << " failed, " << format_count(e.undefined) << " undefined\n";
  out << "- inputs per class: " << detail::classes_text(e) << "\n";
  out << "- max error: " << format_number(e.max_abs_error) << " absolute, "
      << format_number(e.max_rel_error) << " relative, " << format_number(e.max_ulp_error)
      << " ulp; margin to the bound " << margin_text(c) << "\n";
  if (e.special.checked > 0)
    out << "- special values: " << format_count(e.special.matched) << " of "
        << format_count(e.special.checked) << " as specified\n";
  for (const auto& [k, v] : e.metrics) out << "- " << k << ": " << format_number(v) << "\n";
  if (!c.reason.empty()) out << "- reason: " << c.reason << "\n";
  out << "- duration: " << format_number(c.duration_seconds) << " s\n\n";
  if (!c.witnesses.empty()) {
    out << "Witnesses:\n\n";
    witness_table(out, c.witnesses);
    out << "\n";
  } else if (e.worst) {
    out << "Worst input:\n\n";
    witness_table(out, {*e.worst});
    out << "\n";
  }
}

void environment_section(std::ostringstream& out, const Environment& env) {
  out << "## Environment\n\n"
      << "| | |\n|---|---|\n"
      << "| symerr | " << cell(env.symerr_version) << " (commit " << cell(env.git_commit) << ") |\n"
      << "| compiler | " << cell(env.compiler) << " |\n"
      << "| flags | " << cell(env.flags) << " |\n"
      << "| CPU | " << cell(env.cpu_model) << " (" << env.hardware_threads << " threads) |\n"
      << "| OS | " << cell(env.os) << " |\n"
      << "| rounding mode (observed) | " << cell(env.rounding_mode) << " |\n"
      << "| subnormals (observed) | FTZ " << (env.flush_to_zero ? "on" : "off") << ", DAZ "
      << (env.denormals_are_zero ? "on" : "off") << " |\n"
      << "| seed | " << env.seed << " |\n"
      << "| date | " << cell(env.date) << " |\n\n";
}

}  // namespace

std::string render_markdown(const CampaignResult& r) {
  std::ostringstream out;
  std::size_t n[3] = {0, 0, 0};
  for (const auto& c : r.checks) ++n[static_cast<int>(c.verdict)];
  out << "# symerr report: " << r.name << "\n\n"
      << "Overall verdict: " << verdict_text(r.overall()) << " — " << r.checks.size()
      << " checks: " << n[0] << " proven, " << n[1] << " violated, " << n[2] << " inconclusive.\n\n"
      << "symerr " << r.environment.symerr_version << " (" << r.environment.git_commit
      << "), seed " << r.environment.seed << ", " << r.environment.date
      << ". Report schema " << kReportSchemaVersion << ".\n\n";
  out << "## Summary\n\n";
  summary_table(out, r);
  out << "\n";
  const char* kinds[][2] = {{"concrete", "Concrete checks"},
                            {"symbolic", "Symbolic checks"},
                            {"audit", "Spec audit"}};
  for (const auto& [kind, title] : kinds) {
    bool any = false;
    for (const auto& c : r.checks)
      if (c.kind == kind) {
        if (!any) out << "## " << title << "\n\n";
        any = true;
        check_section(out, c);
      }
  }
  bool other = false;
  for (const auto& c : r.checks)
    if (c.kind != "concrete" && c.kind != "symbolic" && c.kind != "audit") {
      if (!other) out << "## Other checks\n\n";
      other = true;
      check_section(out, c);
    }
  environment_section(out, r.environment);
  return out.str();
}

}  // namespace symerr::verify
