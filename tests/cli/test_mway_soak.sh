#!/usr/bin/env bash
# Soak (label long): one m-way all-broadcast run of 10^6 cycles of generation at or above
# saturation, then generation stops and the network must drain. It passes only when every message
# is accounted for:
#   - every message generated was either injected or dropped at a full source queue (counted:
#     traffic.source_queue bounds the backlog a run past saturation builds, as a NIC's send queue
#     does; the drop count is printed),
#   - every injected message reached every node of its region exactly once (scoreboard clean,
#     delivered copies = injected messages x (N - 1), nothing in flight or outstanding at the end),
#   - no deadlock, livelock or drain timeout. A deadlock must name its wait-for cycle (never an
#     empty one); a stall that is no cycle must be reported as lost data. Either fails the soak.
# Usage: test_mway_soak.sh WORMCAST CONFIG ALGO RATE SEED [CYCLES (default 1000000)]
set -euo pipefail
wormcast=$1 config=$2 algo=$3 rate=$4 seed=$5 cycles=${6:-1000000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
set +e
"$wormcast" run "$config" --set mway.algo="$algo" --set traffic.rate="$rate" --set sim.seed="$seed" \
  --set sim.warmup=0 --set sim.measure="$cycles" --set sim.drain=1000000 --set traffic.source_queue=8 \
  --set sim.progress=off --json "$work/r.json" --deadlock-dot "$work/dl.dot" >"$work/out.txt" 2>&1
rc=$?
set -e
cat "$work/out.txt"
if [ $rc -eq 3 ]; then
  grep -q "wait-for cycle:" "$work/out.txt" || echo "FAIL: exit 3 without a wait-for cycle"
  echo "FAIL: $config $algo at $rate seed $seed deadlocked"
  exit 1
fi
/usr/bin/python3 - "$work/r.json" "$rc" "$cycles" <<'PY'
import json, math, sys
j = json.load(open(sys.argv[1])); rc = int(sys.argv[2])
nodes = math.prod(int(x) for x in str(j["config"]["net"]["radix"]).split("x"))
p, t = j["packets"], j["throughput"]
fails = []
if rc not in (0, 5):
    fails.append(f"exit {rc}")
if j["status"] not in ("ok", "unstable"):
    fails.append(f"status {j['status']} (did not drain)")
if j["scoreboard"]["errors"]:
    fails.append(f"scoreboard errors {j['scoreboard']['errors']}: {j['scoreboard']['first_errors']}")
if j["deadlock"]["detected"] or j["livelock"]["detected"]:
    fails.append("deadlock or livelock detected")
if p["outstanding_at_end"] or p["in_flight_at_end"]:
    fails.append(f"outstanding {p['outstanding_at_end']}, in flight {p['in_flight_at_end']} at the end")
if p["delivered"] != p["injected"] * (nodes - 1):
    fails.append(f"delivered copies {p['delivered']} != injected messages {p['injected']} x {nodes - 1}")
if t["measured_undelivered"]:
    fails.append(f"{t['measured_undelivered']} measured messages undelivered")
if j["cycles"] < int(sys.argv[3]):
    fails.append(f"only {j['cycles']} cycles")
print(f"{j['status']}: {j['cycles']} cycles; {p['injected']} messages injected, {t['source_overflow']} dropped at "
      f"full source queues; {p['delivered']} copies delivered to {nodes - 1} nodes each; message latency mean "
      f"{j['message_latency'].get('mean')}; ejection {t['accepted']} flits/node/cycle")
for f in fails:
    print("FAIL:", f)
sys.exit(1 if fails else 0)
PY
