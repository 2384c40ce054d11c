"""irrtune: the recommendation, the three tuning formats, and the round trip under both MPI
libraries - sweep, file, re-run with the file - with proof that the library selected what the
file says: irrprobe's signature (who waits for a delayed rank) under the file equals the one the
library's own algorithm variable gives."""
import csv
import json
import math
import os
import subprocess
import sys

import pytest

from conftest import ROOT, rank_prefix

sys.path.insert(0, str(ROOT / "guidelines"))
from irrguide import analysis, tune, tuning_files  # noqa: E402
from irrguide.libraries import LIBRARIES  # noqa: E402

PAPER = [str(ROOT / "results" / "paper" / f"traff2017_table{i}.csv") for i in range(6, 12)]
IRRTUNE = str(ROOT / "guidelines" / "irrtune")
SWEEP = str(ROOT / "slurm" / "sweep")
ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")


def read_summary(path):
    with open(path) as f:
        rows = csv.DictReader(line for line in f if not line.startswith("#"))
        return {(r["op"], r["distribution"], int(r["b"])): float(r["avg_us"]) for r in rows}


def test_intel_lines_follow_the_reference_grammar():
    # The reference's own forms (I_MPI_ADJUST family): <id>, <id>:<l>-<m>, <l>@<p>, lists.
    for good in ("2", "4:0-100,5001-10000;1:101-3200;2:3201-5000;3", "1:0-2048@1-64;3",
                 "3:4096@128"):
        assert tuning_files.parse_intel_value(good) is not None, good
    for bad in ("", "1:", "1;;2", "a:0-10", "1:10-5", "1:0-10@8-4", "1:0-10@"):
        assert tuning_files.parse_intel_value(bad) is None, bad
    ranges = [tuning_files.Range(0, 99, "1"), tuning_files.Range(100, None, "default")]
    intel = LIBRARIES["intel"]
    text = tuning_files.write("intel", [(intel.variables[0], {16: ranges}),
                                        (intel.variables[1], {16: [tuning_files.Range(
                                            0, None, "3")]})], ["t"])
    assert 'I_MPI_ADJUST_GATHER="1:0-99;0:100-2147483647"' in text
    assert 'I_MPI_ADJUST_GATHERV="3"' in text
    # two process counts: @p-q conditions split at the geometric midpoint of 16 and 64 (32)
    text = tuning_files.write("intel", [(intel.variables[0], {16: ranges, 64: ranges[:1]})], [])
    assert '"1:0-99@1-32;0:100-2147483647@1-32;1:0-99@33-2147483647"' in text


def test_several_process_counts_become_the_files_own_conditions():
    """p = 4 and 16: the boundary between them at the geometric midpoint, 8 (rules from 9)."""
    openmpi, mpich = LIBRARIES["openmpi"], LIBRARIES["mpich"]
    low = [tuning_files.Range(0, 7999, "2"), tuning_files.Range(8000, None, "default")]
    high = [tuning_files.Range(0, None, "1")]
    rules = tuning_files.write("openmpi", [(openmpi.variables[0], {4: low, 16: high})], [])
    numbers = [line.split("#")[0].split() for line in rules.splitlines()]
    assert [n for n in numbers if n] == [["1"], ["9"], ["2"], ["1"], ["2"], ["0", "2", "0", "0"],
                                         ["8000", "0", "0", "0"], ["9"], ["1"],
                                         ["0", "1", "0", "0"]]
    tree = json.loads(tuning_files.write("mpich", [(mpich.variables[0], {
        4: [tuning_files.Range(0, 1999, "nb"), tuning_files.Range(2000, None, "default")],
        16: [tuning_files.Range(0, None, "nb")]})], []))
    gather = tree["collective=gather"]
    builtin = tuning_files.mpich_default_tree()["collective=gather"]
    assert gather["comm_type=intra"] == {
        "comm_size<=8": {"total_msg_size<=1999": {"algorithm=MPIR_Gather_allcomm_nb": {}},
                         "total_msg_size=any": builtin["comm_type=intra"]},
        "comm_size=any": {"algorithm=MPIR_Gather_allcomm_nb": {}}}
    assert gather["comm_type=inter"] == builtin["comm_type=inter"]
    assert tree["collective=bcast"] == tuning_files.mpich_default_tree()["collective=bcast"]


def test_paper_settings_recommendation_matches_the_tables(tmp_path):
    """Tables 6-11 (Intel MPI 2017.2, p = 6400): summary input, decided by the threshold."""
    rec = tune.recommend(PAPER, analysis.Settings(stat=["avg"]))
    table6, table7 = read_summary(PAPER[0]), read_summary(PAPER[1])
    cell = next(c for c in rec.cells if c.variable.op == "MPI_Gather"
                and (c.distribution, c.b) == ("same", 1))
    # Table 7 (binomial) against Table 6 (default), read from the files: 143225 / 286.35
    assert cell.best.value == "1" and cell.chosen == "1"
    expected = table6[("MPI_Gather", "same", 1)] / table7[("MPI_Gather", "same", 1)]
    assert math.isclose(cell.over_default.ratio, expected, rel_tol=1e-9)
    assert cell.size == 4  # Intel: one process's block, b = 1 int
    choices = {v.name: by_p[6400] for v, by_p in rec.choices}
    # MPI_Gatherv has no size in Intel's rules: one value, the k-nomial of Tables 9-11
    assert [r.value for r in choices["I_MPI_ADJUST_GATHERV"]] == ["3"]
    lines = [line for line in tuning_files.write("intel", rec.choices, []).splitlines()
             if line.startswith("I_MPI_ADJUST")]
    for line in lines:
        assert tuning_files.parse_intel_value(line.split("=", 1)[1].strip('"')) is not None
    # the committed recommendation is this one (scripts/paper-reports)
    committed = ROOT / "results" / "paper" / "intel-6400-settings" / "tuned-intel.env"
    assert [line for line in committed.read_text().splitlines()
            if line.startswith("I_MPI_ADJUST")] == lines


def test_bad_input_exits_2(tmp_path):
    one = subprocess.run([IRRTUNE, PAPER[0]], capture_output=True, text=True)
    assert one.returncode == 2 and "one setting only" in one.stderr
    mixed = tmp_path / "mpich.csv"
    mixed.write_text(open(PAPER[1]).read().replace("library=Intel MPI 2017.2",
                                                   "library=MPICH Version: 4.0.2"))
    both = subprocess.run([IRRTUNE, PAPER[0], PAPER[2], str(mixed)], capture_output=True,
                          text=True)
    assert both.returncode == 2 and "different libraries" in both.stderr
    unknown = tmp_path / "unknown.csv"
    unknown.write_text(open(PAPER[1]).read().replace("I_MPI_ADJUST_GATHERV=1",
                                                     "I_MPI_ADJUST_GATHERV=9"))
    bad = subprocess.run([IRRTUNE, PAPER[0], str(unknown)], capture_output=True, text=True)
    assert bad.returncode == 2 and "I_MPI_ADJUST_GATHERV=9" in bad.stderr
    broken = tmp_path / "tuned-intel.env"
    broken.write_text('I_MPI_ADJUST_GATHER="1:0-"\n')
    sweep = subprocess.run([SWEEP, "--library", "intel", "--settings", f"tuned={broken}",
                            "--dry-run"], capture_output=True, text=True)
    assert sweep.returncode == 2 and "line 1" in sweep.stderr


# --------------------------------------------------------------------- under the libraries
# MPICH's 'nb' algorithms run its nonblocking collective; these make that one a flat tree
# (k-nomial with k = p), so that a nonblocking gather or scatter shows a signature of its own.
MPICH_NB_MARKER = {"MPIR_CVAR_IGATHER_INTRA_ALGORITHM": "tsp_tree",
                   "MPIR_CVAR_IGATHER_TREE_KVAL": "4",
                   "MPIR_CVAR_ISCATTER_INTRA_ALGORITHM": "tsp_tree",
                   "MPIR_CVAR_ISCATTER_TREE_KVAL": "4"}


def probe(library, env, b, ops=("MPI_Gather", "MPI_Scatter"), repeat=3):
    """{(op, b): signature} of irrprobe on 4 processes under the given environment (each rank
    delayed `repeat` times, the majority counts)."""
    binary = ROOT / "build" / library / "harness" / "irrprobe"
    if not binary.exists():
        pytest.skip(f"{binary} not built (scripts/build {library})")
    launcher = (["mpirun.openmpi", "--oversubscribe", "--mca", "mpi_yield_when_idle", "1", "-np"]
                if library == "openmpi" else ["mpiexec.mpich", "-n"])
    run_env = dict(ENV, **(MPICH_NB_MARKER if library == "mpich" else {}), **env)
    done = subprocess.run(launcher + ["4"] + rank_prefix(library) + [
        str(binary), "--ops", ",".join(ops), "--b", ",".join(map(str, b)), "--repeat",
        str(repeat)],
        capture_output=True, text=True, env=run_env, timeout=120)
    assert done.returncode == 0, done.stderr
    rows = [line.split("\t") for line in done.stdout.splitlines()[2:]]
    return {(op, int(size)): signature for op, size, _, signature in rows}


def algorithm_env(library, variable, value):
    env = dict(LIBRARIES[library].base_env)
    if value != "default":
        env[variable.name] = value
    return env


# Size semantics: the boundary of a generated file falls exactly where libraries.py says the
# library measures its message size (b = 499 and 500 at p = 4 around 8000 bytes for Open MPI's
# whole buffer, 2000 elements for MPICH's count x p).
SEMANTICS = {"openmpi": ("2", "3", 8000), "mpich": ("nb", "binomial", 2000)}


@pytest.mark.parametrize("library", ["openmpi", pytest.param("mpich", marks=pytest.mark.slow)])
def test_a_generated_file_selects_by_the_documented_size(library, tmp_path):
    below, above, boundary = SEMANTICS[library]
    gather = LIBRARIES[library].variable_for("MPI_Gather")
    ranges = [tuning_files.Range(0, boundary - 1, below),
              tuning_files.Range(boundary, None, above)]
    path = tmp_path / LIBRARIES[library].tuning_file
    path.write_text(tuning_files.write(library, [(gather, {4: ranges})], ["test"]))
    env = tuning_files.environment(library, str(path))
    sizes = (1, 499, 500, 501)  # elements per process
    # the majority of three measurements per delayed rank: with one, a loaded machine once added
    # a spurious wait to one signature (a fresh run: '3>1' at b = 500)
    tuned = probe(library, env, sizes, ops=("MPI_Gather",))
    references = {v: probe(library, algorithm_env(library, gather, v), sizes,
                           ops=("MPI_Gather",)) for v in (below, above)}
    assert references[below][("MPI_Gather", 1)] != references[above][("MPI_Gather", 1)]
    for b in sizes:
        size = {"openmpi": 4 * b * 4, "mpich": b * 4}[library]
        expected = below if size < boundary else above
        assert tuned[("MPI_Gather", b)] == references[expected][("MPI_Gather", b)], (b, tuned)


def sweep(library, run, results, settings, launches):
    done = subprocess.run(
        [SWEEP, "--local", "--library", library, "--tasks-per-node", "4", "--launches",
         str(launches), "--settings", settings, "--results", str(results), "--run", run,
         "--bench-args", "--ops MPI_Gather,MPI_Gatherv,MPI_Scatter,MPI_Scatterv --dists same "
         "--b 1,10 --nrep 15 --warmup 3"], capture_output=True, text=True, env=ENV,
        timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    return results / run


ROUND_TRIP = {"openmpi": "default,gather=1+scatter=3,gather=3+scatter=1",
              "mpich": "default,gather=nb+scatter=nb+gatherv=nb"}


@pytest.mark.slow  # two sweeps and their reports: about a minute
@pytest.mark.parametrize("library", ["openmpi", "mpich"])
def test_sweep_file_rerun_round_trip(library, tmp_path):
    # 5 launches a side: the smallest p-value, 1/252, can pass the correction over the sweep's
    # 8-14 tests (4 a side, 1/70, cannot when few cells differ)
    first = sweep(library, "sweep", tmp_path, ROUND_TRIP[library], 5)
    tuning = first / LIBRARIES[library].tuning_file
    # the sweep's report starts with the recommendation, its file and link
    html = (first / "report.html").read_text()
    assert html.index("Recommended settings") < html.index("<h2>Violations")
    assert f'href="{tuning.name}"' in html and (first / "recommendation.csv").exists()
    rec_rows = list(csv.DictReader(open(first / "recommendation.csv")))
    assert {r["op"] for r in rec_rows} >= {"MPI_Gather", "MPI_Scatter"}
    if library == "mpich":
        tree = json.loads(tuning.read_text())
        assert "collective=bcast" in tree  # MPICH's whole built-in tree, ours in it
    # the sweep once more, with the file beside every setting (launches interleaved); 3 launches
    # a side still compare launches (2 would too), and nothing below needs significance
    second = sweep(library, "rerun", tmp_path, f"{ROUND_TRIP[library]},tuned={tuning}", 3)
    # the re-run recorded the file as its setting
    raw = (second / f"{library}_tuned_n1x4" / "launch-1" / "raw.csv").read_text()
    assert str(tuning) in raw
    # proof of selection: under the file, each operation and size shows the signature of the
    # algorithm the file chose for it
    env = tuning_files.environment(library, str(tuning))
    tuned = probe(library, env, (1, 10))
    chosen = {(r["op"], int(r["b"])): r["chosen_value"] for r in rec_rows
              if r["op"] in ("MPI_Gather", "MPI_Scatter")}
    assert set(chosen) == set(tuned)
    # the reference: the library's own algorithm variables set to the chosen values, one launch
    # per combination of values (the gather and scatter variables are independent)
    values = sorted({(chosen[("MPI_Gather", b)], chosen[("MPI_Scatter", b)]) for b in (1, 10)})
    for gather_value, scatter_value in values:
        env_ref = algorithm_env(library, LIBRARIES[library].variable_for("MPI_Gather"),
                                gather_value)
        env_ref.update(algorithm_env(library, LIBRARIES[library].variable_for("MPI_Scatter"),
                                     scatter_value))
        reference = probe(library, env_ref, (1, 10))
        for b in (1, 10):
            if (chosen[("MPI_Gather", b)], chosen[("MPI_Scatter", b)]) == (gather_value,
                                                                           scatter_value):
                for op in ("MPI_Gather", "MPI_Scatter"):
                    assert tuned[(op, b)] == reference[(op, b)], (op, b, chosen, tuned,
                                                                  reference)
    # the re-run's report: tuned beside the default and the per-cell best, side by side
    assert "tuned &micro;s" in (second / "report.html").read_text()
    rows = list(csv.DictReader(open(second / "recommendation.csv")))
    assert rows and all(r["tuned_us"] for r in rows)
    file_choice = {(r["op"], r["b"]): r["chosen_value"] for r in rec_rows}
    # Where the re-run measured the file's algorithm as a setting of its own, the report holds
    # tuned against it as a ratio and a verdict. Whether tuned is slower is not asserted: both
    # run the same algorithm (the probes above prove it), so any difference is this machine's
    # launch-to-launch noise, and on 2 oversubscribed cores under the suite's other workers that
    # reached 1.74x, significant, in a fresh clone (2026-11-27): timed tests make no performance
    # claims here. The calibration test measures the verdict's false alarms, alone.
    same = 0
    for r in rows:
        if r["chosen_value"] == file_choice[(r["op"], r["b"])]:
            same += 1
            assert float(r["ratio_tuned_chosen"]) > 0, r
            assert r["tuned_slower_than_chosen"] in ("yes", "no"), r
    assert same > 0


def test_a_slurm_sweep_exports_the_tuning_file(tmp_path):
    """slurm/sweep --settings tuned=FILE: the job row exports what the library reads."""
    rules = tmp_path / "tuned-openmpi.rules"
    openmpi = LIBRARIES["openmpi"]
    rules.write_text(tuning_files.write("openmpi", [(openmpi.variables[0], {16: [
        tuning_files.Range(0, None, "2")]})], ["test"]))
    done = subprocess.run([SWEEP, "--library", "openmpi", "--nodes", "2", "--tasks-per-node",
                           "8", "--settings", f"default,tuned={rules}", "--dry-run"],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    tuned = next(line for line in done.stdout.splitlines() if "\ttuned\t" in line)
    assert tuned.endswith(f"OMPI_MCA_coll_tuned_use_dynamic_rules=1 "
                          f"OMPI_MCA_coll_tuned_dynamic_rules_filename={rules}")
    assert "/openmpi_tuned_n2x8" in tuned
