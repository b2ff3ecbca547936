#!/usr/bin/env bash
# A key that takes effect only where other keys allow (the RV32 core's settings with node.cpu =
# rv32, the bursts with traffic.process = onoff, the hotspots with traffic.pattern = hotspot, the
# message length with traffic.mode = message and no traffic.sizes, the packet length with
# traffic.mode = bernoulli and no traffic.sizes, the adaptive VCs with router.routing =
# min-adaptive, the iSLIP iterations and accept rule with router.allocator = islip, the iBT
# shortest routing's layers with ibt.routing = shortest, the bypass lengths with a bypass routing,
# the entry VC-class rule with dateline classes on a torus dimension, the band block with bands in
# one thread on a network larger than a block, the lanes' rule with more than one thread, the
# broadcast region with region broadcasts),
# given on the command line where it takes no effect while the switches that would turn it on are
# left to their defaults or the file, or where the network leaves it nothing to do, is refused:
# one line naming the key, the condition it needs and the settings it met, exit 2, no output file.
# The same value where it applies runs; its default is let through anywhere; so is a value that
# switches the command line sets keep off (a sweep's shared --set); a configuration file may hold
# it (a file can carry the settings of several set-ups), and a run's echoed configuration, which
# holds every key, runs again as it is. A command that fixes a switch itself (ibt bcast --simulate)
# refuses such a --set all the same; under a trace the trace's own rule refuses the drawn-traffic
# keys.
# Usage: test_unused_keys.sh WORMCAST
set -uo pipefail
bin=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
fail=0
quick=(--net torus:4x4 --rate 0.05 --warmup 100 --measure 400 --set sim.progress=off)

refused() {  # refused PATTERN COMMAND...: exit 2, one line holding PATTERN, no JSON written
  local want=$1
  shift
  out=$("$bin" "$@" --json r.json 2>&1 >/dev/null)
  rc=$?
  if [ $rc -ne 2 ] || [ "$(printf '%s\n' "$out" | wc -l)" -ne 1 ] || ! grep -qF -- "$want" <<<"$out" || [ -e r.json ]; then
    echo "FAIL: $* : exit $rc, $(ls r.json 2>/dev/null) $out"
    fail=1
  fi
  rm -f r.json
}
runs() {  # runs COMMAND...: exit 0 or 1 (a run's verdict), a JSON result written
  "$bin" "$@" --json r.json >/dev/null 2>err.txt
  rc=$?
  if [ $rc -gt 1 ] || [ ! -s r.json ]; then
    echo "FAIL: $* : exit $rc, $(cat err.txt)"
    fail=1
  fi
  rm -f r.json
}

refused "config: traffic.burst_alpha = '0.3' is not used with traffic.process = bernoulli (it applies with traffic.process = onoff); allowed there: leave traffic.burst_alpha out (or at its default 0.1), or set traffic.process too" \
  traffic "${quick[@]}" --set traffic.burst_alpha=0.3
runs traffic "${quick[@]}" --set traffic.burst_alpha=0.3 --set traffic.process=onoff
refused "traffic.burst_beta = '0.5' is not used with traffic.process = bernoulli" traffic "${quick[@]}" --set traffic.burst_beta=0.5
refused "traffic.hotspots = '3' is not used with traffic.pattern = uniform (it applies with traffic.pattern = hotspot)" \
  traffic "${quick[@]}" --set traffic.hotspots=3
printf 'traffic:\n  pattern: transpose\n' >transpose.yaml
refused "traffic.hotspot_fraction = '0.5' is not used with traffic.pattern = transpose" \
  traffic --config transpose.yaml "${quick[@]}" --set traffic.hotspot_fraction=0.5
runs traffic "${quick[@]}" --pattern hotspot --set traffic.hotspots=3 --set traffic.hotspot_fraction=0.5
refused "traffic.message_len = '12' is not used with traffic.mode = bernoulli (it applies with traffic.mode = message and traffic.sizes empty)" \
  traffic "${quick[@]}" --set traffic.message_len=12
runs traffic "${quick[@]}" --set traffic.message_len=12 --set traffic.mode=message
refused "router.adaptive_vcs = '3' is not used with router.routing = dor (it applies with router.routing = min-adaptive)" \
  traffic "${quick[@]}" --set router.adaptive_vcs=3
runs traffic "${quick[@]}" --set router.adaptive_vcs=3 --set router.routing=min-adaptive
refused "router.islip_iterations = '3' is not used with router.allocator = input-first (it applies with router.allocator = islip)" \
  traffic "${quick[@]}" --set router.islip_iterations=3
refused "router.switch_accept = 'port' is not used with router.allocator = input-first" traffic "${quick[@]}" --set router.switch_accept=port
runs traffic "${quick[@]}" --set router.preset=booksim-iq --set router.islip_iterations=3 --set router.switch_accept=vc
refused "ibt.layers = '2' is not used with ibt.routing = dor (it applies with ibt.routing = shortest)" \
  traffic --net ibt:16x16 --rate 0.05 --warmup 100 --measure 400 --set sim.progress=off --set ibt.layers=2
runs traffic --net ibt:16x16 --rate 0.05 --warmup 100 --measure 400 --set sim.progress=off --set ibt.layers=2 --set ibt.routing=shortest
refused "node.cpu_quantum = '8' is not used with node.cpu = native (it applies with node.cpu = rv32)" \
  broadcast --net torus:4x4 --len 8 --set node.cpu_quantum=8
refused "node.cpu_clock_ratio = '0.5' is not used with node.cpu = native" broadcast --net torus:4x4 --len 8 --set node.cpu_clock_ratio=0.5
refused "node.cpu_cpi = 'div:4' is not used with node.cpu = native" broadcast --net torus:4x4 --len 8 --set node.cpu_cpi=div:4
refused "node.cpu_ram = '131072' is not used with node.cpu = native" broadcast --net torus:4x4 --len 8 --set node.cpu_ram=131072
# A command that fixes the enabling key itself: ibt bcast --simulate routes by ibt.routing = bypass.
refused "config: ibt.layers = '3' is not used with ibt.routing = bypass (it applies with ibt.routing = shortest); allowed there: leave ibt.layers out (or at its default auto)" \
  ibt bcast --net ibt:16x16 --bypass 4 -k 2 --simulate --set ibt.layers=3
# Conditions over several keys. The packet length: bernoulli mode without a length distribution
# (and in the mway family while nic.max_packet follows it).
printf 'traffic:\n  mode: message\n' >message.yaml
printf 'traffic:\n  sizes: 4:1,8:1\n' >sizes.yaml
refused "config: traffic.packet_len = '8' is not used with traffic.mode = message (it applies with traffic.mode = bernoulli and traffic.sizes empty, or in the mway family while nic.max_packet follows it); allowed there: leave traffic.packet_len out (or at its default 5), or set traffic.mode too" \
  traffic --config message.yaml "${quick[@]}" --set traffic.packet_len=8
refused "traffic.packet_len = '8' is not used with traffic.sizes = 4:1,8:1 (it applies with traffic.mode = bernoulli and traffic.sizes empty" \
  traffic --config sizes.yaml "${quick[@]}" --len 8
runs traffic "${quick[@]}" --len 8
runs traffic --config message.yaml "${quick[@]}" --set traffic.packet_len=8 --set traffic.mode=bernoulli
runs mway --net mesh:4x4 --config message.yaml --rate 0.02 --warmup 100 --measure 400 --set sim.progress=off \
  --set traffic.packet_len=8
# The message length: message mode without a length distribution.
refused "config: traffic.message_len = '12' is not used with traffic.sizes = 4:1,8:1 (it applies with traffic.mode = message and traffic.sizes empty); allowed there: leave traffic.message_len out (or at its default 16), or set traffic.sizes too" \
  traffic --config sizes.yaml "${quick[@]}" --set traffic.mode=message --set traffic.message_len=12
# The broadcast region: only region broadcasts draw one.
refused "config: traffic.region = 'random' is not used with traffic.broadcast_fraction = 0 (it applies with traffic.broadcast_fraction above 0); allowed there: leave traffic.region out (or at its default all), or set traffic.broadcast_fraction too" \
  traffic --net mway:4x4 --rate 0.02 --warmup 100 --measure 400 --set sim.progress=off --set traffic.region=random
runs mway --net mesh:4x4 --rate 0.01 --warmup 100 --measure 400 --set sim.progress=off --region random
# The entry VC-class rule: two dateline classes on a torus dimension.
refused "config: router.vc_class = 'entry' is not used with net.topology = mesh (it applies with router.dateline = true and a torus dimension in net.topology); allowed there: leave router.vc_class out (or at its default hop)" \
  traffic --net mesh:4x4 --rate 0.05 --warmup 100 --measure 400 --set sim.progress=off --set router.vc_class=entry
printf 'router:\n  dateline: false\n' >nodateline.yaml
refused "router.vc_class = 'entry' is not used with router.dateline = false, net.topology = torus (it applies with router.dateline = true and a torus dimension in net.topology); allowed there: leave router.vc_class out (or at its default hop), or set router.dateline too" \
  traffic --config nodateline.yaml "${quick[@]}" --set router.vc_class=entry
runs traffic "${quick[@]}" --set router.vc_class=entry
runs traffic "${quick[@]}" --set router.vc_class=entry --set router.dateline=false
# The band block: bands (sim.schedule auto or bands) in one thread, on more nodes than a block.
refused "config: sim.band_nodes = '64' is not used with net.radix = 4x4 (it applies with sim.schedule = auto or bands, sim.threads = auto or 1, router.model = sc and more nodes in net.radix than the smaller of sim.band_nodes and its default 1024); allowed there: leave sim.band_nodes out (or at its default 1024)" \
  traffic "${quick[@]}" --set sim.band_nodes=64
printf 'sim:\n  schedule: cycles\n' >cycles.yaml
refused "sim.band_nodes = '32' is not used with sim.schedule = cycles, net.radix = 8x8 (it applies with" \
  traffic --config cycles.yaml --net torus:8x8 --rate 0.05 --warmup 100 --measure 400 --set sim.progress=off --set sim.band_nodes=32
runs traffic --net torus:8x8 --rate 0.05 --warmup 100 --measure 400 --set sim.progress=off --set sim.band_nodes=32
runs traffic --net torus:8x8 --rate 0.05 --warmup 100 --measure 400 --set sim.progress=off --set sim.band_nodes=32 \
  --set sim.threads=2
# The lanes' rule: more than one thread.
refused "config: sim.lanes = 'always' is not used with sim.threads = auto, net.radix = 4x4 (it applies with sim.schedule = auto or cycles and sim.threads above 1, or auto on 4096 or more nodes in net.radix); allowed there: leave sim.lanes out (or at its default adaptive), or set sim.threads too" \
  traffic "${quick[@]}" --set sim.lanes=always
runs traffic "${quick[@]}" --set sim.lanes=always --set sim.threads=2
# The bypass lengths: a routing that takes bypass links (or a radix the default length does not fit).
refused "config: ibt.bypass = '2' is not used with ibt.routing = dor (it applies with ibt.routing = bypass or shortest, or on a net.radix the default 4 is no valid bypass for); allowed there: leave ibt.bypass out (or at its default 4), or set ibt.routing too" \
  traffic --net ibt:16x16 --rate 0.05 --warmup 100 --measure 400 --set sim.progress=off --set ibt.bypass=2
runs traffic --net ibt:16x16 --rate 0.05 --warmup 100 --measure 400 --set sim.progress=off --set ibt.bypass=2 --set ibt.routing=bypass
runs traffic --net ibt:8x8 --rate 0.05 --warmup 100 --measure 400 --set sim.progress=off --set ibt.bypass=2
# Under a trace every drawn-traffic key is unused: the trace's rule speaks for them.
printf '0,0,1,4\n5,2,3,4\n' >t.csv
refused "config: traffic.hotspots = 3 is not used with traffic.trace" \
  traffic --net torus:4x4 --warmup 100 --measure 400 --set sim.progress=off --set traffic.trace=t.csv --set traffic.hotspots=3
# The enabling key on the command line too: a sweep's shared --set, let through.
runs traffic "${quick[@]}" --set traffic.burst_alpha=0.3 --set traffic.process=bernoulli
runs traffic "${quick[@]}" --pattern uniform --set traffic.hotspots=3
runs broadcast --net torus:4x4 --len 8 --set node.cpu=native --set node.cpu_quantum=8
# A value outside the key's range is that error first, wherever the key applies.
refused "config: traffic.burst_alpha = '2' is invalid; allowed: 0..1" traffic "${quick[@]}" --set traffic.burst_alpha=2
# The default, given where the key takes no effect, runs; so does the key in a configuration file.
runs traffic "${quick[@]}" --set traffic.burst_alpha=0.1 --set node.cpu_quantum=1 --set router.adaptive_vcs=2
printf 'traffic:\n  burst_alpha: 0.3\n  hotspots: 2\n  message_len: 40\n' >set-ups.yaml
runs traffic --config set-ups.yaml "${quick[@]}"
# A run's echoed configuration (every key of the family; JSON is YAML) runs again as it is.
"$bin" traffic "${quick[@]}" --json first.json >/dev/null 2>err.txt || true
/usr/bin/python3 -c 'import json; json.dump(json.load(open("first.json"))["config"], open("echo.yaml", "w"))' 2>>err.txt
if [ -s echo.yaml ]; then
  runs run echo.yaml
else
  echo "FAIL: no echoed configuration from the first run: $(cat err.txt)"
  fail=1
fi

[ $fail -eq 0 ] && echo "unused keys: ok"
exit $fail
