#!/usr/bin/env bash
# Reliability contract of the command line, one section per class (argument: strict input |
# outputs | interrupt | completion | bounded): every user error is exit 2 with one line on stderr
# and nothing written; outputs are planned before cycle 0 and never clobber; an interrupt leaves
# nothing; runs account for every packet; resources are bounded.
# shellcheck source=reliability_common.sh
. "$(dirname "$0")/reliability_common.sh"

# The files of the work directory (hidden ones included), for "nothing new was left".
listing() { ls -A "$work" | grep -v '^err$' | sort; }


quick=(--measure 200 --warmup 0 --set sim.progress=off)

case $section in
strict)
  # Numbers: decimal only, no empty values, overflow is an error.
  expect_user_error "sim.seed" traffic --set sim.seed=010 "${quick[@]}"
  expect_user_error "router.buffer_depth" traffic --set router.buffer_depth=+5 "${quick[@]}"
  expect_user_error "router.buffer_depth" traffic --set "router.buffer_depth= 4" "${quick[@]}"
  expect_user_error "router.buffer_depth" traffic --set router.buffer_depth=0x8 "${quick[@]}"
  expect_user_error "traffic.rate" traffic --set traffic.rate= "${quick[@]}"
  expect_user_error "traffic.rate" traffic --set traffic.rate=nan "${quick[@]}"
  expect_user_error "sim.seed" traffic --set sim.seed=9223372036854775808 "${quick[@]}"
  expect_user_error "--seed" traffic --seed 9223372036854775808 "${quick[@]}"
  expect_user_error "--rate" traffic --rate '' "${quick[@]}"
  expect_user_error "--rate" traffic --rate ' 0.1' "${quick[@]}"
  expect_user_error "--buf" traffic --buf 010 "${quick[@]}"
  # A file's bad value is refused even where a command-line option replaces it.
  printf 'net:\n  radix: 1\n' >r1.yaml
  expect_user_error "net.radix = '1' in the configuration file is invalid" traffic --config r1.yaml --net torus:3x3 "${quick[@]}"
  # config --check refuses what a run of the same configuration refuses before its first cycle.
  expect_user_error "sim.schedule = bands" config --check --set sim.threads=2 --set sim.schedule=bands
  expect_user_error "sim.schedule = bands" config --check --set net.family=ibt --set sim.threads=2 --set sim.schedule=bands
  # Decimal numbers as integers: no leading zeros, no sign on zero.
  expect_user_error "traffic.rate" traffic --set traffic.rate=00 "${quick[@]}"
  expect_user_error "traffic.rate" traffic --set traffic.rate=-0 "${quick[@]}"
  expect_user_error "node.cpu_clock_ratio" traffic --set node.cpu_clock_ratio=010 "${quick[@]}"
  expect_user_error "--rate" traffic --rate 00.1 "${quick[@]}"
  for r in 0x10 0x1p3 +5 ' 5' 010 010..12; do
    expect_user_error "--r '$r' is invalid" gossip --net ring:6 --algo approach1 --r "$r"
  done
  expect_user_error "--hop" gossip --net ring:6 --algo approach1 --r 1 --hop 010
  # Commands that run node software draw no traffic: a traffic key is refused, and a trace named
  # by it is neither read nor overwritten by an output of the same name.
  printf 'cycle,src,dst,len\n1,0,1,2\n' >t.csv
  expect_user_error "traffic.trace" broadcast --net torus:4x4 --algo rd --len 4 --set traffic.trace=t.csv --trace t.csv
  [ "$(cat t.csv)" = "$(printf 'cycle,src,dst,len\n1,0,1,2')" ] || { echo "FAIL: broadcast overwrote the trace t.csv"; fail=1; }
  rm -f t.csv
  expect_user_error "traffic.rate" gossip --net ring:6 --algo approach1 --r 1 --simulate --set traffic.rate=0.9
  expect_user_error "traffic.pattern" ibt bcast --net torus:8x8 --algo line -k 4 --simulate --set traffic.pattern=transpose
  # A CLI range error names the allowed range.
  expect_user_error "1..8" traffic --vcs 9 "${quick[@]}"
  expect_user_error "1..4096" broadcast --net torus:4x4 --len 0
  expect_user_error "--ts" broadcast --net torus:4x4 --ts +5
  # YAML: duplicate keys, more documents, nested lists, a list for a scalar, complex keys,
  # self-referential aliases, empty values: exit 2 naming the key and the line.
  printf 'traffic:\n  rate: 0.1\n  rate: 0.2\n' >dup.yaml
  expect_user_error "line 3" run dup.yaml
  expect_user_error "traffic.rate" run dup.yaml
  printf 'net:\n  radix: 4x4\n---\nnet:\n  radix: 8x8\n' >docs.yaml
  expect_user_error "more than one YAML document" run docs.yaml
  printf 'net:\n  radix: [[8, 8]]\n' >nested.yaml
  expect_user_error "net.radix" run nested.yaml
  printf 'traffic:\n  pattern: hotspot\n  hotspots: [[1], 2]\n' >nested2.yaml
  expect_user_error "traffic.hotspots" run nested2.yaml
  # A list entry holding the list's separator would be read as several values ([3, "x"] as 3xx).
  printf 'net:\n  radix: [3, "x"]\n' >sep.yaml
  expect_user_error "net.radix has the list entry 'x', which holds the separator 'x'" run sep.yaml
  printf 'traffic:\n  rate: [0.1]\n' >onelist.yaml
  expect_user_error "traffic.rate" run onelist.yaml
  printf 'traffic:\n  ? [a, b]\n  : 1\n' >complex.yaml
  expect_user_error "line 2" run complex.yaml
  printf 'net: &a\n  radix: *a\n' >alias.yaml
  expect_user_error "net.radix" run alias.yaml
  printf 'traffic:\n  rate:\n' >empty.yaml
  expect_user_error "traffic.rate" run empty.yaml
  printf ',,\n' >commas.yaml  # once an endless loop in the YAML library
  expect_user_error "line 1" run commas.yaml
  printf 'traffic: [rate: 1\n' >syntax.yaml
  expect_user_error "line" run syntax.yaml
  # A directory or a FIFO as the configuration: exit 2 at once, never a block.
  mkdir cfgdir
  expect_user_error "is a directory" run cfgdir
  mkfifo cfg.fifo
  expect_user_error "not a regular file" run cfg.fifo
  expect_user_error "not a regular file" traffic --config cfg.fifo
  # config --set without --check is refused, not ignored.
  expect_user_error "--check" config --set traffic.rate=2
  ;;

outputs)
  # An unwritable output is refused before cycle 0: no other output appears.
  expect_user_error "does not exist" traffic "${quick[@]}" --deliveries ok.csv --json nodir/x.json
  expect_user_error "--json" traffic "${quick[@]}" --deliveries ok.csv --json nodir/x.json
  [ ! -e ok.csv ] || { echo "FAIL: a refused run left ok.csv"; fail=1; }
  # An earlier good waveform is left as it was by a refused run.
  echo GOOD >w.vcd
  expect_user_error "--json" traffic "${quick[@]}" --vcd w.vcd --json nodir/x.json
  [ "$(cat w.vcd)" = GOOD ] || { echo "FAIL: a refused run touched w.vcd"; fail=1; }
  # schedule: a bad --json leaves an earlier SVG alone.
  echo GOOD >good.svg
  expect_user_error "--json" schedule --net torus:8x8 --algo dcf --svg good.svg --json nodir/x.json
  [ "$(cat good.svg)" = GOOD ] || { echo "FAIL: schedule --json nodir/ touched good.svg"; fail=1; }
  # An output that is a directory, the configuration itself, two outputs on one path, an empty path.
  mkdir adir
  expect_user_error "is a directory" traffic "${quick[@]}" --deliveries adir
  expect_user_error "is a directory" traffic "${quick[@]}" --vcd adir/
  printf 'sim:\n  measure: 200\n  progress: "off"\n' >cfg.yaml
  cp cfg.yaml cfg.orig
  expect_user_error "input" run cfg.yaml --json cfg.yaml
  expect_user_error "input" run cfg.yaml --json ./adir/../cfg.yaml
  cmp -s cfg.yaml cfg.orig || { echo "FAIL: --json cfg.yaml overwrote the configuration"; fail=1; }
  expect_user_error "same file" traffic "${quick[@]}" --json same.out --deliveries same.out
  expect_user_error "empty" traffic "${quick[@]}" --json ''
  expect_user_error "empty" schedule --net torus:4x4 --algo dcf --svg ''
  [ "$(listing | tr '\n' ' ')" = "adir cfg.orig cfg.yaml good.svg w.vcd " ] \
    || { echo "FAIL: refused runs left files: $(listing | tr '\n' ' ')"; fail=1; }
  # A user's own file next to the output (the old fixed temporary name) is never used or removed.
  echo MINE >out.json.tmp
  "$bin" traffic "${quick[@]}" --json out.json --deliveries d.csv >/dev/null || { echo "FAIL: good run"; fail=1; }
  [ "$(cat out.json.tmp)" = MINE ] || { echo "FAIL: out.json.tmp was used"; fail=1; }
  [ -s out.json ] && [ -s d.csv ] || { echo "FAIL: good run wrote no out.json / d.csv"; fail=1; }
  # A successful run leaves exactly its outputs: no temporary.
  ls -A | grep -q '^\.' && { echo "FAIL: a temporary was left: $(ls -A | grep '^\.')"; fail=1; }
  # The output files get the usual mode, not the private mode of a temporary.
  [ "$(stat -c %a out.json)" = "$(umask -S >/dev/null; touch ref && stat -c %a ref)" ] \
    || { echo "FAIL: out.json has mode $(stat -c %a out.json)"; fail=1; }
  # A symbolic link is followed: the file it names gets the output, the link stays (a rename over
  # the link once put a plain file in its place, /dev/stdout's too); a link to no file is refused.
  mkdir real
  echo OLD >real/r.json
  ln -s real/r.json link.json
  ln -s /proc/self/fd/1 out1
  ln -s nowhere/x dangling.json
  "$bin" traffic "${quick[@]}" --json link.json >/dev/null || { echo "FAIL: --json through a link"; fail=1; }
  [ -L link.json ] && grep -q '"latency"' real/r.json || { echo "FAIL: --json link.json replaced the link"; fail=1; }
  expect_user_error "symbolic link that names no file" traffic "${quick[@]}" --json dangling.json
  # A link to a process's open stream names whatever that stream is (a log the shell appends
  # to): refused, the log untouched.
  echo LOG >log.txt
  "$bin" traffic "${quick[@]}" --json /dev/stdout >>log.txt 2>err.txt
  rc=$?
  [ $rc -eq 2 ] && [ "$(cat log.txt)" = LOG ] && grep -q "open stream" err.txt \
    || { echo "FAIL: --json /dev/stdout >> log.txt: exit $rc, log: $(head -c 80 log.txt)"; fail=1; }
  expect_user_error "open stream" traffic "${quick[@]}" --trace out1
  [ -L out1 ] || { echo "FAIL: --trace out1 replaced the link"; fail=1; }
  # Names: a trailing slash names a directory; a legal 250-byte name gets a temporary that fits;
  # a name longer than 255 bytes is refused as such.
  expect_user_error "names a directory" traffic "${quick[@]}" --json real/
  long=$(printf 'a%.0s' $(seq 245)).json
  "$bin" traffic "${quick[@]}" --json "$long" >/dev/null && [ -s "$long" ] || { echo "FAIL: a 250-byte name"; fail=1; }
  expect_user_error "at most 255 bytes" traffic "${quick[@]}" --json "$(printf 'a%.0s' $(seq 251)).json"
  # A file that cannot be replaced (immutable here, where the attribute can be set) is refused
  # before cycle 0, and no other output appears (it was found at the rename, after the others).
  echo OLD >imm.csv
  if chattr +i imm.csv 2>/dev/null; then
    expect_user_error "cannot be replaced" traffic "${quick[@]}" --json n.json --trace h.csv --deliveries imm.csv
    chattr -i imm.csv
    [ ! -e n.json ] && [ ! -e h.csv ] && [ "$(cat imm.csv)" = OLD ] || { echo "FAIL: an immutable output left others"; fail=1; }
    # A new file in an append-only directory: the rename out of its temporary is refused there.
    mkdir app
    chattr +a app
    expect_user_error "append-only" traffic "${quick[@]}" --json n.json --deliveries app/new.csv
    [ -z "$(ls -A app)" ] && [ ! -e n.json ] || { echo "FAIL: an append-only directory: $(ls -A app) $(ls n.json 2>&1)"; fail=1; }
    chattr -a app
  else
    echo "(the immutable attribute cannot be set here: that check skipped)"
  fi
  ;;

interrupt)
  for sig in INT TERM; do
    rm -rf run && mkdir run
    echo GOOD >run/w.vcd
    echo GOOD >run/r.json
    timeout 120 "$bin" traffic --measure 100000000 --set sim.progress=off --vcd run/w.vcd --json run/r.json --max-output-size 1T \
      --deliveries run/d.csv >/dev/null 2>err.$sig &
    pid=$!
    # Wait until the run is under way (its temporaries exist), then stop it.
    for _ in $(seq 100); do ls -A run | grep -q '^\.w\..*\.vcd$' && break; sleep 0.1; done
    sleep 0.5
    kill -$sig $pid
    wait $pid
    rc=$?
    want=$([ $sig = INT ] && echo 130 || echo 143)
    [ $rc -eq "$want" ] || { echo "FAIL: SIG$sig: exit $rc, want $want"; fail=1; }
    [ "$(wc -l <err.$sig)" -eq 1 ] || { echo "FAIL: SIG$sig: note is not one line: $(cat err.$sig)"; fail=1; }
    [ "$(ls -A run | tr '\n' ' ')" = "r.json w.vcd " ] || { echo "FAIL: SIG$sig left: $(ls -A run | tr '\n' ' ')"; fail=1; }
    [ "$(cat run/w.vcd)" = GOOD ] && [ "$(cat run/r.json)" = GOOD ] || { echo "FAIL: SIG$sig touched earlier files"; fail=1; }
  done
  # Stopped while its waveform is converted to FST: the converter stops with it and leaves no
  # scratch (vcd2fst writes OUTPUT.hier beside its output).
  if command -v vcd2fst >/dev/null; then
    rm -rf fst && mkdir fst
    # (No timeout wrapper: vcd2fst is then wormcast's own child. The test's limit bounds it.)
    "$bin" traffic --net torus:8x8 --rate 0.1 --measure 100000 --set sim.progress=off --fst fst/f.fst \
      >/dev/null 2>err.fst &
    pid=$!
    conv=
    for _ in $(seq 1200); do conv=$(pgrep -x -P $pid vcd2fst) && break; sleep 0.05; done
    if [ -n "$conv" ]; then
      kill -INT $pid
      wait $pid
      rc=$?
      sleep 0.2
      [ $rc -eq 130 ] || { echo "FAIL: SIGINT while converting to FST: exit $rc"; fail=1; }
      kill -0 "$conv" 2>/dev/null && { echo "FAIL: vcd2fst runs on after the run was stopped"; kill "$conv"; fail=1; }
      [ -z "$(ls -A fst)" ] || { echo "FAIL: SIGINT while converting to FST left: $(ls -A fst | tr '\n' ' ')"; fail=1; }
    else
      wait $pid
      echo "FAIL: the FST conversion was never seen running"; fail=1
    fi
  fi
  ;;

completion)
  # Sources that fall behind for the whole run (t_s 3000 cycles a message): exit 5, the packets still
  # waiting at their sources listed (injected null), no latency mean where no packet of the judged
  # span was delivered.
  "$bin" traffic --net torus:4x4 --rate 0.05 --measure 4000 --set traffic.mode=message --set nic.ts=3000 \
    --set sim.drain=500 --set sim.progress=off --json dq.json >dq.out 2>&1
  rc=$?
  /usr/bin/python3 -c '
import json, sys
j = json.load(open("dq.json"))
u, lat = j["packets"]["unfinished_first"], j["stability"]["latency"]
ok = (j["status"] == "drain_timeout" and j["throughput"]["measured_undelivered"] > 0 and len(u) == 10
      and all(x["injected"] is None and x["created"] >= 0 for x in u) and lat["batches"] == 0 and lat["mean"] is None)
sys.exit(0 if ok else print("FAIL: sources behind:", j["status"], u[:2], lat) or 1)' || fail=1
  [ $rc -eq 5 ] && grep -q "| latency: no measured packet delivered |" dq.out \
    || { echo "FAIL: sources behind: exit $rc, $(cat dq.out)"; fail=1; }
  # A tiny rate is a tiny rate: nothing offered, not 5 flits/node/cycle.
  "$bin" traffic --set traffic.rate=1e-100 "${quick[@]}" --json tiny.json >/dev/null
  rc=$?; [ $rc -eq 0 ] || { echo "FAIL: rate 1e-100 exited $rc"; fail=1; }
  [ "$(json_value tiny.json '["throughput"]["offered"]')" = 0.0 ] \
    || { echo "FAIL: rate 1e-100 offered $(json_value tiny.json '["throughput"]["offered"]')"; fail=1; }
  # Livelock watchdog: flits move but nothing is delivered for sim.livelock cycles -> exit 4 (here
  # a torus without datelines filling up towards a deadlock; 10 cycles is its longest crossing).
  "$bin" traffic --net torus:8x8 --pattern tornado --rate 1 --set router.dateline=false --set sim.livelock=10 \
    "${quick[@]}" --json live.json >/dev/null
  rc=$?; [ $rc -eq 4 ] || { echo "FAIL: livelock exited $rc, want 4"; fail=1; }
  [ "$(json_value live.json '["status"]')" = livelock ] || { echo "FAIL: livelock status"; fail=1; }
  [ "$(json_value live.json '["livelock"]["detected"]')" = True ] || { echo "FAIL: livelock report"; fail=1; }
  # A network that stopped is a deadlock, even when the livelock window is shorter than the
  # watchdog's: no flit moved in the livelock window, so the watchdog calls it (exit 3).
  "$bin" traffic --net torus:8x8 --rate 0.5 --set router.dateline=false --set sim.livelock=1000 --set sim.watchdog=5000 \
    --set sim.progress=off --json lw.json >/dev/null
  rc=$?; [ $rc -eq 3 ] && [ "$(json_value lw.json '["livelock"]["detected"]')" = False ] \
    || { echo "FAIL: a deadlock with sim.livelock < sim.watchdog exited $rc, want 3"; fail=1; }
  # The default does not fire on a healthy run beyond saturation (drained, unstable: exit 5).
  "$bin" traffic --rate 0.4 --measure 3000 --set sim.progress=off >/dev/null
  rc=$?; [ $rc -eq 5 ] || { echo "FAIL: healthy run beyond saturation exited $rc, want 5 (unstable)"; fail=1; }
  # After a deadlock, rates are over the cycles actually run (the window is cut short).
  "$bin" traffic --pattern tornado --rate 0.8 --set router.dateline=false --set sim.watchdog=500 --measure 200000 \
    --warmup 0 --set sim.progress=off --json dl.json >/dev/null
  rc=$?; [ $rc -eq 3 ] || { echo "FAIL: deadlock run exited $rc"; fail=1; }
  window=$(json_value dl.json '["throughput"]["window"]')
  offered=$(json_value dl.json '["throughput"]["offered"]')
  [ "$window" -lt 200000 ] || { echo "FAIL: window $window not cut short"; fail=1; }
  /usr/bin/python3 -c "import sys; sys.exit(0 if abs($offered - 0.8) < 0.1 else 1)" \
    || { echo "FAIL: offered $offered over the run window, want about 0.8"; fail=1; }
  ;;

bounded)
  # Above saturation the source queues stay bounded; the overflow is counted, the run unstable.
  "$bin" traffic --rate 1 --set traffic.source_queue=4 --measure 2000 --set sim.progress=off --json sat.json >/dev/null
  rc=$?; [ $rc -eq 5 ] || { echo "FAIL: saturated run exited $rc, want 5 (unstable)"; fail=1; }
  [ "$(json_value sat.json '["status"]')" = unstable ] || { echo "FAIL: saturated run status"; fail=1; }
  [ "$(json_value sat.json '["throughput"]["source_overflow"]')" -gt 0 ] || { echo "FAIL: no overflow counted"; fail=1; }
  [ "$(json_value sat.json '["throughput"]["stable"]')" = False ] || { echo "FAIL: run not marked unstable"; fail=1; }
  "$bin" traffic --rate 0.1 --measure 2000 --set sim.progress=off --json ok.json >/dev/null
  [ "$(json_value ok.json '["throughput"]["stable"]')" = True ] || { echo "FAIL: a stable run marked unstable"; fail=1; }
  # --max-output-size: refused up front when the estimate is larger ...
  expect_user_error "--max-output-size" traffic --measure 2000000 --set sim.progress=off --vcd big.vcd
  expect_user_error "--max-output-size" traffic "${quick[@]}" --vcd big.vcd --max-output-size 10K
  expect_user_error "--max-output-size" traffic "${quick[@]}" --vcd big.vcd --max-output-size 4X
  # ... and enforced while writing (no estimate for node programs): stopped, nothing left.
  expect_user_error "--max-output-size" broadcast --net torus:8x8 --len 64 --vcd big.vcd --max-output-size 20K
  [ "$(ls -A | tr '\n' ' ')" = "err ok.json sat.json " ] || { echo "FAIL: refused recordings left: $(ls -A | tr '\n' ' ')"; fail=1; }
  # Within the limit the recording is written.
  "$bin" traffic "${quick[@]}" --vcd small.vcd --max-output-size 64M >/dev/null || { echo "FAIL: small VCD run"; fail=1; }
  [ -s small.vcd ] || { echo "FAIL: small.vcd missing"; fail=1; }
  ;;

*)
  echo "unknown section $section"
  exit 2
  ;;
esac

[ $fail -eq 0 ] && echo "reliability $section: all checks passed"
exit $fail
