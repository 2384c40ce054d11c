"""The table of operations (formats/operations.tsv), the one the C++ tools embed: what each op of
raw.csv is. irrcheck's guideline families, irrplot's colours and scripts/simulate's op lists
are derived from it; a test holds it equal to `irrbench --list-ops --format json`."""
import csv
import dataclasses
import os

TSV = os.path.join(os.path.dirname(os.path.realpath(__file__)), "..", "..", "formats",
                   "operations.tsv")
COLUMNS = ("name", "family", "role", "problem", "tree", "algorithm", "default", "label")


@dataclasses.dataclass(frozen=True)
class Operation:
    name: str
    family: str  # gather, scatter, harness
    role: str  # regular, guideline2, irregular, baseline, persistent, setup, harness, test
    problem: str  # irregular, padded, none
    tree: str  # the cost model's tree, "" for the library's own algorithm
    algorithm: str  # the implementation (one colour per algorithm in plots)
    default: bool  # measured without --ops
    label: str  # how reports name it

    @property
    def padded(self):
        return self.problem == "padded"


def _read(path=TSV):
    with open(path, encoding="utf-8") as f:
        lines = [line for line in f.read().splitlines() if line and not line.startswith("#")]
    rows = list(csv.reader(lines, delimiter="\t"))
    if tuple(rows[0]) != COLUMNS:
        raise ValueError(f"{path}: header {rows[0]}, expected {COLUMNS}")
    return tuple(Operation(name, family, role, problem, "" if tree == "-" else tree, algorithm,
                           default == "yes", label)
                 for name, family, role, problem, tree, algorithm, default, label in rows[1:])


OPERATIONS = _read()
BY_NAME = {op.name: op for op in OPERATIONS}


def of_family(family, roles):
    """The ops of a family with one of the roles, in table order."""
    return tuple(op.name for op in OPERATIONS if op.family == family and op.role in roles)


def label(name):
    """How reports name an operation (unknown ones by their name)."""
    return BY_NAME[name].label if name in BY_NAME else name


def measurable(default_only=False):
    """Gather/scatter operations irrbench measures (all, or those measured without --ops)."""
    return [op.name for op in OPERATIONS if op.family in ("gather", "scatter")
            and op.role != "test" and (op.default or not default_only)]
