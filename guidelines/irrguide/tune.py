"""irrtune's recommendation: from a settings sweep of one MPI library, per operation, process
count and message size, the fastest setting - with its margin over the default and over the
runner-up, tested like the verdicts (per-launch statistics, Mann-Whitney, Hodges-Lehmann ratio
and Moses interval, Benjamini-Hochberg over the recommendation's tests) - and the size ranges
the library's own tuning file can express.

Rules (docs: guidelines/README.md, "Recommended settings"):
- A cell is an operation, distribution and b at one process count. The best setting there
  replaces the default only when it is faster by more than the practical threshold and, where
  the data can be tested (launches or repetitions), significantly so; a tie within noise goes
  to the default.
- Operations the library selects by message size (SIZE_RULES): cells are placed at the size the
  library computes; where several cells share a size the majority decides (a tie: the default);
  neighbouring sizes with the same choice merge into one range, ranges split at the geometric
  midpoint between measured sizes.
- Operations the library cannot select by size (MPI_Gatherv, MPI_Scatterv): one choice per
  process count - a setting that is significantly faster than the default in some cell and
  significantly slower in none; of several, the best geometric-mean ratio.
- Findings: a guideline violation that every swept setting shows (no setting removes it)."""
import dataclasses
import math

import numpy as np

from . import UserError, analysis, environment, operations, ratio_test, tuning_files
from .check import FAMILIES
from .libraries import LIBRARIES, SIZE_RULES, library_of
from .stats import per_launch

TYPE_SIZE = 4  # irrbench's blocks are MPI_INT


@dataclasses.dataclass
class Candidate:
    setting: str  # the group's setting label
    value: str  # the variable's value in it ("default" when unset)
    us: float  # the statistic (across launches: the median of the launches')
    values: object  # per-launch statistics, or repetitions, or None (summary input)
    unit: str  # launch, repetition, exact, untested


@dataclasses.dataclass
class Margin:
    """slower / faster: how much faster the best setting is than another."""
    ratio: float
    low: float = math.nan
    high: float = math.nan
    p_value: float = math.nan
    p_adjusted: float = math.nan
    significant: object = None  # None: untestable (summary or one value a side)
    comparison: object = None
    role: str = "sweep"  # "tuned": a re-run's comparison, not part of the choices' tests


@dataclasses.dataclass
class Cell:
    p: int
    nodes: str
    variable: object  # libraries.Variable
    distribution: str
    b: int
    block: int  # elements per process of the regular operation (m_padded / p)
    size: int  # what the library selects by (SIZE_RULES), 0 when it cannot
    candidates: list  # [Candidate], fastest first
    over_default: Margin = None
    over_runner_up: Margin = None
    chosen: str = "default"
    tuned: Candidate = None  # the re-run with the generated file, when the sweep has one
    tuned_vs_best: Margin = None
    tuned_vs_chosen: Margin = None  # does the file reproduce the chosen setting's time?
    stat: str = "avg"

    @property
    def best(self):
        return self.candidates[0]

    @property
    def runner_up(self):
        return next((c for c in self.candidates[1:] if c.value != self.best.value), None)

    @property
    def default(self):
        return next(c for c in self.candidates if c.setting == "default")


@dataclasses.dataclass
class Recommendation:
    library: str  # catalogue key
    stat: str
    threshold: float
    alpha: float
    cells: list
    choices: list  # [(Variable, {p: [tuning_files.Range]})]
    findings: list  # str
    notes: list
    settings: list  # the swept settings' labels
    tests: int = 0


def _is_tuned(source):
    env = source.metadata
    return env.get("env.IRRBENCH_SETTING", "").startswith("tuned") or any(
        k in env for k in ("env.MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE",
                           "env.OMPI_MCA_coll_tuned_dynamic_rules_filename")) or any(
        k.startswith("env.I_MPI_ADJUST_") and ":" in v for k, v in env.items())


def _library(sources):
    keys = {}
    for s in sources:
        version = s.metadata.get("library", "")
        key = library_of(version)
        if key is None:
            raise UserError(f"{s.path}: library '{version or '(none recorded)'}' is none of "
                            f"{', '.join(lib.title for lib in LIBRARIES.values())}: irrtune "
                            "knows only their tuning files")
        keys.setdefault(key, s.path)
    if len(keys) > 1:
        raise UserError("settings of different libraries: " + "; ".join(
            f"{LIBRARIES[k].title} ({path})" for k, path in keys.items())
            + ": tune one library at a time")
    return LIBRARIES[next(iter(keys))]


def _values(library, source):
    """{variable key: value} of a run's setting; unknown variables or values are errors."""
    chosen = {}
    for name, value in ((k[4:], v) for k, v in source.metadata.items() if k.startswith("env.")):
        variable = next((v for v in library.variables if v.name == name), None)
        if variable is None:
            if name in library.base_env or not _setting_variable(name):
                continue
            raise UserError(f"{source.path}: setting {name}={value} is not in irrtune's "
                            f"{library.title} catalogue (guidelines/irrguide/libraries.py): "
                            "valid variables " + ", ".join(v.name for v in library.variables))
        if value not in variable.values:
            raise UserError(f"{source.path}: {name}={value}: {library.title} has no such value; "
                            "valid: " + ", ".join(variable.values))
        chosen[variable.key] = "default" if value in library.default_values else value
    return chosen


def _setting_variable(name):
    return environment.kind(name) == "setting"


def _statistic(launches, stat, unit):
    if unit == "launch":
        values = per_launch(launches, stat)
        return float(np.median(values)), values
    values = np.concatenate(launches)
    return float(ratio_test.STATISTIC[stat](values)), values


def _margin(slow, fast, stat):
    """How much faster `fast` is than `slow` (ratio slow/fast), tested when both have data."""
    if slow.values is None or fast.values is None or slow.unit != fast.unit:
        return Margin(slow.us / fast.us)
    if slow.unit == "exact":
        return Margin(slow.us / fast.us, significant=slow.us > fast.us, p_value=0.0)
    if slow.unit == "launch":
        comparison = ratio_test.compare(slow.values, fast.values, 0.0, "launch")
    else:
        comparison = ratio_test.bootstrap(slow.values, fast.values, stat, 0.0)
    if comparison is None:
        return Margin(slow.us / fast.us)
    return Margin(comparison.ratio, p_value=comparison.p_value, comparison=comparison)


def _decide_margins(margins, alpha):
    tests = {id(m): m.p_value for m in margins if m.comparison is not None}
    decided = ratio_test.adjusted_levels(tests, alpha, "bh")
    for m in margins:
        if m.comparison is None:
            continue
        m.p_adjusted, level = decided[id(m)]
        m.low, m.high, _, _ = ratio_test.decided_interval(m.comparison, level, alpha)
        m.significant = bool(m.p_adjusted <= alpha)
    return len(tests)


def _faster(margin, threshold):
    """Faster beyond noise: significant where testable, and beyond the practical threshold."""
    return margin.ratio > 1.0 + threshold and margin.significant is not False


def _ranges(cells):
    """Size-selected choices: [Range] over the cells' sizes (majority per size, ties default)."""
    by_size = {}
    for cell in cells:
        by_size.setdefault(cell.size, []).append(cell.chosen)
    sizes = sorted(by_size)
    choice = []
    for size in sizes:
        votes = {}
        for value in by_size[size]:
            votes[value] = votes.get(value, 0) + 1
        top = max(votes.values())
        winners = [v for v, n in votes.items() if n == top]
        choice.append(winners[0] if len(winners) == 1 else "default")
    lows = tuning_files.split_points(sizes)
    ranges = []
    for i, value in enumerate(choice):
        low = 0 if lows[i] is None else lows[i]
        if ranges and ranges[-1].value == value:
            continue
        if ranges:
            ranges[-1].high = low - 1
        ranges.append(tuning_files.Range(low, None, value))
    return ranges


def recommend(files, settings=None):
    """The Recommendation for a sweep's files (raw.csv launches, or summary CSVs)."""
    settings = settings or analysis.Settings(stat=["avg"])
    return recommend_from(analysis.analyse(files, settings, group_by=list(
        analysis.CONSISTENT_KEYS), require_checks=False))


def recommend_from(result):
    """The Recommendation from an analysis already made (scripts/analyse-run's report: the same
    files, statistics and checks). Its groups never pool runs that differ in p, nodes, library
    or setting (analysis refuses that), so each group is one setting of one node shape; the
    first of its statistics decides."""
    settings = result.settings
    stat = settings.stat[0]
    library = _library(result.sources)
    notes = []
    shapes = {}  # (p, nodes) -> {setting label: ({variable key: value}, group label)}
    tuned_groups = {}
    for group, sources, _ in result.groups:
        source = sources[0]
        p = int(source.metadata.get("p") or result.stats.xs(group, level="group")["p"].iloc[0])
        nodes = source.metadata.get("nodes", "?")
        if _is_tuned(source):
            tuned_groups[(p, nodes)] = group
            continue
        label = source.setting()
        shapes.setdefault((p, nodes), {})[label] = (_values(library, source), group)
    if not shapes:
        raise UserError("no settings to compare: the files hold only tuned runs")
    for (p, nodes), by_setting in sorted(shapes.items()):
        if len(by_setting) < 2:
            beside = (" beside the tuned run: give the sweep it came from too (irrtune SWEEP "
                      "RERUN) for the per-cell best" if (p, nodes) in tuned_groups else
                      ": a recommendation compares several (slurm/sweep --settings all)")
            raise UserError(f"p={p}, nodes={nodes}: one setting only "
                            f"({next(iter(by_setting))}){beside}")
        if "default" not in by_setting:
            raise UserError(f"p={p}, nodes={nodes}: no run with the default setting among "
                            f"{', '.join(by_setting)}: the default is what a choice must beat")
    ps = {}
    for p, nodes in shapes:
        ps.setdefault(p, []).append(nodes)
    chosen_shape = {}
    for p, node_counts in ps.items():
        ordered = sorted(node_counts, key=lambda n: (not str(n).isdigit(), int(n) if str(
            n).isdigit() else 0))
        chosen_shape[p] = ordered[-1]
        if len(node_counts) > 1:
            notes.append(f"p={p} was measured on {', '.join(map(str, ordered))} nodes; the "
                         f"tuning files select by process count only: {ordered[-1]} nodes "
                         "(the most) decide")
    stats = result.stats
    cells, margins = [], []
    for (p, nodes), by_setting in sorted(shapes.items()):
        for variable in library.variables:
            default_group = by_setting["default"][1]
            table = stats.xs(default_group, level="group")
            if variable.op not in table.index.get_level_values("op"):
                continue
            for (distribution, b), row in table.xs(variable.op, level="op").iterrows():
                candidates = []
                for label, (values, group) in by_setting.items():
                    key = (group, variable.op, distribution, b)
                    candidate = _candidate(result, key, label, values.get(variable.key,
                                                                          "default"), stat)
                    if candidate is not None:
                        candidates.append(candidate)
                if len(candidates) < 2 or not any(c.setting == "default" for c in candidates):
                    continue
                candidates.sort(key=lambda c: c.us)
                block = int(row["m_padded"]) // p
                size = (SIZE_RULES[variable.size_rule][1](block, TYPE_SIZE, p)
                        if variable.size_rule else 0)
                cell = Cell(p, nodes, variable, distribution, int(b), block, size, candidates,
                            stat=stat)
                cell.over_default = _margin(cell.default, cell.best, stat)
                runner = cell.runner_up
                cell.over_runner_up = _margin(runner, cell.best, stat) if runner else None
                margins += [m for m in (cell.over_default, cell.over_runner_up) if m]
                tuned_group = tuned_groups.get((p, nodes))
                if tuned_group is not None:
                    cell.tuned = _candidate(result, (tuned_group, variable.op, distribution, b),
                                            "tuned", "tuned", stat)
                    if cell.tuned is not None:
                        cell.tuned_vs_best = _margin(cell.tuned, cell.best, stat)
                        cell.tuned_vs_best.role = "tuned"
                        margins.append(cell.tuned_vs_best)
                cells.append(cell)
    # The sweep's tests decide the choices; a tuned re-run among the inputs is compared after,
    # as its own family of tests.
    tests = _decide_margins([m for m in margins if m.role == "sweep"], settings.alpha)
    for cell in cells:
        if cell.best.value != "default" and _faster(cell.over_default, settings.threshold):
            cell.chosen = cell.best.value
    _note_resolution(cells, tests, settings, notes)
    choices = []
    for variable in library.variables:
        by_p = {}
        for p, nodes in chosen_shape.items():
            mine = [c for c in cells if c.variable is variable and c.p == p and c.nodes == nodes]
            if not mine:
                continue
            if variable.size_rule:
                by_p[p] = _ranges(mine)
            else:
                by_p[p] = [tuning_files.Range(0, None, _no_harm(mine, settings, notes))]
        if by_p:
            choices.append((variable, by_p))
    # From here on a cell's choice is what the file selects for it (its size range's value, or
    # the one value of an operation the library cannot select by size).
    for cell in cells:
        by_p = {v.name: c for v, c in choices}.get(cell.variable.name, {})
        ranges = by_p.get(cell.p, [])
        cell.chosen = next((r.value for r in ranges if not cell.variable.size_rule or (
            r.low <= cell.size and (r.high is None or cell.size <= r.high))), cell.chosen)
        if cell.tuned is not None:
            chosen = next((c for c in cell.candidates if c.value == cell.chosen), cell.default)
            cell.tuned_vs_chosen = _margin(cell.tuned, chosen, stat)
            cell.tuned_vs_chosen.role = "tuned"
            margins.append(cell.tuned_vs_chosen)
    _decide_margins([m for m in margins if m.role == "tuned"], settings.alpha)
    findings = _findings(result, shapes, library, stat)
    labels = sorted({label for by_setting in shapes.values() for label in by_setting})
    return Recommendation(library.key, stat, settings.threshold, settings.alpha, cells, choices,
                          findings, notes, labels, tests)


def _note_resolution(cells, tests, settings, notes):
    """Cells where the best setting beat the default in every pair of launches, yet too few
    launches were measured for that to stand out after the correction: they stay with the
    default, and the notes say that more launches would decide them (irrcheck's rule)."""
    floored = {}
    for cell in cells:
        m = cell.over_default
        if (m.comparison is None or m.comparison.unit != "launch" or m.significant or
                cell.best.value == "default" or m.ratio <= 1 + settings.threshold):
            continue
        if m.comparison.at_floor():
            floored.setdefault((m.comparison.n_lhs, m.comparison.n_rhs), []).append(cell)
    for (n1, n2), undecided in sorted(floored.items()):
        notes.append(
            f"{len(undecided)} cell(s) stay with the default although the best setting was "
            f"faster in every pair of {n1} vs {n2} launches ("
            + ", ".join(f"{c.variable.op} {c.distribution} b={c.b}: {c.best.value} "
                        f"{c.over_default.ratio:.3f}x" for c in undecided)
            + f"): {ratio_test.p_value(n1 * n2, n1, n2):.2g} is the smallest p-value these "
            f"launches allow, not significant after the correction over {tests} tests; more "
            "launches would decide them (8 a side: 1/12870)")


def _candidate(result, key, label, value, stat):
    stats = result.stats
    if key not in stats.index:
        return None
    row = stats.loc[key]
    launches = result.samples.get(key)
    if launches is None:  # summary input: the published statistic, untested
        us = float(row[stat])
        return None if not math.isfinite(us) or us <= 0 else Candidate(label, value, us, None,
                                                                       "untested")
    simulated = result.simulated.get(key[0], False)
    unit = "exact" if simulated else "launch" if len(launches) >= 2 else "repetition"
    us, values = _statistic(launches, stat, unit)
    if us <= 0:
        return None
    return Candidate(label, value, us, values, unit)


def _no_harm(cells, settings, notes):
    """The value for an operation the library selects without a size: the best geometric-mean
    speedup over the default, when it exceeds 1 + threshold and (tested data) more cells are
    significantly faster than significantly slower; its worst cell goes into the notes."""
    best_value, best_score, worst = "default", 1.0 + settings.threshold, None
    values = {c.value for cell in cells for c in cell.candidates} - {"default"}
    for value in sorted(values):
        ratios, balance = [], 0
        for cell in cells:
            mine = next((c for c in cell.candidates if c.value == value), None)
            if mine is None:
                continue
            ratios.append((cell.default.us / mine.us, cell))
            faster = _margin(cell.default, mine, cell.stat)
            slower = _margin(mine, cell.default, cell.stat)
            _decide_margins([faster, slower], settings.alpha)  # the cell's two one-sided tests
            balance += bool(faster.significant) - bool(slower.significant)
        tested = any(c.unit != "untested" for cell in cells for c in cell.candidates)
        score = math.exp(sum(math.log(r) for r, _ in ratios) / len(ratios)) if ratios else 0
        if score > best_score and (balance > 0 or not tested):
            best_value, best_score, worst = value, score, min(ratios, key=lambda rc: rc[0])
    if worst is not None:
        variable, (ratio, cell) = cells[0].variable, worst
        notes.append(f"p={cells[0].p}: {variable.name}={best_value} for all sizes (the library "
                     f"cannot select {variable.op} by size): {best_score:.3f}x faster than the "
                     f"default over {len(cells)} cells (geometric mean); its worst cell "
                     f"{cell.distribution} b={cell.b}: {ratio:.3f}x")
    return best_value


def _findings(result, shapes, library, stat):
    """Guideline violations of the library's operations that every swept setting shows, by the
    recommendation's statistic."""
    findings = []
    family_of = {f.name: f for f in FAMILIES}
    for (p, nodes), by_setting in sorted(shapes.items()):
        groups = {group: label for label, (_, group) in by_setting.items()}
        seen = {}
        for check in result.checks:
            if check.group in groups and check.lhs_op.startswith("MPI_") and check.stat == stat:
                key = (check.guideline, check.lhs_op, check.rhs_op, check.distribution,
                       check.b, check.stat)
                seen.setdefault(key, []).append(check)
        for key, checks in sorted(seen.items(), key=lambda item: tuple(map(str, item[0]))):
            if len(checks) == len(groups) and all(c.confirmed for c in checks):
                guideline, lhs, rhs, distribution, b, stat = key
                ratios = sorted(c.ratio for c in checks)
                # Guideline (2)'s right side runs the family's regular collective
                ops = {lhs, rhs} | ({family_of[checks[0].family].regular}
                                    if rhs == family_of[checks[0].family].padded else set())
                names = [v.name for v in library.variables if v.op in ops] or [
                    v.name for v in library.variables]
                findings.append(
                    f"p={p}: no swept setting of {', '.join(names)} ({len(checks)} tried) makes "
                    f"{lhs} ⪯ {operations.label(rhs)} (Guideline ({guideline})) on "
                    f"{distribution} b={b} ({stat}): violated in every one, ratios "
                    f"{ratios[0]:.3f}-{ratios[-1]:.3f}")
    return findings
