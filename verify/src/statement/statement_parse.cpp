// The statement language's parser (statement.hpp, docs/statements.md):
// expressions by recursive descent, every node with its column; statement
// files from JSON, every error naming the file, the JSON path and the column.
#include <symerr/verify/statement/statement.hpp>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

namespace symerr::verify {

const char* to_string(StatementKind k) noexcept {
  switch (k) {
    case StatementKind::Err: return "err";
    case StatementKind::Propagated: return "propagated";
    case StatementKind::Introduced: return "introduced";
    case StatementKind::RelErr: return "rel_err";
    case StatementKind::Ulp: return "ulp";
  }
  return "?";
}

Statement::Statement(const Statement& o)
    : id(o.id), operator_name(o.operator_name), kind(o.kind), tensors(o.tensors), output(o.output),
      indices(o.indices), bound_text(o.bound_text), where_text(o.where_text), bound(o.bound),
      where(o.where ? std::make_unique<StatementExpr>(*o.where) : nullptr), requirements(o.requirements),
      source(o.source), origin(o.origin) {}

Statement& Statement::operator=(const Statement& o) {
  if (this != &o) *this = Statement(o);
  return *this;
}

namespace {

using E = StatementExpr;

const std::set<std::string> kConstants = {"u", "eps", "min_normal", "max_finite", "pi", "inf"};
const std::set<std::string> kFunctions = {"abs", "min", "max", "exp", "log", "sqrt", "tanh", "ulp"};

class Parser {
 public:
  Parser(const std::string& text, const Statement& s, const std::string& where)
      : t_(text), s_(s), where_(where) {
    for (const auto& [name, dims] : s.tensors)
      for (const auto& d : dims) dims_.insert(d);
    for (const auto& i : s.indices) bound_.push_back({i, ""});
  }

  E condition() {
    E e = conjunction();
    while (word("or")) e = node(E::Op::Or, e.column, {e, conjunction()});
    return e;
  }
  E arithmetic() {
    E e = term();
    for (;;) {
      skip();
      if (peek('+') || peek('-')) {
        const char c = t_[p_++];
        e = node(c == '+' ? E::Op::Add : E::Op::Sub, e.column, {e, term()});
      } else {
        return e;
      }
    }
  }
  void end() {
    skip();
    if (p_ < t_.size()) fail("unexpected '" + std::string(1, t_[p_]) + "'");
    if (!bare_.empty())
      fail("a tensor named without indices is only allowed inside max(...) or min(...) of one argument", bare_.front());
  }

 private:
  [[noreturn]] void fail(const std::string& what, std::size_t at = std::string::npos) const {
    throw StatementError(where_ + ": column " + std::to_string((at == std::string::npos ? p_ : at) + 1) + ": " + what);
  }
  void skip() {
    while (p_ < t_.size() && std::isspace(static_cast<unsigned char>(t_[p_]))) ++p_;
  }
  bool peek(char c) {
    skip();
    return p_ < t_.size() && t_[p_] == c;
  }
  void expect(char c) {
    if (!peek(c)) fail(std::string("expected '") + c + "'");
    ++p_;
  }
  bool word(const std::string& w) {
    skip();
    if (t_.compare(p_, w.size(), w) != 0) return false;
    const std::size_t q = p_ + w.size();
    if (q < t_.size() && (std::isalnum(static_cast<unsigned char>(t_[q])) || t_[q] == '_')) return false;
    p_ = q;
    return true;
  }
  static E node(E::Op op, std::size_t column, std::vector<E> args) {
    E e;
    e.op = op;
    e.column = column;
    e.args = std::move(args);
    return e;
  }

  E conjunction() {
    E e = relation();
    while (word("and")) e = node(E::Op::And, e.column, {e, relation()});
    return e;
  }
  E relation() {
    E a = arithmetic();
    skip();
    static const char* const ops[] = {"<=", ">=", "==", "!=", "<", ">"};
    for (const char* op : ops)
      if (t_.compare(p_, std::char_traits<char>::length(op), op) == 0) {
        p_ += std::char_traits<char>::length(op);
        E e = node(E::Op::Compare, a.column, {a, arithmetic()});
        e.name = op;
        return e;
      }
    fail("expected a comparison (< <= > >= == !=)");
  }
  E term() {
    E e = unary();
    for (;;) {
      skip();
      if (peek('*') || peek('/')) {
        const char c = t_[p_++];
        e = node(c == '*' ? E::Op::Mul : E::Op::Div, e.column, {e, unary()});
      } else {
        return e;
      }
    }
  }
  E unary() {
    skip();
    const std::size_t at = p_;
    if (peek('-')) {
      ++p_;
      return node(E::Op::Neg, at, {unary()});
    }
    E base = primary();
    if (peek('^')) {
      ++p_;
      return node(E::Op::Pow, base.column, {base, unary()});
    }
    return base;
  }
  E primary() {
    skip();
    const std::size_t at = p_;
    if (p_ >= t_.size()) fail("expression ends early");
    if (peek('(')) {
      ++p_;
      E e = arithmetic();
      expect(')');
      return e;
    }
    if (std::isdigit(static_cast<unsigned char>(t_[p_])) || t_[p_] == '.') return number();
    if (!(std::isalpha(static_cast<unsigned char>(t_[p_])) || t_[p_] == '_')) fail("unexpected '" + std::string(1, t_[p_]) + "'");
    std::string name;
    while (p_ < t_.size() && (std::isalnum(static_cast<unsigned char>(t_[p_])) || t_[p_] == '_')) name += t_[p_++];
    if (peek('(')) return call(name, at);
    return reference(name, at);
  }
  E number() {
    const std::size_t at = p_;
    const char* begin = t_.c_str() + p_;
    char* end = nullptr;
    const double v = std::strtod(begin, &end);
    if (end == begin) fail("malformed number");
    p_ += static_cast<std::size_t>(end - begin);
    E e = node(E::Op::Number, at, {});
    e.value = v;
    e.name = t_.substr(at, p_ - at);  // the decimal text: evaluated exactly
    return e;
  }
  E call(const std::string& name, std::size_t at) {
    ++p_;  // '('
    if (name == "sum") return sum(at);
    if (!kFunctions.count(name)) fail("unknown function '" + name + "' (abs, min, max, exp, log, sqrt, tanh, ulp, sum)", at);
    std::vector<E> args;
    const std::size_t bare_before = bare_.size();
    if (!peek(')'))
      for (;;) {
        args.push_back(arithmetic());
        if (!peek(',')) break;
        ++p_;
      }
    expect(')');
    const bool extremum = (name == "max" || name == "min") && args.size() == 1;
    const std::size_t want = name == "max" || name == "min" ? (extremum ? 1 : 2) : 1;
    if (args.size() != want && !((name == "max" || name == "min") && args.size() >= 2))
      fail(name + " takes " + std::to_string(want) + " argument" + (want == 1 ? "" : "s"), at);
    if (extremum && bare_.size() == bare_before) fail(name + " of one argument ranges over a tensor: name one without indices", at);
    if (extremum) bare_.resize(bare_before);  // the tensors it ranges over
    E e = node(extremum ? E::Op::Extremum : E::Op::Call, at, std::move(args));
    e.name = name;
    // max(a, b, c) as max(max(a, b), c)
    while (e.op == E::Op::Call && e.args.size() > 2) {
      E inner = node(E::Op::Call, at, {e.args[0], e.args[1]});
      inner.name = name;
      e.args.erase(e.args.begin());
      e.args[0] = inner;
    }
    return e;
  }
  E sum(std::size_t at) {
    skip();
    std::string index;
    while (p_ < t_.size() && (std::isalnum(static_cast<unsigned char>(t_[p_])) || t_[p_] == '_')) index += t_[p_++];
    if (index.empty()) fail("sum(index, expression): expected the summed index's name");
    for (const auto& b : bound_)
      if (b.first == index) fail("index '" + index + "' is already bound");
    expect(',');
    bound_.push_back({index, ""});
    E body = arithmetic();
    expect(')');
    const std::string extent = bound_.back().second;
    bound_.pop_back();
    if (extent.empty()) fail("the summed index '" + index + "' indexes no tensor: its range is unknown", at);
    E e = node(E::Op::Sum, at, {body});
    e.name = index;
    e.extent = extent;
    return e;
  }
  E reference(const std::string& name, std::size_t at) {
    if (kConstants.count(name)) {
      E e = node(E::Op::Constant, at, {});
      e.name = name;
      return e;
    }
    for (const auto& b : bound_)
      if (b.first == name) {
        E e = node(E::Op::Index, at, {});
        e.name = name;
        return e;
      }
    std::string tensor = name;
    bool err = false;
    if (!s_.tensors.count(tensor) && tensor.size() > 4 && tensor.compare(tensor.size() - 4, 4, "_err") == 0) {
      tensor.resize(tensor.size() - 4);
      err = true;
    }
    const auto it = s_.tensors.find(tensor);
    if (it == s_.tensors.end()) {
      if (dims_.count(name)) {
        E e = node(E::Op::Dimension, at, {});
        e.name = name;
        return e;
      }
      std::string declared;
      for (const auto& [n, d] : s_.tensors) declared += (declared.empty() ? "" : ", ") + n;
      fail("unknown name '" + name + "': not a tensor (declared: " + declared + "), an index, a dimension or a constant", at);
    }
    E e = node(E::Op::Element, at, {});
    e.name = tensor;
    e.err = err;
    if (!peek('[')) {
      if (!it->second.empty()) bare_.push_back(at);  // a rank-0 tensor (an attribute) is its one element
      return e;
    }
    ++p_;
    for (std::size_t axis = 0;; ++axis) {
      skip();
      const std::size_t iat = p_;
      E idx = arithmetic();
      if (idx.op == E::Op::Index && axis < it->second.size())
        for (auto& b : bound_)
          if (b.first == idx.name && b.second.empty()) b.second = it->second[axis];
      e.args.push_back(std::move(idx));
      (void)iat;
      if (!peek(',')) break;
      ++p_;
    }
    expect(']');
    if (e.args.size() != it->second.size())
      fail("tensor '" + tensor + "' has " + std::to_string(it->second.size()) + " dimensions, indexed with " +
               std::to_string(e.args.size()),
           at);
    return e;
  }

  const std::string& t_;
  const Statement& s_;
  std::string where_;
  std::size_t p_ = 0;
  std::set<std::string> dims_;
  std::vector<std::pair<std::string, std::string>> bound_;  // index -> the dimension it runs over
  std::vector<std::size_t> bare_;  // where tensors are named without indices, not yet inside max/min
};

std::string path_of(const std::string& file, const std::string& path) { return file + ": " + path; }

std::string string_at(const nlohmann::json& j, const std::string& key, const std::string& file,
                      const std::string& path, bool required = true) {
  if (!j.contains(key)) {
    if (required) throw StatementError(path_of(file, path + "/" + key) + ": missing");
    return "";
  }
  if (!j.at(key).is_string()) throw StatementError(path_of(file, path + "/" + key) + ": expected a string");
  return j.at(key).get<std::string>();
}

std::vector<std::string> strings_at(const nlohmann::json& j, const std::string& key, const std::string& file,
                                    const std::string& path) {
  std::vector<std::string> out;
  if (!j.contains(key)) return out;
  const auto& a = j.at(key);
  if (!a.is_array()) throw StatementError(path_of(file, path + "/" + key) + ": expected an array of strings");
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (!a[i].is_string())
      throw StatementError(path_of(file, path + "/" + key + "/" + std::to_string(i)) + ": expected a string");
    out.push_back(a[i].get<std::string>());
  }
  return out;
}

StatementKind kind_of(const std::string& k, const std::string& where) {
  for (StatementKind x : {StatementKind::Err, StatementKind::Propagated, StatementKind::Introduced,
                          StatementKind::RelErr, StatementKind::Ulp})
    if (k == to_string(x)) return x;
  throw StatementError(where + ": '" + k + "' is not one of err, propagated, introduced, rel_err, ulp");
}

Statement statement_of(const nlohmann::json& j, const std::string& file, const std::string& path) {
  if (!j.is_object()) throw StatementError(path_of(file, path) + ": expected an object");
  static const std::set<std::string> keys = {"id", "operator", "bounds", "tensors", "output", "indices",
                                             "bound", "where", "requirements", "source"};
  for (const auto& [k, v] : j.items())
    if (!keys.count(k)) throw StatementError(path_of(file, path + "/" + k) + ": unknown key");
  Statement s;
  s.id = string_at(j, "id", file, path);
  s.operator_name = string_at(j, "operator", file, path, false);
  s.kind = kind_of(string_at(j, "bounds", file, path), path_of(file, path + "/bounds"));
  if (!j.contains("tensors") || !j.at("tensors").is_object())
    throw StatementError(path_of(file, path + "/tensors") + ": expected an object {name: [dimension names]}");
  for (const auto& [name, dims] : j.at("tensors").items()) s.tensors[name] = strings_at(j.at("tensors"), name, file, path + "/tensors");
  s.output = string_at(j, "output", file, path);
  if (!s.tensors.count(s.output)) throw StatementError(path_of(file, path + "/output") + ": '" + s.output + "' is not a declared tensor");
  s.indices = strings_at(j, "indices", file, path);
  if (s.indices.size() != s.tensors.at(s.output).size())
    throw StatementError(path_of(file, path + "/indices") + ": the output '" + s.output + "' has " +
                         std::to_string(s.tensors.at(s.output).size()) + " dimensions, " +
                         std::to_string(s.indices.size()) + " indices given");
  s.requirements = strings_at(j, "requirements", file, path);
  s.source = string_at(j, "source", file, path, false);
  s.origin = path_of(file, path);
  s.bound_text = string_at(j, "bound", file, path);
  s.bound = parse_statement_expr(s.bound_text, s, false, path_of(file, path + "/bound"));
  s.where_text = string_at(j, "where", file, path, false);
  if (!s.where_text.empty())
    s.where = std::make_unique<StatementExpr>(parse_statement_expr(s.where_text, s, true, path_of(file, path + "/where")));
  return s;
}

}  // namespace

StatementExpr parse_statement_expr(const std::string& text, const Statement& s, bool condition,
                                   const std::string& where) {
  Parser p(text, s, where);
  StatementExpr e = condition ? p.condition() : p.arithmetic();
  p.end();
  return e;
}

std::vector<Statement> parse_statements(const std::string& json_text, const std::string& file) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(json_text);
  } catch (const nlohmann::json::parse_error& e) {
    throw StatementError(file + ": not JSON: " + e.what());
  }
  if (!j.is_object() || !j.contains("statements") || !j.at("statements").is_array())
    throw StatementError(file + ": /statements: expected an array of statements");
  for (const auto& [k, v] : j.items())
    if (k != "statements" && k != "about") throw StatementError(file + ": /" + k + ": unknown key");
  return parse_statements(j.at("statements"), file, "/statements");
}

std::vector<Statement> parse_statements(const nlohmann::json& array, const std::string& file, const std::string& at) {
  if (!array.is_array()) throw StatementError(path_of(file, at) + ": expected an array of statements");
  std::vector<Statement> out;
  std::set<std::string> ids;
  for (std::size_t i = 0; i < array.size(); ++i) {
    const std::string path = at + "/" + std::to_string(i);
    out.push_back(statement_of(array[i], file, path));
    if (!ids.insert(out.back().id).second)
      throw StatementError(path_of(file, path + "/id") + ": duplicate id '" + out.back().id + "'");
  }
  return out;
}

std::vector<Statement> load_statements(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw StatementError(file.string() + ": cannot be read");
  std::ostringstream s;
  s << in.rdbuf();
  return parse_statements(s.str(), file.string());
}

}  // namespace symerr::verify
