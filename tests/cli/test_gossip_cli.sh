#!/usr/bin/env bash
# `wormcast gossip` contract: --simulate on small cases exits 0 with JSON holding the measured
# cycles next to the step model (measured >= model, every chunk everywhere); bad input exits 2
# with one line naming the option and leaves no file behind.
set -u
bin=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
fail=0

expect_bad() {  # option-named-in-error, args...
  local name=$1
  shift
  rm -f "$work"/*
  local err
  err=$("$bin" gossip "$@" --json "$work/out.json" 2>&1 >/dev/null)
  local rc=$?
  if [ $rc -ne 2 ]; then echo "FAIL: [$*] exited $rc, want 2"; fail=1; fi
  if [ -n "$(ls "$work")" ]; then echo "FAIL: [$*] left files: $(ls "$work")"; fail=1; fi
  if [ "$(printf '%s\n' "$err" | wc -l)" -ne 1 ]; then echo "FAIL: [$*] error is not one line: $err"; fail=1; fi
  case "$err" in *"$name"*) ;; *) echo "FAIL: [$*] error does not name $name: $err"; fail=1 ;; esac
}

expect_good() {  # args...
  rm -f "$work"/*
  "$bin" gossip "$@" --json "$work/out.json" >"$work/out.txt" 2>&1
  local rc=$?
  if [ $rc -ne 0 ]; then echo "FAIL: [$*] exited $rc, want 0"; cat "$work/out.txt"; fail=1; return; fi
  python3 - "$work/out.json" "$*" <<'PY' || fail=1
import json, sys
j = json.load(open(sys.argv[1]))
s = j["simulation"]
bad = []
if s["status"] != "ok": bad.append("status " + s["status"])
if not s["every_node_holds_every_chunk"]: bad.append("incomplete")
if s["errors"]: bad.append("errors " + str(s["errors"]))
if s["measured_cycles"] < s["model_cycles"]: bad.append("measured %d < model %d" % (s["measured_cycles"], s["model_cycles"]))
for k in ("measured_cycles", "model_cycles", "program_model_cycles", "analytic_cycles", "blocked_cycles"):
    if k not in s: bad.append("no " + k)
if "results" not in j: bad.append("no step-by-step results")
if bad:
    print("FAIL: [%s] %s" % (sys.argv[2], "; ".join(bad)))
    sys.exit(1)
PY
}

expect_good --net ring:9 --algo approach1 --r 2 --len 16 --simulate --check
expect_good --net torus:9x9 --algo torgos --a 3 --b 1 --r 5 --len 8 --simulate
expect_good --net ring:9 --algo approach1 --r 2 --len 16 --simulate --set router.local_ports=one

expect_bad --len --net ring:9 --algo approach1 --r 2 --len 0 --simulate
expect_bad --len --net ring:9 --algo approach1 --r 2 --len 8
expect_bad --r --net ring:9 --algo approach1 --r 2,5 --simulate
expect_bad --a --net torus:9x9 --algo torgos --a 1 --b 1 --simulate
expect_bad --net --net torus:0x9 --algo approach1-1 --simulate

# Without --simulate the command is the host tool's: exit 0 and its JSON.
rm -f "$work"/*
"$bin" gossip --net ring:27 --algo circgos --a 3 --b 2 --r 10 --check --json "$work/plain.json" >/dev/null
rc=$?
if [ $rc -ne 0 ] || [ ! -s "$work/plain.json" ]; then echo "FAIL: plain gossip exited $rc or wrote nothing"; fail=1; fi

[ $fail -eq 0 ] && echo "OK: wormcast gossip"
exit $fail
