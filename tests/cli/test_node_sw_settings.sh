#!/usr/bin/env bash
# Node-software commands on settings beyond their defaults: the analytic router contract and the
# step model of a node program include the injection and ejection channel delays (Di, De), so a
# contention-free run equals them with those delays set; a --config file's router.vcs_per_class
# and nic.max_packet stand above the broadcast and gossip commands' own defaults; a run whose
# analytic time passes 50 million cycles is given room for it (no timeout); `ibt bcast` runs a
# 1-D line broadcast with the default --dim2; a node number with a leading zero is refused; a
# schedule check too large to run is refused before its estimate costs more than the limit; the
# least buffer depth at which a contention-free run equals the analytic router model is the credit
# round trip docs/router.md section 7 gives (random draws of the seven delays), and below it the
# commands say so; gossip --simulate names a --set nic.ts as its t_s; ibt bcast
# --staged takes k = 1, and --simulate refuses another ibt.routing and a bypass of n/2 by name;
# a broadcast on an ibt network is timed by the analytic router model over the ibt routes; ibt
# bcast's numbers too large for their type name their range, --staged is refused off rect.
# Usage: test_node_sw_settings.sh WORMCAST
set -uo pipefail
bin=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
fail=0
py() { /usr/bin/python3 -c "$@"; }

"$bin" broadcast --net torus:8x8 --algo dcf --len 8 --ts 3 --tr 2 --set router.injection_delay=2 \
  --set router.ejection_delay=3 --json b.json >/dev/null 2>err.txt
rc=$?
py 'import json,sys; d=json.load(open("b.json"))
sys.exit(0 if d["measured_latency"] == d["analytic_latency"] == 82 and d["blocked_cycles"] == 0 and d["status"] == "ok" else 1)' \
  && [ $rc -eq 0 ] || { echo "FAIL: broadcast with Di = 2, De = 3: exit $rc, $(cat err.txt) $(head -c 300 b.json)"; fail=1; }

"$bin" gossip --net torus:5x5 --algo approach1-1 --r 1 --len 10 --simulate --quiet --set router.injection_delay=2 \
  --json g.json >/dev/null 2>err.txt
rc=$?
py 'import json,sys; s=json.load(open("g.json"))["simulation"]
sys.exit(0 if s["measured_cycles"] == s["program_model_cycles"] == s["analytic_cycles"] == 236 and s["blocked_cycles"] == 0 else 1)' \
  && [ $rc -eq 0 ] || { echo "FAIL: gossip with Di = 2: exit $rc, $(cat err.txt)"; fail=1; }

printf 'router:\n  vcs_per_class: 1\nnic:\n  max_packet: 8\n  ts: 3\n' >c1.yaml
"$bin" broadcast --net torus:4x4 --algo dcf --len 8 --config c1.yaml --json c.json >/dev/null 2>err.txt
rc=$?
py 'import json,sys; c=json.load(open("c.json"))["config"]
sys.exit(0 if c["router"]["vcs_per_class"] == 1 and c["nic"]["max_packet"] == 8 and c["nic"]["ts"] == 3 else 1)' \
  && [ $rc -eq 0 ] || { echo "FAIL: broadcast --config values: exit $rc, $(cat err.txt)"; fail=1; }
"$bin" broadcast --net torus:4x4 --algo dcf --len 16 --config c1.yaml --json c16.json >/dev/null 2>err.txt
rc=$?
[ $rc -eq 2 ] && grep -q "at most nic.max_packet = 8" err.txt && [ ! -e c16.json ] \
  || { echo "FAIL: --len above the --config file's nic.max_packet: exit $rc, $(cat err.txt)"; fail=1; }
printf 'router:\n  vcs_per_class: 1\n' >v1.yaml
"$bin" gossip --net torus:5x5 --algo approach1-1 --r 1 --len 10 --simulate --quiet --config v1.yaml --json gv.json \
  >/dev/null 2>err.txt
rc=$?
py 'import json,sys; sys.exit(0 if json.load(open("gv.json"))["config"]["router"]["vcs_per_class"] == 1 else 1)' \
  && [ $rc -eq 0 ] || { echo "FAIL: gossip --config router.vcs_per_class: exit $rc, $(cat err.txt)"; fail=1; }
"$bin" broadcast --net torus:4x4 --len 4097 2>err.txt
rc=$?
[ $rc -eq 2 ] && grep -q "1..4096" err.txt || { echo "FAIL: broadcast --len 4097: exit $rc, $(cat err.txt)"; fail=1; }
# A network of a family the node programs do not run on is refused under what named it (not under
# a key the command sets itself); gossip refuses a --set of its --net's family as a conflict.
for args in "--net mway:4x4" "--set net.family=mway" "--config $(dirname "$0")/../../configs/mway_cube_9.yaml"; do
  # shellcheck disable=SC2086
  "$bin" broadcast --algo sequential $args --json m.json >/dev/null 2>err.txt
  rc=$?
  first=${args%% *}
  [ $rc -eq 2 ] && [ "$(wc -l <err.txt)" -eq 1 ] && grep -q "mway family; allowed: a network of the torus or ibt" err.txt \
    && grep -q -e "${first#--}" err.txt && ! grep -q "vcs_per_class" err.txt && [ ! -e m.json ] \
    || { echo "FAIL: broadcast $args: exit $rc, $(cat err.txt)"; fail=1; }
done
# A schedule of more steps than a node program can tag (65,535): refused naming --algo and --net.
"$bin" broadcast --net torus:257x256 --algo sequential --len 1 --json big.json 2>err.txt
rc=$?
[ $rc -eq 2 ] && [ "$(wc -l <err.txt)" -eq 1 ] && grep -q "takes 65791 steps; allowed: at most 65535" err.txt \
  && [ ! -e big.json ] || { echo "FAIL: broadcast sequential on 65,792 nodes: exit $rc, $(cat err.txt)"; fail=1; }
# An empty node.cpu_cpi is an empty value, refused as every key's.
"$bin" broadcast --net torus:4x4 --len 8 --set node.cpu_cpi= 2>err.txt
rc=$?
[ $rc -eq 2 ] && grep -q "node.cpu_cpi = '' is invalid" err.txt \
  || { echo "FAIL: an empty node.cpu_cpi: exit $rc, $(cat err.txt)"; fail=1; }
"$bin" gossip --net ring:5 --algo approach1 --simulate --set net.family=mway 2>err.txt
rc=$?
[ $rc -eq 2 ] && grep -q "net.family=mway conflicts with net.family = 'torus'" err.txt \
  || { echo "FAIL: gossip --simulate --set net.family=mway: exit $rc, $(cat err.txt)"; fail=1; }

# 55 sends of t_s = 10^6 one after the other: 56 million cycles, past the old fixed limit.
"$bin" broadcast --net torus:7x8 --algo sequential --len 1 --ts 1000000 --tr 1000000 --json long.json >/dev/null 2>err.txt
rc=$?
py 'import json,sys; d=json.load(open("long.json"))
sys.exit(0 if d["status"] == "ok" and d["measured_latency"] == d["analytic_latency"] > 50000000 else 1)' \
  && [ $rc -eq 0 ] || { echo "FAIL: a broadcast longer than 50 million cycles: exit $rc, $(cat err.txt)"; fail=1; }

"$bin" ibt bcast --net torus:9 --algo line -k 4 >line.txt 2>err.txt
rc=$?
[ $rc -eq 0 ] && grep -q "T = 6" line.txt || { echo "FAIL: ibt bcast on a 1-D torus: exit $rc, $(cat err.txt)"; fail=1; }
"$bin" ibt bcast --net torus:8x8 --algo line -k 4 --source 010 2>err.txt
rc=$?
[ $rc -eq 2 ] && grep -q -- "--source" err.txt || { echo "FAIL: ibt --source 010: exit $rc"; fail=1; }
"$bin" schedule --net torus:4x4 --algo dcf --source 01,003 2>err.txt
rc=$?
[ $rc -eq 2 ] && grep -q -- "--source '01,003' is invalid" err.txt || { echo "FAIL: schedule --source 01,003: exit $rc"; fail=1; }

# A check whose unicasts cross too many channels is refused from their hop counts, at once.
"$bin" schedule --net torus:1024x1024 --algo sequential --check --quiet --json chk.json 2>err.txt
rc=$?
[ $rc -eq 2 ] && grep -q "channels in all; allowed: at most" err.txt && [ ! -e chk.json ] \
  || { echo "FAIL: schedule --check on 1024x1024 sequential: exit $rc, $(cat err.txt)"; fail=1; }

# --r chooses the schedule, a --set of nic.ts the simulated t_s: the printed line says which.
out=$("$bin" gossip --net ring:8 --algo approach1 --simulate --quiet --r 5 --set nic.ts=2000 2>&1); rc=$?
[ $rc -eq 0 ] && printf '%s' "$out" | grep -q "t_s = nic.ts = 2000 cycles" || { echo "FAIL: gossip --r 5 --set nic.ts=2000: exit $rc: $out"; fail=1; }
out=$("$bin" ibt bcast --net ibt:12x12 --bypass 4 --algo rect --staged -k 1 2>&1); rc=$?
[ $rc -eq 0 ] && printf '%s' "$out" | grep -q "rect k=1 source 0: T = 6" || { echo "FAIL: ibt rect --staged -k 1: exit $rc: $out"; fail=1; }
out=$("$bin" ibt bcast --net ibt:16x16 --simulate --set ibt.routing=dor 2>&1); rc=$?
[ $rc -eq 2 ] && printf '%s' "$out" | grep -q "ibt.routing=dor conflicts with ibt.routing = 'bypass'" || { echo "FAIL: ibt --simulate with dor: exit $rc: $out"; fail=1; }
out=$("$bin" ibt bcast --net ibt:8x8 --bypass 4 --allow-half --algo global -k 4 --simulate 2>&1); rc=$?
[ $rc -eq 2 ] && printf '%s' "$out" | grep -q -- "--bypass: b_j = 4 = n/2 is invalid with --simulate" || { echo "FAIL: ibt --simulate with n/2: exit $rc: $out"; fail=1; }
# A bypass of length 1 runs beside the torus link: the step simulator counts two links, the cycle
# network's routing one (the run was 10.8 cycles per step where the model says at most L + 2 = 6).
out=$("$bin" ibt bcast --net ibt:8 --bypass 1 --algo line -k 6 --simulate --len 4 2>&1); rc=$?
[ $rc -eq 2 ] && [ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] && printf '%s' "$out" | grep -q -- "--bypass: b_j = 1 is invalid with --simulate" \
  || { echo "FAIL: ibt --simulate with b = 1: exit $rc: $out"; fail=1; }
"$bin" ibt bcast --net ibt:8 --bypass 1 --algo line -k 6 >/dev/null 2>&1 || { echo "FAIL: ibt b = 1 without --simulate refused"; fail=1; }
for routing in bypass shortest; do
  "$bin" broadcast --net ibt:12x12 --algo rd --set ibt.routing=$routing --json ib.json >ib.txt 2>&1
  rc=$?
  py 'import json,sys; d=json.load(open("ib.json"))
sys.exit(0 if d["measured_latency"] == d["analytic_latency"] and d["blocked_cycles"] == 0 and d["analytic_overlapping_pairs"] is None else 1)' \
    && [ $rc -eq 0 ] && grep -q "rd broadcast on ibt:12x12" ib.txt || { echo "FAIL: broadcast on ibt:12x12 ($routing): exit $rc, $(cat ib.txt)"; fail=1; }
done

for bad in "-k 99999999999999|--packets: '99999999999999' is invalid; allowed: a decimal integer 1..64" \
           "--algo rect --split-range 1000000000000|--split-range: '1000000000000' is invalid; allowed: a decimal integer 0..64" \
           "--algo line --staged|--staged: only with --algo rect" \
           "--algo line --split-range 8|--split-range: only with --algo rect" \
           "--algo line --global-split 3|--global-split: only with --algo global" \
           "--algo line --dim2 0|--dim2: only with --algo rect or trees" \
           "--algo rect --dim 1 --dim2 1|--dim2: must be in 0..1 and differ from --dim"; do
  # shellcheck disable=SC2086
  out=$("$bin" ibt bcast --net ibt:12x12 --bypass 4 ${bad%%|*} 2>&1); rc=$?
  [ $rc -eq 2 ] && [ "$(printf '%s\n' "$out" | wc -l)" = 1 ] && printf '%s' "$out" | grep -q -- "${bad#*|}" \
    || { echo "FAIL: ibt bcast ${bad%%|*}: exit $rc: $out"; fail=1; }
done

# rect and trees take --dim2 1 when it is not given, 0 with --dim 1 (the fixed default 1 collided
# with it); trees reads no --pn.
for algo in rect trees; do
  net=ibt:12x12; extra="--bypass 4"; [ $algo = trees ] && net=torus:8x8 && extra=
  # shellcheck disable=SC2086
  out=$("$bin" ibt bcast --net $net $extra --algo $algo --dim 1 -k 2 2>&1); rc=$?
  [ $rc -eq 0 ] || { echo "FAIL: ibt bcast --algo $algo --dim 1 without --dim2: exit $rc: $out"; fail=1; }
done
out=$("$bin" ibt bcast --net torus:8x8 --algo trees --pn 3 2>&1); rc=$?
[ $rc -eq 2 ] && printf '%s' "$out" | grep -q -- "--pn: only with --algo line, rect or global" \
  || { echo "FAIL: ibt bcast --algo trees --pn 3: exit $rc: $out"; fail=1; }

# Back-to-back messages and VC reuse under router.vc_realloc = empty: with V VCs per class,
# (V - 1) L >= R + Ld + Cd keeps a sequential broadcast at the analytic time; one flit less is
# later and noted (analytic_vc_limited).
/usr/bin/python3 - "$bin" <<'PY' || { echo "FAIL: VC reuse of back-to-back messages"; fail=1; }
import json, random, subprocess, sys
random.seed(8)
bad = 0
for _ in range(4):
    v, r, ld, cd = random.choice([2, 3]), random.randint(1, 3), random.randint(0, 3), random.randint(0, 2)
    need = -(-(r + ld + cd) // (v - 1))
    for length in (need, need - 1):
        if length < 1:
            continue
        cmd = [sys.argv[1], "broadcast", "--net", "torus:4x4", "--algo", "sequential", "--len", str(length),
               "--json", "v.json", "--set", f"router.vcs_per_class={v}", "--set", f"router.router_delay={r}",
               "--set", f"router.link_delay={ld}", "--set", f"router.credit_delay={cd}", "--set", "router.buffer_depth=32"]
        p = subprocess.run(cmd, capture_output=True, text=True)
        j = json.load(open("v.json"))
        limited = length < need
        ok = (p.returncode == 0 and j["analytic_vc_limited"] == limited
              and ("waits for a free VC" in p.stdout) == limited
              and ((j["measured_latency"] > j["analytic_latency"]) if limited else (j["measured_latency"] == j["analytic_latency"])))
        if not ok:
            print(v, r, ld, cd, length, j["measured_latency"], j["analytic_latency"], p.stdout)
            bad += 1
sys.exit(1 if bad else 0)
PY

out=$("$bin" broadcast --net torus:4x4x4x4x4 --algo rd 2>&1); rc=$?
[ $rc -eq 2 ] && printf '%s' "$out" | grep -q -- "--net = 'torus:4x4x4x4x4' is invalid: config: net.radix has 5 dimensions" \
  || { echo "FAIL: broadcast on a 5-D network: exit $rc: $out"; fail=1; }

[ $fail -eq 0 ] && echo "node software settings: ok"
# The streaming depth: at B = max(R + Ld + Cd + 1, R + Di + Cdi + 1, Cde + Cd + 1) a sequential
# broadcast of 40-flit messages equals the analytic router model, one flit less is later and noted.
/usr/bin/python3 - "$bin" <<'PY' || { echo "FAIL: the streaming depth"; fail=1; }
import json, random, subprocess, sys
random.seed(11)
keys = ("router_delay", "link_delay", "credit_delay", "injection_credit_delay", "injection_delay",
        "ejection_credit_delay", "ejection_delay")
bad = 0
for _ in range(5):
    v = dict(zip(keys, (random.randint(1, 3),) + tuple(random.randint(0, 3) for _ in keys[1:])))
    need = max(v["router_delay"] + v["link_delay"] + v["credit_delay"] + 1,
               v["router_delay"] + v["injection_delay"] + v["injection_credit_delay"] + 1,
               v["ejection_credit_delay"] + v["credit_delay"] + 1)
    for b in (need, need - 1):
        if b < 2:
            continue
        cmd = [sys.argv[1], "broadcast", "--net", "torus:4x4", "--algo", "sequential", "--len", "40", "--json", "s.json",
               "--set", f"router.buffer_depth={b}"] + [x for k in keys for x in ("--set", f"router.{k}={v[k]}")]
        p = subprocess.run(cmd, capture_output=True, text=True)
        j = json.load(open("s.json"))
        noted = "is below the credit round trip of these delays" in p.stdout
        ok = (p.returncode == 0 and j["streaming_depth"] == need and j["analytic_credit_limited"] == (b < need) == noted
              and ((j["measured_latency"] == j["analytic_latency"]) if b == need else (j["measured_latency"] > j["analytic_latency"])))
        if not ok:
            print(v, "B", b, "need", need, j["measured_latency"], j["analytic_latency"], p.stdout)
            bad += 1
sys.exit(1 if bad else 0)
PY

exit $fail
