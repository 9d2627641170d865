#!/usr/bin/env bash
# check_statement_ledger.sh PROOFS_DIR LEDGER -- the static ledger of statement-file claims
# (LEDGER, normally proofs/statements/printed.txt, embedded in the C++ side) lists exactly the
# claims of PROOFS_DIR/statements/<family>.v (well-formed, as coq_scan.pl finds them) that have a
# check_<p> in statements/<family>_check.v: a claim added, removed or renamed without
# regenerating the ledger fails here, in seconds and without Coq.  Whether each listed claim's
# check_ has exactly its type, and the printed text, is Coq's business: the ctest
# proofs.statements_printed_agree compares the ledger with what the audit's Coq run printed.
# Exit 0 when they agree, 1 (listing the differences) when not, 2 on a usage error.
set -u -o pipefail
[ $# = 2 ] || { echo "usage: check_statement_ledger.sh PROOFS_DIR LEDGER"; exit 2; }
proofs="$(cd "$1" && pwd)" || exit 2
ledger="$2"
[ -f "$ledger" ] || { echo "check_statement_ledger: $ledger not found"; exit 2; }
scan="$(cd "$(dirname "$0")/.." && pwd)/coq_scan.pl"
shopt -s nullglob
files=()
for f in "$proofs"/statements/*.v; do files+=("statements/${f##*/}"); done
declare -A has_check=()
expected=""
if [ "${#files[@]}" -gt 0 ]; then
  out="$(cd "$proofs" && perl "$scan" "${files[@]}")" || exit 2
  while IFS=$'\t' read -r tag file a b; do
    [ "$tag" = DECL ] && [[ "$file" == *_check.v ]] && has_check[$file:$b]=1
  done <<< "$out"
  while IFS=$'\t' read -r tag file claim prop; do
    [ "$tag" = CLAIM ] || continue
    [ -n "${has_check[${file%.v}_check.v:check_${claim#claim_}]:-}" ] && expected+="$prop $claim"$'\n'
  done <<< "$out"
fi
expected="$(sort <<< "${expected%$'\n'}" | sed '/^$/d')"
listed="$(sed -n 's/^== //p' "$ledger" | sort)"
if [ "$expected" = "$listed" ]; then
  echo "check_statement_ledger: $(grep -c . <<< "$listed") claim(s) with a check_, all listed in $ledger"
  exit 0
fi
echo "check_statement_ledger: $ledger does not list exactly the claims with a check_ of $proofs/statements"
echo "(regenerate: run the audit, then cmake --build <build> --target update_statements_printed):"
lines() { [ -z "$1" ] || printf '%s\n' "$1"; }
diff <(lines "$expected") <(lines "$listed") | sed -n -e 's/^< \(.*\)/    claim with a check_, not in the ledger: \1/p' \
  -e 's/^> \(.*\)/    in the ledger, no such claim with a check_: \1/p'
exit 1
