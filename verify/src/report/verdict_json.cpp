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

void to_json(json& j, const ClassCount& x) { j = json{{"checked", x.checked}, {"failed", x.failed}}; }
void from_json(const json& j, ClassCount& x) {
  get_opt(j, "checked", x.checked);
  get_opt(j, "failed", x.failed);
}

void to_json(json& j, const Value& x) {
  j = json{{"value", number(x.value)}, {"exact", x.exact}, {"bits", x.bits}};
}
void from_json(const json& j, Value& x) {
  get_num_opt(j, "value", x.value);
  get_opt(j, "exact", x.exact);
  get_opt(j, "bits", x.bits);
}

void to_json(json& j, const Witness& x) {
  j = json{{"inputs", x.inputs},
           {"input_errors", x.input_errors},
           {"output", x.output},
           {"reference", x.reference},
           {"exact_result", x.exact_result},
           {"abs_error", number(x.abs_error)},
           {"rel_error", number(x.rel_error)},
           {"ulp_error", number(x.ulp_error)},
           {"bound", x.bound ? number(*x.bound) : json(nullptr)},
           {"classes", mask_to_json(x.classes)},
           {"message", x.message}};
}
void from_json(const json& j, Witness& x) {
  get_opt(j, "inputs", x.inputs);
  get_opt(j, "input_errors", x.input_errors);
  get_opt(j, "output", x.output);
  get_opt(j, "reference", x.reference);
  get_opt(j, "exact_result", x.exact_result);
  get_num_opt(j, "abs_error", x.abs_error);
  get_num_opt(j, "rel_error", x.rel_error);
  get_num_opt(j, "ulp_error", x.ulp_error);
  if (auto it = j.find("bound"); it != j.end() && !it->is_null()) x.bound = get_number(*it);
  else x.bound.reset();
  if (auto it = j.find("classes"); it != j.end()) x.classes = mask_from_json(*it);
  get_opt(j, "message", x.message);
}

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

void to_json(json& j, const ScatterPoint& x) {
  j = json{{"inputs", numbers(x.inputs)},
           {"magnitude", number(x.magnitude)},
           {"ulp_error", number(x.ulp_error)},
           {"key", x.key}};
}
void from_json(const json& j, ScatterPoint& x) {
  if (auto it = j.find("inputs"); it != j.end()) x.inputs = get_numbers(*it);
  get_num_opt(j, "magnitude", x.magnitude);
  get_num_opt(j, "ulp_error", x.ulp_error);
  get_opt(j, "key", x.key);
}

void to_json(json& j, const ScatterSample& x) {
  j = json{{"capacity", x.capacity}, {"points", x.points}};
}
void from_json(const json& j, ScatterSample& x) {
  get_opt(j, "capacity", x.capacity);
  get_opt(j, "points", x.points);
}

void to_json(json& j, const SpecialValueStats& x) {
  j = json{{"checked", x.checked}, {"matched", x.matched}};
}
void from_json(const json& j, SpecialValueStats& x) {
  get_opt(j, "checked", x.checked);
  get_opt(j, "matched", x.matched);
}

void to_json(json& j, const Evidence& x) {
  json classes = json::object();
  for (InputClass c : kInputClasses) classes[to_string(c)] = x[c];
  j = json{{"inputs_checked", x.inputs_checked},
           {"failures", x.failures},
           {"wrong_special", x.wrong_special},
           {"undefined", x.undefined},
           {"classes", classes},
           {"max_abs_error", number(x.max_abs_error)},
           {"max_rel_error", number(x.max_rel_error)},
           {"max_ulp_error", number(x.max_ulp_error)},
           {"worst", x.worst ? json(*x.worst) : json(nullptr)},
           {"special", x.special},
           {"histogram", x.histogram},
           {"scatter", x.scatter},
           {"metrics", x.metrics}};
}
void from_json(const json& j, Evidence& x) {
  get_opt(j, "inputs_checked", x.inputs_checked);
  get_opt(j, "failures", x.failures);
  get_opt(j, "wrong_special", x.wrong_special);
  get_opt(j, "undefined", x.undefined);
  if (auto it = j.find("classes"); it != j.end())
    for (const auto& [name, count] : it->items()) {
      const auto c = parse_input_class(name);
      if (!c) throw std::invalid_argument("unknown input class \"" + name + "\"");
      count.get_to(x[*c]);
    }
  get_num_opt(j, "max_abs_error", x.max_abs_error);
  get_num_opt(j, "max_rel_error", x.max_rel_error);
  get_num_opt(j, "max_ulp_error", x.max_ulp_error);
  if (auto it = j.find("worst"); it != j.end() && !it->is_null()) x.worst = it->get<Witness>();
  else x.worst.reset();
  get_opt(j, "special", x.special);
  get_opt(j, "histogram", x.histogram);
  get_opt(j, "scatter", x.scatter);
  get_opt(j, "metrics", x.metrics);
}

void to_json(json& j, const BoundInfo& x) {
  j = json{{"name", x.name}, {"formula", x.formula}, {"source", x.source}};
}
void from_json(const json& j, BoundInfo& x) {
  get_opt(j, "name", x.name);
  get_opt(j, "formula", x.formula);
  get_opt(j, "source", x.source);
}

void to_json(json& j, const ShardInfo& x) { j = json{{"count", x.count}, {"indices", x.indices}}; }
void from_json(const json& j, ShardInfo& x) {
  get_opt(j, "count", x.count);
  get_opt(j, "indices", x.indices);
}

void to_json(json& j, const ItemIdentity& x) {
  j = json{{"library", x.library}, {"sha256", x.sha256}, {"symbol", x.symbol},
           {"form", x.form},       {"package", x.package}, {"build", x.build}};
}
void from_json(const json& j, ItemIdentity& x) {
  get_opt(j, "library", x.library);
  get_opt(j, "sha256", x.sha256);
  get_opt(j, "symbol", x.symbol);
  get_opt(j, "form", x.form);
  get_opt(j, "package", x.package);
  get_opt(j, "build", x.build);
}

void to_json(json& j, const FaultInfo& x) {
  j = json{{"kind", x.kind},
           {"message", x.message},
           {"batch_size", x.batch_size},
           {"reproducer_size", x.reproducer_size},
           {"reproduced", x.reproduced},
           {"reproducer", x.reproducer}};
}
void from_json(const json& j, FaultInfo& x) {
  get_opt(j, "kind", x.kind);
  get_opt(j, "message", x.message);
  get_opt(j, "batch_size", x.batch_size);
  get_opt(j, "reproducer_size", x.reproducer_size);
  get_opt(j, "reproduced", x.reproduced);
  get_opt(j, "reproducer", x.reproducer);
}

void to_json(json& j, const CampaignSource& x) {
  j = json{{"file", x.file}, {"sha256", x.sha256}, {"text", x.text}, {"command_line", x.command_line}};
}
void from_json(const json& j, CampaignSource& x) {
  get_opt(j, "file", x.file);
  get_opt(j, "sha256", x.sha256);
  get_opt(j, "text", x.text);
  get_opt(j, "command_line", x.command_line);
}

void to_json(json& j, const CheckResult& x) {
  j = json{{"id", x.id},
           {"kind", x.kind},
           {"subject", to_string(x.subject)},
           {"item", x.item},
           {"kernel", x.kernel},
           {"operator", x.operator_name},
           {"format", x.format},
           {"semantics", x.semantics},
           {"bound", x.bound},
           {"requirements", x.requirements},
           {"strategies", x.strategies},
           {"seed", x.seed},
           {"shard", x.shard},
           {"exhaustive", x.exhaustive},
           {"verdict", x.verdict},
           {"evidence", x.evidence},
           {"witnesses", x.witnesses},
           {"reason", x.reason},
           {"fault", x.fault ? json(*x.fault) : json(nullptr)},
           {"fp_environment", x.fp_environment},
           {"duration_seconds", number(x.duration_seconds)}};
}
void from_json(const json& j, CheckResult& x) {
  get_opt(j, "id", x.id);
  get_opt(j, "kind", x.kind);
  if (auto it = j.find("subject"); it != j.end()) {
    const auto sub = parse_subject(it->get<std::string>());
    if (!sub) throw std::invalid_argument("unknown subject " + it->dump());
    x.subject = *sub;
  }
  get_opt(j, "item", x.item);
  get_opt(j, "kernel", x.kernel);
  get_opt(j, "operator", x.operator_name);
  get_opt(j, "format", x.format);
  get_opt(j, "semantics", x.semantics);
  get_opt(j, "bound", x.bound);
  get_opt(j, "requirements", x.requirements);
  get_opt(j, "strategies", x.strategies);
  get_opt(j, "seed", x.seed);
  get_opt(j, "shard", x.shard);
  get_opt(j, "exhaustive", x.exhaustive);
  j.at("verdict").get_to(x.verdict);
  get_opt(j, "evidence", x.evidence);
  get_opt(j, "witnesses", x.witnesses);
  get_opt(j, "reason", x.reason);
  if (auto it = j.find("fault"); it != j.end() && !it->is_null()) x.fault = it->get<FaultInfo>();
  get_opt(j, "fp_environment", x.fp_environment);
  get_num_opt(j, "duration_seconds", x.duration_seconds);
}

void to_json(json& j, const Environment& x) {
  j = json{{"symerr_version", x.symerr_version},
           {"git_commit", x.git_commit},
           {"compiler", x.compiler},
           {"flags", x.flags},
           {"cpu_model", x.cpu_model},
           {"cpu_features", x.cpu_features},
           {"kernel_fp_state", x.kernel_fp_state},
           {"hardware_threads", x.hardware_threads},
           {"os", x.os},
           {"rounding_mode", x.rounding_mode},
           {"flush_to_zero", x.flush_to_zero},
           {"denormals_are_zero", x.denormals_are_zero},
           {"seed", x.seed},
           {"date", x.date}};
}
void from_json(const json& j, Environment& x) {
  get_opt(j, "symerr_version", x.symerr_version);
  get_opt(j, "git_commit", x.git_commit);
  get_opt(j, "compiler", x.compiler);
  get_opt(j, "flags", x.flags);
  get_opt(j, "cpu_model", x.cpu_model);
  get_opt(j, "cpu_features", x.cpu_features);
  get_opt(j, "kernel_fp_state", x.kernel_fp_state);
  get_opt(j, "hardware_threads", x.hardware_threads);
  get_opt(j, "os", x.os);
  get_opt(j, "rounding_mode", x.rounding_mode);
  get_opt(j, "flush_to_zero", x.flush_to_zero);
  get_opt(j, "denormals_are_zero", x.denormals_are_zero);
  get_opt(j, "seed", x.seed);
  get_opt(j, "date", x.date);
}

void to_json(json& j, const CampaignResult& x) {
  j = json{{"name", x.name},
           {"verdict", x.overall()},
           {"implementation_verdict", x.overall(Subject::Implementation)},
           {"specification_verdict", x.overall(Subject::Specification)},
           {"environment", x.environment},
           {"source", x.source},
           {"checks", x.checks}};
}
void from_json(const json& j, CampaignResult& x) {
  get_opt(j, "name", x.name);
  get_opt(j, "environment", x.environment);
  get_opt(j, "source", x.source);
  get_opt(j, "checks", x.checks);
}

}  // namespace symerr::verify
