#!/usr/bin/env bash
# sim.result_arrays: off drops the result's per-router and per-link arrays and nothing else (the
# totals, energy totals and every other field equal the run with them); auto keeps them on a small
# network; a bad value exits 2 with one line naming the key and the allowed values.
# Usage: test_result_arrays.sh WORMCAST
set -euo pipefail
wormcast=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for v in on off auto; do
  "$wormcast" traffic --net torus:8x8 --rate 0.2 --vcs 2 --buf 4 --warmup 100 --measure 300 \
    --set sim.progress=off --set sim.result_arrays=$v --json "$work/$v.json" >/dev/null
done
/usr/bin/python3 - "$work" <<'PY'
import json, sys
w = sys.argv[1]
on, off, auto = (json.load(open(f"{w}/{v}.json")) for v in ("on", "off", "auto"))
arrays = [("router_activity", "per_router"), ("router_activity", "vc_utilization"),
          ("router_activity", "vc_blocking"), ("energy", "per_router"), ("links", "utilization")]
for a, b in arrays:
    assert b in on[a] and b in auto[a], f"{a}.{b} missing with on/auto"
    assert b not in off[a], f"{a}.{b} present with off"
    del on[a][b]
for j in (on, off):
    del j["config"]["sim"]["result_arrays"]
    del j["threads"]
assert on == off, "results differ beyond the arrays: " + str([k for k in on if on[k] != off.get(k)])
print("off drops", len(arrays), "arrays; every other field equal")
PY
rc=0
"$wormcast" traffic --net torus:8x8 --set sim.result_arrays=some --json "$work/bad.json" 2>"$work/err" >/dev/null || rc=$?
[[ $rc == 2 && ! -e $work/bad.json && $(wc -l <"$work/err") == 1 ]] || { echo "bad value: exit $rc"; cat "$work/err"; exit 1; }
grep -q "sim.result_arrays" "$work/err" && grep -q "auto, on, off" "$work/err"
echo "bad value: exit 2"
