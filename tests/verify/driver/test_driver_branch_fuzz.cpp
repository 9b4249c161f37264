// Random branching kernels through the driver, Interval domain (SymbolicError),
// against exact executions: compare-and-swap, max/min into a third local,
// clipping at constants, a select between two locals, sums, a jump, negation
// and fabs (results that are other quantities than their operand). The
// locals start as copies of the inputs, so the driver's input tags
// (SymbolicDomainError::source) make unstable pairs of copy outputs bounded
// under both paths' conditions (driver.hpp, "Unstable pairs"); results of
// operations carry no tag (test_input_tags.cpp checks every operation).
// Executions: a quarter with two inputs in the band of one another (equal
// computed values, reals within the input error), a quarter in the band of
// each other's negation, a quarter with an input in the band of a clipping
// constant.
// Tightness twin: a program of compare-and-swap, max/min and clipping only
// computes a lattice polynomial of the inputs and constants (1-Lipschitz in
// the sup norm), so |err| <= e exactly; its bound must be e (up to the
// certificate's rounding). (A select is a copy too, but discontinuous.)
#include <catch2/catch.hpp>

#include <cmath>
#include <algorithm>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include <symerr/verify/symbolic/driver.hpp>

#include "dropin/sampling.hpp"

using namespace symerr;

namespace {

constexpr int kLocals = 4;
constexpr double kConstants[] = {-0.5, 0.0, 0.25, 0.5};

// StdMax and ConstMin compare const objects (std::max's `a < b`, const locals):
// the driver relates them through the input tags the comparison copies.
enum class Op { Cas, MaxInto, MinInto, ClipLo, ClipHi, StdMax, ConstMin, Select, Add, Jump, Neg, Abs };

struct Step {
  Op op;
  int a, b, c;
  double k;
};

mpq_class magnitude(const mpq_class& q) { return abs(q); }
double magnitude(double x) { return std::fabs(x); }
float magnitude(float x) { return std::fabs(x); }
SymbolicError magnitude(const SymbolicError& x) { return fabs(x); }

template <class T>
void run_program(const std::vector<Step>& prog, const T* x, T* y) {
  T v[kLocals] = {x[0], x[1], x[2], x[3]};
  for (const Step& s : prog) {
    T& a = v[s.a];
    T& b = v[s.b];
    switch (s.op) {
      case Op::Cas:
        if (b < a) {
          T t = a;
          a = b;
          b = t;
        }
        break;
      case Op::MaxInto:
        if (a > b) v[s.c] = a;
        else v[s.c] = b;
        break;
      case Op::MinInto:
        if (a <= b) v[s.c] = a;
        else v[s.c] = b;
        break;
      case Op::ClipLo:
        if (a < T(s.k)) a = T(s.k);
        break;
      case Op::ClipHi:
        if (a > T(s.k)) a = T(s.k);
        break;
      case Op::StdMax: v[s.c] = std::max(a, b); break;
      case Op::ConstMin: {
        const T ca = a, cb = b;
        v[s.c] = ca <= cb ? ca : cb;
        break;
      }
      case Op::Select: v[s.c] = a >= T(s.k) ? b : a; break;
      case Op::Add: v[s.c] = a + b; break;
      case Op::Jump:
        if (a >= b) v[s.c] = a - b;
        break;
      case Op::Neg: v[s.c] = -a; break;
      case Op::Abs: v[s.c] = magnitude(a); break;
    }
  }
  y[0] = v[0];
  y[1] = v[1];
}

std::vector<Step> random_program(std::mt19937_64& rng, bool copies_only) {
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  std::vector<Step> p;
  const int n = pick(2, 5);
  for (int i = 0; i < n; ++i) {
    Step s{};
    s.op = static_cast<Op>(pick(0, copies_only ? 6 : 11));
    s.a = pick(0, kLocals - 1);
    do s.b = pick(0, kLocals - 1);
    while (s.b == s.a);
    s.c = pick(0, kLocals - 1);
    s.k = kConstants[pick(0, 3)];
    p.push_back(s);
  }
  return p;
}

std::string describe(const std::vector<Step>& prog) {
  static const char* names[] = {"cas",    "max",    "min", "clip_lo", "clip_hi", "std_max",
                                "cmin",   "select", "add", "jump",    "neg",     "abs"};
  std::string out;
  for (const Step& s : prog)
    out += std::string(names[static_cast<int>(s.op)]) + "(" + std::to_string(s.a) + "," + std::to_string(s.b) + "," +
           std::to_string(s.c) + "," + std::to_string(s.k) + ") ";
  return out;
}

}  // namespace

TEST_CASE("random branching kernels on copies, constants and sums: sound in the Interval domain, tight on copies",
          "[verify][driver][relational]") {
  const struct {
    FloatFormat F;
    double e;
  } cases[] = {{FP64, 1e-12}, {FP32, 0x1p-20}};
  std::mt19937_64 rng(2026);
  const int programs = static_cast<int>(symerr::test::scaled(40, 12));
  const std::size_t trials = symerr::test::scaled(3000, 600);
  std::size_t relational = 0, tight_programs = 0;
  for (const auto& c : cases) {
    for (int pi = 0; pi < programs; ++pi) {
      const bool copies_only = pi % 2 == 0;
      const std::vector<Step> prog = random_program(rng, copies_only);
      INFO(c.F.name << " program " << pi << (copies_only ? " (copies only): " : ": ") << describe(prog));
      const std::vector<SymbolicError> box(kLocals, symerr::test::unit_box(c.F, c.e));
      const auto res = verify::run_kernel(
          [&prog](std::span<SymbolicError> x, std::span<SymbolicError> y) { run_program(prog, x.data(), y.data()); },
          box, 2);
      INFO(res.report.summary());
      REQUIRE_FALSE(res.report.budget_exhausted);
      relational += res.report.relational_pairs;
      symerr::test::InputSampler gen(static_cast<std::uint64_t>(pi) * 7 + 1, c.F, c.e);
      std::size_t bad = 0;
      double max_err = 0;
      for (std::size_t t = 0; t < trials; ++t) {
        mpq_class r[kLocals], ry[2];
        double f[kLocals], fy[2];
        gen.fill(r, f, kLocals);
        const int i = gen.pick(0, kLocals - 1), j = gen.pick(0, kLocals - 1);
        const mpq_class d = exact_value(c.e) * mpq_class(gen.pick(-4, 4), 4);
        if (t % 4 == 1) {  // x_j in the band of x_i
          f[j] = f[i];
          r[j] = exact_value(f[i]) - d;
        } else if (t % 4 == 2) {  // x_j in the band of −x_i (a negated local against another)
          f[j] = -f[i];
          r[j] = exact_value(f[j]) - d;
        } else if (t % 4 == 3) {  // x_i in the band of a constant
          f[i] = kConstants[gen.pick(0, 3)];
          r[i] = exact_value(f[i]) - d;
        }
        if (r[j] > 1 || r[j] < -1 || r[i] > 1 || r[i] < -1) continue;
        run_program<mpq_class>(prog, r, ry);
        if (c.F.precision == 24) {
          float xf[kLocals], yf[2];
          for (int k = 0; k < kLocals; ++k) xf[k] = static_cast<float>(f[k]);
          run_program<float>(prog, xf, yf);
          fy[0] = yf[0], fy[1] = yf[1];
        } else {
          run_program<double>(prog, f, fy);
        }
        for (int k = 0; k < 2; ++k) {
          max_err = std::max(max_err, std::fabs(mpq_class(exact_value(fy[k]) - ry[k]).get_d()));
          if (!symerr::test::encloses(res.outputs[k], ry[k], fy[k])) ++bad;
        }
      }
      CHECK(bad == 0);
      if (copies_only) {
        ++tight_programs;
        CHECK(max_err <= c.e);
        for (int k = 0; k < 2; ++k) CHECK(mag(res.outputs[k].err) <= c.e * (1 + 1e-6));
      }
    }
  }
  std::printf("branch fuzz: %d programs x %zu executions per format, %zu unstable pairs bounded relationally, "
              "%zu copy-only programs at e\n",
              programs, trials, relational, tight_programs);
  CHECK(relational > 0);
}
