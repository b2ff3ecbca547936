#!/usr/bin/env bash
# Valiant routing (docs/router.md section 13) from the command line (its comparison with dimension
# order is routing_beats_dor.sh).
#   refused: the combinations Valiant does not support exit 2 with one line naming the field.
# Usage: test_valiant.sh WORMCAST refused
set -uo pipefail
wormcast=$1
section=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1

case "$section" in
refused)
  fail=0
  expect_refused() {  # field, then the overrides
    local field=$1
    shift
    local sets=()
    for s in "$@"; do sets+=(--set "$s"); done
    local err
    err=$("$wormcast" traffic --measure 10 --json "$work/bad.json" "${sets[@]}" 2>&1 >/dev/null)
    local rc=$?
    if [ $rc -ne 2 ]; then echo "FAIL: $* exited $rc, want 2"; fail=1; fi
    if [ -e "$work/bad.json" ]; then echo "FAIL: $* left an output file"; fail=1; fi
    if [ "$(printf '%s\n' "$err" | wc -l)" -ne 1 ]; then echo "FAIL: $* error is not one line: $err"; fail=1; fi
    case "$err" in *"$field"*) ;; *) echo "FAIL: $* error does not name $field: $err"; fail=1 ;; esac
  }
  expect_refused router.routing router.routing=valiant router.model=rtl
  expect_refused router.routing router.routing=valiant router.model=mixed
  # The RTL's routing is named as what is allowed.
  err=$("$wormcast" traffic --measure 10 --set router.routing=valiant --set router.model=rtl 2>&1 >/dev/null)
  case "$err" in *"allowed with router.model = rtl or mixed: dor"*) ;; *) echo "FAIL: rtl error: $err"; fail=1 ;; esac
  # Two sets of C * V VCs: at most 4 per dateline class.
  expect_refused router.vcs_per_class router.routing=valiant router.vcs_per_class=5
  # A torus-family key: the interlaced bypass torus routes by ibt.routing.
  expect_refused router.routing net.family=ibt net.radix=16x16 router.routing=valiant
  # Accepted: the largest VC count, a mesh, the allocator units.
  for ok in "router.vcs_per_class=4" "net.topology=mesh" "router.allocator=output-first"; do
    "$wormcast" config --check --set router.routing=valiant --set "$ok" >/dev/null 2>&1 ||
      { echo "FAIL: router.routing=valiant with $ok refused"; fail=1; }
  done
  exit $fail
  ;;
*)
  echo "usage: test_valiant.sh WORMCAST refused" >&2
  exit 2
  ;;
esac
