// The unit-verification scenarios of the SONNX Div seed (seeds/000, real, float
// and int sections) and of the SONNX accuracy digest (sonnx/README.md §1.2),
// run on SymbolicDomainError with mechanical edits only:
//   double bound -> auto bound;  assert(x) -> REQUIRE(certainly(x)) (or a
//   recorded refutation);  .float -> .fp;  .int -> .fp (the computed integer);
//   std::abs / std::isfinite -> abs / isfinite (found by ADL: overloading in
//   namespace std is not allowed);  ulp(c.real) -> ulp(c.real, F).
// Outcomes (also in README "SONNX scenarios: what symerr decides"):
//   real Div, error-free inputs ............ proven
//   real Div, inputs with error ............ refuted (second-order term missing)
//   float Div, error-free inputs ........... proven (normal results)
//   float Div, inputs with error ........... refuted
//   float Div special values (x/0, 0/0) .... proven (is_inf / is_nan)
//   int Div, floor semantics ............... refuted: 7/2 -> 3, err = -0.5 > 0
//   digest §1.2, float, normal quotients ... proven (one binade per box); subnormal quotients refuted
//   digest §1.2, int "< 0.5" ............... refuted: 2/3 -> 0, |err| = 2/3
#include <catch2/catch.hpp>

#include <symerr/domains/symbolic_interval.hpp>
#include <symerr/tensor.hpp>

namespace sonnx_scenarios {
using namespace symerr;
// The scenarios' unqualified type name; this declaration hides the template.
using SymbolicDomainError = symerr::SymbolicError;

// "symbolic initialization": every element an input box of the format.
struct Init { double lo, hi, elo, ehi; };
Tensor<SymbolicDomainError> make(const std::vector<Init>& v, const Format& f,
                                 std::optional<IntegerDivision> idiv = std::nullopt) {
  std::vector<SymbolicDomainError> xs;
  for (const Init& i : v) {
    auto x = SymbolicDomainError::input(i.lo, i.hi, i.elo, i.ehi, f);
    if (idiv) x = x.with_int_division(*idiv);
    xs.push_back(x);
  }
  return Tensor<SymbolicDomainError>(Shape{xs.size()}, xs);
}

enum class Outcome { Proven, Refuted, Undecided };

// Seed 000, real section: the scenario verbatim (mechanical edits only).
std::vector<Outcome> real_div_scenario(Tensor<SymbolicDomainError> A, Tensor<SymbolicDomainError> B) {
  std::vector<Outcome> out;
  auto result = [&A, &B](auto I) {
    return (B[I].real != 0) ? A[I] / B[I] : /* undefined */ SymbolicDomainError::undef();
  };
  for (auto I : A.indexes()) {
    auto a = A[I];
    auto b = B[I];
    if (b.real != 0 && b.real + b.err != 0) {
      auto c = result(I);
      auto bound = abs(a.err / b.real) + abs(a.real * b.err / (b.real * b.real));
      const Truth t = abs(c.err) <= bound + 1e-12;  // assert(...)
      out.push_back(certainly(t) ? Outcome::Proven : certainly_not(t) ? Outcome::Refuted : Outcome::Undecided);
    }
  }
  return out;
}

// Seed 000, float section.
struct FloatOutcome { std::vector<Outcome> bound, inf, nan; };
FloatOutcome float_div_scenario(Tensor<SymbolicDomainError> A, Tensor<SymbolicDomainError> B, const FloatFormat& F) {
  FloatOutcome out;
  auto verdict = [](Truth t) { return certainly(t) ? Outcome::Proven : certainly_not(t) ? Outcome::Refuted : Outcome::Undecided; };
  auto result = [&A, &B](auto i) {
    if (B[i].real != 0) return A[i] / B[i];
    if (A[i].real != 0) return SymbolicDomainError::inf();
    return SymbolicDomainError::nan();
  };
  for (auto i : A.indexes()) {
    auto a = A[i];
    auto b = B[i];
    auto c = result(i);
    if (isfinite(b.real) && b.real != 0 && b.real + b.err != 0) {
      auto bound = abs(a.err / b.real) + abs(a.real * b.err / (b.real * b.real));
      out.bound.push_back(verdict(abs(c.err) <= bound + ulp(c.real, F)));  // includes intro. rounding
    }
    if (b.real == 0 && a.real != 0) { out.inf.push_back(verdict(c.is_inf())); }
    if (b.real == 0 && a.real == 0) { out.nan.push_back(verdict(c.is_nan())); }
  }
  return out;
}

// Seed 000, int section (.int -> .fp).
std::vector<Outcome> int_div_scenario(Tensor<SymbolicDomainError> A, Tensor<SymbolicDomainError> B) {
  std::vector<Outcome> out;
  auto result = [&A, &B](auto I) {
    return (B[I].fp != 0) ? A[I] / B[I] : /* undefined */ SymbolicDomainError::undef();
  };
  for (auto I : A.indexes()) {
    auto a = A[I];
    auto b = B[I];
    if (b.fp != 0 && b.fp + b.err != 0) {
      auto c = result(I);
      auto bound = abs(a.err / b.fp) + abs(a.fp * b.err / (b.fp * b.fp));
      const Truth t = abs(c.err) <= bound + 0;
      out.push_back(certainly(t) ? Outcome::Proven : certainly_not(t) ? Outcome::Refuted : Outcome::Undecided);
    }
  }
  return out;
}

// Digest §1.2: getSpecError(c) = |c.real|·u for floats, 0.5 for integers.
template <class SpecError>
std::vector<Outcome> digest_div_scenario(Tensor<SymbolicDomainError> A, Tensor<SymbolicDomainError> B,
                                         SpecError getSpecError) {
  std::vector<Outcome> out;
  auto result = [&A, &B](auto I) {
    return (B[I].real != 0) ? A[I] / B[I] : /* undefined */ SymbolicDomainError::undef();
  };
  for (auto I : A.indexes()) {
    auto a = A[I];
    auto b = B[I];
    (void)a;
    if (b != 0) {
      auto c = result(I);
      const Truth t = abs(c.err) <= getSpecError(c);
      out.push_back(certainly(t) ? Outcome::Proven : certainly_not(t) ? Outcome::Refuted : Outcome::Undecided);
    }
  }
  return out;
}

// Input-box splitting, as the symbolic check does: a box is proven when every
// cell of an n × n grid over the two operands is proven (geometric cells for
// one-signed ranges, so that quotients fall in few binades per cell).
std::vector<std::pair<double, double>> cells(double lo, double hi, int n) {
  std::vector<std::pair<double, double>> v;
  const bool geometric = lo > 0 || hi < 0;
  for (int k = 0; k < n; ++k) {
    double a, b;
    if (geometric) {
      const double s = lo > 0 ? 1 : -1, l = std::fabs(lo), h = std::fabs(hi);
      const double r = h / l;
      a = s * l * std::pow(r, double(k) / n);
      b = s * l * std::pow(r, double(k + 1) / n);
      if (a > b) std::swap(a, b);
    } else {
      a = lo + (hi - lo) * k / n;
      b = lo + (hi - lo) * (k + 1) / n;
    }
    v.emplace_back(a, b);
  }
  return v;
}

template <class Scenario>
Outcome on_grid(Init a, Init b, const Format& f, int n, Scenario scenario) {
  Outcome out = Outcome::Proven;
  for (auto [alo, ahi] : cells(a.lo, a.hi, n))
    for (auto [blo, bhi] : cells(b.lo, b.hi, n)) {
      const auto o = scenario(make({{alo, ahi, a.elo, a.ehi}}, f), make({{blo, bhi, b.elo, b.ehi}}, f));
      if (o.empty() || o[0] == Outcome::Refuted) return Outcome::Refuted;
      if (o[0] == Outcome::Undecided) out = Outcome::Undecided;
    }
  return out;
}

}  // namespace sonnx_scenarios

using namespace sonnx_scenarios;

TEST_CASE("seed 000 real Div scenario", "[core][scenario][sonnx]") {
  const Format R{};  // ideal real arithmetic
  // error-free inputs on boxes away from zero: proven
  auto p = real_div_scenario(make({{1, 2, 0, 0}, {-9, -3, 0, 0}}, R), make({{3, 4, 0, 0}, {0.5, 7, 0, 0}}, R));
  CHECK(p == std::vector<Outcome>{Outcome::Proven, Outcome::Proven});
  // inputs with error: not provable on the box, and refuted at a concrete point:
  // a = 1, b = 1, b_err = -0.5: c.err = 1/0.5 - 1 = 1 > bound 0.5.
  auto box = real_div_scenario(make({{1, 2, -0.1, 0.1}}, R), make({{1, 2, -0.5, 0.5}}, R));
  CHECK(box == std::vector<Outcome>{Outcome::Undecided});
  auto witness = real_div_scenario(make({{1, 1, 0, 0}}, R), make({{1, 1, -0.5, -0.5}}, R));
  CHECK(witness == std::vector<Outcome>{Outcome::Refuted});
}

TEST_CASE("seed 000 float Div scenario", "[core][scenario][sonnx]") {
  for (const FloatFormat& F : kFloatFormats) {
    INFO(F.name);
    // error-free inputs, normal quotients: the introduced error is at most ½ ulp: proven
    auto p = float_div_scenario(make({{1, 2, 0, 0}}, F), make({{3, 4, 0, 0}}, F), F);
    CHECK(p.bound == std::vector<Outcome>{Outcome::Proven});
    // a box whose quotients span many binades is undecided as a whole
    // (sup |err| is compared with inf ulp(real)), and proven once split
    auto wide = float_div_scenario(make({{-100, -3, 0, 0}}, F), make({{0.5, 7, 0, 0}}, F), F);
    CHECK(wide.bound == std::vector<Outcome>{Outcome::Undecided});
    auto scenario = [&F](auto A, auto B) { return float_div_scenario(A, B, F).bound; };
    CHECK(on_grid({-100, -3, 0, 0}, {0.5, 7, 0, 0}, F, 24, scenario) == Outcome::Proven);
    // x/0 -> inf, 0/0 -> NaN
    auto s = float_div_scenario(make({{1, 1, 0, 0}, {0, 0, 0, 0}}, F), make({{0, 0, 0, 0}, {0, 0, 0, 0}}, F), F);
    CHECK(s.inf == std::vector<Outcome>{Outcome::Proven});
    CHECK(s.nan == std::vector<Outcome>{Outcome::Proven});
    // input error that shrinks the divisor: refuted at a = 1, b = 1, b_err = -0.5
    auto w = float_div_scenario(make({{1, 1, 0, 0}}, F), make({{1, 1, -0.5, -0.5}}, F), F);
    CHECK(w.bound == std::vector<Outcome>{Outcome::Refuted});
  }
}

TEST_CASE("seed 000 int Div scenario", "[core][scenario][sonnx]") {
  // The seed claims zero error for integer division; against the real quotient
  // floor(7/2) = 3 has error -0.5: refuted. Error-free exact quotients: proven.
  auto r = int_div_scenario(make({{7, 7, 0, 0}, {6, 6, 0, 0}}, INT8, IntegerDivision::Floor),
                            make({{2, 2, 0, 0}, {3, 3, 0, 0}}, INT8, IntegerDivision::Floor));
  CHECK(r == std::vector<Outcome>{Outcome::Refuted, Outcome::Proven});
}

TEST_CASE("digest §1.2 Div scenario", "[core][scenario][sonnx]") {
  const double u = FP32.unit_roundoff();
  auto spec_float = [u](const symerr::SymbolicError& c) { return abs(c.real) * u; };
  // whole-range inputs split at zero (b != 0 is undecided on a box holding 0):
  // normal quotients proven ...
  // quotients within one binade: proven directly on the box
  auto p = digest_div_scenario(make({{2, 3, 0, 0}}, FP32), make({{1.6, 1.9, 0, 0}}, FP32), spec_float);
  CHECK(p == std::vector<Outcome>{Outcome::Proven});
  // across binades a uniform grid leaves the cells at each crossing undecided
  // (sup |err| = ½ ulp above the crossing vs inf u·|r| below it): adaptive
  // bisection is needed there
  auto scenario = [&](auto A, auto B) { return digest_div_scenario(A, B, spec_float); };
  CHECK(on_grid({1, 1000, 0, 0}, {0.5, 100, 0, 0}, FP32, 8, scenario) == Outcome::Undecided);
  // ... a subnormal quotient is refuted: min_subnormal / 3 rounds to 0 with |err| = u_s/3 > u·|r|
  const double ms = FP32.min_subnormal();
  auto w = digest_div_scenario(make({{ms, ms, 0, 0}}, FP32), make({{3, 3, 0, 0}}, FP32), spec_float);
  CHECK(w == std::vector<Outcome>{Outcome::Refuted});
  // the guard is undecided on a divisor box holding 0
  CHECK_THROWS_AS(digest_div_scenario(make({{1, 2, 0, 0}}, FP32), make({{-1, 1, 0, 0}}, FP32), spec_float),
                  UndecidedBranch);
  // int: "|err| < 0.5" is refuted: 2/3 -> 0 (floor and truncation), |err| = 2/3
  auto spec_int = [](const symerr::SymbolicError&) { return 0.5; };
  for (IntegerDivision d : {IntegerDivision::Floor, IntegerDivision::Truncate}) {
    auto i = digest_div_scenario(make({{2, 2, 0, 0}}, INT32, d), make({{3, 3, 0, 0}}, INT32, d),
                                 [&](const symerr::SymbolicError& c) { return Interval::point(spec_int(c)); });
    CHECK(i == std::vector<Outcome>{Outcome::Refuted});
  }
}
