#!/usr/bin/env bash
# The long sweep, for failures CI's case counts miss: every property with many more cases than
# CI and with a non-default seed, in double, long double (>= 20000 cases) and MPFR at 256 bits
# (>= 1000 cases), one configuration at a time under `nice` (the machine is shared). Writes one
# JSON per configuration into OUT (default build/sweep/) and the table tests/sweep/table.py
# prints.
# Not in CI (tens of minutes). Usage: scripts/sweep-properties.sh [SEED] [OUT]
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${ICLPROOF_BUILD_DIR:-$root/build}
seed=${1:-20261123}
out=${2:-$build/sweep}
double_cases=${ICLPROOF_SWEEP_CASES:-20000}
mpfr_cases=${ICLPROOF_SWEEP_MPFR_CASES:-1000}
mkdir -p "$out"
status=0
for config in "double $double_cases" "long-double $double_cases" "mpfr $mpfr_cases"; do
  set -- $config
  echo "sweep: --scalar $1 --cases $2 --seed $seed" >&2
  nice "$build/bin/iclproof" check --scalar "$1" --cases "$2" --seed "$seed" \
    --json "$out/$1.json" > "$out/$1.txt" || status=1
done
python3 "$root/tests/sweep/table.py" "$out"/double.json "$out"/long-double.json "$out"/mpfr.json
exit $status
