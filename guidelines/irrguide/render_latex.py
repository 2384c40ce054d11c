"""A LaTeX document with the tables in the paper's style: violations as
\\textcolor{red}{\\textbf{...}}, statistic-only violations in italics."""
from .table import column_title, distribution_title, format_time


def escape(text):
    replacements = {"\\": r"\textbackslash{}", "_": r"\_", "%": r"\%", "&": r"\&", "#": r"\#",
                    "$": r"\$", "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}",
                    "^": r"\textasciicircum{}", "µ": r"$\mu$", "×": r"$\times$",
                    "⪯": r"$\preceq$", "–": "--"}
    return "".join(replacements.get(ch, ch) for ch in text)


def _cell(cell):
    text = format_time(cell.value).replace("–", "--")
    if cell.flag == "violation":
        return r"\textcolor{red}{\textbf{%s}}" % text
    if cell.flag == "unconfirmed":
        return r"\textit{%s}?" % text
    return text


def table(t, caption):
    n = len(t.stats)
    lines = [r"\begin{table}[htbp]", r"\centering", r"\small",
             r"\begin{tabular}{lrr" + "r" * (n * len(t.ops)) + "}", r"\hline",
             "Problem & $m$ & $m'$ & " + " & ".join(r"\multicolumn{%d}{c}{%s}"
                                                    % (n, escape(column_title(op)))
                                                    for op in t.ops) + r" \\",
             " & & & " + " & ".join(s for _ in t.ops for s in t.stats) + r" \\", r"\hline"]
    for row in t.rows:
        if row.first_in_block and row is not t.rows[0]:
            lines.append(r"\hline")
        name = escape(distribution_title(row.distribution)) if row.first_in_block else ""
        lines.append(" & ".join([name, str(row.m), str(row.m_padded)]
                                + [_cell(c) for c in row.cells]) + r" \\")
    lines += [r"\hline", r"\end{tabular}", r"\caption{%s}" % escape(caption), r"\end{table}"]
    return "\n".join(lines)


def document(groups, summary):
    """groups: [(group label, [Source], [Table])]."""
    parts = [r"\documentclass{article}",
             r"\usepackage[utf8]{inputenc}", r"\usepackage{xcolor}",
             r"\usepackage[landscape,margin=1.5cm]{geometry}", r"\begin{document}"]
    for label, sources, tables in groups:
        library = sources[0].metadata.get("library", "unknown library").split(",")[0]
        for t in tables:
            p = sorted({s.metadata.get("p", "") for s in sources} - {""})
            caption = (f"{t.family.capitalize()} results for {library}"
                       + (f", p = {', '.join(p)}" if p else "") + f" ({label}). "
                       "Running times are in µs. Numbers in red, bold font show violations of "
                       "the performance guidelines, Guideline (1) in the MPI_"
                       f"{t.family.capitalize()} column, Guideline (2) in the v-columns, "
                       "Guideline (3) in the persistent _init columns; "
                       "italics with ? mark a violation by that statistic that is not "
                       "significant or within the practical threshold.")
            parts.append(table(t, caption))
    parts += [escape(summary), r"\end{document}"]
    return "\n".join(parts) + "\n"
