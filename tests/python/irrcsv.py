"""Reads irrbench's raw.csv independently of the C++ code: metadata and rows."""
import csv


def read(path):
    meta, rows = {}, []
    with open(path) as f:
        lines = f.read().splitlines()
    data = []
    for line in lines:
        if line.startswith("# "):
            key, _, value = line[2:].partition("=")
            meta[key] = value
        else:
            data.append(line)
    for row in csv.DictReader(data):
        rows.append(row)
    return meta, rows
