// Infinite literals in kernels: `T m = -INFINITY;` is the identity of a max
// reduction in C reference kernels (and +INFINITY of a min, ±INFINITY the
// default bounds of ONNX Clip). Such a constant is an exact infinity: the
// ideal program holds the same infinite constant, so its comparisons with a
// certainly finite value, and max/min against it, are decided the same way in
// both programs. An overflow (computed inf, real finite) is not one: its
// comparisons stay undecided.
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include <symerr/domains/affine.hpp>
#include <symerr/verify/symbolic/driver.hpp>

#include "sampling.hpp"

using namespace symerr;

namespace {

template <class D>
bool same(const SymbolicDomainError<D>& a, const SymbolicDomainError<D>& b) {
  auto eq = [](const D& p, const D& q) { return p.lower() == q.lower() && p.upper() == q.upper(); };
  return eq(a.real, b.real) && eq(a.fp, b.fp) && eq(a.err, b.err) && eq(a.propagated, b.propagated) &&
         eq(a.introduced, b.introduced) && a.format == b.format;
}

// The running maximum from −inf, as C kernels write it.
template <class T>
T max_from_minus_inf(const T* x, std::size_t n) {
  T m = -INFINITY;
  for (std::size_t j = 0; j < n; ++j)
    if (x[j] > m) m = x[j];
  return m;
}

}  // namespace

TEST_CASE("infinite literals: comparisons with finite values are decided in both programs", "[dropin][literal]") {
  const SymbolicError x = SymbolicError::input(-1, 1, -1e-12, 1e-12, FP64);
  CHECK(static_cast<bool>(x > -INFINITY));
  CHECK(static_cast<bool>(x < INFINITY));
  CHECK(static_cast<bool>(-INFINITY < x));
  CHECK(static_cast<bool>(x >= -HUGE_VAL));
  CHECK_FALSE(static_cast<bool>(x == INFINITY));
  CHECK(static_cast<bool>(x != -INFINITY));
  {
    // `T m = -INFINITY;` in a kernel under the driver's literal format (FP64
    // here): an exact infinity of FP64
    const ScopedLiteralFormat literals(FP64);
    const SymbolicError m = -INFINITY, p = INFINITY;
    CHECK(static_cast<bool>(x > m));
    CHECK(static_cast<bool>(m < p));
    CHECK(static_cast<bool>(m == m));
    CHECK_FALSE(static_cast<bool>(p <= m));
  }
  // without a literal format the constant is real-format, where an infinity
  // may also be a real division by zero (no ideal value): not decided
  const SymbolicError r = -INFINITY;
  CHECK_THROWS_AS(static_cast<bool>(x > r), UndecidedBranch);
  // the twin: an overflow is computed +inf with a finite real value, so
  // `y < INFINITY` is true for the ideal program and false for the computed
  // one: undecided (not an exact infinity)
  const SymbolicError h = SymbolicError::input(60000, 65504, FP16);
  const SymbolicError y = h * h;
  REQUIRE(y.specials.may_be_pos_inf);
  REQUIRE(y.specials.may_be_defined);
  CHECK_THROWS_AS(static_cast<bool>(y < INFINITY), UndecidedBranch);
  // and a value that may be NaN is not decided against an infinity either
  const SymbolicError z = SymbolicError::input(0, 1, FP64);
  const SymbolicError q = z / z;  // 0/0 possible
  REQUIRE(q.specials.may_be_nan);
  CHECK_THROWS_AS(static_cast<bool>(q > -INFINITY), UndecidedBranch);
}

TEST_CASE("infinite literals: max/min/clamp against an exact infinity return the other operand",
          "[dropin][literal]") {
  for (const FloatFormat& F : {FP64, FP32, FP16}) {
    const SymbolicError x = SymbolicError::input(-1, 1, -0x1p-20, 0x1p-20, F);
    CHECK(same(fmax(x, -INFINITY), x));
    CHECK(same(fmax(-INFINITY, x), x));
    CHECK(same(max(x, -INFINITY), x));
    CHECK(same(fmin(INFINITY, x), x));
    const SymbolicError lo = SymbolicError::inf(-1, F), hi = SymbolicError::inf(+1, F);
    CHECK(same(clamp(x, lo, hi), x));
    // the other side: max(x, +inf) is +inf exactly (computed), as in C
    const SymbolicError top = fmax(x, INFINITY);
    CHECK(top.specials.may_be_pos_inf);
    CHECK_FALSE(top.specials.may_be_finite);
  }
}

TEST_CASE("a running maximum from -INFINITY through the driver: sound, and as tight as from x[0]",
          "[dropin][literal][driver]") {
  constexpr std::size_t n = 4;
  for (double e : {0.0, 1e-12}) {
    auto run = [e](auto tag, bool from_inf) {
      using D = decltype(tag);
      using S = SymbolicDomainError<D>;
      std::vector<S> in;
      for (std::size_t j = 0; j < n; ++j) in.push_back(S::input(-1, 1, -e, e, FP64));
      return verify::run_kernel<D>(
          [from_inf](std::span<S> x, std::span<S> y) {
            if (from_inf) {
              y[0] = max_from_minus_inf(x.data(), n);
            } else {
              S m = x[0];
              for (std::size_t j = 1; j < n; ++j)
                if (x[j] > m) m = x[j];
              y[0] = m;
            }
          },
          in, 1);
    };
    INFO("e = " << e);
    const auto i = run(Interval{}, true);
    const auto i0 = run(Interval{}, false);
    INFO(i.report.summary() << "\n" << i.outputs[0]);
    CHECK_FALSE(i.report.budget_exhausted);
    CHECK(same(i.outputs[0], i0.outputs[0]));
    AffineContext ctx;
    AffineScope scope(ctx);
    const auto a = run(Affine{}, true);
    INFO(a.outputs[0]);
    if (e > 0) CHECK(mag(a.outputs[0].err) <= e * (1 + 1e-9));  // the Affine pairing, as from x[0]
    // sound: exact executions (a third in the band of a tie)
    test::InputSampler gen(7, FP64, e);
    std::size_t bad = 0;
    for (int t = 0; t < 3000; ++t) {
      mpq_class r[n];
      double f[n];
      for (std::size_t j = 0; j < n; ++j) {
        const auto s = gen.next();
        r[j] = s.real, f[j] = s.computed;
      }
      if (t % 3 == 0) {  // a tie of the computed values, the reals apart by up to 2e
        f[1] = f[0];
        r[1] = exact_value(f[0]) - exact_value(e) * mpq_class(gen.pick(-4, 4), 4);
        if (r[1] > 1 || r[1] < -1) r[1] = exact_value(f[0]);
      }
      mpq_class real = r[0];
      for (std::size_t j = 1; j < n; ++j) real = std::max(real, r[j]);
      const double fp = max_from_minus_inf(f, n);
      for (const auto* out : {&i.outputs[0]})
        if (!test::encloses(*out, real, fp)) ++bad;
      const mpq_class err = exact_value(fp) - real;
      if (!contains(a.outputs[0].real, real) || !contains(a.outputs[0].fp, exact_value(fp)) ||
          !contains(a.outputs[0].err, err))
        ++bad;
    }
    CHECK(bad == 0);
  }
}

// One object compared with itself: `x != x` is C's NaN test. It is decided
// (false) when the value cannot be NaN; the twin: a value that may be NaN
// stays undecided, and two different objects with equal enclosures are not
// one value.
TEST_CASE("x != x: decided when x cannot be NaN", "[dropin][literal]") {
  const SymbolicError x = SymbolicError::input(-1, 1, -1e-12, 1e-12, FP64);
  CHECK_FALSE(static_cast<bool>(x != x));
  CHECK(static_cast<bool>(x == x));
  CHECK(static_cast<bool>(x <= x));
  CHECK_FALSE(static_cast<bool>(x < x));
  CHECK_FALSE(static_cast<bool>(x > x));
  const SymbolicError copy = x;
  CHECK_THROWS_AS(static_cast<bool>(x != copy), UndecidedBranch);
  const SymbolicError z = SymbolicError::input(0, 1, FP64);
  const SymbolicError q = z / z;  // may be NaN (0/0)
  CHECK_THROWS_AS(static_cast<bool>(q != q), UndecidedBranch);
}
