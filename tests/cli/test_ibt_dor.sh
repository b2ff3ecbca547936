#!/usr/bin/env bash
# With ibt.routing = dor an interlaced bypass torus carries unicast traffic over its torus links
# only: the run equals the torus run of the same size flit for flit (latencies, packets, cycles),
# and its bypass links stay idle; with bypass routing they carry flits and the mean latency drops.
# Usage: test_ibt_dor.sh WORMCAST
set -euo pipefail
wormcast=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
run=(traffic --rate 0.2 --warmup 100 --measure 1500 --set sim.progress=off)
"$wormcast" "${run[@]}" --net torus:8x8 --json "$work/torus.json"
"$wormcast" "${run[@]}" --net ibt:8x8 --set ibt.bypass=2 --json "$work/dor.json"
"$wormcast" "${run[@]}" --net ibt:8x8 --set ibt.bypass=2 --set ibt.routing=bypass --json "$work/bypass.json"
/usr/bin/python3 - "$work" <<'PY'
import json, sys
w = sys.argv[1]
t, d, b = (json.load(open(f"{w}/{n}.json")) for n in ("torus", "dor", "bypass"))
for k in ("latency", "packets", "cycles", "network_latency"):
    assert t[k] == d[k], f"{k}: torus {t[k]} != ibt dor {d[k]}"
def bypass_use(j):
    links = j["links"]["utilization"]  # router-major, 6 network ports per router of a 2-D iBT
    return sum(links[r * 6 + p] for r in range(64) for p in (4, 5))
assert bypass_use(d) == 0, f"dor routing used bypass links ({bypass_use(d)})"
assert bypass_use(b) > 0, "bypass routing never used a bypass link"
assert b["latency"]["mean"] < d["latency"]["mean"], (b["latency"]["mean"], d["latency"]["mean"])
assert b["scoreboard"]["errors"] == 0
print(f"ibt dor == torus; bypass routing: mean latency {b['latency']['mean']} < {d['latency']['mean']}, "
      f"bypass-link utilization summed {bypass_use(b):.3f}")
PY
