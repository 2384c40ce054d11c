"""irrtune's outputs: recommendation.csv (one row per cell), the text summary, and the
"Recommended settings" section that scripts/analyse-run puts at the top of a sweep's
report.html and report.md (with the tuning file's text and a link to it)."""
import csv
import os
import io
import math
from html import escape

from . import tuning_files
from .libraries import LIBRARIES, SIZE_RULES

CSV_COLUMNS = ("p", "nodes", "variable", "op", "distribution", "b", "block_elements",
               "library_size", "library_size_unit", "statistic", "unit", "best_setting",
               "best_value", "best_us", "default_us", "ratio_default", "ratio_default_low",
               "ratio_default_high", "p_value", "p_adjusted", "significant", "runner_up_setting",
               "runner_up_value", "ratio_runner_up", "runner_up_significant", "chosen_value",
               "tuned_us", "ratio_tuned_best", "tuned_significantly_slower", "ratio_tuned_chosen",
               "tuned_slower_than_chosen")


def _number(x):
    return "" if x is None or not isinstance(x, (int, float)) or not math.isfinite(x) \
        else f"{x:.6g}"


def _size_unit(variable):
    return SIZE_RULES[variable.size_rule][0] if variable.size_rule else "none (not size-selected)"


def to_csv(rec):
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for c in rec.cells:
        runner = c.runner_up
        tuned_slower = c.tuned_vs_best
        writer.writerow([
            c.p, c.nodes, c.variable.name, c.variable.op, c.distribution, c.b, c.block,
            c.size if c.variable.size_rule else "", _size_unit(c.variable), rec.stat,
            c.best.unit, c.best.setting, c.best.value, _number(c.best.us),
            _number(c.default.us), _number(c.over_default.ratio), _number(c.over_default.low),
            _number(c.over_default.high), _number(c.over_default.p_value),
            _number(c.over_default.p_adjusted), _flag(c.over_default.significant),
            runner.setting if runner else "", runner.value if runner else "",
            _number(c.over_runner_up.ratio) if runner else "",
            _flag(c.over_runner_up.significant) if runner else "", c.chosen,
            _number(c.tuned.us) if c.tuned else "",
            _number(tuned_slower.ratio) if tuned_slower else "",
            _flag(tuned_slower.significant) if tuned_slower else "",
            _number(c.tuned_vs_chosen.ratio) if c.tuned_vs_chosen else "",
            _flag(c.tuned_vs_chosen.significant) if c.tuned_vs_chosen else ""])
    return out.getvalue()


def _flag(value):
    return "" if value is None else "yes" if value else "no"


def _margin_text(m):
    if m is None:
        return "-"
    text = f"{m.ratio:.3f}x"
    if math.isfinite(m.low):
        text += f" ({m.low:.3f}-{m.high:.3f})"
    if m.significant is None:
        return text + " untested"
    return text + (" significant" if m.significant else " within noise")


def _algorithm(variable, value):
    return "default" if value == "default" else f"{value} ({variable.values.get(value, '?')})"


def _tests_text(rec):
    if rec.tests == 0:
        return "no test: published or simulated statistics decide by the threshold alone"
    return (f"Mann-Whitney of the launches' statistics, Benjamini-Hochberg over {rec.tests} tests "
            f"at {rec.alpha:g}")


def range_lines(rec):
    """One line per variable, process count and size range."""
    lines = []
    for variable, by_p in rec.choices:
        for p, ranges in sorted(by_p.items()):
            for r in ranges:
                cells = [c for c in rec.cells if c.variable is variable and c.p == p and (
                    not variable.size_rule or (c.size >= r.low and (r.high is None or
                                                                    c.size <= r.high)))]
                where = (f"{r.low}-{'inf' if r.high is None else r.high} "
                         f"{SIZE_RULES[variable.size_rule][0]}" if variable.size_rule
                         else "all sizes")
                mine = [next((x for x in c.candidates if x.value == r.value), None)
                        for c in cells]
                margins = [c.default.us / m.us for c, m in zip(cells, mine) if m is not None]
                margin = (f"; {min(margins):.3f}-{max(margins):.3f}x faster than the default "
                          f"in the {len(margins)} measured cell(s)" if margins and
                          r.value != "default" else f"; {len(cells)} cell(s)")
                lines.append(f"{variable.op} ({variable.name}) p={p}, {where}: "
                             f"{_algorithm(variable, r.value)}{margin}")
    return lines


def text(rec, file_name=None):
    library = LIBRARIES[rec.library]
    lines = [f"Recommended settings ({library.title}; {len(rec.settings)} settings swept; "
             f"statistic {rec.stat}; a setting replaces the default only when it is faster "
             f"beyond the {rec.threshold:g} threshold and, where the data can be tested, "
             f"significantly so ({_tests_text(rec)}))"]
    lines += ["  " + line for line in range_lines(rec)]
    if file_name:
        lines.append(f"  tuning file: {file_name}")
    for finding in rec.findings:
        lines.append("  finding: " + finding)
    for note in rec.notes:
        lines.append("  note: " + note)
    tuned = [c for c in rec.cells if c.tuned_vs_best is not None]
    for what, margin_of in (("the chosen setting", lambda c: c.tuned_vs_chosen),
                            ("the per-cell best", lambda c: c.tuned_vs_best)):
        if not tuned:
            break
        slower = [c for c in tuned if margin_of(c).significant and
                  margin_of(c).ratio > 1 + rec.threshold]
        lines.append(f"  tuned (the re-run with the file) against {what}: "
                     f"{len(tuned) - len(slower)} of {len(tuned)} cells within noise or faster"
                     + ("; slower in: " + ", ".join(
                         f"{c.variable.op} {c.distribution} b={c.b} ({margin_of(c).ratio:.3f}x"
                         f"{', the sweep chose ' + c.chosen if c.chosen != c.best.value else ''})"
                         for c in slower) if slower else ""))
    return "\n".join(lines) + "\n"


def findings_text(rec):
    """For violations.txt: what no setting fixes, for the library's developers."""
    if not rec.findings:
        return ""
    return ("\nFindings for the library's developers (no swept setting removes these "
            "violations):\n" + "".join(f"  {f}\n" for f in rec.findings))


def html(rec, file_name, file_text):
    library = LIBRARIES[rec.library]
    rows = []
    with_tuned = any(c.tuned for c in rec.cells)
    for c in rec.cells:
        runner = c.runner_up
        tuned = (f"<td class=\"num\">{c.tuned.us:.2f}</td><td>{escape(_margin_text(c.tuned_vs_best))}"
                 "</td>" if c.tuned else "<td></td><td></td>") if with_tuned else ""
        rows.append(
            f"<tr data-variable=\"{escape(c.variable.name)}\" data-distribution=\""
            f"{escape(c.distribution)}\" data-b=\"{c.b}\"><td>{escape(c.variable.op)}</td>"
            f"<td>{c.p}</td><td>{escape(c.distribution)}</td><td class=\"num\">{c.b}</td>"
            f"<td class=\"num\">{c.size if c.variable.size_rule else 'n/a'}</td>"
            f"<td>{escape(c.best.setting)}</td><td class=\"num\">{c.best.us:.2f}</td>"
            f"<td class=\"num\">{c.default.us:.2f}</td>"
            f"<td>{escape(_margin_text(c.over_default))}</td>"
            f"<td>{escape(runner.setting if runner else '-')}</td>"
            f"<td>{escape(_margin_text(c.over_runner_up))}</td>"
            f"<td><b>{escape(_algorithm(c.variable, c.chosen))}</b></td>{tuned}</tr>")
    tuned_head = "<th>tuned &micro;s</th><th>tuned / best</th>" if with_tuned else ""
    parts = [
        "<section id=\"recommended-settings\"><h2>Recommended settings</h2>",
        f"<p>{escape(library.title)}, {len(rec.settings)} settings swept, statistic "
        f"<code>{escape(rec.stat)}</code>. A setting replaces the default only when it is "
        f"faster by more than {rec.threshold:g} and, where the data can be tested, significantly "
        f"so ({escape(_tests_text(rec))}); ties within noise go to the default.</p>",
        "<ul>" + "".join(f"<li>{escape(line)}</li>" for line in range_lines(rec)) + "</ul>"]
    if file_name:
        parts.append(f"<p>The library's own tuning file: <a href=\"{escape(file_name)}\" "
                     f"download>{escape(file_name)}</a></p><pre class=\"tuning-file\" "
                     "style=\"white-space: pre-wrap; overflow-wrap: anywhere\">"
                     f"{escape(file_text)}</pre>")
    if rec.findings:
        parts.append("<p>Findings for the library's developers:</p><ul class=\"findings\">"
                     + "".join(f"<li class=\"violation\">{escape(f)}</li>"
                               for f in rec.findings) + "</ul>")
    if rec.notes:
        parts.append("<ul>" + "".join(f"<li>{escape(n)}</li>" for n in rec.notes) + "</ul>")
    parts.append(
        "<details><summary>Every cell</summary><table class=\"times recommendation\"><thead><tr>"
        "<th>operation</th><th>p</th><th>problem</th><th>b</th><th>library size</th>"
        "<th>best setting</th><th>best &micro;s</th><th>default &micro;s</th>"
        "<th>default / best</th><th>runner-up</th><th>runner-up / best</th><th>chosen</th>"
        f"{tuned_head}</tr></thead><tbody>" + "".join(rows) + "</tbody></table></details>"
        "</section>")
    return "\n".join(parts)


def markdown(rec, file_name, file_text):
    lines = ["## Recommended settings", "", text(rec, file_name).rstrip("\n"), ""]
    if file_name:
        lines += [f"[{file_name}]({file_name}):", "", "```", file_text.rstrip("\n"), "```", ""]
    return "\n".join(lines)


def write_all(directory, rec, mpich_library=None):
    """recommendation.csv, recommendation.txt and the tuning file into the directory; the
    "Recommended settings" section at the top of its report.html and report.md, and the
    findings at the end of violations.txt, when those exist. Returns the files written."""
    library = LIBRARIES[rec.library]
    file_name = library.tuning_file
    path = os.path.join(directory, file_name)
    header = [f"irrtune: recommended {library.title} settings from {len(rec.settings)} swept "
              f"settings ({', '.join(rec.settings)}), statistic {rec.stat}",
              "sizes: " + "; ".join(f"{v.op} by {_size_unit(v)}" for v, _ in rec.choices),
              "use: " + " && ".join(tuning_files.usage(rec.library, path))]
    file_text = tuning_files.write(rec.library, rec.choices, header, mpich_library)
    written = []
    for name, content in ((file_name, file_text), ("recommendation.csv", to_csv(rec)),
                          ("recommendation.txt", text(rec, file_name))):
        with open(os.path.join(directory, name), "w", encoding="utf-8") as f:
            f.write(content)
        written.append(os.path.join(directory, name))
    inserts = {"report.html": ("<p class=\"legend\">", html(rec, file_name, file_text) + "\n"),
               "report.md": ("**bold**: violates", markdown(rec, file_name, file_text) + "\n")}
    for name, (marker, section) in inserts.items():
        target = os.path.join(directory, name)
        if not os.path.exists(target):
            continue
        with open(target, encoding="utf-8") as f:
            content = f.read()
        if "Recommended settings" in content or marker not in content:
            continue
        with open(target, "w", encoding="utf-8") as f:
            f.write(content.replace(marker, section + marker, 1))
    violations = os.path.join(directory, "violations.txt")
    if rec.findings and os.path.exists(violations):
        with open(violations, "a", encoding="utf-8") as f:
            f.write(findings_text(rec))
    return written
