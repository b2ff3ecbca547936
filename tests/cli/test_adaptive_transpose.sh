#!/usr/bin/env bash
# Minimal adaptive routing beats dimension order on transpose with the same VCs per port (four:
# DOR with V = 2 per dateline class; min-adaptive with V = 1 escape VC per class and A = 2
# adaptive VCs): at 0.4 flits/node/cycle on an 8x8 torus DOR is beyond saturation (unstable,
# exit 5) while min-adaptive carries the whole load, stable; both deliver every packet.
# Usage: test_adaptive_transpose.sh WORMCAST
set -uo pipefail
wormcast=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
run=(traffic --net torus:8x8 --rate 0.4 --warmup 0 --measure 20000 --set traffic.pattern=transpose
     --set sim.drain=200000 --set sim.progress=off)
"$wormcast" "${run[@]}" --set router.vcs_per_class=2 --json "$work/dor.json" >/dev/null
rc_dor=$?
"$wormcast" "${run[@]}" --set router.routing=min-adaptive --json "$work/ada.json" >/dev/null
rc_ada=$?
[ $rc_dor -eq 5 ] && [ $rc_ada -eq 0 ] || { echo "FAIL: exit codes dor $rc_dor (want 5), min-adaptive $rc_ada (want 0)"; exit 1; }
/usr/bin/python3 - "$work" <<'PY'
import json, sys
w = sys.argv[1]
d, a = (json.load(open(f"{w}/{n}.json")) for n in ("dor", "ada"))
for j in (d, a):
    assert j["scoreboard"]["errors"] == 0
    assert j["packets"]["injected"] == j["packets"]["delivered"], j["packets"]
ad, aa = d["throughput"]["accepted"], a["throughput"]["accepted"]
assert not d["throughput"]["stable"] and a["throughput"]["stable"]
assert aa > 1.2 * ad, (aa, ad)
assert aa >= 0.95 * a["throughput"]["offered"], a["throughput"]
print(f"transpose 8x8 at 0.4: accepted dor {ad}, min-adaptive {aa}; latency {d['latency']['mean']} vs {a['latency']['mean']}")
PY
