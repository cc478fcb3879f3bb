#!/usr/bin/env python3
# lab/objnames.py - used by lab/objdiff.sh: compare the symbol tables of two
# objects whose sections are the same, and say whether they differ only in
# the __LINE__ field of initcall names.
#
# Usage: lab/objnames.py BASE.o HEAD.o NAME
# An initcall's local symbol is named from its source line
# (include/linux/init.h, __initcall_id(): <modname>__<__COUNTER__>_<__LINE__>_<fn>),
# so a line added above the initcall renames it with nothing else changed.
# Any other difference in the symbol tables (a name, a type, a value, a
# size, a symbol more or less) is one the options-off object must not have:
# a __COUNTER__ field that moved means the head expanded a macro the base
# did not (such as BUILD_BUG() in dead code), which renumbers every later
# __UNIQUE_ID_* symbol.
# Reads the tables with nm -P -p (POSIX format, in symbol-table order).
# Prints one line; exit 0 when the tables are the same or differ only in
# initcall line fields, 1 otherwise, 2 on a usage or nm error.
import re
import subprocess
import sys

INITCALL = re.compile(r'^(__init(?:call|stub)__kmod_\w+?__\d+_)(\d+)(_\w+)$')


def table(path):
    try:
        out = subprocess.run(['nm', '-P', '-p', path], capture_output=True,
                             text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        sys.exit('objnames.py: nm %s failed: %s' % (path, e))
    return [line.split() for line in out.splitlines() if line.strip()]


def main():
    if len(sys.argv) != 4:
        print('usage: objnames.py BASE.o HEAD.o NAME', file=sys.stderr)
        return 2
    base, head, name = table(sys.argv[1]), table(sys.argv[2]), sys.argv[3]
    if len(base) != len(head):
        print('  %s: symbol tables DIFFER: %d symbols on base, %d on head'
              % (name, len(base), len(head)))
        return 1
    moved = []
    for b, h in zip(base, head):
        if b == h:
            continue
        mb, mh = INITCALL.match(b[0]), INITCALL.match(h[0])
        if (mb and mh and b[1:] == h[1:] and mb.group(1) == mh.group(1)
                and mb.group(3) == mh.group(3)):
            moved.append('%s -> line %s' % (b[0], mh.group(2)))
            continue
        print('  %s: symbol tables DIFFER beyond initcall line numbers: %s -> %s'
              % (name, ' '.join(b), ' '.join(h)))
        return 1
    if not moved:
        print('  %s: symbol tables identical' % name)
    else:
        print('  %s: symbol tables identical but for the __LINE__ field of %d '
              'initcall name(s), moved by added lines: %s'
              % (name, len(moved), '; '.join(moved)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
