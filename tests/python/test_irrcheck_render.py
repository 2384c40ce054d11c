"""irrcheck's renderings: HTML opened in headless Chromium (flagged cells red and bold, exactly
where an independent evaluation of the guidelines says), Markdown read back by pandas, LaTeX
compiled, terminal colors; and the whole chain on a real irrbench run."""
import html.parser
import json
import re
import shutil
import subprocess

import matplotlib.image
import pandas as pd
import pytest

from synthetic import ROOT, noise, rng, run, write_raw

TABLE3 = ROOT / "results" / "paper" / "traff2017_table3.csv"
IMPLS = ("MPI_Gatherv", "TUW_Gatherv")
RED = "rgb(208, 0, 0)"


def expected_flags(path):
    """The guidelines evaluated directly on the published avg/min numbers."""
    d = pd.read_csv(path, comment="#").set_index(["op", "distribution", "b"])
    flags = set()
    for dist, b in {(dist, b) for _, dist, b in d.index}:
        for stat, col in (("avg", "avg_us"), ("min", "min_us")):
            gather = d.loc[("MPI_Gather", dist, b)]
            if gather["m"] == gather["m_padded"] and any(
                    gather[col] > d.loc[(impl, dist, b), col] for impl in IMPLS):
                flags.add((dist, b, "MPI_Gather", stat))
            for impl in IMPLS:
                if d.loc[(impl, dist, b), col] > d.loc[("Guideline2_Gather", dist, b), col]:
                    flags.add((dist, b, impl, stat))
    return flags


PROBE = """<script>
for (const td of document.querySelectorAll('td[data-op]')) {
  const s = getComputedStyle(td), r = td.getBoundingClientRect();
  td.setAttribute('data-probe', JSON.stringify({color: s.color, weight: s.fontWeight,
      rect: [r.left, r.top, r.right, r.bottom]}));
}
</script></body>"""


class Cells(html.parser.HTMLParser):
    """Collects (distribution, b, op, stat) -> probe of every time cell."""

    def __init__(self):
        super().__init__()
        self.row, self.cells = {}, {}

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "tr" and "data-distribution" in a:
            self.row = a
        if tag == "td" and "data-probe" in a:
            key = (self.row["data-distribution"], int(self.row["data-b"]), a["data-op"],
                   a["data-stat"])
            self.cells[key] = json.loads(a["data-probe"])


def chromium(*args):
    binary = shutil.which("chromium")
    if binary is None:
        pytest.fail("chromium is not installed: run scripts/install-deps")
    return subprocess.run([binary, "--headless", "--no-sandbox", "--disable-gpu",
                           "--hide-scrollbars", "--force-device-scale-factor=1",
                           "--window-size=1600,2400", *map(str, args)],
                          capture_output=True, text=True, timeout=120)


def test_html_in_chromium_has_red_bold_cells_exactly_at_violations(tmp_path):
    report = tmp_path / "report.html"
    result = run(TABLE3, "--format", "html", "--out", report)
    assert result.returncode == 0, result.stderr
    page = report.read_text()
    assert "<link" not in page and "src=\"http" not in page  # self-contained
    probed = tmp_path / "probed.html"
    probed.write_text(page.replace("</body>", PROBE))
    dom = chromium("--dump-dom", probed.as_uri())
    assert dom.returncode == 0, dom.stderr
    parser = Cells()
    parser.feed(dom.stdout)
    assert len(parser.cells) == 30 * 8
    red = {k for k, v in parser.cells.items() if v["color"] == RED and v["weight"] == "700"}
    expected = expected_flags(TABLE3)
    assert ("same", 100, "MPI_Gather", "min") in expected  # the paper's red 764.00
    assert red == expected

    shot = tmp_path / "shot.png"
    result = chromium(f"--screenshot={shot}", probed.as_uri())
    assert shot.exists(), result.stderr
    pixels = matplotlib.image.imread(str(shot))
    height, width = pixels.shape[:2]

    def red_pixels(rect):
        left, top, right, bottom = (int(round(v)) for v in rect)
        box = pixels[max(top, 0):min(bottom, height), max(left, 0):min(right, width), :3]
        return int(((box[..., 0] > 0.6) & (box[..., 1] < 0.25) & (box[..., 2] < 0.25)).sum())

    visible = {k: v for k, v in parser.cells.items() if v["rect"][3] <= height}
    assert len(visible) > 100, "the screenshot should show most of the table"
    for key, probe in visible.items():
        assert (red_pixels(probe["rect"]) > 10) == (key in expected), key


def test_markdown_round_trips_through_pandas(tmp_path):
    out = tmp_path / "report.md"
    assert run(TABLE3, "--format", "markdown", "--out", out).returncode == 0
    text = out.read_text()
    table_lines = [l for l in text.splitlines() if l.startswith("|")]
    table_lines.pop(1)  # the alignment row
    frame = pd.read_csv(pd.io.common.StringIO("\n".join(table_lines)), sep="|",
                        skipinitialspace=True).iloc[:, 1:-1]
    frame.columns = [c.strip() for c in frame.columns]
    published = pd.read_csv(TABLE3, comment="#")
    assert len(frame) == 30
    flags = set()
    for _, row in frame.iterrows():
        dist = {"Two blocks": "two_blocks"}.get(row["Problem"].strip(),
                                                row["Problem"].strip().lower())
        rows = published[(published["distribution"] == dist) & (published["m"] == int(row["m"]))]
        b = int(rows["b"].iloc[0])
        assert int(row["m'"]) == rows["m_padded"].iloc[0]
        for op, title in (("MPI_Gather", "MPI_Gather"), ("Guideline2_Gather", "Guideline (2)"),
                          ("MPI_Gatherv", "MPI_Gatherv"), ("TUW_Gatherv", "TUW_Gatherv")):
            for stat in ("avg", "min"):
                cell = str(row[f"{title} {stat}"]).strip()
                if cell.startswith("**"):
                    flags.add((dist, b, op, stat))
                value = float(cell.strip("*?"))
                assert value == rows[rows["op"] == op][f"{stat}_us"].iloc[0]
    assert flags == expected_flags(TABLE3)


def test_latex_compiles_and_marks_violations(tmp_path):
    tex = tmp_path / "report.tex"
    assert run(TABLE3, "--format", "latex", "--out", tex).returncode == 0
    source = tex.read_text()
    assert r"\textcolor{red}{\textbf{764.00}}" in source
    assert source.count(r"\textcolor{red}") == len(expected_flags(TABLE3))
    if shutil.which("pdflatex") is None:
        pytest.skip("pdflatex not installed (texlive-latex-base): compilation not checked")
    result = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error",
                             tex.name], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout[-3000:]
    assert (tmp_path / "report.pdf").stat().st_size > 1000


def test_terminal_colors_only_when_asked(tmp_path):
    colored = run(TABLE3, "--color", "always").stdout
    plain = run(TABLE3).stdout  # stdout is a pipe: plain
    flagged = len(expected_flags(TABLE3))
    assert colored.count("\033[1;31m") == flagged + 1  # + the legend
    assert "\033[" not in plain
    assert len(re.findall(r"\[\d+\.\d\d\]", plain)) == flagged
    assert "[764.00]" in plain


def test_unconfirmed_violations_are_marked_differently(tmp_path):
    r = rng(2)
    base = noise(r, 75, 80.0)
    path = write_raw(tmp_path / "raw.csv", {("Guideline2_Gather", "random", 1): base,
                                            ("MPI_Gatherv", "random", 1): base[::-1] * 1.01})
    result = run(path, "--format", "markdown")
    assert result.returncode == 0, result.stderr
    row = next(l for l in result.stdout.splitlines() if l.startswith("| Random"))
    assert re.search(r"\| \d+\.\d\d\? \|", row) and "**" not in row, row
    page = run(path, "--format", "html").stdout
    assert 'class="num unconfirmed"' in page and 'class="num violation"' not in page


def test_real_irrbench_run_to_reports(openmpi, tmp_path):
    raw = tmp_path / "raw.csv"
    result = openmpi.run(4, "--dists", "same,two_blocks", "--b", "1,10", "--nrep", "12",
                         "--warmup", "2", "--out", raw)
    assert result.returncode == 0, result.stderr
    result = run(raw, "--write-reports", tmp_path)
    assert result.returncode == 0, result.stderr
    for name in ("report.md", "report.html", "report.tex", "violations.txt", "stats.csv"):
        assert (tmp_path / name).stat().st_size > 0, name
    assert "Gather (times in µs)" in result.stdout and "Scatter (times in µs)" in result.stdout
    summary = (tmp_path / "violations.txt").read_text().splitlines()[-1]
    assert re.match(r"irrcheck: \d+ violations? in 48 checks", summary), summary
    page = (tmp_path / "report.html").read_text()
    assert "Open MPI" in page and page.count("<table class=\"times\"") == 2
