#!/usr/bin/env bash
# Configures and builds iclproof (Release) in build/ next to this repository's sources.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${ICLPROOF_BUILD_DIR:-$root/build}
jobs=${ICLPROOF_JOBS:-$(nproc)}
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
start=$(date +%s)
cmake --build "$build" -j"$jobs" 2>&1 | grep -vE '^\[ *[0-9]+%\] (Building|Linking|Built)' || true
test "${PIPESTATUS[0]}" -eq 0
echo "iclproof: built in $(( $(date +%s) - start )) s ($build)"
