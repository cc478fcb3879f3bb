#!/usr/bin/env bash
# tests/apply.t - the tree stage stops at a patch that does not apply,
# naming the patch file and the kernel version, and never touches patches/.
# Needs: build/src from "make source" (about 40 s to clone a scratch tree);
# skipped without it.  Writes only into a scratch folder.
source "$(dirname "$0")/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

[ -d "$LB/src/.git" ] || skip_all "no build/src (make source; make check has it)"
export LOGS=$tmp/logs
cp -a "$LP" "$tmp/patches"
cat > "$tmp/patches/$LT/9999-mm-broken-on-purpose.patch" <<'PATCH'
From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001
From: mmscale developers <mmscale@localhost>
Date: Sun, 29 Nov 2026 00:00:00 +0000
Subject: [PATCH] mm: a patch whose context is not in the base

---
 mm/memory.c | 2 +-
 1 file changed, 1 insertion(+), 1 deletion(-)

diff --git a/mm/memory.c b/mm/memory.c
--- a/mm/memory.c
+++ b/mm/memory.c
@@ -10,3 +10,3 @@
 this line is not in mm/memory.c
-neither is this one
+so the hunk cannot apply
 nor this one
-- 
PATCH
echo 9999-mm-broken-on-purpose.patch >> "$tmp/patches/$LT/series"
before=$(cd "$TOP" && git status --porcelain -- patches; cat patches/*/series patches/*/*/series)

PATCHES=$tmp/patches TREE=$tmp/linux "$TOP/lab/stages/tree.sh" > "$tmp/out" 2>&1
check "tree stage fails on the broken patch" test $? -ne 0
check "error names the stage, the patch file and the version" \
	has "$tmp/out" '^ERROR: stage tree: .*patches/'"$LT"'/9999-mm-broken-on-purpose.patch \(patch [0-9]+ of [0-9]+\) does not apply to Linux '"$LV"'\.[0-9]+ at mm/memory.c'
check "error names the log file" has "$tmp/out" '\(log: .*/tree.log\)'
check "patches/ is unchanged" test "$before" = "$(cd "$TOP" && git status --porcelain -- patches; cat patches/*/series patches/*/*/series)"

echo missing.patch > "$tmp/patches/$LT_LAST/series"
PATCHES=$tmp/patches TREE=$tmp/linux "$TOP/lab/stages/tree.sh" > "$tmp/out" 2>&1
check "a series entry without its file fails" has "$tmp/out" '^ERROR: stage tree: .*patches/'"$LT_LAST"'/series names missing.patch'
done_testing
