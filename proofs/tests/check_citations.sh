#!/usr/bin/env bash
# check_citations.sh ROOT -- every Coq name a property cites ("proofs/File.v:name" anywhere in
# ROOT/properties/, in whatever list or sentence it stands) must be a constant that File.v
# declares, and File.v must be in ROOT/proofs/_CoqProject, so that the audit (which Print
# Assumptions every declared constant) checks it.  Fast: no Coq, the declarations come from
# proofs/coq_scan.pl.  audit.sh makes the same check; this test reports it without a build.
# Exit 1 lists the dangling citations (cite the paper equation instead until the theorem exists).
set -u -o pipefail
root="$1"
proofs="$root/proofs"
[ -f "$proofs/_CoqProject" ] || { echo "check_citations: $proofs/_CoqProject not found"; exit 2; }
here="$(cd "$(dirname "$0")/.." && pwd)"
mapfile -t theories < <(grep -E '^[A-Za-z][A-Za-z0-9_]*\.v$' "$proofs/_CoqProject")
declare -A declared=() listed=()
for v in "${theories[@]}"; do listed[$v]=1; done
while IFS=$'\t' read -r tag file kind name; do
  [ "$tag" = DECL ] && declared[$file:$name]=1
done < <(cd "$proofs" && perl "$here/coq_scan.pl" "${theories[@]}")
bad=0 n=0
while read -r cite; do
  [ -n "$cite" ] || continue
  n=$((n + 1))
  file="${cite#proofs/}"; file="${file%%:*}"
  if [ -z "${listed[$file]:-}" ] || [ -z "${declared[${cite#proofs/}]:-}" ]; then
    echo "dangling citation: $cite (not a constant declared by a theory of proofs/_CoqProject)"
    grep -rlF "$cite" "$root/properties" | sed 's/^/    cited in /'
    bad=1
  fi
done < <(grep -rhoE "proofs/[A-Za-z0-9_]+\.v:[A-Za-z_][A-Za-z0-9_']*" "$root/properties" 2>/dev/null | sort -u)
[ "$bad" = 0 ] && echo "check_citations: $n distinct citation(s), all declared (and so audited)" || true
exit "$bad"
