#!/usr/bin/env bash
# lab/stages/jobs.sh - stage "jobs": the line's make bench matrices as LKP job
# files and mmtests configs, for fleets that already run those engines.
#
# Usage: lab/stages/jobs.sh        (make jobs [MATRIX=NAME])
#   MATRIX   one matrix of the line (its LINE_MATRICES, or "default": make
#            bench without MATRIX); default: every one.  MATRIX=stock boots
#            6.12 kernels of several slot counts under QEMU and has no
#            fleet form.
# What it does: takes each matrix's items from lab/stages/bench.sh --plan and
# hands them to lab/py/jobs.py, which writes lkp/*.yaml, mmtests/config-* and
# a README per matrix (what each item became; the items neither engine has
# a program for) into a new build/<line>/jobs/<time>/.
# What it needs: bash, python3.  Writes only that folder.
set -euo pipefail
source "$(dirname "$0")/../lib/common.sh"

STAGE=jobs
matrices=default
for m in $LINE_MATRICES; do
	[ "$m" = stock ] || matrices+=" $m"
done
if [ -n "${MATRIX:-}" ]; then
	[[ " $matrices " == *" $MATRIX "* ]] ||
		die "MATRIX=$MATRIX has no fleet form on the $LINE_TITLE line (its matrices here: $matrices)"
	matrices=$MATRIX
fi
out=$(new_dir "$BUILD/jobs/$(date +%Y%m%d-%H%M%S)") || die "could not make a folder under $BUILD/jobs"
for m in $matrices; do
	# bench.sh --plan is its machine interface: the items, one
	# comma-separated line on stdout, nothing else
	plan=$(MATRIX=$([ "$m" = default ] || echo "$m") BENCH= HOST=0 "$LAB_DIR/stages/bench.sh" --plan) ||
		die "lab/stages/bench.sh --plan failed for MATRIX=$m"
	[[ $plan =~ ^[A-Za-z0-9_:+.,-]+$ ]] || die "lab/stages/bench.sh --plan for MATRIX=$m printed no item list: '$plan'"
	"$LAB_DIR/py/jobs.py" --line "$BASE" --matrix "$m" --items "$plan" --out "$out" ||
		die "lab/py/jobs.py failed for MATRIX=$m"
	say "MATRIX=$m: $(ls "$out/lkp" | grep -c -- "-$m-") LKP job files, $(ls "$out/mmtests" | grep -c -- "-$m-") mmtests configs (README.$m)"
done
say "written: ${out#"$TOP/"}/ (lkp/, mmtests/, README.*); run them as docs/real-hardware.md says"
