#!/usr/bin/env bash
# scripts/hopcost: the cost per flit-hop of two small tori at equal activity comes out as CSV rows
# whose rates give the asked activity (rate x K/2), achieved below saturation, and whose costs are
# positive and finite; a size driven past saturation is named with the activity it achieved; bad
# input exits 2 with one line naming the option and leaves no CSV behind, and --csv may not be the
# program the runs read; a termination leaves no temporary directory.
# Usage: test_hopcost.sh SOURCE_DIR WORMCAST
set -euo pipefail
src=$1
wormcast=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$src/scripts/hopcost" --sizes 8,16 --activity 0.5 --measure 50,200 --repeat 2 --wormcast "$wormcast" --csv "$work/h.csv" -- --vcs 2 --buf 4
/usr/bin/python3 - "$work/h.csv" <<'PY'
import csv, math, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert [r["torus"] for r in rows] == ["8x8", "16x16"], rows
for r in rows:
    k = int(r["torus"].split("x")[0])
    assert abs(float(r["rate"]) * k / 2 - 0.5) < 1e-4, r
    ns = float(r["ns_per_flit_hop"])
    assert 0 < ns < 1e6 and math.isfinite(ns), r
    assert int(r["flit_hops"]) > 0, r
    assert r["verdict"] == "stable" and abs(float(r["achieved_activity"]) - 0.5) < 0.02, r
    # the rounds' ratios to the first size: the median within their range, 1 for the first size
    lo, hi = (float(x) for x in r["vs_first_range"].split("-"))
    assert 0 < lo <= float(r["vs_first"]) <= hi, r
assert rows[0]["vs_first"] == "1.0" and rows[0]["vs_first_range"] == "1.000-1.000", rows[0]
print("hopcost:", ", ".join(f"{r['torus']} {r['ns_per_flit_hop']} ns" for r in rows))
PY
for bad in "--sizes 5" "--measure 400,100" "--activity 0" "--repeat 0"; do
  rc=0
  # shellcheck disable=SC2086
  "$src/scripts/hopcost" $bad --wormcast "$wormcast" --csv "$work/bad.csv" 2>"$work/err" || rc=$?
  [[ $rc == 2 && $(wc -l <"$work/err") == 1 && ! -e $work/bad.csv ]] || { echo "hopcost $bad: exit $rc"; cat "$work/err"; exit 1; }
  grep -q "^hopcost: ${bad%% *} = '.*' is invalid.*; allowed" "$work/err" || { echo "hopcost $bad: $(cat "$work/err")"; exit 1; }
done
echo "bad input: exit 2 with one line each"
# 4x4 at 1.28 flit-hops per router-cycle (rate 0.64) is past saturation: the row and stderr say so.
"$src/scripts/hopcost" --sizes 4 --measure 20,60 --wormcast "$wormcast" --csv "$work/s.csv" 2>"$work/err"
grep -q "hopcost: torus:4x4 achieved activity 1.1[0-9]* of the 1.28 asked (unstable)" "$work/err" \
  || { echo "hopcost past saturation: $(cat "$work/err")"; exit 1; }
grep -q "^4x4,0.64,1.28,1.1[0-9]*,unstable," "$work/s.csv" || { echo "hopcost past saturation row: $(cat "$work/s.csv")"; exit 1; }
cp "$wormcast" "$work/wc"
rc=0
"$src/scripts/hopcost" --sizes 4 --measure 20,60 --wormcast "$work/wc" --csv "$work/wc" 2>"$work/err" || rc=$?
[[ $rc == 2 && -x $work/wc ]] && grep -q "a path no input uses (it is --wormcast" "$work/err" \
  || { echo "hopcost --csv = --wormcast: exit $rc, $(cat "$work/err")"; exit 1; }
# A termination while a run goes stops the run and leaves no temporary directory (exit 143).
mkdir "$work/tmp"
printf '#!/bin/sh\nexec sleep 60\n' >"$work/slow" && chmod +x "$work/slow"
TMPDIR=$work/tmp "$src/scripts/hopcost" --sizes 4 --wormcast "$work/slow" --csv "$work/t.csv" 2>"$work/err" &
pid=$!
for _ in $(seq 100); do [ -n "$(ls -A "$work/tmp")" ] && break; sleep 0.1; done  # the temporary directory made
sleep 0.3
kill -TERM $pid
rc=0
wait $pid || rc=$?
[[ $rc == 143 && -z $(ls -A "$work/tmp") && ! -e $work/t.csv ]] \
  || { echo "hopcost SIGTERM: exit $rc, left $(ls -A "$work/tmp"): $(cat "$work/err")"; exit 1; }
