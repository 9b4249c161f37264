// The symbolic check and the seed audit: verdicts with witnesses re-checked
// exactly, proofs by box splitting, and the audit's findings.
#include <catch2/catch.hpp>

#include <symerr/verify/symbolic/symbolic_campaign.hpp>
#include <symerr/verify/symbolic/symbolic_check.hpp>
#include <symerr/domains/symbolic_instances.hpp>  // the library's instantiations (compile time)

#include <map>
#include <set>
#include <string>

using namespace symerr;
using namespace symerr::verify;

namespace {
const CheckResult* find(const std::vector<CheckResult>& v, const std::string& id) {
  for (const auto& c : v)
    if (c.id == id) return &c;
  return nullptr;
}
}  // namespace

TEST_CASE("correct rounding of Div is proven by splitting, for every float format", "[verify][symbolic]") {
  for (const FloatFormat& F : kFloatFormats) {
    const auto r = symbolic_check(OpId::Div, F, {0.5, 64, 0, 0}, {0.25, 16, 0, 0}, *find_bound("symerr.div.float.introduction"));
    INFO(F.name << ": " << r.reason);
    CHECK(r.verdict == Verdict::Proven);
    // the seed's ulp(Y) introduction bound too (looser)
    const auto s = symbolic_check(OpId::Div, F, {0.5, 64, 0, 0}, {0.25, 16, 0, 0}, *find_bound("seed000.div.float.introduction"));
    CHECK(s.verdict == Verdict::Proven);
  }
}

TEST_CASE("the seed's Div propagation bound is refuted with an exact witness", "[verify][symbolic][audit]") {
  const SpecBound& b = *find_bound("seed000.div.propagation");
  const auto r = symbolic_check(OpId::Div, Format{}, {1, 2, -0.5, 0.5}, {1, 2, -0.5, 0.5}, b);
  INFO(r.reason);
  REQUIRE(r.verdict == Verdict::Violated);
  REQUIRE_FALSE(r.witnesses.empty());
  const Witness& w = r.witnesses.front();
  CHECK(*w.bound < w.abs_error);
  // its tight twin, symerr's exact bound, is proven on a box where it is valid
  const auto own = symbolic_check(OpId::Div, Format{}, {1, 2, -0.01, 0.01}, {1, 2, -0.01, 0.01},
                                  *find_bound("symerr.div.propagation"));
  INFO(own.reason);
  CHECK(own.verdict != Verdict::Violated);
}

TEST_CASE("integer Div: the digest's |intro| < 0.5 is refuted, |intro| < 1 is proven", "[verify][symbolic]") {
  SymbolicCheckOptions o;
  o.int_division = IntegerDivision::Floor;
  const auto r = symbolic_check(OpId::Div, INT32, {-100, 100, 0, 0}, {1, 9, 0, 0}, *find_bound("digest.div.int.introduction"), o);
  REQUIRE(r.verdict == Verdict::Violated);
  CHECK(r.witnesses.front().abs_error >= 0.5);
  const auto ok = symbolic_check(OpId::Div, INT8, {-100, 100, 0, 0}, {1, 9, 0, 0}, *find_bound("symerr.div.int.introduction"), o);
  INFO(ok.reason);
  CHECK(ok.verdict == Verdict::Proven);
}

TEST_CASE("seed audit findings", "[verify][audit]") {
  const auto audit = run_seed_audit();
  const CheckResult* th = find(audit, "audit/threshold/seed000.div.real.scenario");
  REQUIRE(th);
  CHECK(th->verdict == Verdict::Proven);
  CHECK(th->reason.find("violated at") != std::string::npos);
  const CheckResult* sp = find(audit, "audit/special/seed000.div.float");
  REQUIRE(sp);
  CHECK(sp->verdict == Verdict::Violated);
  CHECK(sp->witnesses.size() == 6);
  const CheckResult* ex = find(audit, "audit/examples/seeds.int");
  REQUIRE(ex);
  CHECK(ex->witnesses.size() == 2);  // UINT8 100-200 stated 44, INT8 -6-(-3) stated -9
  const CheckResult* prop = find(audit, "audit/bound/seed000.div.propagation/real");
  REQUIRE(prop);
  CHECK(prop->verdict == Verdict::Violated);
  // the digest's IEEE Div introduction bound holds, subnormal quotients included
  const CheckResult* sub = find(audit, "audit/bound/digest.div.float.introduction/FP32");
  REQUIRE(sub);
  CHECK(sub->verdict == Verdict::Proven);
  CHECK(sub->witnesses.empty());
}

TEST_CASE("seed audit: every finding has its expected verdict, and no other finding appears", "[verify][audit]") {
  const std::map<std::string, Verdict> expected = {
      {"audit/bound/seed000.div.propagation/real", Verdict::Violated},
      {"audit/bound/seed000.div.real.scenario/real", Verdict::Violated},
      {"audit/bound/seed000.div.float.scenario/FP32", Verdict::Violated},
      {"audit/bound/seed000.div.float.introduction/FP16", Verdict::Proven},
      {"audit/bound/seed000.div.float.introduction/FP32", Verdict::Proven},
      {"audit/bound/seed000.div.int.scenario/INT8", Verdict::Violated},
      {"audit/bound/digest.div.propagation/FP32", Verdict::Violated},
      {"audit/bound/digest.div.float.introduction/FP32", Verdict::Proven},
      {"audit/bound/digest.div.int.introduction/INT32", Verdict::Violated},
      {"audit/bound/digest.mul.float.introduction/FP32", Verdict::Proven},
      {"audit/bound/digest.add.float.introduction/FP16", Verdict::Proven},
      {"audit/threshold/seed000.div.real.scenario", Verdict::Proven},
      {"audit/special/seed000.div.float", Verdict::Violated},
      {"audit/examples/seeds.int", Verdict::Violated},
  };
  const auto audit = run_seed_audit();
  std::set<std::string> seen;
  for (const CheckResult& c : audit) {
    INFO(c.id << ": " << to_string(c.verdict) << " - " << c.reason);
    CHECK(seen.insert(c.id).second);  // each finding once
    const auto it = expected.find(c.id);
    REQUIRE(it != expected.end());    // a new finding must be added to the table
    CHECK(c.verdict == it->second);
    CHECK_FALSE(c.reason.empty());
    if (c.verdict == Verdict::Violated) {
      REQUIRE_FALSE(c.witnesses.empty());
      // a bound violation's witnesses reach the bound at that input (a strict
      // bound "< b" is violated at equality, as the digest's integer one is)
      for (const Witness& w : c.witnesses)
        if (w.bound) CHECK(*w.bound <= w.abs_error);
    } else {
      CHECK(c.witnesses.empty());
    }
  }
  CHECK(seen.size() == expected.size());
}

TEST_CASE("symbolic_check of any kernel: enclosure and verdict through the driver", "[verify][symbolic][kernel]") {
  // (a - b) / (a + b), FP16 a, b in [1, 2]: the exhaustive maximum |err| is 2.288e-4
  const SymbolicKernel ratio = [](std::span<const SymbolicError> x) { return (x[0] - x[1]) / (x[0] + x[1]); };
  const InputBox box[2] = {{1, 2, 0, 0}, {1, 2, 0, 0}};
  const auto proven = symbolic_check(ratio, box, FP16, 2.5e-4, ErrorPart::Total, {}, "ratio");
  INFO(proven.check.reason);
  CHECK(proven.check.verdict == Verdict::Proven);
  CHECK(mag(proven.enclosure.err) <= 2.5e-4);
  CHECK(mag(proven.enclosure.err) >= 2.288e-4);   // sound: encloses the exhaustive maximum
  CHECK(proven.report.input_boxes > 1);           // needed the subdivision (whole box: 3.66e-4)
  CHECK(proven.check.id.rfind("symbolic/kernel/ratio/FP16/err/le0.00025/", 0) == 0);
  // a bound below the true maximum cannot be proven; a point execution refutes it
  const auto refuted = symbolic_check(ratio, box, FP16, 1e-4, ErrorPart::Total, {}, "ratio");
  INFO(refuted.check.reason);
  CHECK(refuted.check.verdict == Verdict::Violated);
  REQUIRE_FALSE(refuted.check.witnesses.empty());
  CHECK(refuted.check.witnesses.front().abs_error > 1e-4);
  // a kernel with a branch: relu with input error e has |err| <= e exactly
  const SymbolicKernel relu = [](std::span<const SymbolicError> x) {
    SymbolicError v = x[0];
    return v < 0 ? SymbolicError(0) : v;
  };
  const InputBox r[1] = {{-1, 1, -1e-12, 1e-12}};
  const auto rp = symbolic_check(relu, r, FP64, 1e-12, ErrorPart::Total, {}, "relu");
  INFO(rp.check.reason);
  CHECK(rp.check.verdict == Verdict::Proven);
  const auto rv = symbolic_check(relu, r, FP64, 0.5e-12, ErrorPart::Total, {}, "relu");
  CHECK(rv.check.verdict != Verdict::Proven);
  CHECK_THROWS_AS(symbolic_check(relu, r, FP64, -1), std::invalid_argument);
}

TEST_CASE("symbolic_check of any kernel in other domains: Affine, MpfrInterval", "[verify][symbolic][kernel]") {
  // (a - b) / (a + b), FP16 a, b in [1, 2]: exhaustive maximum |err| 2.288e-4
  const InputBox box[2] = {{1, 2, 0, 0}, {1, 2, 0, 0}};
  KernelCheckOptions whole;  // no subdivision: the domain alone
  whole.driver.max_boxes = 1;
  SECTION("Affine: sound, tighter than Interval on the whole box, refutes a false bound") {
    AffineContext ctx;
    AffineScope scope(ctx);
    const BasicSymbolicKernel<Affine> ratio = [](std::span<const SymbolicDomainError<Affine>> x) {
      return (x[0] - x[1]) / (x[0] + x[1]);
    };
    const auto a = symbolic_check<Affine>(ratio, box, FP16, 2.8e-4, ErrorPart::Total, whole, "ratio");
    INFO(a.check.reason);
    CHECK(a.check.verdict == Verdict::Proven);  // Affine alone: 2.77e-4 (Interval: 3.66e-4)
    CHECK(mag(interval_hull(a.enclosure).err) >= 2.288e-4);
    const SymbolicKernel ratio_i = [](std::span<const SymbolicError> x) { return (x[0] - x[1]) / (x[0] + x[1]); };
    const auto i = symbolic_check(ratio_i, box, FP16, 2.8e-4, ErrorPart::Total, whole, "ratio");
    CHECK(i.check.verdict != Verdict::Proven);  // tightness twin: the interval domain cannot prove it
    const auto refuted = symbolic_check<Affine>(ratio, box, FP16, 1e-4, ErrorPart::Total, {}, "ratio");
    CHECK(refuted.check.verdict == Verdict::Violated);
  }
  SECTION("MpfrInterval: subdivided, proven and sound") {
    const BasicSymbolicKernel<MpfrInterval> ratio = [](std::span<const SymbolicDomainError<MpfrInterval>> x) {
      return (x[0] - x[1]) / (x[0] + x[1]);
    };
    const auto m = symbolic_check<MpfrInterval>(ratio, box, FP16, 2.5e-4, ErrorPart::Total, {}, "ratio");
    INFO(m.check.reason);
    CHECK(m.check.verdict == Verdict::Proven);
    CHECK(mag(interval_hull(m.enclosure).err) >= 2.288e-4);
  }
}
