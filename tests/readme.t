#!/usr/bin/env bash
# tests/readme.t - README.md agrees with the scripts (issue 18, kind 7): the
# knob table's defaults are lab/run.sh's and lab/boot.sh's, every knob
# lab/run.sh takes is in the table, the paths of the kernel make check
# builds are the ones lab/build.sh writes, the real-hardware section builds
# that same kernel, every make target is documented, and "make help" prints
# the Makefile's comment block only.
# Needs: bash, make, grep, sed.  Under a second.
source "$(dirname "$0")/tap.sh"
readme=$TOP/README.md
run=$TOP/lab/run.sh

# script_default VAR FILE: the default of ${VAR:-default} in FILE
script_default() {
	sed -n "s/^.*\${$1:-\\([^}]*\\)}.*$/\\1/p" "$2" | head -n1
}
# readme_default VAR: the default column of VAR's row in the knob table
readme_default() {
	awk -F'|' -v v="\`$1\`" '$2 ~ "^ *" v " *$" || $2 ~ "^ *`" substr(v, 2, length(v) - 2) "=" {
		gsub(/^ +| +$/, "", $4); gsub(/`/, "", $4); print $4; exit }' "$readme"
}
# same WHAT A B: A equals B (shows both if not)
same() {
	[ "$2" = "$3" ] && return 0
	echo "# $1: README says '$2', the script '$3'" >&2
	return 1
}

for v in VMTESTS RUN_CONFIGS BOOT_TIMEOUT SLAB_DEBUG_BOOT; do
	check "README's $v default is lab/run.sh's" same "$v" "$(readme_default "$v")" "$(script_default "$v" "$run")"
done
check "README's ACCEL default is lab/boot.sh's" same ACCEL "$(readme_default ACCEL)" "$(sed -n 's/^accel=\${ACCEL:-\([a-z]*\)}$/\1/p' "$TOP/lab/boot.sh")"
knobs=$(sed -n '/^# Environment:/,/^# What it does/p' "$run" | grep -o '\b[A-Z][A-Z_]*[A-Z]\b' | sort -u | grep -vx 'FZPU')
for v in $knobs; do
	check "lab/run.sh's knob $v is in README's knob table" grep -q "^| \`$v[=\`]" "$readme"
done

name=$(script_default RUN_CONFIGS "$run" | tr ' ' -)
check "README's build stage installs the modules where lab/build.sh does (build/$name/modroot)" \
	has "$readme" "modules installed into \`build/$name/modroot\`"
hw=$(sed -n '/^## Running on real hardware/,/^## /p' "$readme")
check "the real-hardware section builds make check's kernel (RUN_CONFIGS)" \
	grep -q "make build CONFIGS=\"$(script_default RUN_CONFIGS "$run")\"" <<< "$hw"
check "... and uses that build's folder only" \
	bash -c '! grep -o "build/vm[A-Za-z0-9_-]*" | grep -vx "build/$1"' _ "$name" <<< "$hw"

targets=$(sed -n 's/^\.PHONY: *//p' "$TOP/Makefile" | tr ' ' '\n' | grep -vx all)
usage=$(make -s -C "$TOP" help 2>&1)
check "make help: exit 0" test $? = 0
check "make help prints the comment block only" bash -c '! grep -qv "^#" <<< "$1" && [ -n "$1" ]' _ "$usage"
for t in $targets; do
	check "make $t is documented in README.md" grep -qE "make $t\b" "$readme"
	check "make $t is in make help" grep -qE "make .*\b$t\b" <<< "$usage"
done
done_testing
