#!/usr/bin/env bash
# run_audit_fixture.sh SRC COQC FIXTURE_DIR WORKDIR [audit.sh options...]
# Sets up a theory directory from FIXTURE_DIR in WORKDIR/src and runs SRC/audit.sh on it (which
# builds it from clean).  FIXTURE_DIR holds .v files and optionally: base (the name of a sibling
# fixture whose .v files are copied first, for a fixture whose trick is not in the theory: the
# clean theory is then written once, in accepts_closed), statements/*.v (statement and check
# files, copied after the base's; a file <name>.v.delete removes the base's <name>.v),
# _CoqProject (default: `-Q . ICLProof`, every .v file and every statements/*.v file), real_analysis_files.txt (default: empty, every constant
# must be closed), properties/ (files searched for citations; default: none) and prepare.sh
# (run in the source directory with COQC set, e.g. to leave a stale .vo there).  The allow-list
# is the real SRC/allowed_axioms.txt.  Exit status: the audit's 0 (accepted) or 1 (rejected).
# A set-up or usage error exits 0 on purpose: the WILL_FAIL test built on this script must not
# pass because the fixture could not even be set up.
set -u -o pipefail
[ $# -ge 4 ] || { echo "usage: run_audit_fixture.sh SRC COQC FIXTURE_DIR WORKDIR [opts]"; exit 0; }
src="$1" coqc="$2" fixture="$3" work="$4"; shift 4
setup_failed() { echo "run_audit_fixture: SET-UP FAILED: $*"; exit 0; }
[ -d "$fixture" ] || setup_failed "$fixture is not a directory"
rm -rf "$work" && mkdir -p "$work/src" || setup_failed "cannot create $work"
if [ -f "$fixture/base" ]; then
  base="$(dirname "$fixture")/$(cat "$fixture/base")"
  [ -d "$base" ] || setup_failed "$fixture/base names no fixture ($base)"
  cp "$base"/*.v "$work/src/" || setup_failed "cannot copy the base fixture $base"
  if [ -d "$base/statements" ]; then
    mkdir -p "$work/src/statements" && cp "$base"/statements/*.v "$work/src/statements/" \
      || setup_failed "cannot copy the base fixture's statements"
  fi
fi
shopt -s nullglob
own=("$fixture"/*.v)
shopt -u nullglob
if [ ${#own[@]} -gt 0 ]; then cp "${own[@]}" "$work/src/" || setup_failed "cannot copy the fixture"; fi
if [ -d "$fixture/statements" ]; then
  mkdir -p "$work/src/statements"
  for f in "$fixture"/statements/*.v; do
    [ -e "$f" ] || continue
    cp "$f" "$work/src/statements/" || setup_failed "cannot copy $f"
  done
fi
for d in "$fixture"/*.delete "$fixture"/statements/*.delete; do
  [ -e "$d" ] || continue
  rel="${d#"$fixture"/}"; rel="${rel%.delete}"
  [ -f "$work/src/$rel" ] || setup_failed "$d deletes no file of the base"
  rm -f "$work/src/$rel"
done
cp "$src/allowed_axioms.txt" "$work/src/" || setup_failed "cannot copy allowed_axioms.txt"
ls "$work/src"/*.v > /dev/null 2>&1 || setup_failed "$fixture has no .v file (nor a base with one)"
if [ -f "$fixture/_CoqProject" ]; then
  cp "$fixture/_CoqProject" "$work/src/"
else
  { echo '-Q . ICLProof'; (cd "$work/src" && ls -1 *.v && { ls -1 statements/*.v 2>/dev/null || true; }); } \
    > "$work/src/_CoqProject"
fi
if [ -f "$fixture/real_analysis_files.txt" ]; then cp "$fixture/real_analysis_files.txt" "$work/src/"
else : > "$work/src/real_analysis_files.txt"; fi
props="$work/no-properties"
[ -d "$fixture/properties" ] && props="$fixture/properties"
if [ -f "$fixture/prepare.sh" ]; then
  (cd "$work/src" && COQC="$coqc" bash "$fixture/prepare.sh") || setup_failed "prepare.sh failed"
fi
bash "$src/audit.sh" --src "$work/src" --out "$work/out/audit.json" --coqc "$coqc" \
  --properties "$props" --jobs 1 --keep "$work/scratch" "$@"
rc=$?
[ "$rc" -le 1 ] || setup_failed "audit.sh exited $rc (usage/environment error)"
exit "$rc"
