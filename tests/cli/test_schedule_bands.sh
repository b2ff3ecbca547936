#!/usr/bin/env bash
# sim.schedule=bands (docs/kernel.md section 5) computes what sim.schedule=cycles does: on a torus
# past saturation, a lightly loaded torus (routers and NIC ports asleep and woken), a mesh with
# Valiant routing, an interlaced bypass torus (links that reach across several rows) and a 3-D
# torus with channel delays and on-off sources, the JSON results of the two schedules must be equal
# (but for how the run was computed), with small blocks so that the tiles are skewed in rows and
# columns. The bands run must say it ran in bands; with a delivery trace (which needs the cycles
# in order) the run falls back to the cycle schedule and still gives the same results. The default,
# sim.schedule=auto, runs cycle by cycle with two threads or on one block; in one thread on several
# blocks it times both schedules on the run (the clock's probe) and runs the one measured faster:
# every probe's choice must be the way of its lower measured time per cycle, the cycles after it
# must run that way, and the results must equal the cycle schedule's. (The times themselves are not
# asserted.)
# Usage: test_schedule_bands.sh WORMCAST
set -euo pipefail
wormcast=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
run() {  # run NAME ARGS...: unstable runs exit nonzero by design; bad input (2) or no result is an error
  local name=$1 rc=0
  shift
  "$wormcast" traffic "$@" --set sim.progress=off --json "$work/$name.json" >/dev/null || rc=$?
  [[ $rc != 2 && -s $work/$name.json ]] || { echo "$name: exit $rc"; exit 1; }
  echo "$rc" >"$work/$name.rc"
}
cases=(
  "--net torus:16x16 --rate 0.3 --warmup 200 --measure 600 --set sim.band_nodes=16"
  "--net torus:16x16 --rate 0.04 --warmup 200 --measure 600 --set sim.band_nodes=64"
  "--net mesh:12x8 --rate 0.2 --warmup 100 --measure 400 --set router.routing=valiant --set sim.band_nodes=16"
  "--net ibt:16x16 --set ibt.bypass=4 --set ibt.routing=bypass --rate 0.2 --warmup 100 --measure 400 --set sim.band_nodes=32"
  "--net torus:6x6x6 --rate 0.2 --warmup 100 --measure 400 --set traffic.process=onoff --set router.injection_delay=2 --set router.ejection_delay=1 --set sim.band_nodes=16"
)
i=0
for c in "${cases[@]}"; do
  i=$((i + 1))
  read -r -a args <<<"$c"
  run "c$i" "${args[@]}" --set sim.schedule=cycles
  run "b$i" "${args[@]}" --set sim.schedule=bands
  cmp -s "$work/c$i.rc" "$work/b$i.rc" || { echo "case $i: exit codes differ"; exit 1; }
done
read -r -a args <<<"${cases[1]}"
"$wormcast" traffic "${args[@]}" --set sim.progress=off --set sim.schedule=bands --json "$work/d.json" \
  --deliveries "$work/d.csv" >/dev/null || true
[[ -s $work/d.csv ]] || { echo "no delivery trace"; exit 1; }
# sim.schedule=auto (the default): probed in one thread on 4 blocks (256 nodes, blocks of 64), cycles
# with two threads and on one block (blocks of the default 1024).
run a1 "${args[@]}" --set sim.threads=1
run a2 "${args[@]}" --set sim.threads=2
run a3 "${args[@]}" --set sim.threads=1 --set sim.band_nodes=1024
/usr/bin/python3 - "$work" "$i" <<'PY'
import json, sys
work, n = sys.argv[1], int(sys.argv[2])
def load(name):
    j = json.load(open(f"{work}/{name}.json"))
    j.pop("wormcast")
    th = j.pop("threads")
    j["config"]["sim"].pop("schedule")
    return j, th
for i in range(1, n + 1):
    c, tc = load(f"c{i}")
    b, tb = load(f"b{i}")
    assert tc["clock"] == "fused", f"case {i}: the cycle schedule ran with clock {tc['clock']}"
    assert tb["clock"] == "bands", f"case {i}: sim.schedule=bands ran with clock {tb['clock']}"
    diff = [k for k in c if c[k] != b.get(k)]
    assert not diff, f"case {i}: bands and cycles differ in {diff}"
    print(f"case {i}: {c['status']}, {c['packets']['delivered']} packets, {c['cycles']} cycles: identical")
d, td = load("d")
c, _ = load("c2")
assert td["clock"] == "fused", f"with a delivery trace the run should fall back to cycles, ran {td['clock']}"
assert d == c, "with a delivery trace the results differ"
print("with a delivery trace: cycles, identical")
for name, probed in (("a1", True), ("a2", False), ("a3", False)):
    a, ta = load(name)
    probe = ta.get("schedule_probe")
    assert (probe is not None) == probed, f"sim.schedule=auto, {name}: probed {probe is not None}, expected {probed}"
    if probed:
        # The run starts in bands (100 cycles), then each probe times both ways and the cycles until
        # the next probe run the way of the lower time per cycle.
        ps = probe["probes"]
        assert ps, f"{name}: a run of {a['cycles']} cycles on 4 blocks made no probe"
        bands = 100
        for p in ps:
            assert p["bands_cycles"] > 0 and p["cycles_cycles"] > 0, f"{name}: a probe did not time both ways: {p}"
            faster = "bands" if p["bands_ns_per_cycle"] < p["cycles_ns_per_cycle"] else "cycles"
            assert p["chose"] == faster, f"{name}: the probe chose {p['chose']} but measured {faster} faster: {p}"
            bands += p["bands_cycles"] + (p["cycles_after"] if p["chose"] == "bands" else 0)
        total = probe["cycles_in_bands"] + probe["cycles_cycle_by_cycle"]
        assert total == a["cycles"], f"{name}: {total} cycles run by the probed clock, the run has {a['cycles']}"
        assert probe["cycles_in_bands"] == bands, f"{name}: {probe['cycles_in_bands']} cycles in bands, the probes' choices give {bands}"
        assert ta["clock"] == "bands", f"{name}: the probed run started in bands but says clock {ta['clock']}"
    else:
        assert ta["clock"] == "fused", f"sim.schedule=auto, {name}: ran with clock {ta['clock']}, not fused"
    a["config"]["sim"].pop("threads")
    a["config"]["sim"].pop("band_nodes")
    c2 = json.loads(json.dumps(c))
    c2["config"]["sim"].pop("threads")
    c2["config"]["sim"].pop("band_nodes")
    assert a == c2, f"sim.schedule=auto, {name}: the results differ from the cycle schedule's"
print("sim.schedule=auto: probed on 4 blocks in one thread (each probe's choice the faster it measured), else cycles; identical")
PY
