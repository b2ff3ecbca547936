#!/usr/bin/python3
"""scripts/kd_torus_fig8 --quick: the generated Wang-Tseng schedules on n x n x n (n = 2..16) take
3 ceil(log7 n) + 2 steps and pass the checker, and the Lemma 1 bound, Park and Tsai-McKinley counts
of a few n equal values worked out by hand."""
import csv, json, os, subprocess, sys, tempfile

top = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
fail = []
with tempfile.TemporaryDirectory() as d:
    out = os.path.join(d, "fig8")
    p = subprocess.run([os.path.join(top, "scripts", "kd_torus_fig8"), "--quick", "--no-plot", "--out", out],
                       capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"FAIL: exit {p.returncode}: {p.stdout[-2000:]}{p.stderr[-2000:]}")
    rows = {int(r["n"]): r for r in csv.DictReader(open(out + ".csv"))}
    obs = json.loads(p.stdout.strip().splitlines()[-1])
    # --plot-only redraws from the CSV, with the same checks; a directory as --out and --max-n 1 are
    # refused with one line, exit 2.
    redraw = subprocess.run([os.path.join(top, "scripts", "kd_torus_fig8"), "--plot-only", "--out", out],
                            capture_output=True, text=True)
    if redraw.returncode != 0 or not os.path.getsize(out + ".png") \
            or json.loads(redraw.stdout.strip().splitlines()[-1]) != obs:
        fail.append(f"--plot-only: exit {redraw.returncode}, {redraw.stderr[-300:]!r}")
    # --plot-only of a CSV unlike a run's (a value that is no number, a column missing, a line
    # short, no data line): one line naming the file, exit 2, no PNG.
    lines = open(out + ".csv").read().splitlines(True)
    for name, text in {"value": lines[:7] + [lines[7].replace("8,4,", "8,x,", 1)] + lines[8:],
                       "column": [",".join(x.split(",")[:-1]) + "\n" for x in lines],
                       "cut": lines[:3] + [lines[3][:6] + "\n"] + lines[4:], "empty": lines[:1]}.items():
        bad = os.path.join(d, "bad-" + name)
        open(bad + ".csv", "w").write("".join(text))
        p = subprocess.run([os.path.join(top, "scripts", "kd_torus_fig8"), "--plot-only", "--out", bad],
                           capture_output=True, text=True)
        if p.returncode != 2 or len(p.stderr.splitlines()) != 1 or "bad-" + name + ".csv" not in p.stderr \
                or os.path.exists(bad + ".png") or p.stdout:
            fail.append(f"--plot-only of a {name} CSV: exit {p.returncode}, {p.stderr[-300:]!r}")
    for args, word in ((["--quick", "--out", d], "--out"), (["--max-n", "1", "--out", out + "x"], "--max-n")):
        bad = subprocess.run([os.path.join(top, "scripts", "kd_torus_fig8")] + args, capture_output=True, text=True)
        if bad.returncode != 2 or word not in bad.stderr or len(bad.stderr.strip().splitlines()) != 1:
            fail.append(f"{args}: exit {bad.returncode}, {bad.stderr[-300:]!r}")
# Theorem 2 by hand: ceil(log7 n) is 1 for n <= 7 and 2 for 8 <= n <= 49.
for n in range(2, 17):
    r = rows[n]
    want = 3 * (1 if n <= 7 else 2) + 2
    if r["ours_source"] != "generator" or int(r["ours"]) != want:
        fail.append(f"n = {n}: ours {r['ours']} ({r['ours_source']}), want {want} from the generator")
    if r["ours_check"] != "True":
        fail.append(f"n = {n}: the generated schedule did not pass the checker")
# Lemma 1: ceil(log7 n^3); 7^2 = 49, 7^3 = 343, 7^4 = 2401, 7^5 = 16807.
for n, lb in {2: 2, 3: 2, 4: 3, 7: 3, 8: 4, 13: 4, 14: 5, 16: 5}.items():
    if int(rows[n]["lower_bound"]) != lb:
        fail.append(f"n = {n}: lower bound {rows[n]['lower_bound']}, want {lb}")
# Park: n = 7 (p = 1, 3 steps) and n = 14 (2 7, 5 steps) only.
park = {n: int(r["park"]) for n, r in rows.items() if r["park"]}
if park != {7: 3, 14: 5}:
    fail.append(f"park {park}, want {{7: 3, 14: 5}}")
# Tsai-McKinley on 2^d x 2^d x 2^d: d + 1 for n <= 7; n = 8, 16: m = 1, d + 3 (other reading d + 2).
tm = {n: (int(r["tm"]), int(r["tm_alt"])) for n, r in rows.items() if r["tm"]}
if tm != {2: (2, 2), 4: (3, 3), 8: (6, 5), 16: (7, 6)}:
    fail.append(f"tm {tm}")
if not (obs["park_is_lower_bound"] and obs["park_best"] and obs["no_scheme_below_bound"]):
    fail.append(f"observations {obs}")
for f in fail:
    print("FAIL:", f)
print(f"{len(rows)} n checked")
sys.exit(1 if fail else 0)
