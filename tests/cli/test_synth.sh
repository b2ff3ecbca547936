#!/usr/bin/env bash
# scripts/synth: the m-way channel synthesized at 3 and 10 taps (more taps, more cells and a
# deeper path; both rows in the JSON and CSV), a torus configuration with an override named in
# its row (the output directory holding only the results), and bad input exits 2 with one line
# and no file: parameters out of the router's ranges, --jobs, --taps and --out.
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
touch "$work/afile"
for bad in "nosuch" "torus8x8_v1b4:Bogus=1" "torus8x8_v1b4:BufDepth=x" "--mway --taps 2 mesh4x4_replica" \
           "--taps 5 torus8x8_v1b4" "torus8x8_v1b4:BufDepth=0" "torus8x8_v1b4:NumDims=7" "torus8x8_v1b4:NumLocal=3" \
           "--jobs -3" "--mway --taps , mesh4x4_replica" "--out $work/afile"; do
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
echo "ok"
