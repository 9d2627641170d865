#!/usr/bin/env bash
# Vladymyrov et al. 2024, App. B Table 1 (sigma_max = 0) against this project's trained GD++
# stack: trains vladymyrov_gdpp_stack's CI preset with L = FIRST..LAST layers (one seed each;
# the preset's d = 10, N = 20, x ~ N(0, I), w ~ N(0, I), float64) and prints, per L, the
# training loss of the last log window and compare's loss of the trained model and of GD++ with
# tuned coefficients on fresh tasks (257-bit MPFR; COMPARE_TASKS validation tasks, default 10000,
# and CALIBRATION_TASKS, default 100000, of which at most 4000 tune GD++ and 4000 more are its
# holdout). The tuned reference does not depend on the trained weights, so `--steps 1` gives the
# tuned column alone. Usage:
#   scripts/gdpp-table1.sh OUTDIR [FIRST LAST [extra iclproof-train options]]
# Needs build/bin/iclproof-train and build/bin/iclproof (ICLPROOF_BUILD_DIR to override).
#
# The tuned GD++ column with error bars, no training:
#   scripts/gdpp-table1.sh --tuned OUTFILE [iclproof-gdpp-table1 options]
# runs build/bin/iclproof-gdpp-table1 (default: depths 1-7, 4000 tuning sequences, 100000 fresh
# sequences; every start's local minimum with its mean loss +- one standard error, the best per
# depth against the paper's value) and writes its output to OUTFILE as well.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${ICLPROOF_BUILD_DIR:-$root/build}
if [ "${1:-}" = "--tuned" ]; then
  outfile=${2:?usage: gdpp-table1.sh --tuned OUTFILE [iclproof-gdpp-table1 options]}
  shift 2
  "$build/bin/iclproof-gdpp-table1" "$@" | tee "$outfile"
  exit "${PIPESTATUS[0]}"
fi
out=${1:?usage: gdpp-table1.sh OUTDIR [FIRST LAST [train options]]}
first=${2:-1}
last=${3:-7}
shift $(($# < 3 ? $# : 3))
mkdir -p "$out"
config="$root/src/trainer/configs/vladymyrov_gdpp_stack.json"
for layers in $(seq "$first" "$last"); do
  cfg="$out/layers-$layers.config.json"
  python3 - "$config" "$layers" >"$cfg" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
c["presets"]["ci"]["layers"] = int(sys.argv[2])
print(json.dumps(c, indent=1))
PY
  "$build/bin/iclproof-train" --config "$cfg" --preset ci --out "$out/layers-$layers.json" \
    --device cpu --quiet "$@"
  "$build/bin/iclproof" compare "$out/layers-$layers.json" --tasks "${COMPARE_TASKS:-10000}" \
    --calibration-tasks "${CALIBRATION_TASKS:-100000}" --json "$out/layers-$layers.compare.json" \
    >"$out/layers-$layers.compare.txt" || true
  python3 - "$out/layers-$layers" "$layers" <<'PY'
import json, sys
w = json.load(open(sys.argv[1] + ".json"))
c = json.load(open(sys.argv[1] + ".compare.json"))
t = c["tables"]
print(json.dumps({"layers": int(sys.argv[2]), "train_loss_last_window": w["loss_curve"]["loss"][-1],
                  "verdict": c["verdict"],
                  "trained": [r["trained"] for r in t["loss_per_layer"]][-1],
                  "gdpp_tuned": [r["gdpp_tuned"] for r in t["loss_per_layer"]][-1],
                  "gdpp_tuned_holdout": t["gdpp_tuned"]["holdout_loss"],
                  "gdpp_tuned_sample": t["gdpp_tuned"]["sample_loss"],
                  "eta": t["gdpp_tuned"]["eta"], "gamma": t["gdpp_tuned"]["gamma"]}))
PY
done
