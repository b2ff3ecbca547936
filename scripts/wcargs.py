"""The command-line contract of every Python script, the same as the `wormcast` program's (docs/reference.md,
"Exit codes"): options validated before any work, outputs planned before any work, atomic writes
whose temporaries are removed on every exit path and signal, one-line errors naming the option
and the allowed values with exit 2, wormcast's exit codes and message passed through, and never a
Python traceback (an unexpected exception is one line `SCRIPT: internal error: ...`, exit 70).

    import wcargs
    c = wcargs.Contract("sweep")
    ap = c.parser(description=...)           # argparse, one-line errors, exit 2
    ap.add_argument("--seeds", type=c.int_range(1, 1000))
    a = ap.parse_args()
    c.output_file("--out", a.out)            # planned: parent exists, writable, not a directory
    c.write_atomic(a.out, text)              # a hidden temporary beside it, renamed into place
    wcargs.run(main)                         # the exit paths: internal errors, signals, cleanup
"""
import argparse
import array
import csv
import decimal
import fcntl
import io
import json
import math
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading

EXIT_BAD_INPUT = 2
EXIT_INTERNAL = 70  # an exception no script expects: a bug (sysexits' EX_SOFTWARE)
MAX_JSON_DEPTH = 64  # results nest about 6 levels; deeper input is not a result
MAX_INPUT_BYTES = 1 << 30

_NAME = ["script"]
_TEMPORARIES = set()
_TEMPORARY_DIRS = set()
_CHILDREN = set()
_SPAWN = threading.RLock()  # held while a child starts; a signal takes it for good (no child after)
_FORWARDING = [False]  # run() forwards the signals that stop the script to the children


def shown(value, limit=120):
    """A value as an error line quotes it: repr-like, control characters escaped, long ones cut in the middle."""
    s = str(value).encode("unicode_escape", "backslashreplace").decode("ascii")
    return s if len(s) <= limit else s[:limit // 2] + "..." + s[-limit // 2:]


def fail(option, value, allowed, why=None):
    """One line, `SCRIPT: OPTION = 'VALUE' is invalid[: WHY]; allowed: ALLOWED`, and exit 2."""
    line = f"{option} = '{shown(value)}' is invalid" + (f" ({why})" if why else "") + f"; allowed: {allowed}"
    die(line)


def die(line, code=EXIT_BAD_INPUT):
    """`SCRIPT: LINE` on stderr (one line) and exit with code (temporaries removed)."""
    line = " ".join(str(line).split("\n"))
    try:
        print(f"{_NAME[0]}: {line}", file=sys.stderr, flush=True)
    except (OSError, ValueError):
        pass
    _cleanup()
    sys.exit(code)


# ---- types for argparse: each failure names the value and the allowed range ----

class _Bad(argparse.ArgumentTypeError):
    pass


def _bad(value, allowed):
    return _Bad(f"'{shown(value)}' is invalid; allowed: {allowed}")


_INT = re.compile(r"-?[0-9]+")
_FLOAT = re.compile(r"-?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?")


def _number(text, kind):
    """Decimal only, as wormcast reads numbers: no sign '+', no spaces, no 0x, no inf or nan."""
    t = str(text)
    if not (_INT if kind is int else _FLOAT).fullmatch(t):
        raise ValueError
    v = kind(t)
    if kind is float and not math.isfinite(v):
        raise ValueError
    return v


def plain_decimal(d):
    """A Decimal as wormcast reads numbers: plain decimal digits, no exponent (1000, 0.02)."""
    t = format(d.normalize(), "f")
    return t if t != "-0" else "0"


def same_value(v):
    """A value as lists of values compare it: 0.1 and 0.10 are one number; other text is itself."""
    try:
        return ("n", decimal.Decimal(v).normalize()) if decimal.Decimal(v).is_finite() else ("s", v)
    except decimal.InvalidOperation:
        return ("s", v)


def value_list(spec, limit=10000):
    """A list of values as the sweeps take it: start:stop:step (three finite numbers, step > 0,
    stop >= start, stop included when on the grid) or v1,v2,... (no empty value, each value once:
    0.1 and 0.10 are one). The values as text; ValueError(why) names what is wrong."""
    if ":" in spec:
        try:
            start, stop, step = (decimal.Decimal(x) for x in spec.split(":"))
        except (decimal.InvalidOperation, ValueError):
            raise ValueError("allowed: start:stop:step with three numbers")
        if not all(x.is_finite() for x in (start, stop, step)):
            raise ValueError("allowed: start:stop:step with three finite numbers")
        if step <= 0 or stop < start:
            raise ValueError("allowed: step > 0 and stop >= start")
        n = int((stop - start) / step) + 1
        if n > limit:
            raise ValueError(f"allowed: at most {limit} values")
        return [plain_decimal(start + i * step) for i in range(n)]
    values = spec.split(",")
    if "" in values:
        raise ValueError("(an empty value); allowed: v1,v2,... with no empty value")
    if len(values) > limit:
        raise ValueError(f"allowed: at most {limit} values")
    seen = {}
    for v in values:
        if same_value(v) in seen:
            raise ValueError(f"({seen[same_value(v)]} and {v} are one value); allowed: each value once")
        seen[same_value(v)] = v
    return values


def int_range(lo=None, hi=None):
    allowed = ("an integer " + (f"{lo}..{hi}" if hi is not None else f">= {lo}")) if lo is not None else "an integer"

    def parse(text):
        try:
            v = _number(text, int)
        except ValueError:
            raise _bad(text, allowed)
        if (lo is not None and v < lo) or (hi is not None and v > hi):
            raise _bad(text, allowed)
        return v
    return parse


def float_range(lo=None, hi=None, lo_open=False, hi_open=False):
    """A finite number in the range (open ends where asked)."""
    left = "" if lo is None else f"{'>' if lo_open else '>='} {lo:g}"
    right = "" if hi is None else f"{'<' if hi_open else '<='} {hi:g}"
    allowed = "a finite number" + (" " + " and ".join(x for x in (left, right) if x) if left or right else "")

    def parse(text):
        try:
            v = _number(text, float)
        except ValueError:
            raise _bad(text, allowed)
        if lo is not None and (v < lo or (lo_open and v == lo)):
            raise _bad(text, allowed)
        if hi is not None and (v > hi or (hi_open and v == hi)):
            raise _bad(text, allowed)
        return v
    return parse


def list_of(item, allowed, min_len=1, max_len=10000, unique=True):
    """A comma-separated list of item(text) values (an empty item is an error; with `unique`, so
    is a value given twice, which would run or count its work twice)."""
    def parse(text):
        parts = str(text).split(",")
        if not min_len <= len(parts) <= max_len:
            raise _bad(text, allowed)
        out = []
        for p in parts:
            try:
                out.append(item(p))
            except (argparse.ArgumentTypeError, ValueError):
                raise _bad(text, allowed)
        if unique and len(set(map(repr, out))) != len(out):
            raise _bad(text, f"{allowed}, each value once")
        return out
    return parse


def choice(*names):
    allowed = ", ".join(names)

    def parse(text):
        if text not in names:
            raise _bad(text, allowed)
        return text
    return parse


def nonempty(text):
    if not str(text).strip():
        raise _bad(text, "a non-empty value")
    return text


class _Parser(argparse.ArgumentParser):
    """argparse with the contract's one-line errors (exit 2)."""

    def error(self, message):
        m = re.match(r"argument ([^:]+): '(.*)' is invalid( \(.*?\))?; allowed: (.*)$", message, re.S)
        if m:
            opt = m.group(1).split("/")[-1]
            die(f"{opt} = '{m.group(2)}' is invalid{m.group(3) or ''}; allowed: {m.group(4)}")
        die(message + "; see --help")


def help_parts(doc):
    """A script's --help from its docstring: the description is the first paragraph (up to the
    first blank line, however many lines it takes), the epilog the rest, kept as written."""
    head, _, rest = doc.strip("\n").partition("\n\n")
    return {"description": " ".join(x.strip() for x in head.splitlines()), "epilog": rest or None,
            "formatter_class": argparse.RawDescriptionHelpFormatter}


class Contract:
    """One script's name for its error lines, its parser and its planned outputs."""

    def __init__(self, name):
        self.name = name
        _NAME[0] = name
        self.outputs = {}
        self.inputs = {}

    def parser(self, **kw):
        kw.setdefault("allow_abbrev", False)
        return _Parser(prog=self.name, **kw)

    # ---- outputs, planned before any work ----

    def output_file(self, option, path):
        """A file the script will write: its directory exists and is writable, the path is not a
        directory (nor an unwritable file), and no other output of the run has it. Returns it."""
        if path is None or not str(path).strip() or "\0" in str(path):
            fail(option, path, "a file path")
        full = os.path.abspath(path)
        if os.path.islink(full):
            via = _open_file_link(full)
            if via:  # its file is whatever that stream is now (a log the shell appends to, say)
                fail(option, path, "a file", f"it names an open stream of a process, through {shown(via)}")
            if not os.path.exists(full):
                fail(option, path, "a new or regular file, or a link to one", "a symbolic link that names no file")
        full = os.path.abspath(destination(full))  # a link's file: it is the one replaced
        parent = os.path.dirname(full)
        if os.path.isdir(full):
            fail(option, path, "a file path (this is a directory)")
        if not os.path.isdir(parent):
            fail(option, path, "a file in an existing directory", f"no directory {shown(parent)}")
        if not os.access(parent, os.W_OK | os.X_OK):
            fail(option, path, "a file in a writable directory", f"{shown(parent)} is not writable")
        why = _replace_blocker(full)  # (before the probe, which an append-only directory keeps)
        if why:
            fail(option, path, "a file the script can replace, or a new one", why)
        _probe(option, path, parent, "a file in a writable directory")
        if os.path.lexists(full) and (not os.path.isfile(full) or not os.access(full, os.W_OK)):
            fail(option, path, "a regular writable file or a new one")
        self._claim(option, path, full)
        return path

    def output_dir(self, option, path):
        """A directory the script will write into (created when missing, with its parents): it is
        a writable directory, or its nearest existing ancestor is. Returns it."""
        if path is None or not str(path).strip() or "\0" in str(path):
            fail(option, path, "a directory path")
        full = os.path.abspath(path)
        probe = full
        while not os.path.lexists(probe):
            probe = os.path.dirname(probe)
        if not os.path.isdir(probe):
            fail(option, path, "a directory (or a new one)", f"{shown(probe)} is not a directory")
        if not os.access(probe, os.W_OK | os.X_OK):
            fail(option, path, "a writable directory", f"{shown(probe)} is not writable")
        _probe(option, path, probe, "a writable directory")
        self._claim(option, path, full)
        return path

    def _claim(self, option, path, full):
        full = os.path.realpath(full)  # one name per file, through linked directories too
        for other, p in self.outputs.items():
            if p == full:
                fail(option, path, f"a path no other output uses (it is {other}'s)")
        for other, p in self.inputs.items():
            if p == os.path.realpath(full):
                fail(option, path, f"a path no input uses (it is {other}, an input of this run)")
        self.outputs[option] = full

    # ---- inputs ----

    def input_path(self, option, path):
        """A file the run reads (directly or through the program): no output may be it. Returns it."""
        if path is not None and str(path).strip():
            full = os.path.realpath(path)
            for other, p in self.outputs.items():
                if os.path.realpath(p) == full:
                    fail(other, p, f"a path no input uses (it is {option}, an input of this run)")
            self.inputs[option] = full
        return path

    def input_text(self, option, path, allowed="a readable text file"):
        """The text of an input file (UTF-8), or exit 2 naming the option."""
        if path is None or not str(path).strip():
            fail(option, path, allowed)
        self.input_path(option, path)
        if os.path.isdir(path):
            fail(option, path, allowed, "a directory")
        try:
            if os.path.exists(path) and not os.path.isfile(path):
                fail(option, path, allowed, "not a regular file")
            with open(path, "rb") as f:
                data = f.read(MAX_INPUT_BYTES + 1)
        except OSError as e:
            fail(option, path, allowed, e.strerror or str(e))
        if len(data) > MAX_INPUT_BYTES:
            fail(option, path, allowed, "larger than 1 GiB")
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as e:
            fail(option, path, allowed, f"not UTF-8 text at byte {e.start}")
        if "\0" in text:
            fail(option, path, allowed, "a NUL byte: not text")
        return text

    def input_json(self, option, path, allowed="a JSON file"):
        """A parsed JSON input (nesting bounded, numbers finite), or exit 2 naming the option."""
        text = self.input_text(option, path, allowed)
        try:
            value = json.loads(text, parse_constant=_refuse_constant)
        except (ValueError, RecursionError) as e:
            fail(option, path, allowed, f"not JSON: {str(e).splitlines()[0][:80]}")
        if _depth(value) > MAX_JSON_DEPTH:
            fail(option, path, allowed, f"nested deeper than {MAX_JSON_DEPTH} levels")
        return value

    # ---- writes ----

    def write_atomic(self, path, text):
        """text written to a hidden temporary next to path, then renamed into place; the
        temporary is removed on any failure, exit or signal. A failure is exit 2 naming the path."""
        write_atomic(path, text)


def _open_file_link(path):
    """The first link from path towards its file that points into a process's table of open
    files (/proc/<pid>/fd/, /proc/self/fd/, /dev/fd/), or None."""
    def in_table(p):
        return (p.startswith("/proc/") and "/fd/" in p) or p.startswith("/dev/fd/")
    at = path
    for _ in range(40):
        here = os.path.join(os.path.realpath(os.path.dirname(at)), os.path.basename(at))
        if in_table(here):
            return here
        try:
            to = os.readlink(at)
        except OSError:
            return None
        to = to if to.startswith("/") else os.path.join(os.path.dirname(at), to)
        if in_table(to):
            return to
        at = to
    return None


_FS_IOC_GETFLAGS = 0x80086601  # _IOR('f', 1, long)
_FS_IMMUTABLE_OR_APPEND = 0x00000010 | 0x00000020


def _inode_flags(path):
    """The immutable and append-only attributes of path (0 when they cannot be read)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY)
    except OSError:
        return 0
    try:
        buf = array.array("i", [0])
        fcntl.ioctl(fd, _FS_IOC_GETFLAGS, buf, True)
        return buf[0] & _FS_IMMUTABLE_OR_APPEND
    except OSError:
        return 0
    finally:
        os.close(fd)


def _replace_blocker(full):
    """Why a file renamed from its directory cannot be put at full, or None (as the program's
    output plan: the directory's or the file's immutable or append-only attribute, another user's
    file in a directory with the sticky bit)."""
    parent = os.path.dirname(full)
    if _inode_flags(parent):
        return f"directory {shown(parent)} has the immutable or append-only attribute"
    try:
        st = os.lstat(full)
    except OSError:
        return None
    if _inode_flags(full):
        return "the file has the immutable or append-only attribute"
    me, dst = os.geteuid(), os.stat(parent)
    if dst.st_mode & 0o1000 and me not in (0, st.st_uid, dst.st_uid):
        return f"it is another user's file in directory {shown(parent)}, whose sticky bit lets only its owner replace it"
    return None


def _probe(option, path, directory, allowed):
    """Creates and removes a hidden file in directory: the permission bits do not tell everything
    (a read-only mount, /proc, root's rights), a file created there does."""
    try:
        fd, tmp = tempfile.mkstemp(prefix=".wcargs-probe.", dir=directory)
        os.close(fd)
        os.unlink(tmp)
    except OSError as e:
        fail(option, path, allowed, f"no file can be created in {shown(directory)}: {e.strerror or e}")


def _refuse_constant(name):
    raise ValueError(f"{name} is not a JSON number")


def _depth(v):
    """Nesting depth of a parsed JSON value, without recursion."""
    best, stack = 0, [(v, 1)]
    while stack:
        x, d = stack.pop()
        best = max(best, d)
        if d > MAX_JSON_DEPTH:
            return d
        if isinstance(x, dict):
            stack.extend((y, d + 1) for y in x.values())
        elif isinstance(x, list):
            stack.extend((y, d + 1) for y in x)
    return best


_UMASK = os.umask(0)
os.umask(_UMASK)


def destination(path):
    """Where an output named `path` is put: the file a symbolic link names (a rename over the link
    would put a plain file in its place), else path itself."""
    return os.path.realpath(path) if os.path.islink(path) else path


def temporary(path):
    """A new hidden temporary `.NAME.XXXXXX` next to path (next to the file a link names),
    registered for removal; its name."""
    full = os.path.abspath(destination(path))
    # '.' NAME '.' and mkstemp's 8 characters within 255 bytes, with room for a companion: a long
    # NAME is cut for the temporary.
    base = os.path.basename(full).encode()[:237].decode(errors="ignore")
    fd, tmp = tempfile.mkstemp(prefix="." + base + ".", dir=os.path.dirname(full))
    # A result file gets the permissions any new file gets (0666 less the umask), not mkstemp's 0600.
    os.fchmod(fd, 0o666 & ~_UMASK)
    os.close(fd)
    _TEMPORARIES.add(tmp)
    return tmp


def commit(tmp, path):
    """Renames a temporary of temporary() into place (the file a link names, the link kept)."""
    os.replace(tmp, destination(path))
    _TEMPORARIES.discard(tmp)


def discard(tmp):
    try:
        os.unlink(tmp)
    except OSError:
        pass
    _TEMPORARIES.discard(tmp)


def temporary_dir(prefix="tmp", dir=None):
    """A new directory (tempfile.mkdtemp), registered for removal with all it holds on every exit
    path and signal; remove_dir() removes it, keep_dir() leaves it in place."""
    d = tempfile.mkdtemp(prefix=prefix, dir=dir)
    _TEMPORARY_DIRS.add(d)
    return d


def remove_dir(d):
    shutil.rmtree(d, ignore_errors=True)
    _TEMPORARY_DIRS.discard(d)


def keep_dir(d):
    _TEMPORARY_DIRS.discard(d)


class TemporaryDirectory(tempfile.TemporaryDirectory):
    """tempfile.TemporaryDirectory whose directory is also removed when a signal stops the script
    (which exits without leaving the with-blocks)."""

    def __init__(self, *args, **kw):
        super().__init__(*args, **kw)
        _TEMPORARY_DIRS.add(self.name)

    def cleanup(self):
        super().cleanup()
        _TEMPORARY_DIRS.discard(self.name)


def write_atomic(path, text, mode=None):
    tmp = None
    try:
        tmp = temporary(path)
        with open(tmp, "w", newline="") as f:
            f.write(text)
        if mode is not None:
            os.chmod(tmp, mode)
        commit(tmp, path)
    except OSError as e:
        if tmp:
            discard(tmp)
        die(f"{shown(path)}: cannot be written ({e.strerror or e})")


def csv_text(rows, fields, extrasaction="raise"):
    """The text csv.DictWriter writes for dict rows under a header of `fields` (for write_atomic)."""
    buf = io.StringIO(newline="")
    w = csv.DictWriter(buf, fieldnames=fields, extrasaction=extrasaction)
    w.writeheader()
    w.writerows(rows)
    return buf.getvalue()


def _cleanup():
    for tmp in list(_TEMPORARIES):
        discard(tmp)
    for d in list(_TEMPORARY_DIRS):
        remove_dir(d)


# ---- wormcast, run with its exit codes passed through ----

def run_wormcast(cmd, ok=(0,)):
    """Runs cmd with its output captured (a CompletedProcess, text); an exit outside `ok` is passed
    through: wormcast's own stderr lines as they are and its exit code (2 bad input, 1, 3, 4, 5 ...)."""
    res = run_child(cmd, capture_output=True, text=True, errors="replace")
    if res.returncode not in ok:
        passthrough(res)
    return res


def csv_records(path, text, fields):
    """An earlier run's CSV (its text; path as messages name it) with exactly the header `fields`:
    (line number, {column: text}) for each non-empty line. Another header, or a line of another
    width, is one line naming the file and the line, exit 2."""
    reader = csv.reader(text.splitlines())
    header = next(reader, None)
    if header != fields:
        die(f"{path}: line 1 (the header) = '{shown(','.join(header or []))}' is invalid; allowed: {','.join(fields)}")
    for line, values in enumerate(reader, 2):
        if not values:
            continue
        if len(values) != len(fields):
            die(f"{path}: line {line} = '{shown(','.join(values))}' is invalid ({len(values)} values); allowed: one "
                f"value per column ({','.join(fields)})")
        yield line, dict(zip(fields, values))


def bad_cell(path, line, col, value, allowed):
    """A CSV's value unlike a run's: one line naming the file, line and column, exit 2."""
    die(f"{path}: line {line}, column {col} = '{shown(value)}' is invalid; allowed: {allowed}")


def check_sets(program, sets, own, checks):
    """A script's --set KEY=VALUE list (for every run) before any work: each key=value, none of
    the keys the script sets itself (own: {key: what sets it}), and the list taken by `program
    config --check` with each of checks ([(what, config arguments)]: the runs' configurations).
    Bad input is one line naming --set (and the configuration it fails with), exit 2."""
    for s in sets:
        key = s.split("=", 1)[0]
        if "=" not in s or not key:
            fail("--set", s, "key=value (repeatable)")
        if key in own:
            fail("--set", s, f"a key other than {', '.join(own)}", f"{own[key]} sets {key}")
    if not sets:
        return
    for what, args in checks:
        cmd = [program, "config", "--check"] + args
        for s in sets:
            cmd += ["--set", s]
        p = run_child(cmd, capture_output=True, text=True, errors="replace")
        if p.returncode != 0:
            why = " ".join(p.stderr.split()).removeprefix("wormcast: ").removeprefix("wormcast config: ")
            die(f"--set = '{shown(' '.join(sets))}' is invalid{' for ' + what if what else ''}: {why}")


def run_child(cmd, capture_output=False, text=False, errors=None, shell=False, stdout=None, stderr=None, env=None,
              check=False):
    """subprocess.run for a long child (a simulation, GNU parallel and its jobs): it runs in a
    process group of its own, to which the signal that stops this script is forwarded, so that no
    child or grandchild runs on (or writes a result) after the script has stopped. (Outside run(),
    which forwards the signals, the child stays in this script's group, where a terminal's
    interrupt reaches it.)"""
    if capture_output:
        stdout = stderr = subprocess.PIPE
    try:
        with _SPAWN:  # started and registered at once: a signal's handler sees every child
            p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=stdout, stderr=stderr, text=text, errors=errors,
                                 shell=shell, env=env, start_new_session=_FORWARDING[0])
            p.wc_group = _FORWARDING[0]
            _CHILDREN.add(p)
    except OSError as e:
        die(f"{shown(cmd if shell else cmd[0])} cannot be run ({e.strerror or e})")
    try:
        out, err = p.communicate()
    finally:
        _CHILDREN.discard(p)
    if check and p.returncode != 0:
        raise subprocess.CalledProcessError(p.returncode, cmd, out, err)
    return subprocess.CompletedProcess(cmd, p.returncode, out, err)


def passthrough(res, others=False):
    """Ends the script the way the wormcast run ended: its stderr (or its last stdout line) and its
    exit code; a negative code (killed by a signal) as the shell's 128 + N. others: runs of other
    threads may be under way (a pool of parallel runs): they are stopped, and the script exits at
    once instead of waiting for its threads (their work would be discarded)."""
    if others:
        _stop_children(signal.SIGTERM)
    msg = (res.stderr or "").strip() or ((res.stdout or "").strip().splitlines() or [""])[-1]
    code = res.returncode if res.returncode > 0 else 128 - res.returncode
    if res.returncode == 0:  # it ended well but left no result: a failure of that run
        msg, code = f"{shown(res.args[0])} exited 0 without writing its result", 1
    elif not msg:  # a failure that said nothing: which run, and how it ended
        how = f"was stopped by signal {-res.returncode}" if res.returncode < 0 else f"exited {res.returncode}"
        msg = f"{shown(res.args[0])} {how} without a message"
    try:
        if msg:
            print(msg, file=sys.stderr, flush=True)
    except (OSError, ValueError):
        pass
    _cleanup()
    if others:
        os._exit(code)
    sys.exit(code)


# ---- a progress line on a terminal ----

_PROGRESS_SHOWN = [False]


def progress(text):
    """Shows `text` as the progress line on a terminal (stderr), in place; nothing when stderr is
    not one. A signal that stops the script clears the line before its note."""
    if sys.stderr.isatty():
        print(f"\r  {text}   ", end="", file=sys.stderr, flush=True)
        _PROGRESS_SHOWN[0] = True


def progress_done():
    """Clears the progress line (when one was shown)."""
    if _PROGRESS_SHOWN[0]:
        print("\r" + " " * 70 + "\r", end="", file=sys.stderr, flush=True)
        _PROGRESS_SHOWN[0] = False


# ---- the exit paths ----

def _stop_children(signum):
    """Sends signum to every child (and its group) and keeps other threads from starting one: the
    caller exits next (it keeps the lock they start children under)."""
    _SPAWN.acquire()
    # A child of a script started in the background by a shell without job control inherits SIGINT
    # and SIGQUIT ignored (a sleeping stand-in, or BookSim2, then ran on): those are followed by
    # SIGTERM.
    signums = [signum] + ([signal.SIGTERM] if signum in (signal.SIGINT, signal.SIGQUIT) else [])
    for p in list(_CHILDREN):
        for n in signums:
            try:
                if getattr(p, "wc_group", False):
                    os.killpg(p.pid, n)  # the child and every process it started
                else:
                    p.send_signal(n)
            except OSError:
                pass


def _on_signal(signum, _frame):
    """Forwards the signal to every child (and its group), removes the temporaries (files and
    directories: os._exit leaves no with-block), and exits 128 + N. Other threads start no child
    after this: the handler keeps the lock they start children under."""
    _stop_children(signum)
    _cleanup()
    try:
        progress_done()
        print(f"{_NAME[0]}: stopped by signal {signal.Signals(signum).name}", file=sys.stderr, flush=True)
    except (OSError, ValueError):
        pass
    os._exit(128 + signum)


def run(main):
    """Calls main() under the contract: its return value (or sys.exit) is the exit code; an
    interrupt or termination removes the temporaries (128 + N); an exception nobody expected is
    one line `SCRIPT: internal error: ...` and exit 70; a closed standard output is exit 2."""
    for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT, signal.SIGUSR1, signal.SIGUSR2,
              signal.SIGALRM):
        if signal.getsignal(s) is signal.SIG_IGN and s == signal.SIGHUP:
            continue  # a hang-up ignored on entry (nohup) stays ignored
        signal.signal(s, _on_signal)
    _FORWARDING[0] = True
    if _NAME[0] == "script":  # a script that names itself later (its checker) or not at all
        _NAME[0] = os.path.basename(sys.argv[0]) or "script"
    try:
        code = main()
    except SystemExit:
        _cleanup()
        raise
    except BrokenPipeError:
        _cleanup()
        try:
            sys.stdout = None
        except Exception:
            pass
        os._exit(EXIT_BAD_INPUT)
    except MemoryError:
        _cleanup()
        die("out of memory")
    except RecursionError:
        _cleanup()
        die("internal error: input nested too deeply", EXIT_INTERNAL)
    except Exception as e:  # noqa: BLE001  (the contract: no traceback reaches the user)
        _cleanup()
        where = ""
        tb = e.__traceback__
        while tb is not None and tb.tb_next is not None:
            tb = tb.tb_next
        if tb is not None:
            where = f" at {os.path.basename(tb.tb_frame.f_code.co_filename)}:{tb.tb_lineno}"
        die(f"internal error: {type(e).__name__}: {shown(e, 200)}{where}", EXIT_INTERNAL)
    _cleanup()
    try:
        sys.stdout.flush()
    except (BrokenPipeError, OSError, ValueError):
        os._exit(EXIT_BAD_INPUT)
    sys.exit(code or 0)
