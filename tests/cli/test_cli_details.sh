#!/usr/bin/env bash
# Details of the command line, one section per run:
#   help      every command's --help shows each option's type and default (NUMBER=0.1, FILE), never
#             a check's internal name (VALUE of traffic.rate) or TEXT where a check knows better
#   vcd-fst   --vcd and --fst in one run are refused up front (exit 2, one line, nothing written):
#             each would write its save file BASE.gtkw, and the same BASE would be one file
#   wave-fst  `wormcast wave` reads an FST whose path has a quote, and names a failed conversion
#             as fst2vcd's failure, not as a bad VCD (skipped without vcd2fst / fst2vcd)
#   mway-line the summary line of region-broadcast traffic names its units: accepted flit-copies,
#             offered flits times the destinations per message; the JSON has both rates
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
  ;;
*)
  echo "unknown section $section"
  exit 2
  ;;
esac
[ $fail -eq 0 ] && echo "ok: $section"
exit $fail
