#!/usr/bin/env bash
# Worst margin (tolerance / error, log10) of every depth-labelled check ("layer N ..." or
# "step N ...") of the given properties, per depth and scalar, over seeds 1-3 (issue 41 item 2:
# every check at every depth must have a margin <= 10^4 at 10^3 cases).
# Runs `iclproof check --property P --cases N --seed S --scalar X --json FILE` for each property,
# seed and scalar (double, long double, MPFR 256 bits by default) and prints one row per
# (property, check label with its depth replaced by N, depth, scalar): the worst margin over the
# seeds and the number of comparisons behind it. Exits 1 when a margin exceeds the limit, 2 on bad
# usage or when a check run fails (a failing check has no margin to judge).
# Usage: scripts/depth-margins.sh [--cases N] [--seeds "1 2 3"] [--scalars "double ..."]
#                                 [--limit LOG10] [--jobs J] [PROPERTY...]
#   PROPERTY defaults to every property with a per-check sharpness row whose label pattern has a
#   depth ("layer *" or "step *") in src/harness/sharpness.cpp.
#   Scalars are given as check's --scalar names; "mpfr256" means --scalar mpfr --precision 256.
# Environment: ICLPROOF_BIN (default build/bin/iclproof). Runs under `nice`.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${ICLPROOF_BIN:-$root/build/bin/iclproof}
cases=1000
seeds="1 2 3"
scalars="double long-double mpfr256"
limit=4
jobs=1
props=()
while [ $# -gt 0 ]; do
  case "$1" in
    --cases) cases=${2:?--cases needs a number}; shift 2 ;;
    --seeds) seeds=${2:?--seeds needs a list}; shift 2 ;;
    --scalars) scalars=${2:?--scalars needs a list}; shift 2 ;;
    --limit) limit=${2:?--limit needs a number}; shift 2 ;;
    --jobs) jobs=${2:?--jobs needs a number}; shift 2 ;;
    -h | --help) sed -n '2,16p' "$0"; exit 0 ;;
    -*) echo "depth-margins: unknown option $1" >&2; exit 2 ;;
    *) props+=("$1"); shift ;;
  esac
done
[[ $cases =~ ^[1-9][0-9]*$ ]] || { echo "depth-margins: --cases must be a positive integer" >&2; exit 2; }
[[ $limit =~ ^[0-9]+([.][0-9]+)?$ ]] || { echo "depth-margins: --limit must be a number" >&2; exit 2; }
[ -x "$bin" ] || { echo "depth-margins: no executable $bin (build the iclproof target)" >&2; exit 2; }
if [ ${#props[@]} -eq 0 ]; then
  mapfile -t props < <(python3 - "$root/src/harness/sharpness.cpp" <<'EOF'
import re, sys
src = open(sys.argv[1]).read()
# Join adjacent string literals ("a_" "b" -> "a_b"), then take the rows {"property", "glob", ...
src = re.sub(r'"\s*\n\s*"', '', src)
seen = []
for prop, glob in re.findall(r'\{"([a-z_0-9]+\.[a-z_0-9]+)",\s*"([^"]*)"', src):
    if re.match(r'(layer|step) \*', glob) and prop not in seen:
        seen.append(prop)
print("\n".join(seen))
EOF
  )
  [ ${#props[@]} -gt 0 ] || { echo "depth-margins: no depth rows found in sharpness.cpp" >&2; exit 2; }
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
status=0
for p in "${props[@]}"; do
  for s in $seeds; do
    for x in $scalars; do
      case "$x" in
        mpfr*) args=(--scalar mpfr --precision "${x#mpfr}") ;;
        *) args=(--scalar "$x") ;;
      esac
      f="$out/$p.$s.$x.json"
      if ! nice "$bin" check --property "$p" --cases "$cases" --seed "$s" "${args[@]}" \
        --jobs "$jobs" --json "$f" >"$out/log" 2>&1; then
        echo "depth-margins: check failed: $p seed $s $x" >&2
        tail -20 "$out/log" >&2
        status=2
      fi
    done
  done
done
python3 - "$limit" "$out" <<'EOF'
import glob, json, math, os, re, sys
limit = float(sys.argv[1])
rows = {}
for f in sorted(glob.glob(os.path.join(sys.argv[2], "*.json"))):
    scalar = f.rsplit(".", 2)[-2]
    for p in json.load(open(f))["properties"]:
        for c in p.get("check_margins", []):
            m = re.match(r"(layer|step) (\d+)", c["label"])
            if not m or c["margin_log10"] is None:
                continue
            key = (p["name"], re.sub(r"\b(layer|step) \d+", r"\1 N", c["label"]), int(m.group(2)), scalar)
            worst, n = rows.get(key, (-math.inf, 0))
            rows[key] = (max(worst, c["margin_log10"]), n + c["checks"])
over = 0
print(f"{'property':<70} {'check':<64} {'depth':>5} {'scalar':<11} {'margin':>7} {'comparisons':>11}")
for (prop, label, depth, scalar), (worst, n) in sorted(rows.items()):
    flag = "  > limit" if worst > limit else ""
    over += worst > limit
    print(f"{prop:<70} {label[:64]:<64} {depth:>5} {scalar:<11} {worst:>7.2f} {n:>11}{flag}")
print(f"{len(rows)} rows; worst margin {max((w for w, _ in rows.values()), default=float('nan')):.2f}; "
      f"{over} over the limit 10^{limit:g}")
sys.exit(1 if over else 0)
EOF
py=$?
[ $status -ne 0 ] && exit $status
exit $py
