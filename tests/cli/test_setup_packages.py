#!/usr/bin/python3
"""scripts/setup installs what the project uses and nothing it does not: every development
package it lists is used by the build (the evidence below is found in the tree), and every
third-party Python module a script imports comes from a package it lists."""
import os
import re
import subprocess
import sys

top = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
setup = open(os.path.join(top, "scripts", "setup")).read()
pkgs = re.search(r"pkgs=\(([^)]*)\)", setup).group(1).split()

# A development package -> a pattern its users in the tree match (git grep -E).
DEV_USES = {
    "libsystemc-dev": r"find_package\(SystemC",
    "catch2": r"find_package\(Catch2",
    "libcli11-dev": r"find_package\(CLI11",
    "nlohmann-json3-dev": r"find_package\(nlohmann_json",
    "libyaml-cpp-dev": r"find_package\(yaml-cpp",
    "libfmt-dev": r"find_package\(fmt",
    "libbenchmark-dev": r"find_package\(benchmark|benchmark::|<benchmark/benchmark\.h>",
    "libclang-rt-14-dev": r"-fsanitize=fuzzer",  # the fuzz target's runtime (scripts/fuzz)
    "libunicorn-dev": r"pkg_check_modules\(UNICORN",  # the RV32 node processor (node.cpu = rv32)
}
# A third-party module scripts import -> the Debian packages that bring it (python3-matplotlib
# depends on python3-numpy).
MODULES = {"matplotlib": ("python3-matplotlib",), "scipy": ("python3-scipy",),
           "numpy": ("python3-numpy", "python3-matplotlib")}

fail = []


def used(pattern):
    p = subprocess.run(["git", "-C", top, "grep", "-lE", "-e", pattern, "--", ".", ":!scripts/setup", ":!tests/cli/test_setup_packages.py"],
                       capture_output=True, text=True)
    return p.stdout.split()


for pkg in pkgs:
    if not (pkg.endswith("-dev") or pkg == "catch2"):
        continue
    if pkg not in DEV_USES:
        fail.append(f"scripts/setup installs {pkg}: name what uses it in DEV_USES")
    elif not used(DEV_USES[pkg]):
        fail.append(f"scripts/setup installs {pkg}, which nothing in the tree uses ({DEV_USES[pkg]})")

imported = set()
scripts = os.path.join(top, "scripts")
for name in os.listdir(scripts):
    path = os.path.join(scripts, name)
    try:
        text = open(path, encoding="utf-8").read()
    except (OSError, UnicodeDecodeError):
        continue
    if not (name.endswith(".py") or text.startswith("#!/usr/bin/python3") or text.startswith("#!/usr/bin/env python3")):
        continue
    for m in re.finditer(r"^\s*(?:import|from)\s+([A-Za-z_][A-Za-z0-9_]*)", text, re.M):
        if m.group(1) in MODULES:
            imported.add(m.group(1))
for mod in sorted(imported):
    if not any(p in pkgs for p in MODULES[mod]):
        fail.append(f"scripts import {mod} but scripts/setup does not install {MODULES[mod][0]}")
if "scipy" not in imported:
    fail.append("no script imports scipy (scripts/wcsat.py's t quantile)")

for f in fail:
    print("FAIL:", f)
print("ok" if not fail else f"{len(fail)} failures")
sys.exit(1 if fail else 0)
