// The operator table (<symerr/operators.hpp>): complete and consistent, and
// its MPFR evaluations exact. The consistency check is a function of the
// table, so that planted defects (a duplicate, a missing row, a wrong arity)
// are shown to be caught.
#include <catch2/catch.hpp>

#include <cctype>
#include <cmath>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <symerr/mpfr_state.hpp>
#include <symerr/operators.hpp>

using namespace symerr;

namespace {

constexpr std::size_t kOperatorCount = static_cast<std::size_t>(OpId::Erfc) + 1;

// The arity each operator's symbolic rule takes (an independent statement:
// the rule headers' signatures).
unsigned expected_arity(OpId op) {
  switch (op) {
    case OpId::Add: case OpId::Sub: case OpId::Mul: case OpId::Div: case OpId::Pow: case OpId::Powi:
    case OpId::Fmod: case OpId::Hypot: case OpId::Atan2: return 2;
    case OpId::Fma: return 3;
    default: return 1;
  }
}

std::string lowercase(std::string_view s) {
  std::string r(s);
  for (char& c : r) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return r;
}

// Every defect of a table: rows out of OpId order or missing, duplicate ids
// or names (case-insensitive), wrong arities, empty names or identities.
std::vector<std::string> table_defects(std::span<const OpInfo> table, std::size_t count) {
  std::vector<std::string> defects;
  std::set<int> ids;
  std::set<std::string> names;
  if (table.size() != count) defects.push_back("size " + std::to_string(table.size()));
  for (std::size_t i = 0; i < table.size(); ++i) {
    const OpInfo& row = table[i];
    const std::string name(row.name);
    if (static_cast<std::size_t>(row.id) != i) defects.push_back(name + ": row " + std::to_string(i) + " out of order");
    if (!ids.insert(static_cast<int>(row.id)).second) defects.push_back(name + ": id registered twice");
    if (row.name.empty() || !names.insert(lowercase(row.name)).second) defects.push_back(name + ": name not unique");
    if (row.arity != expected_arity(row.id)) defects.push_back(name + ": arity " + std::to_string(row.arity));
    if (row.error_identity.empty()) defects.push_back(name + ": no error identity");
    if (row.function_name.empty()) defects.push_back(name + ": no function name");
    if ((row.mpfr_unary && row.arity != 1) || (row.mpfr_binary && row.arity != 2))
      defects.push_back(name + ": MPFR function of another arity");
  }
  return defects;
}

}  // namespace

TEST_CASE("operator table: every OpId registered once, names unique, arities match", "[core][operators]") {
  const auto defects = table_defects(operator_table(), kOperatorCount);
  for (const auto& d : defects) INFO(d);
  CHECK(defects.empty());
  for (std::size_t i = 0; i < kOperatorCount; ++i) {
    const auto op = static_cast<OpId>(i);
    CHECK(operator_info(op).id == op);
    CHECK(to_string(op) == operator_info(op).name);
    CHECK(find_operator(operator_info(op).name) == &operator_info(op));
  }
}

TEST_CASE("operator table: the consistency check catches planted defects", "[core][operators]") {
  const auto table = operator_table();
  std::vector<OpInfo> rows(table.begin(), table.end());
  SECTION("a missing row") {
    rows.pop_back();
    CHECK(!table_defects(rows, kOperatorCount).empty());
  }
  SECTION("an id registered twice") {
    rows[3].id = OpId::Add;
    CHECK(!table_defects(rows, kOperatorCount).empty());
  }
  SECTION("a name differing only in case") {
    rows[1].name = "add";
    CHECK(!table_defects(rows, kOperatorCount).empty());
  }
  SECTION("an MPFR function of the wrong arity") {
    rows[static_cast<std::size_t>(OpId::Exp)].mpfr_binary = mpfr_add;
    rows[static_cast<std::size_t>(OpId::Exp)].mpfr_unary = nullptr;
    CHECK(!table_defects(rows, kOperatorCount).empty());
  }
  SECTION("a wrong arity") {
    rows[static_cast<std::size_t>(OpId::Exp)].arity = 2;
    CHECK(!table_defects(rows, kOperatorCount).empty());
  }
  SECTION("the real table has none") { CHECK(table_defects(rows, kOperatorCount).empty()); }
}

TEST_CASE("find_operator: case-insensitive, null for unknown names", "[core][operators]") {
  REQUIRE(find_operator("add") != nullptr);
  CHECK(find_operator("add")->id == OpId::Add);
  CHECK(find_operator("EXP")->id == OpId::Exp);
  CHECK(find_operator("sigmoid")->arity == 1);
  CHECK(find_operator("Ad") == nullptr);
  CHECK(find_operator("") == nullptr);
  CHECK(find_operator("Add ") == nullptr);
  CHECK(find_operator("Add")->has(kCommutative));
  CHECK(!find_operator("Sub")->has(kCommutative));
  CHECK(find_operator("Exp")->has(kAccuracyModel));
  CHECK(!find_operator("Sqrt")->has(kAccuracyModel));
}

namespace {

// op(args) at 53 bits in rnd, with its ternary value.
std::pair<double, int> eval53(OpId op, std::vector<double> args, mpfr_rnd_t rnd) {
  std::vector<std::unique_ptr<detail::MpfrNumber>> nums;
  std::vector<mpfr_srcptr> ptrs;
  for (double a : args) ptrs.push_back(nums.emplace_back(std::make_unique<detail::MpfrNumber>(53, a))->get());
  detail::MpfrNumber out(53);
  const int t = evaluate_mpfr(op, out.get(), ptrs, rnd);
  return {mpfr_get_d(out.get(), MPFR_RNDN), t};
}

}  // namespace

TEST_CASE("evaluate_mpfr: exact values, directed bounds and arity errors", "[core][operators]") {
  CHECK(eval53(OpId::Add, {1, 2}, MPFR_RNDN) == std::pair{3.0, 0});
  CHECK(eval53(OpId::Sub, {1, 2}, MPFR_RNDN) == std::pair{-1.0, 0});
  CHECK(eval53(OpId::Mul, {3, 0.5}, MPFR_RNDN) == std::pair{1.5, 0});
  const auto down = eval53(OpId::Div, {1, 3}, MPFR_RNDD), up = eval53(OpId::Div, {1, 3}, MPFR_RNDU);
  CHECK(down.first < up.first);
  CHECK(std::nextafter(down.first, 1.0) == up.first);
  CHECK(down.second < 0);
  CHECK(up.second > 0);
  CHECK(eval53(OpId::Neg, {2}, MPFR_RNDN).first == -2);
  CHECK(eval53(OpId::Abs, {-2}, MPFR_RNDN).first == 2);
  CHECK(eval53(OpId::Sqrt, {4}, MPFR_RNDN).first == 2);
  CHECK(eval53(OpId::Convert, {0.1}, MPFR_RNDN).first == 0.1);
  CHECK(eval53(OpId::Exp, {0}, MPFR_RNDN) == std::pair{1.0, 0});
  CHECK(eval53(OpId::Sigmoid, {0}, MPFR_RNDN) == std::pair{0.5, 0});
  CHECK(eval53(OpId::Powi, {3, 3}, MPFR_RNDN) == std::pair{27.0, 0});
  CHECK(eval53(OpId::Pow, {4, 0.5}, MPFR_RNDN) == std::pair{2.0, 0});
  CHECK(std::isinf(eval53(OpId::Div, {1, 0}, MPFR_RNDN).first));
  CHECK(std::isnan(eval53(OpId::Log, {-1}, MPFR_RNDN).first));
  CHECK_THROWS_AS(eval53(OpId::Add, {1}, MPFR_RNDN), std::invalid_argument);
  CHECK_THROWS_AS(eval53(OpId::Exp, {1, 2}, MPFR_RNDN), std::invalid_argument);
  CHECK_THROWS_AS(eval53(OpId::Powi, {2, 0.5}, MPFR_RNDN), std::invalid_argument);
}

TEST_CASE("evaluate_mpfr: every registered operator has an evaluation", "[core][operators]") {
  for (const OpInfo& row : operator_table()) {
    INFO(row.name);
    std::vector<double> args(row.arity, 2.0);
    CHECK_NOTHROW(eval53(row.id, args, MPFR_RNDN));
  }
}

TEST_CASE("evaluate_mpfr: Sigmoid correctly rounded in every direction (vs 1024-bit reference)", "[core][operators]") {
  std::mt19937_64 rng(10);
  std::uniform_real_distribution<double> dist(-40, 40);
  int directed_differ = 0;
  for (int i = 0; i < 2000; ++i) {
    const double x = dist(rng);
    detail::MpfrNumber ref(1024), mx(53, x);
    mpfr_neg(ref.v, mx.v, MPFR_RNDN);
    mpfr_exp(ref.v, ref.v, MPFR_RNDN);
    mpfr_add_ui(ref.v, ref.v, 1, MPFR_RNDN);
    mpfr_ui_div(ref.v, 1, ref.v, MPFR_RNDN);  // relative error < 2^−1020
    for (mpfr_rnd_t rnd : {MPFR_RNDN, MPFR_RNDD, MPFR_RNDU}) {
      const auto got = eval53(OpId::Sigmoid, {x}, rnd);
      INFO("x = " << x << " rnd " << mpfr_print_rnd_mode(rnd));
      CHECK(got.first == mpfr_get_d(ref.v, rnd));
      CHECK(got.second == (mpfr_cmp_d(ref.v, got.first) < 0 ? 1 : -1));  // sign of got − exact
    }
    directed_differ += eval53(OpId::Sigmoid, {x}, MPFR_RNDD).first != eval53(OpId::Sigmoid, {x}, MPFR_RNDU).first;
  }
  CHECK(directed_differ > 1900);  // the directed results are not all the same point
}
