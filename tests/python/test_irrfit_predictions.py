"""irrfit (alpha, beta, gamma from ping-pongs) and irrmodel --from-results (the model beside
each measured case): hand-computed model times, numpy refits, real MPI runs and bad input."""
import io
import os
import subprocess

import numpy as np
import pandas as pd
import pytest

from conftest import LAUNCHERS, MPI_FLAVOURS, ROOT, rank_prefix

IRRMODEL = ROOT / "build" / "openmpi" / "model" / "irrmodel"
HEADER = "op,distribution,b,p,root,m,m_padded,rep,seconds,late,status"


def irrmodel(*args):
    if not IRRMODEL.exists():
        pytest.fail(f"{IRRMODEL} is not built: run scripts/build openmpi")
    return subprocess.run([str(IRRMODEL), *map(str, args)], capture_output=True, text=True,
                          timeout=300)


def irrfit(flavour, np_, *args):
    binary = ROOT / "build" / flavour / "harness" / "irrfit"
    if not binary.exists():
        pytest.fail(f"{binary} is not built: run scripts/build {flavour}")
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    return subprocess.run(LAUNCHERS[flavour] + [str(np_)] + rank_prefix(flavour) +
                          [str(binary), *map(str, args)],
                          capture_output=True, text=True, timeout=300, env=env)


def read_fit(path):
    values, points = {}, []
    for line in path.read_text().splitlines():
        if line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.partition("=")
        if key == "point":
            points.append([float(x) for x in value.split()])
        else:
            values[key] = value
    return values, np.array(points)


def relative_fit(s, t):
    """Least squares on relative errors, both coefficients >= 0 (numpy, independently)."""
    w = 1 / t
    intercept, slope = np.linalg.lstsq(np.column_stack([w, s * w]), np.ones_like(t),
                                       rcond=None)[0]
    if intercept < 0:
        return 0.0, np.sum(s * t / t**2) / np.sum(s**2 / t**2)
    if slope < 0:
        return np.sum(1 / t) / np.sum(1 / t**2), 0.0
    return intercept, slope


@pytest.mark.parametrize("flavour", MPI_FLAVOURS)
def test_irrfit_writes_a_fit_that_numpy_reproduces(flavour, tmp_path):
    out = tmp_path / "fit.txt"
    result = irrfit(flavour, 2, "--max-bytes", 65536, "--nrep", 10, "--out", out)
    assert result.returncode == 0, result.stderr
    values, points = read_fit(out)
    assert values["tool"] == "irrfit" and values["p"] == "2" and values["peer"] == "1"
    assert values["same_node"] == "yes"
    assert list(points[:, 0]) == [4 * 2**k for k in range(15)]  # 4 B .. 64 KiB
    assert (points[:, 1] > 0).all() and (points[:, 3] > 0).all()
    alpha, beta = float(values["alpha_us"]), float(values["beta_us_per_byte"])
    assert alpha >= 0 and beta >= 0 and float(values["gamma_us_per_byte"]) >= 0
    ref_alpha, ref_beta = relative_fit(points[:, 0], points[:, 1])
    # The points are printed with 6 significant digits: agree to well within that.
    assert alpha == pytest.approx(ref_alpha, rel=1e-3, abs=1e-6)
    assert beta == pytest.approx(ref_beta, rel=1e-3, abs=1e-9)
    fitted = alpha + beta * points[:, 0]
    assert points[:, 2] == pytest.approx(fitted, rel=1e-4)
    residual = np.max(np.abs(fitted - points[:, 1]) / points[:, 1])
    assert float(values["max_relative_residual"]) == pytest.approx(residual, rel=1e-2)


def test_irrfit_measures_sizes_between_the_powers_of_two(tmp_path):
    """--sizes-per-octave 3: 4, 5, 6, 8, 10, 13, 16, ... (each octave in three geometric steps,
    rounded to bytes), the line fitted over all of them, the count recorded."""
    out = tmp_path / "fit.txt"
    result = irrfit("openmpi", 2, "--max-bytes", 1024, "--nrep", 3, "--sizes-per-octave", 3,
                    "--out", out)
    assert result.returncode == 0, result.stderr
    values, points = read_fit(out)
    assert values["sizes_per_octave"] == "3"
    assert list(points[:, 0]) == [4, 5, 6, 8, 10, 13, 16, 20, 25, 32, 40, 51, 64, 81, 102, 128,
                                  161, 203, 256, 323, 406, 512, 645, 813, 1024]
    ref_alpha, ref_beta = relative_fit(points[:, 0], points[:, 1])
    assert float(values["alpha_us"]) == pytest.approx(ref_alpha, rel=1e-3, abs=1e-6)
    assert float(values["beta_us_per_byte"]) == pytest.approx(ref_beta, rel=1e-3, abs=1e-9)


@pytest.mark.parametrize("args, np_, message", [
    ([], 1, "a ping-pong needs 2 processes, this run has 1"),
    (["--sizes-per-octave", 0], 2, "--sizes-per-octave: '0' is not an integer >= 1 and <= 16"),
    (["--sizes-per-octave", 17], 2, "--sizes-per-octave: '17' is not an integer >= 1 and <= 16"),
    (["--peer", 2], 2, "--peer: 2 is not a rank of this run (1..1)"),
    (["--nrep", 1], 2, "--nrep: '1' is not an integer >= 3"),
    (["--max-bytes", "lots"], 2, "--max-bytes: 'lots' is not a positive size"),
    (["--out", "/nonexistent/dir/fit.txt"], 2, "--out: cannot write '/nonexistent/dir/fit.txt'"),
    (["--fast"], 2, "unknown option '--fast'"),
])
def test_irrfit_bad_input(args, np_, message):
    result = irrfit("openmpi", np_, *args)
    assert result.returncode == 2
    assert message in result.stderr


def write_raw(path, cases, p=4, root=2, seed=1, rho=5, meta=()):
    """A raw.csv in irrbench's format; cases: (op, dist, b, m, m_padded, [seconds]); meta:
    further (key, value) lines."""
    lines = [f"# tool=irrbench", f"# p={p}", f"# root={root}", f"# seed={seed}",
             f"# rho={rho:.9f}", *[f"# {k}={v}" for k, v in meta], HEADER]
    for op, dist, b, m, m_padded, seconds in cases:
        for rep, t in enumerate(seconds):
            lines.append(f"{op},{dist},{b},{p},{root},{m},{m_padded},{rep},{t:.9f},0,ok")
    path.write_text("\n".join(lines) + "\n")
    return path


def predictions(raw, fit, *extra):
    result = irrmodel("--from-results", raw, "--alpha-beta", fit, "--format", "tsv", *extra)
    assert result.returncode == 0, result.stderr
    return pd.read_csv(io.StringIO(result.stdout), sep="\t"), result.stderr


FIT = "alpha_us=10\nbeta_us_per_byte=0.5\ngamma_us_per_byte=0.25\n"


def test_predictions_hand_computed(tmp_path):
    # p = 4, root 2, Same b = 1: four blocks of 4 bytes; alpha 10, beta 0.5/B, gamma 0.25/B, so
    # a one-block message costs 12, a two-block one 14, the root's copy 1.
    times = [30e-6, 10e-6, 20e-6, 40e-6]
    raw = write_raw(tmp_path / "raw.csv", [
        ("Linear_Gatherv", "same", 1, 4, 4, times),
        ("TUW_Gatherv", "same", 1, 4, 4, times),
        ("TUW_Scatterv", "same", 1, 4, 4, times),
        ("Binomial_Gatherv", "same", 1, 4, 4, times),
        ("MPI_Gatherv", "same", 1, 4, 4, times),
        ("Empty", "same", 1, 4, 4, times),
    ])
    fit = tmp_path / "fit.txt"
    fit.write_text(FIT)
    table, _ = predictions(raw, fit)
    by_op = table.set_index("op")
    assert "Empty" not in by_op.index  # measures the harness, not a tree
    # Linear: copy 1, then three messages of 12 in sequence.
    assert by_op.loc["Linear_Gatherv", "model_us"] == pytest.approx(1 + 3 * 12)
    # TUW/binomial at root 2: round 1 rank 3 -> 2 and 0 -> 1 (copy 1 then 12: ready at 13);
    # round 2 the pair {0, 1} -> 2 with two blocks: 13 + 14.
    for op in ("TUW_Gatherv", "TUW_Scatterv", "Binomial_Gatherv"):
        assert by_op.loc[op, "model_us"] == pytest.approx(27), op
    assert by_op.loc["TUW_Gatherv", "tree"] == "adaptive"
    assert by_op.loc["Binomial_Gatherv", "tree"] == "oblivious"
    # The library's own algorithm has no model tree, but the bounds apply.
    assert np.isnan(by_op.loc["MPI_Gatherv", "model_us"])
    # Lower bound: alpha + beta * 12 bytes from others + gamma * 4 own bytes.
    assert (table["lower_bound_us"] == 10 + 6 + 1).all()
    # No ordered tree rooted at 2 beats 27: [0..1] must reach 2 as one message (ready >= 13)
    # or two (>= 2 * 12 + 12), and [3] as another.
    assert list(table["optimal_us"]) == pytest.approx([27] * len(table))
    # Every case carries all three trees' times, whichever op was measured.
    assert list(table["adaptive_us"]) == pytest.approx([27] * len(table))
    assert list(table["oblivious_us"]) == pytest.approx([27] * len(table))
    assert list(table["linear_us"]) == pytest.approx([37] * len(table))
    # Measured statistics, recomputed.
    assert by_op.loc["TUW_Gatherv", "measured_min_us"] == pytest.approx(10)
    assert by_op.loc["TUW_Gatherv", "measured_median_us"] == pytest.approx(25)
    assert by_op.loc["TUW_Gatherv", "median_over_model"] == pytest.approx(25 / 27, rel=1e-5)


def test_padded_operations_are_held_against_the_padded_problem(tmp_path):
    # Alternating b = 10, p = 4: blocks 15, 5, 15, 5 ints = 60, 20, 60, 20 bytes (m = 40, m' = 60).
    raw = write_raw(tmp_path / "raw.csv", [
        ("MPI_Gather", "alternating", 10, 40, 60, [1e-5] * 3),
        ("MPI_Gatherv", "alternating", 10, 40, 60, [1e-5] * 3),
    ])
    fit = tmp_path / "fit.txt"
    fit.write_text(FIT)
    table, _ = predictions(raw, fit)
    by_op = table.set_index("op")
    assert list(table["problem"]) == ["padded", "irregular"]
    # Padded: four blocks of 60 bytes; root 2 receives 180 bytes and copies 60.
    assert by_op.loc["MPI_Gather", "lower_bound_us"] == pytest.approx(10 + 0.5 * 180 + 0.25 * 60)
    # Irregular: root 2 receives 20 + 60 + 20 bytes and copies its 60.
    assert by_op.loc["MPI_Gatherv", "lower_bound_us"] == pytest.approx(10 + 0.5 * 100 + 0.25 * 60)


def test_missing_gamma_defaults_to_beta_and_says_so(tmp_path):
    raw = write_raw(tmp_path / "raw.csv", [("Linear_Gatherv", "same", 1, 4, 4, [1e-5] * 3)])
    fit = tmp_path / "fit.txt"
    fit.write_text("alpha_us=10\nbeta_us_per_byte=0.5\n")
    table, stderr = predictions(raw, fit)
    assert "local copies cost beta" in stderr
    assert table["model_us"][0] == pytest.approx(0.5 * 4 + 3 * 12)


@pytest.mark.parametrize("fit_text, args, message", [
    (FIT, ["--from-results", "RAW"], "--from-results needs --alpha-beta FILE"),
    (FIT, ["--alpha-beta", "FIT"], "--alpha-beta needs --from-results raw.csv"),
    (FIT, ["--from-results", "RAW", "--alpha-beta", "FIT", "--p", "8"],
     "--p cannot be combined with it"),
    (FIT, ["--from-results", "RAW", "--alpha-beta", "/nonexistent/fit.txt"],
     "--alpha-beta: cannot read '/nonexistent/fit.txt'"),
    ("alpha_us=10\n", ["--from-results", "RAW", "--alpha-beta", "FIT"],
     "has no beta_us_per_byte= line"),
    ("alpha_us=-1\nbeta_us_per_byte=1\n", ["--from-results", "RAW", "--alpha-beta", "FIT"],
     "alpha_us=-1 is not a number >= 0"),
    (FIT, ["--from-results", "/nonexistent/raw.csv", "--alpha-beta", "FIT"],
     "--from-results: cannot read '/nonexistent/raw.csv'"),
    (FIT, ["--from-results", "RAW", "--alpha-beta", "FIT", "--tsv-out", "/nonexistent/m.tsv"],
     "--tsv-out: cannot write '/nonexistent/m.tsv'"),
    (FIT, ["--p", "8", "--tsv-out", "m.tsv"], "--tsv-out needs --from-results raw.csv"),
])
def test_prediction_bad_input(tmp_path, fit_text, args, message):
    raw = write_raw(tmp_path / "raw.csv", [("TUW_Gatherv", "same", 1, 4, 4, [1e-5] * 3)])
    fit = tmp_path / "fit.txt"
    fit.write_text(fit_text)
    args = [str(raw) if a == "RAW" else str(fit) if a == "FIT" else a for a in args]
    result = irrmodel(*args)
    assert result.returncode == 2
    assert message in result.stderr
    assert "Traceback" not in result.stderr and result.stdout == ""


def test_a_forced_scatter_step_is_priced_as_recorded(tmp_path):
    """TUWk_Scatterv's small call on the tree the run recorded: a TUWCOLL_SCATTER_STEP run on
    its forced step (0: the radix tree), a run on the model's choice on the model's step (the
    star at p = 4 with L = 10, o = 1: tests/test_loggp.cpp's 14 against the radix-2 tree's 24)."""
    fit = tmp_path / "fit.txt"
    fit.write_text("alpha_us=12\nbeta_us_per_byte=0\ngamma_us_per_byte=0\n"
                   "overhead_us=1\ngap_us=1\n")
    loggp = {}
    two_level = f"{2 + 128 * 1 + 16384 * 2} TUWCOLL_SCATTER_STEP"  # 2/1 over nodes of 2 ranks
    for record in ("3 model", "0 TUWCOLL_SCATTER_STEP", "3 TUWCOLL_SCATTER_STEP",
                   "2 TUWCOLL_SCATTER_STEP", two_level):
        raw = write_raw(tmp_path / f"{record.replace(' ', '-')}.csv",
                        [("TUWk_Scatterv", "same", 1, 4, 4, [20e-6] * 3)], root=0,
                        meta=[("tuwcoll_radix", "TUWk=2 Binomialk=2 TUWk_init=2"),
                              ("sync", "window"), ("tuwcoll_scatter_step", record)])
        table, _ = predictions(raw, fit)
        loggp[record] = float(table.set_index("op").loc["TUWk_Scatterv", "loggp_us"])
    assert loggp["3 model"] == pytest.approx(14)
    assert loggp["3 TUWCOLL_SCATTER_STEP"] == pytest.approx(14)
    assert loggp["0 TUWCOLL_SCATTER_STEP"] == pytest.approx(24)
    assert loggp["2 TUWCOLL_SCATTER_STEP"] == pytest.approx(24)
    # Two levels: 0 sends node 1 ([2, 3]) to 2 at 0 (there at 12), then its node's 1 at 1 (13);
    # 2 sends 3 at 12: 24 (the run records no ranks a node: every hop at the network's costs).
    assert loggp[two_level] == pytest.approx(24)
    for bad in ("9", "x model", "65 TUWCOLL_SCATTER_STEP", "-1 TUWCOLL_SCATTER_STEP",
                "3 TUWCOLL_RADIX", "3 model-by-size4",
                f"{128 * 2 + 16384 * 2} TUWCOLL_SCATTER_STEP",
                "2147483648 TUWCOLL_SCATTER_STEP"):
        raw = write_raw(tmp_path / "bad.csv", [("TUWk_Scatterv", "same", 1, 4, 4, [20e-6])],
                        meta=[("tuwcoll_scatter_step", bad)])
        result = irrmodel("--from-results", raw, "--alpha-beta", fit, "--format", "tsv")
        assert result.returncode == 2, (bad, result.stderr)
        assert f"tuwcoll_scatter_step={bad} is not" in result.stderr, result.stderr


def test_each_radix_family_is_priced_at_its_recorded_radix(tmp_path):
    """tuwcoll_radix in one form for the setting and the record: TUWk_Gatherv at its own radix
    where the record names it (a 4-rank gather at radix 4 is one round, at 2 two: different
    times), else TUWk's (files before it had its own); the run's TUWCOLL_RADIX where there is no
    record; a bad record named, exit 2; a bad TUWCOLL_RADIX in a run without -k rows (never read
    by the library) no error."""
    fit = tmp_path / "fit.txt"
    fit.write_text("alpha_us=12\nbeta_us_per_byte=0\ngamma_us_per_byte=0\n"
                   "overhead_us=1\ngap_us=1\n")
    cases = [("TUWk_Gatherv", "same", 1, 4, 4, [20e-6] * 3)]
    radix = {}
    records = {"own": ("tuwcoll_radix", "TUWk=2 Binomialk=2 TUWk_init=2 TUWk_Gatherv=4"),
               "family": ("tuwcoll_radix", "TUWk=2 Binomialk=2 TUWk_init=2"),
               "setting": ("env.TUWCOLL_RADIX", "TUWk_Gatherv=4")}
    for name, record in records.items():
        meta = [record]
        table, _ = predictions(write_raw(tmp_path / f"{name}.csv", cases, root=0, meta=meta), fit)
        row = table.set_index("op").loc["TUWk_Gatherv"]
        radix[name] = (int(row["radix"]), float(row["loggp_us"]))
    assert radix["own"][0] == radix["setting"][0] == 4 and radix["family"][0] == 2
    assert radix["own"][1] == radix["setting"][1] != radix["family"][1]
    bad = write_raw(tmp_path / "bad.csv", cases, meta=[("tuwcoll_radix", "TUWk=4 TUWk_gather=5")])
    result = irrmodel("--from-results", bad, "--alpha-beta", fit, "--format", "tsv")
    assert result.returncode == 2 and "tuwcoll_radix=TUWk=4 TUWk_gather=5 is not" in result.stderr
    plain = write_raw(tmp_path / "plain.csv", [("TUW_Gatherv", "same", 1, 4, 4, [20e-6] * 3)],
                      meta=[("env.TUWCOLL_RADIX", "1")])
    assert irrmodel("--from-results", plain, "--alpha-beta", fit).returncode == 0


def test_a_heavy_block_takes_the_radix_tree(tmp_path):
    """A build of the rule "S model-heavy-radix" sends a small call with a block above 4 KiB
    (tree::kHeavyBlockBytes) on the radix tree (24, as a forced 0 above), one of lighter blocks on
    the model's shape (the star, 14); the builds before put both on the shape. No bytes cost time
    on this fit, so only the tree tells them apart."""
    fit = tmp_path / "fit.txt"
    fit.write_text("alpha_us=12\nbeta_us_per_byte=0\ngamma_us_per_byte=0\n"
                   "overhead_us=1\ngap_us=1\n")
    loggp = {}
    for record in ("3 model-heavy-radix", "3 model-by-size3-rates"):
        for b in (1000, 1025):  # 4000 and 4100 bytes a block (MPI_INT)
            raw = write_raw(tmp_path / f"{record.replace(' ', '-')}-{b}.csv",
                            [("TUWk_Scatterv", "same", b, 4 * b, 4 * b, [20e-6] * 3)], root=0,
                            meta=[("tuwcoll_radix", "TUWk=2 Binomialk=2 TUWk_init=2"),
                                  ("sync", "window"), ("tuwcoll_scatter_step", record)])
            table, _ = predictions(raw, fit)
            loggp[record, b] = float(table.set_index("op").loc["TUWk_Scatterv", "loggp_us"])
    assert loggp["3 model-heavy-radix", 1000] == pytest.approx(14)
    assert loggp["3 model-heavy-radix", 1025] == pytest.approx(24)
    assert loggp["3 model-by-size3-rates", 1000] == pytest.approx(14)
    assert loggp["3 model-by-size3-rates", 1025] == pytest.approx(14)


def test_a_large_scatter_call_is_priced_at_its_recorded_radix(tmp_path):
    """A TUWk_Scatterv call too large for one message a child (4 blocks of 560 000 bytes) at the
    radix the run recorded for it: "model" the model's for its size class (the row's radix, the
    time of that radix forced), "R TUWCOLL_RADIX" R, no record (the builds before) tuwcoll_radix's
    TUWk; a small call of the same run keeps TUWk's radix. A bad record named, exit 2."""
    fit = tmp_path / "fit.txt"
    fit.write_text("alpha_us=12\nbeta_us_per_byte=1e-4\ngamma_us_per_byte=0\n"
                   "overhead_us=1\ngap_us=1\n")
    cases = [("TUWk_Scatterv", "same", 140000, 560000, 560000, [20e-6] * 3),
             ("TUWk_Scatterv", "same", 1, 4, 4, [20e-6] * 3)]
    priced = {}
    for record in ("model", "2 TUWCOLL_RADIX", "4 TUWCOLL_RADIX", None):
        meta = [("tuwcoll_radix", "TUWk=4 Binomialk=2 TUWk_init=2"), ("sync", "window"),
                ("tuwcoll_scatter_step", "0 model-heavy-radix")]
        if record:
            meta.append(("tuwcoll_large_scatter_radix", record))
        table, _ = predictions(write_raw(tmp_path / f"{record}.csv".replace(" ", "-"), cases,
                                         root=0, meta=meta), fit)
        rows = table.set_index("b")
        priced[record] = (int(rows.loc[140000, "radix"]), float(rows.loc[140000, "loggp_us"]))
        assert int(rows.loc[1, "radix"]) == 4, record
    assert priced[None] == priced["4 TUWCOLL_RADIX"] and priced[None][0] == 4
    assert priced["2 TUWCOLL_RADIX"][0] == 2
    model_radix, model_us = priced["model"]
    assert model_us <= min(priced["2 TUWCOLL_RADIX"][1], priced["4 TUWCOLL_RADIX"][1])
    assert priced[f"{model_radix} TUWCOLL_RADIX"] == priced["model"]
    for bad in ("1 TUWCOLL_RADIX", "65 TUWCOLL_RADIX", "modelled", "4", "x TUWCOLL_RADIX"):
        raw = write_raw(tmp_path / "bad.csv", cases[:1],
                        meta=[("tuwcoll_large_scatter_radix", bad)])
        result = irrmodel("--from-results", raw, "--alpha-beta", fit, "--format", "tsv")
        assert result.returncode == 2, (bad, result.stderr)
        assert f"tuwcoll_large_scatter_radix={bad} is not" in result.stderr, result.stderr


def test_a_persistent_request_is_priced_at_its_roots_radix(tmp_path):
    """TUWk_Scatterv_init and TUWk_Gatherv_init at the radix the run recorded for a persistent
    request: "model" the root's choice on the case's blocks (the fastest start of every candidate,
    each priced with its radix forced), "R TUWCOLL_RADIX" R, no record (the builds before)
    tuwcoll_radix's TUWk_init; tiny and large blocks may differ. A bad record named, exit 2."""
    fit = tmp_path / "fit.txt"
    fit.write_text("alpha_us=12\nbeta_us_per_byte=1e-4\ngamma_us_per_byte=0\n"
                   "overhead_us=1\ngap_us=1\n")
    cases = [(op, "same", b, 9 * b, 9 * b, [20e-6] * 3)
             for op in ("TUWk_Scatterv_init", "TUWk_Gatherv_init") for b in (1, 100000)]
    priced = {}
    for record in ["model", None] + [f"{r} TUWCOLL_RADIX" for r in (2, 3, 9)]:
        meta = [("tuwcoll_radix", "TUWk=4 Binomialk=2 TUWk_init=9"), ("sync", "window")]
        if record:
            meta.append(("tuwcoll_init_radix", record))
        table, _ = predictions(write_raw(tmp_path / f"{record}.csv".replace(" ", "-"), cases,
                                         p=9, root=0, meta=meta), fit)
        for _, row in table.iterrows():
            priced[record, row["op"], int(row["b"])] = (int(row["radix"]), float(row["loggp_us"]))
    for op in ("TUWk_Scatterv_init", "TUWk_Gatherv_init"):
        for b in (1, 100000):
            assert priced[None, op, b] == priced["9 TUWCOLL_RADIX", op, b]
            assert priced[None, op, b][0] == 9
            assert priced["2 TUWCOLL_RADIX", op, b][0] == 2
            radix, us = priced["model", op, b]
            assert us <= min(priced[f"{r} TUWCOLL_RADIX", op, b][1] for r in (2, 3, 9)), (op, b)
            assert radix in (2, 3, 9), (op, b, radix)  # the candidates at p = 9
            assert priced[f"{radix} TUWCOLL_RADIX", op, b] == (radix, us)
    # and the choice follows the blocks: the star (one round of 12 us) at 1 byte, a deeper tree at
    # 100 KB (priced 335-366 us, against the star's more)
    assert priced["model", "TUWk_Scatterv_init", 1][0] == 9
    assert priced["model", "TUWk_Gatherv_init", 1][0] == 9
    assert priced["model", "TUWk_Scatterv_init", 100000][0] < 9
    assert priced["model", "TUWk_Gatherv_init", 100000][0] < 9
    for bad in ("1 TUWCOLL_RADIX", "65 TUWCOLL_RADIX", "models", "4"):
        raw = write_raw(tmp_path / "bad.csv", cases[:1], p=9,
                        meta=[("tuwcoll_init_radix", bad)])
        result = irrmodel("--from-results", raw, "--alpha-beta", fit, "--format", "tsv")
        assert result.returncode == 2, (bad, result.stderr)
        assert f"tuwcoll_init_radix={bad} is not" in result.stderr, result.stderr


def test_tuwk_gatherv_is_priced_in_the_pieces_the_run_recorded(tmp_path):
    """TUWk_Gatherv's transfers in the pieces the run recorded: on a fit whose curve (alpha 12)
    moves 400-600 bytes at 0.02 us/B after a protocol switch and other sizes at 0.05, a gather of
    4 blocks of 1200 bytes on radix 2 has edges of 1200 and 2400 bytes, which "model" cuts into
    pieces of 600 (a piece 16 us on the wire, 1200 bytes in one message 46); "600
    TUWCOLL_GATHER_PIECES" prices the same, "0 ..." and no record (the builds before) one message
    an edge. TUWk_Gatherv_init's starts go in the same pieces (its tree is TUW_Gatherv_init's at
    radix 2, so without pieces both cost the same); TUW_Gatherv_init's never. A bad record named,
    exit 2."""
    fit = tmp_path / "fit.txt"
    curve = {100: 17, 200: 22, 300: 27, 400: 24, 500: 26, 600: 28, 700: 33, 800: 38, 900: 43}
    fit.write_text("alpha_us=12\nbeta_us_per_byte=0.05\ngamma_us_per_byte=0\n"
                   "overhead_us=1\ngap_us=1\n" +
                   "".join(f"point={b} {t} {t} 0\n" for b, t in curve.items()))
    cases = [(op, "same", 300, 1200, 1200, [20e-6] * 3)
             for op in ("TUWk_Gatherv", "TUWk_Gatherv_init", "TUW_Gatherv_init")]
    priced, persistent = {}, {}
    for record in ("model", "600 TUWCOLL_GATHER_PIECES", "0 TUWCOLL_GATHER_PIECES", None):
        meta = [("tuwcoll_radix", "TUWk=2 Binomialk=2 TUWk_init=2 TUWk_Gatherv=2"),
                ("sync", "window")]
        if record:
            meta.append(("tuwcoll_gather_pieces", record))
        table, _ = predictions(write_raw(tmp_path / f"{record}.csv".replace(" ", "-"), cases,
                                         root=0, meta=meta), fit)
        by_op = table.set_index("op")["loggp_us"].astype(float)
        priced[record] = by_op["TUWk_Gatherv"]
        persistent[record] = (by_op["TUWk_Gatherv_init"], by_op["TUW_Gatherv_init"])
    assert priced["model"] == pytest.approx(priced["600 TUWCOLL_GATHER_PIECES"])
    assert priced["0 TUWCOLL_GATHER_PIECES"] == pytest.approx(priced[None])
    assert priced["model"] < priced[None] - 20, priced
    tuw_init = persistent[None][1]
    assert persistent[None][0] == pytest.approx(tuw_init), persistent
    assert persistent["0 TUWCOLL_GATHER_PIECES"][0] == pytest.approx(tuw_init), persistent
    assert persistent["model"][0] == pytest.approx(persistent["600 TUWCOLL_GATHER_PIECES"][0])
    assert persistent["model"][0] < tuw_init - 20, persistent
    assert all(t == pytest.approx(tuw_init) for _, t in persistent.values()), persistent
    for bad in ("modelled", "600", "-5 TUWCOLL_GATHER_PIECES", "x TUWCOLL_GATHER_PIECES"):
        raw = write_raw(tmp_path / "bad.csv", cases, meta=[("tuwcoll_gather_pieces", bad)])
        result = irrmodel("--from-results", raw, "--alpha-beta", fit, "--format", "tsv")
        assert result.returncode == 2, (bad, result.stderr)
        assert f"tuwcoll_gather_pieces={bad} is not" in result.stderr, result.stderr


def test_one_run_writes_the_table_and_the_tsv(tmp_path):
    """--tsv-out: the tsv of the same run, byte for byte what --format tsv prints (analyse-run
    writes model.txt and model.tsv from one run of the model)."""
    raw = write_raw(tmp_path / "raw.csv", [("TUW_Gatherv", "same", 1, 4, 4, [1e-5] * 3),
                                           ("Linear_Scatterv", "random", 10, 27, 40, [2e-5] * 3)])
    fit = tmp_path / "fit.txt"
    fit.write_text(FIT)
    both = irrmodel("--from-results", raw, "--alpha-beta", fit, "--tsv-out", tmp_path / "m.tsv")
    tsv = irrmodel("--from-results", raw, "--alpha-beta", fit, "--format", "tsv")
    assert both.returncode == 0 and tsv.returncode == 0, both.stderr
    assert "Linear_Scatterv" in both.stdout and "\t" not in both.stdout.splitlines()[-1]
    assert (tmp_path / "m.tsv").read_text() == tsv.stdout


def test_prediction_rejects_files_it_cannot_regenerate(tmp_path):
    fit = tmp_path / "fit.txt"
    fit.write_text(FIT)
    not_raw = tmp_path / "summary.csv"
    not_raw.write_text("op,distribution,b\nMPI_Gatherv,same,1\n")
    result = irrmodel("--from-results", not_raw, "--alpha-beta", fit)
    assert result.returncode == 2 and "is not an irrbench raw.csv" in result.stderr
    raw = write_raw(tmp_path / "raw.csv", [("TUW_Gatherv", "same", 1, 5, 4, [1e-5] * 3)])
    result = irrmodel("--from-results", raw, "--alpha-beta", fit)
    assert result.returncode == 2
    assert "regenerates to m=4, m'=4 but the file has m=5, m'=4" in result.stderr


def test_real_run_end_to_end(openmpi, tmp_path):
    """irrbench + irrfit under Open MPI, then the model beside every measured case."""
    raw = tmp_path / "raw.csv"
    bench = openmpi.run(3, "--ops", "MPI_Gatherv,TUW_Gatherv,Linear_Scatterv,MPI_Gather",
                        "--dists", "same,spikes", "--b", "1,10", "--nrep", 5, "--out", raw)
    assert bench.returncode == 0, bench.stderr
    fit = tmp_path / "fit.txt"
    assert irrfit("openmpi", 2, "--max-bytes", 4096, "--nrep", 5,
                  "--out", fit).returncode == 0
    table, _ = predictions(raw, fit)
    assert len(table) == 2 * 2 * 4
    assert set(table["op"]) == {"MPI_Gatherv", "TUW_Gatherv", "Linear_Scatterv", "MPI_Gather"}
    modelled = table[table["tree"].notna()]
    assert set(modelled["op"]) == {"TUW_Gatherv", "Linear_Scatterv"}
    assert (modelled["model_us"] > 0).all()
    # model.tsv prints six significant digits (%.6g): two equal times may round 1e-6 apart.
    printed = 1 - 1e-5
    assert (table["optimal_us"] >= table["lower_bound_us"] * printed).all()
    assert (modelled["model_us"] >= modelled["optimal_us"] * printed).all()
    # Linear model time: copy + (p - 1) messages, each alpha + beta * bytes (p = 3, root 1).
    values, _ = read_fit(fit)
    alpha, beta = float(values["alpha_us"]), float(values["beta_us_per_byte"])
    gamma = float(values["gamma_us_per_byte"])
    same_1 = modelled[(modelled["distribution"] == "same") & (modelled["b"] == 1)].iloc[0]
    assert same_1["model_us"] == pytest.approx(gamma * 4 + 2 * (alpha + 4 * beta), rel=1e-5)


def test_persistent_break_even_hand_computed(tmp_path):
    # The case of test_predictions_hand_computed (p = 4, root 2, Same b = 1; alpha 10, beta
    # 0.5/B): TUW's adaptive tree and the optimal one both take 27 us there; TUW's plain call
    # is modelled with ceil(log2 4) = 2 construction rounds of alpha + 32 beta = 26 us each.
    raw = write_raw(tmp_path / "raw.csv", [
        ("TUW_Gatherv", "same", 1, 4, 4, [100e-6] * 3),
        ("TUW_Gatherv_init", "same", 1, 4, 4, [40e-6] * 3),
        ("TUW_Gatherv_setup", "same", 1, 4, 4, [300e-6] * 3),
        ("Optimal_Gatherv_init", "same", 1, 4, 4, [30e-6] * 3),
        ("Optimal_Gatherv_setup", "same", 1, 4, 4, [700e-6] * 3),
        ("MPI_Gatherv", "same", 1, 4, 4, [50e-6] * 3),
        ("MPI_Gatherv_init", "same", 1, 4, 4, [60e-6] * 3),
        ("MPI_Gatherv_setup", "same", 1, 4, 4, [5e-6] * 3),
    ])
    fit = tmp_path / "fit.txt"
    fit.write_text(FIT)
    table, _ = predictions(raw, fit)
    by_op = table.set_index("op")
    # The optimal tree gains nothing over the adaptive one here (27 us both): the root runs the
    # adaptive tree (less than 5 % gain), which the tree column says.
    assert by_op.loc["Optimal_Gatherv_init", "tree"] == "optimal-adaptive"
    assert by_op.loc["Optimal_Gatherv_init", "model_us"] == pytest.approx(27)
    # Measured: setup / (plain - persistent); Optimal is held against TUW's plain call.
    assert by_op.loc["TUW_Gatherv_init", "setup_us"] == pytest.approx(300)
    assert by_op.loc["TUW_Gatherv_init", "break_even_calls"] == pytest.approx(300 / (100 - 40), rel=1e-5)
    assert by_op.loc["Optimal_Gatherv_init", "break_even_calls"] == pytest.approx(700 / (100 - 30), rel=1e-5)
    # Model: the plain TUW call is its tree plus the construction, the persistent one its tree.
    construction = 2 * (10 + 0.5 * 32)
    assert by_op.loc["TUW_Gatherv_init", "model_break_even_calls"] == pytest.approx(
        300 / construction, rel=1e-5)
    assert by_op.loc["Optimal_Gatherv_init", "model_break_even_calls"] == pytest.approx(
        700 / (27 + construction - 27), rel=1e-5)
    # The library's persistent call is slower than its plain one: it never pays off (empty);
    # it has no model tree either. Plain and setup rows carry none of these columns.
    assert by_op.loc["MPI_Gatherv_init", "setup_us"] == pytest.approx(5)
    assert np.isnan(by_op.loc["MPI_Gatherv_init", "break_even_calls"])
    assert np.isnan(by_op.loc["MPI_Gatherv_init", "model_break_even_calls"])
    for op in ("TUW_Gatherv", "TUW_Gatherv_setup", "MPI_Gatherv"):
        assert np.isnan(by_op.loc[op, "setup_us"]), op


def test_node_aware_tree_hand_computed(tmp_path):
    # p = 4 on two nodes {0, 1} and {2, 3} (irrbench's node_starts "0 2"), root 2, Same b = 10:
    # blocks of 40 B, each node 80 B. beta * 160 B / 2 nodes = 40 us >= alpha = 10 us, so
    # Optimal_*_init runs the node-aware tree: the root gathers its node for free, copies it
    # (gamma * 80 = 20) and receives node 0's 80 B from its leader (10 + 0.5 * 80 = 50): 70 us,
    # gather and scatter alike.
    cases = [("Optimal_Gatherv_init", "same", 10, 40, 40, [60e-6] * 3),
             ("Optimal_Scatterv_init", "same", 10, 40, 40, [60e-6] * 3)]
    fit = tmp_path / "fit.txt"
    fit.write_text(FIT)
    table, _ = predictions(write_raw(tmp_path / "raw.csv", cases, meta=[("node_starts", "0 2")]),
                           fit)
    for op in ("Optimal_Gatherv_init", "Optimal_Scatterv_init"):
        row = table.set_index("op").loc[op]
        assert row["tree"] == "optimal-nodes"
        assert row["model_us"] == pytest.approx(70)
    # One process per node, unknown or non-contiguous nodes: the one-level rule.
    for meta in ([("node_starts", "0 1 2 3")], [], [("node_starts", "non-contiguous")]):
        table, _ = predictions(write_raw(tmp_path / "raw.csv", cases, meta=meta), fit)
        assert set(table["tree"]) <= {"optimal", "optimal-adaptive"}, meta


def test_two_level_model_hand_computed(tmp_path):
    # p = 4 on two nodes {0, 1} and {2, 3}, root 2, Same b = 1: blocks of 4 B. Across nodes
    # alpha 10, beta 0.5/B (a block: 12); inside a node alpha 2, beta 0.25/B (a block: 3);
    # gamma 0.25/B (the root's copy: 1). The star (Linear_*): 1 + 12 + 12 + 3 = 28 (one level:
    # 1 + 3 * 12 = 37), gather and scatter alike. The bound: the cheaper level for all 12 B,
    # 2 + 0.25 * 12 + 1 = 6 (one level: 10 + 6 + 1 = 17).
    cases = [("Linear_Gatherv", "same", 1, 4, 4, [30e-6] * 3),
             ("Linear_Scatterv", "same", 1, 4, 4, [30e-6] * 3),
             ("TUW_Gatherv", "same", 1, 4, 4, [30e-6] * 3)]
    raw = write_raw(tmp_path / "raw.csv", cases, meta=[("node_starts", "0 2")])
    fit = tmp_path / "fit.txt"
    fit.write_text(FIT + "alpha_local_us=2\nbeta_local_us_per_byte=0.25\n")
    one, _ = predictions(raw, fit)
    two, _ = predictions(raw, fit, "--two-level")
    one, two = one.set_index("op"), two.set_index("op")
    for op in ("Linear_Gatherv", "Linear_Scatterv"):
        assert one.loc[op, "model_us"] == pytest.approx(37)
        assert two.loc[op, "model_us"] == pytest.approx(28)
        assert one.loc[op, "lower_bound_us"] == pytest.approx(17)
        assert two.loc[op, "lower_bound_us"] == pytest.approx(6)
    # The DP's optimum stays one-level; the adaptive tree cannot get dearer with cheaper messages.
    assert (two["optimal_us"] == one["optimal_us"]).all()
    assert two.loc["TUW_Gatherv", "model_us"] < one.loc["TUW_Gatherv", "model_us"]
    # Inside a node at the costs across: the one-level model, every column.
    fit.write_text(FIT + "alpha_local_us=10\nbeta_local_us_per_byte=0.5\n")
    same, _ = predictions(raw, fit, "--two-level")
    pd.testing.assert_frame_equal(same.set_index("op"), one)


@pytest.mark.parametrize("fit_extra,meta,message", [
    ("", [("node_starts", "0 2")], "the fit file has no alpha_local_us"),
    ("alpha_local_us=2\nbeta_local_us_per_byte=0.25\n", [], "node_starts=absent"),
    ("alpha_local_us=2\nbeta_local_us_per_byte=0.25\n", [("node_starts", "non-contiguous")],
     "node_starts=non-contiguous"),
    ("alpha_local_us=2\n", [("node_starts", "0 2")], "only one of alpha_local_us"),
])
def test_two_level_refusals_named(tmp_path, fit_extra, meta, message):
    raw = write_raw(tmp_path / "raw.csv", [("Linear_Gatherv", "same", 1, 4, 4, [3e-5])], meta=meta)
    fit = tmp_path / "fit.txt"
    fit.write_text(FIT + fit_extra)
    result = irrmodel("--from-results", raw, "--alpha-beta", fit, "--two-level")
    assert result.returncode == 2 and message in result.stderr, result.stderr
    assert "Traceback" not in result.stderr and result.stdout == ""


# irrfit's point lines (bytes, one-way us, fitted us, copy us, one-way us inside a node): 4 B
# cost 3 across nodes and 1 inside, 8 B 5 and 1.5, 16 B 9 and 2.5 - not on FIT's line.
POINTS = "point=4 3 12 0.1 1\npoint=8 5 14 0.1 1.5\npoint=16 9 18 0.1 2.5\n"


def test_measured_costs_hand_computed(tmp_path):
    # p = 4 on nodes {0, 1} and {2, 3}, root 2, Same b = 1 (blocks of 4 B), the root's copy 1.
    # One level: the star 1 + 3 * 3 = 10; TUW's tree: 0 -> 1 and 3 -> 2 ready at 1 + 3 = 4, then
    # {0, 1} -> 2 with 8 B: 4 + 5 = 9. Two levels: the star 1 + 3 + 3 + 1 (rank 3 inside) = 8;
    # TUW: 0 -> 1 and 3 -> 2 inside, 1 + 1 = 2, then 2 + 5 = 7. Gather and scatter alike.
    cases = [("Linear_Gatherv", "same", 1, 4, 4, [30e-6] * 3),
             ("Linear_Scatterv", "same", 1, 4, 4, [30e-6] * 3),
             ("TUW_Gatherv", "same", 1, 4, 4, [30e-6] * 3),
             ("TUW_Scatterv", "same", 1, 4, 4, [30e-6] * 3)]
    raw = write_raw(tmp_path / "raw.csv", cases, meta=[("node_starts", "0 2")])
    fit = tmp_path / "fit.txt"
    fit.write_text(FIT + "alpha_local_us=2\nbeta_local_us_per_byte=0.25\n" + POINTS)
    line, _ = predictions(raw, fit)
    one, _ = predictions(raw, fit, "--measured-costs")
    two, _ = predictions(raw, fit, "--measured-costs", "--two-level")
    one, two, line = one.set_index("op"), two.set_index("op"), line.set_index("op")
    expected = {"Linear": (10, 8), "TUW": (9, 7)}
    for op in cases:
        one_level, two_levels = expected[op[0].split("_")[0]]
        assert one.loc[op[0], "model_us"] == pytest.approx(one_level), op
        assert two.loc[op[0], "model_us"] == pytest.approx(two_levels), op
    assert line.loc["Linear_Gatherv", "model_us"] == pytest.approx(37)  # the line: 1 + 3 * 12
    # The DP's optimum and the bound stay the linear model's.
    for frame in (one, two):
        assert (frame["optimal_us"] == line["optimal_us"]).all()
    assert (one["lower_bound_us"] == line["lower_bound_us"]).all()
    table = irrmodel("--from-results", raw, "--alpha-beta", fit, "--measured-costs")
    assert "Measured costs: each message at the fit's measured one-way time" in table.stdout


@pytest.mark.parametrize("points,args,message", [
    ("", ["--measured-costs"], "--measured-costs: the fit file has fewer than two point= lines"),
    ("point=4 3 12 0.1\npoint=8 5 14 0.1\n", ["--measured-costs", "--two-level"],
     "have no fifth column"),
    ("point=4 3 12\n", [], "point=4 3 12 is not 4 or 5 numbers >= 0"),
    ("point=8 5 14 0.1\npoint=4 3 12 0.1\n", ["--measured-costs"],
     "point=4 3 12 0.1 is not a larger size than the line before it"),
])
def test_measured_costs_refusals_named(tmp_path, points, args, message):
    raw = write_raw(tmp_path / "raw.csv", [("Linear_Gatherv", "same", 1, 4, 4, [3e-5])],
                    meta=[("node_starts", "0 2")])
    fit = tmp_path / "fit.txt"
    fit.write_text(FIT + "alpha_local_us=2\nbeta_local_us_per_byte=0.25\n" + points)
    result = irrmodel("--from-results", raw, "--alpha-beta", fit, *args)
    assert result.returncode == 2 and message in result.stderr, result.stderr
    assert "Traceback" not in result.stderr and result.stdout == ""


def test_measured_costs_need_results():
    result = irrmodel("--measured-costs")
    assert result.returncode == 2
    assert "--measured-costs needs --from-results raw.csv" in result.stderr


def test_bad_node_starts_named(tmp_path):
    fit = tmp_path / "fit.txt"
    fit.write_text(FIT)
    raw = write_raw(tmp_path / "raw.csv", [("Optimal_Gatherv_init", "same", 10, 40, 40, [6e-5])],
                    meta=[("node_starts", "2 0")])
    result = irrmodel("--from-results", raw, "--alpha-beta", fit)
    assert result.returncode == 2
    assert "node_starts='2 0'" in result.stderr
