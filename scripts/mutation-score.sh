#!/usr/bin/env bash
# Mutation score: applies each small source mutation kept in tests/mutations/
# (a patch whose first lines are "# rationale: ..." and "# tests: <ctest -R regex>"), rebuilds
# incrementally, runs the ctest entries the patch names, and prints killed / survived with the
# tests that killed it. A mutation that does not compile is reported as such (not a kill).
# A patch may add a line "# targets: <cmake targets>" to rebuild only those (default: iclproof
# iclproof_unit_tests iclproof_verdict_fixture iclproof_bound_tests); its regex must then select
# only tests of them.
# Not in CI (one rebuild per mutation). The mutations are applied to an exported copy of the
# committed tree (build-mutation/tree, refreshed file by file so unchanged files keep their
# mtimes), built in build-mutation/tree/build with ccache: the copy's build sits at the same
# place relative to its sources as the worktree's build/, so with ccache's base_dir above both
# the first build of the copy reuses the worktree's cached objects. The worktree is never
# modified.
# ICLPROOF_MUTATION_IN_PLACE=1 instead mutates the worktree itself and rebuilds its build/ (no
# first full build of a copy; for a loaded machine): it refuses to start with uncommitted changes
# to tracked files, and reverts the current mutation on exit or interrupt.
# Usage: scripts/mutation-score.sh [PATCH...]   (default: every tests/mutations/*.patch)
#        scripts/mutation-score.sh --self-test   (the classification of ctest's output)
#        scripts/mutation-score.sh --check-patches   (every patch applies to the tree, no fuzz)
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
mut=${ICLPROOF_MUTATION_DIR:-$root/build-mutation}
jobs=${ICLPROOF_JOBS:-2}
mkdir -p "$mut"
commit=$(git -C "$root" rev-parse --short HEAD)  # before the export: the commit the copy holds
current=""
# The verdict from ctest's summary line. "100% tests passed, 0 tests failed out of 11" also
# contains "tests failed out of": a survivor must be recognised first (the first version of this
# script called every survivor killed, with no killing test; --self-test checks this).
# Here-strings, not `echo | grep -q`: under pipefail grep -q's early exit can kill echo with
# SIGPIPE and fail the pipeline, which made a kill read "no test ran".
classify() {
  if grep -q "100% tests passed" <<<"$1"; then
    echo SURVIVED
  elif grep -Eq "[1-9][0-9]* tests failed out of" <<<"$1"; then
    echo killed
  else
    echo "no test ran"
  fi
}
failed_tests() {
  sed -n '/The following tests FAILED:/,$ s/^[[:space:]]*[0-9]* - \(.*\) ([^)]*)$/\1/p' <<<"$1" |
    tr '\n' ';' | sed 's/;$//; s/;/; /g'
}
if [ "${1:-}" = --self-test ]; then
  ok=1
  survived_out=$'100% tests passed, 0 tests failed out of 11\n\nTotal Test time (real) =   0.19 sec'
  killed_out=$'86% tests passed, 1 tests failed out of 7\n\nThe following tests FAILED:\n\t121 - unit.label noise (sd) (Failed)\nErrors while running CTest'
  [ "$(classify "$survived_out")" = SURVIVED ] || { echo "self-test: a survivor not recognised"; ok=0; }
  [ "$(classify "$killed_out")" = killed ] || { echo "self-test: a kill not recognised"; ok=0; }
  [ "$(failed_tests "$killed_out")" = "unit.label noise (sd)" ] ||
    { echo "self-test: killing test '$(failed_tests "$killed_out")'"; ok=0; }
  [ "$(classify "No tests were found!!!")" = "no test ran" ] || { echo "self-test: no test"; ok=0; }
  [ $ok = 1 ] && echo "mutation-score self-test: ok"
  [ $ok = 1 ]
  exit
fi
if [ "${1:-}" = --check-patches ]; then
  # Every patch still applies to the tree as it is, with no fuzz (a refactor that moves the
  # mutated code makes its patch stale: regenerate it with scripts/make-mutation.py).
  ok=1
  for p in "$root"/tests/mutations/*.patch; do
    patch --dry-run -s -F0 -p1 -d "$root" <"$p" >/dev/null 2>&1 ||
      { echo "mutation-score: $(basename "$p") does not apply to this tree"; ok=0; }
  done
  [ $ok = 1 ] && echo "mutation-score: every patch applies"
  [ $ok = 1 ]
  exit
fi
if [ "${ICLPROOF_MUTATION_IN_PLACE:-0}" = 1 ]; then
  src=$root
  build=${ICLPROOF_BUILD_DIR:-$root/build}
  if ! git -C "$root" diff --quiet HEAD; then
    echo "mutation-score: uncommitted changes in $root; commit them first" >&2
    exit 2
  fi
  revert() { [ -n "$current" ] && patch -s --no-backup-if-mismatch -R -p1 -d "$src" <"$current"; current=""; }
  trap revert EXIT
  trap 'revert; exit 130' INT TERM
else
  src=$mut/tree
  build=$mut/tree/build
  mkdir -p "$src" "$build"
  # Refresh the copy from HEAD: only files whose content changed are rewritten.
  export_dir=$(mktemp -d)
  trap 'rm -rf "$export_dir"' EXIT
  git -C "$root" archive HEAD | tar -x -C "$export_dir"
  (cd "$export_dir" && find . -type f) | while read -r f; do
    if ! cmp -s "$export_dir/$f" "$src/$f"; then
      mkdir -p "$(dirname "$src/$f")"
      cp "$export_dir/$f" "$src/$f"
    fi
  done
fi

if [ ! -f "$build/CMakeCache.txt" ]; then
  launcher=()
  if command -v ccache >/dev/null; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
  cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Release -DICLPROOF_BUILD_PROOFS=OFF \
    -DICLPROOF_BUILD_TRAINER=OFF -DICLPROOF_BUILD_BENCHMARKS=OFF "${launcher[@]}" >/dev/null ||
    exit 2
fi
cmake "$build" >/dev/null || exit 2  # a target added since the last run needs a regeneration
all_targets="iclproof iclproof_unit_tests iclproof_verdict_fixture iclproof_bound_tests"
targets=$all_targets
build_targets() { nice cmake --build "$build" -j"$jobs" --target $targets >"$mut/build.log" 2>&1; }
build_targets || { echo "mutation-score: the unmutated tree does not build ($mut/build.log)"; exit 2; }
echo "mutation-score: commit $commit, load average at start $(cut -d' ' -f1-3 /proc/loadavg)" >&2

if [ $# -gt 0 ]; then patches=("$@"); else patches=("$root"/tests/mutations/*.patch); fi
killed=0 survived=0 broken=0
results=${ICLPROOF_MUTATION_RESULTS:-$mut/results.md}
echo "| mutation | rationale | result | killing tests | seconds |" >"$results"
echo "|---|---|---|---|---|" >>"$results"
for p in "${patches[@]}"; do
  name=$(basename "$p" .patch)
  rationale=$(sed -n 's/^# rationale: //p' "$p" | head -1)
  regex=$(sed -n 's/^# tests: //p' "$p" | head -1)
  targets=$(sed -n 's/^# targets: //p' "$p" | head -1)
  targets=${targets:-$all_targets}
  start=$(date +%s)
  if ! patch --dry-run -s -p1 -d "$src" <"$p" >/dev/null; then
    echo "mutation-score: $name does not apply" >&2
    result="does not apply"
    broken=$((broken + 1))
    echo "| $name | $rationale | $result | | 0 |" >>"$results"
    continue
  fi
  current=$p
  patch -s --no-backup-if-mismatch -p1 -d "$src" <"$p"
  killers=""
  if ! build_targets; then
    result="build error"
    broken=$((broken + 1))
  else
    out=$(cd "$build" && nice ctest -R "$regex" --stop-on-failure --output-on-failure --timeout 900 2>&1)
    echo "$out" >"$mut/$name.ctest.log"
    result=$(classify "$out")
    case $result in
      killed)
        killers=$(failed_tests "$out")
        killed=$((killed + 1))
        ;;
      SURVIVED) survived=$((survived + 1)) ;;
      *)
        result="no test ran (regex '$regex')"
        broken=$((broken + 1))
        ;;
    esac
  fi
  patch -s --no-backup-if-mismatch -R -p1 -d "$src" <"$p"
  current=""
  secs=$(($(date +%s) - start))
  echo "| $name | $rationale | $result | $killers | $secs |" >>"$results"
  echo "$name: $result $killers (${secs} s, load $(cut -d' ' -f1 /proc/loadavg))" >&2
done
targets=$all_targets
build_targets  # leave the copy built unmutated
cat "$results"
echo "commit $commit, load average at the end $(cut -d' ' -f1-3 /proc/loadavg)"
total=$((killed + survived))
echo "killed $killed, survived $survived, not counted (build error / no test) $broken"
if [ $total -gt 0 ]; then echo "kill rate: $((100 * killed / total))%"; fi
