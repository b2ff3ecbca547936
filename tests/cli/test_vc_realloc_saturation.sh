#!/usr/bin/env bash
# router.vc_realloc = tail raises the throughput an overloaded 8x8 torus accepts (uniform, V = 2,
# B = 8, 5-flit packets, offered 0.7 flits/node/cycle, beyond saturation under both policies)
# by at least 5 % over empty; both runs deliver every packet.
set -u
bin=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
fail=0

for policy in empty tail; do
  "$bin" traffic --rate 0.7 --vcs 2 --buf 8 --measure 10000 --seed 5 --set traffic.packet_len=5 \
    --set router.vc_realloc=$policy --json "$work/$policy.json" >/dev/null
  rc=$?  # beyond saturation: drained and clean, unstable (exit 5)
  [ $rc -eq 5 ] || { echo "FAIL: $policy run exited $rc, want 5"; fail=1; }
done

read -r empty tail ok <<<"$(/usr/bin/python3 - "$work/empty.json" "$work/tail.json" <<'EOF'
import json, sys
e, t = (json.load(open(p)) for p in sys.argv[1:3])
ok = all(j["packets"]["delivered"] == j["packets"]["injected"] and j["scoreboard"]["errors"] == 0
         and j["config"]["router"]["vc_realloc"] == want for j, want in ((e, "empty"), (t, "tail")))
print(e["throughput"]["accepted"], t["throughput"]["accepted"], int(ok))
EOF
)"
echo "accepted at offered 0.7: empty $empty, tail $tail flits/node/cycle"
[ "$ok" = 1 ] || { echo "FAIL: a run lost packets, had scoreboard errors or ignored the policy"; fail=1; }
/usr/bin/python3 -c "import sys; sys.exit(0 if $tail > 1.05 * $empty else 1)" \
  || { echo "FAIL: tail ($tail) is not 5 % above empty ($empty)"; fail=1; }

[ $fail -eq 0 ] && echo "vc_realloc saturation: all checks passed"
exit $fail
