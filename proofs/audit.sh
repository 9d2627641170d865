#!/usr/bin/env bash
# audit.sh -- the proof audit of iclproof.
#
# Fails (exit 1) when
#   1. any proofs/*.v source (comments and strings stripped) contains Admitted, admit, give_up,
#      Axiom(s), Parameter(s), Conjecture(s), Admit Obligations or an Unset ... Checking flag;
#   2. a `Theorem`/`Corollary`/`Proposition` of a file listed in _CoqProject is missing from the
#      headline list in Audit.v (every headline theorem is audited, not a hand-picked subset);
#   3. `Print Assumptions` of a headline theorem (run in THIS invocation on the compiled .vo files)
#      names anything that is not in allowed_axioms.txt, or prints anything unrecognised.
# Writes audit.json (schema 1):
#   {"schema":1, "ok":bool, "coq_version":"...", "generated_utc":"...", "text_scan":[...],
#    "theorems":[{"file":"proofs/X.v","name":"...","status":"closed"|"standard-axioms"|"failed",
#                 "assumptions":[...]}]}
# "closed" = "Closed under the global context"; "standard-axioms" = only names from
# allowed_axioms.txt (Interval/Coquelicot's real-number and primitive-float axioms).
#
# Usage: audit.sh --src DIR --vo DIR --out FILE [--allowed FILE] [--coqc PATH] [--no-text-scan]
#   --src  directory holding the sources, _CoqProject and Audit.v (proofs/)
#   --vo   directory holding the compiled .vo files, loaded as -Q DIR ICLProof
#   --out  path of audit.json
# Exit: 0 all good, 1 audit failure, 2 usage / environment error.
set -u -o pipefail

die_usage() { echo "audit.sh: error: $*" >&2; exit 2; }

src="" vo="" out="" allowed="" coqc="coqc" text_scan=1
while [ $# -gt 0 ]; do
  case "$1" in
    --src) src="${2:-}"; shift 2 ;;
    --vo) vo="${2:-}"; shift 2 ;;
    --out) out="${2:-}"; shift 2 ;;
    --allowed) allowed="${2:-}"; shift 2 ;;
    --coqc) coqc="${2:-}"; shift 2 ;;
    --no-text-scan) text_scan=0; shift ;;
    *) die_usage "unknown argument '$1'" ;;
  esac
done
[ -n "$src" ] && [ -d "$src" ] || die_usage "--src DIR is required and must exist"
[ -n "$vo" ] && [ -d "$vo" ] || die_usage "--vo DIR is required and must exist"
[ -n "$out" ] || die_usage "--out FILE is required"
[ -n "$allowed" ] || allowed="$src/allowed_axioms.txt"
[ -f "$allowed" ] || die_usage "allow-list '$allowed' not found"
[ -f "$src/Audit.v" ] || die_usage "'$src/Audit.v' not found"
[ -f "$src/_CoqProject" ] || die_usage "'$src/_CoqProject' not found"
command -v "$coqc" >/dev/null 2>&1 || die_usage "coqc not found ('$coqc')"
command -v perl >/dev/null 2>&1 || die_usage "perl not found"

work="$(mktemp -d "${TMPDIR:-/tmp}/iclproof-audit.XXXXXX")" || die_usage "cannot create a temp dir"
trap 'rm -rf "$work"' EXIT

failed=0
fail() { echo "AUDIT FAIL: $*"; failed=1; }

# Prints the source with (nested) comments and string literals blanked out.
strip_comments() {
  perl -0777 -ne '
    my $s = $_; my $o = ""; my $depth = 0; my $instr = 0;
    for (my $i = 0; $i < length($s); $i++) {
      my $c = substr($s, $i, 1); my $n = substr($s, $i, 2);
      if ($instr) { if ($c eq "\"") { $instr = 0 } $o .= ($c eq "\n" ? "\n" : " "); next }
      if ($n eq "(*") { $depth++; $o .= "  "; $i++; next }
      if ($depth > 0 && $n eq "*)") { $depth--; $o .= "  "; $i++; next }
      if ($depth > 0) { $o .= ($c eq "\n" ? "\n" : " "); next }
      if ($c eq "\"") { $instr = 1; $o .= " "; next }
      $o .= $c;
    }
    print $o;' "$1"
}

# --- 1. text scan --------------------------------------------------------------------------
scan_hits=()
if [ "$text_scan" = 1 ]; then
  forbidden='\b(Admitted|admit|give_up|Axiom|Axioms|Parameter|Parameters|Conjecture|Conjectures)\b|Admit[[:space:]]+Obligations|Unset[[:space:]]+(Guard|Positivity|Universe)[[:space:]]+Checking|Local[[:space:]]+Axiom'
  shopt -s nullglob
  for f in "$src"/*.v; do
    while IFS= read -r hit; do
      [ -n "$hit" ] || continue
      fail "$(basename "$f"):${hit%%:*}: forbidden '${hit#*:}'"
      scan_hits+=("$(basename "$f"):${hit%%:*}: ${hit#*:}")
    done < <(strip_comments "$f" | grep -noE "$forbidden" || true)
  done
  shopt -u nullglob
fi

# --- 2. headline list ------------------------------------------------------------------------
# Audit.v lines of the form `Print Assumptions ICLProof.Module.name.`
strip_comments "$src/Audit.v" > "$work/Audit.stripped.v"
mapfile -t headline < <(sed -nE 's/^[[:space:]]*Print[[:space:]]+Assumptions[[:space:]]+ICLProof\.([A-Za-z0-9_]+)\.([A-Za-z0-9_'"'"']+)[[:space:]]*\.[[:space:]]*$/\1.\2/p' "$work/Audit.stripped.v")
[ "${#headline[@]}" -gt 0 ] || fail "Audit.v lists no 'Print Assumptions ICLProof.Module.name.' line"
if grep -qE 'Print[[:space:]]+Assumptions' <(grep -vE 'Print[[:space:]]+Assumptions[[:space:]]+ICLProof\.[A-Za-z0-9_]+\.[A-Za-z0-9_'"'"']+[[:space:]]*\.[[:space:]]*$' "$work/Audit.stripped.v"); then
  fail "Audit.v has a Print Assumptions line not of the form 'Print Assumptions ICLProof.Module.name.'"
fi
for v in $(grep -oE '[A-Za-z0-9_]+\.v' "$src/_CoqProject"); do
  mod="${v%.v}"
  [ "$mod" = Audit ] && continue
  [ -f "$src/$v" ] || { fail "_CoqProject lists $v but $src/$v does not exist"; continue; }
  while read -r thm; do
    found=0
    for h in "${headline[@]}"; do [ "$h" = "$mod.$thm" ] && found=1; done
    [ "$found" = 1 ] || fail "$v: Theorem $thm is not listed in Audit.v"
  done < <(strip_comments "$src/$v" | sed -nE 's/^[[:space:]]*(Theorem|Corollary|Proposition)[[:space:]]+([A-Za-z0-9_'"'"']+).*/\2/p')
done

# --- 3. Print Assumptions, run now on the compiled files --------------------------------------
mkdir -p "$work/out"
k=0
{
  while IFS= read -r line; do
    if [[ "$line" =~ ^[[:space:]]*Print[[:space:]]+Assumptions[[:space:]]+(ICLProof\.[A-Za-z0-9_]+\.[A-Za-z0-9_\']+)[[:space:]]*\.[[:space:]]*$ ]]; then
      echo "Redirect \"$work/out/$k\" Print Assumptions ${BASH_REMATCH[1]}."
      k=$((k + 1))
    else
      echo "$line"
    fi
  done < "$work/Audit.stripped.v"
} > "$work/AuditRun.v"
coq_version="$("$coqc" --version 2>/dev/null | head -n 1)"
if ! (cd "$work" && "$coqc" -q -w -notation-overridden,-ambiguous-paths -Q "$(cd "$vo" && pwd)" ICLProof AuditRun.v) > "$work/coqc.log" 2>&1; then
  fail "coqc on Audit.v failed (a headline theorem missing or not compiled?):"
  sed 's/^/    /' "$work/coqc.log" | head -n 20
fi

# allow-list: one name per line, '#' comments
mapfile -t allow < <(sed -e 's/#.*//' -e 's/[[:space:]]//g' "$allowed" | grep -v '^$')
is_allowed() { local a; for a in "${allow[@]}"; do [ "$a" = "$1" ] && return 0; done; return 1; }

json_str() { printf '"%s"' "$(printf '%s' "$1" | sed -e 's/\\/\\\\/g' -e 's/"/\\"/g')"; }

entries=()
for ((i = 0; i < ${#headline[@]}; i++)); do
  h="${headline[$i]}"; mod="${h%%.*}"; name="${h#*.}"
  f="$work/out/$i.out"
  status="failed"; assumptions=()
  if [ ! -s "$f" ]; then
    assumptions=("<not checked: no Print Assumptions output>")
    fail "$mod.v:$name: no Print Assumptions output"
  elif grep -q '^Closed under the global context' "$f"; then
    status="closed"
  else
    ok=1; section=""
    while IFS= read -r l; do
      [ -n "$l" ] || continue
      case "$l" in [[:space:]]*) continue ;; esac      # continuation of a type
      if [[ "$l" =~ ^[A-Za-z\ /-]+:$ ]]; then section="$l"
        [ "$section" = "Axioms:" ] || { ok=0; assumptions+=("$section"); fail "$mod.v:$name: '$section'"; }
        continue
      fi
      a="${l%% *}"; a="${a%:}"
      assumptions+=("$a")
      if [ "$section" != "Axioms:" ] || ! is_allowed "$a"; then
        ok=0; fail "$mod.v:$name: assumption '$a' is not in $(basename "$allowed")"
      fi
    done < "$f"
    [ "${#assumptions[@]}" -gt 0 ] || { ok=0; fail "$mod.v:$name: unrecognised Print Assumptions output"; }
    [ "$ok" = 1 ] && status="standard-axioms"
  fi
  list=""
  for a in "${assumptions[@]}"; do list="${list:+$list,}$(json_str "$a")"; done
  entries+=("{\"file\":$(json_str "proofs/$mod.v"),\"name\":$(json_str "$name"),\"status\":\"$status\",\"assumptions\":[$list]}")
  printf '  %-16s %-40s %s\n' "$status" "$mod.v:$name" "${#assumptions[@]} assumption(s)"
done

scan_json=""
for s in "${scan_hits[@]+"${scan_hits[@]}"}"; do scan_json="${scan_json:+$scan_json,}$(json_str "$s")"; done
okj=true; [ "$failed" = 0 ] || okj=false
{
  printf '{"schema":1,"ok":%s,"coq_version":%s,"generated_utc":"%s","text_scan":[%s],"theorems":[' \
    "$okj" "$(json_str "$coq_version")" "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$scan_json"
  for ((i = 0; i < ${#entries[@]}; i++)); do
    [ "$i" = 0 ] || printf ','
    printf '\n  %s' "${entries[$i]}"
  done
  printf '\n]}\n'
} > "$out.tmp" && mv "$out.tmp" "$out" || { echo "audit.sh: error: cannot write '$out'" >&2; exit 2; }

if [ "$failed" = 0 ]; then
  echo "audit: ${#headline[@]} headline theorem(s) checked, no admits, only allowed axioms -> $out"
  exit 0
fi
echo "audit: FAILED (see AUDIT FAIL lines above) -> $out"
exit 1
