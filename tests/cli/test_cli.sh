#!/usr/bin/env bash
# CLI contract checks: a bad value for each configuration field exits 2 with a one-line error
# naming the field and leaves no output file; same configuration + seed gives byte-identical JSON.
set -u
bin=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
fail=0

expect_bad() {  # key value
  local out="$work/bad.json"
  rm -f "$out"
  local err
  err=$("$bin" traffic --set "$1=$2" --json "$out" --measure 10 2>&1 >/dev/null)
  local rc=$?
  if [ $rc -ne 2 ]; then echo "FAIL: $1=$2 exited $rc, want 2"; fail=1; fi
  if [ -e "$out" ] || [ -e "$out.tmp" ]; then echo "FAIL: $1=$2 left an output file"; fail=1; fi
  if [ "$(printf '%s\n' "$err" | wc -l)" -ne 1 ]; then echo "FAIL: $1=$2 error is not one line: $err"; fail=1; fi
  case "$err" in *"$1"*) ;; *) echo "FAIL: $1=$2 error does not name the field: $err"; fail=1 ;; esac
}

expect_bad net.radix 1x8
expect_bad net.radix 8x8x8x8x8
expect_bad net.radix 1025
expect_bad net.radix 1024x1024x2
expect_bad net.radix abc
expect_bad net.topology ring
expect_bad net.topology torus,mesh,torus
expect_bad router.model verilog
expect_bad router.local_ports two
expect_bad router.vcs_per_class 0
expect_bad router.vcs_per_class 9
expect_bad router.dateline maybe
expect_bad router.buffer_depth 0
expect_bad router.buffer_depth 65
expect_bad router.router_delay 0
expect_bad router.link_delay -1
expect_bad router.credit_delay 9
expect_bad router.injection_credit_delay 9
expect_bad router.injection_credit_delay auto
expect_bad router.ejection_credit_delay 9
expect_bad router.switch_accept output
expect_bad nic.ts -5
expect_bad nic.tr x
expect_bad nic.max_packet 0
expect_bad traffic.pattern random
expect_bad traffic.mode poisson
expect_bad traffic.rate 1.5
expect_bad traffic.rate -0.1
expect_bad traffic.packet_len 0
expect_bad traffic.message_len 0
expect_bad traffic.hotspots 64
expect_bad traffic.hotspot_fraction 2
expect_bad sim.warmup -1
expect_bad sim.measure 0
expect_bad sim.drain -3
expect_bad sim.seed -1
expect_bad sim.watchdog 0
expect_bad sim.progress sometimes
expect_bad energy.technology dsent-7nm
expect_bad energy.flit_bits 4
expect_bad energy.flit_bits 2048
expect_bad energy.link_length_mm -1
expect_bad energy.link_length_mm 101
expect_bad energy.clock_period_ns 0
expect_bad energy.clock_period_ns fast
expect_bad no.such_key 1

# The size caps: torus and ibt networks up to radix 1024 and 2^20 nodes; the m-way family, the RTL
# router and Valiant's 16-bit intermediate node stay at radix 256 and 65,536 nodes.
# (The mesh's longest route, 2046 hops, is longer than the default watchdog window.)
for ok in "--set net.radix=1024x1024" "--set net.radix=1024x1024 --set net.topology=mesh --set sim.watchdog=2048" \
          "--set net.family=ibt --set net.radix=1000x1000 --set ibt.bypass=8,32 --set ibt.routing=bypass"; do
  # shellcheck disable=SC2086
  "$bin" config --check $ok >/dev/null 2>&1 || { echo "FAIL: config --check $ok refused"; fail=1; }
done
# config --check refuses the watchdog and livelock windows a run refuses (below the network's
# longest quiet time), with the same bound, on each family. (Each case: its --set list.)
for sets in "net.radix=2x2" "net.radix=3x5 net.topology=mesh router.link_delay=4 router.credit_delay=3 router.buffer_depth=2" \
            "net.radix=8x8 router.routing=valiant router.router_delay=3" "net.family=ibt net.radix=16x16 ibt.routing=shortest" \
            "net.family=mway net.radix=4x4x4"; do
  args=()
  for kv in $sets; do args+=(--set "$kv"); done
  for key in sim.watchdog sim.livelock; do
    run_err=$("$bin" traffic "${args[@]}" --set "$key=1" --measure 100 2>&1 >/dev/null)
    chk_err=$("$bin" config --check "${args[@]}" --set "$key=1" 2>&1 >/dev/null)
    chk_rc=$?
    case "$run_err" in "wormcast traffic: $key = 1 is invalid for this network"*) ;; *) echo "FAIL: [$sets] $key=1: the run says $run_err"; fail=1 ;; esac
    if [ $chk_rc -ne 2 ] || [ "${chk_err#wormcast config: }" != "${run_err#wormcast traffic: }" ]; then
      echo "FAIL: [$sets] $key=1: traffic says [$run_err], config --check ($chk_rc) [$chk_err]"; fail=1
    fi
  done
done
# config --check refuses the node-program keys a traffic run refuses, with the run's line (a sweep
# validates its points with it).
for kv in nic.tr=5 node.cpu=rv32; do
  run_err=$("$bin" traffic --set "$kv" --measure 100 2>&1 >/dev/null)
  chk_err=$("$bin" config --check --set "$kv" 2>&1 >/dev/null); chk_rc=$?
  if [ $chk_rc -ne 2 ] || [ "${chk_err#wormcast config: }" != "${run_err#wormcast traffic: }" ]; then
    echo "FAIL: $kv: traffic says [$run_err], config --check ($chk_rc) [$chk_err]"; fail=1
  fi
done
# An m-way message length that would leave a one-flit packet: the value and the maximum named.
err=$("$bin" mway --set traffic.mode=message 2>&1 >/dev/null); rc=$?
[ $rc -eq 2 ] && case "$err" in *"traffic.message_len = 16 is invalid"*"nic.max_packet = 5"*) true ;; *) false ;; esac \
  || { echo "FAIL: mway traffic.message_len 16 over packets of 5: exit $rc: $err"; fail=1; }
# A command that needs a sub-command names them, in one line.
err=$("$bin" rtl 2>&1 >/dev/null); rc=$?
[ $rc -eq 2 ] || { echo "FAIL: wormcast rtl without a sub-command exited $rc, want 2"; fail=1; }
case "$err" in "wormcast rtl: a sub-command is required; allowed: list, build, clean ("*) ;; *) echo "FAIL: wormcast rtl: $err"; fail=1 ;; esac

# The m-way family's defaults agree with each other: its NIC's largest packet is the traffic's
# packet (nic.max_packet follows traffic.packet_len unless given), so the default MST-safe
# buffers hold a whole packet; a given nic.max_packet is kept and checked.
out=$("$bin" config --check --set net.family=mway --set net.radix=4x4 --set traffic.packet_len=4 2>&1)
case "$out" in *'"max_packet": 4'*) ;; *) echo "FAIL: mway defaults: nic.max_packet does not follow traffic.packet_len: $out"; fail=1 ;; esac
"$bin" traffic --net mway:4x4 --measure 300 >/dev/null 2>&1 || { echo "FAIL: traffic --net mway:4x4 on the defaults refused"; fail=1; }
err=$("$bin" config --check --set net.family=mway --set net.radix=4x4 --set nic.max_packet=64 2>&1 >/dev/null)
case "$err" in *mway.buffer_length*nic.max_packet*) ;; *) echo "FAIL: mway: a given nic.max_packet beyond the buffers is not refused by name: $err"; fail=1 ;; esac
# One-flit packets (nic.max_packet = 1) have no room for data: refused up front in every mode (a
# message-mode run crashed at its first packet).
for mode in bernoulli message; do
  err=$("$bin" mway --net mesh:4x4 --measure 300 --set traffic.mode=$mode --set traffic.message_len=4 \
    --set nic.max_packet=1 2>&1 >/dev/null); rc=$?
  [ $rc -eq 2 ] && case "$err" in *"nic.max_packet = 1 is invalid for the mway family"*) true ;; *) false ;; esac \
    || { echo "FAIL: mway with nic.max_packet = 1 in $mode mode: exit $rc: $err"; fail=1; }
done
# traffic.sizes gives the lengths: traffic.packet_len (unused) is not checked against nic.max_packet.
"$bin" mway --net mesh:4x4 --measure 300 --set traffic.sizes=3:1,6:2 --set nic.max_packet=4 >/dev/null 2>&1 \
  || { echo "FAIL: mway with traffic.sizes within nic.max_packet refused for the unused traffic.packet_len"; fail=1; }
expect_bad_with() {  # key-to-name then the --set arguments
  local key=$1; shift
  local err
  # shellcheck disable=SC2068
  err=$("$bin" config --check $@ 2>&1 >/dev/null)
  local rc=$?
  if [ $rc -ne 2 ]; then echo "FAIL: config --check $* exited $rc, want 2"; fail=1; fi
  if [ "$(printf '%s\n' "$err" | wc -l)" -ne 1 ]; then echo "FAIL: $* error is not one line: $err"; fail=1; fi
  case "$err" in *"$key"*) ;; *) echo "FAIL: $* error does not name $key: $err"; fail=1 ;; esac
}
expect_bad_with net.radix --set net.family=mway --set net.radix=512x2
expect_bad_with net.radix --set net.family=mway --set net.radix=256x256x2
expect_bad_with router.routing --set net.radix=512x512 --set router.routing=valiant

# An unknown key in a YAML file, and a missing file.
printf 'router:\n  buffer_depht: 4\n' > "$work/typo.yaml"
"$bin" run "$work/typo.yaml" --json "$work/typo.json" >/dev/null 2>&1
rc=$?; [ $rc -eq 2 ] || { echo "FAIL: unknown YAML key exited $rc"; fail=1; }
[ -e "$work/typo.json" ] && { echo "FAIL: unknown YAML key left output"; fail=1; }
"$bin" run "$work/missing.yaml" >/dev/null 2>&1
rc=$?; [ $rc -eq 2 ] || { echo "FAIL: missing config exited $rc"; fail=1; }
"$bin" traffic --rate abc >/dev/null 2>&1
rc=$?; [ $rc -eq 2 ] || { echo "FAIL: bad CLI value exited $rc"; fail=1; }

# Determinism: byte-identical JSON for the same configuration and seed; another seed differs.
"$bin" traffic --rate 0.15 --measure 3000 --seed 11 --json "$work/a.json" >/dev/null || { echo "FAIL: run a"; fail=1; }
"$bin" traffic --rate 0.15 --measure 3000 --seed 11 --json "$work/b.json" >/dev/null || { echo "FAIL: run b"; fail=1; }
"$bin" traffic --rate 0.15 --measure 3000 --seed 12 --json "$work/c.json" >/dev/null || { echo "FAIL: run c"; fail=1; }
cmp -s "$work/a.json" "$work/b.json" || { echo "FAIL: same seed, different JSON"; fail=1; }
cmp -s "$work/a.json" "$work/c.json" && { echo "FAIL: different seeds, identical JSON"; fail=1; }

# --deliveries: one line per flit leaving the network (5-flit packets, all drained), sorted by cycle;
# identical for identical runs.
"$bin" traffic --rate 0.15 --measure 3000 --seed 11 --json "$work/d.json" --deliveries "$work/d.csv" >/dev/null \
  || { echo "FAIL: run d"; fail=1; }
"$bin" traffic --rate 0.15 --measure 3000 --seed 11 --deliveries "$work/e.csv" >/dev/null || { echo "FAIL: run e"; fail=1; }
delivered=$(/usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["packets"]["delivered"])' "$work/d.json")
lines=$(($(wc -l <"$work/d.csv") - 1))
[ "$lines" -eq $((delivered * 5)) ] && [ "$lines" -gt 1000 ] \
  || { echo "FAIL: --deliveries has $lines flits, the run delivered $delivered 5-flit packets"; fail=1; }
sort -t, -k1,1n -s -c <(tail -n +2 "$work/d.csv") || { echo "FAIL: --deliveries not in cycle order"; fail=1; }
cmp -s "$work/d.csv" "$work/e.csv" || { echo "FAIL: same seed, different delivery traces"; fail=1; }
[ ! -e "$work/d.csv.tmp" ] || { echo "FAIL: --deliveries left its temporary"; fail=1; }

[ $fail -eq 0 ] && echo "cli: all checks passed"
exit $fail
