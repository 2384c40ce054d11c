"""The violation report: one line per violated check, largest factor first, and a summary line."""
import math

from .check import display_name
from .table import distribution_title


def significance_text(check):
    if check.significant is None:
        return "untested: summary input has no repetitions"
    if check.exact:
        return ("exact: simulated, the medians differ" if check.significant
                else "exact: simulated, the medians do not differ")
    word = "significant" if check.significant else "not significant"
    adjusted = f", Holm-adjusted {check.p_adjusted:.2g}" if check.p_adjusted == check.p_adjusted \
        else ""
    return f"{word}, Mann-Whitney p={check.p_value:.2g}{adjusted}"


def violation_line(check, with_group):
    lhs, rhs = display_name(check.lhs_op), display_name(check.rhs_op)
    group = f"[{check.group}] " if with_group else ""
    return (f"{group}Guideline ({check.guideline}) {check.family:<7} "
            f"{distribution_title(check.distribution):<11} b={check.b:<6} {check.stat:<6} "
            f"{lhs} {check.lhs:.2f} µs vs {rhs} {check.rhs:.2f} µs: "
            f"{lhs} is {check.factor:.3g}× slower than {rhs} ({significance_text(check)})")


def violations(checks):
    """Violated checks, confirmed before unconfirmed, then by factor, largest first."""
    return sorted((c for c in checks if c.violated),
                  key=lambda c: (not c.confirmed, -c.factor if math.isfinite(c.factor) else -1e300,
                                 c.group, c.family, c.guideline, c.distribution, c.b, c.stat))


def summary_line(checks, skipped, options):
    violated = [c for c in checks if c.violated]
    confirmed = [c for c in violated if c.confirmed]
    untested = [c for c in violated if c.significant is None]
    exact = [c for c in confirmed if c.exact]
    parts = [f"{len(violated)} violation{'s' if len(violated) != 1 else ''} in {len(checks)} checks"]
    tested = len(confirmed) - len(untested) - len(exact)
    detail = [f"{tested} significant"] if tested else []
    if exact:
        detail.append(f"{len(exact)} exact: simulated input")
    if len(violated) - len(confirmed):
        detail.append(f"{len(violated) - len(confirmed)} not significant")
    if untested:
        detail.append(f"{len(untested)} untested: summary input")
    if detail:
        parts[0] += f" ({', '.join(detail)})"
    parts.append(f"stat {','.join(options.stat)}, slack {options.slack:g}, alpha {options.alpha:g}"
                 + (", Holm-corrected" if options.correction == "holm" else ""))
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
