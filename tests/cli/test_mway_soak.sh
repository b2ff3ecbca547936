#!/usr/bin/env bash
# Soak: one m-way run of 10^6 measured cycles at or above saturation must never deadlock and must
# keep a clean scoreboard (a run above saturation cannot drain: drain_timeout, exit 5, is expected there).
# Usage: test_mway_soak.sh WORMCAST NET ALGO RATE
set -euo pipefail
wormcast=$1 net=$2 algo=$3 rate=$4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
set +e
"$wormcast" mway --net "$net" --algo "$algo" --len 5 --buffers 4 --rate "$rate" --warmup 1000 \
  --measure 1000000 --set sim.drain=0 --set sim.progress=off --json "$work/r.json" --deadlock-dot "$work/dl.dot"
rc=$?
set -e
[ $rc -ne 3 ] || { echo "FAIL: $net $algo at $rate deadlocked (wait-for graph:)"; cat "$work/dl.dot"; exit 1; }
/usr/bin/python3 - "$work/r.json" "$rc" <<'PY'
import json, sys
j = json.load(open(sys.argv[1])); rc = int(sys.argv[2])
ok = (j["deadlock"]["detected"] is False and j["scoreboard"]["errors"] == 0
      and j["status"] in ("ok", "unstable", "drain_timeout") and rc in (0, 5) and j["cycles"] >= 1001000)
print(f"{j['status']}: {j['cycles']} cycles, {j['packets']['delivered']} copies delivered, "
      f"message latency mean {j['message_latency'].get('mean')}, ejection {j['throughput']['accepted']}")
sys.exit(0 if ok else 1)
PY
