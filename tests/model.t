#!/usr/bin/env bash
# tests/model.t - bench/models/memcg_stock.py, the model of the per-CPU memcg
# stock's designs: each design keeps the bound it states per CPU and per
# memcg, the model tells the designs apart, and bad input is refused.
# Needs: python3.
source "$(dirname "$0")/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
model=$TOP/bench/models/memcg_stock.py

"$model" --ops 8000 --json > "$tmp/m.json" 2> "$tmp/m.err"
check "model: exit 0" test $? -eq 0
# most seen DESIGN KEY: the largest KEY over the design's cases
most() {
	python3 -c 'import json, sys
rows = [r for r in json.load(open(sys.argv[1])) if r["design"] == sys.argv[2]]
print(max(r[sys.argv[3]] for r in rows) if rows else -1)' "$tmp/m.json" "$1" "$2"
}
for d in base hyst32 budget-own budget; do
	check "model: $d holds at most 448 pages a CPU" test "$(most $d max_cpu)" -le 448 -a "$(most $d max_cpu)" -gt 0
done
check "model: budget's slots reach 128 pages, and no more" test "$(most budget max_slot)" -eq 128
check "model: base's slots stay at 64 pages" test "$(most base max_slot)" -eq 64
# the model can see a design break the per-CPU bound: ceiling 128 does
check "model: ceiling128 goes past 448 pages a CPU" test "$(most ceiling128 max_cpu)" -gt 448

"$model" --ops 8000 > "$tmp/m.txt" 2>&1
check "model: a table of every design" has "$tmp/m.txt" '^workload +K +base +ceiling128 +hyst32 +budget-own +budget +headroom$'
check "model: the stated bounds" has "$tmp/m.txt" '^per CPU, and ancestor +448 +896 +448 +448 +448 +896$'

"$model" --ops 10 > "$tmp/bad" 2>&1
check "model: too few operations refused (exit 2)" test $? -eq 2
check "model: ... with one line that says why" has "$tmp/bad" 'error: --ops must be at least 1000'
done_testing
