"""scripts/fidelity-report's arithmetic on hand-made files: published cells beside simulated
repetitions, the ratio simulated / published, the shares within 1.5x and 2x, issue 14's
TUW_Gatherv goal (Tables 1-2 and 4-6 only, b <= 1000), and tables not simulated yet."""
import subprocess
import sys

import numpy as np
import pytest

from synthetic import ROOT, write_raw

sys.path.insert(0, str(ROOT / "analysis"))
from irrplots import fidelity  # noqa: E402

SUMMARY = "op,distribution,b,p,m,m_padded,avg_us,min_us"


def published(path, table_rows, p=16):
    lines = ["# library=Paper MPI", f"# p={p}", SUMMARY]
    for op, dist, b, avg, minimum in table_rows:
        m = p * b
        lines.append(f"{op},{dist},{b},{p},{m},{m if dist == 'same' else 2 * m},{avg},{minimum}")
    path.write_text("\n".join(lines) + "\n")
    return path


def test_ratios_shares_and_goal(tmp_path):
    paper = published(tmp_path / "t1.csv", [
        ("TUW_Gatherv", "same", 1, 40.0, 20.0),      # simulated min 30 -> 1.5 (inside)
        ("TUW_Gatherv", "same", 10, 100.0, 50.0),    # simulated min 120 -> 2.4 (outside)
        ("TUW_Gatherv", "same", 10000, 9000, 8000),  # b > 1000: not in the goal
        ("MPI_Gatherv", "same", 1, 300.0, 200.0),    # no simulated counterpart: left out
    ])
    raw = write_raw(tmp_path / "raw.csv", {
        ("TUW_Gatherv", "same", 1): np.array([30, 50, 40]) * 1e-6,
        ("TUW_Gatherv", "same", 10): np.array([120, 130]) * 1e-6,
        ("TUW_Gatherv", "same", 10000): np.array([8000, 8000]) * 1e-6,
        ("Linear_Gatherv", "same", 1): np.array([1.0]) * 1e-6,  # not in the paper: left out
    })
    other = published(tmp_path / "t3.csv", [("TUW_Gatherv", "same", 1, 40.0, 1.0)])
    started = tmp_path / "started.csv"  # a run in progress: the header, no finished case
    started.write_text("# p=16\nop,distribution,b,p,root,m,m_padded,rep,seconds,late,status\n")
    pairings = [fidelity.Pairing(1, str(paper), str(raw)), fidelity.Pairing(3, str(other), str(raw)),
                fidelity.Pairing(5, str(paper), str(tmp_path / "missing" / "raw.csv")),
                fidelity.Pairing(6, str(paper), str(started))]
    frame, missing = fidelity.cells(pairings)
    assert [m.table for m in missing] == [5, 6]
    one = frame[frame.table == 1].set_index(["b", "statistic"])
    assert len(one) == 6  # three cases x (avg, min)
    assert one.loc[(1, "min"), "ratio"] == pytest.approx(30 / 20)
    assert one.loc[(1, "avg"), "ratio"] == pytest.approx(40 / 40)
    assert one.loc[(10, "min"), "ratio"] == pytest.approx(120 / 50)
    table = fidelity.summary(frame).set_index(["table", "op", "statistic"])
    row = table.loc[(1, "TUW_Gatherv", "min")]
    assert row["cells"] == 3 and row["median_ratio"] == pytest.approx(1.5)
    assert row["within_1.5x"] == pytest.approx(2 / 3)  # 1.5 and 1.0 inside, 2.4 outside
    assert row["within_2x"] == pytest.approx(2 / 3)
    # The goal counts b <= 1000 of Tables 1-2, 4-6: Table 3's ratio 30 is not in it.
    assert fidelity.tuw_goal(frame) == (1, 2)


def test_calibration_score_per_table(tmp_path):
    """scripts/calibrate-smpi's score: per calibration table, TUW_Gatherv minima within
    [0.67, 1.5] with b <= 1000, and their median ratio; other ops and Table 3 do not count."""
    paper = published(tmp_path / "t1.csv", [
        ("TUW_Gatherv", "same", 1, 40.0, 20.0),       # 13 / 20 = 0.65: outside
        ("TUW_Gatherv", "same", 10, 100.0, 50.0),     # 60 / 50 = 1.2: inside
        ("TUW_Gatherv", "same", 100, 100.0, 100.0),   # 140 / 100 = 1.4: inside
        ("TUW_Gatherv", "same", 10000, 900.0, 800.0),  # b > 1000: not scored
        ("MPI_Gather", "same", 1, 40.0, 20.0),        # another op: not scored
    ])
    raw = write_raw(tmp_path / "raw.csv", {
        ("TUW_Gatherv", "same", 1): np.array([13, 14]) * 1e-6,
        ("TUW_Gatherv", "same", 10): np.array([60]) * 1e-6,
        ("TUW_Gatherv", "same", 100): np.array([140]) * 1e-6,
        ("TUW_Gatherv", "same", 10000): np.array([80]) * 1e-6,
        ("MPI_Gather", "same", 1): np.array([20]) * 1e-6,
    })
    frame, _ = fidelity.cells([fidelity.Pairing(1, str(paper), str(raw)),
                               fidelity.Pairing(3, str(paper), str(raw))])
    score = fidelity.tuw_fit_per_table(frame)
    assert list(score) == [1, 2]
    assert score[1][:2] == (2, 3) and score[1][2] == pytest.approx(1.2)
    assert score[2][:2] == (0, 0)


def test_script_writes_the_report(tmp_path):
    result = subprocess.run(["/usr/bin/python3", str(ROOT / "scripts" / "fidelity-report"),
                             "--out", str(tmp_path)], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    for name in ("README.md", "fidelity.csv", "summary.csv", "fidelity.png", "fidelity.svg"):
        assert (tmp_path / name).exists(), name
    assert "TUW_Gatherv minimum within [0.67, 1.5]" in (tmp_path / "README.md").read_text()
