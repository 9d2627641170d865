#!/usr/bin/env bash
# check_citations.sh ROOT -- every Coq theorem a property cites must be a headline theorem of
# ROOT/proofs/Audit.v, so that the audit checks it and `iclproof check --proof-audit` can report
# it as checked. Properties cite theorems with a role (src/trust/claim_coverage.hpp):
#   identity("proofs/File.v:name"), bound(...), composition(...), reference(...)
# in ROOT/properties/*.cpp. Exit 1 lists the dangling citations (cite the paper equation with
# paper("...") and say what is unproved until the theorem exists), and any "proofs/File.v:name"
# string outside a role builder (a citation without a role, e.g. hidden in a paper() text).
set -u -o pipefail
root="$1"
audit="$root/proofs/Audit.v"
[ -f "$audit" ] || { echo "check_citations: $audit not found"; exit 2; }
shopt -s nullglob
files=("$root"/properties/*.cpp "$root"/properties/*.hpp)
[ "${#files[@]}" -gt 0 ] || { echo "check_citations: no property sources under $root/properties"; exit 2; }
# One line per file (so a builder split over two lines still matches).
flat=$(for f in "${files[@]}"; do tr '\n' ' ' < "$f"; echo; done)
cite_re='"proofs/[A-Za-z0-9_]+\.v:[A-Za-z0-9_]+"'
role_re="(identity|bound|composition|reference)\([[:space:]]*$cite_re[[:space:]]*\)"
bad=0 n=0
all=$(grep -oE "$cite_re" <<< "$flat" | sort | uniq -c | awk '{print $2, $1}')
with_role=$(grep -oE "$role_re" <<< "$flat" | grep -oE "$cite_re" | sort | uniq -c | awk '{print $2, $1}')
if [ "$all" != "$with_role" ]; then
  echo "citation without a role (a \"proofs/File.v:name\" string outside identity/bound/composition/reference):"
  diff <(echo "$all") <(echo "$with_role") | sed -n 's/^< /    /p'
  bad=1
fi
while read -r cite; do
  [ -n "$cite" ] || continue
  n=$((n + 1))
  file="${cite%%:*}"; name="${cite#*:}"; mod="$(basename "$file" .v)"
  if ! grep -qE "^[[:space:]]*Print[[:space:]]+Assumptions[[:space:]]+ICLProof\.$mod\.$name[[:space:]]*\.[[:space:]]*$" "$audit"; then
    echo "dangling citation: $cite (not a headline theorem in proofs/Audit.v)"
    grep -lF "\"$cite\"" "${files[@]}" | sed 's/^/    cited in /'
    bad=1
  fi
done < <(grep -oE "$role_re" <<< "$flat" | grep -oE "$cite_re" | tr -d '"' | sort -u)
[ "$n" -gt 0 ] || { echo "check_citations: no theorem citation found (format changed?)"; bad=1; }
[ "$bad" = 0 ] && echo "check_citations: $n distinct theorem citation(s), all with a role, all audited" || true
exit "$bad"
