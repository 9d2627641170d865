#!/usr/bin/env bash
# Trains one preset of one experiment over a range of seeds and compares the sweep:
#   scripts/train-seeds.sh CONFIG PRESET FIRST_SEED LAST_SEED OUT_DIR [iclproof-train options]
# e.g. scripts/train-seeds.sh src/trainer/configs/vonoswald_single_lsa.json ci 1 20 sweep/
# writes OUT_DIR/seed-<s>.json per seed (iclproof-train --seed s), then runs
#   iclproof compare OUT_DIR/seed-*.json --json OUT_DIR/sweep.json
# which prints each file's verdict and, per metric, how many seeds pass and the median, min and
# max. Binaries: $ICLPROOF_BUILD_DIR (default build/) /bin/iclproof-train and /bin/iclproof. Runs the
# trainings one after another under `nice` (the machine is shared).
set -euo pipefail
if [ $# -lt 5 ]; then
  echo "usage: $0 CONFIG PRESET FIRST_SEED LAST_SEED OUT_DIR [iclproof-train options]" >&2
  exit 2
fi
config=$1 preset=$2 first=$3 last=$4 out=$5
shift 5
root=$(cd "$(dirname "$0")/.." && pwd)
build=${ICLPROOF_BUILD_DIR:-$root/build}
bin=$build/bin
case "$first$last" in *[!0-9]*) echo "$0: error: seeds must be non-negative integers" >&2; exit 2 ;; esac
if [ "$first" -gt "$last" ]; then echo "$0: error: FIRST_SEED > LAST_SEED" >&2; exit 2; fi
for exe in iclproof-train iclproof; do
  [ -x "$bin/$exe" ] || { echo "$0: error: $bin/$exe not built" >&2; exit 2; }
done
mkdir -p "$out"
files=()
for seed in $(seq "$first" "$last"); do
  f="$out/seed-$seed.json"
  nice "$bin/iclproof-train" --config "$config" --preset "$preset" --seed "$seed" --out "$f" \
    --quiet "$@"
  files+=("$f")
done
exec "$bin/iclproof" compare "${files[@]}" --json "$out/sweep.json"
