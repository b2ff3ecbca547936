#!/usr/bin/python3
"""Fuzzes the Python scripts' contract (scripts/wcargs.py): plot, saturation, sweep, bench,
energy_compare and hopcost, with their options and their input files (result JSONs, --resume
logs, --points lists) mutated, and the wormcast they run replaced by a stub that answers with a
real result (or a mutated one) and a chosen exit code, so that an execution costs milliseconds.

Each execution runs one script's main() in a forked child of a process that has imported every
script once (no interpreter start per execution), in a fresh scratch directory, on a copy of the
scripts (their default outputs land in the copy, never in the source tree). A finding is:
- a Python traceback on stderr, or exit 70 (an internal error: an exception no script expects),
  except one line of exit 70 when the stub gave a corrupt result, no result or a garbled summary
  line (no wormcast does: it writes its results atomically; a script may call that internal);
- a hang: still running after --timeout seconds;
- an exit code outside 0, 1, 2, 3, 4, 5, 6 and 128 + N;
- a file left behind: a hidden temporary (.NAME.XXXXXX) or *.tmp anywhere in the scratch
  directory or the copy's output folders, or any new file after an exit 2 (bad input);
- an error exit 2 whose stderr is not exactly one line.
Findings are written to DIR/findings/NNN.json (script, argv, input files, stderr); the summary
line gives executions, findings by kind and executions per second.

Usage: fuzz_scripts.py [--runs N] [--minutes M] [--seed S] [--timeout SEC] [--out DIR]
                       [--wormcast PATH]   (a real wormcast: the stub's template result is made
                                            by it; default: build/tb/wormcast)
Exit: 0 no finding, 1 findings, 2 bad options.
"""
import argparse
import importlib.machinery
import importlib.util
import json
import os
import random
import re
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPTS = ["plot", "saturation", "sweep", "bench", "energy_compare", "hopcost"]

STUB = r"""#!/bin/sh
# wormcast stand-in for the scripts' fuzzer: FUZZ_RC is the exit code, FUZZ_RESULT the result JSON
# copied to --json, FUZZ_LINE the summary line.
out=""; prev=""
for a in "$@"; do [ "$prev" = "--json" ] && out=$a; prev=$a; done
rc=${FUZZ_RC:-0}
if [ "$1" = config ]; then
  [ "$rc" = 2 ] && { echo "wormcast config: config: traffic.rate = 'x' is invalid; allowed: 0..1" >&2; exit 2; }
  echo '{"net": {"radix": "4x4", "family": "torus"}}'; exit 0
fi
[ "$rc" = 2 ] && { echo "wormcast traffic: config: traffic.rate = 'x' is invalid; allowed: 0..1" >&2; exit 2; }
[ -n "$out" ] && [ -n "$FUZZ_RESULT" ] && cat "$FUZZ_RESULT" > "$out"
echo "${FUZZ_LINE:-ok torus 4x4 rate 0.1 | latency mean 11.4 p99 24 max 50 cycles | accepted 0.098 flits/node/cycle (offered 0.098) | 100 packets | 1100 cycles, 3.159 M router-cycles/s | stable}"
exit "$rc"
"""

# ---- values the options take: good ones, edge ones and garbage ----
NUMS = ["0", "1", "2", "-1", "0.5", "1e-3", "1e999", "nan", "inf", "-inf", "+1", " 1", "1 ", "0x10", "010", "",
        " ", "1,2", "abc", "\xff", "9" * 40, "1.5", "-0", "3", "0.01", "0.9", "1.0"]
RATES = ["0.1", "0.3", "0.01", "0.002", "1", "0", "2", "nan", "-0.1", "1e-9", "0.05"]
PATHS = ["{d}/o", "{d}/o.json", "{d}", "{d}/missing/o", "{d}/afile", "{d}/adir", "{d}/ro/o", "", " ", "-",
         "{d}/o\nx", "o", "sub/x", "/proc/x", "{d}/adir/", "{d}/.hidden", "{d}/o.tmp"]
KEYS = ["traffic.rate", "sim.measure", "sim.seed", "router.buffer_depth", "net.radix", "bogus", "", "traffic.pattern"]


def pick_path(rng, d):
    return rng.choice(PATHS).format(d=d)


def vary_value(rng):
    k = rng.choice(KEYS)
    kind = rng.random()
    if kind < 0.4:
        spec = ":".join(rng.choice(NUMS[:12] + RATES) for _ in range(rng.choice([3, 3, 3, 2, 4])))
    else:
        spec = ",".join(rng.choice(RATES + NUMS) for _ in range(rng.randint(0, 4)))
    return f"{k}={spec}" if rng.random() < 0.95 else rng.choice(NUMS)


def mutate_bytes(rng, data):
    """A few byte-level mutations: flip, delete, duplicate, insert a token, truncate."""
    b = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        op = rng.random()
        if not b:
            b += rng.choice([b"{", b"[", b"\xff", b"0"])
            continue
        i = rng.randrange(len(b))
        if op < 0.25:
            b[i] = rng.randrange(256)
        elif op < 0.4:
            del b[i:i + rng.randint(1, 64)]
        elif op < 0.55:
            j = rng.randrange(len(b))
            b[i:i] = b[j:j + rng.randint(1, 64)]
        elif op < 0.8:
            b[i:i] = rng.choice([b"null", b"true", b"\"x\"", b"[]", b"{}", b"-1", b"1e999", b"NaN", b"Infinity", b"[" * 50,
                                 b"0", b"\x00", b"\xff\xfe", b",", b"\"", b"\n"])
        else:
            del b[i:]
    return bytes(b)


def mutate_json(rng, obj):
    """A structural mutation of a parsed JSON: a value replaced by one of another type."""
    paths = []

    def walk(x, p, depth):
        if depth > 6 or len(paths) > 3000:
            return
        paths.append(p)
        if isinstance(x, dict):
            for k, v in x.items():
                walk(v, p + [k], depth + 1)
        elif isinstance(x, list):
            for i, v in enumerate(x[:20]):
                walk(v, p + [i], depth + 1)
    walk(obj, [], 0)
    obj = json.loads(json.dumps(obj))
    for _ in range(rng.randint(1, 3)):
        p = rng.choice(paths)
        if not p:
            continue
        parent = obj
        try:
            for k in p[:-1]:
                parent = parent[k]
            parent[p[-1]] = rng.choice([None, "x", -1, 0, 1e300, [], {}, [1, "a"], {"a": 1}, True, [[1]], 2 ** 70])
        except (KeyError, IndexError, TypeError):
            pass
    return obj


class Case:
    def __init__(self, script, argv, files, env):
        self.script, self.argv, self.files, self.env = script, argv, files, env


def make_case(rng, d, templates):
    """One script with options and input files (written into scratch dir d)."""
    script = rng.choice(SCRIPTS)
    files = {}
    env = {"FUZZ_RC": rng.choice(["0"] * 8 + ["5", "1", "2", "3", "4"]),
           "FUZZ_RESULT": ""}

    def result_file(name, corrupt=None):
        base = rng.choice(templates)
        r = rng.random() if corrupt is None else (0.9 if corrupt else 0.0)
        if r < 0.45:
            data = base
        elif r < 0.75:
            data = json.dumps(mutate_json(rng, json.loads(base))).encode()
        else:
            data = mutate_bytes(rng, base)
        files[name] = data
        return os.path.join(d, name)

    # The stub's result: a real one, or (1 in 10) a corrupt one, which no wormcast writes (it writes
    # its results atomically): a script may end such a run as an internal error, exit 70, one line.
    corrupt = rng.random() < 0.1
    case_corrupt = corrupt
    env["FUZZ_RESULT"] = result_file("stub_result.json", corrupt) if rng.random() < 0.95 else ""
    if rng.random() < 0.05:
        env["FUZZ_LINE"] = rng.choice(["", "garbage", "ok | latency mean x | 0 cycles, nan M router-cycles/s"])
    a = []
    if script == "plot":
        a.append(result_file("r.json") if rng.random() < 0.9 else pick_path(rng, d))
        if rng.random() < 0.5:
            a += ["--out", pick_path(rng, d) if rng.random() < 0.5 else d]
        if rng.random() < 0.4:
            a += ["--views", ",".join(rng.choice(["histogram", "hops", "heatmap", "vcs", "x", ""])
                                      for _ in range(rng.randint(1, 3)))]
        if rng.random() < 0.3:
            a += ["--prefix", rng.choice(["p", "sub/x", "", " ", "a/../b", "../x", "\n"])]
    elif script == "saturation":
        opts = {"--seeds": ["1", "2"] + NUMS, "--lo": RATES, "--hi": RATES + ["0.5", "0.9"],
                "--resolution": ["0.1", "0.25", "0.005"] + NUMS, "--measure": ["100", "1000"] + NUMS,
                "--max-measure": ["200", "400"] + NUMS, "--zero-rate": RATES, "--latency-factor": NUMS + ["3"],
                "--jobs": ["1", "2"] + NUMS}
        for o, vals in opts.items():
            if rng.random() < 0.25:
                a += [o, rng.choice(vals)]
        a += ["--resolution", "0.2"] if "--resolution" not in a and rng.random() < 0.9 else []
        a += ["--seeds", "1"] if "--seeds" not in a and rng.random() < 0.9 else []
        if rng.random() < 0.5:
            a += ["--out", pick_path(rng, d)]
        if rng.random() < 0.3:
            log = b"seed 1: rate 0.01 -> stable (measure 100, accepted 0.01, latency 11.0)\n" \
                  b"seed 1: rate 0.505 -> unstable (measure 100, accepted 0.4, latency 90.5)\n"
            files["log.txt"] = log if rng.random() < 0.3 else mutate_bytes(rng, log)
            a += ["--resume", os.path.join(d, "log.txt") if rng.random() < 0.9 else pick_path(rng, d)]
        if rng.random() < 0.2:
            a += ["--set", rng.choice(["traffic.rate=0.1", "router.buffer_depth=4", "x", "", "sim.seed=1"])]
        a += ["--quiet"] if rng.random() < 0.7 else []
    elif script == "sweep":
        for _ in range(rng.choice([0, 1, 1, 1, 2])):
            a += ["--vary", vary_value(rng)]
        if rng.random() < 0.3:
            pts = b"traffic.rate,router.buffer_depth\n0.1,4\n0.2,8\n"
            files["points.csv"] = pts if rng.random() < 0.3 else mutate_bytes(rng, pts)
            a += ["--points", os.path.join(d, "points.csv") if rng.random() < 0.9 else pick_path(rng, d)]
        a += ["--out", pick_path(rng, d) if rng.random() < 0.6 else os.path.join(d, "o")]
        for o, vals in (("--seeds", ["2", "3"] + NUMS), ("--jobs", ["1", "2"] + NUMS), ("--x", KEYS),
                        ("--panel", KEYS), ("--ok-status", ["ok", "ok,unstable", "bogus", ""])):
            if rng.random() < 0.15:
                a += [o, rng.choice(vals)]
        for f in ("--plot", "--emit-jobs", "--emit-slurm", "--merge-only"):
            if rng.random() < 0.15:
                a.append(f)
    elif script == "bench":
        a += ["--quick"] if rng.random() < 0.8 else []
        a += ["--points", rng.choice(["8x8", "mway", "8x8,mway", "bogus", "", "16x16", ","])] \
            if rng.random() < 0.9 else []
        for o, vals in (("--router", ["sc", "rtl", "sc,rtl", "x", ""]), ("--preset", ["none", "booksim-iq", "x"]),
                        ("--repeat", ["1", "2"] + NUMS), ("--threads", ["1", "auto", "64", "65"] + NUMS)):
            if rng.random() < 0.2:
                a += [o, rng.choice(vals)]
        a += ["--out", pick_path(rng, d) if rng.random() < 0.7 else "bench.json"]
    elif script == "energy_compare":
        a += ["--loads", ",".join(rng.choice(RATES) for _ in range(rng.randint(1, 3))) if rng.random() < 0.8
              else rng.choice(NUMS)]
        for o, vals in (("--measure", ["2", "100"] + NUMS), ("--seed", ["1"] + NUMS),
                        ("--net", ["torus:4x4", "", "x"]), ("--technology", ["dsent-32nm", "x", ""])):
            if rng.random() < 0.2:
                a += [o, rng.choice(vals)]
        a += ["--out", pick_path(rng, d) if rng.random() < 0.7 else os.path.join(d, "e")]
    elif script == "hopcost":
        a += ["--sizes", rng.choice(["4,8", "4", "5", "4,,8", "", "2000", "8,4"])] if rng.random() < 0.9 else []
        for o, vals in (("--activity", ["0.5", "1.28"] + NUMS), ("--measure", ["10,20", "20,10", "1,2", "x", "1"]),
                        ("--repeat", ["1", "2"] + NUMS), ("--threads", ["1", "2"] + NUMS)):
            if rng.random() < 0.25:
                a += [o, rng.choice(vals)]
        if rng.random() < 0.6:
            a += ["--csv", pick_path(rng, d)]
    if rng.random() < 0.05:
        a.insert(rng.randrange(len(a) + 1), rng.choice(["--bogus", "-h", "--", "-x", "--out"]))
    c = Case(script, a, files, env)
    c.corrupt_wormcast = case_corrupt or not env["FUZZ_RESULT"] or "FUZZ_LINE" in env
    return c


def listing(root):
    out = set()
    for r, ds, fs in os.walk(root):
        for f in fs + ds:
            out.add(os.path.relpath(os.path.join(r, f), root))
    return out


TEMP = re.compile(r"(^|/)\.[^/]+\.[A-Za-z0-9_]{6,}$|\.tmp$|\.tmp\.png$")


def prepare_scratch(d):
    os.makedirs(os.path.join(d, "adir"))
    with open(os.path.join(d, "afile"), "w") as f:
        f.write("x\n")
    os.makedirs(os.path.join(d, "ro"))


def run_case(case, modules, d, copy_top, timeout):
    """Forks, runs the script's main() in the child; returns (exit code or None on a hang, stderr)."""
    for name, data in case.files.items():
        with open(os.path.join(d, name), "wb") as f:
            f.write(data)
    rfd, wfd = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: the script, as if started from the shell
        try:
            os.setpgid(0, 0)
            os.chdir(d)
            nul = os.open(os.devnull, os.O_RDWR)
            os.dup2(nul, 0)
            os.dup2(nul, 1)
            os.dup2(wfd, 2)
            os.close(rfd)
            for k, v in case.env.items():
                os.environ[k] = v
            for s in (signal.SIGINT, signal.SIGTERM, signal.SIGPIPE):
                signal.signal(s, signal.SIG_DFL)
            sys.argv = [case.script] + case.argv
            sys.stdout = open(1, "w", closefd=False)
            sys.stderr = open(2, "w", closefd=False)
            mod, wcargs = modules[case.script]
            if wcargs is None:  # scripts without the contract layer (an older tree): main() as it is
                sys.exit(mod.main())
            wcargs._NAME[0] = case.script
            wcargs.run(mod.main)
        except SystemExit as e:
            code = e.code
            try:
                sys.stdout.flush()
                sys.stderr.flush()
            except Exception:  # noqa: BLE001
                pass
            if code is None:
                code = 0
            elif not isinstance(code, int):
                try:
                    os.write(2, (str(code) + "\n").encode())
                except OSError:
                    pass
                code = 1
            os._exit(code & 0xFF)
        except BaseException:  # noqa: BLE001  (a traceback the script let out: the finding)
            import traceback
            try:
                os.write(2, ("Traceback (most recent call last):\n" + traceback.format_exc()).encode())
            except OSError:
                pass
            os._exit(1)
        os._exit(0)
    os.close(wfd)
    err = b""
    deadline = time.monotonic() + timeout
    hung = False
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            hung = True
            break
        r, _, _ = select.select([rfd], [], [], min(left, 1.0))
        if r:
            chunk = os.read(rfd, 65536)
            if not chunk:
                break
            if len(err) < 200000:
                err += chunk
    if hung:
        try:
            os.killpg(pid, signal.SIGKILL)
        except OSError:
            pass
    os.close(rfd)
    _, status = os.waitpid(pid, 0)
    if hung:
        return None, err.decode("utf-8", "replace")
    code = os.waitstatus_to_exitcode(status)
    return (code if code >= 0 else 128 - code), err.decode("utf-8", "replace")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=1000)
    ap.add_argument("--minutes", type=float, default=0, help="stop after this long (0: --runs only)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=30)
    ap.add_argument("--out", default=os.path.join(TOP, "build-fuzz", "scripts"))
    ap.add_argument("--wormcast", default=os.path.join(os.environ.get("WORMCAST_BUILD", os.path.join(TOP, "build")),
                                                       "tb", "wormcast"))
    a = ap.parse_args()
    if a.runs < 1 or a.timeout <= 0 or a.minutes < 0:
        print("fuzz_scripts: --runs >= 1, --timeout > 0, --minutes >= 0 allowed", file=sys.stderr)
        return 2
    if not os.access(a.wormcast, os.X_OK):
        print(f"fuzz_scripts: --wormcast {a.wormcast} is not an executable (build it first)", file=sys.stderr)
        return 2
    def stop(signum, _frame):  # an interrupted campaign still reports, and removes its scratch tree
        raise KeyboardInterrupt
    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    work = tempfile.mkdtemp(prefix="fuzz_scripts.")
    try:
        return campaign(a, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def campaign(a, work):
    # The scripts' copy (their default outputs land here) and the stub wormcast.
    copy_top = os.path.join(work, "top")
    shutil.copytree(os.path.join(TOP, "scripts"), os.path.join(copy_top, "scripts"),
                    ignore=shutil.ignore_patterns("__pycache__"))
    os.makedirs(os.path.join(copy_top, "configs"))
    shutil.copy(os.path.join(TOP, "configs", "booksim_torus.cfg"), os.path.join(copy_top, "configs"))
    stub = os.path.join(work, "wormcast-stub")
    with open(stub, "w") as f:
        f.write(STUB)
    os.chmod(stub, 0o755)
    # Template results: real ones from the real wormcast (a torus with every array, an m-way run).
    templates = []
    for args in (["traffic", "--net", "torus:4x4", "--rate", "0.2", "--warmup", "100", "--measure", "300"],
                 ["mway", "--net", "mesh:3x3", "--algo", "mst-safe", "--rate", "0.01", "--measure", "300"]):
        p = os.path.join(work, "t.json")
        subprocess.run([a.wormcast] + args + ["--set", "sim.progress=off", "--json", p], capture_output=True)
        with open(p, "rb") as f:
            templates.append(f.read())
    os.environ["WORMCAST"] = stub
    os.environ.pop("WORMCAST_BUILD", None)
    os.environ["SYSTEMC_DISABLE_COPYRIGHT_MESSAGE"] = "1"
    sys.path.insert(0, os.path.join(copy_top, "scripts"))
    modules = {}
    for name in SCRIPTS:
        path = os.path.join(copy_top, "scripts", name)
        loader = importlib.machinery.SourceFileLoader("fuzzed_" + name, path)
        spec = importlib.util.spec_from_loader(loader.name, loader)
        mod = importlib.util.module_from_spec(spec)
        loader.exec_module(mod)
        modules[name] = (mod, sys.modules.get("wcargs"))
    import wcplot  # noqa: F401  (matplotlib imported once, before the forks)
    import numpy  # noqa: F401
    from mpl_toolkits.axes_grid1 import make_axes_locatable  # noqa: F401
    rng = random.Random(a.seed)
    findings = {}
    fdir = os.path.join(a.out, "findings")
    t0 = time.monotonic()
    n = 0
    exits = {}
    corrupt_runs = 0
    out_dirs = [os.path.join(copy_top, "out"), os.path.join(copy_top, "experiments")]
    stopped = False
    while n < a.runs and (a.minutes == 0 or time.monotonic() - t0 < a.minutes * 60) and not stopped:
        try:
            d = os.path.join(work, f"s{n}")
            prepare_scratch(d)
            case = make_case(rng, d, templates)
            before = listing(d) | set(case.files)
            before_out = {o: listing(o) if os.path.isdir(o) else set() for o in out_dirs}
            code, err = run_case(case, modules, d, copy_top, a.timeout)
            n += 1
            exits[code] = exits.get(code, 0) + 1
            corrupt_runs += case.corrupt_wormcast
            after = listing(d)
            kinds = []
            if code is None:
                kinds.append("hang")
            else:
                if "Traceback" in err:
                    kinds.append("traceback")
                if code == 70 and not (case.corrupt_wormcast and len(err.strip().splitlines()) == 1):
                    kinds.append("internal_error")
                if code not in (0, 1, 2, 3, 4, 5, 6, 70) and not 129 <= code <= 192:
                    kinds.append(f"exit_{code}")
                if code == 2 and (after - before):
                    kinds.append("files_after_bad_input")
                if code == 2 and len(err.strip().splitlines()) != 1:
                    kinds.append("not_one_line")
            named = {os.path.basename(x.rstrip("/")) for x in case.argv}  # an output the case asked for by that name
            temps = [f for f in after if TEMP.search(f) and os.path.basename(f) not in named]
            for o in out_dirs:
                if os.path.isdir(o):
                    temps += [os.path.join(o, f) for f in listing(o) - before_out[o] if TEMP.search(f)]
            if temps:
                kinds.append("temporary_left")
            for k in kinds:
                findings[k] = findings.get(k, 0) + 1
            if kinds:
                os.makedirs(fdir, exist_ok=True)
                with open(os.path.join(fdir, f"{sum(findings.values()):04d}.json"), "w") as f:
                    json.dump({"kinds": kinds, "script": case.script, "argv": case.argv, "env": case.env, "exit": code,
                               "stderr": err[-4000:], "left": sorted(after - before)[:50], "temporaries": temps[:20],
                               "files": {k: v.decode("latin-1")[:20000] for k, v in case.files.items()}}, f, indent=1)
            shutil.rmtree(d, ignore_errors=True)
            if n % 1000 == 0:
                el = time.monotonic() - t0
                print(f"fuzz_scripts: {n} executions, {sum(findings.values())} findings {findings}, {n / el:.1f}/s",
                      file=sys.stderr, flush=True)
        except KeyboardInterrupt:
            stopped = True
    el = time.monotonic() - t0
    print(f"fuzz_scripts: {n} executions in {el:.0f} s ({n / max(el, 1e-9):.1f}/s); findings: "
          f"{sum(findings.values())} {findings}; exits {dict(sorted(exits.items(), key=lambda kv: str(kv[0])))}; "
          f"{corrupt_runs} executions with a corrupt or missing wormcast result or summary line")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
