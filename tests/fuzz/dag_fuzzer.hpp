// The DAG fuzzer: random expression DAGs (1–8 nodes, shared subexpressions
// such as x*x − x*x) over every leaf kind, format and rounding mode, evaluated
// symbolically by symerr (under a random caller floating-point environment)
// and checked node by node against exact concrete executions of the exact
// model (exact_model.hpp): real, fp, err, rel_err, propagated, introduced, the
// special flags and every comparison answered "certainly".
#pragma once

#include <symerr/domains/affine.hpp>
#include <cstdint>
#include <functional>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#if defined(__x86_64__) && defined(__SSE2_MATH__)
#include <xmmintrin.h>
#endif

#include "fuzz/exact_model.hpp"
#include "test_scale.hpp"

namespace symerr::fuzz {

inline constexpr FloatFormat kFP16NoSub{"FP16_NOSUB", 11, -14, 15, false};
inline constexpr FloatFormat kFP8NoSub{"FP8_E4M3_NOSUB", 4, -6, 8, false, Overflow::Saturate, 1};

inline std::vector<Format> fuzz_formats() {
  std::vector<Format> v = {FP16, BF16, FP32, FP64, FP8_E5M2, FP8_E4M3, FP8_E4M3_SAT, kFP16NoSub, kFP8NoSub};
  for (const auto& I : kIntFormats) v.emplace_back(I);
  return v;
}

enum class LeafKind { Input, Constant, Literal, Computed, Inf, NaN, Undef };
enum class NodeOp { Leaf, Add, Sub, Mul, Div, Neg, Abs, Convert };

struct Node {
  NodeOp op = NodeOp::Leaf;
  Format format;  // the node's (result) format
  // leaves
  LeafKind kind = LeafKind::Input;
  double lo = 0, hi = 0, elo = 0, ehi = 0;  // input box; computed: f = lo
  mpq_class q;                              // literal value
  int sign = 1;
  // operations
  int a = -1, b = -1;
  IntegerDivision idiv = IntegerDivision::Floor;
};

// The caller's floating-point environment the symbolic evaluation runs under.
enum class CallerEnv { Default, TowardZero, Downward, Upward, FtzDaz, UpwardFtzDaz };

inline const char* env_name(CallerEnv e) {
  switch (e) {
    case CallerEnv::Default: return "default";
    case CallerEnv::TowardZero: return "RTZ";
    case CallerEnv::Downward: return "RDN";
    case CallerEnv::Upward: return "RUP";
    case CallerEnv::FtzDaz: return "FTZ+DAZ";
    case CallerEnv::UpwardFtzDaz: return "RUP+FTZ+DAZ";
  }
  return "?";
}

// Sets the environment for its lifetime (x86-64 MXCSR; elsewhere only the
// rounding direction).
class CallerEnvScope {
 public:
  explicit CallerEnvScope(CallerEnv e) {
#if defined(__x86_64__) && defined(__SSE2_MATH__)
    saved_ = _mm_getcsr();
    unsigned rc = 0, ftz = 0;
    switch (e) {
      case CallerEnv::TowardZero: rc = 0x6000; break;
      case CallerEnv::Downward: rc = 0x2000; break;
      case CallerEnv::Upward: rc = 0x4000; break;
      case CallerEnv::FtzDaz: ftz = 0x8040; break;
      case CallerEnv::UpwardFtzDaz: rc = 0x4000; ftz = 0x8040; break;
      default: break;
    }
    _mm_setcsr((saved_ & ~0xE040u) | rc | ftz);
#else
    saved_ = std::fegetround();
    switch (e) {
      case CallerEnv::TowardZero: std::fesetround(FE_TOWARDZERO); break;
      case CallerEnv::Downward: std::fesetround(FE_DOWNWARD); break;
      case CallerEnv::Upward: case CallerEnv::UpwardFtzDaz: std::fesetround(FE_UPWARD); break;
      default: break;
    }
#endif
  }
  ~CallerEnvScope() {
#if defined(__x86_64__) && defined(__SSE2_MATH__)
    _mm_setcsr(saved_);
#else
    std::fesetround(saved_);
#endif
  }
  CallerEnvScope(const CallerEnvScope&) = delete;
  CallerEnvScope& operator=(const CallerEnvScope&) = delete;

 private:
  unsigned saved_;
};

struct Dag {
  std::vector<Node> nodes;
  RoundingMode mode = RoundingMode::NearestEven;
  CallerEnv env = CallerEnv::Default;
  std::vector<std::pair<int, int>> compared;  // node pairs whose comparisons are checked
};

inline std::string hexd(double x) {
  char b[64];
  std::snprintf(b, sizeof b, "%a", x);
  return b;
}

inline std::string describe(const Node& n, int i) {
  std::ostringstream o;
  o << "  n" << i << " [" << format_name(n.format) << "] = ";
  static const char* ops[] = {"leaf", "+", "-", "*", "/", "neg", "abs", "convert"};
  if (n.op == NodeOp::Leaf) {
    switch (n.kind) {
      case LeafKind::Input:
        o << "input(" << hexd(n.lo) << ", " << hexd(n.hi) << ", " << hexd(n.elo) << ", " << hexd(n.ehi) << ")";
        break;
      case LeafKind::Constant: o << "constant(" << hexd(n.lo) << ")"; break;
      case LeafKind::Literal: o << "literal(" << n.q.get_str() << ")"; break;
      case LeafKind::Computed: o << "computed(" << hexd(n.lo) << ", " << hexd(n.elo) << ", " << hexd(n.ehi) << ")"; break;
      case LeafKind::Inf: o << "inf(" << n.sign << ")"; break;
      case LeafKind::NaN: o << "nan()"; break;
      case LeafKind::Undef: o << "undef()"; break;
    }
  } else if (n.op == NodeOp::Neg || n.op == NodeOp::Abs || n.op == NodeOp::Convert) {
    o << ops[static_cast<int>(n.op)] << "(n" << n.a << ")";
  } else {
    o << "n" << n.a << " " << ops[static_cast<int>(n.op)] << " n" << n.b;
    if (n.op == NodeOp::Div && std::holds_alternative<IntFormat>(n.format))
      o << (n.idiv == IntegerDivision::Floor ? " (floor)" : " (trunc)");
  }
  return o.str();
}

// The nodes `target` and `also` depend on (their cones), in order.
inline std::vector<int> cone(const Dag& d, int target, int also = -1) {
  std::vector<bool> in(d.nodes.size(), false);
  in[target] = true;
  if (also >= 0) in[also] = true;
  target = std::max(target, also);
  for (int i = target; i >= 0; --i) {
    if (!in[i] || d.nodes[i].op == NodeOp::Leaf) continue;
    in[d.nodes[i].a] = true;
    if (d.nodes[i].b >= 0) in[d.nodes[i].b] = true;
  }
  std::vector<int> r;
  for (int i = 0; i <= target; ++i)
    if (in[i]) r.push_back(i);
  return r;
}

class DagGenerator {
 public:
  explicit DagGenerator(std::uint64_t seed) : rng_(seed) {}

  int pick(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  double unit() { return std::uniform_real_distribution<double>(0, 1)(rng_); }
  bool chance(double p) { return unit() < p; }

  // A random rational in [a, b] (endpoints favoured).
  mpq_class between(const mpq_class& a, const mpq_class& b) {
    const int k = pick(0, 7);
    if (k == 0 || a == b) return a;
    if (k == 1) return b;
    mpq_class r = a + (b - a) * mpq_class(pick(0, 1 << 20), 1 << 20);
    r.canonicalize();
    return r;
  }

  // A magnitude interesting for F: near 1, near the bottom of the normal
  // range or in the subnormals, near overflow, or anywhere.
  double magnitude(const FloatFormat& F) {
    int e = 0;
    switch (pick(0, 4)) {
      case 0: e = pick(-3, 3); break;
      case 1: e = pick(F.emin - F.precision, F.emin + 2); break;
      case 2: e = pick(F.emax - 2, F.emax); break;
      default: e = pick(F.emin - 2, F.emax); break;
    }
    return std::ldexp(1.0 + unit(), std::max(e, -1070));
  }

  // A value of F (rounded by the model, clamped to max finite).
  double value_of(const FloatFormat& F, double x) {
    if (!std::isfinite(x)) x = x < 0 ? -F.max_finite() : F.max_finite();
    Computed c = round_exact(exact_value(x), std::signbit(x), F, RoundingMode::NearestEven);
    if (c.kind != Kind::Finite) c = finite_value(x < 0 ? mpq_class(-max_finite_q(F)) : max_finite_q(F));
    const double v = c.v.get_d();
    return c.neg_zero ? -0.0 : v;
  }

  double signed_value(const FloatFormat& F) {
    const int k = pick(0, 12);
    if (k == 0) return 0.0;
    if (k == 1 && F.subnormals) return -0.0;
    const double m = magnitude(F);
    return value_of(F, chance(0.5) ? -m : m);
  }

  double int_value(const IntFormat& I) {
    const double min = detail::int_min(I), max = detail::int_max_up(I);
    switch (pick(0, 4)) {
      case 0: return static_cast<double>(pick(-9, 9) * (I.is_signed ? 1 : 0) + pick(0, 9));
      case 1: return min + pick(0, 3);
      case 2: return I.bits > 53 ? max - 2048.0 * pick(0, 2) : max - pick(0, 3);
      case 3: return std::floor(min + (max - min) * unit());
      default: return std::ldexp(1.0, pick(0, I.bits - 1)) * (I.is_signed && chance(0.5) ? -1 : 1);
    }
  }

  Node leaf(const Format& format, RoundingMode mode, bool allow_specials) {
    Node n;
    n.format = format;
    const FloatFormat* F = std::get_if<FloatFormat>(&format);
    const IntFormat* I = std::get_if<IntFormat>(&format);
    const int k = pick(0, 99);
    if (allow_specials && F && k < 9) {
      n.kind = k < 3 ? LeafKind::Inf : (k < 6 ? LeafKind::NaN : LeafKind::Undef);
      if (n.kind == LeafKind::Inf && !F->has_infinities()) n.kind = LeafKind::NaN;
      n.sign = chance(0.5) ? 1 : -1;
      return n;
    }
    (void)mode;
    if (k < 20) {
      n.kind = LeafKind::Constant;
      n.lo = F ? signed_value(*F) : I ? int_value(*I) : real_double();
      return n;
    }
    if (k < 35) {
      n.kind = LeafKind::Literal;
      n.q = literal_value(format);
      return n;
    }
    if (k < 45 && !std::holds_alternative<std::monostate>(format)) {
      n.kind = LeafKind::Computed;
      n.lo = F ? signed_value(*F) : int_value(*I);
      error_range(n, std::fabs(n.lo), format);
      return n;
    }
    n.kind = LeafKind::Input;
    input_box(n, format);
    return n;
  }

  double real_double() {
    const int k = pick(0, 4);
    if (k == 0) return pick(-4, 4) * 0.25;  // exactly representable small constants
    if (k == 1) return (chance(0.5) ? -1 : 1) * 0.1 * pick(1, 9);
    return (chance(0.5) ? -1 : 1) * std::ldexp(1.0 + unit(), pick(-30, 20));
  }

  mpq_class literal_value(const Format& format) {
    const int k = pick(0, 3);
    mpq_class q;
    if (k == 0) q = mpq_class(pick(-999, 999), pick(1, 1000));
    else if (k == 1) q = mpq_class(pick(-99, 99), 10);
    else if (const FloatFormat* F = std::get_if<FloatFormat>(&format))
      q = exact_value(magnitude(*F)) * mpq_class(pick(-3, 3) * 1000 + 1, 1000);
    else if (const IntFormat* I = std::get_if<IntFormat>(&format))
      q = exact_value(int_value(*I)) + mpq_class(pick(-4, 4), 2);
    else
      q = exact_value(real_double()) * mpq_class(1000001, 1000000);
    q.canonicalize();
    return q;
  }

  void error_range(Node& n, double scale, const Format& format) {
    double e = 0;
    if (const FloatFormat* F = std::get_if<FloatFormat>(&format)) {
      switch (pick(0, 3)) {
        case 0: e = 0; break;
        case 1: e = ulp(std::min(scale, F->max_finite()), *F) * pick(1, 4) / 2; break;
        case 2: e = std::max(scale, F->min_normal()) * std::ldexp(1.0, -pick(4, 30)); break;
        default: e = std::max(scale, F->min_normal()) * unit() * 0.6; break;
      }
    } else if (std::holds_alternative<IntFormat>(format)) {
      e = pick(0, 2) == 0 ? unit() * 2 : 0;
    } else {
      e = pick(0, 1) ? scale * std::ldexp(1.0, -pick(4, 40)) : 0;
    }
    n.elo = chance(0.3) ? 0 : -e * unit();
    n.ehi = chance(0.3) ? 0 : e * unit();
  }

  void input_box(Node& n, const Format& format) {
    if (const FloatFormat* F = std::get_if<FloatFormat>(&format)) {
      double a = signed_value(*F), b = a;
      switch (pick(0, 3)) {
        case 0: break;                                            // a point
        case 1: b = value_of(*F, a + ulp(std::min(std::fabs(a), F->max_finite()), *F) * pick(1, 8)); break;
        case 2: b = signed_value(*F); break;                      // anything
        default: b = value_of(*F, a * (1 + unit() * 0.5)); break;
      }
      n.lo = std::min(a, b);
      n.hi = std::max(a, b);
      if (n.lo == 0) n.lo = 0.0;  // the box itself: plain reals
      if (n.hi == 0) n.hi = 0.0;
      error_range(n, std::max(std::fabs(n.lo), std::fabs(n.hi)), format);
      return;
    }
    if (const IntFormat* I = std::get_if<IntFormat>(&format)) {
      double a = int_value(*I), b = chance(0.5) ? a : (chance(0.5) ? a + pick(0, 20) : int_value(*I));
      n.lo = std::min(a, b);
      n.hi = std::max(a, b);
      error_range(n, 0, format);
      return;
    }
    const double a = real_double(), b = chance(0.4) ? a : real_double();
    n.lo = std::min(a, b);
    n.hi = std::max(a, b);
    error_range(n, std::max(std::fabs(n.lo), std::fabs(n.hi)), format);
  }

  // A DAG of 1–8 nodes in `format` and `mode`; `other` is the target of
  // conversions (another format).
  Dag dag(const Format& format, const Format& other, RoundingMode mode) {
    Dag d;
    d.mode = mode;
    const int total = pick(1, 8);
    const int leaves = std::min(total, pick(1, 3));
    const bool is_int = std::holds_alternative<IntFormat>(format);
    for (int i = 0; i < leaves; ++i) {
      const bool real_leaf = chance(0.25);
      d.nodes.push_back(leaf(real_leaf ? Format{} : format, mode, !is_int));
    }
    for (int i = leaves; i < total; ++i) d.nodes.push_back(operation(d, format, other));
    const int n = static_cast<int>(d.nodes.size());
    for (int k = pick(0, 2); k > 0; --k) d.compared.emplace_back(pick(0, n - 1), pick(0, n - 1));
    switch (pick(0, 9)) {
      case 0: d.env = CallerEnv::TowardZero; break;
      case 1: d.env = CallerEnv::Downward; break;
      case 2: d.env = CallerEnv::Upward; break;
      case 3: d.env = CallerEnv::FtzDaz; break;
      case 4: d.env = CallerEnv::UpwardFtzDaz; break;
      default: d.env = CallerEnv::Default; break;
    }
    return d;
  }

 private:
  static bool compatible(const Format& a, const Format& b) {
    return a == b || std::holds_alternative<std::monostate>(a) || std::holds_alternative<std::monostate>(b);
  }

  Node operation(const Dag& d, const Format& main, const Format& other) {
    const int n = static_cast<int>(d.nodes.size());
    Node z;
    // recent nodes are favoured: chains and shared subexpressions
    auto recent = [&] { return chance(0.6) ? std::max(0, n - 1 - pick(0, 1)) : pick(0, n - 1); };
    z.a = recent();
    const Format& fa = d.nodes[z.a].format;
    const int k = pick(0, 9);
    if (k < 7) {
      std::vector<int> partners;
      for (int j = 0; j < n; ++j)
        if (compatible(fa, d.nodes[j].format)) partners.push_back(j);
      z.b = chance(0.3) ? z.a : partners[pick(0, static_cast<int>(partners.size()) - 1)];
      z.op = static_cast<NodeOp>(static_cast<int>(NodeOp::Add) + pick(0, 3));
      const Format& fb = d.nodes[z.b].format;
      z.format = std::holds_alternative<std::monostate>(fa) ? fb : fa;
      z.idiv = chance(0.5) ? IntegerDivision::Floor : IntegerDivision::Truncate;
      return z;
    }
    if (k < 9) {
      z.op = k == 7 ? NodeOp::Neg : NodeOp::Abs;
      z.format = fa;
      return z;
    }
    z.op = NodeOp::Convert;
    if (std::holds_alternative<std::monostate>(fa)) z.format = main;
    else if (fa == main) z.format = other;
    else z.format = main;
    // float -> integer conversions are not part of the library
    if (std::holds_alternative<FloatFormat>(fa) && std::holds_alternative<IntFormat>(z.format)) {
      z.op = NodeOp::Neg;
      z.format = fa;
    }
    return z;
  }

  std::mt19937_64 rng_;
};

// ---- symbolic evaluation -------------------------------------------------

template <RealDomain D>
using Mutator = std::function<void(SymbolicDomainError<D>&)>;

template <RealDomain D>
SymbolicDomainError<D> make_leaf(const Node& n, RoundingMode mode) {
  using SDE = SymbolicDomainError<D>;
  switch (n.kind) {
    case LeafKind::Input: return SDE::input(n.lo, n.hi, n.elo, n.ehi, n.format, mode);
    case LeafKind::Constant: {
      SDE x = SDE::constant(n.lo, n.format);
      x.mode = mode;
      return x;
    }
    case LeafKind::Literal: return SDE::literal(n.q, n.format, mode);
    case LeafKind::Computed: {
      SDE x = SDE::computed(n.lo, n.elo, n.ehi, n.format);
      x.mode = mode;
      return x;
    }
    case LeafKind::Inf: { SDE x = SDE::inf(n.sign, n.format); x.mode = mode; return x; }
    case LeafKind::NaN: { SDE x = SDE::nan(n.format); x.mode = mode; return x; }
    case LeafKind::Undef: { SDE x = SDE::undef(n.format); x.mode = mode; return x; }
  }
  return SDE{};
}

template <RealDomain D>
std::vector<SymbolicDomainError<D>> evaluate(const Dag& d, const Mutator<D>& mutate) {
  std::vector<SymbolicDomainError<D>> v;
  for (const Node& n : d.nodes) {
    switch (n.op) {
      case NodeOp::Leaf: v.push_back(make_leaf<D>(n, d.mode)); break;
      case NodeOp::Neg: v.push_back(-v[n.a]); break;
      case NodeOp::Abs: v.push_back(abs(v[n.a])); break;
      case NodeOp::Convert: v.push_back(convert(v[n.a], n.format, d.mode)); break;
      default: {
        const ArithOp op = static_cast<ArithOp>(static_cast<int>(n.op) - static_cast<int>(NodeOp::Add));
        std::optional<IntegerDivision> idiv;
        if (std::holds_alternative<IntFormat>(n.format)) idiv = n.idiv;
        v.push_back(arithmetic(op, v[n.a], v[n.b], idiv));
        if (mutate) mutate(v.back());
      }
    }
  }
  return v;
}

template <RealDomain D>
std::string fingerprint(const SymbolicDomainError<D>& z) {
  std::ostringstream o;
  for (const D* f : {&z.real, &z.fp, &z.err, &z.rel_err, &z.propagated, &z.introduced})
    o << hexd(f->lower()) << "," << hexd(f->upper()) << ";";
  const SpecialStates& s = z.specials;
  o << s.may_be_finite << s.may_be_pos_inf << s.may_be_neg_inf << s.may_be_nan << s.may_be_pos_zero
    << s.may_be_neg_zero << s.may_be_defined << s.may_be_undefined << s.may_overflow;
  return o.str();
}

// ---- concrete executions -------------------------------------------------

// A concrete execution of a leaf inside its sets (nullopt: none sampled).
inline std::optional<Exec> sample_leaf(DagGenerator& g, const Node& n, RoundingMode mode) {
  Exec e;
  const FloatFormat* F = std::get_if<FloatFormat>(&n.format);
  const IntFormat* I = std::get_if<IntFormat>(&n.format);
  auto undefined = [&](Computed c) {
    e.real_defined = e.pr_defined = false;
    e.f = c;
    return e;
  };
  switch (n.kind) {
    case LeafKind::Inf: return undefined({n.sign > 0 ? Kind::PosInf : Kind::NegInf, 0, false});
    case LeafKind::NaN: return undefined({Kind::NaN, 0, false});
    case LeafKind::Undef: {
      const int k = g.pick(0, 4);
      if (k == 0) return undefined({Kind::NaN, 0, false});
      if (k == 1 && F && F->has_infinities()) return undefined({g.chance(0.5) ? Kind::PosInf : Kind::NegInf, 0, false});
      const double v = F ? g.signed_value(*F) : 0.0;
      return undefined(finite_value(exact_value(v), std::signbit(v)));
    }
    case LeafKind::Constant:
      e.r = e.pr = exact_value(n.lo);
      e.f = finite_value(e.r, F && std::signbit(n.lo));
      return e;
    case LeafKind::Literal:
      e.r = e.pr = n.q;
      if (F) e.f = round_exact(n.q, false, *F, mode);
      else if (I) e.f = finite_value(mpq_class(wrap(round_half_even(n.q), *I)));
      else e.f = finite_value(n.q);
      return e;
    case LeafKind::Computed: {
      e.f = finite_value(exact_value(n.lo), F && std::signbit(n.lo));
      e.pr = e.f.v;
      e.r = e.f.v - g.between(exact_value(n.elo), exact_value(n.ehi));
      return e;
    }
    case LeafKind::Input: break;
  }
  const mpq_class lo = exact_value(n.lo), hi = exact_value(n.hi), elo = exact_value(n.elo), ehi = exact_value(n.ehi);
  const mpq_class L = lo + elo, H = hi + ehi;
  mpq_class f;
  bool neg_zero = false;
  if (F) {
    const mpq_class u = g.between(L, H);
    Computed c = round_exact(u, false, *F, RoundingMode::Downward);
    if (c.kind != Kind::Finite || c.v < L) c = round_exact(u, false, *F, RoundingMode::Upward);
    if (c.kind != Kind::Finite || c.v > H || c.v < L) return std::nullopt;
    f = c.v;
    if (sgn(f) == 0) {
      const Computed below = round_exact(L, false, *F, RoundingMode::Upward);  // least value >= L
      neg_zero = below.kind == Kind::Finite && sgn(below.v) < 0 && g.chance(0.5);
    }
  } else if (I) {
    mpz_class a, b;
    mpz_cdiv_q(a.get_mpz_t(), L.get_num_mpz_t(), L.get_den_mpz_t());
    mpz_fdiv_q(b.get_mpz_t(), H.get_num_mpz_t(), H.get_den_mpz_t());
    const mpz_class M = mpz_class(1) << I->bits;
    const mpz_class min = I->is_signed ? mpz_class(-(M >> 1)) : mpz_class(0);
    const mpz_class max = I->is_signed ? mpz_class((M >> 1) - 1) : mpz_class(M - 1);
    if (a < min) a = min;
    if (b > max) b = max;
    if (a > b) return std::nullopt;
    mpz_class off = b - a;
    mpq_class pickq = g.between(mpq_class(0), mpq_class(off));
    mpz_class o;
    mpz_fdiv_q(o.get_mpz_t(), pickq.get_num_mpz_t(), pickq.get_den_mpz_t());
    f = mpq_class(mpz_class(a + o));
  } else {
    e.r = g.between(lo, hi);
    e.f = finite_value(mpq_class(e.r + g.between(elo, ehi)));
    e.pr = e.f.v;
    return e;
  }
  mpq_class rl = f - ehi, rh = f - elo;
  if (rl < lo) rl = lo;
  if (rh > hi) rh = hi;
  if (rl > rh) return std::nullopt;
  e.r = g.between(rl, rh);
  e.f = finite_value(f, neg_zero);
  e.pr = f;
  return e;
}

inline std::optional<std::vector<Exec>> execute(DagGenerator& g, const Dag& d) {
  std::vector<Exec> v;
  for (const Node& n : d.nodes) {
    if (n.op == NodeOp::Leaf) {
      std::optional<Exec> e;
      for (int attempt = 0; attempt < 4 && !e; ++attempt) e = sample_leaf(g, n, d.mode);
      if (!e) return std::nullopt;
      v.push_back(*e);
      continue;
    }
    const Format& fa = d.nodes[n.a].format;
    switch (n.op) {
      case NodeOp::Neg: v.push_back(unary(Unary::Neg, v[n.a], fa, n.format, d.mode)); break;
      case NodeOp::Abs: v.push_back(unary(Unary::Abs, v[n.a], fa, n.format, d.mode)); break;
      case NodeOp::Convert: v.push_back(unary(Unary::Convert, v[n.a], fa, n.format, d.mode)); break;
      default: {
        const ArithOp op = static_cast<ArithOp>(static_cast<int>(n.op) - static_cast<int>(NodeOp::Add));
        v.push_back(binary(op, v[n.a], v[n.b], fa, d.nodes[n.b].format, d.mode, n.idiv));
      }
    }
  }
  return v;
}

// ---- comparisons ---------------------------------------------------------

struct Answered {
  int a, b, rel;  // rel: 0 <, 1 <=, 2 >, 3 >=, 4 ==, 5 !=
  Tri value;
};

template <RealDomain D>
std::vector<Answered> comparisons(const Dag& d, const std::vector<SymbolicDomainError<D>>& v) {
  std::vector<Answered> r;
  for (auto [a, b] : d.compared) {
    const Truth t[] = {v[a] < v[b], v[a] <= v[b], v[a] > v[b], v[a] >= v[b], v[a] == v[b], v[a] != v[b]};
    for (int k = 0; k < 6; ++k)
      if (t[k].tri() != Tri::Unknown) r.push_back({a, b, k, t[k].tri()});
  }
  return r;
}

inline bool relation(int rel, const mpq_class& x, const mpq_class& y) {
  switch (rel) {
    case 0: return x < y;
    case 1: return x <= y;
    case 2: return x > y;
    case 3: return x >= y;
    case 4: return x == y;
    default: return x != y;
  }
}

// Rank on the extended line: −inf < every finite value < +inf (finite values
// then compare by value).
inline int extended_rank(Kind k) { return k == Kind::NegInf ? -1 : (k == Kind::PosInf ? 1 : 0); }

inline bool extended_relation(int rel, Kind kx, const mpq_class& x, Kind ky, const mpq_class& y) {
  const int a = extended_rank(kx), b = extended_rank(ky);
  if (a != 0 || b != 0) return relation(rel, mpq_class(a), mpq_class(b));
  return relation(rel, x, y);
}

// A certain answer must hold for the computed values (IEEE, infinities
// included; never with a NaN) and for the real values. A computed infinity
// whose real value is undefined (an infinite constant, or an operation on one)
// stands for itself in the ideal program (docs: README, "Infinite literals").
inline std::string check_comparison(const Answered& c, const std::vector<Exec>& e) {
  const Exec &x = e[c.a], &y = e[c.b];
  const bool want = c.value == Tri::True;
  if (!x.computed_defined || !y.computed_defined || x.f.kind == Kind::NaN || y.f.kind == Kind::NaN)
    return "certain comparison, but an operand is NaN or undefined in this execution";
  if (extended_relation(c.rel, x.f.kind, x.f.v, y.f.kind, y.f.v) != want)
    return "certain comparison contradicted by the computed values";
  auto ideal_kind = [](const Exec& v) { return v.real_defined ? Kind::Finite : v.f.kind; };
  if ((!x.real_defined && x.f.kind == Kind::Finite) || (!y.real_defined && y.f.kind == Kind::Finite))
    return "certain comparison, but a real value is undefined";
  if (extended_relation(c.rel, ideal_kind(x), x.r, ideal_kind(y), y.r) != want)
    return "certain comparison contradicted by the real values";
  return "";
}

// ---- the driver ----------------------------------------------------------

struct Report {
  long dags = 0, executions = 0, node_checks = 0, skipped = 0, env_compared = 0, comparisons = 0;
  std::map<std::string, long> per_family;  // executions per format / mode / domain
  std::string first_failure;
  long failures = 0;
};

template <RealDomain D>
std::string reproducer(const Dag& d, int node, const std::vector<SymbolicDomainError<D>>& sym,
                       const std::vector<Exec>* exec, const std::string& what, int also = -1) {
  std::ostringstream o;
  o << "FAILURE at n" << node << ": " << what << "\nmode " << to_string(d.mode) << ", caller env "
    << env_name(d.env) << "\nDAG (the failing node's cone):\n";
  for (int i : cone(d, node, also)) {
    o << describe(d.nodes[i], i) << "\n      symbolic " << sym[i] << " propagated " << sym[i].propagated
      << " introduced " << sym[i].introduced << "\n";
    if (exec) o << "      exact    " << str((*exec)[i]) << "\n";
  }
  return o.str();
}

template <RealDomain D>
void fuzz_one(DagGenerator& g, const Format& format, const Format& other, RoundingMode mode, int samples,
              const std::string& domain, Report& rep, const Mutator<D>& mutate = {}) {
  const Dag d = g.dag(format, other, mode);
  std::vector<SymbolicDomainError<D>> sym;
  std::vector<Answered> answered;
  try {
    const CallerEnvScope env(d.env);
    sym = evaluate<D>(d, mutate);
    answered = comparisons(d, sym);
  } catch (const std::invalid_argument&) {  // a leaf without a value of the format
    ++rep.skipped;
    return;
  } catch (const std::exception& ex) {
    if (rep.failures++ == 0) {
      std::ostringstream o;
      o << "FAILURE: exception " << ex.what() << "\nDAG:\n";
      for (size_t i = 0; i < d.nodes.size(); ++i) o << describe(d.nodes[i], static_cast<int>(i)) << "\n";
      rep.first_failure = o.str();
    }
    return;
  }
  ++rep.dags;
  auto fail = [&](int node, const std::vector<Exec>* e, const std::string& what, int also = -1) {
    if (rep.failures++ == 0) rep.first_failure = reproducer(d, node, sym, e, what, also);
  };
  if (d.env != CallerEnv::Default && g.chance(0.25)) {  // results independent of the caller's state
    ++rep.env_compared;
    std::vector<std::string> ref;
    auto run_ref = [&] {
      for (const auto& v : evaluate<D>(d, mutate)) ref.push_back(fingerprint(v));
    };
    if constexpr (std::is_same_v<D, Affine>) {
      // an affine result also depends on its context's history (symbols,
      // memo, condensation): the reference run gets a fresh context, as the
      // first run had
      AffineContext fresh;
      AffineScope scope(fresh);
      run_ref();
    } else {
      run_ref();
    }
    for (size_t i = 0; i < sym.size(); ++i)
      if (ref[i] != fingerprint(sym[i])) {
        fail(static_cast<int>(i), nullptr, std::string("result differs from the one under the default environment: ") +
                                               ref[i] + " vs " + fingerprint(sym[i]));
        return;
      }
  }
  const std::string family = format_name(format) + " " + to_string(mode) + " " + domain;
  for (int s = 0; s < samples; ++s) {
    const auto e = execute(g, d);
    if (!e) continue;
    ++rep.executions;
    ++rep.per_family[family];
    for (size_t i = 0; i < sym.size(); ++i) {
      ++rep.node_checks;
      const std::string what = check(sym[i], (*e)[i]);
      if (!what.empty()) {
        fail(static_cast<int>(i), &*e, what);
        return;
      }
    }
    for (const Answered& c : answered) {
      ++rep.comparisons;
      const std::string what = check_comparison(c, *e);
      if (!what.empty()) {
        static const char* rel[] = {"<", "<=", ">", ">=", "==", "!="};
        fail(c.a, &*e, "n" + std::to_string(c.a) + " " + rel[c.rel] + " n" + std::to_string(c.b) +
                           " answered " + (c.value == Tri::True ? "true" : "false") + ": " + what, c.b);
        return;
      }
    }
  }
}

// `dags` random DAGs over every format × mode (round robin), each executed
// `samples` times.
template <RealDomain D>
Report run_fuzzer(std::uint64_t seed, long dags, int samples, const std::string& domain, const Mutator<D>& mutate = {},
            bool stop_at_first = true) {
  DagGenerator g(seed);
  Report rep;
  const auto formats = fuzz_formats();
  const RoundingMode modes[] = {RoundingMode::NearestEven, RoundingMode::TowardZero, RoundingMode::Upward,
                                RoundingMode::Downward};
  for (long i = 0; i < dags; ++i) {
    const Format& f = formats[static_cast<size_t>(i) % formats.size()];
    const RoundingMode m = modes[(static_cast<size_t>(i) / formats.size()) % 4];
    Format other;
    if (std::holds_alternative<IntFormat>(f)) {
      other = g.chance(0.5) ? formats[static_cast<size_t>(g.pick(9, static_cast<int>(formats.size()) - 1))]
                            : formats[static_cast<size_t>(g.pick(0, 8))];
    } else {
      other = formats[static_cast<size_t>(g.pick(0, 8))];
    }
    if constexpr (std::is_same_v<D, Affine>) {
      AffineContext ctx;  // one context per DAG: its symbols and memo table are the DAG's
      AffineScope scope(ctx);
      fuzz_one<D>(g, f, other, m, samples, domain, rep, mutate);
    } else {
      fuzz_one<D>(g, f, other, m, samples, domain, rep, mutate);
    }
    if (stop_at_first && rep.failures > 0) break;
  }
  return rep;
}

}  // namespace symerr::fuzz
