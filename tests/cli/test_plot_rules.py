#!/usr/bin/python3
"""What the plots say, without looking at pixels: scripts/plot names ports x+, x-, y+, y-, (b+, b-,)
local as docs/router.md numbers them and divides by the measured window (per-cycle panels), and
scripts/sweep joins points only within runs that have no unstable point, draws accepted = offered
against the offered load and shades each curve's saturation span from the verdict; a heatmap's
x-y planes are titled by their coordinates in the higher dimensions."""
import importlib.machinery
import importlib.util
import os
import sys
import tempfile

top = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(top, "scripts"))


def load(name):
    loader = importlib.machinery.SourceFileLoader(name.replace("-", "_"), os.path.join(top, "scripts", name))
    spec = importlib.util.spec_from_loader(loader.name, loader)
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    return mod


plot, sweep = load("plot"), load("sweep")
fail = []


def result(radix, order, window=2000):
    return {"config": {"net": {"radix": radix}, "sim": {"measure": 5000}},
            "throughput": {"window": window}, "router_activity": {"vc_order": order}}


order2 = ("one array per router in node order; index = port * 2 + vc (2 VCs per port), ports 0..3 network "
          "(2*dim+dir), 4..7 local; vc_utilization by output VC, vc_blocking by input VC")
names = plot.port_names(result("8x8", order2), 8)
if names != ["x+", "x-", "y+", "y-", "local0", "local1", "local2", "local3"]:
    fail.append(f"8x8 all-port ports: {names}")
names = plot.port_names(result("8x8", order2.replace("4..7 local", "4..4 local")), 5)
if names != ["x+", "x-", "y+", "y-", "local"]:
    fail.append(f"8x8 one-port ports: {names}")
order_ibt = order2.replace("ports 0..3 network (2*dim+dir)", "ports 0..5 network (2*dim+dir, then bypass+ and bypass-)")
names = plot.port_names(result("16x16", order_ibt), 7)
if names != ["x+", "x-", "y+", "y-", "b+", "b-", "local"]:
    fail.append(f"iBT one-port ports: {names}")
if plot.window(result("8x8", order2, window=1234)) != 1234 or plot.window(result("8x8", order2, window=None)) != 5000:
    fail.append("window: throughput.window, else sim.measure")

pts = [(x, {"stability": s}) for x, s in enumerate(["stable", "stable", "unstable", "undecided", "stable", "unstable"])]
runs = [[p[0] for p in r] for r in sweep.segments(pts)]
if runs != [[0, 1], [3, 4]]:
    fail.append(f"segments across unstable points: {runs}")

with tempfile.TemporaryDirectory() as d:
    rows = [{"traffic.rate": r, "router.vcs_per_class": v, "status": "ok" if s != "unstable" else "unstable",
             "stability": s, "latency_mean": lat, "accepted": acc}
            for r, v, s, lat, acc in (("0.1", "1", "stable", 11.0, 0.1), ("0.2", "1", "stable", 14.0, 0.2),
                                      ("0.3", "1", "unstable", 300.0, 0.25), ("0.1", "2", "stable", 11.0, 0.1),
                                      ("0.2", "2", "stable", 13.0, 0.2), ("0.3", "2", "stable", 15.0, 0.3))]
    keys = ["traffic.rate", "router.vcs_per_class"]
    brackets = sweep.wcsat.brackets(rows, keys)
    captured = {}
    import wcplot
    orig = wcplot.save

    def grab(fig, path, title=None):
        captured["fig"] = fig
        orig(fig, path, title=title)
    wcplot.save = grab
    try:
        sweep.plot(rows, keys, os.path.join(d, "s.png"), "t", None, brackets)
    finally:
        wcplot.save = orig
    ax1, ax2 = captured["fig"].axes[:2]
    labels = [l.get_label() for l in ax2.get_lines()] + [p.get_label() for p in ax2.patches]
    if "accepted = offered" not in labels:
        fail.append(f"no accepted = offered line: {labels}")
    if not any(l.startswith("saturation (router.vcs_per_class=1): 0.2..0.3") for l in labels):
        fail.append(f"no saturation span of V=1 from the verdict: {labels}")
    if any(l.startswith("saturation (router.vcs_per_class=2)") for l in labels):
        fail.append("a saturation span for a curve that never turned unstable")
    for ax in (ax1, ax2):
        for line in ax.get_lines():
            xs = list(line.get_xdata())
            if line.get_linestyle() == "-" and len(xs) > 1 and 0.3 in xs and 0.2 in xs and \
                    line.get_color() == ax.get_lines()[0].get_color():
                fail.append("a line joins V=1's last stable point to its unstable one")
    if not os.path.exists(os.path.join(d, "s.png")):
        fail.append("no sweep.png written")

# The heatmap's x-y planes of a 4-D network are titled by their coordinates in dimensions 2 and 3
# (node id = x0 + k0 (x1 + k1 (x2 + k2 x3))): plane 5 of a 3x3x3x3 torus is x2 = 2, x3 = 1.
g = plot.grid_of({"config": {"net": {"radix": "3x3x3x3"}}}, 81)
if g != (3, 3, 9, [3, 3]) or plot.plane_label(5, g[3]) != ", x2 = 2, x3 = 1" or plot.plane_label(0, []) != "":
    fail.append(f"4-D planes: grid {g}, plane 5 titled {plot.plane_label(5, [3, 3])!r}")

for f in fail:
    print("FAIL:", f)
if not fail:
    print("plot rules: named ports, per-cycle panels, accepted = offered, saturation span, no line across unstable")
sys.exit(1 if fail else 0)
