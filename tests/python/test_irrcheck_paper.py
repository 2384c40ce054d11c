"""irrcheck on the published Tables 1-3 of Träff 2017 (results/paper/): the expectations are read
off the paper's numbers by hand, not taken from the checker's output."""
import math

import pandas as pd
import pytest

from synthetic import ROOT, analyse, run

PAPER = ROOT / "results" / "paper"
TABLE = {n: PAPER / f"traff2017_table{n}.csv" for n in (1, 2, 3)}


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
    assert c.factor == pytest.approx(4.0)
    result = run(TABLE[3], "--format", "report")
    assert result.returncode == 0, result.stderr
    line = next(l for l in result.stdout.splitlines()
                if "Guideline (1)" in l and "b=100 " in l and " min " in l and "MPI_Gatherv" in l)
    assert "764.00 µs" in line and "191.00 µs" in line and "4× slower" in line


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
    assert c.violated and c.factor == pytest.approx(967.65 / 239.85)
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
    assert c.violated and c.factor == pytest.approx(1755.53 / 59.43)
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
    blocks = {"same": [b] * p, "decreasing": p_decreasing(b),
              "alternating": [b + b // 2 if i % 2 == 0 else b - b // 2 for i in range(p)],
              "two_blocks": [b] + [0] * (p - 2) + [b]}[distribution]
    return sum(blocks), p * max(blocks)


@pytest.mark.parametrize("table", [1, 2, 3])
def test_transcription_sizes_match_the_definitions(table):
    data = pd.read_csv(TABLE[table], comment="#")
    assert len(data) == 6 * 5 * 4
    assert set(data["op"]) == {"MPI_Gather", "Guideline2_Gather", "MPI_Gatherv", "TUW_Gatherv"}
    for (distribution, b), rows in data.groupby(["distribution", "b"]):
        assert rows["m"].nunique() == 1 and rows["m_padded"].nunique() == 1
        if distribution in ("same", "decreasing", "alternating", "two_blocks"):
            assert (rows["m"].iloc[0], rows["m_padded"].iloc[0]) == expected_sizes(distribution, b)
        elif distribution == "spikes":  # m' = p * rho * b with rho = 5
            assert rows["m_padded"].iloc[0] == 560 * 5 * b
        else:  # random: blocks in [1, 2b], so m' <= 2bp and the mean is about b
            assert rows["m_padded"].iloc[0] <= 2 * b * 560
            assert 0.9 * 560 * b <= rows["m"].iloc[0] <= 1.1 * 560 * b + 560
    assert (data["min_us"] <= data["avg_us"]).all()
