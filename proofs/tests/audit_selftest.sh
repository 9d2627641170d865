#!/usr/bin/env bash
# audit_selftest.sh SRC COQC WORKDIR -- shows that the audit can fail, and fails for the right
# reason: each fixture of proofs/tests/ is audited and the exit status, the reason printed and the
# status written to audit.json are compared with what they must be.
set -u -o pipefail
src="$1" coqc="$2" work="$3"
here="$(cd "$(dirname "$0")" && pwd)"
bad=0
# expect NAME FIXTURE EXIT REGEX_IN_OUTPUT REGEX_IN_JSON [audit options]
expect() {
  local name="$1" fixture="$2" want_rc="$3" out_re="$4" json_re="$5"; shift 5
  local log="$work/$name.log"
  mkdir -p "$work"
  bash "$here/run_audit_fixture.sh" "$src" "$coqc" "$here/$fixture" "$work/$name" "$@" > "$log" 2>&1
  local rc=$?
  if grep -q 'SET-UP FAILED' "$log"; then echo "FAIL $name: fixture set-up failed"; bad=1
  elif [ "$rc" != "$want_rc" ]; then echo "FAIL $name: audit exit $rc, expected $want_rc"; bad=1
  elif ! grep -Eq "$out_re" "$log"; then echo "FAIL $name: output lacks /$out_re/"; bad=1
  elif ! grep -Eq "$json_re" "$work/$name/audit.json"; then echo "FAIL $name: audit.json lacks /$json_re/"; bad=1
  else echo "ok   $name"; return; fi
  sed 's/^/     | /' "$log"
}
expect admitted_text     audit_rejects_admitted.v 1 "forbidden 'Admitted'" '"ok":false'
expect admitted_assume   audit_rejects_admitted.v 1 "assumption '[A-Za-z_.]*fixture_admitted_claim' is not in" \
  '"status":"failed"' --no-text-scan
expect axiom_text        audit_rejects_axiom.v    1 "forbidden 'Axiom'" '"ok":false'
expect axiom_assume      audit_rejects_axiom.v    1 "assumption '[A-Za-z_.]*fixture_excluded_middle' is not in" \
  '"status":"failed"' --no-text-scan
expect unlisted          audit_rejects_unlisted.v 1 "Theorem unlisted_fixture_claim is not listed" '"ok":false'
expect closed            audit_accepts_closed.v   0 "1 headline theorem" '"status":"closed"'
expect standard_axioms   audit_accepts_standard.v 0 "1 headline theorem" \
  '"status":"standard-axioms","assumptions":\["Classical_Prop.classic"\]'
# check_citations.sh must reject a property citing a theorem that Audit.v does not list.
cit="$work/citations"; rm -rf "$cit"; mkdir -p "$cit/proofs" "$cit/properties"
cp "$src/Audit.v" "$cit/proofs/Audit.v"
printf 'ICLPROOF_PROPERTY(x, "f.x", "claim", "proofs/VonOswald.v:no_such_theorem") {}\n' \
  > "$cit/properties/dangling.cpp"
if bash "$here/check_citations.sh" "$cit" > "$cit.log" 2>&1; then
  echo "FAIL dangling_citation: check_citations.sh accepted proofs/VonOswald.v:no_such_theorem"; bad=1
elif ! grep -q "dangling citation: proofs/VonOswald.v:no_such_theorem" "$cit.log"; then
  echo "FAIL dangling_citation: wrong reason"; sed 's/^/     | /' "$cit.log"; bad=1
else echo "ok   dangling_citation"; fi
[ "$bad" = 0 ] && echo "audit self-test: all fixtures behaved" || echo "audit self-test: FAILED"
exit "$bad"
