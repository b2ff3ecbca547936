#!/usr/bin/env bash
# RTL fabrics in the network: `wormcast mway --router rtl` runs the whole m-way network on the
# Verilated units of rtl/mway/ and must give the per-flit delivery trace and the per-hop trace of
# the SystemC fabric, and the same line counters and scoreboard, on the 4x4x4 mesh (three
# algorithms), the 4x4 mesh and the 4-cube; the channel waveform is equal too, and so is the
# packet view's list of hops; a configuration without a build is refused.
# Usage: test_mway_rtl_network.sh WORMCAST
set -u
bin=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
fail=0

run() {  # label net algo rate extra...
  local label=$1 net=$2 algo=$3 rate=$4
  shift 4
  for m in sc rtl; do
    rc=0
    "$bin" mway --net "$net" --algo "$algo" --rate "$rate" --broadcast-fraction 0.3 --warmup 0 --measure 4000 \
      --seed 9 --router "$m" --deliveries "$work/${label}_$m.csv" --json "$work/${label}_$m.json" \
      --trace "$work/${label}_hops_$m.csv" "$@" >/dev/null \
      2>"$work/${label}_$m.err" || rc=$?
    # 0: done; 5: the steady-state verdict says the load is past saturation (the run itself is complete).
    if [ $rc -ne 0 ] && [ $rc -ne 5 ]; then
      echo "FAIL: $label with --router $m exited $rc: $(head -3 "$work/${label}_$m.err")"; fail=1
    fi
  done
  if ! cmp -s "$work/${label}_sc.csv" "$work/${label}_rtl.csv"; then
    echo "FAIL: $label: delivery traces differ"; diff "$work/${label}_sc.csv" "$work/${label}_rtl.csv" | head -5; fail=1
  fi
  local rows hops
  rows=$(($(wc -l <"$work/${label}_sc.csv") - 1))
  [ "$rows" -ge 10000 ] || { echo "FAIL: $label: only $rows deliveries"; fail=1; }
  # The per-hop trace (docs/mway.md section 12.1): every crossing's receiving rows, read from the
  # RTL units' tables, are the SystemC fabric's.
  if ! cmp -s "$work/${label}_hops_sc.csv" "$work/${label}_hops_rtl.csv"; then
    echo "FAIL: $label: hop traces differ"; diff "$work/${label}_hops_sc.csv" "$work/${label}_hops_rtl.csv" | head -5; fail=1
  fi
  hops=$(($(wc -l <"$work/${label}_hops_sc.csv") - 1))
  [ "$hops" -ge 20000 ] || { echo "FAIL: $label: only $hops hops"; fail=1; }
  /usr/bin/python3 - "$work/${label}_sc.json" "$work/${label}_rtl.json" "$label" <<'PY' || fail=1
import json, sys
sc, rtl = (json.load(open(f)) for f in sys.argv[1:3])
label = sys.argv[3]
ok = True
if rtl["config"]["mway"]["model"] != "rtl" or sc["config"]["mway"]["model"] != "sc":
    print(f"FAIL: {label}: the JSON does not echo mway.model"); ok = False
for key in ("links", "scoreboard"):
    if sc[key] != rtl[key]:
        print(f"FAIL: {label}: {key} differs: sc {sc[key]} rtl {rtl[key]}"); ok = False
if sc["scoreboard"]["errors"] != 0:
    print(f"FAIL: {label}: scoreboard errors"); ok = False
sys.exit(0 if ok else 1)
PY
  echo "$label: $rows deliveries and $hops hops, identical"
}

run mesh444_safe mesh:4x4x4 mst-safe 0.02
run mesh444_replica mesh:4x4x4 mst-replica 0.06  # past saturation: headers reserve and split
run mesh444_unicast mesh:4x4x4 mst-unicast 0.02
run mesh44_replica mesh:4x4 mst-replica 0.05
run cube4_safe cube:4 mst-safe 0.05

# The channel lines in the waveform: the same values on every channel, cycle for cycle.
for m in sc rtl; do
  "$bin" mway --net mesh:4x4 --algo mst-replica --rate 0.05 --broadcast-fraction 0.3 --warmup 0 --measure 300 \
    --router "$m" --vcd "$work/wave_$m.vcd" --trace "$work/wave_hops_$m.csv" >/dev/null 2>&1 \
    || { echo "FAIL: --vcd with --router $m exited $?"; fail=1; }
  # The channel lines only (the SystemC dump has the tables too).
  /usr/bin/python3 - "$work/wave_$m.vcd" "$work/wave_$m.lines" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
head, _, body = text.partition("$enddefinitions")
codes, scope = {}, []
for tok in re.findall(r"\$(scope\s+\S+\s+\S+|upscope|var\s+\S+\s+\d+\s+\S+\s+\S+)", head):
    words = tok.split()
    if words[0] == "scope":
        scope.append(words[2])
    elif words[0] == "upscope":
        scope.pop()
    else:
        name = ".".join(scope + [words[4]])
        if re.search(r"\.ch_[0-9_]+\.(drv|tag|buf|ways|ack|pri|stat_free|stat_full|packet|flit)$", name):
            codes[words[3]] = name
out, t = [], None
for line in body.splitlines():
    if line.startswith("#"):
        t = line
        continue
    m = re.match(r"^(?:b(\S+) |([01xz]))(\S+)$", line)
    if m and m.group(3) in codes:
        out.append(f"{t} {codes[m.group(3)]} {m.group(1) or m.group(2)}")
open(sys.argv[2], "w").write("\n".join(sorted(out)))
PY
done
n=$(wc -l <"$work/wave_sc.lines")
if ! cmp -s "$work/wave_sc.lines" "$work/wave_rtl.lines" || [ "$n" -lt 1000 ]; then
  echo "FAIL: channel waveforms differ or are short ($n values)"; diff "$work/wave_sc.lines" "$work/wave_rtl.lines" | head -5; fail=1
else
  echo "channel waveform: $n values, identical"
fi
# The packet view of the RTL run (wormcast wave --packet): the same hops, each with its channel's
# lines; the buffer rows, which the RTL dump does not hold, named in the labels only.
pkt=$(awk -F, 'NR > 1 && $8 == 1 { n[$6]++ } END { for (p in n) if (n[p] > best) { best = n[p]; id = p }; print id }' \
  "$work/wave_hops_rtl.csv")
for m in sc rtl; do
  "$bin" wave "$work/wave_$m.vcd" --packet "$pkt" --trace "$work/wave_hops_$m.csv" --save "$work/pkt_$m.gtkw" \
    >"$work/pkt_$m.out" 2>&1 || { echo "FAIL: wave --packet $pkt of the $m dump: $(head -2 "$work/pkt_$m.out")"; fail=1; }
  grep '^-hop ' "$work/pkt_$m.gtkw" >"$work/pkt_$m.labels"
done
groups=$(wc -l <"$work/pkt_rtl.labels")
if ! cmp -s "$work/pkt_sc.labels" "$work/pkt_rtl.labels" || [ "$groups" -lt 3 ] \
  || ! grep -q "holds no buffer rows" "$work/pkt_rtl.gtkw" || grep -q "holds no buffer rows" "$work/pkt_sc.gtkw"; then
  echo "FAIL: the packet view of the RTL dump ($groups hops) is not the SystemC one's without rows"; fail=1
else
  echo "packet view: packet $pkt, $groups hops, the same labels"
fi

# Beyond the Verilog m-way router (five dimensions): exit 2 before anything is built, one line
# naming the key and the limit.
"$bin" mway --net mesh:2x2x2x2x2 --router rtl --measure 100 >/dev/null 2>"$work/none.err"
rc=$?
[ $rc -eq 2 ] || { echo "FAIL: --router rtl on five dimensions exited $rc, want 2"; fail=1; }
grep -q "net.radix has 5 dimensions.*allowed: 1..4" "$work/none.err" \
  || { echo "FAIL: the error does not name net.radix and its limit: $(cat "$work/none.err")"; fail=1; }
[ "$(wc -l <"$work/none.err")" -le 1 ] || { echo "FAIL: the error is more than one line"; fail=1; }

[ $fail -eq 0 ] && echo "all m-way RTL network checks passed"
exit $fail
