#!/usr/bin/python3
"""scripts/mway_figs --quick: every bisection (2 nets x 4 algorithms x 2 header-bid rules, 2 mixes)
lands in sat/, every experiment in its CSV with the columns the figures need, the six figures and
the deadlock map are drawn, and on the 4x4x4 mesh the measured order holds (tree-based MST-safe
and MST-replica below the unicast-based MST-unicast and RD in message latency at the lowest load;
MST-safe saturating above the unicast-based ones, and not lower with Stat bids than with blind
ones); bad input exits 2 with one line."""
import csv, os, subprocess, sys, tempfile

top = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
script = os.path.join(top, "scripts", "mway_figs")
fail = []
# A curve whose saturation is twice the lowest load: its 0.5 fraction is that load, listed once
# (the sweep refuses a point given twice).
import argparse, importlib.machinery, importlib.util  # noqa: E402
sys.path.insert(0, os.path.join(top, "scripts"))
loader = importlib.machinery.SourceFileLoader("mway_figs_module", script)
mf = importlib.util.module_from_spec(importlib.util.spec_from_loader("mway_figs_module", loader))
loader.exec_module(mf)
mf.read_sat = lambda out, name, curve, bid: {"summary": {"last_stable": {"mean": 2 * mf.LOW}}}
loads = mf.curve_loads("cube", argparse.Namespace(quick=False), "unused")
if len(loads) != len(set(loads)) or (mf.exp("cube", argparse.Namespace(quick=False))["curves"][0], mf.LOW) not in loads:
    fail.append(f"curve loads at a saturation of 2 x LOW: {loads}")
with tempfile.TemporaryDirectory() as d:
    out = os.path.join(d, "q")
    p = subprocess.run([script, "--quick", "--out", out, "--jobs", "2"], capture_output=True, text=True)
    if p.returncode != 0:
        fail.append(f"exit {p.returncode}: {p.stdout[-2000:]}{p.stderr[-2000:]}")
    need = {"mesh": ["mway.algo", "traffic.rate", "sim.seed", "status", "stability", "accepted", "link_util_mean", "injection_rate",
                     "message_latency_mean", "latency_mean"],
            "cube": ["mway.algo", "traffic.rate", "status", "accepted", "link_util_mean", "message_latency_mean"],
            "mix": ["traffic.broadcast_fraction", "traffic.rate", "status", "accepted", "injection_rate"],
            "mst": ["traffic.rate", "sim.seed", "status"]}
    rows = {}
    for name, cols in need.items():
        path = os.path.join(out, name, "sweep.csv")
        if not os.path.exists(path):
            fail.append(f"{path} missing")
            continue
        rows[name] = list(csv.DictReader(open(path)))
        missing = [c for c in cols if c not in rows[name][0]]
        if missing:
            fail.append(f"{name}/sweep.csv lacks {missing}")
    for f in ["fig8", "fig9", "fig10", "fig11", "fig12", "fig13", "mst_deadlock"]:
        if not os.path.exists(os.path.join(out, f + ".png")) or os.path.getsize(os.path.join(out, f + ".png")) < 1000:
            fail.append(f"{f}.png not drawn")
    sat = list(csv.DictReader(open(os.path.join(out, "saturation.csv")))) \
        if os.path.exists(os.path.join(out, "saturation.csv")) else []
    for c in ["figure", "curve", "header_bid", "zero_load_message_latency", "last_stable_mean", "last_stable_min",
              "last_stable_max", "ejection_at_last_stable", "curve_traffic", "curve_injection"]:
        if sat and c not in sat[0]:
            fail.append(f"saturation.csv lacks {c}")
    sats = [f for f in os.listdir(os.path.join(out, "sat"))] if os.path.isdir(os.path.join(out, "sat")) else []
    if len(sats) != 16:
        fail.append(f"sat/ holds {len(sats)} bisections, expected 16 (mesh 4 and cube 3 algorithms (RD is the "
                    f"MST-unicast run there) x 2 bid rules + 2 mixes)")
    cube_rd = [t for t in sat if t["curve"].startswith("RD (= MST-unicast")]
    if len(cube_rd) != 2:
        fail.append(f"the hypercube's RD rows (MST-unicast's run) are not in saturation.csv: {len(cube_rd)}")
    by = {(t["net"], t["curve"], t["header_bid"]): t for t in sat}
    mesh = rows.get("mesh", [])
    algos = ["mst-safe", "mst-replica", "mst-unicast", "rd"]
    if {r["mway.algo"] for r in mesh} != set(algos):
        fail.append(f"mesh curves: {sorted({r['mway.algo'] for r in mesh})}")
    low = min((float(r["traffic.rate"]) for r in mesh), default=None)
    lat = {r["mway.algo"]: float(r["message_latency_mean"]) for r in mesh
           if float(r["traffic.rate"]) == low and r["status"] == "ok"}
    if len(lat) != 4 or max(lat["mst-safe"], lat["mst-replica"]) >= min(lat["mst-unicast"], lat["rd"]):
        fail.append(f"at the lowest load {low} the tree-based latency is not below the unicast-based: {lat}")
    # Saturation on the quick mesh (one seed): Stat bids never lower MST-safe's saturation, and the
    # tree-based MST-safe saturates above both unicast-based algorithms.
    try:
        ss = {k[1:]: float(v["last_stable_mean"]) for k, v in by.items() if k[0] == "4x4x4 mesh"}
        if ss[("MST-safe", "stat")] < ss[("MST-safe", "blind")]:
            fail.append(f"MST-safe saturates lower with Stat bids than with blind ones: {ss}")
        if ss[("MST-safe", "stat")] <= max(ss[("MST-unicast", "stat")], ss[("RD", "stat")]):
            fail.append(f"MST-safe does not saturate above the unicast-based algorithms: {ss}")
    except (KeyError, ValueError) as e:
        fail.append(f"saturation.csv lacks a mesh row: {e}")

    p = subprocess.run([script, "--only", "mesh,bogus", "--out", os.path.join(d, "bad")], capture_output=True,
                       text=True)
    if p.returncode != 2 or len(p.stderr.strip().splitlines()) != 1 or os.path.exists(os.path.join(d, "bad")):
        fail.append(f"bad --only: exit {p.returncode}, stderr {p.stderr!r}")
    # --only with an experiment twice, and a --set of a key wormcast does not know or the script
    # sets for each run: one line on stderr naming the option, nothing on stdout, nothing created.
    for args, word in ((["--only", "mesh,mesh"], "--only"), (["--set", "bogus=1", "--only", "mesh"], "--set"),
                       (["--set", "traffic.rate=0.1", "--only", "mesh"], "--set"),
                       (["--set", "sim.measure", "--only", "mesh"], "--set")):
        bad = os.path.join(d, "bad-set")
        p = subprocess.Popen([script, "--out", bad, "--no-doc"] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True)
        try:
            p.stdout, p.stderr = p.communicate(timeout=30)
        except subprocess.TimeoutExpired:  # it runs: stopped (the script stops its runs)
            p.terminate()
            p.stdout, p.stderr = p.communicate()
        if p.returncode != 2 or len(p.stderr.strip().splitlines()) != 1 or not p.stderr.startswith("mway_figs: " + word) \
                or p.stdout or os.path.exists(bad):
            fail.append(f"{args}: exit {p.returncode}, stdout {p.stdout[-300:]!r}, stderr {p.stderr[-300:]!r}, "
                        f"created {os.path.exists(bad)}")
    p = subprocess.run([script, "--jobs", "x"], capture_output=True, text=True)
    if p.returncode != 2:
        fail.append(f"bad --jobs: exit {p.returncode}")
for f in fail:
    print("FAIL:", f)
print("mway_figs: all checks passed" if not fail else f"{len(fail)} failures")
sys.exit(1 if fail else 0)
