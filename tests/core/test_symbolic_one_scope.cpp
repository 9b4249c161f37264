// SymbolicDomainError<Interval> arithmetic runs in one upward-rounding scope
// (domains/src/interval_batch.cpp) instead of the generic template over
// Interval's own operations, which switch the rounding mode once each. The
// two must agree bit for bit (up to the sign of zero endpoints): here the generic template runs over PerOp, a
// domain that forwards every operation to Interval (so each rounds in its own
// mode switch, as Interval does for every other caller), on the same operands
// — random boxes of every shape, special values, points — for every format,
// operation and integer-division semantics, and under every caller rounding
// mode, which must also be left as it was, with raised exception flags kept.
#include <catch2/catch.hpp>

#include <cfenv>
#include <sstream>

#include <symerr/domains/interval.hpp>
#include <symerr/symbolic.hpp>
#include <symerr/symbolic/map_enclosures.hpp>
#include <symerr/domains/symbolic_instances.hpp>  // the library's instantiations (compile time)

#include "core/symbolic_oracle.hpp"
// private to domains/src: the Affine fast path's rounding bound (found
// through the tests directory's include path)
#include "../domains/src/interval_batch.hpp"

using namespace symerr;
using namespace symerr::test;

namespace per_op {

// Interval under another name: the generic arithmetic() template is used for
// every domain but Interval itself.
class PerOp {
 public:
  PerOp() = default;
  explicit PerOp(const Interval& i) : i_(i) {}
  static PerOp point(double v) { return PerOp(Interval::point(v)); }
  static PerOp between(double lo, double hi) { return PerOp(Interval::between(lo, hi)); }
  static PerOp from_rational(const mpq_class& q) { return PerOp(Interval::from_rational(q)); }
  static PerOp whole() { return PerOp(Interval::whole()); }
  double lower() const { return i_.lower(); }
  double upper() const { return i_.upper(); }
  const Interval& interval() const { return i_; }

 private:
  Interval i_;
};

PerOp operator+(const PerOp& a, const PerOp& b) { return PerOp(a.interval() + b.interval()); }
PerOp operator-(const PerOp& a, const PerOp& b) { return PerOp(a.interval() - b.interval()); }
PerOp operator*(const PerOp& a, const PerOp& b) { return PerOp(a.interval() * b.interval()); }
PerOp operator/(const PerOp& a, const PerOp& b) { return PerOp(a.interval() / b.interval()); }
PerOp operator-(const PerOp& a) { return PerOp(-a.interval()); }
PerOp abs(const PerOp& a) { return PerOp(abs(a.interval())); }
PerOp sqrt(const PerOp& a) { return PerOp(sqrt(a.interval())); }
PerOp hull(const PerOp& a, const PerOp& b) { return PerOp(hull(a.interval(), b.interval())); }
std::optional<PerOp> intersect(const PerOp& a, const PerOp& b) {
  const auto r = intersect(a.interval(), b.interval());
  return r ? std::optional<PerOp>(PerOp(*r)) : std::nullopt;
}
bool contains(const PerOp& a, double v) { return contains(a.interval(), v); }
bool contains(const PerOp& a, const mpq_class& q) { return contains(a.interval(), q); }
bool subset(const PerOp& a, const PerOp& b) { return subset(a.interval(), b.interval()); }
double width(const PerOp& a) { return width(a.interval()); }
double mag(const PerOp& a) { return mag(a.interval()); }
double mig(const PerOp& a) { return mig(a.interval()); }
bool is_point(const PerOp& a) { return is_point(a.interval()); }
bool is_bounded(const PerOp& a) { return is_bounded(a.interval()); }
Tri cmp_lt(const PerOp& a, const PerOp& b) { return cmp_lt(a.interval(), b.interval()); }
Tri cmp_le(const PerOp& a, const PerOp& b) { return cmp_le(a.interval(), b.interval()); }
Tri cmp_gt(const PerOp& a, const PerOp& b) { return cmp_gt(a.interval(), b.interval()); }
Tri cmp_ge(const PerOp& a, const PerOp& b) { return cmp_ge(a.interval(), b.interval()); }
Tri cmp_eq(const PerOp& a, const PerOp& b) { return cmp_eq(a.interval(), b.interval()); }
Tri cmp_ne(const PerOp& a, const PerOp& b) { return cmp_ne(a.interval(), b.interval()); }

static_assert(RealDomain<PerOp>);

}  // namespace per_op

using per_op::PerOp;

namespace {

const Format kFormats[] = {FP16, BF16, FP32, FP64, INT8, UINT8, INT32, INT4};
constexpr ArithOp kOps[] = {ArithOp::Add, ArithOp::Sub, ArithOp::Mul, ArithOp::Div};

SymbolicDomainError<PerOp> as_per_op(const SymbolicDomainError<Interval>& x) {
  return map_enclosures<PerOp>(x, [](const Interval& v) { return PerOp(v); });
}

// Everything observable, bitwise, except the sign of a zero endpoint: an
// enclosure [-0, x] is the set [+0, x] (the sign of a zero computed value is
// in the flags), and the one-scope path takes min/max by comparison where
// Interval uses fmin/fmax, which may pick the other zero.
std::string endpoint(double v) { return hex(v == 0 ? 0.0 : v); }
template <class D> std::string fingerprint(const D& a) { return endpoint(a.lower()) + " " + endpoint(a.upper()) + "; "; }
template <class D> std::string fingerprint(const SymbolicDomainError<D>& z) {
  const SpecialStates& s = z.specials;
  std::ostringstream o;
  o << fingerprint(z.real) << fingerprint(z.fp) << fingerprint(z.err) << fingerprint(z.rel_err)
    << fingerprint(z.propagated) << fingerprint(z.introduced) << format_name(z.format) << " "
    << to_string(z.mode) << " flags " << s.may_be_finite << s.may_be_nan << s.may_be_pos_inf
    << s.may_be_neg_inf << s.may_be_pos_zero << s.may_be_neg_zero << s.may_be_defined
    << s.may_be_undefined << s.may_overflow;
  return o.str();
}

// A random operand: mostly a box of the generator, sometimes a special value,
// an exact constant (zeros of both signs included) or a rounded literal.
SymbolicDomainError<Interval> random_operand(Generator& g, const Format& format) {
  using SE = SymbolicDomainError<Interval>;
  switch (g.pick(0, 17)) {
    case 0: return SE::nan(format);
    case 1: return SE::inf(g.pick(0, 1) ? 1 : -1, format);
    case 2: return SE::undef(format);
    case 3: return SE::constant(g.pick(0, 1) ? 0.0 : -0.0, format);
    case 4: {
      const auto* I = std::get_if<IntFormat>(&format);
      return SE::constant(g.pick(0, 1) || (I && !I->is_signed) ? 1.0 : -4.0, format);
    }
    case 5: return SE::literal(mpq_class(g.pick(-7, 7), g.pick(1, 9)), format);
    case 6:
    case 7: {
      // the result of an operation: introduced error nonzero, the split's
      // general case (and, in a float format, the one-scope hot path's)
      const Box a = g.box(format), b = g.box(format);
      const SE x = SE::input(a.lo, a.hi, a.elo, a.ehi, format), y = SE::input(b.lo, b.hi, b.elo, b.ehi, format);
      const ArithOp op = kOps[g.pick(0, 2)];
      return arithmetic(op, x, y, IntegerDivision::Floor);
    }
    default: {
      const Box b = g.box(format);
      return SE::input(b.lo, b.hi, b.elo, b.ehi, format);
    }
  }
}

}  // namespace

TEST_CASE("SymbolicError arithmetic: the one-scope Interval path equals the per-operation path",
          "[core][interval][rounding]") {
  const long pairs = std::max(200L, static_cast<long>(4000 * test_scale()));
  long compared = 0, differences = 0, mode_changes = 0, flags_lost = 0;
  for (const Format& format : kFormats) {
    Generator g(77 + std::hash<std::string>{}(format_name(format)));
    for (long p = 0; p < pairs; ++p) {
      const auto x = random_operand(g, format), y = random_operand(g, format);
      const auto px = as_per_op(x), py = as_per_op(y);
      const IntegerDivision idiv = (p % 2) ? IntegerDivision::Floor : IntegerDivision::Truncate;
      for (ArithOp op : kOps) {
        const std::string reference = fingerprint(arithmetic(op, px, py, idiv));
        for (int mode : {FE_TONEAREST, FE_UPWARD, FE_DOWNWARD, FE_TOWARDZERO}) {
          std::fesetround(mode);
          std::feraiseexcept(FE_DIVBYZERO);  // the caller's raised flag
          const auto z = arithmetic(op, x, y, idiv);
          mode_changes += std::fegetround() != mode;
          flags_lost += std::fetestexcept(FE_DIVBYZERO) == 0;
          std::fesetround(FE_TONEAREST);
          std::feclearexcept(FE_ALL_EXCEPT);
          const std::string one_scope = fingerprint(z);
          ++compared;
          if (one_scope != reference && ++differences <= 3)
            FAIL_CHECK(format_name(format) << " " << detail::op_name(op) << " caller mode " << mode
                                           << "\n  x = " << x << "\n  y = " << y
                                           << "\n  per operation: " << reference
                                           << "\n  one scope:     " << one_scope);
        }
      }
    }
  }
  INFO(compared << " results compared");
  CHECK(compared >= 8L * 4 * 4 * 200);
  CHECK(differences == 0);
  CHECK(mode_changes == 0);
  CHECK(flags_lost == 0);
}

// The twin: the comparison is not vacuous — PerOp goes through the generic
// template (it is not Interval), and a deliberately different operation in
// the per-operation path is seen as a difference.
TEST_CASE("SymbolicError one-scope comparison: a changed result is detected", "[core][interval][rounding]") {
  STATIC_REQUIRE(!std::is_same_v<PerOp, Interval>);
  const auto x = SymbolicDomainError<Interval>::input(1.0, 2.0, -1e-7, 1e-7, FP32);
  const auto y = SymbolicDomainError<Interval>::input(3.0, 4.0, -1e-7, 1e-7, FP32);
  auto py = as_per_op(y);
  py.err = py.propagated = PerOp::between(-2e-7, 2e-7);  // a different operand: a different result
  CHECK(fingerprint(arithmetic(ArithOp::Div, as_per_op(x), py)) != fingerprint(x / y));
  CHECK(fingerprint(arithmetic(ArithOp::Div, as_per_op(x), as_per_op(y))) == fingerprint(x / y));
}

// The Affine fast path bounds round(t) − t on each affine range of t with
// detail::scoped_round_float_result: round_float_result in one upward scope.
// It must equal the per-operation Interval template bit for bit, for every
// float format, operation and caller mode, on finite operands (its callers'
// precondition), points included (the exact GMP path).
namespace {
struct RoundingOutcome {
  std::string text;
};
RoundingOutcome rounding_outcome(const Interval& bound, const Interval& t, const SymbolicDomainError<Interval>& z) {
  const SpecialStates& s = z.specials;
  std::ostringstream o;
  o << fingerprint(bound) << fingerprint(t) << fingerprint(z.fp) << " flags " << s.may_be_finite << s.may_be_nan
    << s.may_be_pos_inf << s.may_be_neg_inf << s.may_overflow;
  return {o.str()};
}
// detail::round_float_result over Interval's own operations (a mode switch each)
RoundingOutcome per_operation(ArithOp op, const SymbolicDomainError<Interval>& x,
                              const SymbolicDomainError<Interval>& y, Interval t, const FloatFormat& F,
                              RoundingMode mode) {
  SymbolicDomainError<Interval> z;
  z.mode = mode;
  z.specials = SpecialStates{};
  z.specials.may_be_finite = false;
  const Interval bound =
      detail::with_rule(op, [&](auto rule) { return detail::round_float_result<decltype(rule)>(x, y, t, F, z); });
  return rounding_outcome(bound, t, z);
}
RoundingOutcome one_scope(ArithOp op, const SymbolicDomainError<Interval>& x, const SymbolicDomainError<Interval>& y,
                          Interval t, const FloatFormat& F, RoundingMode mode) {
  SymbolicDomainError<Interval> z;
  z.mode = mode;
  z.specials = SpecialStates{};
  z.specials.may_be_finite = false;
  const Interval bound = detail::scoped_round_float_result(op, x.fp, y.fp, t, F, z);
  return rounding_outcome(bound, t, z);
}
}  // namespace

TEST_CASE("Affine's rounding bound: the one-scope round_float_result equals the per-operation one",
          "[core][interval][rounding][affine]") {
  const long pairs = std::max(200L, static_cast<long>(3000 * test_scale()));
  long compared = 0, points = 0, differences = 0, mode_changes = 0;
  for (const FloatFormat& F : {FP16, BF16, FP32, FP64}) {
    Generator g(91 + std::hash<std::string>{}(std::string(F.name)));
    for (long p = 0; p < pairs; ++p) {
      const auto x = random_operand(g, F), y = random_operand(g, F);
      if (!is_bounded(x.fp) || !is_bounded(y.fp) || !x.specials.may_be_finite || !y.specials.may_be_finite) continue;
      for (ArithOp op : kOps) {
        if (op == ArithOp::Div && contains(y.fp, 0.0)) continue;
        const Interval t = detail::with_rule(op, [&](auto rule) { return decltype(rule)::value(x.fp, y.fp); });
        for (RoundingMode mode : {RoundingMode::NearestEven, RoundingMode::TowardZero, RoundingMode::Upward}) {
          const std::string reference = per_operation(op, x, y, t, F, mode).text;
          for (int caller : {FE_TONEAREST, FE_UPWARD, FE_DOWNWARD, FE_TOWARDZERO}) {
            std::fesetround(caller);
            const std::string scoped = one_scope(op, x, y, t, F, mode).text;
            mode_changes += std::fegetround() != caller;
            std::fesetround(FE_TONEAREST);
            ++compared;
            points += is_point(x.fp) && is_point(y.fp);
            if (scoped != reference && ++differences <= 3)
              FAIL_CHECK(F.name << " " << detail::op_name(op) << " caller mode " << caller << "\n  x = " << x
                                << "\n  y = " << y << "\n  per operation: " << reference
                                << "\n  one scope:     " << scoped);
          }
        }
      }
    }
  }
  INFO(compared << " results compared, " << points << " on point operands");
  CHECK(compared >= 4L * 3 * 4 * 200);
  CHECK(points > 0);
  CHECK(differences == 0);
  CHECK(mode_changes == 0);
  // the twin: another t gives another outcome (the comparison is not vacuous)
  const auto x = SymbolicDomainError<Interval>::input(1.0, 2.0, -1e-7, 1e-7, FP32);
  const auto y = SymbolicDomainError<Interval>::input(3.0, 4.0, -1e-7, 1e-7, FP32);
  const Interval t = x.fp * y.fp;
  CHECK(one_scope(ArithOp::Mul, x, y, t, FP32, RoundingMode::NearestEven).text ==
        per_operation(ArithOp::Mul, x, y, t, FP32, RoundingMode::NearestEven).text);
  CHECK(one_scope(ArithOp::Mul, x, y, t, FP32, RoundingMode::NearestEven).text !=
        per_operation(ArithOp::Mul, x, y, t * Interval::point(2), FP32, RoundingMode::NearestEven).text);
}
