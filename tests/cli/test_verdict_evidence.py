#!/usr/bin/python3
"""The verdict's minimum evidence and its growing-backlog rule on whole runs (docs/statistics.md):
- short cold starts far below saturation (no warm-up, 20 measured cycles; seeds 1-5, the
  booksim-iq preset, an iBT with bypass, 84 + 26 cycles): batches shorter than the network's
  zero-load crossing are undecided, exit 0, never unstable;
- a 4x4 torus with 2-flit buffers at 0.6 (beyond saturation), seeds 1-20: every seed exits 5
  (a growth wholly above the tolerance while delivering less than offered is unstable, whatever
  the settling test says);
- far beyond saturation with too few deliveries per batch (m-way, 512-flit broadcasts): a
  shortfall of deliveries beyond the counts' noise is unstable (exit 5), and the verdict line
  names the outcome that stands when the run did not drain;
- no load offered (rate 0): stable, with no accepted-over-offered ratio; no load offered in the
  judged span while earlier packets still drain through it (a 4096-flit message from the warm-up,
  a trace's overload in the discarded start): undecided, never stable."""
import json, os, subprocess, sys, tempfile

WC = os.path.join(os.environ["WORMCAST_BUILD"], "tb", "wormcast")
fail = []


def run(args):
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "r.json")
        p = subprocess.run([WC, "traffic"] + args + ["--set", "sim.progress=off", "--json", path],
                           capture_output=True, text=True)
        j = json.load(open(path)) if os.path.exists(path) else {}
    return p, j


SHORT = [["--warmup", "0", "--measure", "20", "--set", f"sim.seed={s}"] for s in range(1, 6)] + [
    ["--net", "torus:4x4", "--set", "router.preset=booksim-iq", "--warmup", "0", "--measure", "20"],
    ["--net", "ibt:8x8", "--set", "ibt.bypass=2", "--set", "traffic.pattern=uniform-all", "--warmup", "0",
     "--measure", "20"],
    ["--warmup", "84", "--measure", "26"],
]
for args in SHORT:
    p, j = run(args)
    v = j.get("stability", {})
    if p.returncode != 0 or v.get("verdict") != "undecided" or \
            not any("zero-load crossing" in r for r in v.get("reasons", [])):
        fail.append(f"{' '.join(args)}: exit {p.returncode}, verdict {v.get('verdict')}, {v.get('reasons')}")

for seed in range(1, 21):
    p, j = run(["--net", "torus:4x4", "--rate", "0.6", "--set", "router.buffer_depth=2", "--set", f"sim.seed={seed}"])
    if p.returncode != 5 or j.get("stability", {}).get("verdict") != "unstable":
        fail.append(f"4x4 B=2 0.6 seed {seed}: exit {p.returncode}, {j.get('stability', {}).get('reasons')}")

# Far beyond saturation with too few deliveries per batch for the trend test (m-way 3x3, 512-flit
# broadcasts at 0.6: about 13 % of the offered packets delivered): unstable, exit 5, not undecided;
# with a drain limit it does not reach, the verdict line names the outcome that stands.
with tempfile.TemporaryDirectory() as d:
    path = os.path.join(d, "m.json")
    p = subprocess.run([WC, "mway", "--net", "mesh:3x3", "--len", "512", "--rate", "0.6", "--set", "sim.progress=off",
                        "--json", path], capture_output=True, text=True)
    v = json.load(open(path)).get("stability", {}) if os.path.exists(path) else {}
    if p.returncode != 5 or v.get("verdict") != "unstable" or \
            not any("packets offered over the judged span" in r for r in v.get("reasons", [])):
        fail.append(f"m-way 3x3 L=512 at 0.6: exit {p.returncode}, {v.get('verdict')}, {v.get('reasons')}")
    p = subprocess.run([WC, "mway", "--net", "mesh:3x3", "--len", "64", "--rate", "0.3", "--warmup", "200", "--measure",
                        "600", "--set", "sim.drain=100", "--set", "sim.progress=off"], capture_output=True, text=True)
    lines = (p.stdout + p.stderr).splitlines()
    verdict_line = next((l for l in lines if l.startswith("verdict: ")), "")
    if p.returncode != 5 or not verdict_line.startswith("verdict: unstable: did not drain") or \
            not any(l.startswith("undecided: window too short") for l in lines):
        fail.append(f"m-way 3x3 not drained: exit {p.returncode}, verdict line '{verdict_line}'")
    # `config --check` refuses what the run would: an m-way pattern with a fixed point.
    p = subprocess.run([WC, "config", "--check", "--set", "net.family=mway", "--set", "traffic.pattern=bitrev"],
                       capture_output=True, text=True)
    if p.returncode != 2 or "address itself" not in p.stderr:
        fail.append(f"config --check of an m-way bitrev pattern: exit {p.returncode}, {p.stderr.strip()}")

# No load offered: nothing can grow, no evidence is needed; stable once settled, ratio null.
p, j = run(["--net", "torus:4x4", "--rate", "0", "--measure", "5000"])
v = j.get("stability", {})
if p.returncode != 0 or v.get("verdict") != "stable" or v.get("accepted_over_offered", 0) is not None or \
        "no load offered in the judged span" not in p.stdout + p.stderr:
    fail.append(f"rate 0: exit {p.returncode}, {v.get('verdict')}, {v.get('accepted_over_offered', 'missing')}")

# No load offered in the judged span, but packets offered before it still owed through it: the
# drain decides nothing (undecided), however settled the series looks.
with tempfile.TemporaryDirectory() as d:
    trace = os.path.join(d, "heavy.csv")
    with open(trace, "w") as f:
        f.write("cycle,src,dst,len\n" + "".join(f"{c},{s},{(s + 1) % 16},5\n" for c in range(100) for s in range(16)))
    for args in (["--net", "torus:4x4", "--warmup", "50", "--measure", "300", "--len", "4096", "--rate", "1"],
                 ["--net", "torus:4x4", "--warmup", "0", "--measure", "200", "--set", f"traffic.trace={trace}"]):
        p, j = run(args)
        v = j.get("stability", {})
        if p.returncode != 0 or v.get("verdict") != "undecided" or \
                not any("still owed" in r for r in v.get("reasons", [])):
            fail.append(f"{' '.join(args)}: exit {p.returncode}, verdict {v.get('verdict')}, {v.get('reasons')}")

for f in fail:
    print("FAIL:", f)
print("ok" if not fail else f"{len(fail)} failures")
sys.exit(1 if fail else 0)
