// Accuracy statements as data (docs/statements.md): a small expression
// language for per-element accuracy statements, close to how the SONNX
// accuracy files write them, parsed from statement files (JSON) and
// evaluated soundly (outward-rounded MPFR intervals) at a precision chosen
// by the caller: a low one (64 bits) to prove over boxes, a high one (256
// bits) to judge a witness.
//
//   {"id": "sonnx.div.float.introduction", "operator": "Div", "bounds": "introduced",
//    "tensors": {"A": ["N"], "B": ["N"], "Y": ["N"]}, "output": "Y", "indices": ["I"],
//    "bound": "u * max(abs(Y[I]), min_normal)", "where": "abs(A[I] / B[I]) >= min_normal",
//    "requirements": ["Div/float/[C2]"], "source": "div_acc.md @652b76b, Intro (IEEE-754)"}
#pragma once

#include <cstddef>
#include <filesystem>
#include <map>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include <symerr/domains/mpfr_interval.hpp>
#include <symerr/format.hpp>
#include <symerr/tribool.hpp>

namespace symerr::verify {

/// What a statement bounds: |Y_err| (err), its propagated or introduced part,
/// |Y_err| / |Y| (rel_err), |Y_err| / ulp(Y) (ulp).
enum class StatementKind { Err, Propagated, Introduced, RelErr, Ulp };
/// The kind's name in statement files ("bounds").
const char* to_string(StatementKind k) noexcept;  // "err", "propagated", "introduced", "rel_err", "ulp"

/// One node of a parsed expression (the grammar: docs/statements.md).
struct StatementExpr {
  /// The node's kind (and which of the fields below it uses).
  enum class Op {
    Number,     ///< value
    Constant,   ///< name: u, eps, min_normal, max_finite, pi, inf
    Dimension,  ///< name: a dimension of the declared tensors
    Index,      ///< name: a free or summed index (as a number)
    Element,    ///< name (a tensor), err (its error tensor), args (indices): A[i, k], A_err[I]
    Neg, Add, Sub, Mul, Div, Pow,
    Call,       ///< name: abs, min, max, exp, log, sqrt, tanh, ulp (args)
    Sum,        ///< name: the index; args[0]: the body; `extent`: the dimension it runs over
    Extremum,   ///< name: max | min of args[0] over every element of the tensors it names bare
    Compare,    ///< name: < <= > >= == != (args: 2)
    And, Or
  };
  Op op = Op::Number;  ///< the node's kind
  double value = 0;    ///< Number: its value
  std::string name;    ///< the constant, dimension, index, tensor, function or comparison named
  std::string extent;  ///< Sum: the dimension name of the summed index
  bool err = false;                ///< Element: the tensor's error tensor (A_err)
  std::vector<StatementExpr> args;  ///< the operands, arguments or indices
  std::size_t column = 0;  ///< 0-based offset of the node in its source text (errors print it 1-based)
};

/// A parsed accuracy statement (one entry of a statement file).
struct Statement {
  std::string id;             ///< "id"
  std::string operator_name;  ///< "operator" (optional)
  StatementKind kind = StatementKind::Err;  ///< "bounds"
  std::map<std::string, std::vector<std::string>> tensors;  ///< name -> dimension names
  std::string output;                                       ///< the output tensor's name
  std::vector<std::string> indices;                         ///< the free indices (the output element)
  ///@{
  /// The source texts of `bound` and `where`.
  std::string bound_text, where_text;
  ///@}
  StatementExpr bound;                                      ///< the right-hand side
  std::unique_ptr<StatementExpr> where;                     ///< the condition, if any
  std::vector<std::string> requirements;  ///< the requirement IDs it covers
  std::string source;  ///< where the statement comes from
  std::string origin;  ///< "file: /statements/3"

  ///@{
  /// Copies are deep (the condition `where` is copied); moves are the defaults.
  Statement() = default;
  Statement(const Statement& o);
  Statement& operator=(const Statement& o);
  Statement(Statement&&) noexcept = default;
  Statement& operator=(Statement&&) noexcept = default;
  ///@}
};

/// A malformed statement: the message names the file, the JSON path and, for
/// an expression, the 1-based column ("f.json: /statements/2/bound: column 7:
/// unknown tensor 'Q' (declared: A, B, Y)").
class StatementError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Parses one expression (`condition`: a `where` text) against the declared
/// tensors and indices; `where` prefixes the errors (file and JSON path).
/// Throws StatementError.
StatementExpr parse_statement_expr(const std::string& text, const Statement& s, bool condition,
                                   const std::string& where);
/// A statement file: {"statements": [ {...}, ... ]}; `file` names it in the
/// errors. Throws StatementError.
std::vector<Statement> parse_statements(const std::string& json_text, const std::string& file);
/// Reads and parses a statement file. Throws StatementError (also when the
/// file cannot be read).
std::vector<Statement> load_statements(const std::filesystem::path& file);
/// The statements of a JSON array at `path` of `file` (a campaign's
/// "statements"): the same checks, the errors naming that path. Throws StatementError.
std::vector<Statement> parse_statements(const nlohmann::json& array, const std::string& file, const std::string& path);

/// The values a statement is evaluated on: every tensor's shape (its
/// dimension sizes) and, per element, an enclosure of its ideal value and of
/// its error; the format's constants.
class StatementValues {
 public:
  virtual ~StatementValues() = default;
  /// Element `flat` (row-major) of tensor `name` (err: of its error tensor),
  /// enclosed at `precision` bits.
  virtual MpfrInterval element(const std::string& name, bool err, std::size_t flat, mpfr_prec_t precision) const = 0;
  /// The dimension sizes of tensor `name`.
  virtual std::vector<std::size_t> shape(const std::string& name) const = 0;
  /// The format whose constants (u, eps, min_normal, max_finite) the statement uses.
  virtual FloatFormat format() const = 0;
};

/// Tensors held in memory, every element an interval of doubles (a point for
/// a witness): a ready StatementValues. element() and shape() throw
/// StatementError for a tensor without values or an element out of range.
class TensorStatementValues : public StatementValues {
 public:
  /// One tensor: its shape and, per element (row-major), the bounds of its
  /// value and of its error.
  struct Tensor {
    std::vector<std::size_t> shape;  ///< the dimension sizes
    ///@{
    /// Per element: the value in [lo, hi], the error in [err_lo, err_hi].
    std::vector<double> lo, hi, err_lo, err_hi;
    ///@}
  };
  /// No tensors yet, the constants of format f.
  explicit TensorStatementValues(FloatFormat f) : format_(f) {}
  /// Sets (or replaces) tensor `name`.
  void set(const std::string& name, Tensor t);
  /// A tensor of points: values v, errors e (empty: exact).
  void set_points(const std::string& name, std::vector<std::size_t> shape, std::vector<double> v,
                  std::vector<double> e = {});
  ///@{
  /// As in StatementValues.
  MpfrInterval element(const std::string& name, bool err, std::size_t flat, mpfr_prec_t precision) const override;
  std::vector<std::size_t> shape(const std::string& name) const override;
  FloatFormat format() const override { return format_; }
  ///@}

 private:
  FloatFormat format_;
  std::map<std::string, Tensor> tensors_;
};

/// The statement's bound at output element `index` (values of its free
/// indices), enclosed at `precision` bits. Throws StatementError when a
/// tensor or a dimension of the statement has no value or the wrong rank.
MpfrInterval evaluate_bound(const Statement& s, const StatementValues& v, std::span<const std::size_t> index,
                            mpfr_prec_t precision);
/// Its condition there: True / False / Unknown (no condition: True).
Tri evaluate_where(const Statement& s, const StatementValues& v, std::span<const std::size_t> index,
                   mpfr_prec_t precision);

}  // namespace symerr::verify
