#!/usr/bin/env bash
# scripts/check_includes on a small tree that breaks each kind of rule: every break is reported
# on its own line naming the file and the rule, and the exit code is 1; the same tree without the
# breaks passes.
set -u
check=$1
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
mkdir -p "$t/sw/gossip" "$t/systemc/common" "$t/systemc/kernel" "$t/systemc/mway" "$t/systemc/torus" "$t/tb/cli" "$t/tests/sc"
printf '#include "sw/topology/topology.h"\n' > "$t/sw/gossip/ok.h"
printf '#include "systemc/common/config.h"\n#include "sw/topology/topology.h"\n' > "$t/systemc/mway/ok.h"
printf '#include "systemc/mway/ok.h"\n#include "tb/cli/commands.h"\n' > "$t/tests/sc/ok.cpp"
printf '#include "systemc/mway/ok.h"\n#include "sw/gossip/ok.h"\n' > "$t/tb/cli/ok.cpp"
# The kernel includes itself, the time base and invariant reports; a family includes the kernel.
printf '#include "systemc/kernel/lanes.h"\n#include "systemc/common/clock.h"\n#include "systemc/common/model_error.h"\n' > "$t/systemc/kernel/ok.h"
printf '#include "systemc/kernel/ok.h"\n' > "$t/systemc/torus/ok.h"
"$check" "$t" > "$t/out.txt"
rc=$?
fail=0
[ $rc -eq 0 ] || { echo "FAIL: a clean tree exited $rc"; cat "$t/out.txt"; fail=1; }

printf '#include "systemc/mway/ok.h"\n' > "$t/systemc/common/bad.h"
printf '#include <vector>\n#include "systemc/common/config.h"\n#include <systemc>\n' > "$t/sw/gossip/bad.cpp"
printf '#include "systemc/mway/ok.h"\n' > "$t/systemc/torus/bad.h"
printf '#include "tb/cli/commands.h"\n' > "$t/systemc/mway/bad.cpp"
# The kernel knows no configuration or network; the configuration does not include the kernel.
printf '#include "systemc/common/config.h"\n#include "systemc/net/network.h"\n' > "$t/systemc/kernel/bad.cpp"
printf '#include "systemc/kernel/edge_set.h"\n' > "$t/systemc/common/bad2.h"
"$check" "$t" > "$t/out.txt"
rc=$?
[ $rc -eq 1 ] || { echo "FAIL: a tree with broken rules exited $rc"; fail=1; }
for want in 'systemc/common/bad.h:1: includes "systemc/mway/ok.h"' \
             'sw/gossip/bad.cpp:2: includes "systemc/common/config.h"; sw/ may include only sw/' \
             'sw/gossip/bad.cpp:3: includes SystemC' \
             'systemc/torus/bad.h:1: includes "systemc/mway/ok.h"' \
             'systemc/mway/bad.cpp:1: includes "tb/cli/commands.h"' \
             'systemc/kernel/bad.cpp:1: includes "systemc/common/config.h"; systemc/kernel/ may include only' \
             'systemc/kernel/bad.cpp:2: includes "systemc/net/network.h"' \
             'systemc/common/bad2.h:1: includes "systemc/kernel/edge_set.h"'; do
  grep -qF "$want" "$t/out.txt" || { echo "FAIL: no line '$want' in:"; cat "$t/out.txt"; fail=1; }
done
[ "$(wc -l < "$t/out.txt")" -eq 8 ] || { echo "FAIL: expected 8 lines:"; cat "$t/out.txt"; fail=1; }
[ $fail -eq 0 ] && echo "check_includes: clean tree passes, 8 of 8 breaks reported"
exit $fail
