#!/usr/bin/env bash
# scripts/gossip_tables regenerates the committed Tables 1-3 comparison byte for byte (the CSV, the
# JSON and the docs section), written into a directory and a copy of the doc of the test's own; a
# file as --out is refused with one line, exit 2.
# Usage: test_gossip_tables.sh SOURCE_DIR BUILD_DIR
set -u
src=$1 build=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
cp "$src/docs/experiments/gossip.md" "$work/gossip.md"
"$src/scripts/gossip_tables" --build "$build" --out "$work/out" --doc "$work/gossip.md" >"$work/log.txt" 2>&1 \
  || { echo "FAIL: gossip_tables: $(cat "$work/log.txt")"; exit 1; }
for f in tables.csv tables.json; do
  cmp -s "$work/out/$f" "$src/experiments/gossip/$f" || { echo "FAIL: $f differs from the committed one"; fail=1; }
done
cmp -s "$work/gossip.md" "$src/docs/experiments/gossip.md" || { echo "FAIL: the docs section differs"; fail=1; }
"$src/scripts/gossip_tables" --build "$build" --out "$work/out/tables.csv" >"$work/err.txt" 2>&1
rc=$?
[ $rc -eq 2 ] && [ "$(wc -l <"$work/err.txt")" -eq 1 ] && grep -q -- "--out" "$work/err.txt" \
  || { echo "FAIL: a file as --out: exit $rc: $(cat "$work/err.txt")"; fail=1; }
[ $fail -eq 0 ] && echo "ok: gossip_tables reproduces the committed tables"
exit $fail
