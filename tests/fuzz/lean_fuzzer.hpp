// The lean type's fuzzer: random DAGs (1–6 operations: + − × ÷ fma fmax
// fabs neg) of LeanDouble / LeanFloat operands at the edges of the format —
// near ±max (fp up to max, errors of either sign, so that the real value may
// lie beyond max), at 0, on subnormals, exact constants (0, ±0.5, ±1, 2) —
// checked node by node against exact executions: GMP rationals for the real
// values, the C operations in F for the computed ones. Every node that
// LeanError returns must hold each execution (fp, err, real(), rel_err());
// an execution whose computed value is not finite must have been refused
// (std::domain_error by name); a refusal ends the DAG.
#pragma once

#include <cfloat>
#include <cmath>
#include <functional>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <gmpxx.h>

#include <symerr/lean.hpp>

namespace symerr::fuzz::lean {

inline mpq_class q(double x) { return exact_value(x); }
// x ∈ [lo, hi] (an infinite end bounds nothing on its side; NaN ends hold nothing)
inline bool in(const LeanInterval& i, const mpq_class& x) {
  if (std::isnan(i.lo) || std::isnan(i.hi) || i.lo == INFINITY || i.hi == -INFINITY) return false;
  return (i.lo == -INFINITY || q(i.lo) <= x) && (i.hi == INFINITY || x <= q(i.hi));
}

template <class F>
inline double to_f(double x) {
  return static_cast<double>(static_cast<F>(x));
}

// An operand: its enclosures (fp values of F, err any doubles).
struct Box {
  LeanInterval f, e;
};

template <class F>
class Gen {
 public:
  explicit Gen(std::uint64_t seed) : rng_(seed) {}
  int pick(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  double unit() { return std::uniform_real_distribution<double>(0, 1)(rng_); }

  Box box() {
    constexpr double max = static_cast<double>(std::numeric_limits<F>::max());
    constexpr double tiny = std::is_same_v<F, double> ? 0x1p-1074 : 0x1p-149;
    const double ulp_max = std::is_same_v<F, double> ? 0x1p971 : 0x1p104;
    Box b;
    const int kind = pick(0, 5);
    double lo = 0, hi = 0;
    switch (kind) {
      case 0: case 1: {  // near ±max
        const double w[] = {0.0, ulp_max * pick(1, 8), max * std::ldexp(1.0, -pick(1, 60)), max * unit()};
        hi = max;
        lo = to_f<F>(max - w[pick(0, 3)]);
        if (kind == 1) std::swap(lo, hi), lo = -lo, hi = -hi;
        break;
      }
      case 2: {  // at 0 and on subnormals
        const double s = tiny * pick(0, 64);
        lo = pick(0, 2) == 0 ? 0.0 : -s;
        hi = pick(0, 2) == 0 ? 0.0 : tiny * pick(0, 64);
        if (lo > hi) std::swap(lo, hi);
        break;
      }
      case 3: {  // exact constants
        const double c[] = {0.0, 0.5, -0.5, 1.0, 2.0, -2.0, 0.25};
        lo = hi = c[pick(0, 6)];
        b.f = {lo, hi};
        b.e = {0, 0};
        return b;
      }
      default: {  // moderate and large
        const double s = std::ldexp(1.0, pick(-20, std::is_same_v<F, double> ? 1020 : 125));
        lo = to_f<F>(s * (2 * unit() - 1)), hi = to_f<F>(s * (2 * unit() - 1));
        if (lo > hi) std::swap(lo, hi);
      }
    }
    b.f = {lo, hi};
    const double m = std::max({std::fabs(lo), std::fabs(hi), tiny});
    double e = 0;
    switch (pick(0, 4)) {
      case 0: e = 0; break;
      case 1: e = m * std::ldexp(1.0, std::is_same_v<F, double> ? -53 : -24) * pick(1, 16); break;
      case 2: e = m * std::ldexp(1.0, -pick(1, 40)); break;
      case 3: e = std::ldexp(1.0, pick(-1074, std::is_same_v<F, double> ? 1000 : 120)); break;
      default: e = tiny * pick(1, 8); break;
    }
    const int side = pick(0, 2);  // two-sided, only negative (real above fp), only positive
    b.e = {side == 2 ? 0.0 : -e * unit(), side == 1 ? 0.0 : e * unit()};
    if (b.e.lo > b.e.hi) std::swap(b.e.lo, b.e.hi);
    return b;
  }

  // an execution of a box: a computed value of F in f (ends favoured) and an error in e
  std::pair<double, double> draw(const Box& b) {
    auto end = [&](const LeanInterval& i) {
      const int k = pick(0, 3);
      return k == 0 ? i.lo : k == 1 ? i.hi : i.lo + (i.hi - i.lo) * unit();
    };
    double f = to_f<F>(end(b.f));
    f = std::min(std::max(f, b.f.lo), b.f.hi);
    return {f, std::min(std::max(end(b.e), b.e.lo), b.e.hi)};
  }

 private:
  std::mt19937_64 rng_;
};

enum class Op { Leaf, Add, Sub, Mul, Div, Fma, Max, Abs, Neg };

struct Node {
  Op op = Op::Leaf;
  Box box;
  int a = -1, b = -1, c = -1;
};

inline const char* op_name(Op o) {
  static const char* n[] = {"leaf", "+", "-", "*", "/", "fma", "fmax", "fabs", "neg"};
  return n[static_cast<int>(o)];
}

struct Report {
  long dags = 0, nodes = 0, refused = 0, executions = 0, checks = 0, failures = 0;
  std::string first_failure;
};

template <class F>
using Mutator = std::function<void(LeanError<F>&)>;

template <class F>
std::vector<Node> dag(Gen<F>& g) {
  std::vector<Node> d;
  const int leaves = g.pick(1, 3), ops = g.pick(1, 6);
  for (int i = 0; i < leaves; ++i) d.push_back({Op::Leaf, g.box()});
  for (int i = 0; i < ops; ++i) {
    const int n = static_cast<int>(d.size());
    Node z;
    z.op = static_cast<Op>(g.pick(1, 8));
    z.a = g.pick(0, 1) ? n - 1 : g.pick(0, n - 1);
    z.b = g.pick(0, n - 1);
    z.c = g.pick(0, n - 1);
    d.push_back(z);
  }
  return d;
}

template <class F>
LeanError<F> apply_op(const Node& n, const std::vector<LeanError<F>>& v) {
  switch (n.op) {
    case Op::Add: return v[n.a] + v[n.b];
    case Op::Sub: return v[n.a] - v[n.b];
    case Op::Mul: return v[n.a] * v[n.b];
    case Op::Div: return v[n.a] / v[n.b];
    case Op::Fma: return fma(v[n.a], v[n.b], v[n.c]);
    case Op::Max: return fmax(v[n.a], v[n.b]);
    case Op::Abs: return fabs(v[n.a]);
    default: return -v[n.a];
  }
}

// One node's execution: the computed value (F's C operation) and the exact real.
template <class F>
std::pair<double, mpq_class> execute(const Node& n, const std::vector<double>& f, const std::vector<mpq_class>& r) {
  const F x = static_cast<F>(f[n.a]), y = n.b >= 0 ? static_cast<F>(f[n.b]) : F(0);
  const F z = n.c >= 0 ? static_cast<F>(f[n.c]) : F(0);
  switch (n.op) {
    case Op::Add: return {static_cast<double>(x + y), r[n.a] + r[n.b]};
    case Op::Sub: return {static_cast<double>(x - y), r[n.a] - r[n.b]};
    case Op::Mul: return {static_cast<double>(x * y), r[n.a] * r[n.b]};
    case Op::Div:
      if (sgn(r[n.b]) == 0) return {NAN, mpq_class(0)};
      return {static_cast<double>(x / y), r[n.a] / r[n.b]};
    case Op::Fma: return {static_cast<double>(std::fma(x, y, z)), r[n.a] * r[n.b] + r[n.c]};
    case Op::Max: return {static_cast<double>(std::fmax(x, y)), r[n.a] < r[n.b] ? r[n.b] : r[n.a]};
    case Op::Abs: return {static_cast<double>(std::fabs(x)), abs(r[n.a])};
    default: return {static_cast<double>(-x), -r[n.a]};
  }
}

template <class F>
std::string describe(const std::vector<Node>& d, const std::vector<LeanError<F>>& v, int upto) {
  std::ostringstream o;
  o.precision(17);
  for (int i = 0; i <= upto && i < static_cast<int>(d.size()); ++i) {
    const Node& n = d[i];
    o << "  n" << i << " = ";
    if (n.op == Op::Leaf) o << "fp [" << n.box.f.lo << ", " << n.box.f.hi << "] err [" << n.box.e.lo << ", " << n.box.e.hi << "]";
    else if (n.op == Op::Fma) o << "fma(n" << n.a << ", n" << n.b << ", n" << n.c << ")";
    else if (n.op == Op::Abs || n.op == Op::Neg) o << op_name(n.op) << "(n" << n.a << ")";
    else o << "n" << n.a << " " << op_name(n.op) << " n" << n.b;
    if (i < static_cast<int>(v.size())) o << "  ->  " << v[i];
    o << "\n";
  }
  return o.str();
}

// Empty if the node's enclosures hold the execution (computed f, exact r).
template <class F>
std::string check(const LeanError<F>& z, double f, const mpq_class& r) {
  if (!std::isfinite(f)) return "a non-finite execution was not refused";
  const mpq_class e = q(f) - r;
  if (!in(z.fp(), q(f))) return "computed value not in fp";
  if (!in(z.err(), e)) return "f - r not in err";
  if (!in(z.real(), r)) return "r not in real()";
  if (sgn(r) != 0 && !in(z.rel_err(), mpq_class(e / r))) return "(f - r)/r not in rel_err()";
  return "";
}

template <class F>
void fuzz_one(Gen<F>& g, int samples, Report& rep, const Mutator<F>& mutate) {
  const std::vector<Node> d = dag(g);
  std::vector<LeanError<F>> v;
  for (const Node& n : d) {
    try {
      if (n.op == Op::Leaf) v.push_back(LeanError<F>::from_enclosures(n.box.f, n.box.e));
      else v.push_back(apply_op(n, v));
    } catch (const std::domain_error&) {
      ++rep.refused;
      break;
    }
    if (mutate && n.op != Op::Leaf) mutate(v.back());
  }
  ++rep.dags;
  rep.nodes += static_cast<long>(v.size());
  const int live = static_cast<int>(v.size());
  std::vector<double> f(d.size());
  std::vector<mpq_class> r(d.size());
  for (int s = 0; s < samples; ++s) {
    ++rep.executions;
    for (int i = 0; i < live; ++i) {
      const Node& n = d[i];
      if (n.op == Op::Leaf) {
        const auto [fi, ei] = g.draw(n.box);
        f[i] = fi;
        r[i] = q(fi) - q(ei);
      } else {
        const bool undefined = (n.op == Op::Div && sgn(r[n.b]) == 0);
        std::tie(f[i], r[i]) = execute<F>(n, f, r);
        if (undefined) {
          if (rep.failures++ == 0) rep.first_failure = "a divisor's real value may be 0, not refused\n" + describe(d, v, i);
          return;
        }
      }
      ++rep.checks;
      const std::string what = check(v[i], f[i], r[i]);
      if (!what.empty()) {
        if (rep.failures++ == 0) {
          std::ostringstream o;
          o.precision(17);
          o << "FAILURE at n" << i << ": " << what << " (computed " << f[i] << ", real " << r[i].get_d()
            << ", err " << mpq_class(q(f[i]) - r[i]).get_d() << ")\n" << describe(d, v, i);
          rep.first_failure = o.str();
        }
        return;
      }
    }
  }
}

template <class F>
Report run(std::uint64_t seed, long dags, int samples, const Mutator<F>& mutate = {}, bool stop_at_first = true) {
  Gen<F> g(seed);
  Report rep;
  for (long i = 0; i < dags; ++i) {
    fuzz_one<F>(g, samples, rep, mutate);
    if (stop_at_first && rep.failures) break;
  }
  return rep;
}

}  // namespace symerr::fuzz::lean
