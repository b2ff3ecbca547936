#!/usr/bin/env bash
# The documents tested as text: runs every ```sh block of README.md, then of docs/guide.md, in
# order, as one bash script (set -euo pipefail) in a scratch directory that looks like the top of
# the repository (scripts/, configs/, examples/ and build/ linked to the real ones), so the
# commands cannot drift from the tool; and checks every line the documents quote as output (a
# ```text output block quotes lines printed by the sh block before it; `…` stands for any text,
# e.g. a speed) against what that block printed, so a quoted line the program no longer prints
# fails here. Blocks marked ```sh no-run (what installs packages) are not run.
# Usage: test_guide.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
src=$1 build=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for d in scripts configs examples; do ln -s "$src/$d" "$work/$d"; done
ln -s "$build" "$work/build"
mkdir "$work/logs"
script="$work/docs.sh"
/usr/bin/python3 - "$src" "$script" "$work/logs" "$work/quotes.json" <<'PY'
import json, re, sys
src, script, logs, quotes_path = sys.argv[1:]
fence = re.compile(r"^```([^\n`]*)\n(.*?)^```$", flags=re.S | re.M)
quotes = []
with open(script, "w") as f:
    f.write("set -euo pipefail\ncurrent=\ntrap 'rc=$?; if [ $rc -ne 0 ] && [ -n \"$current\" ]; then "
            "echo \"FAIL: $current exited $rc; what it printed:\"; cat \"$current.log\"; fi' EXIT\n")
    for doc in ("README.md", "docs/guide.md"):
        text = open(f"{src}/{doc}").read()
        runs, last = 0, None
        for m in fence.finditer(text):
            info, body = m.group(1).split(), m.group(2)
            line = text.count("\n", 0, m.start()) + 1
            if info == ["sh"]:
                runs += 1
                last = f"{logs}/{doc.replace('/', '_')}.block{runs}"
                f.write(f"current='{last}'\necho '== {doc} block {runs} (line {line})'\n"
                        f"{{\n{body}\n}} > \"$current.log\" 2>&1\ncat \"$current.log\"\n")
            elif info[:2] == ["text", "output"]:
                if last is None:
                    sys.exit(f"FAIL: {doc}:{line}: an output block with no sh block before it")
                quotes.append({"doc": doc, "line": line, "log": last + ".log",
                               "lines": [(line + 1 + i, q) for i, q in enumerate(body.split("\n")) if q.strip()]})
        if doc == "docs/guide.md" and runs < 6:
            sys.exit(f"FAIL: {doc} has {runs} sh blocks, expected at least 6")
    f.write("current=\n")
json.dump(quotes, open(quotes_path, "w"))
print(f"{sum(len(q['lines']) for q in quotes)} quoted output lines in {len(quotes)} blocks")
PY
cd "$work"
bash "$script"
# Every quoted line against what its block printed.
/usr/bin/python3 - "$work/quotes.json" <<'PY'
import difflib, json, re, sys
bad = 0
for q in json.load(open(sys.argv[1])):
    printed = [l.rstrip() for l in open(q["log"], errors="replace").read().split("\n")]
    for line, quoted in q["lines"]:
        pattern = re.compile(".*?".join(re.escape(p) for p in quoted.rstrip().split("…")))
        if not any(pattern.fullmatch(p) for p in printed):
            bad += 1
            near = difflib.get_close_matches(quoted, printed, n=1, cutoff=0.3)
            print(f"FAIL: {q['doc']}:{line} quotes a line the command does not print:\n  quoted:  {quoted}\n"
                  f"  nearest: {near[0] if near else '(nothing alike)'}")
if bad:
    sys.exit(1)
print(f"every quoted output line is printed ({sum(len(q['lines']) for q in json.load(open(sys.argv[1])))})")
PY
# What the guide says the commands produce.
for f in out/guide/eval/summary.csv out/guide/eval/sweep.png out/guide/eval/saturation.json out/guide/bisection.json \
         out/guide/r_histogram.png out/guide/r_hops.png out/guide/r_heatmap.png out/guide/r_vcs.png \
         out/guide/compare/summary.csv out/guide/p14.gtkw out/guide/bc.json out/guide/gossip.json \
         out/guide/cluster/sweep.csv; do
  [ -s "$f" ] || { echo "FAIL: the guide's $f was not written"; exit 1; }
done
# The sweep's own bracket file and the bisection's report are two files of two schemas.
/usr/bin/python3 -c 'import json,sys; s=json.load(open(sys.argv[1])); b=json.load(open(sys.argv[2]));
assert isinstance(s, list) and isinstance(b, dict), "saturation.json and bisection.json"' \
  out/guide/eval/saturation.json out/guide/bisection.json || { echo "FAIL: a guide output overwrote another"; exit 1; }
grep -q "vc_order" out/guide/r.json || { echo "FAIL: router_activity.vc_order missing from the result"; exit 1; }
echo "PASS: every command of README.md and docs/guide.md ran and printed what they quote"
