#!/usr/bin/python3
"""scripts/sweep: every combination of the --vary values runs once and lands in the CSV and JSON;
latency grows with load; each point's stability verdict is in the CSV and saturation.json brackets
the saturation load per curve; a non-numeric x axis (--x) plots; a bad point stops the sweep with
exit 2 before anything is written, as does a --points file with a point or a key twice (or a sim.seed
column with --seeds, named so) and --panel without --plot; a point whose every run deadlocked has no
verdict (none), not undecided; a point whose wormcast exits 2 (a result it cannot write) stops the
sweep with that run's line and exit 2, no merged output left; --emit-jobs / --merge-only split the
run from the merge."""
import csv, json, os, subprocess, sys, tempfile

top = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sweep = os.path.join(top, "scripts", "sweep")
base = ["--set", "net.radix=4x4", "--set", "sim.warmup=500", "--set", "sim.measure=3000", "--jobs", "2"]
fail = []
with tempfile.TemporaryDirectory() as d:
    out = os.path.join(d, "s")
    p = subprocess.run([sweep, "--vary", "traffic.rate=0.05:0.45:0.2", "--vary", "router.vcs_per_class=1,2",
                        "--out", out, "--plot", "--ok-status", "ok,unstable"] + base, capture_output=True, text=True)
    if p.returncode != 0:
        fail.append(f"sweep exited {p.returncode}: {p.stdout}{p.stderr}")
    rows = list(csv.DictReader(open(os.path.join(out, "sweep.csv"))))
    combos = {(r["traffic.rate"], r["router.vcs_per_class"]) for r in rows}
    if len(rows) != 6 or combos != {(r, v) for r in ("0.05", "0.25", "0.45") for v in ("1", "2")}:
        fail.append(f"expected the 6 combinations once each, got {sorted(combos)}")
    for r in rows:
        if r["status"] not in ("ok", "unstable") or \
                r["stability"] not in (("stable", "undecided") if r["status"] == "ok" else ("unstable",)):
            fail.append(f"{r['point']}: status {r['status']}, stability {r['stability']}")
    sat = json.load(open(os.path.join(out, "saturation.json")))
    if len(sat) != 2 or any(b["x"] != "traffic.rate" for b in sat):
        fail.append(f"saturation.json: one bracket per V expected, got {sat}")
    for b in sat:
        v = b["curve"].split("=")[1]
        curve = sorted((r for r in rows if r["router.vcs_per_class"] == v), key=lambda r: float(r["traffic.rate"]))
        first_bad = next((float(r["traffic.rate"]) for r in curve if r["status"] != "ok"), None)
        # (numbers in the JSON, not the CSV's text)
        if b["first_unstable"] != first_bad or not isinstance(b["first_unstable"], (float, type(None))):
            fail.append(f"V={v}: first unstable {b['first_unstable']}, rows say {first_bad}")
        if r["router.vcs_per_class"] == "1" and r["traffic.rate"] == "0.05":
            if abs(float(r["accepted"]) - float(r["offered"])) > 0.05 * float(r["offered"]):
                fail.append(f"low load not accepted in full: {r['accepted']} of {r['offered']}")
    for v in ("1", "2"):
        lat = [float(r["latency_mean"]) for r in sorted(rows, key=lambda r: float(r["traffic.rate"]))
               if r["router.vcs_per_class"] == v]
        if lat != sorted(lat) or lat[0] >= lat[-1]:
            fail.append(f"V={v}: latency does not grow with load: {lat}")
    j = json.load(open(os.path.join(out, "sweep.json")))
    if len(j["points"]) != 6 or j["points"][5]["config"]["router"]["vcs_per_class"] != 2 \
            or j["points"][5]["result"]["config"]["traffic"]["rate"] != 0.45:
        fail.append("sweep.json does not carry each point's configuration and result")
    if not os.path.getsize(os.path.join(out, "sweep.png")) > 1000:
        fail.append("no plot")

    # A non-numeric x axis: the patterns side by side, no crash.
    cat = os.path.join(d, "cat")
    p = subprocess.run([sweep, "--vary", "traffic.rate=0.05,0.1", "--vary", "traffic.pattern=uniform,tornado",
                        "--x", "traffic.pattern", "--out", cat, "--plot", "--ok-status", "ok,unstable"] + base,
                       capture_output=True, text=True)
    if p.returncode != 0 or not os.path.getsize(os.path.join(cat, "sweep.png")) > 1000:
        fail.append(f"--x traffic.pattern: exit {p.returncode}: {p.stderr}")

    # Replications: --seeds 3 runs each point with sim.seed = 1, 2, 3; summary.csv holds the mean
    # over the seeds and its 95 % confidence half-width (t(0.975, 2) = 4.3027 for 2 degrees of freedom).
    rep = os.path.join(d, "rep")
    p = subprocess.run([sweep, "--vary", "traffic.rate=0.05,0.1", "--seeds", "3", "--out", rep, "--ok-status", "ok,unstable"]
                       + base, capture_output=True, text=True)
    runs = list(csv.DictReader(open(os.path.join(rep, "sweep.csv")))) if p.returncode == 0 else []
    summ = list(csv.DictReader(open(os.path.join(rep, "summary.csv")))) if p.returncode == 0 else []
    if p.returncode != 0 or len(runs) != 6 or len(summ) != 2:
        fail.append(f"--seeds: exit {p.returncode}, {len(runs)} runs, {len(summ)} summary rows: {p.stderr}")
    for srow in summ:
        xs = [float(r["latency_mean"]) for r in runs if r["traffic.rate"] == srow["traffic.rate"]]
        m = sum(xs) / 3
        sd = (sum((x - m) ** 2 for x in xs) / 2) ** 0.5
        if srow["runs"] != "3" or abs(float(srow["latency_mean"]) - m) > 1e-5 \
                or abs(float(srow["latency_mean_ci95"]) - 4.302653 * sd / 3 ** 0.5) > 1e-4 or len(set(xs)) < 2:
            fail.append(f"--seeds summary {srow} does not match the runs {xs}")

    # A point where every seed's run deadlocked (4x4 torus without the dateline) has no verdict: none
    # in summary.csv and an unjudged point in saturation.json, not undecided (no run was undecided).
    dl = os.path.join(d, "dl")
    p = subprocess.run([sweep, "--vary", "traffic.rate=0.1,0.6", "--seeds", "2", "--set", "router.dateline=false",
                        "--out", dl] + base, capture_output=True, text=True)
    summ = {r["traffic.rate"]: r for r in csv.DictReader(open(os.path.join(dl, "summary.csv")))}
    b = json.load(open(os.path.join(dl, "saturation.json")))[0]
    if p.returncode != 1 or summ["0.6"]["stability"] != "none" or summ["0.6"]["undecided_runs"] != "0" \
            or summ["0.1"]["stability"] != "stable" or b["unjudged_points"] != [0.6] or b["undecided_points"]:
        fail.append(f"--seeds with every run of a point deadlocked: exit {p.returncode}, {summ.get('0.6')}, {b}")

    # The plot of replications: titled with the seed count, never with one seed's number.
    import importlib.machinery, importlib.util
    loader = importlib.machinery.SourceFileLoader("sweep_mod", sweep)
    mod = importlib.util.module_from_spec(importlib.util.spec_from_loader("sweep_mod", loader))
    loader.exec_module(mod)
    title = mod.plot_title({"net": {"radix": "4x4"}, "sim": {"seed": 1}}, [], ["traffic.rate", "seeds=3"])
    if "seed 1" in title or "mean of 3 seeds" not in title:
        fail.append(f"--seeds plot title: {title!r}")

    # Unstable points are results: by default the sweep exits 0 when every point ran.
    un = os.path.join(d, "un")
    p = subprocess.run([sweep, "--vary", "traffic.rate=0.05,0.9", "--out", un] + base, capture_output=True, text=True)
    st = [r["stability"] for r in csv.DictReader(open(os.path.join(un, "sweep.csv")))] if p.returncode == 0 else []
    if p.returncode != 0 or st[-1:] != ["unstable"]:
        fail.append(f"a sweep with an unstable point: exit {p.returncode}, verdicts {st}")

    # A bad value: exit 2, one line naming the key, nothing written.
    bad = os.path.join(d, "bad")
    p = subprocess.run([sweep, "--vary", "traffic.rate=0.1,1.5", "--out", bad] + base, capture_output=True, text=True)
    if p.returncode != 2 or "traffic.rate" not in p.stderr or len(p.stderr.strip().splitlines()) != 1:
        fail.append(f"bad value: exit {p.returncode}, stderr {p.stderr!r}")
    if os.path.exists(bad):
        fail.append("bad value left an output directory")

    # An input inside DIR that the sweep would replace (its --points file as summary.csv or under
    # points/): refused before any run, the file left as it was.
    inp = os.path.join(d, "inp")
    os.makedirs(os.path.join(inp, "points"))
    for name in ("summary.csv", os.path.join("points", "p0.json")):
        path = os.path.join(inp, name)
        with open(path, "w") as f:
            f.write("traffic.rate\n0.1\n0.2\n")
        p = subprocess.run([sweep, "--points", path, "--out", inp] + base, capture_output=True, text=True)
        if p.returncode != 2 or "--out" not in p.stderr or open(path).read() != "traffic.rate\n0.1\n0.2\n":
            fail.append(f"--points {name} inside --out: exit {p.returncode}, {p.stderr.strip()}")
    # A --points file with a point twice (it would run twice and count as two replications) or a
    # key twice in its header (the last value silently won): refused before any run, one line naming
    # the file and the line or column.
    for name, text, word in (("dup_row", "traffic.rate\n0.1\n0.10\n", "lines 2 and 3"),
                             ("dup_col", "traffic.rate,traffic.rate\n0.1,0.2\n", "column traffic.rate")):
        path = os.path.join(d, name + ".csv")
        with open(path, "w") as f:
            f.write(text)
        p = subprocess.run([sweep, "--points", path, "--seeds", "2", "--out", os.path.join(d, name)] + base,
                           capture_output=True, text=True)
        if p.returncode != 2 or "--points" not in p.stderr or path not in p.stderr or word not in p.stderr \
                or len(p.stderr.strip().splitlines()) != 1 or os.path.exists(os.path.join(d, name)):
            fail.append(f"--points {name}: exit {p.returncode}, {p.stderr.strip()}")
    # --seeds with a --points file that has a sim.seed column: refused naming that clash (it was
    # "a key appears twice"); --panel with only the x axis varied: the message says what is allowed
    # (it was an empty list, "()"); --panel without --plot: refused, naming --plot (it was ignored).
    seedcol = os.path.join(d, "seedcol.csv")
    with open(seedcol, "w") as f:
        f.write("traffic.rate,sim.seed\n0.1,1\n0.2,2\n")
    for args, words in ((["--points", seedcol, "--seeds", "2"], ("--seeds", "sim.seed column", seedcol)),
                        (["--vary", "traffic.rate=0.1", "--panel", "traffic.rate", "--plot"],
                         ("--panel", "only the x axis, traffic.rate, is varied")),
                        (["--vary", "traffic.rate=0.1", "--vary", "router.vcs_per_class=1,2", "--panel",
                          "router.vcs_per_class"], ("--panel = 'router.vcs_per_class'", "without --plot"))):
        p = subprocess.run([sweep] + args + ["--out", os.path.join(d, "clash")] + base, capture_output=True, text=True)
        if p.returncode != 2 or not all(w in p.stderr for w in words) or "()" in p.stderr \
                or len(p.stderr.strip().splitlines()) != 1 or os.path.exists(os.path.join(d, "clash")):
            fail.append(f"{' '.join(args)}: exit {p.returncode}, {p.stderr.strip()}")
    # sim.seed with --seeds is summarized, not a plot's panel or axis: refused (the plot crashed).
    for opt in ("--panel", "--x"):
        p = subprocess.run([sweep, "--vary", "traffic.rate=0.1,0.2", "--seeds", "2", "--plot", opt, "sim.seed",
                            "--out", os.path.join(d, "seedpanel")] + base, capture_output=True, text=True)
        if p.returncode != 2 or opt not in p.stderr or os.path.exists(os.path.join(d, "seedpanel")):
            fail.append(f"{opt} sim.seed with --seeds: exit {p.returncode}, {p.stderr.strip()}")

    # A point whose wormcast exits 2 when it runs (its result cannot be written: a full disk,
    # here a stand-in program) stops the sweep with that run's own line and exit 2: the later
    # points do not run, no merged output is left; with GNU parallel and with the script's own pool
    # (no parallel on PATH). Exits 3 and 5 stay results (the deadlock and unstable cases above).
    real = os.path.join(os.environ["WORMCAST_BUILD"], "tb", "wormcast")
    stub = os.path.join(d, "wormcast-full-disk")
    line = "wormcast traffic: --json 'p001.json': cannot write: No space left on device; allowed: a file system with room for it"
    with open(stub, "w") as f:
        f.write(f"""#!/bin/sh
case " $* " in *" traffic "*traffic.rate=0.2" "*) echo "{line}" >&2; exit 2;; esac
exec '{real}' "$@"
""")
    os.chmod(stub, 0o755)
    nopath = os.path.join(d, "nopath")
    os.makedirs(nopath)
    for how, path in (("parallel", os.environ.get("PATH", "")), ("pool", nopath)):
        full = os.path.join(d, "full-" + how)
        p = subprocess.run([sweep, "--vary", "traffic.rate=0.1,0.2,0.3,0.4", "--out", full] + base[:-1] + ["1"],
                           capture_output=True, text=True, env={**os.environ, "WORMCAST": stub, "PATH": path})
        left = sorted(os.listdir(full)) if os.path.isdir(full) else []
        ran = sorted(os.listdir(os.path.join(full, "points"))) if os.path.isdir(os.path.join(full, "points")) else []
        if p.returncode != 2 or p.stderr.strip() != line or left != ["jobs.txt", "points"] \
                or ran != ["p000.json", "p000.log", "p001.log"]:
            fail.append(f"a point exiting 2 ({how}): exit {p.returncode}, stderr {p.stderr!r}, left {left}, points {ran}")

    # Jobs for elsewhere, then a merge of what is there (nothing ran: every point missing, exit 1).
    em = os.path.join(d, "emit")
    p = subprocess.run([sweep, "--vary", "traffic.rate=0.1,0.2,0.3", "--out", em, "--emit-jobs"] + base,
                       capture_output=True, text=True)
    jobs = open(os.path.join(em, "jobs.txt")).read().splitlines()
    if p.returncode != 0 or len(jobs) != 3 or os.path.exists(os.path.join(em, "sweep.csv")):
        fail.append(f"--emit-jobs: exit {p.returncode}, {len(jobs)} jobs")
    subprocess.run(jobs[1], shell=True)
    p = subprocess.run([sweep, "--vary", "traffic.rate=0.1,0.2,0.3", "--out", em, "--merge-only"] + base,
                       capture_output=True, text=True)
    st = [r["status"] for r in csv.DictReader(open(os.path.join(em, "sweep.csv")))]
    if p.returncode != 1 or st != ["missing", "ok", "missing"]:
        fail.append(f"--merge-only: exit {p.returncode}, statuses {st}")

for f in fail:
    print("FAIL:", f)
print("sweep: all checks passed" if not fail else f"{len(fail)} failures")
sys.exit(1 if fail else 0)
