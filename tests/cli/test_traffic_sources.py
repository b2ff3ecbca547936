#!/usr/bin/python3
"""The traffic sources on settings beyond the defaults: a trace message at or after the cycle the
sources stop (sim.warmup + sim.measure) is refused (exit 2, one line, no result file), never
dropped, and so is a number that is not a plain decimal; a traced message between nodes half a ring apart takes the direction traffic.tie gives
(plus: every one; balanced: alternating; random: both); the on/off process offers its configured
load from the first cycle (each source starts in the chain's stationary state), with bursts far
longer than the window too."""
import csv
import json
import os
import subprocess
import sys
import tempfile
from collections import Counter

BUILD = os.environ["WORMCAST_BUILD"]
WC = os.path.join(BUILD, "tb", "wormcast")
fail = []


def run(args):
    return subprocess.run([WC, "traffic", "--set", "sim.progress=off"] + args, capture_output=True, text=True)


with tempfile.TemporaryDirectory() as tmp:
    # A trace longer than the run: refused, naming the message's cycle and the limit.
    trace = os.path.join(tmp, "late.csv")
    with open(trace, "w") as f:
        f.write("cycle,src,dst,len\n5,0,3,4\n150,1,2,4\n5000,2,3,4\n")
    out = os.path.join(tmp, "late.json")
    p = run(["--net", "torus:4x4", "--warmup", "0", "--measure", "100", "--set", f"traffic.trace={trace}", "--json", out])
    lines = p.stderr.strip().splitlines()
    if p.returncode != 2 or len(lines) != 1 or "a message at cycle 5000" not in lines[0] \
            or "sim.warmup + sim.measure = 100" not in lines[0] or os.path.exists(out):
        fail.append(f"a trace message after the window: exit {p.returncode}, {p.stderr!r}")

    # A trace's numbers are read as the configuration's integers: decimal, without a plus, a
    # leading zero or space, or a signed zero (each was taken once); the line and field are named.
    for bad, field in (("+5,2,3,4", "cycle"), (" 6,2,3,4", "cycle"), ("010,2,3,4", "cycle"), ("-0,2,3,4", "cycle"),
                       ("5,02,3,4", "src"), ("5,2,3,04", "len"), ("5,2,3,+4", "len")):
        trace = os.path.join(tmp, "lax.csv")
        with open(trace, "w") as f:
            f.write(f"cycle,src,dst,len\n1,0,1,2\n{bad}\n")
        out = os.path.join(tmp, "lax.json")
        p = run(["--net", "torus:5x3", "--warmup", "10", "--measure", "100", "--set", f"traffic.trace={trace}",
                 "--json", out])
        lines = p.stderr.strip().splitlines()
        if p.returncode != 2 or len(lines) != 1 or f"line 3: {field} = " not in lines[0] or "is invalid" not in lines[0] or os.path.exists(out):
            fail.append(f"a trace line {bad!r}: exit {p.returncode}, {p.stderr!r}")

    # The header may follow blank lines (it is the first line that is not blank).
    trace = os.path.join(tmp, "blank_first.csv")
    with open(trace, "w") as f:
        f.write("\n\ncycle,src,dst,len\n5,0,3,4\n")
    p = run(["--net", "torus:4x4", "--warmup", "0", "--measure", "100", "--set", f"traffic.trace={trace}"])
    if p.returncode != 0:
        fail.append(f"a trace whose header follows blank lines: exit {p.returncode}, {p.stderr!r}")

    # 40 messages from node 0 to node 4 of an 8-node ring: every one a half-way tie.
    trace = os.path.join(tmp, "tie.csv")
    with open(trace, "w") as f:
        f.write("cycle,src,dst,len\n" + "".join(f"{10 + 20 * i},0,4,4\n" for i in range(40)))
    first = {}
    for tie in ("plus", "random", "balanced"):
        hops = os.path.join(tmp, f"hops_{tie}.csv")
        p = run(["--net", "torus:8", "--warmup", "0", "--measure", "1000", "--set", f"traffic.trace={trace}",
                 "--set", f"traffic.tie={tie}", "--trace", hops])
        if p.returncode != 0:
            fail.append(f"traffic.tie={tie} on a trace: exit {p.returncode}, {p.stderr!r}")
            continue
        # The summary names the trace, not the rate it does not use.
        if " trace tie.csv |" not in p.stdout or " rate " in p.stdout:
            fail.append(f"a trace run's summary: {p.stdout!r}")
        ports = {}
        for r in csv.DictReader(open(hops)):
            if r["head"] == "1" and r["packet"] not in ports and r["out_port"] in ("0", "1"):
                ports[r["packet"]] = r["out_port"]  # the first network hop: 0 plus, 1 minus
        first[tie] = Counter(ports.values())
    if first.get("plus") != Counter({"0": 40}):
        fail.append(f"traffic.tie=plus on a trace: first hops {first.get('plus')}")
    if first.get("balanced") != Counter({"0": 20, "1": 20}):
        fail.append(f"traffic.tie=balanced on a trace: first hops {first.get('balanced')}")
    if not (first.get("random", {}).get("0", 0) > 5 and first.get("random", {}).get("1", 0) > 5):
        fail.append(f"traffic.tie=random on a trace: first hops {first.get('random')}")


def offered(args):
    p = run(args + ["--json", "-"])
    if p.returncode not in (0, 5):
        fail.append(f"{args}: exit {p.returncode}, {p.stderr!r}")
        return 0.0
    return json.loads(p.stdout)["throughput"]["offered"]


# Always on once on (beta = 0): every source on from the first cycle, Bernoulli at the rate.
got = offered(["--net", "torus:4x4", "--rate", "0.3", "--len", "1", "--set", "traffic.process=onoff",
               "--set", "traffic.burst_alpha=0.001", "--set", "traffic.burst_beta=0"])
if abs(got - 0.3) > 0.006:
    fail.append(f"on/off with beta = 0 at 0.3: offered {got}")
# Bursts of 10,000 cycles on average against an 11,000-cycle run: the mean over three seeds near the
# rate (a source's state barely changes in the window; all sources off at first offered 0.065).
mean = sum(offered(["--net", "torus:8x8", "--rate", "0.1", "--seed", str(s), "--set", "traffic.process=onoff",
                    "--set", "traffic.burst_alpha=0.0001", "--set", "traffic.burst_beta=0.0001"])
           for s in (1, 2, 3)) / 3
if not 0.085 < mean < 0.115:
    fail.append(f"on/off with bursts of 10,000 cycles at 0.1: mean offered {mean:.4f} over three seeds")

# Outstanding at the end counts each packet once: two 20-flit packets from node 0 at cycle 590 of a
# 600-cycle run without a drain, the first being injected (in flight), the second queued behind it.
with tempfile.TemporaryDirectory() as tmp:
    q = os.path.join(tmp, "q.csv")
    with open(q, "w") as f:
        f.write("cycle,src,dst,len\n590,0,1,20\n590,0,1,20\n")
    p = run(["--net", "torus:4x4", "--warmup", "100", "--measure", "500", "--set", "sim.drain=0",
             "--set", f"traffic.trace={q}", "--json", "-"])
    pk = json.loads(p.stdout)["packets"] if p.returncode == 5 else {}
    if (pk.get("injected"), pk.get("in_flight_at_end"), pk.get("outstanding_at_end")) != (1, 1, 2):
        fail.append(f"a packet being injected and one queued at the end: exit {p.returncode}, packets {pk}")
    # A key of the drawn traffic given with a trace would be unused: refused, naming it, no file.
    out = os.path.join(tmp, "unused.json")
    for args, key in ((["--rate", "0.3"], "traffic.rate"), (["--pattern", "tornado"], "traffic.pattern"),
                      (["--len", "7"], "traffic.packet_len"), (["--set", "traffic.process=onoff"], "traffic.process")):
        p = run(["--net", "torus:4x4", "--set", f"traffic.trace={q}", "--json", out] + args)
        if p.returncode != 2 or f"{key} = " not in p.stderr or "not used with traffic.trace" not in p.stderr \
                or p.stderr.count("\n") != 1 or os.path.exists(out):
            fail.append(f"{args} with a trace: exit {p.returncode}, {p.stderr!r}")

if fail:
    print("\n".join("FAIL: " + f for f in fail))
    sys.exit(1)
print("PASS: traffic sources")
