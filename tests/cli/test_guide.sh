#!/usr/bin/env bash
# Runs every ```sh block of docs/guide.md, in order, as one bash script (set -euo pipefail) in a
# scratch directory that looks like the top of the repository (scripts/, configs/, examples/ and
# build/ linked to the real ones), so the guide's commands cannot drift from the tool.
# Usage: test_guide.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
src=$1 build=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for d in scripts configs examples; do ln -s "$src/$d" "$work/$d"; done
ln -s "$build" "$work/build"
script="$work/guide.sh"
/usr/bin/python3 - "$src/docs/guide.md" "$script" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
blocks = re.findall(r"^```sh\n(.*?)^```$", text, flags=re.S | re.M)
if len(blocks) < 6:
    sys.exit(f"FAIL: docs/guide.md has {len(blocks)} sh blocks, expected at least 6")
with open(sys.argv[2], "w") as f:
    f.write("set -euo pipefail\n")
    for i, b in enumerate(blocks, 1):
        f.write(f"echo '== guide block {i}'\n{b}\n")
print(f"{len(blocks)} blocks")
PY
cd "$work"
bash "$script"
# What the guide says the commands produce.
for f in out/guide/eval/summary.csv out/guide/eval/sweep.png out/guide/eval/saturation.json out/guide/r_histogram.png \
         out/guide/r_hops.png out/guide/r_heatmap.png out/guide/r_vcs.png out/guide/compare/summary.csv \
         out/guide/p14.gtkw out/guide/bc.json out/guide/gossip.json out/guide/cluster/sweep.csv; do
  [ -s "$f" ] || { echo "FAIL: the guide's $f was not written"; exit 1; }
done
grep -q "vc_order" out/guide/r.json || { echo "FAIL: router_activity.vc_order missing from the result"; exit 1; }
echo "PASS: every command of docs/guide.md ran"
