// MatMul n×n (default 64) in FP32, symbolic, in the Affine domain against the
// Interval domain in the same run: the time ratio, the symbols and stored
// terms of the affine context, and both bounds on max |err|. Times are the
// thread's CPU time (the machine is shared: wall time is also printed), the
// fastest of `rounds` interleaved rounds. The first round is printed too:
// from the second on, a context reuses the storage the previous one left in
// AffineContext's pool (mapped already: no page faults).
// Run: build/release/bench/bench_affine_matmul [n] [max_terms] [rounds]
#include <algorithm>
#include <chrono>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <symerr/domains/affine.hpp>
#include <symerr/domains/interval.hpp>
#include <symerr/symbolic.hpp>

using namespace symerr;

namespace {

double cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

struct Run {
  double seconds;  // CPU
  double wall;
  double max_err;
  std::size_t symbols = 0, terms = 0, forms = 0;
};

template <class D>
double matmul(int n, double e) {
  using S = SymbolicDomainError<D>;
  std::vector<S> a, b;
  a.reserve(static_cast<std::size_t>(n) * n);
  b.reserve(static_cast<std::size_t>(n) * n);
  for (int i = 0; i < n * n; ++i) a.push_back(S::input(-1, 1, -e, e, FP32));
  for (int i = 0; i < n * n; ++i) b.push_back(S::input(-1, 1, -e, e, FP32));
  double worst = 0;
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      S c = a[i * n] * b[j];
      for (int k = 1; k < n; ++k) c = c + a[i * n + k] * b[k * n + j];
      worst = std::max(worst, mag(c.err));
    }
  }
  return worst;
}

template <class D>
Run timed(int n, double e, std::size_t max_terms) {
  const auto t = std::chrono::steady_clock::now();
  const double c = cpu_seconds();
  Run r{};
  if constexpr (std::is_same_v<D, Affine>) {
    AffineOptions o;
    o.max_terms = max_terms;
    o.memoise = std::getenv("NOMEMO") == nullptr;
    AffineContext ctx(o);
    AffineScope scope(ctx);
    r.max_err = matmul<D>(n, e);
    r.symbols = ctx.symbol_count();
    r.terms = ctx.term_count();
    r.forms = ctx.form_count();
  } else {
    r.max_err = matmul<D>(n, e);
  }
  r.seconds = cpu_seconds() - c;  // the context's destruction included
  r.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 64;
  const std::size_t max_terms = argc > 2 ? static_cast<std::size_t>(std::atol(argv[2])) : AffineOptions{}.max_terms;
  const int rounds = argc > 3 ? std::atoi(argv[3]) : 3;
  const double e = 1e-6;
  double best_i = 1e300, best_a = 1e300;
  Run ri{}, ra{}, first_i{}, first_a{};
  for (int k = 0; k < rounds; ++k) {  // interleaved; the fastest round of each is reported
    const Run i = timed<Interval>(n, e, max_terms);
    const Run a = timed<Affine>(n, e, max_terms);
    if (k == 0) {
      first_i = i;
      first_a = a;
    }
    if (i.seconds < best_i) { best_i = i.seconds; ri = i; }
    if (a.seconds < best_a) { best_a = a.seconds; ra = a; }
  }
  std::printf("MatMul %dx%d FP32 symbolic, inputs in [-1,1] with error 1e-6, max_terms %zu\n", n, n, max_terms);
  std::printf("  Interval: %.3f s CPU (%.3f s wall), max |err| bound %.6e\n", ri.seconds, ri.wall, ri.max_err);
  std::printf("  Affine:   %.3f s CPU (%.3f s wall), max |err| bound %.6e, %zu symbols, %zu forms, %zu stored terms\n",
              ra.seconds, ra.wall, ra.max_err, ra.symbols, ra.forms, ra.terms);
  std::printf("  ratio Affine / Interval: %.2fx\n", ra.seconds / ri.seconds);
  std::printf("  first round (fresh memory): Interval %.3f s, Affine %.3f s, ratio %.2fx\n", first_i.seconds,
              first_a.seconds, first_a.seconds / first_i.seconds);
  return 0;
}
