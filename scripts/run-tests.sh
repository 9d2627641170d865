#!/usr/bin/env bash
# The test suite: install what is missing, build, then ctest (Catch2 unit and mutation tests,
# RapidCheck properties through `iclproof check --ci` at 256/512 bits, double and long double,
# command-line error handling, the Coq proofs and their audit, the trainer's CI preset) and the
# pinned clang-format check.
#   scripts/run-tests.sh          the default suite (docs/testing.md: what runs where)
#   scripts/run-tests.sh --full   also the long versions (ICLPROOF_FULL_TESTS=1: the seed
#                                 sweep's convergence curves at 12 snapshots per seed, not 6)
set -euo pipefail
case "${1:-}" in
  "") ;;
  --full) export ICLPROOF_FULL_TESTS=1 ;;
  *) echo "usage: $0 [--full]" >&2; exit 2 ;;
esac
root=$(cd "$(dirname "$0")/.." && pwd)
build=${ICLPROOF_BUILD_DIR:-$root/build}
bash "$root/scripts/install-dependencies.sh" core
bash "$root/scripts/check-format.sh"
# A compiler warning fails the test suite's build (scripts/build.sh).
ICLPROOF_WARNINGS_FATAL=1 bash "$root/scripts/build.sh"
ctest --test-dir "$build" --output-on-failure -j"$(nproc)" --timeout 1200
