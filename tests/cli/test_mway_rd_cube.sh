#!/usr/bin/env bash
# On a binary hypercube recursive doubling and MST-unicast build the same tree (each step halves
# the region along the next dimension, one hop away), so their runs are the same run: identical
# delivery traces, flit for flit and cycle for cycle, here on a 6-cube past saturation with
# contention (what lets docs/experiments/mway.md give the 9-cube's RD saturation as MST-unicast's).
# On a mesh they differ (RD forwards over 4, 2 and 1 hops where MST-unicast goes hop by hop).
# Usage: test_mway_rd_cube.sh WORMCAST
set -euo pipefail
wormcast=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for net in cube:6 mesh:4x4x4; do
  for a in rd mst-unicast; do
    rc=0
    "$wormcast" mway --net "$net" --algo "$a" --rate 0.01 --measure 2000 --seed 3 --json "$work/$a.json" \
      --deliveries "$work/$a.csv" >/dev/null 2>&1 || rc=$?
    [ $rc -eq 0 ] || [ $rc -eq 5 ] || { echo "FAIL: $net $a exited $rc"; exit 1; }
    /usr/bin/python3 -c "import json,sys; j=json.load(open(sys.argv[1])); sys.exit(j['scoreboard']['errors'] != 0)" "$work/$a.json" \
      || { echo "FAIL: $net $a scoreboard errors"; exit 1; }
  done
  lines=$(wc -l <"$work/rd.csv")
  [ "$lines" -gt 10000 ] || { echo "FAIL: $net: only $lines deliveries"; exit 1; }
  if [ "$net" = cube:6 ]; then
    cmp -s "$work/rd.csv" "$work/mst-unicast.csv" || { echo "FAIL: cube:6: RD and MST-unicast deliveries differ"; exit 1; }
  else
    ! cmp -s "$work/rd.csv" "$work/mst-unicast.csv" || { echo "FAIL: mesh:4x4x4: RD and MST-unicast deliveries are identical"; exit 1; }
  fi
done
echo "PASS: RD is MST-unicast on the hypercube (identical deliveries), not on the mesh"
