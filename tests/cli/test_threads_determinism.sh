#!/usr/bin/env bash
# A run's results do not depend on sim.threads (docs/kernel.md): a torus, a mesh and an
# interlaced bypass torus, each past saturation, run with 1, 2, 3 and 5 threads (5: more than the
# cores of a small machine, where threads wait for a core and others take their lanes), and a
# 64x64 torus, large enough for two lanes per thread with two threads. The result
# JSON, but for the record of how the run was computed (the `threads` object and the echoed
# sim.threads and sim.lanes), and the delivery trace must be byte-identical to the one-thread
# run's. The runs with more than one thread run every edge they can in lanes (sim.lanes=always) and
# must have used that many lanes for most of their edges (else the comparison tested nothing); one
# more run with two threads lets the program choose per epoch between lanes and one thread by their
# measured cost (sim.lanes=timed: without the crowding rule, which on a machine busy with other
# tests could keep it in one thread) and must have run edges both ways.
# Usage: test_threads_determinism.sh WORMCAST [CYCLES]
set -euo pipefail
wormcast=$1
measure=${2:-600}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
common=(--warmup 200 --set sim.progress=off)
long="--measure $measure --set sim.drain=2000"
nets=(
  "--net torus:24x24 --rate 0.5 --vcs 2 --buf 4 $long"
  "--net mesh:24x24 --rate 0.3 --vcs 2 --buf 4 $long"
  "--net ibt:24x24 --set ibt.bypass=4 --set ibt.routing=bypass --rate 0.6 $long"
  "--net torus:64x64 --rate 0.3 --vcs 2 --buf 4 --measure 150 --set sim.drain=150"
)
i=0
for net in "${nets[@]}"; do
  read -r -a args <<<"$net"
  for th in 1 2 3 5 2a; do
    rc=0
    lanes=always
    [[ $th == 2a ]] && lanes=timed
    "$wormcast" traffic "${args[@]}" "${common[@]}" --set sim.threads=${th%a} --set sim.lanes=$lanes \
      --json "$work/$i.$th.json" --deliveries "$work/$i.$th.csv" >/dev/null || rc=$?
    # Unstable runs exit nonzero by design; bad input (2) or a missing result is an error here.
    [[ $rc != 2 && -s $work/$i.$th.json && -s $work/$i.$th.csv ]] || { echo "net $i, $th threads: exit $rc"; exit 1; }
    if [[ $th != 1 ]]; then
      cmp "$work/$i.1.csv" "$work/$i.$th.csv" || { echo "net $i: delivery traces differ, 1 and $th threads"; exit 1; }
    fi
  done
  i=$((i + 1))
done
/usr/bin/python3 - "$work" "$i" <<'PY'
import json, re, sys
work, n = sys.argv[1], int(sys.argv[2])

def results(path):
    """The file's text without the threads object and the echoed sim.threads and sim.lanes, and the object."""
    text = open(path).read()
    block = re.search(r'\n  "threads": \{\n(?:    .*\n)*?  \},?\n', text)
    assert block, f"{path}: no threads object"
    rest = text[:block.start()] + "\n" + text[block.end():]
    rest, k = re.subn(r'\n      "threads": (?:\d+|"auto"),?\n', "\n", rest)
    assert k == 1, f"{path}: sim.threads echoed {k} times"
    rest, k = re.subn(r'\n      "lanes": "(?:adaptive|timed|always)",?\n', "\n", rest)
    assert k == 1, f"{path}: sim.lanes echoed {k} times"
    return rest, json.load(open(path))

for i in range(n):
    ref, _ = results(f"{work}/{i}.1.json")
    for th in (1, 2, 3, 5):
        text, j = results(f"{work}/{i}.{th}.json")
        run = j["threads"]
        assert run["threads"] == th, f"net {i}: asked for {th} threads, ran {run['threads']}"
        # Lanes: one per thread below 2,048 routers per thread, else up to four of 1,024 or more.
        routers = 4096 if i == 3 else 576
        want = 1 if th == 1 else th * max(1, min(4, routers // (th * 1024)))
        assert run["lanes"] == want, f"net {i}, {th} threads: {run['lanes']} lanes, not {want}"
        assert run["links"] == "mailbox", f"net {i}, {th} threads: links {run['links']}, not mailbox"
        edges = run["parallel_edges"]
        if th == 1:
            assert edges == 0, f"net {i}: one thread ran {edges} edges in lanes"
        else:
            assert 2 * edges >= j["cycles"], f"net {i}, {th} threads: {edges} of {j['cycles']} edges in lanes"
        assert text == ref, f"net {i}: the results of {th} threads differ from one thread's"
    text, j = results(f"{work}/{i}.2a.json")
    run = j["threads"]
    assert run["parallel_edges"] > 0 and run["one_lane_edges"] > 0, \
        f"net {i}, timed: {run['parallel_edges']} edges in lanes, {run['one_lane_edges']} in one thread"
    assert text == ref, f"net {i}: the results of two threads, timed, differ from one thread's"
    print(f"net {i}: {j['status']}, {j['cycles']} cycles, {j['packets']['delivered']} packets: identical with 1, 2, 3 and 5 threads "
          f"({edges} edges in lanes with 5 threads) and with 2, timed ({run['parallel_edges']} edges in lanes, "
          f"{run['one_lane_edges']} in one thread)")
PY
