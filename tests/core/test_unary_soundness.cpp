// Soundness of the unary operations of SymbolicDomainError — −x, abs, sqrt and
// convert — per operation × format × domain (Interval, MpfrInterval,
// RationalInterval): random symbolic inputs of every shape (the generator of
// test_symbolic_soundness.cpp) and, inside each, random concrete executions
// whose outcome is computed exactly (GMP rationals, MPFR at 512 bits for square
// roots): r ∈ real, f ∈ fp, f − r ∈ err, (f − r)/r ∈ rel_err, t − r ∈
// propagated, f − t ∈ introduced, and every special state flagged when it
// occurs. sqrt and convert run in all four rounding modes.
//
// The last test case plants bugs in the results (an err one point wide, a
// cleared NaN flag, a real part shifted by one ulp, ...) and requires the same
// checks to catch each of them.
#include <catch2/catch.hpp>

#include <functional>

#include <symerr/domains/interval.hpp>
#include <symerr/domains/mpfr_interval.hpp>
#include <symerr/domains/rational_interval.hpp>
#include <symerr/domains/symbolic_interval.hpp>
#include <symerr/symbolic.hpp>

#include "core/symbolic_oracle.hpp"
#include "core/unary_oracle.hpp"

using namespace symerr;
using namespace symerr::test;

namespace {

const Format kFormats[] = {FP16, BF16, FP32, FP64, INT8, UINT8, INT32, INT4};
constexpr RoundingMode kModes[] = {RoundingMode::NearestEven, RoundingMode::TowardZero, RoundingMode::Upward,
                                   RoundingMode::Downward};

// Every value of the exact enclosure e lies in the domain element a.
template <class D>
bool contains_all(const D& a, const Enclosed& e) {
  return contains(a, e.lo) && contains(a, e.hi);
}

Enclosed minus(const mpq_class& f, const Enclosed& e) { return {f - e.hi, f - e.lo}; }

// (f − r)/r = f/r − 1 for r ∈ e, e of one sign and not 0.
Enclosed relative(const mpq_class& f, const Enclosed& e) {
  if (e.lo == e.hi) return exactly((f - e.lo) / e.lo);
  mpq_class a = f / e.lo - 1, b = f / e.hi - 1;
  if (a > b) std::swap(a, b);
  return {a, b};
}

// Checks one execution; an empty string on success, else what failed.
template <class D>
std::string unary_defect(const SymbolicDomainError<D>& z, const UnaryOutcome& o, const Format& format) {
  const SpecialStates& s = z.specials;
  if (!o.real_defined && !s.may_be_undefined) return "real undefined (sqrt of a negative) not flagged";
  bool done = false;
  if (std::string d = computed_defect(z, o.f, format, done); !d.empty() || done) return d;
  const mpq_class f = exact_value(o.f);
  if (o.t_known && !contains_all(z.introduced, minus(f, o.t))) return "f - t not in introduced";
  if (!o.real_defined) return "";
  if (!s.may_be_defined) return "real defined but may_be_defined is false";
  if (!contains_all(z.real, o.r)) return "r not in real";
  if (!contains_all(z.err, minus(f, o.r))) return "f - r not in err";
  if (o.t_known && !contains_all(z.propagated, o.t_minus_r())) return "t - r not in propagated";
  if ((sgn(o.r.lo) > 0 || sgn(o.r.hi) < 0) && !contains_all(z.rel_err, relative(f, o.r)))
    return "(f - r)/r not in rel_err";
  return "";
}

struct Cell {
  Unary op;
  Format from, to;
};

template <class D>
SymbolicDomainError<D> apply(const Cell& c, const SymbolicDomainError<D>& x, RoundingMode mode) {
  switch (c.op) {
    case Unary::Neg: return -x;
    case Unary::Abs: return abs(x);
    case Unary::Sqrt: return sqrt(x);
    case Unary::Convert: return convert(x, c.to, mode);
  }
  return x;
}

struct CampaignResult {
  long executions = 0, failures = 0, special = 0;
  std::string first_failure;
};

// `boxes` random inputs of c.from, 100 executions each; `plant` (tests of the
// test) damages each result before it is checked.
template <class D>
CampaignResult unary_campaign(const Cell& c, std::uint64_t seed, long boxes,
                              const std::function<void(SymbolicDomainError<D>&)>& plant = {}) {
  using SDE = SymbolicDomainError<D>;
  CampaignResult res;
  Generator g(seed);
  for (long p = 0; p < boxes; ++p) {
    const Box b = g.box(c.from);
    const bool floats = std::holds_alternative<FloatFormat>(c.to);
    const RoundingMode mode = floats ? kModes[g.pick(0, 3)] : RoundingMode::NearestEven;
    // sqrt rounds in x's mode; convert in its argument's
    const SDE x = SDE::input(b.lo, b.hi, b.elo, b.ehi, c.from, c.op == Unary::Sqrt ? mode : RoundingMode::NearestEven);
    SDE z = apply(c, x, mode);
    if (plant) plant(z);
    for (int k = 0; k < 100; ++k) {
      auto ex = g.execution(b, x.fp.lower(), x.fp.upper(), c.from, x.specials.may_be_neg_zero);
      if (!ex) continue;
      if (!std::holds_alternative<FloatFormat>(c.from)) ex->f += 0.0;  // integers have no −0
      const UnaryOutcome o = unary_oracle(c.op, ex->r, ex->f, c.from, c.to, mode);
      const std::string d = unary_defect(z, o, c.to);
      ++res.executions;
      if (!std::isfinite(o.f) || !o.real_defined) ++res.special;
      if (d.empty()) continue;
      if (res.failures++ == 0) {
        std::ostringstream s;
        s << to_string(c.op) << " " << format_name(c.from) << " -> " << format_name(c.to) << " ("
          << to_string(mode) << "): " << d << "\n  box " << describe(b) << "\n  x = " << x << "\n  z = " << z
          << "\n  propagated " << z.propagated << " introduced " << z.introduced << "\n  execution r = "
          << ex->r.get_str() << " f = " << hex(ex->f) << " -> f_z = " << hex(o.f);
        res.first_failure = s.str();
      }
    }
  }
  return res;
}

// The cells: −x and abs on every format, sqrt on the float formats, convert
// between every pair of float formats, every pair of integer formats, and
// from every integer format to every float format.
std::vector<Cell> all_cells() {
  std::vector<Cell> cells;
  for (const Format& f : kFormats) {
    cells.push_back({Unary::Neg, f, f});
    cells.push_back({Unary::Abs, f, f});
    if (std::holds_alternative<FloatFormat>(f)) cells.push_back({Unary::Sqrt, f, f});
    for (const Format& to : kFormats)
      if (!(std::holds_alternative<FloatFormat>(f) && std::holds_alternative<IntFormat>(to)))
        cells.push_back({Unary::Convert, f, to});
  }
  return cells;
}

}  // namespace

TEMPLATE_TEST_CASE("SymbolicDomainError -x, abs, sqrt, convert are sound (random boxes, exact oracle)",
                   "[core][soundness][unary]", Interval, MpfrInterval, RationalInterval) {
  const long boxes = std::max(10L, static_cast<long>(200 * test_scale()));
  long total = 0, special = 0;
  const auto cells = all_cells();
  for (std::size_t i = 0; i < cells.size(); ++i) {
    const Cell& c = cells[i];
    const CampaignResult r = unary_campaign<TestType>(c, 7001 + i, boxes);
    INFO(to_string(c.op) << " " << format_name(c.from) << " -> " << format_name(c.to) << ": " << r.executions
                         << " executions\n" << r.first_failure);
    CHECK(r.failures == 0);
    CHECK(r.executions >= boxes * 100 * 6 / 10);
    total += r.executions;
    special += r.special;
  }
  // the generator reaches the special outcomes (NaN from sqrt of negatives,
  // overflow to inf in narrowing conversions, undefined real square roots)
  CHECK(special > total / 1000);
  WARN(cells.size() << " cells, " << total << " executions, " << special << " with a special outcome");
}

TEST_CASE("sqrt on integers and float-to-integer convert are refused with a message", "[core][unary]") {
  const auto i = SymbolicError::input(1, 9, INT8);
  CHECK_THROWS_WITH(sqrt(i), Catch::Contains("sqrt: not defined on integer format INT8"));
  const auto f = SymbolicError::input(1, 9, FP32);
  CHECK_THROWS_WITH(convert(f, INT32), Catch::Contains("float to integer conversion is not supported"));
}

TEST_CASE("the unary soundness checks catch planted bugs", "[core][soundness][unary]") {
  using SDE = SymbolicError;
  struct Plant {
    const char* what;
    Cell cell;
    std::function<void(SDE&)> damage;
  };
  const auto shrink_to_mid = [](Interval& a) {
    if (is_bounded(a)) a = Interval::point(a.lower() / 2 + a.upper() / 2);
  };
  const auto shift_up = [](Interval& a) {
    if (is_bounded(a)) a = Interval::between(std::nextafter(a.lower(), INFINITY), std::nextafter(a.upper(), INFINITY));
  };
  const std::vector<Plant> plants = {
      {"err collapsed to its midpoint", {Unary::Sqrt, FP32, FP32}, [&](SDE& z) { shrink_to_mid(z.err); }},
      {"real shifted by one double ulp", {Unary::Sqrt, FP64, FP64}, [&](SDE& z) { shift_up(z.real); }},
      {"propagated collapsed", {Unary::Sqrt, FP16, FP16}, [&](SDE& z) { shrink_to_mid(z.propagated); }},
      {"introduced collapsed", {Unary::Convert, FP64, FP16}, [&](SDE& z) { shrink_to_mid(z.introduced); }},
      {"rel_err collapsed", {Unary::Convert, FP32, BF16}, [&](SDE& z) { shrink_to_mid(z.rel_err); }},
      {"NaN flag cleared", {Unary::Sqrt, FP32, FP32}, [](SDE& z) { z.specials.may_be_nan = false; }},
      {"undefined flag cleared", {Unary::Sqrt, BF16, BF16}, [](SDE& z) { z.specials.may_be_undefined = false; }},
      {"+inf flag cleared", {Unary::Convert, FP64, FP16}, [](SDE& z) { z.specials.may_be_pos_inf = false; }},
      {"-0 flag cleared", {Unary::Neg, FP32, FP32}, [](SDE& z) { z.specials.may_be_neg_zero = false; }},
      {"integer wrap missed (fp collapsed)", {Unary::Neg, INT8, INT8}, [&](SDE& z) { shrink_to_mid(z.fp); }},
      {"abs err collapsed", {Unary::Abs, INT32, INT32}, [&](SDE& z) { shrink_to_mid(z.err); }},
      {"convert int -> float err collapsed", {Unary::Convert, INT32, FP16}, [&](SDE& z) { shrink_to_mid(z.err); }},
  };
  for (const Plant& p : plants) {
    const CampaignResult r = unary_campaign<Interval>(p.cell, 99, 200, p.damage);
    INFO(p.what << ": " << r.failures << " of " << r.executions << " executions flagged");
    CHECK(r.failures > 0);
  }
}
