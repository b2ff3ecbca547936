#!/usr/bin/python3
"""The Fig. 8/9 sweep on a 16x16 torus: DCF is never slower than EDN, DCF's measured latency is its
contention-free model's at every point with no blocked cycle, and EDN is blocked at some length."""
import csv, os, shutil, subprocess, sys, tempfile

top = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
with tempfile.TemporaryDirectory() as d:
    prefix = os.path.join(d, "fig8_9")
    subprocess.run([os.path.join(top, "scripts", "fig8_9"), "--net", "torus:16x16", "--out", prefix,
                    "--no-plot", "--jobs", "2"], check=True, stdout=subprocess.DEVNULL)
    rows = list(csv.DictReader(open(prefix + ".csv")))
    # The figures of a prefix: fig8.png and fig9.png beside a prefix named fig8_9, else
    # <prefix>_fig8.png and <prefix>_fig9.png (both written, neither over the other).
    figures = []
    for name, want in (("fig8_9", ["fig8.png", "fig9.png"]), ("res", ["res_fig8.png", "res_fig9.png"])):
        for ext in (".csv", ".json"):
            if prefix + ext != os.path.join(d, name + ext):
                shutil.copy(prefix + ext, os.path.join(d, name + ext))
        p = subprocess.run([os.path.join(top, "scripts", "fig8_9"), "--plot-only", "--out", os.path.join(d, name)],
                           capture_output=True, text=True)
        if p.returncode != 0 or not all(os.path.getsize(os.path.join(d, w)) > 0 for w in want
                                        if os.path.exists(os.path.join(d, w))) \
                or not all(os.path.exists(os.path.join(d, w)) for w in want):
            figures.append(f"--plot-only --out {name}: exit {p.returncode}, files {sorted(os.listdir(d))}, {p.stderr[-200:]!r}")
    p = subprocess.run([os.path.join(top, "scripts", "fig8_9"), "--plot-only", "--out", os.path.join(d, "none")],
                       capture_output=True, text=True)
    if p.returncode != 2 or "--out" not in p.stderr or "Traceback" in p.stderr:
        figures.append(f"--plot-only of a missing CSV: exit {p.returncode}, {p.stderr[-200:]!r}")
fail = list(figures)
points = 0
edn_blocked = 0
for ts in ("0", "200"):
    for length in sorted({int(r["length"]) for r in rows}):
        d = next(r for r in rows if r["algo"] == "dcf" and r["ts"] == ts and int(r["length"]) == length)
        e = next(r for r in rows if r["algo"] == "edn" and r["ts"] == ts and int(r["length"]) == length)
        points += 1
        if int(d["measured_latency"]) > int(e["measured_latency"]):
            fail.append(f"ts={ts} L={length}: DCF {d['measured_latency']} > EDN {e['measured_latency']}")
        if int(d["measured_latency"]) != int(d["analytic_latency"]) or int(d["blocked_cycles"]) != 0:
            fail.append(f"ts={ts} L={length}: DCF measured {d['measured_latency']} model {d['analytic_latency']} "
                        f"blocked {d['blocked_cycles']}")
        edn_blocked += int(e["blocked_cycles"]) > 0
if points < 16:
    fail.append(f"only {points} points")
if edn_blocked == 0:
    fail.append("EDN was never blocked")
for f in fail:
    print("FAIL:", f)
print(f"{points} points, EDN blocked at {edn_blocked}")
sys.exit(1 if fail else 0)
