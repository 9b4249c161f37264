// Composed kernels in SymbolicDomainError<Affine> against their known true
// maxima: the tightness figures of the README's affine section that a single
// operation cannot show. (a − b)/(a + b) on FP16 [1, 2]: the exhaustive
// maximum of |f − r| over all 1025² pairs is 2.2882e-4
// (bench/bench_affine_examples computes it); the bound must stay within
// 1.25× of it without subdivision, and never below it (soundness twin).
#include <catch2/catch.hpp>

#include <symerr/domains/affine.hpp>
#include <symerr/domains/interval.hpp>
#include <symerr/symbolic.hpp>
#include <symerr/domains/symbolic_instances.hpp>  // the library's instantiations (compile time)

using namespace symerr;

namespace {
using SA = SymbolicDomainError<Affine>;
constexpr double kRatioExhaustiveMax = 2.2882e-4;  // rounded down in the 5th digit
}  // namespace

TEST_CASE("(a - b)/(a + b), FP16 [1, 2]: within 1.25x of the exhaustive maximum", "[affine][tightness]") {
  AffineContext ctx;
  AffineScope scope(ctx);
  const SA a = SA::input(1, 2, FP16), b = SA::input(1, 2, FP16);
  const SA q = (a - b) / (a + b);
  INFO(q);
  const double bound = mag(q.err);
  CHECK(bound >= kRatioExhaustiveMax);
  CHECK(bound <= 1.25 * kRatioExhaustiveMax);
  // the twin: the Interval domain is far looser on the same kernel
  using SI = SymbolicDomainError<Interval>;
  const SI ai = SI::input(1, 2, FP16), bi = SI::input(1, 2, FP16);
  CHECK(mag(((ai - bi) / (ai + bi)).err) > 1.5 * kRatioExhaustiveMax);
}

// ---- long sum chains: the stored-extension path, condensation, depth bound ----

#include "core/symbolic_oracle.hpp"

namespace {

struct ChainCheck {
  long executions = 0;
  std::string failure;
};

// s = Σ x_i·y_i (sequential, in F) over random boxes, some centered at 0 (the
// products' forms are then fresh symbols only: every step extends s) and some
// not (linear parts on the inputs' symbols: real merges); each execution is
// replayed exactly and every field of the result checked.
ChainCheck check_dot_chain(test::Generator& g, const FloatFormat& F, int n, std::size_t max_terms) {
  AffineOptions opt;
  opt.max_terms = max_terms;
  AffineContext ctx(opt);
  AffineScope scope(ctx);
  std::vector<test::Box> boxes;
  std::vector<SA> v;
  for (int i = 0; i < 2 * n; ++i) {
    const bool centered = g.pick(0, 1) == 0;
    const double lo = centered ? -1.0 : g.unit() * 2, hi = centered ? 1.0 : lo + 0.5;
    const double e = g.pick(0, 2) == 0 ? 0.0 : ulp(hi, F) * g.unit() * 4;
    boxes.push_back({lo, hi, -e, e});
    v.push_back(SA::input(lo, hi, -e, e, F));
  }
  SA s = v[0] * v[n];
  for (int i = 1; i < n; ++i) s = s + v[i] * v[n + i];
  ChainCheck out;
  for (int k = 0; k < 30 && out.failure.empty(); ++k) {
    std::vector<test::Generator::Execution> ex;
    for (int i = 0; i < 2 * n; ++i) {
      auto e = g.execution(boxes[i], v[i].fp.lower(), v[i].fp.upper(), F, false);
      if (!e) break;
      ex.push_back(*e);
    }
    if (static_cast<int>(ex.size()) < 2 * n) continue;
    mpq_class r = 0, pr = 0;
    double f = 0;
    for (int i = 0; i < n; ++i) {
      const mpq_class p = ex[i].r * ex[n + i].r, pp = exact_value(ex[i].f) * exact_value(ex[n + i].f);
      const double fp = round_to(pp, F, RoundingMode::NearestEven).value;
      r += p;
      pr += pp;
      f = i == 0 ? fp : round_to(exact_value(f) + exact_value(fp), F, RoundingMode::NearestEven).value;
    }
    const mpq_class e = exact_value(f) - r;
    if (!contains(s.real, r)) out.failure = "r not in real";
    else if (!contains(s.fp, exact_value(f))) out.failure = "f not in fp";
    else if (!contains(s.err, e)) out.failure = "f - r not in err";
    else if (!contains(s.propagated, mpq_class(pr - r))) out.failure = "pr - r not in propagated";
    else if (!contains(s.introduced, mpq_class(exact_value(f) - pr))) out.failure = "f - pr not in introduced";
    ++out.executions;
  }
  return out;
}

}  // namespace

TEST_CASE("SymbolicDomainError<Affine>: long sum chains are sound (condensation, stored extensions)",
          "[affine][soundness]") {
  test::Generator g(555);
  long executions = 0;
  const FloatFormat formats[] = {FP16, FP32, FP64};
  const std::size_t max_terms[] = {2, 3, 8, 48};
  for (int t = 0; t < 24; ++t) {
    const FloatFormat& F = formats[t % 3];
    const std::size_t m = max_terms[(t / 3) % 4];
    const int n = g.pick(2, 80);
    const ChainCheck c = check_dot_chain(g, F, n, m);
    INFO(format_name(F) << " n = " << n << " max_terms = " << m);
    REQUIRE(c.failure.empty());
    executions += c.executions;
  }
  CHECK(executions > 300);
}
