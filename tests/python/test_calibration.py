"""The verdicts' calibration on this machine's real, noisy runs (issue: red flags a library
developer cannot dismiss). Per MPI library, eight launches of irrbench (4 ranks, the paper's 10
warm-ups and 75 repetitions; MPI_Gatherv, TUW_Gatherv, MPI_Scatterv, TUW_Scatterv; Same,
b = 1, 10, 100, 1000), each launch its own raw.csv. Four launches of an operation become the
regular operation of Guideline (1) and four others its v-operation (aa.py: four fixed splits),
and irrcheck gets the eight files together with its default settings:
- A/A: both sides are the same operation, so every red check is a false alarm: at most 5 %;
- power: the left side's times scaled by 2 (and 1.5, 1.2, reported): 88-96 % red in eleven runs;
  the test fails below 85 % (the noise of a single run of 8 launches: see the assertion).
A library whose run leaves its bounds (A/A above 5 %, power at 2x below 80 %) is measured once
more from fresh launches, and that run decides (a disturbed stretch of launches, not the verdict).
The rates, also the A/A rate without the multiple-testing correction and that of the old verdict
(one launch a side, its repetitions as the unit), go to build/test-reports/calibration.txt.

Run alone (scripts/test runs it in its own phase): other tests beside it would be part of the
noise it measures."""
import os
import subprocess

import pytest

import aa
from conftest import ROOT

LIBRARIES = ("openmpi", "mpich")
SCALES = (1.0, 1.2, 1.5, 2.0)


def measure(library, directory):
    """The eight launches, one raw.csv each: {launch: path}."""
    binary = ROOT / "build" / library / "harness" / "irrbench"
    if not binary.exists():
        pytest.fail(f"{binary} is not built: run scripts/build {library}")
    files = {}
    for launch in range(1, 9):
        out = directory / library / f"launch-{launch}" / "raw.csv"
        done = subprocess.run(
            [str(ROOT / "scripts" / "launch"), library, "4", str(binary),
             "--ops", "MPI_Gatherv,TUW_Gatherv,MPI_Scatterv,TUW_Scatterv",
             "--dists", "same", "--b", "1,10,100,1000", "--launch", str(launch), "--out",
             str(out)], capture_output=True, text=True, timeout=300, cwd=ROOT,
            env=dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1"))
        assert done.returncode == 0, done.stderr
        files[launch] = str(out)
    return files


def one_launch_a_side(files, work):
    """The old verdict: launch k against launch k + 4 alone, repetitions as the unit."""
    red = checks = 0
    for k in range(1, 5):
        for index, pair in enumerate(aa.PAIRS):
            rename = {pair[f]: aa.AS_REGULAR[f] for f in pair}
            ops = set(pair.values())
            lhs = aa.side_file(files[k], work / f"old{k}-{index}" / "lhs.csv", ops, rename, 1.0)
            rhs = aa.side_file(files[k + 4], work / f"old{k}-{index}" / "rhs.csv", ops, {}, 1.0)
            found = aa.analysis.analyse([lhs, rhs], aa.settings()).checks
            checks += len(found)
            red += sum(1 for c in found if c.confirmed)
    return aa.Rates(checks, red)


def calibrate(library, directory):
    """One run of eight launches: ({scale: Rates}, its report line)."""
    files = measure(library, directory)
    rates = {scale: aa.rates(aa.experiment(files, directory / "work" / library, scale,
                                           aa.settings()))
             for scale in SCALES}
    # each check on its own (at 2x the same as with the correction: nearly all reject)
    uncorrected = aa.rates(aa.experiment(files, directory / "none" / library, 1.0,
                                         aa.settings(correction="none")))
    old = one_launch_a_side(files, directory / "old" / library)
    line = (f"{library}: red share of {rates[1.0].checks} Guideline (1) "
            "checks, 4 vs 4 launches, default settings: " +
            ", ".join(f"{scale:g}x {100 * rates[scale].share:.1f} %" for scale in SCALES) +
            f"; uncorrected A/A {100 * uncorrected.share:.1f} %" +
            f"; old verdict (one launch a side, repetitions): A/A "
            f"{100 * old.share:.1f} % of {old.checks}")
    return rates, line


def within_bounds(rates):
    return rates[1.0].share <= 0.05 and rates[2.0].share >= 0.8


@pytest.mark.slow
@pytest.mark.calibration
def test_verdicts_are_calibrated_on_real_launches(tmp_path):
    # A library's run whose figures leave the bounds below is measured once more, from fresh
    # launches, and the second run decides: a disturbed stretch of launches (a fresh clone's run,
    # 2026-11-27: Open MPI A/A 8.3 %, while the old verdict flagged 65 % of the same comparisons,
    # 1-48 % in other runs: the launches themselves differed) should not fail the suite, and a
    # loss of calibration or power that persists fails both runs.
    rates, lines = {}, []
    for library in LIBRARIES:
        found, line = calibrate(library, tmp_path / "run-1")
        if not within_bounds(found):
            lines.append(line + " [outside the bounds: measured again]")
            found, line = calibrate(library, tmp_path / "run-2")
        lines.append(line)
        for scale in SCALES:
            rates[(library, scale)] = found[scale]
    both = {scale: aa.Rates(sum(rates[(lib, scale)].checks for lib in LIBRARIES),
                            sum(rates[(lib, scale)].red for lib in LIBRARIES))
            for scale in SCALES}
    lines.append("both libraries: " + ", ".join(f"{scale:g}x {100 * r.share:.1f} % of {r.checks}"
                                                for scale, r in both.items()))
    report = "\n".join(lines) + "\n"
    reports = ROOT / "build" / "test-reports"
    (reports if reports.is_dir() else tmp_path).joinpath("calibration.txt").write_text(report)
    print(report)
    for library in LIBRARIES:
        assert rates[(library, 1.0)].share <= 0.05, report  # false alarms at most nominal
        assert rates[(library, 2.0)].share >= 0.8, report
    # Power at 2x is a property of this machine's launch noise: 88.3-96.4 % over both libraries
    # in eleven runs of this test (mean 91.7 %, guidelines/README.md). 85 % here so that a noisy
    # hour does not fail the suite; an uncalibrated or powerless verdict (Holm with 4 launches a
    # side: 0 %) fails it by far.
    assert both[2.0].share >= 0.85, report
    assert both[1.0].share <= 0.05 and both[1.5].share > both[1.0].share, report
