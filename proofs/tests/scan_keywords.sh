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
#   - a clean theory (fixtures/accepts_closed) gives no violation.
set -u -o pipefail
proofs="$(cd "$1" && pwd)" || { echo "scan_keywords: no directory $1"; exit 2; }
scan="$proofs/coq_scan.pl"
dir="$proofs/tests/fixtures/scan_keywords"
fixtures="$proofs/tests/fixtures"
bad=0 n=0
fail() { echo "FAIL $*"; bad=1; }

# 1. each listed fixture: exactly the one expected violation
listed=()
while IFS=$'\t' read -r file line message; do
  [ -n "$file" ] || continue
  listed+=("$file")
  n=$((n + 1))
  [ -f "$dir/$file" ] || { fail "$file: listed in expected.tsv but missing"; continue; }
  got=$(cd "$dir" && perl "$scan" "$file" | grep '^VIOLATION')
  want=$(printf 'VIOLATION\t%s:%s\t%s' "$file" "$line" "$message")
  if [ "$got" = "$want" ]; then echo "ok   $file: $message"
  else fail "$file: expected exactly '$want', the scan reported: '${got:-nothing}'"; fi
done < "$dir/expected.tsv"
[ "$n" -gt 0 ] || fail "expected.tsv lists no fixture"
for f in "$dir"/*.v; do
  [ -e "$f" ] || continue
  b=$(basename "$f")
  printf '%s\n' "${listed[@]}" | grep -qxF "$b" || fail "$b is not listed in expected.tsv"
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

[ "$bad" = 0 ] && echo "scan keywords: all $n checks behaved" || echo "scan keywords: FAILED"
exit "$bad"
