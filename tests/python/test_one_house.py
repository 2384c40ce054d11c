"""What holds the house together: one table of operations (the C++ tools' export equals what the
Python tools read), one command-line dialect with --version on every tool, the verdicts as data
(checks.csv, --format json), and the one post-run step (scripts/analyse-run)."""
import csv
import json
import os
import shutil
import subprocess

import pandas as pd
import pytest

from conftest import ROOT
from synthetic import run as irrcheck, write_raw, rng, noise

BUILD = ROOT / "build" / "openmpi"
IRRBENCH, IRRFIT = BUILD / "harness" / "irrbench", BUILD / "harness" / "irrfit"
IRRMODEL = BUILD / "model" / "irrmodel"
VERSION = (ROOT / "VERSION").read_text().strip()
ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")


def tool(*args, timeout=120):
    return subprocess.run([str(a) for a in args], capture_output=True, text=True,
                          timeout=timeout, env=ENV, cwd=ROOT)


def mpi_tool(binary, *args, np=1):
    return tool("mpirun.openmpi", "--oversubscribe", "-np", np, binary, *args)


# --- one table of operations -------------------------------------------------------------------

def test_irrbench_exports_the_table_the_python_tools_read():
    import sys
    sys.path.insert(0, str(ROOT / "guidelines"))
    from irrguide import operations
    exported = mpi_tool(IRRBENCH, "--list-ops", "--format", "json")
    assert exported.returncode == 0, exported.stderr
    rows = json.loads(exported.stdout)
    assert rows == [{"name": op.name, "family": op.family, "role": op.role,
                     "problem": op.problem, "tree": op.tree or "-", "algorithm": op.algorithm,
                     "default": op.default, "label": op.label} for op in operations.OPERATIONS]
    tsv = mpi_tool(IRRBENCH, "--list-ops")
    assert tsv.returncode == 0
    file_rows = [line for line in (ROOT / "formats" / "operations.tsv").read_text().splitlines()
                 if line and not line.startswith("#")]
    assert tsv.stdout.splitlines() == file_rows


def test_guideline_families_and_plot_colours_come_from_the_table():
    import sys
    sys.path.insert(0, str(ROOT / "guidelines"))
    sys.path.insert(0, str(ROOT / "analysis"))
    from irrguide import check, operations
    from irrplots import figures
    gather = check.FAMILIES[0]
    assert (gather.regular, gather.padded) == ("MPI_Gather", "Guideline2_Gather")
    assert gather.irregular == ("MPI_Gatherv", "TUW_Gatherv", "TUWk_Gatherv")
    assert gather.baselines == ("Linear_Gatherv", "Binomial_Gatherv", "Binomialk_Gatherv")
    assert check.display_name("Guideline2_Gather") == "Allreduce+Gather(m')"
    assert figures.op_color("TUW_Gatherv") == figures.op_color("TUW_Scatterv") != "black"
    assert all(figures.op_color(op) != "black" for op in operations.measurable())


# --- one command-line dialect -------------------------------------------------------------------

@pytest.mark.parametrize("command", [
    [IRRMODEL], ["mpirun.openmpi", "--oversubscribe", "-np", 1, IRRBENCH],
    ["mpirun.openmpi", "--oversubscribe", "-np", 1, IRRFIT],
    ["mpirun.openmpi", "--oversubscribe", "-np", 1, BUILD / "harness" / "irrprobe"],
    ["/usr/bin/python3", ROOT / "guidelines" / "irrcheck"],
    ["/usr/bin/python3", ROOT / "guidelines" / "irrtune"],
    ["/usr/bin/python3", ROOT / "analysis" / "irrplot"],
    ["/usr/bin/python3", ROOT / "slurm" / "sweep"],
    ["/usr/bin/python3", ROOT / "scripts" / "simulate"],
    ["/usr/bin/python3", ROOT / "scripts" / "analyse-run"]])
def test_every_tool_has_version(command):
    result = tool(*command, "--version")
    assert result.returncode == 0, result.stderr
    commit = subprocess.run(["git", "-C", str(ROOT), "describe", "--always", "--abbrev=12",
                             "--exclude=*"], capture_output=True, text=True).stdout.strip()
    line = result.stdout.strip()
    assert line.split()[1] == VERSION and f"(git {commit}" in line, line


def test_equals_form_and_the_same_list_and_size_rules_in_every_cpp_tool(tmp_path):
    ok = tool(IRRMODEL, "--p=8", "--b=10", "--dists=same", "--trees=linear", "--format=tsv",
              "--max-mem=8G")
    assert ok.returncode == 0, ok.stderr
    assert ok.stdout.splitlines()[1].split("\t")[:3] == ["same", "80", "linear"]
    bench = mpi_tool(IRRBENCH, "--ops=TUW_Gatherv", "--dists=same", "--b=1", "--nrep=2",
                     "--warmup=0", "--max-mem=8G", f"--out={tmp_path / 'raw.csv'}", np=2)
    assert bench.returncode == 0, bench.stderr
    for command in ([IRRMODEL], ["mpirun.openmpi", "--oversubscribe", "-np", 1, IRRBENCH]):
        empty_item = tool(*command, "--dists", "same,,spikes")
        assert empty_item.returncode == 2
        assert "--dists: unknown distribution ''" in empty_item.stderr
        bad_size = tool(*command, "--max-mem", "lots")
        assert bad_size.returncode == 2 and "--max-mem: 'lots' is not a positive size" in \
            bad_size.stderr
    fit = mpi_tool(IRRFIT, "--max-bytes=64k", "--nrep=3", "--warmup=0",
                   f"--out={tmp_path / 'fit.txt'}", np=2)
    assert fit.returncode == 0, fit.stderr
    assert "point=65536 " in (tmp_path / "fit.txt").read_text()


def test_help_is_generated_with_every_option():
    text = mpi_tool(IRRBENCH, "--help").stdout
    for flag in ("--ops", "--dists", "--b", "--nrep", "--warmup", "--root", "--seed", "--rho",
                 "--sync", "--out", "--resume", "--no-validate", "--max-mem", "--list-ops",
                 "--version"):
        assert flag in text, flag


# --- the verdicts as data ----------------------------------------------------------------------

def synthetic_run(path, slow_gatherv=2.0, seed=3):
    r = rng(seed)
    cases = {}
    for dist, b in (("same", 1), ("random", 10)):
        for op, scale in (("MPI_Gather", 1.0), ("Guideline2_Gather", 1.2),
                          ("MPI_Gatherv", slow_gatherv), ("TUW_Gatherv", 0.5)):
            cases[(op, dist, b)] = noise(r, 30, 10.0 * scale)
    return write_raw(path, cases)


def test_checks_csv_and_json_say_the_same(tmp_path):
    raw = synthetic_run(tmp_path / "raw.csv")
    done = irrcheck(raw, "--write-reports", tmp_path)
    assert done.returncode == 0, done.stderr
    table = pd.read_csv(tmp_path / "checks.csv")
    assert list(table.columns) == ["group", "guideline", "family", "distribution", "b",
                                   "statistic", "lhs_op", "lhs_us", "rhs_op", "rhs_us", "unit",
                                   "launches_lhs", "launches_rhs", "ratio", "ratio_low",
                                   "ratio_high", "interval_coverage", "interval_corrected",
                                   "p_value", "p_adjusted",
                                   "threshold", "verdict"]
    as_json = irrcheck(raw, "--format", "json")
    assert as_json.returncode == 0
    data = json.loads(as_json.stdout)
    assert len(data["checks"]) == len(table)
    for row, entry in zip(table.to_dict("records"), data["checks"]):
        assert row["verdict"] == entry["verdict"] and row["lhs_op"] == entry["lhs_op"]
        assert row["lhs_us"] == pytest.approx(entry["lhs_us"], rel=1e-5)
    # MPI_Gatherv is twice the padded gather: Guideline (2) violated, significantly, everywhere
    g2 = table[(table["guideline"] == 2) & (table["lhs_op"] == "MPI_Gatherv")]
    assert len(g2) == 4 and set(g2["verdict"]) == {"violation"}
    assert (g2["ratio"] > 1.4).all() and (g2["ratio_low"] > 1).all()
    assert (g2["threshold"] == 0.05).all() and set(g2["unit"]) == {"repetition"}
    tuw = table[(table["guideline"] == 2) & (table["lhs_op"] == "TUW_Gatherv")]
    assert set(tuw["verdict"]) == {"ok"}
    violations = [line for line in (tmp_path / "violations.txt").read_text().splitlines()
                  if line.startswith("Guideline")]
    assert len(violations) == int((table["verdict"] != "ok").sum())
    assert data["summary"].startswith("irrcheck: ")


def test_raw_files_without_late_and_status_columns_are_read_as_on_time_and_ok(tmp_path):
    full = synthetic_run(tmp_path / "full.csv")
    lines = full.read_text().splitlines()
    header_at = next(i for i, line in enumerate(lines) if line.startswith("op,"))
    reader = csv.reader(lines[header_at:])
    header = next(reader)
    keep = [i for i, c in enumerate(header) if c not in ("late", "status", "root", "rep")]
    short = tmp_path / "short.csv"
    short.write_text("\n".join(lines[:header_at] + [",".join(header[i] for i in keep)]
                               + [",".join(row[i] for i in keep) for row in reader]) + "\n")
    a, b = irrcheck(full, "--format", "json"), irrcheck(short, "--format", "json")
    assert a.returncode == 0 and b.returncode == 0, b.stderr
    assert json.loads(a.stdout)["checks"] == json.loads(b.stdout)["checks"]


def test_html_report_escapes_values_from_the_input(tmp_path):
    r = rng(5)
    evil = 'x"><script>alert(1)</script>'
    raw = write_raw(tmp_path / "raw.csv",
                    {(op, evil, 1): noise(r, 8, 10.0) for op in
                     ("MPI_Gather", "Guideline2_Gather", "MPI_Gatherv", "TUW_Gatherv")})
    done = irrcheck(raw, "--format", "html", "--out", tmp_path / "r.html")
    assert done.returncode == 0, done.stderr
    page = (tmp_path / "r.html").read_text()
    assert "<script>" not in page
    assert 'data-distribution="x&quot;&gt;&lt;script&gt;' in page


# --- the one post-run step ---------------------------------------------------------------------

def test_analyse_run_on_a_run_and_on_a_directory_of_runs(tmp_path):
    for library in ("openmpi", "mpich"):
        shutil.copytree(ROOT / "results" / "example-2core" / library, tmp_path / library,
                        ignore=shutil.ignore_patterns("*.html", "*.md", "*.tex", "plots",
                                                      "model.*", "checks.csv", "stats.csv",
                                                      "violations.txt", "irrcheck.txt"))
    step = ROOT / "scripts" / "analyse-run"
    done = tool("/usr/bin/python3", step, tmp_path / "openmpi", timeout=300)
    assert done.returncode == 0, done.stderr
    assert "Gather (times in µs)" in done.stdout  # the tables on the terminal
    run = tmp_path / "openmpi"
    for name in ("irrcheck.txt", "report.md", "report.html", "report.tex", "violations.txt",
                 "stats.csv", "checks.csv", "model.txt", "model.tsv"):
        assert (run / name).stat().st_size > 0, name
    committed = ROOT / "results" / "example-2core" / "openmpi"
    assert (run / "irrcheck.txt").read_text() == (committed / "irrcheck.txt").read_text()
    assert (run / "violations.txt").read_text() == (committed / "violations.txt").read_text()
    model = pd.read_csv(run / "model.tsv", sep="\t")
    assert (model.loc[model["op"] == "TUW_Gatherv", "tree"] == "adaptive").all()
    assert (run / "plots" / "model_ratio_openmpi.png").exists()
    both = tool("/usr/bin/python3", step, "--quiet", "--no-plots", tmp_path, timeout=300)
    assert both.returncode == 0, both.stderr
    assert both.stdout == ""
    checks = pd.read_csv(tmp_path / "checks.csv")
    assert len(set(checks["group"])) == 2  # grouped by library, never pooled
    missing = tool("/usr/bin/python3", step, tmp_path / "nothing")
    assert missing.returncode == 2 and "no such directory" in missing.stderr
