#!/usr/bin/env bash
# node.cpu = rv32 on the command line: bad values are one line and exit 2 with no output file; a
# broadcast and a gossip run on the cores report their software cost. Exit 77 (skipped) when the
# build has no RV32 firmware.
set -uo pipefail
wc=$1
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
if "$wc" broadcast --net torus:2 --algo sequential --len 4 --set node.cpu=rv32 2>&1 | grep -q "unavailable"; then
  echo "SKIPPED: this build has no RV32 node firmware"
  exit 77
fi

refuse() {  # refuse KEY=VALUE PATTERN
  out=$("$wc" broadcast --net torus:4x4 --len 8 --set node.cpu=rv32 --set "$1" --json "$tmp/x.json" 2>&1)
  rc=$?
  lines=$(printf '%s\n' "$out" | wc -l)
  if [ "$rc" != 2 ] || [ "$lines" != 1 ] || ! printf '%s' "$out" | grep -q -- "$2" || [ -e "$tmp/x.json" ]; then
    echo "FAIL: --set $1: exit $rc, $lines lines, file $(ls "$tmp")): $out"
    fail=1
  fi
}
refuse node.cpu=arm "node.cpu = 'arm' is invalid; allowed: native or rv32"
refuse node.cpu_clock_ratio=0 "node.cpu_clock_ratio = '0' is invalid; allowed: 0.001..1000"
refuse node.cpu_quantum=0 "node.cpu_quantum = '0' is invalid; allowed: 1..1000000"
refuse node.cpu_cpi=load:0 "node.cpu_cpi = 'load:0' is invalid"
refuse node.cpu_cpi=alu:2,alu:3 "node.cpu_cpi = 'alu:2,alu:3' is invalid"
refuse node.cpu_ram=4096 "node.cpu_ram = 4096 is too small for node 0"
refuse node.cpu_ram=5000 "node.cpu_ram = '5000' is invalid; allowed: 4096..16777216, a multiple of 4096"
# The too-small line's terms add up to its total.
out=$("$wc" broadcast --net torus:4x4 --len 8 --set node.cpu=rv32 --set node.cpu_ram=4096 2>&1)
sum=$(printf '%s' "$out" | sed -nE 's/.*firmware ([0-9]+) bytes.* \+ its program table ([0-9]+) bytes \+ stack ([0-9]+) bytes = ([0-9]+);.*/\1 \2 \3 \4/p')
read -r fw table stack total <<<"$sum"
{ [ -n "$sum" ] && [ $((fw + table + stack)) = "$total" ]; } || { echo "FAIL: node.cpu_ram=4096: the terms do not add up: $out"; fail=1; }

# --vcd-routers holds the cores of the routers named only, as it holds their routers.
"$wc" broadcast --net torus:4x4 --algo dcf --len 4 --set node.cpu=rv32 --vcd "$tmp/c.vcd" --vcd-routers r_1_2 >/dev/null 2>&1
cores=$(grep -c 'scope module cpu' "$tmp/c.vcd" 2>/dev/null)
saved=$(grep -c '\.cpu\.' "$tmp/c.gtkw" 2>/dev/null)
named=$(grep -c 'r_1_2\.cpu\.' "$tmp/c.gtkw" 2>/dev/null)
{ [ "$cores" = 1 ] && [ "$saved" -gt 0 ] && [ "$saved" = "$named" ]; } || {
  echo "FAIL: --vcd-routers r_1_2 on the cores: $cores core scopes in the VCD, $saved core signals in the save file ($named of r_1_2)"; fail=1; }
rm -f "$tmp/c.vcd" "$tmp/c.gtkw"

# Synthetic traffic runs no node software: rv32 there is refused, not ignored.
out=$("$wc" traffic --net torus:4x4 --set sim.measure=100 --set node.cpu=rv32 2>&1); rc=$?
{ [ "$rc" = 2 ] && printf '%s' "$out" | grep -q "node.cpu = 'rv32' applies to node programs"; } || {
  echo "FAIL: traffic with node.cpu=rv32: exit $rc: $out"; fail=1; }
# Nor does t_r: synthetic traffic has no receiving software, so nic.tr is refused, not ignored.
out=$("$wc" traffic --net torus:4x4 --set sim.measure=100 --set nic.tr=17 --json "$tmp/tr.json" 2>&1); rc=$?
{ [ "$rc" = 2 ] && printf '%s' "$out" | grep -q "nic.tr = 17 applies to node programs" && [ ! -e "$tmp/tr.json" ]; } || {
  echo "FAIL: traffic with nic.tr=17: exit $rc: $out"; fail=1; }

# A broadcast on the cores: the JSON carries the software cost, the summary the effective t_s, t_r.
"$wc" broadcast --net torus:4x4 --algo dcf --len 8 --set node.cpu=rv32 --json "$tmp/b.json" > "$tmp/b.txt" || {
  echo "FAIL: rv32 broadcast exit $?"; cat "$tmp/b.txt"; fail=1; }
grep -q "effective t_s = " "$tmp/b.txt" || { echo "FAIL: no effective t_s in the summary"; fail=1; }
python3 - "$tmp/b.json" <<'PY' || fail=1
import json, sys
j = json.load(open(sys.argv[1]))
c = j["cpu"]
assert j["config"]["node"]["cpu"] == "rv32", j["config"]["node"]
assert j["all_nodes_reached"] and j["duplicate_deliveries"] == 0
assert len(c["nodes"]) == 16
assert c["instructions"] == sum(n["instructions"] for n in c["nodes"])
assert c["busy_cycles"] == c["instructions"]  # CPI 1 for every class
assert sum(len(n["send_path_instructions"]) for n in c["nodes"]) == j["unicasts"]
assert sum(len(n["receive_path_cycles"]) for n in c["nodes"]) == j["unicasts"]
assert c["effective_ts"] > 0 and c["effective_tr"] > 0
PY
# Deterministic: the same configuration gives the same result file, with the routers in one thread or two.
"$wc" broadcast --net torus:4x4 --algo dcf --len 8 --set node.cpu=rv32 --json "$tmp/b2.json" > /dev/null || fail=1
"$wc" broadcast --net torus:4x4 --algo dcf --len 8 --set node.cpu=rv32 --set sim.threads=2 --json "$tmp/b3.json" > /dev/null || fail=1
cmp -s "$tmp/b.json" "$tmp/b2.json" || { echo "FAIL: two rv32 runs differ"; fail=1; }
python3 - "$tmp/b.json" "$tmp/b3.json" <<'PY' || { echo "FAIL: rv32 with sim.threads=2 differs"; fail=1; }
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
for j in (a, b):
    j["config"]["sim"].pop("threads", None)
assert a == b
PY
# The native run the broadcast reports with the effective t_s, t_r is the native run with them.
read -r ts tr native < <(python3 -c "import json; c = json.load(open('$tmp/b.json')); \
print(round(c['cpu']['effective_ts']), round(c['cpu']['effective_tr']), c['native_latency_effective'])")
"$wc" broadcast --net torus:4x4 --algo dcf --len 8 --ts "$ts" --tr "$tr" --json "$tmp/n.json" > /dev/null || fail=1
got=$(python3 -c "import json; print(json.load(open('$tmp/n.json'))['measured_latency'])")
[ "$got" = "$native" ] || { echo "FAIL: native_latency_effective $native, native run with t_s=$ts t_r=$tr: $got"; fail=1; }
# With nic.ts set, a send's t_s is part of its own send path (not of the node's next event): the
# effective t_s holds nic.ts, and the native run with it is within a few tenths of a percent of the
# cores' latency (the boot and the cores' instructions before the first send make the rest).
"$wc" broadcast --net torus:8 --algo rd --ts 10000 --set node.cpu=rv32 --json "$tmp/t.json" > /dev/null || fail=1
python3 - "$tmp/t.json" <<'PY' || { echo "FAIL: effective t_s with nic.ts = 10000"; fail=1; }
import json, sys
j = json.load(open(sys.argv[1]))
c = j["cpu"]
assert c["effective_ts"] >= 10000, c["effective_ts"]
m, n = j["measured_latency"], j["native_latency_effective"]
assert abs(m - n) <= 0.01 * m, (m, n)
for node in c["nodes"]:
    assert all(x >= 10000 for x in node["send_path_cycles"]), node["send_path_cycles"]
PY
# A source with one send: its only send path starts at reset, so t_s is that path, boot included
# (said in the JSON and the summary), not 0; the native run with it then takes the cores' latency.
"$wc" broadcast --net torus:2 --algo sequential --set node.cpu=rv32 --json "$tmp/one.json" > "$tmp/one.txt" || fail=1
grep -q "the boot included" "$tmp/one.txt" || { echo "FAIL: the one-send summary does not say the boot is in t_s"; fail=1; }
python3 - "$tmp/one.json" "$tmp/b.json" <<'PY' || { echo "FAIL: effective t_s of a one-send source"; fail=1; }
import json, sys
j, b = (json.load(open(p)) for p in sys.argv[1:])
c = j["cpu"]
assert c["effective_ts_boot_included"] is True and b["cpu"]["effective_ts_boot_included"] is False
assert c["effective_ts"] == c["nodes"][0]["send_path_cycles"][0] > 0, c["effective_ts"]
assert j["native_latency_effective"] == j["measured_latency"], (j["native_latency_effective"], j["measured_latency"])
PY
# CPI 2 for loads and stores: more cycles, the same instructions.
"$wc" broadcast --net torus:4x4 --algo dcf --len 8 --set node.cpu=rv32 --set node.cpu_cpi=load:2,store:2 \
  --json "$tmp/c.json" > /dev/null || { echo "FAIL: rv32 broadcast with CPI 2"; fail=1; }
python3 - "$tmp/b.json" "$tmp/c.json" <<'PY' || fail=1
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
assert b["cpu"]["instructions"] == a["cpu"]["instructions"]
assert b["cpu"]["busy_cycles"] > a["cpu"]["busy_cycles"]
assert b["measured_latency"] > a["measured_latency"]
PY
# A NIC that takes t_s = 50 per message on top of the firmware: the cores wait for it (wait cycles).
"$wc" broadcast --net torus:4x4 --algo dcf --len 8 --ts 50 --set node.cpu=rv32 --json "$tmp/w.json" > /dev/null || fail=1
python3 - "$tmp/b.json" "$tmp/w.json" <<'PY' || fail=1
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
assert a["cpu"]["wait_cycles"] == 0 and b["cpu"]["wait_cycles"] > 0, (a["cpu"]["wait_cycles"], b["cpu"]["wait_cycles"])
assert b["measured_latency"] > a["measured_latency"]
PY
# The waveform has each core's PC, state and interrupt line beside its router, and the save file shows them.
"$wc" broadcast --net torus:4x4 --algo dcf --len 4 --set node.cpu=rv32 --vcd "$tmp/w.vcd" > /dev/null || {
  echo "FAIL: rv32 broadcast with --vcd"; fail=1; }
for sig in pc state irq; do
  grep -q "SystemC.top.net.r_1_2.cpu.$sig" "$tmp/w.gtkw" || { echo "FAIL: r_1_2.cpu.$sig not in the save file"; fail=1; }
done
grep -B1 -x "SystemC.top.net.r_1_2.cpu.pc\[31:0\]" "$tmp/w.gtkw" | grep -q "^@22" || {
  echo "FAIL: the PC is not shown in hexadecimal"; fail=1; }
[ "$(grep -c 'scope module cpu' "$tmp/w.vcd")" = 16 ] || { echo "FAIL: not 16 cores in the VCD"; fail=1; }
# Gossip on the cores: the watch's checks (every receipt once, every chunk everywhere) hold.
"$wc" gossip --net torus:9x9 --algo torgos --a 3 --b 1 --r 0.5 --simulate --len 16 --set node.cpu=rv32 \
  --json "$tmp/g.json" > "$tmp/g.txt" || { echo "FAIL: rv32 gossip exit $?"; cat "$tmp/g.txt"; fail=1; }
# On the cores the firmware is the send cost, whatever --r says; the printed line says so.
grep -q "t_s = the cores' send path + nic.ts = 0 cycles" "$tmp/g.txt" \
  || { echo "FAIL: rv32 gossip does not say where t_s comes from: $(head -c 300 "$tmp/g.txt")"; fail=1; }
grep -q "every node holds every chunk: yes" "$tmp/g.txt" || { echo "FAIL: rv32 gossip incomplete"; cat "$tmp/g.txt"; fail=1; }
read -r ts tr native < <(python3 -c "import json; s = json.load(open('$tmp/g.json'))['simulation']; \
print(round(s['cpu']['effective_ts']), round(s['cpu']['effective_tr']), s['native_cycles_effective'])")
"$wc" gossip --net torus:9x9 --algo torgos --a 3 --b 1 --r 0.5 --simulate --len 16 --set nic.ts="$ts" --set nic.tr="$tr" \
  --json "$tmp/gn.json" > /dev/null || fail=1
got=$(python3 -c "import json; print(json.load(open('$tmp/gn.json'))['simulation']['measured_cycles'])")
[ "$got" = "$native" ] || { echo "FAIL: native_cycles_effective $native, native gossip with t_s=$ts t_r=$tr: $got"; fail=1; }
# The iBT broadcasts on the cores: every group node gets every packet once, as natively.
for algo in line rect global; do
  for cpu in native rv32; do
    "$wc" ibt bcast --net ibt:8x8 --bypass 2 --algo $algo -k 4 --simulate --set node.cpu=$cpu \
      --json "$tmp/i_$cpu.json" > /dev/null || { echo "FAIL: ibt $algo on $cpu: exit $?"; fail=1; }
  done
  python3 - "$tmp/i_native.json" "$tmp/i_rv32.json" <<'PY' || { echo "FAIL: ibt $algo: rv32 and native differ"; fail=1; }
import json, sys
a, b = (json.load(open(p))["simulation"] for p in sys.argv[1:])
assert a["every_node_has_every_packet_once"] and b["every_node_has_every_packet_once"]
assert a["messages"] == b["messages"] and not a["errors"] and not b["errors"] and not b["step_trace_errors"]
assert "cpu" in b and "cpu" not in a
PY
done
[ "$fail" = 0 ] && echo "ok"
exit $fail
