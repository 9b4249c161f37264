// The branch driver: nested data-dependent branches analysed soundly (exact
// executions), its report, the budget, lanes, and the UndecidedBranch message
// outside the driver; a planted bug proves the soundness check can fail.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include <symerr/verify/symbolic/driver.hpp>

#include "dropin/generic_kernels.hpp"
#include "dropin/sampling.hpp"

using namespace symerr;
using S = SymbolicError;

namespace {

std::size_t trials() { return static_cast<std::size_t>(2e4 * symerr::test::test_scale()); }

verify::DriverResult run_scalar(S (*f)(S), const S& x, verify::DriverOptions opt = {}) {
  return verify::run_kernel([f](std::span<S> in, std::span<S> out) { out[0] = f(in[0]); }, std::span(&x, 1), 1,
                            opt);
}

// Counts sampled executions of kernels::piecewise3 that escape `s`.
template <class FP>
std::size_t escapes(const S& s, const FloatFormat& F, double e, double& max_err) {
  symerr::test::InputSampler gen(77, F, e);
  std::size_t bad = 0;
  for (std::size_t t = 0; t < trials(); ++t) {
    symerr::test::Sample x = gen.next();
    // also executions near the switch points -0.5 and 0.25
    if (t % 3 == 1) x.computed = static_cast<FP>(-0.5 + (x.computed * 4 * (e > 0 ? e : 1e-6)));
    if (t % 3 == 2) x.computed = static_cast<FP>(0.25 + (x.computed * 4 * (e > 0 ? e : 1e-6)));
    if (t % 3 != 0) {
      mpq_class d = exact_value(e) * mpq_class(gen.pick(-4, 4), 4);
      x.real = exact_value(x.computed) - d;
    }
    const mpq_class real = kernels::piecewise3(x.real);
    const double fp = kernels::piecewise3(static_cast<FP>(x.computed));
    max_err = std::max(max_err, std::fabs(mpq_class(exact_value(fp) - real).get_d()));
    if (!symerr::test::encloses(s, real, fp)) ++bad;
  }
  return bad;
}

}  // namespace

TEST_CASE("nested 3-way piecewise function: sound, and the report says what was done", "[verify][driver]") {
  const struct {
    FloatFormat F;
    double e;
  } cases[] = {{FP64, 0.0}, {FP64, 1e-12}, {FP32, 0.0}, {FP32, 0x1p-20}};
  for (const auto& c : cases) {
    const S x = symerr::test::unit_box(c.F, c.e);
    CHECK_THROWS_AS(kernels::piecewise3(x), UndecidedBranch);
    const auto res = run_scalar(&kernels::piecewise3<S>, x);
    const S& s = res.outputs[0];
    INFO(res.report.summary() << "\n" << s);
    double max_err = 0;
    const std::size_t bad = c.F.precision == 24 ? escapes<float>(s, c.F, c.e, max_err)
                                                : escapes<double>(s, c.F, c.e, max_err);
    CHECK(bad == 0);
    // x < -0.5 and x < 0.25 are both undecided on [-1, 1]; the second is only
    // met on the paths where the first was false.
    CHECK(res.report.undecided_branches >= 2);
    if (c.e > 0) CHECK(res.report.unstable_branches >= 2u);
    CHECK_FALSE(res.report.budget_exhausted);
    CHECK(res.report.runs == res.report.paths + res.report.infeasible_paths);
    if (c.e == 0) {  // exact inputs: no test can be unstable; three pieces, three paths
      CHECK(res.report.unstable_branches == 0);
      CHECK(res.report.paths == 3);
    }
    // real: x*x on [-1, -0.5], 2x + 1 on [-0.5, 0.25], 1.5 - x on [0.25, 1]
    CHECK(s.real.lower() >= 0.0 - 1e-9);
    CHECK(s.real.upper() <= 1.5 + 1e-9);
      // the function jumps by 0.25 at -0.5 (0.25 -> 0) and at 0.25 (1.5 -> 1.25):
    // an unstable test there has an error of about 0.25
    if (c.e > 0) {
      CHECK(mag(s.err) >= 0.25);
      CHECK(mag(s.err) <= 0.25 + 4 * c.e);  // tightness: the jump plus the slope times e
      CHECK(max_err >= 0.2499);
    } else {
      CHECK(mag(s.err) <= 1e-6);  // e = 0: no unstable test is feasible, only rounding
    }
  }
}

TEST_CASE("planted bug: a narrowed piecewise enclosure is caught by the sampler", "[verify][driver]") {
  const S x = symerr::test::unit_box(FP64, 1e-12);
  S s = run_scalar(&kernels::piecewise3<S>, x).outputs[0];
  s.err = Interval::between(s.err.lower() / 2, s.err.upper() / 2);
  double max_err = 0;
  CHECK(escapes<double>(s, FP64, 1e-12, max_err) > 0);
}

TEST_CASE("budget: when it runs out the result is unbounded (sound) and reported", "[verify][driver]") {
  verify::DriverOptions opt;
  opt.max_runs = 2;
  const auto res = run_scalar(&kernels::piecewise3<S>, symerr::test::unit_box(FP64, 1e-12), opt);
  CHECK(res.report.budget_exhausted);
  CHECK(res.report.runs == 2);
  CHECK_FALSE(is_bounded(res.outputs[0].err));
  CHECK(res.report.summary().find("BUDGET EXHAUSTED") != std::string::npos);
}

TEST_CASE("without lanes the driver explores every combination, a wrong lanes statement is detected",
          "[verify][driver]") {
  const std::vector<S> in(3, symerr::test::unit_box(FP64, 1e-12));
  auto relu3 = [](std::span<S> x, std::span<S> y) {
    for (std::size_t i = 0; i < 3; ++i) y[i] = kernels::relu(x[i]);
  };
  const auto all = verify::run_kernel(relu3, in, 3);
  CHECK(all.report.paths > 36);  // the combinations of the three elements' outcomes
  verify::DriverOptions opt;
  const std::size_t sizes[] = {3};
  verify::elementwise_lanes(opt, sizes, 3);
  const auto zipped = verify::run_kernel(relu3, in, 3, opt);
  CHECK(zipped.report.runs == 6);
  for (std::size_t i = 0; i < 3; ++i) {
    // one lane: an unstable test of element 0 pairs real and computed paths of
    // every element, so the other elements' bounds are sound but loose
    CHECK(subset(zipped.outputs[i].err, all.outputs[i].err));
    CHECK(mag(zipped.outputs[i].err) == 1e-12);
    CHECK(mag(all.outputs[i].err) >= 1e-12);
  }
  // a kernel whose comparison mixes two lanes: out[i] = x[0] < x[1] ? ...
  auto mixed = [](std::span<S> x, std::span<S> y) {
    for (std::size_t i = 0; i < 3; ++i) y[i] = x[0] < x[1] ? x[i] : S(0);
  };
  const auto m = verify::run_kernel(mixed, in, 3, opt);
  CHECK(m.report.lanes_violated);
  CHECK_FALSE(m.report.budget_exhausted);
}

TEST_CASE("min/max/clamp/select are exact on the symbolic level", "[verify][driver]") {
  const S a = S::input(-1, 1, -1e-12, 1e-12, FP64), b = S::input(-1, 1, -2e-12, 2e-12, FP64);
  const S m = max(a, b);
  CHECK(m.real.lower() == -1.0);
  CHECK(m.real.upper() == 1.0);
  CHECK(mag(m.err) <= 2e-12);
  const S c = clamp(a, S(-0.5), S(0.5));
  CHECK(mag(c.err) <= 1e-12);
  const S r = select(a < 0, S(0), a);  // relu without a branch
  CHECK(r.real.lower() == -1.0);       // no path condition: the hull of both choices
  CHECK(mag(r.err) <= 1 + 2e-12);
  CHECK(fmax(a, 0.0).real.lower() == 0.0);
  CHECK(fmin(2, a).real.upper() == 1.0);
}

namespace {
// relu with the comparison stored first, as C kernels write it
template <class T> T relu_int(T x) {
  int pos = x > 0;  // a comparison's result as an int (C)
  return pos ? x : T(0);
}
template <class T> T relu_bool(T x) {
  const bool neg = x < 0;
  return neg ? T(0) : x;
}
}  // namespace

TEST_CASE("a comparison stored as bool or int, as C writes it, is analysed by the driver", "[verify][driver]") {
  const double e = 1e-12;
  const S x = S::input(-1, 1, -e, e, FP64);
  for (S (*f)(S) : {&relu_int<S>, &relu_bool<S>}) {
    const verify::DriverResult r = run_scalar(f, x);
    const S& y = r.outputs[0];
    // sound: exact executions (the same template on mpq_class and on double)
    symerr::test::InputSampler gen(91, FP64, e);
    std::size_t bad = 0;
    for (std::size_t t = 0; t < trials(); ++t) {
      const symerr::test::Sample in = gen.next();
      const mpq_class real = f == &relu_int<S> ? relu_int(in.real) : relu_bool(in.real);
      const double fp = f == &relu_int<S> ? relu_int(in.computed) : relu_bool(in.computed);
      if (!symerr::test::encloses(y, real, fp)) ++bad;
    }
    CHECK(bad == 0);
    // tight: relu is 1-Lipschitz, its true maximum error is e (the twin of "anything")
    CHECK(y.err.lower() >= -e);
    CHECK(y.err.upper() <= e);
  }
  // a predicate that returns `a < b` (std::max of a list) compiles; decided here
  const S a = S::input(0, 1, -e, e, FP64), b = S::input(2, 3, -e, e, FP64);
  CHECK(std::max({a, b, a}).real.lower() == 2.0);
  // outside the driver an undecided comparison still throws where it is converted
  CHECK_THROWS_AS([&] { const bool c = x > 0; return c; }(), UndecidedBranch);
}

TEST_CASE("UndecidedBranch outside the driver names both operands and the element", "[verify][driver]") {
  S x = S::input(-1, 1, -1e-12, 1e-12, FP64);
  x.origin = 7;
  try {
    (void)static_cast<bool>(x < 0.25);
    FAIL("no exception");
  } catch (const UndecidedBranch& e) {
    const std::string m = e.what();
    INFO(m);
    CHECK(m.find("a < b") != std::string::npos);
    CHECK(m.find("real [-1, 1]") != std::string::npos);
    CHECK(m.find("fp [-1.0000000000009999, 1.0000000000009999]") != std::string::npos);
    CHECK(m.find("b: real [0.25, 0.25]") != std::string::npos);
    CHECK(m.find("element 7") != std::string::npos);
  }
}

TEST_CASE("literal semantics: representable literals stay exact, mixed formats are an error", "[dropin]") {
  const S x = S::input(-1, 1, FP32);
  const S y = x + 1;  // 1 is a value of FP32
  CHECK(y.real.lower() == 0.0);
  CHECK(y.real.upper() == 2.0);
  const S z = 0.5 * S::input(1, 2, FP32);
  CHECK(mag(z.err) == 0.0);  // exact scaling (no subnormal result)
  S acc = 0;
  acc += x;
  CHECK(acc.is_float());
  CHECK_THROWS_WITH(x + S::input(0, 1, FP64),
                    Catch::Contains("Add") && Catch::Contains("FP32") && Catch::Contains("FP64"));
  CHECK_THROWS_WITH(max(x, S::input(0, 1, FP64)),
                    Catch::Contains("max") && Catch::Contains("FP32") && Catch::Contains("FP64"));
  const S big = static_cast<S>(123456789012345678LL);  // not a double: an exact real enclosure
  CHECK(big.is_real());
  CHECK(contains(big.real, mpq_class("123456789012345678")));
}

// Needs the rounding of a real-format literal into the operation's format
// (implemented in arithmetic()): FP32 x + 0.1 behaves as float(x) + float(0.1).
TEST_CASE("literal semantics: a non-representable literal is rounded into the format, as introduced error",
          "[dropin][literal-rounding]") {
  const S x = S::input(-1, 1, FP32);
  const S s1 = x + 0.1;       // mixed operand: rounded by the drop-in operator
  const S s2 = x + S(0.1);    // T(0.1): rounded by arithmetic()
  symerr::test::InputSampler gen(5, FP32, 0.0);
  std::size_t bad = 0;
  for (std::size_t t = 0; t < trials(); ++t) {
    const symerr::test::Sample v = gen.next();
    const mpq_class real = v.real + exact_value(0.1);
    const double fp = static_cast<float>(v.computed) + 0.1f;
    if (!symerr::test::encloses(s1, real, fp)) ++bad;
    if (!symerr::test::encloses(s2, real, fp)) ++bad;
  }
  CHECK(bad == 0);
  CHECK(mag(s1.err) <= 6e-8 + 1.5e-9);  // half an ulp of the sum plus the literal's rounding
}

TEST_CASE("lanes: an operand of no lane (a broadcast input) is never tightened for one lane", "[verify][driver]") {
  // y[i] = x[i] < t ? x[i] : t, with t shared by every lane
  constexpr std::size_t n = 4;
  std::vector<S> in(n, symerr::test::unit_box(FP64, 1e-12));
  in.push_back(S::input(-0.5, 0.5, -1e-12, 1e-12, FP64));
  verify::DriverOptions opt;
  const std::size_t sizes[] = {n, 1};
  verify::elementwise_lanes(opt, sizes, n);
  auto kernel = [](auto* x, auto* y) {
    for (std::size_t i = 0; i < n; ++i) y[i] = x[i] < x[n] ? x[i] : x[n];
  };
  const auto res = verify::run_kernel([&](std::span<S> x, std::span<S> y) { kernel(x.data(), y.data()); }, in, n, opt);
  INFO(res.report.summary());
  CHECK_FALSE(res.report.lanes_violated);
  symerr::test::InputSampler gen(9, FP64, 1e-12);
  std::size_t bad = 0;
  for (std::size_t t = 0; t < trials(); ++t) {
    std::vector<mpq_class> r(n + 1);
    std::vector<double> f(n + 1);
    for (std::size_t i = 0; i <= n; ++i) {
      const auto v = gen.next();
      r[i] = v.real, f[i] = v.computed;
    }
    if (r[n] > mpq_class(1, 2) || r[n] < mpq_class(-1, 2) || std::fabs(f[n]) > 0.5 + 1e-12) continue;
    // executions near the shared threshold (in the band: equal computed
    // values, reals within the inputs' error of them)
    for (std::size_t i = 0; i + 1 < n; i += 2)
      f[i] = f[n], r[i] = exact_value(f[n]) - exact_value(1e-12) * mpq_class(gen.pick(-4, 4), 4);
    std::vector<mpq_class> ry(n);
    std::vector<double> fy(n);
    kernel(r.data(), ry.data());
    kernel(f.data(), fy.data());
    for (std::size_t i = 0; i < n; ++i)
      if (r[i] >= -1 && r[i] <= 1 && !symerr::test::encloses(res.outputs[i], ry[i], fy[i])) ++bad;
  }
  CHECK(bad == 0);
  // tight: each output is a copy of x[i] or of t on both paths, and the pair's
  // err is bounded under both paths' conditions (the true maximum is e)
  CHECK(res.report.relational_pairs > 0);
  for (std::size_t i = 0; i < n; ++i) CHECK(mag(res.outputs[i].err) <= 1e-12 * (1 + 1e-9));
}

namespace {
template <class T>
T square_switch(T x) {  // a comparison of a value computed from the input
  return x * x < 0.25 ? 2.0 * x : T(1.0);
}
}  // namespace

TEST_CASE("adaptive bisection tightens a comparison of a computed value, soundly", "[verify][driver]") {
  const S x = symerr::test::unit_box(FP64, 1e-12);
  const auto whole = run_scalar(&square_switch<S>, x);
  verify::DriverOptions opt;
  opt.max_boxes = 64;
  const auto cut = run_scalar(&square_switch<S>, x, opt);
  INFO(whole.report.summary() << "\n" << cut.report.summary() << "\n" << cut.outputs[0]);
  CHECK(whole.outputs[0].real.lower() == -2.0);  // x*x < 0.25 tightened on a temporary only
  // the box at the jump (-0.5) is split until the split stalls: the computed
  // path 2x then has |x| < 0.5 + (width of the last box). At +0.5 the function
  // is continuous: the error there is small and that box is left wide.
  CHECK(cut.outputs[0].real.lower() >= -1.0 - 0.01);
  CHECK(cut.report.input_boxes > 8);
  CHECK(cut.report.input_boxes <= 64);
  CHECK(cut.report.box_explorations > cut.report.input_boxes);  // the tried halves
  CHECK_FALSE(cut.report.budget_exhausted);
  // soundness: exact executions, many at the switch points ±0.5
  symerr::test::InputSampler gen(21, FP64, 1e-12);
  std::size_t bad = 0;
  double max_err = 0;
  for (std::size_t t = 0; t < trials(); ++t) {
    symerr::test::Sample v = gen.next();
    if (t % 2) {
      v.computed = (t % 4 == 1 ? 0.5 : -0.5) + 1e-12 * gen.pick(-3, 3);
      v.real = exact_value(v.computed) - exact_value(1e-12) * mpq_class(gen.pick(-4, 4), 4);
    }
    const mpq_class real = square_switch(v.real);
    const double fp = square_switch(v.computed);
    max_err = std::max(max_err, std::fabs(mpq_class(exact_value(fp) - real).get_d()));
    if (!symerr::test::encloses(cut.outputs[0], real, fp)) ++bad;
  }
  CHECK(bad == 0);
  CHECK(max_err >= 1.99);  // the jump at -0.5 (-1 -> 1) is met by unstable executions
  CHECK(mag(cut.outputs[0].err) <= 2 + 0.01);  // the jump plus 2x over the last box at the switch
  CHECK(mag(cut.outputs[0].err) < mag(whole.outputs[0].err));
  // run budget: the subdivision stops, the result is still sound (the hull so far)
  opt.max_runs = 10;
  const auto cut_short = run_scalar(&square_switch<S>, x, opt);
  INFO(cut_short.report.summary() << "\n" << cut_short.outputs[0]);
  CHECK(cut_short.report.subdivision_budget_exhausted);
  CHECK(subset(cut.outputs[0].err, cut_short.outputs[0].err));
}

TEST_CASE("the driver tightens only modifiable operands, a const local is not written",
          "[verify][driver]") {
  const S x = symerr::test::unit_box(FP64, 1e-12);
  // non-const local: tightened to the outcome taken (relu's bound is e)
  const auto mut = verify::run_kernel(
      [](std::span<S> in, std::span<S> out) {
        S v = in[0];
        out[0] = v < 0 ? S(0) : v;
      },
      std::span(&x, 1), 1);
  CHECK(mag(mut.outputs[0].err) == 1e-12);
  // const local: never written (no const object is modified). A copy of an
  // input still gets relu's bound e: the comparison copies its operands'
  // input tags, and the unstable pair is bounded through the input. (The
  // test's name has no ';': ctest splits a name there and runs nothing.)
  std::vector<S> seen;
  const auto con = verify::run_kernel(
      [&seen](std::span<S> in, std::span<S> out) {
        const S v = in[0];
        out[0] = v < 0 ? S(0) : v;
        seen.push_back(v);
      },
      std::span(&x, 1), 1);
  INFO(con.report.summary() << "\n" << con.outputs[0]);
  for (const S& v : seen) CHECK((v.real.lower() == -1.0 && v.real.upper() == 1.0));
  CHECK(mag(con.outputs[0].err) == 1e-12);
  // a const *computed* local is not written, but it is numbered when made
  // (results of operations on driver inputs are numbered), so the unstable
  // pair is related through it: err = 2e (unrelated, the whole range 2); its
  // real range stays untightened (the path's value is v,
  // real [-2, 2]); the same value in a non-const local is also tightened
  const auto con_computed = verify::run_kernel(
      [](std::span<S> in, std::span<S> out) {
        const S v = in[0] * 2.0;
        out[0] = v < 0 ? S(0) : v;
      },
      std::span(&x, 1), 1);
  const auto mut_computed = verify::run_kernel(
      [](std::span<S> in, std::span<S> out) {
        S v = in[0] * 2.0;
        out[0] = v < 0 ? S(0) : v;
      },
      std::span(&x, 1), 1);
  INFO(con_computed.outputs[0] << "\n" << mut_computed.outputs[0]);
  CHECK(mag(con_computed.outputs[0].err) >= 2e-12);
  CHECK(mag(con_computed.outputs[0].err) <= 4e-12);
  CHECK(con_computed.outputs[0].real.lower() == -2.0);
  CHECK(mut_computed.outputs[0].real.lower() == 0.0);
  CHECK(mag(mut_computed.outputs[0].err) <= 4e-12);
  // the overloads for non-const lvalues mix with const operands and literals
  S a = x;
  const S b = S::input(0, 2, FP64);
  CHECK((a < b).tri() == Tri::Unknown);
  CHECK((b < a).tri() == Tri::Unknown);
  CHECK((0 < a).tri() == Tri::Unknown);
  CHECK((a <= 0.5).info()->lhs_target == &a);
  CHECK((b <= 0.5).info()->lhs_target == nullptr);
  CHECK((0.5 >= a).info()->rhs_target == &a);
}

namespace {
// NaN-safe reciprocal written for float: nothing here knows symerr
template <class T>
T safe_recip(T x) {
  using std::isinf;
  using std::isnan;
  T y = 1 / x;
  if (isnan(y) || isinf(y)) return T(0);
  return y;
}
// the same with the negated classification
template <class T>
T safe_recip_not(T x) {
  using std::isfinite;
  T y = 1 / x;
  if (!isfinite(y)) y = T(0);
  return y;
}
}  // namespace

TEST_CASE("isnan / isinf / isfinite in generic code: decided by the flags, analysed by the driver",
          "[verify][driver]") {
  CHECK(safe_recip(2.0f) == 0.5f);
  CHECK(safe_recip(0.0f) == 0.0f);
  const S finite = S::input(1, 2, FP32);
  CHECK(!static_cast<bool>(isnan(finite)));
  CHECK(!static_cast<bool>(isinf(finite)));
  CHECK(static_cast<bool>(isfinite(finite)));
  CHECK(static_cast<bool>(isnan(S::nan(FP32))));
  CHECK(static_cast<bool>(isinf(S::inf(-1, FP32))));
  const S r = safe_recip(finite);  // 1/x of [1, 2]: never special, no branch
  CHECK(r.real.lower() == 0.5);
  // 1/x of [-1, 1] may be ±inf: undecided outside the driver ...
  const S around0 = S::input(-1, 1, FP32);
  CHECK_THROWS_AS(safe_recip(around0), UndecidedBranch);
  try {
    (void)safe_recip(around0);
  } catch (const UndecidedBranch& ex) {
    CHECK(std::string(ex.what()).find("is_") != std::string::npos);  // names the classification
    CHECK(std::string(ex.what()).find("x: real") != std::string::npos);
  }
  // ... explored by it: on the branch where the computed 1/x is neither NaN
  // nor infinite, y's flags are narrowed (y is a non-const local), so the
  // result has no infinity left
  const std::vector<S> in{around0};
  const auto res = verify::run_kernel([](std::span<S> x, std::span<S> y) { y[0] = safe_recip(x[0]); }, in, 1);
  INFO(res.report.summary() << "\n" << res.outputs[0]);
  const S& y = res.outputs[0];
  CHECK(!y.specials.may_be_pos_inf);
  CHECK(!y.specials.may_be_neg_inf);
  CHECK(!y.specials.may_be_nan);
  CHECK(y.specials.may_be_finite);
  const auto res_not =
      verify::run_kernel([](std::span<S> x, std::span<S> y) { y[0] = safe_recip_not(x[0]); }, in, 1);
  const S& yn = res_not.outputs[0];
  INFO(res_not.report.summary() << "\n" << yn);
  CHECK(!yn.specials.may_be_pos_inf);  // `!isfinite`: the negation's outcome read the right way round
  CHECK(!yn.specials.may_be_neg_inf);
  CHECK(yn.specials.may_be_finite);
  CHECK(res_not.report.refined_operands >= 1);
  // soundness: every float execution (x an FP32 value in [-1, 1], zero
  // included) lies in the enclosures, for both spellings
  for (int i = -2000; i <= 2000; ++i) {
    const float xf = i == 1 ? 0x1p-149f : static_cast<float>(i) / 2000.0f;
    for (const auto& [out, fy] : {std::pair{y, safe_recip(xf)}, std::pair{yn, safe_recip_not(xf)}}) {
      INFO("x = " << xf << " f = " << fy);
      REQUIRE(std::isfinite(fy));
      REQUIRE(out.specials.may_be_finite);
      REQUIRE(out.fp.lower() <= fy);
      REQUIRE(fy <= out.fp.upper());
      if (fy == 0) REQUIRE((std::signbit(fy) ? out.specials.may_be_neg_zero : out.specials.may_be_pos_zero));
    }
  }
  CHECK(y.fp.lower() <= -1);  // 1/x for x in [-1, 0) is <= -1
  CHECK(y.fp.upper() >= 1);
  CHECK(res.report.undecided_branches >= 1);
  const S fin = S::input(0.5, 1, FP32);  // decided: never special, one path, no fork
  const auto one = verify::run_kernel([](std::span<S> x, std::span<S> y) { y[0] = safe_recip(x[0]); },
                                      std::vector<S>{fin}, 1);
  CHECK(one.report.undecided_branches == 0);
  CHECK(one.outputs[0].real.lower() == 1);
}
