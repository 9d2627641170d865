#!/usr/bin/env bash
# statement_mutations.sh -- the statement files (proofs/statements/<family>.v) and their check
# files must catch a wrong or a vacuous claim.  Each fixture tests/fixtures/statements_<name>/
# holds mutation.patch (a change of one statement file) and expect:
#   check_fails   -- the mutated statement file compiles (its witnesses still hold), and its
#                    check file <family>_check.v does NOT compile (the claim no longer follows
#                    from the project's theorems);
#   witness_fails -- the mutated statement file does NOT compile (a witness fails: the premise
#                    set became vacuous).
# The unmutated files of every family a fixture mutates must compile first (a broken baseline
# fails the run, so a fixture cannot pass because everything fails).
#
# usage: statement_mutations.sh <repo root> <dir holding the project's compiled ICLProof .vo>
#          [<fixtures dir>, default <repo root>/proofs/tests/fixtures]
# e.g.   statement_mutations.sh . build/proofs/coq
# Exit 0 iff the baseline compiles and every fixture behaves as expected; one line per fixture,
# and the seconds the run took.
set -u
root=$(cd "$1" && pwd)
vodir=$(cd "$2" && pwd)
coqc=${COQC:-coqc}
warn="-w -notation-overridden,-ambiguous-paths,-undeclared-scope"
here=$(cd "${3:-$root/proofs/tests/fixtures}" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

setup() {  # $1 = scratch dir: the project's .vo files and a fresh copy of proofs/statements
  mkdir -p "$1"
  cp "$vodir"/*.vo "$1"/
  mkdir -p "$1/proofs"
  cp -r "$root/proofs/statements" "$1/proofs/statements"
}

compile() {  # $1 = scratch dir, $2 = family, $3 = file stem; exit status of coqc
  (cd "$1" && mkdir -p statements && cp proofs/statements/"$3".v statements/ &&
    $coqc -Q . ICLProof $warn statements/"$3".v) > "$1/$3.log" 2>&1
}

status=0
# The family each fixture mutates (the file its patch names).
fixture_family() { sed -n 's|^+++ b/proofs/statements/\([a-z_]*\)\.v.*|\1|p' "$1/mutation.patch" | head -1; }
families=$(for fx in "$here"/statements_*/; do [ -f "$fx/mutation.patch" ] && fixture_family "$fx"; done |
           sort -u)
if [ -z "$families" ]; then
  echo "FAIL: no fixture statements_*/mutation.patch in $here"; exit 1
fi
# Baseline: every mutated family's statement file and its check compile unmutated (the other
# families' are compiled by the audit; compiling them here again would only cost time).
setup "$work/baseline"
for fam in $families; do
  if compile "$work/baseline" "$fam" "$fam" && compile "$work/baseline" "$fam" "${fam}_check"; then
    echo "baseline $fam: statement and check compile"
  else
    echo "FAIL baseline $fam: does not compile unmutated"; status=1
  fi
done
[ $status -eq 0 ] || exit 1

for fx in "$here"/statements_*/; do
  name=$(basename "$fx")
  expect=$(cat "$fx/expect")
  dir="$work/$name"
  setup "$dir"
  fam=$(fixture_family "$fx")
  if ! (cd "$dir" && patch -s -p1 < "$fx/mutation.patch"); then
    echo "FAIL $name: the patch does not apply"; status=1; continue
  fi
  if compile "$dir" "$fam" "$fam"; then stmt=ok; else stmt=fails; fi
  if [ $stmt = ok ] && compile "$dir" "$fam" "${fam}_check"; then check=ok; else check=fails; fi
  case "$expect" in
    check_fails)
      if [ $stmt = ok ] && [ $check = fails ]; then
        echo "ok $name: statement compiles, check rejected: $(grep -m1 Error "$dir/${fam}_check.log")"
      else
        echo "FAIL $name: expected the check to fail (statement $stmt, check $check)"; status=1
      fi ;;
    witness_fails)
      # the error must lie inside a witness lemma (not a syntax or type error elsewhere)
      line=$(sed -n 's/^File .*, line \([0-9]*\), .*/\1/p' "$dir/$fam.log" | head -1)
      lemma=$(awk -v n="${line:-0}" 'NR <= n && /^(Lemma|Definition|Fixpoint|Example) / { l = $2 }
                                       END { print l }' "$dir/proofs/statements/$fam.v")
      if [ $stmt = fails ] && [ "${lemma#witness_}" != "$lemma" ]; then
        echo "ok $name: statement rejected in $lemma: $(grep -m1 Error "$dir/$fam.log")"
      else
        echo "FAIL $name: expected a witness to fail (statement $stmt, error in '$lemma')"; status=1
      fi ;;
    *) echo "FAIL $name: unknown expectation '$expect'"; status=1 ;;
  esac
done
echo "statement_mutations: $(ls -d "$here"/statements_*/ | wc -l) fixtures, $SECONDS s"
exit $status
