#!/usr/bin/env bash
# One routing against dimension order on the same network, pattern and load (8x8 torus, drained):
# DOR must be beyond saturation (unstable, exit 5) while the other routing carries the whole load,
# stable, with more than FACTOR times DOR's accepted load; both deliver every packet. Optional:
# the mean hop count of each (HOPS_DOR exactly, HOPS_ALT as LO:HI).
# Usage: routing_beats_dor.sh WORMCAST PATTERN RATE FACTOR "DOR SETS" "ALT SETS" "COMMON SETS" [HOPS_DOR HOPS_ALT]
set -uo pipefail
wormcast=$1 pattern=$2 rate=$3 factor=$4 dor_sets=$5 alt_sets=$6 common_sets=$7 hops_dor=${8:-} hops_alt=${9:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
sets() { for s in $1; do printf -- '--set\n%s\n' "$s"; done; }
mapfile -t common < <(sets "$common_sets")
mapfile -t dor < <(sets "$dor_sets")
mapfile -t alt < <(sets "$alt_sets")
run=(traffic --net torus:8x8 --rate "$rate" --warmup 0 --measure 20000 --set "traffic.pattern=$pattern"
     --set sim.drain=200000 --set sim.progress=off "${common[@]}")
"$wormcast" "${run[@]}" "${dor[@]}" --json "$work/dor.json" >/dev/null
rc_dor=$?
"$wormcast" "${run[@]}" "${alt[@]}" --json "$work/alt.json" >/dev/null
rc_alt=$?
[ $rc_dor -eq 5 ] && [ $rc_alt -eq 0 ] || { echo "FAIL: exit codes dor $rc_dor (want 5), other $rc_alt (want 0)"; exit 1; }
/usr/bin/python3 - "$work" "$factor" "$hops_dor" "$hops_alt" <<'PY'
import json, sys
w, factor, hops_dor, hops_alt = sys.argv[1], float(sys.argv[2]), sys.argv[3], sys.argv[4]
d, a = (json.load(open(f"{w}/{n}.json")) for n in ("dor", "alt"))
for j in (d, a):
    assert j["scoreboard"]["errors"] == 0
    assert j["packets"]["injected"] == j["packets"]["delivered"], j["packets"]
assert d["config"]["router"]["routing"] == "dor" and a["config"]["router"]["routing"] != "dor"
ad, aa = d["throughput"]["accepted"], a["throughput"]["accepted"]
assert not d["throughput"]["stable"] and a["throughput"]["stable"]
assert aa > factor * ad, (aa, ad)
assert aa >= 0.95 * a["throughput"]["offered"], a["throughput"]
def mean_hops(j):
    rows = j["latency_by_hops"]
    return sum(r["hops"] * r["packets"] for r in rows) / sum(r["packets"] for r in rows)
if hops_dor:
    assert abs(mean_hops(d) - float(hops_dor)) < 1e-9, mean_hops(d)
    lo, hi = map(float, hops_alt.split(":"))
    assert lo < mean_hops(a) < hi, mean_hops(a)
print(f"{a['config']['router']['routing']} at {d['throughput']['offered']}: accepted dor {ad}, other {aa}; "
      f"latency {d['latency']['mean']} vs {a['latency']['mean']}; mean hops {mean_hops(d):.2f} vs {mean_hops(a):.2f}")
PY
