"""slurm/: the settings catalogue, the generated jobs (--dry-run), and a real one-node SLURM
cluster (munged, slurmctld, slurmd from Debian) running sweeps over the installed Open MPI and
MPICH settings, with a library-mismatch warning."""
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

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


# --- a real cluster of several nodes ------------------------------------------------------------

NODES = 4
YIELD_PRELOAD = ROOT / "build" / "mpich" / "tests" / "libmpich_yield_when_idle.so"


def made(directory, kind):
    """The namespaces ('netns') or links ('link') scripts/local-slurm made, by its DIR/made.txt."""
    path = Path(directory) / "made.txt"
    lines = path.read_text().splitlines() if path.exists() else []
    return [line.split()[1] for line in lines if line.split()[0] == kind]


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    """A 4-node SLURM cluster (network namespaces, scripts/local-slurm), 2 CPUs a node, stopped
    afterwards; nothing of it may survive the stop."""
    if os.geteuid() != 0:
        pytest.skip("the SLURM daemons and network namespaces need root (scripts/local-slurm)")
    if shutil.which("slurmctld") is None and not os.path.exists("/usr/sbin/slurmctld"):
        pytest.fail("slurm-wlm is not installed: run scripts/install-deps")
    directory = tmp_path_factory.mktemp("slurm")
    try:
        start = subprocess.run([str(LOCAL_SLURM), "start", str(directory), "--nodes",
                                str(NODES), "--cpus", "2"], capture_output=True, text=True,
                               timeout=120)
    except subprocess.TimeoutExpired:  # nothing of a half-started cluster may stay behind
        subprocess.run([str(LOCAL_SLURM), "stop", str(directory)], capture_output=True)
        raise
    if start.returncode == 2:
        pytest.skip(f"no multi-node cluster here: {start.stderr.strip()}")
    assert start.returncode == 0, start.stderr
    assert "node4 10." in start.stderr and start.stdout.startswith("export SLURM_CONF=")
    # Ranks share 2 cores: they must yield when idle, or a ping-pong measures time slices.
    env = dict(os.environ, SLURM_CONF=str(directory / "slurm.conf"),
               OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_mpi_yield_when_idle="1", LD_PRELOAD=str(YIELD_PRELOAD))
    env["directory"] = str(directory)
    names = made(directory, "netns") + made(directory, "link")
    assert len(made(directory, "netns")) == NODES
    yield env
    stop = subprocess.run([str(LOCAL_SLURM), "stop", str(directory)], capture_output=True,
                          text=True, timeout=60)
    assert stop.returncode == 0, stop.stderr
    leftover = subprocess.run(["pgrep", "-f", str(directory)], capture_output=True, text=True)
    assert leftover.stdout.strip() == "", "daemons survived the stop"
    present = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout
    present += subprocess.run(["ip", "-br", "link"], capture_output=True, text=True).stdout
    survivors = [name for name in names if name in re.split(r"[\s@]", present)]
    assert survivors == [], f"namespaces or links survived the stop: {survivors}"


def fit_values(path):
    return dict(line.split("=", 1) for line in path.read_text().splitlines()
                if "=" in line and not line.startswith("#"))


def job_logs(run, lines=40):
    """The end of every job's log, the newest job first: a failure message that CI shortens in
    its middle still shows how the last job ended."""
    logs = sorted(run.glob("slurm-*.out"), key=lambda p: p.stat().st_mtime, reverse=True)
    return "\n".join(f"--- {p.name} (last {lines} lines)\n"
                     + "\n".join(p.read_text().splitlines()[-lines:]) for p in logs)


NODE_OPS = ("--ops MPI_Gather,MPI_Gatherv,TUW_Gatherv,Optimal_Gatherv_init,MPI_Scatterv,"
            "Optimal_Scatterv_init --dists same,spikes --b 1,10 --nrep 5 --warmup 1")


def assert_job_on_nodes(directory, nodes, tasks, library, launches, env):
    """What a job on NODES nodes must show in its files: placement, both fit levels, valid
    node-aware cases, no launcher plumbing in the metadata."""
    files = ([directory / "raw.csv"] if launches == 1 else
             [directory / f"launch-{k}" / "raw.csv" for k in range(1, launches + 1)])
    for path in files:
        meta, rows = read(path)
        assert meta["nodes"] == str(nodes) and meta["processes_per_node"] == str(tasks)
        assert meta["p"] == str(nodes * tasks)
        assert meta["node_starts"] == " ".join(str(k * tasks) for k in range(nodes))
        hosts = subprocess.run(["scontrol", "show", "hostnames", meta["env.SLURM_JOB_NODELIST"]],
                               capture_output=True, text=True, env=env).stdout.split()
        assert len(hosts) == nodes and meta["hostname"] == hosts[0]  # rank 0 on the first
        assert meta["env.SLURM_JOB_NUM_NODES"] == str(nodes)
        assert ("Open MPI" if library == "openmpi" else "MPICH") in meta["library"]
        plumbing = [k for k in meta if k.startswith(("env.OMPI_MCA_orte", "env.OMPI_MCA_ess",
                                                      "env.SLURM_SRUN", "env.SLURM_STEP",
                                                      "env.MPIR_CVAR_CH3_INTERFACE"))]
        assert plumbing == [], plumbing
        # every case validated against the native call's bytes, Optimal_* on the real nodes
        assert {r["status"] for r in rows} == {"ok"}
        assert {"Optimal_Gatherv_init", "Optimal_Scatterv_init"} <= {r["op"] for r in rows}
    fit = fit_values(directory / "fit.txt")
    if nodes > 1:  # rank 0 against the last rank (another node) and against its neighbour
        assert fit["same_node"] == "no" and fit["peer"] == str(nodes * tasks - 1)
    if nodes > 1 and tasks == 1:  # no neighbour on rank 0's node: one level only
        assert "alpha_local_us" not in fit and float(fit["alpha_us"]) > 0
    elif nodes > 1:
        assert fit["local_peer"] == "1"
        alpha, alpha_local = float(fit["alpha_us"]), float(fit["alpha_local_us"])
        assert alpha > 0 and alpha_local > 0 and alpha != alpha_local, fit
        if library == "openmpi":  # TCP over the veth links against shared memory in a node
            assert alpha > alpha_local, fit
        # (MPICH's UCX joins every process of this one machine by shared memory, across the
        # emulated nodes too: see scripts/local-slurm)
    else:
        assert fit["same_node"] == "yes" and "alpha_local_us" not in fit
    model = pd.read_csv(directory / "model.tsv", sep="\t")
    optimal = model[model["op"].str.startswith("Optimal_")]
    assert len(optimal) > 0 and (optimal["model_us"] > 0).all()
    assert (directory / "report.html").stat().st_size > 0


@pytest.mark.slow  # a SLURM cluster of 4 nodes, sweeps with both MPI builds
@pytest.mark.xdist_group("slurm-cluster")  # one worker, one cluster (a module fixture)
@pytest.mark.parametrize("library, launcher, nodes, settings, launches", [
    ("openmpi", "srun", "1,2", "default,gather=2", 2),  # the sweep picks srun --mpi=pmix
    ("mpich", "srun", "2", "default,gatherv=linear", 1),  # --mpi=pmi2
    ("openmpi", "mpirun.openmpi", "2", "scatter=2", 1),
    ("mpich", "mpiexec.mpich", "4", "default", 1),
])
def test_sweep_across_nodes(cluster, tmp_path, library, launcher, nodes, settings, launches):
    bench = ROOT / "build" / library / "harness" / "irrbench"
    if not bench.exists():
        pytest.fail(f"{bench} is not built: run scripts/build {library}")
    tasks = 2 if nodes != "4" else 1
    result = sweep("--library", library, "--nodes", nodes, "--tasks-per-node", tasks,
                   "--settings", settings, "--launcher", launcher, "--bench-args", NODE_OPS,
                   "--results", tmp_path, "--run", "sweep", "--launches", launches,
                   "--time", "00:10:00", "--wait", env=cluster)
    run = tmp_path / "sweep"
    assert result.returncode == 0, result.stderr + job_logs(run)
    if launcher == "srun":
        plugin = {"openmpi": "pmix", "mpich": "pmi2"}[library]
        assert f"launcher: srun --mpi={plugin}" in result.stderr
    chosen = catalogue.parse_settings(catalogue.LIBRARIES[library], settings)
    node_counts = [int(n) for n in nodes.split(",")]
    for setting in chosen:
        for n in node_counts:
            directory = run / f"{library}_{setting.slug}_n{n}x{tasks}"
            assert_job_on_nodes(directory, n, tasks, library, launches, cluster)
            meta, _ = read(directory / ("raw.csv" if launches == 1 else "launch-1/raw.csv"))
            assert meta["env.IRRBENCH_SETTING"] == setting.name
            for variable, value in setting.env.items():
                assert meta[f"env.{variable}"] == value
            if launcher == "srun":
                assert meta["env.SLURM_MPI_TYPE"] == plugin
    # the report job: every job's tables in one report, node counts apart
    report = (run / "report.html").read_text()
    assert report.count("<table class=\"times\"") == 2 * len(chosen) * len(node_counts)
    if len(chosen) > 1:  # a settings sweep ends with irrtune's recommendation and its file
        assert report.index("Recommended settings") < report.index("<h2>Violations")
        tuning = (run / catalogue.LIBRARIES[library].tuning_file).read_text()
        if library == "openmpi":  # one rule set per process count (p = 2 and 4 on 1 or 2 nodes)
            assert f"{len(node_counts)}  # communicator sizes" in tuning
    if len(node_counts) > 1:
        assert "nodes=1" in report and "nodes=2" in report
        checks = pd.read_csv(run / "checks.csv")
        assert {g.split(" | ")[1] for g in checks["group"]} == {"nodes=1", "nodes=2"}


@pytest.mark.slow
@pytest.mark.xdist_group("slurm-cluster")
@pytest.mark.parametrize("library, launcher, message", [
    ("openmpi", "srun --mpi=pmi2", "Open MPI's MPI_Init does not start under srun --mpi=pmi2"),
    ("mpich", "srun --mpi=pmix", "MPICH's MPI_Init does not start under srun --mpi=pmix"),
    ("mpich", "mpirun.openmpi", "not MPICH's"),
    ("openmpi", "srun --mpi=nosuch", "this SLURM has no 'nosuch' MPI plugin"),
])
def test_a_launcher_that_cannot_start_the_library_is_refused(cluster, tmp_path, library,
                                                             launcher, message):
    result = sweep("--library", library, "--launcher", launcher, "--results", tmp_path,
                   env=cluster)
    assert result.returncode == 2 and message in result.stderr, result.stderr
    assert list(tmp_path.iterdir()) == []  # nothing submitted, nothing written


@pytest.mark.slow  # a SLURM cluster
@pytest.mark.xdist_group("slurm-cluster")
def test_sweep_for_another_library_warns_in_log_and_metadata(cluster, tmp_path):
    """Intel MPI settings, but the job runs the Open MPI build; two launches, each its own
    srun and file. The sweep's --wait outlasts a slurmctld that does not answer (stopped here
    while the job is held; busy in CI): it once took a failed squeue for "no jobs left" and
    reported a running job as failed."""
    bench = ROOT / "build" / "openmpi" / "harness" / "irrbench"
    messages = tmp_path / "sweep.err"
    with open(messages, "w") as err:
        submit = subprocess.Popen(
            ["/usr/bin/python3", str(SWEEP), "--library", "intel", "--settings", "gatherv=3",
             "--nodes", "1", "--tasks-per-node", "2", "--launcher", "srun --mpi=pmix",
             "--bench", str(bench), "--bench-args",
             "--ops MPI_Gatherv --dists same --b 1 --nrep 3", "--no-report-job", "--results",
             str(tmp_path), "--run", "mismatch", "--wait", "--launches", "2",
             "--sbatch-args=--hold"], env=cluster, stdout=subprocess.DEVNULL, stderr=err)
    job = queued_job("irr-mismatch", submit, cluster, messages=messages)
    controller = int((Path(cluster["directory"]) / "slurmctld.pid").read_text())
    os.kill(controller, signal.SIGSTOP)
    try:
        def asked_again():  # (the sweep of old returned here, exit 1: "no report from")
            assert submit.poll() is None, messages.read_text()
            return "sweep: squeue failed" in messages.read_text()
        wait_until(asked_again, "the sweep's squeue failing", timeout=60)
    finally:
        os.kill(controller, signal.SIGCONT)
    subprocess.run(["scontrol", "release", job], env=cluster, check=True)
    assert submit.wait(timeout=300) == 0, messages.read_text()
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


def wait_until(condition, what, timeout=120):
    for _ in range(timeout * 5):
        if condition():
            return
        time.sleep(0.2)
    raise AssertionError(f"{what}: not within {timeout} s")


def queued_job(name, submit, cluster, field="%A", select="-n", messages=None):
    """FIELD of the queued job NAME (a job name, or an id with select="-j"), asked until squeue
    answers (it fails at times under load) while the sweep SUBMIT still waits for it (its
    stderr: piped, or the file MESSAGES)."""
    answer = []
    def answered():
        assert submit.poll() is None, (messages.read_text() if messages
                                       else submit.communicate()[1])
        answer[:] = subprocess.run(["squeue", "-h", "-o", field, select, name],
                                   capture_output=True, text=True, env=cluster).stdout.split()
        return answer
    wait_until(answered, f"squeue's {field} of {name}")
    return answer[0]


def finished_cases(path):
    """The (op, distribution, b) cases with all their rows in an irrbench file (0 if none)."""
    try:
        _, rows = read(path)
    except Exception:  # not there yet, or only its header
        return 0
    return len({(r["op"], r["distribution"], r["b"]) for r in rows})


# Launches of the failing job (about a second each here, the failure comes at the third): the
# time limit's job outlives slurmctld's next periodic check of time limits; the others need only
# outlive their failure (24 launches had cost them the resumed job's ~20 s more).
FAILURE_LAUNCHES = {"cancel": 10, "time limit": 24, "node dies": 10}
FAILURE_OPS = "--ops MPI_Gather,MPI_Gatherv --dists same --b 1,10 --nrep 5 --warmup 1"


@pytest.mark.slow
@pytest.mark.xdist_group("slurm-cluster")
@pytest.mark.parametrize("failure", ["cancel", "time limit", "node dies"])  # node dies last
def test_a_failed_job_keeps_its_cases_and_resumes(cluster, tmp_path, failure):
    """A job cancelled, past its time limit, or on a node that dies leaves its finished cases;
    slurm/sweep --resume finishes the rest and the report names the job of every case."""
    run, launches = tmp_path / "sweep", FAILURE_LAUNCHES[failure]
    submit = subprocess.Popen(
        ["/usr/bin/python3", str(SWEEP), "--library", "openmpi", "--settings", "default",
         "--nodes", "2", "--tasks-per-node", "1", "--launches", str(launches),
         "--bench-args", FAILURE_OPS, "--results", str(tmp_path), "--run", "sweep",
         "--no-report-job", "--wait", "--time", "00:10:00",
         # SLURM would requeue the job of a dead node by itself and it would resume the same
         # way (seen here), but only after a requeue delay of minutes: the test resubmits
         "--sbatch-args=--no-requeue"],
        env=cluster, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    job_dir = run / "openmpi_default_n2x1"
    def third_launch_started():  # launches run in turn: 1 and 2 are whole
        assert submit.poll() is None, submit.communicate()[1]  # the sweep must still wait
        return finished_cases(job_dir / "launch-3" / "raw.csv") >= 1
    wait_until(third_launch_started, "launch 3")
    job = queued_job("irr-sweep", submit, cluster)
    if failure == "cancel":
        subprocess.run(["scancel", job], env=cluster, check=True)
    elif failure == "time limit":  # the limit lowered below what it has used: SLURM's TIMEOUT
        subprocess.run(["scontrol", "update", f"JobId={job}", "TimeLimit=0"], env=cluster,
                       check=True)
    else:  # the job's second node dies: its slurmd and every process on it
        nodes = queued_job(job, submit, cluster, "%N", "-j")
        second = subprocess.run(["scontrol", "show", "hostnames", nodes], capture_output=True,
                                text=True, env=cluster).stdout.split()[1]
        namespace = next(n for n in made(cluster["directory"], "netns")
                         if n.endswith(f"-{second}"))

        def alive():
            return subprocess.run(["ip", "netns", "pids", namespace], capture_output=True,
                                  text=True).stdout.split()
        for _ in range(50):  # processes may end (or start) meanwhile
            if not alive():
                break
            subprocess.run(["kill", "-9", *alive()], capture_output=True)
            time.sleep(0.1)
        assert not alive(), f"{second} still has processes"
    _, err = submit.communicate(timeout=300)
    requeued = False  # --no-requeue: every failure ends the job; slurm/sweep --resume goes on
    if not requeued:
        assert submit.returncode == 1 and f"slurm/sweep --resume {run}" in err, err
        shown = []  # (asked until slurmctld answers, as queued_job)
        wait_until(lambda: shown.append(subprocess.run(
            ["scontrol", "show", "job", job], capture_output=True, text=True,
            env=cluster).stdout) or "JobState=" in shown[-1], f"scontrol show job {job}")
        state = shown[-1]
        # SLURM's state: CANCELLED, TIMEOUT, or FAILED when the batch script ended (its srun
        # killed) before slurmctld recorded why; the job's log says why in every case
        controller = (Path(cluster["directory"]) / "slurmctld.log").read_text()
        expected = {"cancel": ("CANCELLED", f"_slurm_rpc_kill_job: REQUEST_KILL_JOB JobId={job}"),
                    # TIMEOUT at slurmctld's next check, or FAILED when the job's next
                    # srun is refused first ("Job/step already completing")
                    "time limit": ("TIMEOUT", f"setting time_limit to 0 for JobId={job}"),
                    "node dies": ("NODE_FAIL", "")}[failure]
        assert f"JobState={expected[0]}" in state or "JobState=FAILED" in state, state
        assert re.search(re.escape(expected[1]) + r"(?![0-9])", controller), controller[-3000:]
        kept = [k for k in range(1, launches + 1)
                if finished_cases(job_dir / f"launch-{k}" / "raw.csv") == 4]
        assert kept[:2] == [1, 2] and len(kept) < launches, "finished launches kept"
    if failure == "node dies":  # SLURM must see it down before the resumed job is placed
        wait_until(lambda: "down" in subprocess.run(
            ["sinfo", "-h", "-n", second, "-o", "%T"], capture_output=True, text=True,
            env=cluster).stdout, f"{second} marked down", timeout=60)
    resumed = sweep("--resume", run, "--time", "00:10:00", "--wait", env=cluster)
    assert resumed.returncode == 0, resumed.stderr + job_logs(run)
    assert ("0 job(s) to finish, 1 done" if requeued else "1 job(s) to finish, 0 done") \
        in resumed.stderr
    jobs = set()
    for k in range(1, launches + 1):
        meta, rows = read(job_dir / f"launch-{k}" / "raw.csv")
        assert {r["status"] for r in rows} == {"ok"} and len(rows) == 4 * 5  # each case once
        jobs.add((meta["env.SLURM_JOB_ID"], meta.get("env.SLURM_RESTART_COUNT", "0")))
    assert (job, "0") in jobs and len(jobs) == 2, jobs  # the failed job, the one that resumed
    page = (run / "report.html").read_text()
    assert "cases by job" in page
    for other, restart in jobs:
        label = f"SLURM job {other}" + (f" (restart {restart})" if restart != "0" else "")
        assert f"{label}: 4 cases" in page, label
