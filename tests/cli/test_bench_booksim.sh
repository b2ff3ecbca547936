#!/usr/bin/env bash
# scripts/bench --booksim: both simulators run on the same point, interleaved, and the ratio is
# the one of the two whole-process rates, each from the cycles its simulator reports. The other
# simulator here is a stand-in that prints BookSim2's summary lines after a known pause, so the
# test checks the bench's arithmetic and parsing, not a speed. A missing executable, or --router
# (which --booksim does not read), is a one-line error, exit 2, and no output file. Under --preset
# booksim-iq torus-bound runs too (alone and with its features), with wormcast's latency.
# Usage: test_bench_booksim.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
src=$1 build=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat >"$work/fake_booksim" <<'SH'
#!/bin/sh
# Echoes the overrides it was given, so the test can check them, then BookSim2's summary.
echo "$@" >>"$(dirname "$0")/args.txt"
# And the CPUs it may run on (every run of an invocation is pinned to one, the same as wormcast's).
sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/$$/status >>"$(dirname "$0")/cpus.txt"
sleep 0.3
echo "====== Overall Traffic Statistics ======"
echo "Packet latency average = 21.5 (1 samples)"
echo "Accepted flit rate average = 0.005 (1 samples)"
echo "Time taken is 1234 cycles"
exit 255
SH
chmod +x "$work/fake_booksim"
export WORMCAST_BUILD=$build
set +e
"$src/scripts/bench" --booksim "$work/missing" --out "$work/none.json" >"$work/err.txt" 2>&1
rc=$?
set -e
[ $rc -eq 2 ] || { echo "FAIL: a missing --booksim gave exit $rc, not 2"; cat "$work/err.txt"; exit 1; }
[ "$(wc -l <"$work/err.txt")" -eq 1 ] || { echo "FAIL: not a one-line error:"; cat "$work/err.txt"; exit 1; }
grep -q -- "--booksim" "$work/err.txt" || { echo "FAIL: the error does not name --booksim"; exit 1; }
[ ! -e "$work/none.json" ] || { echo "FAIL: an output file was left behind"; exit 1; }
# --router with --booksim (whose wormcast runs are the SystemC router's; --router was ignored):
# refused naming --router and --booksim, before any run, no output file.
set +e
"$src/scripts/bench" --booksim "$work/fake_booksim" --router rtl --quick --points 8x8 --out "$work/router.json" \
  >"$work/err.txt" 2>&1
rc=$?
set -e
[ $rc -eq 2 ] && [ "$(wc -l <"$work/err.txt")" -eq 1 ] && grep -q -- "--router = 'rtl'.*with --booksim" "$work/err.txt" \
  && [ ! -e "$work/router.json" ] && [ ! -e "$work/args.txt" ] \
  || { echo "FAIL: --booksim --router rtl: exit $rc: $(cat "$work/err.txt")"; exit 1; }

"$src/scripts/bench" --booksim "$work/fake_booksim" --quick --points 8x8 --repeat 3 --out "$work/b.json"
/usr/bin/python3 - "$work/b.json" "$work/args.txt" "$work/cpus.txt" <<'PY'
import json, os, sys
j = json.load(open(sys.argv[1]))
args = open(sys.argv[2]).read().split("\n")
fails = []
# Pinned by default to the lowest CPU the script may use, every BookSim2 run alike.
low = min(os.sched_getaffinity(0))
if j["host"].get("pinned_cpu") != low:
    fails.append(f"pinned_cpu {j['host'].get('pinned_cpu')}, want the lowest allowed CPU {low}")
cpus = open(sys.argv[3]).read().split()
if len(cpus) != 6 or set(cpus) != {str(low)}:
    fails.append(f"BookSim2 ran on CPUs {cpus}, want CPU {low} alone in each of its 6 runs")
pts = j["points"]
if [p["net"] for p in pts] != ["torus:8x8", "torus:8x8"]:
    fails.append(f"points {[p['net'] for p in pts]}")
if len([a for a in args if a]) != 3 * len(pts):
    fails.append(f"{len(args)} BookSim2 runs for {len(pts)} points x 3 repeats")
for p in pts:
    w, b = p["wormcast"], p["booksim2"]
    if len(w["runs"]) != 3 or len(b["runs"]) != 3:
        fails.append(f"{p['rate']}: {len(w['runs'])} and {len(b['runs'])} runs, not 3 each")
    if any(r["cycles"] != 1234 for r in b["runs"]):
        fails.append(f"{p['rate']}: BookSim2 cycles {[r['cycles'] for r in b['runs']]}, printed 1234")
    for r in w["runs"] + b["runs"]:
        rate = p["routers"] * r["cycles"] / r["wall_s"] / 1e6
        if abs(rate - r["mrcps_whole"]) > 2e-3 * rate + 1e-4:  # both rounded in the JSON
            fails.append(f"{p['rate']}: rate {r['mrcps_whole']} is not routers x cycles / wall = {rate:.4f}")
    if b["mrcps_whole"] > 64 * 1234 / 0.3 / 1e6:
        fails.append(f"{p['rate']}: BookSim2 at {b['mrcps_whole']} M rc/s is faster than its 0.3 s pause allows")
    want = w["mrcps_whole"] / b["mrcps_whole"]
    if abs(p["ratio"] - want) > 0.006 * want + 0.006:
        fails.append(f"{p['rate']}: ratio {p['ratio']}, medians give {want:.3f}")
    if not f"injection_rate={p['rate']}" in " ".join(args):
        fails.append(f"{p['rate']}: BookSim2 was not run at that load")
    if w["cycles"] < 6 * p["period"]:
        fails.append(f"{p['rate']}: wormcast ran {w['cycles']} cycles, fewer than 6 x P = {6 * p['period']}")
if "k=8 n=2" not in " ".join(args):
    fails.append("BookSim2 not run as an 8x8 torus")
for kind, sel in (("light", lambda p: p["rate"] <= 0.005), ("loaded", lambda p: p["rate"] > 0.005)):
    low = min(p["ratio"] for p in pts if sel(p))
    if j["summary"][kind]["min_ratio"] != low:
        fails.append(f"summary: the lowest {kind} ratio is {low}, the summary says {j['summary'][kind]}")
h = j["host"]
if not h["cpu"] or len(h["load_average_1min"]) != 2:
    fails.append(f"host {h}")
if fails:
    print("FAIL:", *fails, sep="\n  ")
    sys.exit(1)
print(f"ok: {len(pts)} points, ratios {[p['ratio'] for p in pts]}")
PY

# --preset booksim-iq: torus-bound (built beside the program) runs in turn with the two, alone and
# with --features all; both mean latencies are wormcast's, and of_bound (of_bound_full) is wormcast's
# median rate over the bound's (the full bound's).
# (With --pin none: each run where the scheduler puts it.)
rm -f "$work/cpus.txt"
"$src/scripts/bench" --booksim "$work/fake_booksim" --quick --points 8x8 --repeat 2 --preset booksim-iq --pin none \
  --out "$work/iq.json"
/usr/bin/python3 - "$work/iq.json" "$work/cpus.txt" <<'PY'
import json, os, sys
j = json.load(open(sys.argv[1]))
fails = []
if j["host"].get("pinned_cpu") is not None:
    fails.append(f"--pin none: pinned_cpu {j['host'].get('pinned_cpu')}")
every = open("/proc/self/status").read().split("Cpus_allowed_list:")[1].split()[0]
if set(open(sys.argv[2]).read().split()) != {every}:
    fails.append(f"--pin none: BookSim2 ran with CPUs {open(sys.argv[2]).read().split()}, want {every}")
if not j.get("bound"):
    fails.append("no bound named in the JSON")
for p in j["points"]:
    w, d = p["wormcast"], p.get("bound")
    if not d or len(d["runs"]) != 2:
        fails.append(f"{p['rate']}: bound runs {d and len(d['runs'])}, not 2")
        continue
    if d["latency_mean"] != w["latency_mean"]:
        fails.append(f"{p['rate']}: bound latency {d['latency_mean']}, wormcast {w['latency_mean']}")
    want = w["mrcps_whole"] / d["mrcps_whole"]
    if abs(p["of_bound"] - want) > 0.001 * want + 0.001:
        fails.append(f"{p['rate']}: of_bound {p['of_bound']}, medians give {want:.3f}")
    f = p.get("bound_full")
    if not f or len(f["runs"]) != 2 or f["latency_mean"] != w["latency_mean"]:
        fails.append(f"{p['rate']}: full bound {f and (len(f['runs']), f['latency_mean'])}, want 2 runs, wormcast's latency")
        continue
    want = w["mrcps_whole"] / f["mrcps_whole"]
    if abs(p["of_bound_full"] - want) > 0.001 * want + 0.001:
        fails.append(f"{p['rate']}: of_bound_full {p['of_bound_full']}, medians give {want:.3f}")
    want = f["mrcps_whole"] / p["booksim2"]["mrcps_whole"]
    if abs(p["bound_full_ratio"] - want) > 0.006 * want + 0.006:
        fails.append(f"{p['rate']}: bound_full_ratio {p['bound_full_ratio']}, medians give {want:.3f}")
if fails:
    print("FAIL:", *fails, sep="\n  ")
    sys.exit(1)
print(f"ok: of_bound {[p['of_bound'] for p in j['points']]}, of_bound_full {[p['of_bound_full'] for p in j['points']]}")
PY
