#!/usr/bin/python3
"""scripts/saturation: a bisection with two seeds on a 4x4 torus brackets the saturation load
(last stable below first unstable, the bracket no wider than the resolution, each seed's points
consistent with its bracket), reports the zero-load latency and the peak accepted load; a range
whose top is stable reports "not reached"; bad options exit 2 naming the option. With a stand-in
program: an undecided lowest load fails without a bracket, --latency-factor without a zero-load
latency is refused, a failed search's log resumes, a fine search resumes to the same bracket, a
resolution finer than the search's rates is refused and the bisection ends at any resolution, and one seed's refused run stops the others. The brackets
along a sweep's curve (scripts/wcsat.py) skip undecided points and say "not reached" when no
point is unstable."""
import json, os, subprocess, sys, tempfile

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SAT = os.path.join(TOP, "scripts", "saturation")
sys.path.insert(0, os.path.join(TOP, "scripts"))
import wcsat  # noqa: E402

fail = []
base = ["--set", "net.radix=4x4", "--set", "sim.warmup=500", "--seeds", "2", "--measure", "4000",
        "--max-measure", "8000", "--jobs", "2", "--quiet"]
with tempfile.TemporaryDirectory() as d:
    out = os.path.join(d, "sat.json")
    p = subprocess.run([SAT, "--lo", "0.05", "--hi", "0.9", "--resolution", "0.02", "--out", out] + base,
                       capture_output=True, text=True)
    if p.returncode != 0:
        fail.append(f"search exited {p.returncode}: {p.stderr}")
    else:
        r = json.load(open(out))
        s = r["summary"]
        if not s["reached"]:
            fail.append("4x4 torus at 0.9 judged stable")
        for seed in r["seeds"]:
            lo, hi = seed["last_stable"], seed["first_unstable"]
            if lo is None or hi is None or not lo < hi or hi - lo > 0.02 + 1e-9:
                fail.append(f"seed {seed['seed']}: bracket {lo}..{hi}")
                continue
            for pt in seed["points"]:
                if pt["verdict"] == "stable" and pt["rate"] > lo + 1e-9:
                    fail.append(f"seed {seed['seed']}: stable point {pt['rate']} above the bracket's {lo}")
                if pt["verdict"] == "unstable" and pt["rate"] < hi - 1e-9:
                    fail.append(f"seed {seed['seed']}: unstable point {pt['rate']} below the bracket's {hi}")
            if not 0 < seed["zero_load_latency"] < 50:
                fail.append(f"seed {seed['seed']}: zero-load latency {seed['zero_load_latency']}")
            # Beyond saturation a network may deliver more in total than the load at which its most
            # disadvantaged source's queue starts to grow, never less than a stable load.
            if not seed["peak_accepted"] or seed["peak_accepted"] < 0.95 * lo:
                fail.append(f"seed {seed['seed']}: peak accepted {seed['peak_accepted']} below the stable {lo}")
        if s["last_stable"]["min"] > s["last_stable"]["mean"] + 1e-6 or \
                s["last_stable"]["mean"] > s["last_stable"]["max"] + 1e-6:
            fail.append(f"summary inconsistent: {s['last_stable']}")
        if "saturation (offered flits/node/cycle): last stable" not in p.stderr or "flit-copies/node/cycle" not in p.stderr:
            fail.append(f"no summary line: {p.stderr}")

    p = subprocess.run([SAT, "--lo", "0.02", "--hi", "0.08", "--resolution", "0.02", "--out", out] + base,
                       capture_output=True, text=True)
    if p.returncode != 0 or "not reached" not in p.stderr or json.load(open(out))["summary"]["reached"]:
        fail.append(f"a stable top of the range: exit {p.returncode}, {p.stderr}")

    for bad, word in ((["--seeds", "0"], "--seeds"), (["--lo", "0.5", "--hi", "0.2"], "--lo"),
                      (["--set", "traffic.rate=0.1"], "traffic.rate"), (["--set", "router.vcs_per_class=99"],
                                                                         "router.vcs_per_class")):
        p = subprocess.run([SAT, "--out", os.path.join(d, "bad.json")] + base + bad, capture_output=True, text=True)
        if p.returncode != 2 or word not in p.stderr or os.path.exists(os.path.join(d, "bad.json")):
            fail.append(f"{bad}: exit {p.returncode}, stderr {p.stderr.strip()}")

    # --out naming the --config the search reads: refused, the configuration left as it was.
    cfg = os.path.join(d, "c.yaml")
    with open(cfg, "w") as f:
        f.write("net:\n  radix: [4, 4]\n")
    p = subprocess.run([SAT, "--config", cfg, "--out", cfg, "--quiet"], capture_output=True, text=True)
    if p.returncode != 2 or "an input of this run" not in p.stderr or open(cfg).read() != "net:\n  radix: [4, 4]\n":
        fail.append(f"--out = --config: exit {p.returncode}, stderr {p.stderr.strip()}")

# A stand-in wormcast (FAKE_MODE says how its runs end) for what a real one would take long to show.
FAKE = r"""#!/usr/bin/python3
import json, os, sys, time
a = sys.argv[1:]
if a[:1] == ["config"]:
    sys.exit(0)
sets = dict(a[i + 1].split("=", 1) for i in range(len(a) - 1) if a[i] == "--set")
rate, seed = float(sets["traffic.rate"]), int(sets["sim.seed"])
mode = os.environ["FAKE_MODE"]
res = {"status": "ok", "stability": {"verdict": "stable" if rate < 0.3 else "unstable"},
       "throughput": {"accepted": min(rate, 0.3), "offered": rate}, "latency": {"mean": 20.0}}
if mode == "undecided":  # every window too short to judge
    res["stability"]["verdict"] = "undecided"
elif mode == "nozero":  # the zero-load run delivers no measured packet
    res["latency"] = {}
elif mode == "deadlock":
    res = {"status": "deadlock"}
elif mode.startswith("crash"):  # seed N of crashN is refused above 0.3; the other's runs there wait
    if rate > 0.3 and seed == int(mode[5:]):
        print("wormcast traffic: a refusal of this test", file=sys.stderr)
        sys.exit(2)
    if rate > 0.3:
        time.sleep(600)
json.dump(res, open(a[a.index("--json") + 1], "w"))
"""
with tempfile.TemporaryDirectory() as d:
    fake = os.path.join(d, "wormcast")
    with open(fake, "w") as f:
        f.write(FAKE)
    os.chmod(fake, 0o755)
    env = dict(os.environ, WORMCAST=fake)
    q = ["--seeds", "2", "--jobs", "2", "--lo", "0.1", "--hi", "0.9", "--resolution", "0.05"]

    def sat(mode, *extra, timeout=120):
        return subprocess.run([SAT] + q + list(extra), capture_output=True, text=True, timeout=timeout,
                              env=dict(env, FAKE_MODE=mode))
    # The lowest load undecided: no bracket, a failure naming it (not a saturation below --lo).
    p = sat("undecided", "--measure", "100", "--max-measure", "200", "--out", os.path.join(d, "u.json"))
    if p.returncode != 1 or "lowest load 0.1 is undecided" not in p.stderr or "first unstable" in p.stderr:
        fail.append(f"an undecided lowest load: exit {p.returncode}, {p.stderr.strip()[-300:]}")
    # --latency-factor without a zero-load latency: refused, not silently unused.
    p = sat("nozero", "--latency-factor", "2", "--quiet")
    if p.returncode != 2 or "--latency-factor" not in p.stderr:
        fail.append(f"--latency-factor without a zero-load latency: exit {p.returncode}, {p.stderr.strip()}")
    # A failed run's log resumes (its points have no status to read back), and fails the same way.
    p = sat("deadlock", "--seeds", "1")
    log = os.path.join(d, "dl.log")
    with open(log, "w") as f:
        f.write(p.stderr)
    p2 = sat("deadlock", "--seeds", "1", "--resume", log)
    if p.returncode != 1 or p2.returncode != 1 or "FAILED" not in p2.stderr or "internal error" in p2.stderr:
        fail.append(f"a failed search resumed: exit {p.returncode} then {p2.returncode}, {p2.stderr.strip()[-300:]}")
    # A fine search resumed from its own log: each logged rate is matched exactly (not a neighbour
    # within a relative 1e-5, nor a rate the log rounded), so the bracket is the original's.
    fine = ["--seeds", "1", "--jobs", "1", "--resolution", "1e-6"]
    p = sat("stable", *fine, "--out", os.path.join(d, "f.json"))
    with open(os.path.join(d, "f.log"), "w") as f:
        f.write(p.stderr)
    p2 = sat("stable", *fine, "--out", os.path.join(d, "fr.json"), "--resume", os.path.join(d, "f.log"))
    if p.returncode != 0 or p2.returncode != 0:
        fail.append(f"a fine search resumed: exit {p.returncode} then {p2.returncode}: {p2.stderr.strip()[-300:]}")
    else:
        full, res = (json.load(open(os.path.join(d, n)))["seeds"][0] for n in ("f.json", "fr.json"))
        if (full["last_stable"], full["first_unstable"]) != (res["last_stable"], res["first_unstable"]) \
                or not all(pt.get("resumed") for pt in res["points"]) or not full["last_stable"] < 0.3 <= full["first_unstable"]:
            fail.append(f"a fine search resumed: bracket {full['last_stable']}..{full['first_unstable']}, resumed "
                        f"{res['last_stable']}..{res['first_unstable']}")
    # A resolution finer than the search's rates (9 decimals) can reach is refused before any run;
    # the bisection stops when the midpoint is one of the ends, whatever resolution it is given.
    p = sat("stable", "--resolution", "1e-7", "--out", os.path.join(d, "r.json"))
    if p.returncode != 2 or "--resolution" not in p.stderr or "1e-06" not in p.stderr or len(p.stderr.splitlines()) != 1 \
            or os.path.exists(os.path.join(d, "r.json")):
        fail.append(f"--resolution 1e-7: exit {p.returncode}, {p.stderr.strip()}")
    try:
        b = subprocess.run([sys.executable, "-c", "import sys; sys.path.insert(0, sys.argv[1]); import wcsat; "
                            "print(wcsat.bisect(sys.argv[2], ['traffic'], 0.1, 0.9, 1, 100, 100, 1e-12)"
                            "['first_unstable'])", os.path.join(TOP, "scripts"), fake],
                           capture_output=True, text=True, timeout=120, env=dict(env, FAKE_MODE="stable"))
        if b.returncode != 0 or float(b.stdout) != 0.3:
            fail.append(f"bisect at resolution 1e-12: exit {b.returncode}, {b.stdout.strip()} {b.stderr.strip()[-200:]}")
    except subprocess.TimeoutExpired:
        fail.append("bisect at resolution 1e-12: still bisecting after 120 s (the midpoint stopped moving)")
    # One seed's run refused, the first seed's or a later one's: the search ends with its message and
    # code, the other seed's run stopped (it would wait ten minutes: the timeout fails the test if the
    # search waits for it).
    for mode in ("crash1", "crash2"):
        try:
            p = sat(mode, "--quiet", timeout=300)
            if p.returncode != 2 or "a refusal of this test" not in p.stderr:
                fail.append(f"{mode}: a refused run of one seed: exit {p.returncode}, {p.stderr.strip()}")
        except subprocess.TimeoutExpired:
            fail.append(f"{mode}: a refused run of one seed: the search waited for the other seed's run")

# Brackets along a curve: undecided points are neither; no unstable point means not reached; the
# loads are JSON numbers (the rows hold a CSV's text).
rows = [{"traffic.rate": str(x), "stability": v, "accepted": x}
        for x, v in ((0.1, "stable"), (0.2, "stable"), (0.3, "undecided"), (0.4, "unstable"), (0.5, "stable"))]
b = wcsat.brackets(rows, ["traffic.rate"])[0]
if (b["last_stable"], b["first_unstable"], b["reached"], b["undecided_points"]) != (0.2, 0.4, True, [0.3]):
    fail.append(f"brackets: {b}")
b = wcsat.brackets(rows[:3], ["traffic.rate"])[0]
if b["reached"] or b["first_unstable"] is not None or b["last_stable"] != 0.2:
    fail.append(f"brackets without an unstable point: {b}")

for f in fail:
    print("FAIL:", f)
print("ok" if not fail else f"{len(fail)} failures")
sys.exit(1 if fail else 0)
