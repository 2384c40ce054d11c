"""The plots, from irrcheck's statistics table (indexed by group, op, distribution, b; columns
m, median, median_ci_low/high, min, ...). Each function returns matplotlib figures with a
file stem and a caption; nothing here reads files or knows about HTML."""
import dataclasses
import math
import re

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.colors import LogNorm  # noqa: E402
from matplotlib.ticker import LogFormatterSciNotation  # noqa: E402

from irrguide import operations  # noqa: E402
from irrguide.check import FAMILIES  # noqa: E402
from irrguide.table import DISTRIBUTION_ORDER, distribution_title  # noqa: E402

# One colour per algorithm (formats/operations.tsv), the same in every plot: MPI_Gather and
# MPI_Scatter share one, TUW_Gatherv and TUW_Scatterv another, ...
ALGORITHM_COLORS = {"library-regular": "#1f77b4", "library-v": "#d62728", "TUW": "#2ca02c",
                    "guideline2": "#9467bd", "Linear": "#8c564b", "Binomial": "#ff7f0e",
                    "library-persistent": "#e377c2", "TUW-persistent": "#17becf",
                    "Optimal-persistent": "#bcbd22", "TUWk": "#006400", "Binomialk": "#b8860b",
                    "TUWk-persistent": "#0e6b75"}


def op_color(op):
    known = operations.BY_NAME.get(op)
    return ALGORITHM_COLORS.get(known.algorithm, "black") if known else "black"


class PlainLogFormatter(LogFormatterSciNotation):
    """Log-axis labels as plain numbers (0.5, 20, 1000), on the ticks matplotlib labels anyway."""

    def __call__(self, x, pos=None):
        return f"{x:g}" if super().__call__(x, pos) else ""


@dataclasses.dataclass
class Figure:
    stem: str  # file name without extension
    caption: str
    figure: object  # matplotlib Figure


def short_setting(group):
    """A group label without the long common prefixes of algorithm variables."""
    for prefix in ("OMPI_MCA_coll_tuned_", "MPIR_CVAR_", "I_MPI_ADJUST_"):
        group = group.replace(prefix, "")
    return group.replace(" use_dynamic_rules=1", "").replace("use_dynamic_rules=1 ", "")


def slug(text):
    keep = "".join(ch if ch.isalnum() or ch in "=-." else "_" for ch in text)
    return "_".join(part for part in keep.split("_") if part)[:80] or "all"


def _distributions(frame):
    present = set(frame.index.get_level_values("distribution"))
    return [d for d in DISTRIBUTION_ORDER if d in present] + sorted(present - set(DISTRIBUTION_ORDER))


def _grid(n):
    cols = min(3, n)
    rows = math.ceil(n / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(4.6 * cols, 3.6 * rows + 0.9), squeeze=False)
    for ax in axes.flat[n:]:
        ax.set_visible(False)
    return fig, list(axes.flat[:n])


def _central(frame):
    """What the solid lines show: the median with its band, or, for published summaries
    (results/paper/, no repetitions), their average."""
    if np.isfinite(frame["median"].to_numpy(float)).any():
        return "median with its 95% confidence band"
    return "average (published summary: no median, no band)"


def _line_with_band(ax, rows, color, label, show_min):
    rows = rows.sort_values("m")
    x = rows["m"].clip(lower=1).to_numpy(dtype=float)  # log axis: Two blocks can have tiny m
    # Published summaries (results/paper/) have no median: their average stands in.
    y = rows["median"] if np.isfinite(rows["median"].to_numpy(float)).any() else rows["avg"]
    ax.plot(x, y, "o-", color=color, label=label, markersize=3.5, linewidth=1.4)
    low, high = rows["median_ci_low"].to_numpy(float), rows["median_ci_high"].to_numpy(float)
    if np.isfinite(low).any():
        ax.fill_between(x, low, high, color=color, alpha=0.18, linewidth=0)
    if show_min:
        ax.plot(x, rows["min"], "--", color=color, linewidth=0.9, alpha=0.8)


def _finish(fig, axes, title, caption_text, xlabel="m (MPI_INT elements)"):
    for ax in axes:
        ax.set_xscale("log")
        ax.set_yscale("log")
        for axis in (ax.xaxis, ax.yaxis):
            axis.set_major_formatter(PlainLogFormatter())
            axis.set_minor_formatter(PlainLogFormatter())
        ax.set_xlabel(xlabel)
        ax.set_ylabel("time (µs)")
        ax.grid(True, which="major", alpha=0.3)
    handles, labels = axes[0].get_legend_handles_labels()
    height = fig.get_figheight()  # place title, caption and legend in inches, not fractions
    fig.suptitle(title, fontsize=12, y=1 - 0.12 / height, va="top")
    fig.text(0.5, 1 - 0.45 / height, caption_text, ha="center", va="top", fontsize=8.5,
             color="#444")
    fig.legend(handles, labels, loc="lower center", ncol=min(len(labels), 4), fontsize=8.5,
               frameon=False, bbox_to_anchor=(0.5, 0.0))
    rows = math.ceil(len(labels) / 4)
    fig.tight_layout(rect=(0, (0.15 + 0.2 * rows) / height, 1, 1 - 0.7 / height))


def time_vs_m(stats, group, facts):
    """Per family: one panel per distribution, time vs m for each operation (median with its 95 %
    CI as a band, min dashed)."""
    out = []
    frame = stats.xs(group, level="group")
    ops_present = set(frame.index.get_level_values("op"))
    for family in FAMILIES:
        ops = [op for op in (family.regular, *family.irregular, family.padded, *family.baselines)
               if op in ops_present]
        if not ops:
            continue
        dists = _distributions(frame.loc[ops])
        fig, axes = _grid(len(dists))
        for ax, dist in zip(axes, dists):
            for op in ops:
                try:
                    rows = frame.xs((op, dist), level=("op", "distribution"))
                except KeyError:
                    continue
                _line_with_band(ax, rows, op_color(op), operations.label(op), True)
            ax.set_title(distribution_title(dist), fontsize=10)
        setting = "" if group == "all" else f" [{short_setting(group)}]"
        _finish(fig, axes, f"{family.name.capitalize()}: time vs m{setting}",
                f"{facts}; {_central(frame)}, minimum dashed")
        out.append(Figure(slug(f"time_vs_m_{family.name}_{short_setting(group)}"),
                          f"{family.name.capitalize()} time vs m per distribution{setting} "
                          f"({facts}). Solid: {_central(frame)}; dashed: "
                          "minimum.", fig))
    return out


def settings_comparison(stats, op, facts):
    """One line per group (library setting) for one operation, one panel per distribution."""
    try:
        frame = stats.xs(op, level="op")
    except KeyError:
        return []
    groups = list(dict.fromkeys(frame.index.get_level_values("group")))
    if len(groups) < 2:
        return []
    dists = _distributions(frame)
    fig, axes = _grid(len(dists))
    colors = plt.get_cmap("tab10" if len(groups) <= 10 else "tab20")
    for ax, dist in zip(axes, dists):
        for k, group in enumerate(groups):
            try:
                rows = frame.xs((group, dist), level=("group", "distribution"))
            except KeyError:
                continue
            _line_with_band(ax, rows, colors(k % colors.N), short_setting(group), False)
        ax.set_title(distribution_title(dist), fontsize=10)
    _finish(fig, axes, f"{op} across libraries and settings", f"{facts}; {_central(frame)}")
    return [Figure(slug(f"settings_{op}"), f"{op} under each library setting, one line per "
                   f"setting ({facts}); {_central(frame)}.", fig)]


RADIX_SETTING = re.compile(r"TUWCOLL_RADIX=(\d+)")


def time_vs_radix(stats, facts):
    """Only when the inputs hold runs at several TUWCOLL_RADIX settings (scripts/simulate
    --radix): per family, one panel per distribution, time vs radix for each radix-k operation
    (TUWk, Binomialk) and block size b (one line style per b)."""
    radix_of = {}
    for group in dict.fromkeys(stats.index.get_level_values("group")):
        found = RADIX_SETTING.search(group)
        if found:
            radix_of[group] = int(found.group(1))
    if len(set(radix_of.values())) < 2:
        return []
    frame = stats[stats.index.get_level_values("group").isin(list(radix_of))].reset_index()
    frame["radix"] = frame["group"].map(radix_of)
    styles = ["o-", "s--", "^:", "d-."]
    out = []
    for family in ("gather", "scatter"):
        ops = [op for op in dict.fromkeys(frame["op"]) if op in operations.BY_NAME
               and operations.BY_NAME[op].family == family
               and operations.BY_NAME[op].tree.endswith("-k")]
        part = frame[frame["op"].isin(ops)]
        if part.empty:
            continue
        dists = [d for d in DISTRIBUTION_ORDER if d in set(part["distribution"])]
        fig, axes = _grid(len(dists))
        sizes = sorted(set(part["b"]))
        for ax, dist in zip(axes, dists):
            for op in ops:
                for k, b in enumerate(sizes):
                    rows = part[(part["op"] == op) & (part["distribution"] == dist) &
                                (part["b"] == b)].sort_values("radix")
                    if rows.empty:
                        continue
                    ax.plot(rows["radix"], rows["median"], styles[k % len(styles)],
                            color=op_color(op), label=f"{operations.label(op)} b={b}",
                            markersize=3.5, linewidth=1.2)
            ax.set_title(distribution_title(dist), fontsize=10)
        _finish(fig, axes, f"Time vs radix ({family})",
                f"{facts}; median; radix 2 is TUW's and Binomial's own tree", xlabel="radix k")
        for ax in axes:
            ax.set_xticks(sorted(set(part["radix"])))
            ax.xaxis.set_major_formatter(PlainLogFormatter())
        out.append(Figure(f"radix_{family}", f"Time vs radix of the {family} trees: median per "
                          f"radix (TUWCOLL_RADIX), one line per operation and b ({facts}).", fig))
    return out


def speedup_heatmap(stats, group, facts):
    """Per family: median time of the library's v-operation over TUW's, distribution x b."""
    out = []
    frame = stats.xs(group, level="group")
    for family in FAMILIES:
        by_algorithm = {operations.BY_NAME[op].algorithm: op for op in family.irregular}
        native, tuw = by_algorithm.get("library-v"), by_algorithm.get("TUW")
        try:
            a = frame.xs(native, level="op")["median"]
            t = frame.xs(tuw, level="op")["median"]
        except KeyError:
            continue
        ratio = (a / t).dropna()
        if ratio.empty:
            continue
        dists = [d for d in _distributions(ratio.to_frame()) if d in ratio.index.get_level_values(0)]
        bs = sorted(set(ratio.index.get_level_values("b")))
        grid = np.full((len(dists), len(bs)), np.nan)
        for (dist, b), value in ratio.items():
            grid[dists.index(dist), bs.index(b)] = value
        fig, ax = plt.subplots(figsize=(1.1 * len(bs) + 3.2, 0.5 * len(dists) + 2.2))
        finite = grid[np.isfinite(grid)]
        extreme = max(2.0, float(np.max(np.maximum(finite, 1 / finite))))  # symmetric around 1
        norm = LogNorm(vmin=1 / extreme, vmax=extreme)
        image = ax.imshow(grid, cmap="RdYlGn", norm=norm, aspect="auto")
        for i in range(len(dists)):
            for j in range(len(bs)):
                if np.isfinite(grid[i, j]):
                    dark = abs(np.log10(grid[i, j])) > 0.6 * np.log10(extreme)
                    ax.text(j, i, f"{grid[i, j]:.3g}", ha="center", va="center", fontsize=8.5,
                            color="white" if dark else "black")
        ax.set_xticks(range(len(bs)), [str(b) for b in bs])
        ax.set_yticks(range(len(dists)), [distribution_title(d) for d in dists])
        ax.set_xlabel("b (average block, MPI_INT elements)")
        bar = fig.colorbar(image, ax=ax)
        bar.ax.yaxis.set_major_formatter(PlainLogFormatter())
        bar.ax.yaxis.set_minor_formatter(PlainLogFormatter())
        bar.set_label(f"speed-up: {native} / {tuw} (median)")
        setting = "" if group == "all" else f" [{short_setting(group)}]"
        ax.set_title(f"Speed-up of {tuw} over {native}{setting}\n{facts}", fontsize=9)
        fig.tight_layout()
        out.append(Figure(slug(f"speedup_{family.name}_{short_setting(group)}"),
                          f"Speed-up of {tuw} over {native}{setting}: median time of {native} "
                          f"divided by that of {tuw}; > 1 (green) means TUW is faster ({facts}).",
                          fig))
    return out


MODELS = {"median_over_model": ("the cost model", "model_ratio", "TUW: adaptive, Binomial: "
                                  "oblivious, Linear: linear; alpha, beta, gamma fitted by irrfit"),
          "median_over_loggp": ("the LogGP model", "model_ratio_loggp", "each algorithm's tree as "
                                "the code runs it, TUWk and Binomialk at their radix; L, o, g "
                                "and the message times from irrfit")}


def model_ratio(model, label, facts, column="median_over_model"):
    """Measured median / model prediction (irrmodel --from-results, model.tsv; `column`: the
    linear model's or the LogGP model's) for the algorithms whose tree the model knows, one
    panel per family, one line per op and distribution, against b."""
    if column not in model.columns:
        return []
    name, stem, what = MODELS[column]
    frame = model.dropna(subset=[column])
    if frame.empty:
        return []
    families = [f for f in ("Gather", "Scatter") if frame["op"].str.contains(f).any()]
    fig, axes = plt.subplots(1, len(families), figsize=(6.2 * len(families), 4.6), squeeze=False)
    styles = {"same": "o", "random": "s", "spikes": "^", "decreasing": "v", "alternating": "D",
              "two_blocks": "x"}
    for ax, family in zip(axes[0], families):
        part = frame[frame["op"].str.contains(family)]
        for (op, dist), rows in part.groupby(["op", "distribution"], sort=False):
            rows = rows.sort_values("b")
            ax.plot(rows["b"], rows[column], marker=styles.get(dist, "."),
                    color=op_color(op), linewidth=1, markersize=4,
                    label=f"{op} {distribution_title(dist)}")
        ax.axhline(1.0, color="black", linewidth=0.8)
        ax.axhspan(1 / 1.3, 1.3, color="#999", alpha=0.15, linewidth=0)
        ax.set_xscale("log")
        ax.set_yscale("log")
        for axis in (ax.xaxis, ax.yaxis):
            axis.set_major_formatter(PlainLogFormatter())
            axis.set_minor_formatter(PlainLogFormatter())
        ax.set_xlabel("b (MPI_INT elements)")
        ax.set_ylabel("measured median / model")
        ax.set_title(family, fontsize=10)
        ax.legend(fontsize=6.5, ncol=2, frameon=False)
    fig.suptitle(f"Measured vs {name}'s prediction [{label}]\n{facts}", fontsize=10)
    fig.tight_layout()
    return [Figure(slug(f"{stem}_{label}"),
                   f"Measured median over {name}'s time of the tree each algorithm uses "
                   f"({what}), per case [{label}]; the grey band is +-30% ({facts}).", fig)]
