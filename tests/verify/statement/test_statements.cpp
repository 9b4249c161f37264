// The statement language (statement.hpp, docs/statements.md): the shipped
// digest statements parse and evaluate to the values their formulas give,
// computed here independently in GMP rationals; sound enclosures at low
// precision contain the high-precision values; malformed statements are
// errors naming the file, the JSON path and the column.
#include <catch2/catch.hpp>

#include <cmath>
#include <random>
#include <set>

#include <gmpxx.h>
#include <mpfr.h>

#include <symerr/verify/bounds/bounds.hpp>
#include <symerr/verify/campaign/campaign.hpp>
#include <symerr/verify/statement/statement.hpp>

#include "report/util.hpp"

using namespace symerr;
using namespace symerr::verify;

namespace {

const std::filesystem::path kDigest = std::filesystem::path(SYMERR_SOURCE_DIR) / "verify/statements/sonnx_digest.json";

const Statement& find(const std::vector<Statement>& all, const std::string& id) {
  for (const auto& s : all)
    if (s.id == id) return s;
  FAIL("no statement " << id);
  throw 0;
}

bool encloses(const MpfrInterval& x, const mpq_class& q) { return contains(x, q); }

// The error of parsing one statement object (as the only one of a file).
std::string error_of(const std::string& statement) {
  try {
    parse_statements(R"j({"statements": [)j" + statement + "]}", "f.json");
  } catch (const StatementError& e) {
    return e.what();
  }
  return "";
}

const std::string kElementwise = R"j("id": "s", "bounds": "introduced", "tensors": {"A": ["N"], "Y": ["N"]},
                                    "output": "Y", "indices": ["I"])j";

}  // namespace

TEST_CASE("the digest's statements parse: ids unique, every kind and operator of the digest", "[verify][statement]") {
  const auto all = load_statements(kDigest);
  CHECK(all.size() == 21);
  std::set<std::string> ops;
  for (const auto& s : all) ops.insert(s.operator_name);
  for (const char* op : {"Div", "MatMul", "Tanh", "Exp", "Log", "Sqrt", "Sigmoid", "Pow", "LeakyRelu", "Where", "Abs"})
    CHECK(ops.count(op) == 1);
  for (const auto& s : all) {
    INFO(s.id);
    CHECK(!s.requirements.empty());
    CHECK(!s.source.empty());
  }
}

TEST_CASE("elementwise introduction u * max(|Y|, min_normal): exact values at 256 bits", "[verify][statement]") {
  const auto all = load_statements(kDigest);
  const Statement& s = find(all, "sonnx.elementwise.float.introduction");
  TensorStatementValues v(FP32);
  v.set_points("Y", {3}, {3.0, 1e-40, -0x1p-126});
  const std::size_t i0[] = {0}, i1[] = {1}, i2[] = {2};
  const mpq_class u = mpq_class(1, 1 << 24);
  mpq_class min_normal = 1;
  mpz_class two126 = 1;
  two126 <<= 126;
  min_normal /= two126;
  CHECK(encloses(evaluate_bound(s, v, i0, 256), 3 * u));
  CHECK(is_point(evaluate_bound(s, v, i0, 256)));
  CHECK(encloses(evaluate_bound(s, v, i1, 256), u * min_normal));  // a subnormal result: the floor
  CHECK(encloses(evaluate_bound(s, v, i2, 256), u * min_normal));
  CHECK(evaluate_where(s, v, i0, 64) == Tri::True);
  v.set_points("Y", {1}, {1e39});  // beyond FP32's range: the statement does not apply
  CHECK(evaluate_where(s, v, i0, 64) == Tri::False);
}

TEST_CASE("Div propagation: the formula against GMP, enclosures at 64 bits contain it (randomized)",
          "[verify][statement]") {
  const auto all = load_statements(kDigest);
  const Statement& s = find(all, "sonnx.div.propagation");
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> val(0.5, 4), err(-0.01, 0.01);
  const std::size_t i0[] = {0};
  for (int t = 0; t < 200; ++t) {
    const double a = val(rng), b = (t % 2 ? -1 : 1) * val(rng), ae = err(rng), be = err(rng);
    TensorStatementValues v(FP32);
    v.set_points("A", {1}, {a}, {ae});
    v.set_points("B", {1}, {b}, {be});
    v.set_points("Y", {1}, {0.0});
    const mpq_class A(a), B(b), Ae(ae), Be(be);
    auto qabs = [](const mpq_class& q) { return sgn(q) < 0 ? mpq_class(-q) : q; };
    const mpq_class exact = (qabs(Ae) + qabs(A * Be / B)) / (qabs(B) * qabs(B + Be));
    const MpfrInterval lo = evaluate_bound(s, v, i0, 64), hi = evaluate_bound(s, v, i0, 256);
    CHECK(encloses(lo, exact));
    CHECK(encloses(hi, exact));
    CHECK(width(hi) <= 1e-60 * exact.get_d());  // tightness twin: 256 bits pin it down
    CHECK(evaluate_where(s, v, i0, 64) == Tri::True);
  }
  // over a box: the enclosure contains the value at every point of it
  TensorStatementValues box(FP32);
  box.set("A", {{1}, {1}, {2}, {-0.01}, {0.01}});
  box.set("B", {{1}, {1}, {2}, {-0.01}, {0.01}});
  box.set("Y", {{1}, {0}, {0}, {0}, {0}});
  const MpfrInterval whole = evaluate_bound(s, box, i0, 64);
  CHECK(encloses(whole, mpq_class(1, 100) * (1 + 2) / (1 * mpq_class(99, 100))));  // A = 2, B = 1, errors 0.01, -0.01
  CHECK(evaluate_where(s, box, i0, 64) == Tri::True);
}

TEST_CASE("MatMul statements: n, max over tensors, sum over k, powers of (1 + u)", "[verify][statement]") {
  const auto all = load_statements(kDigest);
  const std::size_t ij[] = {1, 0};
  TensorStatementValues v(FP32);
  // A 2x3, B 3x2
  v.set_points("A", {2, 3}, {1, -2, 0.5, 0.25, 3, -1}, {0, 1e-3, 0, -2e-3, 0, 0});
  v.set_points("B", {3, 2}, {2, 1, -1, 0.5, 4, -3}, {1e-3, 0, 0, 0, -1e-3, 0});
  v.set_points("Y", {2, 2}, {0, 0, 0, 0});
  const mpq_class u(1, 1 << 24);
  // introduction, first form, n = 3, |A| = 3, |B| = 4
  mpq_class p = 1;
  for (int k = 0; k < 3; ++k) p *= 1 + u;
  const mpq_class intro = ((1 + u * u) * (p - 1) / u - 3) * 3 * 4;
  CHECK(encloses(evaluate_bound(find(all, "sonnx.matmul.float.introduction"), v, ij, 256), intro));
  const mpq_class intro2 = ((p - 1) / u * (1 + u) * (1 + u) - 3) * 3 * 4;
  CHECK(encloses(evaluate_bound(find(all, "sonnx.matmul.float.introduction.derivation"), v, ij, 256), intro2));
  // propagation: n (|Ae| |B| + |Be| |A| + |Ae| |Be|), |Ae| = 2e-3, |Be| = 1e-3
  const mpq_class ae(2e-3), be(1e-3);
  CHECK(encloses(evaluate_bound(find(all, "sonnx.matmul.propagation"), v, ij, 256), 3 * (ae * 4 + be * 3 + ae * be)));
  // per coefficient (i = 1, j = 0): sum_k Ae[1,k] B[k,0] + A[1,k] Be[k,0] + Ae[1,k] Be[k,0]
  const double A1[] = {0.25, 3, -1}, Ae1[] = {-2e-3, 0, 0}, B0[] = {2, -1, 4}, Be0[] = {1e-3, 0, -1e-3};
  mpq_class sum = 0;
  for (int k = 0; k < 3; ++k)
    sum += mpq_class(Ae1[k]) * B0[k] + mpq_class(A1[k]) * mpq_class(Be0[k]) + mpq_class(Ae1[k]) * mpq_class(Be0[k]);
  CHECK(encloses(evaluate_bound(find(all, "sonnx.matmul.propagation.coefficient"), v, ij, 256), abs(sum)));
}

TEST_CASE("conditions: True, False, Unknown over boxes, rank-0 attributes", "[verify][statement]") {
  const auto all = load_statements(kDigest);
  const Statement& log = find(all, "sonnx.log.propagation");
  const std::size_t i0[] = {0};
  TensorStatementValues v(FP64);
  v.set("X", {{1}, {-1}, {1}, {0}, {0}});
  v.set("Y", {{1}, {0}, {0}, {0}, {0}});
  CHECK(evaluate_where(log, v, i0, 64) == Tri::Unknown);
  v.set("X", {{1}, {0.5}, {1}, {-0.1}, {0.1}});
  CHECK(evaluate_where(log, v, i0, 64) == Tri::True);
  v.set("X", {{1}, {-2}, {-1}, {0}, {0}});
  CHECK(evaluate_where(log, v, i0, 64) == Tri::False);
  const Statement& leaky = find(all, "sonnx.leakyrelu.propagation.crossing");
  v.set_points("X", {1}, {0.5}, {0.25});
  v.set_points("alpha", {}, {-3});
  CHECK(encloses(evaluate_bound(leaky, v, i0, 256), mpq_class(3, 4)));
}

TEST_CASE("malformed statements: file, JSON path and column", "[verify][statement][errors]") {
  using Catch::Contains;
  CHECK_THAT(error_of("{" + kElementwise + R"j(, "bound": "u * max(abs(Q[I]), min_normal)"})j"),
             Contains("f.json: /statements/0/bound: column 13: unknown name 'Q'") && Contains("declared: A, Y"));
  CHECK_THAT(error_of("{" + kElementwise + R"j(, "bound": "abs(A[J])"})j"),
             Contains("/statements/0/bound: column 7: unknown name 'J'"));
  CHECK_THAT(error_of("{" + kElementwise + R"j(, "bound": "cosh(A[I])"})j"),
             Contains("column 1: unknown function 'cosh'"));
  CHECK_THAT(error_of("{" + kElementwise + R"j(, "bound": "abs(A[I, I])"})j"),
             Contains("tensor 'A' has 1 dimensions, indexed with 2"));
  CHECK_THAT(error_of("{" + kElementwise + R"j(, "bound": "u * abs(A)"})j"),
             Contains("column 9: a tensor named without indices is only allowed inside max(...) or min(...)"));
  CHECK_THAT(error_of("{" + kElementwise + R"j(, "bound": "sum(k, u)"})j"), Contains("indexes no tensor"));
  CHECK_THAT(error_of("{" + kElementwise + R"j(, "bound": "u *"})j"), Contains("column 4: expression ends early"));
  CHECK_THAT(error_of("{" + kElementwise + R"j(, "bound": "u", "where": "A[I] +"})j"),
             Contains("/statements/0/where: column"));
  CHECK_THAT(error_of("{" + kElementwise + R"j(, "bound": "u", "where": "A[I]"})j"), Contains("expected a comparison"));
  CHECK_THAT(error_of(R"j({"id": "s", "bounds": "error", "tensors": {"Y": ["N"]}, "output": "Y", "indices": ["I"], "bound": "u"})j"),
             Contains("/statements/0/bounds: 'error' is not one of err, propagated, introduced, rel_err, ulp"));
  CHECK_THAT(error_of(R"j({"id": "s", "bounds": "err", "tensors": {"Y": ["N"]}, "output": "Y", "indices": ["I"]})j"),
             Contains("/statements/0/bound: missing"));
  CHECK_THAT(error_of(R"j({"id": "s", "bounds": "err", "tensors": {"Y": ["N"]}, "output": "Y", "indices": [], "bound": "u"})j"),
             Contains("/statements/0/indices: the output 'Y' has 1 dimensions, 0 indices given"));
  CHECK_THAT(error_of("{" + kElementwise + R"j(, "bound": "u", "frobnicate": 1})j"),
             Contains("/statements/0/frobnicate: unknown key"));
  CHECK_THAT(error_of("{" + kElementwise + R"j(, "bound": "u"}, {)j" + kElementwise + R"j(, "bound": "u"})j"),
             Contains("/statements/1/id: duplicate id 's'"));
  CHECK(error_of("{" + kElementwise + R"j(, "bound": "u * max(max(abs(A)), abs(Y[I])) + 2^-3 * N"})j") == "");
  // decimals are exact, "0.09" is not octal
  const auto s = parse_statements("{\"statements\": [{" + kElementwise + R"j(, "bound": "0.09 + 1e-1"}]})j", "f.json");
  TensorStatementValues v(FP32);
  v.set_points("A", {1}, {0.0});
  v.set_points("Y", {1}, {0.0});
  const std::size_t i0[] = {0};
  CHECK(contains(evaluate_bound(s.front(), v, i0, 256), mpq_class(19, 100)));
}

TEST_CASE("statements in a campaign file: parsed with it, errors with file, JSON path and column, exit 2",
          "[verify][statement][errors]") {
  const std::string ok = R"j({"operators": ["Div"], "formats": ["FP32"], "random_count": 100,
    "statements": [{"id": "div.intro", "bounds": "introduced", "tensors": {"A": ["N"], "B": ["N"], "Y": ["N"]},
                    "output": "Y", "indices": ["I"], "bound": "u * max(abs(Y[I]), min_normal)",
                    "requirements": ["Div/float/intro"]}]})j";
  const CampaignSpec c = parse_campaign(ok, "c.json");
  REQUIRE(c.statements.size() == 1);
  CHECK(c.statements[0].requirements == std::vector<std::string>{"Div/float/intro"});
  std::string bad = ok;
  bad.replace(bad.find("abs(Y[I])"), 9, "abs(Z[I])");
  try {
    parse_campaign(bad, "c.json");
    FAIL("no error");
  } catch (const CampaignError& e) {
    CHECK_THAT(e.what(), Catch::Contains("c.json: /statements/0/bound: column 13: unknown name 'Z'"));
  }
  // through the command line: exit 2 before any kernel runs, the message names the place
  using namespace symerr::verify::test;
  const auto dir = temp_dir("statement-campaign");
  write_text(dir / "bad.json", bad);
  const auto r = run_command(symerr_exe() + " run " + (dir / "bad.json").string() + " -q -o " + (dir / "out").string());
  INFO(r.output);
  CHECK(r.status == 2);
  CHECK(r.output.find("/statements/0/bound: column 13: unknown name 'Z'") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(dir / "out" / "report.json"));
}

TEST_CASE("the digest's Exp propagation bound is first order: false for a large input error", "[verify][statement]") {
  const auto all = load_statements(kDigest);
  const Statement& s = find(all, "sonnx.exp.propagation");
  TensorStatementValues v(FP64);
  v.set_points("X", {1}, {0.0}, {0.5});
  v.set_points("Y", {1}, {1.0});
  const std::size_t i0[] = {0};
  const MpfrInterval bound = evaluate_bound(s, v, i0, 256);  // exp(0) * 0.5
  CHECK(contains(bound, mpq_class(1, 2)));
  // the propagated error exp(0 + 0.5) - exp(0) = 0.6487... exceeds it
  mpfr_t e;
  mpfr_init2(e, 256);
  mpfr_set_d(e, 0.5, MPFR_RNDN);
  mpfr_expm1(e, e, MPFR_RNDD);  // rounded down: a lower bound of the true error
  CHECK(mpfr_cmp_d(e, bound.upper()) > 0);
  mpfr_clear(e);
  // a small negative error: exp(0) 2^-20, which exceeds the true 1 - exp(-2^-20) (first order is enough there)
  v.set_points("X", {1}, {0.0}, {-0x1p-20});
  CHECK(evaluate_bound(s, v, i0, 256).upper() == 0x1p-20);
}

TEST_CASE("the shipped MatMul statements agree with the kernel-bound registry's coded bounds", "[verify][statement]") {
  const auto all = load_statements(kDigest);
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> val(-2, 2), err(-1e-3, 1e-3);
  for (std::size_t n : {1u, 3u, 7u}) {
    for (bool with_errors : {false, true}) {
      std::vector<double> a(n * n), b(n * n), ae(n * n, 0.0), be(n * n, 0.0);
      for (std::size_t i = 0; i < n * n; ++i) {
        a[i] = val(rng), b[i] = val(rng);
        if (with_errors) ae[i] = err(rng), be[i] = err(rng);
      }
      TensorStatementValues v(FP32);
      v.set_points("A", {n, n}, a, ae);
      v.set_points("B", {n, n}, b, be);
      v.set_points("Y", {n, n}, std::vector<double>(n * n, 0.0));
      auto mags = [](const std::vector<double>& x, const std::vector<double>& e) {
        std::vector<mpq_class> ideal, actual;
        for (std::size_t i = 0; i < x.size(); ++i) ideal.emplace_back(x[i]), actual.push_back(mpq_class(x[i]) + e[i]);
        return magnitudes(ideal, actual);
      };
      const KernelBoundArgs args{{mags(a, ae), mags(b, be)}, n, FP32};
      const std::size_t ij[] = {0, n - 1};
      INFO("n = " << n << (with_errors ? " with input errors" : ""));
      CHECK(contains(evaluate_bound(find(all, "sonnx.matmul.propagation"), v, ij, 256),
                     find_kernel_bound("digest.matmul.propagation")->value(args)));
      if (!with_errors)  // the registry reads |A| as the values read: the same when exact
        CHECK(contains(evaluate_bound(find(all, "sonnx.matmul.float.introduction.derivation"), v, ij, 256),
                       find_kernel_bound("digest.matmul.float.introduction")->value(args)));
    }
  }
}
