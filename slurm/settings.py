"""The collective-algorithm settings a sweep can select, per MPI library (the catalogue is
guidelines/irrguide/libraries.py), and how a user names a setting on the command line
("default", "gather=3", "gather=2+gatherv=3", the variable's full name, or "tuned=FILE": the
configuration irrtune wrote, in the library's own tuning format)."""
import dataclasses
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.realpath(__file__)), "..", "guidelines"))

from irrguide import tuning_files  # noqa: E402
from irrguide.libraries import LIBRARIES, Library, Variable  # noqa: E402,F401


class SettingError(ValueError):
    """A setting the library does not have: the message lists the valid ones."""


@dataclasses.dataclass(frozen=True)
class Setting:
    name: str  # canonical: default, gather=3, gather=2+gatherv=3
    env: dict  # what the job exports

    @property
    def slug(self):
        """For directory names: gather=2+gatherv=3 -> gather-2_gatherv-3."""
        return re.sub(r"[^A-Za-z0-9_.-]", "", self.name.replace("=", "-").replace("+", "_"))

    def description(self, library):
        if not self.env:
            return f"{library.title} default selection"
        if self.name == "tuned":
            return "irrtune's configuration: " + " ".join(f"{k}={v}" for k, v in self.env.items())
        algorithms = []
        for part in self.name.split("+"):
            key, value = part.split("=")
            variable = next(v for v in library.variables if v.key == key)
            algorithms.append(f"{variable.name}={value} ({variable.values[value]})")
        return ", ".join(algorithms)


def valid_text(library):
    parts = ["default"]
    for v in library.variables:
        parts.append(f"{v.key}={'|'.join(v.values)}")
    return (f"valid {library.title} settings: " + ", ".join(parts)
            + "; combine with '+' (gather=2+gatherv=3); 'all' = default and each value alone; "
            f"tuned=FILE = irrtune's {library.tuning_file}")


def parse_setting(library, text):
    """One setting as typed: default, gather=3, I_MPI_ADJUST_GATHER=3, gather=2+gatherv=3."""
    text = text.strip()
    if text == "default":
        return Setting("default", {})
    if text.startswith("tuned="):
        try:
            return Setting("tuned", tuning_files.environment(library.key, text[len("tuned="):]))
        except tuning_files.TuningFileError as e:
            raise SettingError(f"{text}: {e}") from None
    chosen = {}
    for part in text.split("+"):
        key, sep, value = part.partition("=")
        key, value = key.strip(), value.strip()
        variable = next((v for v in library.variables
                         if key.lower() == v.key or key == v.name), None)
        if not sep or variable is None:
            raise SettingError(f"unknown {library.title} setting '{part}'; {valid_text(library)}")
        if value not in variable.values:
            raise SettingError(f"{variable.name}={value}: {library.title} has no such algorithm; valid "
                               f"values: " + ", ".join(f"{k} ({a})"
                                                       for k, a in variable.values.items()))
        if variable.key in chosen:
            raise SettingError(f"'{text}' sets {variable.key} twice")
        chosen[variable.key] = value
    order = [v.key for v in library.variables]
    keys = sorted(chosen, key=order.index)
    env = dict(library.base_env)
    for key in keys:
        env[next(v.name for v in library.variables if v.key == key)] = chosen[key]
    return Setting("+".join(f"{k}={chosen[k]}" for k in keys), env)


def all_settings(library):
    """The default and every value of every variable alone."""
    found = [Setting("default", {})]
    for variable in library.variables:
        for value in variable.values:
            if value not in library.default_values:
                found.append(parse_setting(library, f"{variable.key}={value}"))
    return found


def parse_settings(library, text):
    """A comma-separated list; 'all' expands; duplicates are dropped, order kept."""
    result = []
    for item in [i for i in text.split(",") if i.strip()]:
        new = all_settings(library) if item.strip() == "all" else [parse_setting(library, item)]
        result += [s for s in new if s.name not in {r.name for r in result}]
    if not result:
        raise SettingError(f"--settings: empty list; {valid_text(library)}")
    return result
