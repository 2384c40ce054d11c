"""irrplot's command line: result files or directories in, PNG/SVG plots and report.html out."""
import argparse
import base64
import io
import os
import sys

import matplotlib
import matplotlib.pyplot as plt
import pandas as pd

from irrguide import UserError, layout, operations, render_html
from irrguide.version import add_version

from . import figures, inputs

DESCRIPTION = """\
Plots irrbench results: per distribution, time vs m for each operation (median with its 95%
confidence band, minimum dashed); one line per library setting for chosen operations when the
inputs differ in setting (a SLURM sweep); heat maps of the speed-up of TUW_Gatherv over
MPI_Gatherv (and scatter) by distribution and b. With --report, also report.html: irrcheck's
red-flagged tables, the plots embedded, the violation list and the metadata, in one file."""

EPILOG = """\
inputs: raw.csv files, or directories searched for raw.csv (e.g. results/<run>/ of a sweep).
Runs that differ in p, library or algorithm setting become separate groups.
exit status: 0 done, 2 bad input or arguments."""


PLOT_PREFIXES = ("time_vs_m_", "settings_", "speedup_", "model_ratio_", "radix_")


def parse_args(argv):
    parser = argparse.ArgumentParser(prog="irrplot", description=DESCRIPTION, epilog=EPILOG,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    add_version(parser, "irrplot")
    parser.add_argument("inputs", nargs="+", metavar="PATH", help="raw.csv files or directories")
    parser.add_argument("--out", help="output directory (default: the first input directory, or "
                        "the directory of the first file); plots go to OUT/plots/")
    parser.add_argument("--formats", default="png,svg",
                        help="image formats, from png,svg (default png,svg)")
    parser.add_argument("--ops", default="MPI_Gather,MPI_Gatherv,MPI_Scatter,MPI_Scatterv",
                        help="operations compared across settings (default MPI_Gather,"
                        "MPI_Gatherv,MPI_Scatter,MPI_Scatterv)")
    parser.add_argument("--report", action="store_true",
                        help="also write OUT/report.html with the tables and plots")
    parser.add_argument("--check-args", default="",
                        help="arguments for irrcheck's analysis, e.g. '--stat median --slack 0.05'")
    options = parser.parse_args(argv)
    options.formats = [f.strip() for f in options.formats.split(",") if f.strip()]
    bad = [f for f in options.formats if f not in ("png", "svg")]
    if bad or not options.formats:
        parser.error(f"--formats: unknown format {', '.join(bad) or '(empty)'}; valid: png,svg")
    options.ops = [op.strip() for op in options.ops.split(",") if op.strip()]
    return options


def output_directory(options):
    if options.out:
        return options.out
    first = options.inputs[0]
    return first if os.path.isdir(first) else os.path.dirname(first) or "."


def model_figures(files, facts):
    """Measured / predicted for each run that has irrmodel's model.tsv (beside its raw.csv, or
    above its launch-K/ directories)."""
    made = []
    for run_dir in dict.fromkeys(layout.run_directory(path) for path in files):
        model_path = os.path.join(run_dir, "model.tsv")
        if os.path.exists(model_path):
            label = os.path.basename(run_dir)
            model = pd.read_csv(model_path, sep="\t")
            for column in figures.MODELS:
                made += figures.model_ratio(model, label, facts, column)
    return made


def make_figures(stats, groups, ops, facts):
    made = []
    for group, _, _ in groups:
        made += figures.time_vs_m(stats, group, facts)
    for op in ops:
        made += figures.settings_comparison(stats, op, facts)
    for group, _, _ in groups:
        made += figures.speedup_heatmap(stats, group, facts)
    made += figures.time_vs_radix(stats, facts)
    return made


PNG_DPI = 110  # the plots' resolution, in the files and in report.html


def png_data_uri(figure, png_path=None):
    """The figure as a data URI: the PNG file irrplot wrote (the same bytes: one figure, one
    dpi), else a fresh rendering."""
    if png_path is not None:
        with open(png_path, "rb") as f:
            data = f.read()
    else:
        buffer = io.BytesIO()
        figure.savefig(buffer, format="png", dpi=PNG_DPI)
        data = buffer.getvalue()
    return "data:image/png;base64," + base64.b64encode(data).decode("ascii")


def main(argv=None, analysed=None):
    """analysed: irrcheck's analysis of these inputs with the default settings, where the caller
    made it already (scripts/analyse-run's guideline step): used when it covers exactly the files
    found here, so that they are read and checked once (about a third of the step's time)."""
    options = parse_args(sys.argv[1:] if argv is None else argv)
    # Reproducible SVGs: no date, fixed ids, so committed plots only change with the data.
    matplotlib.rcParams["svg.hashsalt"] = "irrplot"
    try:
        files = layout.find_files(options.inputs)
        valid = operations.measurable()
        unknown = [op for op in options.ops if op not in valid]
        if unknown:
            raise UserError(f"--ops: unknown operation {', '.join(unknown)}; valid: "
                            f"{','.join(valid)}")
        reusable = (analysed is not None and not options.check_args.split()
                    and [s.path for s in analysed.sources] == list(files))
        result = analysed if reusable else inputs.analysed(files, options.check_args.split())
        known = set(result.stats.index.get_level_values("op"))
        facts = inputs.caption_facts(result.sources)
        made = make_figures(result.stats, result.groups,
                            [op for op in options.ops if op in known], facts)
        made += model_figures(files, facts)
        out = output_directory(options)
        plot_dir = os.path.join(out, "plots")
        os.makedirs(plot_dir, exist_ok=True)
        # plots/ is irrplot's: earlier plots (other groups, other formats) would mislead.
        for name in os.listdir(plot_dir):
            if name.startswith(PLOT_PREFIXES) and name.endswith((".png", ".svg")):
                os.remove(os.path.join(plot_dir, name))
        written, png_paths = [], {}
        for fig in made:
            for fmt in options.formats:
                path = os.path.join(plot_dir, f"{fig.stem}.{fmt}")
                fig.figure.savefig(path, format=fmt, dpi=PNG_DPI,
                                   metadata={"Date": None} if fmt == "svg" else None)
                written.append(path)
                if fmt == "png":
                    png_paths[fig.stem] = path
        if options.report:
            embedded = [(fig.caption, png_data_uri(fig.figure, png_paths.get(fig.stem)))
                        for fig in made]
            path = os.path.join(out, "report.html")
            with open(path, "w", encoding="utf-8") as f:
                f.write(render_html.document(result.groups, result.checks, result.skipped,
                                             result.notes, result.settings, embedded))
            written.append(path)
        for fig in made:  # irrplot may run many times in one process (scripts/analyse-run)
            plt.close(fig.figure)
        print(f"irrplot: {len(made)} plot(s), wrote {len(written)} file(s) under {out}",
              file=sys.stderr)
    except UserError as e:
        print(f"irrplot: {e}", file=sys.stderr)
        return 2
    except OSError as e:
        print(f"irrplot: cannot write {e.filename}: {e.strerror}", file=sys.stderr)
        return 2
    return 0
