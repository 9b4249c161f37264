// Soundness of SymbolicDomainError arithmetic: per operation × format × domain,
// random symbolic inputs of every shape and, inside each, random concrete
// executions computed exactly (GMP rationals + the format's exact rounding):
// r ∈ real, f ∈ fp, f − r ∈ err, (f − r)/r ∈ rel_err, t − r ∈ propagated,
// f − t ∈ introduced, and every special state flagged when it occurs.
#include <catch2/catch.hpp>

#include <symerr/domains/interval.hpp>
#include <symerr/domains/mpfr_interval.hpp>
#include <symerr/domains/rational_interval.hpp>
#include <symerr/symbolic.hpp>
#include <symerr/domains/symbolic_instances.hpp>  // the library's instantiations (compile time)

#include "core/symbolic_oracle.hpp"

using namespace symerr;
using namespace symerr::test;

namespace {

const Format kFormats[] = {FP16, BF16, FP32, FP64, INT8, UINT8, INT32, INT4};
constexpr ArithOp kOps[] = {ArithOp::Add, ArithOp::Sub, ArithOp::Mul, ArithOp::Div};

template <class D>
std::string fail_text(const SymbolicDomainError<D>& x, const SymbolicDomainError<D>& y,
                      const SymbolicDomainError<D>& z, const Box& bx, const Box& by,
                      const Generator::Execution& ex, const Generator::Execution& ey, const Outcome& o) {
  std::ostringstream s;
  s << "x box " << describe(bx) << "\n  x = " << x << "\ny box " << describe(by) << "\n  y = " << y
    << "\nz = " << z << "\n  propagated " << z.propagated << " introduced " << z.introduced
    << "\nexecution: rx=" << ex.r.get_str() << " fx=" << hex(ex.f) << " ry=" << ey.r.get_str()
    << " fy=" << hex(ey.f) << "\noutcome: f=" << hex(o.f)
    << (o.real_defined ? " r=" + o.r.get_str() : std::string(" r undefined"));
  return s.str();
}

template <class D>
void soundness_campaign(std::uint64_t seed, long executions_per_cell) {
  const long symbolic_pairs = std::max(1L, executions_per_cell / 100);
  for (const Format& format : kFormats) {
    for (ArithOp op : kOps) {
      Generator g(seed ^ (std::hash<std::string>{}(format_name(format)) + static_cast<unsigned>(op)));
      long executions = 0, flagged_special = 0;
      for (long p = 0; p < symbolic_pairs; ++p) {
        const Box bx = g.box(format), by = g.box(format);
        const IntegerDivision idiv = (p % 2) ? IntegerDivision::Floor : IntegerDivision::Truncate;
        const auto x = SymbolicDomainError<D>::input(bx.lo, bx.hi, bx.elo, bx.ehi, format);
        const auto y = SymbolicDomainError<D>::input(by.lo, by.hi, by.elo, by.ehi, format);
        const auto z = arithmetic(op, x, y, idiv);
        for (int k = 0; k < 100; ++k) {
          const auto ex = g.execution(bx, x.fp.lower(), x.fp.upper(), format, x.specials.may_be_neg_zero);
          const auto ey = g.execution(by, y.fp.lower(), y.fp.upper(), format, y.specials.may_be_neg_zero);
          if (!ex || !ey) continue;
          const Outcome o = oracle(op, ex->r, ey->r, ex->f, ey->f, format, RoundingMode::NearestEven, idiv);
          const std::string failure = check_execution(z, o, format);
          if (!failure.empty()) {
            FAIL(format_name(format) << " " << detail::op_name(op) << ": " << failure << "\n"
                                     << fail_text(x, y, z, bx, by, *ex, *ey, o));
          }
          if (!std::isfinite(o.f) || !o.real_defined) ++flagged_special;
          ++executions;
        }
      }
      INFO(format_name(format) << " " << detail::op_name(op) << ": " << executions << " executions");
      CHECK(executions >= executions_per_cell * 6 / 10);
    }
  }
}

}  // namespace

TEMPLATE_TEST_CASE("SymbolicDomainError arithmetic is sound (random boxes, exact oracle)",
                   "[core][soundness]", Interval, MpfrInterval, RationalInterval) {
  const long n = static_cast<long>(100000 * test_scale());
  soundness_campaign<TestType>(2026, n);
}

TEMPLATE_TEST_CASE("SymbolicDomainError soundness, long run", "[core][soundness][.][long]", Interval,
                   MpfrInterval, RationalInterval) {
  soundness_campaign<TestType>(99, 2000000);
}
