#!/usr/bin/env bash
# A run's results depend neither on sim.threads, nor on how the links carry their values
# (docs/kernel.md), nor on how the clock runs the edges (section 4): each
# configuration runs in one and in two threads, each without a waveform (the links are mailboxes,
# the clock fused) and with one (--vcd keeps the links queued and the clock a signal; the waveform
# is kept to cycle 0, it only has to exist). The
# JSON results must be equal but for the record of how the run was computed; each run must report
# the link and clock modes it was meant to use, and the two-thread runs must have run edges in two
# lanes (else nothing was tested), but at low load (the last configuration), where lanes may not
# engage.
# The configurations cover the router options that change what a router or NIC port writes per
# edge, the mesh, the interlaced bypass torus, a deadlock and low load (members sleep and are
# woken through their links).
# Usage: test_threads.sh WORMCAST
set -euo pipefail
wormcast=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
common=(--warmup 200 --measure 1500 --set sim.progress=off)
configs=(
  "traffic --net torus:16x16 --rate 0.13 --vcs 2 --buf 8 --len 5"
  "traffic --net torus:16x16 --rate 0.3 --set router.preset=booksim-iq --vcs 2 --buf 8 --len 5"
  "traffic --net torus:6x6x6 --rate 0.2 --set router.vc_realloc=tail --set router.credit_delay=2 --set router.allocator=output-first --buf 3"
  "traffic --net torus:16x16 --pattern transpose --rate 0.3 --set router.routing=min-adaptive --set router.adaptive_vcs=2"
  "traffic --net torus:16x16 --pattern tornado --rate 0.2 --set router.routing=valiant --vcs 2 --set router.allocator=islip --set router.islip_iterations=2"
  "traffic --net mesh:16x12 --rate 0.2 --set router.local_ports=one --buf 2 --vcs 1 --set router.injection_delay=2 --set router.ejection_delay=1"
  "traffic --net ibt:16x16 --set ibt.bypass=4 --set ibt.routing=bypass --rate 0.2"
  "traffic --net torus:16x16 --rate 0.9 --vcs 1 --buf 2 --set router.dateline=false"
  "traffic --net torus:16x16 --rate 0.01 --set router.preset=booksim-iq"
)
runs=("1 mailbox" "1 queued" "2 mailbox" "2 queued")
i=0
for c in "${configs[@]}"; do
  read -r -a args <<<"$c"
  for run in "${runs[@]}"; do
    read -r th mode <<<"$run"
    wave=()
    [[ $mode == queued ]] && wave=(--vcd "$work/$i.vcd" --vcd-window 0:1)
    # Unstable and deadlocked runs exit nonzero by design; bad input (2) is an error here.
    rc=0
    "$wormcast" "${args[@]}" "${common[@]}" --set sim.threads=$th --set sim.lanes=always "${wave[@]}" --json "$work/$i.$th.$mode.json" \
      >/dev/null || rc=$?
    [[ $rc != 2 && -s $work/$i.$th.$mode.json ]] || { echo "config $i, $th threads, $mode: exit $rc"; exit 1; }
  done
  i=$((i + 1))
done
/usr/bin/python3 - "$work" "$i" <<'PY'
import json, sys
work, n = sys.argv[1], int(sys.argv[2])
for i in range(n):
    ref = None
    for th, mode in ((1, "mailbox"), (1, "queued"), (2, "mailbox"), (2, "queued")):
        j = json.load(open(f"{work}/{i}.{th}.{mode}.json"))
        run = j["threads"]
        assert run["links"] == mode, f"config {i}, {th} threads: links {run['links']}, not {mode}"
        clock = "fused" if mode == "mailbox" else "signal"  # the clock runs mailbox networks directly
        assert run["clock"] == clock, f"config {i}, {th} threads, {mode}: clock {run['clock']}, not {clock}"
        lanes = run["parallel_edges"]
        assert (lanes == 0) if th == 1 else (lanes > 0 or i == n - 1), \
            f"config {i}: {th} threads ran {lanes} edges in lanes"
        del j["threads"]
        del j["config"]["sim"]["threads"]
        j["config"].pop("output", None)
        if ref is None:
            ref = j
        assert j == ref, f"config {i}, {th} threads, {mode} links: results differ: " + str(
            [k for k in ref if ref[k] != j.get(k)])
    print(f"config {i}: {ref['status']}, equal with mailbox and queued links, in one and two threads")
PY
