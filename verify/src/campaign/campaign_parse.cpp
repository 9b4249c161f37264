// Campaign files (JSON): parsing and validation. Syntax errors give
// FILE:LINE:COLUMN, content errors the JSON path; unknown keys are errors
// (a misspelt key must not silently change what is verified).
#include <symerr/verify/campaign/campaign.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <set>
#include <stdexcept>
#include <vector>
#include <sstream>

#include <nlohmann/json.hpp>

#include <symerr/verify/report/report.hpp>

namespace symerr::verify {

namespace {

using nlohmann::json;

// A value for an error message: short, never the whole of a huge value.
std::string shown(const json& j) {
  if (j.is_object() || j.is_array()) return std::string("a JSON ") + j.type_name() + " of " + std::to_string(j.size()) + " element(s)";
  std::string d = j.dump();
  if (d.size() > 60) d = d.substr(0, 40) + "... (" + std::to_string(d.size()) + " characters)";
  return d;
}

class Reader {
 public:
  explicit Reader(std::filesystem::path file) : file_(std::move(file)) {}

  [[noreturn]] void fail(const std::string& path, const std::string& reason) const {
    throw CampaignError(file_.string() + ": at " + (path.empty() ? "/" : path) + ": " + reason);
  }
  void only_keys(const json& j, const std::string& path, std::set<std::string> allowed) const {
    if (!j.is_object()) fail(path, "expected an object");
    for (const auto& [k, v] : j.items())
      if (!allowed.count(k)) {
        std::string list;
        for (const auto& a : allowed) detail::append_sep(list, ", ", a);
        fail(path + "/" + k, "unknown key (allowed: " + list + ")");
      }
  }
  std::string string(const json& j, const std::string& path) const {
    if (!j.is_string()) fail(path, "expected a string, got " + shown(j));
    return j.get<std::string>();
  }
  bool boolean(const json& j, const std::string& path) const {
    if (!j.is_boolean()) fail(path, "expected true or false, got " + shown(j));
    return j.get<bool>();
  }
  double number(const json& j, const std::string& path) const {
    if (!j.is_number()) fail(path, "expected a number, got " + shown(j));
    return j.get<double>();
  }
  std::uint64_t unsigned_int(const json& j, const std::string& path) const {
    if (!j.is_number_unsigned()) fail(path, "expected a non-negative integer, got " + shown(j));
    return j.get<std::uint64_t>();
  }
  std::vector<std::string> strings(const json& j, const std::string& path) const {
    if (!j.is_array()) fail(path, "expected an array of strings");
    std::vector<std::string> v;
    for (std::size_t i = 0; i < j.size(); ++i) v.push_back(string(j[i], path + "/" + std::to_string(i)));
    return v;
  }
  OpId op(const json& j, const std::string& path) const {
    const auto s = string(j, path);
    try {
      return parse_binary_operator(s);
    } catch (const std::invalid_argument& e) {
      fail(path, e.what());
    }
  }
  ElementType type(const json& j, const std::string& path) const {
    const auto s = string(j, path);
    const auto t = parse_element_type(s);
    if (!t) fail(path, "unknown or unsupported format \"" + s + "\" (FP16, BF16, FP32, FP64, INT8, ...)");
    return *t;
  }
  const std::filesystem::path& file() const { return file_; }

 private:
  std::filesystem::path file_;
};

BoundSpec parse_bound(const Reader& r, const json& j) {
  BoundSpec b;
  if (j.is_string()) {
    const auto s = j.get<std::string>();
    if (s == "correctly_rounded") b.kind = BoundSpec::Kind::CorrectlyRounded;
    else if (s == "unit_roundoff") b.kind = BoundSpec::Kind::UnitRoundoff;
    else if (s == "sonnx_div_introduction") b.kind = BoundSpec::Kind::SonnxDivIntroduction;
    else r.fail("/bound", "unknown bound \"" + s + "\" (correctly_rounded, unit_roundoff, "
                          "sonnx_div_introduction, or {\"ulp\": N})");
    return b;
  }
  r.only_keys(j, "/bound", {"ulp"});
  if (!j.contains("ulp")) r.fail("/bound", "missing key \"ulp\"");
  b.kind = BoundSpec::Kind::Ulp;
  b.ulp = r.number(j["ulp"], "/bound/ulp");
  if (!(b.ulp >= 0) || !std::isfinite(b.ulp)) r.fail("/bound/ulp", "must be a finite number >= 0");
  return b;
}

// A kernel's "build": compiler, flags, version, source — strings, reported as given.
std::map<std::string, std::string> parse_build(const Reader& r, const json& j, const std::string& path) {
  r.only_keys(j, path, {"compiler", "flags", "version", "source"});
  std::map<std::string, std::string> b;
  for (const auto& [key, v] : j.items()) b[key] = r.string(v, path + "/" + key);
  return b;
}

UserKernelSpec parse_kernel(const Reader& r, const json& j, const std::string& path) {
  r.only_keys(j, path, {"name", "library", "symbol", "operator", "type", "form", "requirements", "build"});
  for (const char* k : {"library", "symbol", "operator", "type"})
    if (!j.contains(k)) r.fail(path, std::string("missing key \"") + k + "\"");
  UserKernelSpec k;
  k.library = r.string(j["library"], path + "/library");
  k.symbol = r.string(j["symbol"], path + "/symbol");
  k.name = j.contains("name") ? r.string(j["name"], path + "/name") : k.symbol;
  k.signature.op = r.op(j["operator"], path + "/operator");
  k.signature.type = r.type(j["type"], path + "/type");
  if (j.contains("form")) {
    const auto f = r.string(j["form"], path + "/form");
    if (f == "elementwise") k.signature.form = KernelForm::Elementwise;
    else if (f == "tensor") k.signature.form = KernelForm::Tensor;
    else r.fail(path + "/form", "expected \"elementwise\", \"tensor\", \"unary\" or \"source\"");
  }
  if (j.contains("requirements")) k.requirements = r.strings(j["requirements"], path + "/requirements");
  if (j.contains("build")) k.build = parse_build(r, j["build"], path + "/build");
  std::filesystem::path lib(k.library);
  if (lib.is_relative() && !r.file().empty()) k.library = (r.file().parent_path() / lib).string();
  return k;
}

// ---- "form": "unary" -----------------------------------------------------------

UnaryStrategy unary_strategy(const Reader& r, const json& j, const std::string& path) {
  const auto n = r.string(j, path);
  if (n == "special" || n == "special_grid") return UnaryStrategy::Special;
  if (n == "boundary") return UnaryStrategy::Boundary;
  if (n == "random") return UnaryStrategy::Random;
  if (n == "exhaustive") return UnaryStrategy::Exhaustive;
  r.fail(path, "unknown strategy \"" + n + "\" (special, boundary, random, exhaustive)");
}

// A unary kernel's bound: its own "bound", else the campaign's.
void unary_bound(const Reader& r, const json& b, const std::string& path, UnaryKernelSpec& k) {
  if (b.is_string()) {
    const auto n = b.get<std::string>();
    if (n == "correctly_rounded") k.ulp_bound = 0.5;
    else if (n == "sonnx_unit_roundoff" || n == "unit_roundoff") k.sonnx_unit_roundoff = true;
    else r.fail(path, "unknown bound \"" + n + "\" for a unary kernel (correctly_rounded, sonnx_unit_roundoff, "
                      "or {\"ulp\": N} with N >= 0.5)");
    return;
  }
  r.only_keys(b, path, {"ulp"});
  if (!b.contains("ulp")) r.fail(path, "missing key \"ulp\"");
  k.ulp_bound = r.number(b["ulp"], path + "/ulp");
  if (!(k.ulp_bound >= 0.5) || !std::isfinite(k.ulp_bound))
    r.fail(path + "/ulp", "a unary kernel's ulp bound must be a finite number >= 0.5 (0.5: correctly rounded)");
}

UnaryKernelSpec parse_unary_kernel(const Reader& r, const json& j, const std::string& path, const json& campaign) {
  r.only_keys(j, path, {"name", "library", "symbol", "operator", "type", "form", "bound", "strategies",
                        "random_count", "requirements", "build"});
  for (const char* key : {"symbol", "operator", "type"})
    if (!j.contains(key)) r.fail(path, std::string("missing key \"") + key + "\"");
  UnaryKernelSpec k;
  k.symbol = r.string(j["symbol"], path + "/symbol");
  k.name = j.contains("name") ? r.string(j["name"], path + "/name") : k.symbol;
  if (j.contains("library")) k.library = r.string(j["library"], path + "/library");
  try {
    k.op = parse_unary_operator(r.string(j["operator"], path + "/operator"));
  } catch (const std::invalid_argument& e) {
    r.fail(path + "/operator", e.what());
  }
  k.type = r.type(j["type"], path + "/type");
  if (!is_float(k.type)) r.fail(path + "/type", "a unary kernel takes a float type (FP16, BF16, FP32, FP64)");
  if (k.library.empty() && !builtin_unary_kernel(k.symbol, k.type))
    r.fail(path + "/symbol", "no \"library\" given and \"" + k.symbol +
                                 "\" is not a reference kernel (symerr::Sqrt, symerr::Abs, symerr::Neg)");
  if (j.contains("bound")) unary_bound(r, j["bound"], path + "/bound", k);
  else if (campaign.contains("bound")) unary_bound(r, campaign["bound"], "/bound", k);
  if (j.contains("strategies")) {
    const auto& st = j["strategies"];
    if (!st.is_array() || st.empty()) r.fail(path + "/strategies", "expected a non-empty array of strategies");
    for (std::size_t i = 0; i < st.size(); ++i) {
      const std::string p = path + "/strategies/" + std::to_string(i);
      k.strategies.push_back(unary_strategy(r, st[i], p));
      if (k.strategies.back() == UnaryStrategy::Exhaustive && k.type == ElementType::FP64)
        r.fail(p, "exhaustive sweeps cover FP16, BF16 (2^16 inputs) and FP32 (2^32), not FP64");
    }
  }
  if (j.contains("random_count")) k.random_count = r.unsigned_int(j["random_count"], path + "/random_count");
  if (k.random_count > kMaxRandomCount) r.fail(path + "/random_count", "more than the limit of " + std::to_string(kMaxRandomCount));
  if (j.contains("requirements")) k.requirements = r.strings(j["requirements"], path + "/requirements");
  if (j.contains("build")) k.build = parse_build(r, j["build"], path + "/build");
  std::filesystem::path lib(k.library);
  if (!k.library.empty() && lib.is_relative() && !r.file().empty()) k.library = (r.file().parent_path() / lib).string();
  return k;
}

bool is_form(const json& k, const char* form) {
  return k.is_object() && k.contains("form") && k["form"].is_string() && k["form"].get<std::string>() == form;
}

void parse_semantics(const Reader& r, const json& j, CampaignSpec& s) {
  r.only_keys(j, "/semantics", {"integer_division", "broadcast"});
  if (j.contains("integer_division")) {
    const auto d = r.string(j["integer_division"], "/semantics/integer_division");
    if (d == "floor") s.integer_division = IntegerDivision::Floor;
    else if (d == "truncate") s.integer_division = IntegerDivision::Truncate;
    else r.fail("/semantics/integer_division", "expected \"floor\" or \"truncate\"");
  }
  if (j.contains("broadcast")) {
    s.broadcast = r.string(j["broadcast"], "/semantics/broadcast");
    if (s.broadcast != "sonnx" && s.broadcast != "numpy" && s.broadcast != "onnx_legacy" &&
        s.broadcast != "none")
      r.fail("/semantics/broadcast", "expected \"sonnx\", \"numpy\", \"onnx_legacy\" or \"none\"");
  }
}

void parse_inputs(const Reader& r, const json& j, CampaignSpec& s) {
  r.only_keys(j, "/inputs", {"min", "max", "keep_special_values"});
  if (j.contains("min")) s.input_min = r.number(j["min"], "/inputs/min");
  if (j.contains("max")) s.input_max = r.number(j["max"], "/inputs/max");
  if (j.contains("keep_special_values"))
    s.keep_special_values = r.boolean(j["keep_special_values"], "/inputs/keep_special_values");
  if (s.input_min && s.input_max && *s.input_min > *s.input_max)
    r.fail("/inputs", "min is greater than max");
  if (s.input_min && *s.input_min < 0) r.fail("/inputs/min", "a magnitude: must be >= 0");
  if (s.input_max && *s.input_max < 0) r.fail("/inputs/max", "a magnitude: must be >= 0");
}

// "time_limit_seconds" (with its floor), "memory_limit_mb", "budget".
void parse_limits(const Reader& r, const json& j, CampaignSpec& s) {
  if (j.contains("time_limit_seconds")) {
    s.time_limit_seconds = r.number(j["time_limit_seconds"], "/time_limit_seconds");
    char floor[32];
    std::snprintf(floor, sizeof floor, "%g", kMinTimeLimitSeconds);
    if (!(s.time_limit_seconds >= kMinTimeLimitSeconds && s.time_limit_seconds <= 86400))
      r.fail("/time_limit_seconds", "must be in [" + std::string(floor) +
                                        ", 86400]: below the floor of " + floor +
                                        " s a correct kernel's batch (and the child's start) can time out");
  }
  if (j.contains("memory_limit_mb")) {
    const std::uint64_t mb = r.unsigned_int(j["memory_limit_mb"], "/memory_limit_mb");
    if (mb > (std::uint64_t{1} << 24)) r.fail("/memory_limit_mb", "more than 2^24 MiB (16 TiB); 0 means no limit");
    s.memory_limit_bytes = mb << 20;
  }
  if (j.contains("budget")) {
    const json& b = j["budget"];
    r.only_keys(b, "/budget", {"max_executions", "max_checks"});
    if (b.contains("max_executions")) s.max_executions = r.unsigned_int(b["max_executions"], "/budget/max_executions");
    if (b.contains("max_checks")) s.max_checks = r.unsigned_int(b["max_checks"], "/budget/max_checks");
  }
}

// Whether [min, max] (magnitudes) holds a finite value of t.
bool range_has_value(const CampaignSpec& s, ElementType t) {
  const double lo = s.input_min.value_or(0), hi = s.input_max.value_or(INFINITY);
  if (!is_float(t)) {
    const auto I = std::get<IntFormat>(format_of(t));
    const double top = std::max(std::fabs(static_cast<double>(I.min_value())), static_cast<double>(I.max_value()));
    return std::ceil(lo) <= hi && std::ceil(lo) <= top;
  }
  const auto F = std::get<FloatFormat>(format_of(t));
  if (lo > F.max_finite()) return false;
  const double v = round_to(lo, F, RoundingMode::Upward).value;  // the least value >= lo
  return v <= hi;
}

// Checks that would run no input are input errors, named before anything runs.
void check_inputs_exist(const Reader& r, const CampaignSpec& s) {
  struct Use { ElementType type; std::string path; };
  std::vector<Use> uses;
  for (std::size_t i = 0; i < s.formats.size(); ++i) uses.push_back({s.formats[i], "/formats/" + std::to_string(i)});
  for (std::size_t i = 0; i < s.kernels.size() && i < s.kernel_paths.size(); ++i)
    uses.push_back({s.kernels[i].signature.type, s.kernel_paths[i]});
  const bool sampled = std::any_of(s.strategies.begin(), s.strategies.end(),
                                   [](const std::string& x) { return x != "exhaustive"; });
  for (const Use& u : uses) {
    const char* name = to_string(u.type);
    const bool sweepable = u.type == ElementType::FP16 || u.type == ElementType::BF16 ||
                           (!is_float(u.type) && std::get<IntFormat>(format_of(u.type)).bits <= 8);
    if (!sampled && !sweepable)
      r.fail("/strategies", std::string("only \"exhaustive\", which sweeps FP16, BF16 and integers of at most 8 bits: "
                                        "the ") + name + " check of " + u.path +
                                " would run no input (add special_grid, boundary or random)");
    if ((s.input_min || s.input_max) && !range_has_value(s, u.type))
      r.fail("/inputs", std::string("the range of magnitudes holds no finite value of ") + name + " (" + u.path +
                            "): its check would run " + (s.keep_special_values && is_float(u.type) ? "only the special values" : "no input"));
  }
}

// "operators" x "formats": symerr's generic kernels, each listed once.
void parse_generic_kernels(const Reader& r, const json& j, CampaignSpec& s) {
  if (j.contains("operators")) {
    if (!j["operators"].is_array()) r.fail("/operators", "expected an array of operator names");
    for (std::size_t i = 0; i < j["operators"].size(); ++i)
      s.operators.push_back(r.op(j["operators"][i], "/operators/" + std::to_string(i)));
  }
  if (j.contains("formats")) {
    if (!j["formats"].is_array()) r.fail("/formats", "expected an array of format names");
    for (std::size_t i = 0; i < j["formats"].size(); ++i)
      s.formats.push_back(r.type(j["formats"][i], "/formats/" + std::to_string(i)));
  }
  for (std::size_t i = 1; i < s.operators.size(); ++i)
    if (std::find(s.operators.begin(), s.operators.begin() + i, s.operators[i]) != s.operators.begin() + i)
      r.fail("/operators/" + std::to_string(i), "\"" + std::string(to_string(s.operators[i])) + "\" is listed twice");
  for (std::size_t i = 1; i < s.formats.size(); ++i)
    if (std::find(s.formats.begin(), s.formats.begin() + i, s.formats[i]) != s.formats.begin() + i)
      r.fail("/formats/" + std::to_string(i), std::string("\"") + to_string(s.formats[i]) + "\" is listed twice");
}

constexpr int kMaxDepth = 64;

[[noreturn]] void syntax_error(const std::string& text, const std::filesystem::path& file,
                               std::size_t offset, const std::string& what) {
  const auto lc = detail::line_column(text, offset);
  throw CampaignError(file.string() + ":" + std::to_string(lc.line) + ":" + std::to_string(lc.column) +
                      ": " + what);
}

// JSON parsing with the campaign's limits: nesting depth, duplicate keys
// (nlohmann keeps the last silently), numbers that overflow a double.
json parse_limited(const std::string& text, const std::filesystem::path& file) {
  std::vector<std::set<std::string>> keys;  // per open object
  std::size_t depth = 0;
  std::string duplicate;
  auto cb = [&](int d, json::parse_event_t ev, json& parsed) {
    if (d > kMaxDepth) throw std::length_error("nesting deeper than " + std::to_string(kMaxDepth) + " levels");
    switch (ev) {
      case json::parse_event_t::object_start: keys.emplace_back(); ++depth; break;
      case json::parse_event_t::object_end: if (!keys.empty()) keys.pop_back(); --depth; break;
      case json::parse_event_t::array_start: ++depth; break;
      case json::parse_event_t::array_end: --depth; break;
      case json::parse_event_t::key:
        if (!keys.empty() && !keys.back().insert(parsed.get<std::string>()).second) {
          duplicate = parsed.get<std::string>();
          throw std::domain_error("duplicate key \"" + duplicate + "\"");
        }
        break;
      default: break;
    }
    return true;
  };
  try {
    return json::parse(text, cb);
  } catch (const json::parse_error& e) {
    std::string what = e.what();
    if (const auto p = what.find("syntax error"); p != std::string::npos) what = what.substr(p);
    syntax_error(text, file, e.byte > 0 ? e.byte - 1 : 0, what);
  } catch (const json::out_of_range& e) {  // 406: a number that overflows a double, e.g. 1e400
    std::string what = e.what();
    std::size_t at = 0;
    if (const auto q = what.find('\''); q != std::string::npos) {
      const auto token = what.substr(q + 1, what.find('\'', q + 1) - q - 1);
      if (const auto p = text.find(token); p != std::string::npos) at = p;
      what = "the number " + token + " is out of the range of a double";
    }
    syntax_error(text, file, at, what);
  } catch (const std::length_error& e) {
    throw CampaignError(file.string() + ": " + e.what() + " (a campaign file is a few levels deep)");
  } catch (const std::domain_error& e) {
    const auto p = text.find("\"" + duplicate + "\"", text.find("\"" + duplicate + "\"") + 1);
    syntax_error(text, file, p == std::string::npos ? 0 : p, e.what() + std::string(" in an object"));
  }
}

// The campaign's accuracy statements (docs/statements.md): a malformed one is
// a campaign error naming /statements/i/... and the column.
std::vector<Statement> campaign_statements(const json& array, const std::filesystem::path& file) {
  try {
    return parse_statements(array, file.string(), "/statements");
  } catch (const StatementError& e) {
    throw CampaignError(e.what());
  }
}

// The "kernels" array: binary and unary kernels into `s`; the JSON paths of
// the source kernels, parsed after the statements they may name.
std::vector<std::string> parse_kernels(const Reader& r, const json& j, CampaignSpec& s) {
  std::vector<std::string> source_paths;
  if (j.contains("kernels")) {
    if (!j["kernels"].is_array()) r.fail("/kernels", "expected an array of kernel objects");
    for (std::size_t i = 0; i < j["kernels"].size(); ++i) {
      const std::string path = "/kernels/" + std::to_string(i);
      if (is_form(j["kernels"][i], "source")) {
        source_paths.push_back(path);
      } else if (is_form(j["kernels"][i], "unary")) {
        s.unary_kernels.push_back(parse_unary_kernel(r, j["kernels"][i], path, j));
      } else {
        s.kernels.push_back(parse_kernel(r, j["kernels"][i], path));
        s.kernel_paths.push_back(path);
      }
    }
  }
  return source_paths;
}

}  // namespace

CampaignSpec parse_campaign(const std::string& text, const std::filesystem::path& file) {
  const json j = parse_limited(text, file);
  const Reader r(file);
  r.only_keys(j, "", {"name", "seed", "operators", "formats", "kernels", "semantics", "inputs",
                      "bound", "strategies", "random_count", "boundary_count", "requirements",
                      "symbolic", "audit", "time_limit_seconds", "memory_limit_mb", "budget", "isolation",
                      "undefined_inputs", "statements"});
  CampaignSpec s;
  s.file = file;
  s.text = text;
  s.name = file.stem().string();
  if (j.contains("name")) s.name = r.string(j["name"], "/name");
  if (j.contains("seed")) s.seed = r.unsigned_int(j["seed"], "/seed");
  parse_generic_kernels(r, j, s);
  if (s.operators.empty() != s.formats.empty())
    r.fail(s.operators.empty() ? "/operators" : "/formats",
           "\"operators\" and \"formats\" go together (symerr's generic kernels, operator x format)");
  const std::vector<std::string> source_paths = parse_kernels(r, j, s);  // parsed after the statements
  if (j.contains("semantics")) parse_semantics(r, j["semantics"], s);
  if (j.contains("inputs")) parse_inputs(r, j["inputs"], s);
  if (j.contains("bound")) s.bound = parse_bound(r, j["bound"]);
  if (j.contains("strategies")) {
    s.strategies = r.strings(j["strategies"], "/strategies");
    for (std::size_t i = 0; i < s.strategies.size(); ++i) {
      const auto& n = s.strategies[i];
      if (n != "special_grid" && n != "boundary" && n != "random" && n != "exhaustive")
        r.fail("/strategies/" + std::to_string(i),
               "unknown strategy \"" + n + "\" (special_grid, boundary, random, exhaustive)");
    }
  }
  if (j.contains("strategies") && s.strategies.empty())
    r.fail("/strategies", "empty: no input would be run (give special_grid, boundary, random or exhaustive)");
  if (j.contains("random_count")) s.random_count = r.unsigned_int(j["random_count"], "/random_count");
  if (s.random_count > kMaxRandomCount)
    r.fail("/random_count", std::to_string(s.random_count) + " is more than the limit of " +
                                std::to_string(kMaxRandomCount) + " (use \"exhaustive\" for 16-bit formats)");
  if (j.contains("boundary_count"))
    s.boundary_count = r.unsigned_int(j["boundary_count"], "/boundary_count");
  if (s.boundary_count > kMaxRandomCount)
    r.fail("/boundary_count", "more than the limit of " + std::to_string(kMaxRandomCount));
  parse_limits(r, j, s);
  if (j.contains("isolation")) s.isolate_user_kernels = r.boolean(j["isolation"], "/isolation");
  if (j.contains("undefined_inputs")) {
    const auto u = r.string(j["undefined_inputs"], "/undefined_inputs");
    if (u != "skip" && u != "run") r.fail("/undefined_inputs", "expected \"skip\" or \"run\"");
    s.run_undefined_inputs = u == "run";
  }
  if (j.contains("requirements")) s.requirements = r.strings(j["requirements"], "/requirements");
  for (std::size_t i = 0; i < s.requirements.size(); ++i)
    if (s.requirements[i].empty()) r.fail("/requirements/" + std::to_string(i), "an empty requirement ID");
  if (j.contains("symbolic")) s.symbolic = r.boolean(j["symbolic"], "/symbolic");
  if (j.contains("audit")) s.audit = r.boolean(j["audit"], "/audit");
  if (j.contains("statements")) s.statements = campaign_statements(j["statements"], file);
  for (const auto& p : source_paths)
    s.source_kernels.push_back(parse_source_kernel(j.at(json::json_pointer(p)), p, file, s.statements));
  if (s.operators.empty() && s.kernels.empty() && s.unary_kernels.empty() && s.source_kernels.empty() && !s.symbolic &&
      !s.audit)
    r.fail("", "nothing to verify: give \"operators\"+\"formats\", \"kernels\", \"symbolic\" or \"audit\"");
  check_inputs_exist(r, s);
  return s;
}

CampaignSpec load_campaign(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw CampaignError(file.string() + ": cannot read the campaign file");
  std::string text(kMaxCampaignBytes + 1, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(in.gcount()));
  if (text.size() > kMaxCampaignBytes)
    throw CampaignError(file.string() + ": larger than " + std::to_string(kMaxCampaignBytes >> 20) +
                        " MiB: not a campaign file");
  return parse_campaign(text, file);
}

std::string qualified_requirement(const std::string& id, const std::string& op, const std::string& format) {
  if (id.find('/') != std::string::npos || op.empty()) return id;
  std::string kind = "float";
  if (format == "real") kind = "real";
  else if (format.find("INT") != std::string::npos) kind = "int";
  return op + "/" + kind + "/" + id;
}

std::vector<std::string> seed_requirements(OpId op, ElementType type) {
  // [R1]: elementwise semantics on identical shapes; [C3]: range and special
  // values of the type (seeds 000/001 Div, 003 Sub; Add and Mul by the same scheme)
  const std::string f = to_string(type);
  const std::string name(to_string(op));
  return {qualified_requirement("[R1]", name, f), qualified_requirement("[C3]", name, f)};
}

}  // namespace symerr::verify
