#!/usr/bin/env perl
# coq_scan.pl -- the source half of the proof audit (audit.sh): lexes Coq files the way Coq's
# lexer does, splits them into sentences, rejects every construct that can add an assumption or
# switch a kernel check off, and lists the constants each file declares.
#
# Usage: coq_scan.pl FILE.v...
# Output, one record per line, tab-separated:
#   VIOLATION <file>:<line> <message>       a forbidden construct (the audit fails)
#   DECL      <file> <kind> <name>          a constant the file declares; kind = theorem
#                                            (Theorem Lemma Fact Remark Corollary Proposition
#                                            Property Example), definition (Definition
#                                            Fixpoint CoFixpoint Instance, Canonical/Coercion
#                                            with a body), inductive (Inductive CoInductive
#                                            Variant Record Structure Class) or projection (a
#                                            named field of a Record/Structure/Class)
# Exit 0 (also when there are violations: audit.sh decides), 2 on a usage or read error.
#
# Lexing (Coq 8.16 cLexer): comments nest; INSIDE a comment a `"` starts a string literal that
# runs to the next lone `"` (`""` is an escaped quote) and may contain `(*` or `*)` without
# effect, exactly as Coq lexes it; outside comments, strings are literals and `(*` inside them
# starts nothing.  Comments become one space (newlines kept for line numbers) and separate tokens
# as in Coq; strings become one STRING token.  A sentence ends at a `.` followed by a blank or the
# end of the file (not `..`); `{` and `}` and bullets at a sentence start are skipped.
#
# Rejected (and why):
#   * the tokens Admitted, admit, give_up, Admit (Admit Obligations), Axiom(s), Parameter(s),
#     Conjecture(s), bypass_check anywhere outside comments and strings: each adds an
#     assumption or switches a kernel check off, whatever command or attribute carries it;
#   * Variable(s), Hypothesis/Hypotheses, Context outside every Section: Coq turns such a
#     declaration into a global axiom ("declared as local axiom").  Inside a Section they are
#     discharged at `End`: every lemma that uses one gets it as an explicit premise, which is
#     the mathcomp style and adds no assumption, so they are accepted there;
#   * Set/Unset (any prefix or attribute, any spacing or line split) of a flag whose name has a
#     word Checking (Guard/Positivity/Universe Checking), UIP (Definitional UIP) or StrictProp;
#   * Declare ML Module / Declare Instance / Declare Module (a plugin; an instance or a module
#     assumed without proof), Load (reads a file the audit does not scan), Primitive and
#     Register (bind kernel primitives), Add LoadPath / Add Rec LoadPath / Add ML Path, Reset /
#     Back / BackTo (undo commands, e.g. a Section opening, behind the scan's back);
#   * Module Type, functors (Module F (X : T)), sealed or checked modules (Module M : T,
#     Module M <: T), module definitions (Module M := N, a copy or alias whose constants the
#     scan cannot name) and Include: the scan lists a file's constants by name and does not
#     follow signatures or copies;
#   * command prefixes the scan does not follow: Time, Timeout N, Fail, Succeed, Redirect "f",
#     Instructions, Profile (each runs, hides or undoes a command), Program (obligations are
#     constants the scan cannot name), Private; every attribute #[...] except local, global
#     and export (the prefixes Local, Global, Export, Polymorphic, Monomorphic, Cumulative,
#     NonCumulative are followed: they do not change what a command declares);
#   * plugins and meta-programming: any Elpi command, an lp:{{ }} quotation (Coq-Elpi can add
#     axioms and modules, coq.env.add-axiom, with no forbidden token in sight), a Require of a
#     library outside the allow-list (Coq, mathcomp, Interval, Coquelicot, Flocq, ICLProof;
#     e.g. `From elpi Require`), Declare ML Module;
#   * an unterminated comment or string (Coq would reject the file; the scan must not guess).
#
#   * in EVERY file: an identifier with a non-ASCII character (outside comments and strings).
#     All of them, not only mixed-script ones: a look-alike (a Cyrillic 'a' in `le`, a Greek
#     omicron) reads as an ASCII name, and deciding which scripts mix needs Unicode tables the
#     scan would have to trust; the theories use ASCII names only;
#   * in a STATEMENT FILE (statements/<family>.v, not <family>_check.v; proofs/README.md):
#     everything but `From Coq|mathcomp Require Import`, `Import`, `(Local) Open Scope`,
#     `Set Implicit Arguments`, `Unset Strict Implicit`, `Unset Printing Implicit Defensive`,
#     `Definition`, `Fixpoint`, `Lemma`/`Theorem`/`Example` and, between a statement and its
#     `Qed`/`Defined`, `Proof` and tactics (a sentence starting with a lower-case word): so
#     Notation, Infix, Number Notation, Reserved Notation, Coercion, Instance, Existing Instance,
#     Canonical, Arguments, Section, Variable(s), Hypothesis, Context, Let, Module, Ltac, Hint,
#     Tactic Notation, a Require of anything but Coq and mathcomp, ... are refused, also inside
#     a proof; any non-ASCII character outside comments (strings too); and a claim not of the
#     shape the infrastructure reads: each `claim_<family>__<rest>` must be
#     `Definition claim_<p> : Prop := forall ..., premises_<p> ... -> ...` with a
#     `Definition premises_<p>` and a `Lemma`/`Theorem`/`Example witness_<p> : premises_<p> ...`
#     in the same file, <family> the file's own name.
#
# Also output for statement files (read by audit.sh, step 8):
#   CLAIM     <file> <claim name> <property id>   a well-formed claim (claim_<family>__<rest>,
#                                                  property <family>.<rest>)
#   HEADER    <file> <sentence>                    a Require/Import/Open Scope/Set sentence, in
#                                                  order: the context Coq prints the claims in
#
# Numbers are one token (10, 1_000, 0x1F, 1.5e3), as in Coq's lexer; `:=`, `<:` and `:>` are one
# token each.
use strict;
use warnings;

die "usage: coq_scan.pl FILE.v...\n" unless @ARGV;

my %forbidden_anywhere = map { $_ => 1 } qw(
  Admitted admit give_up Admit Axiom Axioms Parameter Parameters Conjecture Conjectures
  bypass_check);
my %section_only = map { $_ => 1 } qw(Variable Variables Hypothesis Hypotheses Context);
my %theorem_kw = map { $_ => 1 } qw(Theorem Lemma Fact Remark Corollary Proposition Property
  Example);
my %definition_kw = map { $_ => 1 } qw(Definition Fixpoint CoFixpoint Instance);
my %inductive_kw = map { $_ => 1 } qw(Inductive CoInductive Variant Record Structure Class);
my %record_kw = map { $_ => 1 } qw(Record Structure Class);
# Prefixes that do not change what a command declares (followed: stripped).
my %prefix = map { $_ => 1 } qw(Local Global Export Polymorphic Monomorphic Cumulative
  NonCumulative);
# Prefixes the scan does not follow (refused): each runs a command under a limit, hides its
# output, undoes it, or makes constants the scan cannot name.
my %refused_prefix = map { $_ => 1 } qw(Time Timeout Fail Succeed Redirect Instructions Profile
  Program Private);
# The only attributes accepted in #[...].
my %allowed_attribute = map { $_ => 1 } qw(local global export);
# The libraries a theory may Require (the logical roots of -Q/-R mappings).
my %allowed_root = map { $_ => 1 } qw(Coq mathcomp Interval Coquelicot Flocq ICLProof);
# A statement file: only Coq's standard library and mathcomp.
my %statement_root = map { $_ => 1 } qw(Coq mathcomp);
# The flags a statement file may set (exactly these sentences).
my %statement_flag = map { $_ => 1 } ('Set Implicit Arguments', 'Unset Strict Implicit',
  'Unset Printing Implicit Defensive');
# The family of the statement file being scanned (undef for any other file).
our $statement_family;

for my $file (@ARGV) {
  open(my $fh, '<:raw', $file) or do { print STDERR "coq_scan: cannot read $file\n"; exit 2 };
  local $/;
  my $src = <$fh>;
  close $fh;
  local $statement_family;
  $statement_family = $1 if $file =~ m{(?:^|/)statements/([a-z][a-z0-9_]*)\.v$} && $1 !~ /_check$/;
  scan_file($file, $src);
}
exit 0;

sub violation {
  my ($file, $line, $msg) = @_;
  print "VIOLATION\t$file:$line\t$msg\n";
}

# Returns the tokens of $src as [text, line] pairs; sentence ends are the token "<END>".
sub lex {
  my ($file, $src) = @_;
  my @tok;
  my $n = length $src;
  my $i = 0;
  my $line = 1;
  while ($i < $n) {
    my $c = substr($src, $i, 1);
    if ($c eq "\n") { $line++; $i++; next }
    if ($c =~ /\s/) { $i++; next }
    if (substr($src, $i, 2) eq '(*') {    # comment, nested, with strings lexed inside
      my $start = $line;
      my $depth = 1;
      $i += 2;
      while ($i < $n && $depth > 0) {
        my $d = substr($src, $i, 1);
        if ($d eq "\n") { $line++; $i++; next }
        if (substr($src, $i, 2) eq '(*') { $depth++; $i += 2; next }
        if (substr($src, $i, 2) eq '*)') { $depth--; $i += 2; next }
        if ($d eq '"') {
          my ($j, $l) = skip_string($src, $i, $line);
          if (!defined $j) { violation($file, $start, 'unterminated string inside a comment'); return @tok }
          ($i, $line) = ($j, $l);
          next;
        }
        $i++;
      }
      if ($depth > 0) { violation($file, $start, 'unterminated comment'); return @tok }
      next;
    }
    if ($c eq '"') {
      my $start = $line;
      my ($j, $l) = skip_string($src, $i, $line);
      if (!defined $j) { violation($file, $start, 'unterminated string'); return @tok }
      if (defined $statement_family && substr($src, $i, $j - $i) =~ /[\x80-\xff]/) {
        violation($file, $start, 'non-ASCII character in a string (a statement file is ASCII outside comments)');
      }
      push @tok, ['<STRING>', $start];
      ($i, $line) = ($j, $l);
      next;
    }
    if ($c =~ /[A-Za-z_\x80-\xff]/) {    # identifier, possibly qualified (Foo.bar)
      my $j = $i;
      while (1) {
        $j++ while $j < $n && substr($src, $j, 1) =~ /[A-Za-z0-9_'\x80-\xff]/;
        if ($j + 1 < $n && substr($src, $j, 1) eq '.' && substr($src, $j + 1, 1) =~ /[A-Za-z_\x80-\xff]/) {
          $j++;
          next;
        }
        last;
      }
      my $id = substr($src, $i, $j - $i);
      if ($id =~ /[\x80-\xff]/) {
        violation($file, $line, "non-ASCII identifier '$id' (refused in every theory: a look-alike of an ASCII name reads as that name)");
      }
      push @tok, [$id, $line];
      $i = $j;
      next;
    }
    if ($c eq '.') {
      my $j = $i;
      $j++ while $j < $n && substr($src, $j, 1) eq '.';
      if ($j - $i == 1 && ($j == $n || substr($src, $j, 1) =~ /\s/)) {
        push @tok, ['<END>', $line];
      } else {
        push @tok, [substr($src, $i, $j - $i), $line];
      }
      $i = $j;
      next;
    }
    if ($c =~ /[0-9]/) {    # a number is one token: 10, 1_000, 0x1F, 1.5, 1.5e-3
      my $rest = substr($src, $i);
      $rest =~ /^(0[xX][0-9a-fA-F_]+(?:\.[0-9a-fA-F_]+)?(?:[pP][+-]?[0-9_]+)?|[0-9][0-9_]*(?:\.[0-9][0-9_]*)?(?:[eE][+-]?[0-9][0-9_]*)?)/;
      push @tok, [$1, $line];
      $i += length $1;
      next;
    }
    if (substr($src, $i, 2) =~ /^(?:#\[|:=|<:|:>)$/) { push @tok, [substr($src, $i, 2), $line]; $i += 2; next }
    push @tok, [$c, $line];
    $i++;
  }
  return @tok;
}

# $i is at an opening '"'; returns (index after the closing quote, line) or undef.
sub skip_string {
  my ($src, $i, $line) = @_;
  my $n = length $src;
  $i++;
  while ($i < $n) {
    my $d = substr($src, $i, 1);
    if ($d eq "\n") { $line++; $i++; next }
    if ($d eq '"') {
      if ($i + 1 < $n && substr($src, $i + 1, 1) eq '"') { $i += 2; next }
      return ($i + 1, $line);
    }
    $i++;
  }
  return;
}

sub scan_file {
  my ($file, $src) = @_;
  my @tok = lex($file, $src);
  # forbidden tokens, anywhere
  for my $k (0 .. $#tok) {
    my $t = $tok[$k];
    my $base = $t->[0];
    violation($file, $t->[1], "forbidden '$base'") if $forbidden_anywhere{$base};
    # a Coq-Elpi quotation lp:{{ ... }} (its text is elpi code the scan cannot read)
    if ($base eq 'lp' && $k + 2 <= $#tok && $tok[$k + 1][0] eq ':' && $tok[$k + 2][0] eq '{') {
      violation($file, $t->[1], "forbidden 'lp:{{ }}' (a Coq-Elpi quotation: elpi code can add axioms and modules)");
    }
  }
  # sentences
  my @sentences;
  my @cur;
  for my $t (@tok) {
    if ($t->[0] eq '<END>') { push @sentences, [@cur] if @cur; @cur = () }
    else { push @cur, $t }
  }
  push @sentences, [@cur] if @cur;
  my @blocks;    # open Sections and Modules: ['Section'|'Module', name]
  # a statement file: proof mode, its definitions and theorems (name -> [tokens after the name])
  my %stmt = (proof => 0, defs => {}, thms => {}, order => []);
  for my $s (@sentences) {
    my @w = @$s;
    # bullets and braces
    shift @w while @w && $w[0][0] =~ /^[-+*{}]+$/;
    # attributes and prefixes: the followed ones are stripped, the others refused (the sentence
    # is then not read further: what it declares is not listed, so the audit fails anyway)
    my $refused = 0;
    while (@w) {
      if ($w[0][0] eq '#[') {
        my ($depth, $aline) = (1, $w[0][1]);
        shift @w;
        my @attr;
        while (@w && $depth > 0) {
          my $x = shift(@w)->[0];
          $depth++ if $x eq '[' || $x eq '#[';
          $depth-- if $x eq ']';
          push @attr, $x if $depth > 0;
        }
        my @bad = grep { $_ ne ',' && !$allowed_attribute{$_} } @attr;
        if (@bad) {
          violation($file, $aline, "attribute '#[@attr]' is not on the allow-list (local, global, export)");
          $refused = 1;
          last;
        }
        next;
      }
      if ($refused_prefix{$w[0][0]}) {
        violation($file, $w[0][1], "command prefix '$w[0][0]' (the audit does not follow it)");
        $refused = 1;
        last;
      }
      if ($prefix{$w[0][0]}) { shift @w; next }
      last;
    }
    next if $refused || !@w;
    my ($cmd, $line) = @{$w[0]};
    my @rest = map { $_->[0] } @w[1 .. $#w];
    my $in_section = grep { $_->[0] eq 'Section' } @blocks;
    statement_sentence($file, $line, $cmd, \@rest, \%stmt) if defined $statement_family;
    if ($cmd =~ /^Elpi/) {
      violation($file, $line, "forbidden '$cmd' (a Coq-Elpi command: elpi code can add axioms and modules)");
    } elsif ($cmd eq 'Require' || ($cmd eq 'From' && grep { $_ eq 'Require' } @rest)) {
      my @roots;
      if ($cmd eq 'From') { @roots = ($rest[0] // '') }
      else { @roots = map { (split /\./, $_)[0] } grep { /^[A-Za-z_]/ && $_ ne 'Import' && $_ ne 'Export' } @rest }
      for my $r (@roots) {
        violation($file, $line, "Require of '$r' (not an allowed library: Coq, mathcomp, Interval, Coquelicot, Flocq, ICLProof)")
          unless $allowed_root{$r};
      }
    } elsif ($section_only{$cmd} && !$in_section) {
      violation($file, $line, "top-level '$cmd' (outside a Section it is a global axiom)");
    } elsif ($cmd eq 'Set' || $cmd eq 'Unset') {
      my @flag;
      for my $x (@rest) { last if $x eq '<STRING>' || $x =~ /^[0-9]/; push @flag, $x }
      if (grep { /^(Checking|UIP|StrictProp)$/ } @flag) {
        violation($file, $line, "forbidden '$cmd @flag' (a kernel check or its logic changed)");
      }
    } elsif ($cmd eq 'Declare' && @rest && $rest[0] =~ /^(ML|Instance|Module)$/) {
      violation($file, $line, "forbidden 'Declare $rest[0]'");
    } elsif ($cmd =~ /^(Load|Primitive|Register|Reset|Back|BackTo|Include)$/) {
      violation($file, $line, "forbidden '$cmd'");
    } elsif ($cmd eq 'Add' && @rest && $rest[0] =~ /^(LoadPath|Rec|ML)$/) {
      violation($file, $line, "forbidden 'Add $rest[0]'");
    } elsif ($cmd eq 'Section' && @rest) {
      push @blocks, ['Section', $rest[0]];
    } elsif ($cmd eq 'Module') {
      my @r = @rest;
      shift @r if @r && ($r[0] eq 'Import' || $r[0] eq 'Export');
      if (@r && $r[0] eq 'Type') {
        violation($file, $line, "'Module Type' (the audit does not follow signatures)");
        push @blocks, ['ModuleType', $r[1] // ''];
      } elsif (grep { $_ eq ':=' } @r) {
        violation($file, $line, "'Module $r[0] := ...' (a module copy or alias: the audit does not list its constants)");
      } elsif (@r > 1 && ($r[1] eq ':' || $r[1] eq '<:')) {
        violation($file, $line, "'Module $r[0] $r[1] ...' (a sealed or checked module: the audit does not follow signatures)");
        push @blocks, ['Module', $r[0]];
      } elsif (@r > 1 && $r[1] eq '(') {
        violation($file, $line, "functor 'Module $r[0] (...)' (the audit does not follow functors)");
        push @blocks, ['Module', $r[0]];
      } elsif (@r == 1) {
        push @blocks, ['Module', $r[0]];
      } else {
        violation($file, $line, "'Module @r' (a form the audit does not follow)");
        push @blocks, ['Module', $r[0] // ''] if @r;
      }
    } elsif ($cmd eq 'End' && @rest) {
      if (@blocks && $blocks[-1][1] eq $rest[0]) { pop @blocks }
      else { violation($file, $line, "'End $rest[0]' closes no open Section or Module of that name") }
    } elsif (($cmd eq 'Canonical' || $cmd eq 'Coercion') && @rest) {
      # Canonical [Structure] name := body / Coercion name := body declare a constant;
      # `Canonical name.` / `Coercion f : A >-> B.` only register an existing one
      my @r = @rest;
      shift @r if $r[0] eq 'Structure';
      next if grep { $_->[0] eq 'ModuleType' } @blocks;
      if (@r > 1 && $r[0] =~ /^[A-Za-z_\x80-\xff][A-Za-z0-9_'\x80-\xff]*$/ && grep { $_ eq ':=' } @r) {
        my $path = join('', map { "$_->[1]." } grep { $_->[0] eq 'Module' } @blocks);
        print "DECL\t$file\tdefinition\t$path$r[0]\n";
      }
    } elsif (($theorem_kw{$cmd} || $definition_kw{$cmd} || $inductive_kw{$cmd}) && @rest && $rest[0] =~ /^[A-Za-z_\x80-\xff][A-Za-z0-9_'\x80-\xff]*$/) {
      next if grep { $_->[0] eq 'ModuleType' } @blocks;
      my $kind = $theorem_kw{$cmd} ? 'theorem' : $definition_kw{$cmd} ? 'definition' : 'inductive';
      my $path = join('', map { "$_->[1]." } grep { $_->[0] eq 'Module' } @blocks);
      print "DECL\t$file\t$kind\t$path$rest[0]\n";
      if ($record_kw{$cmd}) {
        # the named fields: the identifier right after `{` or `;` at depth 1 of the field block
        my ($depth, $opened, $expect) = (0, 0, 0);
        my $seen_def = 0;
        for my $x (@rest) {
          $seen_def = 1 if $x eq ':=';
          next unless $seen_def;
          if ($x eq '{' && $depth == 0 && !$opened) { $depth = 1; $opened = 1; $expect = 1; next }
          if ($x =~ /^[({\[]$/) { $depth++; $expect = 0; next }
          if ($x =~ /^[)}\]]$/) { $depth--; $expect = 0; next }
          if ($depth == 1 && $x eq ';') { $expect = 1; next }
          if ($expect && $depth == 1 && $x =~ /^[A-Za-z\x80-\xff][A-Za-z0-9_'\x80-\xff]*$/) {
            print "DECL\t$file\tprojection\t$path$x\n";
          }
          $expect = 0;
        }
      }
    }
  }
  for my $b (@blocks) { violation($file, 0, "$b->[0] $b->[1] is never closed") }
  statement_claims($file, \%stmt) if defined $statement_family;
}

# One sentence of a statement file (after the followed prefixes): the allow-list of commands.
sub statement_sentence {
  my ($file, $line, $cmd, $rest, $st) = @_;
  my @r = @$rest;
  my $text = join(' ', $cmd, @r);
  my $shown = $cmd =~ /^(Number|Reserved|Existing|Tactic|Declare)$/ && @r ? "$cmd $r[0]" : $cmd;
  my $what = "statement file: '$shown' is not allowed (only Require/Import/Open Scope, three flags, Definition, Fixpoint, Lemma/Theorem/Example and their proofs)";
  if ($st->{proof}) {
    if ($cmd eq 'Qed' || $cmd eq 'Defined') { $st->{proof} = 0; return }
    return if $cmd eq 'Proof' || $cmd !~ /^[A-Z]/;    # a tactic
    violation($file, $line, "statement file: '$cmd' inside a proof is not allowed (tactics only)");
    return;
  }
  if ($cmd eq 'From') {
    my $root = $r[0] // '';
    if (!$statement_root{$root} || ($r[1] // '') ne 'Require' || ($r[2] // '') ne 'Import') {
      violation($file, $line, "statement file: 'From $root ...' is not allowed (only From Coq or From mathcomp Require Import)");
    } else { print "HEADER\t$file\t$text\n" }
  } elsif ($cmd eq 'Set' || $cmd eq 'Unset') {
    if ($statement_flag{$text}) { print "HEADER\t$file\t$text\n" }
    else { violation($file, $line, "statement file: '$text' is not allowed (only Set Implicit Arguments, Unset Strict Implicit, Unset Printing Implicit Defensive)") }
  } elsif ($cmd eq 'Import') {
    print "HEADER\t$file\t$text\n";
  } elsif ($cmd eq 'Open') {
    if (@r == 2 && $r[0] eq 'Scope') { print "HEADER\t$file\t$text\n" }
    else { violation($file, $line, "statement file: '$text' is not allowed (only Open Scope <scope>)") }
  } elsif ($cmd eq 'Definition' || $cmd eq 'Fixpoint' || $theorem_kw{$cmd} && $cmd =~ /^(Lemma|Theorem|Example)$/) {
    my $name = $r[0] // '';
    my @after = @r[1 .. $#r];
    if ($cmd eq 'Definition' || $cmd eq 'Fixpoint') { $st->{defs}{$name} = [$cmd, $line, @after] }
    else { $st->{thms}{$name} = [$cmd, $line, @after] }
    push @{$st->{order}}, $name;
    # a statement, or a definition given by tactics, opens a proof
    $st->{proof} = 1 unless grep { $_ eq ':=' } @after;
  } else {
    violation($file, $line, $what);
  }
}

# The claims of a statement file: each claim_<p> with its premises_<p> and witness_<p>, of the
# shapes audit.sh and the C++ side read (proofs/README.md, "Statement files").
sub statement_claims {
  my ($file, $st) = @_;
  my ($defs, $thms) = ($st->{defs}, $st->{thms});
  for my $name (@{$st->{order}}) {
    next unless $name =~ /^claim_/;
    my $d = $defs->{$name};
    if (!$d) { violation($file, $thms->{$name}[1], "statement file: '$name' must be a Definition (claim_<p> : Prop := forall ..., premises_<p> ... -> ...)"); next }
    my ($cmd, $line, @t) = @$d;
    my ($p) = $name =~ /^claim_(.*)$/;
    if ($p !~ /^([a-z][a-z0-9_]*?)__([a-z0-9][a-z0-9_]*)$/ || $1 ne $statement_family) {
      violation($file, $line, "statement file: '$name' is not claim_${statement_family}__<rest> (the property ${statement_family}.<rest>, lower case)");
      next;
    }
    my $property = "$1.$2";
    my $ok = 1;
    if ($cmd ne 'Definition' || @t < 4 || $t[0] ne ':' || $t[1] ne 'Prop' || $t[2] ne ':=' || $t[3] ne 'forall') {
      violation($file, $line, "statement file: '$name' must read 'Definition $name : Prop := forall ..., premises_$p ... -> ...'");
      $ok = 0;
    } else {
      # the first ',' at depth 0 ends the binders; then premises_<p>, and an '->' at depth 0
      my ($depth, $k) = (0, 4);
      for (; $k <= $#t; $k++) {
        my $x = $t[$k];
        if ($x =~ /^[({\[]$/) { $depth++ } elsif ($x =~ /^[)}\]]$/) { $depth-- }
        elsif ($x eq ',' && $depth == 0) { last }
      }
      my $arrow = 0;
      $depth = 0;
      for (my $j = $k + 2; $j < $#t; $j++) {
        my $x = $t[$j];
        if ($x =~ /^[({\[]$/) { $depth++ } elsif ($x =~ /^[)}\]]$/) { $depth-- }
        elsif ($x eq '-' && $t[$j + 1] eq '>' && $depth == 0) { $arrow = 1; last }
      }
      my $first = $k + 1;
      $first++ if ($t[$first] // '') eq '@';    # @premises_<p> (explicit arguments)
      if ($k > $#t || ($t[$first] // '') ne "premises_$p" || !$arrow) {
        violation($file, $line, "statement file: the body of '$name' must be 'forall ..., premises_$p ... -> ...'");
        $ok = 0;
      }
    }
    my $pd = $defs->{"premises_$p"};
    if (!$pd || $pd->[0] ne 'Definition') {
      violation($file, $line, "statement file: '$name' has no 'Definition premises_$p' in the same file");
      $ok = 0;
    }
    my $w = $thms->{"witness_$p"};
    if (!$w) {
      violation($file, $line, "statement file: '$name' has no 'Lemma witness_$p : premises_$p ...' (the witness that its premises can hold) in the same file");
      $ok = 0;
    } else {
      my (undef, $wline, @wt) = @$w;
      splice(@wt, 1, 1) if @wt > 2 && $wt[0] eq ':' && $wt[1] eq '@';    # @premises_<p>
      if (@wt < 2 || $wt[0] ne ':' || $wt[1] ne "premises_$p") {
        violation($file, $wline, "statement file: 'witness_$p' must state 'premises_$p <a concrete instance>'");
        $ok = 0;
      }
    }
    print "CLAIM\t$file\t$name\t$property\n" if $ok;
  }
}
