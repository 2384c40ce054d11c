"""irrcheck's statistics and significance decisions on synthetic repetitions with known
properties."""
from math import comb

import numpy as np
import pandas as pd
import pytest

from synthetic import analyse, noise, rng, run, write_raw
from irrguide.stats import median_ci

GATHER_OPS = ("MPI_Gather", "Guideline2_Gather", "MPI_Gatherv", "TUW_Gatherv")
DISTS = ("same", "random", "spikes", "decreasing", "alternating", "two_blocks")


def coverage(n, j):
    """P(j <= B <= n - j), B ~ Binomial(n, 1/2), by counting."""
    return sum(comb(n, k) for k in range(j, n - j + 1)) / 2 ** n


def test_median_ci_hand_case_and_coverage():
    x = np.arange(10, 0, -1) * 1.0  # 10..1, unsorted on purpose
    # n = 10: P(2 <= B <= 8) = 1 - 2*11/1024 = 0.979 >= 0.95; j = 3 gives 0.891
    assert median_ci(x) == (2.0, 9.0)
    assert all(np.isnan(median_ci(np.arange(5.0))))  # n = 5: the widest interval covers 0.9375
    for n in (6, 20, 75, 200):
        low, high = median_ci(np.arange(1.0, n + 1))
        j = int(low)
        assert high == n + 1 - j
        assert coverage(n, j) >= 0.95 > coverage(n, j + 1)


def test_equal_distributions_give_no_significant_violation(tmp_path):
    r = rng(7)
    cases = {(op, d, b): noise(r, 75, 50.0 * b ** 0.5) for op in GATHER_OPS for d in DISTS
             for b in (1, 10, 100, 1000, 10000)}
    path = write_raw(tmp_path / "equal.csv", cases)
    _, checks, _, _, _ = analyse(path)
    violated = [c for c in checks if c.violated]
    assert len(violated) > 20, "noise alone should make some statistics disagree"
    assert not [c for c in violated if c.significant], [c for c in violated if c.significant]
    result = run(path, "--format", "report", "--fail-on-violation")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 significant" not in result.stdout  # no "significant" count when there are none
    assert "not significant" in result.stdout


def test_twice_slower_gatherv_is_significant(tmp_path):
    r = rng(11)
    cases = {("Guideline2_Gather", "random", 10): noise(r, 75, 100.0),
             ("MPI_Gatherv", "random", 10): 2 * noise(r, 75, 100.0),
             ("TUW_Gatherv", "random", 10): noise(r, 75, 100.0) * 0.8}
    path = write_raw(tmp_path / "slow.csv", cases)
    _, checks, _, _, _ = analyse(path)
    slow = [c for c in checks if c.lhs_op == "MPI_Gatherv"]
    assert {c.stat for c in slow} == {"avg", "min"}
    for c in slow:
        assert c.violated and c.significant and c.p_value <= 1 / 4000  # bootstrap's smallest
        assert 1.6 < c.ratio < 2.5
    assert not [c for c in checks if c.lhs_op == "TUW_Gatherv" and c.violated]
    result = run(path, "--format", "report", "--fail-on-violation")
    assert result.returncode == 1
    assert "MPI_Gatherv" in result.stdout and "significant; repetitions of one launch" in result.stdout
    assert "2 violations in 4 checks (2 significant beyond the threshold)" in result.stdout


def test_avg_and_min_decide_differently_and_are_reported_per_statistic(tmp_path):
    r = rng(3)
    padded = noise(r, 75, 100.0)
    gatherv = padded.copy()
    order = np.argsort(gatherv)
    gatherv[order[-10:]] *= 10  # ten slow outliers: the average suffers, the minimum does not
    path = write_raw(tmp_path / "outliers.csv", {("Guideline2_Gather", "spikes", 100): padded,
                                                   ("MPI_Gatherv", "spikes", 100): gatherv})
    result = run(path, "--format", "report", "--stat", "avg,min,median")
    assert result.returncode == 0, result.stderr
    lines = [l for l in result.stdout.splitlines() if l.startswith("Guideline (2)")]
    assert len(lines) == 1 and " avg " in lines[0], result.stdout
    _, checks, _, _, _ = analyse(path, "--stat", "avg,min,median")
    by_stat = {c.stat: c.violated for c in checks}
    assert by_stat == {"avg": True, "min": False, "median": False}


def test_slack_applies_to_the_test_too(tmp_path):
    r = rng(5)
    base = noise(r, 75, 100.0)
    path = write_raw(tmp_path / "ten_percent.csv", {
        ("Guideline2_Gather", "random", 1): base,
        ("MPI_Gatherv", "random", 1): base * 1.10 * r.uniform(0.999, 1.001, 75)})
    # The median and the minimum are 1.1x apart beyond doubt; the average of heavy-tailed
    # repetitions (5 % outliers of 2-6x) is not: its bootstrap interval reaches below 1.
    _, checks, _, _, _ = analyse(path, "--slack", "0", "--stat", "avg,min,median")
    decided = {c.stat: c for c in checks}
    assert decided["median"].significant and decided["min"].significant
    assert decided["avg"].violated and not decided["avg"].significant
    assert decided["avg"].ratio_low < 1 < decided["avg"].ratio_high
    _, checks, _, _, _ = analyse(path, "--slack", "0.2", "--stat", "avg,min,median")
    assert not any(c.violated for c in checks)
    assert all(c.p_value > 0.5 for c in checks)  # 1.1x is not above 1.2x


def test_stats_csv_has_every_statistic(tmp_path):
    r = rng(1)
    values = noise(r, 75, 40.0)
    path = write_raw(tmp_path / "raw.csv", {("MPI_Gather", "same", 1): values,
                                            ("MPI_Gatherv", "same", 1): values * 1.5})
    result = run(path, "--write-reports", tmp_path / "out")
    assert result.returncode == 0, result.stderr
    stats = pd.read_csv(tmp_path / "out" / "stats.csv")
    row = stats[stats["op"] == "MPI_Gather"].iloc[0]
    assert row["n"] == 75
    assert row["avg"] == pytest.approx(values.mean() * 1e6, abs=1e-3)
    assert row["min"] == pytest.approx(values.min() * 1e6, abs=1e-3)
    assert row["median"] == pytest.approx(np.median(values) * 1e6, abs=1e-3)
    assert row["median_ci_low"] <= row["median"] <= row["median_ci_high"]


def test_simulated_input_is_compared_exactly_by_the_medians(tmp_path):
    """SMPI runs (metadata simulated=yes) are deterministic: three repetitions 1 % apart decide
    by the medians, where a Mann-Whitney test of 3 against 3 could never reject."""
    cases = {("MPI_Gather", "same", 1): np.array([10.0, 10.0, 10.1]) * 1e-6,
             ("MPI_Gatherv", "same", 1): np.array([9.0, 9.0, 9.05]) * 1e-6,
             ("TUW_Gatherv", "same", 1): np.array([11.0, 11.0, 11.0]) * 1e-6}
    write_raw(tmp_path / "sim.csv", cases, {"simulated": "yes (SimGrid SMPI)"})
    _, checks, _, _, _ = analyse(tmp_path / "sim.csv", "--stat", "median")
    by_rhs = {c.rhs_op: c for c in checks}
    assert by_rhs["MPI_Gatherv"].violated and by_rhs["MPI_Gatherv"].confirmed
    assert by_rhs["MPI_Gatherv"].exact and by_rhs["MPI_Gatherv"].p_value == 0
    assert not by_rhs["TUW_Gatherv"].violated and by_rhs["TUW_Gatherv"].significant is False
    report = run(tmp_path / "sim.csv", "--stat", "median", "--format", "report").stdout
    assert "exact: simulated, the medians differ" in report
    assert "(1 exact: simulated input)" in report
    # The same numbers measured on a real machine: 3 against 3 is not significant.
    write_raw(tmp_path / "real.csv", cases)
    _, checks, _, _, _ = analyse(tmp_path / "real.csv", "--stat", "median")
    real = {c.rhs_op: c for c in checks}["MPI_Gatherv"]
    assert real.violated and not real.confirmed and not real.exact
