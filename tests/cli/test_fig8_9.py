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
    # --plot-only titles the figures with the network of the data (the CSV's net column), refuses a
    # --net other than it, and refuses a CSV or JSON unlike a run's with one line naming the file,
    # exit 2 and no figure written.
    shown = ("import runpy, sys; sys.path.insert(0, sys.argv[1]); import wcplot\n"
             "wcplot.save = lambda fig, path, title=None, **k: print('TITLE', title.splitlines()[0])\n"
             "sys.argv = [sys.argv[2]] + sys.argv[3:]; runpy.run_path(sys.argv[0], run_name='__main__')")
    p = subprocess.run([sys.executable, "-c", shown, os.path.join(top, "scripts"), os.path.join(top, "scripts", "fig8_9"),
                        "--plot-only", "--out", os.path.join(d, "res")], capture_output=True, text=True)
    titles = [x for x in p.stdout.splitlines() if x.startswith("TITLE")]
    if p.returncode != 0 or len(titles) != 2 or not all("on a 16x16 torus" in t for t in titles):
        figures.append(f"--plot-only titles: exit {p.returncode}, {titles}, {p.stderr[-200:]!r}")
    p = subprocess.run([os.path.join(top, "scripts", "fig8_9"), "--plot-only", "--net", "torus:8x8", "--out",
                        os.path.join(d, "res")], capture_output=True, text=True)
    if p.returncode != 2 or not p.stderr.startswith("fig8_9: --net") or len(p.stderr.splitlines()) != 1:
        figures.append(f"--plot-only --net of another network: exit {p.returncode}, {p.stderr[-200:]!r}")
    lines = open(prefix + ".csv").read().splitlines(True)
    bad_csvs = {"value": lines[:3] + [lines[3].replace(",dcf,0,0,", ",dcf,0,0,x", 1)] + lines[4:],
                "short": lines[:20], "column": [lines[0].replace(",steps", "")] + lines[1:],
                "cut": lines[:5] + [lines[5][:12] + "\n"] + lines[6:]}
    for name, text in bad_csvs.items():
        bad = os.path.join(d, "bad-" + name)
        open(bad + ".csv", "w").write("".join(text))
        shutil.copy(prefix + ".json", bad + ".json")
        p = subprocess.run([os.path.join(top, "scripts", "fig8_9"), "--plot-only", "--out", bad],
                           capture_output=True, text=True)
        made = [f for f in os.listdir(d) if f.startswith("bad-" + name) and not f.endswith((".csv", ".json"))]
        if p.returncode != 2 or len(p.stderr.splitlines()) != 1 or "bad-" + name + ".csv" not in p.stderr \
                or made or p.stdout:
            figures.append(f"--plot-only of a {name} CSV: exit {p.returncode}, written {made}, {p.stderr[-200:]!r}")
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
