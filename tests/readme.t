#!/usr/bin/env bash
# tests/readme.t - README.md and docs/ agree with the scripts (issue 18, kind
# 7; issue 17 moved the reference into docs/): the knob table's defaults are
# lab/stages/run.sh's, lab/stages/boot.sh's and lab/stages/shell.sh's, every knob lab/stages/run.sh
# takes is in the table, and so is every knob lab/lib/knobs.sh gives every
# target (BASE, BASE_VERSION, BUILD), the paths of the kernel make check
# builds are the ones lab/stages/build.sh writes in the default line's folder
# (build/<DEFAULT_BASE>/: the docs name the default line's paths,
# docs/lab-internals.md), docs/real-hardware.md builds that same kernel,
# every make target is in README.md and in make help, "make help" prints the
# Makefile's comment block only, README.md's first screen holds the two
# commands and links to their measured times (docs/results.md, the one page
# that quotes them: tests/docs.t) and names every line of lab/lib/common.sh's
# LINES as BASE=<line>, the default one (DEFAULT_BASE) as "(the default)",
# and every page of docs/ is linked from README.md.  A default of
# $DEFAULT_CONFIGS is read from lab/lib/common.sh, one of a line's key
# ($LINE_VMTESTS) from the default line's patches/<line>/line.env.
# Needs: bash, make, grep, sed, awk.  Under a second.
source "$(dirname "$0")/tap.sh"
readme=$TOP/README.md
run=$TOP/lab/stages/run.sh
# the knob table, the stages and the rest of the reference, wherever in
# README.md or docs/ they are
# the lines, and the default one whose folders the docs name
lines=$LINES
dl=$(sed -n 's/^DEFAULT_BASE=//p' "$TOP/lab/lib/common.sh")
docs=$(mktemp)
trap 'rm -f "$docs"' EXIT
cat "$readme" "$TOP"/docs/*.md > "$docs"

# readme_default VAR: the default column of VAR's row in the knob table
readme_default() {
	awk -F'|' -v v="\`$1\`" '$2 ~ "^ *" v " *$" || $2 ~ "^ *`" substr(v, 2, length(v) - 2) "=" {
		gsub(/^ +| +$/, "", $4); gsub(/`/, "", $4); print $4; exit }' "$docs"
}
# default_of VAR FILE: script_default, with $DEFAULT_CONFIGS (issue 26: the
# one default kernel) read from lab/lib/common.sh, and a line's key ($LINE_VMTESTS:
# lab/stages/run.sh's VMTESTS) from the default line's patches/$dl/line.env; a key
# that is not there stays as written, so the comparison fails
default_of() {
	local d raw v
	raw=$(sed -n "s/^.*\${$1:-\([^}]*\)}.*$/\1/p" "$2" | head -n1)
	case $raw in
	'$LINE_'*)
		v=$(sed -n "s/^${raw#\$}=\"\(.*\)\"$/\1/p" "$TOP/patches/$dl/line.env" | head -n1)
		d=${v:-$raw}
		;;
	*) d=$(script_default "$1" "$2") ;;
	esac
	[ "$d" = '$DEFAULT_CONFIGS' ] && d=$(sed -n 's/^DEFAULT_CONFIGS="\(.*\)"$/\1/p' "$TOP/lab/lib/common.sh")
	printf '%s\n' "$d"
}
# same WHAT A B: A equals B (shows both if not)
same() {
	[ "$2" = "$3" ] && return 0
	echo "# $1: README.md or docs/ say '$2', the script '$3'" >&2
	return 1
}

for v in VMTESTS CONFIGS BOOT_TIMEOUT SLAB_DEBUG_BOOT; do
	check "the knob table's $v default is lab/stages/run.sh's" same "$v" "$(readme_default "$v")" "$(default_of "$v" "$run")"
done
check "the knob table's ACCEL default is lab/stages/boot.sh's" same ACCEL "$(readme_default ACCEL)" "$(sed -n 's/^accel=\${ACCEL:-\([a-z]*\)}$/\1/p' "$TOP/lab/stages/boot.sh")"
check "the knob table's ACCEL_PROBE default is lab/stages/boot.sh's" same ACCEL_PROBE "$(readme_default ACCEL_PROBE)" "$(script_default ACCEL_PROBE "$TOP/lab/stages/boot.sh")"
check "make shell's BOOT_TIMEOUT default in docs/ is lab/stages/shell.sh's" \
	grep -q "\`BOOT_TIMEOUT\` (default $(script_default BOOT_TIMEOUT "$TOP/lab/stages/shell.sh") s)" "$TOP/docs/shell.md"
knobs=$(sed -n '/^# Environment:/,/^# What it does/p' "$run" | grep -o '\b[A-Z][A-Z_]*[A-Z]\b' | sort -u | grep -vx 'FZPU')
for v in $knobs; do
	check "lab/stages/run.sh's knob $v is in the knob table" grep -q "^| \`$v[=\`]" "$docs"
done

for v in $(sed -n 's/^COMMON_KNOBS="\(.*\)"$/\1/p' "$TOP/lab/lib/knobs.sh"); do
	check "lab/lib/knobs.sh's knob of every target $v is in the knob table" grep -q "^| \`$v[=\`]" "$docs"
done
check "lab/lib/common.sh names the lines and the default ($lines; $dl)" bash -c '[ -n "$1" ] && [[ " $1 " == *" $2 "* ]]' _ "$lines" "$dl"

name=$(default_of CONFIGS "$run" | tr ' ' -)
check "the build stage installs the modules where lab/stages/build.sh does (build/$dl/$name/modroot)" \
	has "$docs" "modules installed into \`build/$dl/$name/modroot\`"
hw=$(cat "$TOP/docs/real-hardware.md")
check "docs/real-hardware.md builds make check's kernel (CONFIGS, the default kernel)" \
	grep -qE "^make build( CONFIGS=\"$(default_of CONFIGS "$run")\")? *(#|$)" <<< "$hw"
check "... and uses that build's folder only" \
	bash -c '! grep -oE "build/([0-9.]+/)?vm[A-Za-z0-9_-]*" | grep -vx "build/$2/$1"' _ "$name" "$dl" <<< "$hw"

targets=$(sed -n 's/^\.PHONY: *//p' "$TOP/Makefile" | tr ' ' '\n' | grep -vx all)
usage=$(make -s -C "$TOP" help 2>&1)
check "make help: exit 0" test $? = 0
check "make help prints the comment block only" bash -c '! grep -qv "^#" <<< "$1" && [ -n "$1" ]' _ "$usage"
for t in $targets; do
	check "make $t is documented in README.md" grep -qE "make $t\b" "$readme"
	check "make $t is in make help" grep -qE "make .*\b$t\b" <<< "$usage"
done

# the first screen: what a newcomer needs to run the two commands
screen=$(head -n 42 "$readme")
for want in 'make run  ' 'make check  ' 'docs/results.md#make-check-how-long-it-takes' 'docs/kunit.md' 'make build && make shell'; do
	check "README.md's first screen has '$want'" grep -qF -- "$want" <<< "$screen"
done
for l in $lines; do
	check "README.md's first screen names the $l line (\`BASE=$l\`)" grep -qF -- "\`BASE=$l\`" <<< "$screen"
done
check "README.md's first screen says the default line is $dl (lab/lib/common.sh's DEFAULT_BASE)" \
	grep -qF -- "\`BASE=$dl\` (the default)" <<< "$screen"
for f in "$TOP"/docs/*.md; do
	check "README.md links docs/${f##*/}" grep -qF -e "(docs/${f##*/})" -e "]: docs/${f##*/}" "$readme"
done
done_testing
