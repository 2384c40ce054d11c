#!/usr/bin/python3
"""Prints avg/min per operation (µs) for one irrbench raw.csv, one table for gather and one for
scatter, rows per distribution and b as in Träff 2017's tables. (The guideline verdicts are
irrcheck's job; this is the plain summary.)"""
import sys

import pandas as pd


def load(path):
    data = pd.read_csv(path, comment="#")
    return data[data["status"] == "ok"]


def table(data, ops):
    present = [op for op in ops if op in set(data["op"])]
    if not present:
        return None
    rows = data[data["op"].isin(present)]
    stats = rows.groupby(["distribution", "b", "m", "m_padded", "op"])["seconds"].agg(["mean", "min"])
    stats = (stats * 1e6).unstack("op")
    stats = stats.reindex(columns=pd.MultiIndex.from_product([["mean", "min"], present]))
    stats.columns = [f"{op} {'avg' if s == 'mean' else 'min'}" for s, op in stats.columns]
    ordered = [f"{op} {s}" for op in present for s in ("avg", "min")]
    return stats[ordered].round(2)


def main(argv):
    if len(argv) != 2:
        print("usage: summary.py results/<run>/raw.csv", file=sys.stderr)
        return 2
    data = load(argv[1])
    pd.set_option("display.width", 250)
    pd.set_option("display.max_columns", 40)
    for title, ops in (
        ("Gather", ["MPI_Gather", "Guideline2_Gather", "MPI_Gatherv", "TUW_Gatherv",
                    "Linear_Gatherv", "Binomial_Gatherv"]),
        ("Scatter", ["MPI_Scatter", "Guideline2_Scatter", "MPI_Scatterv", "TUW_Scatterv",
                     "Linear_Scatterv", "Binomial_Scatterv"]),
    ):
        t = table(data, ops)
        if t is not None:
            print(f"\n{title} (times in µs, from {argv[1]})")
            print(t.to_string())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
