"""Which files a user means (raw.csv files or directories holding them, e.g. a SLURM sweep's run
directory), how to group them (one group per library setting, p, library) and their statistics,
all through irrcheck's own loading, grouping and checking so tables and plots agree."""
import os

from irrguide import UserError, load
from irrguide.cli import CONSISTENT_KEYS, analyse, group_value, parse_args


def find_files(paths):
    """raw.csv files: given ones as they are, directories searched recursively (sorted)."""
    files = []
    for path in paths:
        if os.path.isdir(path):
            found = sorted(os.path.join(d, f) for d, _, names in os.walk(path)
                           for f in names if f == "raw.csv")
            if not found:
                raise UserError(f"{path}: no raw.csv below this directory (irrbench writes "
                                "results/<run>/raw.csv)")
            files += found
        elif os.path.exists(path):
            files.append(path)
        else:
            raise UserError(f"{path}: no such file or directory")
    return files


def group_keys(files):
    """The keys among p, library and setting whose values differ between the files."""
    sources = [load.read_file(f)[2] for f in files]
    keys = []
    for key in CONSISTENT_KEYS:
        values = {group_value(s, s.metadata.get("p", "?"), key) for s in sources}
        if len(values) > 1:
            keys.append(key)
    return keys, sources


def analysed(files, check_args=()):
    """irrcheck's analysis of the files grouped by what differs: (options, groups, checks,
    skipped, notes, stats, sources)."""
    keys, sources = group_keys(files)
    options = parse_args(list(files) + (["--group-by", ",".join(keys)] if keys else [])
                         + list(check_args))
    groups, checks, skipped, notes, stats = analyse(options, require_checks=False)
    return options, groups, checks, skipped, notes, stats, sources


def caption_facts(sources):
    """Library, p, nodes and host of the runs, for figure captions."""
    def values(key):
        found = list(dict.fromkeys(s.metadata.get(key, "?") for s in sources))
        return found[0] if len(found) == 1 else "/".join(found)
    library = "; ".join(dict.fromkeys(
        " ".join(s.metadata.get("library", "unknown library").split(",")[0]
                 .split(". Copyright")[0].split())
        for s in sources))  # MPICH's version string has a tab
    text = (f"{library}, p = {values('p')}, {values('nodes')} node(s) x "
            f"{values('processes_per_node')} processes, host {values('hostname')}")
    simulated = values("simulated")
    return text + (", simulated" if simulated not in ("?", "no") else "")

