#!/usr/bin/env bash
# audit.sh -- the proof audit of iclproof.  What it checks, in order (any failure: exit 1):
#
#  1. _CoqProject holds only `-Q . ICLProof`, `-arg -w -arg <warnings>` and `Name.v` lines (no
#     -type-in-type, -impredicative-set, extra load paths), and every SRC/*.v is listed in it
#     (a theory that is not built is not checked; Audit.v is generated, never kept by hand).
#  2. Text scan (coq_scan.pl, a lexer that follows Coq's: nested comments, strings, strings
#     inside comments, sentences split at `. `): no Admitted/admit/give_up/Admit, no
#     Axiom/Parameter/Conjecture in any form, no Variable/Hypothesis/Context outside a Section,
#     no bypass_check attribute, no Set/Unset of a Checking/UIP/StrictProp flag, no Declare
#     ML Module/Instance/Module, Load, Primitive, Register, Add LoadPath; see coq_scan.pl.
#  3. Citations: every `proofs/File.v:name` written anywhere in PROPERTIES/ names a constant
#     that File.v (listed in _CoqProject) declares, and a theorem (Theorem, Lemma, Example, ...;
#     not a definition, inductive or record field: the scan's kind, also in audit.json).
#  4. Build from clean: the listed sources (and nothing else: no .vo is ever reused) are copied
#     to a scratch directory and compiled there with coq_makefile + make (one line per theory,
#     with its seconds).
#  5. coqchk (Coq's independent checker) re-checks every .vo of the project in that build
#     (-norec per project module: the installed libraries are trusted) and, with -o, reports
#     the context the project's libraries live in.  It fails on: a rejected library; a set
#     that is impredicative; any constant or inductive relying on type-in-type, unsafe
#     (co)fixpoints or assumed positivity; any axiom under ICLProof.*; any axiom outside
#     allowed_axioms.txt that Coq does not show to be a sealed-module field of an installed
#     library (Print Assumptions of it must name only allowed axioms: coqchk lists the fields
#     of every `Module M : T` signature, such as mathcomp's locked definitions or Coq's
#     RbaseSymbolsImpl, as axioms).  Its `checking cst:` lines are Coq's own LIST OF EVERY
#     CONSTANT of every project theory: a constant it lists that the text scan did not
#     (other than the _rect/_ind/_rec/_sind schemes of a scanned inductive) fails, and so does
#     a constant the scan lists that Coq does not have.
#  6. Print Assumptions, in that fresh build, of EVERY constant coqchk lists, and of every
#     inductive the scan lists (coqchk does not print those).  The files doing it
#     (Audit_<k>.v, one per theory, JOBS at a time, copied next to --out) are generated: each
#     Requires exactly the modules of _CoqProject and nothing else.
#     Each assumption is identified by its FULLY QUALIFIED name: Print Assumptions prints the
#     shortest name that resolves to the assumption; the same run asks `Locate` for the shortest
#     name of every fully qualified name in allowed_axioms.txt, and an assumption is allowed only
#     if its printed name equals the shortest name of an allowed one (two objects never share a
#     shortest name, so a look-alike such as ICLProof.X.Classical_Prop.classic never matches
#     Coq.Logic.Classical_Prop.classic).  Any line of the report that is not `name : type`
#     (e.g. "f is assumed to be guarded.", "... relies on an unsafe hierarchy.") fails.
#     Every allow-list entry must be a Coq.* (standard library) name.
#  7. Per-file axiom sets: a constant of a file listed in real_analysis_files.txt passes as
#     "closed" or "standard-axioms" (only allowed_axioms.txt); a constant of any other file
#     (the mathcomp theories) must be "Closed under the global context".
#
# Writes audit.json (schema 2; schema 1 fields unchanged, "kind" and "reason" added):
#   {"schema":2, "ok":bool, "coq_version":"...", "generated_utc":"...", "text_scan":[...],
#    "errors":[...], "theorems":[{"file":"proofs/X.v","name":"...","kind":"theorem"|"definition"|"inductive"|
#    "projection"|"scheme"|"unlisted" (coqchk lists it, the scan does not: it fails),
#    "status":"closed"|"standard-axioms"|"failed","assumptions":[fully qualified names],
#    "reason":"..."}]}
#
# Usage: audit.sh --src DIR --out FILE [--properties DIR] [--allowed FILE] [--real-files FILE]
#                 [--coqc PATH] [--jobs N] [--no-text-scan] [--keep DIR]
#   --src         the sources: _CoqProject and the .v files it lists (proofs/)
#   --out         path of audit.json; the generated Audit_<k>.v are written beside it
#   --jobs N      make -jN, and N parallel Print Assumptions runs (default 2)
#   --properties  directory whose files are searched for citations (default SRC/../properties;
#                 absent directory = no citations)
#   --no-text-scan  skip step 2's verdicts (the self-test uses it to show that Coq's side alone,
#                 coqchk and Print Assumptions, rejects a trick; the scan's list of constants is
#                 still compared with coqchk's)
#   --coqchk PATH the checker (default: coqchk beside coqc)
#   --keep DIR    keep the scratch build in DIR (default: a temp dir, removed)
# Exit: 0 all good, 1 audit failure, 2 usage / environment error.
set -u -o pipefail

die_usage() { echo "audit.sh: error: $*" >&2; exit 2; }

src="" out="" props="" allowed="" realfiles="" coqc="coqc" coqchk="" jobs=2 text_scan=1 keep=""
while [ $# -gt 0 ]; do
  case "$1" in
    --src) src="${2:-}"; shift 2 ;;
    --out) out="${2:-}"; shift 2 ;;
    --properties) props="${2:-}"; shift 2 ;;
    --allowed) allowed="${2:-}"; shift 2 ;;
    --real-files) realfiles="${2:-}"; shift 2 ;;
    --coqc) coqc="${2:-}"; shift 2 ;;
    --coqchk) coqchk="${2:-}"; shift 2 ;;
    --jobs) jobs="${2:-}"; shift 2 ;;
    --no-text-scan) text_scan=0; shift ;;
    --keep) keep="${2:-}"; shift 2 ;;
    *) die_usage "unknown argument '$1'" ;;
  esac
done
[ -n "$src" ] && [ -d "$src" ] || die_usage "--src DIR is required and must exist"
src="$(cd "$src" && pwd)"
[ -n "$out" ] || die_usage "--out FILE is required"
mkdir -p "$(dirname "$out")" || die_usage "cannot create the directory of '$out'"
out="$(cd "$(dirname "$out")" && pwd)/$(basename "$out")"
[ -n "$props" ] || props="$src/../properties"
[ -n "$allowed" ] || allowed="$src/allowed_axioms.txt"
[ -n "$realfiles" ] || realfiles="$src/real_analysis_files.txt"
[ -f "$allowed" ] || die_usage "allow-list '$allowed' not found"
[ -f "$realfiles" ] || die_usage "'$realfiles' (files allowed the axioms) not found"
[ -f "$src/_CoqProject" ] || die_usage "'$src/_CoqProject' not found"
[[ "$jobs" =~ ^[1-9][0-9]*$ ]] || die_usage "--jobs N must be a positive integer"
command -v "$coqc" >/dev/null 2>&1 || die_usage "coqc not found ('$coqc')"
coqc="$(command -v "$coqc")"
[ -n "$coqchk" ] || coqchk="$(dirname "$coqc")/coqchk"
command -v "$coqchk" >/dev/null 2>&1 || die_usage "coqchk not found ('$coqchk')"
coqchk="$(command -v "$coqchk")"
coq_makefile="$(dirname "$coqc")/coq_makefile"
[ -x "$coq_makefile" ] || coq_makefile="$(command -v coq_makefile)" || die_usage "coq_makefile not found"
command -v perl >/dev/null 2>&1 || die_usage "perl not found"
command -v make >/dev/null 2>&1 || die_usage "make not found"
here="$(cd "$(dirname "$0")" && pwd)"
scanner="$here/coq_scan.pl"
[ -f "$scanner" ] || die_usage "$scanner not found"

if [ -n "$keep" ]; then
  rm -rf "$keep" && mkdir -p "$keep" || die_usage "cannot create '$keep'"
  work="$(cd "$keep" && pwd)"
else
  work="$(mktemp -d "${TMPDIR:-/tmp}/iclproof-audit.XXXXXX")" || die_usage "cannot create a temp dir"
  trap 'rm -rf "$work"' EXIT
fi

failed=0
errors=()
fail() { echo "AUDIT FAIL: $*"; failed=1; errors+=("$*"); }
# json_quote VAR S: VAR = S as a JSON string (backslash, quote and tab escaped, newlines as
# spaces), in bash alone: the verdicts quote three strings per constant, and a sed + tr pipeline
# per string was thousands of processes.
json_quote() {
  local __jq=${2//\\/\\\\}
  __jq=${__jq//\"/\\\"}; __jq=${__jq//$'\t'/\\t}; __jq=${__jq//$'\n'/ }
  printf -v "$1" '"%s"' "$__jq"
}
json_str() { local q; json_quote q "$1"; printf '%s' "$q"; }

# --- 1. _CoqProject ----------------------------------------------------------------------------
theories=()
lineno=0
while IFS= read -r line || [ -n "$line" ]; do
  lineno=$((lineno + 1))
  line="${line%$'\r'}"
  case "$line" in
    '' | '#'*) ;;
    '-Q . ICLProof') ;;
    *)
      if [[ "$line" =~ ^-arg\ -w\ -arg\ [A-Za-z0-9,+-]+$ ]]; then :
      elif [[ "$line" =~ ^[A-Za-z][A-Za-z0-9_]*\.v$ ]]; then theories+=("$line")
      elif [[ "$line" =~ ^statements/[a-z][a-z0-9_]*\.v$ ]]; then theories+=("$line")
      else fail "_CoqProject:$lineno: '$line' is not allowed (only '-Q . ICLProof', '-arg -w -arg <warnings>', Name.v and statements/name.v lines)"
      fi ;;
  esac
done < "$src/_CoqProject"
[ "${#theories[@]}" -gt 0 ] || fail "_CoqProject lists no .v file"
declare -A listed=()
for v in "${theories[@]}"; do
  listed[$v]=1
  [ -f "$src/$v" ] || fail "_CoqProject lists $v but $src/$v does not exist"
done
shopt -s nullglob
for f in "$src"/*.v "$src"/statements/*.v; do
  b="${f#"$src"/}"
  [ -n "${listed[$b]:-}" ] || fail "$b is not in _CoqProject (every theory is built and audited; Audit.v is generated by audit.sh, not kept)"
done
shopt -u nullglob
# A check file goes with its statement file (statements/<family>_check.v proves the claims of
# statements/<family>.v).
for v in "${theories[@]}"; do
  if [[ "$v" == statements/*_check.v ]] && [ -z "${listed[${v%_check.v}.v]:-}" ]; then
    fail "$v has no statement file ${v%_check.v}.v in _CoqProject"
  fi
done
# modname FILE: the module path of a theory under ICLProof ("statements/x.v" -> "statements.x")
modname() { local m="${1%.v}"; printf '%s' "${m//\//.}"; }
declare -A file_of_mod=()
for v in "${theories[@]}"; do file_of_mod[$(modname "$v")]="$v"; done

# allow-list and per-file policy
mapfile -t allow < <(sed -e 's/#.*//' -e 's/[[:space:]]//g' "$allowed" | grep -v '^$')
for a in "${allow[@]}"; do
  [[ "$a" =~ ^[A-Za-z_][A-Za-z0-9_\']*(\.[A-Za-z_][A-Za-z0-9_\']*)+$ ]] || die_usage "allow-list entry '$a' is not a fully qualified name"
  # the standard axioms come from Coq's standard library; a project name is never allowed
  [[ "$a" == Coq.* ]] || fail "$(basename "$allowed"): '$a' is not a name of Coq's standard library (Coq.*)"
done
declare -A real_ok=()
while read -r f; do
  [ -n "$f" ] || continue
  [ -n "${listed[$f]:-}" ] || fail "$(basename "$realfiles"): $f is not in _CoqProject"
  real_ok[$f]=1
done < <(sed -e 's/#.*//' -e 's/[[:space:]]//g' "$realfiles")

# --- 2. text scan + declared names ------------------------------------------------------------
scan_hits=()
declare -A kind_of=()
decls=()    # "File.v<TAB>name"
claims=()   # "statements/f.v<TAB>claim_p<TAB>property id", from the scan (step 8)
declare -A header_of=()   # statements/f.v -> its Require/Import/Open Scope/Set sentences
scan_out="$work/scan.txt"
(cd "$src" && perl "$scanner" "${theories[@]}") > "$scan_out" || die_usage "coq_scan.pl failed"
while IFS=$'\t' read -r tag a b c; do
  case "$tag" in
    VIOLATION)
      if [ "$text_scan" = 1 ]; then fail "$a: $b"; scan_hits+=("$a: $b"); fi ;;
    DECL)
      key="$a"$'\t'"$c"
      if [ -z "${kind_of[$key]:-}" ]; then decls+=("$key"); kind_of[$key]="$b"; fi ;;
    CLAIM) claims+=("$a"$'\t'"$b"$'\t'"$c") ;;
    HEADER) header_of[$a]+="$b."$'\n' ;;
  esac
done < "$scan_out"

# --- 3. citations ---------------------------------------------------------------------------
ncite=0
if [ -d "$props" ]; then
  while read -r cite; do
    [ -n "$cite" ] || continue
    ncite=$((ncite + 1))
    file="${cite#proofs/}"; file="${file%%:*}"; name="${cite#*:}"
    if [ -z "${listed[$file]:-}" ]; then
      fail "dangling citation: $cite ($file is not in _CoqProject)"
    elif [ -z "${kind_of[$file$'\t'$name]:-}" ]; then
      fail "dangling citation: $cite ($file declares no constant '$name')"
    elif [ "${kind_of[$file$'\t'$name]}" != theorem ]; then
      # a Definition : Prop is the claim, not a proof of it; a field is assumed by its record
      fail "citation $cite names a ${kind_of[$file$'\t'$name]}, not a theorem (Theorem, Lemma, Example, ...): a property cites proofs"
    fi
  done < <(grep -rhoE "proofs/[A-Za-z0-9_]+\.v:[A-Za-z_][A-Za-z0-9_']*" "$props" 2>/dev/null | sort -u)
fi

# --- 4. build from clean --------------------------------------------------------------------
build="$work/build"
mkdir -p "$build"
cp "$src/_CoqProject" "$build/" || die_usage "cannot copy _CoqProject"
for v in "${theories[@]}"; do
  [ -f "$src/$v" ] && mkdir -p "$build/$(dirname "$v")" && cp "$src/$v" "$build/$v"
done
t0=$(date +%s)
built=1
# TIMED=1: coq_makefile's make prints "File.vo (real: s, user: s, ...)" as each theory is done.
if ! (cd "$build" && COQBIN="$(dirname "$coqc")/" "$coq_makefile" -f _CoqProject -o Makefile.coq \
      && make -f Makefile.coq -j"$jobs" TIMED=1 COQBIN="$(dirname "$coqc")/") 2>&1 \
    | tee "$work/build.log" \
    | sed -un 's/^\([A-Za-z0-9_/]*\)\.vo (real: \([0-9.]*\), user: \([0-9.]*\).*/audit: built   \1.v  \2 s (user \3 s)/p'; then
  built=0
  fail "building the theories from clean failed:"
  # Coq's error with the file and line it names (the warnings before it are noise)
  if grep -q '^Error' "$work/build.log"; then
    grep -B 1 -A 8 '^Error' "$work/build.log" | grep -v '^COQ\|^make\|\.vo (real\|^Command exited' | head -n 20 | sed 's/^/    /'
  else
    grep -v '^COQ\|^make\|\.vo (real' "$work/build.log" | tail -n 20 | sed 's/^/    /'
  fi
fi
t1=$(date +%s)
echo "audit: built ${#theories[@]} theories from clean in $((t1 - t0)) s"

# --- 5. coqchk: Coq's independent checker re-checks the project's .vo files -----------------
# Its `checking cst:` lines list every constant of every project library (Coq's own list); its
# context summary (-o) lists the axioms and the checks that were switched off.
declare -A chk_of=()      # "File.v<TAB>name" -> 1 for every constant coqchk lists
chk_decls=()              # the same, in coqchk's order
chk_extra=()              # axioms coqchk reports outside the allow-list, to be shown sealed
chk_ran=0
cur="" curmod=""
if [ "$built" = 1 ]; then
  chk_args=()
  for v in "${theories[@]}"; do chk_args+=(-norec "ICLProof.$(modname "$v")"); done
  tc0=$(date +%s)
  (cd "$build" && exec "$coqchk" -o -Q . ICLProof "${chk_args[@]}") > "$work/coqchk.log" 2>&1
  chk_rc=$?
  # one coqchk run for all theories (each run loads the libraries again, ~1.5 s): one line per
  # theory with the constants it re-checked, and the run's seconds.
  tc1=$(date +%s)
  if [ "$chk_rc" != 0 ]; then
    fail "coqchk rejected the library (exit $chk_rc):"
    grep -v '^\[intern\|^ done\]\|^$\|^  checking' "$work/coqchk.log" | tail -n 20 | sed 's/^/    /'
  else
    chk_ran=1
  fi
  cur=""
  declare -A chk_count=()
  while IFS= read -r l; do
    case "$l" in
      'Checking library: ICLProof.'*) curmod="${l#Checking library: ICLProof.}"; cur="${file_of_mod[$curmod]:-$curmod.v}" ;;
      '  checking cst:ICLProof.'*)
        full="${l#  checking cst:ICLProof.}"
        if [ -n "$cur" ] && [[ "$full" == "$curmod".* ]]; then f="$cur"; n="${full#"$curmod".}"
        else f="${full%%.*}.v"; n="${full#*.}"; fail "coqchk: constant ICLProof.$full checked under library ${cur:-none}"
        fi
        if [ -z "${chk_of[$f$'\t'$n]:-}" ]; then chk_of[$f$'\t'$n]=1; chk_decls+=("$f"$'\t'"$n"); fi
        chk_count[$f]=$(( ${chk_count[$f]:-0} + 1 )) ;;
    esac
  done < "$work/coqchk.log"
  if [ "$chk_ran" = 1 ]; then
    for v in "${theories[@]}"; do echo "audit: coqchk  $v  ${chk_count[$v]:-0} constants re-checked"; done
    # the context summary
    summary="$(sed -n '/^CONTEXT SUMMARY/,$p' "$work/coqchk.log")"
    [ -n "$summary" ] || fail "coqchk printed no CONTEXT SUMMARY (-o)"
    grep -q '^\* Theory: Set is predicative' <<< "$summary" || fail "coqchk: the theory is not 'Set is predicative'"
    for sec in 'type-in-type' 'unsafe (co)fixpoints' 'Inductives whose positivity is assumed'; do
      line="$(grep -F "$sec" <<< "$summary" | head -n 1)"
      case "$line" in
        *'<none>'*) ;;
        '') fail "coqchk: no '$sec' line in the context summary" ;;
        *) # the entries follow on indented lines
           ents="$(awk -v s="$sec" 'index($0, s) {on = 1; next} on && /^\* / {exit} on && /^    [^ ]/ {sub(/^ +/, ""); print}' <<< "$summary" | tr '\n' ' ')"
           fail "coqchk: relying on $sec: ${ents:-$line}" ;;
      esac
    done
    declare -A allowed_set=()
    for a in "${allow[@]}"; do allowed_set[$a]=1; done
    while IFS= read -r a; do
      [ -n "$a" ] || continue
      if [ -n "${allowed_set[$a]:-}" ]; then :
      elif [[ "$a" == ICLProof.* ]]; then fail "coqchk: axiom $a (declared in a project theory)"
      else chk_extra+=("$a")
      fi
    done < <(awk '/^\* Axioms:/ {on = 1; next} on && /^\* / {exit} on && /^    [^ ]/ {sub(/^ +/, ""); print}' <<< "$summary")
    echo "audit: coqchk re-checked ${#theories[@]} theories (${#chk_decls[@]} constants) in $((tc1 - tc0)) s; ${#chk_extra[@]} reported axioms outside the allow-list to be shown sealed-module fields"
  fi
fi

# Coq's list against the scan's: every constant coqchk lists must be one the scan lists (or a
# scheme of a scanned inductive), and every constant the scan lists (inductives aside: coqchk
# does not print them) must be one coqchk lists.
declare -A scheme_of=()
if [ "$chk_ran" = 1 ]; then
  for d in "${chk_decls[@]}"; do
    [ -n "${kind_of[$d]:-}" ] && continue
    f="${d%%$'\t'*}"; n="${d#*$'\t'}"
    base="$(sed -E 's/_(rect|ind|rec|sind)$//' <<< "$n")"
    if [ "$base" != "$n" ] && [ "${kind_of[$f$'\t'$base]:-}" = inductive ]; then
      scheme_of[$d]=1
    else
      fail "$f:$n: a constant Coq lists (coqchk) that the text scan did not (the scan cannot follow the command that made it)"
    fi
  done
  for d in "${decls[@]}"; do
    [ "${kind_of[$d]}" = inductive ] && continue
    [ -n "${chk_of[$d]:-}" ] || fail "${d%%$'\t'*}:${d#*$'\t'}: the text scan lists it but Coq's checker has no such constant"
  done
fi

# --- 6. generated Audit_<k>.v: Print Assumptions of every constant, Locate of every allowed axiom --
# One file per theory (its constants), JOBS run at a time; each Requires the same modules (so
# names print the same way) and Locates every allowed name itself.  The constants audited are
# coqchk's list plus the scan's inductives; without coqchk's list (it failed), the scan's.
audit_decls=()
if [ "$chk_ran" = 1 ]; then
  audit_decls=("${chk_decls[@]}")
  for d in "${decls[@]}"; do [ "${kind_of[$d]}" = inductive ] && audit_decls+=("$d"); done
else
  audit_decls=("${decls[@]}")
fi
decls=("${audit_decls[@]}")
for d in "${decls[@]}"; do
  if [ -z "${kind_of[$d]:-}" ]; then
    if [ -n "${scheme_of[$d]:-}" ]; then kind_of[$d]=scheme; else kind_of[$d]=unlisted; fi
  fi
done
mkdir -p "$build/pa" "$build/loc" "$build/why" "$build/sealed"
require_line() {
  printf 'From ICLProof Require'
  for v in "${theories[@]}"; do printf ' %s' "$(modname "$v")"; done
  printf '.\n'
}
nparts=${#theories[@]}
declare -A part_of=()     # constant index -> part
for ((p = 0; p < nparts; p++)); do
  th="${theories[$p]}"
  {
    echo "(* Generated by proofs/audit.sh (part $((p + 1)) of $nparts, $th): Print Assumptions of"
    echo "   the constants of that theory, then Locate of every name of allowed_axioms.txt."
    echo "   Requires the project's modules and nothing else.  Do not edit. *)"
    require_line
    for ((i = 0; i < ${#decls[@]}; i++)); do
      d="${decls[$i]}"; f="${d%%$'\t'*}"; n="${d#*$'\t'}"
      [ "$f" = "$th" ] || continue
      part_of[$i]=$p
      echo "Redirect \"pa/$i\" Print Assumptions ICLProof.$(modname "$f").$n."
    done
    if [ "$p" = 0 ]; then
      for ((i = 0; i < ${#chk_extra[@]}; i++)); do
        echo "Redirect \"sealed/$i\" Print Assumptions ${chk_extra[$i]}."
      done
    fi
    for ((i = 0; i < ${#allow[@]}; i++)); do
      echo "Redirect \"loc/$p.$i\" Locate ${allow[$i]}."
    done
  } > "$build/Audit_$((p + 1)).v"
  cp "$build/Audit_$((p + 1)).v" "$(dirname "$out")/" 2>/dev/null || true
done
coq_version="$("$coqc" --version 2>/dev/null | head -n 1)"
ran=0
if [ "$built" = 1 ]; then
  declare -A part_count=()
  for ((i = 0; i < ${#decls[@]}; i++)); do
    part_count[${part_of[$i]}]=$(( ${part_count[${part_of[$i]}]:-0} + 1 ))
  done
  # run_part P: coqc on Audit_P.v; prints its theory, constants and seconds as it ends
  run_part() {
    local s0=$EPOCHREALTIME rc secs
    (cd "$build" && exec "$coqc" -q -w -notation-overridden,-ambiguous-paths -Q . ICLProof "Audit_$1.v") \
      > "$work/audit_run_$1.log" 2>&1
    rc=$?
    secs="$(awk -v a="$s0" -v b="$EPOCHREALTIME" 'BEGIN {printf "%.1f", b - a}')"
    echo "$rc $secs" > "$work/part_$1.time"
    echo "audit: Print Assumptions  ${theories[$(($1 - 1))]}  ${part_count[$(($1 - 1))]:-0} constants  $secs s"
    return "$rc"
  }
  ran=1
  running=0
  for ((p = 1; p <= nparts; p++)); do
    if [ "$running" -ge "$jobs" ]; then wait -n; running=$((running - 1)); fi
    run_part "$p" &
    running=$((running + 1))
  done
  wait
  for ((p = 1; p <= nparts; p++)); do
    read -r rc secs < "$work/part_$p.time" 2>/dev/null || rc=1
    if [ "$rc" != 0 ]; then
      ran=0
      fail "coqc on the generated Audit_$p.v failed:"
      head -n 20 "$work/audit_run_$p.log" | sed 's/^/    /'
    fi
  done
fi
t2=$(date +%s)
[ "$ran" = 1 ] && echo "audit: Print Assumptions of ${#decls[@]} constants in $((t2 - t1)) s ($nparts runs, $jobs at a time)"

# locate_entries QUERIED FILE...: the entries of the outputs of `Locate QUERIED`, one per object
# found, as "<file><TAB><full path><TAB><shortest name>".  Locate adds "(shorter name to refer
# to it in current context is S)" exactly when the shortest name S differs from QUERIED.  With
# QUERIED = -, the query of FILE loc/P.I.out is line I + 1 of $build/allow.txt.  One perl run
# reads every file (one run per file was 25 x 103 processes).
locate_entries() {
  Q="$1" ALLOW="$build/allow.txt" perl -e '
    my @allow; if ($ENV{Q} eq "-") { open(my $a, "<", $ENV{ALLOW}) or die; @allow = <$a>; chomp @allow }
    for my $f (@ARGV) {
      my $q = $ENV{Q};
      if ($q eq "-") { my ($i) = $f =~ /\.(\d+)\.out$/ or next; $q = $allow[$i] }
      open(my $h, "<", $f) or next; local $/; my $t = <$h>; close $h;
      $t =~ s/\n[ \t]+/ /g;
      for (split /\n/, $t) { if (/^(?:Constant|Inductive|Constructor) (\S+)(?: \(shorter name to refer to it in current context is (\S+)\))?\s*$/) { print "$f\t$1\t", (defined $2 ? $2 : $q), "\n" } }
    }' "${@:2}"
}
# allowed_by_short[part,shortest name] = fully qualified allowed name, from that part's Locates
declare -A allowed_by_short=()
if [ "$ran" = 1 ]; then
  printf '%s\n' "${allow[@]}" > "$build/allow.txt"
  shopt -s nullglob
  loc_files=("$build"/loc/*.out)
  shopt -u nullglob
  while IFS=$'\t' read -r file full short; do
    pi="${file##*/}"; pi="${pi%.out}"; p="${pi%%.*}"; i="${pi#*.}"
    [ "$full" = "${allow[$i]}" ] && allowed_by_short[$p,$short]="${allow[$i]}"
  done < <([ "${#loc_files[@]}" = 0 ] || locate_entries - "${loc_files[@]}")
fi

# The records of Print Assumptions reports: CLOSED, AXIOM<TAB>name (the printed name of an
# assumption: a line `name : type`, or `name` followed by an indented `: type`), or BAD<TAB>line
# for every other line that does not continue an entry.  report_records DIR: one perl run over
# every DIR/K.out (one run per constant was 800 processes), its records in records_of[K], one
# per line.
declare -A records_of=()
report_records() {
  local k tag val
  records_of=()
  shopt -s nullglob
  local files=("$1"/*.out)
  shopt -u nullglob
  [ "${#files[@]}" -gt 0 ] || return 0
  while IFS=$'\t' read -r k tag val; do
    records_of[$k]+="$tag"$'\t'"$val"$'\n'
  done < <(perl -e '
    for my $f (@ARGV) {
      my ($k) = $f =~ m{([^/]+)\.out$}; open(my $h, "<", $f) or next; my @l = <$h>; close $h;
      chomp @l; my $all = join(" ", @l); $all =~ s/\s+/ /g; $all =~ s/^ | $//g;
      if ($all eq "Closed under the global context") { print "$k\tCLOSED\t\n"; next }
      my $i = 0; $i++ while $i < @l && $l[$i] eq "";
      if ($i >= @l || $l[$i] ne "Axioms:") { print "$k\tBAD\t", ($i < @l ? $l[$i] : "(empty)"), "\n"; next }
      my $entry = 0;
      for ($i++; $i < @l; $i++) {
        my $x = $l[$i];
        next if $x eq "";
        if ($x =~ /^\s/) { print "$k\tBAD\t$x\n" unless $entry; next }
        if ($x =~ /^(\S+) :(?: |$)/) { print "$k\tAXIOM\t$1\n"; $entry = 1; next }
        if ($x =~ /^(\S+)$/) { my $name = $1; if ($i + 1 < @l && $l[$i + 1] =~ /^\s+: /) { print "$k\tAXIOM\t$name\n"; $entry = 1; next } }
        print "$k\tBAD\t$x\n"; $entry = 0;
      }
    }' "${files[@]}")
}

# coqchk's axioms outside the allow-list: each must be a sealed-module field of an installed
# library, i.e. Print Assumptions of it names only allowed axioms (an axiom names itself).
if [ "$ran" = 1 ]; then
  report_records "$build/sealed"
  for ((i = 0; i < ${#chk_extra[@]}; i++)); do
    a="${chk_extra[$i]}" bad=""
    if [ ! -s "$build/sealed/$i.out" ]; then bad="no Print Assumptions output"
    else
      while IFS=$'\t' read -r tag val; do
        case "$tag" in
          CLOSED) ;;
          AXIOM) [ -n "${allowed_by_short[0,$val]:-}" ] || bad="${bad:+$bad, }$val" ;;
          *) bad="${bad:+$bad, }'$val'" ;;
        esac
      done <<< "${records_of[$i]%$'\n'}"
    fi
    [ -z "$bad" ] || fail "coqchk: axiom $a is not in $(basename "$allowed") and is not a sealed-module field (Print Assumptions of it: $bad)"
  done
fi

# --- 7. verdicts ------------------------------------------------------------------------------
tv0=$(date +%s)
[ "$ran" = 1 ] && report_records "$build/pa"
entries=()
declare -A unknown=()    # printed name -> 1, resolved below for the report
results=()               # i US status US reason US names (space-separated, printed form)
for ((i = 0; i < ${#decls[@]}; i++)); do
  d="${decls[$i]}"; f="${d%%$'\t'*}"; n="${d#*$'\t'}"
  p="${part_of[$i]:-0}"
  pa="$build/pa/$i.out"
  status="failed"; reason=""; names=""
  if [ "$ran" != 1 ]; then
    reason="not checked: the build or the audit run failed"
  elif [ ! -s "$pa" ]; then
    reason="no Print Assumptions output"
  else
    ok=1; closed=0; nents=0
    while IFS=$'\t' read -r tag val; do
      case "$tag" in
        CLOSED) closed=1 ;;
        AXIOM)
          [ -n "$val" ] || { ok=0; reason="${reason:+$reason; }an assumption without a name"; continue; }
          nents=$((nents + 1)); names="${names:+$names }$val"
          if [ -z "${allowed_by_short[$p,$val]:-}" ]; then
            ok=0; unknown[$val]=1; reason="${reason:+$reason; }assumption '$val' is not in $(basename "$allowed")"
          fi ;;
        *) ok=0; reason="${reason:+$reason; }not an assumption of the form 'name : type': '$val'" ;;
      esac
    done <<< "${records_of[$i]%$'\n'}"
    if [ "$closed" = 1 ]; then status="closed"
    elif [ "$ok" = 1 ] && [ "$nents" -gt 0 ]; then
      if [ -n "${real_ok[$f]:-}" ]; then status="standard-axioms"
      else reason="uses allowed axioms, but $f is not in $(basename "$realfiles"): its constants must be closed"
      fi
    fi
    [ "$status" != failed ] || [ -n "$reason" ] || reason="unrecognised Print Assumptions output"
  fi
  results+=("$i"$'\x1f'"$status"$'\x1f'"$reason"$'\x1f'"$names")
done

# Resolve the names that were not allowed to their full paths (a second run, only on failure).
declare -A full_of=()
if [ "${#unknown[@]}" -gt 0 ]; then
  k=0; declare -A loc_idx=()
  {
    require_line
    for a in "${!unknown[@]}"; do echo "Redirect \"why/$k\" Locate $a."; loc_idx[$a]=$k; k=$((k + 1)); done
  } > "$build/AuditWhy.v"
  if (cd "$build" && "$coqc" -q -w -notation-overridden,-ambiguous-paths -Q . ICLProof AuditWhy.v) > "$work/why.log" 2>&1; then
    for a in "${!unknown[@]}"; do
      while IFS=$'\t' read -r full short; do
        [ "$short" = "$a" ] && full_of[$a]="$full"
      done < <(locate_entries "$a" "$build/why/${loc_idx[$a]}.out" | cut -f 2-)
    done
  fi
fi

for r in "${results[@]}"; do
  IFS=$'\x1f' read -r i status reason names <<< "$r"
  d="${decls[$i]}"; f="${d%%$'\t'*}"; n="${d#*$'\t'}"
  list=""
  for a in $names; do
    full="${full_of[$a]:-$a}"
    for ((p = 0; p < nparts; p++)); do [ -n "${allowed_by_short[$p,$a]:-}" ] && full="${allowed_by_short[$p,$a]}"; done
    json_quote q "$full"; list="${list:+$list,}$q"
    reason="${reason//"'$a' is not in"/"'$full' is not in"}"
  done
  [ "$status" = failed ] && fail "$f:$n: $reason"
  json_quote qf "proofs/$f"; json_quote qn "$n"
  entry="{\"file\":$qf,\"name\":$qn,\"kind\":\"${kind_of[$d]}\",\"status\":\"$status\",\"assumptions\":[$list]"
  if [ -n "$reason" ]; then json_quote q "$reason"; entry="$entry,\"reason\":$q"; fi
  entries+=("$entry}")
  printf '  %-16s %-10s %s\n' "$status" "${kind_of[$d]}" "$f:$n"
done

echo "audit: verdicts of ${#decls[@]} constants in $(( $(date +%s) - tv0 )) s"

# --- 8. statement files: every claim has its check, of exactly its type, and its witness --------
# The claims come from the scan (CLAIM: claim_<p> with premises_<p> and witness_<p> in the same
# statement file).  Coq's side: one generated file, AuditStatements.v, Requires every statement
# and check module and nothing else and asks, per claim, whether the type of
# ICLProof.statements.<f>_check.check_<p> is SYNTACTICALLY ICLProof.statements.<f>.claim_<p>
# (Ltac's constr_eq: no conversion, no coercion); one file per family, AuditPrint_<f>.v,
# Requires only the statement module (after the statement file's own Require/Import/Open Scope
# sentences, so mathcomp's notations print as written there and no project notation exists) and
# prints each claim.  check_<p> and witness_<p> get the verdicts of step 7 (closed, or the
# allowed axioms in a file of real_analysis_files.txt).
declare -A const_status=()
for r in "${results[@]}"; do
  IFS=$'\x1f' read -r i status _ _ <<< "$r"
  const_status[${decls[$i]}]="$status"
done
stmt_entries=()
declare -A claim_of_check=()
# The header of statements_printed.txt (= the checked-in proofs/statements/printed.txt).
printed_header() {
  cat <<'HEADER'
# proofs/statements/printed.txt -- GENERATED by proofs/audit.sh (statements_printed.txt beside
# audit.json); do not edit: `cmake --build build --target update_statements_printed` copies it
# here after the audit. Every claim of proofs/statements/<family>.v whose check_ has exactly
# its type and whose witness passed, as Coq prints it. The C++ side embeds this file (the
# static ledger of harness/statement_ledger.hpp); the ctest proofs.statements_printed_agree
# fails while it differs from what Coq prints.
HEADER
}
printed_out="$(dirname "$out")/statements_printed.txt"
if [ "${#claims[@]}" -gt 0 ]; then
  ts0=$(date +%s)
  mkdir -p "$build/stmt"
  stmt_mods=() stmt_fams=()
  for v in "${theories[@]}"; do
    [[ "$v" == statements/* ]] || continue
    stmt_mods+=("$(modname "$v")")
    [[ "$v" == *_check.v ]] || stmt_fams+=("$v")
  done
  {
    echo "(* Generated by proofs/audit.sh: is the type of each check_<p> exactly claim_<p>?"
    echo "   Requires the statement and check modules and nothing else.  Do not edit. *)"
    printf 'From ICLProof Require'; printf ' %s' "${stmt_mods[@]}"; printf '.\n'
    for ((k = 0; k < ${#claims[@]}; k++)); do
      IFS=$'\t' read -r sf cn _ <<< "${claims[$k]}"
      cf="${sf%.v}_check.v" ck="check_${cn#claim_}"
      claim_of_check[$cf$'\t'$ck]=1
      [ -n "${const_status[$cf$'\t'$ck]:-}" ] || continue
      echo "Redirect \"stmt/type_$k\" Check ICLProof.$(modname "$cf").$ck."
    done
    echo "Goal True."
    for ((k = 0; k < ${#claims[@]}; k++)); do
      IFS=$'\t' read -r sf cn _ <<< "${claims[$k]}"
      cf="${sf%.v}_check.v" ck="check_${cn#claim_}"
      [ -n "${const_status[$cf$'\t'$ck]:-}" ] || continue
      echo "first [ (let T := type of ICLProof.$(modname "$cf").$ck in constr_eq T ICLProof.$(modname "$sf").$cn); idtac \"STATEMENT-CHECK $k same-type\" | idtac \"STATEMENT-CHECK $k other-type\" ]."
    done
    echo "Abort."
  } > "$build/AuditStatements.v"
  cp "$build/AuditStatements.v" "$(dirname "$out")/" 2>/dev/null || true
  for sf in "${stmt_fams[@]}"; do
    fam="$(basename "${sf%.v}")"
    {
      echo "(* Generated by proofs/audit.sh: the claims of $sf as Coq prints them, in the context"
      echo "   of that file's own Require/Import/Open Scope sentences.  Do not edit. *)"
      printf '%s' "${header_of[$sf]:-}"
      echo "From ICLProof Require Import $(modname "$sf")."
      echo "Set Printing Width 100."
      for ((k = 0; k < ${#claims[@]}; k++)); do
        IFS=$'\t' read -r f2 cn _ <<< "${claims[$k]}"
        [ "$f2" = "$sf" ] && echo "Redirect \"stmt/print_$k\" Print ICLProof.$(modname "$sf").$cn."
      done
    } > "$build/AuditPrint_$fam.v"
    cp "$build/AuditPrint_$fam.v" "$(dirname "$out")/" 2>/dev/null || true
  done
  stmt_ran=0
  if [ "$built" = 1 ]; then
    stmt_ran=1
    run_stmt() {
      (cd "$build" && exec "$coqc" -q -w -notation-overridden,-ambiguous-paths -Q . ICLProof "$1") \
        > "$work/${1%.v}.log" 2>&1 || { echo "$1" >> "$work/stmt_failed"; }
    }
    running=0
    for g in AuditStatements.v "${stmt_fams[@]}"; do
      [ "$g" = AuditStatements.v ] || g="AuditPrint_$(basename "${g%.v}").v"
      if [ "$running" -ge "$jobs" ]; then wait -n; running=$((running - 1)); fi
      run_stmt "$g" &
      running=$((running + 1))
    done
    wait
    if [ -s "$work/stmt_failed" ]; then
      stmt_ran=0
      while read -r g; do
        fail "coqc on the generated $g failed:"
        head -n 20 "$work/${g%.v}.log" | sed 's/^/    /'
      done < "$work/stmt_failed"
    fi
  fi
  : > "$printed_out.tmp"
  nchecked=0
  for ((k = 0; k < ${#claims[@]}; k++)); do
    IFS=$'\t' read -r sf cn prop <<< "${claims[$k]}"
    p="${cn#claim_}" cf="${sf%.v}_check.v"
    ck="check_$p" wn="witness_$p"
    check="failed" check_reason="" witness="${const_status[$sf$'\t'$wn]:-missing}"
    statement=""
    if [ -s "$build/stmt/print_$k.out" ]; then
      statement="$(sed -e 's/[[:space:]]*$//' "$build/stmt/print_$k.out" | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}')"
    fi
    if [ "$built" != 1 ] || [ "$stmt_ran" != 1 ]; then
      check="not checked"; check_reason="the build or the generated statement files failed"
    elif [ -z "${listed[$cf]:-}" ]; then
      check="missing"; check_reason="no check file $cf"
    elif [ -z "${const_status[$cf$'\t'$ck]:-}" ]; then
      check="missing"; check_reason="$cf declares no $ck"
    elif grep -qx "STATEMENT-CHECK $k same-type" "$work/AuditStatements.log"; then
      case "${const_status[$cf$'\t'$ck]}" in
        closed | standard-axioms) check="checked" ;;
        *) check="failed"; check_reason="$cf:$ck did not pass the axiom rules (step 7)" ;;
      esac
    elif grep -qx "STATEMENT-CHECK $k other-type" "$work/AuditStatements.log"; then
      check="wrong type"
      check_reason="the type of $cf:$ck is not ICLProof.$(modname "$sf").$cn: Coq checks $(tr -s ' \n' '  ' < "$build/stmt/type_$k.out" 2>/dev/null)"
    else
      check="failed"; check_reason="no answer from AuditStatements.v"
    fi
    [ -n "$statement" ] || { [ "$stmt_ran" != 1 ] || fail "$sf:$cn: Coq printed no statement"; }
    [ "$check" = checked ] || fail "$sf:$cn: check $check: $check_reason"
    case "$witness" in
      closed | standard-axioms) ;;
      missing) fail "$sf:$cn: no constant $wn (the witness of its premises)" ;;
      *) fail "$sf:$cn: witness $wn $witness" ;;
    esac
    if [ "$check" = checked ] && { [ "$witness" = closed ] || [ "$witness" = standard-axioms ]; }; then
      nchecked=$((nchecked + 1))
      printf '== %s %s\n%s\n' "$prop" "$cn" "$statement" >> "$printed_out.tmp"
    fi
    # Coq's line breaks kept in the JSON string (\n)
    json_quote qf "proofs/$sf"; json_quote qp "$prop"; json_quote qc "$cn"; json_quote qr "$check_reason"
    qs="\"$(sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/\t/\\t/g' <<< "$statement" | sed ':a;N;$!ba;s/\n/\\n/g')\""
    stmt_entries+=("{\"family\":\"$(basename "${sf%.v}")\",\"property\":$qp,\"file\":$qf,\"claim\":$qc,\"statement\":$qs,\"check\":\"$check\",\"check_reason\":$qr,\"witness\":\"$witness\"}")
    printf '  %-16s witness %-16s %s\n' "check $check" "$witness" "$sf:$cn ($prop)"
  done
  # sorted by property id, so the file does not depend on the order of _CoqProject
  { printed_header; perl -0777 -ne 'my @b = split /^(?=== )/m; print sort @b' "$printed_out.tmp"; } > "$printed_out"
  rm -f "$printed_out.tmp"
  echo "audit: statement files: ${#claims[@]} claims, $nchecked with a check of exactly their type and a witness, in $(( $(date +%s) - ts0 )) s"
else
  printed_header > "$printed_out"
  echo "audit: statement files: no claim"
fi
# A check_ in a check file proves no claim of its statement file: a misnamed check.
for d in "${decls[@]}"; do
  f="${d%%$'\t'*}" n="${d#*$'\t'}"
  [[ "$f" == statements/*_check.v && "$n" == check_* ]] || continue
  [ -n "${claim_of_check[$d]:-}" ] || fail "$f:$n: proves no claim of ${f%_check.v}.v (no well-formed claim_${n#check_} there)"
done

# Fail closed: every declared constant must have exactly one verdict.
[ "${#results[@]}" = "${#decls[@]}" ] && [ "${#entries[@]}" = "${#decls[@]}" ] \
  || fail "internal: ${#decls[@]} constants but ${#results[@]} verdicts and ${#entries[@]} entries"
[ "${#decls[@]}" -gt 0 ] || fail "no constant declared by the theories"

scan_json=""
for s in "${scan_hits[@]+"${scan_hits[@]}"}"; do scan_json="${scan_json:+$scan_json,}$(json_str "$s")"; done
err_json=""
for s in "${errors[@]+"${errors[@]}"}"; do err_json="${err_json:+$err_json,}$(json_str "$s")"; done
okj=true; [ "$failed" = 0 ] || okj=false
{
  printf '{"schema":3,"ok":%s,"coq_version":%s,"generated_utc":"%s","text_scan":[%s],"errors":[%s],"theorems":[' \
    "$okj" "$(json_str "$coq_version")" "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$scan_json" "$err_json"
  for ((i = 0; i < ${#entries[@]}; i++)); do
    [ "$i" = 0 ] || printf ','
    printf '\n  %s' "${entries[$i]}"
  done
  printf '\n],"statements":['
  for ((i = 0; i < ${#stmt_entries[@]}; i++)); do
    [ "$i" = 0 ] || printf ','
    printf '\n  %s' "${stmt_entries[$i]}"
  done
  printf '\n]}\n'
} > "$out.tmp" && mv "$out.tmp" "$out" || { echo "audit.sh: error: cannot write '$out'" >&2; exit 2; }

nclosed=0 nstd=0
for r in "${results[@]}"; do
  case "$r" in *$'\x1f'closed$'\x1f'*) nclosed=$((nclosed + 1)) ;; *$'\x1f'standard-axioms$'\x1f'*) nstd=$((nstd + 1)) ;; esac
done
if [ "$failed" = 0 ]; then
  echo "audit: ${#decls[@]} constants of ${#theories[@]} theories checked ($nclosed closed, $nstd standard-axioms), $ncite citations resolved, no admits -> $out"
  exit 0
fi
echo "audit: FAILED (see AUDIT FAIL lines above) -> $out"
exit 1
