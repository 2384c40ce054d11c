"""irrtune's command line: a sweep's run directory (or its raw.csv / summary files) in; the
recommendation printed, and with --out recommendation.csv, recommendation.txt and the library's
tuning file written (scripts/analyse-run does this for every sweep, into its report)."""
import argparse
import os
import sys

from . import UserError, analysis, layout, render_tune, tune, tuning_files
from .version import add_version

EPILOG = """\
examples:
  guidelines/irrtune results/sweep-openmpi-20261126T101500Z
  guidelines/irrtune results/sweep-mpich-*/ --out /tmp/tuned --stat median
  guidelines/irrtune results/paper/traff2017_table{6,7,8,9,10,11}.csv
then re-run the sweep with the file: slurm/sweep --library L --settings all,tuned=FILE ...
exit status: 0 recommended, 2 bad input (one setting, mixed libraries, unknown settings)."""


def main(argv=None):
    parser = argparse.ArgumentParser(prog="irrtune", description=__doc__, epilog=EPILOG,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    add_version(parser, "irrtune")
    parser.add_argument("inputs", nargs="+", metavar="RUN_DIR_OR_FILE",
                        help="a sweep directory (raw.csv files below it) or result files")
    analysis.add_arguments(parser)
    parser.set_defaults(stat="avg")
    parser.add_argument("--out", help="write recommendation.csv, recommendation.txt and the "
                        "tuning file into this directory")
    parser.add_argument("--mpich-library", help="the libmpich.so whose built-in selection the "
                        "MPICH file extends (default: found under /usr/lib)")
    options = parser.parse_args(sys.argv[1:] if argv is None else argv)
    settings = analysis.settings_from(options, parser)
    try:
        rec = tune.recommend(layout.find_files(options.inputs), settings)
        library_file = tune.LIBRARIES[rec.library].tuning_file
        if options.out:
            os.makedirs(options.out, exist_ok=True)
            written = render_tune.write_all(options.out, rec, options.mpich_library)
            sys.stdout.write(render_tune.text(rec, os.path.join(options.out, library_file)))
            print(f"irrtune: wrote {', '.join(written)}", file=sys.stderr)
        else:
            sys.stdout.write(render_tune.text(rec))
            sys.stdout.write(f"\n{library_file}:\n" + tuning_files.write(
                rec.library, rec.choices, ["irrtune"], options.mpich_library))
    except (UserError, tuning_files.TuningFileError) as e:
        print(f"irrtune: {e}", file=sys.stderr)
        return 2
    except OSError as e:
        print(f"irrtune: {e.filename}: {e.strerror}", file=sys.stderr)
        return 2
    return 0
