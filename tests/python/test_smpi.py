"""The harness on a simulated cluster (SimGrid SMPI, scripts/simulate): a small paper-platform
run at p = 64 validates, repeats bit for bit, and shows the structural advantage of TUW_Gatherv
over SMPI's linear MPI_Gatherv at b = 1; library-emulating settings and bad input."""
import subprocess

import pytest

from conftest import ROOT
from irrcsv import read

# The SimGrid build (scripts/build smpi): not in scripts/test --quick. One worker runs the module,
# so that its simulated runs (a module fixture) are made once.
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("smpi")]

SIMULATE = ROOT / "scripts" / "simulate"


def simulate(*args):
    return subprocess.run(["/usr/bin/python3", str(SIMULATE), *map(str, args)],
                          capture_output=True, text=True, timeout=900, cwd=ROOT)


@pytest.fixture(scope="module")
def small_runs(tmp_path_factory):
    if not (ROOT / "build" / "smpi" / "harness" / "irrbench").exists():
        pytest.fail("build/smpi is not built: run scripts/build smpi")
    out = tmp_path_factory.mktemp("smpi")
    first = simulate("--experiment", "small", "--out", out / "first")
    assert first.returncode == 0, first.stderr
    second = simulate("--experiment", "small", "--out", out / "second", "--no-model",
                      "--no-report")
    assert second.returncode == 0, second.stderr
    return out / "first" / "default", out / "second" / "default"


def test_small_run_is_a_valid_simulated_result(small_runs):
    run, _ = small_runs
    meta, rows = read(run / "raw.csv")
    assert meta["p"] == "64" and meta["nodes"] == "4" and meta["processes_per_node"] == "16"
    assert meta["simulated"].startswith("yes")
    assert meta["library"].startswith("SMPI")
    assert meta["env.IRRBENCH_PLATFORM"].startswith("harness/platforms/paper-560.xml")
    assert "smpi/simulate-computation:no" in meta["env.IRRBENCH_SMPI_CONFIG"]
    assert "deterministic" in meta["env.IRRBENCH_REPETITIONS"]
    cases = {(r["op"], r["distribution"], r["b"]) for r in rows}
    assert len(cases) == 12 * 2 * 2  # all ops, same and spikes, b = 1 and 100
    assert {r["status"] for r in rows} == {"ok"}  # irrbench validated every case's bytes
    for name in ("report.html", "violations.txt", "fit.txt", "model.tsv", "simulation.txt"):
        assert (run / name).stat().st_size > 0, name


def test_print_config_is_what_a_run_uses(small_runs):
    """The probe scripts' smpirun lines take scripts/simulate --print-config: every line of it
    is in the configuration a real run recorded (env.IRRBENCH_SMPI_CONFIG)."""
    run, _ = small_runs
    meta, _ = read(run / "raw.csv")
    printed = simulate("--print-config")
    assert printed.returncode == 0, printed.stderr
    lines = printed.stdout.split()
    assert lines and all(line.startswith("--cfg=") for line in lines), lines
    recorded = meta["env.IRRBENCH_SMPI_CONFIG"]
    for line in lines:
        assert line in recorded, (line, recorded)


def test_irrfit_measures_both_levels_of_the_platform(small_runs):
    """irrfit ping-pongs rank 0 with rank 16 (the next node) and with rank 1 (its own node). The
    4-byte one-way times must be the platform's, by hand from harness/platforms/paper-560.xml:
    route latency x SMPI's small-message latency factor (2.01467 x 0.75) + the send and receive
    overheads (0.3 us each): across nodes 2 x 0.6 + 0.1 us of links, inside 0.4 us of loopback."""
    run, _ = small_runs
    fit = dict(line.split("=", 1) for line in (run / "fit.txt").read_text().splitlines()
               if "=" in line and not line.startswith("#") and not line.startswith("point="))
    points = [line.split("=", 1)[1].split() for line in (run / "fit.txt").read_text().splitlines()
              if line.startswith("point=")]
    assert fit["peer"] == "16" and fit["same_node"] == "no" and fit["local_peer"] == "1"
    bytes4 = [p for p in points if p[0] == "4"][0]
    factor = 2.01467 * 0.75
    assert float(bytes4[1]) == pytest.approx(1.3 * factor + 0.6, rel=0.02)  # across nodes
    assert float(bytes4[4]) == pytest.approx(0.4 * factor + 0.6, rel=0.02)  # inside a node
    assert float(fit["alpha_local_us"]) < float(fit["alpha_us"])
    # irrmodel --two-level on the run: the trees get cheaper, never dearer.
    two = subprocess.run([str(ROOT / "build" / "openmpi" / "model" / "irrmodel"), "--from-results",
                          str(run / "raw.csv"), "--alpha-beta", str(run / "fit.txt"),
                          "--two-level", "--format", "tsv"], capture_output=True, text=True)
    assert two.returncode == 0, two.stderr
    one = (run / "model.tsv").read_text().splitlines()
    rows = two.stdout.splitlines()
    header = rows[0].split("\t")
    assert header == one[0].split("\t") and len(rows) == len(one)
    col = header.index("adaptive_us")
    for a, b in zip(rows[1:], one[1:]):
        assert float(a.split("\t")[col]) <= float(b.split("\t")[col]), (a, b)


def test_the_same_experiment_gives_identical_times(small_runs):
    first, second = small_runs
    _, rows_a = read(first / "raw.csv")
    _, rows_b = read(second / "raw.csv")
    key = lambda r: (r["op"], r["distribution"], r["b"], r["rep"])  # noqa: E731
    times_a = {key(r): r["seconds"] for r in rows_a}
    times_b = {key(r): r["seconds"] for r in rows_b}
    assert times_a == times_b


def test_the_waitany_fix_changes_no_simulated_time(small_runs, tmp_path):
    """--waitany-fix (harness/smpi/waitany_fix.cpp) only removes wall time from SimGrid's
    waitall: every simulated time of the small experiment equals the unpatched SimGrid's, in
    each of two launches (--launches 2: launch-K/raw.csv; the simulation is deterministic)."""
    fix = ROOT / "build" / "smpi-waitany-fix" / "libsmpi_waitany_fix.so"
    if not fix.exists():
        pytest.fail("the waitany fix is not built: run scripts/build-smpi-waitany-fix")
    fixed = simulate("--experiment", "small", "--out", tmp_path, "--no-model", "--no-report",
                     "--waitany-fix", "--launches", 2)
    assert fixed.returncode == 0, fixed.stderr
    run = tmp_path / "default"
    assert f"LD_PRELOAD={fix}" in (run / "simulation.txt").read_text()
    key = lambda r: (r["op"], r["distribution"], r["b"], r["rep"])  # noqa: E731
    _, plain = read(small_runs[1] / "raw.csv")
    assert len(plain) == 240 and not (run / "raw.csv").exists()
    for launch in (1, 2):
        meta, patched = read(run / f"launch-{launch}" / "raw.csv")
        assert meta["launch"] == str(launch)
        assert {key(r): r["seconds"] for r in patched} == {key(r): r["seconds"] for r in plain}


def test_tuw_gatherv_beats_the_linear_gatherv_at_b_1(small_runs):
    """With a per-message receive overhead the root of a linear gather handles p - 1 messages
    in sequence; TUW's root handles ceil(log2 p) = 6: at b = 1 that decides."""
    _, rows = read(small_runs[0] / "raw.csv")
    for dist in ("same", "spikes"):
        median = {}
        for op in ("MPI_Gatherv", "TUW_Gatherv"):
            times = sorted(float(r["seconds"]) for r in rows
                           if r["op"] == op and r["distribution"] == dist and r["b"] == "1")
            median[op] = times[len(times) // 2]
        assert median["TUW_Gatherv"] < median["MPI_Gatherv"], (dist, median)


def test_linear_roots_pay_the_per_message_overhead_on_both_sides(small_runs):
    """The calibrated o = 0.3 us per message (harness/platforms/README.md): a linear root handles
    p - 1 messages one after the other, so SMPI's linear MPI_Gatherv (receives, smpi/or) and
    MPI_Scatterv (non-blocking sends, smpi/ois) take at least (p - 1) o. Without the send
    overhead the scatter's root issued its sends for free (a few us at p = 64)."""
    meta, rows = read(small_runs[0] / "raw.csv")
    for name in ("or", "os", "ois"):
        assert f"--cfg=smpi/{name}:0:3e-07:0" in meta["env.IRRBENCH_SMPI_CONFIG"]
    p = int(rows[0]["p"])
    for op in ("MPI_Gatherv", "MPI_Scatterv"):
        fastest = min(float(r["seconds"]) for r in rows if r["op"] == op and r["b"] == "1")
        assert fastest >= (p - 1) * 0.3e-6, (op, fastest)


def test_settings_select_smpi_algorithms_and_are_grouped(tmp_path):
    result = simulate("--experiment", "small", "--out", tmp_path, "--settings",
                      "default,gather=ompi_binomial", "--no-model", "--bench-args",
                      "--ops MPI_Gather,MPI_Gatherv,TUW_Gatherv,Guideline2_Gather --dists same "
                      "--b 1")
    assert result.returncode == 0, result.stderr
    meta, _ = read(tmp_path / "gather-ompi_binomial" / "raw.csv")
    assert meta["env.SMPI_GATHER"] == "ompi_binomial"
    assert "--cfg=smpi/gather:ompi_binomial" in meta["env.IRRBENCH_SMPI_CONFIG"]
    page = (tmp_path / "report.html").read_text()
    assert "SMPI_GATHER=ompi_binomial" in page and page.count("<table class=\"times\"") == 2


@pytest.mark.parametrize("args, message", [
    (["--settings", "gather=bogus"], "gather=bogus: SMPI has no such algorithm; valid: default, "
     "ompi, ompi_basic_linear"),
    (["--settings", "bcast=ompi"], "unknown setting 'bcast=ompi'"),
    (["--nrep", "0"], "--nrep must be >= 1"),
    (["--overhead-us", "-1"], "--overhead-us -1.0 must be in [0, 100]"),
    (["--latency-scale", "0"], "--latency-scale 0.0 in (0, 100]"),
])
def test_bad_input(tmp_path, args, message):
    result = simulate("--experiment", "small", "--out", tmp_path, *args)
    assert result.returncode == 2
    assert message in result.stderr and "Traceback" not in result.stderr


def test_a_resume_keeps_the_radixes_the_file_recorded(tmp_path):
    """A radix-k run resumed by plain `scripts/simulate` (no --radix) goes on at the radixes its
    raw.csv recorded, not at this build's model's; a resume at other radixes is refused by
    irrbench, which would otherwise file two trees under one name."""
    args = ["--experiment", "small", "--out", tmp_path, "--no-model", "--no-report",
            "--bench-args", "--ops TUWk_Gatherv,Binomialk_Gatherv --dists same --b 1"]
    first = simulate(*args, "--radix", 7)
    assert first.returncode == 0, first.stderr
    meta, _ = read(tmp_path / "default" / "raw.csv")
    assert meta["tuwcoll_radix"] == "TUWk=7 Binomialk=7 TUWk_init=7 TUWk_Gatherv=7"
    resumed = simulate(*args)
    assert resumed.returncode == 0, resumed.stderr
    other = simulate(*args, "--radix", 5)
    assert other.returncode != 0
    log = (tmp_path / "default" / "simulation.log").read_text()
    assert "tuwcoll_radix=TUWk=7" in log and "tuwcoll_radix=TUWk=5" in log


def test_the_next_case_does_not_slow_the_last_repetition(tmp_path, monkeypatch):
    """The processes done first with a case's last repetition wait for the others before the next
    case moves data (its validation call). Without that wait, at p = 560 (radix-560-scatter's
    platform, TUWk_Scatterv on equal byte ranges b34/4, Decreasing b = 100) the last of 4
    repetitions took 153.43 us against 109.20 for the two before it, while Same, the last case,
    stayed at 73.50-73.60 (SimGrid is deterministic: repetitions agree to 0.01 us)."""
    monkeypatch.setenv("TUWCOLL_SCATTER_STEP", "b34/4")
    result = simulate("--experiment", "radix-560-scatter", "--out", tmp_path, "--no-model",
                      "--no-report", "--nrep", 4, "--warmup", 0, "--bench-args",
                      "--ops TUWk_Scatterv --dists decreasing,same --b 100")
    assert result.returncode == 0, result.stderr
    _, rows = read(tmp_path / "default" / "raw.csv")
    for dist in ("decreasing", "same"):
        times = [float(r["seconds"]) for r in rows if r["distribution"] == dist]
        assert len(times) == 4
        assert times[3] == pytest.approx(times[2], rel=0.01), (dist, times)
