#!/usr/bin/env bash
# check_citations.sh ROOT -- every Coq theorem a property cites ("proofs/File.v:name" in
# ROOT/properties/*.cpp) must be a headline theorem of ROOT/proofs/Audit.v, so that the audit
# checks it and `iclproof check --proof-audit` can report it as checked.  Exit 1 lists the
# dangling citations (cite the paper equation instead until the theorem exists).
set -u -o pipefail
root="$1"
audit="$root/proofs/Audit.v"
[ -f "$audit" ] || { echo "check_citations: $audit not found"; exit 2; }
shopt -s nullglob
files=("$root"/properties/*.cpp "$root"/properties/*.hpp)
bad=0 n=0
while read -r cite; do
  [ -n "$cite" ] || continue
  n=$((n + 1))
  file="${cite%%:*}"; name="${cite#*:}"; mod="$(basename "$file" .v)"
  if ! grep -qE "^[[:space:]]*Print[[:space:]]+Assumptions[[:space:]]+ICLProof\.$mod\.$name[[:space:]]*\.[[:space:]]*$" "$audit"; then
    echo "dangling citation: $cite (not a headline theorem in proofs/Audit.v)"
    grep -lF "\"$cite\"" "${files[@]}" | sed 's/^/    cited in /'
    bad=1
  fi
done < <( [ "${#files[@]}" -gt 0 ] && grep -ohE '"proofs/[A-Za-z0-9_]+\.v:[A-Za-z0-9_]+"' "${files[@]}" | tr -d '"' | sort -u )
[ "$bad" = 0 ] && echo "check_citations: $n distinct theorem citation(s), all audited" || true
exit "$bad"
