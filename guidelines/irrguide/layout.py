"""Where a run keeps its launches: one launch writes RUN/raw.csv; several write
RUN/launch-K/raw.csv, K = 1 .. N, each launch its own file (irrbench --launch K). The same rule
in bash: scripts/run-launches."""
import os
import re

LAUNCH_DIRECTORY = re.compile(r"^launch-[0-9]+$")


def launch_file(run_dir, launch, launches):
    if launches == 1:
        return os.path.join(run_dir, "raw.csv")
    return os.path.join(run_dir, f"launch-{launch}", "raw.csv")


def run_directory(raw_path):
    """The run a raw.csv belongs to: its directory, or the one above a launch-K directory."""
    directory = os.path.dirname(os.path.abspath(raw_path))
    if LAUNCH_DIRECTORY.match(os.path.basename(directory)):
        return os.path.dirname(directory)
    return directory


def launch_files(run_dir):
    """The raw.csv files of one run with several launches, by launch number; [] otherwise."""
    if not os.path.isdir(run_dir):
        return []
    found = [(int(name.split("-")[1]), os.path.join(run_dir, name, "raw.csv"))
             for name in os.listdir(run_dir) if LAUNCH_DIRECTORY.match(name)]
    return [path for _, path in sorted(found) if os.path.isfile(path)]


def raw_files_below(directory):
    """Every raw.csv in a directory or below it (a run, or a sweep of runs), sorted."""
    return sorted(os.path.join(d, f) for d, _, names in os.walk(directory)
                  for f in names if f == "raw.csv")


def find_files(paths):
    """Result files: given ones as they are, directories searched recursively (sorted)."""
    from . import UserError
    files = []
    for path in paths:
        if os.path.isdir(path):
            found = raw_files_below(path)
            if not found:
                raise UserError(f"{path}: no raw.csv below this directory (irrbench writes "
                                "results/<run>/raw.csv)")
            files += found
        elif os.path.exists(path):
            files.append(path)
        else:
            raise UserError(f"{path}: no such file or directory")
    return files
