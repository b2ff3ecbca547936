#!/usr/bin/env bash
# traffic.rng (docs/statistics.md, the sources' random streams): auto is the twister up to 65,536
# sources (the same run as mt19937_64, byte for byte); counter is another stream, deterministic
# per seed, offering the configured load; the result names the generator that ran; a bad value is
# refused (exit 2).
# Usage: test_traffic_rng.sh WORMCAST
set -euo pipefail
wormcast=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
run() {  # NAME ARGS...: the run's JSON and delivery trace in $work/NAME.{json,csv}
  local name=$1
  shift
  "$wormcast" traffic --net torus:8x8 --rate 0.2 --warmup 200 --measure 2000 --set sim.progress=off "$@" \
    --json "$work/$name.json" --deliveries "$work/$name.csv" >/dev/null
}
run auto
run twister --set traffic.rng=mt19937_64
run counter --set traffic.rng=counter
run counter2 --set traffic.rng=counter
run counter_seed --set traffic.rng=counter --set sim.seed=2
cmp "$work/auto.csv" "$work/twister.csv" || { echo "auto and mt19937_64 differ on 64 sources"; exit 1; }
cmp "$work/counter.csv" "$work/counter2.csv" || { echo "counter: two runs with one seed differ"; exit 1; }
if cmp -s "$work/counter.csv" "$work/twister.csv"; then echo "counter gave the twister's run"; exit 1; fi
if cmp -s "$work/counter.csv" "$work/counter_seed.csv"; then echo "counter: seeds 1 and 2 gave one run"; exit 1; fi
/usr/bin/python3 - "$work" <<'PY'
import json, sys
work = sys.argv[1]
def load(n):
    return json.load(open(f"{work}/{n}.json"))
for name, want in (("auto", "mt19937_64"), ("twister", "mt19937_64"), ("counter", "counter")):
    got = load(name)["traffic_rng"]
    if got != want:
        sys.exit(f"{name}: traffic_rng {got}, expected {want}")
# The counter-based stream offers the configured load: 64 sources x 2000 cycles at 0.2 flits per
# node per cycle are about 5,120 packets of 5 flits (a standard deviation of about 1.4 %).
off = load("counter")["throughput"]["offered"]
if abs(off - 0.2) > 0.01:
    sys.exit(f"counter: offered {off}, expected 0.2 +- 0.01")
PY
rc=0
"$wormcast" traffic --net torus:4x4 --rate 0.1 --set traffic.rng=pcg >/dev/null 2>&1 || rc=$?
[[ $rc == 2 ]] || { echo "traffic.rng=pcg: exit $rc, expected 2"; exit 1; }
echo "traffic.rng: ok"
