// Soundness of the elementary functions on SymbolicDomainError: per function
// × format (FP16, BF16, FP32, FP64) × domain (Interval, MpfrInterval,
// RationalInterval, Affine), random symbolic inputs (with and without input error,
// near the overflow / underflow thresholds, near 0 and the poles, subnormals,
// the saturation regions) and random concrete executions inside each, checked
// exactly (MPFR at 256 bits, both directions) under the declared accuracy
// model — correctly rounded, the glibc table, or k ulps, the implementation's
// result taken at the extremes the model allows.
#include <catch2/catch.hpp>

#include <chrono>

#include <symerr/domains/affine.hpp>
#include <symerr/domains/interval.hpp>
#include <symerr/domains/mpfr_interval.hpp>
#include <symerr/domains/rational_interval.hpp>
#include <symerr/elementary.hpp>
#include <symerr/domains/symbolic_instances.hpp>  // the library's instantiations (compile time)

#include "elementary/elementary_oracle.hpp"

using namespace symerr;
using namespace symerr::test;

namespace {

const FloatFormat kFormats[] = {FP16, BF16, FP32, FP64};
constexpr double kPowExponents[] = {2, 3, -1, -2, 0.5, 1.5, -0.5, 2.5, 7, 0};

// Points where f changes regime in format F (thresholds of overflow,
// underflow, saturation; poles; 0 and 1).
std::vector<double> regime_points(Fn f, const FloatFormat& F) {
  const double lmax = std::log(F.max_finite()), lmin = std::log(F.min_normal()),
               lsub = std::log(F.min_subnormal());
  const double sat = 0.5 * F.precision * std::log(2.0);  // tanh(x) rounds to 1 beyond ~ this
  switch (f) {
    case Fn::Exp:
    case Fn::Expm1: return {lmax, lmin, lsub, 0, 1, -1, -sat, sat};
    case Fn::Log: return {0, F.min_subnormal(), F.min_normal(), 1, F.max_finite(), 2};
    case Fn::Log1p: return {-1, 0, 1, F.min_normal(), F.max_finite()};
    case Fn::Tanh:
    case Fn::Erf: return {0, sat, -sat, 1, 2 * sat, F.min_normal()};
    case Fn::Sigmoid: return {0, 2 * sat, -2 * sat, lsub, -lmax, 1};
    case Fn::Pow: return {0, 1, 2, -2, F.min_normal(), std::sqrt(F.max_finite()), std::cbrt(F.max_finite())};
    case Fn::Sqrt: return {0, F.min_subnormal(), 1, F.max_finite()};
    case Fn::Abs: return {0, -1, 1};
  }
  return {0};
}

Box regime_box(Generator& g, Fn f, const FloatFormat& F) {
  const auto pts = regime_points(f, F);
  const double c = pts[static_cast<std::size_t>(g.pick(0, static_cast<int>(pts.size()) - 1))];
  const double scale = std::max(std::fabs(c), F.min_normal());
  double w;
  switch (g.pick(0, 3)) {
    case 0: w = 0; break;
    case 1: w = scale * std::ldexp(1.0, -g.pick(2, F.precision + 2)); break;
    case 2: w = ulp(scale, F) * g.pick(1, 40); break;
    default: w = scale * g.unit(); break;
  }
  double lo = c - w * g.unit(), hi = c + w * g.unit();
  lo = std::max(lo, -F.max_finite()); hi = std::min(hi, F.max_finite());
  lo = round_to(lo, F, RoundingMode::Upward).value;
  hi = round_to(hi, F, RoundingMode::Downward).value;
  if (lo > hi) lo = hi = round_to(c, F, RoundingMode::NearestEven).value;
  const double m = std::max({std::fabs(lo), std::fabs(hi), F.min_subnormal()});
  double e = 0;
  switch (g.pick(0, 3)) {
    case 0: e = 0; break;
    case 1: e = ulp(m, F) * g.pick(1, 4) / 2; break;
    case 2: e = m * std::ldexp(1.0, -g.pick(4, 30)); break;
    default: e = m * g.unit() * 0.6; break;
  }
  double elo = -e * g.unit(), ehi = e * g.unit();
  if (g.pick(0, 3) == 0) elo = 0;
  return {lo, hi, elo, ehi};
}

AccuracyModel model_for(int k, Fn f) {
  switch (k % 3) {
    case 0: return AccuracyModel::correctly_rounded();
    case 1: return f == Fn::Sigmoid ? AccuracyModel::ulps(4) : AccuracyModel::glibc_x86_64();
    default: return AccuracyModel::ulps(3);
  }
}

struct CellCounts {
  long executions = 0, special = 0, undecided = 0;
};

// until_judged: go on with more boxes (up to 4× as many) until
// executions_per_cell executions are judged, not only attempted.
template <class D>
CellCounts soundness_cell(Fn f, const FloatFormat& F, std::uint64_t seed, long executions_per_cell,
                          bool until_judged = false) {
  Generator g(seed);
  CellCounts n;
  const long boxes = std::max(1L, executions_per_cell / 50);
  for (long k = 0; until_judged ? (n.executions < executions_per_cell && k < 4 * boxes) : k < boxes; ++k) {
    const Box bx = g.pick(0, 2) == 0 ? g.box(F) : regime_box(g, f, F);
    const double c = kPowExponents[g.pick(0, 9)];
    const AccuracyModel model = model_for(static_cast<int>(k), f);
    const UlpBound bound = (f == Fn::Abs || f == Fn::Sqrt) ? UlpBound{true, 0.5, ""}
                                                            : model.bound(library_fn(f), F, RoundingMode::NearestEven);
    [[maybe_unused]] DomainScope<D> scope;
    SymbolicDomainError<D> x;
    try {
      x = SymbolicDomainError<D>::input(bx.lo, bx.hi, bx.elo, bx.ehi, F);
    } catch (const std::invalid_argument&) {
      continue;
    }
    SymbolicDomainError<D> z;
    try {
      z = apply(f, x, c, model);
    } catch (const std::exception& e) {
      FAIL(fn_name(f) << " " << F.name << " c = " << c << " threw " << e.what() << "\nbox " << describe(bx));
    }
    for (int i = 0; i < 50; ++i) {
      const auto ex = g.execution(bx, x.fp.lower(), x.fp.upper(), F, x.specials.may_be_neg_zero);
      if (!ex) continue;
      const int pick = g.pick(0, 2);
      bool special = false;
      const std::string failure = check_unary(f, c, z, UnaryExecution{ex->r, ex->f}, F, bound,
                                              RoundingMode::NearestEven, pick, &special);
      if (failure == kUndecided) {
        ++n.undecided;
        continue;
      }
      if (!failure.empty()) {
        FAIL(fn_name(f) << (f == Fn::Pow ? "(c=" + std::to_string(c) + ")" : std::string()) << " "
                        << F.name << " model " << model.name() << ": " << failure << "\nbox "
                        << describe(bx) << "\nx = " << x << "\nz = " << z << "\n  propagated "
                        << z.propagated << " introduced " << z.introduced << "\nexecution r="
                        << ex->r.get_str() << " t=" << hex(ex->f) << " pick " << pick);
      }
      n.special += special;
      ++n.executions;
    }
  }
  return n;
}

template <class D>
void soundness_campaign(std::uint64_t seed, long per_cell) {
  for (const FloatFormat& F : kFormats) {
    for (Fn f : kAllFns) {
      const CellCounts n = soundness_cell<D>(f, F, seed ^ (std::hash<std::string_view>{}(F.name) * 31 +
                                                           static_cast<unsigned>(f)), per_cell);
      INFO(fn_name(f) << " " << F.name << ": " << n.executions << " executions");
      // most of a cell is judged; a scaled-down run (sanitizers) has too few
      // boxes for the proportion to be stable, so it only requires some
      CHECK(n.executions >= (per_cell >= 4000 ? per_cell * 6 / 10 : 1));
      if (per_cell >= 100000)
        WARN(fn_name(f) << " " << F.name << ": " << n.executions << " executions, " << n.special
                        << " with a special or zero result, " << n.undecided << " undecided by the oracle");
    }
  }
}

}  // namespace

TEMPLATE_TEST_CASE("elementary functions are sound (random boxes, MPFR oracle, declared model)",
                   "[elementary][soundness]", Interval, MpfrInterval, RationalInterval, Affine) {
  soundness_campaign<TestType>(2026, static_cast<long>(4000 * test_scale()));
}

TEMPLATE_TEST_CASE("elementary soundness, long run (10^5 executions per cell)",
                   "[.][elementary][soundness][long]", Interval, MpfrInterval, RationalInterval, Affine) {
  soundness_campaign<TestType>(77, 100000);
}

// The four cells of the [long] run that did not finish before (FP64 erf, pow,
// sqrt, abs: erf's oracle needed MPFR's erf at 4096 bits far out, now
// erfc_difference), each until 10^5 executions are judged.
TEMPLATE_TEST_CASE("elementary soundness, long run: FP64 erf, pow, sqrt, abs (10^5 judged executions each)",
                   "[.][elementary][soundness][long][fp64tail]", Interval, MpfrInterval, RationalInterval, Affine) {
  for (Fn f : {Fn::Erf, Fn::Pow, Fn::Sqrt, Fn::Abs}) {
    const auto t0 = std::chrono::steady_clock::now();
    const CellCounts n = soundness_cell<TestType>(f, FP64, 77 ^ (std::hash<std::string_view>{}("FP64") * 31 +
                                                                  static_cast<unsigned>(f)), 100000, true);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    INFO(fn_name(f) << " FP64");
    CHECK(n.executions >= 100000);
    WARN(fn_name(f) << " FP64: " << n.executions << " judged executions, " << n.special
                    << " with a special or zero result, " << n.undecided << " undecided by the oracle, " << s
                    << " s");
  }
}
