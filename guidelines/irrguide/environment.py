"""The table of recorded environment variables (formats/environment.tsv), the one irrbench and
irrfit record by: what each env.NAME line of a run is - a setting (selects an algorithm: runs
that differ in one are different experiments), context (job facts, timing-relevant settings) or
plumbing (launcher wiring, not recorded by current irrbench; older files may hold it)."""
import csv
import os

TSV = os.path.join(os.path.dirname(os.path.realpath(__file__)), "..", "..", "formats",
                   "environment.tsv")
KINDS = ("setting", "context", "plumbing")


def _read(path=TSV):
    with open(path, encoding="utf-8") as f:
        lines = [line for line in f.read().splitlines() if line and not line.startswith("#")]
    rows = list(csv.reader(lines, delimiter="\t", quoting=csv.QUOTE_NONE))
    if rows[0][:2] != ["pattern", "kind"]:
        raise ValueError(f"{path}: header {rows[0]}, expected pattern, kind, why")
    for row in rows[1:]:
        if row[1] not in KINDS:
            raise ValueError(f"{path}: '{row[0]}' has kind '{row[1]}', expected one of {KINDS}")
    return tuple((row[0], row[1]) for row in rows[1:])


RULES = _read()


def kind(name):
    """The kind of variable NAME (without 'env.'): the first matching rule's, '' if none."""
    for pattern, rule_kind in RULES:
        if pattern.endswith("*") and name.startswith(pattern[:-1]) or name == pattern:
            return rule_kind
    return ""
