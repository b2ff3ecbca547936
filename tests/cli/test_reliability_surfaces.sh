#!/usr/bin/env bash
# Reliability of every result-writing command, one section per class (argument: verdict | mway |
# stdout | signals | check-bound | small | refusals): no false verdict, no lost result (a result that cannot
# be written is exit 2 or a documented signal code with one line and no temporaries), every
# terminating signal ends a run cleanly, a --check too large is refused up front, the smaller
# input rules (unknown commands, livelock window, tiny rates, long values, the size estimate), and
# (refusals) values that cannot be meant: empty values, non-finite numbers, options that do not
# apply, '-' for a file output, outputs checked before any work.
user_error_timeout=120
# shellcheck source=reliability_common.sh
. "$(dirname "$0")/reliability_common.sh"


# The files of directory run/ (hidden ones included), space-separated.
left() { ls -A run | tr '\n' ' '; }

quick=(--measure 200 --warmup 0 --set sim.progress=off)

case $section in
verdict)
  # A source queue waiting out its own send latency t_s is slow, not stranded: the drain limit's
  # verdict (exit 5, drain_timeout), no scoreboard error.
  timeout 120 "$bin" traffic --set nic.ts=20000 --set sim.progress=off --json o.json >out.txt 2>err.txt
  rc=$?
  [ $rc -eq 5 ] || { echo "FAIL: nic.ts=20000 exited $rc, want 5: $(cat out.txt err.txt)"; fail=1; }
  [ "$(json_value o.json '["status"]')" = drain_timeout ] || { echo "FAIL: nic.ts=20000 status $(json_value o.json '["status"]')"; fail=1; }
  [ "$(json_value o.json '["scoreboard"]["errors"]')" = 0 ] || { echo "FAIL: nic.ts=20000 scoreboard errors: $(json_value o.json '["scoreboard"]["first_errors"]')"; fail=1; }
  # No packet can be ready before the drain limit: every source waits on t_s the whole run.
  timeout 120 "$bin" traffic --set nic.ts=50000 --set sim.drain=10000 "${quick[@]}" --json o2.json >/dev/null 2>&1
  rc=$?
  [ $rc -eq 5 ] || { echo "FAIL: nic.ts=50000 exited $rc, want 5"; fail=1; }
  [ "$(json_value o2.json '["scoreboard"]["errors"]')" = 0 ] || { echo "FAIL: nic.ts=50000 scoreboard errors"; fail=1; }
  # 2000 cycles of t_s: exit 5 as before.
  timeout 120 "$bin" traffic --set nic.ts=2000 --set sim.progress=off >/dev/null 2>&1
  rc=$?
  [ $rc -eq 5 ] || { echo "FAIL: nic.ts=2000 exited $rc, want 5"; fail=1; }
  ;;

mway)
  # unicast carries no region broadcast: the default --broadcast-fraction 1 is refused up front.
  expect_user_error "--broadcast-fraction" mway --algo unicast
  expect_user_error "--algo unicast" mway --algo unicast --broadcast-fraction 0.5
  expect_user_error "mway.algo = unicast" mway --algo unicast --set traffic.broadcast_fraction=0.5
  expect_user_error "traffic.broadcast_fraction" traffic --net mway:4x4 --set mway.algo=unicast \
    --set traffic.broadcast_fraction=1 "${quick[@]}"
  expect_user_error "mway.algo" traffic --net mway:4x4 --set mway.algo=unicast --set traffic.broadcast_fraction=1 "${quick[@]}"
  timeout 120 "$bin" mway --net mesh:4x4 --algo unicast --broadcast-fraction 0 "${quick[@]}" >/dev/null 2>err.txt
  rc=$?
  [ $rc -eq 0 ] || { echo "FAIL: mway --algo unicast --broadcast-fraction 0 exited $rc: $(cat err.txt)"; fail=1; }
  ;;

stdout)
  # Each result-writing command with its result on standard output (--json -) or printed there:
  # a full device or a closed standard output is exit 2 with one line, and no file is left.
  "$bin" traffic --net torus:4x4 "${quick[@]}" --vcd wave.vcd >/dev/null 2>&1 || { echo "FAIL: making wave.vcd"; fail=1; }
  cmds=(
    "traffic --net torus:4x4 --measure 200 --warmup 0 --set sim.progress=off --vcd run/w.vcd --deliveries run/d.csv --json -"
    "traffic --net torus:4x4 --measure 200 --warmup 0 --set sim.progress=off --vcd run/w.vcd --json run/r.json"
    "mway --net mesh:4x4 --measure 200 --warmup 0 --set sim.progress=off --vcd run/w.vcd --json -"
    "run cfg.yaml --vcd run/w.vcd --deliveries run/d.csv --json -"
    "schedule --net torus:8x8 --algo dcf --check --svg run/s.svg --json -"
    "schedule --net torus:8x8 --algo dcf --json run/s.json"
    "broadcast --net torus:4x4 --algo dcf --len 8 --deliveries run/d.csv --json -"
    "wave wave.vcd --save run/w.gtkw"
    "gossip --net ring:9 --algo approach1 --port one --r 4 --json -"
    "ibt topo --net ibt:16x16 --bypass 4 --json -"
  )
  printf 'net:\n  radix: 4x4\nsim:\n  measure: 200\n  warmup: 0\n  progress: "off"\n' >cfg.yaml
  for c in "${cmds[@]}"; do
    for how in full closed; do
      rm -rf run && mkdir run
      if [ $how = full ]; then
        timeout 120 "$bin" $c >/dev/full 2>err.txt
      else
        timeout 120 "$bin" $c >&- 2>err.txt
      fi
      rc=$?
      [ $rc -eq 2 ] || { echo "FAIL: $c > $how stdout: exit $rc, want 2 ($(cat err.txt))"; fail=1; }
      # gossip and ibt print their report for people before the result (on stderr with --json -):
      # the error is their last line; every other command prints nothing but the error.
      case $c in
        gossip* | ibt*) ;;
        *) [ "$(wc -l <err.txt)" -eq 1 ] || { echo "FAIL: $c > $how stdout: not one line: $(cat err.txt)"; fail=1; } ;;
      esac
      tail -n 1 err.txt | grep -q -e "standard output" -e "--json -" \
        || { echo "FAIL: $c > $how stdout: the line does not name standard output: $(cat err.txt)"; fail=1; }
      [ -z "$(left)" ] || { echo "FAIL: $c > $how stdout left: $(left)"; fail=1; }
    done
  done
  # A pipe whose reader has gone: SIGPIPE, exit 141 (docs/reference.md), one line, no temporaries left.
  for c in "${cmds[0]}" "${cmds[2]}" "${cmds[6]}" "traffic --net torus:4x4 --measure 200 --warmup 0 --set sim.progress=off --vcd run/w.vcd --json run/r.json"; do
    rm -rf run && mkdir run
    timeout 120 "$bin" $c 2>err.txt | true
    rc=${PIPESTATUS[0]}
    [ $rc -eq 141 ] || { echo "FAIL: $c | true: exit $rc, want 141 ($(cat err.txt))"; fail=1; }
    [ "$(wc -l <err.txt)" -eq 1 ] || { echo "FAIL: $c | true: not one line: $(cat err.txt)"; fail=1; }
    [ -z "$(left)" ] || { echo "FAIL: $c | true left: $(left)"; fail=1; }
  done
  # The same commands with a writable standard output: exit 0.
  rm -rf run && mkdir run
  "$bin" ${cmds[0]} >ok.json 2>err.txt || { echo "FAIL: ${cmds[0]} exited $?: $(cat err.txt)"; fail=1; }
  json_value ok.json '["status"]' >/dev/null || { echo "FAIL: --json - did not print the JSON"; fail=1; }
  ;;

signals)
  # Every terminating signal a terminal, a batch system or a pipe sends: exit 128 + its number,
  # one line on stderr, the temporaries removed and earlier files untouched.
  hup_ignored=$(awk '/^SigIgn/ { print (strtonum("0x" $2) % 2) }' /proc/$$/status 2>/dev/null || echo 0)
  for sig in HUP INT QUIT PIPE ALRM TERM USR1 USR2 XCPU XFSZ VTALRM PROF; do
    if [ $sig = HUP ] && [ "$hup_ignored" = 1 ]; then echo "note: SIGHUP ignored by this shell, not tried"; continue; fi
    for cmd in traffic mway; do
      [ $cmd = mway ] && [ $sig != USR1 ] && [ $sig != HUP ] && continue  # the m-way command: two signals
      rm -rf run && mkdir run
      echo GOOD >run/w.vcd
      echo GOOD >run/r.json
      if [ $cmd = traffic ]; then
        args=(traffic --measure 100000000)
      else
        args=(mway --net mesh:4x4 --measure 100000000)
      fi
      # Not under `timeout`: it would take most of these signals itself (or forward ALRM as TERM).
      "$bin" "${args[@]}" --set sim.progress=off --vcd run/w.vcd --json run/r.json \
        --max-output-size 1T --deliveries run/d.csv >/dev/null 2>err.$sig &
      pid=$!
      for _ in $(seq 100); do ls -A run | grep -q '^\.w\..*\.vcd$' && break; sleep 0.1; done
      sleep 0.5
      kill -$sig $pid
      wait $pid
      rc=$?
      want=$((128 + $(kill -l $sig)))
      [ $rc -eq $want ] || { echo "FAIL: $cmd SIG$sig: exit $rc, want $want"; fail=1; }
      [ "$(wc -l <err.$sig)" -eq 1 ] || { echo "FAIL: $cmd SIG$sig: note is not one line: $(cat err.$sig)"; fail=1; }
      [ "$(left)" = "r.json w.vcd " ] || { echo "FAIL: $cmd SIG$sig left: $(left)"; fail=1; }
      [ "$(cat run/w.vcd)" = GOOD ] && [ "$(cat run/r.json)" = GOOD ] || { echo "FAIL: $cmd SIG$sig touched earlier files"; fail=1; }
    done
  done
  ;;

check-bound)
  # A --check that would take minutes and gigabytes is refused up front with its estimate.
  start=$(date +%s)
  expect_user_error "allowed" schedule --net torus:256x256 --algo sequential --check --quiet
  expect_user_error "--check" schedule --net torus:256x256 --algo sequential --check --quiet
  [ $(($(date +%s) - start)) -lt 60 ] || { echo "FAIL: the refusal took $(($(date +%s) - start)) s"; fail=1; }
  # Checks of ordinary size still run.
  timeout 120 "$bin" schedule --net torus:16x16 --algo sequential --check --quiet >/dev/null 2>err.txt
  rc=$?
  [ $rc -eq 0 ] || [ $rc -eq 1 ] || { echo "FAIL: sequential 16x16 --check exited $rc: $(cat err.txt)"; fail=1; }
  timeout 120 "$bin" schedule --net torus:64x64 --algo dcf --check --quiet >/dev/null 2>err.txt
  rc=$?
  [ $rc -eq 0 ] || { echo "FAIL: dcf 64x64 --check exited $rc: $(cat err.txt)"; fail=1; }
  ;;

small)
  # An unknown command is named, with the commands allowed there.
  expect_user_error "'frobnicate'" frobnicate
  expect_user_error "traffic" frobnicate
  expect_user_error "'frob'" ibt frob
  expect_user_error "topo" ibt frob
  # Every refusal names what is allowed: a library parse error, a YAML shape error, a path.
  expect_user_error "allowed:" traffic --frob
  expect_user_error "allowed:" traffic --rate
  printf 'traffic:\n  rate: 0.1\n  rate: 0.2\n' >dup.yaml
  expect_user_error "allowed:" run dup.yaml
  expect_user_error "allowed:" traffic "${quick[@]}" --json nodir/x.json
  expect_user_error "allowed:" schedule --net torus:4x4
  # A livelock window shorter than a flit's trip across the network is refused, naming the
  # smallest; a window of that length does not fire on a healthy run.
  for w in 1 2 3; do expect_user_error "allowed:" traffic --set sim.livelock=$w "${quick[@]}"; done
  expect_user_error "sim.livelock" traffic --set sim.livelock=3 "${quick[@]}"
  min=$("$bin" traffic --set sim.livelock=1 "${quick[@]}" 2>&1 | sed -n 's/.*allowed: \([0-9]*\)\.\..*/\1/p')
  [ -n "$min" ] || { echo "FAIL: no smallest livelock window named"; fail=1; min=100; }
  timeout 120 "$bin" traffic --set sim.livelock=$min "${quick[@]}" --json ll.json >/dev/null 2>err.txt
  rc=$?
  [ $rc -eq 0 ] || { echo "FAIL: sim.livelock=$min on a healthy run exited $rc: $(cat err.txt)"; fail=1; }
  timeout 120 "$bin" traffic --rate 0.01 --set sim.livelock=$min "${quick[@]}" >/dev/null 2>err.txt
  rc=$?
  [ $rc -eq 0 ] || { echo "FAIL: sim.livelock=$min at rate 0.01 exited $rc: $(cat err.txt)"; fail=1; }
  # The watchdog has the same least window; it covers credit round trips (1-flit buffers, 8-cycle
  # credit delays: one flit every 17 cycles), delay lines (8-cycle injection and ejection) and
  # two-phase routes (valiant on a 16-node line), none of which a healthy run at that window trips.
  expect_user_error "sim.watchdog" traffic --set sim.watchdog=3 "${quick[@]}"
  slow=(--set router.buffer_depth=1 --set router.credit_delay=8 --set router.ejection_credit_delay=8
        --set router.injection_delay=8 --set router.ejection_delay=8 --warmup 0 --measure 2000 --rate 0.02)
  for shape in "${slow[*]} --net torus:4x4" "${slow[*]} --net torus:2x2 --len 8" \
               "--net mesh:16 --set router.routing=valiant --len 1 --rate 0.005 --warmup 0 --measure 5000" \
               "--net torus:4x4 --set router.router_delay=8 --rate 0.05 --warmup 0 --measure 3000"; do
    # shellcheck disable=SC2086
    least=$("$bin" traffic $shape --set sim.watchdog=1 --set sim.progress=off 2>&1 | sed -n 's/.*allowed: \([0-9]*\)\.\..*/\1/p')
    [ -n "$least" ] || { echo "FAIL: no least watchdog named for $shape"; fail=1; continue; }
    # shellcheck disable=SC2086
    timeout 120 "$bin" traffic $shape --set sim.watchdog=$least --set sim.livelock=$least --set sim.progress=off \
      >/dev/null 2>err.txt
    rc=$?
    [ $rc -eq 0 ] || { echo "FAIL: watchdog and livelock $least on a healthy run ($shape) exited $rc: $(cat err.txt)"; fail=1; }
  done
  # A value inside 0..1, however small, is accepted.
  timeout 120 "$bin" traffic --set traffic.rate=5e-324 "${quick[@]}" >/dev/null 2>err.txt
  rc=$?
  [ $rc -eq 0 ] || { echo "FAIL: traffic.rate=5e-324 exited $rc: $(cat err.txt)"; fail=1; }
  timeout 120 "$bin" traffic --rate 1e-400 "${quick[@]}" >/dev/null 2>err.txt
  rc=$?
  [ $rc -eq 0 ] || { echo "FAIL: --rate 1e-400 exited $rc: $(cat err.txt)"; fail=1; }
  expect_user_error "traffic.rate" traffic --set traffic.rate=1e400 "${quick[@]}"
  # A 120 KB value is not echoed whole; the line still names the key and the allowed values.
  long=$(head -c 120000 /dev/zero | tr '\0' 7)
  expect_user_error "traffic.rate" traffic --set "traffic.rate=$long" "${quick[@]}"
  [ "$(wc -c <err)" -lt 600 ] || { echo "FAIL: a 120 KB value echoed: $(wc -c <err) bytes"; fail=1; }
  grep -q "allowed" err || { echo "FAIL: the shortened line lost its allowed range: $(cat err)"; fail=1; }
  expect_user_error "unknown" traffic --set "$long=1" "${quick[@]}"
  [ "$(wc -c <err)" -lt 600 ] || { echo "FAIL: a 120 KB key echoed: $(wc -c <err) bytes"; fail=1; }
  expect_user_error "--rate" traffic --rate "$long" "${quick[@]}"
  [ "$(wc -c <err)" -lt 600 ] || { echo "FAIL: a 120 KB option value echoed: $(wc -c <err) bytes"; fail=1; }
  # The size estimate is close: a recording well inside its limit is not refused. Each run is
  # recorded once with no limit that matters, then again with a limit 20 % above its real size.
  for rec in "--vcd" "--trace" "--deliveries"; do
    for load in "--rate 0.1" "--rate 0.4" "--rate 0.02 --net torus:16x16"; do
      rm -rf run && mkdir run
      timeout 120 "$bin" traffic $load --measure 3000 --warmup 0 --set sim.progress=off $rec run/x >/dev/null 2>err.txt
      size=$(cat run/x* 2>/dev/null | wc -c)
      [ "$size" -gt 0 ] || { echo "FAIL: $rec $load wrote nothing: $(cat err.txt)"; fail=1; continue; }
      limit=$((size * 12 / 10))
      rm -rf run && mkdir run
      timeout 120 "$bin" traffic $load --measure 3000 --warmup 0 --set sim.progress=off $rec run/x --max-output-size $limit \
        >/dev/null 2>err.txt
      rc=$?
      [ $rc -ne 2 ] || { echo "FAIL: $rec $load: $size bytes recorded, refused at $limit: $(cat err.txt)"; fail=1; }
    done
  done
  ;;

refusals)
  # Values that cannot be meant are refused when the command line is read: exit 2, one line naming
  # the option and what is allowed, nothing written.
  g=(gossip --net ring:9 --algo approach1 --quiet)
  expect_refused "--r" "${g[@]}" --r inf --json o.json
  expect_refused "--hop" "${g[@]}" --hop -1
  expect_refused "--hop" "${g[@]}" --hop nan
  expect_refused "--hop" "${g[@]}" --hop 1e308
  expect_refused "--k" gossip --net ring:9 --algo circgos --a 3 --b 2 --k 0 --quiet
  expect_refused "--a2" gossip --net ring:9 --algo circgos --a 3 --b 2 --a2 0 --quiet
  # A parameter of another algorithm is refused, not ignored.
  expect_refused "--k" "${g[@]}" --k 3
  expect_refused "--a2" "${g[@]}" --a2 3
  expect_refused "--vcd needs --simulate" "${g[@]}" --vcd w.vcd
  # An empty value is not the default.
  expect_refused "--net" traffic --net '' "${quick[@]}"
  expect_refused "--pattern" traffic --pattern '' "${quick[@]}"
  expect_refused "--router" traffic --router '' "${quick[@]}"
  expect_refused "config" run ''
  expect_refused "--algo" mway --net mesh:4x4 --algo '' "${quick[@]}"
  expect_refused "--region" mway --net mesh:4x4 --region '' "${quick[@]}"
  expect_refused "--port" "${g[@]}" --port ''
  "$bin" traffic --net torus:4x4 "${quick[@]}" --vcd wave.vcd >/dev/null 2>&1 || { echo "FAIL: making wave.vcd"; fail=1; }
  mkdir -p refused && cp wave.vcd refused/w.vcd
  expect_refused "--save" wave w.vcd --save ''
  mkdir -p refused && cp wave.vcd refused/w.vcd
  expect_refused "--routers" wave w.vcd --routers ''
  expect_refused "--vcd-window" traffic --net torus:4x4 "${quick[@]}" --vcd w.vcd --vcd-window ''
  expect_refused "--vcd-routers" traffic --net torus:4x4 "${quick[@]}" --vcd w.vcd --vcd-routers ''
  # A waveform is files (the dump and its save file), not a stream: '-' is refused.
  expect_refused "--vcd" traffic --net torus:4x4 "${quick[@]}" --vcd -
  # ibt and gossip check their outputs before any work: a missing directory is named before a
  # bad network, key or schedule would be found (a network built first, 262144 nodes).
  expect_refused "--json" ibt topo --net ibt:16x16 --bypass 4 --json .
  mkdir -p refused/adir
  expect_refused "--json 'adir'" ibt topo --net ibt:16x16 --bypass 4 --json adir
  expect_refused "nodir" ibt bcast --net ibt:16x16 --bypass 4 --algo global -k 2 --json nodir/x.json
  expect_refused "nodir" ibt bcast --net ibt:16x16 --bypass 4 --algo global -k 2 --simulate --set no.such=1 --json nodir/x.json
  expect_refused "nodir" ibt bcast --net ibt:512x512 --bypass 16 --algo global -k 2 --simulate --json nodir/x.json
  expect_refused "nodir" gossip --net torus:8x8 --algo torgos --a 3 --b 1 --r 2 --simulate --json nodir/x.json
  expect_refused "nodir" gossip --net torus:4x4x4 --algo cubgos --a 2 --b 1 --svg nodir/x.svg
  ;;

*)
  echo "unknown section $section"
  exit 2
  ;;
esac

[ $fail -eq 0 ] && echo "OK: reliability $section"
exit $fail
