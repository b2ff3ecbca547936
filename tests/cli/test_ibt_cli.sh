#!/usr/bin/env bash
# `wormcast ibt` writes through the output plan: --json FILE holds the result; bad input exits 2
# with one line naming the option and leaves no file; an unwritable --json path is refused before
# any work (exit 2); --json - prints the JSON on standard output; without --bypass an iBT network
# takes ibt.bypass's default.
# Usage: test_ibt_cli.sh WORMCAST
set -u
bin=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0

"$bin" ibt bcast --net ibt:16x16 --bypass 4 --algo line -k 4 --json "$work/ok.json" >"$work/ok.txt" 2>&1
rc=$?
[ $rc -eq 0 ] || { echo "FAIL: a good bcast exited $rc"; cat "$work/ok.txt"; fail=1; }
python3 -c "import json,sys; j=json.load(open(sys.argv[1])); assert j['complete'] and j['steps'] > 0 and j['algo'], j" \
  "$work/ok.json" || { echo "FAIL: --json does not hold the completed broadcast"; fail=1; }

err=$("$bin" ibt bcast --net ibt:16x16 --bypass 5 --algo line -k 4 --json "$work/bad.json" 2>&1 >/dev/null)
rc=$?
[ $rc -eq 2 ] || { echo "FAIL: a bad --bypass exited $rc, want 2"; fail=1; }
[ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] || { echo "FAIL: want one line, got: $err"; fail=1; }
case "$err" in *--bypass*) ;; *) echo "FAIL: the error does not name --bypass: $err"; fail=1 ;; esac
[ ! -e "$work/bad.json" ] || { echo "FAIL: a bad run left $work/bad.json"; fail=1; }
[ -z "$(ls "$work" | grep -v '^ok\.')" ] || { echo "FAIL: temporaries left: $(ls "$work")"; fail=1; }

err=$("$bin" ibt topo --net ibt:16x16 --bypass 4 --json "$work/no/such/dir/out.json" 2>&1 >"$work/topo.txt")
rc=$?
[ $rc -eq 2 ] || { echo "FAIL: an unwritable --json exited $rc, want 2"; fail=1; }
case "$err" in *--json*) ;; *) echo "FAIL: the error does not name --json: $err"; fail=1 ;; esac
[ ! -s "$work/topo.txt" ] || { echo "FAIL: work was done before the output path was checked:"; cat "$work/topo.txt"; fail=1; }

# A broadcast whose software send latency makes it longer than the default 50,000,000-cycle limit
# completes: the run's limit comes from the asynchronous model of the same programs (51 sends of
# t_s = 10^6 cycles at the source: about 52 million cycles).
"$bin" ibt bcast --net torus:3 --algo line -k 50 --len 1 --simulate --set nic.ts=1000000 >"$work/long.txt" 2>&1
rc=$?
[ $rc -eq 0 ] || { echo "FAIL: a broadcast longer than 50 million cycles exited $rc"; cat "$work/long.txt"; fail=1; }
grep -q "every group node has every packet once: yes" "$work/long.txt" || { echo "FAIL: incomplete:"; cat "$work/long.txt"; fail=1; }
cycles=$(sed -n 's/.* packets \([0-9]*\) cycles .*/\1/p' "$work/long.txt")
[ "${cycles:-0}" -gt 50000000 ] || { echo "FAIL: want more than 50000000 cycles, got '${cycles}'"; fail=1; }
rm -f "$work/long.txt"

"$bin" ibt topo --net ibt:16x16 --bypass 4 --json - >"$work/stdout.txt" 2>&1
rc=$?
[ $rc -eq 0 ] || { echo "FAIL: --json - exited $rc"; fail=1; }
python3 - "$work/stdout.txt" <<'PY' || { echo "FAIL: --json - printed no JSON"; fail=1; }
import json, sys
text = open(sys.argv[1]).read()
j, _ = json.JSONDecoder().raw_decode(text[text.index("{"):])
assert "metrics" in j, j
PY
# Without --bypass an iBT network takes the ibt.bypass key's default (4), as `wormcast traffic` does;
# where 4 is not a valid bypass length the error says it was the default and names --bypass.
"$bin" ibt topo --net ibt:16x16 >"$work/default.txt" 2>&1 || { echo "FAIL: ibt topo without --bypass failed"; fail=1; }
"$bin" ibt topo --net ibt:16x16 --bypass 4 >"$work/given.txt" 2>&1
cmp -s "$work/default.txt" "$work/given.txt" || { echo "FAIL: ibt topo's default bypass is not 4"; fail=1; }
grep -q "<4>" "$work/default.txt" || { echo "FAIL: the default network is not named <4>"; cat "$work/default.txt"; fail=1; }
err=$("$bin" ibt topo --net ibt:8x8 2>&1 >/dev/null)
rc=$?
[ $rc -eq 2 ] || { echo "FAIL: ibt:8x8 with the default bypass exited $rc, want 2"; fail=1; }
[ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] || { echo "FAIL: want one line, got: $err"; fail=1; }
case "$err" in *--bypass*default*) ;; *) echo "FAIL: the error does not name --bypass and the default: $err"; fail=1 ;; esac
rm -f "$work/default.txt" "$work/given.txt"
# A 1-D network of one bypass length needs two run classes per layer (K = 2L): more layers than
# fit in 16 VCs are refused naming ibt.layers and its range there (1..8), not an empty range of V.
for layers in 8 9; do
  err=$("$bin" traffic --net ibt:11 --set ibt.bypass=3 --set ibt.routing=shortest --set ibt.layers=$layers \
        --warmup 10 --measure 10 2>&1 >/dev/null)
  rc=$?
  if [ $layers = 8 ]; then
    [ $rc -eq 0 ] || { echo "FAIL: ibt:11 <3> with 8 layers exited $rc: $err"; fail=1; }
  else
    [ $rc -eq 2 ] && case "$err" in *"ibt.layers = 9 is invalid"*"allowed: 1..8"*) true ;; *) false ;; esac \
      || { echo "FAIL: ibt:11 <3> with 9 layers: exit $rc, $err"; fail=1; }
  fi
done
# ibt.layers = auto is d*k + 3, at most the layers whose classes fit in 16 VCs: six lengths in 2-D
# (d*k = 12, 15 layers would need 17 classes) run with 14 layers, 16 VCs a port.
"$bin" traffic --net ibt:48x48 --set ibt.bypass=12,12,12,12,12,12 --set ibt.routing=shortest --rate 0.01 \
  --warmup 10 --measure 100 --json "$work/auto.json" >/dev/null 2>"$work/auto.txt"
rc=$?
[ $rc -eq 0 ] && python3 -c "import json, sys; sys.exit(json.load(open(sys.argv[1]))['energy']['router']['vcs'] != 16)" \
  "$work/auto.json" || { echo "FAIL: ibt:48x48 with six lengths and auto layers: exit $rc, $(cat "$work/auto.txt")"; fail=1; }
rm -f "$work/auto.json" "$work/auto.txt"
# A bad ibt.bypass list is quoted whole (not its bad entry), and the allowed text gives the count.
for v in "4,2000" "4, 8" "4,8," ",4" "4,,8" "9,18,27,36,45,54,63,72,81"; do
  err=$("$bin" traffic --net ibt:171 --set "ibt.bypass=$v" --warmup 10 --measure 10 2>&1 >/dev/null)
  rc=$?
  [ $rc -eq 2 ] && [ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] \
    && case "$err" in *"ibt.bypass = '$v' is invalid; allowed: b1,...,bk: 1..8 lengths"*) true ;; *) false ;; esac \
    || { echo "FAIL: ibt.bypass=$v: exit $rc, $err"; fail=1; }
done
# Numbers with a leading zero are refused, as by every other command (torus:04x4 was read as 4x4).
for args in "topo --net torus:04x4" "topo --net ibt:012x12" "bcast --net ibt:12x12 --bypass 04 --algo line -k 3"; do
  # shellcheck disable=SC2086
  err=$("$bin" ibt $args 2>&1 >/dev/null)
  rc=$?
  [ $rc -eq 2 ] && [ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] && case "$err" in *"leading zero"*) true ;; *) false ;; esac \
    || { echo "FAIL: ibt $args: exit $rc, $err"; fail=1; }
done
[ $fail -eq 0 ] && echo "wormcast ibt: results, errors and output paths through the output plan"
exit $fail
