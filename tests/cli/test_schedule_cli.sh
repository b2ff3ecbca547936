#!/usr/bin/env bash
# `wormcast schedule` contract: exit 0/1/2 (ok / --check failed / bad input), one-line errors
# naming the option, no file left behind on bad input, JSON with the documented fields.
set -u
bin=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
fail=0

expect_bad() {  # option-named-in-error, args...
  local name=$1
  shift
  rm -f "$work"/out.*
  local err
  err=$("$bin" schedule "$@" --json "$work/out.json" --svg "$work/out.svg" 2>&1 >/dev/null)
  local rc=$?
  if [ $rc -ne 2 ]; then echo "FAIL: [$*] exited $rc, want 2"; fail=1; fi
  if [ -n "$(ls "$work")" ]; then echo "FAIL: [$*] left files: $(ls "$work")"; fail=1; fi
  if [ "$(printf '%s\n' "$err" | wc -l)" -ne 1 ]; then echo "FAIL: [$*] error is not one line: $err"; fail=1; fi
  case "$err" in *"$name"*) ;; *) echo "FAIL: [$*] error does not name $name: $err"; fail=1 ;; esac
}

expect_bad --net --algo dcf
expect_bad --net --net ring:4x4 --algo dcf
expect_bad --algo --net torus:8x8 --algo dfc
expect_bad dcf --net torus:6x6 --algo dcf
expect_bad tseng --net torus:8x16 --algo tseng
expect_bad wang-tseng --net torus:5x6x5 --algo wang-tseng
expect_bad --source --net torus:8x8 --algo dcf --source 8,0
expect_bad --source --net torus:8x8 --algo dcf --source 1,2,3
expect_bad --dcf-variant --net torus:8x8 --algo dcf --dcf-variant sol3
expect_bad --svg --net torus:5x5x5 --algo wang-tseng
expect_bad "marks" --net torus:32x32 --algo sequential  # 1,024 nodes x 1,023 steps: too large to draw

"$bin" schedule --net torus:16x16 --algo dcf --source 3,4 --check --quiet --json "$work/dcf.json" \
  --svg "$work/dcf.svg" >"$work/dcf.txt" || { echo "FAIL: dcf --check exited $?"; fail=1; }
grep -q "depth contention-free (Theorem 1): yes" "$work/dcf.txt" || { echo "FAIL: dcf not depth-CF"; fail=1; }
python3 - "$work/dcf.json" <<'PY' || fail=1
import json, sys
d = json.load(open(sys.argv[1]))
assert d["dims"] == [16, 16] and d["topology"] == "torus:16x16" and d["source"] == [3, 4], d
assert d["algo"] == "dcf" and d["steps"] == 4 and len(d["unicasts"]) == 255
u = d["unicasts"][0]
assert set(u) == {"src", "dst", "step", "order"} and u["src"] == [3, 4] and u["step"] == 1, u
assert d["check"]["ok"] and d["check"]["depth_contention_free"]
PY
grep -q "<svg" "$work/dcf.svg" || { echo "FAIL: no SVG"; fail=1; }

"$bin" schedule --net torus:8x8 --algo edn --json "$work/edn.json" >/dev/null || { echo "FAIL: edn"; fail=1; }
python3 - "$work/edn.json" <<'PY' || fail=1
import json, sys
d = json.load(open(sys.argv[1]))
ties = [u for u in d["unicasts"] if "tie" in u]
assert len(ties) == 1 and ties[0]["tie"] == "negative" and ties[0]["dst"] == [4, 4], ties
PY

"$bin" schedule --net torus:16x16 --algo tseng --keep-redundant --check --quiet >/dev/null
rc=$?
[ $rc -eq 1 ] || { echo "FAIL: redundant tseng --check exited $rc, want 1"; fail=1; }

exit $fail
