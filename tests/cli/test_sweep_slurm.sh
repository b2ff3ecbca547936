#!/usr/bin/env bash
# scripts/sweep --emit-slurm: the emitted Slurm array script, run here task by task as the
# scheduler would (SLURM_ARRAY_TASK_ID = 1..N), then --merge-only. No cluster needed: the test
# checks the script's array range and output pattern, that every task runs its own point, that a
# task beyond the array fails, and that the merge finds every point.
# Usage: test_sweep_slurm.sh SOURCE_DIR WORMCAST_BUILD_DIR
set -euo pipefail
src=$1 build=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export WORMCAST_BUILD=$build
args=(--set net.radix=4x4 --set sim.measure=500 --vary traffic.rate=0.05,0.1,0.2 --out "$work/s")
"$src/scripts/sweep" "${args[@]}" --emit-slurm >/dev/null
script="$work/s/slurm.sh"
grep -qx '#SBATCH --array=1-3' "$script" || { echo "FAIL: array range"; cat "$script"; exit 1; }
grep -q '^#SBATCH --output=.*/points/slurm-%A_%a.out$' "$script" || { echo "FAIL: output pattern"; exit 1; }
[ ! -e "$work/s/points/p000.json" ] || { echo "FAIL: --emit-slurm ran a point"; exit 1; }
for i in 1 2 3; do SLURM_ARRAY_TASK_ID=$i bash "$script"; done
set +e
SLURM_ARRAY_TASK_ID=4 bash "$script" 2>/dev/null
rc=$?
set -e
[ $rc -eq 2 ] || { echo "FAIL: task 4 of a 3-task array exited $rc, expected 2"; exit 1; }
out=$("$src/scripts/sweep" "${args[@]}" --merge-only)
grep -q "3 points, 3 ok" <<<"$out" || { echo "FAIL: merge: $out"; exit 1; }
/usr/bin/python3 - "$work/s/sweep.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert [r["traffic.rate"] for r in rows] == ["0.05", "0.1", "0.2"], rows
assert all(r["status"] == "ok" for r in rows), [r["status"] for r in rows]
PY
set +e
"$src/scripts/sweep" "${args[@]}" --emit-slurm --merge-only 2>/dev/null
rc=$?
set -e
[ $rc -eq 2 ] || { echo "FAIL: --emit-slurm with --merge-only exited $rc, expected 2"; exit 1; }
echo "PASS: sweep --emit-slurm"
