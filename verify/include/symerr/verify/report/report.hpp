// Reports of a campaign (docs/design.md §4): the plain verdict data of a
// CampaignResult rendered to JSON (schema verify/schema/report.schema.json),
// Markdown and a self-contained HTML page with SVG plots.
//
// Every renderer is a pure function of its argument: the same CampaignResult
// gives byte-identical output (golden tests rely on it).
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include <symerr/verify/report/verdict.hpp>

namespace symerr::verify {

/// Version of the JSON report layout; bumped on any incompatible change of
/// verify/schema/report.schema.json. Written as the top-level "schema_version".
inline constexpr const char* kReportSchemaVersion = "2.1.0";

/// The JSON evidence: to_json(CampaignResult) plus "schema_version",
/// "generator" and "content_sha256" (the SHA-256 of the compact JSON of
/// everything else, keys sorted), pretty-printed with two-space indentation
/// and a final newline.
std::string render_json(const CampaignResult& result);
/// The Markdown report of a campaign.
std::string render_markdown(const CampaignResult& result);
/// The self-contained HTML report of a campaign (plots inline).
std::string render_html(const CampaignResult& result);

/// A few lines for a terminal: verdict counts, the violated checks, totals.
std::string render_summary(const CampaignResult& result, std::size_t max_rows = 12);

/// The bound of a check expressed in ulp of its format, when it can be known:
/// the metric "bound_ulp" if present, else the worst input's bound scaled by
/// ulp_error / abs_error. Used for the bound line of the plots and the margin.
std::optional<double> bound_in_ulp(const CheckResult& check);

/// The paths of the three report files.
struct ReportFiles {
  ///@{
  /// report.json, report.md, report.html.
  std::filesystem::path json, markdown, html;
  ///@}
};

/// Writes report.json, report.md and report.html into `dir` (created if
/// missing), atomically: each is written to a temporary file in `dir`, flushed
/// to disk, and only when all three are complete renamed over the old reports.
/// On any failure the old reports are untouched and the temporary files
/// removed. Throws std::runtime_error naming the file that could not be written.
ReportFiles write_reports(const CampaignResult& result, const std::filesystem::path& dir);

/// Reads a report.json back. Throws std::runtime_error naming the file and the
/// reason (unreadable, not JSON with line and column, wrong schema_version, a
/// repeated key, a verdict that does not follow from its evidence, content
/// that does not match its "content_sha256"; reports of schema 2.0.x have no
/// digest and are read without it).
CampaignResult read_report(const std::filesystem::path& json_file);
/// The same from the text of a report; `json_file` names it in errors.
CampaignResult parse_report(const std::string& text, const std::filesystem::path& json_file);

}  // namespace symerr::verify

// Shared by the renderers (report_common.cpp); in symerr::detail, the library's
// one internal namespace (a second `detail` in symerr::verify would make `detail`
// ambiguous under `using namespace symerr; using namespace symerr::verify;`).
namespace symerr::detail {
std::string format_number(double x);          // "%.6g"; "inf", "-inf", "nan"
std::string format_count(std::uint64_t n);    // 1234567 -> "1,234,567"
// A metric: a count (a whole number below 2^53, not negative) as format_count, else format_number.
std::string format_metric(double x);
// s += (s.empty() ? "" : sep) + x, without temporaries.
void append_sep(std::string& s, std::string_view sep, std::string_view x);
// A check's semantics as "key = value, key = value" (unescaped).
std::string semantics_text(const verify::CheckResult& c);
// 1-based line and column of byte `offset` in `text` (column counts bytes).
struct LineColumn {
  std::size_t line = 1, column = 1;
};
LineColumn line_column(const std::string& text, std::size_t offset);
// Inputs covered per class, "normal 10 (1 failed), zero 2"; "-" when none.
std::string classes_text(const verify::Evidence& e);
// The libraries an item loads, "path (package, SHA-256 prefix); ..." (unescaped).
std::string libraries_text(const verify::ItemIdentity& item);
// The code-path variables, "NAME=value, ..."; "none set" when empty (unescaped).
std::string code_path_text(const verify::Environment& env);
// Margin to the bound at the worst input: bound_ulp - max_ulp_error, if known.
std::optional<double> margin_in_ulp(const verify::CheckResult& check);

// The first summary line: what the implementations and the specifications
// came to, e.g. "symerr's own kernels: all correct; the seed specifications
// contain 19 false statements (see the spec audit)".
std::string headline(const verify::CampaignResult& r);
// "12 checks: 3 proven, 5 passed on samples, 1 violated, ..." over one subject.
std::string verdict_counts(const verify::CampaignResult& r, verify::Subject s);
// What a verdict means, one sentence (the reports' verdict legend).
const char* verdict_meaning(verify::Verdict v);
// Display name: "passed on samples", "timed out", ...
std::string verdict_name(verify::Verdict v);
// The largest error in the check's unit: "0.5 ulp (rel 2.98e-08)" for float
// concrete checks, "3 units" for integers, "excess 1.6 % (abs 1.2e-05) over
// the bound" for symbolic and audit checks; wrong special values counted apart.
std::string error_figure(const verify::CheckResult& c);
// A value for tables: hex float and %.17g for floats ("0x1.8p+0 = 1.5"),
// integers exactly; long exact decimals only in the JSON.
std::string value_brief(const verify::Value& v);
// Input classes and what they mean (classes overlap: one input can be in several).
const std::vector<std::pair<std::string, std::string>>& class_legend();

// The campaign line of a result without a campaign file: "(the default
// campaign)" for the CLI's default campaign (name "default" or empty), else
// "(none: campaign "NAME", built by a program)".
std::string campaign_without_file(const verify::CampaignResult& r);

// Requirement -> checks -> verdict (the traceability matrix).
struct TraceRow {
  std::string requirement;
  std::vector<std::size_t> checks;  // indices into verify::CampaignResult::checks
  verify::Verdict verdict = verify::Verdict::Proven;
};
std::vector<TraceRow> traceability(const verify::CampaignResult& r);
// The hypotheses every verdict rests on (title, text).
std::vector<std::pair<std::string, std::string>> hypotheses(const verify::CampaignResult& r);
}  // namespace symerr::detail
