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
    (("--overhead", 1), "--overhead needs --model loggp"),
    (("--model", "loggp", "--root", "best"), "--model loggp models a fixed root only"),
    (("--model", "loggp", "--alpha", 1, "--overhead", 0.6), "more than half of --alpha"),
    (("--model", "loggp", "--radix", 1), "--radix: '1'"),
    (("--model", "logp"), "--model"),
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


def test_loggp_tables_by_hand():
    """--model loggp on p = 4, root 2, L = alpha - 2o = 8, o = g = 1, G = 0 (hand timelines)."""
    result = irrmodel("--model", "loggp", "--p", 4, "--b", 1, "--alpha", 10, "--beta", 0,
                      "--overhead", 1, "--radix", 4, "--dists", "same", "--format", "tsv")
    assert result.returncode == 0, result.stderr
    time = {r["tree"]: float(r["time"]) for r in rows(result.stdout)[1]}
    # linear: three senders' messages leave at 1 and arrive at 9; the root takes them one o
    # apart: 10, 11, 12. The LogP bound: the root informs one process every o (sends at 0, 1,
    # 2), each 2o + L later: 12.
    assert time["linear"] == time["logp_bound"] == 12
    # construction at radix 2: pairs exchange (0 -> 1 -> 9 -> 10), then the fixed roots 1 and
    # 3 (10 -> 11 -> 19 -> 20), and 3 tells the gather root 2 (20 -> 21 -> 29 -> 30)
    assert time["construction"] == 30
    # adaptive-k at radix 4 (TUWk_Gatherv, which carries these 4-byte blocks): all four
    # exchange, each sending to the carrier (the root, 2) first, then to the others in turn from
    # it (o = g = 1: sent at 1, 2, 3): 0 to 2, 3, 1; 1 to 2, 3, 0; 3 to 2, 0, 1; the root to 3,
    # 0, 1. The root's data arrives at 9 and is taken by 10, 11, 12 (no data phase left); rank 1
    # last: its three summaries sent at 3 arrive at 11, taken by 12, 13, 14
    assert time["adaptive-k"] == 14
    # planned-k: the same tree without its construction: the data leaves at once (sent at 1,
    # there at 9) and the root takes the three by 12
    assert time["planned-k"] == 12
    # link-greedy: the bound's schedule; a rank holds another's block only 2o + L = 10 after the
    # start, too late to send it by 12: three leaves, the root's three messages at 10, 11, 12
    assert time["link-greedy"] == 12
    assert set(time) == {"linear", "binary", "oblivious", "adaptive", "optimal", "oblivious-k",
                         "adaptive-k", "planned-k", "link-greedy", "construction", "logp_bound"}


@pytest.mark.parametrize("op", ["gather", "scatter"])
def test_loggp_bound_below_every_tree(op):
    """The LogP bound holds for every tree on every distribution (the simulated cluster's costs)."""
    result = irrmodel("--model", "loggp", "--p", 100, "--b", 40, "--alpha", 2.64, "--beta",
                      3.7e-4, "--overhead", 0.3, "--barrier-start", "--op", op, "--format", "tsv")
    assert result.returncode == 0, result.stderr
    by_dist = {}
    for r in rows(result.stdout)[1]:
        by_dist.setdefault(r["distribution"], {})[r["tree"]] = float(r["time"])
    assert len(by_dist) == 11
    for dist, time in by_dist.items():
        bound = time.pop("logp_bound")
        time.pop("construction")  # a part of a gather, not one
        assert all(bound <= t + 1e-9 for t in time.values()), (dist, bound, time)
