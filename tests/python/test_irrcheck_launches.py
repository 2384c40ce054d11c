"""Verdicts across launches (guidelines/irrguide/ratio_test.py): the exact test, its interval and
the corrections against hand-computed values and scipy; launches kept apart, never pooled."""
import json
import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats as scipy_stats

from synthetic import analyse, run, write_raw
from irrguide import ratio_test


def launch_files(directory, levels, op_levels, rng, n=75, first=1):
    """One raw.csv per launch: launch k's times are levels[k] * op_levels[op] µs with 1 % noise."""
    paths = []
    for k, level in enumerate(levels, first):
        cases = {key: level * scale * rng.lognormal(0, 0.01, n) * 1e-6
                 for key, scale in op_levels.items()}
        paths.append(write_raw(directory / f"launch-{k}.csv", cases,
                               {"launch": str(k), "start_time": f"2026-11-25T10:00:{k:02d}Z",
                                "hostname": "node1"}))
    return paths


def test_exact_null_distribution_against_scipy_and_by_hand():
    # 4 against 4: 70 arrangements; U = 16 in one of them, U >= 15 in two, U >= 14 in four.
    assert ratio_test.p_value(16, 4, 4) == pytest.approx(1 / 70)
    assert ratio_test.p_value(15, 4, 4) == pytest.approx(2 / 70)
    assert ratio_test.p_value(14, 4, 4) == pytest.approx(4 / 70)
    assert ratio_test.critical_u(4, 4, 0.05) == 15
    assert ratio_test.minimum_units(0.05) == 3  # 3 against 3: p = 1/20 at best
    rng = np.random.default_rng(7)
    for n1, n2 in ((3, 5), (4, 4), (6, 9), (20, 20)):
        x, y = rng.lognormal(0.2, 1, n1), rng.lognormal(0, 1, n2)
        ours = ratio_test.compare(x, y, 0.0, "launch").p_value
        theirs = scipy_stats.mannwhitneyu(x, y, alternative="greater", method="exact").pvalue
        assert ours == pytest.approx(theirs, rel=1e-9)


def test_moses_interval_by_hand():
    lhs, rhs = [2.0, 3.0, 4.0, 5.0], [1.0, 1.5, 2.5, 6.0]
    c = ratio_test.compare(lhs, rhs, 0.0, "launch")
    pair_ratios = sorted(a / b for a in lhs for b in rhs)
    assert c.ratio == pytest.approx(math.sqrt(pair_ratios[7] * pair_ratios[8]))  # HL: median
    low, high, coverage = c.interval(0.05)  # u = 15: the 2nd smallest and 2nd largest ratios
    assert (low, high) == (pytest.approx(pair_ratios[1]), pytest.approx(pair_ratios[14]))
    assert coverage == pytest.approx(1 - 2 * 2 / 70)
    # lhs above rhs in 2 + 3 + 3 + 3 = 11 of 16 pairs: not significant; the interval reaches
    # below 1
    assert c.p_value == pytest.approx(ratio_test.p_value(11, 4, 4)) and c.p_value > 0.05
    assert low < 1


def test_benjamini_hochberg_and_holm_by_hand():
    p = {"a": 0.01, "b": 0.04, "c": 0.03, "d": 0.5}
    bh = ratio_test.adjusted_levels(p, 0.05, "bh")
    # sorted 0.01, 0.03, 0.04, 0.5: m p / rank = 0.04, 0.06, 0.0533, 0.5; step-up minimum
    assert {k: v[0] for k, v in bh.items()} == pytest.approx(
        {"a": 0.04, "c": 0.05333, "b": 0.05333, "d": 0.5}, rel=1e-3)
    assert bh["a"][1] == pytest.approx(0.05 * 1 / 4)  # one rejection: intervals at 1 * alpha / m
    holm = ratio_test.adjusted_levels(p, 0.05, "holm")
    assert {k: v[0] for k, v in holm.items()} == pytest.approx(
        {"a": 0.04, "c": 0.09, "b": 0.09, "d": 0.5})


def test_interval_and_significance_agree_under_every_correction(tmp_path):
    rng = np.random.default_rng(3)
    ops = {("MPI_Gather", "same", b): 1.0 for b in (1, 10, 100)}
    ops.update({("MPI_Gatherv", "same", b): f for b, f in ((1, 1.3), (10, 1.02), (100, 0.9))})
    files = launch_files(tmp_path, rng.lognormal(0, 0.1, 5), ops, rng)
    for correction in ("bh", "none", "holm"):
        _, checks, _, _, _ = analyse(*files, "--correction", correction, "--stat",
                                     "avg,min,median", "--threshold", "0")
        assert {c.unit for c in checks} == {"launch"} and {c.launches for c in checks} == {(5, 5)}
        for c in checks:
            if correction != "holm":  # Holm's intervals are Bonferroni's: wider than its test
                assert c.significant == (c.ratio_low > 1.0), c
            assert c.ratio_low <= c.ratio <= c.ratio_high


def test_launches_are_the_unit_not_pooled_repetitions(tmp_path):
    """A/A: the same operation in every launch, but launches differ by up to 30 %. Pooling the
    repetitions would call that significant; across launches it is not."""
    rng = np.random.default_rng(1)
    lhs = launch_files(tmp_path, [1.10, 1.20, 1.15, 0.90], {("MPI_Gather", "same", 1): 10.0}, rng)
    rhs = launch_files(tmp_path, [1.00, 1.05, 0.95, 1.12], {("MPI_Gatherv", "same", 1): 10.0},
                       rng, first=5)
    _, checks, _, notes, _ = analyse(*lhs, *rhs, "--stat", "median")
    c, = checks
    assert c.unit == "launch" and c.launches == (4, 4)
    # launch medians: U = 11 of 16 pairs, p = P(U >= 11) for 4 against 4
    assert c.p_value == pytest.approx(ratio_test.p_value(11, 4, 4)) and not c.significant
    assert c.ratio_low < 1 < c.ratio_high and not c.confirmed
    assert not [n for n in notes if "pooled" in n]
    # The same repetitions in one file each side (the old way) would have been red:
    def repetitions(files):
        return np.concatenate([pd.read_csv(f, comment="#")["seconds"] for f in files])
    pooled = scipy_stats.mannwhitneyu(repetitions(lhs), repetitions(rhs),
                                      alternative="greater").pvalue
    assert pooled < 1e-6


def test_twice_slower_across_launches_is_red_with_its_interval(tmp_path):
    rng = np.random.default_rng(2)
    files = launch_files(tmp_path, rng.lognormal(0, 0.15, 4),
                         {("MPI_Gather", "same", 10): 2.0, ("MPI_Gatherv", "same", 10): 1.0}, rng)
    result = run(*files, "--format", "json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    for row in data["checks"]:
        assert row["unit"] == "launch" and (row["launches_lhs"], row["launches_rhs"]) == (4, 4)
        assert row["verdict"] == "violation" and row["threshold"] == 0.05
        assert 1.4 < row["ratio_low"] <= row["ratio"] <= row["ratio_high"] < 2.9
    assert "unit: launches (4 vs 4)" in data["summary"] and "threshold 0.05" in data["summary"]
    report = run(*files, "--format", "report").stdout
    assert "4 vs 4 launches, Mann-Whitney p=" in report and "ratio 2.0" in report


def test_significant_but_small_is_not_red(tmp_path):
    rng = np.random.default_rng(4)
    files = launch_files(tmp_path, [1.0, 1.01, 0.99, 1.0, 1.02, 0.98, 1.0, 1.01],
                         {("MPI_Gather", "same", 1): 1.02, ("MPI_Gatherv", "same", 1): 1.0}, rng)
    _, checks, _, _, _ = analyse(*files, "--stat", "median")
    c, = checks
    assert c.significant and 1.0 < c.ratio < 1.05 and not c.confirmed
    result = run(*files, "--stat", "median", "--format", "json")
    assert json.loads(result.stdout)["checks"][0]["verdict"] == "below_threshold"
    _, checks, _, _, _ = analyse(*files, "--stat", "median", "--threshold", "0.01")
    assert checks[0].confirmed


def test_one_launch_says_so_and_the_same_launch_twice_is_an_error(tmp_path):
    rng = np.random.default_rng(5)
    one = launch_files(tmp_path, [1.0], {("MPI_Gather", "same", 1): 1.0,
                                         ("MPI_Gatherv", "same", 1): 1.0}, rng)
    result = run(*one, "--format", "report")
    assert result.returncode == 0
    assert "ignore launch-to-launch variation" in result.stdout
    assert "unit: repetitions" in result.stdout
    twice = run(one[0], one[0])
    assert twice.returncode == 2 and "the same launch" in twice.stderr
    assert "give each launch once" in twice.stderr
