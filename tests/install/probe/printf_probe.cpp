// Compiled (-fsyntax-only) by the install/printf-refused test, twice:
//   * with -DSYMERR_PROBE_REFUSED, each of the six calls marked below passes a
//     symerr value to a printf-like function and must fail with symerr's
//     message (<symerr/symbolic/printf_guard.hpp>);
//   * without it, the same calls on plain numbers compile (the twin: the
//     refusal comes from the symbolic argument, nothing else).
// Both builds also check that `detail` names one namespace under the two
// using-directives a user writes.
#include <cstdio>

#include <symerr/symerr.hpp>

#define SYMERR_SUBSTITUTE_FLOAT ::symerr::SymbolicError
#include <symerr/substitute.hpp>
namespace kernel {
#include "printf_kernel.c"  // refused call 1 (a C kernel substituted with REPLACE float)
}  // namespace kernel
#include <symerr/substitute_end.hpp>

using namespace symerr;
using namespace symerr::verify;
namespace probe_detail = detail;  // ambiguous if symerr::verify had a `detail` of its own

int main() {
  const SymbolicError x = SymbolicError::input(0, 1, 0, 0, FP32);
  const LeanDouble l = LeanDouble::input(0, 1);
  char buf[64];
#ifdef SYMERR_PROBE_REFUSED
  printf("x = %f, n = %d\n", x, 1);          // refused call 2
  std::printf("x = %f\n", x);                 // refused call 3
  std::fprintf(stderr, "l = %f\n", l);        // refused call 4
  snprintf(buf, sizeof buf, "%d", x > 0.5);   // refused call 5 (a comparison's Truth)
  printf("err = %f\n", x.err);                // refused call 6 (an Interval)
#else
  printf("x = %f, n = %d\n", mag(x.err), 1);
  std::printf("x = %f\n", mag(x.fp));
  std::fprintf(stderr, "l = %f\n", mag(l.err()));
  snprintf(buf, sizeof buf, "%d", 1);
  printf("err = %f\n", 0.5);
#endif
  return buf[0] == 0 ? 1 : 0;
}
