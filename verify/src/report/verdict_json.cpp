// JSON form of the verdict types. Field names are the C++ member names;
// non-finite doubles are the strings "inf", "-inf", "nan"; enums are their
// to_string() names; ClassMask is a list of class names; Evidence::classes is
// an object keyed by class name.
#include <symerr/verify/report/verdict.hpp>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <type_traits>

#include <nlohmann/json.hpp>

namespace symerr::verify {

using nlohmann::json;

namespace {

json number(double x) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  return x;
}

double get_number(const json& j) {
  if (j.is_number()) return j.get<double>();
  if (j.is_string()) {
    const auto s = j.get<std::string>();
    if (s == "inf") return INFINITY;
    if (s == "-inf") return -INFINITY;
    if (s == "nan") return NAN;
  }
  throw std::invalid_argument("expected a number or \"inf\"/\"-inf\"/\"nan\", got " + j.dump());
}

json numbers(const std::vector<double>& v) {
  json a = json::array();
  for (double x : v) a.push_back(number(x));
  return a;
}

std::vector<double> get_numbers(const json& j) {
  std::vector<double> v;
  for (const auto& x : j) v.push_back(get_number(x));
  return v;
}

json mask_to_json(ClassMask m) {
  json a = json::array();
  for (InputClass c : kInputClasses)
    if (has_class(m, c)) a.push_back(to_string(c));
  return a;
}

ClassMask mask_from_json(const json& j) {
  ClassMask m = 0;
  for (const auto& x : j) m |= mask_of(x.get<InputClass>());
  return m;
}

// A count: a non-negative integer that fits (a negative or fractional number,
// or 1e300, is an error instead of wrapping or undefined behaviour).
std::uint64_t get_count(const json& j) {
  if (!j.is_number_unsigned() && !(j.is_number_integer() && j.get<std::int64_t>() >= 0))
    throw std::invalid_argument("expected a non-negative integer count, got " +
                                (j.is_number() ? j.dump() : std::string(j.type_name())));
  return j.get<std::uint64_t>();
}

// Optional members: absent keys keep the default.
template <class T>
void get_opt(const json& j, const char* key, T& out) {
  if (!j.is_object()) throw std::invalid_argument(std::string("expected an object with \"") + key + "\"");
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return;
  if constexpr (std::is_integral_v<T> && std::is_unsigned_v<T> && !std::is_same_v<T, bool>) {
    const std::uint64_t v = get_count(*it);
    if (v > std::numeric_limits<T>::max())
      throw std::invalid_argument(std::string("\"") + key + "\": " + std::to_string(v) + " is too large");
    out = static_cast<T>(v);
  } else {
    it->get_to(out);
  }
}
void get_num_opt(const json& j, const char* key, double& out) {
  if (auto it = j.find(key); it != j.end() && !it->is_null()) out = get_number(*it);
}

// ---- one field table per struct, serving both directions -------------------
//
// fields(io, x) names every member of x's JSON form once; io is a Writer
// (x const: the JSON object is built) or a Reader (x mutable: absent or null
// keys keep the default). Members whose JSON is not their plain
// nlohmann form are wrapped: Num (a double, non-finite as a string), Nums,
// OptNum (std::optional<double>, null when absent), Opt (std::optional<T>),
// ClassList (ClassMask as class names), SubjectName, Required (an error when
// absent on reading).

template <class D> struct Num { D& v; };
template <class D> struct Nums { D& v; };
template <class D> struct OptNum { D& v; };
template <class D> struct Opt { D& v; };
template <class D> struct ClassList { D& v; };
template <class D> struct SubjectName { D& v; };
template <class D> struct Required { D& v; };
template <class D> struct NumMap { D& v; };  // std::map<std::string, double>, non-finite values as strings
// Deduction guides: clang before 17 has no class template argument deduction
// for aggregates (P1816), and .ci/fuzz.sh compiles this file with Debian's clang 14.
template <class D> Num(D&) -> Num<D>;
template <class D> Nums(D&) -> Nums<D>;
template <class D> OptNum(D&) -> OptNum<D>;
template <class D> Opt(D&) -> Opt<D>;
template <class D> ClassList(D&) -> ClassList<D>;
template <class D> SubjectName(D&) -> SubjectName<D>;
template <class D> Required(D&) -> Required<D>;
template <class D> NumMap(D&) -> NumMap<D>;

struct Writer {
  json& j;
  template <class T> void operator()(const char* k, const T& v) { j[k] = v; }
  template <class D> void operator()(const char* k, Num<D> x) { j[k] = number(x.v); }
  template <class D> void operator()(const char* k, Nums<D> x) { j[k] = numbers(x.v); }
  template <class D> void operator()(const char* k, OptNum<D> x) { j[k] = x.v ? number(*x.v) : json(nullptr); }
  template <class D> void operator()(const char* k, Opt<D> x) { j[k] = x.v ? json(*x.v) : json(nullptr); }
  template <class D> void operator()(const char* k, ClassList<D> x) { j[k] = mask_to_json(x.v); }
  template <class D> void operator()(const char* k, SubjectName<D> x) { j[k] = to_string(x.v); }
  template <class D> void operator()(const char* k, Required<D> x) { j[k] = x.v; }
  template <class D> void operator()(const char* k, NumMap<D> x) {
    json o = json::object();
    for (const auto& [name, v] : x.v) o[name] = number(v);
    j[k] = o;
  }
};

struct Reader {
  const json& j;
  // the member's JSON, null when absent or null
  const json* find(const char* k) const {
    const auto it = j.find(k);
    return it == j.end() || it->is_null() ? nullptr : &*it;
  }
  template <class T> void operator()(const char* k, T& v) { get_opt(j, k, v); }
  template <class D> void operator()(const char* k, Num<D> x) { get_num_opt(j, k, x.v); }
  template <class D> void operator()(const char* k, Nums<D> x) {
    if (const json* v = find(k)) x.v = get_numbers(*v);
  }
  template <class D> void operator()(const char* k, NumMap<D> x) {
    x.v.clear();
    if (const json* v = find(k))
      for (const auto& [name, e] : v->items()) x.v[name] = get_number(e);
  }
  template <class D> void operator()(const char* k, OptNum<D> x) {
    if (const json* v = find(k)) x.v = get_number(*v);
    else x.v.reset();
  }
  template <class D> void operator()(const char* k, Opt<D> x) {
    if (const json* v = find(k)) x.v = v->get<typename D::value_type>();
    else x.v.reset();
  }
  template <class D> void operator()(const char* k, ClassList<D> x) {
    if (const json* v = find(k)) x.v = mask_from_json(*v);
  }
  template <class D> void operator()(const char* k, SubjectName<D> x) {
    const json* v = find(k);
    if (!v) return;
    const auto s = parse_subject(v->get<std::string>());
    if (!s) throw std::invalid_argument("unknown subject " + v->dump());
    x.v = *s;
  }
  template <class D> void operator()(const char* k, Required<D> x) { j.at(k).get_to(x.v); }
};

// X is T (read) or const T (written): the same table serves both.
template <class X, class T>
concept Is = std::is_same_v<std::remove_const_t<X>, T>;

template <class Io, Is<ClassCount> X>
void fields(Io& io, X& x) {
  io("checked", x.checked);
  io("failed", x.failed);
}
template <class Io, Is<Value> X>
void fields(Io& io, X& x) {
  io("value", Num{x.value});
  io("exact", x.exact);
  io("bits", x.bits);
}
template <class Io, Is<Witness> X>
void fields(Io& io, X& x) {
  io("inputs", x.inputs);
  io("input_errors", x.input_errors);
  io("output", x.output);
  io("reference", x.reference);
  io("exact_result", x.exact_result);
  io("abs_error", Num{x.abs_error});
  io("rel_error", Num{x.rel_error});
  io("ulp_error", Num{x.ulp_error});
  io("bound", OptNum{x.bound});
  io("classes", ClassList{x.classes});
  io("message", x.message);
}
template <class Io, Is<ScatterPoint> X>
void fields(Io& io, X& x) {
  io("inputs", Nums{x.inputs});
  io("magnitude", Num{x.magnitude});
  io("ulp_error", Num{x.ulp_error});
  io("key", x.key);
}
template <class Io, Is<ScatterSample> X>
void fields(Io& io, X& x) {
  io("capacity", x.capacity);
  io("points", x.points);
}
template <class Io, Is<SpecialValueStats> X>
void fields(Io& io, X& x) {
  io("checked", x.checked);
  io("matched", x.matched);
}
// Evidence::classes (an object keyed by class name) is written and read by
// to_json / from_json themselves.
template <class Io, Is<Evidence> X>
void fields(Io& io, X& x) {
  io("inputs_checked", x.inputs_checked);
  io("failures", x.failures);
  io("wrong_special", x.wrong_special);
  io("undefined", x.undefined);
  io("max_abs_error", Num{x.max_abs_error});
  io("max_rel_error", Num{x.max_rel_error});
  io("max_ulp_error", Num{x.max_ulp_error});
  io("worst", Opt{x.worst});
  io("special", x.special);
  io("histogram", x.histogram);
  io("scatter", x.scatter);
  io("metrics", NumMap{x.metrics});
}
template <class Io, Is<BoundInfo> X>
void fields(Io& io, X& x) {
  io("name", x.name);
  io("formula", x.formula);
  io("source", x.source);
}
template <class Io, Is<ShardInfo> X>
void fields(Io& io, X& x) {
  io("count", x.count);
  io("indices", x.indices);
}
template <class Io, Is<ItemIdentity> X>
void fields(Io& io, X& x) {
  io("library", x.library);
  io("sha256", x.sha256);
  io("symbol", x.symbol);
  io("form", x.form);
  io("package", x.package);
  io("build", x.build);
  io("libraries", x.libraries);
}
template <class Io, Is<LinkedLibrary> X>
void fields(Io& io, X& x) {
  io("path", x.path);
  io("sha256", x.sha256);
  io("package", x.package);
}
template <class Io, Is<FaultInfo> X>
void fields(Io& io, X& x) {
  io("kind", x.kind);
  io("message", x.message);
  io("batch_size", x.batch_size);
  io("reproducer_size", x.reproducer_size);
  io("reproduced", x.reproduced);
  io("reproducer", x.reproducer);
}
template <class Io, Is<CampaignSource> X>
void fields(Io& io, X& x) {
  io("file", x.file);
  io("sha256", x.sha256);
  io("text", x.text);
  io("command_line", x.command_line);
}
template <class Io, Is<CheckResult> X>
void fields(Io& io, X& x) {
  io("id", x.id);
  io("kind", x.kind);
  io("subject", SubjectName{x.subject});
  io("item", x.item);
  io("kernel", x.kernel);
  io("operator", x.operator_name);
  io("format", x.format);
  io("semantics", x.semantics);
  io("bound", x.bound);
  io("requirements", x.requirements);
  io("strategies", x.strategies);
  io("seed", x.seed);
  io("shard", x.shard);
  io("exhaustive", x.exhaustive);
  io("verdict", Required{x.verdict});
  io("evidence", x.evidence);
  io("witnesses", x.witnesses);
  io("reason", x.reason);
  io("fault", Opt{x.fault});
  io("fp_environment", x.fp_environment);
  io("duration_seconds", Num{x.duration_seconds});
}
template <class Io, Is<Environment> X>
void fields(Io& io, X& x) {
  io("symerr_version", x.symerr_version);
  io("git_commit", x.git_commit);
  io("compiler", x.compiler);
  io("flags", x.flags);
  io("cpu_model", x.cpu_model);
  io("cpu_features", x.cpu_features);
  io("kernel_fp_state", x.kernel_fp_state);
  io("hardware_threads", x.hardware_threads);
  io("os", x.os);
  io("rounding_mode", x.rounding_mode);
  io("flush_to_zero", x.flush_to_zero);
  io("denormals_are_zero", x.denormals_are_zero);
  io("seed", x.seed);
  io("date", x.date);
  io("code_path_variables", x.code_path_variables);
}
// The overall verdicts are written (for readers of the file), not read: they
// follow from the checks.
template <class Io, Is<CampaignResult> X>
void fields(Io& io, X& x) {
  io("name", x.name);
  io("environment", x.environment);
  io("source", x.source);
  io("checks", x.checks);
}

template <class S>
void write(json& j, const S& x) {
  j = json::object();
  Writer w{j};
  fields(w, x);
}
template <class S>
void read(const json& j, S& x) {
  Reader r{j};
  fields(r, x);
}

}  // namespace

void to_json(json& j, Verdict v) { j = to_string(v); }
void from_json(const json& j, Verdict& v) {
  const auto p = parse_verdict(j.get<std::string>());
  if (!p) throw std::invalid_argument("unknown verdict " + j.dump());
  v = *p;
}

void to_json(json& j, InputClass c) { j = to_string(c); }
void from_json(const json& j, InputClass& c) {
  const auto p = parse_input_class(j.get<std::string>());
  if (!p) throw std::invalid_argument("unknown input class " + j.dump());
  c = *p;
}

// The structs whose JSON form is their field table.
#define SYMERR_JSON_BY_FIELDS(T)                          \
  void to_json(json& j, const T& x) { write(j, x); }      \
  void from_json(const json& j, T& x) { read(j, x); }
SYMERR_JSON_BY_FIELDS(ClassCount)
SYMERR_JSON_BY_FIELDS(Value)
SYMERR_JSON_BY_FIELDS(Witness)
SYMERR_JSON_BY_FIELDS(ScatterPoint)
SYMERR_JSON_BY_FIELDS(ScatterSample)
SYMERR_JSON_BY_FIELDS(SpecialValueStats)
SYMERR_JSON_BY_FIELDS(BoundInfo)
SYMERR_JSON_BY_FIELDS(ShardInfo)
SYMERR_JSON_BY_FIELDS(LinkedLibrary)
SYMERR_JSON_BY_FIELDS(ItemIdentity)
SYMERR_JSON_BY_FIELDS(FaultInfo)
SYMERR_JSON_BY_FIELDS(CampaignSource)
SYMERR_JSON_BY_FIELDS(CheckResult)
SYMERR_JSON_BY_FIELDS(Environment)
#undef SYMERR_JSON_BY_FIELDS

void to_json(json& j, const UlpHistogram& x) {
  json buckets = json::array();
  for (std::size_t i = 0; i < UlpHistogram::kBuckets; ++i)
    buckets.push_back(json{{"lower", number(UlpHistogram::lower_edge(i))},
                           {"upper", number(UlpHistogram::upper_edge(i))},
                           {"count", x.counts[i]}});
  j = json{{"unit", "ulp"}, {"buckets", buckets}};
}
void from_json(const json& j, UlpHistogram& x) {
  const auto& b = j.at("buckets");
  if (b.size() != UlpHistogram::kBuckets)
    throw std::invalid_argument("histogram: expected " + std::to_string(UlpHistogram::kBuckets) +
                                " buckets, got " + std::to_string(b.size()));
  for (std::size_t i = 0; i < UlpHistogram::kBuckets; ++i) x.counts[i] = get_count(b[i].at("count"));
}

void to_json(json& j, const Evidence& x) {
  write(j, x);
  json classes = json::object();
  for (InputClass c : kInputClasses) classes[to_string(c)] = x[c];
  j["classes"] = classes;
}
void from_json(const json& j, Evidence& x) {
  read(j, x);
  if (auto it = j.find("classes"); it != j.end())
    for (const auto& [name, count] : it->items()) {
      const auto c = parse_input_class(name);
      if (!c) throw std::invalid_argument("unknown input class \"" + name + "\"");
      count.get_to(x[*c]);
    }
}

void to_json(json& j, const CampaignResult& x) {
  write(j, x);
  j["verdict"] = x.overall();
  j["implementation_verdict"] = x.overall(Subject::Implementation);
  j["specification_verdict"] = x.overall(Subject::Specification);
}
void from_json(const json& j, CampaignResult& x) { read(j, x); }

}  // namespace symerr::verify
