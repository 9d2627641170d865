#!/usr/bin/env bash
# The main job: install what is missing, build, check every property at the default precision
# (256 bits), check the proofs, and write a verification report under reports/runs/.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${ICLPROOF_BUILD_DIR:-$root/build}
bash "$root/scripts/install-dependencies.sh" core
bash "$root/scripts/build.sh"
audit=()
if cmake --build "$build" --target proofs >/dev/null 2>&1 && [ -f "$build/proofs/audit.json" ]; then
  audit=(--proof-audit "$build/proofs/audit.json")
fi
if "$build/bin/iclproof" --help 2>/dev/null | grep -q '^ *report'; then
  "$build/bin/iclproof" report "${audit[@]}"
else
  "$build/bin/iclproof" check "${audit[@]}"
fi
