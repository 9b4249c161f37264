/* A C kernel that prints: substituted with REPLACE float by printf_probe.cpp.
   With SYMERR_PROBE_REFUSED its printf receives a symbolic value and must not
   compile; without, it prints a plain int, which compiles as in C. */
#include <stdio.h>

float print_and_scale(float x) {
#ifdef SYMERR_PROBE_REFUSED
  printf("x = %f\n", x); /* refused: x is a SymbolicError here */
#else
  printf("n = %d\n", 3);
#endif
  return 2 * x;
}
