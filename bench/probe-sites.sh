#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# bench/probe-sites.sh O FILE TEXT NAME: the kprobe sites, as SYMBOL+0xOFF,
# of every locked instruction that the source line of FILE containing TEXT
# became in the kernel built in O, wherever the compiler inlined it.
#
# A static inline function has no symbol to probe, but each copy of it
# sits at an offset of the function it was inlined into.  The object is
# compiled again with -g from kbuild's own command line (O/dir/.name.o.cmd)
# into a scratch file, its text is checked against O's object (-g must not
# change the code), and addr2line -i tells which locked instructions come
# from the line.  Prints one "NAME@SYMBOL+0xOFF" per site, for
# MMSCALE_KPROBES of bench/workloads.sh; a site inside a symbol that
# O/System.map has twice cannot be probed by name and is left out, said on
# stderr.  Needs gcc, objdump and addr2line (binutils); about 30 s.
#
# Example, the shared-line add of memcg_rstat_updated() (mm/memcontrol.c):
#   bench/probe-sites.sh build/7.3/bench-head mm/memcontrol.c \
#	'atomic_long_add(stats_updates, &statc->vmstats->stats_updates)' rstat_add
set -uo pipefail

die() { echo "probe-sites: $*" >&2; exit 1; }
[ $# = 4 ] || die "usage: $0 O FILE TEXT NAME (see its header)"
o=$1 file=$2 text=$3 name=$4
[[ $name =~ ^[a-z_][a-z0-9_]*$ ]] || die "NAME must be a C identifier in lower case, not '$name'"
[[ $file =~ ^[A-Za-z0-9_/.-]+\.c$ ]] || die "FILE must be a kernel .c file, not '$file'"
obj=${file%.c}.o
cmdf=$o/$(dirname "$obj")/.$(basename "$obj").cmd
[ -r "$cmdf" ] || die "$cmdf: not found (is $o a built kernel tree, and $file built into it?)"
[ -r "$o/System.map" ] || die "$o/System.map: not found (build the kernel first)"
src=$o/source
[ -e "$src/$file" ] || src=$o
[ -r "$src/$file" ] || die "$file: not found under $o/source or $o"
for t in objdump addr2line; do command -v $t > /dev/null || die "$t is not installed (binutils)"; done
lines=$(grep -nF -- "$text" "$src/$file" | cut -d: -f1)
[ -n "$lines" ] || die "$file has no line containing '$text'"
[ "$(wc -l <<< "$lines")" = 1 ] || die "$file has $(wc -l <<< "$lines") lines containing '$text'; give more of it"
line=$lines

tmp=$(mktemp -d) || die "no temporary directory"
trap 'rm -rf "$tmp"' EXIT
cmd=$(sed -n 's/^savedcmd_[^ ]* := //p' "$cmdf")
[[ $cmd == *" -o $obj "* ]] || die "$cmdf: no '-o $obj' in its command"
# the same command, with debug info, into the scratch folder; the
# dependency file goes there too, so O's own is left alone
cmd=${cmd/ -o $obj / -g -o $tmp\/g.o }
cmd=$(sed "s|-Wp,-MMD,[^ ]*|-Wp,-MMD,$tmp/g.d|" <<< "$cmd")
echo "probe-sites: compiling $file with -g ($src/$file:$line)" >&2
(cd "$o" && eval "$cmd") > "$tmp/cc.log" 2>&1 || die "the -g compile failed: $(tail -n 3 "$tmp/cc.log")"

# the code must be O's: same instructions, section by section (the names
# objdump gives unrelocated targets, <.LC41> or <__text.42+0x10>, may differ)
text_of() {
	objdump -d --no-show-raw-insn --no-addresses "$1" 2>/dev/null |
		grep -v 'file format' | sed '/^\t/s/ *<[^>]*>//'
}
text_of "$tmp/g.o" > "$tmp/g.dis"
text_of "$o/$obj" > "$tmp/o.dis"
cmp -s "$tmp/g.dis" "$tmp/o.dis" ||
	die "$obj compiled with -g differs from $o/$obj (has $src/$file changed since the build? rebuild $o first)"

# locked instructions: section, symbol, symbol's address, address
objdump -d "$tmp/g.o" | awk '
	/^Disassembly of section / { sec = $4; sub(/:$/, "", sec); next }
	/^[0-9a-f]+ <[^>]+>:$/ { sym = $2; gsub(/[<>:]/, "", sym); base = $1; next }
	/^ *[0-9a-f]+:\t/ && /\tlock / { a = $1; sub(/:$/, "", a); print sec, sym, base, a }' > "$tmp/locked"
n=0 dup=0
while read -r sec sym base addr; do
	addr2line -i -j "$sec" -e "$tmp/g.o" "0x$addr" 2>/dev/null | grep -q "/$file:$line\( \|$\)" || continue
	# the symbol must name one function of the kernel for "SYMBOL+OFF"
	if [ "$(grep -c " [tT] $sym\$" "$o/System.map")" != 1 ]; then
		echo "probe-sites: $sym+$(printf %#x $((0x$addr - 0x$base))): $sym is not one text symbol in System.map; left out" >&2
		dup=$((dup + 1))
		continue
	fi
	printf '%s@%s+%#x\n' "$name" "$sym" $((0x$addr - 0x$base))
	n=$((n + 1))
done < "$tmp/locked"
echo "probe-sites: $n sites of $file:$line$([ $dup = 0 ] || echo ", $dup left out")" >&2
[ "$n" -gt 0 ] || die "no locked instruction comes from $file:$line"
