#!/usr/bin/python3
"""Where the `wormcast` program is, for every script: $WORMCAST (the program itself), else
$WORMCAST_BUILD/tb/wormcast, else build/tb/wormcast of this source tree, else, for scripts
installed as PREFIX/share/wormcast/scripts, PREFIX/bin/wormcast.

Python scripts: `wcprog.program()` (the path) and `wcprog.require(name)` (the path, or one line
on stderr naming what was looked for and exit 2); `wcprog.out_dir(...)`, the default output folder. Shell scripts: `wormcast=$(scripts/wcprog.py)`,
which prints the path, or that line and exits 2."""
import os
import sys

SCRIPTS = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(SCRIPTS)  # the source tree, or PREFIX/share/wormcast when installed


def installed_program():
    """PREFIX/bin/wormcast when these scripts are PREFIX/share/wormcast/scripts, else None."""
    share = os.path.dirname(TOP)
    if os.path.basename(TOP) != "wormcast" or os.path.basename(share) != "share":
        return None
    return os.path.join(os.path.dirname(share), "bin", "wormcast")


def out_dir(*parts):
    """Where a script writes by default: out/... of the source tree, or of the current directory
    for installed scripts (PREFIX/share is no place for results)."""
    return os.path.join(os.getcwd() if installed_program() else TOP, "out", *parts)


def program():
    """The program's path (it may not exist: require() says what is missing)."""
    if os.environ.get("WORMCAST"):
        return os.environ["WORMCAST"]
    if os.environ.get("WORMCAST_BUILD"):
        return os.path.join(os.environ["WORMCAST_BUILD"], "tb", "wormcast")
    built = os.path.join(TOP, "build", "tb", "wormcast")
    installed = installed_program()
    if installed and not os.access(built, os.X_OK):
        return installed
    return built


def missing():
    """Why program() cannot run, in one line (None when it can)."""
    p = program()
    if os.access(p, os.X_OK):
        return None
    if os.environ.get("WORMCAST"):
        return f"WORMCAST = {p} is not an executable program"
    if p == installed_program():
        return f"{p} is not installed (install wormcast with cmake --install, or set WORMCAST to the program)"
    return f"{p} is not built (run scripts/build, or set WORMCAST to the program or WORMCAST_BUILD to a build tree)"


def require(script):
    """program(), or "<script>: <why>" on stderr and exit 2."""
    why = missing()
    if why:
        print(f"{script}: {why}", file=sys.stderr)
        sys.exit(2)
    return program()


if __name__ == "__main__":
    print(require("wormcast"))
