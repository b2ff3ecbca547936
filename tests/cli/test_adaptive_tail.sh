#!/usr/bin/env bash
# Minimal-adaptive routing with router.vc_realloc = tail stays deadlock-free beyond saturation
# (docs/router.md section 12: an adaptive VC is taken only when empty under either policy; when it
# was taken behind another packet's flits, these runs deadlocked): every run ends unstable (exit
# 5), never deadlocked (exit 3), with a clean scoreboard.
# Usage: test_adaptive_tail.sh WORMCAST
set -uo pipefail
bin=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
for net in torus:8x8 mesh:6x6; do
  for seed in 1 2; do
    "$bin" traffic --net $net --rate 0.8 --set router.routing=min-adaptive --set router.vc_realloc=tail \
      --warmup 100 --measure 3000 --set sim.watchdog=20000 --set sim.seed=$seed --set sim.progress=off \
      --json "$work/r.json" >"$work/out.txt" 2>&1
    rc=$?
    /usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if d["status"] != "deadlock" and d["scoreboard"]["errors"] == 0 else 1)' "$work/r.json" 2>/dev/null \
      && [ $rc -eq 5 ] || { echo "FAIL: $net seed $seed: exit $rc, $(head -2 "$work/out.txt")"; fail=1; }
  done
done
[ $fail -eq 0 ] && echo "min-adaptive with tail reallocation: no deadlock"
exit $fail
