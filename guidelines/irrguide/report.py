"""The violation report: one line per violated check, confirmed ones first, largest ratio first,
and a summary line. The wording of a verdict (ratio, interval, unit, test) is defined here once
and used by every format."""
import math

from .check import display_name
from .ratio_test import CORRECTIONS
from .table import distribution_title, ratio_text



def unit_text(check):
    if check.unit == "launch":
        return f"{check.launches[0]} vs {check.launches[1]} launches"
    return f"repetitions of {'one launch' if max(check.launches) == 1 else 'pooled launches'}"


def significance_text(check):
    if check.significant is None:
        return "untested: summary input has no repetitions"
    if check.exact:
        return ("exact: simulated, the medians differ" if check.significant
                else "exact: simulated, the medians do not differ")
    if check.comparison is None:
        return "not testable: a time of 0"
    word = "significant" if check.significant else "not significant"
    if check.significant and not check.practical:
        word = f"significant, but within the {100 * check.threshold:g} % threshold"
    adjusted = (f", adjusted {check.p_adjusted:.2g}"
                if math.isfinite(check.p_adjusted) and check.p_adjusted != check.p_value else "")
    test = "Mann-Whitney" if check.unit == "launch" else "bootstrap"
    return f"{word}; {unit_text(check)}, {test} p={check.p_value:.2g}{adjusted}"


def violation_line(check, with_group):
    lhs, rhs = display_name(check.lhs_op), display_name(check.rhs_op)
    group = f"[{check.group}] " if with_group else ""
    return (f"{group}Guideline ({check.guideline}) {check.family:<7} "
            f"{distribution_title(check.distribution):<11} b={check.b:<6} {check.stat:<6} "
            f"{lhs} {check.lhs:.2f} µs vs {rhs} {check.rhs:.2f} µs: {ratio_text(check)} "
            f"({significance_text(check)})")


def violations(checks):
    """Violated checks, confirmed before unconfirmed, then by ratio, largest first."""
    return sorted((c for c in checks if c.violated),
                  key=lambda c: (not c.confirmed, -c.ratio if math.isfinite(c.ratio) else -1e300,
                                 c.group, c.family, c.guideline, c.distribution, c.b, c.stat))


def method_text(checks, options):
    """How the verdicts were reached: the header of every report."""
    units = sorted({c.unit for c in checks})
    launches = sorted({c.launches for c in checks if c.unit == "launch"})
    parts = [f"stat {','.join(options.stat)}", f"slack {options.slack:g}",
             f"threshold {options.threshold:g}", f"alpha {options.alpha:g}"]
    tests = len({c.test_key for c in checks if c.comparison is not None})
    if tests:
        parts.append(f"{CORRECTIONS[options.correction]} over {tests} tests")
    if "launch" in units:
        parts.append("unit: launches (" + ", ".join(f"{a} vs {b}" for a, b in launches) + ")")
    if "repetition" in units:
        parts.append("unit: repetitions (ignores launch-to-launch variation)")
    return ", ".join(parts)


def summary_line(checks, skipped, options):
    violated = [c for c in checks if c.violated]
    confirmed = [c for c in violated if c.confirmed]
    untested = [c for c in violated if c.significant is None]
    exact = [c for c in confirmed if c.exact]
    small = [c for c in violated if c.significant and not c.practical]
    plural = "s" if len(violated) != 1 else ""
    parts = [f"{len(violated)} violation{plural} in {len(checks)} checks"]
    tested = len(confirmed) - len(untested) - len(exact)
    detail = [f"{tested} significant beyond the threshold"] if tested else []
    if exact:
        detail.append(f"{len(exact)} exact: simulated input")
    if small:
        detail.append(f"{len(small)} significant but within the threshold")
    if len(violated) - len(confirmed) - len(small):
        detail.append(f"{len(violated) - len(confirmed) - len(small)} not significant")
    if untested:
        detail.append(f"{len(untested)} untested: summary input")
    if detail:
        parts[0] += f" ({', '.join(detail)})"
    parts.append(method_text(checks, options))
    if skipped:
        parts.append(f"{len(skipped)} guideline check{'s' if len(skipped) != 1 else ''} skipped")
    return "irrcheck: " + "; ".join(parts)


def report_text(checks, skipped, notes, options, with_group):
    lines = [violation_line(c, with_group) for c in violations(checks)]
    if not lines:
        lines.append("no guideline violations")
    lines += [f"note: {n}" for n in skipped + notes]
    lines.append(summary_line(checks, skipped, options))
    return "\n".join(lines) + "\n"
