"""The collective-algorithm settings a sweep can select, per MPI library: the variables, their
valid values with what each algorithm is, and how a user names a setting on the command line
("default", "gather=3", "gather=2+gatherv=3", or the variable's full name)."""
import dataclasses
import re


class SettingError(ValueError):
    """A setting the library does not have: the message lists the valid ones."""


@dataclasses.dataclass(frozen=True)
class Variable:
    key: str  # short name users type: gather, gatherv, scatter, scatterv
    name: str  # environment variable
    values: dict  # value -> algorithm


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


LIBRARIES = {
    "intel": Library(
        "intel", "Intel MPI",
        (Variable("gather", "I_MPI_ADJUST_GATHER",
                  {"1": "binomial", "2": "topology-aware binomial", "3": "Shumilin's",
                   "4": "binomial with segmentation"}),
         Variable("gatherv", "I_MPI_ADJUST_GATHERV",
                  {"1": "linear", "2": "topology-aware linear", "3": "k-nomial"}),
         Variable("scatter", "I_MPI_ADJUST_SCATTER",
                  {"1": "binomial", "2": "topology-aware binomial", "3": "Shumilin's"}),
         Variable("scatterv", "I_MPI_ADJUST_SCATTERV",
                  {"1": "linear", "2": "topology-aware linear"})),
        {}, srun_mpi=("pmi2", "pmix")),
    "openmpi": Library(
        "openmpi", "Open MPI",
        (Variable("gather", "OMPI_MCA_coll_tuned_gather_algorithm",
                  {"1": "basic_linear", "2": "binomial", "3": "linear_sync"}),
         Variable("scatter", "OMPI_MCA_coll_tuned_scatter_algorithm",
                  {"1": "basic_linear", "2": "binomial", "3": "linear_nb"})),
        {"OMPI_MCA_coll_tuned_use_dynamic_rules": "1"},
        note="Open MPI 4.1 offers no algorithm choice for MPI_Gatherv and MPI_Scatterv (coll "
             "tuned has none; basic linear always): their columns show one algorithm in every "
             "job, and only MPI_Gather, MPI_Scatter and the Guideline (2) side vary.",
        # Debian's Open MPI 4.1 is built with PMIx, not SLURM's PMI-2 (its MPI_Init under
        # srun --mpi=pmi2 or none fails: "...build Open MPI using --with-pmi...").
        srun_mpi=("pmix",), mpirun_marks=("openmpi", "orterun", "orte"),
        mpirun="mpirun.openmpi"),
    "mpich": Library(
        "mpich", "MPICH",
        (Variable("gather", "MPIR_CVAR_GATHER_INTRA_ALGORITHM",
                  {"auto": "internal selection", "binomial": "binomial", "nb": "nonblocking"}),
         Variable("gatherv", "MPIR_CVAR_GATHERV_INTRA_ALGORITHM",
                  {"auto": "internal selection", "linear": "linear", "nb": "nonblocking"}),
         Variable("scatter", "MPIR_CVAR_SCATTER_INTRA_ALGORITHM",
                  {"auto": "internal selection", "binomial": "binomial", "nb": "nonblocking"}),
         Variable("scatterv", "MPIR_CVAR_SCATTERV_INTRA_ALGORITHM",
                  {"auto": "internal selection", "linear": "linear", "nb": "nonblocking"})),
        {}, default_values=("auto",), srun_mpi=("pmi2",), mpirun_marks=("mpich", "hydra"),
        mpirun="mpiexec.mpich"),
}


@dataclasses.dataclass(frozen=True)
class Setting:
    name: str  # canonical: default, gather=3, gather=2+gatherv=3
    env: dict  # what the job exports

    @property
    def slug(self):
        """For directory names: gather=2+gatherv=3 -> gather-2_gatherv-3."""
        return re.sub(r"[^A-Za-z0-9_.-]", "", self.name.replace("=", "-").replace("+", "_"))

    def description(self, library):
        if not self.env:
            return f"{library.title} default selection"
        algorithms = []
        for part in self.name.split("+"):
            key, value = part.split("=")
            variable = next(v for v in library.variables if v.key == key)
            algorithms.append(f"{variable.name}={value} ({variable.values[value]})")
        return ", ".join(algorithms)


def valid_text(library):
    parts = ["default"]
    for v in library.variables:
        parts.append(f"{v.key}={'|'.join(v.values)}")
    return (f"valid {library.title} settings: " + ", ".join(parts)
            + "; combine with '+' (gather=2+gatherv=3); 'all' = default and each value alone")


def parse_setting(library, text):
    """One setting as typed: default, gather=3, I_MPI_ADJUST_GATHER=3, gather=2+gatherv=3."""
    text = text.strip()
    if text == "default":
        return Setting("default", {})
    chosen = {}
    for part in text.split("+"):
        key, sep, value = part.partition("=")
        key, value = key.strip(), value.strip()
        variable = next((v for v in library.variables
                         if key.lower() == v.key or key == v.name), None)
        if not sep or variable is None:
            raise SettingError(f"unknown {library.title} setting '{part}'; {valid_text(library)}")
        if value not in variable.values:
            raise SettingError(f"{variable.name}={value}: {library.title} has no such algorithm; valid "
                               f"values: " + ", ".join(f"{k} ({a})"
                                                       for k, a in variable.values.items()))
        if variable.key in chosen:
            raise SettingError(f"'{text}' sets {variable.key} twice")
        chosen[variable.key] = value
    order = [v.key for v in library.variables]
    keys = sorted(chosen, key=order.index)
    env = dict(library.base_env)
    for key in keys:
        env[next(v.name for v in library.variables if v.key == key)] = chosen[key]
    return Setting("+".join(f"{k}={chosen[k]}" for k in keys), env)


def all_settings(library):
    """The default and every value of every variable alone."""
    found = [Setting("default", {})]
    for variable in library.variables:
        for value in variable.values:
            if value not in library.default_values:
                found.append(parse_setting(library, f"{variable.key}={value}"))
    return found


def parse_settings(library, text):
    """A comma-separated list; 'all' expands; duplicates are dropped, order kept."""
    result = []
    for item in [i for i in text.split(",") if i.strip()]:
        new = all_settings(library) if item.strip() == "all" else [parse_setting(library, item)]
        result += [s for s in new if s.name not in {r.name for r in result}]
    if not result:
        raise SettingError(f"--settings: empty list; {valid_text(library)}")
    return result
