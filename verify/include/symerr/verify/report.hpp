// Reports of a campaign (DESIGN §4): the plain verdict data of a
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

#include <symerr/verify/verdict.hpp>

namespace symerr::verify {

// Version of the JSON report layout; bumped on any incompatible change of
// verify/schema/report.schema.json. Written as the top-level "schema_version".
inline constexpr const char* kReportSchemaVersion = "1.0.0";

// The JSON evidence: to_json(CampaignResult) plus "schema_version" and
// "generator", pretty-printed with two-space indentation and a final newline.
std::string render_json(const CampaignResult& result);
std::string render_markdown(const CampaignResult& result);
std::string render_html(const CampaignResult& result);

// A few lines for a terminal: verdict counts, the violated checks, totals.
std::string render_summary(const CampaignResult& result, std::size_t max_rows = 12);

// The bound of a check expressed in ulp of its format, when it can be known:
// the metric "bound_ulp" if present, else the worst input's bound scaled by
// ulp_error / abs_error. Used for the bound line of the plots and the margin.
std::optional<double> bound_in_ulp(const CheckResult& check);

struct ReportFiles {
  std::filesystem::path json, markdown, html;
};

// Writes report.json, report.md and report.html into `dir` (created if
// missing). Throws std::runtime_error naming the file that could not be written.
ReportFiles write_reports(const CampaignResult& result, const std::filesystem::path& dir);

// Reads a report.json back. Throws std::runtime_error naming the file and the
// reason (unreadable, not JSON with line and column, wrong schema_version).
CampaignResult read_report(const std::filesystem::path& json_file);

namespace detail {
// Shared by the renderers (report_common.cpp).
std::string format_number(double x);          // "%.6g"; "inf", "-inf", "nan"
std::string format_count(std::uint64_t n);    // 1234567 -> "1,234,567"
// s += (s.empty() ? "" : sep) + x, without temporaries.
void append_sep(std::string& s, std::string_view sep, std::string_view x);
// 1-based line and column of byte `offset` in `text` (column counts bytes).
struct LineColumn {
  std::size_t line = 1, column = 1;
};
LineColumn line_column(const std::string& text, std::size_t offset);
// Inputs covered per class, "normal 10 (1 failed), zero 2"; "-" when none.
std::string classes_text(const Evidence& e);
// Margin to the bound at the worst input: bound_ulp - max_ulp_error, if known.
std::optional<double> margin_in_ulp(const CheckResult& check);
}  // namespace detail

}  // namespace symerr::verify
