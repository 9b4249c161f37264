// The storage pool of AffineContext: a destroyed context's blocks (form
// headers, terms, memo entries) are reused by the next contexts. A context on
// reused memory must give exactly what a context on fresh memory gives — the
// blocks hold the previous context's forms, which must never be read — in
// one thread and in several at once; the pool is bounded and can be emptied.
#include <catch2/catch.hpp>

#include <cstdint>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <symerr/domains/affine.hpp>
#include <symerr/symbolic.hpp>
#include <symerr/domains/symbolic_instances.hpp>  // the library's instantiations (compile time)

using namespace symerr;

namespace {

using SA = SymbolicDomainError<Affine>;

// Everything a form is, bitwise: range, center and terms.
std::string describe(const AffineContext& ctx, const Affine& a) {
  std::ostringstream o;
  o << std::hexfloat << a.lower() << ' ' << a.upper() << ' ' << ctx.center(a) << ':';
  for (const AffineTerm& t : ctx.terms(a)) o << ' ' << t.symbol << '*' << t.coefficient;
  return o.str();
}

// A kernel large enough for several blocks of every kind (more than 4096
// forms, 65536 terms and memo entries): an n×n matmul with a shared
// subexpression, in FP32, inputs in [-1, 1] with error 2^-20.
std::string kernel(int n, std::uint64_t seed) {
  AffineContext ctx;
  AffineScope scope(ctx);
  std::vector<SA> a, b;
  for (int i = 0; i < n * n; ++i) {
    const double lo = -1 + static_cast<double>((seed * 7 + static_cast<std::uint64_t>(i) * 13) % 5) / 8;
    a.push_back(SA::input(lo, 1, -0x1p-20, 0x1p-20, FP32));
    b.push_back(SA::input(-1, 1, -0x1p-20, 0x1p-20, FP32));
  }
  std::string out;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      SA c = a[i * n] * b[j];
      for (int k = 1; k < n; ++k) c = c + a[i * n + k] * b[k * n + j];
      const SA d = c * c - c * c;  // the same value: 0 through the memo
      const SA& r = c;
      for (const Affine* f : {&r.real, &r.fp, &r.err, &r.propagated, &r.introduced, &d.err})
        out += describe(ctx, *f) + '\n';
    }
  return out;
}

}  // namespace

TEST_CASE("Affine storage pool: a context on reused memory gives what one on fresh memory gives",
          "[affine][pool]") {
  AffineContext::release_pooled_storage();
  REQUIRE(AffineContext::pooled_storage_bytes() == 0);
  const std::string fresh = kernel(20, 1);  // on fresh memory
  const std::size_t kept = AffineContext::pooled_storage_bytes();
  CHECK(kept > (std::size_t{1} << 20));  // its blocks were kept
  (void)kernel(24, 2);                   // another kernel fills the blocks with other forms
  CHECK(AffineContext::pooled_storage_bytes() >= kept);
  const std::string reused = kernel(20, 1);  // on the other kernel's memory
  CHECK(reused == fresh);
  // the twin: another kernel's output differs (the comparison is not vacuous)
  CHECK(kernel(20, 2) != fresh);
  AffineContext::release_pooled_storage();
  CHECK(AffineContext::pooled_storage_bytes() == 0);
  CHECK(kernel(20, 1) == fresh);  // fresh memory again
}

TEST_CASE("Affine storage pool: contexts in several threads at once", "[affine][pool]") {
  const std::string reference[] = {kernel(12, 3), kernel(12, 4)};
  std::vector<std::string> got(4);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      std::string last;
      for (int round = 0; round < 3; ++round) last = kernel(12, 3 + static_cast<std::uint64_t>(t % 2));
      got[static_cast<std::size_t>(t)] = last;
    });
  for (std::thread& th : threads) th.join();
  for (int t = 0; t < 4; ++t) CHECK(got[static_cast<std::size_t>(t)] == reference[t % 2]);
  CHECK(reference[0] != reference[1]);
}
