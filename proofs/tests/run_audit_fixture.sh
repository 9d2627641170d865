#!/usr/bin/env bash
# run_audit_fixture.sh SRC COQC FIXTURE.v WORKDIR [audit.sh options...]
# Sets up a one-file theory from FIXTURE.v in WORKDIR (its _CoqProject, an Audit.v listing every
# Theorem of the fixture except those named unlisted_*, the real allowed_axioms.txt), compiles it,
# and runs SRC/audit.sh on it.  Exit status: the audit's 0 (accepted) or 1 (rejected).
# A set-up or usage error exits 0 on purpose: the WILL_FAIL test built on this script must not
# pass because the fixture did not even compile.
set -u -o pipefail
[ $# -ge 4 ] || { echo "usage: run_audit_fixture.sh SRC COQC FIXTURE.v WORKDIR [opts]"; exit 0; }
src="$1" coqc="$2" fixture="$3" work="$4"; shift 4
mod="$(basename "$fixture" .v)"
setup_failed() { echo "run_audit_fixture: SET-UP FAILED: $*"; exit 0; }
rm -rf "$work" && mkdir -p "$work/src" || setup_failed "cannot create $work"
cp "$fixture" "$work/src/$mod.v" && cp "$src/allowed_axioms.txt" "$work/src/" \
  || setup_failed "cannot copy the fixture"
printf -- '-Q . ICLProof\n%s.v\n' "$mod" > "$work/src/_CoqProject"
{
  echo "From ICLProof Require $mod."
  sed -nE 's/^[[:space:]]*Theorem[[:space:]]+([A-Za-z0-9_]+).*/\1/p' "$fixture" | grep -v '^unlisted_' |
    while read -r t; do echo "Print Assumptions ICLProof.$mod.$t."; done
} > "$work/src/Audit.v"
(cd "$work/src" && "$coqc" -q -Q . ICLProof "$mod.v") || setup_failed "coqc $mod.v failed"
bash "$src/audit.sh" --src "$work/src" --vo "$work/src" --out "$work/audit.json" --coqc "$coqc" "$@"
rc=$?
[ "$rc" -le 1 ] || setup_failed "audit.sh exited $rc (usage/environment error)"
exit "$rc"
