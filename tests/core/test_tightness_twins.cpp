// Tightness twins of the soundness tests (test_symbolic_soundness.cpp,
// test_unary_soundness.cpp): a SymbolicDomainError that returns "anything" —
// a wider err, propagated or rel_err, a special flag that cannot occur — fails
// here. The truth is computed by enumeration with the exact oracles: every
// pair of FP16 values in the boxes, every pair of integers, every vertex or a
// grid of the (real, error) box for the propagated part.
//
// Each twin reports `reported` against `truth`: sound (reported >= truth) and
// tight (reported <= (1 + slack) · truth, exactly 0 when the truth is 0). The
// last test case damages the results (err, propagated, rel_err widened by 10%,
// an impossible flag set) and requires every twin to fail.
#include <catch2/catch.hpp>

#include <functional>
#include <map>

#include <symerr/domains/interval.hpp>
#include <symerr/domains/mpfr_interval.hpp>
#include <symerr/domains/rational_interval.hpp>
#include <symerr/domains/symbolic_interval.hpp>

#include "core/symbolic_oracle.hpp"
#include "core/unary_oracle.hpp"

using namespace symerr;
using namespace symerr::test;

namespace {

// ---- the comparison every twin makes ----------------------------------------

std::string tight_defect(double reported, double truth, double slack) {
  std::ostringstream s;
  s << "reported " << reported << ", true maximum " << truth;
  if (reported < truth) return "UNSOUND: " + s.str();
  if (truth == 0 ? reported != 0 : reported > truth * (1 + slack)) return "LOOSE: " + s.str();
  return "";
}

// A damage applied to every result before it is measured (tests of the test).
template <class D>
using Plant = std::function<void(SymbolicDomainError<D>&)>;

template <class D>
SymbolicDomainError<D> planted(SymbolicDomainError<D> z, const Plant<D>& plant) {
  if (plant) plant(z);
  return z;
}

// ---- enumeration ------------------------------------------------------------

// The truths are computed once per case (the twins run for three domains and
// for every planted damage).
template <class T>
std::map<std::string, T>& cache_of() {
  static std::map<std::string, T> cache;
  return cache;
}
template <class T, class F>
const T& cached(const std::string& key, F compute) {
  std::map<std::string, T>& cache = cache_of<T>();
  auto it = cache.find(key);
  if (it == cache.end()) it = cache.emplace(key, compute()).first;
  return it->second;
}

std::vector<double> fp16_values_in(double lo, double hi) {
  std::vector<double> v;
  for (std::uint32_t bits = 0; bits < 0x10000; ++bits) {
    const double x = decode_fp16(static_cast<std::uint16_t>(bits));
    if (x >= lo && x <= hi && !(x == 0 && std::signbit(x))) v.push_back(x);
  }
  return v;
}

// The values of a float format in [lo, hi], walking the format's grid (the box
// must hold few of them).
std::vector<double> format_values_in(double lo, double hi, const FloatFormat& F) {
  std::vector<double> v;
  for (double x = round_to(lo, F, RoundingMode::Upward).value; x <= hi; x = next_up(x, F)) v.push_back(x);
  return v;
}

struct Truth {
  double err = 0, rel = 0;  // max |f − r|, max |f − r|/|r| (r ≠ 0)
};

// Over every pair of error-free inputs (real = computed = the enumerated values).
Truth enumerate_binary(ArithOp op, const std::vector<double>& as, const std::vector<double>& bs, const Format& F,
                       IntegerDivision idiv = IntegerDivision::Floor) {
  Truth t;
  for (double a : as)
    for (double b : bs) {
      if (op == ArithOp::Div && b == 0) continue;
      const Outcome o = oracle(op, exact_value(a), exact_value(b), a, b, F, RoundingMode::NearestEven, idiv);
      if (!std::isfinite(o.f)) continue;
      const mpq_class e = exact_value(o.f) - o.r;
      t.err = std::max(t.err, std::fabs(e.get_d()));
      if (sgn(o.r) != 0) t.rel = std::max(t.rel, std::fabs(mpq_class(e / o.r).get_d()));
    }
  return t;
}

// ---- binary operations on FP16 boxes: err and rel_err -----------------------

struct BoxCase {
  ArithOp op;
  double alo, ahi, blo, bhi;
};

const BoxCase kAddMulBoxes[] = {
    {ArithOp::Add, 1000, 1100, 0.1, 0.2},     // one binade of results, inexact
    {ArithOp::Add, 1, 1.25, 0.75, 1},         // results across a binade boundary
    {ArithOp::Add, -3, -2, 2.5, 4},           // cancellation: exact near 0, inexact above 2
    {ArithOp::Add, 0.5, 0.75, 1024, 1025},    // a tiny addend
    {ArithOp::Mul, 1, 1.5, 3, 3.25},
    {ArithOp::Mul, -40, -36, 0.25, 0.3},
    {ArithOp::Mul, 100, 110, 7, 9},
    {ArithOp::Mul, 1.5, 1.75, 2, 2},          // exact: a power-of-two factor
};

const Truth& fp16_truth(const BoxCase& c, const std::string& key) {
  return cached<Truth>(key, [&] {
    return enumerate_binary(c.op, fp16_values_in(c.alo, c.ahi), fp16_values_in(c.blo, c.bhi), FP16);
  });
}

template <class D>
std::vector<std::string> fp16_box_twin(const BoxCase& c, double slack, const Plant<D>& plant) {
  using SDE = SymbolicDomainError<D>;
  const auto z = planted(arithmetic(c.op, SDE::input(c.alo, c.ahi, FP16), SDE::input(c.blo, c.bhi, FP16)), plant);
  const std::string where = std::string(detail::op_name(c.op)) + " [" + std::to_string(c.alo) + "," +
                            std::to_string(c.ahi) + "] x [" + std::to_string(c.blo) + "," + std::to_string(c.bhi) + "]";
  const Truth& t = fp16_truth(c, where);
  std::vector<std::string> d;
  if (auto e = tight_defect(mag(z.err), t.err, slack); !e.empty()) d.push_back(where + " err: " + e);
  return d;
}

// rel_err on FP16 boxes away from zero: its enclosure (err / real intersected
// with the others) is looser than err's; measured ratios 1.0 (Add, Sub), 1.02
// and 1.15 (Div), 1.33 (Mul): within 50%.
const BoxCase kRelBoxes[] = {
    {ArithOp::Div, 1, 1.5, 3, 3.25},
    {ArithOp::Div, 1000, 1100, 7, 9},
    {ArithOp::Add, 1000, 1100, 0.1, 0.2},
    {ArithOp::Mul, 1, 1.5, 3, 3.25},
    {ArithOp::Sub, 1000, 1100, 0.1, 0.2},
};

template <class D>
std::vector<std::string> rel_err_twin(const BoxCase& c, double slack, const Plant<D>& plant) {
  using SDE = SymbolicDomainError<D>;
  const auto z = planted(arithmetic(c.op, SDE::input(c.alo, c.ahi, FP16), SDE::input(c.blo, c.bhi, FP16)), plant);
  const std::string where = std::string(detail::op_name(c.op)) + " [" + std::to_string(c.alo) + "," +
                            std::to_string(c.ahi) + "] x [" + std::to_string(c.blo) + "," + std::to_string(c.bhi) + "]";
  const Truth& t = fp16_truth(c, where);
  const std::string e = tight_defect(mag(z.rel_err), t.rel, slack);
  if (e.empty()) return {};
  return {std::string(detail::op_name(c.op)) + " rel_err: " + e};
}

// ---- integer formats --------------------------------------------------------

struct IntCase {
  ArithOp op;
  IntFormat I;
  double alo, ahi, blo, bhi;
  IntegerDivision idiv;
};

const IntCase kIntCases[] = {
    {ArithOp::Add, INT8, -50, 60, -20, 30, IntegerDivision::Floor},       // no wrap: exact
    {ArithOp::Sub, UINT8, 100, 200, 0, 90, IntegerDivision::Floor},       // no wrap: exact
    {ArithOp::Mul, INT8, -10, 10, -12, 12, IntegerDivision::Floor},       // no wrap: exact
    {ArithOp::Div, INT8, -100, 100, 3, 9, IntegerDivision::Floor},        // quotient rounding
    {ArithOp::Div, INT8, -100, 100, 3, 9, IntegerDivision::Truncate},
    {ArithOp::Div, UINT8, 0, 255, 7, 7, IntegerDivision::Floor},          // one divisor: err <= 6/7
    {ArithOp::Div, INT32, 1000, 1200, 10, 10, IntegerDivision::Truncate}, // one divisor: err <= 9/10
    {ArithOp::Add, INT4, 3, 7, 3, 7, IntegerDivision::Floor},             // wraps: err = -16 where it does
    {ArithOp::Mul, INT8, 100, 127, 2, 2, IntegerDivision::Floor},         // wraps: err = -256
};

std::vector<double> int_values(double lo, double hi) {
  std::vector<double> v;
  for (double x = lo; x <= hi; ++x) v.push_back(x);
  return v;
}

template <class D>
std::vector<std::string> int_twin(const IntCase& c, double slack, const Plant<D>& plant) {
  using SDE = SymbolicDomainError<D>;
  const auto z = planted(arithmetic(c.op, SDE::input(c.alo, c.ahi, c.I), SDE::input(c.blo, c.bhi, c.I), c.idiv), plant);
  const std::string key = std::string(c.I.name) + detail::op_name(c.op) + std::to_string(c.alo) + "," +
                          std::to_string(c.ahi) + "," + std::to_string(c.blo) + "," + std::to_string(c.bhi) +
                          std::string(to_string(c.idiv));
  const Truth& t = cached<Truth>(
      key, [&] { return enumerate_binary(c.op, int_values(c.alo, c.ahi), int_values(c.blo, c.bhi), c.I, c.idiv); });
  const std::string e = tight_defect(mag(z.err), t.err, slack);
  if (e.empty()) return {};
  return {std::string(c.I.name) + " " + detail::op_name(c.op) + " " + std::string(to_string(c.idiv)) + " err: " + e};
}

// ---- the propagated part ----------------------------------------------------

// Inputs with error on a dyadic grid (every r, r + e below is a double, so the
// sampled executions are executions of the inputs); FP64.
struct PropCase {
  ArithOp op;
  Box a, b;
};

const PropCase kPropCases[] = {
    {ArithOp::Add, {1, 1.25, -0x1p-20, 0x1p-21}, {3, 3.5, -0x1p-22, 0x1p-18}},
    {ArithOp::Sub, {-2, -1.5, 0, 0x1p-19}, {0.5, 0.75, -0x1p-20, 0x1p-20}},
    {ArithOp::Mul, {1, 1.25, -0x1p-20, 0x1p-21}, {3, 3.5, -0x1p-22, 0x1p-18}},
    {ArithOp::Mul, {-4, -3, -0x1p-16, 0x1p-16}, {0.5, 0.625, 0, 0x1p-18}},
    {ArithOp::Div, {1, 1.25, -0x1p-20, 0x1p-21}, {3, 3.5, -0x1p-22, 0x1p-18}},
    {ArithOp::Div, {-4, -3, -0x1p-16, 0x1p-16}, {0.5, 0.625, 0, 0x1p-18}},
};

// max |t − r| over a grid of n points per coordinate (r_a, e_a, r_b, e_b); for
// Add, Sub and Mul, t − r is multilinear in them and the vertices (n = 2)
// already give the exact maximum.
double propagated_truth(const PropCase& c, int n) {
  const auto grid = [n](double lo, double hi) {
    std::vector<mpq_class> v;
    for (int k = 0; k < n; ++k) v.push_back(exact_value(lo) + (exact_value(hi) - exact_value(lo)) * mpq_class(k, n - 1));
    return v;
  };
  double worst = 0;
  for (const mpq_class& ra : grid(c.a.lo, c.a.hi))
    for (const mpq_class& ea : grid(c.a.elo, c.a.ehi))
      for (const mpq_class& rb : grid(c.b.lo, c.b.hi))
        for (const mpq_class& eb : grid(c.b.elo, c.b.ehi)) {
          const mpq_class fa = ra + ea, fb = rb + eb;
          mpq_class d;
          switch (c.op) {
            case ArithOp::Add: d = fa + fb - (ra + rb); break;
            case ArithOp::Sub: d = fa - fb - (ra - rb); break;
            case ArithOp::Mul: d = fa * fb - ra * rb; break;
            case ArithOp::Div: d = fa / fb - ra / rb; break;
          }
          worst = std::max(worst, std::fabs(d.get_d()));
        }
  return worst;
}

template <class D>
std::vector<std::string> propagated_twin(const PropCase& c, double slack, const Plant<D>& plant) {
  using SDE = SymbolicDomainError<D>;
  const auto x = SDE::input(c.a.lo, c.a.hi, c.a.elo, c.a.ehi, FP64);
  const auto y = SDE::input(c.b.lo, c.b.hi, c.b.elo, c.b.ehi, FP64);
  const auto z = planted(arithmetic(c.op, x, y), plant);
  const double truth = cached<double>(std::string(detail::op_name(c.op)) + describe(c.a) + describe(c.b),
                                      [&] { return propagated_truth(c, c.op == ArithOp::Div ? 9 : 2); });
  // for Div the grid's maximum is a lower bound of the supremum: soundness is
  // then checked against it, tightness within the slack of it.
  const std::string e = tight_defect(mag(z.propagated), truth, slack);
  if (e.empty()) return {};
  return {std::string(detail::op_name(c.op)) + " propagated: " + e};
}

// ---- special-value flags ----------------------------------------------------

// The flags that occur over every pair of FP16 values in the boxes (error-free
// inputs: real = computed).
SpecialStates occurring_flags(ArithOp op, const std::vector<double>& as, const std::vector<double>& bs) {
  SpecialStates s{.may_be_finite = false, .may_be_pos_inf = false, .may_be_neg_inf = false,
                  .may_be_nan = false, .may_be_pos_zero = false, .may_be_neg_zero = false,
                  .may_be_defined = false, .may_be_undefined = false, .may_overflow = false};
  for (double a : as)
    for (double b : bs) {
      const Outcome o = oracle(op, exact_value(a), exact_value(b), a, b, FP16, RoundingMode::NearestEven,
                               IntegerDivision::Floor);
      (o.real_defined ? s.may_be_defined : s.may_be_undefined) = true;
      if (std::isnan(o.f)) s.may_be_nan = true;
      else if (std::isinf(o.f)) (o.f > 0 ? s.may_be_pos_inf : s.may_be_neg_inf) = true;
      else {
        s.may_be_finite = true;
        if (o.f == 0) (std::signbit(o.f) ? s.may_be_neg_zero : s.may_be_pos_zero) = true;
      }
    }
  return s;
}

struct FlagCase {
  ArithOp op;
  std::vector<double> a, b;  // the FP16 values of each input (signed zeros included)
};

// Each flag reported must occur, and each occurring one must be reported. The
// zero-sign flags are compared when a zero occurs (they are meaningless when
// 0 is not in fp).
template <class D>
std::vector<std::string> flag_twin(const FlagCase& c, const Plant<D>& plant) {
  using SDE = SymbolicDomainError<D>;
  const auto input = [](const std::vector<double>& v) {
    SDE x = SDE::input(v.front(), v.back(), FP16);
    // a box whose only zero is −0, or that holds both zeros
    const bool neg0 = std::any_of(v.begin(), v.end(), [](double d) { return d == 0 && std::signbit(d); });
    const bool pos0 = std::any_of(v.begin(), v.end(), [](double d) { return d == 0 && !std::signbit(d); });
    if (neg0 || pos0) {
      x.specials.may_be_neg_zero = neg0;
      x.specials.may_be_pos_zero = pos0;
    }
    return x;
  };
  const auto z = planted(arithmetic(c.op, input(c.a), input(c.b)), plant);
  std::vector<double> as, bs;  // every FP16 value of the boxes
  for (double v : fp16_values_in(c.a.front(), c.a.back())) as.push_back(v);
  for (double v : fp16_values_in(c.b.front(), c.b.back())) bs.push_back(v);
  for (const std::vector<double>* src : {&c.a, &c.b})
    for (double v : *src)
      if (v == 0 && std::signbit(v)) (src == &c.a ? as : bs).push_back(v);
  if (!std::any_of(c.a.begin(), c.a.end(), [](double d) { return d == 0 && !std::signbit(d); }))
    std::erase_if(as, [](double d) { return d == 0 && !std::signbit(d); });
  if (!std::any_of(c.b.begin(), c.b.end(), [](double d) { return d == 0 && !std::signbit(d); }))
    std::erase_if(bs, [](double d) { return d == 0 && !std::signbit(d); });
  std::ostringstream k;
  k << detail::op_name(c.op);
  for (double v : as) k << ' ' << hex(v);
  k << " |";
  for (double v : bs) k << ' ' << hex(v);
  const std::string key = k.str();
  const SpecialStates truth = cached<SpecialStates>(key, [&] { return occurring_flags(c.op, as, bs); });
  const SpecialStates& got = z.specials;
  std::vector<std::string> d;
  const auto compare = [&](const char* name, bool reported, bool occurs) {
    if (reported != occurs)
      d.push_back(std::string(detail::op_name(c.op)) + " [" + std::to_string(c.a.front()) + "," +
                  std::to_string(c.a.back()) + "] x [" + std::to_string(c.b.front()) + "," +
                  std::to_string(c.b.back()) + "]: " + name + (reported ? " reported, cannot occur" : " occurs, not reported"));
  };
  compare("finite", got.may_be_finite, truth.may_be_finite);
  compare("+inf", got.may_be_pos_inf, truth.may_be_pos_inf);
  compare("-inf", got.may_be_neg_inf, truth.may_be_neg_inf);
  compare("NaN", got.may_be_nan, truth.may_be_nan);
  compare("defined", got.may_be_defined, truth.may_be_defined);
  compare("undefined", got.may_be_undefined, truth.may_be_undefined);
  if (truth.may_be_pos_zero || truth.may_be_neg_zero) {
    compare("+0", got.may_be_pos_zero, truth.may_be_pos_zero);
    compare("-0", got.may_be_neg_zero, truth.may_be_neg_zero);
  }
  return d;
}

const double kMax16 = 65504;
std::vector<FlagCase> flag_cases() {
  return {
      {ArithOp::Add, {1, 1.125}, {3, 3.25}},           // finite only
      {ArithOp::Add, {60000, kMax16}, {1000, 1100}},   // overflow to +inf, and finite
      {ArithOp::Add, {60000, kMax16}, {8000, 8200}},   // always +inf
      {ArithOp::Sub, {-kMax16, -60000}, {8000, 8200}}, // always -inf
      {ArithOp::Sub, {1, 1.125}, {1, 1.125}},          // +0 (x − x), finite
      {ArithOp::Add, {-0.0, -0.0}, {-0.0, -0.0}},      // −0 + −0 = −0
      {ArithOp::Mul, {-2, -1}, {0, 0}},                // −0 only
      {ArithOp::Mul, {1, 1.125}, {-3, -2.75}},         // negative finite, no zero
      {ArithOp::Div, {1, 1.125}, {0, 0}},              // +inf, real undefined
      {ArithOp::Div, {0, 0}, {0, 0}},                  // NaN, real undefined
      {ArithOp::Div, {1, 1.125}, {3, 3.25}},           // finite, defined
      {ArithOp::Div, {-1.125, -1}, {0, 0x1p-20}},      // −inf at 0, finite elsewhere
      {ArithOp::Div, {0x1p-14, 0x1.1p-14}, {1024, 1100}},// underflow to +0
      {ArithOp::Mul, {300, 310}, {300, 310}},          // always overflows to +inf
  };
}

// ---- unary operations -------------------------------------------------------

// sqrt and convert on boxes of error-free inputs: max |f − r| by enumeration.
template <class D>
std::vector<std::string> unary_err_twin(Unary op, const FloatFormat& from, const FloatFormat& to, double lo, double hi,
                                        double slack, const Plant<D>& plant) {
  using SDE = SymbolicDomainError<D>;
  const SDE x = SDE::input(lo, hi, from);
  const SDE z = planted(op == Unary::Sqrt ? sqrt(x) : convert(x, to), plant);
  const std::string key = std::string(to_string(op)) + std::string(from.name) + std::string(to.name) + hex(lo) + hex(hi);
  const double truth = cached<double>(key, [&] {
    double worst = 0;
    const std::vector<double> xs = from.name == FP16.name ? fp16_values_in(lo, hi) : format_values_in(lo, hi, from);
    for (double f : xs) {
      const UnaryOutcome o = unary_oracle(op, exact_value(f), f, from, to, RoundingMode::NearestEven);
      if (!std::isfinite(o.f)) continue;
      const mpq_class fz = exact_value(o.f);
      worst = std::max({worst, std::fabs(mpq_class(fz - o.r.lo).get_d()), std::fabs(mpq_class(fz - o.r.hi).get_d())});
    }
    return worst;
  });
  const std::string e = tight_defect(mag(z.err), truth, slack);
  if (e.empty()) return {};
  return {std::string(to_string(op)) + " " + std::string(from.name) + " -> " + std::string(to.name) + " [" + std::to_string(lo) + "," +
          std::to_string(hi) + "]: " + e};
}

// −x and abs are exact: err and propagated are x's (abs: ±x's on a box of one
// sign), and nothing is introduced.
template <class D>
std::vector<std::string> exact_unary_twin(Unary op, const Box& b, const Format& F, const Plant<D>& plant) {
  using SDE = SymbolicDomainError<D>;
  const SDE x = SDE::input(b.lo, b.hi, b.elo, b.ehi, F);
  const SDE z = planted(op == Unary::Neg ? -x : abs(x), plant);
  const bool flip = op == Unary::Neg || b.hi <= 0;
  const D want = flip ? -x.err : x.err;
  std::vector<std::string> d;
  const std::string where = std::string(to_string(op)) + " " + format_name(F) + " " + describe(b) + ": ";
  if (!(subset(z.err, want) && subset(want, z.err))) d.push_back(where + "err is not exactly ±err_x");
  if (mag(z.introduced) != 0) d.push_back(where + "introduced is not 0");
  if (width(z.real) > width(x.real) || width(z.fp) > width(x.fp)) d.push_back(where + "real or fp wider than x's");
  return d;
}

const Box kExactUnaryBoxes[] = {
    {1, 2, -0x1p-20, 0x1p-22}, {-8, -3, 0, 0x1p-10}, {0x1p-10, 0x1p-9, -0x1p-30, 0x1p-30}, {-100, -50, -0.25, 0.5}};

// The propagated part of sqrt: sqrt(f) − sqrt(r), monotone in r and f, so its
// extremes are at the vertices of the (r, e) box.
template <class D>
std::vector<std::string> sqrt_propagated_twin(const Box& b, double slack, const Plant<D>& plant) {
  using SDE = SymbolicDomainError<D>;
  const SDE z = planted(sqrt(SDE::input(b.lo, b.hi, b.elo, b.ehi, FP64)), plant);
  double truth = 0;
  for (double r : {b.lo, b.hi})
    for (double e : {b.elo, b.ehi}) {
      const Enclosed sf = sqrt_enclosed(exact_value(r) + exact_value(e)), sr = sqrt_enclosed(exact_value(r));
      truth = std::max(truth, std::fabs(mpq_class(sf.lo - sr.lo).get_d()));
    }
  const std::string e = tight_defect(mag(z.propagated), truth, slack);
  if (e.empty()) return {};
  return {"sqrt propagated " + describe(b) + ": " + e};
}

// ---- every twin, with one damage applied ------------------------------------

template <class D>
std::vector<std::string> all_twins(const Plant<D>& plant) {
  std::vector<std::string> d;
  const auto add = [&d](std::vector<std::string> v) { d.insert(d.end(), v.begin(), v.end()); };
  for (const BoxCase& c : kAddMulBoxes) add(fp16_box_twin<D>(c, 0.05, plant));
  for (const BoxCase& c : kRelBoxes) add(rel_err_twin<D>(c, 0.5, plant));
  for (const IntCase& c : kIntCases) add(int_twin<D>(c, 0.05, plant));
  for (const PropCase& c : kPropCases) add(propagated_twin<D>(c, 0.05, plant));
  for (const FlagCase& c : flag_cases()) add(flag_twin<D>(c, plant));
  add(unary_err_twin<D>(Unary::Sqrt, FP16, FP16, 1, 4, 0.05, plant));
  add(unary_err_twin<D>(Unary::Sqrt, FP16, FP16, 100, 120, 0.05, plant));
  add(unary_err_twin<D>(Unary::Convert, FP16, BF16, 1, 8, 0.05, plant));
  add(unary_err_twin<D>(Unary::Convert, FP16, BF16, -1000, -900, 0.05, plant));
  add(unary_err_twin<D>(Unary::Convert, FP32, FP16, 1, 1 + 0x1p-8, 0.05, plant));
  add(unary_err_twin<D>(Unary::Convert, FP64, FP32, 3, 3 + 0x1p-40, 0.05, plant));
  add(unary_err_twin<D>(Unary::Convert, FP16, FP32, 1, 8, 0.05, plant));  // exact: err must be 0
  for (const Box& b : kExactUnaryBoxes) {
    add(exact_unary_twin<D>(Unary::Neg, b, FP32, plant));
    add(exact_unary_twin<D>(Unary::Abs, b, FP32, plant));
  }
  add(sqrt_propagated_twin<D>({1, 1.25, -0x1p-20, 0x1p-21}, 0.05, plant));
  add(sqrt_propagated_twin<D>({100, 101, 0, 0x1p-10}, 0.05, plant));
  return d;
}

template <class D>
void require_no_defect(const std::vector<std::string>& defects) {
  for (const std::string& s : defects) FAIL_CHECK(s);
  CHECK(defects.empty());
}

}  // namespace

TEMPLATE_TEST_CASE("tightness twins: Add/Mul boxes, integers, propagated, rel_err, flags, unary ops",
                   "[core][tightness]", Interval, MpfrInterval, RationalInterval) {
  require_no_defect<TestType>(all_twins<TestType>({}));
}

TEST_CASE("the tightness twins fail on planted looseness", "[core][tightness]") {
  using SDE = SymbolicError;
  const auto widen = [](Interval& a) { a = hull(a, a * Interval::point(1.1)); };
  struct Damage {
    const char* what;
    Plant<Interval> plant;
    std::size_t min_defects;  // at least this many twins must fail
  };
  const Damage damages[] = {
      {"err 10% wider", [&](SDE& z) { widen(z.err); }, 20},
      {"err +- one FP16 ulp at 1", [](SDE& z) { z.err = z.err + Interval::between(-0x1p-10, 0x1p-10); }, 20},
      {"propagated 10% wider", [&](SDE& z) { widen(z.propagated); }, 6},
      {"rel_err 60% wider", [](SDE& z) { z.rel_err = z.rel_err * Interval::point(1.6); }, 5},
      {"NaN flag always set", [](SDE& z) { z.specials.may_be_nan = true; }, 10},
      {"+inf flag always set", [](SDE& z) { z.specials.may_be_pos_inf = true; }, 10},
      {"undefined flag always set", [](SDE& z) { z.specials.may_be_undefined = true; }, 10},
      {"-0 flag always set", [](SDE& z) { z.specials.may_be_neg_zero = true; }, 1},
      {"introduced not 0", [](SDE& z) { z.introduced = Interval::between(-0x1p-60, 0x1p-60); }, 8},
  };
  for (const Damage& d : damages) {
    const auto defects = all_twins<Interval>(d.plant);
    INFO(d.what << ": " << defects.size() << " twins failed" << (defects.empty() ? "" : "; first: " + defects.front()));
    CHECK(defects.size() >= d.min_defects);
  }
}
