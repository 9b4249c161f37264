// C_TYPES on random mixed float/double programs. One interpreter (a template
// over the float type F and the double type Dd) runs each program three
// ways: on CFloat/CDouble (the symbolic result), on float/double (C++ and C
// have the same usual arithmetic conversions for these types, so this is the
// computed result of the C program) and on symref::Enclosure for both (the
// ideal program, 256-bit MPFR intervals). Programs of 3–12 operations over a
// register file (registers reused: shared subexpressions) mix float and
// double operands, float, double and int literals, narrowing and widening
// conversions, compound assignment, sqrt/sqrtf/fabs/fabsf and fmaxf, and a
// division by 1 + a square. Every output's enclosure must hold every sampled
// execution; tightness twin: the bound within a factor of the largest
// observed error (median and worst over the programs).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <math.h>
#include <random>
#include <vector>

#include <gmpxx.h>
#include <mpfr.h>

#include <symerr/c_types.hpp>

#include "substitute/enclosure_check.hpp"
#include "substitute/enclosure_prelude.hpp"
#include "test_scale.hpp"

using symerr::CDouble;
using symerr::CFloat;
using symerr::SymbolicError;
using symref::Enclosure;

namespace {

enum class Op {
  AddFF, SubFF, MulFF,     // float ∘ float: float
  AddFD, MulDF, SubDD,     // a double operand: double
  MulFLitF, AddFLitD,      // a float literal: float; a double literal: double
  MulFInt,                 // an int: converted to float
  Narrow, Widen,           // (float)d, (double)f
  CompoundFD,              // f += d (f = (float)(f + d))
  SqrtF, SqrtfF, FabsD,    // sqrt(fabs((double)f)): double; sqrtf(fabsf(f)): float; fabs(d)
  DivF,                    // f / (1 + f'·f'): float
  FmaxF,                   // fmaxf(f, f')
};
constexpr int kOps = 17;

struct Step {
  Op op;
  int a, b;    // register indices (into the float or the double file, per the op)
  double lit;  // the literal's value (a float value for float literals)
};
struct Program {
  std::vector<Step> steps;
};

constexpr int kFloatInputs = 3, kDoubleInputs = 2;

// The native spellings of the C functions for float/double (C++'s <cmath>;
// its fabs/sqrt of a float are float functions, so the program widens to
// double explicitly where C would promote: sqrt(fabs((double)f))).
// (fabsf, sqrtf, fmaxf: <math.h>'s, global)
using std::fabs;
using std::sqrt;

// Registers: every step appends to the float file or the double file.
template <class F, class Dd>
void run(const Program& p, std::vector<F>& f, std::vector<Dd>& d) {
  for (const Step& s : p.steps) {
    const auto fi = [&](int k) -> const F& { return f[static_cast<std::size_t>(k % static_cast<int>(f.size()))]; };
    const auto di = [&](int k) -> const Dd& { return d[static_cast<std::size_t>(k % static_cast<int>(d.size()))]; };
    switch (s.op) {
      case Op::AddFF: f.push_back(fi(s.a) + fi(s.b)); break;
      case Op::SubFF: f.push_back(fi(s.a) - fi(s.b)); break;
      case Op::MulFF: f.push_back(fi(s.a) * fi(s.b)); break;
      case Op::AddFD: d.push_back(fi(s.a) + di(s.b)); break;
      case Op::MulDF: d.push_back(di(s.a) * fi(s.b)); break;
      case Op::SubDD: d.push_back(di(s.a) - di(s.b)); break;
      case Op::MulFLitF: f.push_back(fi(s.a) * static_cast<float>(s.lit)); break;
      case Op::AddFLitD: d.push_back(fi(s.a) + s.lit); break;
      case Op::MulFInt: f.push_back(fi(s.a) * static_cast<int>(s.lit)); break;
      case Op::Narrow: f.push_back(static_cast<F>(di(s.a))); break;
      case Op::Widen: d.push_back(static_cast<Dd>(fi(s.a))); break;
      case Op::CompoundFD: {
        F t = fi(s.a);
        t += di(s.b);
        f.push_back(t);
        break;
      }
      case Op::SqrtF: d.push_back(sqrt(fabs(static_cast<Dd>(fi(s.a))))); break;
      case Op::SqrtfF: f.push_back(sqrtf(fabsf(fi(s.a)))); break;
      case Op::FabsD: d.push_back(fabs(di(s.a))); break;
      case Op::DivF: f.push_back(fi(s.a) / (1.0f + fi(s.b) * fi(s.b))); break;
      case Op::FmaxF: f.push_back(fmaxf(fi(s.a), fi(s.b))); break;
    }
  }
}

Program random_program(std::mt19937_64& rng) {
  std::uniform_int_distribution<int> len(3, 12), op(0, kOps - 1), reg(0, 1 << 20), lit(0, 5);
  const double lits[] = {0.1, 0.5, 3.0, 1e-3, 0.7978845608, 2.0};
  Program p;
  const int n = len(rng);
  for (int i = 0; i < n; ++i) {
    Step s{static_cast<Op>(op(rng)), reg(rng), reg(rng), lits[lit(rng)]};
    if (s.op == Op::MulFLitF) s.lit = static_cast<float>(s.lit);
    if (s.op == Op::MulFInt) s.lit = lit(rng) == 0 ? 16777217 : lit(rng) + 2;  // 2^24 + 1 rounds to float
    p.steps.push_back(s);
  }
  return p;
}

}  // namespace

TEST_CASE("C_TYPES: random mixed float/double programs, sound against exact executions", "[substitute][c_types]") {
  std::mt19937_64 rng(2026);
  const int programs = static_cast<int>(symerr::test::scaled(120, 30));
  const int executions = static_cast<int>(symerr::test::scaled(400, 100));
  const double ef = 0x1p-20, ed = 1e-12;
  std::vector<double> ratios;
  long checked = 0;
  for (int prog = 0; prog < programs; ++prog) {
    const Program p = random_program(rng);
    std::vector<CFloat> sf;
    std::vector<CDouble> sd;
    for (int i = 0; i < kFloatInputs; ++i) sf.push_back(CFloat(SymbolicError::input(-1, 1, -ef, ef, symerr::FP32)));
    for (int i = 0; i < kDoubleInputs; ++i) sd.push_back(CDouble(SymbolicError::input(-1, 1, -ed, ed, symerr::FP64)));
    run(p, sf, sd);
    std::vector<double> observed_f(sf.size(), 0), observed_d(sd.size(), 0);
    std::uniform_real_distribution<double> u(-1, 1), uf(-ef, ef), ud(-ed, ed);
    symref::ExecutionCheck encloses;
    for (int x = 0; x < executions; ++x) {
      std::vector<float> nf;
      std::vector<double> nd;
      std::vector<Enclosure> rf, rd;
      for (int i = 0; i < kFloatInputs; ++i) {
        const float v = static_cast<float>(u(rng));
        nf.push_back(v);
        mpq_class q = mpq_class(static_cast<double>(v)) - mpq_class(uf(rng));
        q = std::clamp(q, mpq_class(-1), mpq_class(1));
        rf.emplace_back(q);
      }
      for (int i = 0; i < kDoubleInputs; ++i) {
        const double v = u(rng);
        nd.push_back(v);
        mpq_class q = mpq_class(v) - mpq_class(ud(rng));
        q = std::clamp(q, mpq_class(-1), mpq_class(1));
        rd.emplace_back(q);
      }
      run(p, nf, nd);
      run(p, rf, rd);
      for (std::size_t i = kFloatInputs; i < sf.size(); ++i) {
        INFO("program " << prog << " float register " << i << ": f = " << nf[i] << ", symbolic " << sf[i]);
        CHECK(encloses(sf[i], nf[i], rf[i], observed_f[i]));
        ++checked;
      }
      for (std::size_t i = kDoubleInputs; i < sd.size(); ++i) {
        INFO("program " << prog << " double register " << i << ": f = " << nd[i] << ", symbolic " << sd[i]);
        CHECK(encloses(sd[i], nd[i], rd[i], observed_d[i]));
        ++checked;
      }
    }
    // the last register written: its bound against its largest observed error
    const bool last_float = p.steps.empty() ? true : [&] {
      switch (p.steps.back().op) {
        case Op::AddFD: case Op::MulDF: case Op::SubDD: case Op::AddFLitD: case Op::Widen: case Op::SqrtF:
        case Op::FabsD: return false;
        default: return true;
      }
    }();
    const SymbolicError& last = last_float ? static_cast<const SymbolicError&>(sf.back()) : sd.back();
    const double obs = last_float ? observed_f.back() : observed_d.back();
    const double bound = symerr::mag(last.err);
    if (obs > 0) ratios.push_back(bound / obs);
  }
  std::sort(ratios.begin(), ratios.end());
  INFO(checked << " checks; ratios bound / observed: median " << ratios[ratios.size() / 2] << ", worst "
               << ratios.back() << " over " << ratios.size() << " programs");
  CHECK(checked > 1000);
  CHECK(ratios.size() > static_cast<std::size_t>(programs / 2));
  CHECK(ratios[ratios.size() / 2] <= 4);
  WARN(checked << " checks; ratios bound / observed: median " << ratios[ratios.size() / 2] << ", worst "
               << ratios.back() << " over " << ratios.size() << " programs");
}
