#!/usr/bin/env bash
# scripts/booksim_compare --grid: each grid point runs both simulators with its own V, B, L and
# topology, and the table, CSV and JSON say what they found. The other simulator here is a
# stand-in that is stable up to a known load (0.3) and prints BookSim2's summary lines, so the test
# checks the bisection, the overrides BookSim2 is given per point and the output files, not the
# models. A bad grid entry, --grid-points without --grid or --nets with it, is a one-line error,
# exit 2, and no output file. --first-seed moves the seeds.
# Usage: test_booksim_grid.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
src=$1 build=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat >"$work/fake_booksim" <<'SH'
#!/bin/sh
# Records its overrides; stable (latency 20, accepted = offered) up to injection_rate 0.3
# (FAKE_SATURATION).
echo "$@" >>"$(dirname "$0")/args.txt"
rate=$(echo "$@" | tr ' ' '\n' | sed -n 's/^injection_rate=//p')
if awk "BEGIN { exit !($rate > ${FAKE_SATURATION:-0.3}) }"; then echo "Simulation unstable"; echo "Time taken is 999 cycles"; exit 255; fi
echo "====== Overall Traffic Statistics ======"
echo "Packet latency average = 20 (1 samples)"
echo "Accepted flit rate average = $rate (1 samples)"
echo "Time taken is 1234 cycles"
exit 255
SH
chmod +x "$work/fake_booksim"
export WORMCAST_BUILD=$build
for bad in "torus:4x4:1:2" "ring:4x4:1:2:5" "torus:4x4:9:2:5" "torus:4x8:1:2:5" "torus:4x4:1:0:5" \
           "torus:4x4:1:2:5,torus:4x4:1:2:5"; do
  set +e
  "$src/scripts/booksim_compare" --booksim "$work/fake_booksim" --grid --grid-points "$bad" --out "$work/bad" \
    >"$work/err.txt" 2>&1
  rc=$?
  set -e
  [ $rc -eq 2 ] || { echo "FAIL: --grid-points $bad gave exit $rc, not 2"; cat "$work/err.txt"; exit 1; }
  [ "$(wc -l <"$work/err.txt")" -eq 1 ] || { echo "FAIL: $bad: not a one-line error:"; cat "$work/err.txt"; exit 1; }
  grep -q -- "--grid-points" "$work/err.txt" || { echo "FAIL: $bad: the error does not name --grid-points"; exit 1; }
  [ ! -e "$work/bad" ] || { echo "FAIL: $bad: an output folder was left behind"; exit 1; }
done
# --grid-points without --grid (the points were never read, the --nets comparison ran): refused.
set +e
"$src/scripts/booksim_compare" --booksim "$work/fake_booksim" --grid-points foo --out "$work/bad" >"$work/err.txt" 2>&1
rc=$?
set -e
[ $rc -eq 2 ] && [ "$(wc -l <"$work/err.txt")" -eq 1 ] && grep -q -- "--grid-points = 'foo'.*--grid" "$work/err.txt" \
  && [ ! -e "$work/bad" ] || { echo "FAIL: --grid-points without --grid: exit $rc: $(cat "$work/err.txt")"; exit 1; }
# --nets with --grid (the grid's networks are --grid-points', --nets was never read): refused.
set +e
"$src/scripts/booksim_compare" --booksim "$work/fake_booksim" --grid --grid-points torus:4x4:1:2:5 --nets 8x8 --seeds 1 \
  --period 50 --tol 0.1 --out "$work/bad" >"$work/err.txt" 2>&1
rc=$?
set -e
[ $rc -eq 2 ] && [ "$(wc -l <"$work/err.txt")" -eq 1 ] && grep -q -- "--nets = '8x8'.*with --grid" "$work/err.txt" \
  && [ ! -e "$work/bad" ] && [ ! -e "$work/args.txt" ] \
  || { echo "FAIL: --nets with --grid: exit $rc: $(cat "$work/err.txt")"; exit 1; }
# --nets as BookSim2's torus takes them (one radix), each once; a network wormcast refuses is its
# own line and exit 2.
for bad in "4x2" "4x4,4x4"; do
  set +e
  "$src/scripts/booksim_compare" --booksim "$work/fake_booksim" --nets "$bad" --out "$work/bad" >"$work/err.txt" 2>&1
  rc=$?
  set -e
  [ $rc -eq 2 ] && [ "$(wc -l <"$work/err.txt")" -eq 1 ] && grep -q -- "--nets" "$work/err.txt" && [ ! -e "$work/bad" ] \
    || { echo "FAIL: --nets $bad: exit $rc: $(cat "$work/err.txt")"; exit 1; }
done
set +e
"$src/scripts/booksim_compare" --booksim "$work/fake_booksim" --grid --grid-points mesh:2000x2000:1:4:5 --seeds 1 \
  --out "$work/big" >"$work/err.txt" 2>&1
rc=$?
set -e
[ $rc -eq 2 ] && grep -q "net.radix" "$work/err.txt" || { echo "FAIL: a network wormcast refuses: exit $rc: $(cat "$work/err.txt")"; exit 1; }
[ ! -e "$work/args.txt" ] || { echo "FAIL: BookSim2 ran for a bad grid"; exit 1; }
# A point wormcast refuses after one it takes: refused before any run (named, one line), no folder.
set +e
"$src/scripts/booksim_compare" --booksim "$work/fake_booksim" --grid --grid-points torus:4x4:1:2:5,torus:2000:1:2:5 \
  --seeds 1 --out "$work/late" >"$work/err.txt" 2>&1
rc=$?
set -e
[ $rc -eq 2 ] && [ "$(wc -l <"$work/err.txt")" -eq 1 ] && grep -q -- "--grid-points entry 'torus:2000:1:2:5'.*net.radix" "$work/err.txt" \
  && [ ! -e "$work/late" ] && [ ! -e "$work/args.txt" ] \
  || { echo "FAIL: a refused second point: exit $rc, folder $([ -e "$work/late" ] && echo left): $(cat "$work/err.txt")"; exit 1; }
# --wormcast-set: a key the script sets for each run is refused; a point refused on its own names
# itself with its own reason, not the extra key's; a key refused with a valid point names --wormcast-set.
for args in "torus:4x4:1:2:5|router.vcs_per_class=2|the script sets router.vcs_per_class" \
            "torus:4x4:1:2:5|sim.measure=100|the script sets sim.measure" \
            "torus:1024x1024:8:64:64|bogus.key=1|entry 'torus:1024x1024:8:64:64': sim.watchdog = 2000 is invalid" \
            "torus:4x4:1:2:5|bogus.key=1|--wormcast-set (with --grid-points entry 'torus:4x4:1:2:5'): config: unknown key 'bogus.key'"; do
  IFS='|' read -r pt kv want <<<"$args"
  set +e
  "$src/scripts/booksim_compare" --booksim "$work/fake_booksim" --grid --grid-points "$pt" --wormcast-set "$kv" \
    --out "$work/ws" >"$work/err.txt" 2>&1
  rc=$?
  set -e
  [ $rc -eq 2 ] && [ "$(wc -l <"$work/err.txt")" -eq 1 ] && grep -qF -- "$want" "$work/err.txt" && [ ! -e "$work/ws" ] \
    || { echo "FAIL: --grid-points $pt --wormcast-set $kv: exit $rc: $(cat "$work/err.txt") (want: $want)"; exit 1; }
done
[ ! -e "$work/args.txt" ] || { echo "FAIL: BookSim2 ran for a refused --wormcast-set"; exit 1; }
# A program that cannot run, with --wormcast-set: one line naming it, exit 2 (not an internal error).
for prog in "$work/none" /etc/passwd; do
  set +e
  WORMCAST=$prog "$src/scripts/booksim_compare" --booksim "$work/fake_booksim" --grid --grid-points torus:4x4:1:2:5 \
    --wormcast-set router.switch_accept=vc --out "$work/noprog" >"$work/err.txt" 2>&1
  rc=$?
  set -e
  [ $rc -eq 2 ] && [ "$(wc -l <"$work/err.txt")" -eq 1 ] && grep -q "WORMCAST = $prog" "$work/err.txt" && [ ! -e "$work/noprog" ] \
    || { echo "FAIL: WORMCAST=$prog: exit $rc: $(cat "$work/err.txt")"; exit 1; }
done

"$src/scripts/booksim_compare" --booksim "$work/fake_booksim" --grid --grid-points torus:4x4:1:2:5,mesh:4x4:2:4:1 \
  --seeds 1 --period 50 --tol 0.05 --out "$work/g" >"$work/table.md" 2>"$work/log.txt"
[ ! -s "$work/log.txt" ] || { echo "FAIL: output on a non-terminal stderr:"; cat "$work/log.txt"; exit 1; }
/usr/bin/python3 - "$work/g" "$work/args.txt" "$work/table.md" <<'PY'
import csv, json, sys
out, args, table = sys.argv[1], open(sys.argv[2]).read().split("\n"), open(sys.argv[3]).read()
fails = []
j = json.load(open(out + "/grid.json"))
rows = j["rows"]
if [(r["net"], r["vcs_per_class"], r["buffer"], r["packet"]) for r in rows] != [("torus:4x4", 1, 2, 5), ("mesh:4x4", 2, 4, 1)]:
    fails.append(f"rows {[(r['net'], r['vcs_per_class'], r['buffer'], r['packet']) for r in rows]}")
for r in rows:
    # The stand-in is stable up to 0.3: bisection to 0.05 ends within 0.05 below it.
    sat = r["booksim2_saturation"]
    if not (0.25 <= sat <= 0.3) or r["booksim2_seeds_at_bracket_edge"]:
        fails.append(f"{r['net']}: BookSim2 saturation {sat}, the stand-in's is 0.3")
    if r["booksim2_latency_50"] != 20 or abs(r["rate_80"] - 0.8 * sat) > 1e-3:
        fails.append(f"{r['net']}: latency {r['booksim2_latency_50']} at {r['rate_80']}")
    if not (0 < r["wormcast_saturation"] < 1) or r["wormcast_zero_load"] <= 0:
        fails.append(f"{r['net']}: wormcast saturation {r['wormcast_saturation']}, zero load {r['wormcast_zero_load']}")
    if r["period"] < 50 or r["theta"] <= 0:
        fails.append(f"{r['net']}: period {r['period']}, theta {r['theta']}")
runs = [a for a in args if a]
torus = [a for a in runs if "vc_buf_size=2 " in a]
mesh = [a for a in runs if "vc_buf_size=4 " in a]
if not torus or not all("num_vcs=2 " in a and "packet_size=5 " in a and "topology=mesh" not in a for a in torus):
    fails.append(f"torus runs: {torus[:2]}")
if not mesh or not all("num_vcs=2 " in a and "packet_size=1 " in a and "topology=mesh" in a for a in mesh):
    fails.append(f"mesh runs: {mesh[:2]}")
if len(torus) + len(mesh) != len(runs):
    fails.append(f"{len(runs)} runs, {len(torus)} torus and {len(mesh)} mesh")
with open(out + "/grid.csv") as f:
    if len(list(csv.DictReader(f))) != 2:
        fails.append("grid.csv does not hold the two rows")
if table != open(out + "/grid.md").read() or table.count("| torus:4x4 | 1 | 2 | 5 |") != 1:
    fails.append("the printed table is not grid.md, or lacks the torus row")
if fails:
    print("FAIL: " + "; ".join(fails))
    sys.exit(1)
print("ok: booksim_compare --grid")
PY
# --first-seed S runs seeds S..S+N-1 (the zero-load and theta runs at S) and says so in the JSON;
# a first seed out of range is a one-line error, exit 2, nothing written.
rm -f "$work/args.txt"
"$src/scripts/booksim_compare" --booksim "$work/fake_booksim" --grid --grid-points torus:4x4:1:2:5 \
  --seeds 2 --first-seed 7 --period 50 --tol 0.1 --out "$work/s" >/dev/null 2>&1
seeds=$(tr ' ' '\n' <"$work/args.txt" | sed -n 's/^seed=//p' | sort -u | tr '\n' ' ')
[ "$seeds" = "7 8 " ] || { echo "FAIL: --first-seed 7 --seeds 2 ran BookSim2 with seeds '$seeds', want '7 8 '"; exit 1; }
/usr/bin/python3 -c '
import json, sys
j = json.load(open(sys.argv[1]))
ok = j["settings"]["first_seed"] == 7 and j["rows"][0]["first_seed"] == 7 and "seed 7," in j["settings"]["criterion"]
sys.exit(0 if ok else print("FAIL: grid.json does not name first seed 7:", j["settings"], j["rows"][0].get("first_seed")) or 1)' \
  "$work/s/grid.json"
for bad in 0 999999 x; do
  set +e
  "$src/scripts/booksim_compare" --booksim "$work/fake_booksim" --grid --grid-points torus:4x4:1:2:5 --seeds 3 \
    --first-seed "$bad" --out "$work/bad" >"$work/err.txt" 2>&1
  rc=$?
  set -e
  [ $rc -eq 2 ] && [ "$(wc -l <"$work/err.txt")" -eq 1 ] && grep -q -- "--first-seed" "$work/err.txt" && grep -q "1\.\.1000000" "$work/err.txt" \
    && [ ! -e "$work/bad" ] \
    || { echo "FAIL: --first-seed $bad: exit $rc: $(cat "$work/err.txt")"; exit 1; }
done
echo "ok: booksim_compare --first-seed"
# A low saturation is resolved to 1 % of itself (--rel-tol), not to --tol's 0.005 (40 % here),
# and the bisection ends (the loads are rounded to four decimals: 0.0002 at the finest).
FAKE_SATURATION=0.0123 "$src/scripts/booksim_compare" --booksim "$work/fake_booksim" --grid \
  --grid-points torus:4x4:1:2:5 --seeds 1 --period 50 --out "$work/low" >/dev/null 2>&1 \
  || { echo "FAIL: a saturation of 0.0123"; exit 1; }
/usr/bin/python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))["rows"][0]["booksim2_saturation"]
sys.exit(0 if 0.0123 * 0.98 <= s <= 0.0123 else print("FAIL: a saturation of 0.0123 found as", s) or 1)' "$work/low/grid.json"
echo "ok: booksim_compare resolves a low saturation"
# A signal that stops the script stops the other simulator too (it was left running).
cat >"$work/slow_booksim" <<'SH'
#!/bin/sh
echo $$ >"$(dirname "$0")/slow.pid"
exec sleep 300
SH
chmod +x "$work/slow_booksim"
"$src/scripts/booksim_compare" --booksim "$work/slow_booksim" --nets 4x4 --seeds 1 --period 50 --jobs 1 \
  --out "$work/slow" >/dev/null 2>&1 &
script_pid=$!
for _ in $(seq 300); do [ -s "$work/slow.pid" ] && break; sleep 0.1; done
[ -s "$work/slow.pid" ] || { echo "FAIL: the stand-in simulator never started"; kill $script_pid; exit 1; }
kill -INT $script_pid
set +e; wait $script_pid; rc=$?; set -e
sleep 0.5
child=$(cat "$work/slow.pid")
state=$(ps -o stat= -p "$child" 2>/dev/null || true)  # gone, or a zombie no one has reaped yet
case "$state" in ""|Z*) ;; *) kill "$child"; echo "FAIL: the other simulator ran on after the script stopped ($state)"; exit 1 ;; esac
[ $rc -eq 130 ] || { echo "FAIL: an interrupted booksim_compare exited $rc, not 130"; exit 1; }
echo "ok: booksim_compare stops the other simulator with it"
