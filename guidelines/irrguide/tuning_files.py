"""The libraries' own tuning files: irrtune's recommendation written the way each library reads
it, and read back (slurm/sweep --settings tuned=FILE) into what a job exports.

- Intel MPI: I_MPI_ADJUST_<OP>="<id>:<l>-<m>[@<p>-<q>];..." lines (Developer Reference,
  "I_MPI_ADJUST family": entries separated by ';', conditions by ','; sizes and process counts
  inclusive; id 0 = the library's own selection). Source the file with `set -a`.
- Open MPI 4.1: a coll tuned dynamic rules file (number of collectives; per collective its id,
  the number of communicator sizes; per size the number of message sizes; per message size
  "size algorithm fan-in/out segment-size"; each size a lower bound, algorithm 0 = the fixed
  decision), used with OMPI_MCA_coll_tuned_use_dynamic_rules=1 and
  OMPI_MCA_coll_tuned_dynamic_rules_filename=FILE.
- MPICH 4.0: a collective-selection JSON file (MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE). It
  replaces MPICH's whole built-in tree, so the file is that tree - read from the library itself
  - with the tuned collectives' intra-communicator branches replaced."""
import dataclasses
import glob
import json
import os
import re

from .libraries import LIBRARIES

NO_LIMIT = 2147483647  # the largest size or process count a condition can name (C int)


class TuningFileError(ValueError):
    pass


@dataclasses.dataclass
class Range:
    """One size range of a recommendation: sizes low..high (inclusive, high None = unbounded) in
    the library's size unit get `value` (a catalogue value, or "default")."""
    low: int
    high: object  # int, or None: unbounded
    value: str


def split_points(points):
    """Sorted measured points -> the lower bounds of the ranges around them: the first from 0
    (sizes) or 1 (processes), the others at the geometric midpoint between neighbours."""
    bounds = []
    for i, point in enumerate(points):
        bounds.append(None if i == 0 else int((points[i - 1] * point) ** 0.5) + 1)
    return bounds


def _p_ranges(choices):
    """{p: ranges} -> [(p_low, p_high or None, ranges)], p ranges split between measured p."""
    ps = sorted(choices)
    lows = split_points(ps)
    result = []
    for i, p in enumerate(ps):
        low = 1 if lows[i] is None else lows[i]
        high = lows[i + 1] - 1 if i + 1 < len(ps) else None
        result.append((low, high, choices[p]))
    return result


# ---------------------------------------------------------------------------- Intel MPI
_INTEL_CONDITION = r"\d+(-\d+)?(@\d+(-\d+)?)?"
_INTEL_ENTRY = rf"\d+(:{_INTEL_CONDITION}(,{_INTEL_CONDITION})*)?"
INTEL_VALUE = re.compile(rf"^{_INTEL_ENTRY}(;{_INTEL_ENTRY})*$")
_INTEL_LINE = re.compile(r'^(?:export\s+)?(I_MPI_ADJUST_[A-Z_]+)=(?:"([^"]*)"|(\S*))\s*$')


def parse_intel_value(text):
    """[(id, [(l, m, p, q)])] of an I_MPI_ADJUST value, None when it breaks the grammar or a
    range runs backwards."""
    if not INTEL_VALUE.match(text):
        return None
    entries = []
    for entry in text.split(";"):
        algorithm, _, conditions = entry.partition(":")
        parsed = []
        for condition in filter(None, conditions.split(",")):
            sizes, _, processes = condition.partition("@")
            low, _, high = sizes.partition("-")
            p_low, _, p_high = processes.partition("-")
            item = (int(low), int(high or low), int(p_low) if p_low else None,
                    int(p_high or p_low) if p_low else None)
            if item[1] < item[0] or (item[2] is not None and item[3] < item[2]):
                return None
            parsed.append(item)
        entries.append((int(algorithm), parsed))
    return entries


def _intel_lines(library, choices):
    lines = []
    for variable, by_p in choices:
        shapes = _p_ranges(by_p)
        entries = []
        for p_low, p_high, ranges in shapes:
            where = "" if len(shapes) == 1 else f"@{p_low}-{NO_LIMIT if p_high is None else p_high}"
            for r in ranges:
                algorithm = "0" if r.value == "default" else r.value
                if not variable.size_rule:  # the library has no size for it: n/a
                    entries.append(f"{algorithm}:0-{NO_LIMIT}{where}" if where else algorithm)
                else:
                    high = NO_LIMIT if r.high is None else r.high
                    entries.append(f"{algorithm}:{r.low}-{high}{where}")
        value = ";".join(entries)
        if all(r.value == "default" for _, _, ranges in shapes for r in ranges):
            lines.append(f"# {variable.name}: the default everywhere (nothing to set)")
            continue
        lines.append(f'{variable.name}="{value}"')
    return lines


# ---------------------------------------------------------------------------- Open MPI
def _openmpi_lines(library, choices):
    tuned = [(v, by_p) for v, by_p in choices if v.rules_id >= 0]
    lines = [f"{len(tuned)}  # collectives"]
    for variable, by_p in tuned:
        shapes = _p_ranges(by_p)
        lines += [f"{variable.rules_id}  # {variable.op}", f"{len(shapes)}  # communicator sizes"]
        for p_low, _, ranges in shapes:
            lines += [f"{p_low}  # communicator size from", f"{len(ranges)}  # message sizes"]
            for r in ranges:
                algorithm = "0" if r.value == "default" else r.value
                name = "fixed decision" if r.value == "default" else variable.values[r.value]
                lines.append(f"{r.low} {algorithm} 0 0  # {name} from {r.low} bytes")
    return lines


def _read_openmpi(path, text):
    """Checks the numbers of a rules file add up (a malformed file makes Open MPI ignore it)."""
    numbers = []
    for token in (t for line in text.splitlines() for t in line.split("#")[0].split()):
        if not re.fullmatch(r"-?\d+", token):
            raise TuningFileError(f"{path}: '{token}' is not a number; an Open MPI rules file "
                                  "holds numbers and # comments only")
        numbers.append(int(token))
    try:
        position = 1
        for _ in range(numbers[0]):
            position += 1
            sizes = numbers[position]
            position += 1
            for _ in range(sizes):
                messages = numbers[position + 1]
                position += 2 + 4 * messages
        if position != len(numbers):
            raise IndexError
    except IndexError:
        raise TuningFileError(f"{path}: the counts do not match the rules that follow (expected: "
                              "collectives; per collective id, communicator sizes; per size "
                              "the size and message sizes; per message size 4 numbers)") from None


# ---------------------------------------------------------------------------- MPICH
MPICH_LIBRARY_GLOBS = ("/usr/lib/x86_64-linux-gnu/libmpich.so.*", "/usr/lib/*/libmpich.so.*",
                       "/usr/lib64/libmpich.so.*", "/usr/local/lib/libmpich.so.*")


def mpich_default_tree(library_path=None):
    """MPICH's built-in MPIR collective-selection tree, read from libmpich (the JSON text it is
    compiled from); the file irrtune writes must hold all of it."""
    candidates = [library_path] if library_path else sorted(
        {p for pattern in MPICH_LIBRARY_GLOBS for p in glob.glob(pattern)})
    for path in candidates:
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError:
            continue
        for match in re.finditer(rb'\{"collective=[^\x00]*', data):
            if b'"algorithm=MPIR_' in match.group(0):
                return json.loads(match.group(0))
    raise TuningFileError("MPICH's built-in collective selection (in libmpich.so) not found "
                          f"in {', '.join(candidates) or ' '.join(MPICH_LIBRARY_GLOBS)}: give "
                          "irrtune --mpich-library PATH of the libmpich the jobs use")


def _mpich_levels(variable, ranges, original_intra):
    def container(value):
        if value == "default":
            return original_intra
        return {f"algorithm={variable.json_names[value]}": {}}

    if not variable.size_rule or len(ranges) == 1:
        return container(ranges[0].value)
    levels = {}
    for r in ranges:
        key = "total_msg_size=any" if r.high is None else f"total_msg_size<={r.high}"
        levels[key] = container(r.value)
    return levels


def _mpich_tree(library, choices, default_tree):
    tree = json.loads(json.dumps(default_tree))
    for variable, by_p in choices:
        key = "collective=" + variable.op[4:].lower()
        original = tree.get(key)
        if original is None:
            raise TuningFileError(f"MPICH's built-in selection has no '{key}' branch")
        intra = original.get("comm_type=intra", original)
        shapes = _p_ranges(by_p)
        if len(shapes) == 1:
            branch = _mpich_levels(variable, shapes[0][2], intra)
        else:
            branch = {}
            for _, p_high, ranges in shapes:
                size_key = "comm_size=any" if p_high is None else f"comm_size<={p_high}"
                branch[size_key] = _mpich_levels(variable, ranges, intra)
        # MPICH 4.0 knows "=any" only for sizes: inter-communicators keep their own branch
        tree[key] = {"comm_type=intra": branch,
                     "comm_type=inter": original.get("comm_type=inter", original)}
    return tree


# ---------------------------------------------------------------------------- both ways
def write(library_key, choices, header, mpich_library=None):
    """The text of the library's tuning file. choices: [(Variable, {p: [Range]})]."""
    library = LIBRARIES[library_key]
    comment = "".join(f"# {line}\n" for line in header)
    if library_key == "intel":
        return comment + "\n".join(_intel_lines(library, choices)) + "\n"
    if library_key == "openmpi":
        return comment + "\n".join(_openmpi_lines(library, choices)) + "\n"
    tree = _mpich_tree(library, choices, mpich_default_tree(mpich_library))
    return json.dumps(tree, indent=1) + "\n"


def usage(library_key, path):
    """How a job uses the file (shell lines)."""
    if library_key == "intel":
        return [f"set -a; . {path}; set +a"]
    if library_key == "openmpi":
        return ["export OMPI_MCA_coll_tuned_use_dynamic_rules=1",
                f"export OMPI_MCA_coll_tuned_dynamic_rules_filename={path}"]
    return [f"export MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE={path}"]


def environment(library_key, path):
    """What a job exports to run with a tuning file (slurm/sweep --settings tuned=FILE); the
    file is checked first."""
    path = os.path.abspath(path)
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise TuningFileError(f"cannot read {path}: {e.strerror}") from None
    if any(c.isspace() for c in path):
        raise TuningFileError(f"{path}: a path with spaces cannot be exported by a job")
    if library_key == "intel":
        env = {}
        for number, line in enumerate(text.splitlines(), 1):
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            match = _INTEL_LINE.match(line.strip())
            value = match and (match.group(2) if match.group(2) is not None else match.group(3))
            names = {v.name for v in LIBRARIES["intel"].variables}
            if not match or match.group(1) not in names or parse_intel_value(value) is None:
                raise TuningFileError(
                    f"{path} line {number}: '{line.strip()}' is not an I_MPI_ADJUST line of a "
                    f"swept operation ({', '.join(sorted(names))}) with a value like "
                    "\"1:0-2047;3:2048-2147483647\"")
            env[match.group(1)] = value
        if not env:
            raise TuningFileError(f"{path}: no I_MPI_ADJUST_* line")
        return env
    if library_key == "openmpi":
        _read_openmpi(path, text)
        return {"OMPI_MCA_coll_tuned_use_dynamic_rules": "1",
                "OMPI_MCA_coll_tuned_dynamic_rules_filename": path}
    try:
        tree = json.loads(text)
    except ValueError as e:
        raise TuningFileError(f"{path}: not JSON ({e})") from None
    if not isinstance(tree, dict) or not any(k.startswith("collective=") for k in tree):
        raise TuningFileError(f"{path}: not an MPICH collective-selection file (no "
                              "\"collective=...\" keys)")
    return {"MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE": path}
