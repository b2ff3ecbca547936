#!/usr/bin/env bash
# scripts/plot: the four views of a result JSON are drawn (torus and mesh, where the per-VC arrays
# carry router_activity.vc_order), an m-way result without per-VC arrays skips that view with a
# line saying so, and bad input exits 2 with one line and no file.
# Usage: test_plot.sh SOURCE_DIR WORMCAST
set -euo pipefail
src=$1 wormcast=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$wormcast" traffic --net mesh:4x4 --rate 0.2 --measure 1000 --json "$work/m.json" >/dev/null 2>&1 || true
grep -q '"vc_order"' "$work/m.json" || { echo "FAIL: router_activity.vc_order missing"; exit 1; }
"$src/scripts/plot" "$work/m.json" >/dev/null 2>&1
for v in histogram hops heatmap vcs; do
  [ -s "$work/m_$v.png" ] || { echo "FAIL: view $v not drawn"; exit 1; }
done
# A mixed network's RTL routers are seen at their ports only (counted false, empty per-VC lists,
# the form a --router mixed run writes): their cells are left gray and the per-VC view averages the
# SystemC routers; with every router RTL the per-VC view is skipped.
/usr/bin/python3 - "$work/m.json" "$work/x.json" "$work/r.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
act = j["router_activity"]
def rtl(i):
    act["per_router"][i].update(counted=False, mean_buffer_occupancy=0.0, blocked_vc=0, blocked_credit=0, blocked_switch=0)
    act["vc_blocking"][i] = {"vc": [], "credit": [], "switch": []}
    act["vc_utilization"][i] = []
for i in range(0, len(act["per_router"]), 2):
    rtl(i)
json.dump(j, open(sys.argv[2], "w"))
for i in range(len(act["per_router"])):
    rtl(i)
json.dump(j, open(sys.argv[3], "w"))
PY
out=$("$src/scripts/plot" "$work/x.json" 2>&1)
for v in histogram hops heatmap vcs; do
  [ -s "$work/x_$v.png" ] || { echo "FAIL: mixed network: view $v not drawn: $out"; exit 1; }
done
out=$("$src/scripts/plot" "$work/r.json" --views heatmap,vcs 2>&1)
grep -q "vcs: skipped (every router is RTL (seen at its ports only)" <<<"$out" && [ -s "$work/r_heatmap.png" ] \
  || { echo "FAIL: all-RTL network: $out"; exit 1; }
"$wormcast" mway --net mesh:3x3 --algo mst-safe --rate 0.01 --measure 500 --json "$work/w.json" >/dev/null 2>&1 || true
out=$("$src/scripts/plot" "$work/w.json" --views histogram,vcs 2>&1)
grep -q "vcs: skipped" <<<"$out" && [ -s "$work/w_histogram.png" ] \
  || { echo "FAIL: m-way per-VC view not skipped beside a drawn one: $out"; exit 1; }
# Nothing of what was asked in the result: refused (exit 2), nothing written.
set +e
out=$("$src/scripts/plot" "$work/w.json" --views vcs --prefix none 2>&1)
rc=$?
set -e
[ $rc -eq 2 ] && grep -q "vcs: no per-VC arrays" <<<"$out" && [ ! -e "$work/none_vcs.png" ] \
  || { echo "FAIL: a result with none of the views asked for: exit $rc, $out"; exit 1; }
set +e
"$src/scripts/plot" "$work/m.json" --views bogus --out "$work/x" 2>"$work/err"
rc=$?
set -e
[ $rc -eq 2 ] || { echo "FAIL: bad --views exited $rc"; exit 1; }
[ "$(wc -l <"$work/err")" -eq 1 ] && grep -q "views" "$work/err" || { echo "FAIL: error line"; cat "$work/err"; exit 1; }
echo '{}' >"$work/empty.json"
set +e
"$src/scripts/plot" "$work/empty.json" 2>/dev/null
rc=$?
set -e
[ $rc -eq 2 ] || { echo "FAIL: a non-result JSON exited $rc"; exit 1; }
ls "$work"/empty_*.png >/dev/null 2>&1 && { echo "FAIL: files written for bad input"; exit 1; }
echo "PASS: scripts/plot"
