"""irrcheck's command line: arguments in, analyse(), rendered output out."""
import argparse
import os
import sys

from . import UserError
from . import analysis, render_html, render_latex, render_markdown, render_text, report, verdicts
from .version import add_version

FORMATS = ("terminal", "markdown", "html", "latex", "report", "json")

DESCRIPTION = """\
Checks Träff's performance guidelines for irregular gather and scatter (2017, Section 4) on
irrbench results and renders the paper's tables with violations in red bold:
  (1) MPI_Gather(m) <= MPI_Gatherv(m)                       (regular problems, m = m')
  (2) MPI_Gatherv(m) <= MPI_Allreduce(1) + MPI_Gather(m')   (Guideline2_Gather)
and likewise for scatter, for the library's MPI_Gatherv and for TUW_Gatherv."""

EPILOG = """\
input: irrbench raw.csv files (metadata lines, then one row per repetition; files without the
late or status columns are read as all on time and ok), or summary CSVs with columns
op,distribution,b,p,m,m_padded,avg_us,min_us (e.g. results/paper/*.csv; no significance test).
group keys: p, nodes, library, setting (the algorithm-selection variables of
formats/environment.tsv: I_MPI_ADJUST_*, OMPI_MCA_coll_*, MPIR_CVAR_*, ...), file, or any
metadata key of the input.
json: one object with the summary line and one entry per check (the columns of checks.csv:
group, guideline, family, distribution, b, statistic, lhs/rhs operation and µs, factor, p-value,
adjusted p-value, verdict violation|not_significant|ok).
exit status: 0 done, 1 a significant (or untested) violation with --fail-on-violation,
2 bad input or arguments."""


def parse_args(argv):
    parser = argparse.ArgumentParser(prog="irrcheck", description=DESCRIPTION, epilog=EPILOG,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    add_version(parser, "irrcheck")
    parser.add_argument("files", nargs="+", metavar="FILE", help="raw.csv or summary CSV files")
    analysis.add_arguments(parser)
    parser.add_argument("--format", default="terminal", choices=FORMATS,
                        help="output format (default terminal; report = the violation list only; "
                        "json = the verdicts as data)")
    parser.add_argument("--out", help="write the output to this file instead of stdout")
    parser.add_argument("--color", default="auto", choices=("auto", "always", "never"),
                        help="ANSI colors in terminal format (default auto: only on a TTY)")
    parser.add_argument("--group-by", default="",
                        help="comma-separated keys: one table per value (see below)")
    parser.add_argument("--all-ops", action="store_true",
                        help="also show the Linear_/Binomial_ baselines (not checked)")
    parser.add_argument("--write-reports", metavar="DIR",
                        help="also write report.md, report.html, report.tex, violations.txt, "
                        "stats.csv and checks.csv into DIR")
    parser.add_argument("--fail-on-violation", action="store_true",
                        help="exit 1 when any significant (or untested) violation exists")
    options = parser.parse_args(argv)
    options.settings = analysis.settings_from(options, parser)
    options.group_by = [k.strip() for k in options.group_by.split(",") if k.strip()]
    return options


def render(fmt, result, color=False):
    """One output format of an Analysis."""
    checks, skipped, notes, settings = result.checks, result.skipped, result.notes, result.settings
    with_group = len(result.groups) > 1
    text = report.report_text(checks, skipped, notes, settings, with_group)
    summary = report.summary_line(checks, skipped, settings)
    if fmt == "report":
        return text
    if fmt == "json":
        return verdicts.to_json(checks, skipped, notes, summary)
    if fmt == "html":
        return render_html.document(result.groups, checks, skipped, notes, settings)
    if fmt == "latex":
        return render_latex.document(result.groups, summary)
    if fmt == "markdown":
        return render_markdown.document(result.groups, summary, text)
    parts = [render_text.terminal(t, color, with_group) for _, _, tables in result.groups
             for t in tables]
    parts.append(render_text.terminal_legend(color) + "\n")
    return "\n".join(parts) + "\n" + text


REPORT_FILES = {"report.md": "markdown", "report.html": "html", "report.tex": "latex",
                "violations.txt": "report"}


def write_reports(directory, result):
    os.makedirs(directory, exist_ok=True)
    written = []
    for name, fmt in REPORT_FILES.items():
        path = os.path.join(directory, name)
        with open(path, "w", encoding="utf-8") as f:
            f.write(render(fmt, result))
        written.append(path)
    path = os.path.join(directory, "stats.csv")
    result.stats.to_csv(path, float_format="%.3f")
    written.append(path)
    path = os.path.join(directory, "checks.csv")
    with open(path, "w", encoding="utf-8") as f:
        f.write(verdicts.to_csv(result.checks))
    written.append(path)
    return written


def main(argv=None):
    options = parse_args(sys.argv[1:] if argv is None else argv)
    try:
        result = analysis.analyse(options.files, options.settings, options.group_by)
        color = options.color == "always" or (options.color == "auto" and options.out is None
                                              and sys.stdout.isatty())
        output = render(options.format, result, color)
        if options.out:
            with open(options.out, "w", encoding="utf-8") as f:
                f.write(output)
        else:
            sys.stdout.write(output)
        if options.write_reports:
            written = write_reports(options.write_reports, result)
            print(f"irrcheck: wrote {', '.join(written)}", file=sys.stderr)
    except UserError as e:
        print(f"irrcheck: {e}", file=sys.stderr)
        return 2
    except OSError as e:
        print(f"irrcheck: cannot write {e.filename}: {e.strerror}", file=sys.stderr)
        return 2
    if options.fail_on_violation and any(c.confirmed for c in result.checks):
        return 1
    return 0
