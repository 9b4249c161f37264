// SymbolicDomainError<Affine>: the per-operation soundness campaign of
// tests/core (random boxes of every shape × format, exact executions), the
// correlations it exists for (x − x, x·x − x·x exactly 0), and random
// expression DAGs of up to 8 operations with shared subexpressions, checked
// node by node against exact executions (GMP rationals + the format's exact
// rounding): r ∈ real, f ∈ fp, f − r ∈ err, and the whole-kernel split
// pr − r ∈ propagated, f − pr ∈ introduced (pr: the exact computation on the
// inputs' machine values).
#include <catch2/catch.hpp>

#include <symerr/domains/affine.hpp>
#include <symerr/domains/interval.hpp>
#include <symerr/symbolic.hpp>
#include <symerr/domains/symbolic_instances.hpp>  // the library's instantiations (compile time)

#include <cmath>
#include <limits>
#include <set>
#include <vector>
#include <sstream>

#include "core/symbolic_oracle.hpp"

using namespace symerr;
using namespace symerr::test;

namespace {

using SA = SymbolicDomainError<Affine>;

const Format kFormats[] = {FP16, BF16, FP32, FP64, INT8, UINT8, INT32, INT4};
constexpr ArithOp kOps[] = {ArithOp::Add, ArithOp::Sub, ArithOp::Mul, ArithOp::Div};

// check_execution: core/symbolic_oracle.hpp (the same checks as every domain's)

void soundness_campaign(std::uint64_t seed, long executions_per_cell) {
  const long symbolic_pairs = std::max(1L, executions_per_cell / 100);
  for (const Format& format : kFormats) {
    for (ArithOp op : kOps) {
      Generator g(seed ^ (std::hash<std::string>{}(format_name(format)) + static_cast<unsigned>(op)));
      long executions = 0;
      for (long p = 0; p < symbolic_pairs; ++p) {
        AffineContext ctx;
        AffineScope scope(ctx);
        const Box bx = g.box(format), by = g.box(format);
        const IntegerDivision idiv = (p % 2) ? IntegerDivision::Floor : IntegerDivision::Truncate;
        const auto x = SA::input(bx.lo, bx.hi, bx.elo, bx.ehi, format);
        const auto y = SA::input(by.lo, by.hi, by.elo, by.ehi, format);
        const auto z = arithmetic(op, x, y, idiv);
        for (int k = 0; k < 100; ++k) {
          const auto ex = g.execution(bx, x.fp.lower(), x.fp.upper(), format, x.specials.may_be_neg_zero);
          const auto ey = g.execution(by, y.fp.lower(), y.fp.upper(), format, y.specials.may_be_neg_zero);
          if (!ex || !ey) continue;
          const Outcome o = oracle(op, ex->r, ey->r, ex->f, ey->f, format, RoundingMode::NearestEven, idiv);
          const std::string failure = check_execution(z, o, format);
          if (!failure.empty())
            FAIL(format_name(format) << " " << detail::op_name(op) << ": " << failure << "\nx = " << x << "\ny = "
                                     << y << "\nz = " << z << "\nrx=" << ex->r.get_str() << " fx=" << hex(ex->f)
                                     << " ry=" << ey->r.get_str() << " fy=" << hex(ey->f));
          ++executions;
        }
      }
      INFO(format_name(format) << " " << detail::op_name(op) << ": " << executions << " executions");
      CHECK(executions >= executions_per_cell * 6 / 10);
    }
  }
}

}  // namespace

TEST_CASE("SymbolicDomainError<Affine> arithmetic is sound (random boxes, exact oracle)", "[affine][soundness]") {
  soundness_campaign(2026, static_cast<long>(100000 * test_scale() / 10));
}

TEST_CASE("SymbolicDomainError<Affine> soundness, long run (10^5 executions per cell)",
          "[affine][soundness][long]") {
  soundness_campaign(77, 100000);
}

namespace {
// A C kernel's file-scope table, substituted on the Affine domain: built at
// static initialisation, before any AffineContext exists.
const SA kTable[3] = {SA(1.5), SA(0.25), SA(-3.0)};
const Affine kPoint = Affine::point(2.5);
const Affine kUnknown = Affine::whole();
}  // namespace

namespace {
// a function-local static table, initialised by the first call (in whichever
// context is current then)
SA poly_with_local_table(const SA& x) {
  static const SA kCoef[3] = {SA(1.0), SA(0.5), SA(0.25)};
  static const SA kInf = SA(std::numeric_limits<double>::infinity());
  (void)kInf;
  return (kCoef[2] * x + kCoef[1]) * x + kCoef[0];
}
}  // namespace

TEST_CASE("SymbolicDomainError<Affine>: a function-local static literal table survives its context",
          "[affine][context]") {
  // literals are context-free handles: the second context (as the driver's
  // subdivision makes one per box) uses the table made in the first
  SA first;
  for (int round = 0; round < 3; ++round) {
    AffineContext ctx;
    AffineScope scope(ctx);
    const SA x = SA::input(1, 2, -1e-9, 1e-9, FP64);
    const SA y = poly_with_local_table(x);
    const SA inline_literals = (SA(0.25) * x + SA(0.5)) * x + SA(1.0);
    CHECK(y.real.lower() == inline_literals.real.lower());
    CHECK(y.real.upper() == inline_literals.real.upper());
    CHECK(y.err.upper() == inline_literals.err.upper());
    CHECK(y.real.lower() >= 1.75);  // 0.25 + 0.5 + 1 at x = 1
    CHECK(y.real.upper() <= 3.0);   // 1 + 1 + 1 at x = 2
  }
}

TEST_CASE("SymbolicDomainError<Affine>: infinite literals and undef() values share no identity (not a square)",
          "[affine][context]") {
  // their unknown fields are one context-free handle that stands for a fresh
  // unknown at each use: +inf * -inf is -inf, not a square
  AffineContext ctx;
  AffineScope scope(ctx);
  const SA p = SA(std::numeric_limits<double>::infinity()), n = SA(-std::numeric_limits<double>::infinity());
  const SA z = p * n;
  CHECK(z.specials.may_be_neg_inf);
  CHECK(!z.specials.may_be_pos_inf);
  const SA q = n * n;  // the same object: a square
  CHECK(q.specials.may_be_pos_inf);
  CHECK(!(p - p).specials.may_be_finite);  // inf - inf: NaN, never the exact 0 of an identity
  // two undef() values (every field the one context-free unknown): their
  // product is no square, its real part may be negative
  const SA u = SA::undef(FP64), v = SA::undef(FP64);
  const SA uv = u * v;
  CHECK(uv.real.lower() < 0);
  CHECK(uv.fp.lower() < 0);
}

TEST_CASE("SymbolicDomainError<Affine>: constants made before any context (static tables) work in every context",
          "[affine][context]") {
  // before any context: ranges are readable
  CHECK(kPoint.lower() == 2.5);
  CHECK(kPoint.upper() == 2.5);
  CHECK(kTable[1].real.lower() == 0.25);
  CHECK(std::isinf(kUnknown.upper()));
  for (int round = 0; round < 2; ++round) {  // the same static values in two contexts
    AffineContext ctx;
    AffineScope scope(ctx);
    const SA x = SA::input(1, 2, -1e-9, 1e-9, FP64);
    // a table constant and the same literal made inside the context give the same result
    const SA a = x * kTable[0] + kTable[1];
    const SA b = x * SA(1.5) + SA(0.25);
    CHECK(a.real.lower() == b.real.lower());
    CHECK(a.err.upper() == b.err.upper());
    CHECK(a.fp.upper() == b.fp.upper());
    // the same constant is the same quantity: x·c − x·c is exactly 0
    const SA d = x * kTable[2] - x * kTable[2];
    CHECK(is_point(d.real));
    CHECK(d.real.lower() == 0);
    const Affine p = kPoint * x.real - kPoint * x.real;
    CHECK((is_point(p) && p.lower() == 0));
    CHECK(ctx.terms(kPoint).empty());
    // the unknown is a fresh unknown at each use: never 0 by identity
    CHECK(!is_point(kUnknown - kUnknown));
    CHECK(std::isinf((kUnknown + x.real).upper()));
  }
}

TEST_CASE("SymbolicDomainError<Affine>: fp and the introduced error share the rounding symbol",
          "[affine][correlation]") {
  // For operands without introduced error, fp = t + δ and introduced = δ, with
  // t = fp_x ∘ fp_y; +, − and × of uncorrelated operands build fp in one
  // store with δ's symbol (affine_symbolic.cpp). fp − introduced is then t
  // exactly; with an independent δ it would be wider by 2·|δ| (the twin).
  for (const FloatFormat& F : {FP16, BF16, FP32, FP64}) {
    for (ArithOp op : {ArithOp::Add, ArithOp::Sub, ArithOp::Mul, ArithOp::Div}) {
      AffineContext ctx;
      AffineScope scope(ctx);
      const SA x = SA::input(1, 3, -1e-3, 1e-3, F), y = SA::input(-7, -2, -1e-3, 1e-3, F);
      const SA z = arithmetic(op, x, y);
      const Affine t = op == ArithOp::Add   ? x.fp + y.fp
                       : op == ArithOp::Sub ? x.fp - y.fp
                       : op == ArithOp::Mul ? x.fp * y.fp
                                            : x.fp / y.fp;
      // compared as forms (form_radius): the ranges are also clipped by intervals
      const double slack = 0x1p-40 * mag(t);
      INFO(format_name(F) << " " << detail::op_name(op) << ": fp " << z.fp << " introduced " << z.introduced
                          << " t " << t);
      REQUIRE(form_radius(z.introduced) > 0);
      CHECK(form_radius(z.fp - z.introduced) <= form_radius(t) + slack);
      CHECK(form_radius(z.fp + z.introduced) >= form_radius(t) + 1.5 * form_radius(z.introduced));
      // err = E + δ: err − introduced is the propagated part E exactly
      CHECK(form_radius(z.err - z.introduced) <= form_radius(z.propagated) + 0x1p-40 * mag(z.propagated));
    }
  }
}

TEST_CASE("SymbolicDomainError<Affine>: x - x and x*x - x*x are exactly 0", "[affine][correlation]") {
  for (const FloatFormat& F : {FP16, BF16, FP32, FP64}) {
    AffineContext ctx;
    AffineScope scope(ctx);
    const SA x = SA::input(1, 64, -1e-3, 1e-3, F);
    const SA d = x - x;
    INFO(format_name(F) << ": " << d);
    CHECK(is_point(d.err));
    CHECK(d.err.lower() == 0);
    CHECK(d.fp.lower() == 0);
    CHECK(d.fp.upper() == 0);
    const SA y = SA::input(1, 2, F);
    const SA s = y * y - y * y;
    INFO(s);
    CHECK(is_point(s.err));
    CHECK(s.err.lower() == 0);
    CHECK(s.fp.upper() == 0);
    // the twin: the same expression over the Interval domain is not 0
    const auto yi = SymbolicDomainError<Interval>::input(1, 2, F);
    CHECK(mag((yi * yi - yi * yi).err) > 0);
  }
}

namespace {

bool same_value(const SA& a, const SA& b) {
  return same_handle(a.real, b.real) && same_handle(a.fp, b.fp) && same_handle(a.err, b.err) &&
         same_handle(a.rel_err, b.rel_err) && same_handle(a.propagated, b.propagated) &&
         same_handle(a.introduced, b.introduced);
}

std::string special_text(const SpecialStates& s) {
  std::ostringstream o;
  o << s.may_be_finite << s.may_be_pos_inf << s.may_be_neg_inf << s.may_be_nan << s.may_be_pos_zero
    << s.may_be_neg_zero << s.may_be_defined << s.may_be_undefined << s.may_overflow;
  return o.str();
}

// Ranges and flags of v (comparable across contexts).
std::string ranges(const SA& v) {
  std::ostringstream o;
  o.precision(17);
  for (const Affine* f : {&v.real, &v.fp, &v.err, &v.rel_err, &v.propagated, &v.introduced})
    o << f->lower() << ' ' << f->upper() << ' ';
  o << special_text(v.specials) << ' ' << static_cast<int>(v.mode) << ' ' << format_name(v.format);
  return o.str();
}

}  // namespace

// One operation of SymbolicDomainError<Affine> is memoised whole (its key: the
// operands' handles and metadata, the operation, format and mode). A result is
// recorded in a free slot of an operand form's header, or in a hash table once
// every operand form's slot is taken: 4 operations × 4 modes × 2 zero-sign
// states on one pair of operands fill the (at most 12) slots, so the table is
// used too. A repeat is the same value (same handles); a different mode or
// zero-sign state is a different operation, with the results of an
// unmemoised context.
TEST_CASE("SymbolicDomainError<Affine>: a repeated operation is the same value (operation memo)",
          "[affine][correlation]") {
  const RoundingMode modes[] = {RoundingMode::NearestEven, RoundingMode::TowardZero, RoundingMode::Upward,
                                RoundingMode::Downward};
  struct Case {
    ArithOp op;
    RoundingMode mode;
    bool neg_zero;
  };
  std::vector<Case> cases;
  for (ArithOp op : kOps)
    for (RoundingMode m : modes)
      for (bool nz : {false, true}) cases.push_back({op, m, nz});
  auto operands = [](RoundingMode m, bool nz) {
    SA x = SA::input(0, 2, 0, 1e-6, FP32, m);  // fp >= 0: −0 only if flagged
    SA y = SA::input(0.5, 3, -2e-6, 1e-6, FP32, m);
    x.specials.may_be_neg_zero = nz;
    return std::pair{x, y};
  };
  AffineContext ctx;
  AffineScope scope(ctx);
  // one pair of operand forms: the mode and the zero flag are metadata only
  const auto [x0, y0] = operands(RoundingMode::NearestEven, false);
  std::vector<SA> first;
  for (const Case& c : cases) {
    SA x = x0, y = y0;
    x.mode = y.mode = c.mode;
    x.specials.may_be_neg_zero = c.neg_zero;
    first.push_back(arithmetic(c.op, x, y));
  }
  for (std::size_t i = 0; i < cases.size(); ++i) {
    SA x = x0, y = y0;
    x.mode = y.mode = cases[i].mode;
    x.specials.may_be_neg_zero = cases[i].neg_zero;
    const SA again = arithmetic(cases[i].op, x, y);
    INFO("case " << i);
    CHECK(same_value(again, first[i]));
    const std::string memoised = ranges(first[i]);
    // the same ranges and flags as the operation in a context without memo
    AffineOptions no_memo;
    no_memo.memoise = false;
    AffineContext fresh(no_memo);
    AffineScope inner(fresh);
    const auto [fx, fy] = operands(cases[i].mode, cases[i].neg_zero);
    const SA reference = arithmetic(cases[i].op, fx, fy);
    CHECK(memoised == ranges(reference));
    // the twin: without the memo a repeat builds new forms
    CHECK_FALSE(same_value(arithmetic(cases[i].op, fx, fy), reference));
  }
  // the cases are different operations: the 16 (operation, mode) pairs give
  // 16 different results, and the zero flag changes the product's and the
  // quotient's zero signs
  std::set<std::string> distinct;
  for (const SA& z : first) distinct.insert(ranges(z));
  CHECK(distinct.size() > cases.size() / 2);
}

// ---- random expression DAGs -----------------------------------------------

namespace {

struct Node {
  int op;  // -1 input, else ArithOp, or kMax / kMin (max and min: the recorded extrema of the Affine domain)
  int a = -1, b = -1;
};
constexpr int kMax = 4, kMin = 5;

std::string node_name(int op) {
  if (op == kMax) return "max";
  if (op == kMin) return "min";
  return detail::op_name(static_cast<ArithOp>(op));
}

// A DAG of n_inputs inputs and up to 8 operations; operands are drawn from all
// earlier nodes, so subexpressions are shared.
std::vector<Node> random_dag(Generator& g, int n_inputs) {
  std::vector<Node> d;
  for (int i = 0; i < n_inputs; ++i) d.push_back({-1});
  const int ops = g.pick(1, 8);
  for (int k = 0; k < ops; ++k) {
    const int n = static_cast<int>(d.size());
    Node node{g.pick(0, 5), g.pick(0, n - 1), g.pick(0, n - 1)};
    if (g.pick(0, 2) == 0) node.b = node.a;  // x ∘ x
    d.push_back(node);
  }
  return d;
}

// Exact execution of a DAG: real values and machine values per node, and the
// real computation on the actual inputs pr (the whole-kernel split:
// propagated ∋ pr − r, introduced ∋ f − pr; pr_ok[i] false where it divides
// by 0); false when a division by zero or an overflow makes the execution
// special.
bool execute(const std::vector<Node>& d, std::vector<mpq_class>& r, std::vector<double>& f,
             std::vector<mpq_class>& pr, std::vector<char>& pr_ok, const FloatFormat& F) {
  for (std::size_t i = 0; i < d.size(); ++i) {
    if (d[i].op < 0) {
      pr[i] = exact_value(f[i]);
      pr_ok[i] = 1;
      continue;
    }
    if (d[i].op == kMax || d[i].op == kMin) {  // exact in both programs (finite operands)
      const bool up = d[i].op == kMax;
      const int a = d[i].a, b = d[i].b;
      r[i] = up ? std::max(r[a], r[b]) : std::min(r[a], r[b]);
      f[i] = up ? std::max(f[a], f[b]) : std::min(f[a], f[b]);
      pr_ok[i] = pr_ok[a] && pr_ok[b];
      if (pr_ok[i]) pr[i] = up ? std::max(pr[a], pr[b]) : std::min(pr[a], pr[b]);
      continue;
    }
    const auto op = static_cast<ArithOp>(d[i].op);
    const Outcome o = oracle(op, r[d[i].a], r[d[i].b], f[d[i].a], f[d[i].b], F, RoundingMode::NearestEven,
                             IntegerDivision::Floor);
    if (!o.real_defined || !std::isfinite(o.f)) return false;
    r[i] = o.r;
    f[i] = o.f;
    const mpq_class &pa = pr[d[i].a], &pb = pr[d[i].b];
    pr_ok[i] = pr_ok[d[i].a] && pr_ok[d[i].b] && !(op == ArithOp::Div && sgn(pb) == 0);
    if (!pr_ok[i]) continue;
    switch (op) {
      case ArithOp::Add: pr[i] = pa + pb; break;
      case ArithOp::Sub: pr[i] = pa - pb; break;
      case ArithOp::Mul: pr[i] = pa * pb; break;
      case ArithOp::Div: pr[i] = pa / pb; break;
    }
  }
  return true;
}

bool split_enclosed(const SA& z, const mpq_class& r, double f, const mpq_class& pr) {
  return contains(z.propagated, mpq_class(pr - r)) && contains(z.introduced, mpq_class(exact_value(f) - pr));
}

long dag_campaign(std::uint64_t seed, long dags) {
  Generator g(seed);
  long checked = 0;
  const FloatFormat formats[] = {FP16, FP32, FP64};
  for (long t = 0; t < dags; ++t) {
    const FloatFormat& F = formats[t % 3];
    AffineOptions opt;
    opt.max_terms = static_cast<std::size_t>(g.pick(3, 48));
    AffineContext ctx(opt);
    AffineScope scope(ctx);
    const int n_inputs = g.pick(1, 3);
    const auto dag = random_dag(g, n_inputs);
    std::vector<Box> boxes;
    std::vector<SA> v;
    for (int i = 0; i < n_inputs; ++i) {
      const double lo = (g.unit() * 8 - 4), hi = lo + g.unit() * 4;
      const double l = round_to(lo, F, RoundingMode::Downward).value, h = round_to(hi, F, RoundingMode::Upward).value;
      const double e = g.pick(0, 1) ? 0.0 : ulp(std::max(std::fabs(l), std::fabs(h)), F) * g.unit();
      boxes.push_back({l, h, -e, e});
      v.push_back(SA::input(l, h, -e, e, F));
    }
    for (std::size_t i = n_inputs; i < dag.size(); ++i) {
      const SA &a = v[dag[i].a], &b = v[dag[i].b];
      v.push_back(dag[i].op == kMax   ? max(a, b)
                  : dag[i].op == kMin ? min(a, b)
                                      : arithmetic(static_cast<ArithOp>(dag[i].op), a, b));
    }
    for (int k = 0; k < 20; ++k) {
      std::vector<mpq_class> r(dag.size()), pr(dag.size());
      std::vector<double> f(dag.size());
      std::vector<char> pr_ok(dag.size());
      bool ok = true;
      for (int i = 0; i < n_inputs && ok; ++i) {
        const auto ex = g.execution(boxes[i], v[i].fp.lower(), v[i].fp.upper(), F, false);
        if (!ex) ok = false; else { r[i] = ex->r; f[i] = ex->f; }
      }
      if (!ok || !execute(dag, r, f, pr, pr_ok, F)) continue;
      for (std::size_t i = n_inputs; i < dag.size(); ++i) {
        const SA& z = v[i];
        const mpq_class e = exact_value(f[i]) - r[i];
        const bool good = contains(z.real, r[i]) && contains(z.fp, exact_value(f[i])) && contains(z.err, e) &&
                          (!pr_ok[i] || split_enclosed(z, r[i], f[i], pr[i]));
        if (!good) {
          std::ostringstream s;
          for (std::size_t j = 0; j < dag.size(); ++j)
            s << "  n" << j << " = " << (dag[j].op < 0 ? std::string("input") : node_name(dag[j].op) + "(n" + std::to_string(dag[j].a) + ", n" + std::to_string(dag[j].b) + ")")
              << "  r=" << r[j].get_d() << " f=" << hex(f[j]) << "  " << v[j] << "\n";
          FAIL(format_name(F) << " node " << i << " not enclosed:\n" << s.str());
        }
        ++checked;
      }
    }
  }
  return checked;
}

}  // namespace

TEST_CASE("SymbolicDomainError<Affine>: random DAGs with shared subexpressions are sound", "[affine][dag]") {
  const long n = dag_campaign(31337, std::max(1L, static_cast<long>(3000 * test_scale())));
  INFO(n << " node executions");
  CHECK(n > 1000 * test_scale());
}

TEST_CASE("SymbolicDomainError<Affine>: random DAGs, long run", "[.][affine][dag][long]") {
  CHECK(dag_campaign(4242, 100000) > 1000000);
}

TEST_CASE("SymbolicDomainError<Affine> is never wider than SymbolicDomainError<Interval> (tightness twin)",
          "[affine][tightness]") {
  using SI = SymbolicDomainError<Interval>;
  const long pairs = std::max(1L, static_cast<long>(2000 * test_scale()));
  for (const Format& format : kFormats) {
    for (ArithOp op : kOps) {
      Generator g(99 + static_cast<unsigned>(op));
      for (long p = 0; p < pairs; ++p) {
        AffineContext ctx;
        AffineScope scope(ctx);
        const Box bx = g.box(format), by = g.box(format);
        const IntegerDivision idiv = (p % 2) ? IntegerDivision::Floor : IntegerDivision::Truncate;
        const SA za = arithmetic(op, SA::input(bx.lo, bx.hi, bx.elo, bx.ehi, format),
                                 SA::input(by.lo, by.hi, by.elo, by.ehi, format), idiv);
        const SI zi = arithmetic(op, SI::input(bx.lo, bx.hi, bx.elo, bx.ehi, format),
                                 SI::input(by.lo, by.hi, by.elo, by.ehi, format), idiv);
        const auto inside = [](const Affine& a, const Interval& i) {
          return i.lower() <= a.lower() && a.upper() <= i.upper();
        };
        INFO(format_name(format) << " " << detail::op_name(op) << "\naffine " << za << "\ninterval " << zi);
        REQUIRE(inside(za.real, zi.real));
        REQUIRE(inside(za.fp, zi.fp));
        REQUIRE(inside(za.err, zi.err));
      }
    }
  }
}

// The operation memo's hash table (affine_symbolic.cpp, retire_table):
// outside a driver run, after 2^16 lookups that found nothing (products of
// operands used many times before, as in a matmul), it is no longer read or
// filled, and a repeated product of such operands gets new forms with the
// same ranges; under a driver run (its numbering active) it stays, and the
// repeated product is the same value (p − p = 0 exactly).
TEST_CASE("operation memo: the hash table retires outside a driver run only", "[affine][memo]") {
  for (bool driver_run : {false, true}) {
    INFO("driver run " << driver_run);
    const symerr::detail::QuantityNumbering saved = symerr::detail::quantity_numbering();
    if (driver_run) symerr::detail::quantity_numbering().generation = 1;
    AffineContext ctx;
    AffineScope scope(ctx);
    std::vector<SA> a, b;
    for (int i = 0; i < 300; ++i) {
      a.push_back(SA::input(-1, 1, -1e-6, 1e-6, FP32));
      b.push_back(SA::input(0.5, 2, -1e-6, 1e-6, FP32));
    }
    for (int i = 0; i < 300; ++i)
      for (int j = 0; j < 300; ++j) (void)(a[i] * b[j]);  // 90 000 distinct products, slots taken after the first
    const SA p = a[7] * b[11], q = a[7] * b[11];            // a repeat of one of them
    const SA d = p - q;
    CHECK(p.real.lower() == q.real.lower());
    CHECK(p.err.upper() == q.err.upper());
    CHECK(p.fp.upper() == q.fp.upper());
    if (driver_run) {
      CHECK(d.real.lower() == 0);
      CHECK(d.real.upper() == 0);
      CHECK(d.err.lower() == 0);
      CHECK(d.err.upper() == 0);
    } else {
      CHECK(d.err.upper() > 0);  // new forms: no longer exactly equal (sound either way)
    }
    symerr::detail::quantity_numbering() = saved;
  }
  // a fresh context memoises as before: x·x − x·x = 0
  AffineContext ctx;
  AffineScope scope(ctx);
  const SA x = SA::input(1, 2, FP16);
  const SA z = x * x - x * x;
  CHECK(z.err.lower() == 0);
  CHECK(z.err.upper() == 0);
}
