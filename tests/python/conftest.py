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
