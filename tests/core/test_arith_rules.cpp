// The binary rules' special-value tables (lib/include/symerr/symbolic/rules/)
// against the hardware's IEEE 754 binary64 results, entry by entry: every
// entry must be exactly the category the machine produces (sound and tight),
// and a planted wrong entry must be caught.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include <symerr/domains/symbolic_interval.hpp>

using namespace symerr;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
// One representative per category, in the tables' order: −inf, <0, −0, +0, >0, +inf, NaN.
const double kRepresentative[7] = {-kInf, -1.5, -0.0, 0.0, 1.5, kInf, std::numeric_limits<double>::quiet_NaN()};

CategorySet category_of(double v) {
  if (std::isnan(v)) return kNaN;
  if (std::isinf(v)) return v > 0 ? kPosInf : kNegInf;
  if (v == 0) return std::signbit(v) ? kNegZero : kPosZero;
  return v > 0 ? kPosFinite : kNegFinite;
}

// The table's entry for a pair must be the machine's category when the
// result is NaN or infinite or an operand is (the pairs the finite path does
// not cover), else nothing. Returns the mismatching entries.
std::vector<std::string> table_mismatches(const detail::CategoryTable& table, double (*op)(double, double)) {
  std::vector<std::string> bad;
  for (int i = 0; i < 7; ++i)
    for (int j = 0; j < 7; ++j) {
      const double x = kRepresentative[i], y = kRepresentative[j];
      const double h = op(x, y);
      const bool special = !std::isfinite(h) || !std::isfinite(x) || !std::isfinite(y);
      const CategorySet expected = special ? category_of(h) : 0;
      if (table[i][j] != expected)
        bad.push_back("x = " + std::to_string(x) + ", y = " + std::to_string(y) + ": table " +
                      std::to_string(table[i][j]) + ", IEEE " + std::to_string(expected));
    }
  return bad;
}

double op_add(double a, double b) { return a + b; }
double op_sub(double a, double b) { return a - b; }
double op_mul(double a, double b) { return a * b; }
double op_div(double a, double b) { return a / b; }

}  // namespace

TEST_CASE("binary rules: special-value tables are IEEE 754's, entry by entry", "[core][rules]") {
  for (const auto& [name, table, op] : {std::tuple{"Add", detail::AddRule::specials, &op_add},
                                        std::tuple{"Sub", detail::SubRule::specials, &op_sub},
                                        std::tuple{"Mul", detail::MulRule::specials, &op_mul},
                                        std::tuple{"Div", detail::DivRule::specials, &op_div}}) {
    const auto bad = table_mismatches(table, op);
    INFO(name);
    for (const auto& b : bad) INFO(b);
    CHECK(bad.empty());
  }
}

TEST_CASE("binary rules: the table check catches a planted wrong entry", "[core][rules]") {
  auto table = detail::DivRule::specials;
  table[5][2] = kNaN;  // +inf / −0: NaN instead of −inf (the looser pre-table answer)
  CHECK(table_mismatches(table, &op_div).size() == 1);
  table = detail::MulRule::specials;
  table[2][0] = 0;  // −0 · −inf: the invalid operation forgotten
  CHECK(table_mismatches(table, &op_mul).size() == 1);
}

TEST_CASE("binary rules: each rule's op matches its operator-table row", "[core][rules]") {
  CHECK(operator_info(op_id(detail::AddRule::op)).name == "Add");
  CHECK(operator_info(op_id(detail::SubRule::op)).name == "Sub");
  CHECK(operator_info(op_id(detail::MulRule::op)).name == "Mul");
  CHECK(operator_info(op_id(detail::DivRule::op)).name == "Div");
  CHECK(operator_info(op_id(detail::DivRule::op)).arity == 2);
}

TEST_CASE("binary rules: inf / ±0 is ±inf on SymbolicError (IEEE 754 §7.3), not NaN", "[core][rules]") {
  const auto inf = SymbolicError::inf(+1, FP32);
  const auto zero = SymbolicError::constant(0.0, FP32);
  const auto z = inf / zero;
  INFO(z);
  CHECK(z.specials.may_be_pos_inf);
  CHECK(!z.specials.may_be_nan);
  CHECK(!z.specials.may_be_neg_inf);
}
