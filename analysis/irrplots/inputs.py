"""The analysis of the files a user means (irrguide.layout.find_files: raw.csv files or
directories holding them) - irrcheck's own loading, grouping and checking (irrguide.analysis,
called directly), so tables and plots agree."""
from irrguide import analysis


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

