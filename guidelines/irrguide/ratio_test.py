"""The comparison behind a verdict: is lhs slower than (1 + slack) times rhs, by how much, and how
sure are we? One distribution-free method for both units a check can have:

- launches (>= 2 per side): each launch contributes one value, its avg, min or median over its
  repetitions (Hunold & Carpen-Amarie, IEEE TPDS 2016: the launch, not the repetition, is the
  unit that repeats an experiment);
- repetitions (one launch on a side): each repetition is a value; the verdict then ignores
  launch-to-launch variation, and the report says so.

Across launches, the ratio is the Hodges-Lehmann estimate, the median of lhs_i / rhs_j over all
pairs of launches, and its interval the Moses interval of those pair ratios: the interval that
belongs to the one-sided Mann-Whitney (Wilcoxon rank-sum) test, so that "significant at level a"
and "the interval's lower end lies above 1 + slack" are the same statement, also after a
multiple-testing correction changes a. With few units the exact null distribution of U is used
(4 launches a side: the smallest p-value is 1/70), beyond that the normal approximation. Pairs
that tie count against significance (conservative).

Within one launch, the ratio is that of the statistic itself (avg, min or median of the
repetitions) and its interval and p-value come from a percentile bootstrap of the repetitions
(fixed seed: the same report every time) - the same duality of interval and test."""
import dataclasses
import functools
import math

import numpy as np
from scipy import stats as scipy_stats

CORRECTIONS = {"bh": "Benjamini-Hochberg", "holm": "Holm", "none": "uncorrected"}
EXACT_MAX_PAIRS = 2500  # n1 * n2 up to this: exact null distribution (50 x 50 units)


@functools.lru_cache(maxsize=None)
def _upper_tail(n1, n2):
    """P(U >= u) for u = 0 .. n1*n2 under H0 (all arrangements equally likely), exact: the
    number of arrangements with U = u obeys c(m, n) = c(m-1, n) shifted by n + c(m, n-1)."""
    size = n1 * n2 + 1
    previous = [np.zeros(size) for _ in range(n2 + 1)]
    for n in range(n2 + 1):
        previous[n][0] = 1.0  # m = 0: one arrangement, U = 0
    for m in range(1, n1 + 1):
        current = [np.zeros(size) for _ in range(n2 + 1)]
        current[0][0] = 1.0
        for n in range(1, n2 + 1):
            current[n] = current[n - 1].copy()
            current[n][n:] += previous[n][:size - n]
        previous = current
    counts = previous[n2]
    return np.cumsum(counts[::-1])[::-1] / counts.sum()


def _normal_moments(n1, n2):
    return n1 * n2 / 2.0, math.sqrt(n1 * n2 * (n1 + n2 + 1) / 12.0)


def p_value(u, n1, n2):
    """P(U >= u) under H0."""
    if n1 * n2 <= EXACT_MAX_PAIRS:
        tail = _upper_tail(n1, n2)
        return float(tail[u]) if u < len(tail) else 0.0
    mean, sd = _normal_moments(n1, n2)
    return float(scipy_stats.norm.sf((u - 0.5 - mean) / sd))


def critical_u(n1, n2, level):
    """The smallest u with P(U >= u) <= level; n1 * n2 + 1 when no u reaches it."""
    pairs = n1 * n2
    if pairs <= EXACT_MAX_PAIRS:
        tail = _upper_tail(n1, n2)
        below = np.nonzero(tail <= level * (1 + 1e-12))[0]
        return int(below[0]) if len(below) else pairs + 1
    mean, sd = _normal_moments(n1, n2)
    return min(pairs + 1, max(0, math.ceil(mean + 0.5 + scipy_stats.norm.isf(level) * sd)))


@dataclasses.dataclass
class Comparison:
    unit: str  # "launch" or "repetition"
    n_lhs: int
    n_rhs: int
    log_ratios: np.ndarray  # sorted log(lhs_i / rhs_j) over all pairs
    p_value: float  # one-sided: lhs > (1 + slack) * rhs

    @property
    def ratio(self):
        """Hodges-Lehmann: the median pair ratio."""
        return float(math.exp(np.median(self.log_ratios)))

    def interval(self, level):
        """(low, high, coverage): the two-sided Moses interval whose lower end is the one-sided
        test at `level`; (0, inf) when the units are too few for that level."""
        pairs = len(self.log_ratios)
        u = critical_u(self.n_lhs, self.n_rhs, level)
        if u > pairs or u < 1:
            return 0.0, math.inf, 1.0
        low = float(math.exp(self.log_ratios[pairs - u]))
        high = float(math.exp(self.log_ratios[u - 1]))
        coverage = 1.0 - 2.0 * p_value(u, self.n_lhs, self.n_rhs)
        return low, high, max(0.0, coverage)

    def testable(self, level):
        return critical_u(self.n_lhs, self.n_rhs, level) <= len(self.log_ratios)

    def at_floor(self):
        """Whether the p-value is the smallest these launch counts allow (every pair agreed)."""
        return self.p_value <= p_value(self.n_lhs * self.n_rhs, self.n_lhs, self.n_rhs) * (
            1 + 1e-9)


BOOTSTRAP_RESAMPLES = 4000
# A bootstrap of a handful of repetitions claims far more certainty than it has (3 against 3
# all ordered would give p = 1/4001): below this many per side a launch is not tested.
BOOTSTRAP_MIN_REPETITIONS = 10
STATISTIC = {"avg": np.mean, "min": np.min, "median": np.median}


@dataclasses.dataclass
class BootstrapComparison:
    """The statistic's ratio within one launch: bootstrap resamples of the repetitions."""
    unit: str
    n_lhs: int
    n_rhs: int
    ratio: float
    resampled: np.ndarray  # sorted bootstrap ratios
    p_value: float

    def interval(self, level):
        if not self.testable(level):
            return 0.0, math.inf, 1.0
        low, high = np.quantile(self.resampled, [level, 1.0 - level])
        return float(low), float(high), 1.0 - 2.0 * level

    def testable(self, level):
        return len(self.resampled) > 0 and level >= 1.0 / (len(self.resampled) + 1)


@functools.lru_cache(maxsize=16)
def _resample_indices(n, side):
    """Fixed (the same report every time), and independent for the two sides of a comparison."""
    return np.random.default_rng((20170925, n, side)).integers(0, n, (BOOTSTRAP_RESAMPLES, n))


@functools.lru_cache(maxsize=1024)
def _resampled(values_bytes, stat, side):
    """The statistic of every bootstrap resample of one sample (a sample is compared several
    times in a report: resampled once)."""
    values = np.frombuffer(values_bytes)
    return STATISTIC[stat](values[_resample_indices(len(values), side)], axis=1)


def bootstrap(lhs_values, rhs_values, stat, slack):
    """BootstrapComparison of one statistic of two samples of repetitions; None when a side is
    empty or its statistic is not positive."""
    lhs = np.asarray(lhs_values, dtype=float)
    rhs = np.asarray(rhs_values, dtype=float)
    function = STATISTIC[stat]
    if function(rhs) <= 0 or function(lhs) <= 0:
        return None
    if min(len(lhs), len(rhs)) < BOOTSTRAP_MIN_REPETITIONS:
        return BootstrapComparison("repetition", len(lhs), len(rhs),
                                   float(function(lhs) / function(rhs)), np.array([]), 1.0)
    lhs_stats = _resampled(lhs.tobytes(), stat, 0)
    rhs_stats = _resampled(rhs.tobytes(), stat, 1)
    with np.errstate(divide="ignore"):
        resampled = np.sort(lhs_stats / rhs_stats)
    at_most = int(np.searchsorted(resampled, 1.0 + slack, side="right"))
    return BootstrapComparison("repetition", len(lhs), len(rhs), float(function(lhs) /
                                                                       function(rhs)),
                               resampled, (at_most + 1) / (len(resampled) + 1))


def compare(lhs_values, rhs_values, slack, unit):
    """Comparison of two samples of positive times; None when a side is empty or not positive."""
    lhs = np.asarray(lhs_values, dtype=float)
    rhs = np.asarray(rhs_values, dtype=float)
    if len(lhs) < 1 or len(rhs) < 1 or (lhs <= 0).any() or (rhs <= 0).any():
        return None
    log_ratios = np.sort(np.subtract.outer(np.log(lhs), np.log(rhs)).ravel())
    exceeding = len(log_ratios) - int(np.searchsorted(log_ratios, math.log1p(slack),
                                                      side="right"))
    return Comparison(unit, len(lhs), len(rhs), log_ratios,
                      p_value(exceeding, len(lhs), len(rhs)))


def minimum_units(alpha):
    """The fewest units per side (equal sides) with which a test at alpha can reject."""
    n = 1
    while critical_u(n, n, alpha) > n * n:
        n += 1
    return n


def adjusted_levels(p_values, alpha, method):
    """Per test: (adjusted p-value, the level its interval is taken at). bh: Benjamini-Hochberg
    (the expected share of false alarms among the flagged tests <= alpha; the intervals are
    Benjamini-Yekutieli's false-coverage-rate intervals at level R * alpha / m, R the number of
    rejections, which rejects exactly what BH rejects); holm: Holm's step-down (the chance of
    any false alarm <= alpha; Bonferroni's intervals at alpha / m); none: each at alpha."""
    keys = list(p_values)
    m = len(keys)
    if method == "none" or m == 0:
        return {k: (p_values[k], alpha) for k in keys}
    order = sorted(keys, key=lambda k: p_values[k])
    adjusted = {}
    if method == "holm":
        running = 0.0
        for rank, key in enumerate(order):
            running = max(running, min(1.0, (m - rank) * p_values[key]))
            adjusted[key] = running
        return {k: (adjusted[k], alpha / m) for k in keys}
    running = 1.0
    for rank in range(m - 1, -1, -1):  # BH step-up: min over j >= k of m p_(j) / j
        key = order[rank]
        running = min(running, m * p_values[key] / (rank + 1))
        adjusted[key] = running
    rejected = sum(1 for k in keys if adjusted[k] <= alpha)
    level = alpha * max(rejected, 1) / m
    return {k: (adjusted[k], level) for k in keys}


def decided_interval(comparison, level, alpha):
    """(low, high, coverage, corrected): the interval at the corrected level, or at alpha
    (corrected False) when the units are too few for that level (e.g. 4 launches a side at
    alpha / m)."""
    if comparison.testable(level):
        return (*comparison.interval(level), True)
    return (*comparison.interval(alpha), False)
