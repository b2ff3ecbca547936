#!/usr/bin/env bash
# Installs the build tree to a temporary prefix, then configures, builds and runs the example
# consumer project (examples/consumer: find_package(wormcast), its own SystemC top and 2 ns clock,
# its own TLM initiator) against that prefix alone.
# Usage: test_install.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
src=$1 build=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/prefix" >/dev/null
for f in bin/wormcast lib/cmake/wormcast/wormcastConfig.cmake include/wormcast/systemc/net/network.h \
         include/wormcast/sw/topology/topology.h share/wormcast/LICENSE; do
  [ -e "$work/prefix/$f" ] || { echo "FAIL: $f not installed"; exit 1; }
done
version=$("$work/prefix/bin/wormcast" --version)
grep -q '^wormcast [0-9]' <<<"$version" || { echo "FAIL: installed wormcast --version"; exit 1; }
cmake -S "$src/examples/consumer" -B "$work/consumer" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
cmake --build "$work/consumer" >/dev/null
out=$(SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1 "$work/consumer/consumer" 2>&1)
head -1 <<<"$out"
# A here-string, not a pipe: grep -q stops reading at the match, and under pipefail the writer's
# SIGPIPE would fail the check.
grep -q "node 5 received tag 42, 8 flits from node 0, tail at cycle 14" <<<"$out" \
  || { echo "FAIL: the consumer did not receive its message at cycle 14"; exit 1; }
