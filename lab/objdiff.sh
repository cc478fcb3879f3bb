#!/usr/bin/env bash
# lab/objdiff.sh - stage "objdiff": show that a config builds the same code on
# base (6.12, series not applied) and head (series applied).
#
# Usage: lab/objdiff.sh "FRAGMENTS" OBJECT...   e.g. lab/objdiff.sh "vm" mm/memory.o
# What it does: configures build/objdiff-<fragments>-{base,head} from
# build/src and build/linux with the same fragments (merge_config.sh),
# builds only the named objects (make prepare + the .o files, through ccache
# when it is installed), then prints
# `size` for each and whether their disassembly (objdump -d, addresses and
# raw bytes dropped) is identical.  Exit 1 if any object differs.
# What it needs: make source + make tree.  Writes build/objdiff-*/.
set -euo pipefail
source "$(dirname "$0")/common.sh"
[ $# -ge 2 ] || { echo "usage: $0 \"FRAGMENTS\" OBJECT..." >&2; exit 2; }
frags=$1
shift
STAGE=objdiff
want_fragments "FRAGMENTS=$frags" "$frags"
for obj in "$@"; do
	[[ $obj =~ ^[A-Za-z0-9_][A-Za-z0-9_./-]*\.o$ ]] && [[ $obj != *..* ]] ||
		die "$obj is not an object file of the tree (e.g. mm/memory.o)"
done
name=objdiff-$(echo $frags | tr ' ' -)
stage objdiff "$LOGS/$name.log"
for side in base head; do
	src=$SRC_DIR
	[ $side = head ] && src=$TREE
	o=$BUILD/$name-$side
	mkdir -p "$o"
	cfg=()
	for f in $frags; do cfg+=("$(fragment_path "$f")"); done
	say "$side: configure ($frags) and build $*"
	(cd "$src" && scripts/kconfig/merge_config.sh -O "$o" "${cfg[@]}") >> "$STAGE_LOG" 2>&1 ||
		die "$side: merge_config.sh failed"
	kmake_init "$src" "$o"
	"${KMAKE[@]}" prepare "$@" >> "$STAGE_LOG" 2>&1 ||
		die "$side: building $* failed"
done
rc=0
for obj in "$@"; do
	b=$BUILD/$name-base/$obj h=$BUILD/$name-head/$obj
	size "$b" "$h" | sed 's/^/  /'
	if cmp -s <(objdump -d --no-show-raw-insn "$b" | sed -e '1,3d' -e 's/^ *[0-9a-f]*://') \
		  <(objdump -d --no-show-raw-insn "$h" | sed -e '1,3d' -e 's/^ *[0-9a-f]*://'); then
		echo "  $obj: disassembly identical on base and head ($frags)"
	else
		echo "  $obj: disassembly DIFFERS on base and head ($frags)"
		rc=1
	fi
done
exit $rc
