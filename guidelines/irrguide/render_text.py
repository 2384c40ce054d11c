"""The terminal rendering of the tables."""
from .table import column_title, distribution_title, format_time

RED_BOLD, YELLOW, RESET = "\033[1;31m", "\033[33m", "\033[0m"

TERMINAL_LEGEND = ("{v} violates a guideline (Guideline (1) in the MPI_Gather/MPI_Scatter "
                   "columns, (2) in the v-columns, (3) in the persistent *_init columns); {u} "
                   "violated by that statistic, but not significantly or within the practical "
                   "threshold")
def table_title(table, with_group):
    title = f"{table.family.capitalize()} (times in µs)"
    return f"{title}, {table.group}" if with_group else title


def _cell_text(cell, color):
    text = format_time(cell.value)
    if cell.flag == "violation":
        return (RED_BOLD + text + RESET, len(text)) if color else (f"[{text}]", len(text) + 2)
    if cell.flag == "unconfirmed":
        return (YELLOW + text + "?" + RESET, len(text) + 1) if color else (text + "?", len(text) + 1)
    return text, len(text)


def terminal(table, color, with_group=False):
    """Fixed-width table; ANSI red bold for violations when color is on, [brackets] when off."""
    head1 = ["Problem", "m", "m'"]
    head2 = ["", "", ""]
    for op in table.ops:
        for i, stat in enumerate(table.stats):
            head1.append(column_title(op) if i == 0 else "")
            head2.append(stat)
    body = []
    for row in table.rows:
        line = [(distribution_title(row.distribution) if row.first_in_block else "", None),
                (str(row.m), None), (str(row.m_padded), None)]
        line += [_cell_text(cell, color) for cell in row.cells]
        body.append(line)
    widths = [max([len(head1[i]) if i < 3 or (i - 3) % len(table.stats) else 0, len(head2[i])]
                  + [(w if w is not None else len(t)) for t, w in (r[i] for r in body)])
              for i in range(len(head1))]
    # an op title spans its statistic columns: widen them so it fits
    n = len(table.stats)
    for k in range(len(table.ops)):
        first = 3 + k * n
        span = sum(widths[first:first + n]) + 2 * (n - 1)
        if len(head1[first]) > span:
            widths[first + n - 1] += len(head1[first]) - span

    def pad(text, visible, width, left):
        return text + " " * (width - visible) if left else " " * (width - visible) + text

    out = [table_title(table, with_group)]
    spans = head1[:3] + [head1[3 + k * n] for k in range(len(table.ops))]
    span_widths = widths[:3] + [sum(widths[3 + k * n:3 + (k + 1) * n]) + 2 * (n - 1)
                                for k in range(len(table.ops))]
    out.append("  ".join(pad(t, len(t), w, i == 0) for i, (t, w) in
                         enumerate(zip(spans, span_widths))).rstrip())
    out.append("  ".join(pad(t, len(t), w, i == 0) for i, (t, w) in
                         enumerate(zip(head2, widths))).rstrip())
    for line in body:
        out.append("  ".join(pad(t, w if w is not None else len(t), widths[i], i == 0)
                             for i, (t, w) in enumerate(line)).rstrip())
    return "\n".join(out) + "\n"


def terminal_legend(color):
    if color:
        return TERMINAL_LEGEND.format(v=RED_BOLD + "red bold" + RESET, u=YELLOW + "x?" + RESET)
    return TERMINAL_LEGEND.format(v="[x]", u="x?")
