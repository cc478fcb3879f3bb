# lab/py/objnames.py - used by lab/stages/objdiff.sh: compare what objdiff's section
# and disassembly checks do not see in two objects: the section headers
# (name, size, alignment, flags: the size of .bss, which has no contents),
# the symbol tables and the relocations; and say whether they differ only
# in the __COUNTER__ and __LINE__ fields of symbol names.
#
# Usage: lab/py/objnames.py BASE.o HEAD.o NAME
# Two kinds of local symbol are named from where a macro was expanded, not
# from what the object holds: an initcall (include/linux/init.h:201-209 in
# 7.3.4, __initcall_id(): __initcall__kmod_<modname>__<__COUNTER__>_<__LINE__>
# _<fn><level>), and __UNIQUE_ID_<prefix><__COUNTER__>.  A line added above
# an initcall renames it; a macro that uses __COUNTER__ (BUILD_BUG_ON(),
# READ_ONCE()'s type check) expanded in code the options leave out
# renumbers every later one.  Neither changes the code or the data, so both
# fields are ignored, and the renamed symbols are counted.  Any other
# difference (a name, a type, a value, a size, a symbol more or less, a
# relocation's place, type, target or addend) is one the options-off object
# must not have.
# Reads objdump -h (without file offsets, which follow the string table's
# length), nm -P -p (POSIX format, symbol-table order) and readelf -rW
# (without the file offsets of the relocation sections).
# Prints one line; exit 0 when all three are the same but for those fields,
# 1 otherwise, 2 on a usage error or when a tool fails.
import re
import subprocess
import sys

INITCALL = re.compile(r'(__initcall__kmod_\w+?__)\d+_\d+(_\w+)')
UNIQUE = re.compile(r'(__UNIQUE_ID_\w*?)\d+\b')


def blank(line):
    """line with the __COUNTER__ and __LINE__ fields of symbol names blanked"""
    return UNIQUE.sub(r'\1N', INITCALL.sub(r'\1N_L\2', line))


def run(cmd):
    try:
        return subprocess.run(cmd, capture_output=True, text=True,
                              check=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        print('objnames.py: %s failed: %s' % (' '.join(cmd), e), file=sys.stderr)
        sys.exit(2)


def headers(path):
    # "Idx Name Size VMA LMA File-off Algn" lines and their flag lines
    out = []
    for line in run(['objdump', '-h', path]).splitlines():
        f = line.split()
        if f and f[0].isdigit() and len(f) == 7:
            out.append(' '.join(f[:3] + f[6:]))
        elif f and out and not f[0].isdigit() and line.startswith(' '):
            out[-1] += ' ' + ' '.join(f)
    return out


def symbols(path):
    return [' '.join(line.split()) for line in run(['nm', '-P', '-p', path]).splitlines()
            if line.strip()]


def relocations(path):
    out = []
    for line in run(['readelf', '-rW', path]).splitlines():
        line = re.sub(r' at offset 0x[0-9a-f]+', '', line)
        if line.strip():
            out.append(' '.join(line.split()))
    return out


def main():
    if len(sys.argv) != 4:
        print('usage: objnames.py BASE.o HEAD.o NAME', file=sys.stderr)
        return 2
    a, b, name = sys.argv[1], sys.argv[2], sys.argv[3]
    moved = {}
    for what, read in (('section headers', headers), ('symbol tables', symbols),
                       ('relocations', relocations)):
        base, head = read(a), read(b)
        if len(base) != len(head):
            print('  %s: %s DIFFER: %d lines on base, %d on head'
                  % (name, what, len(base), len(head)))
            return 1
        for x, y in zip(base, head):
            if x == y:
                continue
            # the same once the names' counter and line fields are blanked
            if blank(x) == blank(y):
                for m, n in zip(re.finditer(r'__initcall__\w+|__UNIQUE_ID_\w+', x),
                                re.finditer(r'__initcall__\w+|__UNIQUE_ID_\w+', y)):
                    if m.group(0) != n.group(0):
                        moved[m.group(0)] = n.group(0)
                continue
            print('  %s: %s DIFFER beyond names made from __COUNTER__ and __LINE__: %s -> %s'
                  % (name, what, x, y))
            return 1
    if not moved:
        print('  %s: section headers, symbol tables and relocations identical' % name)
    else:
        print('  %s: section headers, symbol tables and relocations identical but for %d '
              'symbol name(s) made from __COUNTER__ or __LINE__: %s'
              % (name, len(moved), '; '.join('%s -> %s' % kv for kv in sorted(moved.items()))))
    return 0


if __name__ == '__main__':
    sys.exit(main())
