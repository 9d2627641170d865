#!/usr/bin/env bash
# check_citations.sh ROOT -- every Coq name a property cites ("proofs/File.v:name" anywhere in
# ROOT/properties/, in whatever list or sentence it stands) must be a constant that File.v
# declares, and File.v must be in ROOT/proofs/_CoqProject, so that the audit (which Print
# Assumptions every declared constant) checks it; and a theorem (Theorem, Lemma, Example, ...),
# not a definition or record field (the audit checks the same).  Fast: no Coq, the declarations come from
# proofs/coq_scan.pl.  audit.sh makes the same check; this test reports it without a build.
# Exit 1 lists the dangling citations (cite the paper equation instead until the theorem exists).
# Also: in the ICLPROOF_PROPERTY headers of ROOT/properties/*.cpp a theorem is cited with its role (src/trust/claim_coverage.hpp:
# identity("proofs/File.v:name"), bound(...), composition(...), reference(...)); a
# "proofs/File.v:name" string literal outside a role builder (e.g. inside a paper() text) is a
# citation without a role and fails.
set -u -o pipefail
root="$1"
proofs="$root/proofs"
[ -f "$proofs/_CoqProject" ] || { echo "check_citations: $proofs/_CoqProject not found"; exit 2; }
here="$(cd "$(dirname "$0")/.." && pwd)"
mapfile -t theories < <(grep -E '^[A-Za-z][A-Za-z0-9_]*\.v$' "$proofs/_CoqProject")
declare -A declared=() listed=()
for v in "${theories[@]}"; do listed[$v]=1; done
while IFS=$'\t' read -r tag file kind name; do
  [ "$tag" = DECL ] && declared[$file:$name]="$kind"
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
  elif [ "${declared[${cite#proofs/}]}" != theorem ]; then
    # a Definition : Prop states a claim, a record field is assumed: neither proves anything
    echo "citation $cite names a ${declared[${cite#proofs/}]}, not a theorem (Theorem, Lemma, Example, ...)"
    bad=1
  fi
done < <(grep -rhoE "proofs/[A-Za-z0-9_]+\.v:[A-Za-z_][A-Za-z0-9_']*" "$root/properties" 2>/dev/null | sort -u)
# Nothing cited is nothing checked (a changed citation format, an empty or moved properties/):
# a failure, not "all declared".
if [ "$n" = 0 ]; then
  echo "check_citations: no citation found in $root/properties (nothing was checked)"
  bad=1
fi
shopt -s nullglob
sources=("$root"/properties/*.cpp)
if [ "${#sources[@]}" -gt 0 ]; then
  # The coverage argument of every ICLPROOF_PROPERTY(...) { header, one per line (figure
  # captions and comments elsewhere may name theorems; only citations need a role).
  heads=$(perl -0777 -ne 'while (/ICLPROOF_PROPERTY\((.*?)\)\s*\{/sg) { (my $h = $1) =~ s/\s+/ /g; print "$h\n" }' "${sources[@]}")
  lit='"proofs/[A-Za-z0-9_]+\.v:[A-Za-z_][A-Za-z0-9_'"'"']*"'
  all=$(grep -oE "$lit" <<< "$heads" | sort | uniq -c)
  with_role=$(grep -oE "(identity|bound|composition|reference)\([[:space:]]*$lit[[:space:]]*\)" \
                <<< "$heads" | grep -oE "$lit" | sort | uniq -c)
  if [ -z "$all" ]; then
    echo "check_citations: no theorem cited in any ICLPROOF_PROPERTY (citation format changed?)"
    bad=1
  elif [ "$all" != "$with_role" ]; then
    echo "citation without a role (a \"proofs/File.v:name\" literal in a property's citations outside identity/bound/composition/reference):"
    diff <(echo "$all") <(echo "$with_role") | sed -n 's/^< */    /p'
    bad=1
  fi
fi
[ "$bad" = 0 ] && echo "check_citations: $n distinct citation(s), all declared (and so audited), all with a role" || true
exit "$bad"
