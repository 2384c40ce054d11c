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


class Mpi:
    def __init__(self, flavour):
        self.flavour = flavour
        self.binary = ROOT / "build" / flavour / "harness" / "irrbench"

    def command(self, np, *args):
        return LAUNCHERS[self.flavour] + [str(np), str(self.binary)] + [str(a) for a in args]

    def run(self, np, *args, env_extra=None, timeout=300):
        env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
        env.update(env_extra or {})
        return subprocess.run(self.command(np, *args), capture_output=True, text=True,
                              timeout=timeout, env=env, cwd=ROOT)


@pytest.fixture(params=["openmpi", "mpich"])
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
