"""How a sweep's jobs start irrbench, checked before anything is submitted: a job whose launcher
cannot start the library's MPI_Init fails only at run time, on the cluster, in every job.

srun: the PMI plugin must be one the library speaks and one this SLURM has (srun --mpi=list);
plain 'srun' gets the library's plugin added. mpirun/mpiexec: it must be the library's own
(Debian's 'mpirun' is Open MPI's: under it an MPICH program starts as p separate processes of
one rank each)."""
import os
import re
import shlex
import shutil
import subprocess


class LauncherError(ValueError):
    """A launcher that cannot start this library's programs: the message says what would."""


MPIRUN_NAMES = ("mpirun", "mpiexec", "orterun")


def srun_plugins(srun="srun"):
    """The --mpi plugins this SLURM offers (srun --mpi=list), e.g. ['pmix', 'none', 'pmi2'];
    None when srun cannot say (not installed, no cluster)."""
    try:
        result = subprocess.run([srun, "--mpi=list"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if result.returncode != 0:
        return None
    text = result.stdout + result.stderr
    plugins = [line.strip() for line in text.splitlines() if re.fullmatch(r"\s+\w+", line)]
    for versions in re.findall(r"plugin versions available: (.*)", text):  # pmix_v4
        plugins += [v.strip() for v in versions.split(",") if v.strip()]
    return plugins or None


def _plugin_family(plugin):
    return re.sub(r"_v\d+$", "", plugin)  # pmix_v4 is pmix


def resolve(launcher, library, offered=None):
    """The launcher a job will use, and a line saying why (or None); LauncherError if it cannot
    start the library's programs. offered: srun_plugins() (None: not known, not checked)."""
    words = shlex.split(launcher)
    if not words:
        raise LauncherError("--launcher: empty; use srun or an mpirun command line")
    program = os.path.basename(words[0])
    if program == "srun":
        given = [w for w in words[1:] if w.startswith("--mpi=")]
        if "--mpi" in words[1:]:
            at = words.index("--mpi")
            given.append("--mpi=" + (words[at + 1] if at + 1 < len(words) else ""))
        speaks = library.srun_mpi
        if not given:
            usable = [p for p in speaks if offered is None or p in map(_plugin_family, offered)]
            if not usable:
                raise LauncherError(
                    f"srun here offers --mpi={','.join(offered)}, but {library.title} starts "
                    f"under srun only with --mpi={' or '.join(speaks)}: ask the cluster's admins "
                    f"for SLURM's {speaks[0]} plugin, or launch with the library's own mpirun "
                    f"(--launcher mpirun: it reads the job's allocation)")
            chosen = f"srun --mpi={usable[0]} " + shlex.join(words[1:])
            return chosen.strip(), (f"launcher: {chosen.strip()} ({library.title} starts under "
                                    f"srun with SLURM's {usable[0]} plugin)")
        plugin = given[-1].split("=", 1)[1]
        if offered is not None and plugin not in offered and \
                plugin not in map(_plugin_family, offered):
            raise LauncherError(f"--launcher '{launcher}': this SLURM has no '{plugin}' MPI "
                                f"plugin (srun --mpi=list: {', '.join(offered)})")
        if speaks and _plugin_family(plugin) not in speaks:
            raise LauncherError(
                f"--launcher '{launcher}': {library.title}'s MPI_Init does not start under "
                f"srun --mpi={plugin} (every job would fail in MPI_Init); use --mpi="
                f"{' or --mpi='.join(speaks)}, or plain 'srun' to have it chosen")
        return launcher, None
    if program in MPIRUN_NAMES or program.startswith(tuple(n + "." for n in MPIRUN_NAMES)):
        path = shutil.which(words[0])
        if path and library.mpirun_marks:
            real = os.path.realpath(path)
            if not any(mark in os.path.basename(real) or mark in real.split(os.sep)
                       for mark in library.mpirun_marks):
                raise LauncherError(
                    f"--launcher '{launcher}': {words[0]} is {real}, not {library.title}'s "
                    f"(its processes would start as separate one-rank jobs); use "
                    f"{library.mpirun}")
    return launcher, None
