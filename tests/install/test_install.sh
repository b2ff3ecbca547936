#!/usr/bin/env bash
# Installs the build tree to a temporary prefix, then, against that prefix alone: builds and runs
# the installed examples (share/wormcast/examples/consumer: find_package(wormcast), its own SystemC
# top, 2 ns clock and TLM initiator receiving through a NIC; share/wormcast/examples/traffic:
# wormcast::run_traffic on a 2.5 ns clock, whose cycle counts and statistics must equal those of
# the installed `wormcast traffic` for the same configuration and seed), and runs the installed
# scripts/sweep on a 2-point sweep, which must find the installed program by itself and write
# under the current directory.
# Usage: test_install.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
src=$1 build=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix
examples=$prefix/share/wormcast/examples
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
unset WORMCAST WORMCAST_BUILD  # the installed scripts must find bin/wormcast on their own
cmake --install "$build" --prefix "$prefix" >/dev/null
for f in bin/wormcast lib/cmake/wormcast/wormcastConfig.cmake include/wormcast/systemc/net/network.h \
         include/wormcast/sw/topology/topology.h include/wormcast/tb/run/traffic.h share/wormcast/LICENSE \
         share/wormcast/examples/consumer/main.cpp share/wormcast/examples/traffic/main.cpp \
         share/wormcast/scripts/sweep share/wormcast/scripts/wcprog.py; do
  [ -e "$prefix/$f" ] || { echo "FAIL: $f not installed"; exit 1; }
done
# README's "As a library" names every header a consumer includes: each header the installed
# examples include is in its table, and each header of the table is installed.
/usr/bin/python3 - "$src/README.md" "$prefix/include/wormcast" "$examples"/*/main.cpp <<'PY' || exit 1
import os, re, sys
readme, include, sources = sys.argv[1], sys.argv[2], sys.argv[3:]
text = open(readme).read()
section = text[text.index("## As a library"):]
section = section[:section.index("\n## ", 1)]
named = set(re.findall(r"^\| `([^`]+\.h)` \|", section, flags=re.M))
used = {h for f in sources for h in re.findall(r'^#include "([^"]+)"', open(f).read(), flags=re.M)}
missing = sorted(used - named)
absent = sorted(h for h in named if not os.path.exists(os.path.join(include, h)))
if missing or absent or not named:
    sys.exit(f"FAIL: README's As a library: not named {missing}, not installed {absent}")
print(f"README names the {len(named)} headers a consumer includes ({len(used)} used by the examples)")
PY
version=$("$prefix/bin/wormcast" --version)
grep -q '^wormcast [0-9]' <<<"$version" || { echo "FAIL: installed wormcast --version"; exit 1; }
for ex in consumer traffic; do
  cmake -S "$examples/$ex" -B "$work/$ex" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
  cmake --build "$work/$ex" --parallel 1 >/dev/null
done

out=$("$work/consumer/consumer" 2>&1)
head -1 <<<"$out"
# A here-string, not a pipe: grep -q stops reading at the match, and under pipefail the writer's
# SIGPIPE would fail the check.
grep -q "node 5 received tag 42, 8 flits from node 0, tail at cycle 14" <<<"$out" \
  || { echo "FAIL: the consumer did not receive its message at cycle 14"; exit 1; }

sets=(net.radix=4x4 traffic.rate=0.15 sim.warmup=500 sim.measure=2000 sim.seed=7)
out=$("$work/traffic/traffic" "${sets[@]}" --json "$work/lib.json" 2>&1) \
  || { echo "FAIL: the traffic example: $out"; exit 1; }
echo "$out"
grep -q "at 2.5 ns per cycle: ok after" <<<"$out" || { echo "FAIL: the traffic example did not run at 2.5 ns"; exit 1; }
cli=()
for s in "${sets[@]}"; do cli+=(--set "$s"); done
"$prefix/bin/wormcast" traffic "${cli[@]}" --json "$work/cli.json" >/dev/null
python3 - "$work/lib.json" "$work/cli.json" <<'PY'
import json, sys
lib, cli = (json.load(open(p)) for p in sys.argv[1:])
keys = ["config", "status", "cycles", "packets", "latency", "network_latency", "latency_histogram",
        "latency_by_hops", "throughput", "accepted_per_node", "links"]
diff = [k for k in keys if lib.get(k) != cli.get(k)]
if diff:
    sys.exit("FAIL: run_traffic at 2.5 ns and wormcast traffic differ in " + ", ".join(diff))
print(f"run_traffic at 2.5 ns = wormcast traffic: {cli['cycles']} cycles, {cli['packets']['delivered']} packets")
PY

# The Verilog routers from the installed example: router.model=rtl, its model built from the
# installed sources into a cache of this test, the same delivery counts as the SystemC run.
rtl=(net.radix=3x3 traffic.rate=0.1 sim.warmup=0 sim.measure=500 sim.seed=5)
for m in sc rtl; do
  WORMCAST_RTL_CACHE=$work/rtl-cache "$work/traffic/traffic" "${rtl[@]}" router.model=$m --json "$work/ex_$m.json" \
    >/dev/null 2>"$work/ex_$m.err" || { echo "FAIL: the traffic example with router.model=$m: $(cat "$work/ex_$m.err")"; exit 1; }
done
grep -q "built the RTL model" "$work/ex_rtl.err" || { echo "FAIL: the installed example built no RTL model"; exit 1; }
python3 - "$work/ex_sc.json" "$work/ex_rtl.json" <<'PY'
import json, sys
sc, rtl = (json.load(open(p)) for p in sys.argv[1:])
keys = ["status", "cycles", "packets", "latency", "throughput"]
diff = [k for k in keys if sc.get(k) != rtl.get(k)]
if diff or rtl["config"]["router"]["model"] != "rtl":
    sys.exit("FAIL: the installed example's RTL run differs from SystemC in " + ", ".join(diff))
print(f"installed example, router.model=rtl = sc: {rtl['cycles']} cycles, {rtl['packets']['delivered']} packets")
PY

# From another directory, without --out: the points go to ./out/sweep, not into the prefix.
(cd "$work" && "$prefix/share/wormcast/scripts/sweep" --set net.radix=4x4 --set sim.warmup=200 \
  --set sim.measure=500 --vary traffic.rate=0.05,0.1 --jobs 1 >/dev/null) \
  || { echo "FAIL: the installed scripts/sweep"; exit 1; }
rows=$(grep -c ',ok,' "$work/out/sweep/sweep.csv" || true)
[ "$rows" = 2 ] || { echo "FAIL: the installed scripts/sweep ran $rows of 2 points"; exit 1; }
echo "installed scripts/sweep: 2 points with $prefix/bin/wormcast"
