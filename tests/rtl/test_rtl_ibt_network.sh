#!/usr/bin/env bash
# RTL routers in the interlaced bypass torus iBT(16^2; <4>): the all-RTL network (and a
# checkerboard of RTL and SystemC routers) delivers every flit at the same cycle as the
# all-SystemC one, and every hop at the same cycle from the same input port, under bypass-first and
# dimension-order routing, and runs the iBT broadcast that sends over bypass links as the SystemC
# one; a routing the Verilog router lacks exits 2 naming its key.
set -u
bin=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
fail=0
# shellcheck source=same_traces.sh
. "$(dirname "$0")/same_traces.sh"

# Uniform random traffic, 2,000 cycles, under each routing of the builds (ibt16x16_b4: bypass at
# 0.2 flits/node/cycle, ibt16x16_b4_dor: dor at 0.1, both below saturation); the SystemC run's hop
# trace shows what the bypass links carried.
for routing in bypass dor; do
  rate=0.2
  [ "$routing" = dor ] && rate=0.1
  for m in sc rtl mixed; do
    "$bin" traffic --net ibt:16x16 --set ibt.bypass=4 --set ibt.routing=$routing --rate $rate --warmup 0 \
      --measure 2000 --seed 21 --router "$m" --deliveries "$work/${routing}_$m.csv" --json "$work/${routing}_$m.json" \
      --trace "$work/hops_${routing}_$m.csv" >/dev/null || { echo "FAIL: $routing routing with router $m exited $?"; fail=1; }
  done
  same "ibt 16x16 $routing rtl" "$work/${routing}_sc.csv" "$work/${routing}_rtl.csv" 40000
  same "ibt 16x16 $routing mixed" "$work/${routing}_sc.csv" "$work/${routing}_mixed.csv" 40000
  # The hop traces too, bypass ports included: an RTL router's hops are the SystemC router's.
  same "ibt 16x16 $routing hops rtl" "$work/hops_${routing}_sc.csv" "$work/hops_${routing}_rtl.csv" 100000
  same "ibt 16x16 $routing hops mixed" "$work/hops_${routing}_sc.csv" "$work/hops_${routing}_mixed.csv" 100000
  grep -q '"model": "rtl"' "$work/${routing}_rtl.json" || { echo "FAIL: JSON does not echo router.model rtl"; fail=1; }
  # Hops that left on bypass+ (out_port 4) or bypass- (5).
  bypass_hops=$(awk -F, 'NR > 1 && ($4 == 4 || $4 == 5)' "$work/hops_${routing}_rtl.csv" | wc -l)
  echo "ibt 16x16 $routing: $bypass_hops hops on bypass links"
  if [ "$routing" = bypass ] && [ "$bypass_hops" -lt 10000 ]; then echo "FAIL: bypass routing used bypass links $bypass_hops times"; fail=1; fi
  if [ "$routing" = dor ] && [ "$bypass_hops" -ne 0 ]; then echo "FAIL: dor routing used bypass links"; fail=1; fi
done
head -1 "$work/hops_bypass_rtl.csv" | grep -q '^cycle,router,in_port,out_port,' || { echo "FAIL: hop trace header: $(head -1 "$work/hops_bypass_rtl.csv")"; fail=1; }

# The pipelined global broadcast of the iBT (sends to torus and bypass neighbours, node programs):
# the same cycle count, messages and blocking with RTL routers.
for m in sc rtl; do
  "$bin" ibt bcast --net ibt:16x16 --bypass 4 --algo global -k 4 --simulate --len 8 --set router.model=$m \
    --json "$work/bcast_$m.json" >/dev/null || { echo "FAIL: ibt broadcast with router $m exited $?"; fail=1; }
done
/usr/bin/python3 - "$work/bcast_sc.json" "$work/bcast_rtl.json" <<'PY' || fail=1
import json, sys
sc, rtl = (json.load(open(f))["simulation"] for f in sys.argv[1:3])
print(f"ibt broadcast: sc {sc['measured_cycles']} cycles, {sc['blocked_cycles']} blocked; "
      f"rtl {rtl['measured_cycles']} cycles, {rtl['blocked_cycles']} blocked")
ok = sc == rtl and sc["status"] == "ok" and sc["every_node_has_every_packet_once"] and sc["messages"] > 255
sys.exit(0 if ok else "FAIL: the broadcast results differ or are incomplete")
PY

# ibt.routing = shortest has no Verilog implementation: exit 2, one line naming the key and the
# values the Verilog router implements.
err=$("$bin" traffic --net ibt:16x16 --set ibt.routing=shortest --router rtl --json "$work/none.json" 2>&1 >/dev/null); rc=$?
[ $rc -eq 2 ] || { echo "FAIL: rtl with shortest routing exited $rc, want 2"; fail=1; }
case "$err" in *"ibt.routing = shortest is SystemC only"*"dor or bypass"*) ;;
  *) echo "FAIL: the error does not name ibt.routing and the values the builds allow: $err"; fail=1 ;; esac
[ "$(printf '%s\n' "$err" | wc -l)" -le 1 ] || { echo "FAIL: the error is more than one line"; fail=1; }
[ ! -e "$work/none.json" ] || { echo "FAIL: output left behind"; fail=1; }

[ $fail -eq 0 ] && echo "all iBT RTL network checks passed"
exit $fail
