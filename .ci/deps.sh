#!/usr/bin/env bash
# Install the Debian packages symerr needs, if any is missing (idempotent).
# Usage: .ci/deps.sh [extra-package ...]
set -euo pipefail
pkgs=(build-essential cmake ninja-build pkg-config git libboost-dev libmpfr-dev libgmp-dev catch2 doxygen
      libbenchmark-dev libonnx-dev libonnx-testdata libprotobuf-dev protobuf-compiler
      libcli11-dev nlohmann-json3-dev "$@")
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then exit 0; fi
echo "symerr: installing missing Debian packages: ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "symerr: need root (or sudo) to install: ${missing[*]}" >&2; exit 2; }
  SUDO=sudo
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
