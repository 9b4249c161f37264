// The elementary-function DAG fuzzer: a random expression DAG of the DAG
// fuzzer (tests/fuzz: + − × ÷, neg, abs, convert over every leaf kind) feeds
// an elementary function (exp, expm1, log, log1p, tanh, sigmoid, erf, pow)
// under a random accuracy model (correctly rounded, the glibc table, k ulps),
// in every float format — formats without subnormals and of 2 and 5 bits
// among them — every rounding mode and a random caller environment
// (directed rounding, FTZ, DAZ). Each result is checked against exact
// executions of the DAG (GMP rationals, MPFR emulation of the format) and of
// the function (MPFR at 256 bits, Ziv retries to 4096 bits:
// elementary_oracle.hpp), the implementation's result taken at the extremes
// the model allows, or — under the glibc model — the installed glibc's own
// value (the float function rounded into the narrow formats); and it must be
// identical under the caller's environment and the clean one.
#pragma once

#include <cfenv>
#include <cmath>
#include <functional>
#include <sstream>
#include <string>

#include "elementary/elementary_oracle.hpp"
#include "fuzz/dag_fuzzer.hpp"

namespace symerr::test::efuzz {

using fuzz::Dag;
using fuzz::DagGenerator;

inline constexpr FloatFormat kP5NoSub{"P5_NOSUB", 5, -10, 10, false};
inline constexpr FloatFormat kP2NoSub{"P2_NOSUB", 2, -6, 7, false};
inline constexpr FloatFormat kP2{"P2", 2, -6, 7, true};

inline const FloatFormat* const kFormats[] = {&FP16, &BF16, &FP32, &FP64, &fuzz::kFP16NoSub, &kP5NoSub, &kP2NoSub, &kP2};
inline constexpr double kExponents[] = {2, 3, -1, -2, 0.5, 1.5, -0.5, 7, 100};

struct Report {
  long dags = 0, executions = 0, checks = 0, glibc_checks = 0, env_compared = 0, skipped = 0, undecided = 0;
  long failures = 0;
  std::string first_failure;
};

template <RealDomain D>
using Mutator = std::function<void(SymbolicDomainError<D>&)>;

inline int fe_mode(RoundingMode m) {
  switch (m) {
    case RoundingMode::TowardZero: return FE_TOWARDZERO;
    case RoundingMode::Upward: return FE_UPWARD;
    case RoundingMode::Downward: return FE_DOWNWARD;
    default: return FE_TONEAREST;
  }
}

// The installed glibc's f at t in `mode`: the double function in FP64, else
// the float function rounded into F (the exact model's rounding, not
// symerr's). nullopt: no libm function (sigmoid) or t is not a float.
inline std::optional<double> glibc_result(Fn f, double t, double c, const FloatFormat& F, RoundingMode mode) {
  const bool fp64 = F == FP64;
  if (f == Fn::Sigmoid || f == Fn::Sqrt || f == Fn::Abs) return std::nullopt;
  if (!fp64 && static_cast<double>(static_cast<float>(t)) != t) return std::nullopt;
  double (*volatile d)(double) = nullptr;
  float (*volatile s)(float) = nullptr;
  switch (f) {
    case Fn::Exp: d = ::exp; s = ::expf; break;
    case Fn::Expm1: d = ::expm1; s = ::expm1f; break;
    case Fn::Log: d = ::log; s = ::logf; break;
    case Fn::Log1p: d = ::log1p; s = ::log1pf; break;
    case Fn::Tanh: d = ::tanh; s = ::tanhf; break;
    case Fn::Erf: d = ::erf; s = ::erff; break;
    default: break;
  }
  double (*volatile dp)(double, double) = ::pow;
  float (*volatile sp)(float, float) = ::powf;
  const int saved = std::fegetround();
  std::fesetround(fe_mode(mode));
  double y;
  if (fp64) y = f == Fn::Pow ? dp(t, c) : d(t);
  else y = f == Fn::Pow ? sp(static_cast<float>(t), static_cast<float>(c)) : s(static_cast<float>(t));
  std::fesetround(saved);
  if (fp64 || F == FP32 || !std::isfinite(y)) return y;
  const fuzz::Computed r = fuzz::round_exact(exact_value(y), std::signbit(y), F, mode);
  if (r.kind == fuzz::Kind::PosInf) return INFINITY;
  if (r.kind == fuzz::Kind::NegInf) return -INFINITY;
  if (r.kind == fuzz::Kind::NaN) return NAN;
  const double v = r.v.get_d();
  return v == 0 && r.neg_zero ? -0.0 : v;
}

inline AccuracyModel random_model(DagGenerator& g, Fn f, int& which) {
  which = g.pick(0, 3);
  if (which == 1 && f == Fn::Sigmoid) which = 0;
  switch (which) {
    case 0: return AccuracyModel::correctly_rounded();
    case 1: return AccuracyModel::glibc_x86_64();
    case 2: {
      static const double ks[] = {0.5, 1, 2, 3.5, 8};
      return AccuracyModel::ulps(ks[g.pick(0, 4)]);
    }
    default: return AccuracyModel::ulps(1000);
  }
}

template <RealDomain D>
std::string describe_case(const Dag& d, int node, Fn f, double c, const AccuracyModel& m,
                          const SymbolicDomainError<D>& x, const SymbolicDomainError<D>& z) {
  std::ostringstream o;
  o << fn_name(f);
  if (f == Fn::Pow) o << "(., " << c << ")";
  o << " of n" << node << " under " << m.name() << ", mode " << to_string(d.mode) << ", caller env "
    << fuzz::env_name(d.env) << "\nDAG:\n";
  for (int i : fuzz::cone(d, node)) o << fuzz::describe(d.nodes[static_cast<size_t>(i)], i) << "\n";
  o << "operand  " << x << " propagated " << x.propagated << " introduced " << x.introduced << "\nresult   " << z
    << " propagated " << z.propagated << " introduced " << z.introduced << "\n";
  return o.str();
}

// One DAG and one elementary function over its last float node.
template <RealDomain D>
void fuzz_one(DagGenerator& g, const FloatFormat& F, RoundingMode mode, int samples, Report& rep,
              const Mutator<D>& mutate) {
  const Format other = *kFormats[static_cast<size_t>(g.pick(0, 7))];
  const Dag d = g.dag(F, other, mode);
  int node = -1;
  for (int i = static_cast<int>(d.nodes.size()) - 1; i >= 0 && node < 0; --i)
    if (std::holds_alternative<FloatFormat>(d.nodes[static_cast<size_t>(i)].format)) node = i;
  if (node < 0) { ++rep.skipped; return; }
  const Fn f = kAllFns[g.pick(0, 7)];
  const double c = kExponents[g.pick(0, 8)];
  int which = 0;
  const AccuracyModel m = random_model(g, f, which);
  const FloatFormat& G = std::get<FloatFormat>(d.nodes[static_cast<size_t>(node)].format);
  SymbolicDomainError<D> x, z;
  auto run = [&](SymbolicDomainError<D>& xo, SymbolicDomainError<D>& zo) {
    const auto v = fuzz::evaluate<D>(d, {});
    xo = v[static_cast<size_t>(node)];
    zo = apply(f, xo, c, m);
    if (mutate) mutate(zo);
  };
  try {
    {
      const fuzz::CallerEnvScope env(d.env);
      run(x, z);
    }
    if (d.env != fuzz::CallerEnv::Default) {
      // the clean run: in a fresh context of its own for Affine (whose
      // results depend on the context's history), compared by fingerprint
      std::string clean;
      auto clean_run = [&] {
        SymbolicDomainError<D> x2, z2;
        run(x2, z2);
        clean = fuzz::fingerprint(z2);
      };
      if constexpr (std::is_same_v<D, Affine>) {
        AffineContext fresh;
        AffineScope scope(fresh);
        clean_run();
      } else {
        clean_run();
      }
      ++rep.env_compared;
      if (fuzz::fingerprint(z) != clean) {
        if (rep.failures++ == 0)
          rep.first_failure = "FAILURE: result differs from the clean environment's: " + fuzz::fingerprint(z) +
                              " vs " + clean + "\n" + describe_case(d, node, f, c, m, x, z);
        return;
      }
    }
  } catch (const std::invalid_argument&) {  // a leaf without a value of the format
    ++rep.skipped;
    return;
  }
  ++rep.dags;
  const UlpBound b = G.precision <= 53 ? m.bound(library_fn(f), G, mode) : UlpBound{true, 0.5, ""};
  for (int s = 0; s < samples; ++s) {
    const auto e = fuzz::execute(g, d);
    if (!e) continue;
    const fuzz::Exec& ex = (*e)[static_cast<size_t>(node)];
    ++rep.executions;
    if (ex.f.kind == fuzz::Kind::NaN) {
      if (!z.specials.may_be_nan && rep.failures++ == 0)
        rep.first_failure = "FAILURE: NaN operand, NaN result not flagged\n" + describe_case(d, node, f, c, m, x, z);
      continue;
    }
    if (!ex.real_defined || !ex.computed_defined) continue;
    double t = ex.f.kind == fuzz::Kind::PosInf ? INFINITY : ex.f.kind == fuzz::Kind::NegInf ? -INFINITY : ex.f.v.get_d();
    if (t == 0 && ex.f.neg_zero) t = -0.0;
    UnaryExecution u{ex.r, t};
    if (ex.pr_defined && std::isfinite(t)) u.pr = ex.pr;
    const int pick = which == 1 && g.chance(0.5) ? 3 : g.pick(0, 2);
    if (pick == 3) {
      u.machine = glibc_result(f, t, c, G, mode);
      if (!u.machine) continue;
      ++rep.glibc_checks;
    }
    ++rep.checks;
    const std::string what = check_unary(f, c, z, u, G, b, mode, pick == 3 ? 0 : pick);
    if (what == kUndecided) { ++rep.undecided; continue; }
    if (!what.empty()) {
      if (rep.failures++ == 0) {
        std::ostringstream o;
        o << "FAILURE: " << what << "\nexecution: r = " << ex.r.get_d() << ", pr = " << ex.pr.get_d() << ", t = "
          << std::hexfloat << t;
        if (u.machine) o << ", glibc's y = " << *u.machine;
        o << std::defaultfloat << ", pick " << pick << "\n" << describe_case(d, node, f, c, m, x, z);
        rep.first_failure = o.str();
      }
      return;
    }
  }
}

// `dags` DAGs over every format × mode (round robin), `samples` executions each.
template <RealDomain D>
Report run_fuzzer(std::uint64_t seed, long dags, int samples, const Mutator<D>& mutate = {}) {
  DagGenerator g(seed);
  Report rep;
  const RoundingMode modes[] = {RoundingMode::NearestEven, RoundingMode::TowardZero, RoundingMode::Upward,
                                RoundingMode::Downward};
  constexpr size_t nf = std::size(kFormats);
  for (long i = 0; i < dags && rep.failures == 0; ++i) {
    const FloatFormat& F = *kFormats[static_cast<size_t>(i) % nf];
    const RoundingMode mode = modes[(static_cast<size_t>(i) / nf) % 4];
    if constexpr (std::is_same_v<D, Affine>) {
      AffineContext ctx;
      AffineScope scope(ctx);
      fuzz_one<D>(g, F, mode, samples, rep, mutate);
    } else {
      fuzz_one<D>(g, F, mode, samples, rep, mutate);
    }
  }
  return rep;
}

}  // namespace symerr::test::efuzz
