#!/usr/bin/env bash
# scripts/synth: the m-way channel synthesized at 3 and 10 taps (more taps, more cells and a
# deeper path; both rows in the JSON and CSV), a torus configuration with an override named in
# its row (the output directory holding only the results), an iBT router, and bad input exits 2 with one line
# and no file: parameters out of the routers' ranges (torus and m-way), a configuration or tap
# count given twice, --jobs, --taps and --out; SIGTERM stops Yosys and leaves no work directory.
# Usage: test_synth.sh SOURCE_DIR
set -euo pipefail
src=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$src/scripts/synth" --mway --taps 3,10 --jobs 2 --out "$work/t" mesh4x4_replica >"$work/t.log" 2>&1 \
  || { cat "$work/t.log"; echo "FAIL: synth --mway --taps"; exit 1; }
/usr/bin/python3 - "$work/t/synth_mway.json" <<'PY'
import json, sys
rows = {r["config"]: r for r in json.load(open(sys.argv[1]))["results"]}
a, b = rows["mesh4x4_replica.channel_3taps"], rows["mesh4x4_replica.channel_10taps"]
assert 0 < a["cells"] < b["cells"], (a, b)
assert 0 < a["depth"] < b["depth"], (a, b)
assert a["ge"] > 0 and b["ge"] > a["ge"], (a, b)
PY
[ "$(wc -l <"$work/t/synth_mway.csv")" = 3 ] || { echo "FAIL: CSV rows"; cat "$work/t/synth_mway.csv"; exit 1; }
"$src/scripts/synth" --out "$work/o" mesh8x8_1p_v2b4:BufDepth=2 >"$work/o.log" 2>&1 \
  || { cat "$work/o.log"; echo "FAIL: synth with an override"; exit 1; }
grep -q '"config": "mesh8x8_1p_v2b4+BufDepth=2"' "$work/o/synth.json" \
  || { echo "FAIL: override row name"; exit 1; }
grep -q '"buffer_depth": 2' "$work/o/synth.json" || { echo "FAIL: override not applied"; exit 1; }
[ "$(ls -A "$work/o" | tr '\n' ' ')" = "synth.csv synth.json " ] || { echo "FAIL: more than the results in --out: $(ls -A "$work/o")"; exit 1; }
# An iBT router (all-port: 2n + 2 local ports) with its bypass pair: 12 ports, the buffers' flip-flops
# 1.5 times those of the 8-port torus router torus8x8_v1b4 (docs/rtl.md, synthesis).
"$src/scripts/synth" --out "$work/i" ibt16x16_b4 >"$work/i.log" 2>&1 \
  || { cat "$work/i.log"; echo "FAIL: synth of an iBT router"; exit 1; }
/usr/bin/python3 - "$work/i/synth.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
assert r["config"] == "ibt16x16_b4" and r["ports"] == 12 and r["flops"] == 6084 and r["cells"] > 0, r
PY
touch "$work/afile"
for bad in "nosuch" "torus8x8_v1b4:Bogus=1" "torus8x8_v1b4:BufDepth=x" "--mway --taps 2 mesh4x4_replica" \
           "--taps 5 torus8x8_v1b4" "torus8x8_v1b4:BufDepth=0" "torus8x8_v1b4:NumDims=7" "torus8x8_v1b4:NumLocal=3" \
           "--jobs -3" "--mway --taps , mesh4x4_replica" "--out $work/afile" "torus8x8_v1b4:BufDepth=²" \
           "--mway mesh4x4_safe:NumDims=0" "--mway mesh4x4_safe:NumDims=9" "--mway --taps 3 mesh4x4_replica:IdW=0" \
           "--mway --taps 3 mesh4x4_replica:MaxMsgLen=0" "--mway --taps 3 mesh4x4_replica:MaxMsgLen=6" \
           "--mway --taps 3,3 mesh4x4_replica" "torus8x8_v1b4 torus8x8_v1b4" "--mway mesh4x4_safe mesh4x4_safe" \
           "torus8x8_v1b4:BufDepth=4,," "torus8x8_v1b4:" "torus8x8_v1b4:BufDepth=4,BufDepth=5" \
           "torus8x8_v1b4:NumDims=4,NumLocal=9" "ibt16x16_b4:NumLocal=4" "ibt16x16_b4:Radix1=8" \
           "ibt16x16_b4:Radix0=15,Radix1=15" "ibt16x16_b4:IbtLen0=8" "ibt16x16_b4:IbtLen0=3" \
           "ibt16x16_b4:IbtRouting=2" "ibt16x16_b4:Torus=1"; do
  set +e
  # shellcheck disable=SC2086
  "$src/scripts/synth" --out "$work/bad" $bad >"$work/out" 2>"$work/err"
  rc=$?
  set -e
  [ "$rc" = 2 ] || { echo "FAIL: '$bad' exit $rc"; cat "$work/err"; exit 1; }
  [ "$(wc -l <"$work/err")" = 1 ] || { echo "FAIL: '$bad' not one line"; cat "$work/err"; exit 1; }
  grep -q "^synth: " "$work/err" || { echo "FAIL: '$bad' message"; cat "$work/err"; exit 1; }
  [ ! -e "$work/bad" ] || { echo "FAIL: '$bad' left output"; exit 1; }
done
# A termination while Yosys runs stops Yosys and removes its work directory (exit 143).
"$src/scripts/synth" --out "$work/sig" torus8x8_v1b4 >/dev/null 2>"$work/err" &
pid=$!
for _ in $(seq 100); do pgrep -f "yosys -q -p read_verilog.*$work/sig" >/dev/null && break; sleep 0.1; done
kill -TERM $pid
rc=0
wait $pid || rc=$?
for _ in $(seq 50); do pgrep -f "yosys -q -p read_verilog.*$work/sig" >/dev/null || break; sleep 0.1; done
[ "$rc" = 143 ] || { echo "FAIL: SIGTERM: exit $rc"; cat "$work/err"; exit 1; }
! pgrep -f "yosys -q -p read_verilog.*$work/sig" >/dev/null || { echo "FAIL: SIGTERM left Yosys running"; exit 1; }
[ -z "$(ls -A "$work/sig")" ] || { echo "FAIL: SIGTERM left $(ls -A "$work/sig")"; exit 1; }
echo "ok"
