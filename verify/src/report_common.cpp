// What the three renderers share: number formatting, the bound in ulp, the
// JSON form, the terminal summary, and writing/reading the report files.
#include <symerr/verify/report.hpp>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace symerr::verify {

namespace detail {

std::string format_number(double x) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", x);
  return buf;
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

}  // namespace detail

std::optional<double> bound_in_ulp(const CheckResult& check) {
  const auto& m = check.evidence.metrics;
  if (auto it = m.find("bound_ulp"); it != m.end() && std::isfinite(it->second)) return it->second;
  const auto& w = check.evidence.worst;
  if (w && w->bound && std::isfinite(*w->bound) && w->abs_error > 0 && std::isfinite(w->abs_error) &&
      w->ulp_error > 0 && std::isfinite(w->ulp_error))
    return *w->bound * (w->ulp_error / w->abs_error);
  return std::nullopt;
}

std::string render_json(const CampaignResult& result) {
  nlohmann::json j = result;
  j["schema_version"] = kReportSchemaVersion;
  j["generator"] = "symerr";
  return j.dump(2) + "\n";
}

std::string render_summary(const CampaignResult& result, std::size_t max_rows) {
  std::size_t proven = 0, violated = 0, inconclusive = 0;
  std::uint64_t inputs = 0;
  for (const auto& c : result.checks) {
    inputs += c.evidence.inputs_checked;
    switch (c.verdict) {
      case Verdict::Proven: ++proven; break;
      case Verdict::Violated: ++violated; break;
      case Verdict::Inconclusive: ++inconclusive; break;
    }
  }
  std::ostringstream out;
  out << "campaign " << result.name << ": " << to_string(result.overall()) << "\n"
      << "  " << result.checks.size() << " checks: " << proven << " proven, " << violated
      << " violated, " << inconclusive << " inconclusive; " << detail::format_count(inputs)
      << " inputs run\n";
  std::size_t shown = 0;
  for (const auto& c : result.checks) {
    if (c.verdict != Verdict::Violated) continue;
    if (shown++ == max_rows) {
      out << "  ... (" << violated - max_rows << " more violations in the report)\n";
      break;
    }
    out << "  VIOLATED " << c.id << "  max " << detail::format_number(c.evidence.max_ulp_error)
        << " ulp";
    if (!c.witnesses.empty()) {
      out << "  e.g. (";
      for (std::size_t i = 0; i < c.witnesses[0].inputs.size(); ++i)
        out << (i ? ", " : "") << detail::format_number(c.witnesses[0].inputs[i].value);
      out << ") -> " << detail::format_number(c.witnesses[0].output.value);
    }
    out << "\n";
  }
  out << "  symerr " << result.environment.symerr_version << " (" << result.environment.git_commit
      << "), seed " << result.environment.seed << ", rounding "
      << result.environment.rounding_mode << "\n";
  return out.str();
}

namespace {

void write_file(const std::filesystem::path& p, const std::string& text) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) throw std::runtime_error(p.string() + ": cannot write the report file");
}

}  // namespace

ReportFiles write_reports(const CampaignResult& result, const std::filesystem::path& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw std::runtime_error(dir.string() + ": cannot create the report directory: " + ec.message());
  ReportFiles f{dir / "report.json", dir / "report.md", dir / "report.html"};
  write_file(f.json, render_json(result));
  write_file(f.markdown, render_markdown(result));
  write_file(f.html, render_html(result));
  return f;
}

CampaignResult read_report(const std::filesystem::path& json_file) {
  std::ifstream in(json_file, std::ios::binary);
  if (!in) throw std::runtime_error(json_file.string() + ": cannot read the file");
  std::ostringstream buf;
  buf << in.rdbuf();
  const std::string text = buf.str();
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    const auto lc = detail::line_column(text, e.byte > 0 ? e.byte - 1 : 0);
    throw std::runtime_error(json_file.string() + ":" + std::to_string(lc.line) + ":" +
                             std::to_string(lc.column) + ": not valid JSON: " + e.what());
  }
  if (!j.is_object() || !j.contains("schema_version") || !j["schema_version"].is_string())
    throw std::runtime_error(json_file.string() + ": not a symerr report (no \"schema_version\")");
  const auto version = j["schema_version"].get<std::string>();
  if (version.substr(0, version.find('.')) !=
      std::string(kReportSchemaVersion).substr(0, std::string(kReportSchemaVersion).find('.')))
    throw std::runtime_error(json_file.string() + ": report schema_version " + version +
                             " is not supported (this symerr writes " + kReportSchemaVersion + ")");
  try {
    return j.get<CampaignResult>();
  } catch (const std::exception& e) {
    throw std::runtime_error(json_file.string() + ": invalid report: " + e.what());
  }
}

}  // namespace symerr::verify
