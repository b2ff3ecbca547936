#!/usr/bin/python3
"""The verdict's minimum evidence and its growing-backlog rule on whole runs (docs/statistics.md):
- short cold starts far below saturation (no warm-up, 20 measured cycles; seeds 1-5, the
  booksim-iq preset, an iBT with bypass, 84 + 26 cycles): batches shorter than the network's
  zero-load crossing are undecided, exit 0, never unstable;
- a 4x4 torus with 2-flit buffers at 0.6 (beyond saturation), seeds 1-20: every seed exits 5
  (a growth wholly above the tolerance while delivering less than offered is unstable, whatever
  the settling test says)."""
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

for f in fail:
    print("FAIL:", f)
print("ok" if not fail else f"{len(fail)} failures")
sys.exit(1 if fail else 0)
