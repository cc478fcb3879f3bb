#!/usr/bin/env bash
# lab/stages/bisect.sh - stage "bisect": build and boot each commit of the series
# on its own, to show that every patch builds and boots alone.
#
# Usage: lab/stages/bisect.sh [--check] [FIRST [LAST]]   patch numbers, default 1 .. the last
#   --check                     only check the settings and exit (make
#                               bisect runs it before make tree)
#   CONFIGS="..." (env)         config fragments for every commit
#                               (default: the one default kernel,
#                               lab/lib/common.sh's DEFAULT_CONFIGS); "vm"
#                               alone builds each commit with the series'
#                               options off
#   BOOT_TIMEOUT=S (env)        per boot (default 900)
# What it does: for each commit of build/linux after mmscale/base in the
# range, checks it out in a detached worktree (build/bisect/tree), writes
# build/bisect/NNNN.config from the fragments without the lines whose
# symbol no Kconfig file of that commit defines yet (so a patch is built
# with the options that exist at that point), builds bzImage into
# build/bisect/obj (one output tree for all commits, so each build is
# incremental) and boots it under QEMU (lab/stages/boot.sh) with the built-in
# KUnit suites on.  lab/py/report.py then checks the console: the guest
# reached user space and powered off, no KUnit case failed, and no
# BUG/WARNING/lockdep/KASAN report appeared.  Prints one TAP line per
# commit and "N passed, N failed" at the end; exits 1 if any failed.
# Every setting is checked before anything is written.
# What it needs: "make tree" done (build/linux), lab/stages/deps.sh's packages.
# Writes build/bisect/ (logs: build/bisect/NNNN.{build,console}.log).
set -euo pipefail
source "$(dirname "$0")/../lib/common.sh"

STAGE=bisect
checking=0
[ "${1:-}" != --check ] || { checking=1; shift; }
usage="usage: lab/stages/bisect.sh [FIRST [LAST]] with 1 <= FIRST <= LAST"
[ $# -le 2 ] || die "$usage (patch numbers)"
first=${1:-1}
last=${2:-}
in_range "$first" 1 9999 && { [ -z "$last" ] || { in_range "$last" 1 9999 && [ "$first" -le "$last" ]; }; } ||
	die "$usage (patch numbers), not '$*'"
CONFIGS=${CONFIGS:-$DEFAULT_CONFIGS}
want_fragments "CONFIGS=$CONFIGS" "$CONFIGS"
want_boot_settings
# the range against patches/ (the tree is made from it), before any stage
np=$(patch_count)
[ "$first" -le "$np" ] && [ "${last:-$np}" -le "$np" ] || die "$usage <= $np (patches/ holds $np patches), not '$*'"
[ "$checking" = 0 ] || exit 0
BOOT_TIMEOUT=${BOOT_TIMEOUT:-900}
out=$BUILD/bisect
wt=$out/tree
obj=$out/obj

[ -d "$TREE/.git" ] || die "no $TREE; run 'make tree' first"
mapfile -t commits < <(git -C "$TREE" rev-list --reverse "$BASE_TAG..HEAD")
n=${#commits[@]}
[ "$n" -gt 0 ] || die "$TREE has no commits after $BASE_TAG"
last=${last:-$n}
[ "$last" -le "$n" ] && [ "$first" -le "$last" ] || die "$usage <= $n"
stage bisect "$out/bisect.log"

if [ ! -e "$wt/.git" ]; then
	rm -rf "$wt"
	run_logged git -C "$TREE" worktree add --detach "$wt" "${commits[0]}" ||
		die "git worktree add $wt failed"
fi
mkdir -p "$obj"
kmake_init "$wt" "$obj"
mk=("${KMAKE[@]}")

pass=0 fail=0
echo "TAP version 13"
echo "1..$((last - first + 1))"
for ((i = first; i <= last; i++)); do
	c=${commits[i - 1]}
	num=$(printf '%04d' "$i")
	subj=$(git -C "$TREE" log -1 --format=%s "$c")
	say "$num $subj"
	run_logged git -C "$wt" checkout -q --detach "$c" || die "checkout of $num failed"

	# Only the symbols this commit's Kconfig files define
	frag=$out/$num.config
	: > "$frag"
	for cfg in $CONFIGS; do
		while IFS= read -r line; do
			sym=$(sed -nE 's/^(# )?CONFIG_([A-Za-z0-9_]+)[= ].*/\2/p' <<< "$line")
			if [ -z "$sym" ]; then
				continue
			elif git -C "$wt" grep -qE "^[[:space:]]*(menu)?config $sym\$" -- '*Kconfig*'; then
				echo "$line" >> "$frag"
			fi
		done < "$(fragment_path "$cfg")"
	done

	why=
	blog=$out/$num.build.log
	if ! env -C "$wt" scripts/kconfig/merge_config.sh -O "$obj" "$frag" > "$blog" 2>&1; then
		why="config failed (log: $blog)"
	elif ! "${mk[@]}" bzImage >> "$blog" 2>&1; then
		why="build failed (log: $blog)"
	else
		clog=$out/$num.console.log
		rdir=$out/$num.report
		rm -rf "$rdir"
		mkdir -p "$rdir"
		if ! "$LAB_DIR/stages/boot.sh" -k "$obj/arch/x86/boot/bzImage" -l "$clog" \
			-t "$BOOT_TIMEOUT" -s 0 -a "kunit.enable=1" >> "$STAGE_LOG" 2>&1; then
			why="boot failed (log: $clog)"
		elif ! "$LAB_DIR/py/report.py" --console "$clog" --ksrc "$wt" --line "$BASE" --out "$rdir" \
			--expect kunit > "$rdir/report.txt" 2>&1; then
			why="KUnit failure or kernel report: $(json_fields "$rdir/result.json" failed || echo ?) failed (see $rdir/report.txt)"
		fi
	fi
	if [ -z "$why" ]; then
		pass=$((pass + 1))
		echo "ok $((i - first + 1)) - $num $subj"
	else
		fail=$((fail + 1))
		echo "not ok $((i - first + 1)) - $num $subj # $why"
	fi
done
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
