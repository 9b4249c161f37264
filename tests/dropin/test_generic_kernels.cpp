// Acceptance: generic kernels written for float (generic_kernels.hpp) compile
// unchanged for float, double and SymbolicError, and every symbolic result
// encloses exact executions: the real result computed by the same kernel on
// mpq_class (exact), the computed result by the kernel on float/double. Each
// soundness check has a tightness twin (the bound against the largest
// observed error, or against the exact range).
#include <catch2/catch.hpp>

#include <cstdio>
#include <vector>

#include <symerr/domains/mpfr_interval.hpp>
#include <symerr/domains/rational_interval.hpp>
#include <symerr/verify/symbolic/driver.hpp>

#include "generic_kernels.hpp"
#include "sampling.hpp"

using namespace symerr;
using symerr::test::InputSampler;
using symerr::test::Sample;
using S = SymbolicError;

namespace {

struct Case {
  FloatFormat F;
  double e;
  const char* name;
};
const Case kCases[] = {{FP64, 0.0, "FP64 e=0"},
                       {FP64, 1e-12, "FP64 e=1e-12"},
                       {FP32, 0.0, "FP32 e=0"},
                       {FP32, 0x1p-20, "FP32 e=2^-20"}};

std::size_t trials() { return static_cast<std::size_t>(1e5 * symerr::test::test_scale()); }

// The kernel on the machine type of F.
template <class Fn>
double computed_run(const FloatFormat& F, const std::vector<double>& f, Fn&& fn) {
  if (F.precision == 24) {
    std::vector<float> v(f.begin(), f.end());
    return static_cast<double>(fn(v.data(), (float*)nullptr));
  }
  std::vector<double> v(f.begin(), f.end());
  return fn(v.data(), (double*)nullptr);
}

struct Stats {
  std::size_t n = 0, violations = 0;
  double max_err = 0;
  std::string first;
};

// Samples executions of an n-input scalar kernel and checks them against `s`
// (a SymbolicDomainError or a LeanError).
template <class B, class Kernel>
Stats sample(const B& s, const Case& c, std::size_t n_in, std::uint64_t seed, Kernel&& k) {
  InputSampler gen(seed, c.F, c.e);
  Stats st;
  std::vector<mpq_class> r(n_in);
  std::vector<double> f(n_in);
  for (std::size_t t = 0; t < trials(); ++t) {
    for (std::size_t i = 0; i < n_in; ++i) {
      const Sample x = gen.next();
      r[i] = x.real;
      f[i] = x.computed;
    }
    const mpq_class real = k(r.data(), (mpq_class*)nullptr);
    const double fp = computed_run(c.F, f, k);
    ++st.n;
    const mpq_class err = exact_value(fp) - real;
    st.max_err = std::max(st.max_err, std::fabs(err.get_d()));
    if (!symerr::test::encloses(s, real, fp)) {
      if (st.violations++ == 0) {
        std::ostringstream os;
        os << "real " << real.get_d() << " fp " << fp << " err " << err.get_d() << " not in " << s;
        st.first = os.str();
      }
    }
  }
  return st;
}

double err_mag(const S& s) { return mag(s.err); }
template <class F>
double err_mag(const LeanError<F>& s) {
  return s.err().mag();
}
template <class B>
void report(const char* kernel, const Case& c, const B& s, const Stats& st) {
  std::printf("%-14s %-13s samples %zu  bound %.3g  max observed %.3g  ratio %.3g\n", kernel, c.name, st.n,
              err_mag(s), st.max_err, st.max_err > 0 ? err_mag(s) / st.max_err : 0.0);
  INFO(kernel << " " << c.name << ": " << st.first);
  CHECK(st.violations == 0);
}

}  // namespace

TEST_CASE("generic kernels compile unchanged for float, double and SymbolicError", "[dropin]") {
  const float fa[3] = {1, 2, 3};
  CHECK(kernels::dot(fa, fa, 3) == 14.0f);
  CHECK(kernels::relu(-2.0) == 0.0);
  CHECK(kernels::clip(3.0f, -1.0f, 1.0f) == 1.0f);
  CHECK(kernels::lerp(0.0, 2.0, 0.25) == 0.5);
  const S one = S::constant(1, FP32);
  const S d = kernels::dot(&one, &one, 1);
  CHECK(d.fp.lower() == 1.0);
  CHECK(d.err.lower() == 0.0);
  const S x = kernels::horner_dyadic(S::constant(0.5, FP64));
  CHECK(is_point(x.fp));
  static_assert(std::is_trivially_copyable_v<S>);
}

TEST_CASE("dot product: T acc = 0 then acc += a_i * b_i encloses exact executions", "[dropin]") {
  constexpr std::size_t n = 8;
  for (const Case& c : kCases) {
    std::vector<S> a(n, symerr::test::unit_box(c.F, c.e)), b = a;
    const S s = kernels::dot(a.data(), b.data(), n);
    const Stats st = sample(s, c, 2 * n, 11, [](auto* v, auto*) { return kernels::dot(v, v + n, n); });
    report("dot8", c, s, st);
    // tightness: the exact real range is [-8, 8]; the error bound is at most
    // the textbook bound n·e·(1 + e)·2 + gamma_n·n (|a|,|b| <= 1 + e) and at most
    // 4x the largest observed error.
    CHECK(s.real.lower() == -8.0);
    CHECK(s.real.upper() == 8.0);
    const double u = std::ldexp(1.0, -c.F.precision);
    const double textbook = 2 * n * c.e * (1 + c.e) + n * u / (1 - n * u) * n * (1 + c.e) * (1 + c.e) * 1.0001;
    CHECK(mag(s.err) <= textbook);
    CHECK(mag(s.err) <= 5 * st.max_err);
  }
}

TEST_CASE("Horner with representable coefficients encloses exact executions", "[dropin]") {
  for (const Case& c : kCases) {
    const S s = kernels::horner_dyadic(symerr::test::unit_box(c.F, c.e));
    const Stats st = sample(s, c, 1, 12, [](auto* v, auto*) { return kernels::horner_dyadic(v[0]); });
    report("horner_dyadic", c, s, st);
    CHECK(mag(s.err) <= 4 * st.max_err);
  }
}

// Needs the rounding of a real-format literal into the machine format (the
// documented literal semantics; the rounding is implemented in arithmetic()):
// 1/6 and 1/24 are not values of FP32 / FP64.
TEST_CASE("Horner with double coefficients (1/6, 1/24) encloses exact executions", "[dropin][literal-rounding]") {
  for (const Case& c : kCases) {
    const S s = kernels::horner(symerr::test::unit_box(c.F, c.e));
    const Stats st = sample(s, c, 1, 13, [](auto* v, auto*) { return kernels::horner(v[0]); });
    report("horner", c, s, st);
    CHECK(mag(s.err) <= 4 * st.max_err);
  }
}

TEST_CASE("lerp a + t*(b - a) encloses exact executions", "[dropin]") {
  for (const Case& c : kCases) {
    const S box = symerr::test::unit_box(c.F, c.e);
    const S s = kernels::lerp(box, box, box);
    const Stats st = sample(s, c, 3, 14, [](auto* v, auto*) { return kernels::lerp(v[0], v[1], v[2]); });
    report("lerp", c, s, st);
    CHECK(mag(s.err) <= 4 * st.max_err);
  }
}

TEST_CASE("clip with unqualified min/max is exact on the symbolic level and encloses executions", "[dropin]") {
  for (const Case& c : kCases) {
    const S box = symerr::test::unit_box(c.F, c.e);
    const S lo = -0.5, hi = 0.5;
    const S s = kernels::clip(box, lo, hi);  // no branch: no UndecidedBranch
    const Stats st = sample(s, c, 1, 15, [](auto* v, auto* tag) {
      using T = std::remove_pointer_t<decltype(tag)>;
      return kernels::clip(v[0], T(-0.5), T(0.5));
    });
    report("clip", c, s, st);
    CHECK(s.real.lower() == -0.5);
    CHECK(s.real.upper() == 0.5);
    CHECK(mag(s.err) <= c.e);  // clip is 1-Lipschitz: the true maximum is e
    CHECK(mag(s.err) <= 2 * st.max_err);
  }
}

TEST_CASE("relu x < 0 ? T(0) : x through the driver on 16 elements", "[dropin]") {
  constexpr std::size_t n = 16;
  for (const Case& c : kCases) {
    const std::vector<S> in(n, symerr::test::unit_box(c.F, c.e));
    verify::DriverOptions opt;
    const std::size_t sizes[] = {n};
    verify::elementwise_lanes(opt, sizes, n);
    const auto res = verify::run_kernel(
        [](std::span<S> x, std::span<S> y) {
          for (std::size_t i = 0; i < x.size(); ++i) y[i] = kernels::relu(x[i]);
        },
        in, n, opt);
    INFO(res.report.summary());
    CHECK_FALSE(res.report.budget_exhausted);
    CHECK_FALSE(res.report.lanes_violated);
    for (std::size_t i = 0; i < n; ++i) {
      const S& s = res.outputs[i];
      const Stats st = sample(s, c, 1, 16 + i, [](auto* v, auto*) { return kernels::relu(v[0]); });
      report("relu", c, s, st);
      // tightness: the true maximum error is e (observed); real is [0, 1]
      CHECK(mag(s.err) <= 2 * st.max_err);
      CHECK(mag(s.err) <= c.e);
      CHECK(s.real.lower() == 0.0);
      CHECK(s.real.upper() == 1.0);
      if (i == 1) break;  // every lane's enclosure is the same: two are sampled
    }
    CHECK(res.report.runs <= 8);  // zipped: the lanes' paths share runs
  }
}

// The same kernels, unchanged, on LeanDouble / LeanFloat (<symerr/lean.hpp>),
// against the same exact executions and with the same tightness twins.
template <class L>
void lean_generic(const Case& c) {
  constexpr std::size_t n = 8;
  const L box = L::input(-1, 1, -c.e, c.e);
  // two arrays (the executions draw a and b independently): a[i] * a[i] of
  // one array would be a square, on LeanError as on SymbolicError
  const std::vector<L> a(n, box), b = a;
  const L d = kernels::dot(a.data(), b.data(), n);
  Stats st = sample(d, c, 2 * n, 11, [](auto* v, auto*) { return kernels::dot(v, v + n, n); });
  report("lean dot8", c, d, st);
  const double u = std::ldexp(1.0, -c.F.precision);
  CHECK(d.err().mag() <= 2 * n * c.e * (1 + c.e) + n * u / (1 - n * u) * n * (1 + c.e) * (1 + c.e) * 1.0001);
  CHECK(d.err().mag() <= 5 * st.max_err);
  const L h = kernels::horner(box);
  st = sample(h, c, 1, 13, [](auto* v, auto*) { return kernels::horner(v[0]); });
  report("lean horner", c, h, st);
  CHECK(h.err().mag() <= 4 * st.max_err);
  const L hd = kernels::horner_dyadic(box);
  st = sample(hd, c, 1, 12, [](auto* v, auto*) { return kernels::horner_dyadic(v[0]); });
  report("lean horner2", c, hd, st);
  CHECK(hd.err().mag() <= 4 * st.max_err);
  const L l = kernels::lerp(box, box, box);
  st = sample(l, c, 3, 14, [](auto* v, auto*) { return kernels::lerp(v[0], v[1], v[2]); });
  report("lean lerp", c, l, st);
  CHECK(l.err().mag() <= 4 * st.max_err);
  const L cl = kernels::clip(box, L(-0.5), L(0.5));
  st = sample(cl, c, 1, 15, [](auto* v, auto* tag) {
    using T = std::remove_pointer_t<decltype(tag)>;
    return kernels::clip(v[0], T(-0.5), T(0.5));
  });
  report("lean clip", c, cl, st);
  CHECK(cl.err().mag() <= c.e);
  CHECK(cl.err().mag() <= 2 * st.max_err);
  // a branch whose outcome differs inside the box: LeanError has no driver
  CHECK_THROWS_AS(kernels::relu(box), UndecidedBranch);
  CHECK(kernels::relu(L::input(0.25, 1, -c.e, c.e)).err().mag() == c.e);  // decided
}

TEST_CASE("generic kernels unchanged on LeanDouble and LeanFloat: sound, same twins", "[dropin][lean]") {
  for (const Case& c : kCases) {
    if (c.F.precision == 53) lean_generic<LeanDouble>(c);
    else lean_generic<LeanFloat>(c);
  }
}

TEST_CASE("[long] generic kernels, 10x the default sample count", "[.][long][dropin]") {
  // SYMERR_TEST_SCALE applies on top: this case reruns the checks above.
  for (const Case& c : kCases) {
    for (int rep = 0; rep < 10; ++rep) {
      const S box = symerr::test::unit_box(c.F, c.e);
      const S s = kernels::lerp(box, box, box);
      const Stats st = sample(s, c, 3, 100 + rep, [](auto* v, auto*) { return kernels::lerp(v[0], v[1], v[2]); });
      CHECK(st.violations == 0);
    }
  }
}

namespace {
template <class D>
void generic_kernels_on_domain() {
  using T = SymbolicDomainError<D>;
  const T a[2] = {T::input(-1, 1, FP32), T::input(0, 1, FP32)};
  const T d = kernels::dot(a, a, 2);  // a[i] * a[i]: one object, a square (>= 0)
  CHECK(d.real.lower() == 0.0);
  CHECK(d.real.upper() == 2.0);
  const T c = kernels::clip(a[0], T(-0.5), T(0.5));
  CHECK(c.real.upper() == 0.5);
  T m = fmax(a[0], 1) + fmin(2, a[1]) + 2 * a[0] - 1.5f;
  m += 3;
  m /= 2;
  CHECK(m.is_float());
  CHECK_THROWS_AS(kernels::relu(a[0]), UndecidedBranch);
}
}  // namespace

TEST_CASE("the generic kernels compile and run for every domain", "[dropin]") {
  generic_kernels_on_domain<Interval>();
  generic_kernels_on_domain<MpfrInterval>();
  generic_kernels_on_domain<RationalInterval>();
}

namespace {
// Activation templates as a kernel file writes them, calling the C math
// names unqualified; this file includes only the driver header.
template <class T> T silu(T x) { return x / (T(1) + exp(-x)); }
template <class T> T gelu_tanh(T x) {
  return T(0.5) * x * (T(1) + tanh(T(0.7978845608028654) * (x + T(0.044715) * x * x * x)));
}
template <class T> T gelu_erf(T x) { return 0.5 * x * (1.0 + erf(x / sqrt(2.0))); }
template <class T> T softplus(T x) { return log1p(exp(x)); }
}  // namespace

TEST_CASE("the driver header alone gives a kernel exp, tanh, erf, log1p (unqualified)", "[dropin]") {
  // Before, `exp(x)` here found ::exp(double) and the file did not compile.
  CHECK(silu(0.5) == 0.5 / (1 + std::exp(-0.5)));
  const S x = S::input(-2, 2, -1e-7, 1e-7, FP32);
  const S explicit_silu = x / (S(1) + symerr::exp(-x));
  const S a = silu(x);
  CHECK(a.fp.lower() == explicit_silu.fp.lower());
  CHECK(a.err.upper() == explicit_silu.err.upper());
  const S g = gelu_tanh(x);
  const S explicit_g = S(0.5) * x * (S(1) + symerr::tanh(S(0.7978845608028654) * (x + S(0.044715) * x * x * x)));
  CHECK(g.err.lower() == explicit_g.err.lower());
  CHECK(g.err.upper() == explicit_g.err.upper());
  CHECK(mag(gelu_erf(x).err) > 0);
  CHECK(mag(softplus(x).err) > 0);
}
