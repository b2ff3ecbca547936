#!/usr/bin/env bash
# ibt.routing = shortest on a 2-D and a 3-D interlaced bypass torus: a short uniform run exits 0
# with a clean scoreboard and every packet delivered, its mean route is shorter than bypass-first
# routing's on the same run; too many VCs per class for its 2 + L classes (L = d*k + 3 layers) exit 2
# with one line naming router.vcs_per_class and the allowed range.
# Usage: test_ibt_shortest.sh WORMCAST
set -uo pipefail
wormcast=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
run=(traffic --rate 0.05 --warmup 100 --measure 1000 --set sim.progress=off)
for net in "ibt:16x16 4" "ibt:9x9x9 3"; do
  set -- $net
  for routing in bypass shortest; do
    "$wormcast" "${run[@]}" --net "$1" --set "ibt.bypass=$2" --set "ibt.routing=$routing" \
      --json "$work/$routing.json" >/dev/null
    rc=$?
    [ $rc -eq 0 ] || { echo "FAIL: $1 <$2> $routing exited $rc, want 0"; exit 1; }
  done
  /usr/bin/python3 - "$work" "$1" <<'PY' || exit 1
import json, sys
w, net = sys.argv[1], sys.argv[2]
b, s = (json.load(open(f"{w}/{n}.json")) for n in ("bypass", "shortest"))
def mean_hops(j):
    rows = j["latency_by_hops"]
    return sum(r["hops"] * r["packets"] for r in rows) / sum(r["packets"] for r in rows)
for j in (b, s):
    assert j["scoreboard"]["errors"] == 0, j["scoreboard"]
    assert j["packets"]["injected"] == j["packets"]["delivered"] > 0, j["packets"]
assert s["config"]["ibt"]["routing"] == "shortest", s["config"]["ibt"]
assert mean_hops(s) < mean_hops(b), (mean_hops(s), mean_hops(b))
print(f"{net}: shortest {mean_hops(s):.3f} hops, bypass-first {mean_hops(b):.3f}, scoreboard clean")
PY
done
err=$("$wormcast" "${run[@]}" --net ibt:9x9x9 --set ibt.bypass=3 --set ibt.routing=shortest \
  --set router.vcs_per_class=4 2>&1 >/dev/null)
rc=$?
[ $rc -eq 2 ] || { echo "FAIL: 8 classes x 4 VCs exited $rc, want 2"; exit 1; }
[ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] || { echo "FAIL: want one line, got: $err"; exit 1; }
case "$err" in *router.vcs_per_class*allowed:\ 1..2*) ;; *) echo "FAIL: the error does not name the key and 1..2: $err"; exit 1 ;; esac
echo "ok"
