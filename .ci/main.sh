#!/usr/bin/env bash
# The main job: build symerr and run the default verification campaign,
# writing its report (see README "Quick start").
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$here"
bash .ci/deps.sh
jobs="${SYMERR_JOBS:-$(nproc)}"
bash .ci/configure.sh build/release -DCMAKE_BUILD_TYPE=Release
cmake --build build/release -j"$jobs" --target symerr
exec build/release/verify/cli/symerr run "$@"
