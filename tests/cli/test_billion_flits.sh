#!/usr/bin/env bash
# Soak: an 8x8 torus near saturation until at least 10^9 flits are delivered, with a clean
# scoreboard, no deadlock, no livelock and no source overflow (label long).
# Usage: test_billion_flits.sh WORMCAST [RATE] [MEASURED_CYCLES]
set -u
bin=$1
rate=${2:-0.22}
measure=${3:-72500000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
"$bin" traffic --net torus:8x8 --rate "$rate" --measure "$measure" --set sim.progress=off --json "$work/r.json"
rc=$?
[ $rc -eq 0 ] || { echo "FAIL: exit $rc"; exit 1; }
/usr/bin/python3 - "$work/r.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
flits = j["packets"]["delivered"] * j["config"]["traffic"]["packet_len"]
print(f"delivered {flits} flits in {j['cycles']} cycles, accepted {j['throughput']['accepted']}, "
      f"scoreboard errors {j['scoreboard']['errors']}, source overflow {j['throughput']['source_overflow']}")
ok = (flits >= 10**9 and j["scoreboard"]["errors"] == 0 and j["status"] == "ok"
      and j["packets"]["in_flight_at_end"] == 0 and j["throughput"]["source_overflow"] == 0)
sys.exit(0 if ok else 1)
PY
