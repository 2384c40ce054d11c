"""The verdicts as data: one row per check (checks.csv, and `irrcheck --format json`), so that a
CI job or a sweep script can act on them without parsing prose."""
import csv
import io
import json
import math

COLUMNS = ("group", "guideline", "family", "distribution", "b", "statistic", "lhs_op", "lhs_us",
           "rhs_op", "rhs_us", "unit", "launches_lhs", "launches_rhs", "ratio", "ratio_low",
           "ratio_high", "interval_coverage", "interval_corrected", "p_value", "p_adjusted",
           "threshold", "verdict")


def verdict(check):
    """violation (significant beyond the threshold, exact or untested), below_threshold
    (significant, but within the practical threshold), not_significant, or ok."""
    if not check.violated:
        return "ok"
    if check.confirmed:
        return "violation"
    return "below_threshold" if check.significant else "not_significant"


def rows(checks):
    def number(x):
        return None if x is None or not math.isfinite(x) else float(x)
    return [dict(zip(COLUMNS, (c.group, c.guideline, c.family, c.distribution, c.b, c.stat,
                               c.lhs_op, number(c.lhs), c.rhs_op, number(c.rhs), c.unit,
                               c.launches[0], c.launches[1], number(c.ratio),
                               number(c.ratio_low), number(c.ratio_high), number(c.coverage),
                               c.interval_corrected if c.comparison is not None else None,
                               number(c.p_value), number(c.p_adjusted), c.threshold,
                               verdict(c))))
            for c in checks]


def to_csv(checks):
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=COLUMNS, lineterminator="\n")
    writer.writeheader()
    for row in rows(checks):
        writer.writerow({k: ("" if v is None else f"{v:.6g}" if isinstance(v, float) else v)
                         for k, v in row.items()})
    return out.getvalue()


def to_json(checks, skipped, notes, summary):
    return json.dumps({"summary": summary, "checks": rows(checks), "skipped": list(skipped),
                       "notes": list(notes)}, indent=1, ensure_ascii=False) + "\n"
