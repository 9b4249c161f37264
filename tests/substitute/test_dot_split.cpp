// The whole-kernel error split on the dot product (issue 14): the C matmul
// kernel of kernels/onnx_kernels.c run as a dot product [1 x n]·[n x 1] on
// SymbolicError (Interval) and on SymbolicDomainError<Affine> through the type
// substitution, FP32 inputs in [-1, 1] with input error e, against exact
// executions of the same C kernel compiled on float:
//   propagated = K_real(x + e) − K_real(x),  introduced = K_fp(x + e) − K_real(x + e),
// computed exactly (every input value is a multiple of 2^-24 and every input
// error a multiple of e/1024, so the sums are integers times one scale).
// Soundness: every execution's real, fp, err, propagated and introduced lie in
// the symbolic enclosures. Tightness twins: err, propagated and introduced each
// against its own observed maximum. The observed maxima come from constructed
// executions — all inputs at the top corner with aligned errors (the
// propagated part), a greedy search choosing each product so that its rounding
// and the rounding of the running sum are both nearly half an ulp of the same
// sign (the introduced part and err) — and from random ones.
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <tuple>
#include <vector>
#include <symerr/domains/symbolic_instances.hpp>  // the library's instantiations (compile time)

#include "substitute/kernel_builds.hpp"
#include "test_scale.hpp"

using namespace symerr;

namespace {

using SA = SymbolicDomainError<Affine>;

// One execution: a[i] = Fa[i]·2^-24 (a value of FP32) with input error
// e·Ka[i]/1024 (the ideal value is a[i] − e·Ka[i]/1024), the same for b.
struct Execution {
  std::vector<std::int64_t> fa, fb;
  std::vector<int> ka, kb;
};

struct Exact {
  mpq_class real, pr, fp;  // K_real(x), K_real(x + e), K_fp(x + e)
  mpq_class err() const { return fp - real; }
  mpq_class propagated() const { return pr - real; }
  mpq_class introduced() const { return fp - pr; }
};

float value_of(std::int64_t f) { return std::ldexp(static_cast<float>(f), -24); }  // exact: |f| <= 2^25, even above 2^24

// The C kernel on float, and the exact values by integer sums (|F| <= 2^24 + 2^5,
// |K| <= 1024, n <= 4096: every sum fits in 62 bits).
Exact evaluate(const Execution& x, double e) {
  const std::size_t n = x.fa.size();
  std::vector<float> a(n), b(n);
  std::int64_t P = 0, Q = 0, R = 0;
  for (std::size_t i = 0; i < n; ++i) {
    a[i] = value_of(x.fa[i]), b[i] = value_of(x.fb[i]);
    P += x.fa[i] * x.fb[i];
    Q += x.fa[i] * x.kb[i] + x.ka[i] * x.fb[i];
    R += static_cast<std::int64_t>(x.ka[i]) * x.kb[i];
  }
  float y = 0;
  k32::tensor ta{2, {1, static_cast<int>(n)}, a.data()}, tb{2, {static_cast<int>(n), 1}, b.data()}, ty{2, {1, 1}, &y};
  k32::onnx_matmul(&ta, &tb, &ty);
  const mpq_class E = exact_value(e);
  auto scaled = [](std::int64_t z, int shift) {
    mpq_class q(mpz_class(static_cast<long>(z)), mpz_class(1) << shift);
    q.canonicalize();  // GMP's operations need canonical operands
    return q;
  };
  Exact r;
  r.pr = scaled(P, 48);
  const mpq_class cross = scaled(Q, 34) * E;
  const mpq_class squares = scaled(R, 20) * E * E;
  r.real = r.pr - cross + squares;  // sum (a − da)(b − db)
  r.fp = exact_value(static_cast<double>(y));
  return r;
}

// The largest input value: the largest FP32 value <= 1 + e, as F·2^-24.
std::int64_t top_value(double e) { return (std::int64_t{1} << 24) + 2 * static_cast<std::int64_t>(std::floor(std::ldexp(e, 23))); }

// An input with a random value and error, its ideal value kept in [-1, 1].
void random_input(std::mt19937_64& rng, std::int64_t top, double e, std::int64_t& f, int& k) {
  f = std::uniform_int_distribution<std::int64_t>(-top, top)(rng);
  if (std::llabs(f) > (std::int64_t{1} << 24)) f &= ~std::int64_t{1};  // above 1 only even multiples are FP32
  k = e > 0 ? std::uniform_int_distribution<int>(-1024, 1024)(rng) : 0;
  const int sign = f < 0 ? -1 : 1;
  if (e > 0 && std::llabs(f) > (std::int64_t{1} << 24)) k = sign * 1024;  // |a − e| <= 1
  else if (e > 0 && std::ldexp(static_cast<double>(std::llabs(f)), -24) > 1 - 2 * e) k = sign * std::abs(k);
}

Execution random_execution(std::mt19937_64& rng, std::size_t n, double e) {
  Execution x{std::vector<std::int64_t>(n), std::vector<std::int64_t>(n), std::vector<int>(n), std::vector<int>(n)};
  const std::int64_t top = top_value(e);
  for (std::size_t i = 0; i < n; ++i) {
    random_input(rng, top, e, x.fa[i], x.ka[i]);
    random_input(rng, top, e, x.fb[i], x.kb[i]);
  }
  return x;
}

// Every input at the top value with the error +e: the propagated part's maximum.
Execution corner_execution(std::size_t n, double e) {
  const int k = e > 0 ? 1024 : 0;
  return {std::vector<std::int64_t>(n, top_value(e)), std::vector<std::int64_t>(n, top_value(e)),
          std::vector<int>(n, k), std::vector<int>(n, k)};
}

// Greedy: each product a·b among `candidates` random pairs of values in
// [top − 2^-12, top] (products near 1: the running sum reaches each binade
// as early as possible; the product's rounding can still be almost half an
// ulp) maximises (round(p) − p) + (round(S + round(p)) − (S + round(p)))
// for the running float sum S; every input carries the error +e. All the
// doubles here are exact: p has <= 50 significant bits, S and round(p) are
// multiples of 2^-24 below 2^13.
Execution greedy_execution(std::mt19937_64& rng, std::size_t n, double e, int candidates) {
  Execution x = corner_execution(n, e);
  const std::int64_t top = top_value(e);
  std::uniform_int_distribution<std::int64_t> pick(top - (std::int64_t{1} << 12), top);
  auto fp32 = [](std::int64_t f) { return f > (std::int64_t{1} << 24) ? f & ~std::int64_t{1} : f; };
  float S = 0;
  for (std::size_t i = 0; i < n; ++i) {
    double best = -1;
    for (int c = 0; c < candidates; ++c) {
      const std::int64_t A = fp32(pick(rng)), B = fp32(pick(rng));
      const double p = std::ldexp(static_cast<double>(A) * static_cast<double>(B), -48);
      const auto q = static_cast<float>(p);
      const double s = static_cast<double>(S) + static_cast<double>(q);
      const double delta = (static_cast<double>(q) - p) + (static_cast<double>(static_cast<float>(s)) - s);
      if (delta > best) best = delta, x.fa[i] = A, x.fb[i] = B;
    }
    const double p = std::ldexp(static_cast<double>(x.fa[i]) * static_cast<double>(x.fb[i]), -48);
    S = static_cast<float>(static_cast<double>(S) + static_cast<double>(static_cast<float>(p)));
  }
  return x;
}

// Aligned roundings, exhaustively per step: each product a·b is chosen among
// all pairs of FP32 values in the top `window` units (of 2^-24) below the
// largest input value so that the product's rounding and the running sum's
// rounding are both as negative as possible (first best pair). A product
// just above 1 of a value just below 1 and one just above rounds by almost
// half an ulp of [1, 2) (downwards), and a running sum just above 2, 4, 8, …
// at a tie rounds by half an ulp of the binade above: every rounding then
// reaches the per-operation bound (n = 4: 12·2^-24, the bound itself).
Execution aligned_execution(std::size_t n, double e, std::int64_t window) {
  Execution x = corner_execution(n, e);
  const std::int64_t top = top_value(e);
  std::vector<std::int64_t> values;
  for (std::int64_t v = top; v >= top - window; --v) {
    const std::int64_t f = v > (std::int64_t{1} << 24) ? v & ~std::int64_t{1} : v;  // FP32 above 1: even
    if (values.empty() || values.back() != f) values.push_back(f);
  }
  float S = 0;
  for (std::size_t i = 0; i < n; ++i) {
    double best = -1;
    float next = 0;
    for (const std::int64_t A : values)
      for (const std::int64_t B : values) {
        const double p = std::ldexp(static_cast<double>(A) * static_cast<double>(B), -48);  // exact
        const auto q = static_cast<float>(p);
        const double sum = static_cast<double>(S) + static_cast<double>(q);  // exact
        const auto rounded = static_cast<float>(sum);
        const double down = (p - static_cast<double>(q)) + (sum - static_cast<double>(rounded));
        if (down > best) best = down, x.fa[i] = A, x.fb[i] = B, next = rounded;
      }
    S = next;
  }
  return x;
}

// The kernel on symbolic inputs (one fresh input per element: for Affine,
// independent symbols).
template <class S, class Tensor, class MatMul>
S symbolic_dot(std::size_t n, double e, MatMul matmul) {
  std::vector<S> a, b;
  for (std::size_t i = 0; i < n; ++i) {
    a.push_back(S::input(-1, 1, -e, e, FP32));
    b.push_back(S::input(-1, 1, -e, e, FP32));
  }
  S y{};
  Tensor ta{2, {1, static_cast<int>(n)}, a.data()}, tb{2, {static_cast<int>(n), 1}, b.data()}, ty{2, {1, 1}, &y};
  matmul(&ta, &tb, &ty);
  return y;
}

struct Observed {
  std::size_t executions = 0, violations = 0;
  double err = 0, propagated = 0, introduced = 0;
  std::string first;
};

double abs_d(const mpq_class& q) { return std::fabs(q.get_d()); }

template <class S>
void check(const S& y, const Exact& x, Observed& o) {
  ++o.executions;
  o.err = std::max(o.err, abs_d(x.err()));
  o.propagated = std::max(o.propagated, abs_d(x.propagated()));
  o.introduced = std::max(o.introduced, abs_d(x.introduced()));
  if (contains(y.real, x.real) && contains(y.fp, x.fp) && contains(y.err, x.err()) &&
      contains(y.propagated, x.propagated()) && contains(y.introduced, x.introduced()))
    return;
  if (o.violations++ == 0)
    o.first = "propagated " + std::to_string(x.propagated().get_d()) + " introduced " +
              std::to_string(x.introduced().get_d()) + " err " + std::to_string(x.err().get_d());
}

struct Row {
  double err, propagated, introduced;  // the bounds (mag of the enclosures)
  double seconds;
};

template <class S>
Row row_of(const S& y, double seconds) {
  return {mag(y.err), mag(y.propagated), mag(y.introduced), seconds};
}

template <class F>
double timed(F&& f) {
  const auto t0 = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

double ratio(double bound, double observed) {
  return observed > 0 ? bound / observed : (bound == 0 ? 1.0 : INFINITY);
}

struct Budget {
  std::size_t random;  // random executions
  int greedy_runs, candidates;
  std::int64_t window = 40;  // aligned_execution's values below the top
};

// Checks every execution against both domains' results.
template <class Check>
Observed sample(std::size_t n, double e, const Budget& budget, Check&& check_both) {
  Observed o;
  std::mt19937_64 rng(n * 7919 + static_cast<std::uint64_t>(e > 0));
  check_both(evaluate(corner_execution(n, e), e), o);
  check_both(evaluate(aligned_execution(n, e, budget.window), e), o);
  for (int g = 0; g < budget.greedy_runs; ++g) check_both(evaluate(greedy_execution(rng, n, e, budget.candidates), e), o);
  for (std::size_t t = 0; t < budget.random; ++t) check_both(evaluate(random_execution(rng, n, e), e), o);
  return o;
}

// The tightness twins. err: within 1.07x of its observed maximum (issue 14:
// "no worse than today's interval bound, 1.002-1.07x"). The parts: within
// 1.1x (the target). With e > 0 the bound charges every product and
// partial sum the half ulp of the binade above 1, 2, 4, …; the aligned
// execution reaches it (introduced part at n = 4: exactly the bound; the
// random and greedy searches alone found 1.72x and 1.25x at n = 4 and 16).
struct Twin {
  double part_ratio;
  static Twin of(std::size_t, double) { return {1.1}; }
};

void run_cell(std::size_t n, double e, const Budget& budget, const Twin& twin) {
  SymbolicError yi;
  const double ti = timed([&] { yi = symbolic_dot<SymbolicError, ksym::tensor>(n, e, ksym::onnx_matmul); });
  AffineContext ctx;
  AffineScope scope(ctx);
  SA ya;
  const double ta = timed([&] { ya = symbolic_dot<SA, kaff::tensor>(n, e, kaff::onnx_matmul); });
  Observed oa;  // the Affine result's checks (the same executions)
  const Observed oi = sample(n, e, budget, [&](const Exact& x, Observed& o) {
    check(yi, x, o);
    check(ya, x, oa);
  });
  const Row ri = row_of(yi, ti), ra = row_of(ya, ta);
  for (const auto& [name, r, o] : {std::tuple{"Interval", ri, oi}, std::tuple{"Affine", ra, oa}}) {
    std::printf("| %4zu | %-6g | %-8s | %10.4g | %10.4g | %6.4f | %10.4g | %10.4g | %8.6f | %10.4g | %10.4g | %6.4f | %6zu | %.3f s\n",
                n, e, name, r.err, o.err, ratio(r.err, o.err), r.propagated, o.propagated,
                ratio(r.propagated, o.propagated), r.introduced, o.introduced, ratio(r.introduced, o.introduced),
                o.executions, r.seconds);
    INFO(name << " n = " << n << " e = " << e << ": " << o.first);
    CHECK(o.violations == 0);
    CHECK(ratio(r.err, o.err) <= 1.07);
    CHECK(ratio(r.propagated, o.propagated) <= twin.part_ratio);
    CHECK(ratio(r.introduced, o.introduced) <= twin.part_ratio);
    if (e == 0) CHECK(r.propagated == 0);
  }
  CHECK(ra.err <= ri.err);  // Affine: never worse than the interval bound
  std::fflush(stdout);
}

const char* kHeader =
    "|    n | e      | domain   |  err bound |   observed |  ratio | propagated |   observed |    ratio | "
    "introduced |   observed |  ratio |  execs | symbolic time\n";

}  // namespace

TEST_CASE("dot product FP32 n 4 16 64: propagated and introduced parts in Interval and Affine", "[substitute][split]") {
  std::printf("%s", kHeader);
  const Budget budget{static_cast<std::size_t>(300 * symerr::test::test_scale()) + 10, 4, 512};
  for (std::size_t n : {4u, 16u, 64u})
    for (double e : {0.0, 1e-6}) run_cell(n, e, budget, Twin::of(n, e));
}

TEST_CASE("[long] dot product FP32 n 4 to 4096: the full table", "[.][long][substitute][split]") {
  std::printf("%s", kHeader);
  const Budget budget{10000, 8, 4096};
  for (std::size_t n : {4u, 16u, 64u, 256u, 1024u, 4096u})
    for (double e : {0.0, 1e-6}) run_cell(n, e, budget, Twin::of(n, e));
}

TEST_CASE("planted bug: a narrowed introduced or propagated part is caught", "[substitute][split]") {
  const std::size_t n = 64;  // introduced bound within 1.07x: narrowed to 0.85x it is below observed errors
  const double e = 1e-6;
  for (int part = 0; part < 2; ++part) {
    SymbolicError y = symbolic_dot<SymbolicError, ksym::tensor>(n, e, ksym::onnx_matmul);
    Interval& narrowed = part == 0 ? y.introduced : y.propagated;
    narrowed = Interval::between(narrowed.lower() * 0.85, narrowed.upper() * 0.85);
    const Observed caught = sample(n, e, {20, 2, 512}, [&](const Exact& x, Observed& obs) { check(y, x, obs); });
    INFO(part);
    CHECK(caught.violations > 0);
  }
}
