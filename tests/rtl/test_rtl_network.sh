#!/usr/bin/env bash
# RTL routers in the network: an 8x8 torus of Verilated routers (and a checkerboard of RTL and
# SystemC routers) must produce the same per-flit delivery trace as the all-SystemC torus, for
# uniform random traffic and for schedule-driven broadcasts (and a 4x4 torus under the iSLIP
# allocator for traffic); so must the per-hop traces of the 4x4 runs; the port-level waveforms must
# be equal too, and scripts/wave must group every router of such a waveform.
set -u
bin=$1
export WORMCAST_BIN=$bin  # scripts/wave runs this program
wave=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
fail=0

# shellcheck source=same_traces.sh
. "$(dirname "$0")/same_traces.sh"

# Uniform random traffic, 10,000 cycles, the 8x8 torus with V=2, B=8.
for m in sc rtl mixed; do
  "$bin" traffic --net torus:8x8 --vcs 2 --buf 8 --rate 0.2 --warmup 0 --measure 10000 --seed 11 \
    --router "$m" --deliveries "$work/uniform_$m.csv" --json "$work/uniform_$m.json" >/dev/null \
    || { echo "FAIL: uniform traffic with router $m exited $?"; fail=1; }
done
same "uniform 8x8 rtl" "$work/uniform_sc.csv" "$work/uniform_rtl.csv" 100000
same "uniform 8x8 mixed" "$work/uniform_sc.csv" "$work/uniform_mixed.csv" 100000
grep -q '"model": "rtl"' "$work/uniform_rtl.json" || { echo "FAIL: JSON does not echo router.model rtl"; fail=1; }
# The energy totals say how many routers were seen only at their ports (docs/energy.md): 0, 64, 32;
# their link energy is the SystemC run's (the same link flits), their dynamic energy below it.
/usr/bin/python3 - "$work"/uniform_{sc,rtl,mixed}.json <<'PY' || { echo "FAIL: energy totals of RTL routers"; fail=1; }
import json, sys
sc, rtl, mixed = (json.load(open(p))["energy"]["totals"] for p in sys.argv[1:])
assert (sc["uncounted_routers"], rtl["uncounted_routers"], mixed["uncounted_routers"]) == (0, 64, 32), \
    (sc["uncounted_routers"], rtl["uncounted_routers"], mixed["uncounted_routers"])
assert sc["link_pj"] == rtl["link_pj"] == mixed["link_pj"]
assert rtl["dynamic_pj"] == rtl["link_pj"] < mixed["dynamic_pj"] < sc["dynamic_pj"]
PY

# The tail VC re-allocation policy (torus8x8_v1b4_tail: V=1, B=4) with random ties, near
# saturation so that packets queue behind each other in one VC buffer.
for m in sc rtl mixed; do
  "$bin" traffic --net torus:8x8 --rate 0.3 --warmup 0 --measure 10000 --seed 12 \
    --set router.vc_realloc=tail --set traffic.tie=random \
    --router "$m" --deliveries "$work/tail_$m.csv" --json "$work/tail_$m.json" >/dev/null \
    || { echo "FAIL: tail re-allocation with router $m exited $?"; fail=1; }
done
same "tail re-allocation 8x8 rtl" "$work/tail_sc.csv" "$work/tail_rtl.csv" 100000
same "tail re-allocation 8x8 mixed" "$work/tail_sc.csv" "$work/tail_mixed.csv" 100000
# A network beyond the Verilog router (radix over 256): exit 2 before anything is built, one line
# naming the key and the limit.
"$bin" traffic --net torus:300x2 --measure 100 --router rtl >/dev/null 2>"$work/no_build.err"
rc=$?
[ $rc -eq 2 ] || { echo "FAIL: rtl beyond the radix limit exited $rc, want 2"; fail=1; }
grep -q "net.radix = 300 is beyond the Verilog router.*allowed: 2..256" "$work/no_build.err" \
  || { echo "FAIL: the error does not name net.radix and its limit: $(cat "$work/no_build.err")"; fail=1; }
[ "$(wc -l < "$work/no_build.err")" -le 1 ] || { echo "FAIL: the error is more than one line"; fail=1; }
# The iSLIP allocator whose switch allocator accepts by output port (booksim-iq's; the test set
# torus4x4_v2b4_islip1port) on a 4x4 torus at 0.45 flits/node/cycle: the all-RTL and the mixed
# network give the all-SystemC delivery trace, and that trace is not the input-first one.
for m in sc rtl mixed; do
  "$bin" traffic --net torus:4x4 --vcs 2 --rate 0.45 --warmup 0 --measure 5000 --seed 14 \
    --set router.allocator=islip --set router.switch_accept=port --set traffic.tie=random \
    --router "$m" --deliveries "$work/islip_$m.csv" --json "$work/islip_$m.json" --trace "$work/islip_hops_$m.csv" >/dev/null \
    || { echo "FAIL: islip by port with router $m exited $?"; fail=1; }
done
same "islip by port 4x4 rtl" "$work/islip_sc.csv" "$work/islip_rtl.csv" 20000
same "islip by port 4x4 mixed" "$work/islip_sc.csv" "$work/islip_mixed.csv" 20000
# The per-hop trace (docs/rtl.md): an RTL router's hops, each flit's input port matched at its
# ports, are the SystemC router's row for row.
same "islip by port 4x4 hops rtl" "$work/islip_hops_sc.csv" "$work/islip_hops_rtl.csv" 100000
same "islip by port 4x4 hops mixed" "$work/islip_hops_sc.csv" "$work/islip_hops_mixed.csv" 100000
grep -q '"allocator": "islip"' "$work/islip_rtl.json" || { echo "FAIL: JSON does not echo router.allocator islip"; fail=1; }
"$bin" traffic --net torus:4x4 --vcs 2 --rate 0.45 --warmup 0 --measure 5000 --seed 14 --set traffic.tie=random \
  --deliveries "$work/if_sc.csv" >/dev/null || { echo "FAIL: input-first 4x4 exited $?"; fail=1; }
cmp -s "$work/if_sc.csv" "$work/islip_rtl.csv" && { echo "FAIL: the islip run's trace is the input-first one"; fail=1; }
# The booksim-iq preset (iSLIP by port, the staged pipeline, the class at dimension entry, R=4, Ld=1,
# Cd=1, tail re-allocation) runs on the Verilog router: the all-RTL and the mixed 4x4 torus deliver
# as the all-SystemC one.
for m in sc rtl mixed; do
  "$bin" traffic --net torus:4x4 --vcs 2 --buf 4 --rate 0.4 --warmup 0 --measure 5000 --seed 14 \
    --set router.preset=booksim-iq --router "$m" --deliveries "$work/preset_$m.csv" --trace "$work/preset_hops_$m.csv" >/dev/null \
    || { echo "FAIL: the booksim-iq preset with router $m exited $?"; fail=1; }
done
same "booksim-iq preset 4x4 rtl" "$work/preset_sc.csv" "$work/preset_rtl.csv" 15000
same "booksim-iq preset 4x4 mixed" "$work/preset_sc.csv" "$work/preset_mixed.csv" 15000
same "booksim-iq preset 4x4 hops rtl" "$work/preset_hops_sc.csv" "$work/preset_hops_rtl.csv" 80000
same "booksim-iq preset 4x4 hops mixed" "$work/preset_hops_sc.csv" "$work/preset_hops_mixed.csv" 80000

# The dateline class decided at dimension entry (router.vc_class = entry; the model of the lockstep
# set torus8x8_v1b4_entry) with random ties: the all-RTL and the mixed network deliver as the
# SystemC one, and every link carries the same VC in every cycle (the port-level waveform); the hop
# rule's waveform differs, so the comparison sees the rule.
for m in sc rtl mixed; do
  "$bin" traffic --net torus:8x8 --rate 0.3 --warmup 0 --measure 5000 --seed 14 --set router.vc_class=entry \
    --set traffic.tie=random --router "$m" --deliveries "$work/entry_$m.csv" >/dev/null \
    || { echo "FAIL: the entry rule with router $m exited $?"; fail=1; }
done
same "vc_class entry 8x8 rtl" "$work/entry_sc.csv" "$work/entry_rtl.csv" 50000
same "vc_class entry 8x8 mixed" "$work/entry_sc.csv" "$work/entry_mixed.csv" 50000
for run in "sc entry" "rtl entry" "sc hop"; do
  read -r model rule <<<"$run"
  "$bin" traffic --net torus:8x8 --rate 0.3 --warmup 0 --measure 400 --seed 14 --set router.vc_class="$rule" \
    --set traffic.tie=random --router "$model" --vcd "$work/wave_${model}_$rule.vcd" >/dev/null \
    || { echo "FAIL: --vcd with router $model, vc_class $rule exited $?"; fail=1; }
  sed -n '/\$enddefinitions/,$p' "$work/wave_${model}_$rule.vcd" >"$work/wave_${model}_$rule.body"
done
same "vc_class entry vcd 8x8 rtl" "$work/wave_sc_entry.body" "$work/wave_rtl_entry.body" 1000
cmp -s "$work/wave_sc_entry.body" "$work/wave_sc_hop.body" \
  && { echo "FAIL: the entry rule's waveform equals the hop rule's"; fail=1; }

# The staged pipeline (docs/router.md section 11) on a 4x4 torus with R = 4: the all-RTL network
# delivers every flit in the cycle the all-SystemC one does, and every router port carries the
# same values cycle for cycle; the lumped pipeline under the same load delivers otherwise.
for m in sc rtl; do
  "$bin" traffic --net torus:4x4 --rate 0.3 --warmup 0 --measure 5000 --seed 14 --set router.pipeline=staged \
    --set router.router_delay=4 --router "$m" --deliveries "$work/staged_$m.csv" --json "$work/staged_$m.json" \
    >/dev/null || { echo "FAIL: staged pipeline with router $m exited $?"; fail=1; }
  "$bin" traffic --net torus:4x4 --rate 0.3 --warmup 0 --measure 400 --seed 14 --set router.pipeline=staged \
    --set router.router_delay=4 --router "$m" --vcd "$work/staged_$m.vcd" >/dev/null \
    || { echo "FAIL: staged pipeline --vcd with router $m exited $?"; fail=1; }
  sed -n '/\$enddefinitions/,$p' "$work/staged_$m.vcd" >"$work/staged_$m.body"
done
same "staged pipeline 4x4 rtl" "$work/staged_sc.csv" "$work/staged_rtl.csv" 20000
same "staged pipeline 4x4 vcd rtl" "$work/staged_sc.body" "$work/staged_rtl.body" 1000
grep -q '"pipeline": "staged"' "$work/staged_rtl.json" || { echo "FAIL: JSON does not echo router.pipeline staged"; fail=1; }
"$bin" traffic --net torus:4x4 --rate 0.3 --warmup 0 --measure 5000 --seed 14 --set router.router_delay=4 \
  --deliveries "$work/lumped_sc.csv" >/dev/null || { echo "FAIL: lumped pipeline exited $?"; fail=1; }
cmp -s "$work/staged_sc.csv" "$work/lumped_sc.csv" && { echo "FAIL: the staged and lumped pipelines deliver alike"; fail=1; }

# Injection and ejection channel delays live in the NIC port: RTL routers see the same delayed
# streams and the deliveries stay identical.
for m in sc rtl; do
  "$bin" traffic --net torus:8x8 --vcs 2 --buf 8 --rate 0.2 --warmup 0 --measure 3000 --seed 13 \
    --set router.injection_delay=1 --set router.ejection_delay=2 \
    --router "$m" --deliveries "$work/chdelay_$m.csv" >/dev/null \
    || { echo "FAIL: channel delays with router $m exited $?"; fail=1; }
done
same "injection/ejection delays 8x8 rtl" "$work/chdelay_sc.csv" "$work/chdelay_rtl.csv" 20000

# Broadcasts run by the node programs: DCF (contention-free) and EDN at t_s = 0 (its messages
# block each other in the network).
for algo in dcf edn; do
  for m in sc rtl; do
    "$bin" broadcast --net torus:8x8 --algo "$algo" --len 32 --ts 0 --tr 0 --set router.buffer_depth=8 \
      --router "$m" --deliveries "$work/${algo}_$m.csv" --json "$work/${algo}_$m.json" >/dev/null \
      || { echo "FAIL: $algo broadcast with router $m exited $?"; fail=1; }
  done
  same "$algo broadcast 8x8 rtl" "$work/${algo}_sc.csv" "$work/${algo}_rtl.csv" $((63 * 32))
done
grep -q '"blocked_cycles": [1-9]' "$work/edn_rtl.json" || { echo "FAIL: the EDN run saw no blocking"; fail=1; }

# Port-level waveforms: identical values on every router port, cycle for cycle.
for m in sc rtl; do
  "$bin" traffic --net torus:8x8 --vcs 2 --buf 8 --rate 0.3 --warmup 0 --measure 300 --router "$m" \
    --vcd "$work/wave_$m.vcd" >/dev/null || { echo "FAIL: --vcd with router $m exited $?"; fail=1; }
  sed -n '/\$enddefinitions/,$p' "$work/wave_$m.vcd" >"$work/wave_$m.body"
done
same "vcd 8x8 rtl" "$work/wave_sc.body" "$work/wave_rtl.body" 1000

# scripts/wave: one group per router, every referenced signal declared in the dump.
out=$("$wave" "$work/wave_rtl.vcd" --save "$work/wave.gtkw" --no-launch) || { echo "FAIL: scripts/wave exited $?"; fail=1; }
case "$out" in *"64 routers"*) ;; *) echo "FAIL: scripts/wave: $out"; fail=1 ;; esac
declared=$(grep -c '\$var' "$work/wave_rtl.vcd")
referenced=$(grep -c '^SystemC\.' "$work/wave.gtkw")
if [ "$referenced" -ne "$declared" ]; then
  echo "FAIL: scripts/wave references $referenced signals, the dump declares $declared"; fail=1
fi
for g in '-r_0_0' '-r_7_7' '-in x+ (in_0)' '-out y- (out_3)' '-credit_in local 0 (credit_in_4)'; do
  grep -qxF -- "$g" "$work/wave.gtkw" || { echo "FAIL: scripts/wave: no group $g"; fail=1; }
done
grep -qxF 'SystemC.top.net.r_3_4.credit_out_2.vc[3:0]' "$work/wave.gtkw" \
  || { echo "FAIL: scripts/wave: no SystemC.top.net.r_3_4.credit_out_2.vc[3:0]"; fail=1; }
# --fst with RTL routers: a compressed dump that scripts/wave reads (through fst2vcd).
"$bin" traffic --router rtl --warmup 0 --measure 200 --fst "$work/wave.fst" >/dev/null 2>&1 \
  || { echo "FAIL: --fst with rtl routers exited $?"; fail=1; }
[ -s "$work/wave.fst" ] && [ ! -e "$work/wave.fst-tmp.vcd" ] || { echo "FAIL: --fst left no FST or a temporary"; fail=1; }
out=$("$wave" "$work/wave.fst" --no-launch) || { echo "FAIL: scripts/wave on FST exited $?"; fail=1; }
case "$out" in *"64 routers"*) ;; *) echo "FAIL: scripts/wave on FST: $out"; fail=1 ;; esac
# --rtl-vcd (= --router-vcd): every signal inside one RTL router.
"$bin" traffic --router rtl --warmup 0 --measure 200 --rtl-vcd "r_3_4=$work/r34.vcd" --json - >"$work/r34.json" 2>/dev/null \
  || { echo "FAIL: --rtl-vcd exited $?"; fail=1; }
vars=$(grep -c '\$var' "$work/r34.vcd" 2>/dev/null || echo 0)
[ "$vars" -gt 500 ] || { echo "FAIL: --rtl-vcd dump declares $vars signals"; fail=1; }
# Its clock rises at each evaluated edge and falls half a period later (the network's clock), and
# nothing but the run's JSON reaches standard output.
/usr/bin/python3 - "$work/r34.vcd" "$work/r34.json" <<'PY' || fail=1
import json, re, sys
vcd = open(sys.argv[1]).read()
try:
    json.load(open(sys.argv[2]))
except ValueError as e:
    sys.exit(f"FAIL: --rtl-vcd with --json -: standard output is not the JSON alone ({e})")
code = re.search(r"\$var wire\s+1\s+(\S+)\s+clk_i\s", vcd).group(1)
t, values = 0, []
for line in vcd.splitlines():
    if line.startswith("#"):
        t = int(line[1:])
    elif line in ("0" + code, "1" + code):
        values.append((t, line[0]))
rises = [t for t, v in values if v == "1"]
falls = [t for t, v in values if v == "0"]
if len(rises) < 50 or len(falls) < 50 or any(f % 1000 != 500 for f in falls[1:]):
    sys.exit(f"FAIL: --rtl-vcd clock: {len(rises)} rises, {len(falls)} falls, falls at {falls[:5]}")
PY
out=$("$wave" "$work/r34.vcd" --no-launch) || { echo "FAIL: scripts/wave on an RTL dump exited $?"; fail=1; }
case "$out" in *"1 router / channel grouped"*) ;; *) echo "FAIL: scripts/wave on an RTL dump: $out"; fail=1 ;; esac
"$bin" traffic --router mixed --router-vcd "r_1_0=$work/r10.vcd" >/dev/null 2>&1; rc=$?
# r_1_0 is a SystemC router in a mixed network: its VC and credit state.
[ $rc -eq 0 ] && grep -q ' count ' "$work/r10.vcd" && grep -q ' credits ' "$work/r10.vcd" \
  || { echo "FAIL: --router-vcd of a SystemC router exited $rc or lacks its state"; fail=1; }
# Naming only SystemC routers, --router-vcd leaves the RTL routers of a mixed network untraced:
# the traced variant, a build of its own, is not built (a cache of this test's own shows it).
WORMCAST_RTL_CACHE="$work/own-cache" "$bin" traffic --net torus:4x3 --router mixed --warmup 0 --measure 100 \
  --router-vcd "r_1_0=$work/r10small.vcd" >/dev/null 2>&1 || { echo "FAIL: --router-vcd r_1_0 on a mixed 4x3 torus exited $?"; fail=1; }
models=$(WORMCAST_RTL_CACHE="$work/own-cache" "$bin" rtl list)
case "$models" in *"torus 4x3"*"+trace"*) echo "FAIL: a traced RTL model was built for a SystemC router's dump: $models"; fail=1 ;;
  *"torus 4x3"*) ;; *) echo "FAIL: no RTL model of the mixed 4x3 torus in its cache: $models"; fail=1 ;; esac
# In an all-SystemC network the links are mailboxes, but a router dump keeps the clock a toggled
# signal (docs/kernel.md section 4): the dump's clock changes at every edge of the 60 cycles.
"$bin" traffic --net torus:4x4 --rate 0.1 --warmup 0 --measure 50 --router-vcd "r_1_1=$work/r11.vcd" \
  --json "$work/r11.json" >/dev/null 2>&1 || { echo "FAIL: --router-vcd on an all-SystemC network exited $?"; fail=1; }
/usr/bin/python3 - "$work/r11.vcd" "$work/r11.json" <<'PY' || fail=1
import json, re, sys
vcd, run = open(sys.argv[1]).read(), json.load(open(sys.argv[2]))
clock = run["threads"]["clock"]
code = re.search(r"\$var wire\s+1\s+(\S+)\s+\S*clk\s", vcd).group(1)
edges = len(re.findall(r"^[01]" + re.escape(code) + r"$", vcd, re.M))
if clock != "signal" or edges < 100:
    sys.exit(f"FAIL: a router dump with mailbox links: clock {clock}, {edges} clock values in the dump")
PY
"$wave" "$work/missing.vcd" --no-launch 2>/dev/null; rc=$?
[ $rc -eq 2 ] || { echo "FAIL: scripts/wave on a missing file exited $rc, want 2"; fail=1; }

# Deadlock (4x4 torus, no dateline classes): both models stop at the same cycle with exit 3, and
# the RTL routers' report holds as many flits as the SystemC routers' buffers.
for m in sc rtl mixed; do
  "$bin" traffic --net torus:4x4 --set router.dateline=false --buf 2 --rate 0.6 --router "$m" \
    --json "$work/dl_$m.json" >/dev/null; rc=$?
  [ $rc -eq 3 ] || { echo "FAIL: no-dateline run with router $m exited $rc, want 3 (deadlock)"; fail=1; }
done
/usr/bin/python3 - "$work/dl_sc.json" "$work/dl_rtl.json" "$work/dl_mixed.json" <<'PY' || fail=1
import json, sys
sc, rtl, mixed = (json.load(open(f))["deadlock"] for f in sys.argv[1:4])
stall_sc, stall_mixed = (json.load(open(f))["stall"] for f in (sys.argv[1], sys.argv[3]))
# Mixed: a SystemC buffer waiting on an RTL router waits on its one entry, and a packet whose wait
# ends there is unclassified (the RTL router's state is unknown), never blocked or lost.
opaque = {e["waiter"][:-len(" (rtl)")] for e in mixed["wait_for"]["waits"] if e["waiter"].endswith(" (rtl)")}
inside = [e["holder"] for e in mixed["wait_for"]["waits"] if e["holder"] and e["holder"].split(".")[0] in opaque]
if (not opaque or inside or mixed["last_move"] != sc["last_move"] or stall_mixed["blocked"] or stall_mixed["lost"]
        or sum(stall_mixed.values()) != sum(stall_sc.values())):
    sys.exit(f"FAIL: mixed deadlock report: RTL entries {sorted(opaque)}, holders inside them {inside}, stall {stall_mixed} "
             f"against SystemC {stall_sc}, last move {mixed['last_move']} against {sc['last_move']}")
# Flits held per waiting buffer (a buffer waiting for any of several VCs reports one edge each).
held = lambda d: sum({e["waiter"]: e["occupancy"] for e in d["wait_for"]["waits"]}.values())
ok = (sc["detected"] and rtl["detected"] and sc["last_move"] == rtl["last_move"] and sc["cycle"] == rtl["cycle"]
      and held(sc) == held(rtl) > 0 and all(e["waiter"].endswith("(rtl)") for e in rtl["wait_for"]["waits"])
      # an RTL router's packets are not visible at its ports: no packet id, not a placeholder 0
      and all(e["packet"] is None for d in (rtl, mixed) for e in d["wait_for"]["waits"] if e["waiter"].endswith("(rtl)"))
      and all(isinstance(e["packet"], int) for e in sc["wait_for"]["waits"]))
print(f"deadlock: sc last move {sc['last_move']}, {held(sc)} flits held; rtl last move {rtl['last_move']}, "
      f"{held(rtl)} flits held in {len(rtl['wait_for']['waits'])} routers")
sys.exit(0 if ok else 1)
PY

# A network beyond the Verilog router (more than 65,536 nodes): exit 2, one line naming the key,
# no output file.
err=$("$bin" traffic --net torus:256x257 --router rtl --json "$work/none.json" 2>&1 >/dev/null); rc=$?
[ $rc -eq 2 ] || { echo "FAIL: rtl beyond the node limit exited $rc, want 2"; fail=1; }
case "$err" in *"net.radix (nodes)"*"65536"*) ;; *) echo "FAIL: error does not name net.radix and the node limit: $err"; fail=1 ;; esac
[ ! -e "$work/none.json" ] || { echo "FAIL: output left behind"; fail=1; }

[ $fail -eq 0 ] && echo "all RTL network checks passed"
exit $fail
