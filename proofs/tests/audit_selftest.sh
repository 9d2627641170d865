#!/usr/bin/env bash
# audit_selftest.sh SRC COQC WORKDIR -- shows that the audit rejects every trick it is meant to
# catch, for the right reason, and accepts clean theories: each fixture of tests/fixtures/ is
# audited and the exit status, a line of the audit's output and audit.json are compared with what
# they must be.  "--no-text-scan" runs show that Print Assumptions alone (fully qualified names,
# strict report parsing) rejects the trick too.
set -u -o pipefail
src="$1" coqc="$2" work="$3"
here="$(cd "$(dirname "$0")" && pwd)"
bad=0 n=0
# expect NAME FIXTURE EXIT REGEX_IN_OUTPUT REGEX_IN_JSON [audit options]
expect() {
  local name="$1" fixture="$2" want_rc="$3" out_re="$4" json_re="$5"; shift 5
  local log="$work/$name.log"
  n=$((n + 1))
  mkdir -p "$work"
  bash "$here/run_audit_fixture.sh" "$src" "$coqc" "$here/fixtures/$fixture" "$work/$name" "$@" > "$log" 2>&1
  local rc=$?
  if grep -q 'SET-UP FAILED' "$log"; then echo "FAIL $name: fixture set-up failed"; bad=1
  elif [ "$rc" != "$want_rc" ]; then echo "FAIL $name: audit exit $rc, expected $want_rc"; bad=1
  elif ! grep -Eq -- "$out_re" "$log"; then echo "FAIL $name: output lacks /$out_re/"; bad=1
  elif ! grep -Eq -- "$json_re" "$work/$name/out/audit.json"; then echo "FAIL $name: audit.json lacks /$json_re/"; bad=1
  else echo "ok   $name"; return; fi
  sed 's/^/     | /' "$log"
}
F='"ok":false'
# --- coqchk's own exit status: a checker that prints a clean report but exits 1 (the edge: 1 is
# what coqchk returns on a rejected library) fails the audit, whatever its output says ---------
fake_chk="$work/coqchk_exits_1.sh"
mkdir -p "$work"
printf '#!/bin/sh\n"%s" "$@"\nexit 1\n' "$(dirname "$(command -v "$coqc")")/coqchk" > "$fake_chk"
chmod +x "$fake_chk"
expect coqchk_exit_1       accepts_closed 1 "coqchk rejected the library \(exit 1\)" "$F" --coqchk "$fake_chk"
# --- accepted -------------------------------------------------------------------------------
expect closed              accepts_closed 0 "3 constants of 1 theories checked \(3 closed" '"name":"fixture_uses_hypothesis","kind":"theorem","status":"closed"'
expect standard_axioms     accepts_standard 0 "1 standard-axioms" \
  '"status":"standard-axioms","assumptions":\["Coq.Logic.Classical_Prop.classic"\]'
expect comment_strings     accepts_comment_strings 0 "3 closed" '"ok":true'
# --- Admitted, axioms ---------------------------------------------------------------------------
expect admitted_text       rejects_admitted 1 "Fixture.v:5: forbidden 'Admitted'" "$F"
expect admitted_assume     rejects_admitted 1 "'ICLProof.Fixture.fixture_admitted_claim' is not in allowed_axioms.txt" \
  '"status":"failed"' --no-text-scan
expect axiom_text          rejects_axiom 1 "Fixture.v:2: forbidden 'Axiom'" "$F"
expect axiom_assume        rejects_axiom 1 "'ICLProof.Fixture.fixture_excluded_middle' is not in" '"status":"failed"' --no-text-scan
expect local_axiom         rejects_local_axiom_attribute 1 "Fixture.v:2: forbidden 'Axiom'" "$F"
expect axioms_closed_file  rejects_axioms_in_closed_file 1 "Fixture.v is not in real_analysis_files.txt: its constants must be closed" \
  '"assumptions":\["Coq.Logic.Classical_Prop.classic"\]'
# --- spoofed standard-library names: only fully qualified names tell them apart --------------------
expect spoof_file_text     rejects_spoofed_classical_file 1 "Classical_Prop.v:5: top-level 'Hypothesis'" "$F"
expect spoof_file_assume   rejects_spoofed_classical_file 1 "Spoof.v:spoofed_false: assumption 'ICLProof.Classical_Prop.classic' is not in" \
  '"name":"spoofed_false","kind":"theorem","status":"failed","assumptions":\["ICLProof.Classical_Prop.classic"\]' --no-text-scan
expect spoof_module_text   rejects_spoofed_classical_module 1 "Spoof.v:5: forbidden 'Axiom'" "$F"
expect spoof_module_assume rejects_spoofed_classical_module 1 "assumption 'ICLProof.Spoof.Classical_Prop.classic' is not in" \
  '"assumptions":\["ICLProof.Spoof.Classical_Prop.classic"\]' --no-text-scan
# --- top-level assumptions ------------------------------------------------------------------------
for kw in hypothesis variable variables parameter parameters conjecture context axioms; do
  case $kw in
    parameter|parameters|conjecture|axioms) re="Fixture.v:2: forbidden '${kw^}'" ;;
    *) re="Fixture.v:2: top-level '${kw^}' \(outside a Section it is a global axiom\)" ;;
  esac
  expect "top_$kw" "rejects_top_level_$kw" 1 "$re" "$F"
done
expect succeed_section     rejects_succeed_section 1 "Fixture.v:5: top-level 'Hypothesis'" "$F"
# --- what the scan does not follow is refused; Coq's side (coqchk: its axioms and its list of
# constants; Print Assumptions) rejects the same fixture without the scan ----------------------
C="coqchk: axiom ICLProof.Fixture"
U="a constant Coq lists \\(coqchk\\) that the text scan did not"
expect timeout_text        rejects_timeout_prefix 1 "Fixture.v:4: command prefix 'Timeout'" "$F"
expect timeout_coq         rejects_timeout_prefix 1 "$C.fixture_hidden_false \\(declared in a project theory\\)" \
  '"name":"fixture_timeout_false","kind":"unlisted","status":"failed","assumptions":\["ICLProof.Fixture.fixture_hidden_false"\]' --no-text-scan
expect timeout_module_text rejects_timeout_module 1 "Fixture.v:3: command prefix 'Timeout'" "$F"
expect timeout_module_coq  rejects_timeout_module 1 "Fixture.v:Hidden.fixture_hidden_def: $U" "$F" --no-text-scan
expect timeout_module_coq2 rejects_timeout_module 1 "Fixture.v:fixture_hidden_def: the text scan lists it but Coq's checker has no such constant" "$F" --no-text-scan
expect time_text           rejects_time_prefix 1 "Fixture.v:2: command prefix 'Time'" "$F"
expect time_coq            rejects_time_prefix 1 "$C.fixture_timed_false " "$F" --no-text-scan
expect redirect_text       rejects_redirect_prefix 1 "Fixture.v:3: command prefix 'Redirect'" "$F"
expect redirect_coq        rejects_redirect_prefix 1 "$C.fixture_redirected_false " "$F" --no-text-scan
expect fail_section_text   rejects_fail_section 1 "Fixture.v:3: command prefix 'Fail'" "$F"
expect fail_section_coq    rejects_fail_section 1 "$C.fixture_undone_false " "$F" --no-text-scan
expect section_prefix_text rejects_section_closed_by_prefix 1 "Fixture.v:4: command prefix 'Timeout'" "$F"
expect section_prefix_coq  rejects_section_closed_by_prefix 1 "$C.fixture_outside_false " "$F" --no-text-scan
expect program_text        rejects_program_obligation 1 "Fixture.v:4: command prefix 'Program'" "$F"
expect program_coq         rejects_program_obligation 1 "Fixture.v:fixture_prog_obligation_1: $U" "$F" --no-text-scan
expect attribute_text      rejects_attribute 1 "Fixture.v:4: attribute '#\\[program\\]' is not on the allow-list" "$F"
expect attribute_coq       rejects_attribute 1 "Fixture.v:fixture_prog_attr_obligation_1: $U" "$F" --no-text-scan
expect module_copy_text    rejects_module_copy 1 "Fixture.v:6: 'Module Copy := ...'" "$F"
expect module_copy_coq     rejects_module_copy 1 "Fixture.v:Copy.fixture_base: $U" "$F" --no-text-scan
expect include_text        rejects_include 1 "Fixture.v:6: forbidden 'Include'" "$F"
expect include_coq         rejects_include 1 "Fixture.v:Inc.fixture_base: $U" "$F" --no-text-scan
expect declare_module_text rejects_declare_module 1 "Fixture.v:6: forbidden 'Declare Module'" "$F"
expect declare_module_coq  rejects_declare_module 1 "$C.FixtureDecl.fixture_field " "$F" --no-text-scan
expect sealed_module_text  rejects_sealed_module 1 "Fixture.v:6: 'Module FixtureImpl : ...' \\(a sealed or checked module" "$F"
expect sealed_module_coq   rejects_sealed_module 1 "Fixture.v:FixtureSig.fixture_sig_def: $U" "$F" --no-text-scan
expect elpi_text           rejects_elpi_add_axiom 1 "Fixture.v:4: Require of 'elpi' \\(not an allowed library" "$F"
expect elpi_quote_text     rejects_elpi_add_axiom 1 "Fixture.v:6: forbidden 'lp:\\{\\{ \\}\\}'" "$F"
expect elpi_coq            rejects_elpi_add_axiom 1 "$C.fixture_elpi_axiom " \
  '"name":"fixture_elpi_false","kind":"unlisted","status":"failed","assumptions":\["ICLProof.Fixture.fixture_elpi_axiom"\]' --no-text-scan
expect elpi_ring_text      rejects_elpi_via_ring 1 "Fixture.v:4: forbidden 'Elpi' \\(a Coq-Elpi command" "$F"
expect elpi_ring_coq       rejects_elpi_via_ring 1 "$C.fixture_ring_axiom " "$F" --no-text-scan
# An allow-list naming a project constant is rejected (only Coq.* names may be allowed).
mkdir -p "$work" && { cat "$src/allowed_axioms.txt"; echo ICLProof.Fixture.fixture_assumed; } > "$work/allow_project.txt"
expect allow_project_name  rejects_top_level_hypothesis 1 "allow_project.txt: 'ICLProof.Fixture.fixture_assumed' is not a name of Coq's standard library" \
  "$F" --no-text-scan --allowed "$work/allow_project.txt"
expect top_hypothesis_assume rejects_top_level_hypothesis 1 "'ICLProof.Fixture.fixture_assumed' is not in" '"status":"failed"' --no-text-scan
# --- kernel checks switched off -------------------------------------------------------------------
expect bypass_guard        rejects_bypass_guard 1 "Classical_Prop.v:6: forbidden 'bypass_check'" "$F"
expect bypass_guard_assume rejects_bypass_guard 1 "not an assumption of the form 'name : type': 'Classical_Prop.classic is assumed to be guarded.'" \
  '"status":"failed"' --no-text-scan
expect bypass_positivity   rejects_bypass_positivity 1 "Fixture.v:2: forbidden 'bypass_check'" "$F"
expect bypass_universes    rejects_bypass_positivity 1 "Fixture.v:3: forbidden 'bypass_check'" "$F"
expect bypass_pos_assume   rejects_bypass_positivity 1 "'Fixture.fixture_neg is assumed to be positive.'" '"status":"failed"' --no-text-scan
expect unset_guard_split   rejects_unset_guard_split 1 "Fixture.v:4: forbidden 'Unset Guard Checking'" "$F"
expect unset_guard_assume  rejects_unset_guard_split 1 "'Fixture.fixture_loop is assumed to be guarded.'" '"status":"failed"' --no-text-scan
expect unset_universe      rejects_unset_universe_checking 1 "Fixture.v:2: forbidden 'Unset Universe Checking'" "$F"
# --- comments and strings -------------------------------------------------------------------------
expect admitted_hidden     rejects_admitted_after_comment_string 1 "Fixture.v:5: forbidden 'Admitted'" "$F"
# --- the build, Audit.v, _CoqProject, citations ----------------------------------------------------
expect stale_vo            rejects_stale_vo 1 "building the theories from clean failed" "$F"
expect kept_audit_v        rejects_kept_audit_v 1 "Audit.v is not in _CoqProject" "$F"
expect coqproject_flag     rejects_coqproject_flag 1 "_CoqProject:2: '-arg -type-in-type' is not allowed" "$F"
expect dangling_citation   rejects_dangling_citation 1 "dangling citation: proofs/Fixture.v:no_such_theorem \(Fixture.v declares no constant 'no_such_theorem'\)" "$F"
# --- statement files (proofs/README.md, "Statement files"): each claim_<p> of
# statements/<family>.v has a check_<p> in <family>_check.v of EXACTLY its type and a witness of
# its premises.  The fixtures below have no text-scan finding ("text_scan":[] in audit.json), so
# each is rejected by Coq's side alone (C): the compiler, the constr_eq of AuditStatements.v,
# Coq's list of constants.
# also NAME FILE REGEX: one more pattern the output (FILE = log) or audit.json (FILE = json) of
# the run NAME must hold.
also() {
  local name="$1" where="$2" re="$3" f
  n=$((n + 1))
  if [ "$where" = log ]; then f="$work/$name.log"; else f="$work/$name/out/audit.json"; fi
  if grep -Eq -- "$re" "$f"; then echo "ok   $name: also /$re/"
  else echo "FAIL $name: $where lacks /$re/"; bad=1; fi
}
NS='"text_scan":\[\]'
TOY="statements/toy.v:claim_toy__step_one_reaches_target"
expect statement_accepted  accepts_statement 0 "statement files: 1 claims, 1 with a check of exactly their type and a witness" \
  '"claim":"claim_toy__step_one_reaches_target","statement":"claim_toy__step_one_reaches_target =\\nforall \(R : ringType\) \(eta w y : R\),\\npremises_toy__step_one_reaches_target eta -> toy_step eta w y = y\\n     : Prop","check":"checked","check_reason":"","witness":"closed"'
also statement_accepted log "check checked +witness closed +$TOY \(toy.step_one_reaches_target\)"
expect statement_vacuous   rejects_statement_vacuous 1 'File "\./statements/toy\.v", line 20' "$NS"
also statement_vacuous log "AUDIT FAIL: $TOY: witness witness_toy__step_one_reaches_target failed"
expect statement_check_true rejects_statement_check_true 1 "AUDIT FAIL: $TOY: check wrong type: the type of statements/toy_check.v:check_toy__step_one_reaches_target is not ICLProof.statements.toy.claim_toy__step_one_reaches_target: Coq checks toy_check.check_toy__step_one_reaches_target : True" "$NS"
also statement_check_true json '"check":"wrong type"'
expect statement_check_other_module rejects_statement_check_other_module 1 "AUDIT FAIL: $TOY: check wrong type: .* Coq checks toy_check.check_toy__step_one_reaches_target : Other.claim_toy__step_one_reaches_target" "$NS"
expect statement_missing_check rejects_statement_missing_check 1 "AUDIT FAIL: $TOY: check missing: statements/toy_check.v declares no check_toy__step_one_reaches_target" "$NS"
also statement_missing_check json '"check":"missing"'
expect statement_no_check_file rejects_statement_no_check_file 1 "AUDIT FAIL: $TOY: check missing: no check file statements/toy_check.v" "$NS"
expect bridge_notation_changed rejects_bridge_notation_changed 1 'File "\./statements/toy_check\.v", line 11, characters 0-13:' "$NS"
also bridge_notation_changed log "building the theories from clean failed"
expect cited_definition    rejects_cited_definition 1 "citation proofs/Cited.v:toy_claim_def names a definition, not a theorem" \
  '"file":"proofs/Cited.v","name":"toy_claim_def","kind":"definition"'
also cited_definition log "citation proofs/Cited.v:toy_field names a projection, not a theorem"
expect statement_notation  rejects_statement_notation 1 "statements/toy.v:8: statement file: 'Notation' is not allowed" "$F"
# AuditStatements.v Requires the statement and check modules and nothing else; AuditPrint_toy.v
# only the statement module after the statement file's own Coq/mathcomp sentences.
gen="$work/statement_accepted/out"
n=$((n + 1))
if [ "$(sed -n 3p "$gen/AuditStatements.v")" = 'From ICLProof Require statements.toy statements.toy_check.' ] \
   && [ "$(grep -c '^From' "$gen/AuditStatements.v")" = 1 ] \
   && [ "$(grep -c 'ICLProof' "$gen/AuditPrint_toy.v")" = 2 ] \
   && grep -qx 'From ICLProof Require Import statements.toy.' "$gen/AuditPrint_toy.v" \
   && ! grep -v '^Redirect\|^(\*\|^   \|^From \(mathcomp\|Coq\) Require Import\|^From ICLProof Require Import statements.toy\.$\|^Set\|^Unset\|^Import\|^Open Scope' "$gen/AuditPrint_toy.v" | grep -q .; then
  echo "ok   generated_statement_files_require_only_statements"
else
  echo "FAIL generated_statement_files_require_only_statements: $gen"; bad=1
fi
# The generated Audit_<k>.v Requires exactly the fixture's modules and nothing else: past its
# header comment, every line is that Require, a Print Assumptions (of a project constant, or of
# an axiom coqchk reports, to show it a sealed-module field) or a Locate.
gen="$work/closed/out/Audit_1.v"
n=$((n + 1))
if [ -f "$gen" ] && [ "$(sed -n '4,$p' "$gen" | grep -cvE '^Redirect "(pa/[0-9]+" Print Assumptions ICLProof|sealed/[0-9]+" Print Assumptions [A-Za-z]+|loc/[0-9.]+" Locate Coq)\.[A-Za-z0-9_.]+\.$')" = 1 ] \
   && [ "$(sed -n 4p "$gen")" = 'From ICLProof Require Fixture.' ]; then
  echo "ok   generated_audit_requires_only_project"
else
  echo "FAIL generated_audit_requires_only_project: $gen"; bad=1
fi
# check_citations.sh (the fast check without Coq) rejects a dangling citation too.
cit="$work/citations"; rm -rf "$cit"; mkdir -p "$cit/proofs" "$cit/properties"
cp "$here/fixtures/accepts_closed/Fixture.v" "$cit/proofs/"  # rejects_dangling_citation/base
printf -- '-Q . ICLProof\nFixture.v\n' > "$cit/proofs/_CoqProject"
cp "$here/fixtures/rejects_dangling_citation/properties/fixture.cpp" "$cit/properties/"
n=$((n + 1))
if bash "$here/check_citations.sh" "$cit" > "$cit.log" 2>&1; then
  echo "FAIL check_citations_dangling: accepted proofs/Fixture.v:no_such_theorem"; bad=1
elif ! grep -q "dangling citation: proofs/Fixture.v:no_such_theorem" "$cit.log" \
     || grep -q "dangling citation: proofs/Fixture.v:fixture_closed_claim" "$cit.log"; then
  echo "FAIL check_citations_dangling: wrong reason"; sed 's/^/     | /' "$cit.log"; bad=1
else echo "ok   check_citations_dangling"; fi
# ... and a citation of a Definition : Prop or of a record field (kind, not only existence).
cit="$work/citations_kind"; rm -rf "$cit"; mkdir -p "$cit/proofs" "$cit/properties"
cp "$here/fixtures/rejects_cited_definition/Cited.v" "$cit/proofs/"
printf -- '-Q . ICLProof\nCited.v\n' > "$cit/proofs/_CoqProject"
cp "$here/fixtures/rejects_cited_definition/properties/fixture.cpp" "$cit/properties/"
n=$((n + 1))
if bash "$here/check_citations.sh" "$cit" > "$cit.log" 2>&1; then
  echo "FAIL check_citations_kind: accepted citations of a definition and a field"; bad=1
elif ! grep -q "citation proofs/Cited.v:toy_claim_def names a definition, not a theorem" "$cit.log" \
     || ! grep -q "citation proofs/Cited.v:toy_field names a projection, not a theorem" "$cit.log"; then
  echo "FAIL check_citations_kind: wrong reason"; sed 's/^/     | /' "$cit.log"; bad=1
else echo "ok   check_citations_kind"; fi
[ "$bad" = 0 ] && echo "audit self-test: all $n checks behaved" || echo "audit self-test: FAILED"
exit "$bad"
