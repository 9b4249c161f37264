/* A kernel library whose constructor attacks the harness (compiled by
 * tests/report/test_hostile.cpp with -DCTOR_EXIT, -DCTOR_SEGV or -DCTOR_LOOP). */
#include <stddef.h>
#include <stdlib.h>

__attribute__((constructor)) static void attack(void) {
#if defined(CTOR_EXIT)
  exit(0);
#elif defined(CTOR_SEGV)
  volatile int* volatile null = NULL; /* not a constant null: the compiler keeps the store */
  *null = 1;
#elif defined(CTOR_LOOP)
  for (;;) {
  }
#endif
}

void good_div(const float* a, const float* b, float* y, size_t n) {
  for (size_t i = 0; i < n; ++i) y[i] = a[i] / b[i];
}
