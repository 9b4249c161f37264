#!/usr/bin/env bash
# Configure a build tree: .ci/configure.sh <build-dir> [cmake -D options...]
# Uses Ninja (installed by deps.sh); a tree configured earlier with another
# generator is removed first, since CMake refuses to switch generators.
set -euo pipefail
dir="$1"
shift
if [ -f "$dir/CMakeCache.txt" ] && ! grep -q '^CMAKE_GENERATOR:INTERNAL=Ninja$' "$dir/CMakeCache.txt"; then
  echo "symerr: $dir was configured with another generator; reconfiguring it with Ninja"
  rm -rf "$dir"
fi
cmake -S . -B "$dir" -G Ninja "$@" >/dev/null
