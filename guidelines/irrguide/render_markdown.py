"""A Markdown document: the summary, the tables (violations in bold), the violation list."""
from .render_text import table_title
from .table import column_title, distribution_title, format_time

MARKDOWN_LEGEND = ("**bold**: violates a guideline (Guideline (1) in the MPI_Gather/MPI_Scatter "
                   "columns, (2) in the v-columns, (3) in the persistent *_init columns); `?`: "
                   "violated by that statistic, but not significantly or within the practical "
                   "threshold. Times in µs.")

SOURCE_KEYS = ("library", "p", "nodes", "hostname", "launch", "start_time", "nrep", "sync",
               "git_commit")


def markdown(table, with_group=False):
    header = ["Problem", "m", "m'"] + [f"{column_title(op)} {stat}" for op in table.ops
                                       for stat in table.stats]
    lines = [f"### {table_title(table, with_group)}", "",
             "| " + " | ".join(header) + " |",
             "|" + "|".join([":---"] + ["---:"] * (len(header) - 1)) + "|"]
    for row in table.rows:
        cells = []
        for cell in row.cells:
            text = format_time(cell.value)
            cells.append(f"**{text}**" if cell.flag == "violation"
                         else f"{text}?" if cell.flag == "unconfirmed" else text)
        lines.append("| " + " | ".join([distribution_title(row.distribution), str(row.m),
                                        str(row.m_padded)] + cells) + " |")
    return "\n".join(lines) + "\n"


def document(groups, summary, violation_text):
    """groups: [(group label, [Source], [Table])]; violation_text: the violation report."""
    with_group = len(groups) > 1
    parts = ["# Irregular gather/scatter: performance guideline report", "", summary, "",
             MARKDOWN_LEGEND, ""]
    for label, sources, tables in groups:
        if with_group:
            parts += [f"## {label}", ""]
        for source in sources:
            meta = ", ".join(f"{k}={v}" for k, v in source.metadata.items() if k in SOURCE_KEYS)
            parts += [f"Source `{source.path}`" + (f": {meta}" if meta else ""), ""]
        parts += [markdown(t, with_group) for t in tables]
    parts += ["## Violations", "", "```", violation_text.rstrip("\n"), "```"]
    return "\n".join(parts) + "\n"
