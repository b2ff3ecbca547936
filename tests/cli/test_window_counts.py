#!/usr/bin/python3
"""The flit counts of a measurement window against the hop trace, flit by flit: long packets on a
4x4 torus (2 VCs per class) start before the window and end after it, so that the window's edges
cut packets in the middle. Every count the result gives per output VC (vc_utilization), per link
(links.utilization) and per router (link_traversals, ejections) must equal the number of hop-trace
rows of that output in the window's cycles, [warm-up, warm-up + measure). (The router adds a
packet's flits to its output counters when its tail leaves; a count read while a packet is on its
way must include the flits already sent, docs/router.md section 5.7.) The same for the m-way
fabric's channels (links.utilization), whose transfers are counted an edge after their cycle."""
import json
import os
import subprocess
import sys
import tempfile
from collections import Counter

BUILD = os.environ["WORMCAST_BUILD"]
WC = os.path.join(BUILD, "tb", "wormcast")
WARMUP, MEASURE, VCS, NET = 100, 100, 4, 4  # 2 VCs per class x 2 classes; 4 network ports
# (cycle, src, dst, flits): the first three are under way when the window opens, the last two
# when it closes; two cross several routers, one shares a link with another.
PACKETS = [(90, 0, 2, 30), (95, 5, 7, 30), (100, 3, 1, 30), (180, 10, 8, 30), (185, 12, 4, 25), (150, 6, 9, 40)]
fail = []

with tempfile.TemporaryDirectory() as tmp:
    trace = os.path.join(tmp, "t.csv")
    with open(trace, "w") as f:
        f.write("cycle,src,dst,len\n")
        for c, s, d, n in PACKETS:
            f.write(f"{c},{s},{d},{n}\n")
    hops, out = os.path.join(tmp, "hops.csv"), os.path.join(tmp, "w.json")
    subprocess.run([WC, "traffic", "--net", "torus:4x4", "--vcs", "2", "--set", f"traffic.trace={trace}", "--warmup",
                    str(WARMUP), "--measure", str(MEASURE), "--set", "sim.progress=off", "--trace", hops, "--json", out],
                   check=True, stdout=subprocess.DEVNULL)
    j = json.load(open(out))
    rows = [line.split(",") for line in open(hops).read().split("\n")[1:] if line]
    per_vc = Counter()
    for r in rows:
        cycle, router, out_port, vc = int(r[0]), int(r[1]), int(r[3]), int(r[4])
        if WARMUP <= cycle < WARMUP + MEASURE:
            per_vc[(router, out_port, vc)] += 1
    ra = j["router_activity"]
    if ra["window"] != MEASURE:
        fail.append(f"window {ra['window']}, want {MEASURE}")
    util = ra["vc_utilization"]
    cut = 0
    for router, row in enumerate(util):
        ports = len(row) // VCS
        for o in range(ports):
            for w in range(VCS):
                got, want = round(row[o * VCS + w] * MEASURE), per_vc[(router, o, w)]
                if got != want:
                    fail.append(f"router {router} output {o} VC {w}: {got} flits in the window, the trace has {want}")
                cut += 0 < want < MEASURE
        links = j["links"]["utilization"][router * NET:(router + 1) * NET]
        for o in range(NET):
            want = sum(per_vc[(router, o, w)] for w in range(VCS))
            if round(links[o] * MEASURE) != want:
                fail.append(f"link {router}.{o}: {links[o] * MEASURE} flits, the trace has {want}")
        pr = ra["per_router"][router]
        want_link = sum(n for (r, o, _), n in per_vc.items() if r == router and o < NET)
        want_ej = sum(n for (r, o, _), n in per_vc.items() if r == router and o >= NET)
        if pr["link_traversals"] != want_link or pr["ejections"] != want_ej:
            fail.append(f"router {router}: {pr['link_traversals']} link flits and {pr['ejections']} ejections, "
                        f"the trace has {want_link} and {want_ej}")
    # The case is what it claims: some outputs carried a packet's flits on both sides of an edge.
    before = {(int(r[1]), int(r[3]), int(r[4])) for r in rows if int(r[0]) < WARMUP}
    after = {(int(r[1]), int(r[3]), int(r[4])) for r in rows if int(r[0]) >= WARMUP + MEASURE}
    inside = set(per_vc)
    if not (before & inside) or not (after & inside):
        fail.append("no packet is cut by the window's edges: the case tests nothing")
    if sum(per_vc.values()) == 0:
        fail.append("no flit in the window")

# The m-way fabric commits a channel's transfer of cycle t at edge t + 1: its per-channel counts of
# the window must still be those of the transfers in the window's cycles (the trace's rows of a
# transfer carry its cycle; a channel moves at most one flit per cycle, to one or more receivers).
with tempfile.TemporaryDirectory() as tmp:
    hops, out = os.path.join(tmp, "hops.csv"), os.path.join(tmp, "m.json")
    w0, w1 = 201, 238
    subprocess.run([WC, "mway", "--net", "mesh:4x4", "--rate", "0.05", "--warmup", str(w0), "--measure", str(w1 - w0),
                    "--set", "sim.progress=off", "--set", "sim.seed=3", "--trace", hops, "--json", out],
                   check=True, stdout=subprocess.DEVNULL)
    j = json.load(open(out))
    moves = {(int(r[0]), int(r[1])) for r in (line.split(",") for line in open(hops).read().split("\n")[1:] if line)}
    util = j["links"]["utilization"]
    per_ch = Counter(ch for c, ch in moves if w0 <= c < w1)
    if not per_ch:
        fail.append("m-way: no channel transfer in the window")
    for ch, u in enumerate(util):
        if round(u * (w1 - w0)) != per_ch[ch]:
            fail.append(f"m-way channel {ch}: {u * (w1 - w0)} transfers in the window, the trace has {per_ch[ch]}")
    mean = round(sum(per_ch.values()) / (len(util) * (w1 - w0)), 4)
    if j["links"]["mean_utilization"] != mean:
        fail.append(f"m-way mean_utilization {j['links']['mean_utilization']}, the trace gives {mean}")

# The mean utilization is the mean of the links' exact values, rounded once: 27 one-flit messages
# between neighbours of a 3x3 torus (36 links) in 20,000 cycles are 0.0000375, shown 0.0 (the mean
# of the links' rounded values, 27 links of 0.0001, was 0.0001).
with tempfile.TemporaryDirectory() as tmp:
    trace, out = os.path.join(tmp, "n.csv"), os.path.join(tmp, "n.json")
    with open(trace, "w") as f:
        f.write("cycle,src,dst,len\n")
        for i in range(27):
            src = i % 9
            dst = (src // 3) * 3 + (src % 3 + 1) % 3 if i < 9 else ((src // 3 + 1) % 3) * 3 + src % 3 if i < 18 \
                else (src // 3) * 3 + (src % 3 + 2) % 3
            f.write(f"{100 + 20 * i},{src},{dst},1\n")
    subprocess.run([WC, "traffic", "--net", "torus:3x3", "--set", f"traffic.trace={trace}", "--warmup", "10",
                    "--measure", "20000", "--set", "sim.progress=off", "--json", out], check=True, stdout=subprocess.DEVNULL)
    links = json.load(open(out))["links"]
    used = sum(1 for u in links["utilization"] if u > 0)
    if used != 27 or links["mean_utilization"] != 0.0 or links["max_utilization"] != 0.0001:
        fail.append(f"3x3 torus, 27 one-hop flits in 20,000 cycles: {used} links used, mean_utilization "
                    f"{links['mean_utilization']} (want 0.0), max {links['max_utilization']} (want 0.0001)")

if fail:
    print("\n".join(fail))
    sys.exit(1)
print(f"window counts match the hop trace ({sum(per_vc.values())} flit-hops in the window; "
      f"m-way: {sum(per_ch.values())} channel transfers)")
