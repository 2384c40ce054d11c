"""irrcheck on the published Tables 1-11 of Träff 2017 (results/paper/): the expectations are
read off the paper's numbers (and its text) by hand, not taken from the checker's output."""
import math

import pandas as pd
import pytest

from synthetic import ROOT, analyse, run

PAPER = ROOT / "results" / "paper"
TABLE = {n: PAPER / f"traff2017_table{n}.csv" for n in range(1, 12)}
P = {1: 560, 2: 560, 3: 560, 4: 1600, 5: 3200, 6: 6400, 7: 6400, 8: 6400, 9: 6400, 10: 6400,
     11: 6400}


def find(checks, guideline, distribution, b, stat, lhs_op, rhs_op):
    found = [c for c in checks if (c.guideline, c.distribution, c.b, c.stat, c.lhs_op,
                                   c.rhs_op) == (guideline, distribution, b, stat, lhs_op, rhs_op)]
    assert len(found) == 1, f"expected one check, found {found}"
    return found[0]


def test_table3_open_mpi_same_56000_min_violates_guideline_1():
    _, checks, _, _, _ = analyse(TABLE[3])
    c = find(checks, 1, "same", 100, "min", "MPI_Gather", "MPI_Gatherv")
    assert (c.lhs, c.rhs) == (764.00, 191.00)  # the paper's red bold cell
    assert c.violated and c.confirmed and c.significant is None
    assert c.ratio == pytest.approx(4.0)
    result = run(TABLE[3], "--format", "report")
    assert result.returncode == 0, result.stderr
    line = next(l for l in result.stdout.splitlines()
                if "Guideline (1)" in l and "b=100 " in l and " min " in l and "MPI_Gatherv" in l)
    assert "764.00 µs" in line and "191.00 µs" in line and "ratio 4.000" in line


def test_table3_hand_read_cases():
    _, checks, _, _, _ = analyse(TABLE[3])
    # Same b=1: MPI_Gather 173.80/45.00 beats MPI_Gatherv 967.65/170.00 and TUW 219.27/67.00
    for stat in ("avg", "min"):
        for rhs in ("MPI_Gatherv", "TUW_Gatherv"):
            assert not find(checks, 1, "same", 1, stat, "MPI_Gather", rhs).violated
    # Same b=10 avg: MPI_Gather 156.08 > TUW_Gatherv 124.20; min 74.00 < 79.00
    assert find(checks, 1, "same", 10, "avg", "MPI_Gather", "TUW_Gatherv").violated
    assert not find(checks, 1, "same", 10, "min", "MPI_Gather", "TUW_Gatherv").violated
    # Guideline (2), Same b=1: MPI_Gatherv 967.65 vs Allreduce+Gather 239.85 -> 4.03x
    c = find(checks, 2, "same", 1, "avg", "MPI_Gatherv", "Guideline2_Gather")
    assert c.violated and c.ratio == pytest.approx(967.65 / 239.85)
    # Two blocks: MPI_Gatherv (16.81 ... 98.35) is far below the padded gather: never violated
    assert not [c for c in checks if c.distribution == "two_blocks" and c.guideline == 2
                and c.lhs_op == "MPI_Gatherv" and c.violated]
    # Guideline (1) applies only to regular problems: Same and Alternating b=1 (m = m' = 560)
    assert {(c.distribution, c.b) for c in checks if c.guideline == 1} == {("same", b) for b in (
        1, 10, 100, 1000, 10000)} | {("alternating", 1)}


def test_slack_decides_the_close_cases():
    # Same b=10000 avg: MPI_Gather 14500.19 vs MPI_Gatherv 14210.47 is 1.02x
    # Decreasing b=10000: TUW_Gatherv 26159.17/21454.00 vs Guideline (2) 20914.79/20360.00,
    # i.e. 1.251x (avg) and 1.0537x (min)
    for slack, within_2, within_5 in ((0.0, True, True), (0.03, False, True),
                                      (0.06, False, False)):
        _, checks, _, _, _ = analyse(TABLE[3], "--slack", slack)
        assert find(checks, 1, "same", 10000, "avg", "MPI_Gather",
                    "MPI_Gatherv").violated is within_2
        assert find(checks, 2, "decreasing", 10000, "avg", "TUW_Gatherv",
                    "Guideline2_Gather").violated
        assert find(checks, 2, "decreasing", 10000, "min", "TUW_Gatherv",
                    "Guideline2_Gather").violated is within_5


def test_table1_nec_and_table2_mvapich():
    _, checks, _, _, _ = analyse(TABLE[1])
    # NEC Same b=1: MPI_Gatherv 1755.53 vs 59.43 -> 29.5x, the worst Guideline (2) case there
    c = find(checks, 2, "same", 1, "avg", "MPI_Gatherv", "Guideline2_Gather")
    assert c.violated and c.ratio == pytest.approx(1755.53 / 59.43)
    # NEC Alternating b=1 is regular: MPI_Gather avg 5793.04 vs TUW 32.95 violates,
    # min 20.03 vs TUW 20.98 does not
    assert find(checks, 1, "alternating", 1, "avg", "MPI_Gather", "TUW_Gatherv").violated
    assert not find(checks, 1, "alternating", 1, "min", "MPI_Gather", "TUW_Gatherv").violated
    _, checks, _, _, _ = analyse(TABLE[2])
    # MVAPICH Same b=10000: MPI_Gather 31109.11/30703.07 vs MPI_Gatherv 7758.92/7701.16
    for stat in ("avg", "min"):
        assert find(checks, 1, "same", 10000, stat, "MPI_Gather", "MPI_Gatherv").violated
    # MVAPICH TUW_Gatherv Random b=1 60.69 vs Guideline (2) 105.57: fine
    assert not find(checks, 2, "random", 1, "avg", "TUW_Gatherv", "Guideline2_Gather").violated


def test_fail_on_violation_with_untested_summary_violations():
    assert run(TABLE[3], "--format", "report", "--fail-on-violation").returncode == 1
    assert run(TABLE[3], "--format", "report").returncode == 0


def p_decreasing(b, p=560):
    return [math.floor(2 * b * (p - i) / p) + 1 for i in range(p)]


def expected_sizes(distribution, b, p=560):
    """m and m' from the 2017 paper's definitions (Section 5), independent of our generator."""
    blocks = {"same": [b] * p, "decreasing": p_decreasing(b, p),
              "alternating": [b + b // 2 if i % 2 == 0 else b - b // 2 for i in range(p)],
              "two_blocks": [b] + [0] * (p - 2) + [b]}[distribution]
    return sum(blocks), p * max(blocks)


@pytest.mark.parametrize("table", range(1, 12))
def test_transcription_sizes_match_the_definitions(table):
    data = pd.read_csv(TABLE[table], comment="#")
    p = P[table]
    assert len(data) == 6 * 5 * 4
    assert set(data["op"]) == {"MPI_Gather", "Guideline2_Gather", "MPI_Gatherv", "TUW_Gatherv"}
    assert set(data["p"]) == {p}
    for (distribution, b), rows in data.groupby(["distribution", "b"]):
        assert rows["m"].nunique() == 1 and rows["m_padded"].nunique() == 1
        if distribution in ("same", "decreasing", "alternating", "two_blocks"):
            assert (rows["m"].iloc[0], rows["m_padded"].iloc[0]) == expected_sizes(
                distribution, b, p)
        elif distribution == "spikes":  # m' = p * rho * b with rho = 5
            assert rows["m_padded"].iloc[0] == p * 5 * b
        else:  # random: blocks in [1, 2b], so m' <= 2bp and the mean is about b
            assert rows["m_padded"].iloc[0] <= 2 * b * p
            assert 0.9 * p * b <= rows["m"].iloc[0] <= 1.1 * p * b + p
    assert (data["min_us"] <= data["avg_us"]).all()


def cell(table, op, distribution, b):
    data = pd.read_csv(TABLE[table], comment="#")
    row = data[(data.op == op) & (data.distribution == distribution) & (data.b == b)]
    assert len(row) == 1
    return row["avg_us"].iloc[0], row["min_us"].iloc[0]


# (table, op, distribution, b, avg, min) read off the paper by hand, one or two per table.
HAND_READ = [
    (4, "MPI_Gather", "same", 1, 6785.78, 4585.03),
    (4, "MPI_Gatherv", "two_blocks", 10000, 57.81, 28.13),
    (5, "MPI_Gather", "spikes", 1000, 252393.25, 93301.06),
    (5, "TUW_Gatherv", "alternating", 100, 625.87, 550.99),
    (6, "TUW_Gatherv", "decreasing", 1, 372.60, 56.98),
    (6, "Guideline2_Gather", "random", 10000, 382698.89, 234140.87),
    (7, "MPI_Gatherv", "random", 100, 180425.41, 140429.02),
    (8, "MPI_Gatherv", "same", 10000, 2188225.57, 1535592.08),
    (9, "MPI_Gatherv", "alternating", 1, 946.29, 126.12),
    (10, "TUW_Gatherv", "spikes", 10, 580.06, 161.89),
    (10, "MPI_Gather", "two_blocks", 1, 456.90, 36.00),
    (11, "MPI_Gatherv", "two_blocks", 10000, 607.52, 234.13),
]


@pytest.mark.parametrize("table,op,distribution,b,avg,minimum", HAND_READ)
def test_intel_tables_hand_read_cells(table, op, distribution, b, avg, minimum):
    assert cell(table, op, distribution, b) == (avg, minimum)


def test_intel_tables_carry_their_settings():
    expected = {6: "default", 7: "I_MPI_ADJUST_GATHER=1 I_MPI_ADJUST_GATHERV=1",
                8: "I_MPI_ADJUST_GATHER=2 I_MPI_ADJUST_GATHERV=2",
                9: "I_MPI_ADJUST_GATHER=3 I_MPI_ADJUST_GATHERV=3",
                10: "I_MPI_ADJUST_GATHER=4 I_MPI_ADJUST_GATHERV=3",
                11: "I_MPI_ADJUST_GATHER=1 I_MPI_ADJUST_GATHERV=3"}
    for table, setting in expected.items():
        groups, _, _, _, _ = analyse(TABLE[table], "--group-by", "setting")
        assert [str(g[0]) for g in groups] == [setting], table
    groups, _, _, _, _ = analyse(*[TABLE[n] for n in expected], "--group-by", "setting")
    assert {str(g[0]) for g in groups} == set(expected.values())


def test_table11_is_table7s_gather_and_table10s_gatherv():
    """Table 11 puts the best settings together: MPI_Gather and Guideline (2) from the binomial
    run (Table 7), MPI_Gatherv and TUW_Gatherv from the k-nomial run (Table 10) - which also
    confirms which unlabelled block of the text is Table 10."""
    t7, t10, t11 = (pd.read_csv(TABLE[n], comment="#").set_index(["op", "distribution", "b"])
                    for n in (7, 10, 11))
    for op, source in (("MPI_Gather", t7), ("Guideline2_Gather", t7), ("MPI_Gatherv", t10),
                       ("TUW_Gatherv", t10)):
        mine = t11.xs(op, level="op")[["avg_us", "min_us"]]
        assert mine.equals(source.xs(op, level="op")[["avg_us", "min_us"]]), op


def test_table11_verdicts_the_text_discusses():
    _, checks, _, _, _ = analyse(TABLE[11])
    # "The violations of performance Guideline (2) by MPI_Gatherv are surprising": k-nomial
    # MPI_Gatherv Same b=1 min 123.98 vs Allreduce+Gather 64.13 (1.93x), Alternating b=1 118.97
    # vs 64.85, Two blocks b=1 93.94 vs 61.99.
    for distribution, lhs, rhs in (("same", 123.98, 64.13), ("alternating", 118.97, 64.85),
                                   ("two_blocks", 93.94, 61.99)):
        c = find(checks, 2, distribution, 1, "min", "MPI_Gatherv", "Guideline2_Gather")
        assert c.violated and (c.lhs, c.rhs) == (lhs, rhs)
        assert c.ratio == pytest.approx(lhs / rhs)
    # "The TUW_Gatherv implementation has no guideline violations" (by the minima, which the
    # paper's red marks use: the averages of small problems are noisy there).
    assert not [c for c in checks if c.lhs_op == "TUW_Gatherv" and c.stat == "min"
                and c.violated]
    # "TUW_Gatherv ... outperforms k-nomial MPI_Gatherv by a factor of two to three": minima.
    data = pd.read_csv(TABLE[11], comment="#").pivot_table(
        index=["distribution", "b"], columns="op", values="min_us")
    ratio = data["MPI_Gatherv"] / data["TUW_Gatherv"]
    assert ratio.between(1.6, 3.7).all()
    large = ratio[(ratio.index.get_level_values("b") >= 100)
                  & (ratio.index.get_level_values("distribution") != "two_blocks")]
    assert large.between(1.99, 2.45).all()  # Alternating b=100: 1932.86 / 967.03 = 1.9988


def test_intel_default_gather_fails_guideline_1_by_orders_of_magnitude():
    # "MPI_Gather fails the trivial Guideline (1) compared to TUW_Gatherv by a very large
    # factor": Table 6 Same b=1 min 103827.95 vs 50.07; Table 4 Same b=1 4585.03 vs 33.86.
    for table, lhs, rhs in ((6, 103827.95, 50.07), (4, 4585.03, 33.86)):
        _, checks, _, _, _ = analyse(TABLE[table])
        c = find(checks, 1, "same", 1, "min", "MPI_Gather", "TUW_Gatherv")
        assert c.violated and (c.lhs, c.rhs) == (lhs, rhs) and c.ratio > 100
        # and TUW_Gatherv satisfies Guideline (2) by a large margin in every case (minima)
        assert not [c for c in checks if c.lhs_op == "TUW_Gatherv" and c.guideline == 2
                    and c.stat == "min" and c.violated]
