"""irrplot: the plotted data against numpy on synthetic runs, the files it writes, report.html in
headless Chromium (a screenshot, no broken image), and bad input."""
import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ElementTree

import matplotlib.image
import numpy as np
import pytest

import inprocess
from conftest import ROOT
from synthetic import noise, rng, write_raw
from test_irrcheck_render import chromium

IRRPLOT = ROOT / "analysis" / "irrplot"
sys.path.insert(0, str(ROOT / "analysis"))

GATHER_OPS = ("MPI_Gather", "MPI_Gatherv", "TUW_Gatherv", "Guideline2_Gather")
SCATTER_OPS = ("MPI_Scatter", "MPI_Scatterv", "TUW_Scatterv", "Guideline2_Scatter")
DISTS = ("same", "spikes", "two_blocks")
BS = (1, 10, 100)


def scale(op, dist, b):
    """A known median per case (µs): TUW 3x faster than the library's v-operation for b < 100."""
    base = 5 + 0.2 * b * (2 if dist == "spikes" else 1)
    return base * (3 if op.startswith("MPI_") and op.endswith("v") and b < 100 else 1)


def synthetic_run(path, seed, setting=None, nrep=41):
    r = rng(seed)
    cases = {(op, d, b): noise(r, nrep, scale(op, d, b))
             for op in GATHER_OPS + SCATTER_OPS for d in DISTS for b in BS}
    meta = {"nodes": "2", "processes_per_node": "8", "hostname": "node01"}
    if setting:
        meta.update(setting)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_raw(path, cases, meta)
    return {key: np.round(seconds, 9) for key, seconds in cases.items()}  # as written (ns)


def irrplot_command(*args):
    return subprocess.run(["/usr/bin/python3", str(IRRPLOT), *map(str, args)],
                          capture_output=True, text=True, timeout=300, cwd=ROOT)


def irrplot(*args):
    """irrplot ARGS in this process (inprocess.py); the CLI test runs the command itself."""
    from irrplots.cli import main
    return inprocess.run_main(main, args, ROOT)


def in_process(files):
    from irrplots import figures, inputs
    result = inputs.analysed([str(f) for f in files])
    return (figures, result.stats, [g for g, _, _ in result.groups],
            inputs.caption_facts(result.sources))


def test_time_vs_m_plots_the_medians_and_minima(tmp_path):
    cases = synthetic_run(tmp_path / "run" / "raw.csv", 1)
    figures, stats, groups, facts = in_process([tmp_path / "run" / "raw.csv"])
    assert groups == ["all"]
    made = figures.time_vs_m(stats, "all", facts)
    assert [f.stem for f in made] == ["time_vs_m_gather_all", "time_vs_m_scatter_all"]
    gather = made[0].figure
    panels = [ax for ax in gather.axes if ax.get_visible()]
    assert [ax.get_title() for ax in panels] == ["Same", "Spikes", "Two blocks"]
    assert panels[0].get_xscale() == "log" and panels[0].get_yscale() == "log"
    assert panels[0].get_ylabel() == "time (µs)"
    for ax, dist in zip(panels, DISTS):
        lines = {line.get_label(): line for line in ax.get_lines()}
        for op in ("MPI_Gatherv", "TUW_Gatherv"):
            expected = [np.median(cases[(op, dist, b)]) * 1e6 for b in BS]
            assert lines[op].get_ydata() == pytest.approx(expected, rel=1e-9), (dist, op)
            assert list(lines[op].get_xdata()) == [16 * b for b in BS]  # m = p * b
        minima = [line for line in ax.get_lines() if line.get_linestyle() == "--"]
        expected_minima = {tuple(np.round([cases[(op, dist, b)].min() * 1e6 for b in BS], 6))
                           for op in GATHER_OPS}
        assert {tuple(np.round(line.get_ydata(), 6)) for line in minima} == expected_minima
        assert len(ax.collections) == len(GATHER_OPS)  # a CI band per operation (n = 41)
    assert "Synthetic MPI 1.0, p = 16, 2 node(s) x 8 processes" in made[0].caption


def test_speedup_heatmap_is_the_ratio_of_medians(tmp_path):
    cases = synthetic_run(tmp_path / "run" / "raw.csv", 2)
    figures, stats, _, facts = in_process([tmp_path / "run" / "raw.csv"])
    made = figures.speedup_heatmap(stats, "all", facts)
    assert [f.stem for f in made] == ["speedup_gather_all", "speedup_scatter_all"]
    for fig, (native, tuw) in zip(made, (("MPI_Gatherv", "TUW_Gatherv"),
                                         ("MPI_Scatterv", "TUW_Scatterv"))):
        image = fig.figure.axes[0].get_images()[0].get_array()
        expected = np.array([[np.median(cases[(native, d, b)]) / np.median(cases[(tuw, d, b)])
                              for b in BS] for d in DISTS])
        assert np.asarray(image) == pytest.approx(expected, rel=1e-9)
        # The synthetic library is 3x slower for b < 100: the map must say so.
        assert (expected[:, :2] > 2).all() and (expected[:, 2] < 1.5).all()
        texts = [t.get_text() for t in fig.figure.axes[0].texts]
        assert texts == [f"{v:.3g}" for v in expected.flat]


def test_settings_comparison_has_one_line_per_setting(tmp_path):
    for k, algorithm in enumerate(("1", "2", "3")):
        synthetic_run(tmp_path / f"sweep/s{algorithm}/raw.csv", 10 + k,
                      {"env.OMPI_MCA_coll_tuned_gather_algorithm": algorithm,
                       "env.OMPI_MCA_coll_tuned_use_dynamic_rules": "1"})
    synthetic_run(tmp_path / "sweep/default/raw.csv", 20)
    files = sorted((tmp_path / "sweep").glob("*/raw.csv"))
    figures, stats, groups, facts = in_process(files)
    assert len(groups) == 4
    made = figures.settings_comparison(stats, "MPI_Gather", facts)
    assert len(made) == 1 and made[0].stem == "settings_MPI_Gather"
    ax = made[0].figure.axes[0]
    labels = sorted(line.get_label() for line in ax.get_lines())
    assert labels == ["default", "gather_algorithm=1", "gather_algorithm=2",
                      "gather_algorithm=3"]
    # One setting only: nothing to compare.
    _, single, _, _ = in_process(files[:1])
    assert figures.settings_comparison(single, "MPI_Gather", facts) == []


def test_cli_writes_png_svg_and_a_report_that_chromium_renders(tmp_path):
    for k, algorithm in enumerate(("1", "2")):
        synthetic_run(tmp_path / f"sweep/gather-{algorithm}/raw.csv", 30 + k,
                      {"env.OMPI_MCA_coll_tuned_gather_algorithm": algorithm})
    result = irrplot_command(tmp_path / "sweep", "--report")
    assert result.returncode == 0, result.stderr
    plots = tmp_path / "sweep" / "plots"
    pngs, svgs = sorted(plots.glob("*.png")), sorted(plots.glob("*.svg"))
    assert [p.stem for p in pngs] == [p.stem for p in svgs]
    # 2 settings x (2 time-vs-m + 2 heat maps) + 4 compared operations
    assert len(pngs) == 2 * 4 + 4
    for png in pngs:
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert matplotlib.image.imread(str(png)).shape[1] > 500
    for svg in svgs:
        assert ElementTree.parse(svg).getroot().tag.endswith("svg")
        assert "Synthetic MPI 1.0" in svg.read_text()  # the caption is in the image

    report = tmp_path / "sweep" / "report.html"
    page = report.read_text()
    assert "<link" not in page and "src=\"http" not in page  # self-contained
    assert page.count("<img src=\"data:image/png;base64,") == len(pngs)
    assert page.count("<table class=\"times\"") == 2 * 2  # gather + scatter per setting
    assert "gather_algorithm=1" in page and "<h2>Violations</h2>" in page
    probe = """<script>
document.body.setAttribute('data-images', JSON.stringify(Array.from(document.images).map(
  i => ({complete: i.complete, width: i.naturalWidth, height: i.naturalHeight}))));
</script></body>"""
    probed = tmp_path / "probed.html"
    probed.write_text(page.replace("</body>", probe))
    dom = chromium("--dump-dom", probed.as_uri())
    assert dom.returncode == 0, dom.stderr
    start = dom.stdout.index("data-images=\"") + len("data-images=\"")
    images = json.loads(dom.stdout[start:dom.stdout.index("\"", start)].replace("&quot;", "\""))
    assert len(images) == len(pngs)
    broken = [i for i in images if not i["complete"] or i["width"] == 0]
    assert broken == [], "broken images in report.html"
    shot = tmp_path / "shot.png"
    chromium(f"--screenshot={shot}", report.as_uri())
    pixels = matplotlib.image.imread(str(shot))
    assert pixels.shape[0] > 1000 and pixels[..., :3].std() > 0.05  # a page, not a blank


def test_model_ratio_plot_from_model_tsv(tmp_path):
    """With irrmodel's model.tsv beside raw.csv, the report plots measured / predicted."""
    synthetic_run(tmp_path / "run" / "raw.csv", 5)
    rows = ["op\tdistribution\tb\tm\tproblem\ttree\tmeasured_min_us\tmeasured_median_us"
            "\tmodel_us\tmedian_over_model\toptimal_us\tlower_bound_us"]
    expected = {}
    for k, b in enumerate(BS):
        for op, tree in (("TUW_Gatherv", "adaptive"), ("MPI_Gatherv", "")):
            ratio = 0.5 + 0.25 * k if tree else float("nan")
            expected[(op, b)] = ratio
            rows.append(f"{op}\tsame\t{b}\t{16 * b}\tirregular\t{tree}\t1\t1\t"
                        f"{'' if not tree else 1 / ratio}\t{'' if not tree else ratio}\t1\t1")
    (tmp_path / "run" / "model.tsv").write_text("\n".join(rows) + "\n")
    result = irrplot(tmp_path / "run", "--formats", "png")
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "run" / "plots" / "model_ratio_run.png").exists()
    from irrplots import figures
    import pandas as pd
    made = figures.model_ratio(pd.read_csv(tmp_path / "run" / "model.tsv", sep="\t"), "run", "f")
    lines = made[0].figure.axes[0].get_lines()
    tuw = [line for line in lines if line.get_label() == "TUW_Gatherv Same"]
    assert len(tuw) == 1 and list(tuw[0].get_ydata()) == [0.5, 0.75, 1.0]
    assert not [line for line in lines if line.get_label().startswith("MPI_Gatherv")]


def test_output_directory_defaults_to_the_input(tmp_path):
    synthetic_run(tmp_path / "one" / "raw.csv", 3)
    assert irrplot(tmp_path / "one" / "raw.csv", "--formats", "svg").returncode == 0
    assert sorted(p.suffix for p in (tmp_path / "one" / "plots").iterdir()) == [".svg"] * 4
    assert not (tmp_path / "one" / "report.html").exists()
    out = tmp_path / "elsewhere"
    assert irrplot(tmp_path / "one", "--out", out, "--report", "--formats", "png").returncode == 0
    assert (out / "report.html").exists() and len(list((out / "plots").glob("*.png"))) == 4


@pytest.mark.parametrize("args, message", [
    (["EMPTY"], "no raw.csv below this directory"),
    (["/nonexistent/run"], "/nonexistent/run: no such file or directory"),
    (["RUN", "--formats", "gif"], "--formats: unknown format gif; valid: png,svg"),
    (["RUN", "--ops", "MPI_Bcast"], "--ops: unknown operation MPI_Bcast"),
    (["RUN", "--out", "/proc/irrplot"], "irrplot: cannot write"),
    (["RUN", "--check-args", "--stat mean"], "--stat: unknown statistic mean"),
])
def test_bad_input(tmp_path, args, message):
    synthetic_run(tmp_path / "run" / "raw.csv", 4)
    (tmp_path / "empty").mkdir()
    args = [str(tmp_path / "run") if a == "RUN" else str(tmp_path / "empty") if a == "EMPTY"
            else a for a in args]
    result = irrplot(*args)
    assert result.returncode == 2
    assert message in result.stderr
    assert "Traceback" not in result.stderr


def test_published_intel_tables_one_line_per_setting_at_their_averages():
    """The paper's Tables 6-11 (summaries: average and minimum, no repetitions): one line per
    I_MPI_ADJUST setting, drawn at the published averages (hand-read: Table 9, Shumilin's
    MPI_Gather, Same b=1 avg 133951.06 us), and captions that say so."""
    paper = ROOT / "results" / "paper"
    files = [paper / f"traff2017_table{n}.csv" for n in (6, 7, 8, 9, 10, 11)]
    figures, stats, groups, facts = in_process(files)
    assert len(groups) == 6
    made = figures.settings_comparison(stats, "MPI_Gather", facts)
    assert len(made) == 1
    ax = made[0].figure.axes[0]  # Same
    lines = {line.get_label(): line for line in ax.get_lines()}
    assert len(lines) == 6 and "default" in lines
    shumilin = next(line for label, line in lines.items() if "GATHER=3" in label)
    x, y = shumilin.get_data()
    assert (x[0], y[0]) == (6400, 133951.06)
    assert "average (published summary" in made[0].caption
    assert "Intel MPI 2017.2, p = 6400" in facts and "host ?" not in facts
