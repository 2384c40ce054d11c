"""Which files a user means (raw.csv files or directories holding them, e.g. a SLURM sweep's run
directory) and their analysis - irrcheck's own loading, grouping and checking (irrguide.analysis,
called directly), so tables and plots agree."""
import os

from irrguide import UserError, analysis


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


def analysed(files, check_args=()):
    """irrcheck's analysis of the files (read once), grouped by what differs between them (p,
    library, setting): an irrguide.analysis.Analysis."""
    return analysis.analyse(files, analysis.parse_settings(list(check_args)), group_by="auto",
                            require_checks=False)


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
            f"{values('processes_per_node')} processes")
    host = values("hostname")
    if host != "?":  # published summaries name their system, not a host
        text += f", host {host}"
    elif values("system") != "?":
        text += f", {values('system').split(':')[0]}"
    if values("source") != "?":
        text += ", published"
    simulated = values("simulated")
    return text + (", simulated" if simulated not in ("?", "no") else "")

