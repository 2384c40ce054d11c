"""Träff's performance guidelines (2017, Section 4), for gather and, analogously, scatter:

  (1) MPI_Gather(m) ⪯ MPI_Gatherv(m)             where the problem is regular (m = m');
      the padded regular operation is violating when slower than a v-implementation
      (the library's MPI_Gatherv, and TUW_Gatherv); flagged in the MPI_Gather column.
  (2) MPI_Gatherv(m) ⪯ MPI_Allreduce(1) + MPI_Gather(m')
      the v-implementation is violating when slower than the measured right-hand side
      (irrbench's Guideline2_Gather); flagged in the v-implementation's column.

A check compares one statistic (avg, min or median) with a relative slack: violated when
lhs > (1 + slack) * rhs. Where both sides have repetitions, a one-sided Mann-Whitney U test
(scipy) asks whether lhs's repetitions are stochastically larger than (1 + slack) times rhs's;
a violation is significant only if it rejects at level alpha. A report makes many such tests
(one per guideline, implementation, distribution and b), so by default Holm's step-down
correction keeps the chance of any false alarm in the whole report below alpha. Summary-only
input cannot be tested: its violations are reported as untested and count as confirmed.
Simulated input (SMPI: deterministic) is compared exactly, by the medians, without a test."""
import dataclasses
import math

import numpy as np
from scipy import stats as scipy_stats

from . import operations


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
    lhs: float  # µs
    rhs: float
    p_value: float  # NaN when not testable
    violated: bool
    significant: object  # True/False, or None when not testable (summary input)
    p_adjusted: float = math.nan  # after a multiple-testing correction, if one was applied
    exact: bool = False  # simulated input: decided by the medians, no test

    @property
    def test_key(self):
        return (self.group, self.family, self.guideline, self.lhs_op, self.rhs_op,
                self.distribution, self.b)

    @property
    def factor(self):
        return self.lhs / self.rhs if self.rhs > 0 else math.inf

    @property
    def confirmed(self):
        """A violation that stands: significant, or untestable (published summaries)."""
        return self.violated and self.significant is not False

    @property
    def flagged_op(self):
        """The table column the violation is marked in (the left-hand side in both guidelines)."""
        return self.lhs_op


@dataclasses.dataclass
class Outcome:
    checks: list
    skipped: list  # notes on guidelines that could not be checked, naming what is missing


def _test(lhs_samples, rhs_samples, slack, alpha, exact=False):
    if lhs_samples is None or rhs_samples is None or not len(lhs_samples) or \
            not len(rhs_samples):
        return math.nan, None
    if exact:
        # Simulated input (SMPI: deterministic, the same times on every run) has no noise to
        # test against: the medians decide, reported as p = 0 (violated) or 1 (not).
        exceeds = bool(np.median(lhs_samples) > (1.0 + slack) * np.median(rhs_samples))
        return (0.0 if exceeds else 1.0), exceeds
    if len(lhs_samples) < 2 or len(rhs_samples) < 2:
        return math.nan, None
    result = scipy_stats.mannwhitneyu(lhs_samples, rhs_samples * (1.0 + slack),
                                      alternative="greater")
    return float(result.pvalue), bool(result.pvalue < alpha)


def check_group(group, table, samples, stats, slack, alpha, exact=False):
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
        checks += _compare(group, family.name, table, samples, stats, slack, alpha, exact, pairs)
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


def _compare(group, family, table, samples, stats, slack, alpha, exact, pairs):
    """One Check per pair and statistic where both sides were measured."""
    checks = []
    for guideline, lhs_op, rhs_op, distribution, b in pairs:
        if (lhs_op, distribution, b) not in table.index or \
                (rhs_op, distribution, b) not in table.index:
            continue  # one side not measured for this case: nothing to compare
        lhs_row = table.loc[(lhs_op, distribution, b)]
        rhs_row = table.loc[(rhs_op, distribution, b)]
        p_value, significant = _test(samples.get((group, lhs_op, distribution, b)),
                                     samples.get((group, rhs_op, distribution, b)), slack, alpha,
                                     exact)
        for stat in stats:
            lhs, rhs = lhs_row[stat], rhs_row[stat]
            if not (math.isfinite(lhs) and math.isfinite(rhs)):
                continue  # e.g. median of summary-only input
            violated = bool(lhs > (1.0 + slack) * rhs)
            checks.append(Check(group, family, guideline, distribution, int(b), stat, lhs_op,
                                rhs_op, float(lhs), float(rhs), p_value, violated, significant,
                                exact=exact))
    return checks


def correct_holm(checks, alpha):
    """Holm's step-down procedure over the distinct tests (the statistics of one comparison share
    its test), as adjusted p-values: the k-th smallest of n becomes max over j <= k of
    min(1, (n - j + 1) p_j), and a test rejects when that is <= alpha. Controls the family-wise
    error rate for any dependence between the tests."""
    tests = {}
    for c in checks:
        if c.significant is not None:
            tests.setdefault(c.test_key, c.p_value)
    adjusted, running, n = {}, 0.0, len(tests)
    for k, (key, p_value) in enumerate(sorted(tests.items(), key=lambda kv: kv[1])):
        running = max(running, min(1.0, (n - k) * p_value))
        adjusted[key] = running
    for c in checks:
        if c.significant is not None:
            c.p_adjusted = adjusted[c.test_key]
            c.significant = c.p_adjusted <= alpha
    return n
