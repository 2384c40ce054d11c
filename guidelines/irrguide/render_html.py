"""A self-contained HTML report: the run's metadata, a legend, the red-flagged tables and the
violation list. No external resources, so it can be mailed to a library's developers."""
from html import escape

from .report import significance_text, violation_line, violations, summary_line
from .table import column_title, distribution_title, format_time

STYLE = """
body { font-family: sans-serif; margin: 2em; color: #111; }
h1 { font-size: 1.4em; } h2 { font-size: 1.2em; margin-top: 2em; } h3 { font-size: 1.05em; }
table.times { border-collapse: collapse; margin: 0.5em 0 1.5em; font-size: 0.9em; }
table.times th, table.times td { border: 1px solid #bbb; padding: 0.2em 0.5em; }
table.times th { background: #eee; }
table.times td.num { text-align: right; font-variant-numeric: tabular-nums; }
td.violation, span.violation { color: #d00000; font-weight: bold; }
td.unconfirmed, span.unconfirmed { color: #8a6d00; font-style: italic; }
td.unconfirmed::after, span.unconfirmed::after { content: "?"; }
dl.meta { display: grid; grid-template-columns: max-content auto; gap: 0.1em 1em;
          font-size: 0.85em; }
dl.meta dt { font-weight: bold; } dl.meta dd { margin: 0; font-family: monospace; }
ol.violations { font-family: monospace; font-size: 0.85em; }
p.summary { font-weight: bold; }
figure img { max-width: 100%; }
"""

LEGEND = ("<p class=\"legend\"><span class=\"violation\">Red bold</span>: the time violates a "
          "performance guideline &mdash; Guideline (1) <code>MPI_Gather(m) &#x2AAF; "
          "MPI_Gatherv(m)</code> in the MPI_Gather/MPI_Scatter column (regular problems, m = m'), "
          "Guideline (2) <code>MPI_Gatherv(m) &#x2AAF; MPI_Allreduce(1) + MPI_Gather(m')</code> in "
          "the MPI_Gatherv/TUW_Gatherv (scatter: &hellip;v) column, and Guideline (3) for "
          "persistent operations <code>X_init &#x2AAF; X</code> and <code>MPI_Gatherv_init "
          "&#x2AAF; TUW_Gatherv_init</code> in the &hellip;_init column. "
          "<span class=\"unconfirmed\">Italic</span>: that statistic violates it, but the "
          "violation is not significant (one-sided Mann&ndash;Whitney test of the launches' "
          "statistics; within one launch a bootstrap of its repetitions) or its ratio is within "
          "the practical threshold. "
          "Hover over a flagged cell for the comparison. Times in &micro;s.</p>")


def _metadata(sources):
    parts = []
    for source in sources:
        items = "".join(f"<dt>{escape(k)}</dt><dd>{escape(v)}</dd>"
                        for k, v in source.metadata.items())
        if source.provenance:  # which job measured which cases (requeues, resubmissions)
            cases = "; ".join(f"{who}: {n} case{'s' if n != 1 else ''}"
                              for who, n in source.provenance)
            items = f"<dt>cases by job</dt><dd>{escape(cases)}</dd>" + items
        items = f"<dt>file</dt><dd>{escape(source.path)}</dd>" + items
        parts.append(f"<dl class=\"meta\">{items}</dl>")
    return "\n".join(parts)


def _table(table):
    n = len(table.stats)
    out = [f"<table class=\"times\" data-family=\"{escape(table.family)}\">", "<thead><tr>"
           "<th rowspan=\"2\">Problem</th><th rowspan=\"2\">m</th><th rowspan=\"2\">m'</th>"]
    out += [f"<th colspan=\"{n}\">{escape(column_title(op))}</th>" for op in table.ops]
    out.append("</tr><tr>" + "".join(f"<th>{escape(s)}</th>" for _ in table.ops
                                     for s in table.stats)
               + "</tr></thead><tbody>")
    block_sizes = {}
    for row in table.rows:
        block_sizes[row.distribution] = block_sizes.get(row.distribution, 0) + 1
    for row in table.rows:
        cells = []
        if row.first_in_block:
            cells.append(f"<th rowspan=\"{block_sizes[row.distribution]}\" scope=\"rowgroup\">"
                         f"{escape(distribution_title(row.distribution))}</th>")
        cells += [f"<td class=\"num\">{row.m}</td>", f"<td class=\"num\">{row.m_padded}</td>"]
        for i, cell in enumerate(row.cells):
            op, stat = table.ops[i // n], table.stats[i % n]
            css = "num" + (f" {cell.flag}" if cell.flag else "")
            title = f" title=\"{escape('; '.join(cell.notes))}\"" if cell.notes else ""
            cells.append(f"<td class=\"{css}\" data-op=\"{escape(op)}\" "
                         f"data-stat=\"{escape(stat)}\"{title}>"
                         f"{format_time(cell.value)}</td>")
        out.append(f"<tr data-distribution=\"{escape(row.distribution)}\" data-b=\"{row.b}\">"
                   + "".join(cells) + "</tr>")
    out.append("</tbody></table>")
    return "\n".join(out)


def document(groups, checks, skipped, notes, options, figures=()):
    """groups: [(group label, [Source], [Table])]; figures: [(caption, data URI)]."""
    with_group = len(groups) > 1
    body = ["<h1>Irregular gather/scatter: performance guideline report</h1>",
            f"<p class=\"summary\">{escape(summary_line(checks, skipped, options))}</p>", LEGEND]
    for label, sources, tables in groups:
        if with_group:
            body.append(f"<h2>{escape(label)}</h2>")
        body.append("<details open><summary>Run metadata</summary>" + _metadata(sources)
                    + "</details>")
        for table in tables:
            body.append(f"<h3>{table.family.capitalize()}</h3>")
            body.append(_table(table))
    for caption, uri in figures:
        body.append(f"<figure><img src=\"{uri}\" alt=\"{escape(caption)}\">"
                    f"<figcaption>{escape(caption)}</figcaption></figure>")
    body.append("<h2>Violations</h2>")
    found = violations(checks)
    if found:
        body.append("<ol class=\"violations\">")
        for c in found:
            css = "violation" if c.confirmed else "unconfirmed"
            body.append(f"<li class=\"{css}\" data-significance=\""
                        f"{escape(significance_text(c))}\">"
                        f"{escape(violation_line(c, with_group))}</li>")
        body.append("</ol>")
    else:
        body.append("<p>No guideline violations.</p>")
    if skipped or notes:
        body.append("<h2>Notes</h2><ul>" + "".join(f"<li>{escape(n)}</li>" for n in skipped + notes)
                    + "</ul>")
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<title>irrcheck report</title><style>" + STYLE + "</style></head><body>\n"
            + "\n".join(body) + "\n</body></html>\n")
