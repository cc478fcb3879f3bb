#!/usr/bin/perl
# lab/lib/prove.pl - the lab's own tests for make check: TEST... through
# TAP::Harness (the engine under prove), as many at once as there are
# CPUs, each file's whole TAP output in LOG (one block a file, in the
# order they end), and the verdicts in RESULT, a stage result file
# (lab/lib/tap.sh).
#
# Usage: lab/lib/prove.pl LOG RESULT TEST...
# Prints each test file's verdict when it ends, and each failed case with
# the comment lines ("# ...") that came right before it, so that a failure
# shows why.  Exits 0 when every file passed.
use strict;
use warnings;
use JSON::PP;
use TAP::Harness;

die "usage: $0 LOG RESULT TEST...\n" unless @ARGV >= 3;
my ($log, $result, @tests) = @ARGV;
open(my $out, '>', $log) or die "$0: $log: $!\n";
$out->autoflush(1);
STDOUT->autoflush(1);

my $jobs = `nproc` || 1;
chomp $jobs;

my @failures;
my $harness = TAP::Harness->new({ verbosity => -3, merge => 1, jobs => $jobs });
$harness->callback(made_parser => sub {
	my ($parser, $test) = @_;
	my $file = ref $test ? $test->[0] : $test;
	my (@lines, @recent, @shown);
	$parser->callback(ALL => sub {
		my $r = shift;
		push @lines, $r->as_string;
		if ($r->is_comment) {
			push @recent, $r->as_string;
			shift @recent if @recent > 40;
		} elsif ($r->is_test) {
			if (!$r->is_ok) {
				push @shown, @recent, $r->as_string;
				push @failures, "$file: " . $r->as_string;
			}
			@recent = ();
		}
	});
	$parser->callback(EOF => sub {
		my $p = shift;
		my $how = $p->skip_all ? 'skipped: ' . $p->skip_all
			: ($p->has_problems ? 'FAILED' : 'ok');
		print $out "== $file ==\n", map({ "$_\n" } @lines), "== $file: $how ==\n";
		print "  $_\n" for @shown;
		printf "  %s: %d tests, %s\n", $file, $p->tests_run, $how;
	});
});
my $agg = $harness->runtests(@tests);
my ($pass, $fail) = (scalar $agg->passed, scalar $agg->failed);
my $skip = 0;
for my $d ($agg->descriptions) {
	my ($p) = $agg->parsers($d);
	$skip += scalar $p->skipped;
	if ($p->has_problems && !$p->failed) {
		# a wrong plan, a crash, a bad exit: one failure for the file
		$fail++;
		push @failures, "$d: " . ($p->exit ? 'exit status ' . $p->exit : 'wrong plan or TAP');
	}
}
open(my $rf, '>', "$result.tmp") or die "$0: $result: $!\n";
print $rf JSON::PP->new->canonical->pretty->encode({
	stage => 'lab-tests', line => $ENV{BASE} // '', passed => $pass + 0,
	failed => $fail + 0, skipped => $skip, failures => \@failures,
	cases => [map { { name => $_, ok => JSON::PP::false, skip => '', why => '' } } @failures],
});
close($rf) and rename("$result.tmp", $result) or die "$0: $result: $!\n";
print "  ", $pass + 0, " passed, ", $fail + 0, " failed, $skip skipped (log: $log)\n";
exit($agg->all_passed ? 0 : 1);
