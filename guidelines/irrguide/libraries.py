"""The MPI libraries whose collective algorithms a sweep selects and irrtune recommends: per
library its variables, their values (what each algorithm is), and what the library's own tuning
file can say about each operation - which message size it selects by (if any) and the names its
file uses. slurm/settings.py (what a sweep runs) and irrguide/tune.py (what it recommends) read
this one table.

What "message size" means (found in the libraries' sources and checked on a run: irrprobe under
a generated file, tests/python/test_tune.py):
- Intel MPI (I_MPI_ADJUST_<OP>, Developer Reference "I_MPI_ADJUST family"): MPI_Gather
  send_count x send type size (recv_count x size with MPI_IN_PLACE), MPI_Scatter recv_count x
  size - one process's block in bytes; MPI_Gatherv and MPI_Scatterv "n/a": only the process
  count (@p-q) can select their algorithm.
- Open MPI 4.1 (coll tuned dynamic rules file): MPI_Gather and MPI_Scatter the send count x
  send type size x communicator size - the whole gathered buffer in bytes (the scatter count is
  significant only at the root: every process must pass it, or the processes select different
  algorithms); MPI_Gatherv and MPI_Scatterv have no algorithm choice in coll tuned.
- MPICH 4.0 (MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE): MPI_Gather and MPI_Scatter select by
  "total_msg_size" = count x communicator size in *elements* (its csel.c drops the type size);
  MPI_Gatherv and MPI_Scatterv define no message size (only communicator size and type)."""
import dataclasses

# How a library measures the size it selects an algorithm by, from one process's block of
# `count` elements of `type_size` bytes among p processes.
SIZE_RULES = {
    "block_bytes": ("bytes of one process's block", lambda count, size, p: count * size),
    "total_bytes": ("bytes of all p blocks", lambda count, size, p: count * size * p),
    "total_count": ("elements of all p blocks (no type size)", lambda count, size, p: count * p),
}


@dataclasses.dataclass(frozen=True)
class Variable:
    key: str  # short name users type: gather, gatherv, scatter, scatterv
    name: str  # environment variable
    values: dict  # value -> algorithm
    op: str  # the MPI operation it selects the algorithm of (irrbench's op name)
    size_rule: str = ""  # SIZE_RULES key the library's tuning file selects by; "" = none
    rules_id: int = -1  # Open MPI: the collective's number in the dynamic rules file
    json_names: dict = dataclasses.field(default_factory=dict)  # MPICH: value -> csel container


@dataclasses.dataclass(frozen=True)
class Library:
    key: str  # intel, openmpi, mpich
    title: str
    variables: tuple
    base_env: dict  # exported with any non-default setting
    default_values: tuple = ()  # values that equal the default setting (left out of "all")
    note: str = ""  # printed with every sweep over this library
    srun_mpi: tuple = ()  # srun --mpi plugins its MPI_Init speaks, the preferred first
    mpirun_marks: tuple = ()  # words in the resolved path of its own mpirun/mpiexec
    mpirun: str = ""  # its own mpirun by an unambiguous name (Debian's 'mpirun' is Open MPI's)
    version_marks: tuple = ()  # words of its MPI_Get_library_version (raw.csv's library=)
    tuning_file: str = ""  # the file irrtune writes: tuned-<library>.<suffix>

    def variable_for(self, op):
        return next((v for v in self.variables if v.op == op), None)


LIBRARIES = {
    "intel": Library(
        "intel", "Intel MPI",
        (Variable("gather", "I_MPI_ADJUST_GATHER",
                  {"1": "binomial", "2": "topology-aware binomial", "3": "Shumilin's",
                   "4": "binomial with segmentation"}, "MPI_Gather", "block_bytes"),
         Variable("gatherv", "I_MPI_ADJUST_GATHERV",
                  {"1": "linear", "2": "topology-aware linear", "3": "k-nomial"}, "MPI_Gatherv"),
         Variable("scatter", "I_MPI_ADJUST_SCATTER",
                  {"1": "binomial", "2": "topology-aware binomial", "3": "Shumilin's"},
                  "MPI_Scatter", "block_bytes"),
         Variable("scatterv", "I_MPI_ADJUST_SCATTERV",
                  {"1": "linear", "2": "topology-aware linear"}, "MPI_Scatterv")),
        {}, srun_mpi=("pmi2", "pmix"), version_marks=("Intel",), tuning_file="tuned-intel.env"),
    "openmpi": Library(
        "openmpi", "Open MPI",
        (Variable("gather", "OMPI_MCA_coll_tuned_gather_algorithm",
                  {"1": "basic_linear", "2": "binomial", "3": "linear_sync"}, "MPI_Gather",
                  "total_bytes", rules_id=9),
         Variable("scatter", "OMPI_MCA_coll_tuned_scatter_algorithm",
                  {"1": "basic_linear", "2": "binomial", "3": "linear_nb"}, "MPI_Scatter",
                  "total_bytes", rules_id=15)),
        {"OMPI_MCA_coll_tuned_use_dynamic_rules": "1"},
        note="Open MPI 4.1 offers no algorithm choice for MPI_Gatherv and MPI_Scatterv (coll "
             "tuned has none; basic linear always): their columns show one algorithm in every "
             "job, and only MPI_Gather, MPI_Scatter and the Guideline (2) side vary.",
        # Debian's Open MPI 4.1 is built with PMIx, not SLURM's PMI-2 (its MPI_Init under
        # srun --mpi=pmi2 or none fails: "...build Open MPI using --with-pmi...").
        srun_mpi=("pmix",), mpirun_marks=("openmpi", "orterun", "orte"),
        mpirun="mpirun.openmpi", version_marks=("Open MPI",), tuning_file="tuned-openmpi.rules"),
    "mpich": Library(
        "mpich", "MPICH",
        (Variable("gather", "MPIR_CVAR_GATHER_INTRA_ALGORITHM",
                  {"auto": "internal selection", "binomial": "binomial", "nb": "nonblocking"},
                  "MPI_Gather", "total_count",
                  json_names={"binomial": "MPIR_Gather_intra_binomial",
                              "nb": "MPIR_Gather_allcomm_nb"}),
         Variable("gatherv", "MPIR_CVAR_GATHERV_INTRA_ALGORITHM",
                  {"auto": "internal selection", "linear": "linear", "nb": "nonblocking"},
                  "MPI_Gatherv",
                  json_names={"linear": "MPIR_Gatherv_allcomm_linear",
                              "nb": "MPIR_Gatherv_allcomm_nb"}),
         Variable("scatter", "MPIR_CVAR_SCATTER_INTRA_ALGORITHM",
                  {"auto": "internal selection", "binomial": "binomial", "nb": "nonblocking"},
                  "MPI_Scatter", "total_count",
                  json_names={"binomial": "MPIR_Scatter_intra_binomial",
                              "nb": "MPIR_Scatter_allcomm_nb"}),
         Variable("scatterv", "MPIR_CVAR_SCATTERV_INTRA_ALGORITHM",
                  {"auto": "internal selection", "linear": "linear", "nb": "nonblocking"},
                  "MPI_Scatterv",
                  json_names={"linear": "MPIR_Scatterv_allcomm_linear",
                              "nb": "MPIR_Scatterv_allcomm_nb"})),
        {}, default_values=("auto",), srun_mpi=("pmi2",), mpirun_marks=("mpich", "hydra"),
        mpirun="mpiexec.mpich", version_marks=("MPICH",), tuning_file="tuned-mpich.json"),
}


def library_of(version):
    """The catalogue key of a library= metadata value (MPI_Get_library_version), or None."""
    # Intel MPI's version string names MPICH too (it derives from it): Intel first.
    for key in ("intel", "openmpi", "mpich"):
        if any(mark in version for mark in LIBRARIES[key].version_marks):
            return key
    return None
