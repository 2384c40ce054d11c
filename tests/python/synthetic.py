"""Writes irrbench-format raw.csv files with known properties, and runs irrcheck on them."""
import pathlib
import sys

import numpy as np

import inprocess

ROOT = pathlib.Path(__file__).resolve().parents[2]
HEADER = "op,distribution,b,p,root,m,m_padded,rep,seconds,late,status"
sys.path.insert(0, str(ROOT / "guidelines"))


def noise(rng, n, scale_us):
    """Cluster-like noise: log-normal around scale with a few large outliers, in seconds."""
    x = scale_us * rng.lognormal(0.0, 0.15, n)
    x[rng.random(n) < 0.05] *= rng.uniform(2, 6)
    return x * 1e-6


def write_raw(path, cases, metadata=None, p=16):
    """cases: {(op, distribution, b): seconds array}; m and m' follow the distribution name
    ('same' regular, anything else padded to twice its size)."""
    meta = {"library": "Synthetic MPI 1.0", "p": str(p), "nrep": "75", "tool": "irrbench"}
    meta.update(metadata or {})
    lines = [f"# {k}={v}" for k, v in meta.items()] + [HEADER]
    for (op, dist, b), seconds in cases.items():
        m = p * b
        padded = m if dist == "same" else 2 * m
        for rep, s in enumerate(seconds):
            lines.append(f"{op},{dist},{b},{p},{p // 2},{m},{padded},{rep},{s:.9f},0,ok")
    pathlib.Path(path).write_text("\n".join(lines) + "\n")
    return path


def run(*args, cwd=None):
    """irrcheck ARGS, in this process (inprocess.py): returncode, stdout, stderr."""
    from irrguide.cli import main
    return inprocess.run_main(main, args, cwd or ROOT)


def analyse(*args):
    """irrcheck's analysis in-process: (groups, checks, skipped, notes, stats)."""
    from irrguide import analysis
    from irrguide.cli import parse_args
    options = parse_args([str(a) for a in args])
    result = analysis.analyse(options.files, options.settings, options.group_by)
    return result.groups, result.checks, result.skipped, result.notes, result.stats


def rng(seed):
    return np.random.default_rng(seed)
