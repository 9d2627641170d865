#!/bin/sh
# Steps per second of the von Oswald single-layer CI preset: iclproof-train (C++ LibTorch)
# against the same model in Debian's python3-torch, measured back to back in the same run,
# alternating, REPEATS times each. Usage: run_bench.sh PATH/TO/iclproof-train [STEPS] [REPEATS]
set -eu
TRAIN=${1:?path to iclproof-train}
STEPS=${2:-500}
REPEATS=${3:-3}
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=$(mktemp -d)
i=1
while [ "$i" -le "$REPEATS" ]; do
  "$TRAIN" --config "$HERE/../configs/vonoswald_single_lsa.json" --preset ci --steps "$STEPS" \
    --out "$OUT/w.json" --device cpu --quiet | sed 's/^/C++ /'
  /usr/bin/python3 "$HERE/bench_vonoswald.py" --steps "$STEPS"
  i=$((i + 1))
done
rm -rf "$OUT"
