// The elementary-function DAG fuzzer: random DAGs (the DAG fuzzer's leaves,
// plus literals beyond the format's range, so that operands overflow to
// ±inf; + − × ÷ between them) with elementary nodes — exp, tanh, sigmoid, erf,
// pow(x, c) for c in {−2, −1, ½, 2, 3} — each under one of two accuracy
// models drawn per DAG (correctly rounded, ulps(1), ulps(3), ulps(1000); the
// same or two different ones, on the same operands: in Affine one context per
// DAG, so the memo sees both). Checked node by node against exact executions
// (exact_model.hpp): f(r) and f(pr) by MPFR at 256 bits, and the computed
// impl(t) an implementation the node's model allows — the correctly rounded
// value of F (MPFR, emulated format), or under ulps(k) a value of F up to j
// ulps from f(t) (j ≤ k an integer drawn per execution and model: one
// implementation per model, one value per input), and at t = ±inf the IEEE
// 754 / C Annex F value f(±inf). Formats with infinities and subnormals
// (FP16, BF16, FP32, FP64, FP8 E5M2), round-to-nearest and directed modes,
// the library's floating-point environment.
#pragma once

#include <mpfr.h>

#include <symerr/elementary.hpp>

#include "fuzz/dag_fuzzer.hpp"

namespace symerr::fuzz::elem {

enum class Fn { Exp, Tanh, Sigmoid, Erf, Pow };

inline const char* fn_name(Fn f) {
  static const char* n[] = {"exp", "tanh", "sigmoid", "erf", "pow"};
  return n[static_cast<int>(f)];
}

struct ENode {
  bool elementary = false;
  Node base;          // a leaf or an arithmetic node of the DAG fuzzer (when !elementary)
  Fn fn = Fn::Exp;
  double c = 0;       // pow's exponent
  int model = 0;      // index into the DAG's two models
  int a = -1;
  Format format;
};

struct EDag {
  std::vector<ENode> nodes;
  RoundingMode mode = RoundingMode::NearestEven;
  double ulps[2] = {0, 0};  // the two models: 0 correctly rounded, else ulps(k)
};

inline AccuracyModel model_of(double k) { return k == 0 ? AccuracyModel::correctly_rounded() : AccuracyModel::ulps(k); }

inline std::vector<FloatFormat> elem_formats() { return {FP16, BF16, FP32, FP64, FP8_E5M2}; }

class EGenerator {
 public:
  explicit EGenerator(std::uint64_t seed) : g_(seed) {}
  DagGenerator& base() { return g_; }

  EDag dag(const FloatFormat& F, RoundingMode mode) {
    EDag d;
    d.mode = mode;
    const double ks[] = {0, 1, 3, 1000};
    d.ulps[0] = ks[g_.pick(0, 3)];
    d.ulps[1] = g_.chance(0.3) ? d.ulps[0] : ks[g_.pick(0, 3)];
    const int leaves = g_.pick(1, 2), total = leaves + g_.pick(1, 5);
    for (int i = 0; i < leaves; ++i) {
      ENode n;
      n.format = F;
      if (g_.chance(0.3)) {  // a literal beyond max (or just below): may overflow to ±inf
        n.base.kind = LeafKind::Literal;
        n.base.format = F;
        n.base.q = max_finite_q(F) * mpq_class(g_.pick(900, 1200), 1000) * (g_.chance(0.5) ? 1 : -1);
        n.base.q.canonicalize();
      } else {
        n.base = g_.leaf(F, mode, true);
      }
      d.nodes.push_back(n);
    }
    bool any_elementary = false;
    for (int i = leaves; i < total; ++i) {
      const int n = static_cast<int>(d.nodes.size());
      ENode z;
      z.format = F;
      const int pick_a = g_.chance(0.6) ? n - 1 : g_.pick(0, n - 1);
      if (g_.chance(0.65) || (i == total - 1 && !any_elementary)) {
        any_elementary = true;
        z.elementary = true;
        z.fn = static_cast<Fn>(g_.pick(0, 4));
        const double cs[] = {-2, -1, 0.5, 2, 3};
        z.c = cs[g_.pick(0, 4)];
        z.model = g_.pick(0, 1);
        // often the same operand as an earlier elementary node (the memo's case)
        z.a = pick_a;
        for (int j = n - 1; j >= 0; --j)
          if (d.nodes[j].elementary && g_.chance(0.5)) { z.a = d.nodes[j].a; z.fn = d.nodes[j].fn; z.c = d.nodes[j].c; break; }
      } else {
        z.base.op = static_cast<NodeOp>(static_cast<int>(NodeOp::Add) + g_.pick(0, 3));
        z.base.a = pick_a;
        z.base.b = g_.pick(0, n - 1);
        z.base.format = F;
      }
      d.nodes.push_back(z);
    }
    return d;
  }

 private:
  DagGenerator g_;
};

// ---- symbolic evaluation ----------------------------------------------------

template <RealDomain D>
using Mutator = std::function<void(SymbolicDomainError<D>&)>;

template <RealDomain D>
SymbolicDomainError<D> apply_fn(const ENode& n, const SymbolicDomainError<D>& x, const AccuracyModel& m) {
  switch (n.fn) {
    case Fn::Exp: return exp(x, m);
    case Fn::Tanh: return tanh(x, m);
    case Fn::Sigmoid: return sigmoid(x, m);
    case Fn::Erf: return erf(x, m);
    default: return pow(x, n.c, m);
  }
}

template <RealDomain D>
std::vector<SymbolicDomainError<D>> evaluate(const EDag& d, const Mutator<D>& mutate) {
  std::vector<SymbolicDomainError<D>> v;
  const AccuracyModel models[2] = {model_of(d.ulps[0]), model_of(d.ulps[1])};
  for (const ENode& n : d.nodes) {
    if (n.elementary) {
      v.push_back(apply_fn(n, v[n.a], models[n.model]));
      if (mutate) mutate(v.back());
    } else if (n.base.op == NodeOp::Leaf) {
      v.push_back(make_leaf<D>(n.base, d.mode));
    } else {
      const ArithOp op = static_cast<ArithOp>(static_cast<int>(n.base.op) - static_cast<int>(NodeOp::Add));
      v.push_back(arithmetic(op, v[n.base.a], v[n.base.b]));
    }
  }
  return v;
}

// ---- exact executions -------------------------------------------------------

// f(x) rounded in direction rnd at y's precision (x = ±inf or NaN allowed:
// MPFR's IEEE special values; sigmoid = 1/(1 + e^−x) with each step rounded
// so that the result is a bound in direction rnd).
inline void mp_apply(const ENode& n, mpfr_t y, const mpfr_t x, mpfr_rnd_t rnd) {
  switch (n.fn) {
    case Fn::Exp: mpfr_exp(y, x, rnd); return;
    case Fn::Tanh: mpfr_tanh(y, x, rnd); return;
    case Fn::Erf: mpfr_erf(y, x, rnd); return;
    case Fn::Sigmoid: {
      const mpfr_rnd_t inner = rnd == MPFR_RNDD ? MPFR_RNDU : rnd == MPFR_RNDU ? MPFR_RNDD : MPFR_RNDN;
      mpfr_t t;
      mpfr_init2(t, mpfr_get_prec(y) + 32);
      mpfr_neg(t, x, MPFR_RNDN);
      mpfr_exp(t, t, inner);
      mpfr_add_ui(t, t, 1, inner);
      mpfr_ui_div(y, 1, t, rnd);
      mpfr_clear(t);
      return;
    }
    case Fn::Pow: {  // C Annex F's pow, MPFR's special values (pow(−0, −1) = −inf, pow(−inf, ½) = +inf)
      mpfr_t c;
      mpfr_init2(c, 64);
      mpfr_set_d(c, n.c, MPFR_RNDN);
      mpfr_pow(y, x, c, rnd);
      mpfr_clear(c);
      return;
    }
  }
}

// Working precision for an argument of magnitude 2^e: 320 bits beyond its
// own scale (sigmoid(2^-1000) = ½ + 2^-1002 needs 1000 bits to leave ½).
inline mpfr_prec_t work_precision(long e) { return 320 + std::min<long>(std::labs(e), 40000); }

inline long exponent_of(const mpq_class& q) {
  if (sgn(q) == 0) return 0;
  return static_cast<long>(mpz_sizeinbase(q.get_num_mpz_t(), 2)) - static_cast<long>(mpz_sizeinbase(q.get_den_mpz_t(), 2));
}

// The exact real f(r) (defined: false where f is undefined at r: a pole, a
// negative base), to the working precision; nullopt where MPFR cannot
// represent it (exp(10^300): beyond its exponent range) — that execution is
// not checked.
struct RealValue {
  bool defined = false;
  mpq_class v;
};
inline std::optional<RealValue> real_value(const ENode& n, const mpq_class& r) {
  if (n.fn == Fn::Pow && ((n.c < 0 && sgn(r) == 0) || (n.c == 0.5 && sgn(r) < 0))) return RealValue{};
  const mpfr_prec_t P = work_precision(exponent_of(r));
  mpfr_t x, y;
  mpfr_inits2(P, x, y, static_cast<mpfr_ptr>(nullptr));
  mpfr_set_q(x, r.get_mpq_t(), MPFR_RNDN);
  mpfr_clear_flags();
  mp_apply(n, y, x, MPFR_RNDN);
  std::optional<RealValue> v = RealValue{true, 0};
  if (mpfr_overflow_p() || mpfr_underflow_p() || !mpfr_number_p(y)) v.reset();
  else mpfr_get_q(v->v.get_mpq_t(), y);
  mpfr_clears(x, y, static_cast<mpfr_ptr>(nullptr));
  return v;
}

// Whether MPFR rounds f correctly (sigmoid is composed of three roundings).
inline bool correctly_rounded(Fn f) { return f != Fn::Sigmoid; }

// Whether hi is lo or the next number above it at their precision. The
// directed roundings of a correctly rounded f(t) are then f(t) (equal) or
// enclose it strictly; a rounding boundary of F (a value of F, a midpoint
// between two, the overflow threshold: at most 54 significant bits) is a
// number of that precision (>= 320 bits), so none lies strictly between
// them, and every value in between rounds in F as f(t) does. This decides at
// the first precision where the ends' roundings differ only because an end
// is a boundary: erf(200) rounded up is 1, and the Ziv loop below would
// otherwise raise the precision to 84 000 bits before 1 − erf(200) shows.
inline bool adjacent_or_equal(const mpfr_t lo, const mpfr_t hi) {
  if (!mpfr_regular_p(lo) || !mpfr_regular_p(hi)) return false;
  if (mpfr_equal_p(lo, hi)) return true;
  mpfr_t n;
  mpfr_init2(n, mpfr_get_prec(lo));
  mpfr_set(n, lo, MPFR_RNDN);
  mpfr_nextabove(n);
  const bool r = mpfr_equal_p(n, hi);
  mpfr_clear(n);
  return r;
}

// impl(t) in F under the model (k = 0: correctly rounded in mode m; else
// ulps(k), the drawn implementation j ulps from f(t)). f(t) is enclosed by
// MPFR's directed roundings at a growing precision until the answer is
// decided (Ziv). nullopt when the drawn value is not one the check can use
// (beyond max, a clamp, the other sign than f(t): the models' open corners)
// or MPFR cannot decide.
inline std::optional<Computed> implementation(const ENode& n, const Computed& t, const FloatFormat& F, RoundingMode m,
                                              double k, int j) {
  for (mpfr_prec_t P = work_precision(t.kind == Kind::Finite ? exponent_of(t.v) : 0); P <= 200000; P *= 4) {
    mpfr_t x, lo, hi;
    mpfr_inits2(P, x, lo, hi, static_cast<mpfr_ptr>(nullptr));
    switch (t.kind) {
      case Kind::NaN: mpfr_set_nan(x); break;
      case Kind::PosInf: mpfr_set_inf(x, 1); break;
      case Kind::NegInf: mpfr_set_inf(x, -1); break;
      default:
        mpfr_set_q(x, t.v.get_mpq_t(), MPFR_RNDN);  // exact: a value of F
        if (sgn(t.v) == 0 && t.neg_zero) mpfr_neg(x, x, MPFR_RNDN);
    }
    mp_apply(n, lo, x, MPFR_RNDD);
    mp_apply(n, hi, x, MPFR_RNDU);
    const bool adjacent = correctly_rounded(n.fn) && adjacent_or_equal(lo, hi);
    std::optional<Computed> r;
    bool decided = true;
    if (mpfr_nan_p(lo)) {
      r = Computed{Kind::NaN, 0, false};
    } else if (mpfr_inf_p(lo) && mpfr_inf_p(hi)) {
      r = infinite_result(mpfr_signbit(lo) != 0, F);
    } else if (mpfr_zero_p(lo) && mpfr_zero_p(hi)) {
      r = finite_value(0, mpfr_signbit(lo) != 0);
    } else if (!mpfr_number_p(lo) || !mpfr_number_p(hi)) {
      decided = false;  // an overflow at this precision's exponent range
    } else {
      mpq_class ql, qh;
      mpfr_get_q(ql.get_mpq_t(), lo);
      mpfr_get_q(qh.get_mpq_t(), hi);
      const bool neg = sgn(ql) < 0 || (sgn(ql) == 0 && sgn(qh) < 0);
      if (k == 0 || j == 0 || t.kind != Kind::Finite) {
        // adjacent ends: f(t) is one of them or strictly between, and no
        // rounding boundary of F is strictly between: the midpoint rounds as f(t)
        const Computed a = round_exact(adjacent ? mpq_class((ql + qh) / 2) : ql, neg, F, m);
        const Computed b = adjacent ? a : round_exact(qh, neg, F, m);
        decided = a.kind == b.kind && a.v == b.v && a.neg_zero == b.neg_zero && sgn(ql) == sgn(qh);
        if (decided) r = a;
      } else if (sgn(ql) != sgn(qh) || sgn(ql) == 0 || mpfr_get_exp(lo) != mpfr_get_exp(hi)) {
        decided = sgn(ql) == sgn(qh) && sgn(ql) != 0;  // at a binade's edge: this draw is not used
      } else {
        // f(t) + j·ulp(f(t)) rounded toward f(t): |impl − f(t)| <= |j| ulp(f(t))
        // |f(t)| in [2^e, 2^(e+1)); beyond max the ulp is max's (the model's reading, accuracy-models.md)
        const long e = std::min<long>(std::max<long>(mpfr_get_exp(lo) - 1, F.emin), F.emax);
        const mpq_class allowed = mpq_class(std::abs(j)) * pow2q(e - F.precision + 1);
        const Computed c = j > 0 ? round_exact(mpq_class(ql + allowed), neg, F, RoundingMode::Downward)
                                 : round_exact(mpq_class(qh - allowed), neg, F, RoundingMode::Upward);
        // (a clamp to max under a directed mode is no implementation within j ulps)
        if (c.kind == Kind::Finite && sgn(c.v) == sgn(ql) && abs(c.v - ql) <= allowed && abs(c.v - qh) <= allowed)
          r = c;
      }
    }
    mpfr_clears(x, lo, hi, static_cast<mpfr_ptr>(nullptr));
    if (decided) return r;
  }
  return std::nullopt;
}

// j per model for one execution: 0 (the correctly rounded value), ±k or anything between.
inline int draw_j(DagGenerator& g, double k) {
  if (k == 0) return 0;
  const int K = static_cast<int>(k);
  const int w = g.pick(0, 3);
  if (w == 0) return 0;
  if (w == 1) return K;
  if (w == 2) return -K;
  return g.pick(-K, K);
}

inline std::optional<std::vector<Exec>> execute(DagGenerator& g, const EDag& d) {
  std::vector<Exec> v;
  // one implementation per model: two nodes under equal models compute alike
  int js[2] = {draw_j(g, d.ulps[0]), draw_j(g, d.ulps[1])};
  if (d.ulps[1] == d.ulps[0]) js[1] = js[0];
  for (const ENode& n : d.nodes) {
    const FloatFormat& F = std::get<FloatFormat>(n.format);
    if (!n.elementary && n.base.op == NodeOp::Leaf) {
      std::optional<Exec> e;
      for (int attempt = 0; attempt < 4 && !e; ++attempt) e = sample_leaf(g, n.base, d.mode);
      if (!e) return std::nullopt;
      v.push_back(*e);
    } else if (!n.elementary) {
      const ArithOp op = static_cast<ArithOp>(static_cast<int>(n.base.op) - static_cast<int>(NodeOp::Add));
      v.push_back(binary(op, v[n.base.a], v[n.base.b], n.format, n.format, d.mode, IntegerDivision::Floor));
    } else {
      const Exec& x = v[n.a];
      Exec z;
      z.real_defined = x.real_defined;
      if (x.real_defined) {
        const auto r = real_value(n, x.r);
        if (!r) return std::nullopt;
        z.real_defined = r->defined;
        z.r = r->v;
      }
      z.pr_defined = x.pr_defined;
      if (x.pr_defined) {
        const auto p = real_value(n, x.pr);
        if (!p) return std::nullopt;
        z.pr_defined = p->defined;
        z.pr = p->v;
      }
      z.computed_defined = x.computed_defined;
      if (x.computed_defined) {
        const auto c = implementation(n, x.f, F, d.mode, d.ulps[n.model], js[n.model]);
        if (!c) return std::nullopt;
        z.f = *c;
      }
      v.push_back(z);
    }
  }
  return v;
}

inline std::string describe(const EDag& d, int i) {
  const ENode& n = d.nodes[i];
  if (!n.elementary) return fuzz::describe(n.base, i);
  std::ostringstream o;
  o << "  n" << i << " [" << format_name(n.format) << "] = " << fn_name(n.fn) << "(n" << n.a;
  if (n.fn == Fn::Pow) o << ", " << n.c;
  const double k = d.ulps[n.model];
  o << ") under " << (k == 0 ? std::string("correctly_rounded") : "ulps(" + std::to_string(static_cast<int>(k)) + ")");
  return o.str();
}

template <RealDomain D>
void fuzz_one(EGenerator& eg, const FloatFormat& F, RoundingMode mode, int samples, const std::string& domain,
              Report& rep, const Mutator<D>& mutate) {
  const EDag d = eg.dag(F, mode);
  std::vector<SymbolicDomainError<D>> sym;
  try {
    sym = evaluate<D>(d, mutate);
  } catch (const std::invalid_argument&) {
    ++rep.skipped;
    return;
  } catch (const std::exception& ex) {
    if (rep.failures++ == 0) {
      std::ostringstream o;
      o << "FAILURE: exception " << ex.what() << "\nDAG:\n";
      for (size_t i = 0; i < d.nodes.size(); ++i) o << describe(d, static_cast<int>(i)) << "\n";
      rep.first_failure = o.str();
    }
    return;
  }
  ++rep.dags;
  const std::string family = std::string(F.name) + " " + to_string(mode) + " " + domain;
  for (int s = 0; s < samples; ++s) {
    const auto e = execute(eg.base(), d);
    if (!e) continue;
    ++rep.executions;
    ++rep.per_family[family];
    for (size_t i = 0; i < sym.size(); ++i) {
      ++rep.node_checks;
      const std::string what = check(sym[i], (*e)[i]);
      if (what.empty()) continue;
      if (rep.failures++ == 0) {
        std::ostringstream o;
        o << "FAILURE at n" << i << ": " << what << "\nmode " << to_string(mode) << "\nDAG:\n";
        for (size_t j = 0; j <= i; ++j)
          o << describe(d, static_cast<int>(j)) << "\n      symbolic " << sym[j] << " propagated " << sym[j].propagated
            << " introduced " << sym[j].introduced << "\n      exact    " << str((*e)[j]) << "\n";
        rep.first_failure = o.str();
      }
      return;
    }
  }
}

template <RealDomain D>
Report run(std::uint64_t seed, long dags, int samples, const std::string& domain, const Mutator<D>& mutate = {},
           bool stop_at_first = true) {
  EGenerator eg(seed);
  Report rep;
  const auto formats = elem_formats();
  const RoundingMode modes[] = {RoundingMode::NearestEven, RoundingMode::TowardZero, RoundingMode::Upward,
                                RoundingMode::Downward};
  for (long i = 0; i < dags; ++i) {
    const FloatFormat& F = formats[static_cast<size_t>(i) % formats.size()];
    const RoundingMode m = modes[(static_cast<size_t>(i) / formats.size()) % 4];
    if constexpr (std::is_same_v<D, Affine>) {
      AffineContext ctx;  // one context per DAG: both models' results meet in its memo
      AffineScope scope(ctx);
      fuzz_one<D>(eg, F, m, samples, domain, rep, mutate);
    } else {
      fuzz_one<D>(eg, F, m, samples, domain, rep, mutate);
    }
    if (stop_at_first && rep.failures > 0) break;
  }
  return rep;
}

}  // namespace symerr::fuzz::elem
