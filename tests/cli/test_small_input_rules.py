#!/usr/bin/python3
"""Small input rules of wormcast: a TORGOS request on a network that is not n x n names the shape
before any parameter; an output name of blanks (--json ' ') is refused; a signed zero (-0) is
refused as +0 is; an unknown key's hint reads "(did you mean 'KEY'?)" before "; allowed:".
Usage: test_small_input_rules.py  (WORMCAST_BUILD: the build tree)"""
import os
import subprocess
import sys
import tempfile

WC = os.path.join(os.environ["WORMCAST_BUILD"], "tb", "wormcast")
fail = []


def refused(name, args, words, absent=(), cwd=None):
    d = cwd or tempfile.mkdtemp()
    p = subprocess.run([WC] + args, capture_output=True, text=True, cwd=d)
    err = p.stderr.strip()
    if p.returncode != 2 or len(err.splitlines()) != 1 or any(w not in err for w in words) or \
            any(w in err for w in absent) or os.listdir(d):
        fail.append(f"{name}: exit {p.returncode}, files {os.listdir(d)}, stderr {err!r}")
    else:
        print(f"ok {name}: {err}")


refused("gossip torgos on mesh:14x10", ["gossip", "--net", "mesh:14x10", "--algo", "torgos", "--r", "50"],
        ["--net must be", "mesh:14x10"], ["--a"])
refused("--json ' '", ["traffic", "--measure", "10", "--warmup", "0", "--json", " "], ["--json", "blank"])
refused("sim.seed=-0", ["traffic", "--set", "sim.seed=-0"], ["sim.seed", "'-0'"])
refused("sim.seed=+64", ["traffic", "--set", "sim.seed=+64"], ["sim.seed", "'+64'"])
refused("unknown key hint", ["traffic", "--set", "router.bufer_depth=3"],
        ["(did you mean 'router.buffer_depth'?); allowed:"], ["?;"])
for f in fail:
    print("FAIL:", f)
print("ok" if not fail else f"{len(fail)} failures")
sys.exit(1 if fail else 0)
