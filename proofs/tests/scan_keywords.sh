#!/usr/bin/env bash
# scan_keywords.sh PROOFS_DIR -- the text scan (coq_scan.pl) rejects every construct it forbids,
# each alone: fixtures/scan_keywords/<construct>.v holds one forbidden construct, and the scan
# must report exactly one VIOLATION, the one listed in fixtures/scan_keywords/expected.tsv
# (file, line, message). No Coq build: the scan alone decides (audit_selftest.sh runs the whole
# audit on the older fixtures). Also:
#   - every token of the scan's own lists (%forbidden_anywhere, %section_only in coq_scan.pl)
#     has a rejecting fixture, here or an older fixtures/rejects_* one, which the scan rejects
#     naming that token (a token added to the lists without a fixture fails this test);
#   - every fixture file is listed and every listed file exists;
#   - a clean theory (fixtures/accepts_closed) gives no violation, nor does the clean statement
#     file, check file and theory of fixtures/accepts_statement (which yields its CLAIM).
# A fixture may have several rows (several violations, each expected).
set -u -o pipefail
proofs="$(cd "$1" && pwd)" || { echo "scan_keywords: no directory $1"; exit 2; }
scan="$proofs/coq_scan.pl"
dir="$proofs/tests/fixtures/scan_keywords"
fixtures="$proofs/tests/fixtures"
bad=0 n=0
fail() { echo "FAIL $*"; bad=1; }

# 1. each listed fixture: exactly the expected violations (one row of expected.tsv each, in
# the scan's order; statements/<name>.v is scanned as a statement file of the family <name>)
listed=()
declare -A want_of=()
while IFS=$'\t' read -r file line message; do
  [ -n "$file" ] || continue
  [ -n "${want_of[$file]+set}" ] || listed+=("$file")
  want_of[$file]+=$(printf 'VIOLATION\t%s:%s\t%s' "$file" "$line" "$message")$'\n'
done < "$dir/expected.tsv"
for file in "${listed[@]}"; do
  n=$((n + 1))
  [ -f "$dir/$file" ] || { fail "$file: listed in expected.tsv but missing"; continue; }
  got=$(cd "$dir" && perl "$scan" "$file" | grep '^VIOLATION')
  want="${want_of[$file]%$'\n'}"
  if [ "$got" = "$want" ]; then echo "ok   $file: ${want//$'\n'/ | }" | sed 's/VIOLATION\t[^\t]*\t//g'
  else fail "$file: expected exactly '$want', the scan reported: '${got:-nothing}'"; fi
done
[ "$n" -gt 0 ] || fail "expected.tsv lists no fixture"
for f in "$dir"/*.v "$dir"/statements/*.v; do
  [ -e "$f" ] || continue
  b=${f#"$dir"/}
  # (an array lookup: `printf | grep -q` under pipefail fails when grep exits before printf)
  [ -n "${want_of[$b]+set}" ] || fail "$b is not listed in expected.tsv"
done

# 2. every token of the scan's lists has a rejecting fixture
tokens=$(perl -0777 -ne 'while (/my %(forbidden_anywhere|section_only) = map \{ \$_ => 1 \} qw\(([^)]*)\)/g) { print "$2\n" }' "$scan" | tr -s ' \n' '\n' | sed '/^$/d')
[ "$(wc -l <<<"$tokens")" -ge 10 ] || fail "cannot read the token lists of $scan (got: $tokens)"
# Tokens whose fixture is an older one (tests/fixtures/rejects_*), or named differently here.
declare -A older=([Admitted]=rejects_admitted [Axiom]=rejects_axiom [Axioms]=rejects_top_level_axioms
  [Parameter]=rejects_top_level_parameter [Parameters]=rejects_top_level_parameters
  [Conjecture]=rejects_top_level_conjecture [bypass_check]=rejects_bypass_guard
  [Variable]=rejects_top_level_variable [Variables]=rejects_top_level_variables
  [Hypothesis]=rejects_top_level_hypothesis [Context]=rejects_top_level_context)
declare -A here=([Admit]=Admit_Obligations.v)
for t in $tokens; do
  n=$((n + 1))
  if [ -n "${older[$t]:-}" ]; then
    out=$(cd "$fixtures/${older[$t]}" && perl "$scan" ./*.v | grep '^VIOLATION')
    where="fixtures/${older[$t]}"
  else
    f=${here[$t]:-$t.v}
    [ -f "$dir/$f" ] || { fail "'$t' (forbidden by coq_scan.pl) has no rejecting fixture"; continue; }
    out=$(cd "$dir" && perl "$scan" "$f" | grep '^VIOLATION')
    where="scan_keywords/$f"
  fi
  if grep -q "'$t'" <<<"$out"; then echo "ok   token '$t' rejected in $where"
  else fail "token '$t': $where gives '${out:-no violation}'"; fi
done

# 3. the control: a clean theory passes the scan
n=$((n + 1))
clean=$(cd "$fixtures/accepts_closed" && perl "$scan" ./*.v | grep '^VIOLATION')
if [ -z "$clean" ] && [ -n "$(cd "$fixtures/accepts_closed" && perl "$scan" ./*.v | grep '^DECL')" ]; then
  echo "ok   accepts_closed: no violation"
else fail "accepts_closed: '${clean:-no declaration found}'"; fi

n=$((n + 1))
st=$(cd "$fixtures/accepts_statement" && perl "$scan" ./*.v statements/*.v)
if ! grep -q '^VIOLATION' <<<"$st" \
   && grep -qx $'CLAIM\tstatements/toy.v\tclaim_toy__step_one_reaches_target\ttoy.step_one_reaches_target' <<<"$st"; then
  echo "ok   accepts_statement: no violation, its claim found"
else fail "accepts_statement: '$(grep -E '^(VIOLATION|CLAIM)' <<<"$st")'"; fi

[ "$bad" = 0 ] && echo "scan keywords: all $n checks behaved" || echo "scan keywords: FAILED"
exit "$bad"
