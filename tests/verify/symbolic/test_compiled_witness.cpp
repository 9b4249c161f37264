// The kernel check with the compiled kernel (witness_search.hpp): a tanh GELU
// in C for float, analysed through its substituted build, its claims judged
// on its plain build against exact executions.
//
// The exact oracle of these tests is independent of symerr: the real program
// (the float constants as written, tanh exact) evaluated with MPFR at 256
// bits. An exhaustive scan of [0.9, 1] with it found 498 inputs whose error
// exceeds 1e-7 (the largest 1.216e-7 at 0x1.eec90cp-1): the claims
// |err| <= 1e-7 and <= 9e-8 on [-1, 1] are false.
#include <catch2/catch.hpp>

#include <cmath>
#include <set>

#include <mpfr.h>

#include <symerr/verify/report/report.hpp>
#include <symerr/verify/statement/statement_check.hpp>
#include <symerr/verify/symbolic/symbolic_check.hpp>

extern "C" {
#include "verify/symbolic/kernels/gelu_tanh.h"
}
#define SYMERR_SUBSTITUTE_FLOAT ::symerr::SymbolicError
#include <symerr/substitute.hpp>
namespace gsym {
#undef GELU_TANH_H
#include "verify/symbolic/kernels/gelu_tanh.h"
}  // namespace gsym
#include <symerr/substitute_end.hpp>

using namespace symerr;
using namespace symerr::verify;

namespace {

const SymbolicKernel kSubstituted = [](std::span<const SymbolicError> x) { return gsym::gelu_tanh(x[0]); };
const CompiledKernel kCompiled = [](std::span<const double> x) {
  return static_cast<double>(gelu_tanh(static_cast<float>(x[0])));
};

// |compiled(x) − real(x)| with the real program in MPFR at 256 bits.
double mpfr_error(float x, float y) {
  mpfr_t t, u;
  mpfr_inits2(256, t, u, static_cast<mpfr_ptr>(nullptr));
  mpfr_set_flt(t, x, MPFR_RNDN);
  mpfr_mul(u, t, t, MPFR_RNDN);
  mpfr_mul(u, u, t, MPFR_RNDN);
  mpfr_mul_d(u, u, static_cast<double>(0.044715f), MPFR_RNDN);
  mpfr_add(u, u, t, MPFR_RNDN);
  mpfr_mul_d(u, u, static_cast<double>(0.7978845608f), MPFR_RNDN);
  mpfr_tanh(u, u, MPFR_RNDN);
  mpfr_add_ui(u, u, 1, MPFR_RNDN);
  mpfr_mul(u, u, t, MPFR_RNDN);
  mpfr_div_ui(u, u, 2, MPFR_RNDN);
  mpfr_set_flt(t, y, MPFR_RNDN);
  mpfr_sub(t, t, u, MPFR_RNDN);
  const double e = std::fabs(mpfr_get_d(t, MPFR_RNDN));
  mpfr_clears(t, u, static_cast<mpfr_ptr>(nullptr));
  return e;
}

KernelCheckResult gelu_check(double bound, const CompiledKernel& compiled = kCompiled) {
  const InputBox box[1] = {{-1, 1, 0, 0}};
  KernelCheckOptions o;
  o.compiled = compiled;
  return symbolic_check(kSubstituted, box, FP32, bound, ErrorPart::Total, o, "gelu_tanh");
}

}  // namespace

TEST_CASE("a false claim about a compiled GELU is violated with a re-checked witness", "[verify][symbolic][witness]") {
  for (double bound : {1e-7, 9e-8}) {
    const auto r = gelu_check(bound);
    INFO(r.check.reason);
    REQUIRE(r.check.verdict == Verdict::Violated);
    REQUIRE_FALSE(r.check.witnesses.empty());
    for (const Witness& w : r.check.witnesses) {
      REQUIRE(w.inputs.size() == 1);
      const float x = static_cast<float>(w.inputs[0].value);
      CHECK(x >= -1.0f);
      CHECK(x <= 1.0f);
      // the output is the compiled kernel's, and the error holds against MPFR
      CHECK(w.output.value == static_cast<double>(gelu_tanh(x)));
      CHECK(mpfr_error(x, gelu_tanh(x)) > bound);
      CHECK(w.abs_error > bound);
      CHECK(w.abs_error <= mpfr_error(x, gelu_tanh(x)));  // a lower bound of the true error
      REQUIRE(w.bound);
      CHECK(*w.bound == bound);
      CHECK(w.message.find("element 0") != std::string::npos);
      CHECK(w.message.find("0x") != std::string::npos);  // inputs and outputs in hex ...
    }
    CHECK(r.check.evidence.metrics.at("search_boxes_above_bound") > 0);
    CHECK(r.check.evidence.metrics.at("observed_max") > bound);
  }
}

TEST_CASE("a true claim about the compiled GELU is never violated: proven or inconclusive with its numbers",
          "[verify][symbolic][witness]") {
  for (double bound : {1.3e-7, 2.5e-7, 1e-6}) {
    const auto r = gelu_check(bound);
    INFO(bound << ": " << r.check.reason);
    CHECK(r.check.verdict != Verdict::Violated);
    CHECK(r.check.witnesses.empty());
    const auto& m = r.check.evidence.metrics;
    CHECK(m.at("bound") == bound);
    CHECK(m.at("observed_max") > 5e-8);   // errors of the compiled kernel were observed ...
    CHECK(m.at("observed_max") <= 1.22e-7);  // ... never beyond the exhaustive maximum (MPFR)
    CHECK(m.at("bound_over_observed") == bound / m.at("observed_max"));
    if (r.check.verdict == Verdict::Inconclusive) {
      CHECK(r.check.reason.find("the proven enclosure gives") != std::string::npos);
      CHECK(m.at("enclosure_sup") > bound);
    } else {
      CHECK(r.check.verdict == Verdict::Proven);
      CHECK(m.at("enclosure_sup") <= bound);
    }
  }
}

TEST_CASE("a planted wrong compiled kernel breaks a claim its analysis proves", "[verify][symbolic][witness]") {
  // the substituted build proves 1e-6; a compiled kernel 3 ulp off near 1 is caught
  const CompiledKernel wrong = [](std::span<const double> x) {
    float y = gelu_tanh(static_cast<float>(x[0]));
    if (x[0] > 0.9) y = std::nextafter(std::nextafter(std::nextafter(y, 2.0f), 2.0f), 2.0f) + 1e-6f;
    return static_cast<double>(y);
  };
  const auto ok = gelu_check(1e-6);
  INFO(ok.check.reason);
  REQUIRE(ok.check.verdict == Verdict::Proven);
  const auto r = gelu_check(1e-6, wrong);
  INFO(r.check.reason);
  CHECK(r.check.verdict == Verdict::Violated);
  REQUIRE_FALSE(r.check.witnesses.empty());
  CHECK(r.check.witnesses.front().inputs[0].value > 0.9);
}

TEST_CASE("kernel check ids: unique per claim, the same in every run, the bound's value named",
          "[verify][symbolic][witness]") {
  const InputBox box[1] = {{-1, 1, 0, 0}}, other[1] = {{0, 1, 0, 0}};
  KernelCheckOptions o;
  o.driver.max_boxes = 4;
  o.search.executions = 64;
  o.search.boxes = 4;
  std::set<std::string> ids;
  for (double bound : {1e-7, 9e-8, 2.5e-7, 1e-6}) {
    const auto a = symbolic_check(kSubstituted, box, FP32, bound, ErrorPart::Total, o, "gelu_tanh");
    const auto b = symbolic_check(kSubstituted, box, FP32, bound, ErrorPart::Total, o, "gelu_tanh");
    CHECK(a.check.id == b.check.id);
    CHECK(a.check.bound.name.find("<=") != std::string::npos);
    ids.insert(a.check.id);
  }
  ids.insert(symbolic_check(kSubstituted, other, FP32, 1e-6, ErrorPart::Total, o, "gelu_tanh").check.id);
  CHECK(ids.size() == 5);
  const std::string prefix = "symbolic/kernel/gelu_tanh/FP32/err/le1e-07/";
  const std::string& first = *ids.lower_bound(prefix);
  CHECK(first.substr(0, prefix.size()) == prefix);
  CHECK(first.size() == prefix.size() + 8);  // the box digest
}

TEST_CASE("the witness search is deterministic", "[verify][symbolic][witness]") {
  const auto a = gelu_check(1e-7), b = gelu_check(1e-7);
  REQUIRE(a.check.witnesses.size() == b.check.witnesses.size());
  for (std::size_t i = 0; i < a.check.witnesses.size(); ++i)
    CHECK(a.check.witnesses[i].inputs[0].value == b.check.witnesses[i].inputs[0].value);
  CHECK(a.check.evidence.metrics == b.check.evidence.metrics);
  CHECK(a.check.reason == b.check.reason);
}

TEST_CASE("the GELU claims in a report: FAIL counted, ids unique, the bounds' values in the summary",
          "[verify][symbolic][witness][report]") {
  CampaignResult r;
  r.name = "gelu_tanh claims";
  for (double bound : {1e-7, 9e-8, 1.3e-7, 2.5e-7}) r.checks.push_back(gelu_check(bound).check);
  const std::string h = symerr::detail::headline(r);
  INFO(h);
  CHECK(h.rfind("implementations: 2 of 4 checks FAIL (1 proven, 2 violated, 1 inconclusive)", 0) == 0);
  CHECK(exit_code(r) == kExitImplementationFailure);
  std::set<std::string> ids;
  for (const auto& c : r.checks) ids.insert(c.id);
  CHECK(ids.size() == 4);
  const std::string md = render_markdown(r);
  for (const char* b : {"|err| <= 1e-07", "|err| <= 9e-08", "|err| <= 1.3e-07", "|err| <= 2.5e-07"}) {
    INFO(b);
    CHECK(md.find(b) != std::string::npos);
  }
  CHECK(md.find("observed 1.03011e-07 (bound / observed 1.26201)") != std::string::npos);
  CHECK(md.find("(none: campaign \"gelu_tanh claims\", built by a program)") != std::string::npos);
  // the JSON report reads back; a second run gives the same report apart from the timings
  const auto back = parse_report(render_json(r), "gelu.json");
  REQUIRE(back.checks.size() == 4);
  CHECK(back.checks[0].verdict == Verdict::Violated);
  CHECK(back.checks[0].witnesses.front().inputs[0].value == r.checks[0].witnesses.front().inputs[0].value);
  CampaignResult again = r;
  again.checks.clear();
  for (double bound : {1e-7, 9e-8, 1.3e-7, 2.5e-7}) again.checks.push_back(gelu_check(bound).check);
  for (auto* x : {&r, &again})
    for (auto& c : x->checks) c.duration_seconds = 0;
  CHECK(render_json(r) == render_json(again));
}

namespace {

Statement gelu_statement(const std::string& kind, const std::string& bound, const std::string& where = "") {
  const std::string w = where.empty() ? "" : R"j(, "where": ")j" + where + "\"";
  auto all = parse_statements(R"j({"statements": [{"id": "gelu.claim", "bounds": ")j" + kind +
                                  R"j(", "tensors": {"X": ["N"], "Y": ["N"]}, "output": "Y", "indices": ["I"],
                                  "bound": ")j" + bound + "\"" + w + R"j(, "requirements": ["GELU/1"]}]})j",
                              "gelu.json");
  return all.front();
}

KernelCheckResult gelu_statement_check(const Statement& s) {
  const InputBox box[1] = {{-1, 1, 0, 0}};
  KernelCheckOptions o;
  o.compiled = kCompiled;
  return check_statement(kSubstituted, box, {"X"}, FP32, s, o, "gelu_tanh");
}

}  // namespace

TEST_CASE("GELU against statements of the language: false ones violated at a point, true ones never",
          "[verify][symbolic][witness][statement]") {
  // correct rounding (the elementwise introduction statement): false for this kernel
  const auto cr = gelu_statement_check(gelu_statement("introduced", "u * max(abs(Y[I]), min_normal)"));
  INFO(cr.check.reason);
  REQUIRE(cr.check.verdict == Verdict::Violated);
  const Witness& w = cr.check.witnesses.front();
  const float x = static_cast<float>(w.inputs[0].value);
  // independent: the MPFR error exceeds u |gelu(x)| (2^-24 |y|, |y| normal here)
  CHECK(mpfr_error(x, gelu_tanh(x)) > std::ldexp(std::fabs(static_cast<double>(gelu_tanh(x))), -24));
  CHECK(cr.check.requirements == std::vector<std::string>{"GELU/1"});
  // a constant claim as a statement: the same verdicts as the constant bound
  CHECK(gelu_statement_check(gelu_statement("err", "1e-7")).check.verdict == Verdict::Violated);
  // true: 1.3e-7 + |X| 1e-9 exceeds the exhaustive maximum 1.216e-7 everywhere
  const auto ok = gelu_statement_check(gelu_statement("err", "1.3e-7 + abs(X[I]) * 1e-9"));
  INFO(ok.check.reason);
  CHECK(ok.check.verdict != Verdict::Violated);
  CHECK(ok.check.evidence.metrics.at("observed_max") > 5e-8);
  // a condition: only x >= 0.9 is claimed, where errors above 1e-7 exist
  const auto cond = gelu_statement_check(gelu_statement("err", "1e-7", "X[I] >= 0.9"));
  CHECK(cond.check.verdict == Verdict::Violated);
  CHECK(cond.check.witnesses.front().inputs[0].value >= 0.9);
  // ... and where there are none (|x| < 0.25: the errors stay below 3e-8), never violated
  const auto none = gelu_statement_check(gelu_statement("err", "1e-7", "abs(X[I]) < 0.25"));
  INFO(none.check.reason);
  CHECK(none.check.verdict != Verdict::Violated);
  // bad bindings: errors before anything runs
  const InputBox box[1] = {{-1, 1, 0, 0}};
  CHECK_THROWS_AS(check_statement(kSubstituted, box, {"Q"}, FP32, gelu_statement("err", "1e-7")), StatementError);
  CHECK_THROWS_AS(check_statement(kSubstituted, box, {"X"}, FP32, gelu_statement("ulp", "1")), StatementError);
}

TEST_CASE("an inconclusive operator check reports its largest observed error against the bound",
          "[verify][symbolic][witness]") {
  SymbolicCheckOptions o;
  o.max_cells = 4;  // a tight propagation identity: not provable by splitting (symbolic_campaign.cpp)
  o.samples_per_cell = 16;
  const auto r = symbolic_check(OpId::Div, FP32, {1, 2, -0.01, 0.01}, {1, 2, -0.01, 0.01},
                                *find_bound("symerr.div.propagation"), o);
  INFO(r.reason);
  REQUIRE(r.verdict == Verdict::Inconclusive);
  CHECK(r.reason.find("the largest error observed in") != std::string::npos);
  CHECK(r.evidence.inputs_checked > 0);
  CHECK(r.evidence.metrics.at("observed_over_bound_max") > 0);
  CHECK(r.evidence.metrics.at("observed_over_bound_max") <= 1);  // a true bound: never beyond it
}
