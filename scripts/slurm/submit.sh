#!/usr/bin/env bash
# Submits a sharded iclproof run as a Slurm job array and its merge job (docs/slurm.md).
#   scripts/slurm/submit.sh check|report --shards N --out DIR [--tasks LIST] [-- options...]
# submits  sbatch --array=LIST (default 1-N) {check,report}-array.sbatch DIR N options...
# and      sbatch --dependency=afterok:<array id> merge.sbatch DIR {check,report},
# then prints the two job ids ("array ID", "merge ID"). The merge runs only if every task of the
# array ended with exit code 0, and writes DIR/check/check.json or the report folder DIR/report.
# --tasks re-runs some shards of an earlier submission (e.g. --tasks 2 after task 2 failed); the
# merge job it submits merges every shard file in DIR/shards.
# Options for sbatch itself (partition, time, account, CPUs): sbatch's own SBATCH_* environment
# variables (SBATCH_PARTITION, SBATCH_TIMELIMIT, SBATCH_ACCOUNT, ...) or ICLPROOF_SBATCH_ARGS
# (word-split). Options for the merge (e.g. --no-plots for report): ICLPROOF_MERGE_ARGS
# (word-split). Job logs: DIR/logs/. ICLPROOF: the iclproof binary (default: iclproof on PATH).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
usage() {
  echo "usage: $0 check|report --shards N --out DIR [--tasks LIST] [-- options...]" >&2
  exit 2
}
[ $# -ge 1 ] || usage
kind=$1
shift
[ "$kind" = check ] || [ "$kind" = report ] || usage
shards="" dir="" tasks=""
while [ $# -gt 0 ]; do
  case $1 in
    --shards) shards=${2:-}; shift 2 || usage ;;
    --out) dir=${2:-}; shift 2 || usage ;;
    --tasks) tasks=${2:-}; shift 2 || usage ;;
    --) shift; break ;;
    *) usage ;;
  esac
done
[ -n "$dir" ] || usage
case $shards in '' | *[!0-9]* | 0) echo "iclproof: error: --shards needs a whole number >= 1" >&2; exit 2 ;; esac
tasks=${tasks:-1-$shards}
mkdir -p "$dir/logs"
dir=$(cd "$dir" && pwd)
read -r -a extra <<<"${ICLPROOF_SBATCH_ARGS:-}"
read -r -a merge_args <<<"${ICLPROOF_MERGE_ARGS:-}"
array=$(sbatch --parsable "${extra[@]}" --array="$tasks" --chdir="$PWD" \
  --output="$dir/logs/$kind-%A_%a.out" "$here/$kind-array.sbatch" "$dir" "$shards" "$@")
array=${array%%;*}
merge=$(sbatch --parsable "${extra[@]}" --dependency="afterok:$array" --chdir="$PWD" \
  --output="$dir/logs/merge-%j.out" "$here/merge.sbatch" "$dir" "$kind" "${merge_args[@]}")
merge=${merge%%;*}
echo "array $array"
echo "merge $merge"
