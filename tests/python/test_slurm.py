"""slurm/: the settings catalogue, the generated jobs (--dry-run), and a real one-node SLURM
cluster (munged, slurmctld, slurmd from Debian) running sweeps over the installed Open MPI and
MPICH settings, with a library-mismatch warning."""
import os
import shutil
import subprocess
import sys

import pandas as pd
import pytest

from conftest import ROOT
from irrcsv import read

sys.path.insert(0, str(ROOT / "slurm"))
import settings as catalogue  # noqa: E402

SWEEP = ROOT / "slurm" / "sweep"
LOCAL_SLURM = ROOT / "scripts" / "local-slurm"
SMALL = ("--ops MPI_Gather,MPI_Gatherv,TUW_Gatherv,Guideline2_Gather,MPI_Scatter,MPI_Scatterv,"
         "TUW_Scatterv,Guideline2_Scatter --dists same,spikes --b 1,10 --nrep 8 --warmup 1")


def sweep(*args, env=None):
    return subprocess.run(["/usr/bin/python3", str(SWEEP), *map(str, args)], capture_output=True,
                          text=True, timeout=900, env=env or os.environ.copy(), cwd=ROOT)


# --- the catalogue -------------------------------------------------------------------------

def test_all_settings_per_library():
    names = {key: [s.name for s in catalogue.all_settings(lib)]
             for key, lib in catalogue.LIBRARIES.items()}
    assert names["intel"] == ["default", "gather=1", "gather=2", "gather=3", "gather=4",
                              "gatherv=1", "gatherv=2", "gatherv=3", "scatter=1", "scatter=2",
                              "scatter=3", "scatterv=1", "scatterv=2"]
    assert names["openmpi"] == ["default", "gather=1", "gather=2", "gather=3", "scatter=1",
                                "scatter=2", "scatter=3"]
    assert names["mpich"] == ["default", "gather=binomial", "gather=nb", "gatherv=linear",
                              "gatherv=nb", "scatter=binomial", "scatter=nb",
                              "scatterv=linear", "scatterv=nb"]


def test_setting_environment_and_names():
    ompi = catalogue.LIBRARIES["openmpi"]
    s = catalogue.parse_setting(ompi, "scatter=3")
    assert s.env == {"OMPI_MCA_coll_tuned_use_dynamic_rules": "1",
                     "OMPI_MCA_coll_tuned_scatter_algorithm": "3"}
    assert catalogue.parse_setting(ompi, "default").env == {}
    intel = catalogue.LIBRARIES["intel"]
    combo = catalogue.parse_setting(intel, "I_MPI_ADJUST_GATHERV=3+gather=2")
    assert combo.name == "gather=2+gatherv=3" and combo.slug == "gather-2_gatherv-3"
    assert combo.env == {"I_MPI_ADJUST_GATHER": "2", "I_MPI_ADJUST_GATHERV": "3"}
    assert "k-nomial" in combo.description(intel)
    listed = catalogue.parse_settings(intel, "default,all,gather=2+gatherv=3")
    assert len(listed) == 14 and listed[0].name == "default"


@pytest.mark.parametrize("library, text, message", [
    ("openmpi", "gather=7", "OMPI_MCA_coll_tuned_gather_algorithm=7: Open MPI has no such "
     "algorithm; valid values: 1 (basic_linear), 2 (binomial), 3 (linear_sync)"),
    ("openmpi", "gatherv=1", "unknown Open MPI setting 'gatherv=1'; valid Open MPI settings: "
     "default, gather=1|2|3, scatter=1|2|3"),
    ("mpich", "gather=linear", "valid values: auto (internal selection), binomial (binomial), "
     "nb (nonblocking)"),
    ("intel", "gather=1+gather=2", "sets gather twice"),
    ("intel", "", "--settings: empty list"),
])
def test_unknown_settings_list_the_valid_ones(library, text, message):
    with pytest.raises(catalogue.SettingError) as error:
        catalogue.parse_settings(catalogue.LIBRARIES[library], text)
    assert message in str(error.value)


# --- generated jobs --------------------------------------------------------------------------

def test_dry_run_prints_one_array_per_shape(tmp_path):
    result = sweep("--library", "intel", "--nodes", "100,200", "--tasks-per-node", 16,
                   "--settings", "default,gather=3,gather=2+gatherv=3", "--partition", "big",
                   "--account", "proj", "--time", "02:00:00", "--results", tmp_path,
                   "--run", "t11", "--dry-run")
    assert result.returncode == 0, result.stderr
    commands = [line for line in result.stdout.splitlines() if line.startswith("sbatch")]
    assert len(commands) == 3  # two arrays, one report job
    first = commands[0].split()
    for option in ("--nodes=100", "--ntasks-per-node=16", "--time=02:00:00", "--partition=big",
                   "--account=proj", "--array=0-2"):
        assert option in first
    assert "--nodes=200" in commands[1]
    assert "--dependency=afterany:" in commands[2] and commands[2].endswith("report.sbatch")
    jobs = [line[4:].split("\t") for line in result.stdout.splitlines()
            if line.startswith("#   ")]
    assert len(jobs) == 6
    assert jobs[2][1] == "gather=2+gatherv=3"
    assert jobs[2][2] == str(tmp_path / "t11" / "intel_gather-2_gatherv-3_n100x16")
    assert jobs[2][7] == "I_MPI_ADJUST_GATHER=2 I_MPI_ADJUST_GATHERV=3"
    assert "I_MPI_ADJUST_GATHER=3 (Shumilin's)" in result.stderr
    assert not (tmp_path / "t11").exists()  # a dry run writes nothing


def test_no_array_gives_one_job_per_setting(tmp_path):
    result = sweep("--library", "openmpi", "--settings", "default,gather=2", "--nodes", 4,
                   "--no-array", "--no-report-job", "--results", tmp_path, "--dry-run")
    commands = [line for line in result.stdout.splitlines() if line.startswith("sbatch")]
    assert len(commands) == 2
    assert all("--array" not in c for c in commands)
    assert "IRR_JOB_INDEX=1" in commands[1]
    assert "no algorithm choice for MPI_Gatherv and MPI_Scatterv" in result.stderr


@pytest.mark.parametrize("args, message", [
    (["--library", "openmpi", "--settings", "gather=9"], "Open MPI has no such algorithm"),
    (["--library", "openmpi", "--nodes", "two"], "--nodes: 'two' is not a list of integers"),
    (["--library", "openmpi", "--tasks-per-node", "0"], "--tasks-per-node: '0' needs integers"),
    (["--library", "openmpi", "--run", "a/b"], "--run: 'a/b' is not a plain directory name"),
])
def test_bad_arguments(tmp_path, args, message):
    result = sweep(*args, "--results", tmp_path, "--dry-run")
    assert result.returncode == 2
    assert message in result.stderr and "Traceback" not in result.stderr


def test_missing_sbatch_gives_the_dry_run_hint(tmp_path):
    env = dict(os.environ, PATH=str(tmp_path))  # nothing on PATH; the sweep runs by full path
    result = sweep("--library", "mpich", "--results", tmp_path, env=env)
    assert result.returncode == 2
    assert "sbatch not found on PATH" in result.stderr and "--dry-run" in result.stderr


# --- a real cluster ----------------------------------------------------------------------------

@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    """A one-node SLURM cluster in a temporary directory, stopped by PID afterwards."""
    if os.geteuid() != 0:
        pytest.skip("the SLURM daemons run as root here (scripts/local-slurm); not root")
    if shutil.which("slurmctld") is None and not os.path.exists("/usr/sbin/slurmctld"):
        pytest.fail("slurm-wlm is not installed: run scripts/install-deps")
    directory = tmp_path_factory.mktemp("slurm")
    start = subprocess.run([str(LOCAL_SLURM), "start", str(directory)], capture_output=True,
                           text=True, timeout=120)
    if start.returncode != 0:
        pytest.skip(f"the SLURM daemons cannot start here: {start.stderr.strip()}")
    env = dict(os.environ, SLURM_CONF=str(directory / "slurm.conf"),
               OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    yield env
    subprocess.run([str(LOCAL_SLURM), "stop", str(directory)], timeout=60)
    leftover = subprocess.run(["pgrep", "-f", str(directory)], capture_output=True, text=True)
    assert leftover.stdout.strip() == "", "daemons survived the stop"


@pytest.mark.slow  # minutes of sweeps on a SLURM cluster, both MPI builds
@pytest.mark.xdist_group("slurm-cluster")  # one worker, one cluster (a module fixture)
@pytest.mark.parametrize("library, launcher", [("openmpi", "srun --mpi=pmix"),
                                               ("mpich", "srun --mpi=pmi2")])
def test_sweep_on_a_real_cluster(cluster, tmp_path, library, launcher):
    bench = ROOT / "build" / library / "harness" / "irrbench"
    if not bench.exists():
        pytest.fail(f"{bench} is not built: run scripts/build {library}")
    result = sweep("--library", library, "--nodes", 1, "--tasks-per-node", 2, "--launcher",
                   launcher, "--bench-args", SMALL, "--results", tmp_path, "--run", "sweep",
                   "--launches", 1, "--time", "00:10:00", "--wait", env=cluster)
    run = tmp_path / "sweep"
    logs = "\n".join(p.read_text() for p in sorted(run.glob("slurm-*.out")))
    assert result.returncode == 0, result.stderr + logs
    expected = catalogue.all_settings(catalogue.LIBRARIES[library])
    directories = sorted(p.name for p in run.iterdir() if p.is_dir() and p.name != "plots")
    assert directories == sorted(f"{library}_{s.slug}_n1x2" for s in expected)
    for setting in expected:
        directory = run / f"{library}_{setting.slug}_n1x2"
        meta, rows = read(directory / "raw.csv")
        assert meta["p"] == "2" and "SLURM_JOB_ID" not in meta
        assert meta["env.SLURM_JOB_ID"] and meta["env.IRRBENCH_SETTING"] == setting.name
        assert ("Open MPI" if library == "openmpi" else "MPICH") in meta["library"]
        for variable, value in setting.env.items():
            assert meta[f"env.{variable}"] == value, (setting.name, variable)
        assert "warning" not in meta
        assert {r["status"] for r in rows} == {"ok"}  # validation passed in every case
        assert len(rows) == 8 * 2 * 2 * 8
        for name in ("report.html", "report.md", "violations.txt", "stats.csv", "irrcheck.txt",
                     "checks.csv", "fit.txt", "model.txt", "model.tsv"):
            assert (directory / name).stat().st_size > 0, (setting.name, name)
        # irrfit ran in the job's allocation, and the model stands beside every TUW case
        fit = dict(line.split("=", 1) for line in (directory / "fit.txt").read_text().splitlines()
                   if "=" in line and not line.startswith("#"))
        assert float(fit["alpha_us"]) >= 0 and fit["p"] == "2" and fit["tool"] == "irrfit"
        model = pd.read_csv(directory / "model.tsv", sep="\t")
        tuw = model[model["op"].str.startswith("TUW_")]
        assert len(tuw) == 2 * 2 * 2 and (tuw["model_us"] > 0).all()
        assert (tuw["tree"] == "adaptive").all()
        pngs = sorted(p.name for p in (directory / "plots").glob("*.png"))
        assert len(pngs) == 5 and f"model_ratio_{directory.name}.png" in pngs, pngs
        page = (directory / "report.html").read_text()
        assert "Measured median over the model time" in page
    report = (run / "report.html").read_text()
    assert report.count("<table class=\"times\"") == 2 * len(expected)
    comparisons = sorted(p.name for p in (run / "plots").glob("settings_*.png"))
    assert comparisons == ["settings_MPI_Gather.png", "settings_MPI_Gatherv.png",
                           "settings_MPI_Scatter.png", "settings_MPI_Scatterv.png"]


@pytest.mark.slow  # a SLURM cluster
@pytest.mark.xdist_group("slurm-cluster")
def test_sweep_for_another_library_warns_in_log_and_metadata(cluster, tmp_path):
    """Intel MPI settings, but the job runs the Open MPI build; two launches, each its own
    srun and file."""
    bench = ROOT / "build" / "openmpi" / "harness" / "irrbench"
    result = sweep("--library", "intel", "--settings", "gatherv=3", "--nodes", 1,
                   "--tasks-per-node", 2, "--launcher", "srun --mpi=pmix", "--bench", bench,
                   "--bench-args", "--ops MPI_Gatherv --dists same --b 1 --nrep 3",
                   "--no-report-job", "--results", tmp_path, "--run", "mismatch", "--wait",
                   "--launches", 2, env=cluster)
    assert result.returncode == 0, result.stderr
    log = next((tmp_path / "mismatch").glob("slurm-*.out")).read_text()
    assert "irrbench: WARNING: the job's settings are for Intel MPI but irrbench runs on " \
           "Open MPI" in log
    for launch in (1, 2):
        job = tmp_path / "mismatch" / "intel_gatherv-3_n1x2"
        meta, rows = read(job / f"launch-{launch}" / "raw.csv")
        assert meta["warning"].startswith("the job's settings are for Intel MPI")
        assert meta["env.I_MPI_ADJUST_GATHERV"] == "3" and meta["launch"] == str(launch)
        assert len(rows) == 3
    assert not (job / "raw.csv").exists()
