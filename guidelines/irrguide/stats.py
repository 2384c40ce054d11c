"""Per case (group, op, distribution, b): the number of repetitions and of launches, avg, min,
median and a distribution-free confidence interval of the median, all in µs. Each input file is
one launch (one mpirun; irrbench --launch). With one launch the statistics are over its
repetitions; with several, each launch is summarized on its own and a cell is the median over
the launches of their avg, min or median (Hunold & Carpen-Amarie 2016) — repetitions of
different launches are never pooled into one sample. Summary-only input contributes avg and min."""
import math

import numpy as np
import pandas as pd
from scipy import stats as scipy_stats

from . import UserError
from .ratio_test import STATISTIC

CASE = ["group", "op", "distribution", "b"]
STAT_COLUMNS = ["p", "m", "m_padded", "launches", "n", "avg", "min", "median", "median_ci_low",
                "median_ci_high", "late"]


def per_launch(launches, stat):
    """One value per launch: its repetitions' avg, min or median."""
    return np.array([STATISTIC[stat](values) for values in launches])


def across_launches(launches, stat):
    """The statistic of one launch, or the median over several launches of theirs."""
    return float(np.median(per_launch(launches, stat)))


def median_ci(values, confidence=0.95):
    """Order-statistic interval [x_(j), x_(n+1-j)] with P(j <= B <= n-j) >= confidence for
    B ~ Binomial(n, 1/2): exact, assumes only independent repetitions. NaN when n is too small
    for the confidence (n < 6 at 95%)."""
    x = np.sort(np.asarray(values, dtype=float))
    n = len(x)

    def coverage(j):  # 1-based lower rank j
        return scipy_stats.binom.cdf(n - j, n, 0.5) - scipy_stats.binom.cdf(j - 1, n, 0.5)

    j = max(1, int(scipy_stats.binom.ppf((1 - confidence) / 2, n, 0.5)) + 1)
    while j >= 1 and coverage(j) < confidence:
        j -= 1
    if j < 1:
        return math.nan, math.nan
    return x[j - 1], x[n - j]


def _unique(frame, column, case_text):
    values = sorted(set(frame[column]))
    if len(values) > 1:
        files = ", ".join(sorted(set(frame["source"])))
        raise UserError(f"{case_text}: inconsistent {column} ({', '.join(map(str, values))}) "
                        f"in {files}; were these runs made with different parameters?")
    return values[0]


def summarize(reps, summaries):
    """Returns (stats indexed by CASE, {case key: [np.ndarray of one launch's repetitions in µs,
    one per launch]})."""
    records, samples = [], {}
    for key, rows in reps.groupby(CASE, sort=False):
        text = f"{key[1]} {key[2]} b={key[3]}"
        launches = [group["us"].to_numpy(dtype=float)
                    for _, group in rows.groupby("source", sort=False)]
        values = np.concatenate(launches)
        low, high = median_ci(values) if len(launches) == 1 else median_ci(
            per_launch(launches, "median"))
        samples[key] = launches
        records.append(dict(zip(CASE, key), p=_unique(rows, "p", text), m=_unique(rows, "m", text),
                            m_padded=_unique(rows, "m_padded", text), launches=len(launches),
                            n=len(values), avg=across_launches(launches, "avg"),
                            min=across_launches(launches, "min"),
                            median=across_launches(launches, "median"),
                            median_ci_low=low, median_ci_high=high,
                            late=int(rows["late"].sum())))
    for key, rows in summaries.groupby(CASE, sort=False):
        text = f"{key[1]} {key[2]} b={key[3]}"
        if key in samples:
            raise UserError(f"{text}: given both as repetitions and as a summary "
                            f"({', '.join(sorted(set(rows['source'])))}); give one of them")
        if len(rows) > 1:
            raise UserError(f"{text}: {len(rows)} summary rows in "
                            f"{', '.join(sorted(set(rows['source'])))}; expected one per case")
        row = rows.iloc[0]
        records.append(dict(zip(CASE, key), p=row["p"], m=row["m"], m_padded=row["m_padded"],
                            launches=math.nan, n=math.nan, avg=float(row["avg_us"]),
                            min=float(row["min_us"]),
                            median=math.nan, median_ci_low=math.nan, median_ci_high=math.nan,
                            late=0))
    table = pd.DataFrame.from_records(records, columns=CASE + STAT_COLUMNS).set_index(CASE)
    return table, samples
