#!/usr/bin/env bash
# Fuzz the campaign parser and the report reader with libFuzzer (Debian's
# clang): .ci/fuzz.sh [SECONDS per target, default 600]. Not part of the
# default build or test run. Crashes are written to build/fuzz/crash-*.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$here"
seconds="${1:-600}"
CC=clang CXX=clang++ cmake -S . -B build/fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DSYMERR_FUZZ=ON -DSYMERR_BUILD_TESTS=OFF -DSYMERR_BUILD_BENCH=OFF -DSYMERR_WERROR=OFF \
  -DCMAKE_CXX_FLAGS="-fsanitize=address,undefined" -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined"
cmake --build build/fuzz --target fuzz_campaign fuzz_report
for t in campaign report; do
  mkdir -p "build/fuzz/corpus-$t"
  cp verify/fuzz/corpus/* "build/fuzz/corpus-$t/"
  (cd build/fuzz && ./verify/fuzz/fuzz_$t -max_total_time="$seconds" -max_len=65536 -rss_limit_mb=2048 \
     -timeout=10 "corpus-$t")
done
