#!/usr/bin/env bash
# `wormcast gossip` contract: --simulate on small cases exits 0 with JSON holding the measured
# cycles next to the step model (measured >= model, every chunk everywhere); --port one builds
# and verifies the one-port variants; --svg writes a well-formed SVG; bad input exits 2 with one
# line naming the option and leaves no file behind (neither --json nor --svg).
# Section (second argument): tori (default; rings and tori) or meshes (mesh networks, and the
# schedule in --json re-verified from its unicasts by gossip_schedule_check.py).
set -u
bin=$1
section=${2:-tori}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
fail=0

expect_bad() {  # option-named-in-error, args...
  local name=$1
  shift
  rm -f "$work"/*
  local err
  err=$("$bin" gossip "$@" --json "$work/out.json" --svg "$work/out.svg" 2>&1 >/dev/null)
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

if [ "$section" = meshes ]; then
  # --simulate --check on the mesh topology; the JSON's schedule re-verified independently, its
  # step count against the formula (docs/schedules.md): Approach 1 on a line n - 1, coloured
  # Approach 1-1 on n0 x n1 2 max(n0 - 1, n1 - 1), CIRCGOS(16, 4, 2) on a line 2 + 3 + 2,
  # CUBGOS'(4, 3, 2, 1) on 4x4x4 (1 + 1) + 3 + (1 + 2), TORGOS'(9, 3, 1) on 9x9 2 + 4 + (2 + 2).
  mesh_case() {  # steps exactly-once(yes|no) args...
    local steps=$1 once=$2
    shift 2
    expect_good "$@" --r 2 --len 6 --simulate --check
    [ -s "$work/out.json" ] || return
    local flags="--steps $steps"
    [ "$once" = yes ] && flags="$flags --exactly-once"
    # shellcheck disable=SC2086
    python3 "$here/gossip_schedule_check.py" "$work/out.json" $flags >/dev/null || { echo "FAIL: [$*] schedule re-check"; fail=1; }
    python3 - "$work/out.json" "$*" <<'PY' || fail=1
import json, sys
j = json.load(open(sys.argv[1]))
s = j["simulation"]
if not j["check"]["ok"] or s["missing_receipts"] or s["unexpected_receipts"] or not j["net"].startswith("mesh:") \
   or j["config"]["net"]["topology"] != "mesh":
    print("FAIL: [%s] check %s, missing %d, unexpected %d, net %s" % (sys.argv[2], j["check"]["ok"], s["missing_receipts"],
          s["unexpected_receipts"], j["net"]))
    sys.exit(1)
PY
  }
  mesh_case 15 yes --net mesh:16 --algo approach1
  mesh_case 7 no --net mesh:16 --algo circgos --a 4 --b 2
  mesh_case 26 yes --net mesh:14x10 --algo approach1-1
  mesh_case 22 yes --net mesh:14x10 --algo approach1-1 --uncoloured
  mesh_case 8 no --net mesh:4x4x4 --algo cubgos --a 2 --b 1
  mesh_case 10 no --net mesh:9x9 --algo torgos --a 3 --b 1
  # The 1-D array's closed form and bounds: (n - 1)(1 + r) = 45 at n = 16, r = 2; corner bound n - 1.
  "$bin" gossip --net mesh:16 --algo approach1 --r 2 --json "$work/line.json" >/dev/null
  python3 - "$work/line.json" <<'PY' || fail=1
import json, sys
e = json.load(open(sys.argv[1]))["results"][0]
if e["step_by_step"]["total"] != 45 or e["closed_form"]["total"] != 45 or e["lower_bounds"]["mesh_corner"] != 15:
    print("FAIL: mesh:16 approach1 cost %s, closed form %s, corner bound %s" % (e["step_by_step"]["total"],
          e["closed_form"]["total"], e["lower_bounds"].get("mesh_corner")))
    sys.exit(1)
PY
  # One-port Approach 2-2: the closed form per phase is exact for n = 2^k (equal to the step cost),
  # and labelled approximate otherwise.
  for n in 2 4 8 3; do
    "$bin" gossip --net torus:${n}x${n} --algo approach2-2 --port one --r 3 --json "$work/op$n.json" >/dev/null
  done
  python3 - "$work" <<'PY' || fail=1
import json, sys
for n in (2, 4, 8, 3):
    e = json.load(open(f"{sys.argv[1]}/op{n}.json"))["results"][0]
    exact = n != 3
    if exact != (e["step_by_step"]["total"] == e["closed_form"]["total"]) or \
            exact == ("approximate" in e["closed_form"]["source"]):
        print(f"FAIL: one-port approach2-2 on {n}x{n}: step cost {e['step_by_step']['total']}, closed form "
              f"{e['closed_form']['total']} ({e['closed_form']['source']})")
        sys.exit(1)
PY
  # Bad input on meshes: one line naming the option, exit 2, no file.
  expect_bad --a --net mesh:9x9 --algo torgos --a 2 --b 1 --simulate
  expect_bad --net --net mesh:14x10 --algo torgos --a 2 --b 1
  expect_bad --net --net torus,mesh:8x4 --algo approach1-1
  expect_bad --port --net mesh:16 --algo approach1 --port one
  expect_bad --search --net mesh:27 --algo circgos --search
  expect_bad --table --net mesh:9x9 --table
  expect_bad approach1-1-bw --net mesh:8x8 --algo approach1-1-bw
  expect_bad --phases --net mesh:14x10 --algo high-dim-gos --phases circgos:12:6,1
else
expect_good --net ring:9 --algo approach1 --r 2 --len 16 --simulate --check
expect_good --net torus:9x9 --algo torgos --a 3 --b 1 --r 5 --len 8 --simulate
expect_good --net ring:9 --algo approach1 --r 2 --len 16 --simulate --set router.local_ports=one

expect_bad --len --net ring:9 --algo approach1 --r 2 --len 0 --simulate
expect_bad "steps 1..65535" --net ring:9 --algo circgos --a 3 --k 1000000 --r 1 --len 1 --simulate  # 444,448 steps
expect_bad --len --net ring:9 --algo approach1 --r 2 --len 8
expect_bad --r --net ring:9 --algo approach1 --r 2,5 --simulate
expect_bad --a --net torus:9x9 --algo torgos --a 1 --b 1 --simulate
expect_bad --net --net torus:0x9 --algo approach1-1 --simulate
expect_bad --port --net ring:9 --algo approach1 --port two
expect_bad --search --net ring:27 --algo circgos --search --port one
expect_bad --net --net torus:14x14 --algo circgos --search --r 10
expect_bad --net --net ring:1 --algo approach1
expect_bad --net --net ring:08 --algo approach1  # a leading zero, as the configuration's integers
# A ring larger than the cycle model builds (radix <= 1024) is refused by --net before its schedule
# is built (16.8 million unicasts for 4,096 nodes): within 2 GB of address space.
err=$(ulimit -v 2000000; "$bin" gossip --net ring:4096 --algo approach1 --simulate 2>&1 >/dev/null); rc=$?
[ $rc -eq 2 ] && case "$err" in "wormcast gossip: --net = 'ring:4096' is invalid"*"2..1024"*) true ;; *) false ;; esac \
  || { echo "FAIL: gossip --simulate on ring:4096: exit $rc: $err"; fail=1; }
# Without --json the schedule's JSON is not built: a ring of 1,024 nodes (a million unicasts) within 1 GB.
out=$(ulimit -v 1000000; "$bin" gossip --net ring:1024 --algo approach1 2>&1); rc=$?
[ $rc -eq 0 ] && case "$out" in *"unicasts 1047552"*) true ;; *) false ;; esac \
  || { echo "FAIL: gossip on ring:1024 within 1 GB: exit $rc: $(printf '%s' "$out" | tail -2)"; fail=1; }
# A unicast's chunk set keeps its nonzero words only: a ring of 2,048 nodes (4.2 million unicasts,
# chunk ids up to 2,047) within 1.3 GB (a dense bit set per unicast needed more than 1.4 GB).
out=$(ulimit -v 1300000; "$bin" gossip --net ring:2048 --algo approach1 2>&1); rc=$?
[ $rc -eq 0 ] && case "$out" in *"unicasts 4192256"*) true ;; *) false ;; esac \
  || { echo "FAIL: gossip on ring:2048 within 1.3 GB: exit $rc: $(printf '%s' "$out" | tail -2)"; fail=1; }
expect_bad "ring:<n>" --net RING:8 --algo approach1  # the allowed forms include the ring
expect_bad --net --net torus:3x5 --algo approach1-2
expect_bad approach1-1-bw --net torus:9x9 --algo approach1-1-bw
expect_bad --svg --net torus:3x3x3 --algo approach1-1-1
expect_bad --svg --net ring:27 --algo circgos --search --r 2,10
expect_bad --divisors-only --net ring:9 --a 3 --b 1 --divisors-only  # read by --search only (it was ignored)
expect_bad --uncoloured --net ring:9 --a 3 --b 1 --uncoloured  # a ring's algorithm has no colours (it was ignored)
expect_bad "marks" --net ring:600 --algo approach1  # 600 nodes x 300 steps + 179,700 unicasts: too large to draw

# One-port variants: verified under the one-port rule (exit 0 with --check), simulated on the
# one-port NIC that --port one selects.
expect_good --net torus:4x4 --algo approach1-1-bw --r 2 --len 8 --simulate --check
expect_good --net torus:4x4 --algo torgos --a 2 --a2 2 --k 1 --port one --r 2 --len 8 --simulate --check
for args in "--net ring:13 --algo circgos --a 3 --a2 2 --k 2" "--net torus:8x8 --algo approach2-1" \
            "--net torus:6x6 --algo torgos --a 3 --a2 3 --k 1" "--net torus:8x8 --algo approach1-1-bw"; do
  rm -f "$work"/*
  # shellcheck disable=SC2086
  "$bin" gossip $args --port one --r 4 --check --json "$work/one.json" >"$work/one.txt" 2>&1
  rc=$?
  if [ $rc -ne 0 ]; then echo "FAIL: [$args --port one --check] exited $rc"; cat "$work/one.txt"; fail=1; continue; fi
  python3 - "$work/one.json" "$args" <<'PY' || fail=1
import json, sys
j = json.load(open(sys.argv[1]))
e = j["results"][0]
if not j["check"]["ok"] or e["step_by_step"]["ports"] != "one" or "one-port" not in j["label"]:
    print("FAIL: [%s --port one] not a verified one-port schedule: %s" % (sys.argv[2], j["label"]))
    sys.exit(1)
PY
done
# Sec. 7.2's closed form for Approach 1 equals the one-port step cost: (9 - 1)(2 + 2 * 4) = 80.
"$bin" gossip --net ring:9 --algo approach1 --port one --r 4 --quiet | grep -q "step by step 80 (l t_f)  closed form 80 (Sec. 7.2)" \
  || { echo "FAIL: one-port Approach 1 is not (n-1)(2+2r)"; fail=1; }
# The paper's closed forms are for n x n: on a torus of unequal radices there is none (the step cost
# runs each line with its own radix: 13 (2 + 20) + 9 (2 * 14 + 20) = 718 one-port at r = 10).
for args in "--net torus:14x10 --port one" "--net torus:10x14 --port one" "--net torus:14x10 --uncoloured"; do
  # shellcheck disable=SC2086
  "$bin" gossip $args --algo approach1-1 --r 10 --quiet --json "$work/u.json" >/dev/null 2>&1 \
    || { echo "FAIL: [$args] did not run"; fail=1; continue; }
  python3 - "$work/u.json" "$args" <<'PY' || fail=1
import json, sys
e = json.load(open(sys.argv[1]))["results"][0]
if e["closed_form"] is not None or ("one" in sys.argv[2] and e["step_by_step"]["total"] != 718):
    print("FAIL: [%s] closed form %s, step cost %s" % (sys.argv[2], e["closed_form"], e["step_by_step"]["total"]))
    sys.exit(1)
PY
done

# An uncoloured (or one-port) phase f runs on axis f: its circulation is checked against that axis's
# radix, not the first one's (circgos:5:2 on the 13-node axis of 3x13 was refused as "2..3").
for args in "--net torus:3x13 --phases 1 circgos:5:2 --uncoloured" "--net mesh:3x13 --phases 1 circgos:5:2 --uncoloured" \
            "--net torus:10x14 --phases 1 circgos:12:6 --port one" "--net torus:3x5x7 --phases 1 1 circgos:5:2 --uncoloured"; do
  # shellcheck disable=SC2086
  "$bin" gossip $args --algo high-dim-gos --check --quiet 2>&1 | grep -q "^verdict: PASS" \
    || { echo "FAIL: [$args] is not a verified schedule"; fail=1; }
done
expect_bad "2..13" --net torus:3x13 --algo high-dim-gos --phases 1 circgos:14:7 --uncoloured

# --svg: a well-formed drawing, one panel per step, with and without --simulate.
for args in "--net torus:8x8 --algo approach1-1-bw" "--net ring:12 --algo circgos --a 3 --b 2" \
            "--net torus:4x4 --algo torgos --a 2 --b 1 --simulate --len 4"; do
  rm -f "$work"/*
  # shellcheck disable=SC2086
  "$bin" gossip $args --r 2 --svg "$work/g.svg" >"$work/svg.txt" 2>&1
  rc=$?
  if [ $rc -ne 0 ] || [ ! -s "$work/g.svg" ]; then echo "FAIL: [$args --svg] exited $rc or wrote nothing"; cat "$work/svg.txt"; fail=1; continue; fi
  python3 - "$work/g.svg" "$args" <<'PY' || fail=1
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
ns = "{http://www.w3.org/2000/svg}"
panels = root.findall(ns + "g")
texts = [t.text for t in root.iter(ns + "text")]
if root.tag != ns + "svg" or not panels or not all(t.startswith("step %d:" % (i + 1)) for i, t in enumerate(texts)):
    print("FAIL: [%s --svg] not one titled panel per step" % sys.argv[2])
    sys.exit(1)
PY
done
# The broadcast command still draws with the same (shared) code.
rm -f "$work"/*
"$bin" schedule --net torus:8x8 --algo dcf --svg "$work/b.svg" --quiet >/dev/null \
  && python3 -c "import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])" "$work/b.svg" \
  || { echo "FAIL: schedule --svg"; fail=1; }

# --json holds the schedule: every unicast re-verified from the file alone (gossip_schedule_check.py);
# Approach 1 and Approach 1-1 deliver every chunk exactly once, the others as many repeats as reported.
for args in "--net ring:9 --algo approach1|--exactly-once --steps 4" "--net torus:9x9 --algo approach1-1|--exactly-once --steps 8" \
            "--net torus:9x9 --algo torgos --a 3 --b 1|--steps 5" "--net torus:8x8 --algo approach1-1-bw|--exactly-once --steps 8" \
            "--net torus:3x3x3 --algo cubgos --a 3 --b 1|--steps 3"; do
  rm -f "$work"/*
  # shellcheck disable=SC2086
  "$bin" gossip ${args%%|*} --r 2 --check --json "$work/s.json" >/dev/null \
    && python3 "$here/gossip_schedule_check.py" "$work/s.json" ${args#*|} >/dev/null \
    || { echo "FAIL: [${args%%|*}] schedule in --json does not re-verify"; fail=1; }
done

# Without --simulate the command is the host tool's: exit 0 and its JSON.
rm -f "$work"/*
"$bin" gossip --net ring:27 --algo circgos --a 3 --b 2 --r 10 --check --json "$work/plain.json" >/dev/null
rc=$?
if [ $rc -ne 0 ] || [ ! -s "$work/plain.json" ]; then echo "FAIL: plain gossip exited $rc or wrote nothing"; fail=1; fi

fi

[ $fail -eq 0 ] && echo "OK: wormcast gossip ($section)"
exit $fail
