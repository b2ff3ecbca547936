#!/usr/bin/env bash
# memprobe: one CSV row per pattern with a positive cost per line, the dependent chain dearer per
# read than the stream; bad input exits 2 with one line naming the option and the allowed range.
# Usage: test_memprobe.sh MEMPROBE
set -euo pipefail
probe=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$probe" --mib 64 --pages small --reads 20000 >"$work/m.csv"
/usr/bin/python3 - "$work/m.csv" <<'PY'
import csv, math, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert [r["pattern"] for r in rows] == ["stream"] + ["independent"] * 14 + ["chain"], rows
assert {r["pages"] for r in rows} == {"small"}, rows
ind = [(r["order"], int(r["lines_per_page"])) for r in rows if r["pattern"] == "independent"]
assert ind == [(o, l) for o in ("random", "ascending") for l in (1, 2, 4, 8, 16, 32, 64)], ind
for r in rows:
    ns = float(r["ns_per_line"])
    assert 0 < ns < 1e6 and math.isfinite(ns) and int(r["reads"]) > 0, r
# a dependent read waits for the one before it; a streamed line does not
assert float(rows[-1]["ns_per_line"]) > float(rows[0]["ns_per_line"]), (rows[0], rows[-1])
print("memprobe:", ", ".join(f"{r['pattern']} {r['order']} {r['lines_per_page']}: {r['ns_per_line']} ns" for r in rows[:2] + rows[-1:]))
PY
for bad in "--mib 10" "--pages tiny" "--reads 5"; do
  rc=0
  "$probe" $bad >"$work/out" 2>"$work/err" || rc=$?
  [[ $rc == 2 && $(wc -l <"$work/err") == 1 && ! -s $work/out ]] || { echo "memprobe $bad: exit $rc"; cat "$work/err"; exit 1; }
  grep -q "^memprobe: ${bad%% *}.*allowed" "$work/err" || { echo "memprobe $bad: $(cat "$work/err")"; exit 1; }
done
echo "memprobe: bad input exits 2"
