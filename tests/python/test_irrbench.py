"""irrbench end to end under both MPI libraries: rows and metadata, a killed run that resumes,
bad input, a validation failure and the scale guards."""
import collections
import concurrent.futures
import os
import pathlib
import signal
import subprocess
import time

import pytest

import irrcsv

ROOT = pathlib.Path(__file__).resolve().parents[2]
HEADER = "op,distribution,b,p,root,m,m_padded,rep,seconds,late,status"


def test_end_to_end_rows_and_metadata(mpi, tmp_path):
    out = tmp_path / "raw.csv"
    np = 4 if mpi.flavour == "openmpi" else 3
    r = mpi.run(np, "--ops", "TUW_Gatherv,MPI_Gatherv,MPI_Scatter", "--dists", "same,decreasing",
                "--b", "1,10", "--nrep", "3", "--warmup", "1", "--out", out)
    assert r.returncode == 0, r.stderr
    meta, rows = irrcsv.read(out)
    assert HEADER in out.read_text().splitlines()
    for key in ("library", "mpi_version", "p", "nodes", "processes_per_node", "root", "nrep",
                "warmup", "sync", "seed", "start_time", "git_commit", "compiler",
                "compiler_flags"):
        assert key in meta, key
    assert meta["p"] == str(np) and meta["nrep"] == "3" and meta["root"] == str(np // 2)
    assert meta["nodes"] == "1" and meta["processes_per_node"] == str(np)
    assert ("Open MPI" in meta["library"]) == (mpi.flavour == "openmpi")
    assert len(rows) == 3 * 2 * 2 * 3
    per_case = collections.Counter((r["op"], r["distribution"], r["b"]) for r in rows)
    assert set(per_case.values()) == {3}
    for row in rows:
        b = int(row["b"])
        if row["distribution"] == "same":
            m = [b] * np
        else:  # decreasing: floor(2b(p-i)/p) + 1
            m = [2 * b * (np - i) // np + 1 for i in range(np)]
        assert int(row["m"]) == sum(m) and int(row["m_padded"]) == np * max(m)
        assert row["status"] == "ok" and float(row["seconds"]) > 0
    assert sorted({int(r["rep"]) for r in rows}) == [0, 1, 2]


def count_complete(path, nrep):
    if not path.exists():
        return 0
    rows = [l for l in path.read_text().splitlines() if l and not l.startswith("#") and l != HEADER]
    per_case = collections.Counter(tuple(l.split(",")[:3]) for l in rows)
    return sum(1 for n in per_case.values() if n == nrep)


def test_killed_run_keeps_finished_cases_and_resumes(openmpi, tmp_path):
    out = tmp_path / "raw.csv"
    args = ["--ops", "MPI_Gatherv,TUW_Gatherv", "--dists", "same,random,spikes,decreasing",
            "--b", "1,10,100,1000", "--nrep", "200", "--warmup", "2", "--out", out]
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    proc = subprocess.Popen(openmpi.command(4, *args), env=env, start_new_session=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 120
    while count_complete(out, 200) < 3 and time.time() < deadline and proc.poll() is None:
        time.sleep(0.05)
    assert proc.poll() is None, "the run finished before it could be killed: make it longer"
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    before = count_complete(out, 200)
    assert 3 <= before < 32
    # Every case in the file of the killed run is either complete or the one cut off.
    meta, rows = irrcsv.read(out)
    per_case = collections.Counter((r["op"], r["distribution"], r["b"]) for r in rows)
    assert sum(1 for n in per_case.values() if n != 200) <= 1
    r = openmpi.run(4, *args, "--resume")
    assert r.returncode == 0, r.stderr
    meta, rows = irrcsv.read(out)
    per_case = collections.Counter((r["op"], r["distribution"], r["b"]) for r in rows)
    assert len(per_case) == 2 * 4 * 4 and set(per_case.values()) == {200}
    reps = collections.Counter((r["op"], r["distribution"], r["b"], r["rep"]) for r in rows)
    assert set(reps.values()) == {1}, "duplicated repetitions after --resume"
    assert "resumed" in meta


def test_resume_refuses_other_method_and_existing_file(openmpi, tmp_path):
    out = tmp_path / "raw.csv"
    base = ["--ops", "TUW_Gatherv", "--dists", "same", "--b", "1", "--warmup", "0", "--out", out]
    assert openmpi.run(2, *base, "--nrep", "2").returncode == 0
    r = openmpi.run(2, *base, "--nrep", "3", "--resume")
    assert r.returncode == 2 and "nrep=2" in r.stderr and "nrep=3" in r.stderr
    r = openmpi.run(3, *base, "--nrep", "2", "--resume")
    assert r.returncode == 2 and "p=2" in r.stderr
    # a file is one launch: resuming it as another launch would mix two mpiruns in one sample
    r = openmpi.run(2, *base, "--nrep", "2", "--resume", "--launch", "2")
    assert r.returncode == 2 and "launch=1" in r.stderr and "launch=2" in r.stderr
    r = openmpi.run(2, *base, "--nrep", "2")
    assert r.returncode == 2 and "--resume" in r.stderr
    # radix-k rows: a resume whose radixes differ (another build's model, TUWCOLL_RADIX) would
    # file two trees under one name
    radix = ["--ops", "TUWk_Gatherv", "--dists", "same", "--b", "1", "--nrep", "2", "--warmup",
             "0", "--out", tmp_path / "radix.csv"]
    assert openmpi.run(2, *radix, env_extra={"TUWCOLL_RADIX": "3"}).returncode == 0
    r = openmpi.run(2, *radix, "--resume", env_extra={"TUWCOLL_RADIX": "4"})
    assert r.returncode == 2 and "tuwcoll_radix=TUWk=3" in r.stderr \
        and "tuwcoll_radix=TUWk=4" in r.stderr, r.stderr
    r = openmpi.run(2, *radix, "--resume", env_extra={"TUWCOLL_RADIX": "3"})
    assert r.returncode == 0, r.stderr
    # and a small TUWk_Scatterv call's greedy step (TUWCOLL_SCATTER_STEP or the model's)
    step = ["--ops", "TUWk_Scatterv", "--dists", "same", "--b", "1", "--nrep", "2", "--warmup",
            "0", "--out", tmp_path / "step.csv"]
    assert openmpi.run(2, *step, env_extra={"TUWCOLL_SCATTER_STEP": "5"}).returncode == 0
    r = openmpi.run(2, *step, "--resume")
    assert r.returncode == 2 and "tuwcoll_scatter_step=5 TUWCOLL_SCATTER_STEP" in r.stderr \
        and "tuwcoll_scatter_step=0 model-heavy-radix" in r.stderr, r.stderr


BAD_INPUTS = [
    (["--ops", "MPI_Foo"], "unknown operation 'MPI_Foo'", "TUW_Gatherv"),
    (["--dists", "gaussian"], "unknown distribution 'gaussian'", "two_blocks"),
    (["--b", "0"], "'0' is not a block size >= 1", None),
    (["--b", "1,,10"], "'' is not a block size", None),
    (["--b", "x"], "'x' is not a block size", None),
    (["--nrep", "0"], "--nrep: '0'", None),
    (["--warmup", "-1"], "--warmup: '-1'", None),
    (["--root", "7"], "--root: 7 is not a rank", None),
    (["--sync", "clock"], "unknown method 'clock'", "barrier,window"),
    (["--rho", "1"], "--rho: '1'", None),
    (["--launch", "0"], "--launch: '0'", None),
    (["--max-mem", "lots"], "--max-mem: 'lots'", None),
    (["--out", "/proc/forbidden/raw.csv"], "--out: cannot", None),
    (["--frobnicate"], "unknown option '--frobnicate'", None),
    (["--nrep"], "--nrep needs a value", None),
]


def test_bad_inputs_exit_2_with_a_clear_message(openmpi):
    # Launched side by side: Open MPI's mpirun sleeps 2 s after a rank exits non-zero.
    with concurrent.futures.ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(lambda bad: openmpi.run(2, *bad[0], timeout=60), BAD_INPUTS))
    for (args, message, valid), r in zip(BAD_INPUTS, results):
        assert r.returncode == 2, (args, r.stderr)
        assert message in r.stderr, (args, r.stderr)
        assert r.stderr.count("irrbench: error:") == 1, "printed once, by rank 0"
        if valid:
            assert valid in r.stderr


@pytest.mark.slow  # the MPICH build
def test_bad_input_under_mpich_too(tmp_path):
    import conftest
    m = conftest.Mpi("mpich")
    r = m.run(2, "--dists", "gaussian", timeout=60)
    assert r.returncode == 2 and "unknown distribution 'gaussian'" in r.stderr


def test_help_lists_ops_and_distributions(openmpi):
    r = openmpi.run(1, "--help")
    assert r.returncode == 0
    for name in ("MPI_Gatherv", "Guideline2_Scatter", "Binomial_Scatterv", "random_increasing",
                 "skewed", "--max-mem", "--sync", "default: 75"):
        assert name in r.stdout, name


def test_validation_failure_is_an_error_row_and_exit_1(mpi, tmp_path):
    out = tmp_path / "raw.csv"
    r = mpi.run(3, "--ops", "TEST_Broken_Gatherv,TUW_Gatherv", "--dists", "same", "--b", "2",
                "--nrep", "2", "--warmup", "0", "--out", out,
                env_extra={"IRRBENCH_TEST_OPS": "1"})
    assert r.returncode == 1, r.stderr
    assert "VALIDATION FAILED" in r.stderr
    _, rows = irrcsv.read(out)
    broken = [row for row in rows if row["op"] == "TEST_Broken_Gatherv"]
    assert len(broken) == 1 and broken[0]["status"] == "validation_failed"
    assert broken[0]["seconds"] == ""
    assert [row["status"] for row in rows if row["op"] == "TUW_Gatherv"] == ["ok", "ok"]
    # Without the switch the test-only operation does not exist.
    r = mpi.run(2, "--ops", "TEST_Broken_Gatherv", "--out", tmp_path / "x.csv")
    assert r.returncode == 2


def test_scale_guards_skip_and_carry_on(openmpi, tmp_path):
    out = tmp_path / "raw.csv"
    # b = 10^9 on 4 processes: m = 4e9 MPI_INT overflows int displacements; b = 1000 needs
    # more than 1 KiB per process. Both are skipped; b = 1 runs.
    r = openmpi.run(4, "--ops", "TUW_Gatherv", "--dists", "same", "--b", "1000000000,1000,1",
                    "--nrep", "2", "--warmup", "0", "--max-mem", "1K", "--out", out)
    assert r.returncode == 0, r.stderr
    _, rows = irrcsv.read(out)
    by_b = {row["b"]: row for row in rows}
    assert "overflows an int" in by_b["1000000000"]["status"]
    assert "--max-mem" in by_b["1000"]["status"]
    assert by_b["1"]["status"] == "ok"
    assert "skipping" in r.stderr


def test_persistent_ops_validated_and_timed(mpi, tmp_path):
    """TUW's, the optimal tree's and the library's persistent v-collectives (a repetition =
    start + wait) and their setups (init + free), each validated before it is timed: Open MPI
    4.1 through its MPIX_ pcollreq extension, MPICH 4.0 through MPI-4's MPI_Gatherv_init."""
    out = tmp_path / "raw.csv"
    ops = [f"{lib}_{v}_{kind}" for lib in ("TUW", "Optimal", "MPI")
           for v in ("Gatherv", "Scatterv") for kind in ("init", "setup")]
    np = 4 if mpi.flavour == "openmpi" else 3
    r = mpi.run(np, "--ops", ",".join(ops), "--dists", "random,two_blocks", "--b", "1,10",
                "--nrep", "2", "--warmup", "1", "--out", out)
    assert r.returncode == 0, r.stderr
    _, rows = irrcsv.read(out)
    per_case = collections.Counter((row["op"], row["distribution"], row["b"]) for row in rows)
    assert set(op for op, _, _ in per_case) == set(ops)
    assert set(per_case.values()) == {2}
    assert all(row["status"] == "ok" and float(row["seconds"]) > 0 for row in rows)


def test_radix_k_runs_record_their_radixes(openmpi, tmp_path):
    """A run that measures radix-k rows records the radixes libtuwcoll uses (TUWk_*, Binomialk_*,
    TUWk_*_init, TUWk_Gatherv's own) in one order, whatever the setting's, and stops on a bad
    TUWCOLL_RADIX before its first case; a run without such rows does not compute them (each model
    costs every process tens of ms at p = 6400)."""
    args = ["--dists", "same", "--b", "1", "--nrep", "1", "--warmup", "0"]
    r = openmpi.run(4, "--ops", "TUWk_Gatherv_init,Binomialk_Scatterv,TUWk_Gatherv", *args,
                    "--out", tmp_path / "k.csv",
                    env_extra={"TUWCOLL_RADIX": "TUWk_Gatherv=5,TUWk=3 Binomialk=4 TUWk_init=6"})
    assert r.returncode == 0, r.stderr
    meta, rows = irrcsv.read(tmp_path / "k.csv")
    assert meta["tuwcoll_radix"] == "TUWk=3 Binomialk=4 TUWk_init=6 TUWk_Gatherv=5"
    assert meta["tuwcoll_carry_to_root"] == "direct-only"
    assert meta["tuwcoll_carry_to_root_max_bytes"] == "8192"  # tree::kCarryToRootMaxBytes
    assert meta["tuwcoll_scatter_step"].endswith(" model-heavy-radix")
    assert meta["tuwcoll_small_call_max_bytes"] == str(512 * 1024)  # tree::kOneMessageMaxBytes
    assert {row["status"] for row in rows} == {"ok"}
    r = openmpi.run(2, "--ops", "TUWk_Gatherv", *args, "--out", tmp_path / "bad.csv",
                    env_extra={"TUWCOLL_RADIX": "1"})
    assert r.returncode == 2 and "TUWCOLL_RADIX=1" in r.stderr, r.stderr
    assert not (tmp_path / "bad.csv").exists()
    r = openmpi.run(2, "--ops", "TUW_Gatherv", *args, "--out", tmp_path / "plain.csv",
                    env_extra={"TUWCOLL_RADIX": "1"})
    assert r.returncode == 0, r.stderr
    assert "TUWCOLL_RADIX" not in r.stderr  # not read at all
    assert "tuwcoll_radix" not in irrcsv.read(tmp_path / "plain.csv")[0]


def test_relative_out_makes_exactly_its_directories(openmpi, tmp_path):
    """--out a/b/raw.csv relative to the working directory creates a and a/b, nothing else
    (a stray one-letter directory was made before)."""
    command = openmpi.command(2, "--ops", "MPI_Gatherv", "--dists", "same", "--b", "1",
                              "--nrep", "2", "--warmup", "0", "--out", "run/launch-1/raw.csv")
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, cwd=tmp_path,
                          env=dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1",
                                   OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1"))
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["run"]
    assert (tmp_path / "run" / "launch-1" / "raw.csv").exists()


# The launcher of the first try: starts the launch, and once its first case is in the file one
# rank dies of SIGSEGV (mpirun then ends the others); every later try runs as given. The ranks
# are found before that, so the kill follows the case at once, and the next cases are long
# (b = 2e6: most of a second each), so that it lands inside the launch even on a busy machine.
CRASH_ONCE = r'''
import os, pathlib, signal, subprocess, sys, time
marker, command = pathlib.Path(sys.argv[1]), sys.argv[2:]
if marker.exists():
    os.execvp(command[0], command)
marker.touch()
out = pathlib.Path(command[command.index("--out") + 1])
nrep = int(command[command.index("--nrep") + 1])
launch = subprocess.Popen(command)
ranks = []
while launch.poll() is None and not ranks:
    found = subprocess.run(["pgrep", "-f", f"irrbench.*{out}"], capture_output=True,
                           text=True).stdout.split()
    ranks = [r for r in found if "mpirun" not in open(f"/proc/{r}/cmdline").read()]
while launch.poll() is None:
    if out.exists() and out.read_text().count(",ok") >= nrep:  # the first case
        os.kill(int(ranks[0]), signal.SIGSEGV)
        break
    time.sleep(0.005)
sys.exit(launch.wait() or 139)
'''


@pytest.mark.parametrize("retries", [None, "0"])
def test_a_launch_whose_rank_crashes_is_resumed_once(openmpi, tmp_path, retries):
    """scripts/run-launches resumes a launch that failed (a rank killed by SIGSEGV), keeping its
    finished cases; IRR_LAUNCH_RETRIES=0 ends at the failure with the cases kept."""
    helper = tmp_path / "crash_once.py"
    helper.write_text(CRASH_ONCE)
    run = tmp_path / "run"
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    if retries is not None:
        env["IRR_LAUNCH_RETRIES"] = retries
    result = subprocess.run(
        [str(ROOT / "scripts" / "run-launches"), "2", str(run), "/usr/bin/python3",
         str(helper), str(tmp_path / "crashed"), *openmpi.command(
             3, "--ops", "MPI_Gatherv,TUW_Gatherv", "--dists", "same", "--b", "1,2000000",
             "--nrep", "100", "--warmup", "1")],
        capture_output=True, text=True, env=env, timeout=300)
    assert (tmp_path / "crashed").exists()
    first = run / "launch-1" / "raw.csv"
    if retries == "0":
        assert result.returncode != 0 and "launch 1 failed" in result.stderr, result.stderr
        assert 1 <= count_complete(first, 100) < 4 and not (run / "launch-2").exists()
        return
    assert result.returncode == 0, result.stderr
    assert "launch 1 failed" in result.stderr and "resuming it" in result.stderr
    for launch in (first, run / "launch-2" / "raw.csv"):
        meta, rows = irrcsv.read(launch)
        reps = collections.Counter((r["op"], r["distribution"], r["b"], r["rep"]) for r in rows)
        assert len(reps) == 2 * 2 * 100 and set(reps.values()) == {1}, launch
    assert "resumed" in irrcsv.read(first)[0]
