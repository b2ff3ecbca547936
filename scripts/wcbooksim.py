#!/usr/bin/python3
"""BookSim2, run from the scripts that compare with it (scripts/booksim_compare: saturation and
latency; scripts/bench --booksim: speed): its configuration (configs/booksim_torus.cfg plus
per-run overrides), how to build it, one run and what its output says.

BookSim2 is not part of wormcast. Build it from its public source (BSD licence):
    git clone https://github.com/booksim/booksim2 && make -C booksim2/src
(needs g++, make, flex and bison), then pass its booksim2/src/booksim executable."""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import wcargs  # noqa: E402

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BOOKSIM_CFG = os.path.join(TOP, "configs", "booksim_torus.cfg")
BUILD = ("build BookSim2 from its public source with 'git clone https://github.com/booksim/booksim2 && "
         "make -C booksim2/src' (needs g++, make, flex, bison) and pass --booksim booksim2/src/booksim")
PACKET = 5
VCS_PER_CLASS = 2
BUFFER = 8


def require(script, exe):
    """The --booksim executable, or one line naming what is missing and exit 2."""
    if not exe:
        print(f"{script}: --booksim PATH is required: {BUILD}", file=sys.stderr)
        sys.exit(2)
    if not (os.path.isfile(exe) and os.access(exe, os.X_OK)):
        print(f"{script}: --booksim {exe} is not an executable file; {BUILD}", file=sys.stderr)
        sys.exit(2)
    return exe


def args(script, net, rate, seed, period, vcs_per_class=VCS_PER_CLASS, buffer=BUFFER, packet=PACKET,
         topology="torus"):
    """BookSim2's command-line overrides of the base configuration for NET (e.g. 8x8) of `topology`
    (torus or mesh): vcs_per_class VCs per dateline class on a torus (BookSim2 splits num_vcs into
    its two classes; a mesh has one class), buffer-flit VC buffers, packet-flit packets, 3 x period
    warm-up and 3 x period measured cycles (its convergence tests are off in the base
    configuration). The base configuration's routing_function dim_order selects BookSim2's
    dim_order_torus or dim_order_mesh by the topology."""
    k = net.split("x")
    if len(set(k)) != 1:
        sys.exit(f"{script}: BookSim2's {topology} has one radix per network; '{net}' has several")
    if topology not in ("torus", "mesh"):
        sys.exit(f"{script}: BookSim2 runs here on a torus or a mesh, not '{topology}'")
    over = [f"k={k[0]}", f"n={len(k)}", f"num_vcs={(2 if topology == 'torus' else 1) * vcs_per_class}",
            f"vc_buf_size={buffer}", f"packet_size={packet}", f"injection_rate={rate}", f"sample_period={period}",
            f"seed={seed}"]
    return over if topology == "torus" else ["topology=mesh"] + over


def command(script, exe, net, rate, seed, period, **shape):
    return [exe, BOOKSIM_CFG] + args(script, net, rate, seed, period, **shape)


def parse(script, cmd, out, err=""):
    """What a finished BookSim2 run printed: drained (False when it aborted at its latency
    threshold), mean packet latency, accepted flit rate, cycles simulated. BookSim2 exits with a
    nonzero status even on success, so its output is what says how the run ended."""
    cycles = re.search(r"Time taken is ([0-9]+) cycles", out)
    if "Simulation unstable" in out:
        return {"drained": False, "latency": None, "accepted": None, "cycles": int(cycles.group(1)) if cycles else None}
    tail = out.split("====== Overall Traffic Statistics ======")
    if len(tail) < 2:
        sys.exit(f"{script}: {' '.join(cmd)} gave no overall statistics: {(err or out)[-300:].strip()}")
    lat = re.search(r"Packet latency average = ([0-9.eE+-]+)", tail[1])
    acc = re.search(r"Accepted flit rate average = ([0-9.eE+-]+)", tail[1])
    if not lat or not acc or not cycles:
        sys.exit(f"{script}: cannot read BookSim2's latency, accepted rate and cycles from {' '.join(cmd)}")
    return {"drained": True, "latency": float(lat.group(1)), "accepted": float(acc.group(1)),
            "cycles": int(cycles.group(1))}


def run(script, exe, net, rate, seed, period, **shape):
    cmd = command(script, exe, net, rate, seed, period, **shape)
    # A child the script knows of: the signal that stops the script stops it too (scripts/wcargs.py).
    p = wcargs.run_child(cmd, capture_output=True, text=True, errors="replace")
    return parse(script, cmd, p.stdout, p.stderr)
