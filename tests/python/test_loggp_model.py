"""The LogGP model (algorithms/tree/loggp, irrmodel's loggp_us) held against the committed
simulations at p = 560 (issue 37): the same calibrated platform, its irrfit run with the LogGP
bursts (results/simulated/radix-560/default/fit.txt), each case's median / the model of the tree
the operation runs. Measured times are SimGrid's, the model is computed here: an independent
reference for each other."""
import csv
import io
import subprocess

import irrcsv
import pytest

from conftest import ROOT

BINARY = ROOT / "build" / "openmpi" / "model" / "irrmodel"
SIMULATED = ROOT / "results" / "simulated"
FIT = SIMULATED / "radix-560" / "default" / "fit.txt"
BAND = (1 / 1.3, 1.3)


def model_rows(raw, fit=FIT):
    """irrmodel's tsv rows for a raw.csv priced on a fit (--max-mem 1: without the optimal tree's
    DP, which is not what is tested here and takes a minute at p = 560)."""
    if not BINARY.exists():
        pytest.fail(f"{BINARY} is not built: run scripts/build openmpi")
    result = subprocess.run([str(BINARY), "--from-results", str(raw), "--alpha-beta", str(fit),
                             "--format", "tsv", "--max-mem", "1"],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    return list(csv.DictReader(io.StringIO(result.stdout), delimiter="\t"))


def predictions(run):
    """irrmodel's rows for a committed run's default sweep, on radix-560's fit."""
    return model_rows(SIMULATED / run / "default" / "raw.csv")


def own_fit_rows(run_dir):
    """irrmodel's rows for a committed run directory (raw.csv) priced on its own fit.txt."""
    return model_rows(run_dir / "raw.csv", run_dir / "fit.txt")


def ratios(rows, ops, max_b=100):
    return {(r["op"], r["distribution"], int(r["b"])): float(r["median_over_loggp"])
            for r in rows if r["op"] in ops and int(r["b"]) <= max_b}


def outside(found):
    return {case: round(x, 2) for case, x in found.items() if not BAND[0] <= x <= BAND[1]}


def test_tuw_trees_within_thirty_percent_everywhere():
    rows = predictions("paper-560")
    tuw = ratios(rows, {"TUW_Gatherv", "TUW_Scatterv"})
    assert len(tuw) == 36
    assert outside(tuw) == {}


def test_every_tree_and_persistent_op_within_but_where_the_model_leaves_out():
    """TUW, Binomial, Linear (paper-560) and the persistent TUW ops (paper-560-persistent) at
    b <= 100, 144 cases: within [1/1.3, 1.3] except the linear gather on Random b = 100 (1.34:
    its 559 messages of 4-400 B share the root's link, not quite as the model's chains of them;
    2.19 on Same before the chains ended together). Two blocks (3-7 us, where the processes'
    barrier exits are most of the time: harness/smpi/barrier_skew_probe.c) is inside since the
    barrier's empty messages wait for their receive, as SMPI's do (1.36-1.75 before); the
    oblivious trees since their parents post a receive only after probing (the gather at
    1.18-1.45 before) and their scatter's size messages leave the link to the data
    (harness/smpi/probe_wait_probe.c)."""
    found = ratios(predictions("paper-560"), {"TUW_Gatherv", "TUW_Scatterv", "Binomial_Gatherv",
                                              "Binomial_Scatterv", "Linear_Gatherv",
                                              "Linear_Scatterv"})
    found.update(ratios(predictions("paper-560-persistent"),
                        {"TUW_Gatherv_init", "TUW_Scatterv_init"}))
    assert len(found) == 144
    bad = outside(found)
    for (op, dist, b), ratio in bad.items():
        assert op == "Linear_Gatherv" and b == 100 and ratio <= 1.4, (op, dist, b, ratio)
    assert len(bad) <= 1, bad


@pytest.mark.parametrize("run_name", ["radix-560-current", "radix-560-carried",
                                      "radix-560-own-gather-radix", "radix-560-direct",
                                      "radix-560-told-only"])
def test_every_tree_of_one_current_run_within_thirty_percent(run_name):
    """radix-560-current (the radix-560 set, run by the library of f635264, priced on its own fit):
    all 144 LogGP cases at b <= 100 - TUW, TUWk, Binomial and Binomialk gathers and scatters, six
    distributions - within [1/1.3, 1.3] (0.86-1.27; TUWk_Scatterv, planned by its root, 0.93-1.08;
    the k-nomial scatter, whose probes SMPI polls, the highest). radix-560-carried (the same set
    by the library of ee81877, whose TUWk_Gatherv carries small cubes in its construction, priced
    as such from its record tuwcoll_carry_max_bytes): 0.86-1.27, TUWk_Gatherv 0.87-1.10 (0.78-0.98
    while the model's links took an exchange's messages in receiver order, not as they were sent:
    the carrier's, sent first, waited for the later ones). radix-560-own-gather-radix (TUWk_Gatherv
    at its own radix, 5): 0.86-1.27, TUWk_Gatherv 0.92-1.09. radix-560-direct (its root told by
    its group directly, tuwcoll_carry_to_root=direct): 0.86-1.27, TUWk_Gatherv 0.91-1.09.
    radix-560-told-only (told only, direct-only, radix 5): 0.86-1.27, TUWk_Gatherv 0.91-1.15 (at
    radix 9, its one-level-radix9 run, 0.93-1.30: the model misses what a 9-way fan-in costs on
    16-rank nodes, and ranked 9 first)."""
    run = SIMULATED / run_name / "default"
    ops = {f"{tree}_{op}" for tree in ("TUW", "TUWk", "Binomial", "Binomialk")
           for op in ("Gatherv", "Scatterv")}
    found = ratios(own_fit_rows(run), ops)
    assert len(found) == 144
    assert outside(found) == {}


def test_paper_scale_runs_within_thirty_percent():
    """The paper's larger simulations (paper-1600, paper-3200, paper-6400: TUW and the binomial
    trees at b = 1 and 100, 16 ranks a node on paper-qdr80.xml) against the model on that
    platform's irrfit (radix-6400-greedy's): all 56 cases within [1/1.3, 1.3] (0.81-1.06; the
    binomial gather at p = 6400 1.15-1.33 while a probed message counted as taken on arrival)."""
    fit = SIMULATED / "radix-6400-greedy" / "default" / "fit.txt"
    found = {}
    for run in ("paper-1600", "paper-3200", "paper-6400"):
        rows = model_rows(SIMULATED / run / "default" / "raw.csv", fit)
        for case, x in ratios(rows, {"TUW_Gatherv", "TUW_Scatterv", "Binomial_Gatherv",
                                     "Binomial_Scatterv", "Linear_Gatherv",
                                     "Linear_Scatterv"}).items():
            found[(run,) + case] = x
    assert len(found) == 56
    assert outside(found) == {}


def test_large_blocks_at_6400_within_ten_percent():
    """Where the root's link decides (radix-6400-current-large: TUW_Gatherv beside today's
    TUWk_Gatherv at p = 6400, b = 100, 1000, 10^4, six distributions, one run), the model on the
    run's fit (radix-6400-small-current's): all 36 cases within [1/1.1, 1.1] (0.92-1.01; TUWk at
    b = 100 0.92-0.93, where the model ranks it 3 % behind TUW and the simulation 4 % ahead)."""
    run = SIMULATED / "radix-6400-current-large"
    fit = SIMULATED / "radix-6400-small-current" / "default" / "fit.txt"
    found = ratios(model_rows(run / "raw.csv", fit), {"TUW_Gatherv", "TUWk_Gatherv"},
                   max_b=10**4)
    assert len(found) == 36
    assert {b for _, _, b in found} == {100, 1000, 10**4}
    assert all(1 / 1.1 <= x <= 1.1 for x in found.values()), found


def large_scatter_cells(run, fit, tuw_run=None):
    """TUWk_Scatterv's radix, its median / TUW_Scatterv's (of the same run, or of tuw_run), and
    measured / LogGP model, by (distribution, b), from irrmodel's rows."""
    rows = model_rows(run, fit)
    tuw = {(r["distribution"], int(r["b"])): float(r["measured_median_us"])
           for r in (model_rows(tuw_run, fit) if tuw_run else rows) if r["op"] == "TUW_Scatterv"}
    return {(r["distribution"], int(r["b"])):
            (int(r["radix"]), float(r["measured_median_us"]) / tuw[r["distribution"], int(r["b"])],
             float(r["median_over_loggp"]))
            for r in rows if r["op"] == "TUWk_Scatterv"}


def test_large_scatter_calls_run_on_the_models_radix_at_560():
    """radix-560-current/large-radix: TUWk_Scatterv's calls too large for one message a child
    (b = 1000, 10^4; p = 560) on the radix the model prices fastest at their size class (2; the
    run records "model", irrmodel recomputes it), beside TUW_Scatterv: never slower (0.976-0.999;
    Two blocks, small calls on radix 4: 0.49, 0.78), the model within 1.5 % of every cell."""
    cells = large_scatter_cells(SIMULATED / "radix-560-current" / "large-radix" / "raw.csv",
                                SIMULATED / "radix-560-current" / "default" / "fit.txt")
    assert len(cells) == 12
    for (dist, b), (radix, against_tuw, against_model) in cells.items():
        assert radix == (4 if dist == "two_blocks" else 2), (dist, b, radix)
        assert against_tuw <= 1.0, (dist, b, against_tuw)
        assert 1 / 1.015 <= against_model <= 1.015, (dist, b, against_model)


def test_large_scatter_calls_run_on_the_models_radix_at_6400():
    """radix-6400-current-large/scatter-large-radix: the same at p = 6400, b = 100 and 1000 (the
    radix chosen at 4-byte blocks, 5, had run 4 of these 12 cells 5.8-23 % slower than
    TUW_Scatterv: scatter/raw.csv, whose TUW_Scatterv is the reference here): on the model's
    radix 2 never slower (0.979-0.999; Two blocks, small calls on radix 5: 0.52, 0.54), the
    model within 0.2 % of every large call."""
    run = SIMULATED / "radix-6400-current-large"
    cells = large_scatter_cells(run / "scatter-large-radix" / "raw.csv",
                                SIMULATED / "radix-6400-small-current" / "default" / "fit.txt",
                                tuw_run=run / "scatter" / "raw.csv")
    assert len(cells) == 12
    for (dist, b), (radix, against_tuw, against_model) in cells.items():
        assert radix == (5 if dist == "two_blocks" else 2), (dist, b, radix)
        assert against_tuw <= 1.0, (dist, b, against_tuw)
        band = 1.07 if dist == "two_blocks" else 1.005
        assert 1 / band <= against_model <= band, (dist, b, against_model)


def pieces_against_none_at_560(run, op, whole_op):
    """`op`'s medians in run/raw.csv (its transfers in pieces: the run records "model") against
    run/raw-nopieces.csv (the same build with TUWCOLL_GATHER_PIECES=0; radix-560-current's
    platform and fit): b = 100 at least 20 % faster and b = 1000 at least 4 %; b = 10 and Two
    blocks, no transfer above 8933 bytes, unchanged within 0.5 %; never slower than `whole_op`
    of the same run. Returns `op`'s model rows."""
    run = SIMULATED / run
    fit = SIMULATED / "radix-560-current" / "default" / "fit.txt"
    rows = model_rows(run / "raw.csv", fit)
    medians = {(r["op"], r["distribution"], int(r["b"])): float(r["measured_median_us"])
               for r in rows}
    off = {(r["distribution"], int(r["b"])): float(r["measured_median_us"])
           for r in model_rows(run / "raw-nopieces.csv", fit) if r["op"] == op}
    assert "tuwcoll_gather_pieces=model" in (run / "raw.csv").read_text()
    assert "tuwcoll_gather_pieces=0 TUWCOLL_GATHER_PIECES" in (run / "raw-nopieces.csv").read_text()
    assert len(off) == 18
    for (dist, b), t_off in off.items():
        t = medians[op, dist, b]
        gain = t / t_off
        if dist == "two_blocks" or b == 10:
            assert 0.995 <= gain <= 1.005, (dist, b, gain)
        else:
            assert gain <= (0.80 if b == 100 else 0.96), (dist, b, gain)
        assert t <= medians[whole_op, dist, b], (dist, b)
    return [r for r in rows if r["op"] == op]


def test_gather_pieces_pay_where_the_rule_cuts_at_560():
    """radix-560-pieces: TUWk_Gatherv with its transfers in pieces against the same build without
    them, beside TUW_Gatherv (pieces_against_none_at_560: b = 100 0.733-0.784, b = 1000
    0.952-0.958); the model, pricing the pieces, within 1.15 of every cell."""
    for r in pieces_against_none_at_560("radix-560-pieces", "TUWk_Gatherv", "TUW_Gatherv"):
        assert 1 / 1.15 <= float(r["median_over_loggp"]) <= 1.15, r


def test_gather_pieces_reach_the_logp_goal_at_6400_b10():
    """radix-6400-pieces: TUWk_Gatherv with its transfers in pieces at p = 6400, b = 10, against
    the same operation before pieces (radix-6400-told-only/raw-radix6.csv, the same radix 6,
    platform and fit): at least 20 % faster on the five distributions whose transfers are cut
    (Two blocks, carried, unchanged within 0.5 %), and so within issue 37's 1.5x of the LogP
    bound (1.27-1.32; before 1.60-1.79); the model, pricing the pieces, within 1.1 of every cell
    at b = 1, 10 and 100."""
    fit = SIMULATED / "radix-6400-small-current" / "default" / "fit.txt"
    rows = model_rows(SIMULATED / "radix-6400-pieces" / "raw.csv", fit)
    before = {(r["distribution"], int(r["b"])): float(r["measured_median_us"])
              for r in model_rows(SIMULATED / "radix-6400-told-only" / "raw-radix6.csv", fit)
              if r["op"] == "TUWk_Gatherv"}
    cut = 0
    for r in rows:
        assert r["op"] == "TUWk_Gatherv" and int(r["radix"]) == 6, r
        assert 1 / 1.1 <= float(r["median_over_loggp"]) <= 1.1, r
        dist, b, t = r["distribution"], int(r["b"]), float(r["measured_median_us"])
        if b != 10:
            continue
        gain = t / before[dist, b]
        if dist == "two_blocks":
            assert 0.995 <= gain <= 1.005, gain
            continue
        cut += 1
        assert gain <= 0.80, (dist, gain)
        assert t <= 1.5 * float(r["logp_bound_us"]), (dist, t, r["logp_bound_us"])
    assert cut == 5


def test_persistent_gather_starts_in_pieces_at_560():
    """radix-560-persistent-pieces: TUWk_Gatherv_init's starts in pieces against the same build's
    without, beside TUW_Gatherv_init, which goes without pieces (pieces_against_none_at_560:
    b = 100 0.733-0.757, b = 1000 0.929-0.959); the model, pricing the pieces, within issue 37's
    [1/1.3, 1.3] of every cell (0.92-1.19)."""
    for r in pieces_against_none_at_560("radix-560-persistent-pieces", "TUWk_Gatherv_init",
                                        "TUW_Gatherv_init"):
        assert BAND[0] <= float(r["median_over_loggp"]) <= BAND[1], r


def test_persistent_gather_starts_in_pieces_at_6400_b10():
    """radix-6400-persistent-pieces: TUWk_Gatherv_init's starts at p = 6400, b = 10 with their
    transfers in pieces against the same build's starts without (measured 0.746-0.765 in the
    five distributions with data to move; Two blocks, one 40-byte message, unchanged within
    0.5 %); at least 1.35x faster than TUW_Gatherv_init's starts of the same build (the goal's
    1.5x read with its +- 10 %; measured 1.39-1.49x) and within
    issue 37's 1.5x of the LogP bound (1.20-1.27); the model, pricing the pieces on the starts,
    within 1.1 of every cell of the three files."""
    run = SIMULATED / "radix-6400-persistent-pieces"
    fit = SIMULATED / "radix-6400-small-current" / "default" / "fit.txt"
    rows = {name: {r["distribution"]: r for r in model_rows(run / name, fit)}
            for name in ("raw.csv", "raw-nopieces.csv", "raw-tuw-init.csv")}
    assert "tuwcoll_gather_pieces=model" in (run / "raw.csv").read_text()
    assert "tuwcoll_gather_pieces=0 TUWCOLL_GATHER_PIECES" in (run / "raw-nopieces.csv").read_text()
    for dist, r in rows["raw.csv"].items():
        assert r["op"] == "TUWk_Gatherv_init" and int(r["b"]) == 10, r
        t = float(r["measured_median_us"])
        gain = t / float(rows["raw-nopieces.csv"][dist]["measured_median_us"])
        if dist == "two_blocks":
            assert 0.995 <= gain <= 1.005, gain
            continue
        assert gain <= 0.80, (dist, gain)
        assert t * 1.35 <= float(rows["raw-tuw-init.csv"][dist]["measured_median_us"]), dist
        assert t <= 1.5 * float(r["logp_bound_us"]), (dist, t, r["logp_bound_us"])
    assert len(rows["raw.csv"]) == 6
    for by_dist in rows.values():
        for r in by_dist.values():
            assert 1 / 1.1 <= float(r["median_over_loggp"]) <= 1.1, r


def test_persistent_starts_at_the_roots_radix_at_560():
    """radix-560-persistent-scatter-large/raw-root-radix.csv: TUWk_Scatterv_init and
    TUWk_Gatherv_init with the radix their root chose on its counts (recorded "model"), beside
    TUW_*_init in one run, b = 1 ... 10^4: a TUWk start never more than 0.5 % slower than the
    TUW start of the same cell (measured 0.59-1.00; with the 4-byte radix, raw.csv, the scatter
    was up to 13 % slower at b >= 100); at b >= 1000 on Same the root takes radix 2, TUW's tree;
    the model, pricing each start at its root's radix, within issue 37's [1/1.3, 1.3]."""
    run = SIMULATED / "radix-560-persistent-scatter-large"
    fit = SIMULATED / "radix-560-current" / "default" / "fit.txt"
    assert "tuwcoll_init_radix=model" in (run / "raw-root-radix.csv").read_text()
    rows = model_rows(run / "raw-root-radix.csv", fit)
    by = {(r["op"], r["distribution"], int(r["b"])): r for r in rows}
    before = {(r["distribution"], int(r["b"])): float(r["measured_median_us"])
              for r in model_rows(run / "raw.csv", fit) if r["op"] == "TUWk_Scatterv_init"}
    assert len(rows) == 120
    for (op, dist, b), r in by.items():
        if not op.startswith("TUWk_"):
            continue
        t = float(r["measured_median_us"])
        assert t <= 1.005 * float(by[op.replace("TUWk_", "TUW_"), dist, b]["measured_median_us"]), (
            op, dist, b)
        assert BAND[0] <= float(r["median_over_loggp"]) <= BAND[1], r
    assert max(before[d, 100] / float(by["TUW_Scatterv_init", d, 100]["measured_median_us"])
               for d in ("same", "alternating")) > 1.05
    assert int(by["TUWk_Scatterv_init", "same", 1000]["radix"]) == 2


def test_persistent_starts_at_the_roots_radix_at_6400():
    """radix-6400-persistent-root-radix: TUWk_*_init requests at the radix their root chose on
    its counts (recorded "model"). Gather, b = 10: never slower than the radix-9 starts before
    that choice (../radix-6400-persistent-pieces/raw.csv; measured 0.926-0.983 with data to
    move), at least 1.35x faster than TUW_Gatherv_init (the goal's 1.5x read with its +- 10 %;
    1.42-1.58x) and within 1.5x of the LogP bound (1.15-1.19). Scatter, b = 100: never slower
    than TUW_Scatterv_init of the same run (Decreasing 0.895; the root takes radix 2, TUW's
    tree, on Same). The model within 1.1 of every gather start (0.93-0.98) and within issue 37's
    [1/1.3, 1.3] of every scatter start (1.00-1.01; Two blocks 1.10)."""
    run = SIMULATED / "radix-6400-persistent-root-radix"
    fit = SIMULATED / "radix-6400-small-current" / "default" / "fit.txt"
    pieces = SIMULATED / "radix-6400-persistent-pieces"
    before, tuw = ({r["distribution"]: float(r["measured_median_us"])
                    for r in model_rows(pieces / name, fit)}
                   for name in ("raw.csv", "raw-tuw-init.csv"))
    gather = model_rows(run / "raw-gather.csv", fit)
    assert "tuwcoll_init_radix=model" in (run / "raw-gather.csv").read_text()
    assert len(gather) == 6
    for r in gather:
        dist, t = r["distribution"], float(r["measured_median_us"])
        assert r["op"] == "TUWk_Gatherv_init" and int(r["b"]) == 10, r
        assert t <= 1.005 * before[dist], (dist, t, before[dist])
        if dist != "two_blocks":  # (one 40-byte message, the same in every tree)
            assert t * 1.35 <= tuw[dist] and t <= 1.5 * float(r["logp_bound_us"]), (dist, t)
        assert 1 / 1.1 <= float(r["median_over_loggp"]) <= 1.1, r
    gain = {r["distribution"]: float(r["measured_median_us"]) / before[r["distribution"]]
            for r in gather}
    assert max(gain["same"], gain["alternating"]) < 0.95, gain  # radix 6 over 9: 0.926-0.929
    scatter = {(r["op"], r["distribution"]): r for r in model_rows(run / "raw-scatter.csv", fit)}
    assert len(scatter) == 12
    for (op, dist), r in scatter.items():
        assert BAND[0] <= float(r["median_over_loggp"]) <= BAND[1], r
        if op == "TUWk_Scatterv_init":
            assert int(r["b"]) == 100
            assert float(r["measured_median_us"]) <= 1.005 * float(
                scatter["TUW_Scatterv_init", dist]["measured_median_us"]), dist
    assert int(scatter["TUWk_Scatterv_init", "same"]["radix"]) == 2


def test_small_scatter_calls_on_a_dense_fit_within_a_quarter():
    """TUWk_Scatterv's and TUW_Scatterv's runs of equal-node-ranges (p = 560 and 6400, b = 1 to
    100, the library's choices and forced trees, barrier and common start) on their dense fits
    (8 sizes an octave): 179 cases within [1/1.25, 1.25] (0.93-1.21; TUWk at p = 6400, b = 1
    1.02-1.04 but Random's new ranges, 1.10-1.12). The parent's shared sends move each
    message's bytes at the curve's per-byte rate for its size and keep the rest as its own
    latency (LogGPParams::latency_by_size): with the whole time above L + 2o on the link,
    1.3-1.5 at p = 6400, b = 1 and p = 560, b = 10."""
    runs = SIMULATED / "equal-node-ranges"
    found = {}
    for raw in sorted(runs.glob("raw-*.csv")) + sorted(runs.glob("*/raw-*.csv")):
        fit = runs / ("fit-6400.txt" if raw.name.startswith("raw-6400") else "fit-560.txt")
        rows = model_rows(raw, fit)
        for case, x in ratios(rows, {"TUWk_Scatterv", "TUW_Scatterv"}).items():
            found[(str(raw.relative_to(runs)),) + case] = x
    assert len(found) == 179
    assert all(1 / 1.25 <= x <= 1.25 for x in found.values()), found
    at_6400_b1 = [x for (raw, op, dist, b), x in found.items()
                  if raw.startswith("raw-6400") and op == "TUWk_Scatterv" and b == 1]
    assert at_6400_b1 and max(at_6400_b1) <= 1.15 and sorted(at_6400_b1)[-3] <= 1.05


def test_the_library_runs_the_small_call_tree_its_model_names():
    """equal-node-ranges/rates: the library's own choice at p = 6400, b = 1 (record "S
    model-by-size3-rates") took, in the deterministic simulation, exactly the times of the trees
    forced by TUWCOLL_SCATTER_STEP that its rule names (e7/4 for Same and Alternating, b8/4 -
    ranges of equal bytes - for Random and Spikes, e10/4 for Decreasing, whose equal-byte and
    equal-node ranges coincide), irrmodel prices it as those trees, and each is faster than the
    choice of the rule before (model-by-size: 33.21, 42.99, 44.96, 43.45 us)."""
    runs = SIMULATED / "equal-node-ranges"
    library = medians(runs / "rates" /
                      "raw-6400-model-same-random-spikes-decreasing-alternating-two_blocks.csv")
    before = medians(runs / "raw-6400-model-same-random-spikes-decreasing-alternating-two_blocks.csv")
    forced = {}
    forced_runs = ("raw-6400-e7_4-same-alternating.csv", "raw-6400-b8_4-random-spikes.csv",
                   "raw-6400-e10_4-decreasing.csv")
    for name in forced_runs:
        forced.update(medians(runs / name))
    fit = runs / "fit-6400.txt"

    def loggp(raw):
        return {(r["op"], r["distribution"], int(r["b"])): float(r["loggp_us"])
                for r in model_rows(raw, fit)}
    modelled = loggp(runs / "rates" /
                     "raw-6400-model-same-random-spikes-decreasing-alternating-two_blocks.csv")
    modelled_forced = {}
    for name in forced_runs:
        modelled_forced.update(loggp(runs / name))
    assert len(forced) == 5
    for key in forced:
        assert library[key] == pytest.approx(forced[key], rel=1e-3), key
        assert modelled[key] == pytest.approx(modelled_forced[key], rel=1e-6), key
        assert library[key] < before[key], key


def test_a_heavy_block_takes_the_radix_tree_in_the_simulation():
    """radix-560-current/heavy-blocks: Two blocks at p = 560. At b = 10^4 (two blocks of 40 000
    bytes, a small call of 80 KB) the library's rule (record "S model-heavy-radix") took exactly
    the forced radix tree's time (TUWCOLL_SCATTER_STEP=0), which beats TUW_Scatterv and the greedy
    step 5 the size class names (and the equal node ranges the rule before took:
    radix-560-current/default, 88.10 us); at b = 1000 (4000 bytes, not heavy) it keeps step 5,
    faster there than the radix tree. irrmodel prices each library run as the tree forced."""
    runs = SIMULATED / "radix-560-current" / "heavy-blocks"
    fit = SIMULATED / "radix-560-current" / "default" / "fit.txt"
    key = ("TUWk_Scatterv", "two_blocks")

    def run(step, b):
        raw = runs / f"raw-560-{step}-two_blocks-b{b}.csv"
        loggp = {(r["op"], r["distribution"]): float(r["loggp_us"]) for r in model_rows(raw, fit)}
        return medians(raw), loggp[key]

    for b, chosen, other in ((10000, "0", "5"), (1000, "5", "0")):
        (library, library_model), (forced, forced_model) = run("model", b), run(chosen, b)
        (elsewhere, _) = run(other, b)
        assert library[key + (b,)] == pytest.approx(forced[key + (b,)], rel=1e-3), b
        assert library_model == pytest.approx(forced_model, rel=1e-6), b
        assert library[key + (b,)] < elsewhere[key + (b,)], b
    library, _ = run("model", 10000)
    assert library[key + (10000,)] < library[("TUW_Scatterv", "two_blocks", 10000)]
    before = medians(SIMULATED / "radix-560-current" / "default" / "raw.csv")
    assert library[key + (10000,)] < 0.7 * before[key + (10000,)]
    # p = 6400: the radix tree against b12/4, the tree the rule before named there.
    library = medians(runs / "raw-6400-model-two_blocks-b10000.csv")
    before = medians(runs / "raw-6400-b12_4-two_blocks-b10000.csv")
    assert library[key + (10000,)] < library[("TUW_Scatterv", "two_blocks", 10000)]
    assert library[key + (10000,)] < 0.7 * before[key + (10000,)]


def test_knomial_trees_at_every_radix_within_half():
    """Binomialk at k = 2 ... 16 (radix-sweep-560, each run with its own fit), b <= 100: 288 cases
    within [1/1.45, 1.45] (0.81-1.41; 0.58-1.77 when a probed message counted as taken on arrival,
    a scatter's size message held the link and empty messages left before their receive), and
    the gathers all but radix 16's latency-bound ones (b = 1, Two blocks: 1.37-1.38) and radix
    12's Two blocks (1.30: 1.24 until a node's messages had a link of their own in the model, no
    longer queued behind the network's: radix 12's modelled b = 1 gathers 0.9 us faster, its
    b = 100 ones but Two blocks 0.87-0.96 -> 0.94-1.03) within [1/1.3, 1.3]. The scatters run
    above the model,
    not below: each child probes twice, and SMPI's probes return late
    (harness/smpi/probe_wait_probe.c)."""
    found = {}
    for k in (2, 3, 4, 5, 6, 8, 12, 16):
        run = SIMULATED / "radix-sweep-560" / f"radix-{k}" / "default"
        rows = own_fit_rows(run)
        assert {r["radix"] for r in rows if r["op"].startswith("Binomialk")} == {str(k)}
        for (op, dist, b), x in ratios(rows, {"Binomialk_Gatherv", "Binomialk_Scatterv"}).items():
            found[(k, op, dist, b)] = x
    assert len(found) == 288
    assert all(1 / 1.45 <= x <= 1.45 for x in found.values()), found
    gathers = {case: x for case, x in found.items() if case[1] == "Binomialk_Gatherv"}
    for (k, op, dist, b), x in gathers.items():
        latency_bound = k == 16 and (b == 1 or dist == "two_blocks")
        assert 1 / 1.3 <= x <= 1.3 or latency_bound or (k == 12 and dist == "two_blocks"
                                                         and x <= 1.31), (k, dist, b, x)
    scatters = [x for case, x in found.items() if case[1] == "Binomialk_Scatterv"]
    assert min(scatters) >= 0.9


def test_knomial_scatter_sizes_share_the_link():
    """The k-nomial scatter's size messages (8 bytes a rank: 5.8 KB for each child of a radix-9
    root at p = 6400, twice its data at b = 1) share the parent's link with the data
    (docs/irrmodel.md, "The size messages' bytes"). Against SimGrid with its probe polling 100
    times finer (common-start/knomial's -iprobe1e-10 runs, p = 400 ... 6400): within [1/1.1, 1.25]
    (1.01-1.20; the sizes aside 1.01-1.54, each first on the link 0.84-1.05). At p = 6400, b = 1
    with SimGrid's polling (radix-6400-small-current, -scatter, -persistent): within [1/1.3, 1.3]
    (1.08-1.29; aside 1.44-1.72)."""
    fit = SIMULATED / "radix-6400-greedy" / "default" / "fit.txt"
    finer = {}
    for raw in sorted((SIMULATED / "common-start" / "knomial").glob("raw-*-iprobe1e-10.csv")):
        for case, x in ratios(model_rows(raw, fit), {"Binomialk_Scatterv"}).items():
            finer[(raw.name,) + case] = x
    assert len(finer) == 7
    assert all(1 / 1.1 <= x <= 1.25 for x in finer.values()), finer
    at_6400 = {}
    for run in ("radix-6400-small-current", "radix-6400-scatter", "radix-6400-persistent"):
        for case, x in ratios(own_fit_rows(SIMULATED / run / "default"), {"Binomialk_Scatterv"},
                              max_b=1).items():
            at_6400[(run,) + case] = x
    assert len(at_6400) == 16
    assert outside(at_6400) == {}


def test_radix_k_trees_within_and_above_the_bound():
    """TUWk and Binomialk at the radix the library chose (irrmodel recomputes it from the same
    fit, as libtuwcoll does), and the LogP bound below every measured tree. TUWk_Scatterv from
    radix-560-scatter, the run of the tree its root plans (the model's root-planned scatter:
    radix-560's TUWk_Scatterv rows are the construction's, before it); at b <= 100 every call is
    small, each child's sizes and data in one message, on the tree the library picked (run with
    TUWCOLL_RANKS_PER_NODE=16: the greedy tree of step 5 at b = 1 and 10, the simulation's best
    step at b = 1; the radix tree at b = 100), the sends of a parent sharing its link: all 18
    within [1/1.5, 1.5] (0.97-1.38), 12 within [1/1.3, 1.3]; outside it only greedy calls, at
    most 1.4: b = 10 but Two blocks (1.31-1.38) and Decreasing b = 1 (1.31). With step 9 (one
    level's choice) it was 14 within 1.3, b = 10 at 1.35-1.49: the model is closer to the greedy
    tree's times at step 9, but chooses better at 5 (docs/irrmodel.md)."""
    found, radixes = {}, set()
    for run, op in (("radix-560", "TUWk_Gatherv"), ("radix-560-scatter", "TUWk_Scatterv")):
        rows = predictions(run)
        found.update(ratios(rows, {op}))
        radixes |= {r["radix"] for r in rows if r["op"] == op}
        for r in rows:
            if r["op"].startswith(("TUW", "Binomial")):
                assert float(r["logp_bound_us"]) < float(r["measured_median_us"]), r
    assert len(found) == 36
    gathers = {case: x for case, x in found.items() if case[0] == "TUWk_Gatherv"}
    assert outside(gathers) == {}
    scatters = {case: x for case, x in found.items() if case[0] == "TUWk_Scatterv"}
    assert all(1 / 1.5 <= x <= 1.5 for x in scatters.values()), outside(scatters)
    for (op, dist, b), ratio in outside(scatters).items():
        assert b <= 10 and dist != "two_blocks" and ratio <= 1.4, (op, dist, b, ratio)
    assert len(outside(scatters)) <= 6, outside(scatters)
    assert radixes == {"4"}


def medians(raw):
    """Median seconds per (op, distribution, b) of a raw.csv."""
    import statistics
    times = {}
    with open(raw) as f:
        for row in csv.DictReader(line for line in f if not line.startswith("#")):
            if row["status"] == "ok":
                key = (row["op"], row["distribution"], int(row["b"]))
                times.setdefault(key, []).append(float(row["seconds"]))
    return {key: statistics.median(values) for key, values in times.items()}


def test_the_library_ran_the_radix_the_model_names():
    """The simulation is deterministic: TUWk without TUWCOLL_RADIX (the library's own choice)
    takes the same time as TUWk with TUWCOLL_RADIX=4 (the radix irrmodel recomputes), and not the
    time of radix 3 or 5."""
    chosen = medians(SIMULATED / "radix-560" / "default" / "raw.csv")
    sweep = {k: medians(SIMULATED / "radix-sweep-560" / f"radix-{k}" / "default" / "raw.csv")
             for k in (3, 4, 5)}
    cases = [key for key in sweep[4] if key[0].startswith("TUWk")]
    assert len(cases) == 36
    for key in cases:
        assert sweep[4][key] == pytest.approx(chosen[key], rel=0.01), key
    assert sum(sweep[3][key] != pytest.approx(chosen[key], rel=0.01) for key in cases) > 30
    assert sum(sweep[5][key] != pytest.approx(chosen[key], rel=0.01) for key in cases) > 30


def test_each_tuwk_operation_ran_its_own_radix():
    """TUWk_Gatherv has its own radix (chosen on its carried tree: 5 on this fit), TUWk_Scatterv
    TUWk's (4). The simulation is deterministic: radix-560-own-gather-radix's gathers take the
    times of radix-560-carried-radix5 (the whole family at 5), its scatters those of
    radix-560-carried (the family at 4); the two earlier runs differ in both."""
    own_dir = SIMULATED / "radix-560-own-gather-radix" / "default"
    with open(own_dir / "raw.csv") as f:
        record = next(line for line in f if line.startswith("# tuwcoll_radix="))
    assert record.strip() == "# tuwcoll_radix=TUWk=4 Binomialk=9 TUWk_init=9 TUWk_Gatherv=5"
    own = medians(own_dir / "raw.csv")
    at_five = medians(SIMULATED / "radix-560-carried-radix5" / "default" / "raw.csv")
    at_four = medians(SIMULATED / "radix-560-carried" / "default" / "raw.csv")
    for op, same_as, other in (("TUWk_Gatherv", at_five, at_four),
                               ("TUWk_Scatterv", at_four, at_five)):
        cases = [key for key in own if key[0] == op]
        assert len(cases) == 30, op
        for key in cases:
            assert own[key] == pytest.approx(same_as[key], rel=1e-3), key
        assert sum(own[key] != pytest.approx(other[key], rel=1e-3) for key in cases) >= 3, op


def test_told_only_gather_runs_the_two_level_radix_which_measured_faster():
    """With its root's group told only, TUWk_Gatherv's radix comes from the two-level model where
    TUWCOLL_RANKS_PER_NODE gives the nodes: radix-560-told-only records 5, and its gathers take
    the times of the forced radix 5 (radix-sweep/raw-5.csv: the simulation is deterministic). The
    one-level model's 9 (one-level-radix9, the build before) is slower in at least 15 of the 18
    cases at b <= 100."""
    base = SIMULATED / "radix-560-told-only"
    with open(base / "default" / "raw.csv") as f:
        record = next(line for line in f if line.startswith("# tuwcoll_radix="))
    assert record.strip() == "# tuwcoll_radix=TUWk=4 Binomialk=9 TUWk_init=9 TUWk_Gatherv=5"
    chosen = medians(base / "default" / "raw.csv")
    forced = medians(base / "radix-sweep" / "raw-5.csv")
    nine = medians(base / "one-level-radix9" / "raw.csv")
    cases = [key for key in forced if key[0] == "TUWk_Gatherv"]
    assert len(cases) == 18
    for key in cases:
        assert chosen[key] == pytest.approx(forced[key], rel=1e-3), key
    assert sum(nine[key] > chosen[key] for key in cases) >= 15


def test_persistent_radix_k_tree_runs_at_its_own_radix_within_the_model():
    """TUWk_*_init (radix-560-persistent) builds its tree once, at the radix the model picks for
    the data phase alone: the run records the one irrmodel --model loggp names for planned-k from
    the run's fit (9; TUWk_* has 4). A start is within [1/1.3, 1.3] of the planned tree's LogGP
    time at b <= 100 except Two blocks (the barrier's exits, as above): the scatter at b = 10
    1.23-1.29 since a parent's sends share its link in the model (1.36-1.55 when they went one
    after the other), and above the LogP bound."""
    with open(SIMULATED / "radix-560-persistent" / "default" / "raw.csv") as f:
        record = next(line for line in f if line.startswith("# tuwcoll_radix="))
    run_fit = SIMULATED / "radix-560-persistent" / "default" / "fit.txt"  # the library's costs
    fit = dict(line.strip().split("=", 1) for line in open(run_fit) if "=" in line)
    # (a scatter's table: a gather's adaptive-k is TUWk_Gatherv's carried tree, at its own radix)
    named = subprocess.run([str(BINARY), "--model", "loggp", "--op", "scatter", "--p", "560",
                            "--b", "4",
                            "--alpha", fit["alpha_us"], "--beta", fit["beta_us_per_byte"],
                            "--overhead", fit["overhead_us"],
                            "--barrier-start", "--dists", "same"],
                           capture_output=True, text=True, timeout=60)
    assert named.returncode == 0, named.stderr
    planned = named.stdout.split("planned-k at radix ")[1].split()[0]
    adaptive = named.stdout.split("adaptive-k at radix ")[1].split(",")[0]
    oblivious = named.stdout.split("oblivious-k at radix ")[1].split(",")[0]
    assert record.strip() == \
        f"# tuwcoll_radix=TUWk={adaptive} Binomialk={oblivious} TUWk_init={planned}"
    assert int(planned) > int(adaptive)
    rows = predictions("radix-560-persistent")
    found = ratios(rows, {"TUWk_Gatherv_init", "TUWk_Scatterv_init"})
    assert len(found) == 36
    for (op, dist, b), ratio in outside(found).items():
        assert dist == "two_blocks", (op, dist, b, ratio)
    for r in rows:
        if r["op"].startswith("TUWk") and r["op"].endswith("_init"):
            assert r["radix"] == planned
            assert float(r["logp_bound_us"]) < float(r["measured_median_us"]), r


def test_irrmodel_prices_the_step_the_library_chose(tmp_path):
    """radix-560-scatter ran with TUWCOLL_RANKS_PER_NODE=16: the library chose its small calls'
    greedy step on two levels from root 280 (recorded: 5). irrmodel prices those calls on the step
    the library chose with the costs it chose it with: the same times as a run forced to step 5;
    without the record's TUWCOLL_RANKS_PER_NODE (one level, as the library chose before) those
    of step 9; a later build's record ("5 model-by-size") on its rule, equal node ranges
    included."""
    text = (SIMULATED / "radix-560-scatter" / "default" / "raw.csv").read_text()
    assert "# tuwcoll_scatter_step=5 model\n" in text
    assert "# env.TUWCOLL_RANKS_PER_NODE=16\n" in text
    lines = [line for line in text.splitlines()
             if line.startswith(("#", "op,", "TUWk_Scatterv,"))]
    small = "\n".join(line for line in lines
                      if not line.startswith("TUWk_Scatterv,") or line.split(",")[2] == "1") + "\n"

    def loggp(variant, name):
        path = tmp_path / name
        path.write_text(variant)
        result = subprocess.run([str(BINARY), "--from-results", str(path), "--alpha-beta",
                                 str(FIT), "--format", "tsv", "--max-mem", "1"],
                                capture_output=True, text=True, timeout=300)
        assert result.returncode == 0, result.stderr
        return {r["distribution"]: float(r["loggp_us"])
                for r in csv.DictReader(io.StringIO(result.stdout), delimiter="\t")}

    as_run = loggp(small, "as-run.csv")
    forced = {s: loggp(small.replace("tuwcoll_scatter_step=5 model",
                                     f"tuwcoll_scatter_step={s} TUWCOLL_SCATTER_STEP"), f"{s}.csv")
              for s in (5, 9)}
    one_level = loggp(small.replace("# env.TUWCOLL_RANKS_PER_NODE=16\n", ""), "one-level.csv")
    assert len(as_run) == 6
    assert as_run == forced[5]
    assert one_level == forced[9]
    assert as_run != one_level
    # A build that chooses by size ("S model-by-size") takes equal node ranges where they model
    # faster on the fit's curve: b = 10 (the simulation measured e6/4 24.95 us against step 5's
    # 30.20, equal-node-ranges/README.md), while b = 1 keeps step 5 (measured fastest there).
    ten = "\n".join(line for line in lines
                    if not line.startswith("TUWk_Scatterv,") or line.split(",")[2] == "10") + "\n"
    greedy_ten = loggp(ten, "greedy-10.csv")
    by_size_ten = loggp(ten.replace("5 model\n", "5 model-by-size\n"), "by-size-10.csv")
    by_size = loggp(small.replace("5 model\n", "5 model-by-size\n"), "by-size.csv")
    # (modelled 21.4 against 23.7 us after the barrier, whose exits weigh on both; measured
    # 24.95 against 30.20)
    assert by_size_ten["same"] < 0.95 * greedy_ten["same"], (by_size_ten, greedy_ten)
    assert by_size["same"] == as_run["same"]
    # The rule's record since size classes of three bits ("S model-by-size3") prices Same's
    # 40-byte blocks as 40 (12 ranges on this fit: b12/4), "model-by-size" as 32 (b8/4); each
    # as the run forced to that tree. Shape code: K + 128 * 4 + 16384 * 16 + 2^30 + 2^29.
    def code(ranges):
        return ranges + 128 * 4 + 16384 * 16 + (1 << 30) + (1 << 29)

    def forced_ten(ranges):
        return loggp(ten.replace("5 model\n", f"{code(ranges)} TUWCOLL_SCATTER_STEP\n"),
                     f"b{ranges}.csv")["same"]

    by_size3_ten = loggp(ten.replace("5 model\n", "5 model-by-size3\n"), "by-size3-10.csv")
    assert by_size3_ten["same"] == forced_ten(12) != forced_ten(8) == by_size_ten["same"]
    # a record the library could not have read is an error naming it, not one rank a node
    bad = tmp_path / "bad.csv"
    bad.write_text(small.replace("TUWCOLL_RANKS_PER_NODE=16", "TUWCOLL_RANKS_PER_NODE=16x"))
    result = subprocess.run([str(BINARY), "--from-results", str(bad), "--alpha-beta", str(FIT)],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode != 0 and "TUWCOLL_RANKS_PER_NODE: '16x' is not an integer >= 1" in \
        result.stderr, result.stderr


def test_irrmodel_prices_the_small_call_limit_the_run_recorded(tmp_path):
    """A TUWk_Scatterv call is small (one message a child, on the run's small-call tree) up to the
    limit its build had: irrbench records it (tuwcoll_small_call_max_bytes); files before the
    record had 256 KiB. At p = 6400, b = 10 Same's call (256 000 bytes and one size) is small
    under both limits, Random's, Spikes', Decreasing's and Alternating's (a size a rank more)
    only under 512 KiB, Two blocks' (20 elements) under both."""
    raw = SIMULATED / "equal-node-ranges" / \
        "raw-6400-10_4-same-random-spikes-decreasing-alternating-two_blocks-b10.csv"
    text = raw.read_text()
    assert "tuwcoll_small_call_max_bytes" not in text

    def loggp(limit):
        path = tmp_path / f"{limit}.csv"
        path.write_text(text if limit is None else text.replace(
            "# warmup=0\n", f"# warmup=0\n# tuwcoll_small_call_max_bytes={limit}\n"))
        result = subprocess.run([str(BINARY), "--from-results", str(path), "--alpha-beta",
                                 str(FIT), "--format", "tsv", "--max-mem", "1"],
                                capture_output=True, text=True, timeout=300)
        return result, {r["distribution"]: float(r["loggp_us"])
                        for r in csv.DictReader(io.StringIO(result.stdout), delimiter="\t")}

    recordless, before = loggp(None)
    assert recordless.returncode == 0, recordless.stderr
    assert loggp(256 * 1024)[1] == before
    after = loggp(512 * 1024)[1]
    for dist in ("same", "two_blocks"):
        assert after[dist] == before[dist], dist
    for dist in ("random", "spikes", "decreasing", "alternating"):
        assert after[dist] != before[dist], dist
    bad, _ = loggp("lots")
    assert bad.returncode != 0 and "tuwcoll_small_call_max_bytes: 'lots'" in bad.stderr, \
        bad.stderr


def test_irrmodel_prices_the_root_group_the_run_recorded(tmp_path):
    """TUWk_Gatherv's root group: told directly with the group's exchange
    (tuwcoll_carry_to_root=direct, radix-560-direct's build), or told only, carrying up to
    tuwcoll_carry_to_root_max_bytes (direct-only, the library's since): the model prices the
    record's, so the told-only gather is the faster at b = 1 (no exchange in the root's group), and
    the other operations are priced alike. A limit without direct-only, or direct-only without
    one, is refused."""
    raw = SIMULATED / "radix-560-direct" / "default" / "raw.csv"
    lines = raw.read_text().splitlines(keepends=True)
    kept = [line for line in lines if line.startswith(("#", "op,", "TUWk_Gatherv,same,1,",
                                                        "TUW_Gatherv,same,1,"))]
    text = "".join(kept)
    assert "# tuwcoll_carry_to_root=direct\n" in text

    def loggp(record):
        path = tmp_path / "run.csv"
        path.write_text(text.replace("# tuwcoll_carry_to_root=direct\n", record))
        result = subprocess.run([str(BINARY), "--from-results", str(path), "--alpha-beta",
                                 str(SIMULATED / "radix-560-direct" / "default" / "fit.txt"),
                                 "--format", "tsv", "--max-mem", "1"],
                                capture_output=True, text=True, timeout=300)
        return result, {r["op"]: float(r["loggp_us"])
                        for r in csv.DictReader(io.StringIO(result.stdout), delimiter="\t")
                        if r["loggp_us"]}

    exchanged, before = loggp("# tuwcoll_carry_to_root=direct\n")
    assert exchanged.returncode == 0, exchanged.stderr
    only, after = loggp("# tuwcoll_carry_to_root=direct-only\n"
                        "# tuwcoll_carry_to_root_max_bytes=8192\n")
    assert only.returncode == 0, only.stderr
    assert after["TUW_Gatherv"] == before["TUW_Gatherv"]
    assert after["TUWk_Gatherv"] < 0.9 * before["TUWk_Gatherv"], (before, after)
    bad, _ = loggp("# tuwcoll_carry_to_root=direct-only\n")
    assert bad.returncode != 0 and "without tuwcoll_carry_to_root_max_bytes" in bad.stderr, \
        bad.stderr
    bad, _ = loggp("# tuwcoll_carry_to_root=direct\n# tuwcoll_carry_to_root_max_bytes=8192\n")
    assert bad.returncode != 0 and "with tuwcoll_carry_to_root_max_bytes" in bad.stderr, \
        bad.stderr
    bad, _ = loggp("# tuwcoll_carry_to_root=sideways\n")
    assert bad.returncode != 0 and "tuwcoll_carry_to_root=sideways is not" in bad.stderr, \
        bad.stderr


def test_radixes_on_nodes_of_sixteen_priced_as_measured():
    """The two-level model against TUWk_Gatherv (told only) at forced radixes on 16-rank nodes,
    where it used to rank them wrongly: common-start/fan-in (p = 560, a common start, radix 5, 6
    and 9, Same and Random b = 1) and radix-6400-told-only (p = 6400 after a barrier, radix 9 and
    6, six distributions, b = 1 and 10). Until a node's messages had links of their own and the
    summaries arriving over the network shared their receiver's link (docs/irrmodel.md, 2026-11-29)
    radix 9 came out 1.04-1.30 of the model at p = 6400, b = 1 (radix 6 0.96-1.11) and the model
    chose 9 there, which measured slower than 6 in 10 of the 12 cells."""
    fan_in = SIMULATED / "common-start" / "fan-in"
    fit_560 = SIMULATED / "radix-560-told-only" / "default" / "fit.txt"
    measured, model = {}, {}
    for radix in (5, 6, 9):
        for r in model_rows(fan_in / f"raw-radix{radix}.csv", fit_560):
            assert r["radix"] == str(radix)
            key = (560, radix, r["distribution"], 1)
            measured[key], model[key] = float(r["measured_median_us"]), float(r["loggp_us"])
    told_only = SIMULATED / "radix-6400-told-only"
    fit_6400 = SIMULATED / "radix-6400-small-current" / "default" / "fit.txt"
    for radix, raw in ((9, "raw.csv"), (6, "raw-radix6.csv")):
        for r in model_rows(told_only / raw, fit_6400):
            assert r["op"] == "TUWk_Gatherv" and r["radix"] == str(radix)
            key = (6400, radix, r["distribution"], int(r["b"]))
            measured[key], model[key] = float(r["measured_median_us"]), float(r["loggp_us"])
    assert len(measured) == 6 + 24
    # every cell within 10 % (the common start within 3 %)
    for key in measured:
        ratio = measured[key] / model[key]
        band = 0.03 if key[0] == 560 else 0.10
        assert 1 - band <= ratio <= 1 + band, (key, ratio)
    # the model orders the radixes of a cell as they measured, all but a few close ones
    pairs = [((p, a, d, b), (p, c, d, b)) for (p, a, d, b) in measured for c in (6, 9)
             if a < c and (p, c, d, b) in measured]
    assert len(pairs) == 6 + 12
    agree = [(model[x] < model[y]) == (measured[x] < measured[y]) for x, y in pairs]
    assert sum(agree) >= 16, [pair for pair, ok in zip(pairs, agree) if not ok]


def test_logp_bound_below_every_measured_minimum():
    """The LogP bound (the root's link with its cost per message, docs/irrmodel.md) below the
    fastest repetition of every measured gather and scatter: p = 560 on its fit (b = 1 ... 10^4;
    the greedy scatter's 11.265 us at b = 1 lay below a bound at the fit's alpha, 11.281, until the
    bound took L from the measured curve), p = 6400 at b <= 10 but Two blocks, whose ranks 0 and
    6399 leave irrbench's barrier before the root (results/simulated/README.md)."""
    current = SIMULATED / "radix-560-current" / "default" / "fit.txt"
    runs = [(SIMULATED / "radix-560-told-only" / "default" / "raw.csv", current, False),
            (SIMULATED / "equal-node-ranges" / "size3" /
             "raw-560-model-same-random-spikes-decreasing-alternating-two_blocks-window.csv", current,
             False),
            (SIMULATED / "radix-6400-small-current" / "default" / "raw.csv",
             SIMULATED / "radix-6400-small-current" / "default" / "fit.txt", True)]
    checked = 0
    for raw, fit, barrier_exits in runs:
        for r in model_rows(raw, fit):
            if not r["logp_bound_us"] or (barrier_exits and r["distribution"] == "two_blocks"):
                continue
            assert float(r["logp_bound_us"]) <= float(r["measured_min_us"]), r
            checked += 1
    assert checked == 300 + 12 + 60, checked


def test_init_root_takes_the_tree_the_simulation_measured_faster(tmp_path):
    """A TUWk_*_init request's root chooses between its radix tree and the link-greedy tree
    (tree::PlannedTree; a run of a build that does records tuwcoll_init_radix "model
    link-greedy", and irrmodel prices each start at that choice). Held against link-greedy-trees,
    where both trees ran side by side at p = 560 (the link-greedy tree as Optimal_*_init's rows):
    on the run's fit a gather's choice takes the tree measured faster in all 10 cells of b = 1 and
    10 (the link-greedy tree everywhere but Decreasing at b = 10, whose radix tree was 1.29x
    faster) and prices the link-greedy tree within the issue's band of its measured start
    (0.95-1.21). A scatter's (at most 0.9 of the radix tree's price) takes it in the five b = 1
    cells, where it ran 0.85-0.93 of the radix tree, and in none at b = 10, where it was faster in
    Spikes only (0.89) and 1.02-1.22x slower in the others. Two blocks, where the trees take the
    same or the radix tree is faster, keeps the radix tree; a record "model" (the builds before)
    the radix tree everywhere."""
    run = SIMULATED / "link-greedy-trees"
    fit = SIMULATED / "radix-560-current" / "default" / "fit.txt"
    for op, b in [(op, b) for op in ("Gatherv", "Scatterv") for b in (1, 10)]:
        name = f"raw-560-b{b}.csv" if op == "Gatherv" else f"raw-560-scatter-b{b}.csv"
        text = (run / name).read_text()
        assert "# tuwcoll_init_radix=model\n" in text
        raw = tmp_path / f"{op}-b{b}.csv"
        raw.write_text(text.replace("# tuwcoll_init_radix=model\n",
                                    "# tuwcoll_init_radix=model link-greedy\n"))
        rows = {(r["op"], r["distribution"]): r for r in model_rows(raw, fit)}
        before = {(r["op"], r["distribution"]): r for r in model_rows(run / name, fit)}
        for dist in ("same", "random", "spikes", "decreasing", "alternating", "two_blocks"):
            greedy = float(rows[f"Optimal_{op}_init", dist]["measured_median_us"])
            start = rows[f"TUWk_{op}_init", dist]
            radix_tree = float(start["measured_median_us"])
            assert before[f"TUWk_{op}_init", dist]["radix"] not in ("", "0")
            took_link_greedy = start["radix"] in ("", "0")
            if dist == "two_blocks":
                assert not took_link_greedy and greedy >= radix_tree
                continue
            if op == "Gatherv":
                assert took_link_greedy == (greedy < radix_tree), (b, dist, greedy, radix_tree)
            else:
                assert took_link_greedy == (b == 1), (b, dist)
                assert took_link_greedy <= (greedy < radix_tree), (b, dist, greedy, radix_tree)
            if took_link_greedy:
                priced = float(start["loggp_us"])
                assert BAND[0] <= greedy / priced <= BAND[1], (op, b, dist, greedy, priced)
            else:
                assert start["loggp_us"] == before[f"TUWk_{op}_init", dist]["loggp_us"]
    # 64-byte blocks (b = 16): the schedule's walk, which the measured curve's steps make
    # non-monotone in its deadline, came up short for a range and the builder threw (irrmodel
    # crashed); it now takes the walk that set A at the grid point below.
    head = [line for line in (tmp_path / "Gatherv-b1.csv").read_text().splitlines(True)
            if line.startswith("#") or line.startswith("op,")]
    sixteen = tmp_path / "b16.csv"
    sixteen.write_text("".join(head) + "".join(
        f"TUWk_Gatherv_init,same,16,560,280,8960,8960,{rep},0.000030000,0,ok\n"
        for rep in range(3)))
    (row,) = model_rows(sixteen, fit)
    assert float(row["loggp_us"]) >= float(row["logp_bound_us"])
    bad = tmp_path / "bad.csv"
    bad.write_text((run / "raw-560-b1.csv").read_text().replace(
        "# tuwcoll_large_scatter_radix=model\n",
        "# tuwcoll_large_scatter_radix=model link-greedy\n"))
    result = subprocess.run([str(BINARY), "--from-results", str(bad), "--alpha-beta", str(fit),
                             "--format", "tsv", "--max-mem", "1"],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 2, result.stderr
    assert "tuwcoll_large_scatter_radix=model link-greedy is not" in result.stderr


def test_link_greedy_init_in_the_library_at_560():
    """link-greedy-init: TUWk_*_init as the library runs it (its root taking the link-greedy tree
    where the model says, tree::PlannedTree) beside TUW_*_init at p = 560. Gathers: the link-greedy
    tree at b = 1 and 10 but Decreasing's b = 10 and Two blocks; b = 1 within 1.1x of the LogP
    bound (1.02-1.08), b = 10 within 1.61x (1.38-1.60). Scatters: the link-greedy tree at b = 1
    but Two blocks, within 1.55x of the bound (1.34-1.54; at b = 10 the radix tree, 2.16-2.55x,
    held below 2.6x). Both at least 1.3x faster than TUW_*_init
    at b <= 10 (Two blocks aside; 1.2x for scatters at b = 10, the radix tree's 1.23-1.37), never
    more than 5 % slower at any b (the issue's goal), and priced within the issue's band."""
    run = SIMULATED / "link-greedy-init"
    fit = SIMULATED / "radix-560-current" / "default" / "fit.txt"
    for op, name in (("Gatherv", "raw-560.csv"), ("Scatterv", "raw-scatter-560.csv")):
        rows = {(r["op"], r["distribution"], int(r["b"])): r for r in model_rows(run / name, fit)}
        assert len(rows) == 48
        for dist in ("same", "random", "spikes", "decreasing", "alternating", "two_blocks"):
            for b in (1, 10, 100, 1000):
                start = rows[f"TUWk_{op}_init", dist, b]
                tuwk = float(start["measured_median_us"])
                tuw = float(rows[f"TUW_{op}_init", dist, b]["measured_median_us"])
                assert tuwk <= 1.05 * tuw, (op, dist, b, tuwk, tuw)
                assert BAND[0] <= float(start["median_over_loggp"]) <= BAND[1], (op, dist, b)
                link_greedy = start["radix"] in ("", "0")
                expected = dist != "two_blocks" and (
                    b == 1 or (b == 10 and op == "Gatherv" and dist != "decreasing"))
                assert link_greedy == expected, (op, dist, b)
                if dist == "two_blocks" or b > 10:
                    continue
                faster = 1.2 if (op, b) == ("Scatterv", 10) else 1.3
                assert tuw >= faster * tuwk, (op, dist, b, tuwk, tuw)
                limit = (2.6 if b == 10 else 1.55) if op == "Scatterv" else 1.1 if b == 1 else 1.61
                assert tuwk <= limit * float(start["logp_bound_us"]), (op, dist, b, tuwk)


def test_link_greedy_layouts_at_560():
    """link-greedy-init's "Two layouts": the runs of 77ae977, whose roots weighed the left side
    mirrored for both ops, against the first layout's runs. Where a gather took the mirrored
    layout its start was slower (at least 1.05x: 1.06-1.32), where a scatter did, faster (0.92-
    0.97): why tree::WeighLayouts is true for scatters only. irrmodel prices the layouts' record
    as it ran: the mirrored scatters at b = 1 within the issue's band, now within 1.5x of the
    bound. The library since (b67f107, "model link-greedy scatter-layouts") ran the scatters'
    starts of the layouts' run and the gathers' of the first, to the nanosecond."""
    run = SIMULATED / "link-greedy-init"
    fit = SIMULATED / "radix-560-current" / "default" / "fit.txt"
    for op, first, layouts in (("Gatherv", "raw-560.csv", "raw-560-layouts.csv"),
                               ("Scatterv", "raw-scatter-560.csv", "raw-scatter-560-layouts.csv")):
        assert "# tuwcoll_init_radix=model link-greedy layouts\n" in (run / layouts).read_text()
        before, after = medians(run / first), medians(run / layouts)
        assert before.keys() == after.keys()
        changed = {case for case in before if case[0] == f"TUWk_{op}_init"
                   and after[case] != before[case]}
        expected = ({("decreasing", 1), ("random", 10), ("spikes", 10), ("decreasing", 10)}
                    if op == "Gatherv" else {("spikes", 1), ("decreasing", 1)})
        assert {(case[1], case[2]) for case in changed} == expected, changed
        for case in changed:
            ratio = after[case] / before[case]
            assert (ratio >= 1.05) if op == "Gatherv" else (ratio <= 0.98), (case, ratio)
        final = run / layouts.replace("layouts", "scatter-layouts")
        assert "# tuwcoll_init_radix=model link-greedy scatter-layouts\n" in final.read_text()
        for case, median in medians(final).items():
            assert median == (after if op == "Scatterv" else before)[case], case
        if op == "Scatterv":
            rows = {(r["distribution"], int(r["b"])): r for r in model_rows(run / layouts, fit)
                    if r["op"] == "TUWk_Scatterv_init"}
            for dist in ("same", "random", "spikes", "decreasing", "alternating"):
                start = rows[dist, 1]
                assert start["radix"] in ("", "0"), dist
                assert BAND[0] <= float(start["median_over_loggp"]) <= BAND[1], dist
                assert float(start["measured_median_us"]) <= 1.5 * float(start["logp_bound_us"])


def test_node_links_price_the_gathers_that_pull_into_the_roots_node():
    """irrmodel gives each node one network link each way, shared by its ranks (LogGPParams::
    node_links; SimGrid's cluster, 16 ranks a host). p = 560, b = 10, TUWk_Gatherv_init on the
    link-greedy tree whose root's node pulls many small messages over that link: the first
    layout (raw-560.csv) and the mirrored one where taken (raw-560-layouts.csv: Random, Spikes,
    Decreasing), and the radix-9 tree (radix-560-persistent-pieces): 1.12-1.62x the price with
    one link per process, 1.02-1.15x with node links. The outward layout, which keeps those
    messages off the root's node (raw-560-node-link.csv), 1.03-1.05x without, 1.01-1.05x with."""
    fit = SIMULATED / "radix-560-current" / "default" / "fit.txt"
    run = SIMULATED / "link-greedy-init"
    for raw in (run / "raw-560.csv", run / "raw-560-layouts.csv", run / "raw-560-node-link.csv",
                SIMULATED / "radix-560-persistent-pieces" / "raw.csv"):
        starts = [r for r in model_rows(raw, fit)
                  if r["op"] == "TUWk_Gatherv_init" and r["b"] == "10"
                  and r["distribution"] != "two_blocks"]
        assert len(starts) == 5, raw
        for r in starts:
            ratio = float(r["median_over_loggp"])
            assert 1 <= ratio <= 1.16, (raw.name, r["distribution"], ratio)


def scatter_init_rows(raw, fit, record, cases):
    """A link-greedy-init scatter run's irrmodel rows by (op, distribution, b): the run recorded
    `record` for its TUWk_Scatterv_init roots, has `cases` rows, each priced within the issue's
    band, and no TUWk_Scatterv_init start more than 5 % slower than TUW_Scatterv_init's."""
    assert f"# tuwcoll_init_radix=model link-greedy {record}\n" in raw.read_text()
    rows = {(r["op"], r["distribution"], int(r["b"])): r for r in model_rows(raw, fit)}
    assert len(rows) == cases
    for (op, dist, b), row in rows.items():
        assert BAND[0] <= float(row["median_over_loggp"]) <= BAND[1], (op, dist, b)
        if op == "TUWk_Scatterv_init":
            tuw = float(rows["TUW_Scatterv_init", dist, b]["measured_median_us"])
            assert float(row["measured_median_us"]) <= 1.05 * tuw, (dist, b)
    return rows


def test_node_scatter_tree_at_560():
    """link-greedy-init's node-scatter run (a2333b8, scatters at b = 1, 4, 10): a scatter's root on
    nodes of 16 takes the node scatter tree where the two-level model with node links prices it at
    most 0.95 of the tree it would take otherwise (tree::FastestNodeScatterTree, PlannedTree). At
    b = 10 all five distributions with data run 0.85-0.91 of the radix tree's starts
    (raw-scatter-560-scatter-layouts.csv); at b = 1 none takes it and the starts are those of that
    run (within 10 ns). Priced within the issue's band, never more than 5 % slower than
    TUW_Scatterv_init. The run that took it wherever priced faster (-any, 2bcdd34) ran Same and
    Alternating at b = 1 2.7-2.8 % slower: the reason for the margin."""
    run = SIMULATED / "link-greedy-init"
    fit = SIMULATED / "radix-560-current" / "default" / "fit.txt"
    raw = run / "raw-scatter-560-node-scatter.csv"
    assert "# env.TUWCOLL_RANKS_PER_NODE=16\n" in raw.read_text()
    now, before = medians(raw), medians(run / "raw-scatter-560-scatter-layouts.csv")
    any_rule = medians(run / "raw-scatter-560-node-scatter-any.csv")
    rows = scatter_init_rows(raw, fit, "node-scatter", 36)
    for (op, dist, b), row in rows.items():
        if op != "TUWk_Scatterv_init" or dist == "two_blocks" or b == 4:
            continue
        if b == 1:
            assert now[op, dist, b] == pytest.approx(before[op, dist, b], abs=1e-8), dist
        else:
            assert row["radix"] in ("", "0"), dist  # a planned tree, not a radix
            assert 0.84 <= now[op, dist, b] / before[op, dist, b] <= 0.92, dist
            assert now[op, dist, b] * 1e6 <= 2.3 * float(row["logp_bound_us"]), dist
    for dist in ("same", "alternating"):
        op = "TUWk_Scatterv_init"
        assert any_rule[op, dist, 1] >= 1.02 * before[op, dist, 1], dist


def test_two_level_scatter_trees_at_560():
    """link-greedy-init's two-level-scatter run (a06ad2c, scatters at b = 1, 4, 10, 100, 1000): a
    scatter's root on nodes weighs the node scatter tree and the plain call's greedy tree, for any
    blocks. b = 100: Same, Random and Alternating take the greedy tree and run 0.62-0.67 of the
    radix tree's starts (raw-scatter-560-scatter-layouts.csv), 1.13-1.25x the LogP bound, as the
    plain TUWk_Scatterv did (radix-560-current); Spikes and Decreasing keep the radix tree. b = 10:
    the node-scatter run's starts. Never slower than before by more than 0.1 %, never more than
    5 % slower than TUW_Scatterv_init, and priced within the issue's band."""
    run = SIMULATED / "link-greedy-init"
    fit = SIMULATED / "radix-560-current" / "default" / "fit.txt"
    raw = run / "raw-scatter-560-two-level-scatter.csv"
    now, before = medians(raw), medians(run / "raw-scatter-560-scatter-layouts.csv")
    node_scatter = medians(run / "raw-scatter-560-node-scatter.csv")
    plain = medians(SIMULATED / "radix-560-current" / "default" / "raw.csv")
    rows = scatter_init_rows(raw, fit, "two-level-scatter", 60)
    for (op, dist, b), row in rows.items():
        if op != "TUWk_Scatterv_init":
            continue
        if (op, dist, b) in before:
            assert now[op, dist, b] <= 1.001 * before[op, dist, b], (dist, b)
        if b == 10:
            assert now[op, dist, b] == pytest.approx(node_scatter[op, dist, b], abs=1e-8), dist
        if b == 100 and dist in ("same", "random", "alternating"):
            assert row["radix"] in ("", "0"), dist
            assert now[op, dist, b] <= 0.68 * before[op, dist, b], dist
            assert now[op, dist, b] * 1e6 <= 1.26 * float(row["logp_bound_us"]), dist
            assert now[op, dist, b] <= 1.03 * plain["TUWk_Scatterv", dist, b], dist
        if b == 100 and dist in ("spikes", "decreasing"):
            assert now[op, dist, b] == before[op, dist, b], dist


def test_scatter_init_at_6400():
    """link-greedy-init's first p = 6400 scatter run (a06ad2c's build; b = 1, 10, one start each):
    above 1024 ranks no tree over nodes is weighed and the uneven blocks keep the radix tree, and so
    does Same (the link-greedy tree is not priced 0.9 of it). TUWk_Scatterv_init is 1.02-1.28x
    faster than TUW_Scatterv_init, at 2.14-2.40x the LogP bound at b = 1 and 1.90-2.05x at b = 10
    (issue 37's 1.5x unmet), priced within 1.00-1.03 (two_blocks 1.10)."""
    run = SIMULATED / "link-greedy-init"
    small = SIMULATED / "radix-6400-small-current" / "default"
    raw = run / "raw-scatter-6400-two-level-scatter.csv"
    rows = scatter_init_rows(raw, small / "fit.txt", "two-level-scatter", 24)
    for (op, dist, b), row in rows.items():
        if op != "TUWk_Scatterv_init" or dist == "two_blocks":
            continue
        assert row["radix"] not in ("", "0"), (dist, b)
        tuw = float(rows["TUW_Scatterv_init", dist, b]["measured_median_us"])
        assert float(row["measured_median_us"]) <= tuw / 1.02, (dist, b)
        ratio = float(row["measured_median_us"]) / float(row["logp_bound_us"])
        assert (2.1 <= ratio <= 2.41) if b == 1 else (1.89 <= ratio <= 2.06), (dist, b, ratio)


def test_scatter_trees_at_6400():
    """link-greedy-init's p = 6400 scatter run with the trees over nodes weighed up to 8192 ranks
    (4c7c61e's build, "two-level-scatter-8192"; b = 1, 10, one start each): every distribution
    with data takes a tree over nodes. b = 10: 0.60-0.65 of the radix tree's starts (the run
    before, a06ad2c), within 1.25x the LogP bound (issue 37's 1.5x met), 1.60-1.79x faster than
    TUW_Scatterv_init and as fast as the plain TUWk_Scatterv (radix-6400-small-current, within
    1 %). b = 1: 0.84-0.88, at 1.88-2.07x the bound (unmet). Two blocks keeps the radix tree and
    its starts. Priced within the issue's band (1.01-1.14)."""
    run = SIMULATED / "link-greedy-init"
    small = SIMULATED / "radix-6400-small-current" / "default"
    raw = run / "raw-scatter-6400-two-level-scatter-8192.csv"
    assert "# env.TUWCOLL_RANKS_PER_NODE=16\n" in raw.read_text()
    now, before = medians(raw), medians(run / "raw-scatter-6400-two-level-scatter.csv")
    plain = medians(small / "raw.csv")
    rows = scatter_init_rows(raw, small / "fit.txt", "two-level-scatter-8192", 24)
    for (op, dist, b), row in rows.items():
        if op != "TUWk_Scatterv_init":
            continue
        if dist == "two_blocks":
            assert row["radix"] not in ("", "0") and now[op, dist, b] == before[op, dist, b], b
            continue
        assert row["radix"] in ("", "0"), (dist, b)  # a planned tree, not a radix
        gain = now[op, dist, b] / before[op, dist, b]
        bound_ratio = now[op, dist, b] * 1e6 / float(row["logp_bound_us"])
        tuw = now["TUW_Scatterv_init", dist, b] / now[op, dist, b]
        if b == 10:
            assert 0.59 <= gain <= 0.66 and bound_ratio <= 1.25 and tuw >= 1.59, (dist, gain)
            assert now[op, dist, b] <= 1.01 * plain["TUWk_Scatterv", dist, b], dist
        else:
            assert 0.83 <= gain <= 0.88 and 1.87 <= bound_ratio <= 2.08, (dist, gain, bound_ratio)


def test_wide_node_shapes_at_6400():
    """link-greedy-init's p = 6400, b = 1 scatter run with the node scatter tree's wide shapes (leader
    ranges 16, on at least 128 nodes; 35461bc's build, "two-level-scatter-wide", one start each):
    every distribution with data runs 0.92-0.98 of the 8192 run's starts (the model said
    0.917-0.976), at 1.77-1.96x the LogP bound (issue 37's 1.5x unmet), 1.46-1.64x faster than
    TUW_Scatterv_init; Two blocks keeps the radix tree and its starts. Priced within the issue's
    band (1.02-1.13)."""
    run = SIMULATED / "link-greedy-init"
    small = SIMULATED / "radix-6400-small-current" / "default"
    raw = run / "raw-scatter-6400-two-level-scatter-wide.csv"
    now, before = medians(raw), medians(run / "raw-scatter-6400-two-level-scatter-8192.csv")
    rows = scatter_init_rows(raw, small / "fit.txt", "two-level-scatter-wide", 12)
    for (op, dist, b), row in rows.items():
        if op != "TUWk_Scatterv_init":
            continue
        if dist == "two_blocks":
            assert now[op, dist, b] == before[op, dist, b]
            continue
        assert row["radix"] in ("", "0"), dist
        gain = now[op, dist, b] / before[op, dist, b]
        bound_ratio = now[op, dist, b] * 1e6 / float(row["logp_bound_us"])
        tuw = now["TUW_Scatterv_init", dist, b] / now[op, dist, b]
        assert 0.92 <= gain <= 0.98 and 1.76 <= bound_ratio <= 1.97 and tuw >= 1.45, (dist, gain)


def test_link_greedy_node_link_at_560():
    """link-greedy-init's node-link runs (ceb34ec, gathers at b = 1, 2, 4, 10): a gather's root
    takes the outward layout where its node link says (tree::OutwardOnNodeLink; 3655 bytes on the
    fit, 16 ranks a node): at b = 10 in the four cells with the link-greedy tree, whose starts are
    those of the outward experiment (within 4 ns of 16.5 us) and 5-9 % faster than the first layout's
    (within 1.5x of the LogP bound but Spikes, 1.52); at b = 1 the first layout's starts. Never
    more than 5 % slower than TUW_Gatherv_init, and priced within the issue's band. p = 6400,
    b = 1 below."""
    run = SIMULATED / "link-greedy-init"
    fit = SIMULATED / "radix-560-current" / "default" / "fit.txt"
    raw = run / "raw-560-node-link.csv"
    assert "# tuwcoll_init_radix=model link-greedy node-link\n" in raw.read_text()
    assert "# env.TUWCOLL_RANKS_PER_NODE=16\n" in raw.read_text()
    now, first, outward = medians(raw), medians(run / "raw-560.csv"), medians(
        run / "raw-560-outward.csv")
    rows = {(r["op"], r["distribution"], int(r["b"])): r for r in model_rows(raw, fit)}
    assert len(rows) == 48
    for (op, dist, b), row in rows.items():
        assert BAND[0] <= float(row["median_over_loggp"]) <= BAND[1], (op, dist, b)
        if op != "TUWk_Gatherv_init":
            continue
        tuw = float(rows["TUW_Gatherv_init", dist, b]["measured_median_us"])
        assert now[op, dist, b] * 1e6 <= 1.05 * tuw, (dist, b)
        took_link_greedy = row["radix"] in ("", "0")
        if b == 1:
            assert now[op, dist, b] == first[op, dist, b], dist
        if b == 10 and took_link_greedy:
            assert now[op, dist, b] == pytest.approx(outward[op, dist, b], rel=1e-3), dist
            assert now[op, dist, b] <= 0.95 * first[op, dist, b], dist
            limit = 1.53 if dist == "spikes" else 1.5
            assert now[op, dist, b] * 1e6 <= limit * float(row["logp_bound_us"]), dist
    assert {d for (op, d, b), r in rows.items()
            if b == 10 and op == "TUWk_Gatherv_init" and r["radix"] in ("", "0")} == {
                "same", "random", "spikes", "alternating"}
    # p = 6400, b = 1, Same and Alternating (one start each): the rule goes outward there too
    # (4752 bytes pulled against 4101 on radix-6400-small-current's fit), 19.13 us against the
    # first layout's 21.07 (1.13x the bound of 16.95, was 1.24); TUW_Gatherv_init's the same.
    now, first = medians(run / "raw-6400-node-link.csv"), medians(run / "raw-6400.csv")
    assert "# tuwcoll_init_radix=model link-greedy node-link\n" in (
        run / "raw-6400-node-link.csv").read_text()
    small = SIMULATED / "radix-6400-small-current" / "default"  # the bound, as above
    bound = {r["distribution"]: float(r["logp_bound_us"])
             for r in model_rows(small / "raw.csv", small / "fit.txt")
             if r["op"] == "TUWk_Gatherv" and r["b"] == "1"}
    for dist in ("same", "alternating"):
        assert now["TUWk_Gatherv_init", dist, 1] <= 0.92 * first["TUWk_Gatherv_init", dist, 1]
        assert now["TUWk_Gatherv_init", dist, 1] * 1e6 <= 1.15 * bound[dist]
        assert now["TUW_Gatherv_init", dist, 1] == first["TUW_Gatherv_init", dist, 1]


def test_link_greedy_tree_near_the_bound_at_560():
    """link-greedy-trees: the LogP bound's schedule as a planned gather tree (run by a patched
    Optimal_Gatherv_init, recorded TUWCOLL_TREE_FILE) beside TUWk_Gatherv_init's starts, p = 560.
    b = 1: within 1.06x of the bound (1.04-1.05) and at most 0.85 of the radix tree's starts
    (0.79-0.82) in every distribution with data; b = 10: at most 0.86 of them on Same, Random,
    Spikes, Alternating (0.80-0.85), within 1.5x of the bound on Same and Alternating (1.38,
    1.45), and slower on Decreasing (1.29x: a shape for equal blocks); p = 6400, b = 1 below."""
    run = SIMULATED / "link-greedy-trees"
    fit = SIMULATED / "radix-560-current" / "default" / "fit.txt"
    for b in (1, 10):
        raw = run / f"raw-560-b{b}.csv"
        assert "env.TUWCOLL_TREE_FILE=" in raw.read_text()
        rows = {(r["op"], r["distribution"]): r for r in model_rows(raw, fit)}
        assert len(rows) == 12
        for dist in ("same", "random", "spikes", "decreasing", "alternating"):
            greedy = float(rows["Optimal_Gatherv_init", dist]["measured_median_us"])
            radix = float(rows["TUWk_Gatherv_init", dist]["measured_median_us"])
            bound = float(rows["Optimal_Gatherv_init", dist]["logp_bound_us"])
            if b == 1:
                assert greedy <= 1.06 * bound and greedy <= 0.85 * radix, (dist, greedy, radix)
            elif dist == "decreasing":
                assert greedy > 1.2 * radix, (greedy, radix)
            else:
                assert greedy <= 0.86 * radix, (dist, greedy, radix)
                if dist in ("same", "alternating"):
                    assert greedy <= 1.5 * bound, (dist, greedy, bound)
    # p = 6400, b = 1: even blocks 0.81 of the radix tree's start and 1.24x the bound; uneven
    # ones 1.15-1.30x slower than the radix tree (the shape is the mean block's). One start each:
    # the medians are the raw times; the bound from radix-6400-small-current's b = 1 cases
    # (irrmodel would price these rows' optimal tree for a minute).
    meta, raw = irrcsv.read(run / "raw-6400-b1.csv")
    assert meta["p"] == "6400" and meta["nrep"] == "1" and "env.TUWCOLL_TREE_FILE" in meta
    time = {(r["op"], r["distribution"]): float(r["seconds"]) * 1e6 for r in raw}
    small = SIMULATED / "radix-6400-small-current" / "default"
    bound = {r["distribution"]: float(r["logp_bound_us"])
             for r in model_rows(small / "raw.csv", small / "fit.txt")
             if r["op"] == "TUWk_Gatherv" and r["b"] == "1"}
    for dist in ("same", "random", "spikes", "decreasing", "alternating"):
        greedy, radix = time["Optimal_Gatherv_init", dist], time["TUWk_Gatherv_init", dist]
        if dist in ("same", "alternating"):
            assert greedy <= 0.85 * radix and greedy <= 1.3 * bound[dist], (dist, greedy, radix)
        else:
            assert greedy > 1.1 * radix, (dist, greedy, radix)
