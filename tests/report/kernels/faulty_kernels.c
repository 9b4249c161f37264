/* Kernels that misbehave on purpose, for the isolation and FP-environment
 * tests (tests/report/test_faults.cpp compiles this file with `cc -shared`).
 * Each one is correct except for the one thing its name says. */
#include <fenv.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <xmmintrin.h>

void good_div(const float* a, const float* b, float* y, size_t n) {
  for (size_t i = 0; i < n; ++i) y[i] = a[i] / b[i];
}
/* dies with SIGSEGV when an operand is NaN */
void segv_div(const float* a, const float* b, float* y, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    if (a[i] != a[i]) *(volatile int*)0 = 1;
    y[i] = a[i] / b[i];
  }
}
/* loops forever when the divisor is zero */
void loop_div(const float* a, const float* b, float* y, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    if (b[i] == 0.0f)
      for (;;) {
      }
    y[i] = a[i] / b[i];
  }
}
/* ends the process with status 0 when an operand is infinite */
void exit_div(const float* a, const float* b, float* y, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    if (isinf(a[i]) || isinf(b[i])) exit(0);
    y[i] = a[i] / b[i];
  }
}
/* sets FTZ and DAZ and leaves them set */
void daz_leave(const float* a, const float* b, float* y, size_t n) {
  _mm_setcsr(_mm_getcsr() | 0x8040);
  for (size_t i = 0; i < n; ++i) y[i] = a[i] / b[i];
}
/* sets FTZ and DAZ during the call and restores the caller's state */
void daz_restore(const float* a, const float* b, float* y, size_t n) {
  const unsigned s = _mm_getcsr();
  _mm_setcsr(s | 0x8040);
  for (size_t i = 0; i < n; ++i) y[i] = a[i] / b[i];
  _mm_setcsr(s);
}
/* correct, but leaves the rounding mode upward */
void upward_leave(const float* a, const float* b, float* y, size_t n) {
  for (size_t i = 0; i < n; ++i) y[i] = a[i] / b[i];
  fesetround(FE_UPWARD);
}
/* correct, but leaves the division-by-zero trap enabled */
void trap_leave(const float* a, const float* b, float* y, size_t n) {
  for (size_t i = 0; i < n; ++i) y[i] = a[i] / b[i];
  _mm_setcsr(_mm_getcsr() & ~0x0200u);
}
/* a NaN operand gives -inf (as XNNPACK's f16 Add did) */
void nan_to_minus_inf_add(const float* a, const float* b, float* y, size_t n) {
  for (size_t i = 0; i < n; ++i) y[i] = (a[i] != a[i] || b[i] != b[i]) ? -INFINITY : a[i] + b[i];
}
void good_div64(const double* a, const double* b, double* y, size_t n) {
  for (size_t i = 0; i < n; ++i) y[i] = a[i] / b[i];
}
/* plain C integer division: undefined (SIGFPE on x86) for b == 0 */
void c_div_int32(const int32_t* a, const int32_t* b, int32_t* y, size_t n) {
  for (size_t i = 0; i < n; ++i) y[i] = a[i] / b[i];
}
