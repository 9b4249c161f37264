#!/usr/bin/env bash
# The whole test suite: Release build + ctest, then the same suite under
# AddressSanitizer + UndefinedBehaviorSanitizer in a second build tree.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$here"
bash .ci/deps.sh chromium
jobs="${SYMERR_JOBS:-$(nproc)}"
# the time of each phase, printed at its end (docs/build-and-test-time.md)
phase_start=$SECONDS
phase_done() { echo "== $1: $((SECONDS - phase_start)) s"; phase_start=$SECONDS; }

echo "== Release build"
bash .ci/configure.sh build/release -DCMAKE_BUILD_TYPE=Release -DSYMERR_WERROR=ON
cmake --build build/release -j"$jobs"
phase_done "Release build"
echo "== Release tests"
(cd build/release && ctest --output-on-failure -j"$jobs")
phase_done "Release tests"
echo "== Benchmark programs build (built, not run)"
# They are EXCLUDE_FROM_ALL; built here so that a change cannot leave one
# uncompilable (a new C kernel calling fabs/fdim/copysign once broke
# bench_substitute, whose reference interval type lacked them).
cmake --build build/release -j"$jobs" --target bench
phase_done "benchmark programs build"

echo "== ASan+UBSan build"
# -O1 -g1: ASan's recommended optimisation, line tables for its reports, and
# 40% less compile time than -O2 -g; no NDEBUG.
bash .ci/configure.sh build/asan -DCMAKE_BUILD_TYPE=Sanitize -DCMAKE_CXX_FLAGS_SANITIZE="-O1 -g1" \
      -DSYMERR_SANITIZE=ON -DSYMERR_BUILD_BENCH=OFF -DSYMERR_WERROR=ON
cmake --build build/asan -j"$jobs"
phase_done "ASan+UBSan build"
echo "== ASan+UBSan tests"
# The randomized soundness tests scale their trial counts down under the
# sanitizers (the Release run above does the full counts).
(cd build/asan && SYMERR_TEST_SCALE=0.1 ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
   UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 ctest --output-on-failure -j"$jobs" -LE no-asan)
phase_done "ASan+UBSan tests"
echo "== total: $SECONDS s"
