// floor, ceil, trunc, round (ties away), rint/nearbyint (the value's mode)
// on SymbolicDomainError: every enclosure against exact executions (the ideal
// value by GMP, the computed one by the C library on the machine input), in
// FP16, BF16, FP32, FP64 and the four domains, on boxes around integers and
// ties with input errors below and above 1; tightness twins (boxes between
// two switch points give err exactly 0; a box across a switch gives the
// jump 1, attained).
#include <catch2/catch.hpp>

#include <cfenv>
#include <cmath>
#include <stdexcept>
#include <vector>

#include <symerr/domains/affine.hpp>
#include <symerr/domains/mpfr_interval.hpp>
#include <symerr/domains/rational_interval.hpp>
#include <symerr/domains/symbolic_interval.hpp>
#include <symerr/elementary.hpp>
#include <symerr/symbolic.hpp>

#include "core/symbolic_oracle.hpp"
#include "domain_scope.hpp"

using namespace symerr;
using namespace symerr::test;

namespace {

template <class D>
using Scope = DomainScope<D>;  // an AffineContext for Affine (domain_scope.hpp)

enum class G { Floor, Ceil, Trunc, RoundAway, Rint };
constexpr G kAll[] = {G::Floor, G::Ceil, G::Trunc, G::RoundAway, G::Rint};

template <class D>
SymbolicDomainError<D> apply(G g, const SymbolicDomainError<D>& x) {
  switch (g) {
    case G::Floor: return floor(x);
    case G::Ceil: return ceil(x);
    case G::Trunc: return trunc(x);
    case G::RoundAway: return round(x);
    case G::Rint: return nearbyint(x);
  }
  return x;
}

// The ideal value (exact, GMP).
mpq_class ideal(G g, const mpq_class& q) {
  const mpq_class f = floor_q(q);
  switch (g) {
    case G::Floor: return f;
    case G::Ceil: return f == q ? f : mpq_class(f + 1);
    case G::Trunc: return trunc_q(q);
    case G::RoundAway: {
      const mpq_class a = floor_q(mpq_class(abs(q) + mpq_class(1, 2)));
      return q < 0 ? mpq_class(-a) : a;
    }
    case G::Rint: {  // nearest, ties to even
      const mpq_class d = q - f;
      if (d > mpq_class(1, 2)) return f + 1;
      if (d < mpq_class(1, 2)) return f;
      return mpz_class(f.get_num() % 2) == 0 ? f : mpq_class(f + 1);
    }
  }
  return q;
}

// The computed value: the C library on the machine input (round to nearest).
double computed(G g, double v) {
  switch (g) {
    case G::Floor: return std::floor(v);
    case G::Ceil: return std::ceil(v);
    case G::Trunc: return std::trunc(v);
    case G::RoundAway: return std::round(v);
    case G::Rint: return std::nearbyint(v);
  }
  return v;
}

// Boxes around small integers and ties (and some large values, already
// integral in the format), errors none, small, and above 1.
Box integral_box(Generator& gen, const FloatFormat& F) {
  const double centers[] = {0.0, 0.5, -0.5, 1.0, -1.0, 2.5, -3.5, 7.0, 0.25, -0.75};  // integers and ties
  double c = gen.pick(0, 3) == 0 ? (gen.unit() * 16 - 8) : centers[gen.pick(0, 9)];
  if (gen.pick(0, 9) == 0) c = std::ldexp(1.0 + gen.unit(), F.precision + gen.pick(-2, 2));
  const double widths[] = {0.0, 0x1p-10, 0.3, 3.0};
  const double w = widths[gen.pick(0, 3)];
  double lo = round_to(c - w, F, RoundingMode::Upward).value, hi = round_to(c + w, F, RoundingMode::Downward).value;
  if (lo > hi) lo = hi = round_to(c, F, RoundingMode::NearestEven).value;
  const double errors[] = {0.0, 0x1p-12, 0.3, 1.5};
  const double e = errors[gen.pick(0, 3)];
  if (gen.pick(0, 2) == 0) {  // errors of one sign, up to exactly 1 (ties and zero crossed by a whole unit)
    const Box one_sided[] = {{0, 0, 1, 1}, {0, 0, 0.75, 1.25}, {0, 0, -1, -1}, {0, 0, 0.25, 0.5}};
    const Box& o = one_sided[gen.pick(0, 3)];
    return {lo, hi, o.elo, o.ehi};
  }
  return {lo, hi, -e, e * (gen.pick(0, 1) ? 1 : 0.5)};
}

template <class D>
void campaign(G g, const FloatFormat& F, long boxes) {
  Generator gen(4242 + static_cast<int>(g) * 17 + F.precision);
  long executions = 0;
  for (long b_i = 0; b_i < boxes; ++b_i) {
    const Box b = integral_box(gen, F);
    [[maybe_unused]] Scope<D> scope;
    SymbolicDomainError<D> x;
    try {
      x = SymbolicDomainError<D>::input(b.lo, b.hi, b.elo, b.ehi, F);
    } catch (const std::invalid_argument&) {  // no value of F within the error of the box: no execution
      continue;
    }
    const auto z = apply(g, x);
    INFO(describe(b) << " " << F.name << " op " << static_cast<int>(g) << "\n z = " << z);
    for (int j = 0; j < 12; ++j) {
      const auto ex = gen.execution(b, x.fp.lower(), x.fp.upper(), F, x.specials.may_be_neg_zero);
      if (!ex) continue;
      const mpq_class r = ideal(g, ex->r);
      const double f = computed(g, ex->f);
      const mpq_class err = exact_value(f) - r;
      INFO("r = " << ex->r.get_str() << " f = " << hex(ex->f) << " g(f) = " << hex(f));
      CHECK(contains(z.real, r));
      CHECK(contains(z.fp, f));
      CHECK(contains(z.err, err));
      CHECK(contains(z.propagated, err));  // an input: pr = f
      CHECK(contains(z.introduced, 0.0));
      if (f == 0) CHECK((std::signbit(f) ? z.specials.may_be_neg_zero : z.specials.may_be_pos_zero));
      ++executions;
    }
  }
  CHECK(executions >= boxes * 4);
}

}  // namespace

TEMPLATE_TEST_CASE("floor, ceil, trunc, round, rint: sound against exact executions", "[core][integral]", Interval,
                   MpfrInterval, RationalInterval, Affine) {
  const long boxes = static_cast<long>(300 * test_scale()) + 20;
  for (const FloatFormat& F : {FP16, BF16, FP32, FP64})
    for (G g : kAll) campaign<TestType>(g, F, boxes);
}

TEST_CASE("floor, ceil, trunc, round, rint: tightness twins", "[core][integral]") {
  using S = SymbolicError;
  for (G g : kAll) {
    CAPTURE(static_cast<int>(g));
    // between two switch points of every g: exact, err 0 whatever e (below the gap)
    const S a = apply(g, S::input(0.125, 0.375, -1e-3, 1e-3, FP32));
    CHECK(a.err.lower() == 0);
    CHECK(a.err.upper() == 0);
    CHECK(is_point(a.fp));
    // e = 0 on a wide box: err exactly 0 (the same input, the same integer)
    const S w = apply(g, S::input(-8, 8, FP64));
    CHECK(w.err.lower() == 0);
    CHECK(w.err.upper() == 0);
    CHECK(w.real.lower() == -8);
    CHECK(w.real.upper() == 8);
  }
  // across the switch at 1 with |e| <= 2^-10: floor's err is the jump [-1, 1], and both signs
  // are attained (r just below 1 with f = 1, and r = 1 with f just below)
  const S f = floor(S::input(0.5, 1.5, -0x1p-10, 0x1p-10, FP32));
  CHECK(f.err.lower() == -1);
  CHECK(f.err.upper() == 1);
  CHECK(std::floor(1.0) - std::floor(1.0 - 0x1p-11) == 1);
  // trunc across switch points with |e| < 1: the jump [-1, 1] as floor's (at 1:
  // r just below, f on it; at −1: r on it, f just above), not [-2, 2]; and
  // with e >= 0 only upward jumps (trunc is non-decreasing)
  const S t = trunc(S::input(-1.5, 1.5, -0x1p-10, 0x1p-10, FP32));
  CHECK(t.err.lower() == -1);
  CHECK(t.err.upper() == 1);
  CHECK(std::trunc(1.0) - std::trunc(1.0 - 0x1p-11) == 1);
  CHECK(std::trunc(-1.0 + 0x1p-11) - std::trunc(-1.0) == 1);
  const S tp = trunc(S::input(-1.5, 1.5, 0, 0x1p-10, FP32));
  CHECK(tp.err.lower() == 0);
  CHECK(tp.err.upper() == 1);
  // nearest: |g(r + e) − g(r)| <= 1 for |e| < 1/2 … and 0 where no tie is crossed
  const S n = nearbyint(S::input(0.6, 1.4, -0x1p-10, 0x1p-10, FP32));
  CHECK(n.err.lower() == 0);
  CHECK(n.err.upper() == 0);
  // the value's mode: rint rounds up in Upward
  S up = S::input(0.25, 0.25, FP32);
  up.mode = RoundingMode::Upward;
  CHECK(nearbyint(up).fp.lower() == 1);
  // C names on FP32 values, and integer formats refused
  CHECK(floorf(S::input(2.5, 2.5, FP32)).fp.lower() == 2);
  CHECK(roundf(S::input(-2.5, -2.5, FP32)).fp.lower() == -3);
  CHECK(rintf(S::input(-2.5, -2.5, FP32)).fp.lower() == -2);
  CHECK_THROWS_WITH(floor(S::input(1, 2, INT8)), Catch::Contains("floor") && Catch::Contains("INT8"));
}
