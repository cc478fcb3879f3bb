#!/usr/bin/env bash
# tests/objdiff.t - lab/py/objnames.py, lab/stages/objdiff.sh's check of what its
# section and disassembly checks do not see (section headers, symbol
# tables, relocations), on small objects gcc builds here: identical objects
# pass; a moved __LINE__ or __COUNTER__ field of an initcall name and a
# renumbered __UNIQUE_ID_ (a macro expanded in code the options leave out)
# pass, and are named; a symbol more, a larger .bss, a relocation to
# another element of the same array (same code bytes), another name, bad
# usage and a missing object fail.  Also the "off" fragment objdiff gives
# the head (lab/lib/common.sh fragment_path).
# Needs: gcc and binutils (nm), python3.
source "$(dirname "$0")/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
on=$TOP/lab/py/objnames.py

if ! command -v gcc > /dev/null || ! command -v nm > /dev/null; then
	skip "objnames.py: all cases" "no gcc or nm here (make deps installs them)"
	done_testing
	exit 0
fi

# obj NAME COUNTER LINE [EXTRA [UNIQUE [FN]]]: an object with an
# initcall-like local symbol named as include/linux/init.h names it (for
# proc_FN_init, default vmalloc), and a __UNIQUE_ID_ one (numbered UNIQUE,
# default 7241)
obj() {
	cat > "$tmp/$1.c" <<EOF
static int __initcall__kmod_vmalloc__${2}_${3}_proc_${6:-vmalloc}_init6
	__attribute__((used, section(".initcall6.init"))) = 1;
static int __UNIQUE_ID_addressable_f_${5:-7241} __attribute__((used)) = 2;
$4
int f(void) { return 3; }
EOF
	gcc -O2 -c -o "$tmp/$1.o" "$tmp/$1.c"
}
obj base 724 5403
obj same 724 5403
obj line 724 5759
obj counter 737 5759
obj unique 724 5403 '' 7371
obj counteronly 737 5403
obj bss 724 5403 'static char buf[64] __attribute__((used));'
obj bss2 724 5403 'static char buf[128] __attribute__((used));'
obj arr1 724 5403 'int arr[4]; int g(void) { return arr[1]; }'
obj arr2 724 5403 'int arr[4]; int g(void) { return arr[2]; }'
obj extra 724 5403 'static int more __attribute__((used)) = 4;'
obj other 724 5403 '' 7241 vmap

# pair BASE HEAD RC DESC REGEX: objnames.py on two of the objects exits RC
# (check DESC) and prints a line matching REGEX
pair() {
	"$on" "$tmp/$1.o" "$tmp/$2.o" x.o > "$tmp/out" 2>&1
	check "$4: exit $3" test $? -eq "$3"
	check "$4: said" has "$tmp/out" "$5"
}
pair base same 0 "identical objects" \
	'^  x\.o: section headers, symbol tables and relocations identical$'
pair base line 0 "an initcall's line field moved" \
	'identical but for 1 symbol name\(s\) made from __COUNTER__ or __LINE__: __initcall__kmod_vmalloc__724_5403_proc_vmalloc_init6 -> __initcall__kmod_vmalloc__724_5759_proc_vmalloc_init6$'
pair base counter 0 "an initcall's __COUNTER__ and line fields moved" \
	'identical but for 1 symbol name.*-> __initcall__kmod_vmalloc__737_5759_proc_vmalloc_init6$'
pair base counteronly 0 "only an initcall's __COUNTER__ field moved" \
	'identical but for 1 symbol name.*-> __initcall__kmod_vmalloc__737_5403_proc_vmalloc_init6$'
pair base unique 0 "a __UNIQUE_ID_ name renumbered" \
	'identical but for 1 symbol name.*__UNIQUE_ID_addressable_f_7241 -> __UNIQUE_ID_addressable_f_7371$'
pair base other 1 "another function name in an initcall" \
	'symbol tables DIFFER beyond names made from __COUNTER__ and __LINE__: __initcall__kmod_vmalloc__724_5403_proc_vmalloc_init6 .* -> __initcall__kmod_vmalloc__724_5403_proc_vmap_init6'
pair bss bss2 1 "a larger .bss (no contents to compare)" \
	'section headers DIFFER beyond names made from __COUNTER__ and __LINE__: .*\.bss'
pair arr1 arr2 1 "the same code bytes, another relocation addend" \
	'relocations DIFFER beyond names made from __COUNTER__ and __LINE__: .*arr'
pair base extra 1 "a symbol more" '(section headers|symbol tables) DIFFER'

# fragment_path off (lab/lib/common.sh): the series' bool options off, an int
# option left at its default (6.12's MEMCG_NR_STOCK)
mkdir -p "$tmp/tree/init" "$tmp/tree/mm" "$tmp/build"
printf 'config FOO_ON\n\tbool "foo"\n\tdefault y\n' > "$tmp/tree/init/Kconfig"
printf 'config NR_THINGS\n\tint "things"\n\tdefault 1\n' > "$tmp/tree/mm/Kconfig"
f=$(BASE=7.3 bash -c 'source "$1/lab/lib/common.sh" && TREE=$2 BUILD=$3 LINE_OPTIONS="FOO_ON NR_THINGS" && fragment_path off' _ "$TOP" "$tmp/tree" "$tmp/build" 2>&1)
check "fragment off: written under BUILD" test "$f" = "$tmp/build/options-off.config"
check "fragment off: a bool option off" has "$f" '^# CONFIG_FOO_ON is not set$'
check "fragment off: an int option left at its default" bash -c "! grep -q NR_THINGS '$f'"

"$on" "$tmp/base.o" > "$tmp/out" 2>&1
check "usage error: exit 2" test $? -eq 2
"$on" "$tmp/base.o" "$tmp/nosuch.o" x.o > "$tmp/out" 2>&1
check "a missing object: exit 2" test $? -eq 2
check "... with an error naming it" has "$tmp/out" 'objdump -h .*nosuch\.o failed'

done_testing
