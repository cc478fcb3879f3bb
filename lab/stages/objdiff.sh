#!/usr/bin/env bash
# lab/stages/objdiff.sh - stage "objdiff": show that a config builds the same code on
# base (the line's base, series not applied) and head (series applied).
# A line's bug fixes that sit behind no option (LINE_FIXES in
# patches/<line>/line.env) are applied to the base first: with the options
# off, head is the base plus those fixes.
#
# Usage: lab/stages/objdiff.sh "FRAGMENTS" OBJECT...   e.g. lab/stages/objdiff.sh "vm" mm/memory.o
# What it does: configures build/objdiff-<fragments>-{base,head} from
# build/src and build/linux with the same fragments (merge_config.sh),
# builds only the named objects (make prepare + the .o files, through ccache
# when it is installed), then prints
# `size` for each and whether their disassembly (objdump -d, addresses and
# raw bytes dropped) is identical, and then whether the whole object is
# byte for byte the same, or else which sections differ.  Exit 1 if any
# object differs in anything but source line numbers: its disassembly, a
# section other than __bug_table, __bug_table beyond its line fields (WARN
# sites below added lines, CONFIG_DEBUG_BUGVERBOSE), or its section
# headers, symbol table or relocations beyond the __COUNTER__ and __LINE__
# fields of symbol names (lab/py/objnames.py).  With config vm, those two are
# all a patch that adds lines leaves in an options-off object that is otherwise
# the base's ("vm nolines", configs/nolines.config, drops the first);
# configs that store more line numbers (DEBUG_ATOMIC_SLEEP's might_sleep()
# arguments, KASAN's descriptors of globals, DYNAMIC_DEBUG, debug info)
# fail here.
# Both sides see their source as "../linux": the base is built from a
# hard-linked copy of build/src at build/objdiff-base/linux, its objects
# in build/objdiff-base/objdiff-<fragments>-base.  The compiler records
# that path in the objects (the file of WARN sites; KASAN's descriptors of
# globals, after which every later .rodata offset moves), so "../src"
# against "../linux" made objects differ that were the same.
# What it needs: make source + make tree.  Writes build/objdiff-*/.
set -euo pipefail
source "$(dirname "$0")/../lib/common.sh"
[ $# -ge 2 ] || { echo "usage: $0 \"FRAGMENTS\" OBJECT..." >&2; exit 2; }
frags=$1
shift
STAGE=objdiff
want_fragments "FRAGMENTS=$frags" "$frags"
for obj in "$@"; do
	[[ $obj =~ ^[A-Za-z0-9_][A-Za-z0-9_./-]*\.o$ ]] && [[ $obj != *..* ]] ||
		die "$obj is not an object file of the tree (e.g. mm/memory.o)"
done
name=objdiff-$(kernel_name $frags)
stage objdiff "$LOGS/$name.log"
base_tree=$BUILD/objdiff-base/$(basename "$TREE")
# the line's fixes (LINE_FIXES in patches/<line>/line.env): patches of the
# series that are bug fixes, not behind an option; the base the options-off
# objects are compared with is the line's base with these applied
fixes=()
for f in ${LINE_FIXES:-}; do
	[ -f "$PATCHES/$f" ] ||
		die "LINE_FIXES (patches/$BASE/line.env): no patch $f in patches/$BASE/ (renamed by make export? name it as patches/$BASE/<topic>/<file>)"
	fixes+=("$PATCHES/$f")
done
base_rev=$(git -C "$SRC_DIR" rev-parse HEAD) || die "no pristine source in $SRC_DIR; run 'make source'"
for f in ${LINE_FIXES:-}; do
	base_rev+=" $f $(sha1sum < "$PATCHES/$f" | cut -d' ' -f1)"
done
if [ "$(cat "$BUILD/objdiff-base/src.rev" 2>/dev/null)" != "$base_rev" ]; then
	with=
	[ -z "${LINE_FIXES:-}" ] || with=", with the line's fixes: $LINE_FIXES"
	say "base: hard-linked copy of $SRC_DIR at $base_tree$with"
	rm -rf "$BUILD/objdiff-base"
	mkdir -p "$BUILD/objdiff-base"
	cp -al "$SRC_DIR" "$base_tree" || die "cannot copy $SRC_DIR to $base_tree"
	for f in "${fixes[@]}"; do
		# the copy shares its files with build/src: give each file the
		# fix touches a copy of its own before the fix changes it
		while read -r t; do
			[ -f "$base_tree/$t" ] || continue
			cp -p "$base_tree/$t" "$base_tree/$t.objdiff-copy" &&
				mv -f "$base_tree/$t.objdiff-copy" "$base_tree/$t" ||
				die "cannot copy $t in $base_tree"
		done < <(git apply --numstat "$f" | cut -f3)
		(cd "$base_tree" && git apply "$f") >> "$STAGE_LOG" 2>&1 || {
			rm -rf "$BUILD/objdiff-base"
			die "LINE_FIXES: ${f#"$PATCHES/"} does not apply to the base ($SRC_DIR); see $STAGE_LOG"
		}
		say "base: applied the fix ${f#"$PATCHES/"}"
	done
	echo "$base_rev" > "$BUILD/objdiff-base/src.rev"
fi
declare -A obj_dir=([base]=$BUILD/objdiff-base/$name-base [head]=$BUILD/$name-head)
for side in base head; do
	src=$base_tree
	[ $side = head ] && src=$TREE
	o=${obj_dir[$side]}
	mkdir -p "$o"
	cfg=()
	for f in $frags; do cfg+=("$(fragment_path "$f")"); done
	# head with the series' options off, some of which are on by default
	[ $side = base ] || cfg+=("$(fragment_path off)")
	say "$side: configure ($frags) and build $*"
	(cd "$src" && scripts/kconfig/merge_config.sh -O "$o" "${cfg[@]}") >> "$STAGE_LOG" 2>&1 ||
		die "$side: merge_config.sh failed"
	kmake_init "$src" "$o"
	"${KMAKE[@]}" prepare "$@" >> "$STAGE_LOG" 2>&1 ||
		die "$side: building $* failed"
done
# disasm OBJ: OBJ's disassembly without addresses and raw bytes
disasm() { objdump -d --no-show-raw-insn "$1" | sed -e '1,3d' -e 's/^ *[0-9a-f]*://'; }
# line_args: disassembly with the constants loaded into %esi and the
# symbol names in <> blanked
line_args() { sed -E -e 's/mov +\$0x[0-9a-f]+,%esi/mov $LINE,%esi/' -e 's/<[^>]*>/<>/g'; }
# sections OBJ: the names of OBJ's sections, one a line
sections() { objdump -h "$1" | awk '$1 ~ /^[0-9]+$/ { print $2 }'; }
# section_bytes OBJ SECTION: the section's contents as objdump's hex dump
# (none for NOBITS), without the line that names the file
section_bytes() { objdump -s -j "$2" "$1" 2> /dev/null | grep '^ '; }
# bug_table_lines BASE HEAD OBJ VERBOSE: when only __bug_table differs, say
# whether every differing byte is in the line field of its entry: the line
# number of a WARN/BUG site, which lines added above it move.  That field
# exists only with CONFIG_DEBUG_BUGVERBOSE (VERBOSE y); x86-64's struct
# bug_entry is then the displacements of the address, the format (7.3
# only) and the file, which are relocations and read 0 here, the line
# (2 bytes) and the flags: 16-byte entries with the line at 12 (7.3),
# 12-byte ones with it at 8 (6.12).  Exit 1 otherwise: a flag that changed
# (WARN_ON() to WARN_ON_ONCE()), another layout, or no line field at all.
bug_table_lines() {
	python3 - "$1" "$2" "$3" "$4" <<'PY'
import subprocess, sys
def sec(path):
    return subprocess.run(['objcopy', '-O', 'binary', '--only-section=__bug_table', path, '/dev/stdout'],
                          capture_output=True, check=True).stdout
a, b, obj, verbose = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4] == 'y'
a, b = sec(a), sec(b)
diffs = {i for i in range(min(len(a), len(b))) if a[i] != b[i]}
for size, line in ((16, 12), (12, 8)):
    if not verbose or len(a) != len(b) or len(a) % size:
        continue
    if {i % size for i in diffs} <= {line, line + 1}:
        print('  %s: __bug_table differs only in bytes %d-%d of its %d-byte entries, the line numbers of '
              '%d WARN/BUG sites (moved by added lines)'
              % (obj, line, line + 1, size, len({i // size for i in diffs})))
        break
else:
    print('  %s: __bug_table DIFFERS in more than its line fields (%d bytes on base, %d on head; '
          'CONFIG_DEBUG_BUGVERBOSE %s)' % (obj, len(a), len(b), 'on' if verbose else 'off: no line field'))
    sys.exit(1)
PY
}
rc=0
for obj in "$@"; do
	b=${obj_dir[base]}/$obj h=${obj_dir[head]}/$obj
	size "$b" "$h" | sed 's/^/  /'
	if cmp -s <(disasm "$b") <(disasm "$h"); then
		echo "  $obj: disassembly identical on base and head ($frags)"
	else
		rc=1
		# the second argument of __might_sleep() and the like is the
		# caller's __LINE__: lines added above a call move it
		if cmp -s <(disasm "$b" | line_args) <(disasm "$h" | line_args); then
			echo "  $obj: disassembly DIFFERS on base and head ($frags), only in $(diff <(disasm "$b") <(disasm "$h") | grep -c '^>') instruction(s) that load a constant into %esi (a __LINE__ argument, such as __might_sleep()'s, moved by added lines) or name a symbol"
		else
			echo "  $obj: disassembly DIFFERS on base and head ($frags)"
		fi
	fi
	if cmp -s "$b" "$h"; then
		echo "  $obj: byte for byte identical ($frags)"
		continue
	fi
	diffs=()
	while read -r sec; do
		cmp -s <(section_bytes "$b" "$sec") <(section_bytes "$h" "$sec") || diffs+=("$sec")
	done < <(sort -u <(sections "$b") <(sections "$h"))
	if [ ${#diffs[@]} -gt 0 ]; then
		echo "  $obj: not byte for byte identical ($frags); sections that differ: ${diffs[*]}"
		# only the line fields of __bug_table may differ (WARN sites
		# below added lines, with CONFIG_DEBUG_BUGVERBOSE)
		if [ "${diffs[*]}" != __bug_table ]; then
			echo "  $obj: sections DIFFER beyond __bug_table ($frags)"
			rc=1
			continue
		fi
		verbose=n
		grep -qx CONFIG_DEBUG_BUGVERBOSE=y "${obj_dir[head]}/.config" && verbose=y
		bug_table_lines "$b" "$h" "$obj" $verbose || { rc=1; continue; }
	fi
	# the sections' contents are the same (or __bug_table's but for its
	# line fields): then the section headers, symbol tables and
	# relocations may differ only in the __COUNTER__ and __LINE__ fields of
	# symbol names (lab/py/objnames.py)
	"$LAB_DIR/py/objnames.py" "$b" "$h" "$obj" || rc=1
done
exit $rc
