#!/usr/bin/env bash
# Valiant routing (docs/router.md section 13) from the command line.
#   tornado: beats dimension order on tornado with the same eight VCs per port (DOR with V = 4 per
#     dateline class; Valiant with V = 2 per class and phase), both with tail re-allocation, B = 8
#     and random ties: at 0.27 flits/node/cycle on an 8x8 torus DOR is beyond saturation (unstable,
#     exit 5, its accepted load collapsed) while Valiant carries the whole load, stable; both
#     deliver every packet.
#   refused: the combinations Valiant does not support exit 2 with one line naming the field.
# Usage: test_valiant.sh WORMCAST tornado|refused
set -uo pipefail
wormcast=$1
section=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1

case "$section" in
tornado)
  run=(traffic --net torus:8x8 --rate 0.27 --warmup 0 --measure 20000 --set traffic.pattern=tornado
       --set router.buffer_depth=8 --set router.vc_realloc=tail --set traffic.tie=random
       --set sim.drain=200000 --set sim.progress=off)
  "$wormcast" "${run[@]}" --set router.vcs_per_class=4 --json "$work/dor.json" >/dev/null
  rc_dor=$?
  "$wormcast" "${run[@]}" --set router.routing=valiant --set router.vcs_per_class=2 --json "$work/val.json" >/dev/null
  rc_val=$?
  [ $rc_dor -eq 5 ] && [ $rc_val -eq 0 ] || { echo "FAIL: exit codes dor $rc_dor (want 5), valiant $rc_val (want 0)"; exit 1; }
  /usr/bin/python3 - "$work" <<'PY'
import json, sys
w = sys.argv[1]
d, v = (json.load(open(f"{w}/{n}.json")) for n in ("dor", "val"))
for j in (d, v):
    assert j["scoreboard"]["errors"] == 0
    assert j["packets"]["injected"] == j["packets"]["delivered"], j["packets"]
assert d["config"]["router"]["routing"] == "dor" and v["config"]["router"]["routing"] == "valiant"
ad, av = d["throughput"]["accepted"], v["throughput"]["accepted"]
assert not d["throughput"]["stable"] and v["throughput"]["stable"]
assert av > 1.5 * ad, (av, ad)
assert av >= 0.95 * v["throughput"]["offered"], v["throughput"]
# Valiant's paths are longer: the mean hop count of the measured packets is about twice DOR's 6.
def mean_hops(j):
    rows = j["latency_by_hops"]
    return sum(r["hops"] * r["packets"] for r in rows) / sum(r["packets"] for r in rows)
assert abs(mean_hops(d) - 6.0) < 1e-9, mean_hops(d)
assert 7.0 < mean_hops(v) < 9.0, mean_hops(v)
print(f"tornado 8x8 at 0.27: accepted dor {ad}, valiant {av}; latency {d['latency']['mean']} vs "
      f"{v['latency']['mean']}; mean hops {mean_hops(d):.2f} vs {mean_hops(v):.2f}")
PY
  ;;
refused)
  fail=0
  expect_refused() {  # field, then the overrides
    local field=$1
    shift
    local sets=()
    for s in "$@"; do sets+=(--set "$s"); done
    local err
    err=$("$wormcast" traffic --measure 10 --json "$work/bad.json" "${sets[@]}" 2>&1 >/dev/null)
    local rc=$?
    if [ $rc -ne 2 ]; then echo "FAIL: $* exited $rc, want 2"; fail=1; fi
    if [ -e "$work/bad.json" ]; then echo "FAIL: $* left an output file"; fail=1; fi
    if [ "$(printf '%s\n' "$err" | wc -l)" -ne 1 ]; then echo "FAIL: $* error is not one line: $err"; fail=1; fi
    case "$err" in *"$field"*) ;; *) echo "FAIL: $* error does not name $field: $err"; fail=1 ;; esac
  }
  expect_refused router.routing router.routing=valiant router.model=rtl
  expect_refused router.routing router.routing=valiant router.model=mixed
  # The RTL's routing is named as what is allowed.
  err=$("$wormcast" traffic --measure 10 --set router.routing=valiant --set router.model=rtl 2>&1 >/dev/null)
  case "$err" in *"allowed with router.model = rtl or mixed: dor"*) ;; *) echo "FAIL: rtl error: $err"; fail=1 ;; esac
  # Two sets of C * V VCs: at most 4 per dateline class.
  expect_refused router.vcs_per_class router.routing=valiant router.vcs_per_class=5
  # A torus-family key: the interlaced bypass torus routes by ibt.routing.
  expect_refused router.routing net.family=ibt net.radix=16x16 router.routing=valiant
  # Accepted: the largest VC count, a mesh, the allocator units.
  for ok in "router.vcs_per_class=4" "net.topology=mesh" "router.allocator=output-first"; do
    "$wormcast" config --check --set router.routing=valiant --set "$ok" >/dev/null 2>&1 ||
      { echo "FAIL: router.routing=valiant with $ok refused"; fail=1; }
  done
  exit $fail
  ;;
*)
  echo "usage: test_valiant.sh WORMCAST tornado|refused" >&2
  exit 2
  ;;
esac
