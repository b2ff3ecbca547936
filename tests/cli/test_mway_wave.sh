#!/usr/bin/env bash
# The m-way packet view (docs/mway.md section 12): an m-way run's --trace records every channel
# crossing per receiver, and the waveform's channel lines carry the same packet id and flit index
# at the same edge; `scripts/wave --packet ID --trace` writes one open group per crossing of that
# packet, named with the cycle, channel, driving set and receivers, holding the channel's lines
# with the edge they change at, the driving set's rows and each receiving row. Recording changes
# no result. A few seconds.
# Usage: test_mway_wave.sh WORMCAST
set -uo pipefail
bin=$1
export WORMCAST_BIN=$bin  # scripts/wave runs this program
wave=$(cd "$(dirname "$0")/../../scripts" && pwd)/wave
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
fail=0

run="mway --net mesh:3x3 --algo mst-replica --buffers 2 --rate 0.15 --measure 80 --warmup 0 --seed 2"
"$bin" $run --json plain.json >/dev/null 2>&1 || { echo "FAIL: $run: exit $?"; fail=1; }
"$bin" $run --json traced.json --trace hops.csv --vcd p.vcd >/dev/null 2>&1
rc=$?
[ $rc -eq 0 ] && [ -s hops.csv ] && [ -s p.vcd ] && [ -s p.gtkw ] || { echo "FAIL: $run --trace --vcd: exit $rc"; fail=1; }
cmp -s plain.json traced.json || { echo "FAIL: recording changed the result: $(diff plain.json traced.json | head -4)"; fail=1; }

# The packet whose header reaches the most buffers (a tree broadcast crossing several channels).
pkt=$(awk -F, 'NR > 1 && $8 == 1 { n[$6]++ } END { for (p in n) if (n[p] > best) { best = n[p]; id = p }; print id }' hops.csv)
"$wave" p.vcd --packet "$pkt" --trace hops.csv --save pkt.gtkw --no-launch >out.txt
rc=$?
[ $rc -eq 0 ] && [ -s pkt.gtkw ] || { echo "FAIL: scripts/wave --packet $pkt: exit $rc"; fail=1; }

/usr/bin/python3 - p.vcd hops.csv pkt.gtkw "$pkt" p.gtkw <<'PY' || fail=1
import csv, re, sys
vcd_path, csv_path, gtkw_path, pkt, run_gtkw = sys.argv[1:6]
errors = []

# --- the VCD: declarations, then every value change of the channels' lines and the clock.
ids, scope, decl = {}, [], True
changes = {}  # (scope path, name) -> [(time, value)]
t = 0
for line in open(vcd_path):
    w = line.split()
    if not w:
        continue
    if decl:
        if w[0] == "$scope":
            scope.append(w[2])
        elif w[0] == "$upscope":
            scope.pop()
        elif w[0] == "$var":
            ids.setdefault(w[3], []).append((".".join(scope), w[4]))
        elif w[0] == "$enddefinitions":
            decl = False
        continue
    if w[0][0] == "#":
        t = int(w[0][1:])
        continue
    if w[0][0] == "b":
        value, code = w[0][1:], w[1]
    elif w[0][0] in "01xz" and len(w) == 1:
        value, code = w[0][0], w[0][1:]
    else:
        continue
    for key in ids.get(code, []):
        changes.setdefault(key, []).append((t, value))

def value_at(key, time):
    """The value in effect at `time` (after every change at or before it); None for x."""
    v = None
    for when, val in changes.get(key, []):
        if when > time:
            break
        v = val
    return None if v is None or "x" in v or "z" in v else int(v, 2)

clk = [k for k in changes if k[1] == "clk"][0]
rises = [when for when, val in changes[clk] if val == "1"]
period = rises[1] - rises[0]
edge = lambda cycle: cycle * period  # rising edge `cycle` (the clock rises at 0, period, ...)
fabric = [k[0] for k in changes if re.search(r"\.ch_\d+_\d+$", k[0])][0].rsplit(".", 1)[0]

# --- every hop record agrees with the channel's lines of its cycle (set at the rising edge of
# that cycle: Drv, Tag, packet, flit) and with the receiving row, written at the next edge.
dims, k = 2, 3
names = ["x+", "x-", "y+", "y-", "node"]
coords = lambda ch: (ch % k, ch // k)
suffix = lambda c: "_".join(map(str, c))

def set_name(c, p, driver):
    if p == 2 * dims:
        return f"ni_{suffix(c)}.{'inj' if driver else 'ej'}"
    d, plus = p // 2, p % 2 == 0
    low = list(c)
    if plus == driver:
        low[d] -= 1
    return f"r_d{d}_{suffix(low)}.{'plus' if plus else 'minus'}"

rows = list(csv.DictReader(open(csv_path)))
checked = 0
for r in rows:
    cycle, ch, drv, way, row = (int(r[f]) for f in ("cycle", "router", "in_port", "out_port", "vc"))
    base = f"{fabric}.ch_{suffix(coords(ch))}"
    tag = 1 if r["head"] == "1" else 3 if r["tail"] == "1" else 2
    at = edge(cycle) + period // 4
    want = {"drv": drv, "tag": tag, "packet": int(r["packet"]), "flit": int(r["flit"])}
    got = {f: value_at((base, f), at) for f in want}
    if got != want:
        errors.append(f"cycle {cycle} ch {ch}: lines {got}, the trace says {want}")
    # A header's receiving row is allocated to the message from Drv after edge cycle + 1.
    if tag != 1:
        checked += 1
        continue
    rowp = f"{fabric}.{set_name(coords(ch), way, False)}.b{row}"
    after = edge(cycle + 1) + period // 4
    if value_at((rowp, "A"), after) != 1 or value_at((rowp, "Drv"), after) != drv:
        errors.append(f"cycle {cycle} ch {ch} way {way}: row {rowp} not allocated to driver {drv} after the next edge")
    checked += 1
if checked < 20:
    errors.append(f"only {checked} hop records")

# --- the packet view's structure.
lines = open(gtkw_path).read().split("\n")
signals = [l for l in lines if l and l[0] not in "@-[*#"]
if not signals or not signals[0].endswith(".clk"):
    errors.append(f"the first row is {signals[:1]}, not the clock")
heads = [r for r in rows if r["packet"] == pkt and r["head"] == "1"]
crossings = {}
for r in heads:
    crossings.setdefault((int(r["cycle"]), int(r["router"]), int(r["in_port"])), []).append((int(r["out_port"]), int(r["vc"])))
labels = [l for l in lines if l.startswith("-hop ")][::2]
single = 0
if len(crossings) < 3 or len(labels) != len(crossings):
    errors.append(f"{len(labels)} hop groups for {len(crossings)} crossings of packet {pkt}")
for i, ((cycle, ch, drv), recv) in enumerate(sorted(crossings.items(), key=lambda x: x[0][0]), 1):
    c = coords(ch)
    driver = set_name(c, drv, True)
    to = ", ".join(f"{names[w]} b{b}" for w, b in recv)
    label = f"-hop {i}: cycle {cycle} ch_{suffix(c)} drv {names[drv]} ({driver}) -> {to}"
    if label not in lines:
        errors.append(f"no group {label!r}")
        continue
    if lines[lines.index(label) - 1] != "@800200":
        errors.append(f"{label}: not an open group")
    body = lines[lines.index(label):lines.index(label, lines.index(label) + 1)]
    def group(name):
        if name not in body:
            errors.append(f"hop {i}: no group {name!r}")
            return []
        return body[body.index(name):body.index(name, body.index(name) + 1)]
    g = group(f"-channel ch_{suffix(c)}")
    base = f"{fabric}.ch_{suffix(c)}"
    if g and not any(l.startswith("-changes at the rising edge t") and "0 x+, 1 x-, 2 y+, 3 y-, 4 node" in l for l in g):
        errors.append(f"hop {i}: the channel group does not say its edge and the numbering")
    for field, width in (("packet", 32), ("flit", 3), ("drv", 3), ("tag", 2)):
        ref = f"{base}.{field}[{width - 1}:0]"
        if g and ref not in g:
            errors.append(f"hop {i}: no {field} row {ref}")
        elif g and g[max(j for j in range(g.index(ref)) if g[j].startswith("@"))] != "@24":
            errors.append(f"hop {i}: {field} not shown in decimal")
    # The driving row, when the view names one, is the one on the channel's buf line in that cycle.
    out = [l for l in body if l.startswith(f"-out {names[drv]} {driver}")]
    named = re.fullmatch(rf"-out {re.escape(names[drv])} {re.escape(driver)}\.b(\d+)", out[0]) if out else None
    g = group(out[0]) if out else group(f"-out {names[drv]} {driver}")
    row = int(named.group(1)) if named else 0
    if named:
        single += 1
        if value_at((base, "buf"), edge(cycle) + period // 4) != row:
            errors.append(f"hop {i}: the view names driving row b{row}, the buf line says otherwise")
    if g and f"{fabric}.{driver}.b{row}.Drv[2:0]" not in g:
        errors.append(f"hop {i}: the driving row's rows are missing")
    for w, b in recv:
        rs = set_name(c, w, False)
        g = group(f"-in {names[w]} {rs}.b{b}")
        if g and not any(l.startswith("-written at the rising edge t+1") for l in g):
            errors.append(f"hop {i}: {rs}.b{b} does not say the edge it is written at")
        if g and f"{fabric}.{rs}.b{b}.A" not in g:
            errors.append(f"hop {i}: no A row of {rs}.b{b}")
if single == 0:
    errors.append("no crossing names its driving row")
# The run's own save file: a channel's group names the edge, the packet and flit rows and numbers.
run = open(run_gtkw).read()
if "drv, ways: 0 x+, 1 x-, 2 y+, 3 y-, 4 node" not in run or f"{fabric}.ch_0_0.packet[31:0]" not in run:
    errors.append("the run's save file lacks the channel's numbering or packet row")
for e in errors[:6]:
    print("FAIL: m-way packet view:", e)
sys.exit(1 if errors else 0)
PY

# A packet the trace does not hold: exit 2, nothing written.
"$bin" wave p.vcd --packet 999999999 --trace hops.csv --save none.gtkw 2>err.txt
rc=$?
[ $rc -eq 2 ] && grep -q 'no head flit' err.txt && [ ! -e none.gtkw ] || { echo "FAIL: wave --packet unknown: exit $rc"; fail=1; }
# A packet whose crossings lie outside a windowed dump's cycles: exit 2 naming both spans, nothing
# written (the view would open past the dump's end).
"$bin" $run --vcd w.vcd --vcd-window 40:60 >/dev/null 2>&1 || { echo "FAIL: $run --vcd-window 40:60: exit $?"; fail=1; }
early=$(awk -F, 'NR > 1 && $8 == 1 { if (!($6 in last) || $1 > last[$6]) last[$6] = $1 }
                 END { for (p in last) if (last[p] < 40) { print p; exit } }' hops.csv)
"$bin" wave w.vcd --packet "$early" --trace hops.csv --save early.gtkw 2>err.txt
rc=$?
[ $rc -eq 2 ] && grep -q 'outside the dump (cycles 40\.\.59)' err.txt && [ ! -e early.gtkw ] \
  || { echo "FAIL: wave --packet $early outside the dump's window: exit $rc: $(cat err.txt)"; fail=1; }
exit $fail
