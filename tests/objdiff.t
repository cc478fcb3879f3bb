#!/usr/bin/env bash
# tests/objdiff.t - lab/objnames.py, lab/objdiff.sh's check of the symbol
# tables of two objects with the same sections, on small objects gcc builds
# here: identical tables pass; a moved __LINE__ field of an initcall name
# passes, and is named; a moved __COUNTER__ field (a macro expanded on one
# side only), a renamed symbol, a symbol more and a usage error fail.
# Needs: gcc and binutils (nm), python3.
source "$(dirname "$0")/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
on=$TOP/lab/objnames.py

if ! command -v gcc > /dev/null || ! command -v nm > /dev/null; then
	skip "objnames.py: all cases" "no gcc or nm here (make deps installs them)"
	done_testing
	exit 0
fi

# obj NAME COUNTER LINE [EXTRA [UNIQUE]]: an object with an initcall-like
# local symbol named as include/linux/init.h names it, and a __UNIQUE_ID_
# one (numbered UNIQUE, default 7241)
obj() {
	cat > "$tmp/$1.c" <<EOF
static int __initcall__kmod_vmalloc__${2}_${3}_proc_vmalloc_init6
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
obj extra 724 5403 'static int more __attribute__((used)) = 4;'

"$on" "$tmp/base.o" "$tmp/same.o" x.o > "$tmp/out" 2>&1
check "identical tables: exit 0" test $? -eq 0
check "... and said so" has "$tmp/out" '^  x\.o: symbol tables identical$'

"$on" "$tmp/base.o" "$tmp/line.o" x.o > "$tmp/out" 2>&1
check "an initcall's line field moved: exit 0" test $? -eq 0
check "... named, with its new line" \
	has "$tmp/out" '__LINE__ field of 1 initcall name\(s\).*__initcall__kmod_vmalloc__724_5403_proc_vmalloc_init6 -> line 5759'

"$on" "$tmp/base.o" "$tmp/counter.o" x.o > "$tmp/out" 2>&1
check "an initcall's __COUNTER__ field moved: exit 1" test $? -eq 1
check "... said as a difference beyond line numbers" \
	has "$tmp/out" 'symbol tables DIFFER beyond initcall line numbers: __initcall__kmod_vmalloc__724_5403_proc_vmalloc_init6 .* -> __initcall__kmod_vmalloc__737_5759'
"$on" "$tmp/base.o" "$tmp/unique.o" x.o > "$tmp/out" 2>&1
check "a __UNIQUE_ID_ name renumbered: exit 1" test $? -eq 1
check "... named" has "$tmp/out" 'DIFFER beyond initcall line numbers: __UNIQUE_ID_addressable_f_7241 .* -> __UNIQUE_ID_addressable_f_7371'

"$on" "$tmp/base.o" "$tmp/extra.o" x.o > "$tmp/out" 2>&1
check "a symbol more: exit 1" test $? -eq 1
check "... with both counts" has "$tmp/out" 'symbol tables DIFFER: [0-9]+ symbols on base, [0-9]+ on head'

"$on" "$tmp/base.o" > "$tmp/out" 2>&1
check "usage error: exit 2" test $? -eq 2
"$on" "$tmp/base.o" "$tmp/nosuch.o" x.o > "$tmp/out" 2>&1
check "a missing object: an error naming it" has "$tmp/out" 'nm .*nosuch\.o failed'

done_testing
