#!/usr/bin/env bash
# Everyday command-line behaviour: `wormcast` alone names the commands and --help (exit 2);
# `--json -` puts the result on standard output and the summary on standard error; an unknown
# key suggests the nearest one; an option and a --set of the same key with different values
# conflict (exit 2); a run stops at its drain limit exactly, not at the next multiple of 1000;
# --router-vcd dumps a SystemC router's state; --vcd-routers and --vcd-window bound a waveform to some routers and cycles.
# --rtl-vcd naming an unknown router (or any router of an m-way network) is refused before any
# Verilated model is built, by traffic, mway and broadcast alike; save files
# name an iBT router's bypass ports and zoom a windowed dump's packet view right; scripts/wave
# takes --save=FILE and its --help opens nothing; --max-output-size counts the recordings as
# closed; the ibt family's own defaults make a valid network (net.radix 16x16 under the default bypass of 4); an error line that
# echoes a long value is shortened to at most 400 characters; no output replaces the trace the
# sources read or the program itself; a YAML section of only comments is one of defaults, an empty
# value is reported at its own line, and a flag takes YAML 1.2's True.
# Usage: test_cli_daily.sh WORMCAST
set -uo pipefail
bin=$1
export WORMCAST_BIN=$bin  # scripts/wave runs this program
wave=$(cd "$(dirname "$0")/../../scripts" && pwd)/wave
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
fail=0

"$bin" >out.txt 2>err.txt
rc=$?
[ $rc -eq 2 ] && grep -q -- "--help" err.txt && grep -q "traffic" err.txt && [ ! -s out.txt ] \
  || { echo "FAIL: wormcast alone: exit $rc, stderr $(cat err.txt)"; fail=1; }

"$bin" traffic --rate 0.05 --measure 1000 --json - >out.json 2>err.txt
rc=$?
/usr/bin/python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); sys.exit(0 if j["status"] == "ok" else 1)' out.json \
  && grep -q "^ok torus 8x8" err.txt && [ $rc -eq 0 ] && [ ! -e ./- ] \
  || { echo "FAIL: --json -: exit $rc, stdout $(head -c 200 out.json), stderr $(head -c 200 err.txt)"; fail=1; }
"$bin" schedule --net torus:8x8 --algo dcf --json - 2>/dev/null | /usr/bin/python3 -c 'import json,sys; json.load(sys.stdin)' \
  || { echo "FAIL: schedule --json - is not JSON on stdout"; fail=1; }

"$bin" traffic --set router.bufer_depth=8 2>err.txt
rc=$?
[ $rc -eq 2 ] && grep -q "did you mean 'router.buffer_depth'" err.txt \
  || { echo "FAIL: unknown key: exit $rc, $(cat err.txt)"; fail=1; }

"$bin" traffic --rate 0.1 --set traffic.rate=0.2 --json c.json 2>err.txt
rc=$?
[ $rc -eq 2 ] && grep -q "conflicts with traffic.rate" err.txt && [ ! -e c.json ] \
  || { echo "FAIL: --rate vs --set traffic.rate: exit $rc, $(cat err.txt)"; fail=1; }
"$bin" mway --buffers 2 --set mway.buffers=3 2>err.txt
rc=$?
[ $rc -eq 2 ] && grep -q "conflicts with mway.buffers" err.txt || { echo "FAIL: mway --buffers vs --set: exit $rc"; fail=1; }
"$bin" traffic --rate 0.1 --set traffic.rate=0.1 --measure 500 >/dev/null \
  || { echo "FAIL: the same value in an option and a --set is refused"; fail=1; }
# A zero, or an exponent written with many zeros, is still one number.
for pair in "0.5 traffic.rate=0.5e0000000000000" "0 traffic.rate=0e99999999999999"; do
  "$bin" traffic --net torus:2x2 --rate "${pair%% *}" --set "${pair#* }" --measure 300 >/dev/null 2>err.txt \
    || { echo "FAIL: --rate ${pair%% *} with --set ${pair#* } is refused: $(cat err.txt)"; fail=1; }
done
# Integers beyond a double's precision that differ are two values.
"$bin" traffic --net torus:4x4 --measure 100 --seed 9007199254740993 --set sim.seed=9007199254740992 2>err.txt
rc=$?
[ $rc -eq 2 ] && grep -q "conflicts with sim.seed" err.txt \
  || { echo "FAIL: --seed 9007199254740993 with --set sim.seed=9007199254740992: exit $rc, $(cat err.txt)"; fail=1; }
# ... written two ways (the same number) too.
for pair in "0.10 traffic.rate=0.1" "0.5 traffic.rate=.5" "1e-1 traffic.rate=0.1"; do
  "$bin" traffic --net torus:4x4 --rate "${pair%% *}" --set "${pair#* }" --measure 300 >/dev/null 2>err.txt \
    || { echo "FAIL: --rate ${pair%% *} with --set ${pair#* } is refused: $(cat err.txt)"; fail=1; }
done
# An option written --opt= has an empty value, refused (the next word is not taken for it).
for opt in --len= --vcs= --set=; do
  "$bin" traffic --net torus:4x4 --measure 100 $opt 7 --json e0.json >/dev/null 2>err.txt
  rc=$?
  [ $rc -eq 2 ] && [ "$(wc -l <err.txt)" -eq 1 ] && grep -q -e "$opt has an empty value" err.txt && [ ! -e e0.json ] \
    || { echo "FAIL: traffic $opt 7: exit $rc, $(cat err.txt)"; fail=1; }
done
"$bin" mway --net mesh:4x4 --set net.radix=8x8x8 2>err.txt
rc=$?
[ $rc -eq 2 ] && grep -q "conflicts with net.radix" err.txt || { echo "FAIL: mway --net vs --set net.radix: exit $rc"; fail=1; }
# broadcast: the analytic model and the cycle model read one t_s.
"$bin" broadcast --net torus:4x4 --algo rd --ts 7 --set nic.ts=5 --json e.json 2>err.txt
rc=$?
[ $rc -eq 2 ] && grep -q "conflicts with nic.ts" err.txt && [ ! -e e.json ] \
  || { echo "FAIL: broadcast --ts vs --set nic.ts: exit $rc, $(cat err.txt)"; fail=1; }
"$bin" broadcast --net torus:4x4 --algo rd --set nic.ts=7 --json e.json >/dev/null 2>err.txt \
  && /usr/bin/python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); sys.exit(0 if j["measured_latency"] == j["analytic_latency"] and j["config"]["nic"]["ts"] == 7 else 1)' e.json \
  || { echo "FAIL: broadcast --set nic.ts=7: the analytic latency does not use it: $(cat err.txt)"; fail=1; }
# Traffic the m-way NIC would refuse, refused before the run with nothing written: a node addressing
# itself (a fixed point of the pattern on this network, or a trace line) or a one-flit packet.
for bad in "--set traffic.pattern=bitrev" "--set traffic.pattern=uniform-all" "--set traffic.sizes=2:1,6:1"; do
  # shellcheck disable=SC2086
  "$bin" mway --net mesh:4x4 --algo unicast --broadcast-fraction 0 $bad --measure 200 --json m.json 2>err.txt
  rc=$?
  [ $rc -eq 2 ] && [ ! -e m.json ] && [ "$(wc -l < err.txt)" -eq 1 ] \
    || { echo "FAIL: mway $bad: exit $rc, $(cat err.txt)"; fail=1; }
done
"$bin" mway --net mesh:4x4 --algo unicast --broadcast-fraction 0 --set traffic.pattern=bitcomp --rate 0.02 \
  --measure 500 >/dev/null 2>&1 || { echo "FAIL: mway bitcomp (no fixed point on 4x4) refused"; fail=1; }
# An algorithm's own option with another algorithm: refused, not ignored.
"$bin" schedule --net torus:8x8 --algo rd --keep-redundant >/dev/null 2>err.txt
rc=$?
[ $rc -eq 2 ] && grep -q "keep-redundant is invalid with --algo rd" err.txt || { echo "FAIL: --keep-redundant with rd: exit $rc"; fail=1; }
"$bin" schedule --net torus:8x8 --algo rd --dcf-variant sol1 >/dev/null 2>err.txt
rc=$?
[ $rc -eq 2 ] && grep -q "dcf-variant sol1 is invalid with --algo rd" err.txt || { echo "FAIL: --dcf-variant with rd: exit $rc"; fail=1; }
# ibt bcast --simulate: the cycle model runs the step simulator's network (its default bypass too).
"$bin" ibt bcast --net ibt:16x16 --simulate >/dev/null 2>err.txt \
  || { echo "FAIL: ibt bcast --simulate with the default bypass: $(cat err.txt)"; fail=1; }
"$bin" ibt bcast --net ibt:16x16 --simulate --set ibt.bypass=2 2>err.txt
rc=$?
[ $rc -eq 2 ] && grep -q "conflicts with ibt.bypass = '4'" err.txt || { echo "FAIL: ibt bcast --set ibt.bypass: exit $rc"; fail=1; }

"$bin" traffic --warmup 1000 --measure 1500 --set sim.drain=250 --rate 0.5 --json d.json >/dev/null
rc=$?
cycles=$(/usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["cycles"])' d.json)
[ $rc -eq 5 ] && [ "$cycles" -eq 2750 ] || { echo "FAIL: drain limit: exit $rc, $cycles cycles (want 5, 2750)"; fail=1; }

# --router-vcd of a SystemC router: its VC and credit state in its own VCD.
"$bin" traffic --measure 300 --router-vcd r_1_0=r10.vcd >/dev/null
rc=$?
[ $rc -eq 0 ] && grep -q 'scope module in_4' r10.vcd && grep -q ' count ' r10.vcd && grep -q ' credits ' r10.vcd \
  && [ "$(grep -c '^#' r10.vcd)" -gt 10 ] \
  || { echo "FAIL: --router-vcd of a SystemC router: exit $rc"; fail=1; }

# --vcd-routers: the waveform and its save file hold only the routers named.
"$bin" traffic --measure 200 --vcd w.vcd --vcd-routers r_1_0,r_2_3 >/dev/null
rc=$?
scopes=$(grep -c 'scope module r_' w.vcd)
[ $rc -eq 0 ] && [ "$scopes" -eq 2 ] && grep -q 'r_2_3' w.gtkw && ! grep -q 'r_0_0' w.gtkw \
  && grep -qx '@c00200' w.gtkw && grep -qx '@24' w.gtkw && grep -q 'in_0.dst\[15:0\]' w.gtkw \
  || { echo "FAIL: --vcd-routers: exit $rc, $scopes router scopes"; fail=1; }
[ "$(grep -c '^\*' w.gtkw)" -eq 1 ] && [ "$(grep '^\[timestart\]' w.gtkw | cut -d' ' -f2)" -le 1000 ] \
  || { echo "FAIL: the run's save file has no view at the dump's start"; fail=1; }
"$bin" traffic --measure 200 --vcd w2.vcd --vcd-routers r_9_9 2>err.txt
rc=$?
[ $rc -eq 2 ] && grep -q "r_9_9" err.txt && [ ! -e w2.vcd ] || { echo "FAIL: --vcd-routers r_9_9: exit $rc"; fail=1; }

# --vcd-window START:END: samples only from cycle START to END (the VCD counts 100 ps steps of a
# 1 ns cycle); a window after the run's end writes nothing and says so.
"$bin" traffic --measure 2000 --vcd win.vcd --vcd-window 1500:1600 >/dev/null
rc=$?
first=$(grep '^#' win.vcd | head -1 | tr -d '#')
last=$(grep '^#' win.vcd | tail -1 | tr -d '#')
[ $rc -eq 0 ] && [ "$first" -ge 15000 ] && [ "$first" -le 15010 ] && [ "$last" -le 16000 ] && [ "$last" -ge 15990 ] \
  || { echo "FAIL: --vcd-window 1500:1600: exit $rc, samples $first..$last"; fail=1; }
"$bin" traffic --measure 500 --vcd late.vcd --vcd-window 50000:60000 >/dev/null 2>err.txt
rc=$?
[ $rc -eq 0 ] && [ ! -e late.vcd ] && grep -q "no waveform written" err.txt || { echo "FAIL: late window: exit $rc"; fail=1; }
# A window changes no result: the run ends at the same cycle whatever the window's bounds, and a
# window opening after the network fell idle (before the run's end) records those idle cycles.
"$bin" traffic --net torus:4x4 --warmup 50 --measure 200 --json nowin.json >/dev/null
for w in 253:254 240:253 300:320; do
  "$bin" traffic --net torus:4x4 --warmup 50 --measure 200 --json win.json --vcd w3.vcd --vcd-window "$w" >/dev/null 2>err.txt
  rc=$?
  /usr/bin/python3 - nowin.json win.json <<'PY' && [ $rc -eq 0 ] && grep -q '^\$enddefinitions' w3.vcd \
    || { echo "FAIL: --vcd-window $w changed the result or wrote no waveform: exit $rc, $(cat err.txt)"; fail=1; }
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:])
sys.exit(0 if (a["cycles"], a["latency"], a["throughput"]) == (b["cycles"], b["latency"], b["throughput"]) else 1)
PY
done

# scripts/wave --packet ID --trace: one group per hop of that packet, in order, with the router's
# port wires, matching the hop CSV.
"$bin" traffic --measure 100 --warmup 0 --trace hops.csv --vcd p.vcd >/dev/null
pkt=$(awk -F, 'NR > 1 && $8 == 1 { print $6; exit }' hops.csv)
want=$(awk -F, -v p="$pkt" 'NR > 1 && $6 == p && $8 == 1' hops.csv | wc -l)
"$wave" p.vcd --packet "$pkt" --trace hops.csv --save p.gtkw --no-launch >/dev/null
rc=$?
got=$(grep -A1 '^@800200' p.gtkw | grep -c '^-hop ')
first=$(awk -F, -v p="$pkt" 'NR > 1 && $6 == p && $8 == 1 { print $1; exit }' hops.csv)
[ $rc -eq 0 ] && [ "$got" -eq "$want" ] && [ "$got" -ge 1 ] && grep -q "^-hop 1: cycle $first " p.gtkw \
  || { echo "FAIL: scripts/wave --packet $pkt: exit $rc, $got hop groups, want $want"; fail=1; }
# The packet view's structure (what GTKWave shows, without a screenshot): the clock first, then per
# hop an open group named with the cycle, router, named ports and VC, holding the input and the
# output wire as groups named "in x+ (in_N)" / "out ... (out_M)", each with the edge its wire
# changes at, the flit's VC and the payload decoded into the packet id (bits 31..8) and flit index.
/usr/bin/python3 - p.gtkw hops.csv "$pkt" "$(grep -c 'scope module r_' p.vcd)" <<'PY' || fail=1
import csv, math, re, sys
lines = open(sys.argv[1]).read().split("\n")
pkt, k = sys.argv[3], math.isqrt(int(sys.argv[4]))
names = ["x+", "x-", "y+", "y-", "local 0", "local 1", "local 2", "local 3"]
hops = [r for r in csv.DictReader(open(sys.argv[2])) if r["packet"] == pkt and r["head"] == "1"]
errors = []
signals = [l for l in lines if l and l[0] not in "@-[*#"]
if not signals or not re.fullmatch(r"(SystemC\.)?(top\.)?clk", signals[0]):
    errors.append(f"the first row is {signals[:1]}, not the clock")
for i, h in enumerate(hops, 1):
    ip, op, r = int(h["in_port"]), int(h["out_port"]), int(h["router"])
    router = f"r_{r % k}_{r // k}"
    label = f"-hop {i}: cycle {h['cycle']} {router} in {names[ip]} -> out {names[op]}, vc {h['vc']}"
    if label not in lines:
        errors.append(f"no group {label!r}")
        continue
    body = lines[lines.index(label):lines.index(label, lines.index(label) + 1)]
    for kind, p in (("in", ip), ("out", op)):
        group = f"-{kind} {names[p]} ({kind}_{p})"
        if group not in body:
            errors.append(f"hop {i}: no group {group!r}")
            continue
        g = body[body.index(group):body.index(group, body.index(group) + 1)]
        edge = "falling" if kind == "in" and p >= 4 else "rising"
        if not any(l.startswith(f"-changes at the {edge} edge") for l in g):
            errors.append(f"hop {i} {group}: no row saying it changes at the {edge} edge")
        vc = [l for l in g if l.endswith(f"{router}.{kind}_{p}.vc[3:0]")]
        if not vc:
            errors.append(f"hop {i} {group}: no vc row")
            continue
        wire = vc[0][:-len(".vc[3:0]")]
        for field, bits in (("packet", range(31, 7, -1)), ("flit", range(7, -1, -1))):
            want = f"#{{{kind}_{p}.{field}}} " + " ".join(f"({b}){wire}.payload[31:0]" for b in bits)
            if want not in g:
                errors.append(f"hop {i} {group}: no decoded {field} row")
for e in errors[:5]:
    print("FAIL: packet view:", e)
sys.exit(1 if errors else 0)
PY

# The view each save file opens with: GTKWave shows 2^-zoom time units per 200 pixels across a
# 1040-pixel wave area, in the dump's time units times its scale (100 ps steps: ps). The run's save
# file opens at the dump's start, 200 cycles (200,000 ps of a 1 ns clock) wide; the packet's spans
# from 2 cycles before its first hop to 8 after its last.
span() { /usr/bin/python3 -c 'import sys
for l in open(sys.argv[1]):
    if l.startswith("*"): print(round(2 ** -float(l[1:].split()[0]) * 1040 / 200))' "$1"; }
last=$(awk -F, -v p="$pkt" 'NR > 1 && $6 == p && $8 == 1 { c = $1 } END { print c }' hops.csv)
lo=$(( first > 2 ? first - 2 : 0 ))
[ "$(span p.gtkw)" = "$(( (last + 8 - lo) * 1000 ))" ] \
  || { echo "FAIL: packet view spans $(span p.gtkw) ps, want $(( (last + 8 - lo) * 1000 ))"; fail=1; }
"$bin" traffic --measure 1000 --vcd long.vcd >/dev/null
[ "$(span long.gtkw)" = 200000 ] || { echo "FAIL: the run's view spans $(span long.gtkw) ps, want 200000"; fail=1; }

# wormcast wave refuses what it cannot read, with exit 2 and nothing written.
echo "not a dump" >bad.vcd
"$bin" wave bad.vcd --save bad.gtkw 2>err.txt
rc=$?
[ $rc -eq 2 ] && grep -q 'not a VCD' err.txt && [ ! -e bad.gtkw ] || { echo "FAIL: wave bad.vcd: exit $rc"; fail=1; }
"$bin" wave p.vcd --packet 999999999 --trace hops.csv --save none.gtkw 2>err.txt
rc=$?
[ $rc -eq 2 ] && grep -q 'no head flit' err.txt && [ ! -e none.gtkw ] || { echo "FAIL: wave --packet unknown: exit $rc"; fail=1; }
"$bin" wave p.vcd --routers r_0_0,r_99_99 --save some.gtkw 2>err.txt
rc=$?
[ $rc -eq 2 ] && grep -q "'r_99_99' is not a router scope" err.txt && [ ! -e some.gtkw ] \
  || { echo "FAIL: wave --routers with an unknown name: exit $rc"; fail=1; }
"$bin" wave p.vcd --routers r_0_0,r_0_0 --save twice.gtkw 2>err.txt
rc=$?
[ $rc -eq 2 ] && grep -q "'r_0_0' is named twice" err.txt && [ ! -e twice.gtkw ] \
  || { echo "FAIL: wave --routers naming a router twice: exit $rc, $(cat err.txt)"; fail=1; }
# A packet view places the trace's router ids by the network's shape: a dump of some routers does
# not tell it (refused without --net), --net does; a router id or port beyond the network, a hop
# field that is not a number and a packet outside the dump's cycles are refused.
"$bin" traffic --net torus:4x4 --rate 0.1 --warmup 50 --measure 300 --vcd part.vcd --vcd-routers r_0_0,r_1_0 \
  --trace part.csv >/dev/null 2>err.txt
pk=$(awk -F, 'NR > 1 && $8 == 1 { h[$6] = h[$6] " " $2 } END { for (p in h) if (h[p] == " 1 0" || h[p] == " 0 1") { print p; exit } }' part.csv)
"$bin" wave part.vcd --packet 14 --trace part.csv --save nonet.gtkw 2>err.txt
rc=$?
[ $rc -eq 2 ] && grep -q "some routers" err.txt && grep -q -- "--net" err.txt && [ ! -e nonet.gtkw ] \
  || { echo "FAIL: wave --packet on a dump of some routers without --net: exit $rc, $(cat err.txt)"; fail=1; }
if [ -n "$pk" ]; then
  "$bin" wave part.vcd --packet "$pk" --trace part.csv --net torus:4x4 --save net.gtkw >/dev/null 2>err.txt
  rc=$?
  first=$(awk -F, -v p="$pk" 'NR > 1 && $6 == p && $8 == 1 { print $2; exit }' part.csv)
  name=$([ "$first" = 1 ] && echo r_1_0 || echo r_0_0)
  [ $rc -eq 0 ] && grep -q "^-hop 1: cycle [0-9]* $name " net.gtkw \
    || { echo "FAIL: wave --packet $pk --net torus:4x4: exit $rc, $(cat err.txt) $(grep '^-hop' net.gtkw)"; fail=1; }
else
  echo "FAIL: no packet of part.csv crosses only r_0_0 and r_1_0: the case tests nothing"; fail=1
fi
awk -F, 'BEGIN { OFS = "," } NR > 1 { $2 = 99 } { print }' hops.csv >far.csv
awk -F, 'BEGIN { OFS = "," } NR > 1 { $2 = "xx" } { print }' hops.csv >word.csv
awk -F, 'BEGIN { OFS = "," } NR > 1 { $4 = 40 } { print }' hops.csv >port.csv
for t in far word port; do
  "$bin" wave p.vcd --packet "$pkt" --trace $t.csv --save $t.gtkw 2>err.txt
  rc=$?
  [ $rc -eq 2 ] && [ "$(wc -l <err.txt)" -eq 1 ] && [ ! -e $t.gtkw ] \
    || { echo "FAIL: wave --packet with a trace of $t hops: exit $rc, $(cat err.txt)"; fail=1; }
done
"$bin" traffic --measure 100 --warmup 0 --trace late.csv --vcd late.vcd --vcd-window 90:100 >/dev/null 2>&1
early=$(awk -F, 'NR > 1 && $8 == 1 && $1 < 20 { print $6; exit }' late.csv)
"$bin" wave late.vcd --packet "$early" --trace late.csv --save late-p.gtkw 2>err.txt
rc=$?
[ $rc -eq 2 ] && grep -q "outside the dump" err.txt && [ ! -e late-p.gtkw ] \
  || { echo "FAIL: wave --packet $early of a dump of cycles 90..99: exit $rc, $(cat err.txt)"; fail=1; }
# A dump cut after its declarations (no time stamp) covers no packet either.
sed '/^\$enddefinitions/q' late.vcd >decl.vcd
"$bin" wave decl.vcd --packet "$early" --trace late.csv --save decl-p.gtkw 2>err.txt
rc=$?
[ $rc -eq 2 ] && [ "$(wc -l <err.txt)" -eq 1 ] && grep -q "no time stamp" err.txt && [ ! -e decl-p.gtkw ] \
  || { echo "FAIL: wave --packet $early of a dump of declarations only: exit $rc, $(cat err.txt)"; fail=1; }
# A windowed dump of a large network holds its initial values before its first time stamp, far
# down the file: it has time stamps all the same.
"$bin" traffic --net torus:40x40 --rate 0.1 --warmup 0 --measure 150 --vcd w40.vcd --vcd-window 100:105 \
  --trace t40.csv >/dev/null 2>&1
p40=$(awk -F, 'NR > 1 && $1 >= 100 && $1 <= 105 { print $6; exit }' t40.csv)
"$bin" wave w40.vcd --packet "$p40" --trace t40.csv --save w40p.gtkw >/dev/null 2>err.txt
rc=$?
[ $rc -eq 0 ] && grep -q "^-hop 1:" w40p.gtkw && grep -q "^\[timestart\] 10[0-5]" w40p.gtkw \
  || { echo "FAIL: wave --packet $p40 of a windowed 40x40 dump: exit $rc, $(cat err.txt) $(grep timestart w40p.gtkw)"; fail=1; }
e40=$(awk -F, 'NR > 1 && $8 == 1 && $1 < 20 { print $6; exit }' t40.csv)
"$bin" wave w40.vcd --packet "$e40" --trace t40.csv --save w40e.gtkw 2>err.txt
rc=$?
[ $rc -eq 2 ] && grep -q "outside the dump (cycles 100..104)" err.txt && [ ! -e w40e.gtkw ] \
  || { echo "FAIL: wave --packet $e40 (cycles < 20) of the 40x40 dump of cycles 100..104: exit $rc, $(cat err.txt)"; fail=1; }
rm -f w40.vcd t40.csv

# --rtl-vcd naming a router the network lacks: refused before the Verilated model is built.
WORMCAST_RTL_CACHE="$work/rtl-cache" "$bin" traffic --net torus:3x5 --router mixed --warmup 50 --measure 200 \
  --rtl-vcd r_9_9=r99.vcd 2>err.txt
rc=$?
[ $rc -eq 2 ] && grep -q "r_0_0 .. r_2_4" err.txt && ! ls "$work/rtl-cache"/torus-* >/dev/null 2>&1 && [ ! -e r99.vcd ] \
  || { echo "FAIL: --rtl-vcd with an unknown router: exit $rc, $(cat err.txt)"; fail=1; }
# A router named twice: refused before the model is built too.
WORMCAST_RTL_CACHE="$work/rtl-cache" "$bin" traffic --net torus:3x5 --router rtl --warmup 50 --measure 200 \
  --rtl-vcd r_0_0=a.vcd --rtl-vcd r_0_0=b.vcd 2>err.txt
rc=$?
[ $rc -eq 2 ] && grep -q "router r_0_0 is given twice" err.txt && ! ls "$work/rtl-cache"/torus-* >/dev/null 2>&1 \
  && [ ! -e a.vcd ] && [ ! -e b.vcd ] \
  || { echo "FAIL: --rtl-vcd naming r_0_0 twice: exit $rc, $(cat err.txt)"; fail=1; }
# --vcd-routers naming a router the network lacks, and a bad --vcd-window: refused before the model
# is built, in one line (the model was built first, then the option refused), on traffic and broadcast.
for args in "traffic --vcd-routers r_9_9" "traffic --vcd-window 9:3" "broadcast --algo sequential --vcd-routers r_9_9"; do
  # shellcheck disable=SC2086
  WORMCAST_RTL_CACHE="$work/rtl-cache" "$bin" $args --net torus:3x5 --router rtl --vcd vr.vcd 2>err.txt >/dev/null
  rc=$?
  [ $rc -eq 2 ] && [ "$(wc -l <err.txt)" -eq 1 ] && grep -qE "r_9_9' is not a router of this network|END is not above START" err.txt \
    && ! ls "$work/rtl-cache"/torus-* >/dev/null 2>&1 && [ ! -e vr.vcd ] \
    || { echo "FAIL: $args with an RTL router: exit $rc, $(cat err.txt)"; fail=1; }
done
# An m-way network has no router internals: --rtl-vcd says so for any name (not "a router of the
# network" for one name and "no internal signals" for another).
for name in r_0_0 ni_1_1; do
  "$bin" mway --net mway:3x3 --measure 100 --rtl-vcd "$name=mw.vcd" 2>err.txt
  rc=$?
  [ $rc -eq 2 ] && grep -q "no internal signals to dump" err.txt && [ ! -e mw.vcd ] \
    || { echo "FAIL: mway --rtl-vcd $name: exit $rc, $(cat err.txt)"; fail=1; }
done
# ... and its help does not offer the two options it refuses, while traffic's does.
"$bin" mway --help >help.txt 2>&1
! grep -q -e "--router-vcd" -e "--vcd-routers" help.txt && grep -q -e "--vcd-window" help.txt \
  && "$bin" traffic --help | grep -q -e "--vcd-routers" \
  || { echo "FAIL: mway --help lists --router-vcd or --vcd-routers (or traffic's does not)"; fail=1; }
# Both refusals come before any Verilated model is built on the other commands too: a broadcast's
# node-program run and an m-way network of RTL units (the cache is not even created).
WORMCAST_RTL_CACHE="$work/rtl-cache2" "$bin" broadcast --net torus:3x3 --algo rd --router rtl --rtl-vcd r_9_9=b.vcd 2>err.txt
rc=$?
[ $rc -eq 2 ] && grep -q "r_0_0 .. r_2_2" err.txt && [ ! -e "$work/rtl-cache2" ] && [ ! -e b.vcd ] \
  || { echo "FAIL: broadcast --router rtl --rtl-vcd with an unknown router: exit $rc, $(cat err.txt)"; fail=1; }
WORMCAST_RTL_CACHE="$work/rtl-cache2" "$bin" mway --net mway:3x3 --router rtl --measure 100 --rtl-vcd r_0_0=mw.vcd 2>err.txt
rc=$?
[ $rc -eq 2 ] && grep -q "no internal signals to dump" err.txt && [ ! -e "$work/rtl-cache2" ] && [ ! -e mw.vcd ] \
  || { echo "FAIL: mway --router rtl --rtl-vcd: exit $rc, $(cat err.txt)"; fail=1; }

# Save files: an all-port iBT router's ports 4 and 5 are its bypass ports (then local 0 ..); a
# packet view of a dump cut by --vcd-window zooms where the full dump's does; scripts/wave opens
# the save file given as --save=FILE.
"$bin" traffic --net ibt:8x8 --set ibt.bypass=2 --rate 0.1 --warmup 100 --measure 300 --vcd ibt.vcd >/dev/null 2>err.txt
grep -q "in b+ (in_4)" ibt.gtkw && grep -q "in b- (in_5)" ibt.gtkw && grep -q "in local 0 (in_6)" ibt.gtkw \
  || { echo "FAIL: an all-port iBT router's save file does not name its bypass ports"; fail=1; }
for w in full cut; do
  window=(); [ $w = cut ] && window=(--vcd-window 100:120)
  "$bin" traffic --net torus:3x3 --rate 0.1 --warmup 50 --measure 100 --trace $w.csv --vcd $w.vcd "${window[@]}" >/dev/null 2>&1
  "$bin" wave $w.vcd --packet 5 --trace $w.csv --save $w-p5.gtkw >/dev/null 2>&1
done
# A damaged trace row anywhere (a field short, a bit that is not 0 or 1) is refused naming its
# line, nothing written: the packet's hops could not be trusted (such a row was skipped).
sed '3s/,[01]$//' full.csv >short.csv
sed '3s/,[01]$/,x/' full.csv >badbit.csv
for t in short badbit; do
  "$bin" wave full.vcd --packet 5 --trace $t.csv --save $t.gtkw >/dev/null 2>err.txt
  rc=$?
  [ $rc -eq 2 ] && grep -q "'$t.csv' line 3: " err.txt && [ ! -e $t.gtkw ] \
    || { echo "FAIL: wave --trace with a damaged row ($t): exit $rc, $(cat err.txt)"; fail=1; }
done
[ -n "$(grep timestart full-p5.gtkw)" ] && [ "$(grep timestart full-p5.gtkw)" = "$(grep timestart cut-p5.gtkw)" ] \
  || { echo "FAIL: a windowed dump's packet view: $(grep timestart cut-p5.gtkw) against $(grep timestart full-p5.gtkw)"; fail=1; }
mkdir -p fakebin && printf '#!/bin/sh\necho "$@" > "%s/gtkwave.args"\n' "$work" >fakebin/gtkwave && chmod +x fakebin/gtkwave
PATH="$work/fakebin:$PATH" DISPLAY=:9 "$wave" full.vcd --save=other.gtkw >/dev/null 2>&1
[ "$(cat gtkwave.args 2>/dev/null)" = "full.vcd other.gtkw" ] && [ -s other.gtkw ] \
  || { echo "FAIL: scripts/wave --save=FILE opened $(cat gtkwave.args 2>/dev/null)"; fail=1; }
# scripts/wave --help prints its help and the program's, and opens nothing.
rm -f gtkwave.args
PATH="$work/fakebin:$PATH" DISPLAY=:9 "$wave" --help >help.txt 2>&1
rc=$?
[ $rc -eq 0 ] && grep -q "^Usage: scripts/wave" help.txt && grep -q -- "--packet" help.txt && [ ! -e gtkwave.args ] \
  || { echo "FAIL: scripts/wave --help: exit $rc, gtkwave opened with '$(cat gtkwave.args 2>/dev/null)'"; fail=1; }

# --max-output-size counts what the recordings hold when they are closed: a VCD of 319,036 bytes
# under a limit of 318,000 is refused (exit 2), no file.
"$bin" traffic --net torus:4x4 --rate 0.1 --warmup 100 --measure 300 --vcd lim.vcd --max-output-size 318000 >/dev/null 2>err.txt
rc=$?
[ $rc -eq 2 ] && grep -q "more than the limit" err.txt && [ ! -e lim.vcd ] \
  || { echo "FAIL: a recording just above --max-output-size: exit $rc, $(cat err.txt)"; fail=1; }

"$bin" config --check --set net.family=ibt >ibtdef.json 2>err.txt
rc=$?
[ $rc -eq 0 ] && grep -q '"radix": "16x16"' ibtdef.json || { echo "FAIL: the ibt family's defaults: exit $rc, $(cat err.txt)"; fail=1; }

long=$(printf '4x%.0s' $(seq 600))q
"$bin" traffic --set "net.radix=$long" 2>err.txt >/dev/null
rc=$?
n=$(wc -l <err.txt); w=$(awk '{ print length($0) }' err.txt)
[ $rc -eq 2 ] && [ "$n" = 1 ] && [ "$w" -le 400 ] && grep -q "characters left out" err.txt \
  || { echo "FAIL: a long value's error line: exit $rc, $n lines, $w characters"; fail=1; }

# A value's control bytes and bytes outside UTF-8 are echoed as \xNN: one line of valid UTF-8, no
# terminal escape sequence, a multi-byte character kept whole (also where a long message is cut).
"$bin" traffic --set "net.topology=$(printf 'a\033[31mb\nc\377 \303\251')" 2>err.txt >/dev/null
rc=$?
[ $rc -eq 2 ] && [ "$(wc -l <err.txt)" = 1 ] && grep -qF "'a\x1B[31mb c\xFF é'" err.txt && ! grep -q "$(printf '\033')" err.txt \
  || { echo "FAIL: control bytes in a value: exit $rc, $(od -c err.txt | head -5)"; fail=1; }
"$bin" "$(printf 'tr\033affic')" 2>err.txt >/dev/null
rc=$?
[ $rc -eq 2 ] && grep -qF "unknown command 'tr\x1Baffic'" err.txt \
  || { echo "FAIL: control bytes in a command word: exit $rc, $(od -c err.txt | head -5)"; fail=1; }
# Unicode's control characters too (a terminal's escape U+009B, next line U+0085, line separator
# U+2028); the empty-value line as well; a long value's length in characters, not bytes.
"$bin" traffic --set "net.topology=$(printf 'a\302\23331m\302\205b\342\200\250c')" 2>err.txt >/dev/null
rc=$?
[ $rc -eq 2 ] && grep -qF "'a\xC2\x9B31m\xC2\x85b\xE2\x80\xA8c'" err.txt \
  || { echo "FAIL: Unicode control characters in a value: exit $rc, $(od -c err.txt | head -5)"; fail=1; }
"$bin" traffic "$(printf -- '--a\033b\nc=')" 2>err.txt >/dev/null
rc=$?
[ $rc -eq 2 ] && [ "$(wc -l <err.txt)" = 1 ] && grep -qF -- "--a\x1Bb c= has an empty value" err.txt \
  || { echo "FAIL: control bytes in an empty-valued option: exit $rc, $(od -c err.txt | head -5)"; fail=1; }
"$bin" "$(printf 'ab\303\251%.0s' $(seq 100))" 2>err.txt >/dev/null
grep -q "(300 characters)" err.txt || { echo "FAIL: a 300-character command word: $(cat err.txt)"; fail=1; }
"$bin" traffic --set "net.topology=$(printf '\303\251%.0s' $(seq 300))" 2>err.txt >/dev/null
rc=$?
[ $rc -eq 2 ] && python3 -c 'import sys; open(sys.argv[1], "rb").read().decode("utf-8")' err.txt \
  || { echo "FAIL: a long value of two-byte characters: exit $rc, not valid UTF-8"; fail=1; }

printf 'cycle,src,dst,len\n1,0,5,4\n' >tr.csv
cp tr.csv tr0.csv
"$bin" traffic --net torus:4x4 --warmup 0 --measure 50 --set traffic.trace=tr.csv --deliveries tr.csv 2>err.txt >/dev/null
rc=$?
[ $rc -eq 2 ] && grep -q "is an input of this run" err.txt && cmp -s tr.csv tr0.csv \
  || { echo "FAIL: --deliveries over the traffic.trace file: exit $rc, $(cat err.txt)"; fail=1; }
cp "$bin" ./wc
./wc traffic --net torus:4x4 --measure 50 --json ./wc 2>err.txt >/dev/null
rc=$?
[ $rc -eq 2 ] && grep -q "is an input of this run" err.txt && [ -x ./wc ] && cmp -s ./wc "$bin" \
  || { echo "FAIL: --json over the program: exit $rc, $(cat err.txt)"; fail=1; }
printf 'router:\n  # vcs_per_class: 2\nnet:\n  radix: 4x4\n' >commented.yaml
"$bin" config --check --config commented.yaml >/dev/null 2>err.txt || { echo "FAIL: a section of only comments: $(cat err.txt)"; fail=1; }
printf 'router:\n  vcs_per_class:\n  buffer_depth: 8\n' >empty.yaml
"$bin" config --check --config empty.yaml >/dev/null 2>err.txt
rc=$?
[ $rc -eq 2 ] && grep -q "line 2 column 3: router.vcs_per_class has an empty value" err.txt \
  || { echo "FAIL: an empty value's line: exit $rc, $(cat err.txt)"; fail=1; }
"$bin" config --check --set router.dateline=True >/dev/null 2>err.txt || { echo "FAIL: router.dateline=True: $(cat err.txt)"; fail=1; }

[ $fail -eq 0 ] && echo "cli daily: all checks passed"
exit $fail
