// Campaign files (JSON): parsing and validation. Syntax errors give
// FILE:LINE:COLUMN, content errors the JSON path; unknown keys are errors
// (a misspelt key must not silently change what is verified).
#include <symerr/verify/campaign.hpp>

#include <cmath>
#include <fstream>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include <symerr/verify/report.hpp>

namespace symerr::verify {

namespace {

using nlohmann::json;

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
    if (!j.is_string()) fail(path, "expected a string, got " + j.dump());
    return j.get<std::string>();
  }
  bool boolean(const json& j, const std::string& path) const {
    if (!j.is_boolean()) fail(path, "expected true or false, got " + j.dump());
    return j.get<bool>();
  }
  double number(const json& j, const std::string& path) const {
    if (!j.is_number()) fail(path, "expected a number, got " + j.dump());
    return j.get<double>();
  }
  std::uint64_t unsigned_int(const json& j, const std::string& path) const {
    if (!j.is_number_unsigned()) fail(path, "expected a non-negative integer, got " + j.dump());
    return j.get<std::uint64_t>();
  }
  std::vector<std::string> strings(const json& j, const std::string& path) const {
    if (!j.is_array()) fail(path, "expected an array of strings");
    std::vector<std::string> v;
    for (std::size_t i = 0; i < j.size(); ++i) v.push_back(string(j[i], path + "/" + std::to_string(i)));
    return v;
  }
  Operator op(const json& j, const std::string& path) const {
    const auto s = string(j, path);
    const auto o = parse_operator(s);
    if (!o) fail(path, "unknown operator \"" + s + "\" (Add, Sub, Mul, Div)");
    return *o;
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

UserKernelSpec parse_kernel(const Reader& r, const json& j, const std::string& path) {
  r.only_keys(j, path, {"name", "library", "symbol", "operator", "type", "form"});
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
    else r.fail(path + "/form", "expected \"elementwise\" or \"tensor\"");
  }
  std::filesystem::path lib(k.library);
  if (lib.is_relative() && !r.file().empty()) k.library = (r.file().parent_path() / lib).string();
  return k;
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
}

}  // namespace

CampaignSpec parse_campaign(const std::string& text, const std::filesystem::path& file) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::parse_error& e) {
    const auto lc = detail::line_column(text, e.byte > 0 ? e.byte - 1 : 0);
    std::string what = e.what();
    if (const auto p = what.find("syntax error"); p != std::string::npos) what = what.substr(p);
    throw CampaignError(file.string() + ":" + std::to_string(lc.line) + ":" +
                        std::to_string(lc.column) + ": " + what);
  }
  const Reader r(file);
  r.only_keys(j, "", {"name", "seed", "operators", "formats", "kernels", "semantics", "inputs",
                      "bound", "strategies", "random_count", "boundary_count", "requirements",
                      "symbolic", "audit"});
  CampaignSpec s;
  s.file = file;
  s.name = file.stem().string();
  if (j.contains("name")) s.name = r.string(j["name"], "/name");
  if (j.contains("seed")) s.seed = r.unsigned_int(j["seed"], "/seed");
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
  if (s.operators.empty() != s.formats.empty())
    r.fail(s.operators.empty() ? "/operators" : "/formats",
           "\"operators\" and \"formats\" go together (symerr's generic kernels, operator x format)");
  if (j.contains("kernels")) {
    if (!j["kernels"].is_array()) r.fail("/kernels", "expected an array of kernel objects");
    for (std::size_t i = 0; i < j["kernels"].size(); ++i)
      s.kernels.push_back(parse_kernel(r, j["kernels"][i], "/kernels/" + std::to_string(i)));
  }
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
  if (j.contains("random_count")) s.random_count = r.unsigned_int(j["random_count"], "/random_count");
  if (j.contains("boundary_count"))
    s.boundary_count = r.unsigned_int(j["boundary_count"], "/boundary_count");
  if (j.contains("requirements")) s.requirements = r.strings(j["requirements"], "/requirements");
  if (j.contains("symbolic")) s.symbolic = r.boolean(j["symbolic"], "/symbolic");
  if (j.contains("audit")) s.audit = r.boolean(j["audit"], "/audit");
  if (s.operators.empty() && s.kernels.empty() && !s.symbolic && !s.audit)
    r.fail("", "nothing to verify: give \"operators\"+\"formats\", \"kernels\", \"symbolic\" or \"audit\"");
  return s;
}

CampaignSpec load_campaign(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw CampaignError(file.string() + ": cannot read the campaign file");
  std::ostringstream buf;
  buf << in.rdbuf();
  return parse_campaign(buf.str(), file);
}

}  // namespace symerr::verify
