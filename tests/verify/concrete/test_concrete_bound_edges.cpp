// Every error bound of the concrete check decided exactly at the edges of
// every float format: a correct (correctly rounded) kernel output must pass and
// a wrong one must fail, at the subnormal edge (where u · 2^emin underflows a
// double product for FP64), at a rounding of the exact result across a power
// of two (where ulp(RN(r)) = 2 ulp(r)) and at the overflow edge.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include <symerr/verify/concrete/concrete.hpp>

using namespace symerr;
using namespace symerr::verify;

namespace {

// A kernel that returns `out` for its one input.
Kernel constant_kernel(ElementType t, OpId op, double out) {
  Kernel k;
  k.name = "constant";
  k.op = op;
  k.type = t;
  k.run = [t, out](const void*, const void*, void* y, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) store_bits(t, y, i, encode_float(t, out));
  };
  return k;
}

Verdict verdict_of(ElementType t, OpId op, double a, double b, double out, const Property& p) {
  CheckOptions o;
  o.property = p;
  const CheckResult r = check_inputs(constant_kernel(t, op, out), {FloatInputs{"edge", {{a, b}}}}, o, false);
  INFO(r.reason);
  for (const auto& w : r.witnesses) INFO(w.message);
  return r.verdict;
}

struct Edge {
  const char* what;
  OpId op;
  double a, b;
  double wrong;  // an output the bound must reject
};

const char* kinds[] = {"unit_roundoff", "ulp(r) (SONNX Div)", "0.5 ulp(r)"};
Property property(int kind) {
  return kind == 0 ? unit_roundoff_bound() : kind == 1 ? sonnx_div_introduction_bound() : ulp_multiple_bound(0.5);
}

// The edges of F for the bound `kind`, each with a wrong output outside it.
std::vector<Edge> edges(const FloatFormat& F, int kind) {
  const double sub = F.min_subnormal(), max = F.max_finite();
  const double U = std::ldexp(1.0, F.emax + 1 - F.precision);  // the spacing of the top binade
  const double third = round_to(0.3, F, RoundingMode::NearestEven).value;
  const double below_one = 1 - std::ldexp(1.0, -F.precision);
  std::vector<Edge> e;
  // r = 0.3 min_subnormal: RN 0; min_subnormal is 0.7 spacings away (outside
  // u 2^emin = half a spacing and 0.5 ulp), 2 min_subnormal 1.7 (outside ulp)
  e.push_back({"subnormal, r = 0.3 min_subnormal", OpId::Mul, sub, third, kind == 1 ? 2 * sub : sub});
  // r = min_subnormal / 2: RN 0 at exactly u 2^emin (a tie: the bound is met
  // with equality); 2 min_subnormal is 1.5 spacings away
  e.push_back({"subnormal tie, r = min_subnormal / 2", OpId::Mul, sub, 0.5, 2 * sub});
  // r = 1.3 min_subnormal: RN min_subnormal, 0.3 spacings away (within u 2^emin,
  // which is 0 as an FP64 double product); 2 (3 for ulp(r)) min_subnormal are outside
  const double more = round_to(1.3, F, RoundingMode::NearestEven).value;
  e.push_back({"subnormal, r = 1.3 min_subnormal", OpId::Mul, sub, more, kind == 1 ? 3 * sub : 2 * sub});
  // r = 1 - d: RN 1, ulp(r) = 2^-p but ulp(1) = 2^(1-p); 1 - 2^(1-p) is
  // 2 ulp(r) - d away, within ulp(RN(r)) but not within ulp(r). With d = 2^-60
  // (a value of FP32, BF16, FP64) r rounds to 1 as a double too; FP16 has no
  // such d (its sums are exact doubles)
  const double d = F.min_subnormal() <= 0x1p-60 ? 0x1p-60 : std::ldexp(1.0, -F.precision - 5);
  e.push_back({"power-of-two crossing, r = 1 - d", OpId::Add, 1.0, -d, 1 - std::ldexp(1.0, 1 - F.precision)});
  // r = max - U + U 2^-p: RN max - U; max is U (1 - 2^-p) away, just above
  // u |r| = U (1 - 2^(1-p) + 2^-2p) and above 0.5 ulp; max - 2U is U (1 + 2^-p) away
  e.push_back({"overflow edge, r = max (1 - 2^-p)", OpId::Mul, max, below_one, kind == 1 ? max - 2 * U : max});
  // r = max (1 + 2^(1-p)): overflows to inf in RNE; max is wrong
  e.push_back({"overflow, r = max (1 + 2^(1-p))", OpId::Mul, max, 1 + std::ldexp(1.0, 1 - F.precision), max});
  return e;
}

}  // namespace

TEST_CASE("bound edges: every bound kind and float format, a correct output passes and a wrong one fails",
          "[concrete][bound]") {
  const ElementType types[] = {ElementType::FP16, ElementType::BF16, ElementType::FP32, ElementType::FP64};
  for (const ElementType t : types) {
    const auto F = std::get<FloatFormat>(format_of(t));
    for (int kind = 0; kind < 3; ++kind) {
      for (const Edge& e : edges(F, kind)) {
        INFO(to_string(t) << ", " << kinds[kind] << ", " << e.what);
        const double correct = float_reference(OracleKind::Exact, e.op, e.a, e.b, F).value;
        REQUIRE(correct != e.wrong);
        CHECK(verdict_of(t, e.op, e.a, e.b, correct, property(kind)) == Verdict::PassedOnSamples);
        CHECK(verdict_of(t, e.op, e.a, e.b, e.wrong, property(kind)) == Verdict::Violated);
      }
    }
  }
}

TEST_CASE("bound edges: the FP64 multiplication of issue 48 under unit_roundoff", "[concrete][bound]") {
  // u 2^emin = 2^-1075 is 0 as a double product; the correctly rounded
  // result -2^-1074 is 0.36 spacings from r, within 2^-1075
  const double a = 5.584096117347598e-161, b = -1.185425481510045e-163;
  CHECK(FP64.unit_roundoff() * FP64.min_normal() == 0);  // what the double formula computed
  const double correct = float_reference(OracleKind::Exact, OpId::Mul, a, b, FP64).value;
  CHECK(correct == -0x1p-1074);
  CHECK(verdict_of(ElementType::FP64, OpId::Mul, a, b, correct, unit_roundoff_bound()) == Verdict::PassedOnSamples);
  // 0 is 0.64 spacings away: outside 2^-1075 (an upward-rounded bound, 2^-1074, would let it pass)
  CHECK(verdict_of(ElementType::FP64, OpId::Mul, a, b, 0.0, unit_roundoff_bound()) == Verdict::Violated);
  CheckOptions o;
  o.property = unit_roundoff_bound();
  const CheckResult r =
      check_inputs(constant_kernel(ElementType::FP64, OpId::Mul, -0x1p-1074 * 2), {FloatInputs{"edge", {{a, b}}}}, o, false);
  REQUIRE(r.witnesses.size() == 1);
  CHECK_THAT(r.witnesses[0].message, Catch::Contains("= 2^-1075 (exact)"));
  REQUIRE(r.witnesses[0].bound);
  CHECK(*r.witnesses[0].bound == 0x1p-1074);  // the displayed double: never below the bound
}
