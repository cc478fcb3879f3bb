#!/usr/bin/env bash
# lab/stages/layout.sh - "make layout": how many cache lines the per-CPU memcg
# charge stock (struct memcg_stock_pcp) spans, and how many a stock hit
# touches, for N = 1, 4, 7, 8 and 16 slots, without and with lock debugging
# and on PREEMPT_RT.
#
# Usage: lab/stages/layout.sh [--check]     (make layout)
#   LAYOUT_N (default "1 4 7 8 16"), LAYOUT_CONFIGS (default
#   "vm-mmscale vm-debug-mmscale vm-rt-mmscale": fragments joined by "-")
# What it does: per config, configures build/layout-<config> from the
# fragments (merge_config.sh, as lab/stages/build.sh) with CONFIG_MEMCG_NR_STOCK
# set to each N, compiles only mm/memcontrol.o with -g (a few seconds after
# the first "make prepare"), and reads the struct's layout with gdb's
# "ptype /o" (offsets and sizes from DWARF, as pahole prints them).  The
# stock is DEFINE_PER_CPU_ALIGNED, so it starts on a line (64 bytes on
# x86_64).  A hit takes stock_lock, scans cached[] and reads nr_pages[i];
# with N > 1 it also sets the slot's bit in referenced (clock): the lines
# from offset 0 to the end of the last of those fields are what it touches.
# Prints one row per config and N.
# What it needs: build/linux (make tree), gcc, gdb, ccache; writes
# build/layout-<config>/.
set -euo pipefail
source "$(dirname "$0")/../lib/common.sh"

stage layout
[ -n "$LINE_LAYOUT_OPTION" ] ||
	die "make layout measures the 6.12 line's per-CPU memcg stock (CONFIG_MEMCG_NR_STOCK); the $LINE_TITLE line has no such option (BASE=6.12 make layout)"
LAYOUT_N=${LAYOUT_N:-1 4 7 8 16}
LAYOUT_CONFIGS=${LAYOUT_CONFIGS:-vm-mmscale vm-debug-mmscale vm-rt-mmscale}
for n in $LAYOUT_N; do
	in_range "$n" 1 16 || die "LAYOUT_N: '$n' is not a slot count from 1 to 16 (CONFIG_MEMCG_NR_STOCK's range)"
done
for c in $LAYOUT_CONFIGS; do
	want_fragments "LAYOUT_CONFIGS=$LAYOUT_CONFIGS" "${c//-/ }"
done
command -v gdb > /dev/null || die "gdb is missing (apt-get install gdb)"
[ "${1:-}" != --check ] || exit 0
[ $# = 0 ] || die "usage: $0 [--check]"
[ -d "$TREE" ] || die "no kernel tree at $TREE: run 'make tree' first"

printf '%-20s %3s %7s %7s %9s  %s\n' config N bytes lines hit-lines "hit path: last field (offset+size)"
for c in $LAYOUT_CONFIGS; do
	O=$BUILD/layout-$c
	mkdir -p "$O"
	frags=()
	for f in ${c//-/ }; do frags+=("$(fragment_path "$f")"); done
	env -C "$TREE" scripts/kconfig/merge_config.sh -O "$O" "${frags[@]}" > "$O/config.log" 2>&1 ||
		die "merge_config.sh failed for $c ($O/config.log)"
	kmake_init "$TREE" "$O"
	for n in $LAYOUT_N; do
		"$TREE/scripts/config" --file "$O/.config" --set-val MEMCG_NR_STOCK "$n"
		say "$c N=$n: mm/memcontrol.o with -g"
		"${KMAKE[@]}" olddefconfig > "$O/make.log" 2>&1 &&
			"${KMAKE[@]}" KCFLAGS=-g mm/memcontrol.o >> "$O/make.log" 2>&1 ||
			die "building mm/memcontrol.o for $c N=$n failed ($O/make.log)"
		[ "$(sed -n 's/^CONFIG_MEMCG_NR_STOCK=//p' "$O/.config")" = "$n" ] ||
			die "$c: CONFIG_MEMCG_NR_STOCK=$n did not stay in $O/.config (olddefconfig changed it)"
		gdb -batch -ex 'ptype /o struct memcg_stock_pcp' "$O/mm/memcontrol.o" > "$O/ptype-$n.txt" 2>&1 ||
			die "gdb found no struct memcg_stock_pcp in $O/mm/memcontrol.o ($O/ptype-$n.txt)"
		# top-level fields only: "/* OFF | SIZE */    TYPE NAME;"
		awk -v c="$c" -v n="$n" '
			/total size \(bytes\)/ { total = $(NF - 1) }
			/^\/\* +[0-9]+ +\| +[0-9]+ \*\/    [^ ]/ {
				off = $2; size = $4; name = $NF; sub(/;$/, "", name); sub(/\[.*/, "", name); sub(/^\*+/, "", name)
				if (name == "stock_lock" || name == "cached" || name == "nr_pages" || name == "referenced") {
					if (off + size > end) { end = off + size; last = name " (" off "+" size ")" }
				}
			}
			END {
				if (!total) { print "no struct memcg_stock_pcp in the object"; exit 1 }
				printf "%-20s %3d %7d %7d %9d  %s\n", c, n, total, int((total + 63) / 64), int((end + 63) / 64), last
			}' "$O/ptype-$n.txt" || die "could not read the layout ($O/ptype-$n.txt)"
	done
done
