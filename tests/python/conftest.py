"""Shared fixtures: the irrbench binaries of both MPI builds and how to launch them."""
import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]

LAUNCHERS = {
    "openmpi": ["mpirun.openmpi", "--oversubscribe", "-np"],
    "mpich": ["mpiexec.mpich", "-n"],
}


# MPICH busy-polls: on 2 cores its oversubscribed ranks take turns only through the test-only
# yield preload (tests/mpich_yield/yield_when_idle.c, built with the MPICH tests).
MPICH_YIELD_PRELOAD = ROOT / "build" / "mpich" / "tests" / "libmpich_yield_when_idle.so"


def rank_prefix(flavour):
    """What goes between the launcher and the program: the yield preload for MPICH."""
    if flavour == "mpich" and MPICH_YIELD_PRELOAD.exists():
        return ["env", f"LD_PRELOAD={MPICH_YIELD_PRELOAD}"]
    return []


class Mpi:
    def __init__(self, flavour):
        self.flavour = flavour
        self.binary = ROOT / "build" / flavour / "harness" / "irrbench"

    def command(self, np, *args):
        return (LAUNCHERS[self.flavour] + [str(np)] + rank_prefix(self.flavour) +
                [str(self.binary)] + [str(a) for a in args])

    def run(self, np, *args, env_extra=None, timeout=300):
        env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
        env.update(env_extra or {})
        return subprocess.run(self.command(np, *args), capture_output=True, text=True,
                              timeout=timeout, env=env, cwd=ROOT)


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "slow: needs the MPICH or SimGrid build, a SLURM cluster, or more than a few "
        "seconds; scripts/test --quick leaves it out (-m 'not slow')")
    config.addinivalue_line(
        "markers", "calibration: measures this machine's noise; scripts/test runs it alone "
        "(-m calibration) before the other tests run side by side (-m 'not calibration')")


# MPICH's cases are slow for the quick loop, which builds Open MPI only.
MPI_FLAVOURS = ["openmpi", pytest.param("mpich", marks=pytest.mark.slow)]


@pytest.fixture(params=MPI_FLAVOURS)
def mpi(request):
    m = Mpi(request.param)
    if not m.binary.exists():
        pytest.fail(f"{m.binary} is not built: run scripts/build {request.param}")
    return m


@pytest.fixture
def openmpi():
    m = Mpi("openmpi")
    if not m.binary.exists():
        pytest.fail(f"{m.binary} is not built: run scripts/build openmpi")
    return m


def pytest_collection_modifyitems(config, items):
    """Longest first: the pytest phase lasts as long as its busiest worker, and the SLURM
    cluster's tests (one xdist group, ~4 minutes on one worker) started last would run alone at
    the end. Modules with a group or slow cases go first, each module kept together (its module
    fixtures, e.g. the cluster, are set up once)."""
    def module_rank(item):
        return min(0 if i.get_closest_marker("xdist_group") else
                   1 if i.get_closest_marker("slow") else 2
                   for i in by_module[item.module.__name__])

    by_module = {}
    for item in items:
        by_module.setdefault(item.module.__name__, []).append(item)
    ranks = {name: module_rank(group[0]) for name, group in by_module.items()}
    items.sort(key=lambda item: ranks[item.module.__name__])
