// Tightness twins of the soundness test: an implementation that returns wide
// enclosures ("anything") fails here.
#include <catch2/catch.hpp>

#include <symerr/domains/interval.hpp>
#include <symerr/domains/mpfr_interval.hpp>
#include <symerr/domains/rational_interval.hpp>
#include <symerr/domains/symbolic_interval.hpp>

#include "core/symbolic_oracle.hpp"

using namespace symerr;
using namespace symerr::test;

namespace {
constexpr ArithOp kOps[] = {ArithOp::Add, ArithOp::Sub, ArithOp::Mul, ArithOp::Div};
}

TEMPLATE_TEST_CASE("one RNE operation on exact points: err within [-1/2 ulp(t), 1/2 ulp(t)]",
                   "[core][tightness]", Interval, MpfrInterval, RationalInterval) {
  using SDE = SymbolicDomainError<TestType>;
  Generator g(17);
  for (const FloatFormat& F : kFloatFormats) {
    for (int i = 0; i < 2000; ++i) {
      const double a = round_to(std::ldexp(1.0 + g.unit(), g.pick(-8, 8)) * (g.pick(0, 1) ? 1 : -1), F,
                                RoundingMode::NearestEven).value;
      const double b = round_to(std::ldexp(1.0 + g.unit(), g.pick(-8, 8)), F, RoundingMode::NearestEven).value;
      for (ArithOp op : kOps) {
        const auto z = arithmetic(op, SDE::constant(a, F), SDE::constant(b, F));
        const Outcome o = oracle(op, exact_value(a), exact_value(b), a, b, F, RoundingMode::NearestEven,
                                 IntegerDivision::Floor);
        const double t = mpq_class(o.t).get_d();
        if (std::fabs(t) > F.max_finite() || std::fabs(t) < F.min_normal()) continue;  // normal range only
        // the enclosure must be no wider than half an ulp of t on each side,
        // allowing one ulp of double for the outward rounding of the bound.
        const double h = ulp(t, F) / 2;
        INFO(F.name << " " << detail::op_name(op) << " a=" << hex(a) << " b=" << hex(b) << " z=" << z);
        REQUIRE(z.err.lower() >= std::nextafter(-h, -INFINITY));
        REQUIRE(z.err.upper() <= std::nextafter(h, INFINITY));
        REQUIRE(is_point(z.fp));
        REQUIRE(z.fp.lower() == o.f);
        REQUIRE(certainly(z.is_finite()));
      }
    }
  }
}

namespace {
// The true maximum of |f − t| over every pair of FP16 values in the boxes,
// by enumeration, for error-free inputs (so err = introduced error).
std::vector<double> fp16_values_in(double lo, double hi) {
  std::vector<double> v;
  for (std::uint32_t bits = 0; bits < 0x10000; ++bits) {
    const double x = decode_fp16(static_cast<std::uint16_t>(bits));
    if (x >= lo && x <= hi && !(x == 0 && std::signbit(x))) v.push_back(x);
  }
  return v;
}

double enumerate_max_error(ArithOp op, double alo, double ahi, double blo, double bhi) {
  double worst = 0;
  const std::vector<double> as = fp16_values_in(alo, ahi), bs = fp16_values_in(blo, bhi);
  for (double a : as)
    for (double b : bs) {
      const Outcome o = oracle(op, exact_value(a), exact_value(b), a, b, FP16, RoundingMode::NearestEven,
                               IntegerDivision::Floor);
      if (!std::isfinite(o.f)) continue;
      worst = std::max(worst, std::fabs(mpq_class(exact_value(o.f) - o.r).get_d()));
    }
  return worst;
}
}  // namespace

TEST_CASE("Div and Sub on FP16 boxes: sup |err| within 5% of the enumerated maximum", "[core][tightness]") {
  struct Case { ArithOp op; double alo, ahi, blo, bhi; };
  const Case cases[] = {
      {ArithOp::Div, 1, 2, 3, 3.5},        // quotients in [0.28, 0.67]
      {ArithOp::Div, -40, -20, 0.25, 0.5}, // large negative quotients
      {ArithOp::Div, 1000, 1100, 7, 9},
      {ArithOp::Sub, 1000, 1100, 0.1, 0.2},
      {ArithOp::Sub, 1, 2, 0.75, 1.5},
      {ArithOp::Sub, 1, 2, 1.0, 1.75},     // Sterbenz: exact, the true maximum is 0
  };
  for (const Case& c : cases) {
    // the sanitizer run (scaled down) enumerates the three smaller boxes only
    if (symerr::test::scaled_down() &&
        fp16_values_in(c.alo, c.ahi).size() * fp16_values_in(c.blo, c.bhi).size() > 300000)
      continue;
    const auto x = SymbolicError::input(c.alo, c.ahi, FP16);
    const auto y = SymbolicError::input(c.blo, c.bhi, FP16);
    const auto z = arithmetic(c.op, x, y);
    const double reported = mag(z.err);
    const double truth = enumerate_max_error(c.op, c.alo, c.ahi, c.blo, c.bhi);
    INFO(detail::op_name(c.op) << " [" << c.alo << "," << c.ahi << "] x [" << c.blo << "," << c.bhi
                               << "]: reported " << reported << " true max " << truth);
    CHECK(reported >= truth);  // soundness
    if (truth == 0) CHECK(reported == 0);
    else CHECK(reported <= truth * 1.05);
  }
}
