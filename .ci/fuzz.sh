#!/usr/bin/env bash
# Fuzz the campaign parser and the report reader with libFuzzer (Debian's
# clang): .ci/fuzz.sh [SECONDS per target, default 600]. Not part of the
# default build or test run.
#
# Debian 12's clang 14 cannot compile lib/ (_Float16 needs clang >= 15 on
# x86-64), so the fuzzed sources (parser, report reader and renderers) are
# compiled with clang and coverage instrumentation, and the rest of symerr is
# linked from a GCC Release build: $SYMERR_FUZZ_BUILD if set, else build/dev
# when it holds one, else build/release (configured and built first if missing).
# With a newer clang, -DSYMERR_FUZZ=ON builds verify/fuzz through CMake.
# Each target prints its executions at the end ("Done N runs in S second(s)").
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$here"
seconds="${1:-600}"
build="${SYMERR_FUZZ_BUILD:-}"
if [ -z "$build" ]; then
  if grep -qs '^CMAKE_BUILD_TYPE:STRING=Release' build/dev/CMakeCache.txt; then build=build/dev; else build=build/release; fi
fi
if [ ! -f "$build/CMakeCache.txt" ]; then
  bash .ci/configure.sh "$build" -DCMAKE_BUILD_TYPE=Release
fi
cmake --build "$build" -j2 --target symerr_verify
out=build/fuzz-direct
mkdir -p "$out"
inc="-Iverify/include -Ilib/include -Idomains/include"
objs=()
for f in campaign/campaign_parse report/report_common report/report_markdown report/report_html report/verdict report/verdict_json; do
  clang++ -std=c++20 -O1 -g -fsanitize=fuzzer-no-link,address,undefined $inc -c "verify/src/$f.cpp" -o "$out/${f//\//_}.o"
  objs+=("$out/${f//\//_}.o")
done
for t in campaign report; do
  clang++ -std=c++20 -O1 -g -fsanitize=fuzzer,address,undefined $inc "verify/fuzz/fuzz_$t.cpp" "${objs[@]}" \
    "$build/verify/libsymerr_verify.a" "$build/domains/libsymerr_domains.a" \
    "$build/lib/libsymerr_core.a" -lmpfr -lgmpxx -lgmp -ldl -lpthread -o "$out/fuzz_$t"
  mkdir -p "$out/corpus-$t"
  cp verify/fuzz/corpus/* "$out/corpus-$t/"
  (cd "$out" && "./fuzz_$t" -max_total_time="$seconds" -max_len=65536 -rss_limit_mb=2048 -timeout=10 "corpus-$t")
done
