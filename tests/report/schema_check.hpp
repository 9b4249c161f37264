// A validator for the subset of JSON Schema (draft 2020-12) that
// verify/schema/report.schema.json uses: $ref to #/$defs, type, enum, const,
// properties, required, additionalProperties, items, minItems, maxItems,
// minimum, anyOf. Any other keyword is reported as unsupported, so the schema
// cannot silently grow beyond what the test checks.
#pragma once

#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace symerr::verify::test {

class SchemaCheck {
 public:
  explicit SchemaCheck(nlohmann::json root) : root_(std::move(root)) {}

  // Every violation as "/json/path: reason"; empty when the instance is valid.
  std::vector<std::string> validate(const nlohmann::json& instance) {
    errors_.clear();
    check(root_, instance, "");
    return errors_;
  }

 private:
  using json = nlohmann::json;

  static bool has_type(const json& x, const std::string& t) {
    if (t == "object") return x.is_object();
    if (t == "array") return x.is_array();
    if (t == "string") return x.is_string();
    if (t == "boolean") return x.is_boolean();
    if (t == "null") return x.is_null();
    if (t == "number") return x.is_number();
    if (t == "integer") return x.is_number_integer();
    return false;
  }

  const json& resolve(const std::string& ref) {
    const std::string prefix = "#/$defs/";
    if (ref.rfind(prefix, 0) != 0) throw std::invalid_argument("unsupported $ref " + ref);
    return root_.at("$defs").at(ref.substr(prefix.size()));
  }

  void fail(const std::string& path, const std::string& why) {
    errors_.push_back((path.empty() ? "/" : path) + ": " + why);
  }

  void check(const json& s, const json& x, const std::string& path) {
    static const std::set<std::string> known = {
        "$schema", "$id", "$defs", "title", "description", "$ref", "type", "enum", "const",
        "properties", "required", "additionalProperties", "items", "minItems", "maxItems",
        "minimum", "anyOf"};
    for (const auto& [k, v] : s.items())
      if (!known.count(k)) fail(path, "schema keyword not supported by the test validator: " + k);
    if (s.contains("$ref")) check(resolve(s["$ref"]), x, path);
    if (s.contains("type")) {
      bool ok = false;
      if (s["type"].is_string()) ok = has_type(x, s["type"]);
      else
        for (const auto& t : s["type"]) ok = ok || has_type(x, t);
      if (!ok) return fail(path, "expected type " + s["type"].dump() + ", got " + x.dump());
    }
    if (s.contains("enum") && std::find(s["enum"].begin(), s["enum"].end(), x) == s["enum"].end())
      fail(path, x.dump() + " not in " + s["enum"].dump());
    if (s.contains("const") && s["const"] != x) fail(path, "expected " + s["const"].dump());
    if (s.contains("minimum") && x.is_number() && x.get<double>() < s["minimum"].get<double>())
      fail(path, "below minimum");
    if (s.contains("anyOf")) {
      bool any = false;
      for (const auto& alt : s["anyOf"]) {
        SchemaCheck sub(root_);
        sub.check(alt, x, path);
        any = any || sub.errors_.empty();
      }
      if (!any) fail(path, "matches none of anyOf for " + x.dump());
    }
    if (x.is_object()) check_object(s, x, path);
    if (x.is_array()) {
      if (s.contains("minItems") && x.size() < s["minItems"].get<std::size_t>()) fail(path, "too few items");
      if (s.contains("maxItems") && x.size() > s["maxItems"].get<std::size_t>()) fail(path, "too many items");
      if (s.contains("items"))
        for (std::size_t i = 0; i < x.size(); ++i) check(s["items"], x[i], path + "/" + std::to_string(i));
    }
  }

  void check_object(const json& s, const json& x, const std::string& path) {
    if (s.contains("required"))
      for (const auto& k : s["required"])
        if (!x.contains(k.get<std::string>())) fail(path, "missing required " + k.dump());
    for (const auto& [k, v] : x.items()) {
      if (s.contains("properties") && s["properties"].contains(k)) {
        check(s["properties"][k], v, path + "/" + k);
      } else if (s.contains("additionalProperties")) {
        const auto& a = s["additionalProperties"];
        if (a.is_boolean()) {
          if (!a.get<bool>()) fail(path + "/" + k, "property not allowed by the schema");
        } else {
          check(a, v, path + "/" + k);
        }
      }
    }
  }

  json root_;
  std::vector<std::string> errors_;
};

}  // namespace symerr::verify::test
