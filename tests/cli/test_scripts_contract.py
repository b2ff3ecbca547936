#!/usr/bin/python3
"""The scripts keep the CLI's contract (scripts/wcargs.py, docs/reference.md "Exit codes"): each bad input of
plot, saturation, sweep, bench, energy_compare and hopcost exits 2 with one line naming the
option, before any simulation, with no file left behind and no traceback; sweep writes range
values as wormcast reads them; a value wormcast refuses comes back with wormcast's own line and
exit code; an unexpected exception is one line and exit 70; a signal removes the temporaries
(files and directories). ibt_router, rv32_experiment, gossip_sim and ibt_bench check their options
the same way, rv32_experiment passes a failed run's exit code on, and --help of ibt_bench and
sanitize does no work. The --help of every script that uses argparse describes each option.
Read-only outputs are tried as the unprivileged user `nobody` when the test runs as root.
Usage: test_scripts_contract.py  (WORMCAST_BUILD: the build tree)"""
import json
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPTS = os.path.join(TOP, "scripts")
WC = os.path.join(os.environ["WORMCAST_BUILD"], "tb", "wormcast")
ENV = dict(os.environ, WORMCAST=WC, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")
fail = []
work = tempfile.mkdtemp()
os.chmod(work, 0o755)  # `nobody` reads the inputs made here


def as_nobody():
    """The prefix that runs a command unprivileged (root writes anywhere), or [] when not root."""
    if os.geteuid() != 0:
        return []
    if not shutil.which("setpriv"):
        return None
    return ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]


def listing(d):
    return sorted(os.path.relpath(os.path.join(r, f), d) for r, ds, fs in os.walk(d) for f in fs + ds)


def case(name, script, args, want=2, word=None, cwd=None, prefix=(), timeout=60, lines=1, env=None):
    """Runs scripts/SCRIPT ARGS (SCRIPT may be a path) in a scratch directory, with ENV and `env`; checks
    exit `want`, `lines` stderr lines containing `word`, no traceback and no new file in the scratch directory."""
    d = cwd or tempfile.mkdtemp(dir=work)
    os.chmod(d, 0o777)
    before = listing(d)
    try:
        p = subprocess.run(list(prefix) + [os.path.join(SCRIPTS, script)] + args, cwd=d, env={**ENV, **(env or {})},
                           capture_output=True, text=True, timeout=timeout, errors="replace")
    except subprocess.TimeoutExpired:
        fail.append(f"{name}: still running after {timeout} s (bad input must fail before any work)")
        return None
    err = p.stderr.strip().splitlines()
    why = []
    if p.returncode != want:
        why.append(f"exit {p.returncode}, want {want}")
    if "Traceback" in p.stderr:
        why.append("a traceback")
    if want != 0 and lines is not None and len(err) != lines:
        why.append(f"{len(err)} stderr lines, want {lines}")
    if word and word not in p.stderr:
        why.append(f"stderr does not name {word!r}")
    if want == 2 and listing(d) != before:
        why.append(f"left files {sorted(set(listing(d)) - set(before))}")
    if why:
        fail.append(f"{name}: {'; '.join(why)}: {p.stderr.strip()[:400]}")
    else:
        print(f"ok {name}: exit {p.returncode}" + (f": {err[-1][:150]}" if err else ""))
    return p


def write(name, content, mode="w"):
    path = os.path.join(work, name)
    with open(path, mode) as f:
        f.write(content)
    os.chmod(path, 0o644)
    return path


# A program that fails every run, exit 3, with one line.
failing = write("failing", "#!/bin/sh\necho 'wormcast gossip: a failure of this test' >&2\nexit 3\n")
os.chmod(failing, 0o755)


def readonly_dir():
    d = tempfile.mkdtemp(dir=work)
    os.chmod(d, 0o555)
    return d


# A small result to draw (a 4x4 torus, 300 measured cycles).
result = os.path.join(work, "r.json")
subprocess.run([WC, "traffic", "--net", "torus:4x4", "--rate", "0.2", "--warmup", "100", "--measure", "300",
                "--set", "sim.progress=off", "--json", result], capture_output=True, env=ENV)
os.chmod(result, 0o644)
nobody = as_nobody()

# --- 3. plot
deep = write("deep.json", "[" * 100000 + "]" * 100000)
case("plot: deeply nested JSON", "plot", [deep, "--out", work], word="RESULT")
for i, bad in enumerate([{"wormcast": {}, "latency_histogram": "x"},
                         {"wormcast": {}, "latency_histogram": {"bin_width": "a", "counts": [1, 2]}},
                         {"wormcast": {}, "latency_histogram": {"bin_width": 1, "counts": ["a"]}},
                         {"wormcast": {}, "latency_by_hops": [{"hops": "x", "mean": 1, "packets": 1}]},
                         {"wormcast": {}, "latency_by_hops": ["x"]},
                         {"wormcast": {}, "router_activity": []},
                         {"wormcast": {}, "router_activity": {"per_router": [{"blocked_vc": None}]}},
                         {"wormcast": {}, "router_activity": {"vc_blocking": [{"vc": [1]}], "vc_utilization": [[1]]}},
                         {"wormcast": {}, "config": [], "latency_histogram": {"bin_width": 1, "counts": [1]},
                          "latency": []}]):
    case(f"plot: wrong-typed field {i}", "plot", [write(f"bad{i}.json", json.dumps(bad)), "--out",
                                                  tempfile.mkdtemp(dir=work)], word="RESULT")
case("plot: --prefix into a missing directory", "plot", [result, "--out", work, "--prefix", "sub/x"], word="--prefix")
d = tempfile.mkdtemp(dir=work)
os.mkdir(os.path.join(d, "r_histogram.png"))
case("plot: an output that is a directory", "plot", [result, "--out", d, "--views", "histogram"], word="--out", cwd=d)
case("plot: a NaN in the JSON", "plot", [write("nan.json", '{"wormcast": {}, "latency": {"mean": NaN}}')],
     word="RESULT")
if nobody is not None:
    case("plot: a read-only --out", "plot", [result, "--out", readonly_dir()], word="--out", prefix=nobody)
p = case("plot: a result drawn", "plot", [result, "--out", tempfile.mkdtemp(dir=work), "--views", "histogram,hops"],
         want=0)

# --- 4. saturation
case("saturation: a binary --resume log", "saturation", ["--resume", write("bin.log", b"\xff\xfe\x00\x81", "wb")],
     word="--resume")
case("saturation: a --resume line with a bad number", "saturation",
     ["--resume", write("bad.log", "seed 1: rate 1.2.3 -> stable (measure 10, accepted 0.1, latency 12)\n")],
     word="--resume")
d = tempfile.mkdtemp(dir=work)
os.mkdir(os.path.join(d, "adir"))
case("saturation: --out is a directory", "saturation", ["--out", "adir", "--seeds", "1"], word="--out", cwd=d)
case("saturation: --lo nan", "saturation", ["--lo", "nan"], word="--lo")
case("saturation: --seeds x", "saturation", ["--seeds", "x"], word="--seeds")
if nobody is not None:
    case("saturation: a read-only --out", "saturation", ["--out", os.path.join(readonly_dir(), "s.json")],
         word="--out", prefix=nobody)
# A log resumes only its own search: every point of the same search comes back "resumed" with
# the same report (logged as the run's own line, so that the resumed search's log resumes too); a
# search with other options refuses it.
sat = ["--set", "net.radix=4x4", "--set", "sim.warmup=200", "--lo", "0.1", "--zero-rate", "0.05", "--measure", "600",
       "--max-measure", "1200", "--resolution", "0.1", "--jobs", "1"]
d = tempfile.mkdtemp(dir=work)


def saturation(args):
    return subprocess.run([os.path.join(SCRIPTS, "saturation")] + sat + args, cwd=d, env=ENV, capture_output=True,
                          text=True, timeout=300)


first = saturation(["--seeds", "2", "--out", "a.json"])
points = [line for line in first.stderr.splitlines() if line.startswith("seed ")]
log = write("sat.log", first.stderr)
again = saturation(["--seeds", "2", "--resume", log, "--out", "b.json"])
if first.returncode != 0 or again.returncode != 0 or not points \
        or again.stderr.count(") resumed") != len(points) \
        or json.load(open(os.path.join(d, "a.json")))["summary"] != json.load(open(os.path.join(d, "b.json")))["summary"]:
    fail.append(f"saturation --resume: {len(points)} points, {again.stderr.count(') resumed')} resumed, exits "
                f"{first.returncode} {again.returncode}: {again.stderr[-300:]!r}")
case("saturation: --resume of a search with other options", "saturation", sat + ["--resolution", "0.05", "--resume", log],
     word="--resume")
# A log with a seed and rate twice, with different results (two searches' lines: the first was
# used, silently): refused naming the line, the seed and the rate. The same point twice alike (a
# resumed search's log after its first) is one point: the logs of both runs resume.
if points:
    flip = points[0].replace("-> stable", "-> UNSTABLE").replace("-> unstable", "-> stable").replace("UNSTABLE", "unstable")
    seed_rate = flip.split(" -> ")[0].replace(": rate", ", rate")
    n = len(first.stderr.splitlines()) + 1
    case("saturation: --resume with a seed and rate twice, with two verdicts", "saturation",
         sat + ["--seeds", "2", "--resume", write("conflict.log", first.stderr + flip + "\n")],
         word=f"line {n}: {seed_rate} ->")
    both = saturation(["--seeds", "2", "--resume", write("both.log", first.stderr + again.stderr), "--out", "e.json"])
    if both.returncode != 0 or both.stderr.count(") resumed") != len(points):
        fail.append(f"saturation --resume of two runs' logs: exit {both.returncode}: {both.stderr[-300:]!r}")
# A seed with no stable load at or above --lo is left out of the last stable load's mean, and said so.
# (Windows long enough to decide the lowest load: an undecided one fails the search, without a bracket.)
low = saturation(["--seeds", "4", "--lo", "0.5", "--measure", "2000", "--max-measure", "16000", "--out", "c.json"])
rep = json.load(open(os.path.join(d, "c.json"))) if low.returncode == 0 else None
if rep is None:
    fail.append(f"saturation from --lo 0.5: exit {low.returncode}: {low.stderr[-300:]!r}")
else:
    have = sum(s["last_stable"] is not None for s in rep["seeds"])
    if rep["summary"]["last_stable"]["seeds"] != have or \
            (have < 4) != ("no stable load at or above --lo" in low.stderr):
        fail.append(f"saturation from --lo 0.5: {have} seeds with a stable load, summary "
                    f"{rep['summary']['last_stable']}, line {low.stderr.splitlines()[-1]!r}")

# --- 4b. saturation_tables: a report enters the table only when it is a finished search of its case
# as the case stands (a failed search, or one of other options, is left out, and said so); the
# seeds column is the report's; an empty or unknown case prefix is refused.
case("saturation_tables: --cases with an empty entry", "saturation_tables", ["--cases", "ll-uniform-v1,"],
     word="--cases")
case("saturation_tables: --seeds 0", "saturation_tables", ["--seeds", "0"], word="--seeds")
case("saturation_tables: --out is a file", "saturation_tables", ["--out", write("afile_st", "x")], word="--out")
if rep is not None:
    tables = tempfile.mkdtemp(dir=work)
    vc = ["--set", "net.radix=8x8", "--set", "router.vcs_per_class=2", "--set", "router.buffer_depth=8",
          "--set", "traffic.packet_len=5", "--set", "sim.warmup=2000", "--set", "router.vc_realloc=empty",
          "--set", "traffic.tie=plus"]
    good = {**rep, "search": {**rep["search"], "set": vc[1::2], "measure": 10000, "max_measure": 40000, "hi": 0.9,
                              "lo": 0.01, "resolution": 0.005, "zero_rate": 0.002, "latency_factor": None,
                              "config": None, "seeds": 4}}
    json.dump(good, open(os.path.join(tables, "vc-empty-plus-r1.json"), "w"))
    broken = {**good, "summary": {**good["summary"], "failed": "6 runs ended in ['deadlock']"}}
    json.dump(broken, open(os.path.join(tables, "vc-tail-plus-r1.json"), "w"))
    other = {**good, "search": {**good["search"], "measure": 500}}
    json.dump(other, open(os.path.join(tables, "vc-empty-random-r1.json"), "w"))
    no_bracket = {**good, "summary": {**good["summary"], "undecided_at_lo": "seeds [2]: no bracket"}}
    json.dump(no_bracket, open(os.path.join(tables, "vc-tail-random-r1.json"), "w"))
    p = subprocess.run([os.path.join(SCRIPTS, "saturation_tables"), "--out", tables, "--cases", "vc-empty-plus-r1",
                        "--seeds", "4"], env=ENV, capture_output=True, text=True, timeout=60)
    rows = open(os.path.join(tables, "tables.csv")).read().splitlines() if p.returncode == 0 else []
    if p.returncode != 0 or len(rows) != 2 or not rows[1].startswith("vc-empty-plus-r1,") \
            or not rows[1].endswith(",4") or p.stderr.count("is not a finished search") != 3:
        fail.append(f"saturation_tables on cached reports: exit {p.returncode}, rows {rows}, {p.stderr[-400:]!r}")

    # A search of the case run with another option that changes its result (here --lo and
    # --resolution, or --latency-factor, --zero-rate, --config) is not the case's: it is run again
    # (with a failing program: the run fails, the report is left as it was).
    for k, v in (("lo", 0.3), ("resolution", 0.4), ("zero_rate", 0.001), ("latency_factor", 2.0),
                 ("config", "configs/load_latency_8x8.yaml")):
        one = tempfile.mkdtemp(dir=work)
        json.dump({**good, "search": {**good["search"], k: v}}, open(os.path.join(one, "vc-empty-plus-r1.json"), "w"))
        p = subprocess.run([os.path.join(SCRIPTS, "saturation_tables"), "--out", one, "--cases", "vc-empty-plus-r1",
                            "--seeds", "4"], env={**ENV, "WORMCAST": failing}, capture_output=True, text=True,
                           timeout=60)
        if p.returncode == 0 or "vc-empty-plus-r1 failed" not in p.stderr:
            fail.append(f"saturation_tables on a report with {k} = {v}: exit {p.returncode} (reused), {p.stderr[-300:]!r}")
    # A re-run (--force) stopped before its end leaves no tables.csv of the earlier run, which would
    # contradict the reports it rewrites (here the search fails, as a stopped one does, before the end).
    one = tempfile.mkdtemp(dir=work)
    json.dump(good, open(os.path.join(one, "vc-empty-plus-r1.json"), "w"))
    with open(os.path.join(one, "tables.csv"), "w") as f:
        f.write("case,last_stable\nvc-empty-plus-r1,0.5\n")
    p = subprocess.run([os.path.join(SCRIPTS, "saturation_tables"), "--out", one, "--cases", "vc-empty-plus-r1",
                        "--seeds", "4", "--force"], env={**ENV, "WORMCAST": failing}, capture_output=True, text=True,
                       timeout=60)
    if p.returncode == 0 or os.path.exists(os.path.join(one, "tables.csv")):
        fail.append(f"saturation_tables --force stopped: exit {p.returncode}, tables.csv left: "
                    f"{os.path.exists(os.path.join(one, 'tables.csv'))}")
case("saturation_tables: --cases with an unknown prefix beside a known one", "saturation_tables",
     ["--cases", "vc-empty-plus-r1,bogus", "--out", "st"], word="bogus", env={"WORMCAST": failing})

# booksim_compare: each numeric option refused by name with its range (one combined line named none).
fake_bs = write("fake_booksim", "#!/bin/sh\nexit 0\n")
os.chmod(fake_bs, 0o755)
for args, word in ((["--jobs", "3"], "--jobs"), (["--seeds", "0"], "--seeds"), (["--rel-tol", "2"], "--rel-tol"),
                   (["--lo", "0.5", "--hi", "0.2"], "--lo"), (["--period", "0"], "--period")):
    case(f"booksim_compare {' '.join(args)}", "booksim_compare", ["--booksim", fake_bs, "--out", "bc"] + args, word=word)

# A search that fails leaves no empty --out behind (the script made it for the reports).
st_out = os.path.join(tempfile.mkdtemp(dir=work), "new")
p = subprocess.run([os.path.join(SCRIPTS, "saturation_tables"), "--out", st_out, "--cases", "vc-empty-plus-r1"],
                   env={**ENV, "WORMCAST": failing}, capture_output=True, text=True, timeout=60)
if p.returncode == 0 or os.path.exists(st_out) or "Traceback" in p.stderr:
    fail.append(f"saturation_tables with a failing search: exit {p.returncode}, --out left: {os.path.exists(st_out)}")

# --- 4c. a value given twice is refused (it would run and count its points twice); the options of
# load_latency and verdict_calibration are checked before any run, naming themselves.
case("sweep: --vary with a value twice", "sweep", ["--vary", "traffic.rate=0.1,0.10"], word="--vary")
case("energy_compare: --loads with a value twice", "energy_compare", ["--loads", "0.1,0.1"], word="--loads")
case("hopcost: --sizes with a size twice", "hopcost", ["--sizes", "8,8"], word="--sizes")
case("load_latency: --patterns with a pattern twice", "load_latency", ["--patterns", "uniform,uniform"],
     word="--patterns")
case("load_latency: --vcs ''", "load_latency", ["--vcs", ""], word="--vcs")
case("load_latency: --vcs 9 (router.vcs_per_class is 1..8)", "load_latency", ["--vcs", "2,9"], word="1..8")
if os.path.isdir("/proc") and os.geteuid() == 0:  # root may write anywhere the kernel allows a file
    case("sweep: --out under /proc", "sweep", ["--vary", "traffic.rate=0.1", "--out", "/proc/wc-sweep"],
         word="no file can be created in /proc")
# Each option of load_latency is checked before any run and named by the script itself (not by
# the sweep it starts): --rates as scripts/sweep's --vary values (no empty value, each once, loads
# 0..1), --set as key=value of keys wormcast knows and the script does not set for each run.
for args, word in ((["--rates", "0.1,,0.2"], "load_latency: --rates"), (["--rates", "0.1,0.10"], "load_latency: --rates"),
                   (["--rates", "0.5:0.1:0.1"], "load_latency: --rates"), (["--rates", "0.5,1.5"], "load_latency: --rates"),
                   (["--set", "bogus=1"], "load_latency: --set"), (["--set", "traffic.rate=0.1"], "load_latency: --set"),
                   (["--set", "sim.measure"], "load_latency: --set"), (["--patterns", "uniform,"], "--patterns"),
                   # a grid whose stop lies past 1 and whose values do not: --rates passes, --set is named
                   (["--rates", "0.1:1.05:0.1", "--set", "bogus=1"], "load_latency: --set"),
                   (["--rates", "+0.5"], "load_latency: --rates"), (["--rates", "0.1, 0.2"], "load_latency: --rates"),
                   (["--rates", "0.1,0.2)"], "load_latency: --rates = '0.1,0.2)' is invalid ('0.2)' is not a load)")):
    case(f"load_latency: {' '.join(args)}", "load_latency", ["--out", "ll"] + args, word=word)
# A run into the directory of an earlier complete run removes the merged outputs it rewrites when
# it starts: a run stopped (here: failed) before its end leaves no saturation.csv or sweep.csv of
# the earlier run beside its own partial data.
ll = os.path.join(tempfile.mkdtemp(dir=work), "ll")
tiny = ["--out", ll, "--patterns", "uniform", "--vcs", "1", "--rates", "0.1,0.2", "--jobs", "1", "--set",
        "sim.warmup=100", "--set", "sim.measure=300", "--set", "sim.drain=2000", "--set", "net.radix=4x4"]
first = subprocess.run([os.path.join(SCRIPTS, "load_latency")] + tiny, env=ENV, capture_output=True, text=True,
                       timeout=300)
runs_fail = write("runs_fail", f"#!/bin/sh\n[ \"$1\" = config ] && exec {WC} \"$@\"\n"
                  "echo 'wormcast: a failure of this test' >&2\nexit 3\n")
os.chmod(runs_fail, 0o755)
old_sweep = open(os.path.join(ll, "uniform", "sweep.csv")).read() if first.returncode == 0 else None
again = subprocess.run([os.path.join(SCRIPTS, "load_latency")] + tiny, env={**ENV, "WORMCAST": runs_fail},
                       capture_output=True, text=True, timeout=300)
left = [f for f in ("saturation.csv", "uniform/sweep.csv") if os.path.exists(os.path.join(ll, f))
        and (f == "saturation.csv" or open(os.path.join(ll, f)).read() == old_sweep)]
if first.returncode != 0 or again.returncode == 0 or left:
    fail.append(f"load_latency re-run that fails: first exit {first.returncode}, again exit {again.returncode}, "
                f"earlier outputs left {left}: {again.stderr[-300:]!r}")
else:
    print("ok load_latency: a re-run that fails leaves no merged output of the earlier run")
case("load_latency: a missing --config", "load_latency", ["--config", "/nonexistent.yaml"], word="--config")
case("load_latency: no program", "load_latency", ["--out", "ll"], word="not an executable program",
     env={"WORMCAST": "/nonexistent/wormcast"})
case("gossip_tables: a program that fails", "gossip_tables", ["--out", "gt"], want=3, word="a failure of this test",
     env={"WORMCAST": failing})
case("verdict_calibration: fractions above 1 / S", "verdict_calibration", ["--saturation", "0.9", "--fractions",
                                                                         "0.5,1.2"], word="--saturation")
case("verdict_calibration: --saturation -1", "verdict_calibration", ["--saturation", "-1"], word="--saturation")
case("verdict_calibration: --set sim.measure", "verdict_calibration", ["--set", "sim.measure=500", "--saturation",
                                                                     "0.3"], word="sim.measure")

# --- 5. sweep
d = tempfile.mkdtemp(dir=work)
p = case("sweep: an integer range is written as wormcast reads it", "sweep",
         ["--vary", "sim.measure=1000:3000:1000", "--set", "net.radix=4x4", "--out", os.path.join(d, "o"),
          "--emit-jobs"], want=0, cwd=d)
jobs = open(os.path.join(d, "o", "jobs.txt")).read() if p and p.returncode == 0 else ""
if "sim.measure=1000 " not in jobs or "E+" in jobs:
    fail.append(f"sweep: jobs.txt values: {jobs[:300]!r}")
for spec in ("nan:1:0.1", "0.1:inf:0.1", "0.1:0.5:nan", "0.1:0.5:-0.1"):
    case(f"sweep: range {spec}", "sweep", ["--vary", f"traffic.rate={spec}", "--out", "o"], word="--vary")
afile = write("afile", "x")
case("sweep: --out is a file", "sweep", ["--vary", "traffic.rate=0.1", "--out", afile], word="--out")
case("sweep: a binary --points file", "sweep", ["--points", write("p.bin", b"\xff\x00\xfe", "wb"), "--out", "o"],
     word="--points")
case("sweep: --panel '' (a finding of the scripts' fuzzer)", "sweep", ["--vary", "traffic.rate=0.1", "--panel", "",
                                                                       "--plot"], word="--panel")
case("sweep: --points ''", "sweep", ["--vary", "traffic.rate=0.1", "--points", ""], word="--points")
case("sweep: --jobs 0", "sweep", ["--vary", "traffic.rate=0.1", "--jobs", "0"], word="--jobs")
case("sweep: --ok-status bogus", "sweep", ["--vary", "traffic.rate=0.1", "--ok-status", "bogus"], word="--ok-status")
if nobody is not None:
    case("sweep: a read-only --out", "sweep", ["--vary", "traffic.rate=0.1", "--out",
                                               os.path.join(readonly_dir(), "o")], word="--out", prefix=nobody)
# --merge-only takes a point's file only when its result echoes the point's configuration: the same
# directory merged with the values in another order (or other values) has no result for them.
d = tempfile.mkdtemp(dir=work)
base = [os.path.join(SCRIPTS, "sweep"), "--set", "net.radix=4x4", "--set", "sim.measure=500", "--set", "sim.warmup=100",
        "--jobs", "1", "--out", os.path.join(d, "o")]
first = subprocess.run(base + ["--vary", "traffic.rate=0.1,0.9"], env=ENV, capture_output=True, text=True, timeout=300)
swapped = subprocess.run(base + ["--vary", "traffic.rate=0.9,0.1", "--merge-only"], env=ENV, capture_output=True,
                         text=True, timeout=300)
rows = open(os.path.join(d, "o", "sweep.csv")).read().splitlines()
if first.returncode != 0 or swapped.returncode != 1 or len(rows) != 3 or \
        not all(",other-config," in r for r in rows[1:]):
    fail.append(f"sweep --merge-only in another order: exits {first.returncode} {swapped.returncode}, rows {rows}")
same = subprocess.run(base + ["--vary", "traffic.rate=0.1,0.9", "--merge-only"], env=ENV, capture_output=True,
                      text=True, timeout=300)
rows = open(os.path.join(d, "o", "sweep.csv")).read().splitlines()
if same.returncode != 0 or not (rows[1].startswith("p000,0.1,ok,") and rows[2].startswith("p001,0.9,")):
    fail.append(f"sweep --merge-only in the same order: exit {same.returncode}, rows {rows}")
d = tempfile.mkdtemp(dir=work)
p = case("sweep: --emit-slurm into a path with a space", "sweep",
         ["--vary", "traffic.rate=0.1", "--set", "net.radix=4x4", "--out", os.path.join(d, "my out"), "--emit-slurm"],
         want=0, cwd=d)
slurm = open(os.path.join(d, "my out", "slurm.sh")).read() if p and p.returncode == 0 else ""
if f"#SBATCH --output='{d}/my out/points/slurm-%A_%a.out'" not in slurm:
    fail.append(f"sweep --emit-slurm: unquoted output path: {slurm[:600]!r}")

d = tempfile.mkdtemp(dir=work)
os.makedirs(os.path.join(d, "o", "points"))
with open(os.path.join(d, "o", "points", "p001.json"), "w") as f:
    f.write('{"status": "ok", "latency": {"mean": "x"}, "stability": [], "throughput": {"accepted": null}}')
p = case("sweep: --merge-only --plot with no result and a corrupt one (a finding of the scripts' fuzzer)", "sweep",
         ["--vary", "traffic.rate=0.1,0.2,0.3", "--set", "net.radix=4x4", "--out", os.path.join(d, "o"),
          "--merge-only", "--plot"], want=1, cwd=d, lines=None)
if p and "plot: skipped" not in p.stdout:
    fail.append(f"sweep --merge-only --plot: no skip line: {p.stdout!r}")

# --- 6. bench
for args, word in ((["--points", "bogus"], "--points"), (["--points", ""], "--points"), (["--preset", "x"], "--preset"), (["--threads", "0"], "--threads"),
                   (["--repeat", "0"], "--repeat"), (["--router", "foo"], "--router"), (["--out", work], "--out"),
                   # a point twice, as a router twice (it was run once, silently); the m-way point,
                   # which bench runs on the SystemC fabric only, with another router (rows of sc)
                   (["--quick", "--out", "b.json", "--points", "8x8,8x8"], "--points"), (["--router", "sc,sc"], "--router"),
                   (["--quick", "--out", "b.json", "--router", "rtl", "--points", "mway"], "--points mway"),
                   (["--router", "sc,rtl", "--points", "8x8,mway"], "--router"),
                   # a CPU the script may not use; a pinned run without --booksim or with threads
                   (["--booksim", "/bin/true", "--pin", "4096"], "--pin"), (["--booksim", "/bin/true", "--pin", "x"], "--pin"),
                   (["--pin", "0"], "--pin"), (["--booksim", "/bin/true", "--threads", "2", "--pin", "0"], "--pin")):
    case(f"bench: {' '.join(args)}", "bench", args, word=word)
d = tempfile.mkdtemp(dir=work)
p = case("bench: --out without a directory part", "bench", ["--points", "8x8", "--quick", "--out", "bench.json"],
         want=0, cwd=d, timeout=240)
if p and p.returncode == 0:
    b = json.load(open(os.path.join(d, "bench.json")))
    if not b.get("points"):
        fail.append("bench: bench.json has no points")

# --- 7. energy_compare
for loads in ("abc", "", "0.1,,0.2", "nan"):
    case(f"energy_compare: --loads {loads!r}", "energy_compare", ["--loads", loads, "--out", "o"], word="--loads")
case("energy_compare: --seed 2^63 (beyond sim.seed)", "energy_compare", ["--seed", str(2 ** 63), "--out", "o"], word="--seed")
case("energy_compare: --measure 10^10 (beyond sim.measure)", "energy_compare", ["--measure", str(10 ** 10), "--out", "o"],
     word="--measure")
case("energy_compare: an m-way network (no energy model)", "energy_compare", ["--net", "mway:4x4", "--out", "o"], word="--net")
case("energy_compare: a value wormcast refuses (its line, exit 2)", "energy_compare",
     ["--technology", "bogus", "--loads", "0.1", "--out", "o"], word="energy.technology")
d = tempfile.mkdtemp(dir=work)
p = case("energy_compare: --measure 2 (no packet delivered)", "energy_compare",
         ["--net", "torus:4x4", "--loads", "0.1", "--measure", "2", "--out", os.path.join(d, "e")], want=0, cwd=d)
if nobody is not None:
    case("energy_compare: a read-only --out", "energy_compare", ["--out", os.path.join(readonly_dir(), "e")],
         word="--out", prefix=nobody)

# --- 8. hopcost
for act in ("nan", "inf", "-inf", "0"):
    case(f"hopcost: --activity {act}", "hopcost", ["--activity", act], word="--activity")
case("hopcost: --sizes 4,,8", "hopcost", ["--sizes", "4,,8"], word="--sizes")
# A program that fails without a word: the one line says which program and how it ended.
silent = write("silent", "#!/bin/sh\nexit 1\n")
os.chmod(silent, 0o755)
case("hopcost: a program that fails silently", "hopcost", ["--sizes", "4", "--measure", "10,20", "--wormcast", silent],
     want=1, word="silent exited 1 without a message")
if nobody is not None:
    case("hopcost: a read-only --csv", "hopcost", ["--csv", os.path.join(readonly_dir(), "h.csv")], word="--csv",
         prefix=nobody)

# --- 9. ibt_router, rv32_experiment, gossip_sim, ibt_bench, sanitize: options (and the inputs of
# --plot-only) checked before any run; a failed program run is one line with its exit code; --help
# does no work.
case("ibt_router: --nets foo", "ibt_router", ["--nets", "foo", "--out", "o"], word="--nets")
case("ibt_router: --nets of a network without a load grid", "ibt_router", ["--nets", "ibt48_b4_12_s", "--out", "o"],
     word="--nets")
case("ibt_router: --plot-only with no results", "ibt_router", ["--plot-only", "--out", "o"], word="--plot-only")
case("rv32_experiment: --out under a file", "rv32_experiment", ["--out", os.path.join(afile, "x")], word="--out")
case("rv32_experiment: --plot-only with no CSV", "rv32_experiment", ["--plot-only", "--out", "p"], word="p.csv")
for code in (2, 3):
    stub = write(f"stub{code}", f"#!/bin/sh\necho 'wormcast: refused' >&2\nexit {code}\n")
    os.chmod(stub, 0o755)
    case(f"rv32_experiment: a run that exits {code}", "rv32_experiment", ["--no-scale", "--out", "r"], want=code,
         word=f"exited {code}: wormcast: refused", env={"WORMCAST": stub})
case("gossip_sim: --quick with --plot-only", "gossip_sim", ["--quick", "--plot-only"], word="--plot-only")
# ibt_bench writes into its own tree: a copy in a scratch tree, with a program that does nothing.
tree = tempfile.mkdtemp(dir=work)
os.mkdir(os.path.join(tree, "scripts"))
for f in ("ibt_bench", "wcprog.py"):
    shutil.copy(os.path.join(SCRIPTS, f), os.path.join(tree, "scripts", f))
noop = write("noop", "#!/bin/sh\nexit 0\n")
os.chmod(noop, 0o755)
for args, want in ((["--help"], 0), (["--bogus"], 2)):
    p = case(f"ibt_bench {args[0]}", os.path.join(tree, "scripts", "ibt_bench"), args, want=want, word=args[0] if want
             else None, env={"WORMCAST": noop})
    if p and (os.path.exists(os.path.join(tree, "experiments")) or (want == 0 and "Usage:" not in p.stdout)):
        fail.append(f"ibt_bench {args[0]}: ran the benchmark or printed no usage: {p.stdout[:200]!r}")
# sanitize --help: no cmake or ctest run (these record that they ran).
fake = tempfile.mkdtemp(dir=work)
for tool in ("cmake", "ctest"):
    with open(os.path.join(fake, tool), "w") as f:
        f.write(f"#!/bin/sh\ntouch {fake}/ran\n")
    os.chmod(os.path.join(fake, tool), 0o755)
p = case("sanitize --help", "sanitize", ["--help"], want=0,
         env={"PATH": fake + os.pathsep + os.environ["PATH"], "WORMCAST_SANITIZE_BUILD": os.path.join(fake, "b")})
if p and (os.path.exists(os.path.join(fake, "ran")) or "Usage:" not in p.stdout):
    fail.append(f"sanitize --help: ran cmake or ctest, or printed no usage: {p.stdout[:200]!r}")

# --- 10. The figure scripts: outputs and parts checked before any run; --help gives each
# script's whole first paragraph (a description cut after its first line lost the rest).
case("fig8_9: --out under a file", "fig8_9", ["--out", os.path.join(afile, "x"), "--no-plot"], word="--out")
case("fig8_9: a --net wormcast refuses", "fig8_9", ["--net", "bogus", "--out", "f", "--no-plot"], word="--net 'bogus'")
case("mway_figs: --out under a file", "mway_figs", ["--out", os.path.join(afile, "x"), "--quick"], word="--out")
case("ibt_figs: --only bogus", "ibt_figs", ["--only", "fig1,bogus", "--no-plot"], word="--only")
case("ibt_figs: --only with a part twice", "ibt_figs", ["--only", "table1,table1", "--no-plot"], word="--only")
case("mway_figs: --only with an experiment twice", "mway_figs", ["--only", "mesh,mesh", "--out", "mw", "--no-doc"],
     word="--only")
# Beyond the program's own ranges (sim.measure 1..10^9), before any run: every run would be refused.
case("mway_figs: --measure beyond sim.measure", "mway_figs", ["--measure", "2000000000", "--out", "mw", "--no-doc"],
     word="--measure = '2000000000' is invalid; allowed: an integer 1..1000000000")
case("mway_figs: --max-measure below --measure", "mway_figs", ["--measure", "10", "--max-measure", "5", "--out", "mw",
     "--no-doc"], word="--max-measure = '5' is invalid; allowed: at least --measure (10)")
case("gossip_tables: --doc missing", "gossip_tables", ["--doc", os.path.join(work, "none.md"), "--out", "g"], word="--doc")
case("gossip_tables: --doc without markers", "gossip_tables", ["--doc", write("plain.md", "text\n"), "--out", "g"],
     word="--doc")
import ast  # noqa: E402
for script in ("plot", "fig8_9", "ibt_figs", "mway_figs", "hopcost", "kd_torus_fig8", "gossip_tables", "ibt_router",
               "load_latency", "saturation", "saturation_tables", "sweep", "verdict_calibration"):
    doc = ast.get_docstring(ast.parse(open(os.path.join(SCRIPTS, script)).read()))
    first = " ".join(doc.split("\n\n")[0].split())
    p = subprocess.run([os.path.join(SCRIPTS, script), "--help"], capture_output=True, text=True, env=ENV, timeout=60)
    if p.returncode != 0 or first not in " ".join(p.stdout.split()):
        fail.append(f"{script} --help: exit {p.returncode}, the docstring's first paragraph is not whole in it: {first[:120]!r}")
    else:
        print(f"ok {script} --help: the first paragraph whole")


def undescribed(text):
    """The options of argparse help TEXT that have no description. In the "options:" and "positional
    arguments:" sections (each up to a blank line) an option line begins with two spaces and "-"; it
    is described when text follows its name and metavar after two or more spaces, or when the next
    line is indented deeper (the description under a long name)."""
    found, bare, section = 0, [], False
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if not line.strip():
            section = False
        elif line.strip() in ("options:", "optional arguments:", "positional arguments:") and not line[0].isspace():
            section = True
        elif section and line.startswith("  -"):
            found += 1
            after = lines[i + 1] if i + 1 < len(lines) else ""
            if not re.match(r"  \S.*?\S {2,}\S", line) and not (after.strip() and after.startswith("   ")):
                bare.append(line.split()[0].rstrip(","))
    return bare if found else None


# Every option of the argparse scripts' --help has a description (a bare "--out OUT" said nothing).
for script in ("bench", "booksim_compare", "energy_compare", "fig8_9", "gen_reference", "gossip_sim", "gossip_tables",
               "hopcost", "ibt_figs", "ibt_router", "kd_torus_fig8", "load_latency", "mway_figs", "plot",
               "rtl_random_lockstep", "rv32_experiment", "saturation", "saturation_tables", "sweep", "synth",
               "verdict_calibration"):
    p = subprocess.run([os.path.join(SCRIPTS, script), "--help"], capture_output=True, text=True, env=ENV, timeout=60)
    bare = undescribed(p.stdout)
    if p.returncode != 0 or bare is None or bare:
        fail.append(f"{script} --help: exit {p.returncode}, options without a description: "
                    f"{bare if bare is not None else 'no options section found'}")
    else:
        print(f"ok {script} --help: every option described")

# The shell entry points: --help prints the header and does no work (no build tree made).
for script in ("build", "demo", "test", "setup", "fuzz"):
    b = os.path.join(tempfile.mkdtemp(dir=work), "b")
    p = subprocess.run([os.path.join(SCRIPTS, script), "--help"], capture_output=True, text=True,
                       env={**ENV, "WORMCAST_BUILD": b}, timeout=60)
    if p.returncode != 0 or not p.stdout.strip() or os.path.exists(b):
        fail.append(f"{script} --help: exit {p.returncode}, did work or printed nothing: {p.stdout[:200]!r}")
    else:
        print(f"ok {script} --help: its header, no work")

# The checkers and generators: --help prints their usage and exits 0; an unknown option is one
# line naming it, exit 2 (check_includes took --help for its ROOT, the bare-metal check passed it
# to the cross compiler, gen_reference and rtl_random_lockstep printed argparse's two lines).
for script in ("check_includes", "check-runtime-baremetal", "gen_reference", "rtl_random_lockstep"):
    p = case(f"{script} --help", script, ["--help"], want=0, env={"RISCV_CXX": "false"})
    if p and "sage" not in p.stdout:
        fail.append(f"{script} --help: printed no usage: {p.stdout[:200]!r}")
    case(f"{script} --bogus", script, ["--bogus"], word="--bogus", env={"RISCV_CXX": "false"})
case("rtl_random_lockstep --families torus,x", "rtl_random_lockstep", ["--families", "torus,x"], word="--families")
case("rtl_random_lockstep --count 0", "rtl_random_lockstep", ["--count", "0"], word="--count")
case("check_includes: ROOT not a directory", "check_includes", [os.path.join(work, "none")], word="ROOT")

# --- the exit paths of scripts/wcargs.py itself
p = subprocess.run([sys.executable, "-c", "import sys; sys.path.insert(0, sys.argv[1]); import wcargs; "
                    "wcargs.Contract('t'); wcargs.run(lambda: {}['missing'])", SCRIPTS],
                   capture_output=True, text=True)
if p.returncode != 70 or len(p.stderr.strip().splitlines()) != 1 or "t: internal error: KeyError" not in p.stderr:
    fail.append(f"an unexpected exception: exit {p.returncode}, {p.stderr!r}")
d = tempfile.mkdtemp(dir=work)
p = subprocess.run([sys.executable, "-c", "import os, signal, sys; sys.path.insert(0, sys.argv[1]); import wcargs; "
                    "wcargs.Contract('t'); "
                    "wcargs.run(lambda: (wcargs.temporary(os.path.join(sys.argv[2], 'x.json')), "
                    "os.kill(os.getpid(), signal.SIGTERM)))", SCRIPTS, d], capture_output=True, text=True)
if p.returncode != 143 or os.listdir(d):
    fail.append(f"SIGTERM: exit {p.returncode}, left {os.listdir(d)}, {p.stderr!r}")
# The temporary directories too (a signal leaves no with-block: the handler removes them).
d = tempfile.mkdtemp(dir=work)
p = subprocess.run([sys.executable, "-c", "import os, signal, sys; sys.path.insert(0, sys.argv[1]); import wcargs\n"
                    "def main():\n"
                    "    with wcargs.TemporaryDirectory() as t:\n"
                    "        w = wcargs.temporary_dir()\n"
                    "        os.kill(os.getpid(), signal.SIGTERM)\n"
                    "wcargs.Contract('t'); wcargs.run(main)", SCRIPTS], capture_output=True, text=True,
                   env=dict(os.environ, TMPDIR=d))
if p.returncode != 143 or os.listdir(d):
    fail.append(f"SIGTERM in a temporary directory: exit {p.returncode}, left {os.listdir(d)}, {p.stderr!r}")

shutil.rmtree(work, ignore_errors=True)
for f in fail:
    print("FAIL:", f)
print("ok" if not fail else f"{len(fail)} failures")
sys.exit(1 if fail else 0)
