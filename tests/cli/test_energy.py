#!/usr/bin/python3
"""The energy model on a hand-counted case (docs/energy.md): two packets on an idle 4x4 mesh with
disjoint routes. Packet A, 4 flits from node 0 = (0,0) to node 2 = (2,0), crosses r_0_0, r_1_0,
r_2_0 (2 hops); packet B, 6 flits from node 15 = (3,3) to node 12 = (0,3), crosses r_3_3, r_2_3,
r_1_3, r_0_3 (3 hops). A packet of L flits over h hops is written into, read out of and switched
through h + 1 routers (L (h + 1) of each), gets h + 1 VC grants, crosses h links (L h link flits)
and delivers L flits: 12 + 24 = 36 writes, reads, crossbar traversals and switch grants, 3 + 4 = 7
VC grants, 8 + 18 = 26 link flits, 10 delivered flits. The router of a 4x4 mesh with all-port NICs
has P = 4 + 4 = 8 ports, one VC per port (no dateline classes on a mesh) of B = 4 flits. The
energies per event are worked out here from the technology tables of docs/energy.md, not read
back from the program. Also: the flit width and the 32 nm table, a bad energy.* value refused
with one line naming the key and its range (exit 2), a bypass link of an iBT charged as b network
links, a window that delivered nothing without an energy per flit (null), and node-program
commands refusing energy.* keys they would not report."""
import json
import math
import os
import subprocess
import sys
import tempfile

BUILD = os.environ["WORMCAST_BUILD"]
WC = os.path.join(BUILD, "tb", "wormcast")
fail = []

# docs/energy.md, technology table dsent-45nm (64-bit flits, pJ).
WRITE = (0.6303, 0.0832, 0.1357)
READ = (0.3396, 0.0935, 0.0733)
XBAR = (0.1729, 0.1775)
ARBITER_8 = 0.3411  # matrix arbiter, 8 requesters
LINK_FJ_PER_BIT_MM = 40.36
LEAK_UW_PER_BIT = 2.407


def check(name, got, want, rel=1e-5):
    if not math.isclose(got, want, rel_tol=rel, abs_tol=1e-9):
        fail.append(f"{name}: {got}, want {want}")


def run(tmp, name, extra):
    trace = os.path.join(tmp, "trace.csv")
    with open(trace, "w") as f:
        f.write("cycle,src,dst,len\n10,0,2,4\n20,15,12,6\n")
    out = os.path.join(tmp, name + ".json")
    p = subprocess.run([WC, "traffic", "--net", "mesh:4x4", "--set", f"traffic.trace={trace}", "--warmup", "0",
                        "--measure", "300", "--set", "sim.progress=off", "--json", out] + extra,
                       capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"FAIL: {name}: exit {p.returncode}: {p.stderr}")
    with open(out) as f:
        return json.load(f)


def hand_case(tmp):
    j = run(tmp, "hand", ["--set", "energy.link_length_mm=1.5", "--set", "energy.clock_period_ns=2"])
    t = j["router_activity"]["totals"]
    for key, want in (("buffer_writes", 36), ("buffer_reads", 36), ("vc_allocations", 7), ("link_traversals", 26),
                      ("ejections", 10)):
        if t[key] != want:
            fail.append(f"router_activity.totals.{key} = {t[key]}, want {want}")
    window, n, p, bits, period = 300, 4, 8, 64, 2.0
    write = WRITE[0] + WRITE[1] * n + WRITE[2] * math.log2(n)  # 1.2345
    read = READ[0] + READ[1] * n + READ[2] * math.log2(n)  # 0.8602
    xbar = XBAR[0] + XBAR[1] * p  # 1.5929
    sa = ARBITER_8  # V = 1: no input-port stage; an 8:1 output-port stage
    va = ARBITER_8  # V = 1: no input stage; P x V = 8 requesters at the output VC
    link = bits * 1.5 * LINK_FJ_PER_BIT_MM * 1e-3  # 3.87456
    leak = LEAK_UW_PER_BIT * period * 1e-3  # pJ per buffer bit per cycle
    buffer_bits = p * 1 * 4 * bits  # 2048 per router
    e = j["energy"]
    if (e["technology"], e["router"]["ports"], e["router"]["vcs"], e["router"]["buffer_bits"]) != ("dsent-45nm", 8, 1, 2048):
        fail.append(f"energy header: {e['technology']} {e['router']}")
    check("clock_period_ns", e["clock_period_ns"], period)
    pe = e["per_event_pj"]
    for key, want in (("buffer_write", write), ("buffer_read", read), ("crossbar", xbar), ("switch_allocation", sa),
                      ("vc_allocation", va), ("link", link), ("leakage_per_bit_cycle", leak)):
        check(f"per_event_pj.{key}", pe[key], want)
    leakage = 16 * buffer_bits * window * leak
    dynamic = 36 * (write + read + xbar + sa) + 7 * va + 26 * link
    total = dynamic + leakage
    et = e["totals"]
    for key, want in (("buffer_write_pj", 36 * write), ("buffer_read_pj", 36 * read), ("crossbar_pj", 36 * xbar),
                      ("switch_allocation_pj", 36 * sa), ("vc_allocation_pj", 7 * va), ("link_pj", 26 * link),
                      ("leakage_pj", leakage), ("dynamic_pj", dynamic), ("total_pj", total),
                      ("pj_per_delivered_flit", total / 10),
                      ("power_w", total * 1e-12 / (window * period * 1e-9))):
        check(f"totals.{key}", et[key], want)
    if et["delivered_flits"] != 10:
        fail.append(f"totals.delivered_flits = {et['delivered_flits']}, want 10")
    # r_0_0 writes, reads and switches A's 4 flits, grants it one VC and sends 4 flits on x+;
    # r_0_3 delivers B's 6 flits and sends none on a link; r_1_1 is idle and only leaks.
    per = e["per_router"]
    r0 = 4 * (write + read + xbar + sa) + va + 4 * link + buffer_bits * window * leak
    if per[0]["router"] != "r_0_0" or per[12]["router"] != "r_0_3" or per[5]["router"] != "r_1_1":
        fail.append("per_router is not in node order")
    check("r_0_0 total_pj", per[0]["total_pj"], r0)
    check("r_0_0 pj_per_delivered_flit", per[0]["pj_per_delivered_flit"], r0 / 10)
    check("r_0_3 link_pj", per[12]["link_pj"], 0.0)
    check("r_0_3 buffer_write_pj", per[12]["buffer_write_pj"], 6 * write)
    check("r_1_1 dynamic_pj", per[5]["dynamic_pj"], 0.0)
    check("r_1_1 leakage_pj", per[5]["leakage_pj"], buffer_bits * window * leak)
    print(f"hand case: {total:.1f} pJ, {total / 10:.2f} pJ per delivered flit")


def width_and_node(tmp):
    j = run(tmp, "w128", ["--set", "energy.flit_bits=128", "--set", "energy.technology=dsent-32nm"])
    e = j["energy"]
    if e["technology"] != "dsent-32nm" or e["router"]["buffer_bits"] != 8 * 4 * 128:
        fail.append(f"32 nm header: {e['technology']} {e['router']}")
    check("clock_period_ns (auto: the command line's clock)", e["clock_period_ns"], 1.0)
    # docs/energy.md, dsent-32nm: write 0.3489 + 0.0460 N + 0.0744 log2 N at 64 bits, twice at 128.
    check("32 nm buffer_write at 128 bits", e["per_event_pj"]["buffer_write"], 2 * (0.3489 + 0.0460 * 4 + 0.0744 * 2))
    check("32 nm link at 128 bits", e["per_event_pj"]["link"], 128 * 32.40e-3)
    check("32 nm leakage_per_bit_cycle", e["per_event_pj"]["leakage_per_bit_cycle"], 2.050e-3)
    if e["outside_fitted_ranges"] != []:
        fail.append(f"128-bit flits, N = 4, P = 8 outside the fitted ranges: {e['outside_fitted_ranges']}")
    # 1024-bit flits and 8 x 64 = 512 buffered flits per port (V = 8 on a mesh: one class) are outside;
    # 8 ports x 8 VCs = 64 requesters of a VC allocation are inside.
    j = run(tmp, "wide", ["--set", "energy.flit_bits=1024", "--vcs", "8", "--buf", "64"])
    out = j["energy"]["outside_fitted_ranges"]
    if len(out) != 2 or "energy.flit_bits = 1024" not in out[0] or "512 buffered flits per port" not in out[1]:
        fail.append(f"1024-bit flits, 512 buffered flits per port: outside_fitted_ranges {out}")


def bypass_links(tmp):
    # One 4-flit packet from node 0 to node 7 of iBT(16^2; <4>) under bypass routing: two bypass hops
    # of b = 4 (0 -> 4 -> 8) and one torus hop (8 -> 7): 12 link flits, 4 (4 + 4 + 1) = 36 link spans.
    trace = os.path.join(tmp, "bypass.csv")
    with open(trace, "w") as f:
        f.write("cycle,src,dst,len\n5,0,7,4\n")
    out = os.path.join(tmp, "bypass.json")
    p = subprocess.run([WC, "traffic", "--net", "ibt:16x16", "--set", "ibt.bypass=4", "--set", "ibt.routing=bypass",
                        "--set", f"traffic.trace={trace}", "--warmup", "0", "--measure", "200", "--json", out],
                       capture_output=True, text=True)
    if p.returncode != 0:
        fail.append(f"ibt bypass run: exit {p.returncode}: {p.stderr}")
        return
    j = json.load(open(out))
    if j["router_activity"]["totals"]["link_traversals"] != 12:
        fail.append(f"ibt link_traversals {j['router_activity']['totals']['link_traversals']}, want 12")
    check("ibt link_pj (bypass links of 4)", j["energy"]["totals"]["link_pj"], 36 * 64 * LINK_FJ_PER_BIT_MM * 1e-3)


def nothing_delivered(tmp):
    out = os.path.join(tmp, "zero.json")
    p = subprocess.run([WC, "traffic", "--net", "torus:4x4", "--rate", "0", "--measure", "100", "--json", out],
                       capture_output=True, text=True)
    t = json.load(open(out))["energy"]["totals"] if p.returncode == 0 else {}
    if p.returncode != 0 or t["delivered_flits"] != 0 or t["pj_per_delivered_flit"] is not None \
            or t["uncounted_routers"] != 0 or not t["leakage_pj"] > 0:
        fail.append(f"a window that delivered nothing: exit {p.returncode}, totals {t}")


def refused():
    for key, value, allowed in (("energy.flit_bits", "4", "8..1024"), ("energy.link_length_mm", "-1", "0..100"),
                                ("energy.technology", "dsent-7nm", "dsent-45nm or dsent-32nm"),
                                ("energy.clock_period_ns", "0", "0.01..1000")):
        p = subprocess.run([WC, "traffic", "--set", f"{key}={value}", "--measure", "10"], capture_output=True, text=True)
        lines = p.stderr.strip().splitlines()
        if p.returncode != 2 or len(lines) != 1 or key not in lines[0] or allowed not in lines[0]:
            fail.append(f"{key}={value}: exit {p.returncode}, stderr {p.stderr!r}")
    p = subprocess.run([WC, "mway", "--net", "mesh:3x3", "--set", "energy.flit_bits=32", "--measure", "10"],
                       capture_output=True, text=True)
    if p.returncode != 2 or "energy.flit_bits" not in p.stderr:
        fail.append(f"m-way with an energy key: exit {p.returncode}, stderr {p.stderr!r}")
    # Node-program runs report no energy: an energy.* key is refused, not ignored.
    for cmd in (["broadcast", "--net", "torus:4x4", "--algo", "rd"], ["ibt", "bcast", "--net", "ibt:16x16", "--simulate"],
                ["gossip", "--net", "ring:8", "--algo", "approach1", "--simulate", "--quiet"]):
        p = subprocess.run([WC] + cmd + ["--set", "energy.flit_bits=32"], capture_output=True, text=True)
        lines = p.stderr.strip().splitlines()
        if p.returncode != 2 or len(lines) != 1 or "energy.flit_bits" not in lines[0]:
            fail.append(f"{cmd[0]} with an energy key: exit {p.returncode}, stderr {p.stderr!r}")


with tempfile.TemporaryDirectory() as tmp:
    hand_case(tmp)
    width_and_node(tmp)
    bypass_links(tmp)
    nothing_delivered(tmp)
refused()
if fail:
    print("\n".join("FAIL: " + f for f in fail))
    sys.exit(1)
print("PASS: energy model")
