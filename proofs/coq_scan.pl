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
#                                            Property Example) or definition (Definition
#                                            Fixpoint CoFixpoint Instance Inductive CoInductive
#                                            Variant Record Structure Class)
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
#   * Module Type and functors (Module F (X : T)): the audit lists a file's constants by name
#     and does not follow them into signatures;
#   * an unterminated comment or string (Coq would reject the file; the scan must not guess).
use strict;
use warnings;

die "usage: coq_scan.pl FILE.v...\n" unless @ARGV;

my %forbidden_anywhere = map { $_ => 1 } qw(
  Admitted admit give_up Admit Axiom Axioms Parameter Parameters Conjecture Conjectures
  bypass_check);
my %section_only = map { $_ => 1 } qw(Variable Variables Hypothesis Hypotheses Context);
my %theorem_kw = map { $_ => 1 } qw(Theorem Lemma Fact Remark Corollary Proposition Property
  Example);
my %definition_kw = map { $_ => 1 } qw(Definition Fixpoint CoFixpoint Instance Inductive
  CoInductive Variant Record Structure Class);
# Prefixes that do not change what a command is.
my %prefix = map { $_ => 1 } qw(Local Global Export Polymorphic Monomorphic Cumulative
  NonCumulative Private Program Time Fail Succeed Instructions Profile);

for my $file (@ARGV) {
  open(my $fh, '<:raw', $file) or do { print STDERR "coq_scan: cannot read $file\n"; exit 2 };
  local $/;
  my $src = <$fh>;
  close $fh;
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
      push @tok, [substr($src, $i, $j - $i), $line];
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
    if (substr($src, $i, 2) eq '#[') { push @tok, ['#[', $line]; $i += 2; next }
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
  for my $t (@tok) {
    my $base = $t->[0];
    violation($file, $t->[1], "forbidden '$base'") if $forbidden_anywhere{$base};
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
  for my $s (@sentences) {
    my @w = @$s;
    # bullets and braces
    shift @w while @w && $w[0][0] =~ /^[-+*{}]+$/;
    # attributes and prefixes; under Fail or Succeed a command's effect is undone, so such a
    # sentence opens or closes no Section/Module and declares nothing
    my $undone = 0;
    while (@w) {
      if ($w[0][0] eq '#[') {
        my $depth = 1;
        shift @w;
        while (@w && $depth > 0) {
          my $x = shift(@w)->[0];
          $depth++ if $x eq '[' || $x eq '#[';
          $depth-- if $x eq ']';
        }
        next;
      }
      if ($prefix{$w[0][0]}) { $undone = 1 if $w[0][0] eq 'Fail' || $w[0][0] eq 'Succeed'; shift @w; next }
      if ($w[0][0] eq 'Redirect' && @w > 1) { splice(@w, 0, 2); next }
      if ($w[0][0] eq 'Timeout' && @w > 1) { splice(@w, 0, 2); next }
      last;
    }
    next unless @w;
    my ($cmd, $line) = @{$w[0]};
    my @rest = map { $_->[0] } @w[1 .. $#w];
    my $in_section = grep { $_->[0] eq 'Section' } @blocks;
    if ($section_only{$cmd} && !$in_section) {
      violation($file, $line, "top-level '$cmd' (outside a Section it is a global axiom)");
    } elsif ($cmd eq 'Set' || $cmd eq 'Unset') {
      my @flag;
      for my $x (@rest) { last if $x eq '<STRING>' || $x =~ /^[0-9]/; push @flag, $x }
      if (grep { /^(Checking|UIP|StrictProp)$/ } @flag) {
        violation($file, $line, "forbidden '$cmd @flag' (a kernel check or its logic changed)");
      }
    } elsif ($cmd eq 'Declare' && @rest && $rest[0] =~ /^(ML|Instance|Module)$/) {
      violation($file, $line, "forbidden 'Declare $rest[0]'");
    } elsif ($cmd =~ /^(Load|Primitive|Register|Reset|Back|BackTo)$/) {
      violation($file, $line, "forbidden '$cmd'");
    } elsif ($cmd eq 'Add' && @rest && $rest[0] =~ /^(LoadPath|Rec|ML)$/) {
      violation($file, $line, "forbidden 'Add $rest[0]'");
    } elsif ($undone) {
      # nothing to track
    } elsif ($cmd eq 'Section' && @rest) {
      push @blocks, ['Section', $rest[0]];
    } elsif ($cmd eq 'Module') {
      my @r = @rest;
      shift @r if @r && ($r[0] eq 'Import' || $r[0] eq 'Export');
      if (@r && $r[0] eq 'Type') {
        violation($file, $line, "'Module Type' (the audit does not follow signatures)");
        push @blocks, ['ModuleType', $r[1] // ''];
      } elsif (grep { $_ eq ':=' || $_ eq '<:' } @r) {
        # Module M := ... : no block opens
      } elsif (@r > 1 && $r[1] eq '(') {
        violation($file, $line, "functor 'Module $r[0] (...)' (the audit does not follow functors)");
        push @blocks, ['Module', $r[0]];
      } elsif (@r) {
        push @blocks, ['Module', $r[0]];
      }
    } elsif ($cmd eq 'End' && @rest) {
      if (@blocks && $blocks[-1][1] eq $rest[0]) { pop @blocks }
      else { violation($file, $line, "'End $rest[0]' closes no open Section or Module of that name") }
    } elsif (($theorem_kw{$cmd} || $definition_kw{$cmd}) && @rest && $rest[0] =~ /^[A-Za-z_\x80-\xff][A-Za-z0-9_'\x80-\xff]*$/) {
      next if grep { $_->[0] eq 'ModuleType' } @blocks;
      my $kind = $theorem_kw{$cmd} ? 'theorem' : 'definition';
      my $path = join('', map { "$_->[1]." } grep { $_->[0] eq 'Module' } @blocks);
      print "DECL\t$file\t$kind\t$path$rest[0]\n";
    }
  }
  for my $b (@blocks) { violation($file, 0, "$b->[0] $b->[1] is never closed") }
}
