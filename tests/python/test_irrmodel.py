"""irrmodel's command line: the tsv format, the scatter option, bad input and the memory guard.
(The model itself is tested in tests/test_model.cpp against the 2018 paper's Table 1.)"""
import subprocess

import pytest

from conftest import ROOT

BINARY = ROOT / "build" / "openmpi" / "model" / "irrmodel"


def irrmodel(*args):
    if not BINARY.exists():
        pytest.fail(f"{BINARY} is not built: run scripts/build openmpi")
    return subprocess.run([str(BINARY), *map(str, args)], capture_output=True, text=True,
                          timeout=300)


def rows(stdout):
    lines = stdout.strip().splitlines()
    header = lines[0].split("\t")
    return header, [dict(zip(header, line.split("\t"))) for line in lines[1:]]


def test_tsv_columns_and_values():
    result = irrmodel("--p", 8, "--b", 10, "--alpha", 10, "--dists", "same,two_blocks",
                      "--format", "tsv")
    assert result.returncode == 0, result.stderr
    header, data = rows(result.stdout)
    assert header == ["distribution", "m", "tree", "root_mode", "time", "root"]
    same = {(r["tree"], r["root_mode"]): r for r in data if r["distribution"] == "same"}
    # p = 8 regular blocks of 10, gamma = beta = 1: a binomial tree takes 3 alpha + m = 110
    assert same[("adaptive", "best")]["time"] == "110"
    assert same[("optimal", "best")]["time"] == "110"
    # linear, root 4: copy 10 + 7 messages of 10 + 10
    assert same[("linear", "fixed")]["time"] == str(10 + 7 * 20)
    assert same[("lower_bound", "fixed")]["time"] == str(10 + 70 + 10)
    assert {r["tree"] for r in data} == {"linear", "binary", "oblivious", "adaptive", "optimal",
                                         "lower_bound"}
    two = [r for r in data if r["distribution"] == "two_blocks"]
    assert two[0]["m"] == str(2 * (8 * 10 // 2))  # the 2018 definition by default


def test_scatter_gives_the_gather_times():
    args = ("--p", 33, "--b", 100, "--dists", "random,spikes", "--format", "tsv")
    gather, scatter = irrmodel(*args), irrmodel(*args, "--op", "scatter")
    assert gather.returncode == scatter.returncode == 0
    assert rows(gather.stdout) == rows(scatter.stdout)


@pytest.mark.parametrize("args, fragment", [
    (("--p", 0), "--p: '0' is not an integer >= 1"),
    (("--b", -3), "--b: '-3'"),
    (("--alpha", -1), "--alpha: '-1' is not a number >= 0"),
    (("--gamma", "x"), "--gamma: 'x'"),
    (("--p", 10, "--root", 10), "--root: 10 is not a rank of p = 10"),
    (("--trees", "star"), "unknown tree 'star'; valid: linear,binary"),
    (("--dists", "gauss"), "unknown distribution 'gauss'"),
    (("--format", "csv"), "--format"),
    (("--bogus", 1), "unknown option '--bogus'"),
    (("--p",), "--p needs a value"),
])
def test_bad_arguments(args, fragment):
    result = irrmodel(*args)
    assert result.returncode == 2
    assert fragment in result.stderr, result.stderr


def test_dp_that_does_not_fit_is_skipped_and_the_rest_continues():
    result = irrmodel("--p", 3000, "--dists", "same", "--max-mem", 1000000, "--format", "tsv")
    assert result.returncode == 0, result.stderr
    assert "skipping binary for p = 3000" in result.stderr
    assert "skipping optimal for p = 3000" in result.stderr
    assert "GiB" in result.stderr
    _, data = rows(result.stdout)
    assert {r["tree"] for r in data} == {"linear", "oblivious", "adaptive", "lower_bound"}
