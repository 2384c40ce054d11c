"""The paper's table layout (Träff 2017, Tables 1-11) as data: one block of rows per distribution
with b increasing; columns Problem, m, m', then per operation one column per statistic. Each
cell knows whether a guideline check flagged it. Renderers only format this model."""
import dataclasses
import math

from .check import FAMILIES, display_name

DISTRIBUTION_ORDER = ["same", "random", "spikes", "decreasing", "alternating", "two_blocks",
                      "increasing", "random_increasing", "random_decreasing", "bucket", "skewed"]
DISTRIBUTION_TITLES = {"same": "Same", "random": "Random", "spikes": "Spikes",
                       "decreasing": "Decreasing", "alternating": "Alternating",
                       "two_blocks": "Two blocks", "increasing": "Increasing",
                       "random_increasing": "Random increasing",
                       "random_decreasing": "Random decreasing", "bucket": "Bucket",
                       "skewed": "Skewed"}


def distribution_title(name):
    return DISTRIBUTION_TITLES.get(name, name)


def column_title(op):
    return "Guideline (2)" if op.startswith("Guideline2_") else op


@dataclasses.dataclass
class Cell:
    value: float  # µs, NaN when not measured
    flag: str = ""  # "", "violation" (confirmed), "unconfirmed" (statistic only, test did not reject)
    notes: tuple = ()  # one sentence per check that flagged it


@dataclasses.dataclass
class Row:
    distribution: str
    first_in_block: bool
    b: int
    m: int
    m_padded: int
    cells: list


@dataclasses.dataclass
class Table:
    group: str
    family: str
    ops: list
    stats: list
    rows: list

    def flagged(self):
        """(distribution, b, op, stat, flag) of every flagged cell: what renderers must mark."""
        out = []
        for row in self.rows:
            for i, cell in enumerate(row.cells):
                if cell.flag:
                    op, stat = self.ops[i // len(self.stats)], self.stats[i % len(self.stats)]
                    out.append((row.distribution, row.b, op, stat, cell.flag))
        return out


def describe(check):
    """One sentence for a check: the two times and the ratio with its interval."""
    lhs, rhs = display_name(check.lhs_op), display_name(check.rhs_op)
    return (f"Guideline ({check.guideline}), {check.stat}: {lhs} {check.lhs:.2f} µs vs {rhs} "
            f"{check.rhs:.2f} µs: {ratio_text(check)}")


def build_tables(group, table, checks, stats, with_baselines=False):
    """The gather and scatter tables of one group (only those with measurements)."""
    flags = {}
    for c in checks:
        if c.violated:
            key = (c.flagged_op, c.distribution, c.b, c.stat)
            flag, notes = flags.get(key, ("unconfirmed", ()))
            flags[key] = ("violation" if c.confirmed else flag, notes + (describe(c),))
    ops_present = set(table.index.get_level_values("op"))
    tables = []
    for family in FAMILIES:
        wanted = [family.regular, family.padded, *family.irregular]
        wanted += list(family.baselines) if with_baselines else []
        wanted += list(family.persistent)  # shown where measured: Guideline (3)
        ops = [op for op in wanted if op in ops_present]
        if not ops:
            continue
        rows_of = table[table.index.get_level_values("op").isin(ops)]
        cases = sorted({(d, b) for _, d, b in rows_of.index},
                       key=lambda c: (DISTRIBUTION_ORDER.index(c[0])
                                      if c[0] in DISTRIBUTION_ORDER else len(DISTRIBUTION_ORDER),
                                      c[0], c[1]))
        rows, previous = [], None
        for distribution, b in cases:
            case_rows = rows_of.xs((distribution, b), level=("distribution", "b"))
            cells = []
            for op in ops:
                for stat in stats:
                    value = case_rows.loc[op, stat] if op in case_rows.index else math.nan
                    flag, notes = flags.get((op, distribution, b, stat), ("", ()))
                    cells.append(Cell(float(value), flag, notes))
            first = case_rows.iloc[0]
            rows.append(Row(distribution, distribution != previous, int(b), int(first["m"]),
                            int(first["m_padded"]), cells))
            previous = distribution
        tables.append(Table(group, family.name, ops, list(stats), rows))
    return tables


def format_ratio(ratio):
    """Enough digits that a 0.2 % difference never reads as "1×"."""
    if not math.isfinite(ratio):
        return "∞"
    return f"{ratio:.3f}" if ratio < 10 else f"{ratio:.2f}" if ratio < 1000 else f"{ratio:.0f}"


def ratio_text(check):
    """ratio 1.832 (90 % interval 1.610–2.071), or just the ratio where there is no interval."""
    text = f"ratio {format_ratio(check.ratio)}"
    if math.isfinite(check.coverage) and check.ratio_low > 0 and math.isfinite(check.ratio_high):
        text += (f" ({100 * check.coverage:.4g} % interval {format_ratio(check.ratio_low)}–"
                 f"{format_ratio(check.ratio_high)}"
                 f"{'' if check.interval_corrected else ', before the correction'})")
    return text


def format_time(value):
    return "–" if not math.isfinite(value) else f"{value:.2f}"
