"""Saturation from the steady-state verdict (docs/statistics.md): the verdict of a result, the
bracket along a curve of points, Student-t confidence intervals over seeds, and the bisection
of scripts/saturation. Used by scripts/sweep, scripts/load_latency and scripts/saturation."""
import json
import math
import os
import subprocess

import wcargs

try:
    from scipy.stats import t as _student_t  # python3-scipy, installed by scripts/setup
except ImportError:
    _student_t = None

# Two-sided 95 % Student t quantiles, t(0.975, df) for df = 1..30: used only without scipy.
T975 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
        2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042]


def t975(df):
    """The two-sided 95 % Student t quantile t(0.975, df): scipy's, or without scipy the table
    (3 decimals) and beyond df = 30 the Cornish-Fisher expansion about the normal quantile."""
    if df < 1:
        return math.inf
    if _student_t is not None:
        return float(_student_t.ppf(0.975, df))
    if df <= len(T975):
        return T975[df - 1]
    z = 1.959964
    return z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df * df)


def mean_ci(xs):
    """(mean, 95 % half-width t(0.975, n-1) s / sqrt(n), min, max) of the numbers in xs; None
    entries are skipped; (None, None, None, None) when there are none."""
    xs = [float(x) for x in xs if x is not None]
    if not xs:
        return None, None, None, None
    n = len(xs)
    m = sum(xs) / n
    half = None
    if n >= 2:
        sd = (sum((x - m) ** 2 for x in xs) / (n - 1)) ** 0.5
        half = t975(n - 1) * sd / n ** 0.5
    return m, half, min(xs), max(xs)


def verdict(result):
    """stable, unstable, undecided, or none (a deadlock, livelock, scoreboard error or a missing
    result): a drain timeout is unstable (its backlog never emptied)."""
    if not result:
        return "none"
    status = result.get("status")
    if status in ("unstable", "drain_timeout"):
        return "unstable"
    v = result.get("stability", {}).get("verdict")
    return v if v in ("stable", "unstable", "undecided") else "none"


def number(v):
    """A point's value as a JSON number (the rows hold the text of a CSV cell): an int or a float."""
    if isinstance(v, str):
        try:
            return int(v)
        except ValueError:
            return float(v)
    return v


def brackets(rows, keys, verdict_key="stability"):
    """Per curve (keys[0] varies, the other keys fixed): the highest value of keys[0] that is
    stable below the first unstable one, and the first unstable one; saturation lies between.
    Undecided points are neither. A curve that never turns unstable says so: first_unstable None
    and "reached": False."""
    x, others = keys[0], keys[1:]
    curves = {}
    for r in rows:
        curves.setdefault(tuple(r[k] for k in others), []).append(r)
    out = []
    for g, rs in curves.items():
        try:
            rs = sorted(rs, key=lambda r: float(r[x]))
        except (TypeError, ValueError):
            continue  # a non-numeric first key has no order to bracket along
        first_bad = next((i for i, r in enumerate(rs) if r[verdict_key] == "unstable"), None)
        below = rs[:first_bad] if first_bad is not None else rs
        stable = [r for r in below if r[verdict_key] == "stable"]
        out.append({"curve": ", ".join(f"{k}={v}" for k, v in zip(others, g)), "x": x,
                    "last_stable": number(stable[-1][x]) if stable else None,
                    "first_unstable": number(rs[first_bad][x]) if first_bad is not None else None,
                    "reached": first_bad is not None,
                    "undecided_points": [number(r[x]) for r in rs if r[verdict_key] == "undecided"],
                    # runs that ended without a verdict (a deadlock, livelock or scoreboard error)
                    "unjudged_points": [number(r[x]) for r in rs
                                        if r[verdict_key] not in ("stable", "unstable", "undecided")],
                    "peak_accepted": max((float(r["accepted"]) for r in rs if r.get("accepted") not in (None, "")),
                                         default=None),
                    "definition": "stable/unstable by the steady-state verdict (docs/statistics.md)"})
    return out


class WormcastError(RuntimeError):
    """A run that gave no result (bad input, exit 2, or a crash): `process` is its CompletedProcess,
    for the caller to pass its message and exit code through (wcargs.passthrough)."""

    def __init__(self, process):
        super().__init__(f"{' '.join(process.args)}: exit {process.returncode}: "
                         f"{process.stderr.strip() or process.stdout.strip()}")
        self.process = process


def run_point(wormcast, args, rate, seed, measure, extra=()):
    """One `wormcast traffic` run at `rate` with sim.seed and sim.measure set; returns its result
    JSON (None when the run gave none: a bad configuration)."""
    with wcargs.TemporaryDirectory() as d:
        path = os.path.join(d, "r.json")
        cmd = [wormcast] + list(args) + ["--set", f"traffic.rate={rate}", "--set", f"sim.seed={seed}",
                                         "--set", f"sim.measure={measure}", "--set", "sim.progress=off",
                                         "--json", path] + list(extra)
        p = wcargs.run_child(cmd, capture_output=True, text=True, errors="replace")
        if p.returncode == 2 or not os.path.exists(path):
            raise WormcastError(p)
        with open(path) as f:
            return json.load(f)


def judged_point(wormcast, args, rate, seed, measure, max_measure, zero_latency=None, latency_factor=None):
    """The verdict at `rate`: an undecided point is re-run with the window doubled up to
    max_measure. Returns (verdict, result, measure used, runs). With latency_factor c and the
    zero-load latency, a stable point whose mean latency exceeds c times it counts as unstable."""
    runs = 0
    while True:
        res = run_point(wormcast, args, rate, seed, measure)
        runs += 1
        v = verdict(res)
        if v != "undecided" or measure * 2 > max_measure:
            break
        measure *= 2
    if v == "stable" and latency_factor and zero_latency:
        if res.get("latency", {}).get("mean", 0) > latency_factor * zero_latency:
            v = "unstable"
    return v, res, measure, runs


def parse_log(text):
    """The points of an interrupted search from its log's text (lines "seed S: rate R -> V (measure
    M, accepted A, latency L)"): {seed: [point, ...]}, each marked "resumed". Other lines are
    ignored; a line of that form with a number that does not parse raises ValueError naming it, as
    does a seed and rate logged twice with different results (a log of two searches: which one to
    resume is unknown). The same point logged twice alike (a resumed search's log) is one point."""
    import re
    pat = re.compile(r"^seed (\d+): rate ([0-9.e+-]+) -> (\w+) \(measure (\d+), accepted ([^,]+), latency ([^)]+)\)")
    out, first = {}, {}
    for n, line in enumerate(text.splitlines(), 1):
        m = pat.match(line.strip())
        if m:
            def num(x):
                if x == "None":
                    return None
                v = float(x)
                if not math.isfinite(v):
                    raise ValueError(x)
                return v
            try:
                rate = num(m[2])
                point = {"rate": rate, "verdict": m[3], "measure": int(m[4]), "accepted": num(m[5]),
                         "latency_mean": num(m[6]), "resumed": True}
            except ValueError:
                raise ValueError(f"line {n}: a number that does not parse")
            if rate is None or m[3] not in ("stable", "unstable", "undecided", "none"):
                raise ValueError(f"line {n}: rate {m[2]}, verdict {m[3]}")
            seed = int(m[1])
            if (seed, rate) in first:
                n0, p0 = first[seed, rate]
                if p0 != point:
                    raise ValueError(f"line {n}: seed {seed}, rate {m[2]} -> {m[3]}, measure {m[4]}, accepted {m[5]}, "
                                     f"latency {m[6]}; line {n0} logs it with another result: {p0['verdict']}, measure "
                                     f"{p0['measure']}, accepted {p0['accepted']}, latency {p0['latency_mean']}; "
                                     "each seed and rate has one result")
                continue
            first[seed, rate] = n, point
            out.setdefault(seed, []).append(point)
    return out


def point_line(seed, rate, p):
    """A judged point's log line, the form parse_log reads back: the rate in full (the shortest
    text that reads back as the same number), so that a resumed search matches it exactly."""
    return (f"seed {seed}: rate {float(rate)!r} -> {p['verdict']} (measure {p['measure']}, accepted {p['accepted']}, "
            f"latency {p['latency_mean']})")


def bisect(wormcast, args, lo, hi, seed, measure, max_measure, resolution, zero_latency=None, latency_factor=None,
           log=None, known=()):
    """Bisection on traffic.rate between lo (expected stable) and hi (expected unstable) for one
    seed, halving the bracket (midpoints rounded to 9 decimals) until it is no wider than
    resolution or as narrow as those decimals allow. An undecided point at max_measure counts as not stable (the bracket moves down: the
    saturation found is a lower estimate). Returns a dict with the bracket, the peak accepted
    load, and every point run."""
    points = []

    def judge(rate):
        hit = [k for k in known if k["rate"] == rate]  # the same rate, not a neighbour's verdict
        if hit:  # measured before the search was interrupted (--resume)
            points.append({**hit[0], "rate": rate})
            if log:  # the line parse_log reads: a resumed search's log resumes again
                log(point_line(seed, rate, hit[0]) + " resumed")
            return hit[0]["verdict"]
        v, res, m, runs = judged_point(wormcast, args, rate, seed, measure, max_measure, zero_latency, latency_factor)
        thr = res.get("throughput", {}) if res else {}
        p = {"rate": rate, "verdict": v, "measure": m, "runs": runs, "accepted": thr.get("accepted"),
             "offered": thr.get("offered"), "latency_mean": (res or {}).get("latency", {}).get("mean"),
             "status": (res or {}).get("status")}
        for k, val in (("message_latency_mean", (res or {}).get("message_latency", {}).get("mean")),
                       ("link_util_mean", (res or {}).get("links", {}).get("mean_utilization")),
                       ("injection_rate", (res or {}).get("links", {}).get("injection_rate"))):
            if val is not None:
                p[k] = val  # where the family reports it (m-way: message latency, traffic, injection)
        points.append(p)
        if log:
            log(point_line(seed, rate, p))
        return v

    out = {"seed": seed, "points": points}
    low = judge(lo)
    if low == "undecided":  # neither side of the saturation is known: no bracket (the caller fails)
        out.update(last_stable=None, first_unstable=None, reached=False, undecided_low=True,
                   note=f"the lowest load {lo} is undecided at the longest window: no bracket")
    elif low != "stable":
        out.update(last_stable=None, first_unstable=lo, reached=True, note=f"the lowest load {lo} is not stable")
    elif judge(hi) == "stable":
        out.update(last_stable=hi, first_unstable=None, reached=False, note=f"not reached: {hi} is stable")
    else:
        while hi - lo > resolution:
            mid = round((lo + hi) / 2, 9)
            if mid in (lo, hi):  # the bracket is as narrow as the rates' 9 decimals allow
                break
            if judge(mid) == "stable":
                lo = mid
            else:
                hi = mid
        out.update(last_stable=lo, first_unstable=hi, reached=True)
    acc = [p["accepted"] for p in points if p["accepted"] is not None]
    out["peak_accepted"] = max(acc) if acc else None
    out["undecided_at_limit"] = sum(p["verdict"] == "undecided" for p in points)
    # The upper edge's own verdict: unstable, or undecided at max_measure (then only "not
    # confirmed stable": the bracket is a lower estimate), or none (a failed run).
    edge = [p["verdict"] for p in points if out["first_unstable"] is not None and p["rate"] == out["first_unstable"]]
    out["first_unstable_verdict"] = edge[-1] if edge else None
    return out
