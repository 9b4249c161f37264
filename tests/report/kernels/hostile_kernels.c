/* Kernels that attack the harness, for tests/report/test_hostile.cpp (compiled
 * there with `cc -shared`): unary kernels that crash, exit, hang, leave the FP
 * state changed, fork, write out of bounds; binary kernels that fork or write
 * past their output; a correct FP64 multiplication. Each one is correct except
 * for the one thing its name says. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
#include <xmmintrin.h>

void good_sqrtf(const float* x, float* y, size_t n) {
  for (size_t i = 0; i < n; ++i) y[i] = sqrtf(x[i]);
}
/* SIGSEGV on a negative argument */
void segv_sqrtf(const float* x, float* y, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    if (x[i] < 0) *(volatile int*)0 = 1;
    y[i] = sqrtf(x[i]);
  }
}
/* exit(0) on an infinite argument */
void exit_sqrtf(const float* x, float* y, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    if (isinf(x[i])) exit(0);
    y[i] = sqrtf(x[i]);
  }
}
/* loops forever on NaN */
void loop_sqrtf(const float* x, float* y, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    if (x[i] != x[i])
      for (;;) {
      }
    y[i] = sqrtf(x[i]);
  }
}
/* correct, then leaves the rounding mode upward */
void up_sqrtf(const float* x, float* y, size_t n) {
  for (size_t i = 0; i < n; ++i) y[i] = sqrtf(x[i]);
  _mm_setcsr((_mm_getcsr() & ~0x6000u) | 0x4000u);
}
/* computes with FTZ+DAZ and leaves them set: sqrtf of a subnormal is 0 */
void ftz_sqrtf(const float* x, float* y, size_t n) {
  _mm_setcsr(_mm_getcsr() | 0x8040u);
  for (size_t i = 0; i < n; ++i) y[i] = sqrtf(x[i]);
}
/* forks a process that sleeps for ten minutes (its pid appended to the file
 * $HOSTILE_PID_FILE), then computes correctly */
void sleeper_sqrtf(const float* x, float* y, size_t n) {
  static int forked = 0;
  if (!forked) {
    const pid_t p = fork();
    if (p == 0) {
      sleep(600);
      _exit(0);
    }
    const char* file = getenv("HOSTILE_PID_FILE");
    FILE* f = file ? fopen(file, "a") : NULL;
    if (f) {
      fprintf(f, "%d\n", (int)p);
      fclose(f);
    }
  }
  forked = 1;
  for (size_t i = 0; i < n; ++i) y[i] = sqrtf(x[i]);
}
/* forks, and both processes compute and return */
void fork_sqrtf(const float* x, float* y, size_t n) {
  fork();
  for (size_t i = 0; i < n; ++i) y[i] = sqrtf(x[i]);
}
/* writes 4096 floats past the end of its output */
void overflow_sqrtf(const float* x, float* y, size_t n) {
  for (size_t i = 0; i < n; ++i) y[i] = sqrtf(x[i]);
  for (size_t i = 0; i < 4096; ++i) y[n + i] = 1.0f;
}
/* writes into its input */
void scribble_sqrtf(const float* x, float* y, size_t n) {
  for (size_t i = 0; i < n; ++i) y[i] = sqrtf(x[i]);
  ((float*)x)[0] = 42.0f;
}
/* allocates and touches 20 GB */
void hog_sqrtf(const float* x, float* y, size_t n) {
  const size_t big = (size_t)20 << 30;
  char* p = malloc(big);
  if (p == NULL) abort();
  for (size_t i = 0; i < big; i += 4096) p[i] = 1;
  for (size_t i = 0; i < n; ++i) y[i] = sqrtf(x[i]) + p[i % 4096] - 1;
}

void good_div(const float* a, const float* b, float* y, size_t n) {
  for (size_t i = 0; i < n; ++i) y[i] = a[i] / b[i];
}
/* forks, and both processes compute and return */
void fork_div(const float* a, const float* b, float* y, size_t n) {
  fork();
  for (size_t i = 0; i < n; ++i) y[i] = a[i] / b[i];
}
/* writes 8 floats past the end of its output */
void overflow_div(const float* a, const float* b, float* y, size_t n) {
  for (size_t i = 0; i < n; ++i) y[i] = a[i] / b[i];
  for (size_t i = 0; i < 8; ++i) y[n + i] = 0.0f;
}
/* forks a child that segfaults, then computes correctly */
void fork_segv_div(const float* a, const float* b, float* y, size_t n) {
  if (fork() == 0) *(volatile int*)0 = 1;
  for (size_t i = 0; i < n; ++i) y[i] = a[i] / b[i];
  int st;
  while (waitpid(-1, &st, WNOHANG) > 0) {
  }
}
/* the correct FP64 product */
void mul_f64(const double* a, const double* b, double* y, size_t n) {
  for (size_t i = 0; i < n; ++i) y[i] = a[i] * b[i];
}
/* correct, 0.1 s per call (a long check to interrupt) */
void slow_div(const float* a, const float* b, float* y, size_t n) {
  usleep(100000);
  for (size_t i = 0; i < n; ++i) y[i] = a[i] / b[i];
}
/* correct, and prints on stdout and stderr at every call */
void chatty_div(const float* a, const float* b, float* y, size_t n) {
  printf("chatty_div: %zu elements\n", n);
  fprintf(stderr, "chatty_div on stderr\n");
  for (size_t i = 0; i < n; ++i) y[i] = a[i] / b[i];
}
