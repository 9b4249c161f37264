// Checks over any abstract domain: the bounds evaluated on the interval hull
// of a SymbolicDomainError<D> (sound against exact executions, tight against
// the Interval computation), and the symbolic campaign and seed audit running
// whatever check they are given (type-erased over the domain).
#include <catch2/catch.hpp>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include <symerr/domains/affine.hpp>
#include <symerr/domains/mpfr_interval.hpp>
#include <symerr/domains/rational_interval.hpp>
#include <symerr/verify/bounds/bounds.hpp>
#include <symerr/verify/symbolic/symbolic_campaign.hpp>
#include <symerr/domains/symbolic_instances.hpp>  // the library's instantiations (compile time)

using namespace symerr;
using namespace symerr::verify;

namespace {

// a / b over D, as Interval enclosures.
template <class D>
SymbolicError quotient_hull() {
  const auto a = SymbolicDomainError<D>::input(1, 2, -1e-3, 1e-3, FP32);
  const auto b = SymbolicDomainError<D>::input(0.5, 4, -1e-3, 1e-3, FP32);
  return interval_hull(a / b);
}

template <class D>
void check_hull() {
  const SymbolicError h = quotient_hull<D>();
  const SymbolicError i = SymbolicError::input(1, 2, -1e-3, 1e-3, FP32) / SymbolicError::input(0.5, 4, -1e-3, 1e-3, FP32);
  // soundness: exact executions of the box lie in the hull
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> ua(1, 2), ub(0.5, 4), ue(-1e-3, 1e-3);
  for (int k = 0; k < 2000; ++k) {
    const double ar = ua(rng), br = ub(rng), ae = ue(rng), be = ue(rng);
    const mpq_class real = exact_value(ar) / exact_value(br);
    CHECK(contains(h.real, real));
    // a machine execution: FP32 inputs within the input errors, the FP32 quotient
    const float fa = static_cast<float>(ar + ae), fb = static_cast<float>(br + be);
    if (std::fabs(fa - ar) > 1e-3 || std::fabs(fb - br) > 1e-3) continue;
    const float fc = fa / fb;
    CHECK(contains(h.fp, static_cast<double>(fc)));
    CHECK(contains(h.err, mpq_class(exact_value(fc) - real)));
  }
  // tightness: the hull is no wider than twice the Interval computation (a
  // hull that returned the whole line, or a wrong format, fails here)
  CHECK(std::holds_alternative<FloatFormat>(h.format));
  for (const auto& [hd, id] : {std::pair{h.real, i.real}, {h.fp, i.fp}, {h.err, i.err}}) {
    CHECK(is_bounded(hd));
    CHECK(width(hd) <= 2 * width(id) + 1e-300);
  }
}

}  // namespace

TEST_CASE("bounds are evaluated on the interval hull of any domain", "[verify][domains]") {
  SECTION("MpfrInterval") { check_hull<MpfrInterval>(); }
  SECTION("RationalInterval") { check_hull<RationalInterval>(); }
  SECTION("Affine") {
    AffineContext ctx;
    AffineScope scope(ctx);
    check_hull<Affine>();
  }
  SECTION("Interval is its own hull") {
    const SymbolicError x = SymbolicError::input(1, 2, -1e-3, 1e-3, FP32);
    const SymbolicError h = interval_hull(x);
    CHECK(subset(h.real, x.real));
    CHECK(subset(x.real, h.real));
    CHECK(subset(h.err, x.err));
    CHECK(subset(x.err, h.err));
  }
  SECTION("a bound's enclosure over a hull contains the bound at exact executions") {
    const SpecBound& b = *find_bound("symerr.div.propagation");
    AffineContext ctx;
    AffineScope scope(ctx);
    const auto a = SymbolicDomainError<Affine>::input(1, 2, -1e-3, 1e-3, Format{});
    const auto d = SymbolicDomainError<Affine>::input(0.5, 4, -1e-3, 1e-3, Format{});
    const Interval e = b.enclose(interval_hull(a), interval_hull(d), interval_hull(a / d));
    const ExactPoint p = evaluate_point(OpId::Div, Format{}, IntegerDivision::Floor, 2, 2.001, 0.5, 0.499);
    CHECK(contains(e, b.exact(p)));
  }
}

TEST_CASE("the symbolic campaign and the seed audit run the check they are given", "[verify][domains]") {
  std::vector<std::string> calls;
  const SymbolicCheckFn recording = [&calls](OpId op, const Format& f, const InputBox&, const InputBox&,
                                             const SpecBound& bound, const SymbolicCheckOptions&) {
    calls.push_back(std::string(to_string(op)) + " " + format_name(f) + " " + bound.id);
    CheckResult r;
    r.id = "recorded/" + calls.back();
    r.verdict = Verdict::Inconclusive;
    r.reason = "recorded";
    return r;
  };
  const auto checks = run_default_symbolic_checks({}, recording);
  REQUIRE_FALSE(calls.empty());
  REQUIRE(checks.size() == calls.size());
  for (std::size_t i = 0; i < checks.size(); ++i) CHECK(checks[i].id == "recorded/" + calls[i]);

  calls.clear();
  const auto audit = run_seed_audit({}, recording);
  std::size_t bound_audits = 0;
  for (const CheckResult& r : audit)
    if (r.id.rfind("audit/bound/", 0) == 0) {
      ++bound_audits;
      CHECK(r.reason.rfind("recorded", 0) == 0);
    }
  CHECK(bound_audits == calls.size());
  CHECK(calls.size() >= 10);  // the seed's and the digest's stated bounds
}
