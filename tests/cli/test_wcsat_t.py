#!/usr/bin/python3
"""scripts/wcsat.py's Student t quantile, behind every confidence interval of scripts/sweep,
scripts/saturation and scripts/load_latency: scipy's t(0.975, df) to full precision for any df
(python3-scipy, installed by scripts/setup); without scipy the 3-decimal table up to df = 30 and
the Cornish-Fisher expansion beyond, within 0.001 of it."""
import os
import subprocess
import sys

from scipy.stats import t as student_t

top = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(top, "scripts"))
import wcsat  # noqa: E402

fail = []
for df in list(range(1, 201)) + [500, 1000, 10 ** 6]:
    want = float(student_t.ppf(0.975, df))
    if abs(wcsat.t975(df) - want) > 1e-9:
        fail.append(f"t975({df}) = {wcsat.t975(df)}, scipy says {want}")
if wcsat.t975(0) != float("inf"):
    fail.append(f"t975(0) = {wcsat.t975(0)}, not infinite")
m, half, lo, hi = wcsat.mean_ci([1.0, 2.0, 4.0])
sd = ((1 - 7 / 3) ** 2 + (2 - 7 / 3) ** 2 + (4 - 7 / 3) ** 2) ** 0.5 / 2 ** 0.5
if abs(half - float(student_t.ppf(0.975, 2)) * sd / 3 ** 0.5) > 1e-12:
    fail.append(f"mean_ci half-width {half} is not t(0.975, 2) s / sqrt(3)")

# Without scipy: the fallback, close to scipy's values.
probe = ("import sys; sys.modules['scipy'] = None; sys.path.insert(0, sys.argv[1]); import wcsat; "
         "print(' '.join(repr(wcsat.t975(df)) for df in range(1, 101)))")
p = subprocess.run([sys.executable, "-c", probe, os.path.join(top, "scripts")], capture_output=True, text=True)
if p.returncode != 0:
    fail.append(f"wcsat without scipy: exit {p.returncode}: {p.stderr}")
else:
    got = [float(x) for x in p.stdout.split()]
    if got[1] != 4.303:
        fail.append(f"without scipy t975(2) = {got[1]}, not the table's 4.303")
    for df, x in enumerate(got, 1):
        if abs(x - float(student_t.ppf(0.975, df))) > 1e-3:
            fail.append(f"without scipy t975({df}) = {x}, more than 0.001 from {student_t.ppf(0.975, df)}")

for f in fail:
    print("FAIL:", f)
print("ok" if not fail else f"{len(fail)} failures")
sys.exit(1 if fail else 0)
