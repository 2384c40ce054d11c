"""Träff's performance guidelines (2017, Section 4), for gather and, analogously, scatter:

  (1) MPI_Gather(m) ⪯ MPI_Gatherv(m)             where the problem is regular (m = m');
      the padded regular operation is violating when slower than a v-implementation
      (the library's MPI_Gatherv, and TUW_Gatherv); flagged in the MPI_Gather column.
  (2) MPI_Gatherv(m) ⪯ MPI_Allreduce(1) + MPI_Gather(m')
      the v-implementation is violating when slower than the measured right-hand side
      (irrbench's Guideline2_Gather); flagged in the v-implementation's column.

A check compares one statistic (avg, min or median) of both sides. Its ratio lhs/rhs comes with
an interval (ratio_test.py: the Hodges-Lehmann ratio, the Moses interval and the one-sided
Mann-Whitney test that belong together). The unit of the test is the launch when both sides
have at least two (each launch's own avg, min or median: one value per mpirun, Hunold &
Carpen-Amarie 2016), otherwise the repetition (the verdict then ignores launch-to-launch
variation: the report says so). A check is violated when the ratio exceeds 1 + slack; it is a
confirmed violation (red) only when it is also significant at alpha after the report's
multiple-testing correction (Benjamini-Hochberg by default: the expected share of false alarms
among the red cells stays below alpha) and the ratio exceeds 1 + threshold, the practical
threshold below which a difference is not worth a library developer's time (default 5 %, from
A/A runs on real machines: tests/python/test_calibration.py). Summary-only input cannot be tested:
its violations are reported as untested and count as confirmed. Simulated input (SMPI:
deterministic) is compared exactly, by the medians, without a test."""
import dataclasses
import math

import numpy as np

from . import operations, ratio_test
from .stats import per_launch as stats_of


@dataclasses.dataclass(frozen=True)
class Family:
    name: str  # "gather" / "scatter"
    regular: str  # MPI_Gather
    padded: str  # Guideline2_Gather: MPI_Allreduce(1) + MPI_Gather(m')
    irregular: tuple  # the v-implementations the guidelines are checked for
    baselines: tuple  # further v-implementations shown on request, not checked
    persistent: tuple = ()  # persistent v-collectives (X_init): Guideline (3)


def _family(name):
    """A family's operations by role, from the table of operations."""
    regular, = operations.of_family(name, ("regular",))
    padded, = operations.of_family(name, ("guideline2",))
    return Family(name, regular, padded, operations.of_family(name, ("irregular",)),
                  operations.of_family(name, ("baseline",)),
                  operations.of_family(name, ("persistent",)))


def persistent_pairs(family, ops):
    """Guideline (3), our addition for persistent collectives, as (lhs, rhs) pairs present in
    ops: a persistent operation is not slower than the plain call of the same algorithm
    (TUW_Gatherv_init ⪯ TUW_Gatherv: setting the call up once cannot make it slower), and the
    library's persistent operation is not slower than TUW's (MPI_Gatherv_init ⪯
    TUW_Gatherv_init: what point-to-point achieves, the library can)."""
    present = [op for op in family.persistent if op in ops]
    pairs = [(op, op[:-len("_init")]) for op in present if op[:-len("_init")] in ops]
    native = [op for op in present if operations.BY_NAME[op].algorithm == "library-persistent"]
    tuw = [op for op in present if operations.BY_NAME[op].algorithm == "TUW-persistent"]
    pairs += [(lhs, rhs) for lhs in native for rhs in tuw]
    return pairs


FAMILIES = (_family("gather"), _family("scatter"))

STATISTICS = ("avg", "min", "median")


def display_name(op):
    """How the report names an operation (the table's label: the right-hand side of (2) by its
    meaning)."""
    return operations.label(op)


@dataclasses.dataclass
class Check:
    group: str
    family: str
    guideline: int  # 1 or 2 (the paper's), 3 (persistent operations: ours)
    distribution: str
    b: int
    stat: str
    lhs_op: str  # the side that must not be slower
    rhs_op: str
    lhs: float  # µs: the statistic (several launches: the median of the launches' statistics)
    rhs: float
    unit: str  # "launch", "repetition", "exact" (simulated) or "untested" (summary input)
    launches: tuple  # (lhs, rhs) launches; (0, 0) for summary input
    ratio: float  # lhs / rhs; across launches the Hodges-Lehmann ratio of their statistics
    threshold: float  # practical threshold: red only when ratio > 1 + threshold (tested units)
    slack: float = 0.0
    comparison: object = None  # ratio_test.Comparison when tested
    p_value: float = math.nan
    p_adjusted: float = math.nan
    level: float = math.nan  # the one-sided level the test was decided at, after correction
    ratio_low: float = math.nan  # the interval of the ratio at that level
    ratio_high: float = math.nan
    coverage: float = math.nan  # the interval's two-sided coverage
    interval_corrected: bool = True  # False: too few units for the corrected level, at alpha
    significant: object = None  # True/False, or None when not testable (summary input)

    @property
    def exact(self):
        return self.unit == "exact"

    @property
    def test_key(self):
        """The test of this check (one per statistic and comparison)."""
        return (self.group, self.family, self.guideline, self.lhs_op, self.rhs_op,
                self.distribution, self.b, self.stat)

    @property
    def violated(self):
        return bool(self.ratio > 1.0 + self.slack)

    @property
    def practical(self):
        """Large enough to matter: tested ratios beyond the threshold (exact and published
        comparisons have no noise to allow for)."""
        return self.unit in ("exact", "untested") or self.ratio > 1.0 + self.threshold

    @property
    def confirmed(self):
        """A violation that stands: significant (or untestable published summaries) and beyond
        the practical threshold."""
        return self.violated and self.significant is not False and self.practical

    @property
    def flagged_op(self):
        """The table column the violation is marked in (the left-hand side in both guidelines)."""
        return self.lhs_op

    def decide(self, p_adjusted, level, alpha):
        """The outcome of the test: significant when the adjusted p-value is at most alpha; the
        interval at `level` (alpha after the report's correction; with bh and none its lower end
        lies above 1 + slack exactly when the check is significant)."""
        self.p_adjusted, self.level = p_adjusted, level
        (self.ratio_low, self.ratio_high, self.coverage,
         self.interval_corrected) = ratio_test.decided_interval(self.comparison, level, alpha)
        self.significant = bool(p_adjusted <= alpha)


@dataclasses.dataclass
class Outcome:
    checks: list
    skipped: list  # notes on guidelines that could not be checked, naming what is missing


def check_group(group, table, samples, stats, slack, threshold, exact=False):
    """Runs every guideline check possible on one group's statistics (indexed by op,
    distribution, b); exact: the group's data is simulated (deterministic), no test."""
    checks, skipped = [], []
    ops = set(table.index.get_level_values("op"))
    all_cases = sorted({(d, b) for (_, d, b) in table.index})
    for family in FAMILIES:
        pairs = [(3, lhs, rhs, d, b) for lhs, rhs in persistent_pairs(family, ops)
                 for d, b in all_cases]
        present = [op for op in family.irregular if op in ops]
        if ({family.regular, family.padded} | set(family.irregular)) & ops:
            pairs += _guideline_1_and_2_pairs(family, table, ops, present, skipped)
        checks += _compare(group, family.name, table, samples, stats, slack, threshold, exact,
                           pairs)
    return Outcome(checks, skipped)


def _guideline_1_and_2_pairs(family, table, ops, present, skipped):
    """Guidelines (1) and (2) of the paper as (guideline, lhs, rhs, distribution, b); what cannot
    be checked is noted in skipped."""
    pairs = []
    if family.regular not in ops or not present:
        need = family.regular if family.regular not in ops else " or ".join(family.irregular)
        skipped.append(f"Guideline (1) for {family.name} not checked: no {need} measurements "
                       f"(irrbench --ops {family.regular},{','.join(family.irregular)})")
    else:
        regular_cases = [(d, b) for (op, d, b), row in table.iterrows()
                         if op == family.regular and row["m"] == row["m_padded"]]
        if not regular_cases:
            skipped.append(f"Guideline (1) for {family.name} not checked: no regular problem "
                           "(m = m') was measured, e.g. distribution 'same'")
        pairs += [(1, family.regular, op, d, b) for op in present for d, b in regular_cases]
    if family.padded not in ops or not present:
        need = family.padded if family.padded not in ops else " or ".join(family.irregular)
        skipped.append(f"Guideline (2) for {family.name} not checked: no {need} measurements "
                       f"(irrbench --ops {family.padded},{','.join(family.irregular)})")
    else:
        cases = [(d, b) for (op, d, b) in table.index if op == family.padded]
        pairs += [(2, op, family.padded, d, b) for op in present for d, b in cases]
    return pairs


def _compare(group, family, table, samples, stats, slack, threshold, exact, pairs):
    """One Check per pair and statistic where both sides were measured."""
    checks = []
    for guideline, lhs_op, rhs_op, distribution, b in pairs:
        if (lhs_op, distribution, b) not in table.index or \
                (rhs_op, distribution, b) not in table.index:
            continue  # one side not measured for this case: nothing to compare
        lhs_row = table.loc[(lhs_op, distribution, b)]
        rhs_row = table.loc[(rhs_op, distribution, b)]
        lhs_launches = samples.get((group, lhs_op, distribution, b))
        rhs_launches = samples.get((group, rhs_op, distribution, b))
        tested = lhs_launches is not None and rhs_launches is not None
        launches = (len(lhs_launches), len(rhs_launches)) if tested else (0, 0)
        by_launch = tested and min(launches) >= 2 and not exact
        # every repetition of a side, for the exact and the one-launch comparisons (once a pair)
        lhs_all, rhs_all = ((np.concatenate(lhs_launches), np.concatenate(rhs_launches))
                            if tested and not by_launch else (None, None))
        for stat in stats:
            lhs, rhs = float(lhs_row[stat]), float(rhs_row[stat])
            if not (math.isfinite(lhs) and math.isfinite(rhs)):
                continue  # e.g. median of summary-only input
            check = Check(group, family, guideline, distribution, int(b), stat, lhs_op, rhs_op,
                          lhs, rhs, "untested", launches, lhs / rhs if rhs > 0 else math.inf,
                          threshold, slack)
            if exact and tested:
                # Simulated input (SMPI: deterministic, the same times on every run) has no
                # noise to test against: the medians decide, reported as p = 0 or 1.
                exceeds = bool(np.median(lhs_all) > (1.0 + slack) * np.median(rhs_all))
                check.unit, check.significant = "exact", exceeds
                check.p_value = check.p_adjusted = 0.0 if exceeds else 1.0
            elif by_launch:
                check.unit = "launch"
                check.comparison = ratio_test.compare(stats_of(lhs_launches, stat),
                                                      stats_of(rhs_launches, stat), slack,
                                                      "launch")
            elif tested:
                check.unit = "repetition"
                check.comparison = ratio_test.bootstrap(lhs_all, rhs_all, stat, slack)
            if check.comparison is not None:
                check.p_value = check.comparison.p_value
                check.ratio = check.comparison.ratio
            elif check.unit in ("launch", "repetition"):
                check.significant = False  # a time of 0: nothing to test on a log scale
            checks.append(check)
    return checks


def correct(checks, alpha, method):
    """Decides every tested check at alpha after the multiple-testing correction over the
    report's distinct tests (ratio_test.adjusted_levels: bh, holm or none). Returns the number
    of distinct tests."""
    tests = {}
    for c in checks:
        if c.comparison is not None:
            tests.setdefault(c.test_key, c.p_value)
    decided = ratio_test.adjusted_levels(tests, alpha, method)
    for c in checks:
        if c.comparison is not None:
            c.decide(*decided[c.test_key], alpha)
    return len(tests)
