"""The sweep's figure (scripts/sweep --plot): mean latency and accepted load against the first
varied key, one curve per combination of the others, each point marked by its stability verdict;
against the offered load, the line accepted = offered and each curve's saturation span from the
verdict; no line across an unstable point. Its title names what every point shares. matplotlib is
loaded (through wcplot) only when a figure is drawn."""


def x_position(rows, x):
    """The plot position of each value of key x: the number itself, or for non-numeric values
    (an algorithm, a pattern) their rank in order of appearance, with the values as tick labels."""
    try:
        return {r[x]: float(r[x]) for r in rows}, None
    except (TypeError, ValueError):
        labels = list(dict.fromkeys(r[x] for r in rows))
        return {v: float(i) for i, v in enumerate(labels)}, labels


NAMES = {"traffic.rate": "offered load"}  # words before the key on an axis
UNITS = {"traffic.rate": "flits/node/cycle", "router.buffer_depth": "flits", "traffic.packet_len": "flits",
         "router.router_delay": "cycles", "router.link_delay": "cycles", "nic.ts": "cycles", "nic.tr": "cycles"}


NOTE = ("filled: stable; hollow: unstable (beyond saturation); x: undecided; runs that never drained not shown; "
        "lines join stable and undecided points only")


def segments(pts):
    """Runs of consecutive points none of which is unstable: a line is drawn through each run only,
    never across an unstable point (nothing was measured in between)."""
    runs, cur = [], []
    for p in pts:
        if p[1]["stability"] == "unstable":
            if cur:
                runs.append(cur)
            cur = []
        else:
            cur.append(p)
    if cur:
        runs.append(cur)
    return runs


def plot(rows, keys, path, title, panel=None, brackets=()):
    """Latency and accepted load against keys[0], one curve per combination of the other keys; with
    `panel` (one of them) one row of the two plots per value of that key, the same colour for the
    same curve in every row. Against the offered load (traffic.rate) the accepted-load panel has
    the line accepted = offered and each curve's saturation from the verdict (`brackets`): a span
    from its last stable load to its first unstable one."""
    import wcplot
    x = keys[0]
    others = [k for k in keys[1:] if k != panel]
    pos, labels = x_position(rows, x)
    panels = list(dict.fromkeys(r[panel] for r in rows)) if panel else [None]
    fig, axrows = wcplot.figure(2, nrows=len(panels))
    if len(panels) == 1:
        axrows = [axrows]
    colours = {}
    bracket_of = {b["curve"]: b for b in brackets}
    xlabel = (f"{NAMES[x]}, " if x in NAMES else "") + x + (f" ({UNITS[x]})" if x in UNITS else "")
    for row_i, (pv, (ax1, ax2)) in enumerate(zip(panels, axrows)):
        groups = {}
        for r in rows:
            if panel is None or r[panel] == pv:
                groups.setdefault(tuple(r[k] for k in others), []).append(r)
        for g, rs in groups.items():
            label = ", ".join(f"{k}={v}" for k, v in zip(others, g)) or None
            colour = colours.setdefault(g, f"C{len(colours) % 10}")
            # Drained points: stable filled, unstable (beyond saturation) hollow.
            pts = sorted(((pos[r[x]], r) for r in rs
                          if r["status"] in ("ok", "unstable") and r["latency_mean"] is not None), key=lambda p: p[0])
            for ax, f in ((ax1, "latency_mean"), (ax2, "accepted")):
                if f == "accepted":  # the same drained runs (a run that never drained has no accepted load)
                    pts = sorted(((pos[r[x]], r) for r in rs if r["status"] in ("ok", "unstable")
                                  and r["accepted"] is not None), key=lambda p: p[0])
                for i, run in enumerate(segments(pts)):
                    ax.plot([p[0] for p in run], [p[1][f] for p in run], "-", color=colour,
                            label=label if i == 0 else None)
                for p in pts:
                    v = p[1]["stability"]
                    ax.plot(p[0], p[1][f], "x" if v == "undecided" else "o", color=colour,
                            mfc=colour if v == "stable" else "none")
                    if p[1].get(f + "_ci95"):  # replications: the 95 % interval over the seeds
                        ax.errorbar(p[0], p[1][f], yerr=p[1][f + "_ci95"], color=colour, capsize=2, lw=0.8)
            curve = ", ".join(f"{k}={rs[0][k]}" for k in keys[1:])  # as wcsat.brackets names it
            b = bracket_of.get(curve)
            if x == "traffic.rate" and b and b["reached"] and b["last_stable"] is not None:
                lo, hi = float(b["last_stable"]), float(b["first_unstable"])
                ax2.axvspan(lo, hi, color=colour, alpha=0.15, lw=0,
                            label=f"saturation{' (' + label + ')' if label else ''}: {lo:g}..{hi:g}")
        if x == "traffic.rate" and not labels:
            lo, hi = ax2.get_xlim()
            ax2.plot([lo, hi], [lo, hi], ":", color="0.3", lw=1, label="accepted = offered")
            ax2.set_xlim(lo, hi)
        if labels:
            for ax in (ax1, ax2):
                ax.set_xticks(range(len(labels)))
                ax.set_xticklabels(labels, rotation=20, fontsize=8)
        wcplot.axes(ax1, xlabel, "mean packet latency (cycles)", logy=True, title=f"{panel}={pv}" if panel else NOTE,
                    legend=False)
        wcplot.axes(ax2, xlabel, "accepted load (flits/node/cycle)", title=f"{panel}={pv}" if panel else None,
                    legend=row_i == 0 and bool(ax2.get_legend_handles_labels()[0]))
    wcplot.save(fig, path, title=f"{title}\n{NOTE}" if panel else title)


def plot_title(config, fixed, varied):
    """The network and the settings every point shares (the varied keys are on the axes and in
    the legend): a line for the network and its traffic, a line for the router and the run."""
    def get(key):
        sec, _, name = key.partition(".")
        return config.get(sec, {}).get(name)
    net = config.get("net", {})
    family = net.get("family", "torus")
    head = f"{(net.get('topology') if family == 'torus' else None) or family} {net.get('radix', '')}".strip()
    head = head[:1].upper() + head[1:]
    shown = {  # key: its words in the title
        "traffic.pattern": lambda v: f"{v} traffic",
        "traffic.process": lambda v: f"{v.capitalize() if v == 'bernoulli' else v} injection",
        "traffic.packet_len": lambda v: f"{v}-flit packets",
        "router.buffer_depth": lambda v: f"B = {v} flits",
        "router.vcs_per_class": lambda v: f"V = {v} per {'dateline class' if get('router.dateline') else 'class'}",
        "router.dateline": lambda v: "dateline VC classes" if v else "no dateline",
        "router.local_ports": lambda v: "all-port NIC" if v == "all" else f"{v} local port(s)",
        "router.allocator": lambda v: f"{v} allocator",
        "router.preset": lambda v: None if v == "none" else f"{v} preset",
        "router.pipeline": lambda v: f"{v} pipeline",
        "router.router_delay": lambda v: f"R = {v}",
        "router.link_delay": lambda v: f"Ld = {v}",
        "router.credit_delay": lambda v: f"Cd = {v}",
        "sim.warmup": lambda v: f"{v} warm-up",
        "sim.measure": lambda v: f"{v} measured cycles",
        "sim.seed": lambda v: f"seed {v}",
    }
    seeds = [k for k in varied if k.startswith("seeds=")]
    words = {k: f(get(k)) for k, f in shown.items() if k not in varied and get(k) is not None
             and not (k == "sim.seed" and seeds)}
    words = {k: w for k, w in words.items() if w is not None}
    line1 = [head] + [words[k] for k in ("traffic.pattern", "traffic.process", "traffic.packet_len") if k in words]
    line2 = [words[k] for k in shown if k in words and not k.startswith("traffic.")]
    skip = ("sim.progress", "net.", "traffic.pattern") + tuple(shown)
    line2 += [x for x in fixed if not x.startswith(skip)]
    if seeds:
        line2.append(f"mean of {seeds[0].split('=')[1]} seeds (95 % intervals)")
    return ", ".join(line1) + "\n" + ", ".join(line2)
