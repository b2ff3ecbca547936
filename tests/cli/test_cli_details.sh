#!/usr/bin/env bash
# Details of the command line, one section per run:
#   help      every command's --help shows each option's type and default (NUMBER=0.1, FILE), never
#             a check's internal name (VALUE of traffic.rate) or TEXT where a check knows better
#   vcd-fst   --vcd and --fst in one run are refused up front (exit 2, one line, nothing written):
#             each would write its save file BASE.gtkw, and the same BASE would be one file
#   wave-fst  `wormcast wave` reads an FST whose path has a quote or whose name lacks .fst, and names
#             a failed conversion as fst2vcd's failure, not as a bad VCD (skipped without vcd2fst /
#             fst2vcd)
#   mway-line the summary line of region-broadcast traffic names its units: accepted flit-copies,
#             offered flits times the destinations per message; the JSON has both rates
#   mway-config `mway --config FILE` runs the file's values where no option replaces them (--len
#               sets the buffer too; a file of another family refused), and checks
#             them; --set traffic.packet_len sets the packet, its maximum and the buffer length; a
#             trace run has no broadcasts, nor a rate (refused), while --len still applies
#   vcs       too many VCs per port: the value, the VCs it makes and the range this router allows
# Usage: test_cli_details.sh WORMCAST SECTION
set -uo pipefail
bin=$1
section=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
fail=0

case $section in
help)
  for cmd in traffic run config schedule broadcast mway gossip wave "ibt topo" "ibt bcast"; do
    # shellcheck disable=SC2086
    "$bin" $cmd --help >help.txt 2>&1 || { echo "FAIL: $cmd --help exited $?"; fail=1; }
    if grep -nE "VALUE of|TEXT:|=\[\]|=-1\b" help.txt; then
      echo "FAIL: $cmd --help shows a check's name, TEXT: or a placeholder default (lines above)"
      fail=1
    fi
  done
  "$bin" traffic --help >help.txt
  for want in "--rate NUMBER=0.1" "--vcs INT=1" "--buf INT=4" "--seed INT=1" "--measure INT=10000" \
              "--pattern TEXT=uniform" "--router TEXT=sc" "--json FILE" "--max-output-size TEXT=4G"; do
    grep -qF -- "$want" help.txt || { echo "FAIL: traffic --help lacks '$want'"; fail=1; }
  done
  grep -qF "randperm" help.txt || { echo "FAIL: traffic --help does not list every pattern"; fail=1; }
  "$bin" mway --help >help.txt
  grep -qF -- "--rate NUMBER=0.01" help.txt || { echo "FAIL: mway --help lacks '--rate NUMBER=0.01'"; fail=1; }
  "$bin" wave --help >help.txt
  grep -qF -- "--cycles INT in 1..1000000000=200" help.txt || { echo "FAIL: wave --help lacks --cycles' type and default"; fail=1; }
  # An unknown option is named as such, not reported as a missing dump; a missing dump is named.
  for args in "--bogus:--bogus" "x.vcd --bogus:--bogus" ":dump: required" "--cycles 5:dump: required"; do
    # shellcheck disable=SC2086
    "$bin" wave ${args%%:*} >out.txt 2>err.txt
    rc=$?
    [ $rc -eq 2 ] && [ "$(wc -l <err.txt)" -eq 1 ] && grep -qF -- "${args#*:}" err.txt \
      || { echo "FAIL: wave ${args%%:*}: exit $rc, want 2 and one line naming '${args#*:}': $(cat err.txt)"; fail=1; }
  done
  ;;
vcd-fst)
  for run in "traffic --net torus:4x4 --measure 100 --warmup 10" \
             "mway --net mesh:4x4 --measure 100 --warmup 10" \
             "broadcast --net torus:4x4 --algo dcf --len 4"; do
    # shellcheck disable=SC2086
    "$bin" $run --vcd w.vcd --fst w.fst >out.txt 2>err.txt
    rc=$?
    [ $rc -eq 2 ] && [ "$(wc -l <err.txt)" -eq 1 ] && grep -q "either --vcd or --fst" err.txt \
      && grep -q "save file, here w.gtkw and w.gtkw" err.txt && ! ls w.* >/dev/null 2>&1 \
      || { echo "FAIL: $run --vcd w.vcd --fst w.fst: exit $rc, $(cat err.txt), files: $(ls)"; fail=1; }
  done
  # A device as the waveform's name would put NAME.vcd and NAME.gtkw beside it (in /dev).
  if [ ! -e /dev/null.vcd ] && [ ! -e /dev/null.gtkw ]; then
    "$bin" traffic --net torus:3x3 --measure 20 --warmup 0 --vcd /dev/null --json d.json >out.txt 2>err.txt
    rc=$?
    [ $rc -eq 2 ] && grep -q "^wormcast traffic: --vcd '/dev/null': is a special file" err.txt && [ ! -e /dev/null.vcd ] \
      && [ ! -e /dev/null.gtkw ] && [ ! -e d.json ] \
      || { echo "FAIL: --vcd /dev/null: exit $rc, $(cat err.txt)"; rm -f /dev/null.vcd /dev/null.gtkw; fail=1; }
  fi
  ;;
wave-fst)
  if ! command -v vcd2fst >/dev/null || ! command -v fst2vcd >/dev/null; then
    echo "SKIPPED: needs vcd2fst and fst2vcd (package gtkwave)"
    exit 77
  fi
  "$bin" traffic --net torus:4x4 --measure 50 --warmup 10 --fst "it's a run.fst" >/dev/null 2>err.txt \
    || { echo "FAIL: --fst with a quote in the path: $(cat err.txt)"; fail=1; }
  "$bin" wave "it's a run.fst" >out.txt 2>err.txt
  rc=$?
  [ $rc -eq 0 ] && grep -q "16 routers" out.txt && grep -q "r_3_3" "it's a run.gtkw" \
    || { echo "FAIL: wave on a path with a quote: exit $rc, $(cat out.txt err.txt)"; fail=1; }
  echo "not an fst" >bad.fst
  "$bin" wave bad.fst >out.txt 2>err.txt
  rc=$?
  [ $rc -eq 2 ] && grep -q "fst2vcd could not convert it (exit status" err.txt && ! grep -q "not a VCD" err.txt \
    && [ "$(wc -l <err.txt)" -eq 1 ] && [ ! -e bad.gtkw ] \
    || { echo "FAIL: wave on a bad FST: exit $rc, $(cat err.txt)"; fail=1; }
  # --fst takes any name: wave knows an FST by its content, not only by .fst.
  "$bin" traffic --net torus:4x4 --measure 50 --warmup 10 --fst plain >/dev/null 2>err.txt \
    || { echo "FAIL: --fst plain: $(cat err.txt)"; fail=1; }
  "$bin" wave plain --save plain2.gtkw >out.txt 2>err.txt
  rc=$?
  [ $rc -eq 0 ] && grep -q "16 routers" out.txt || { echo "FAIL: wave on an FST named 'plain': exit $rc, $(cat err.txt)"; fail=1; }
  ;;
mway-line)
  "$bin" mway --net mesh:4x4 --rate 0.005 --broadcast-fraction 1 --measure 4000 --json m.json >out.txt 2>err.txt
  rc=$?
  line=$(head -1 out.txt)
  [ $rc -eq 0 ] && echo "$line" | grep -qE "accepted [0-9.]+ flit-copies/node/cycle \(offered [0-9.]+ flits/node/cycle x 15 destinations per message = [0-9.]+ flit-copies/node/cycle\)" \
    || { echo "FAIL: mway summary line: exit $rc, $line $(cat err.txt)"; fail=1; }
  /usr/bin/python3 - m.json <<'PY' || fail=1
import json, sys
t = json.load(open(sys.argv[1]))["throughput"]
ok = t["unit"] == "flits/node/cycle" and t["destinations"] == 15 \
    and abs(t["offered_copies"] - 15 * t["offered"]) < 1e-5 and abs(t["accepted"] - t["offered_copies"]) < 0.15 * t["offered_copies"]
if not ok:
    print(f"FAIL: mway throughput JSON {t}: offered_copies is not offered x 15 destinations or far from accepted")
sys.exit(0 if ok else 1)
PY
  "$bin" traffic --net torus:4x4 --measure 500 --warmup 100 >out.txt
  grep -qE "\| accepted [0-9.]+ flits/node/cycle \(offered [0-9.]+\) \|" out.txt \
    || { echo "FAIL: unicast summary line changed: $(head -1 out.txt)"; fail=1; }
  # Plain MST deadlocks while a node interface is still loading a long message (no channel moves
  # meanwhile): a loaded flit is progress, so the watchdog waits for the loader and the run is a
  # deadlock with its cycle (exit 3), not a packet called lost (exit 1).
  "$bin" mway --net mesh:3x7 --algo mst --rate 0.2 --measure 3000 --set sim.watchdog=10 --region random --buffers 2 \
    --len 40 --buffer-length 40 --set sim.drain=30000 >out.txt 2>err.txt
  rc=$?
  [ $rc -eq 3 ] && grep -q "^deadlock: no flit moved since cycle" out.txt && grep -q "^wait-for cycle:" out.txt \
    && ! grep -q "lost flits" out.txt err.txt \
    || { echo "FAIL: plain MST deadlock during a load: exit $rc, $(head -2 out.txt) $(head -c 300 err.txt)"; fail=1; }
  ;;
mway-config)
  # `mway --config FILE` keeps every value of the file that no option on the command line gives
  # (the command's own defaults apply only without a file), and checks the file's values.
  cat >m.yaml <<'Y'
net: {family: mway, radix: 4x3}
traffic: {rate: 0.03, broadcast_fraction: 0.5, packet_len: 4, region: random}
nic: {max_packet: 4}
mway: {buffers: 2, algo: mst-replica, buffer_length: 7}
sim: {seed: 5, warmup: 100, measure: 300}
Y
  "$bin" mway --config m.yaml --json f.json >out.txt 2>err.txt || { echo "FAIL: mway --config: exit $?, $(cat err.txt)"; fail=1; }
  "$bin" mway --config m.yaml --rate 0.02 --json g.json >out.txt 2>err.txt || { echo "FAIL: mway --config --rate: exit $?, $(cat err.txt)"; fail=1; }
  [ -s f.json ] && [ -s g.json ] && /usr/bin/python3 - f.json g.json <<'PY' || fail=1
import json, sys
f, g = (json.load(open(p))["config"] for p in sys.argv[1:])
want = {("net", "radix"): "4x3", ("traffic", "rate"): 0.03, ("traffic", "broadcast_fraction"): 0.5,
        ("traffic", "packet_len"): 4, ("nic", "max_packet"): 4, ("mway", "buffer_length"): 7,
        ("mway", "buffers"): 2, ("mway", "algo"): "mst-replica"}
bad = [(k, f[k[0]][k[1]]) for k, v in want.items() if str(f[k[0]][k[1]]) != str(v)]
bad += [("rate with --rate 0.02", g["traffic"]["rate"])] if g["traffic"]["rate"] != 0.02 else []
bad += [("radix with --rate", g["net"]["radix"])] if g["net"]["radix"] != "4x3" else []
if bad:
    print(f"FAIL: mway --config ran with {bad}, not the file's values")
sys.exit(1 if bad else 0)
PY
  # --len sets the packet, its maximum and (without --buffer-length) the buffer over the file's
  # values, as its help says; with --buffer-length the buffer is that.
  "$bin" mway --config m.yaml --len 3 --json l.json >out.txt 2>err.txt || { echo "FAIL: mway --config --len 3: exit $?, $(cat err.txt)"; fail=1; }
  "$bin" mway --config m.yaml --len 3 --buffer-length 6 --json b.json >out.txt 2>err.txt || { echo "FAIL: mway --config --len 3 --buffer-length 6: exit $?, $(cat err.txt)"; fail=1; }
  [ -s l.json ] && [ -s b.json ] && /usr/bin/python3 -c '
import json, sys
got = []
for p in ("l.json", "b.json"):
    c = json.load(open(p))["config"]
    got.append((c["traffic"]["packet_len"], c["nic"]["max_packet"], c["mway"]["buffer_length"]))
sys.exit(0 if got == [(3, 3, 3), (3, 3, 6)] else print(f"FAIL: mway --config m.yaml --len 3 [--buffer-length 6] ran with (packet_len, max_packet, buffer_length) = {got}") or 1)' || fail=1
  # A file that sets the packet length but not the buffer's: the buffer holds the file's packet.
  sed '/^mway:/s/, buffer_length: 7//; s/packet_len: 4/packet_len: 8/; /^nic:/d' m.yaml >pl.yaml
  "$bin" mway --config pl.yaml --json pl.json >out.txt 2>err.txt || { echo "FAIL: mway --config pl.yaml: exit $?, $(cat err.txt)"; fail=1; }
  [ -s pl.json ] && /usr/bin/python3 -c '
import json, sys
c = json.load(open("pl.json"))["config"]
got = (c["traffic"]["packet_len"], c["nic"]["max_packet"], c["mway"]["buffer_length"])
sys.exit(0 if got == (8, 8, 8) else print(f"FAIL: a file of packet_len 8 without a buffer length ran with (packet_len, max_packet, buffer_length) = {got}") or 1)' || fail=1
  "$bin" mway --help | tr -s ' \n' ' ' | grep -q "unless --buffer-length is given, mway.buffer_length, over a --config file's values" \
    || { echo "FAIL: mway --help does not say what --len sets"; fail=1; }
  # A file or --set naming another family is refused under net.family (the last --set counts).
  sed 's/family: mway/family: torus/' m.yaml >tor.yaml
  for args in "--config tor.yaml" "--set net.family=torus" "--config m.yaml --set net.family=mway --set net.family=torus"; do
    # shellcheck disable=SC2086
    err=$("$bin" mway $args --json t.json 2>&1 >/dev/null); rc=$?
    [ $rc -eq 2 ] && [ ! -e t.json ] && case "$err" in *"net.family = 'torus'"*"allowed"*"mway"*) true ;; *) false ;; esac \
      || { echo "FAIL: mway $args: exit $rc: $err (want exit 2 naming net.family)"; fail=1; }
  done
  # The file's values are checked (not replaced by the command's defaults).
  sed 's/radix: 4x3/radix: 3x300/' m.yaml >big.yaml
  "$bin" mway --config big.yaml --json h.json >out.txt 2>err.txt
  rc=$?
  [ $rc -eq 2 ] && grep -q "net.radix" err.txt && [ ! -e h.json ] \
    || { echo "FAIL: mway --config with radix 3x300: exit $rc, $(cat err.txt)"; fail=1; }
  # Without a file, --set traffic.packet_len sets the packet: nic.max_packet and the buffer follow.
  "$bin" mway --net mesh:3x3 --algo mst --set traffic.packet_len=7 --warmup 50 --measure 200 --json p.json >out.txt 2>err.txt \
    || { echo "FAIL: mway --set traffic.packet_len=7: exit $?, $(cat err.txt)"; fail=1; }
  [ -s p.json ] && /usr/bin/python3 -c '
import json, sys
c = json.load(open("p.json"))["config"]
got = (c["traffic"]["packet_len"], c["nic"]["max_packet"], c["mway"]["buffer_length"])
sys.exit(0 if got == (7, 7, 7) else print(f"FAIL: --set traffic.packet_len=7 ran with (packet_len, max_packet, buffer_length) = {got}") or 1)' || fail=1
  # A trace's messages are unicasts: a share of broadcasts with a trace is refused, and the
  # command's default share does not apply to a trace run.
  printf 'cycle,src,dst,len\n10,0,2,2\n' >tr.csv
  "$bin" mway --net mesh:3 --set traffic.trace=tr.csv --warmup 20 --measure 10 >out.txt 2>err.txt \
    || { echo "FAIL: mway with a trace: exit $?, $(cat err.txt)"; fail=1; }
  "$bin" mway --net mesh:3 --set traffic.trace=tr.csv --broadcast-fraction 1 --warmup 20 --measure 10 --json t.json >out.txt 2>err.txt
  rc=$?
  [ $rc -eq 2 ] && grep -q "traffic.broadcast_fraction = 1 is not used with traffic.trace" err.txt && [ ! -e t.json ] \
    || { echo "FAIL: mway with a trace and --broadcast-fraction 1: exit $rc, $(cat err.txt)"; fail=1; }
  # With a trace --rate is unused (refused), --len still sets the packets' maximum and the buffers.
  "$bin" mway --net mesh:3 --set traffic.trace=tr.csv --rate 0.01 --warmup 20 --measure 10 --json t.json >out.txt 2>err.txt
  rc=$?
  [ $rc -eq 2 ] && grep -q "traffic.rate = 0.01 is not used with traffic.trace" err.txt && [ ! -e t.json ] \
    || { echo "FAIL: mway with a trace and --rate: exit $rc, $(cat err.txt)"; fail=1; }
  "$bin" mway --net mesh:3 --set traffic.trace=tr.csv --len 4 --warmup 20 --measure 10 >out.txt 2>err.txt \
    || { echo "FAIL: mway with a trace and --len: exit $?, $(cat err.txt)"; fail=1; }
  # The source queue bounds drawn traffic only (a trace injects all its messages), and a region
  # belongs to the broadcasts a trace does not have: both refused with a trace, for both commands.
  for args in "traffic --set traffic.source_queue=3|traffic.source_queue = 3 is not used with traffic.trace" \
              "mway --region random|traffic.region = random is not used with traffic.trace"; do
    # shellcheck disable=SC2086
    "$bin" ${args%%|*} --net mesh:3 --set traffic.trace=tr.csv --warmup 20 --measure 10 --json q.json >out.txt 2>err.txt
    rc=$?
    [ $rc -eq 2 ] && grep -qF "${args#*|}" err.txt && [ "$(wc -l <err.txt)" = 1 ] && [ ! -e q.json ] \
      || { echo "FAIL: ${args%%|*} with a trace: exit $rc, $(cat err.txt)"; fail=1; }
  done
  ;;
vcs)
  # Too many VCs per port names the value, the VCs it makes and this router's range.
  for args in "--set router.routing=valiant --vcs 5|router.vcs_per_class = 5 is invalid for this router (20 VCs per port); allowed: 1..4" \
              "--set router.routing=min-adaptive --set router.adaptive_vcs=8 --vcs 5|(18 VCs per port); allowed: 1..4"; do
    # shellcheck disable=SC2086
    "$bin" traffic ${args%%|*} --json v.json >out.txt 2>err.txt
    rc=$?
    [ $rc -eq 2 ] && grep -qF "${args#*|}" err.txt && [ "$(wc -l <err.txt)" = 1 ] && [ ! -e v.json ] \
      || { echo "FAIL: traffic ${args%%|*}: exit $rc, $(cat err.txt)"; fail=1; }
  done
  ;;
message-latency)
  # Messages of three packets: message_latency counts each message once, at its last packet, and
  # is longer than the packets' latency (the later packets queue behind the first at the source).
  "$bin" traffic --net torus:4x4 --set traffic.mode=message --set traffic.message_len=12 --set nic.max_packet=4 \
    --rate 0.02 --warmup 200 --measure 4000 --json m.json >out.txt 2>err.txt \
    || { echo "FAIL: message mode: exit $?, $(cat err.txt)"; fail=1; }
  /usr/bin/python3 -c '
import json, sys
j = json.load(open("m.json"))
p, m = j["latency"], j["message_latency"]
ok = p["count"] > 30 and p["count"] == 3 * m["count"] and m["mean"] > p["mean"] + 4 and m["max"] >= p["max"]
sys.exit(0 if ok else print(f"FAIL: latency {p}, message_latency {m}") or 1)' || fail=1
  # One packet per message: the two agree.
  "$bin" traffic --net torus:4x4 --rate 0.05 --warmup 200 --measure 2000 --json b.json >out.txt 2>err.txt || fail=1
  /usr/bin/python3 -c '
import json, sys
j = json.load(open("b.json"))
sys.exit(0 if j["latency"] == j["message_latency"] else print("FAIL:", j["latency"], "!=", j["message_latency"]) or 1)' || fail=1
  # The two modes differ only in the key of the length (traffic.mode's text): a bernoulli arrival
  # longer than nic.max_packet is a message split into packets after t_s, delivered as message mode's.
  "$bin" traffic --net torus:4x4 --rate 0.05 --len 20 --set nic.ts=3 --set nic.max_packet=8 --warmup 100 \
    --measure 1000 --deliveries bern.csv >out.txt 2>err.txt || { echo "FAIL: bernoulli --len 20: exit $?"; fail=1; }
  "$bin" traffic --net torus:4x4 --rate 0.05 --set traffic.mode=message --set traffic.message_len=20 --set nic.ts=3 \
    --set nic.max_packet=8 --warmup 100 --measure 1000 --deliveries mess.csv >out.txt 2>err.txt \
    || { echo "FAIL: message mode of 20 flits: exit $?"; fail=1; }
  [ -s bern.csv ] && cmp -s bern.csv mess.csv || { echo "FAIL: bernoulli and message mode deliveries differ"; fail=1; }
  ;;
verdict-reasons)
  # A warm-up message longer than the drain holds the drain: drain_timeout with every measured
  # packet delivered, and the reason says how many undelivered ones were measured (0), where it
  # once said measured packets were undelivered.
  printf 'cycle,src,dst,len\n5,2,3,5000\n150,6,9,5\n' >warm.csv
  "$bin" traffic --net torus:5x3 --set traffic.trace=warm.csv --warmup 100 --measure 200 --set sim.drain=1000 \
    --json d.json >out.txt 2>err.txt
  rc=$?
  [ $rc -eq 5 ] || { echo "FAIL: a warm-up message held past the drain: exit $rc, want 5"; fail=1; }
  /usr/bin/python3 -c '
import json, sys
j = json.load(open("d.json"))
why = [r for r in j["stability"]["reasons"] if r.startswith("did not drain")]
ok = j["status"] == "drain_timeout" and j["throughput"]["measured_undelivered"] == 0 and len(why) == 1 \
    and why[0].endswith(", 0 of them measured") and j["packets"]["unfinished_first"][0]["created"] == 5
sys.exit(0 if ok else print("FAIL: drain held by a warm-up message:", j["status"], j["stability"]["reasons"]) or 1)' || fail=1
  # A full source queue drops messages (three packets each here): the reason counts messages.
  "$bin" traffic --net torus:4x4 --rate 0.9 --set traffic.mode=message --set traffic.message_len=40 \
    --set nic.max_packet=16 --set traffic.source_queue=2 --warmup 100 --measure 2000 --json q.json >out.txt 2>err.txt
  /usr/bin/python3 -c '
import json, sys
j = json.load(open("q.json"))
n = j["throughput"]["source_overflow"]
ok = n > 0 and f"{n} messages dropped at full source queues (traffic.source_queue = 2)" in j["stability"]["reasons"]
sys.exit(0 if ok else print("FAIL: dropped messages:", n, j["stability"]["reasons"]) or 1)' || fail=1
  ;;
*)
  echo "unknown section $section"
  exit 2
  ;;
esac
[ $fail -eq 0 ] && echo "ok: $section"
exit $fail
