"""The analysis behind every report: read the files once, group them, summarize the repetitions,
check the guidelines (with the multiple-testing correction) and lay out the paper's tables.
irrcheck's command line and irrplot both call analyse(); the analysis options are defined once
here (add_arguments) for both command lines."""
import argparse
import dataclasses

from . import UserError, load
from . import ratio_test
from .check import FAMILIES, STATISTICS, check_group, correct
from .stats import summarize
from .table import build_tables

# Runs that differ in these are different experiments: never pooled into one table silently.
CONSISTENT_KEYS = ("p", "nodes", "library", "setting")  # nodes: placement differs


# The practical threshold: a tested violation is red only when its ratio exceeds 1 + this. 5 %:
# A/A comparisons of launches on this project's machines stay within it (test_calibration.py).
DEFAULT_THRESHOLD = 0.05


@dataclasses.dataclass
class Settings:
    """How checks are decided (irrcheck's and irrplot's --stat, --slack, ...)."""
    stat: list = dataclasses.field(default_factory=lambda: ["avg", "min"])
    slack: float = 0.0
    threshold: float = DEFAULT_THRESHOLD
    alpha: float = 0.05
    correction: str = "bh"
    drop_late: bool = False
    all_ops: bool = False


@dataclasses.dataclass
class Analysis:
    groups: list  # [(label, [Source], [Table])]
    checks: list  # [Check]
    skipped: list  # notes on guidelines that could not be checked
    notes: list
    stats: object  # pandas DataFrame indexed by group, op, distribution, b
    sources: list  # [Source] of every input file
    settings: Settings
    group_by: list
    samples: dict = dataclasses.field(default_factory=dict)  # case -> [one launch's µs]
    simulated: dict = dataclasses.field(default_factory=dict)  # group -> simulated input?


def add_arguments(parser):
    """The analysis options, for any argparse command line."""
    parser.add_argument("--stat", default="avg,min",
                        help="statistics to decide and show, from avg,min,median (default avg,min)")
    parser.add_argument("--slack", type=float, default=0.0,
                        help="relative slack: violated when lhs > (1+slack)*rhs (default 0)")
    parser.add_argument("--threshold", type=float, default=DEFAULT_THRESHOLD,
                        help="practical threshold: a measured violation is red only when its ratio "
                        f"exceeds 1+threshold (default {DEFAULT_THRESHOLD:g})")
    parser.add_argument("--alpha", type=float, default=0.05,
                        help="significance level of the one-sided Mann-Whitney test (default 0.05)")
    parser.add_argument("--correction", default="bh", choices=tuple(ratio_test.CORRECTIONS),
                        help="multiple-testing correction over the report's tests: bh keeps the "
                        "expected share of false alarms among the red cells below alpha "
                        "(default); holm the chance of any false alarm; none tests each at alpha")
    parser.add_argument("--drop-late", action="store_true",
                        help="drop repetitions flagged late (irrbench --sync window)")


def settings_from(args, parser):
    """Settings from parsed add_arguments options; bad values are parser errors (exit 2)."""
    stat = [s.strip() for s in args.stat.split(",") if s.strip()]
    unknown = [s for s in stat if s not in STATISTICS]
    if unknown or not stat:
        parser.error(f"--stat: unknown statistic {', '.join(unknown) or '(empty)'}; "
                     f"valid: {','.join(STATISTICS)}")
    if not args.slack >= 0:
        parser.error(f"--slack: {args.slack} is negative; give a fraction >= 0, e.g. 0.05")
    if not args.threshold >= 0:
        parser.error(f"--threshold: {args.threshold} is negative; give a fraction >= 0, e.g. 0.05")
    if not 0 < args.alpha < 1:
        parser.error(f"--alpha: {args.alpha} is not in (0, 1), e.g. 0.05")
    return Settings(stat, args.slack, args.threshold, args.alpha, args.correction, args.drop_late,
                    getattr(args, "all_ops", False))


class _WordsParser(argparse.ArgumentParser):
    def error(self, message):
        raise UserError(f"--check-args: {message}")


def parse_settings(words):
    """Settings from a word list such as ['--stat', 'median'] (irrplot's --check-args); bad ones
    are a UserError."""
    parser = _WordsParser(prog="--check-args", add_help=False)
    add_arguments(parser)
    return settings_from(parser.parse_args(words), parser)


def group_value(source, p, key):
    """The value of one group key for a source: what its table (and plot) is labelled by."""
    if key == "p":
        return f"p={p}"
    if key == "file":
        return source.path
    if key == "setting":
        return source.setting()
    if key == "library":
        return source.metadata.get("library", "unknown library").split(",")[0]
    return f"{key}={source.metadata.get(key, '?')}"


def differing_keys(sources):
    """The keys among CONSISTENT_KEYS whose values differ between the sources."""
    return [key for key in CONSISTENT_KEYS
            if len({group_value(s, s.metadata.get("p", "?"), key) for s in sources}) > 1]


def _assign_groups(measurements, keys):
    """Adds a 'group' column; refuses to pool different p, libraries or settings unless they
    are group keys."""
    by_path = {s.path: s for s in measurements.sources}
    frames = [measurements.reps, measurements.summaries]
    # (source, p) pairs are few, rows many: each pair's values once
    pairs = {(s, p) for frame in frames for s, p in zip(frame["source"], frame["p"])}
    group_of = {(s, p): " | ".join(group_value(by_path[s], p, k) for k in keys) or "all"
                for s, p in pairs}
    for frame in frames:
        frame["group"] = [group_of[pair] for pair in zip(frame["source"], frame["p"])]
    for key in CONSISTENT_KEYS:
        if key in keys:
            continue
        seen = {}
        for source, p in pairs:
            seen.setdefault(group_of[(source, p)], {}).setdefault(
                group_value(by_path[source], p, key), set()).add(source)
        for group, values in seen.items():
            if len(values) > 1:
                listing = "; ".join(f"{v} ({', '.join(sorted(files))})"
                                    for v, files in sorted(values.items()))
                raise UserError(f"mixed {key} in one table: {listing}; pass --group-by "
                                f"{','.join(keys + [key])} for one table each")


def _check_launches(group, sources, simulated, settings, notes):
    """Each file is one launch: the same launch given twice would count twice, so it is an error;
    fewer launches than a test at alpha needs is said in the notes."""
    seen = {}
    for source in sources:
        identity = tuple(source.metadata.get(k, "") for k in ("hostname", "start_time", "launch",
                                                               "p", "library"))
        if identity[1] and identity in seen:
            raise UserError(f"{seen[identity]} and {source.path} are the same launch (hostname, "
                            f"start_time, launch and library agree): give each launch once")
        seen[identity] = source.path
    if simulated:
        return
    where = f"[{group}] " if group != "all" else ""
    needed = ratio_test.minimum_units(settings.alpha)
    if len(sources) == 1:
        notes.append(f"{where}one launch: its verdicts compare repetitions of a single mpirun "
                     "and ignore launch-to-launch variation; give irrcheck at least "
                     f"{needed} launches (irrbench --launch, scripts/run-main LAUNCHES=N) to test "
                     "across launches")
    elif len(sources) < needed:
        notes.append(f"{where}{len(sources)} launches: fewer than the {needed} per side a test "
                     f"at alpha {settings.alpha:g} needs, so no check can be significant")


def _note_resolution(checks, tests, settings, notes):
    """Says when launches were too few for a test to stand out after the correction: with n
    launches a side the smallest p-value is 1 / C(2n, n)."""
    floored = {}
    for c in checks:
        if c.unit == "launch" and c.violated and not c.significant and c.comparison is not None:
            if c.comparison.at_floor():
                floored.setdefault((c.comparison.n_lhs, c.comparison.n_rhs),
                                   set()).add(c.test_key)
    for (n1, n2), keys in sorted(floored.items()):
        notes.append(f"{len(keys)} violated test(s) reached the smallest p-value {n1} vs {n2} "
                     f"launches allow ({ratio_test.p_value(n1 * n2, n1, n2):.2g}) and are not "
                     f"significant after the {ratio_test.CORRECTIONS[settings.correction]} "
                     f"correction over {tests} tests: more launches would decide them (8 a "
                     "side: 1/12870)")


def known_ops():
    ops = set()
    for f in FAMILIES:
        ops |= {f.regular, f.padded, *f.irregular, *f.baselines, *f.persistent}
    return ops


def analyse(files, settings=None, group_by=(), require_checks=True):
    """Everything but the output. group_by: keys (p, nodes, library, setting, file or a metadata key),
    or "auto" for the keys whose values differ between the files. Without require_checks
    (irrplot), data that allows no guideline check is not an error."""
    settings = settings or Settings()
    measurements = load.read_files(files)
    keys = differing_keys(measurements.sources) if group_by == "auto" else list(group_by)
    notes = list(measurements.notes)
    if settings.drop_late and not measurements.reps.empty:
        late = measurements.reps["late"] > 0
        if late.any():
            notes.append(f"dropped {int(late.sum())} late repetitions (--drop-late)")
        measurements.reps = measurements.reps[~late]
    ignored = sorted((set(measurements.reps["op"]) | set(measurements.summaries["op"]))
                     - known_ops())
    if ignored:
        notes.append(f"not part of the guidelines, not shown: {', '.join(ignored)}")
    _assign_groups(measurements, keys)
    stats, samples = summarize(measurements.reps, measurements.summaries)
    stats = stats[stats.index.get_level_values("op").isin(known_ops())]
    if stats.empty:
        raise UserError(f"no gather or scatter operation in {', '.join(files)} "
                        f"(found only {', '.join(ignored)})")
    labels = list(dict.fromkeys(stats.index.get_level_values("group")))
    checks, skipped, simulated_groups = [], [], {}
    by_path = {s.path: s for s in measurements.sources}
    for group in labels:
        paths = set(measurements.reps.loc[measurements.reps["group"] == group, "source"])
        simulated = bool(paths) and all(
            by_path[p].metadata.get("simulated", "no").startswith("yes") for p in paths)
        simulated_groups[group] = simulated
        _check_launches(group, [by_path[p] for p in files if p in paths], simulated, settings,
                        notes)
        outcome = check_group(group, stats.xs(group, level="group"), samples, settings.stat,
                              settings.slack, settings.threshold, exact=simulated)
        checks += outcome.checks
        skipped += [(f"[{group}] " if len(labels) > 1 else "") + s for s in outcome.skipped]
    if not checks and require_checks:
        raise UserError("no guideline can be checked: " + "; ".join(dict.fromkeys(skipped)))
    tests = correct(checks, settings.alpha, settings.correction)
    _note_resolution(checks, tests, settings, notes)
    groups = []
    for group in labels:
        in_group = set(measurements.reps.loc[measurements.reps["group"] == group, "source"]) | \
            set(measurements.summaries.loc[measurements.summaries["group"] == group, "source"])
        sources = [by_path[p] for p in files if p in in_group]
        groups.append((group, sources,
                       build_tables(group, stats.xs(group, level="group"),
                                    [c for c in checks if c.group == group], settings.stat,
                                    settings.all_ops)))
    return Analysis(groups, checks, skipped, notes, stats, measurements.sources, settings, keys,
                    samples, simulated_groups)
