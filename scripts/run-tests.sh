#!/usr/bin/env bash
# The test suite: install what is missing, build, then ctest (Catch2 unit and mutation tests,
# RapidCheck properties through `iclproof check --ci` at 256/512 bits, double and long double,
# command-line error handling, the Coq proofs and their audit, the trainer's CI preset) and the
# pinned clang-format check.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${ICLPROOF_BUILD_DIR:-$root/build}
bash "$root/scripts/install-dependencies.sh" core
bash "$root/scripts/check-format.sh"
bash "$root/scripts/build.sh"
ctest --test-dir "$build" --output-on-failure -j"$(nproc)" --timeout 1200
