#!/usr/bin/env bash
# The crowding rule of sim.lanes=adaptive (docs/kernel.md): beside as many CPU-bound
# processes as the machine has cores, a two-thread run finds no free core for its second thread and
# runs its edges in one thread. Most of the edges that could run in lanes must be counted crowded
# (threads.crowded_edges), few may have run in lanes (those before two samples agreed), and the
# results must equal a one-thread run's. With sim.lanes=timed (no crowding rule) the same run counts
# no crowded edge.
# Usage: test_lanes_crowded.sh WORMCAST
set -euo pipefail
wormcast=$1
work=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
args=(traffic --net torus:24x24 --rate 0.5 --vcs 2 --buf 4 --warmup 100 --measure 300 --set sim.drain=1000
  --set sim.progress=off)
run() {  # run NAME ARGS...: unstable runs exit nonzero by design; bad input (2) or no result is an error
  local name=$1 rc=0
  shift
  "$wormcast" "${args[@]}" "$@" --json "$work/$name.json" --deliveries "$work/$name.csv" >/dev/null || rc=$?
  [[ $rc != 2 && -s $work/$name.json ]] || { echo "$name: exit $rc"; exit 1; }
}
run one --set sim.threads=1
for ((k = 0; k < $(nproc); ++k)); do
  (while :; do :; done) &
  pids+=($!)
done
run crowded --set sim.threads=2 --set sim.lanes=adaptive
run timed --set sim.threads=2 --set sim.lanes=timed
cmp "$work/one.csv" "$work/crowded.csv" || { echo "delivery traces differ, 1 thread and 2 crowded"; exit 1; }
/usr/bin/python3 - "$work" <<'PY'
import json, sys
work = sys.argv[1]
one, crowded, timed = (json.load(open(f"{work}/{n}.json")) for n in ("one", "crowded", "timed"))
for j in (one, crowded, timed):
    j.pop("wormcast")
th = crowded.pop("threads")
one.pop("threads")
tt = timed.pop("threads")
for j in (one, crowded):
    j["config"]["sim"].pop("threads")
    j["config"]["sim"].pop("lanes")
assert crowded == one, "the results of two crowded threads differ from one thread's"
could = th["crowded_edges"] + th["parallel_edges"] + th["one_lane_edges"]
assert could >= crowded["cycles"] // 2, f"{could} of {crowded['cycles']} edges could run in lanes"
assert th["crowded_edges"] >= 0.8 * could, f"crowded: {th['crowded_edges']} of the {could} edges that could run in lanes"
assert tt["crowded_edges"] == 0, f"timed: {tt['crowded_edges']} edges crowded"
print(f"beside CPU-bound processes on every core: {th['crowded_edges']} of {could} edges crowded, "
      f"{th['parallel_edges']} in lanes; results identical to one thread's")
PY
