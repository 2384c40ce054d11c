"""A/A calibration of irrcheck's verdicts on real launches: the same operation from different
launches presented as both sides of Guideline (1), so that every red check is a false alarm;
and the same data with the left side scaled, so that every check should be red (power)."""
import dataclasses
import pathlib

from synthetic import ROOT  # noqa: F401  (puts guidelines/ on sys.path)
from irrguide import analysis

# Which launch goes to which side: fixed in advance, never chosen from the data. Time-ordered
# halves expose drift between early and late launches, interleaved halves do not.
SPLITS = {"first-vs-last": ((1, 2, 3, 4), (5, 6, 7, 8)),
          "last-vs-first": ((5, 6, 7, 8), (1, 2, 3, 4)),
          "odd-vs-even": ((1, 3, 5, 7), (2, 4, 6, 8)), "even-vs-odd": ((2, 4, 6, 8), (1, 3, 5, 7))}
# Both sides are the same operation: its rows become the regular operation on the left side.
AS_REGULAR = {"gather": "MPI_Gather", "scatter": "MPI_Scatter"}
PAIRS = ({"gather": "MPI_Gatherv", "scatter": "MPI_Scatterv"},
         {"gather": "TUW_Gatherv", "scatter": "TUW_Scatterv"})
STATS = ["avg", "min", "median"]


@dataclasses.dataclass
class Rates:
    checks: int
    red: int

    @property
    def share(self):
        return self.red / self.checks


def side_file(raw, out, ops, rename, scale):
    """One launch's file with only `ops`, renamed by `rename` and its times scaled."""
    lines = pathlib.Path(raw).read_text().splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith("op,"))
    columns = lines[header].split(",")
    op, seconds = columns.index("op"), columns.index("seconds")
    kept = lines[:header + 1]
    for line in lines[header + 1:]:
        fields = line.split(",")
        if line.startswith("#") or fields[op] not in ops:
            continue
        fields[op] = rename.get(fields[op], fields[op])
        fields[seconds] = f"{float(fields[seconds]) * scale:.9f}"
        kept.append(",".join(fields))
    pathlib.Path(out).parent.mkdir(parents=True, exist_ok=True)
    pathlib.Path(out).write_text("\n".join(kept) + "\n")
    return str(out)


def experiment(launch_files, work, scale, settings):
    """Red checks over every split and pair: {(split, pair index): [Check]}."""
    results = {}
    for split, (left, right) in SPLITS.items():
        for index, pair in enumerate(PAIRS):
            ops = set(pair.values())
            rename = {pair[f]: AS_REGULAR[f] for f in pair}
            base = pathlib.Path(work) / f"x{scale:g}" / split / str(index)
            files = [side_file(launch_files[k], base / f"lhs{k}.csv", ops, rename, scale)
                     for k in left]
            files += [side_file(launch_files[k], base / f"rhs{k}.csv", ops, {}, 1.0)
                      for k in right]
            results[(split, index)] = analysis.analyse(files, settings).checks
    return results


def rates(results):
    checks = [c for found in results.values() for c in found if c.guideline == 1]
    return Rates(len(checks), sum(1 for c in checks if c.confirmed))


def settings(**changes):
    return dataclasses.replace(analysis.Settings(stat=list(STATS)), **changes)
