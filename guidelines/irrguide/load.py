"""Reads irrbench raw.csv files (one row per repetition) and summary CSVs (avg/min per case, e.g.
the paper's published tables) into one table of repetitions and one of summaries. Every problem
is reported as a UserError naming the file, line or column and what was expected."""
import csv
import dataclasses

import numpy as np
import pandas as pd

from . import UserError, environment
from . import metadata as metadata_lines

RAW_COLUMNS = ["op", "distribution", "b", "p", "root", "m", "m_padded", "rep", "seconds", "late",
               "status"]
# Columns a repetitions file may lack (older irrbench files, other tools' output): every
# repetition is then on time and ok.
RAW_DEFAULTS = {"root": "", "rep": "", "late": "0", "status": "ok"}
RAW_REQUIRED = [c for c in RAW_COLUMNS if c not in RAW_DEFAULTS]
SUMMARY_COLUMNS = ["op", "distribution", "b", "p", "m", "m_padded", "avg_us", "min_us"]
CASE_COLUMNS = ["op", "distribution", "b", "p", "m", "m_padded"]
INTEGER_COLUMNS = ["b", "p", "m", "m_padded"]

@dataclasses.dataclass
class Source:
    path: str
    kind: str  # "raw" or "summary"
    metadata: dict
    provenance: list = dataclasses.field(default_factory=list)  # [(who, cases)], see provenance

    def setting(self):
        """The algorithm-selection variables this run was made with, or 'default'."""
        items = sorted((k[4:], v) for k, v in self.metadata.items()
                       if k.startswith("env.") and environment.kind(k[4:]) == "setting")
        # Under libtuwcoll_interpose the MPI_* v-collectives are libtuwcoll's: a setting too.
        if "interposer" in self.metadata:
            items.append(("interposer", self.metadata["interposer"].replace(" ", ",")))
        return " ".join(f"{k}={v}" for k, v in items) or "default"


@dataclasses.dataclass
class Measurements:
    reps: pd.DataFrame  # source, op, distribution, b, p, m, m_padded, us, late
    summaries: pd.DataFrame  # source, op, distribution, b, p, m, m_padded, avg_us, min_us
    sources: list
    notes: list


def _fail(path, line, message):
    where = f"{path} line {line}" if line is not None else path
    raise UserError(f"{where}: {message}")


def _read_lines(path):
    try:
        with open(path, encoding="utf-8") as f:
            return f.read().splitlines()
    except IsADirectoryError:
        raise UserError(f"{path}: is a directory; give the raw.csv file inside it") from None
    except FileNotFoundError:
        raise UserError(f"{path}: no such file") from None
    except PermissionError:
        raise UserError(f"{path}: not readable (permission denied)") from None
    except UnicodeDecodeError:
        raise UserError(f"{path}: not a text CSV file (invalid UTF-8)") from None
    except OSError as e:
        raise UserError(f"{path}: cannot read: {e.strerror}") from None


def _kind_of(path, header, line):
    if set(RAW_REQUIRED) <= set(header):
        return "raw"
    if set(SUMMARY_COLUMNS) <= set(header):
        return "summary"
    missing_raw = [c for c in RAW_REQUIRED if c not in header]
    missing_summary = [c for c in SUMMARY_COLUMNS if c not in header]
    kind, missing, needed = (("irrbench raw", missing_raw, RAW_REQUIRED)
                             if len(missing_raw) <= len(missing_summary)
                             else ("summary", missing_summary, SUMMARY_COLUMNS))
    _fail(path, line, f"missing column(s) {', '.join(missing)} for the {kind} format "
          f"(needs {','.join(needed)}; the other accepted format is "
          f"{','.join(SUMMARY_COLUMNS if kind != 'summary' else RAW_COLUMNS)})")


def _numeric(path, frame, column, line_of, what, integer=False, rows=None):
    """Converts one column, failing on the first value that is not a number >= 0."""
    text = frame[column] if rows is None else frame.loc[rows, column]
    values = pd.to_numeric(text, errors="coerce")
    bad = ~np.isfinite(values.astype(float)) | (values < 0)
    if integer:
        bad |= values.fillna(0) != values.fillna(0).round()
    if bad.any():
        index = bad[bad].index[0]
        _fail(path, line_of[index], f"column '{column}' has '{text[index]}', expected {what}")
    return values


def _job_label(job, restart):
    if not job:
        return "outside SLURM"
    return f"SLURM job {job}" + (f" (restart {restart})" if restart not in ("", "0") else "")


def provenance(metadata, frame, resumes):
    """Which cases of a file which job measured, in file order: [(who, number of cases)].
    The header names the first job; each '# resumed=... job=J restart=R' line (irrbench
    --resume) the next. Empty for a file measured in one go outside SLURM."""
    if "op" not in frame or not (resumes or metadata.get("env.SLURM_JOB_ID")):
        return []
    keys = list(zip(frame["op"], frame["distribution"], frame["b"]))
    seen, segments = set(), []
    who = _job_label(metadata.get("env.SLURM_JOB_ID", ""),
                     metadata.get("env.SLURM_RESTART_COUNT", ""))
    bounds = [row for row, _ in resumes] + [len(keys)]
    start = 0
    for index, end in enumerate(bounds):
        new = {key for key in keys[start:end] if key not in seen}
        seen |= new
        if new:
            segments.append((who, len(new)))
        if index < len(resumes):
            fields = dict(f.split("=", 1) for f in resumes[index][1].split()[1:] if "=" in f)
            who = _job_label(fields.get("job", ""), fields.get("restart", ""))
        start = end
    return segments


def read_file(path):
    lines = _read_lines(path)
    metadata, header_index = metadata_lines.parse(lines)
    if header_index >= len(lines):
        _fail(path, None, "no header line; expected the columns " + ",".join(RAW_COLUMNS)
              + " (irrbench raw.csv) or " + ",".join(SUMMARY_COLUMNS) + " (summary)")
    header = [c.strip() for c in next(csv.reader([lines[header_index]]))]
    kind = _kind_of(path, header, header_index + 1)
    rows, line_of, resumes = [], [], []
    for number, fields in enumerate(csv.reader(lines[header_index + 1:]), header_index + 2):
        if not fields or (len(fields) == 1 and not fields[0].strip()):
            continue
        if fields[0].startswith("#"):  # irrbench --resume notes where it continued a file
            text = ",".join(fields).lstrip("#").strip()
            if "=" in text:
                key, value = text.split("=", 1)
                metadata.setdefault(key.strip(), value.strip())
                if key.strip() == "resumed":
                    resumes.append((len(rows), value.strip()))
            continue
        if len(fields) != len(header):
            _fail(path, number, f"{len(fields)} fields, expected {len(header)} ({','.join(header)})")
        rows.append([f.strip() for f in fields])
        line_of.append(number)
    if not rows:
        _fail(path, None, "no data rows after the header")
    frame = pd.DataFrame(rows, columns=header)
    if kind == "raw":
        for column, value in RAW_DEFAULTS.items():
            if column not in frame:
                frame[column] = value
    for column in INTEGER_COLUMNS:
        frame[column] = _numeric(path, frame, column, line_of, "an integer >= 0",
                                 integer=True).astype("int64")
    source = Source(path, kind, metadata, provenance(metadata, frame, resumes))
    notes = []
    if kind == "raw":
        ok = frame["status"] == "ok"
        for index in frame.index[~ok]:
            row = frame.loc[index]
            notes.append(f"{path} line {line_of[index]}: {row['op']} {row['distribution']} "
                         f"b={row['b']} not measured: {row['status']}")
        seconds = _numeric(path, frame, "seconds", line_of, "a time in seconds >= 0", rows=ok)
        late = pd.to_numeric(frame.loc[ok, "late"], errors="coerce").fillna(0).astype(int)
        reps = frame.loc[ok, CASE_COLUMNS].copy()
        reps["us"] = seconds * 1e6
        reps["late"] = late
        summaries = pd.DataFrame(columns=CASE_COLUMNS + ["avg_us", "min_us"])
    else:
        summaries = frame[CASE_COLUMNS].copy()
        summaries["avg_us"] = _numeric(path, frame, "avg_us", line_of, "a time in µs >= 0")
        summaries["min_us"] = _numeric(path, frame, "min_us", line_of, "a time in µs >= 0")
        wrong = summaries["min_us"] > summaries["avg_us"]
        if wrong.any():
            index = wrong[wrong].index[0]
            _fail(path, line_of[index], f"min_us {frame['min_us'][index]} exceeds avg_us "
                  f"{frame['avg_us'][index]}; the minimum cannot exceed the average")
        reps = pd.DataFrame(columns=CASE_COLUMNS + ["us", "late"])
    reps.insert(0, "source", path)
    summaries.insert(0, "source", path)
    return reps, summaries, source, notes


def read_files(paths):
    all_reps, all_summaries, sources, notes = [], [], [], []
    for path in paths:
        reps, summaries, source, file_notes = read_file(path)
        all_reps.append(reps)
        all_summaries.append(summaries)
        sources.append(source)
        notes.extend(file_notes)
        if "interposer" in source.metadata:
            notes.append(f"{path} ran under libtuwcoll_interpose ({source.metadata['interposer']}):"
                         " its MPI_Gatherv/MPI_Scatterv are libtuwcoll's, not the MPI library's")
    reps = pd.concat(all_reps, ignore_index=True)
    summaries = pd.concat(all_summaries, ignore_index=True)
    if reps.empty and summaries.empty:
        raise UserError(f"no successful measurement in {', '.join(paths)} (every case was "
                        "skipped or failed validation; see the status column)")
    return Measurements(reps, summaries, sources, notes)

