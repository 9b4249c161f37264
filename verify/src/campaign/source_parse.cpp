// A campaign entry with "form": "source" (source_kernel.hpp): parsing and
// validation; every error names the campaign file and the JSON path.
#include <symerr/verify/campaign/source_kernel.hpp>

#include <cmath>
#include <set>

#include <nlohmann/json.hpp>

#include <symerr/verify/campaign/campaign.hpp>

namespace symerr::verify {

namespace {

using nlohmann::json;

struct Where {
  const std::filesystem::path& file;
  [[noreturn]] void fail(const std::string& path, const std::string& reason) const {
    throw CampaignError(file.string() + ": at " + path + ": " + reason);
  }
  void only_keys(const json& j, const std::string& path, const std::set<std::string>& allowed) const {
    if (!j.is_object()) fail(path, "expected an object");
    for (const auto& [k, v] : j.items())
      if (!allowed.count(k)) {
        std::string list;
        for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
        fail(path + "/" + k, "unknown key (allowed: " + list + ")");
      }
  }
  std::string string(const json& j, const std::string& path) const {
    if (!j.is_string() || j.get<std::string>().empty()) fail(path, "expected a non-empty string");
    return j.get<std::string>();
  }
  double number(const json& j, const std::string& path) const {
    if (!j.is_number() || !std::isfinite(j.get<double>())) fail(path, "expected a finite number");
    return j.get<double>();
  }
  std::uint64_t count(const json& j, const std::string& path, std::uint64_t max) const {
    if (!j.is_number_unsigned() || j.get<std::uint64_t>() == 0 || j.get<std::uint64_t>() > max)
      fail(path, "expected an integer in [1, " + std::to_string(max) + "]");
    return j.get<std::uint64_t>();
  }
  std::filesystem::path file_path(const json& j, const std::string& path) const {
    std::filesystem::path p(string(j, path));
    if (p.is_relative()) p = file.parent_path() / p;
    if (!std::filesystem::is_regular_file(p)) fail(path, "no such file: " + p.string());
    return std::filesystem::absolute(p);
  }
};

// [lo, hi] or a number x: [x, x]; an error e: [-e, e].
std::pair<double, double> range(const Where& w, const json& j, const std::string& path, bool symmetric) {
  if (j.is_number()) {
    const double x = w.number(j, path);
    if (symmetric && x < 0) w.fail(path, "an error bound must be >= 0");
    return symmetric ? std::make_pair(-x, x) : std::make_pair(x, x);
  }
  if (!j.is_array() || j.size() != 2) w.fail(path, "expected a number or [lo, hi]");
  const double lo = w.number(j[0], path + "/0"), hi = w.number(j[1], path + "/1");
  if (lo > hi) w.fail(path, "lo > hi");
  return {lo, hi};
}

SourceArgument parse_argument(const Where& w, const json& j, const std::string& path) {
  w.only_keys(j, path, {"name", "role", "shape", "box", "error", "type", "value"});
  SourceArgument a;
  if (!j.contains("name") || !j.contains("role")) w.fail(path, "an argument needs \"name\" and \"role\"");
  a.name = w.string(j["name"], path + "/name");
  const std::string role = w.string(j["role"], path + "/role");
  if (role == "scalar") {
    a.role = SourceArgument::Role::Scalar;
    if (j.contains("type")) a.scalar_type = w.string(j["type"], path + "/type");
    if (a.scalar_type != "int" && a.scalar_type != "long" && a.scalar_type != "unsigned" && a.scalar_type != "size_t")
      w.fail(path + "/type", "a scalar is an int, long, unsigned or size_t");
    if (!j.contains("value") || !j["value"].is_number_integer()) w.fail(path + "/value", "expected an integer value");
    a.value = j["value"].get<long long>();
    return a;
  }
  if (role != "input" && role != "output") w.fail(path + "/role", "expected \"input\", \"output\" or \"scalar\"");
  a.role = role == "input" ? SourceArgument::Role::Input : SourceArgument::Role::Output;
  if (!j.contains("shape") || !j["shape"].is_array() || j["shape"].empty())
    w.fail(path + "/shape", "a tensor needs a shape: an array of dimension sizes");
  std::uint64_t n = 1;
  for (std::size_t i = 0; i < j["shape"].size(); ++i) {
    a.shape.push_back(w.count(j["shape"][i], path + "/shape/" + std::to_string(i), 1u << 20));
    n *= a.shape.back();
    if (n > (1u << 20)) w.fail(path + "/shape", "more than 2^20 elements");
  }
  if (a.role == SourceArgument::Role::Input) {
    if (!j.contains("box")) w.fail(path, "an input tensor needs a \"box\": [lo, hi]");
    std::tie(a.lo, a.hi) = range(w, j["box"], path + "/box", false);
    if (j.contains("error")) std::tie(a.elo, a.ehi) = range(w, j["error"], path + "/error", true);
  } else if (j.contains("box") || j.contains("error")) {
    w.fail(path, "an output has no box or error");
  }
  return a;
}

void parse_budget(const Where& w, const json& j, const std::string& path, SourceBudget& b) {
  w.only_keys(j, path, {"boxes", "runs", "subdivision", "executions", "elements", "time_limit_seconds"});
  if (j.contains("boxes")) b.boxes = w.count(j["boxes"], path + "/boxes", 1u << 16);
  if (j.contains("runs")) b.runs = w.count(j["runs"], path + "/runs", 1u << 30);
  if (j.contains("subdivision")) b.subdivision = w.count(j["subdivision"], path + "/subdivision", 1u << 20);
  if (j.contains("executions")) b.executions = w.count(j["executions"], path + "/executions", 1u << 24);
  if (j.contains("elements")) b.elements = w.count(j["elements"], path + "/elements", 1u << 20);
  if (j.contains("time_limit_seconds")) {
    b.time_limit_seconds = w.number(j["time_limit_seconds"], path + "/time_limit_seconds");
    if (b.time_limit_seconds < 1) w.fail(path + "/time_limit_seconds", "at least 1 second");
  }
}

// The entry's statements: objects, or the id of one of the campaign's statements.
std::vector<Statement> entry_statements(const Where& w, const json& j, const std::string& path,
                                        const std::vector<Statement>& campaign) {
  if (!j.is_array() || j.empty()) w.fail(path, "expected a non-empty array of statements");
  std::vector<Statement> out;
  json objects = json::array();
  std::vector<std::size_t> at;
  for (std::size_t i = 0; i < j.size(); ++i) {
    if (j[i].is_string()) {
      const auto id = j[i].get<std::string>();
      bool found = false;
      for (const auto& s : campaign)
        if (s.id == id) out.push_back(s), found = true;
      if (!found) w.fail(path + "/" + std::to_string(i), "no statement \"" + id + "\" among the campaign's statements");
    } else {
      objects.push_back(j[i]);
      at.push_back(i);
    }
  }
  if (!objects.empty()) {
    try {
      auto parsed = parse_statements(objects, w.file.string(), path);
      for (auto& s : parsed) out.push_back(std::move(s));
    } catch (const StatementError& e) {
      throw CampaignError(e.what());
    }
  }
  return out;
}

void check_statements_fit(const Where& w, const SourceKernelSpec& k, const std::string& path) {
  for (std::size_t i = 0; i < k.statements.size(); ++i) {
    const Statement& s = k.statements[i];
    const std::string p = path + "/statements/" + std::to_string(i);
    const SourceArgument* out = nullptr;
    for (const auto& [name, dims] : s.tensors) {
      const SourceArgument* a = nullptr;
      for (const auto& x : k.arguments)
        if (x.name == name && x.role != SourceArgument::Role::Scalar) a = &x;
      if (!a) w.fail(p, "statement " + s.id + " names tensor '" + name + "', which is no tensor argument of " + k.entry);
      if (a->shape.size() != dims.size())
        w.fail(p, "statement " + s.id + ": tensor '" + name + "' has rank " + std::to_string(dims.size()) +
                      ", the argument " + std::to_string(a->shape.size()));
      if (name == s.output) out = a;
    }
    if (!out || out->role != SourceArgument::Role::Output)
      w.fail(p, "statement " + s.id + ": its output '" + s.output + "' is not an output argument of " + k.entry);
    if (s.kind == StatementKind::RelErr || s.kind == StatementKind::Ulp)
      w.fail(p, "statement " + s.id + ": bounds " + to_string(s.kind) + " is not checked on a kernel yet");
  }
}

void parse_arguments(const Where& w, const json& j, const std::string& path, SourceKernelSpec& k) {
  if (!j.is_array() || j.empty()) w.fail(path, "expected a non-empty array of arguments");
  std::set<std::string> names;
  bool in = false, out = false;
  for (std::size_t i = 0; i < j.size(); ++i) {
    k.arguments.push_back(parse_argument(w, j[i], path + "/" + std::to_string(i)));
    if (!names.insert(k.arguments.back().name).second)
      w.fail(path + "/" + std::to_string(i) + "/name", "argument '" + k.arguments.back().name + "' given twice");
    in = in || k.arguments.back().role == SourceArgument::Role::Input;
    out = out || k.arguments.back().role == SourceArgument::Role::Output;
  }
  if (!in || !out) w.fail(path, "at least one input and one output tensor");
}

}  // namespace

SourceKernelSpec parse_source_kernel(const json& j, const std::string& path, const std::filesystem::path& file,
                                     const std::vector<Statement>& campaign_statements) {
  const Where w{file};
  w.only_keys(j, path, {"name", "form", "sources", "headers", "entry", "replace", "compiler", "flags", "arguments",
                        "budget", "domain", "statements", "requirements"});
  for (const char* key : {"sources", "entry", "arguments", "statements"})
    if (!j.contains(key)) w.fail(path, std::string("missing key \"") + key + "\" (a source kernel)");
  SourceKernelSpec k;
  k.json_path = path;
  k.entry = w.string(j["entry"], path + "/entry");
  k.name = j.contains("name") ? w.string(j["name"], path + "/name") : k.entry;
  if (!j["sources"].is_array() || j["sources"].empty()) w.fail(path + "/sources", "expected an array of C files");
  for (std::size_t i = 0; i < j["sources"].size(); ++i)
    k.sources.push_back(w.file_path(j["sources"][i], path + "/sources/" + std::to_string(i)));
  if (j.contains("headers")) {
    if (!j["headers"].is_array()) w.fail(path + "/headers", "expected an array of files");
    for (std::size_t i = 0; i < j["headers"].size(); ++i)
      k.headers.push_back(w.file_path(j["headers"][i], path + "/headers/" + std::to_string(i)));
  }
  if (j.contains("replace")) k.replace = w.string(j["replace"], path + "/replace");
  if (k.replace != "float" && k.replace != "double") w.fail(path + "/replace", "expected \"float\" or \"double\"");
  k.format = k.replace == "float" ? "FP32" : "FP64";
  if (j.contains("compiler")) k.compiler = w.string(j["compiler"], path + "/compiler");
  if (j.contains("flags")) {
    if (!j["flags"].is_string()) w.fail(path + "/flags", "expected a string");
    k.flags = j["flags"].get<std::string>();
  }
  if (j.contains("domain")) {
    const auto d = w.string(j["domain"], path + "/domain");
    if (d != "interval" && d != "auto") w.fail(path + "/domain", "expected \"interval\" or \"auto\" (the interval domain)");
  }
  parse_arguments(w, j["arguments"], path + "/arguments", k);
  if (j.contains("budget")) parse_budget(w, j["budget"], path + "/budget", k.budget);
  if (j.contains("requirements")) {
    if (!j["requirements"].is_array()) w.fail(path + "/requirements", "expected an array of strings");
    for (std::size_t i = 0; i < j["requirements"].size(); ++i)
      k.requirements.push_back(w.string(j["requirements"][i], path + "/requirements/" + std::to_string(i)));
  }
  k.statements = entry_statements(w, j["statements"], path + "/statements", campaign_statements);
  check_statements_fit(w, k, path);
  return k;
}

}  // namespace symerr::verify
