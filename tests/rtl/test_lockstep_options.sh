#!/usr/bin/env bash
# The lockstep tools refuse bad options with exit 2 and one line naming the option, before any
# model is built or run: out-of-range stimulus values, a negative node, waveform paths in a
# directory that does not exist (no waveform is claimed or left behind), a network of the other
# tool's family, a key of the SystemC router that the RTL does not implement.
# Usage: test_lockstep_options.sh WC_LOCKSTEP WC_MWAY_LOCKSTEP
set -u
ls_bin=$1
mw_bin=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
unset SYSTEMC_DISABLE_COPYRIGHT_MESSAGE  # the tools silence the library's banner themselves
export WORMCAST_RTL_CACHE=$work/cache  # nothing may be built: a build would show here
fail=0
refused() {  # refused "what to find in stderr" TOOL ARGS...
  local want=$1
  shift
  "$@" >out.txt 2>err.txt
  local rc=$?
  [ $rc -eq 2 ] && grep -q -- "$want" err.txt && [ "$(wc -l <err.txt)" -eq 1 ] && ! grep -q "lockstep ok\|waveform" out.txt \
    || { echo "FAIL: $*: exit $rc, want 2 and '$want': $(tail -2 err.txt)"; fail=1; }
}
t=(--net torus:2x2x2 --vcs 1 --buf 1 --cycles 3000)
refused "--max-packet" "$ls_bin" "${t[@]}" --max-packet 0
refused "--max-packet" "$ls_bin" "${t[@]}" --max-packet -3
refused "--node" "$ls_bin" "${t[@]}" --node -5
refused "--window" "$ls_bin" "${t[@]}" --window 0
refused "--window" "$ls_bin" "${t[@]}" --window -5
refused "--cycles" "$ls_bin" "${t[@]}" --cycles 0
refused "--full-vcd '/nonexist/b.vcd'" "$ls_bin" "${t[@]}" --full-vcd /nonexist/b.vcd
refused "--vcd '/nonexist/m.vcd'" "$ls_bin" "${t[@]}" --vcd /nonexist/m.vcd
refused "--rtl-vcd '/nonexist/r.vcd'" "$ls_bin" "${t[@]}" --rtl-vcd /nonexist/r.vcd
# A key the RTL router does not implement is refused as a run with router.model = rtl refuses it,
# not dropped from the SystemC side of the comparison.
refused "router.islip_iterations = '9' is invalid; allowed: 1..8" "$ls_bin" "${t[@]}" --set router.allocator=islip \
  --set router.islip_iterations=9
refused "router.routing = valiant is SystemC only" "$ls_bin" "${t[@]}" --set router.routing=valiant
# The staged pipeline needs R >= 3 on both routers: refused by the delay, before any build.
refused "router.router_delay = 1 is invalid with router.pipeline = staged; allowed: 3..8" "$ls_bin" "${t[@]}" \
  --set router.pipeline=staged
m=(--net mway:3x2 --set mway.algo=mst-replica --set mway.buffers=1 --cycles 2000)
refused "--bogus" "$mw_bin" "${m[@]}" --bogus
refused "--cycles" "$mw_bin" "${m[@]}" --cycles abc
refused "--rate" "$mw_bin" "${m[@]}" --rate nan
refused "--rate" "$mw_bin" "${m[@]}" --rate -1
refused "--rate" "$mw_bin" "${m[@]}" --rate 5
refused "--broadcast-fraction" "$mw_bin" "${m[@]}" --broadcast-fraction 2
refused "--queue-limit" "$mw_bin" "${m[@]}" --queue-limit 0
refused "net.family = torus has no m-way RTL" "$mw_bin" --net torus:4x4 --cycles 100
refused "net.family = mway has no Verilog torus router" "$ls_bin" --net mway:3x3 --cycles 100
[ -e "$WORMCAST_RTL_CACHE" ] && ls "$WORMCAST_RTL_CACHE"/* >/dev/null 2>&1 && { echo "FAIL: a refused option built a model"; fail=1; }
[ $fail -eq 0 ] && echo "lockstep options: ok"
exit $fail
