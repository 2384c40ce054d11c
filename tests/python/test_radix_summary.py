"""scripts/radix-summary: issue 37's goals, cell by cell, for TUWk_* and a start of TUWk_*_init,
on a hand-made model.tsv (ratios computed by hand below)."""
import subprocess

from conftest import ROOT

COLUMNS = ["op", "distribution", "b", "measured_median_us", "radix", "logp_bound_us"]
# gather, Same: b = 1 (latency-bound) and b = 100 (the "at most 5 % slower" goal)
ROWS = [
    ("TUW_Gatherv", 1, 30.0, "", 10.0), ("TUWk_Gatherv", 1, 20.0, 4, 10.0),
    ("Binomialk_Gatherv", 1, 25.0, 9, 10.0), ("TUW_Gatherv_init", 1, 24.0, "", 10.0),
    ("TUWk_Gatherv_init", 1, 12.0, 9, 10.0),
    ("TUW_Gatherv", 100, 100.0, "", 50.0), ("TUWk_Gatherv", 100, 104.0, 4, 50.0),
    ("Binomialk_Gatherv", 100, 120.0, 9, 50.0), ("TUW_Gatherv_init", 100, 90.0, "", 50.0),
    ("TUWk_Gatherv_init", 100, 106.0, 9, 50.0),
]


def run_summary(tmp_path):
    lines = ["\t".join(COLUMNS)]
    lines += ["\t".join(str(x) for x in (op, "same", b, median, radix, bound))
              for op, b, median, radix, bound in ROWS]
    (tmp_path / "model.tsv").write_text("\n".join(lines) + "\n")
    return subprocess.run(["/usr/bin/python3", str(ROOT / "scripts" / "radix-summary"),
                           str(tmp_path)], capture_output=True, text=True, timeout=60)


def test_goals_of_the_call_and_of_the_persistent_start(tmp_path):
    result = run_summary(tmp_path)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    # TUWk_Gatherv at b = 1: 30/20 = 1.5 (met), Binomialk 25/20 = 1.25 (faster), 20/10 = 2 (not
    # within 1.5x of the bound); b = 100: 100/104 = 0.96 >= 1/1.05 (met).
    assert "| gather | same | 1 | 4 | 30.00 | 20.00 | 25.00 | 1.50 | 1.25 | 2.00 |" in out
    assert "- call: b<=10: TUWk >= 1.5x TUW: 1" in out
    assert "- call: b<=10: TUWk faster than Binomialk: 1" in out
    assert "- call: b<=10: TUWk within 1.5x of the LogP bound: 0" in out
    assert "- call: b>=100: TUWk at most 5 % slower than TUW: 1" in out
    # A start of TUWk_Gatherv_init at b = 1: 30/12 = 2.5, 25/12 = 2.08, 12/10 = 1.2, and against
    # a start of TUW_Gatherv_init 24/12 = 2; b = 100: 100/106 = 0.943 < 1/1.05 (not met).
    assert "| gather | same | 1 | 9 | 30.00 | 12.00 | 25.00 | 2.50 | 2.08 | 1.20 | 2.00 |" in out
    assert "- init: b<=10: TUWk within 1.5x of the LogP bound: 1" in out
    assert "- init: b>=100: TUWk at most 5 % slower than TUW: 0" in out
    assert "- init: b>=100 cells: 1" in out


def test_a_run_without_a_model_is_named(tmp_path):
    result = subprocess.run(["/usr/bin/python3", str(ROOT / "scripts" / "radix-summary"),
                             str(tmp_path)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert "model.tsv is missing" in result.stderr
    # an empty one (analyse-run still writing it): a message, not a pandas traceback
    (tmp_path / "model.tsv").write_text("")
    result = subprocess.run(["/usr/bin/python3", str(ROOT / "scripts" / "radix-summary"),
                             str(tmp_path)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 2 and "model.tsv is empty" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_run_without_radix_k_cases_is_named(tmp_path):
    """A run with TUW_* but no TUWk_* row (e.g. paper-560): a message, exit 2 (was a KeyError)."""
    (tmp_path / "model.tsv").write_text("\t".join(COLUMNS) + "\n" +
                                        "TUW_Gatherv\tsame\t1\t30.0\t\t10.0\n")
    result = subprocess.run(["/usr/bin/python3", str(ROOT / "scripts" / "radix-summary"),
                             str(tmp_path)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert "has no case measured with both TUW_* and TUWk_*" in result.stderr
