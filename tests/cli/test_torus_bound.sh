#!/usr/bin/env bash
# torus-bound runs the flits wormcast runs under its configuration: on 2-D and 3-D tori, odd and even
# radix, light and loaded, with and without its bookkeeping features, every hop (cycle, router,
# ports, VC, packet, flit, head, tail) of its trace is one of wormcast's and the other way round,
# and the mean latency and accepted load it prints are wormcast's; with its statistics, so are the
# routers' window totals, the latency and network latency summaries, the latency by hops and the
# least and most accepted node. Bad input is one line naming the
# option, exit 2, no trace file.
# Usage: test_torus_bound.sh WORMCAST TORUS_BOUND
set -euo pipefail
wc=$1 bound=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for point in "8 2 0.26 3 none" "8 2 0.26 3 all" "5 2 0.35 7 stats" "4 3 0.3 2 dispatch" "6 2 0.02 4 sleep"; do
  set -- $point
  k=$1 n=$2 rate=$3 seed=$4 features=$5
  shape=$k; for ((d = 1; d < n; d++)); do shape=${shape}x$k; done
  extra=(); [[ $features == none ]] || extra=(--features "$features")
  "$bound" --k "$k" --dims "$n" --rate "$rate" --warmup 1500 --measure 1500 --seed "$seed" "${extra[@]}" \
    --trace "$work/b.csv" >"$work/b.txt"
  "$wc" traffic --net "torus:$shape" --pattern uniform-all --rate "$rate" --vcs 2 --buf 8 --len 5 --warmup 1500 \
    --measure 1500 --set "sim.seed=$seed" --set sim.progress=off --set router.local_ports=one \
    --set traffic.pattern=uniform-all --set router.preset=booksim-iq --trace "$work/w.csv" --json "$work/w.json" >"$work/w.txt"
  tail -n +2 "$work/w.csv" | sort >"$work/w.sorted"
  sort "$work/b.csv" >"$work/b.sorted"
  hops=$(wc -l <"$work/w.sorted")
  [[ $hops -gt 1000 ]] || { echo "FAIL torus:$shape $rate: only $hops hops"; exit 1; }
  cmp -s "$work/w.sorted" "$work/b.sorted" || {
    echo "FAIL torus:$shape $rate seed $seed features $features: the hop traces differ"; diff "$work/w.sorted" "$work/b.sorted" | head -5; exit 1; }
  lw=$(grep -o 'latency mean [0-9.]*' "$work/w.txt") lb=$(grep -o 'latency mean [0-9.]*' "$work/b.txt")
  aw=$(grep -o 'accepted [0-9.]*' "$work/w.txt") ab=$(grep -o 'accepted [0-9.]*' "$work/b.txt")
  [[ -n $lw && $lw == "$lb" && -n $aw && $aw == "$ab" ]] || {
    echo "FAIL torus:$shape $rate: wormcast $lw $aw, torus-bound $lb $ab"; exit 1; }
  if [[ $features == stats || $features == all ]]; then  # every count it keeps is wormcast's
    sed -n 's/^stats: //p' "$work/b.txt" >"$work/b.json"
    /usr/bin/python3 - "$work/w.json" "$work/b.json" <<'PY' || { echo "FAIL torus:$shape $rate: the statistics differ"; exit 1; }
import json, sys
w, b = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
want = {"router_activity": {k: w["router_activity"]["totals"][k] for k in b["router_activity"]},
        "latency": w["latency"], "network_latency": w["network_latency"], "latency_by_hops": w["latency_by_hops"],
        "accepted_per_node": {k: w["accepted_per_node"][k] for k in ("min", "max")}}
bad = [k for k in want if want[k] != b[k]]
if len(b["router_activity"]) != 8 or bad:
    sys.exit(f"{bad}: wormcast {[want[k] for k in bad]}, torus-bound {[b[k] for k in bad]}")
PY
    lw="$lw, statistics identical"
  fi
  echo "torus:$shape $rate seed $seed features $features: $hops hops identical, $lw, $aw"
done
for bad in "--k 1" "--dims 4" "--rate 2" "--measure 0" "--features fast" "--rate 1 --k 64 --measure 10000000"; do
  rc=0
  "$bound" $bad --trace "$work/bad.csv" >"$work/out" 2>"$work/err" || rc=$?
  [[ $rc == 2 && $(wc -l <"$work/err") == 1 && ! -s $work/out && ! -e $work/bad.csv ]] || {
    echo "FAIL torus-bound $bad: exit $rc"; cat "$work/err"; exit 1; }
  grep -q "^torus-bound: ${bad%% *}.*allowed" "$work/err" || { echo "FAIL torus-bound $bad: $(cat "$work/err")"; exit 1; }
done
echo "torus-bound: bad input exits 2"
