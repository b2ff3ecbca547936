#!/usr/bin/env bash
# A run's results do not depend on sim.threads (docs/router.md section 5.7): each configuration is
# run with one and with two threads and the JSON results must be equal but for the threads
# record itself; the two-thread runs must have run edges in two lanes (else nothing was tested).
# The configurations cover the router options that change what a router writes per edge, the mesh,
# the interlaced bypass torus and a deadlock.
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
)
i=0
for c in "${configs[@]}"; do
  read -r -a args <<<"$c"
  extra=("${common[@]}")
  for th in 1 2; do
    # Unstable and deadlocked runs exit nonzero by design; bad input (2) is an error here.
    rc=0
    "$wormcast" "${args[@]}" "${extra[@]}" --set sim.threads=$th --json "$work/$i.$th.json" >/dev/null || rc=$?
    [[ $rc != 2 && -s $work/$i.$th.json ]] || { echo "config $i, $th threads: exit $rc"; exit 1; }
  done
  i=$((i + 1))
done
/usr/bin/python3 - "$work" "$i" <<'PY'
import json, sys
work, n = sys.argv[1], int(sys.argv[2])
for i in range(n):
    a, b = (json.load(open(f"{work}/{i}.{t}.json")) for t in (1, 2))
    assert a["threads"]["parallel_edges"] == 0, (i, a["threads"])
    assert b["threads"]["parallel_edges"] > 0, f"config {i}: two threads never ran an edge in two lanes"
    for j in (a, b):
        del j["threads"]
        del j["config"]["sim"]["threads"]
    assert a == b, f"config {i}: results differ between one and two threads: " + str(
        [k for k in a if a[k] != b.get(k)])
    print(f"config {i}: {b['status']}, equal with two threads")
PY
