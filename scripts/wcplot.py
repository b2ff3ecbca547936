"""The one plotting module of the scripts: every figure titled with its network and settings, axes
labelled with units, log axes with plain-number tick labels, legends outside the data, written
atomically (a temporary renamed into place).

    import wcplot
    fig, ax = wcplot.figure()
    ax.plot(...)
    wcplot.axes(ax, "offered load (flits/node/cycle)", "mean latency (cycles)", logy=True)
    wcplot.save(fig, "out.png", title="Torus(16^2), uniform, B = 8")
"""
import math
import os
import textwrap

import matplotlib

import wcargs

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after the backend is chosen)
import matplotlib.ticker  # noqa: E402


def figure(ncols=1, width=None, height=4.4, nrows=1):
    """A figure with ncols axes side by side (one axes object when ncols == 1); with nrows > 1,
    nrows such rows (a list of rows, each as with nrows == 1), height per row."""
    fig, axes = plt.subplots(nrows, ncols, figsize=(width or (6.8 if ncols == 1 else 5.8 * ncols), height * nrows),
                             squeeze=False)
    rows = [r[0] if ncols == 1 else tuple(r) for r in axes]
    return fig, (rows[0] if nrows == 1 else rows)


def _plain_log_labels(axis, get_lim):
    lo, hi = get_lim()
    if lo > 0 and hi / lo < 4:
        # Less than a decade: the 1-2-5 ticks would leave one label or none; evenly spaced ones.
        axis.set_major_locator(matplotlib.ticker.MaxNLocator(8, steps=[1, 2, 2.5, 5, 10]))
        axis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda v, _: f"{v:g}"))
        axis.set_minor_formatter(matplotlib.ticker.NullFormatter())
        return

    def label(v, _):
        lo, hi = get_lim()
        keep = range(1, 10) if lo > 0 and hi / lo < 10 else (1, 2, 5)
        lead = v / 10 ** math.floor(math.log10(v) + 1e-9) if v > 0 else 0
        return f"{v:g}" if round(lead) in keep and abs(lead - round(lead)) < 1e-6 else ""
    axis.set_major_formatter(matplotlib.ticker.FuncFormatter(label))
    axis.set_minor_formatter(matplotlib.ticker.FuncFormatter(label))


def _binary(v):
    """2048 -> 2K, 1048576 -> 1M (K = 1024): node counts on a base-2 axis."""
    for div, suffix in ((1 << 20, "M"), (1 << 10, "K")):
        if v >= div and v % div == 0:
            return f"{v / div:g}{suffix}"
    return f"{v:g}"


def axes(ax, xlabel, ylabel, logx=False, logy=False, title=None, legend=True, logx_base=10, binary=False):
    """Labels (say the unit, and "log scale" on a log axis), grid, plain-number log ticks, and the
    legend outside the plotting area so that it never covers data. binary: base-2 x ticks written
    with K = 1024 and M = 1024^2 (say so in the label)."""
    if logx:
        ax.set_xscale("log", base=logx_base)
        if logx_base == 10:
            _plain_log_labels(ax.xaxis, ax.get_xlim)
        else:
            ax.xaxis.set_major_locator(matplotlib.ticker.LogLocator(base=logx_base, numticks=40))
            ax.xaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
            ax.xaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(
                lambda v, _: _binary(v) if binary else f"{v:g}"))
    if logy:
        ax.set_yscale("log")
        _plain_log_labels(ax.yaxis, ax.get_ylim)
    ax.set_xlabel(xlabel + (" (log scale)" if logx and "log" not in xlabel else ""))
    ax.set_ylabel(ylabel + (" (log scale)" if logy and "log" not in ylabel else ""))
    if title:
        ax.set_title(title, fontsize=9)
    ax.grid(True, which="both", alpha=0.3)
    if legend and ax.get_legend_handles_labels()[0]:
        ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0)


def save(fig, path, title=None, dpi=110):
    """Figure title (the network and the settings; wrapped to the figure's width, so a long one is
    not cut off), layout, atomic write, figure closed."""
    if title:
        width = int(fig.get_figwidth() * 13)
        fig.suptitle("\n".join(textwrap.fill(t, width) for t in title.split("\n")), fontsize=10)
    fig.tight_layout()
    # A hidden temporary beside the file (wcargs: removed on any exit path or signal), its format
    # named, since the temporary's name has no extension.
    tmp = wcargs.temporary(path)
    try:
        fig.savefig(tmp, dpi=dpi, bbox_inches="tight", format=os.path.splitext(path)[1][1:] or "png")
        wcargs.commit(tmp, path)
    except OSError as e:
        wcargs.discard(tmp)
        wcargs.die(f"{wcargs.shown(path)}: cannot be written ({e.strerror or e})")
    finally:
        plt.close(fig)
