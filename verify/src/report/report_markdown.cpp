// Markdown report: for review and for pasting into a dossier. A summary table
// (one row per check = operator x type x bound), then one section per check
// with its requirements, evidence and witnesses, then the environment.
#include <symerr/verify/report/report.hpp>

#include <cctype>
#include <sstream>

namespace symerr::verify {

namespace {

using detail::format_count;
using detail::format_number;

// Text from the campaign, the kernels or the report: what HTML escapes (&, <,
// >) as entities, so that no renderer passes a name's markup through; no
// line breaks (they would end the list item or the table row).
std::string text(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '&') out += "&amp;";
    else if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else if (c == '\n' || c == '\r') out += ' ';
    else out += c;
  }
  return out;
}

// A code span: its content is shown literally (no markup), a backtick in it
// would end it early and is replaced. Text that could read as a tag ('<'
// before a letter, '/', '!' or '?') is escaped text instead, for renderers
// that are not strict about code spans; "<=" stays code.
std::string code(const std::string& s) {
  for (std::size_t i = 0; i + 1 < s.size(); ++i)
    if (s[i] == '<' && (std::isalpha(static_cast<unsigned char>(s[i + 1])) || s[i + 1] == '/' ||
                        s[i + 1] == '!' || s[i + 1] == '?'))
      return text(s);
  std::string out = "`";
  for (char c : s) out += c == '`' ? '\'' : c == '\n' || c == '\r' ? ' ' : c;
  return out + "`";
}

// Table cells: text with no pipes.
std::string cell(const std::string& s) {
  std::string out;
  for (char c : text(s)) {
    if (c == '|') out += "\\|";
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
  if (!is_failure(v)) return detail::verdict_name(v);
  std::string s = detail::verdict_name(v);
  for (auto& ch : s) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  return "**" + s + "**";
}

std::string margin_text(const CheckResult& c) {
  const auto m = detail::margin_in_ulp(c);
  return m ? format_number(*m) + " ulp" : "-";
}

// Tables show hex float and %.17g; the exact decimal stays in the JSON.
std::string value_text(const Value& v) {
  std::string s = v.exact.empty() ? format_number(v.value) : detail::value_brief(v);
  if (!v.bits.empty() && s.find(v.bits) == std::string::npos) s += " (" + v.bits + ")";
  return s;
}

std::string class_names(ClassMask m) {
  std::string s;
  for (InputClass c : kInputClasses)
    if (has_class(m, c)) detail::append_sep(s, ", ", to_string(c));
  return s;
}

void summary_table(std::ostringstream& out, const CampaignResult& r) {
  out << "| id | judges | requirements | operator | format | bound | verdict | inputs (per class) | max error "
         "| margin |\n"
      << "|---|---|---|---|---|---|---|---|---|---|\n";
  for (const auto& c : r.checks)
    out << "| " << cell(c.id) << " | " << to_string(c.subject) << " | " << cell(join(c.requirements, " "))
        << " | " << cell(c.operator_name) << " | " << cell(c.format) << " | " << cell(c.bound.name) << " | "
        << verdict_text(c.verdict) << " | " << format_count(c.evidence.inputs_checked) << " ("
        << cell(detail::classes_text(c.evidence)) << ") | " << cell(detail::error_figure(c)) << " | "
        << margin_text(c) << " |\n";
}

void legends(std::ostringstream& out) {
  out << "Verdicts:\n\n";
  for (Verdict v : kAllVerdicts) out << "- **" << detail::verdict_name(v) << "**: " << detail::verdict_meaning(v) << "\n";
  out << "\nInput classes (they overlap: an input is counted in every class it belongs to):\n\n";
  for (const auto& [name, what] : detail::class_legend()) out << "- `" << name << "`: " << what << "\n";
  out << "\n";
}

void traceability_section(std::ostringstream& out, const CampaignResult& r) {
  out << "## Traceability matrix\n\n";
  const auto rows = detail::traceability(r);
  if (rows.empty()) {
    out << "No check names a requirement.\n\n";
    return;
  }
  out << "| requirement | checks | verdict | evidence |\n|---|---|---|---|\n";
  for (const auto& t : rows) {
    std::string checks, evidence;
    for (auto i : t.checks) {
      const CheckResult& c = r.checks[i];
      detail::append_sep(checks, ", ", c.id);
      detail::append_sep(evidence, "; ", c.id.substr(c.id.rfind('/') + 1) + ": " + detail::verdict_name(c.verdict) +
                                             ", " + format_count(c.evidence.inputs_checked) + " inputs");
    }
    out << "| " << cell(t.requirement) << " | " << cell(checks) << " | " << verdict_text(t.verdict) << " | "
        << cell(evidence) << " |\n";
  }
  out << "\n";
}

void hypotheses_section(std::ostringstream& out, const CampaignResult& r) {
  out << "## Hypotheses\n\n";
  for (const auto& [title, text] : detail::hypotheses(r)) out << "- **" << title << "**: " << text << "\n";
  out << "\n";
}

void source_section(std::ostringstream& out, const CampaignResult& r) {
  const CampaignSource& s = r.source;
  out << "## Campaign\n\n"
      << "- file: " << (s.file.empty() ? detail::campaign_without_file(r) : code(s.file)) << "\n";
  if (!s.sha256.empty()) out << "- SHA-256: `" << s.sha256 << "` (the file's text is copied in report.json)\n";
  if (!s.command_line.empty()) out << "- command line: " << code(s.command_line) << "\n";
  out << "\n";
}

void witness_table(std::ostringstream& out, const std::vector<Witness>& ws) {
  out << "| # | inputs | output | reference | error (ulp) | abs error | bound | classes | what "
         "went wrong |\n"
      << "|---|---|---|---|---|---|---|---|---|\n";
  for (std::size_t i = 0; i < ws.size(); ++i) {
    const Witness& w = ws[i];
    std::string inputs;
    for (std::size_t k = 0; k < w.inputs.size(); ++k) {
      std::string x = value_text(w.inputs[k]);
      if (k < w.input_errors.size()) x += " with error " + value_text(w.input_errors[k]);
      detail::append_sep(inputs, "; ", x);
    }
    out << "| " << i + 1 << " | " << cell(inputs) << " | " << cell(value_text(w.output)) << " | "
        << cell(value_text(w.reference)) << " | " << format_number(w.ulp_error) << " | "
        << format_number(w.abs_error) << " | " << (w.bound ? format_number(*w.bound) : "-")
        << " | " << cell(class_names(w.classes)) << " | " << cell(w.message) << " |\n";
  }
}

void check_section(std::ostringstream& out, const CheckResult& c) {
  const Evidence& e = c.evidence;
  out << "### " << text(c.id) << "\n\n";
  out << "- verdict: " << verdict_text(c.verdict) << "\n";
  if (!c.requirements.empty()) out << "- requirements: " << text(join(c.requirements, " ")) << "\n";
  out << "- kind: " << text(c.kind) << ", judges the " << to_string(c.subject);
  if (!c.kernel.empty()) out << ", kernel " << code(c.kernel);
  out << ", operator " << text(c.operator_name) << ", format " << text(c.format) << "\n";
  if (!c.item.library.empty() || !c.item.form.empty()) {
    out << "- item under test: " << (c.item.library.empty() ? "symerr built-in kernel" : code(c.item.library));
    if (!c.item.symbol.empty()) out << ", symbol " << code(c.item.symbol);
    if (!c.item.form.empty()) out << ", form " << text(c.item.form);
    if (!c.item.sha256.empty()) out << ", SHA-256 " << code(c.item.sha256);
    if (!c.item.package.empty()) out << ", Debian package " << text(c.item.package);
    for (const auto& [k, v] : c.item.build) out << ", " << text(k) << " " << text(v);
    out << "\n";
    if (!c.item.libraries.empty()) out << "- libraries it loads: " << text(detail::libraries_text(c.item)) << "\n";
  }
  if (!c.fp_environment.empty()) out << "- FP environment: " << text(c.fp_environment) << "\n";
  if (!c.semantics.empty()) out << "- semantics: " << text(detail::semantics_text(c)) << "\n";
  out << "- bound: " << (c.bound.name.empty() ? "-" : text(c.bound.name));
  if (!c.bound.formula.empty()) out << " — " << code(c.bound.formula);
  if (!c.bound.source.empty()) out << " (" << text(c.bound.source) << ")";
  out << "\n";
  if (!c.strategies.empty())
    out << "- strategies: " << text(join(c.strategies, ", ")) << (c.exhaustive ? " (exhaustive)" : "")
        << ", seed " << c.seed << "\n";
  if (c.shard.count > 1) {
    std::string idx;
    for (auto i : c.shard.indices) detail::append_sep(idx, ",", std::to_string(i));
    out << "- shards: " << idx << " of " << c.shard.count << "\n";
  }
  out << "- inputs: " << format_count(e.inputs_checked) << " checked, " << format_count(e.failures)
      << " failed, " << format_count(e.undefined) << " undefined\n";
  out << "- inputs per class: " << detail::classes_text(e) << "\n";
  out << "- max error: " << detail::error_figure(c) << "; " << format_number(e.max_abs_error)
      << " absolute; margin to the bound " << margin_text(c) << "\n";
  if (e.wrong_special > 0)
    out << "- wrong special values: " << format_count(e.wrong_special)
        << " inputs whose reference is a special value (NaN, inf, overflow, signed zero) got another value\n";
  if (e.special.checked > 0)
    out << "- special values: " << format_count(e.special.matched) << " of "
        << format_count(e.special.checked) << " as specified\n";
  for (const auto& [k, v] : e.metrics) out << "- " << text(k) << ": " << detail::format_metric(v) << "\n";
  if (!c.reason.empty()) out << "- reason: " << text(c.reason) << "\n";
  out << "- duration: " << format_number(c.duration_seconds) << " s\n\n";
  if (c.fault) {
    out << "Reproducer (" << c.fault->reproducer_size << " of the " << c.fault->batch_size
        << " inputs of the failing call; " << (c.fault->reproduced ? "re-run and failed again" : "not reproduced")
        << "):\n\n| # | inputs |\n|---|---|\n";
    for (std::size_t i = 0; i < c.fault->reproducer.size(); ++i) {
      std::string in;
      for (const auto& v : c.fault->reproducer[i]) detail::append_sep(in, ", ", value_text(v));
      out << "| " << i + 1 << " | " << cell(in) << " |\n";
    }
    out << "\n";
  }
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
      << "| CPU features | " << cell(join(env.cpu_features, " ")) << " |\n"
      << "| OS | " << cell(env.os) << " |\n"
      << "| FP state of every kernel call | " << cell(env.kernel_fp_state) << " |\n"
      << "| symerr's own FP state (observed) | " << cell(env.rounding_mode) << ", FTZ "
      << (env.flush_to_zero ? "on" : "off") << ", DAZ " << (env.denormals_are_zero ? "on" : "off") << " |\n"
      << "| variables selecting code paths | " << cell(detail::code_path_text(env)) << " |\n"
      << "| seed | " << env.seed << " |\n"
      << "| date | " << cell(env.date) << " |\n\n";
}

}  // namespace

std::string render_markdown(const CampaignResult& r) {
  std::ostringstream out;
  out << "# symerr report: " << text(r.name) << "\n\n"
      << "**" << detail::headline(r) << "**\n\n"
      << "- implementation checks: " << detail::verdict_counts(r, Subject::Implementation) << "\n"
      << "- specification checks: " << detail::verdict_counts(r, Subject::Specification) << "\n"
      << "- exit status: " << exit_code(r) << "\n\n"
      << "symerr " << r.environment.symerr_version << " (" << r.environment.git_commit
      << "), seed " << r.environment.seed << ", " << r.environment.date
      << ". Report schema " << kReportSchemaVersion << ".\n\n";
  out << "## Summary\n\n";
  summary_table(out, r);
  out << "\n";
  legends(out);
  traceability_section(out, r);
  hypotheses_section(out, r);
  source_section(out, r);
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
