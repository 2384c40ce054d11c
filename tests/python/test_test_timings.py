"""scripts/test-timings on hand-written JUnit files of the two kinds the suite writes (ctest's,
pytest's): phases, per-suite counts and sums, the slowest cases in order, the closing line."""
import subprocess

from conftest import ROOT

TIMINGS = ROOT / "scripts" / "test-timings"

CTEST = """<?xml version="1.0" encoding="UTF-8"?>
<testsuite name="Linux" tests="3" failures="1" skipped="1" time="60">
  <testcase name="mpi_test_persistent.np8" classname="mpi_test_persistent.np8" time="40.5" status="run"/>
  <testcase name="Table1.same" classname="Table1.same" time="12.25" status="run">
    <failure message="Failed"/>
  </testcase>
  <testcase name="large_count.np2" classname="large_count.np2" time="0.5" status="notrun">
    <skipped message="compiled out"/>
  </testcase>
</testsuite>
"""
PYTEST = """<?xml version="1.0" encoding="utf-8"?>
<testsuites><testsuite name="pytest" tests="2" time="20">
  <testcase classname="tests.python.test_slurm" name="test_sweep[mpich]" time="90.0"/>
  <testcase classname="tests.python.test_docs" name="test_readme" time="0.01"/>
</testsuite></testsuites>
"""


def run(*args):
    return subprocess.run([str(TIMINGS), *map(str, args)], capture_output=True, text=True,
                          timeout=60)


def test_table_from_ctest_and_pytest_files(tmp_path):
    (tmp_path / "ctest-mpich.xml").write_text(CTEST)
    (tmp_path / "pytest.xml").write_text(PYTEST)
    (tmp_path / "phases.tsv").write_text("build mpich\t120\t0\nctest mpich\t61\t1\n")
    result = run(tmp_path, "--slowest", 3)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert any(line.split()[:3] == ["ctest", "mpich", "61"] and "FAILED (1)" in line
               for line in lines)
    assert any(line.split() == ["total", "181"] for line in lines)
    suites = {line.split()[0]: line.split()[1:] for line in lines
              if line.startswith(("ctest-mpich ", "pytest "))}
    assert suites["ctest-mpich"] == ["3", "1", "1", "53"]  # cases, failed, skipped, 40.5+12.25+0.5
    assert suites["pytest"] == ["2", "0", "0", "90"]
    slowest = lines[lines.index("slowest 3 cases:") + 1:][:3]
    assert "test_slurm::test_sweep[mpich]" in slowest[0] and "90.0 s" in slowest[0]
    assert "mpi_test_persistent.np8" in slowest[1]
    assert "Table1.same" in slowest[2] and "(failed)" in slowest[2]
    assert lines[-1] == "tests: 3 passed, 1 failed, 1 skipped"


def test_missing_directory_is_an_error(tmp_path):
    result = run(tmp_path / "nothing")
    assert result.returncode == 2 and "no such directory" in result.stderr
