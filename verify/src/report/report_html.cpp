// HTML report: one self-contained file (inline CSS, inline SVG, no script, no
// external asset). Stable ids and classes for tests and for styling:
//   table#summary (tr.check.<verdict>), section.check#check-<n>,
//   svg.plot.histogram, svg.plot.scatter, table.witnesses, table#environment,
//   section#audit (the spec audit's findings).
#include <symerr/verify/report/report.hpp>

#include <algorithm>
#include <cmath>
#include <sstream>

namespace symerr::verify {

namespace {

using detail::format_count;
using detail::format_number;

std::string esc(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string fixed(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", x);
  return buf;
}

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) detail::append_sep(s, " ", x);
  return s;
}

const char* kStyle = R"(body{font-family:system-ui,sans-serif;margin:2em;color:#222;max-width:1200px}
table{border-collapse:collapse;margin:.5em 0;font-size:13px}
th,td{border:1px solid #bbb;padding:3px 6px;text-align:left;vertical-align:top;overflow-wrap:anywhere}
th{background:#eee}
table.witnesses,table.reproducer,table#summary,table#traceability{table-layout:fixed;width:100%}
table.witnesses td,table.reproducer td{font-size:12px;word-break:break-word}
tr.proven td.verdict,tr.passed_on_samples td.verdict{background:#d6f5d6}
tr.violated td.verdict,tr.crashed td.verdict,tr.timed_out td.verdict{background:#f8c8c8;font-weight:bold}
tr.inconclusive td.verdict{background:#fff1c2}
span.verdict.violated,span.verdict.crashed,span.verdict.timed_out{color:#a00;font-weight:bold}
span.verdict.proven,span.verdict.passed_on_samples{color:#070}
span.verdict.inconclusive{color:#a60}
p#headline{font-size:1.2em;font-weight:bold}
@media print{body{margin:0;max-width:none}svg.plot{max-width:100%;height:auto}}
section.check{border-top:2px solid #ccc;margin-top:1.5em}
.plots{display:flex;flex-wrap:wrap;gap:1em}
svg.plot{background:#fafafa;border:1px solid #ddd}
svg text{font-size:10px;font-family:sans-serif}
code{background:#f3f3f3;padding:0 3px}
)";

// x position (in bucket units) of an ulp value on the histogram's axis.
double histogram_position(double ulp) {
  if (ulp <= 0) return 0.5;
  const double p = 2 + std::log2(ulp) - UlpHistogram::kMinExp;
  return std::clamp(p, 1.0, static_cast<double>(UlpHistogram::kBuckets - 1));
}

std::string bucket_label(std::size_t i) {
  if (i == 0) return "0";
  if (i == UlpHistogram::kBuckets - 1) return "unbounded";
  return "2^" + std::to_string(UlpHistogram::kMinExp + static_cast<int>(i) - 2);
}

// Bars per bucket (height ~ log(1 + count)), the bound as a vertical red line.
std::string histogram_svg(const CheckResult& c) {
  const auto& h = c.evidence.histogram;
  const double W = 560, H = 220, left = 40, bottom = 30, top = 20;
  const double bw = (W - left - 10) / UlpHistogram::kBuckets;
  std::uint64_t max_count = 0;
  for (auto n : h.counts) max_count = std::max(max_count, n);
  const double scale = max_count ? (H - bottom - top) / std::log1p(static_cast<double>(max_count)) : 0;
  std::ostringstream s;
  s << "<svg class=\"plot histogram\" xmlns=\"http://www.w3.org/2000/svg\" width=\"" << W
    << "\" height=\"" << H << "\" viewBox=\"0 0 " << W << ' ' << H << "\" role=\"img\">"
    << "<title>" << esc(c.id) << ": |error| in ulp, inputs per bucket (log scale)</title>"
    << "<text x=\"" << left << "\" y=\"12\">|error| (ulp), log buckets; bar height log(1+count)</text>"
    << "<line x1=\"" << left << "\" y1=\"" << H - bottom << "\" x2=\"" << W - 10 << "\" y2=\""
    << H - bottom << "\" stroke=\"#444\"/>";
  for (std::size_t i = 0; i < UlpHistogram::kBuckets; ++i) {
    const double x = left + i * bw;
    if (h.counts[i] > 0) {
      const double bh = std::max(1.0, scale * std::log1p(static_cast<double>(h.counts[i])));
      s << "<rect class=\"bar\" x=\"" << fixed(x + 1) << "\" y=\"" << fixed(H - bottom - bh)
        << "\" width=\"" << fixed(bw - 2) << "\" height=\"" << fixed(bh) << "\" fill=\""
        << (i == UlpHistogram::kBuckets - 1 ? "#c33" : "#4a7ab5") << "\"><title>"
        << esc(bucket_label(i)) << ": " << format_count(h.counts[i]) << "</title></rect>";
    }
    if (i % 6 == 0 || i == UlpHistogram::kBuckets - 1)
      s << "<text x=\"" << fixed(x) << "\" y=\"" << H - bottom + 14 << "\">"
        << esc(bucket_label(i)) << "</text>";
  }
  if (const auto b = bound_in_ulp(c)) {
    // buckets are [lower, upper): an error equal to the bound lies in the
    // bucket that starts at it, so the line is drawn after that bucket
    double pos = histogram_position(*b);
    if (*b > 0 && UlpHistogram::lower_edge(UlpHistogram::bucket_of(*b)) == *b) pos = std::floor(pos) + 1;
    const double x = left + pos * bw;
    s << "<line class=\"bound\" x1=\"" << fixed(x) << "\" y1=\"" << top << "\" x2=\"" << fixed(x)
      << "\" y2=\"" << H - bottom << "\" stroke=\"#d00\" stroke-width=\"2\" stroke-dasharray=\"4 2\"/>"
      << "<text x=\"" << fixed(x + 3) << "\" y=\"" << top + 10 << "\" fill=\"#d00\">bound "
      << format_number(*b) << " ulp</text>";
  }
  s << "</svg>";
  return s.str();
}

// |error| in ulp against log10 |exact result|; non-finite errors at the top.
std::string scatter_svg(const CheckResult& c) {
  const auto& pts = c.evidence.scatter.points;
  const double W = 560, H = 220, left = 50, right = 10, bottom = 30, top = 20;
  double xmin = INFINITY, xmax = -INFINITY, ymax = 0;
  std::size_t skipped = 0;
  for (const auto& p : pts) {
    if (!(p.magnitude > 0) || !std::isfinite(p.magnitude)) continue;
    const double lx = std::log10(p.magnitude);
    xmin = std::min(xmin, lx);
    xmax = std::max(xmax, lx);
    if (std::isfinite(p.ulp_error)) ymax = std::max(ymax, p.ulp_error);
  }
  const auto bound = bound_in_ulp(c);
  if (bound) ymax = std::max(ymax, *bound);
  if (ymax <= 0) ymax = 1;
  ymax *= 1.1;
  if (!(xmin <= xmax)) xmin = -1, xmax = 1;
  if (xmax - xmin < 1) xmin -= 0.5, xmax += 0.5;
  auto X = [&](double lx) { return left + (lx - xmin) / (xmax - xmin) * (W - left - right); };
  auto Y = [&](double e) { return H - bottom - std::min(e, ymax) / ymax * (H - bottom - top); };
  std::ostringstream s;
  s << "<svg class=\"plot scatter\" xmlns=\"http://www.w3.org/2000/svg\" width=\"" << W
    << "\" height=\"" << H << "\" viewBox=\"0 0 " << W << ' ' << H << "\" role=\"img\">"
    << "<title>" << esc(c.id) << ": |error| in ulp against log10 |exact result|</title>"
    << "<text x=\"" << left << "\" y=\"12\">|error| (ulp) vs log10 |exact result|: a deterministic sample of "
    << pts.size() << " of " << format_count(c.evidence.inputs_checked) << " inputs</text>"
    << "<line x1=\"" << left << "\" y1=\"" << H - bottom << "\" x2=\"" << W - right << "\" y2=\""
    << H - bottom << "\" stroke=\"#444\"/><line x1=\"" << left << "\" y1=\"" << top << "\" x2=\""
    << left << "\" y2=\"" << H - bottom << "\" stroke=\"#444\"/>"
    << "<text x=\"" << left << "\" y=\"" << H - 8 << "\">" << format_number(xmin) << "</text>"
    << "<text x=\"" << W - right - 30 << "\" y=\"" << H - 8 << "\">" << format_number(xmax)
    << "</text><text x=\"2\" y=\"" << top + 4 << "\">" << format_number(ymax) << "</text>"
    << "<text x=\"2\" y=\"" << H - bottom << "\">0</text>";
  for (const auto& p : pts) {
    if (!(p.magnitude > 0) || !std::isfinite(p.magnitude)) {
      ++skipped;
      continue;
    }
    const bool bad = !std::isfinite(p.ulp_error) || (bound && p.ulp_error > *bound);
    s << "<circle class=\"point" << (bad ? " over" : "") << "\" cx=\""
      << fixed(X(std::log10(p.magnitude))) << "\" cy=\""
      << fixed(std::isfinite(p.ulp_error) ? Y(p.ulp_error) : top) << "\" r=\"2\" fill=\""
      << (bad ? "#d00" : "#4a7ab5") << "\"/>";
  }
  if (bound)
    s << "<line class=\"bound\" x1=\"" << left << "\" y1=\"" << fixed(Y(*bound)) << "\" x2=\""
      << W - right << "\" y2=\"" << fixed(Y(*bound)) << "\" stroke=\"#d00\" stroke-dasharray=\"4 2\"/>";
  if (skipped)
    s << "<text x=\"" << W - 200 << "\" y=\"" << H - 18 << "\">" << skipped
      << " points with zero or non-finite result not shown</text>";
  s << "</svg>";
  return s.str();
}

// Hex float and %.17g; the exact decimal stays in the JSON.
std::string value_html(const Value& v) {
  const std::string brief = v.exact.empty() ? format_number(v.value) : detail::value_brief(v);
  std::string s = esc(brief);
  if (!v.bits.empty() && brief.find(v.bits) == std::string::npos) s += " <code>" + esc(v.bits) + "</code>";
  return s;
}

std::string verdict_span(Verdict v) {
  return std::string("<span class=\"verdict ") + to_string(v) + "\">" + detail::verdict_name(v) + "</span>";
}

void witness_table(std::ostringstream& out, const std::vector<Witness>& ws, const char* caption) {
  out << "<table class=\"witnesses\"><caption>" << caption << "</caption>"
      << "<colgroup><col style=\"width:3%\"><col style=\"width:20%\"><col style=\"width:12%\">"
         "<col style=\"width:12%\"><col style=\"width:7%\"><col style=\"width:7%\"><col style=\"width:7%\">"
         "<col style=\"width:8%\"><col style=\"width:24%\"></colgroup>"
      << "<tr><th>#</th><th>inputs</th><th>output</th><th>reference</th>"
         "<th>error (ulp)</th><th>abs error</th><th>bound</th><th>classes</th><th>what went wrong</th></tr>";
  for (std::size_t i = 0; i < ws.size(); ++i) {
    const Witness& w = ws[i];
    std::string classes;
    for (InputClass c : kInputClasses)
      if (has_class(w.classes, c)) detail::append_sep(classes, ", ", to_string(c));
    out << "<tr class=\"witness\"><td>" << i + 1 << "</td><td>";
    for (std::size_t k = 0; k < w.inputs.size(); ++k) {
      out << (k ? "<br>" : "") << value_html(w.inputs[k]);
      if (k < w.input_errors.size()) out << " with error " << value_html(w.input_errors[k]);
    }
    out << "</td><td>" << value_html(w.output) << "</td><td>" << value_html(w.reference) << "</td><td>"
        << format_number(w.ulp_error) << "</td><td>"
        << format_number(w.abs_error) << "</td><td>" << (w.bound ? format_number(*w.bound) : "-")
        << "</td><td>" << esc(classes) << "</td><td>" << esc(w.message) << "</td></tr>";
  }
  out << "</table>";
}

void summary_table(std::ostringstream& out, const CampaignResult& r) {
  out << "<table id=\"summary\"><tr><th>id</th><th>judges</th><th>requirements</th><th>operator</th><th>format</th>"
         "<th>bound</th><th>verdict</th><th>inputs (per class)</th><th>max error</th>"
         "<th>margin (ulp)</th><th>witnesses</th></tr>";
  for (std::size_t i = 0; i < r.checks.size(); ++i) {
    const auto& c = r.checks[i];
    const auto margin = detail::margin_in_ulp(c);
    out << "<tr class=\"check " << to_string(c.verdict) << "\"><td><a href=\"#check-" << i << "\">"
        << esc(c.id) << "</a></td><td>" << to_string(c.subject) << "</td><td>" << esc(join(c.requirements))
        << "</td><td>" << esc(c.operator_name) << "</td><td>" << esc(c.format) << "</td><td>" << esc(c.bound.name)
        << "</td><td class=\"verdict\">" << detail::verdict_name(c.verdict) << "</td><td>"
        << format_count(c.evidence.inputs_checked) << " (" << esc(detail::classes_text(c.evidence)) << ")</td><td>"
        << esc(detail::error_figure(c)) << "</td><td>"
        << (margin ? format_number(*margin) : "-") << "</td><td>" << c.witnesses.size() << "</td></tr>";
  }
  out << "</table>";
}

void check_section(std::ostringstream& out, const CheckResult& c, std::size_t i) {
  const Evidence& e = c.evidence;
  out << "<section class=\"check " << esc(c.kind) << "\" id=\"check-" << i << "\"><h3>" << esc(c.id)
      << " — " << verdict_span(c.verdict) << "</h3><ul>";
  if (!c.requirements.empty()) out << "<li>requirements: <b>" << esc(join(c.requirements)) << "</b></li>";
  out << "<li>" << esc(c.kind) << (c.kernel.empty() ? std::string() : " check of kernel <code>" + esc(c.kernel) + "</code>")
      << ", " << esc(c.operator_name) << " " << esc(c.format) << "; judges the " << to_string(c.subject) << "</li>";
  if (!c.item.library.empty() || !c.item.form.empty()) {
    out << "<li class=\"item\">item under test: "
        << (c.item.library.empty() ? std::string("symerr built-in kernel") : "<code>" + esc(c.item.library) + "</code>");
    if (!c.item.symbol.empty()) out << ", symbol <code>" << esc(c.item.symbol) << "</code>";
    if (!c.item.form.empty()) out << ", form " << esc(c.item.form);
    if (!c.item.sha256.empty()) out << ", SHA-256 <code>" << esc(c.item.sha256) << "</code>";
    if (!c.item.package.empty()) out << ", Debian package " << esc(c.item.package);
    for (const auto& [k, v] : c.item.build) out << ", " << esc(k) << " " << esc(v);
    out << "</li>";
    if (!c.item.libraries.empty())
      out << "<li class=\"item\">libraries it loads: " << esc(detail::libraries_text(c.item)) << "</li>";
  }
  if (!c.fp_environment.empty()) out << "<li class=\"fp\">FP environment: " << esc(c.fp_environment) << "</li>";
  if (!c.semantics.empty()) out << "<li>semantics: " << esc(detail::semantics_text(c)) << "</li>";
  out << "<li>bound: " << esc(c.bound.name);
  if (!c.bound.formula.empty()) out << " <code>" << esc(c.bound.formula) << "</code>";
  if (!c.bound.source.empty()) out << " (" << esc(c.bound.source) << ")";
  out << "</li>";
  if (!c.strategies.empty())
    out << "<li>strategies: " << esc(join(c.strategies)) << (c.exhaustive ? " (exhaustive)" : "")
        << ", seed " << c.seed << "</li>";
  out << "<li>inputs: " << format_count(e.inputs_checked) << " checked, " << format_count(e.failures)
      << " failed, " << format_count(e.undefined) << " undefined; per class: "
      << esc(detail::classes_text(e)) << "</li><li>max error: " << esc(detail::error_figure(c)) << "; "
      << format_number(e.max_abs_error) << " abs</li>";
  if (e.wrong_special > 0)
    out << "<li class=\"wrong-special\">wrong special values: " << format_count(e.wrong_special)
        << " inputs whose reference is a special value got another value</li>";
  if (e.special.checked)
    out << "<li>special values: " << format_count(e.special.matched) << " of "
        << format_count(e.special.checked) << " as specified</li>";
  for (const auto& [k, v] : e.metrics) out << "<li>" << esc(k) << ": " << detail::format_metric(v) << "</li>";
  if (!c.reason.empty()) out << "<li>reason: " << esc(c.reason) << "</li>";
  out << "<li>duration: " << format_number(c.duration_seconds) << " s</li></ul>";
  if (e.inputs_checked > 0)
    out << "<div class=\"plots\">" << histogram_svg(c) << scatter_svg(c) << "</div>";
  if (c.fault) {
    out << "<table class=\"reproducer\"><caption>Reproducer: " << c.fault->reproducer_size << " of the "
        << c.fault->batch_size << " inputs of the failing call ("
        << (c.fault->reproduced ? "re-run and failed again" : "not reproduced") << ")</caption><tr><th>#</th><th>inputs</th></tr>";
    for (std::size_t k = 0; k < c.fault->reproducer.size(); ++k) {
      out << "<tr><td>" << k + 1 << "</td><td>";
      for (std::size_t m = 0; m < c.fault->reproducer[k].size(); ++m)
        out << (m ? "<br>" : "") << value_html(c.fault->reproducer[k][m]);
      out << "</td></tr>";
    }
    out << "</table>";
  }
  if (!c.witnesses.empty()) witness_table(out, c.witnesses, "Witnesses");
  else if (e.worst) witness_table(out, {*e.worst}, "Worst input");
  out << "</section>\n";
}

void legends(std::ostringstream& out) {
  out << "<section id=\"legend\"><h2>Legend</h2><ul>";
  for (Verdict v : kAllVerdicts) out << "<li>" << verdict_span(v) << ": " << esc(detail::verdict_meaning(v)) << "</li>";
  out << "</ul><p>Input classes overlap: an input is counted in every class it belongs to.</p><ul>";
  for (const auto& [name, what] : detail::class_legend()) out << "<li><code>" << esc(name) << "</code>: " << esc(what) << "</li>";
  out << "</ul></section>\n";
}

void traceability_table(std::ostringstream& out, const CampaignResult& r) {
  out << "<h2>Traceability matrix</h2><table id=\"traceability\"><tr><th>requirement</th><th>checks</th>"
         "<th>verdict</th><th>evidence</th></tr>";
  for (const auto& t : detail::traceability(r)) {
    out << "<tr class=\"" << to_string(t.verdict) << "\"><td>" << esc(t.requirement) << "</td><td>";
    std::string evidence;
    for (std::size_t k = 0; k < t.checks.size(); ++k) {
      const CheckResult& c = r.checks[t.checks[k]];
      out << (k ? "<br>" : "") << "<a href=\"#check-" << t.checks[k] << "\">" << esc(c.id) << "</a>";
      detail::append_sep(evidence, "; ", detail::verdict_name(c.verdict) + ", " + format_count(c.evidence.inputs_checked) + " inputs");
    }
    out << "</td><td class=\"verdict\">" << verdict_span(t.verdict) << "</td><td>" << esc(evidence) << "</td></tr>";
  }
  out << "</table>\n";
}

void environment_table(std::ostringstream& out, const Environment& env) {
  auto row = [&out](const char* k, const std::string& v) {
    out << "<tr><th>" << k << "</th><td>" << esc(v) << "</td></tr>";
  };
  out << "<h2>Environment</h2><table id=\"environment\">";
  row("symerr", env.symerr_version + " (commit " + env.git_commit + ")");
  row("compiler", env.compiler);
  row("flags", env.flags);
  row("CPU", env.cpu_model + " (" + std::to_string(env.hardware_threads) + " threads)");
  row("CPU features", join(env.cpu_features));
  row("OS", env.os);
  row("FP state of every kernel call", env.kernel_fp_state);
  row("symerr's own FP state (observed)", env.rounding_mode + ", FTZ " + (env.flush_to_zero ? "on" : "off") +
                                              ", DAZ " + (env.denormals_are_zero ? "on" : "off"));
  row("variables selecting code paths", detail::code_path_text(env));
  row("seed", std::to_string(env.seed));
  row("date", env.date);
  out << "</table>\n";
}

}  // namespace

std::string render_html(const CampaignResult& r) {
  std::ostringstream out;
  out << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>symerr report: "
      << esc(r.name) << "</title><style>" << kStyle << "</style></head><body>\n"
      << "<h1>symerr report: " << esc(r.name) << "</h1><p id=\"headline\">" << esc(detail::headline(r))
      << "</p><ul id=\"counts\"><li>implementation checks: " << esc(detail::verdict_counts(r, Subject::Implementation))
      << "</li><li>specification checks: " << esc(detail::verdict_counts(r, Subject::Specification))
      << "</li><li>exit status: " << exit_code(r) << "</li></ul><p id=\"overall\">Overall verdict: "
      << verdict_span(r.overall()) << " — " << r.checks.size() << " checks. symerr "
      << esc(r.environment.symerr_version) << " (" << esc(r.environment.git_commit) << "), seed "
      << r.environment.seed << ", " << esc(r.environment.date) << ", report schema "
      << kReportSchemaVersion << ".</p>\n<h2>Summary</h2>";
  summary_table(out, r);
  out << "\n";
  legends(out);
  traceability_table(out, r);
  out << "<section id=\"hypotheses\"><h2>Hypotheses</h2><ul>";
  for (const auto& [title, text] : detail::hypotheses(r)) out << "<li><b>" << esc(title) << "</b>: " << esc(text) << "</li>";
  out << "</ul></section>\n<section id=\"campaign\"><h2>Campaign</h2><ul><li>file: "
      << (r.source.file.empty() ? esc(detail::campaign_without_file(r)) : "<code>" + esc(r.source.file) + "</code>") << "</li>";
  if (!r.source.sha256.empty()) out << "<li>SHA-256: <code>" << esc(r.source.sha256) << "</code> (text copied in report.json)</li>";
  if (!r.source.command_line.empty()) out << "<li>command line: <code>" << esc(r.source.command_line) << "</code></li>";
  out << "</ul></section>\n";
  bool audit = false;
  for (std::size_t i = 0; i < r.checks.size(); ++i)
    if (r.checks[i].kind == "audit") {
      if (!audit) out << "<section id=\"audit\"><h2>Spec audit findings</h2>";
      audit = true;
      check_section(out, r.checks[i], i);
    }
  if (audit) out << "</section>\n";
  out << "<h2>Checks</h2>\n";
  for (std::size_t i = 0; i < r.checks.size(); ++i)
    if (r.checks[i].kind != "audit") check_section(out, r.checks[i], i);
  environment_table(out, r.environment);
  out << "</body></html>\n";
  return out.str();
}

}  // namespace symerr::verify
