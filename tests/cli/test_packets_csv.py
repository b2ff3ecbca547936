#!/usr/bin/python3
"""--packets FILE, the per-packet CSV, against the run's own JSON result: from the lines of the
packets created in the measured window, the latency and network latency statistics (count, mean,
p50, p99, max) and the latency by hops come out as the result gives them; every delivered copy has
one line (the scoreboard's count), each with its route's hops. Under Valiant routing the
intermediate node is named and the hops go through it; on the m-way family a region broadcast has
one line per receiving node, without hops; one and two threads write the same bytes; a path that
cannot be written is refused before the run, exit 2, one line, no file left."""
import csv
import json
import math
import os
import subprocess
import sys
import tempfile

BUILD = os.environ["WORMCAST_BUILD"]
WC = os.path.join(BUILD, "tb", "wormcast")
fail = []


def run(tmp, name, args, warmup, measure):
    csv_path, json_path = os.path.join(tmp, name + ".csv"), os.path.join(tmp, name + ".json")
    p = subprocess.run([WC, *args, "--warmup", str(warmup), "--measure", str(measure), "--set", "sim.progress=off",
                        "--packets", csv_path, "--json", json_path], capture_output=True, text=True)
    if p.returncode != 0:
        fail.append(f"{name}: exit {p.returncode}: {p.stderr.strip()[-300:]}")
        return None, None, csv_path
    with open(csv_path) as f:
        rows = list(csv.DictReader(f))
    with open(json_path) as f:
        return rows, json.load(f), csv_path


def pct(xs, q):  # docs/statistics.md: x_i at i = q (n - 1) rounded half up
    return xs[int(math.floor(q * (len(xs) - 1) + 0.5))]


def summary(xs):
    xs = sorted(xs)
    return {"count": len(xs), "mean": round(sum(xs) / len(xs), 3), "p50": pct(xs, 0.5), "p99": pct(xs, 0.99),
            "max": xs[-1]}


def against_result(name, rows, j, warmup, measure):
    if rows is None:
        return
    if len(rows) != j["packets"]["delivered"]:
        fail.append(f"{name}: {len(rows)} lines, the scoreboard delivered {j['packets']['delivered']}")
    measured = [r for r in rows if warmup <= int(r["created"]) < warmup + measure]
    for key, col in (("latency", "latency"), ("network_latency", "network_latency")):
        got = summary([int(r[col]) for r in measured])
        want = {k: j[key][k] for k in got}
        if got != want:
            fail.append(f"{name}: {key} from the lines {got}, the result {want}")
    by_hops = {}
    for r in measured:
        by_hops.setdefault(int(r["hops"]), []).append(int(r["latency"]))
    got = [{"hops": h, "mean": round(sum(v) / len(v), 3), "packets": len(v)} for h, v in sorted(by_hops.items())]
    if got != j["latency_by_hops"]:
        fail.append(f"{name}: latency by hops from the lines {got}, the result {j['latency_by_hops']}")
    for r in rows:
        c, i, a = int(r["created"]), int(r["injected"]), int(r["arrived"])
        if not (c <= i < a and int(r["latency"]) == a - c and int(r["network_latency"]) == a - i):
            fail.append(f"{name}: inconsistent cycles in {r}")
            break


with tempfile.TemporaryDirectory() as tmp:
    # Unicasts on a torus, dimension order; the hops of a 4x4 torus are at most 4.
    rows, j, path = run(tmp, "torus", ["traffic", "--net", "torus:4x4", "--rate", "0.15"], 300, 1500)
    against_result("torus", rows, j, 300, 1500)
    if rows and (any(r["via"] for r in rows) or max(int(r["hops"]) for r in rows) != 4
                 or len({r["packet"] for r in rows}) != len(rows) or any(r["flits"] != "5" for r in rows)):
        fail.append("torus: a via, hops beyond 4 or missing, a packet twice, or a length other than 5")
    # Two threads: the same bytes.
    rows2, _, path2 = run(tmp, "threads", ["traffic", "--net", "torus:4x4", "--rate", "0.15", "--set",
                                           "sim.threads=2"], 300, 1500)
    if rows is not None and rows2 is not None and open(path, "rb").read() != open(path2, "rb").read():
        fail.append("two threads wrote other lines than one")

    # Valiant: every packet names its intermediate node, its hops go through it (more than the
    # minimum on average), and the result's statistics still come out of the lines.
    rows, j, _ = run(tmp, "valiant", ["traffic", "--net", "torus:4x4", "--rate", "0.05", "--vcs", "2", "--set",
                                      "router.routing=valiant"], 300, 1500)
    against_result("valiant", rows, j, 300, 1500)
    if rows and (any(r["via"] == "" for r in rows) or max(int(r["hops"]) for r in rows) <= 4):
        fail.append("valiant: a packet without its intermediate node, or no route longer than the minimum")

    # The m-way family's region broadcasts: a line per receiving node, no hops; every line's packet
    # was sent by its src and each (packet, dst) appears once.
    rows, j, _ = run(tmp, "mway", ["mway", "--net", "mway:4x4", "--rate", "0.01"], 200, 1000)
    if rows is not None:
        if len(rows) != j["packets"]["delivered"]:
            fail.append(f"mway: {len(rows)} lines, the scoreboard delivered {j['packets']['delivered']}")
        pairs = {(r["packet"], r["dst"]) for r in rows}
        fanout = max(sum(1 for r in rows if r["packet"] == p) for p in {r["packet"] for r in rows})
        if len(pairs) != len(rows) or fanout < 2 or any(r["hops"] for r in rows if sum(
                1 for s in rows if s["packet"] == r["packet"]) > 1):
            fail.append(f"mway: a copy twice, no packet received by two nodes (most {fanout}), or hops on a copy")

    # A path that cannot be written: refused before the run, one line, exit 2, nothing written.
    bad = os.path.join(tmp, "no-such-dir", "p.csv")
    js = os.path.join(tmp, "refused.json")
    p = subprocess.run([WC, "traffic", "--net", "torus:4x4", "--rate", "0.1", "--measure", "200", "--packets", bad,
                        "--json", js], capture_output=True, text=True)
    if p.returncode != 2 or len(p.stderr.strip().splitlines()) != 1 or "--packets" not in p.stderr or os.path.exists(js):
        fail.append(f"an unwritable --packets path: exit {p.returncode}, {p.stderr.strip()!r}, json left: "
                    f"{os.path.exists(js)}")

for f in fail:
    print("FAIL:", f)
print("ok" if not fail else f"{len(fail)} failure(s)")
sys.exit(1 if fail else 0)
