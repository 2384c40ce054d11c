"""irrcheck's command line: read, group, summarize, check, render."""
import argparse
import os
import sys

from . import UserError
from . import load, render_html, render_latex, render_text, report
from .check import FAMILIES, STATISTICS, check_group, correct_holm
from .stats import summarize
from .table import build_tables

FORMATS = ("terminal", "markdown", "html", "latex", "report")
CONSISTENT_KEYS = ("p", "library", "setting")

DESCRIPTION = """\
Checks Träff's performance guidelines for irregular gather and scatter (2017, Section 4) on
irrbench results and renders the paper's tables with violations in red bold:
  (1) MPI_Gather(m) <= MPI_Gatherv(m)                       (regular problems, m = m')
  (2) MPI_Gatherv(m) <= MPI_Allreduce(1) + MPI_Gather(m')   (Guideline2_Gather)
and likewise for scatter, for the library's MPI_Gatherv and for TUW_Gatherv."""

EPILOG = """\
input: irrbench raw.csv files (metadata lines, then one row per repetition), or summary CSVs
with columns op,distribution,b,p,m,m_padded,avg_us,min_us (e.g. results/paper/*.csv; no
significance test then).
group keys: p, library, setting (algorithm-selection variables such as I_MPI_ADJUST_*,
OMPI_MCA_coll_*, MPIR_CVAR_*), file, or any metadata key of the input.
exit status: 0 done, 1 a significant (or untested) violation with --fail-on-violation,
2 bad input or arguments."""


def parse_args(argv):
    parser = argparse.ArgumentParser(prog="irrcheck", description=DESCRIPTION, epilog=EPILOG,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("files", nargs="+", metavar="FILE", help="raw.csv or summary CSV files")
    parser.add_argument("--stat", default="avg,min",
                        help="statistics to decide and show, from avg,min,median (default avg,min)")
    parser.add_argument("--slack", type=float, default=0.0,
                        help="relative slack: violated when lhs > (1+slack)*rhs (default 0)")
    parser.add_argument("--alpha", type=float, default=0.05,
                        help="significance level of the one-sided Mann-Whitney test (default 0.05)")
    parser.add_argument("--correction", default="holm", choices=("holm", "none"),
                        help="multiple-testing correction over the report's tests: holm keeps the "
                        "chance of any false alarm below alpha (default); none tests each at alpha")
    parser.add_argument("--format", default="terminal", choices=FORMATS,
                        help="output format (default terminal; report = the violation list only)")
    parser.add_argument("--out", help="write the output to this file instead of stdout")
    parser.add_argument("--color", default="auto", choices=("auto", "always", "never"),
                        help="ANSI colors in terminal format (default auto: only on a TTY)")
    parser.add_argument("--group-by", default="",
                        help="comma-separated keys: one table per value (see below)")
    parser.add_argument("--all-ops", action="store_true",
                        help="also show the Linear_/Binomial_ baselines (not checked)")
    parser.add_argument("--drop-late", action="store_true",
                        help="drop repetitions flagged late (irrbench --sync window)")
    parser.add_argument("--write-reports", metavar="DIR",
                        help="also write report.md, report.html, report.tex, violations.txt and "
                        "stats.csv into DIR")
    parser.add_argument("--fail-on-violation", action="store_true",
                        help="exit 1 when any significant (or untested) violation exists")
    options = parser.parse_args(argv)
    options.stat = [s.strip() for s in options.stat.split(",") if s.strip()]
    unknown = [s for s in options.stat if s not in STATISTICS]
    if unknown or not options.stat:
        parser.error(f"--stat: unknown statistic {', '.join(unknown) or '(empty)'}; "
                     f"valid: {','.join(STATISTICS)}")
    if not options.slack >= 0:
        parser.error(f"--slack: {options.slack} is negative; give a fraction >= 0, e.g. 0.05")
    if not 0 < options.alpha < 1:
        parser.error(f"--alpha: {options.alpha} is not in (0, 1), e.g. 0.05")
    options.group_by = [k.strip() for k in options.group_by.split(",") if k.strip()]
    return options


def group_value(source, p, key):
    """The value of one --group-by key for a source: what its table (and plot) is labelled by."""
    if key == "p":
        return f"p={p}"
    if key == "file":
        return source.path
    if key == "setting":
        return source.setting()
    if key == "library":
        return source.metadata.get("library", "unknown library").split(",")[0]
    return f"{key}={source.metadata.get(key, '?')}"


def assign_groups(measurements, keys):
    """Adds a 'group' column; refuses to pool different p, libraries or settings unless the
    user groups by them."""
    by_path = {s.path: s for s in measurements.sources}
    frames = [measurements.reps, measurements.summaries]
    for frame in frames:
        frame["group"] = [" | ".join(group_value(by_path[s], p, k) for k in keys) or "all"
                          for s, p in zip(frame["source"], frame["p"])]
    for key in CONSISTENT_KEYS:
        if key in keys:
            continue
        seen = {}
        for frame in frames:
            for group, source, p in zip(frame["group"], frame["source"], frame["p"]):
                seen.setdefault(group, {}).setdefault(group_value(by_path[source], p, key),
                                                      set()).add(source)
        for group, values in seen.items():
            if len(values) > 1:
                listing = "; ".join(f"{v} ({', '.join(sorted(files))})"
                                    for v, files in sorted(values.items()))
                raise UserError(f"mixed {key} in one table: {listing}; pass --group-by "
                                f"{','.join(keys + [key])} for one table each")


def known_ops():
    ops = set()
    for f in FAMILIES:
        ops |= {f.regular, f.padded, *f.irregular, *f.baselines}
    return ops


def analyse(options, require_checks=True):
    """Everything but the output: returns (groups, checks, skipped, notes, stats). Without
    require_checks (irrplot), data that allows no guideline check is not an error."""
    measurements = load.read_files(options.files)
    notes = list(measurements.notes)
    if options.drop_late and not measurements.reps.empty:
        late = measurements.reps["late"] > 0
        if late.any():
            notes.append(f"dropped {int(late.sum())} late repetitions (--drop-late)")
        measurements.reps = measurements.reps[~late]
    ignored = sorted((set(measurements.reps["op"]) | set(measurements.summaries["op"]))
                     - known_ops())
    if ignored:
        notes.append(f"not part of the guidelines, not shown: {', '.join(ignored)}")
    assign_groups(measurements, options.group_by)
    stats, samples = summarize(measurements.reps, measurements.summaries, notes)
    stats = stats[stats.index.get_level_values("op").isin(known_ops())]
    if stats.empty:
        raise UserError(f"no gather or scatter operation in {', '.join(options.files)} "
                        f"(found only {', '.join(ignored)})")
    labels = list(dict.fromkeys(stats.index.get_level_values("group")))
    checks, skipped = [], []
    by_path = {s.path: s for s in measurements.sources}
    for group in labels:
        paths = set(measurements.reps.loc[measurements.reps["group"] == group, "source"])
        simulated = bool(paths) and all(
            by_path[p].metadata.get("simulated", "no").startswith("yes") for p in paths)
        outcome = check_group(group, stats.xs(group, level="group"), samples, options.stat,
                              options.slack, options.alpha, exact=simulated)
        checks += outcome.checks
        skipped += [(f"[{group}] " if len(labels) > 1 else "") + s for s in outcome.skipped]
    if not checks and require_checks:
        raise UserError("no guideline can be checked: " + "; ".join(dict.fromkeys(skipped)))
    if options.correction == "holm" and checks:
        correct_holm(checks, options.alpha)
    groups = []
    for group in labels:
        files = set(measurements.reps.loc[measurements.reps["group"] == group, "source"]) | \
            set(measurements.summaries.loc[measurements.summaries["group"] == group, "source"])
        sources = [by_path[p] for p in options.files if p in files]
        groups.append((group, sources,
                       build_tables(group, stats.xs(group, level="group"),
                                    [c for c in checks if c.group == group], options.stat,
                                    options.all_ops)))
    return groups, checks, skipped, notes, stats


def render(fmt, groups, checks, skipped, notes, options, color=False):
    with_group = len(groups) > 1
    text = report.report_text(checks, skipped, notes, options, with_group)
    if fmt == "report":
        return text
    if fmt == "html":
        return render_html.document(groups, checks, skipped, notes, options)
    if fmt == "latex":
        return render_latex.document(groups, report.summary_line(checks, skipped, options))
    if fmt == "markdown":
        parts = ["# Irregular gather/scatter: performance guideline report", "",
                 report.summary_line(checks, skipped, options), "", render_text.MARKDOWN_LEGEND, ""]
        for label, sources, tables in groups:
            if with_group:
                parts += [f"## {label}", ""]
            for source in sources:
                meta = ", ".join(f"{k}={v}" for k, v in source.metadata.items()
                                 if k in ("library", "p", "nodes", "hostname", "start_time",
                                          "nrep", "sync", "git_commit"))
                parts += [f"Source `{source.path}`" + (f": {meta}" if meta else ""), ""]
            parts += [render_text.markdown(t, with_group) for t in tables]
        parts += ["## Violations", "", "```", text.rstrip("\n"), "```"]
        return "\n".join(parts) + "\n"
    parts = [render_text.terminal(t, color, with_group) for _, _, tables in groups for t in tables]
    parts.append(render_text.terminal_legend(color) + "\n")
    return "\n".join(parts) + "\n" + text


def write_reports(directory, groups, checks, skipped, notes, stats, options):
    os.makedirs(directory, exist_ok=True)
    outputs = {"report.md": "markdown", "report.html": "html", "report.tex": "latex",
               "violations.txt": "report"}
    written = []
    for name, fmt in outputs.items():
        path = os.path.join(directory, name)
        with open(path, "w", encoding="utf-8") as f:
            f.write(render(fmt, groups, checks, skipped, notes, options))
        written.append(path)
    path = os.path.join(directory, "stats.csv")
    stats.to_csv(path, float_format="%.3f")
    written.append(path)
    return written


def main(argv=None):
    options = parse_args(sys.argv[1:] if argv is None else argv)
    try:
        groups, checks, skipped, notes, stats = analyse(options)
        color = options.color == "always" or (options.color == "auto" and options.out is None
                                              and sys.stdout.isatty())
        output = render(options.format, groups, checks, skipped, notes, options, color)
        if options.out:
            with open(options.out, "w", encoding="utf-8") as f:
                f.write(output)
        else:
            sys.stdout.write(output)
        if options.write_reports:
            written = write_reports(options.write_reports, groups, checks, skipped, notes, stats,
                                    options)
            print(f"irrcheck: wrote {', '.join(written)}", file=sys.stderr)
    except UserError as e:
        print(f"irrcheck: {e}", file=sys.stderr)
        return 2
    except OSError as e:
        print(f"irrcheck: cannot write {e.filename}: {e.strerror}", file=sys.stderr)
        return 2
    if options.fail_on_violation and any(c.confirmed for c in checks):
        return 1
    return 0
